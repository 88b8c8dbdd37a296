/* hddsim: sectors go bad while the drive runs (fault=bad:LBA+COUNT):
 * the one call a fault makes into the drive's bad-sector map (the
 * tail's, tail.h), which faults.c cannot see into.
 */
#ifndef HDDSIM_FAULT_BAD_H
#define HDDSIM_FAULT_BAD_H

#include <stdint.h>

struct hdd;

/* Sectors [lba, lba + count) of the drive go bad: from then on they
 * read as a bad-sectors= sector does.  0, or -1 on no memory.
 */
extern int hdd_fault_mark_bad (struct hdd *, uint64_t lba, uint64_t count);

#endif /* HDDSIM_FAULT_BAD_H */
