/* hddsim fuzzing: a profile file (profile=PATH.ini), as the plugin
 * loads it, then a drive built from it if it is valid.
 */

#include <stdio.h>
#include <string.h>

#include "../profile/profile.h"
#include "fuzz.h"

void
fuzz_one (const char *path)
{
  char name[4096], err[HDD_ERRLEN];
  struct hdd_params *p = hdd_params_new ();

  fuzz_assert (p != NULL, "out of memory");
  /* a name with a '/' in it is a file, not a built-in profile */
  snprintf (name, sizeof name, "%s%s", strchr (path, '/') ? "" : "./", path);
  if (hdd_params_load_profile (p, name, err, sizeof err) == -1)
    fuzz_assert (strstr (err, name) != NULL,
                 "the message does not name the file: %s", err);
  else if (hdd_params_validate (p, err, sizeof err) == 0)
    fuzz_drive (p, 0);
  hdd_params_free (p);
}
