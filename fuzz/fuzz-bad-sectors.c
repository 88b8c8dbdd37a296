/* hddsim fuzzing: a bad-sectors file (bad-sectors=PATH: a GNU ddrescue
 * mapfile or plain ranges, model/badmap.h), as the drive reads it, then
 * a drive with those failing sectors if it parsed.
 */

#include <stdio.h>
#include <string.h>

#include "../model/badmap.h"
#include "../profile/profile.h"
#include "fuzz.h"

/* What badmap.h promises of a map: ranges sorted, apart, not empty. */
static void
check_map (const struct badmap *m)
{
  size_t i;

  for (i = 0; i < m->n; i++) {
    fuzz_assert (m->r[i].n > 0, "range %zu is empty", i);
    fuzz_assert (m->r[i].first + m->r[i].n > m->r[i].first,
                 "range %zu wraps", i);
    fuzz_assert (i == 0 || m->r[i - 1].first + m->r[i - 1].n
                 <= m->r[i].first, "ranges %zu and %zu overlap or are out "
                 "of order", i - 1, i);
  }
}

void
fuzz_one (const char *path)
{
  char err[HDD_ERRLEN];
  struct hdd_params *p;
  struct badmap m;

  if (badmap_load (&m, path, err, sizeof err) == -1) {
    fuzz_assert (strstr (err, path) != NULL,
                 "the message does not name the file: %s", err);
    return;
  }
  check_map (&m);
  badmap_free (&m);
  /* The same file on a drive: reads over it fail or retry, writes
     reallocate (fuzz_drive checks each request's parts). */
  p = hdd_params_new ();
  fuzz_assert (p != NULL, "out of memory");
  if (hdd_params_load_profile (p, "st340014a", err, sizeof err) == 0
      && hdd_params_set (p, "erc", "1s", err, sizeof err) == 0
      && hdd_params_set (p, "weak-success", "500000", err, sizeof err) == 0
      && hdd_params_set (p, "bad-sectors", path, err, sizeof err) == 0)
    fuzz_drive (p, 0);
  hdd_params_free (p);
}
