/* hddsim: sectors go bad while the drive runs (fault=bad:LBA+COUNT).
 *
 * The one call a fault makes into the bad-sector map of issue 27
 * ("Failing drives: bad sectors ..."), which is built elsewhere; until
 * it is in the build, fault_bad_stub.c says it is not available and
 * fault=bad: is refused at start-up.  At the merge, the map's file
 * defines these two and the stub goes.
 */
#ifndef HDDSIM_FAULT_BAD_H
#define HDDSIM_FAULT_BAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hdd;

/* Whether this build can mark sectors bad. */
extern bool hdd_fault_mark_bad_available (void);

/* Sectors [lba, lba + count) of the drive go bad at modeled time t:
 * from then on they read as the bad-sector map says.  0, or -1 and err.
 */
extern int hdd_fault_mark_bad (struct hdd *, uint64_t lba, uint64_t count,
                               uint64_t t, char *err, size_t errlen);

#endif /* HDDSIM_FAULT_BAD_H */
