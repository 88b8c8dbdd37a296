/* hddsim: DiskSim 4.0 drive specifications as profile files
 * (profile=FILE.parv or FILE.diskspecs): the DiskSim loader's drive
 * (disksim/) expressed in parameters.
 */

#include <stdio.h>

#include "../disksim/disksim.h"
#include "../model/params.h"
#include "formats.h"

/* The messages name the file and line where DiskSim's files give
 * them; the prefix names the parameter.  On failure *out is as it was.
 */
int
profile_load_disksim (struct hdd_params *out, const char *path, char *err,
                      size_t errlen)
{
  size_t used = (size_t) snprintf (err, errlen, "profile=%s: ", path);
  struct ds_drive *d;
  struct hdd_params p;
  int r;

  if (used >= errlen)
    used = 0;
  d = ds_drive_load (path, err + used, errlen - used);
  if (!d)
    return -1;
  r = ds_drive_to_params (d, &p, NULL, NULL, err + used, errlen - used);
  ds_drive_free (d);
  if (r == 0) {
    *out = p;
    snprintf (out->file, sizeof out->file, "%s", path);
  }
  return r;
}
