/* hddsim: fault=bad: without the bad-sector map (see fault_bad.h). */

#include <stdio.h>

#include "fault_bad.h"

bool
hdd_fault_mark_bad_available (void)
{
  return false;
}

int
hdd_fault_mark_bad (struct hdd *d, uint64_t lba, uint64_t count, uint64_t t,
                    char *err, size_t errlen)
{
  (void) d; (void) lba; (void) count; (void) t;
  snprintf (err, errlen, "sectors going bad (fault=bad:) need the "
            "bad-sector map, which is not available in this build");
  return -1;
}
