/* hddsim fuzzing: a DiskSim 4.0 parameter file (profile=FILE.parv) as
 * the profile loader imports it, then a drive built from it when the
 * model takes it.  The input is one file: its 'source' lines name
 * files that afl++'s work folder does not hold, so the seeds carry
 * their includes inline (fuzz/corpus/disksim-parv/).
 */

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../profile/profile.h"
#include "fuzz.h"

void
fuzz_one (const char *path)
{
  char name[4096], err[HDD_ERRLEN];
  struct hdd_params *p = hdd_params_new ();

  fuzz_assert (p != NULL, "out of memory");
  /* The loader picks the format by the name's ending: afl++ names its
   * input .cur_input, so link it under a .parv name beside itself.
   */
  snprintf (name, sizeof name, "%s.parv", path);
  unlink (name);
  fuzz_assert (symlink (path[0] == '/' ? path : strrchr (path, '/')
                        ? strrchr (path, '/') + 1 : path, name) == 0,
               "symlink %s: %m", name);
  if (hdd_params_load_profile (p, name, err, sizeof err) == -1)
    fuzz_assert (strstr (err, name) != NULL,
                 "the message does not name the file: %s", err);
  else if (hdd_params_validate (p, err, sizeof err) == 0)
    fuzz_drive (p, 0);
  unlink (name);
  hdd_params_free (p);
}
