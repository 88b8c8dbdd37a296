/* hddsim: the profile loader's parts (profile_load.c, profile_ini.c). */
#ifndef HDDSIM_PROFILE_LOAD_H
#define HDDSIM_PROFILE_LOAD_H

#include <stddef.h>

#include "hdd.h"
#include "params.h"

/* Replace all values by a built-in profile's. */
extern int profile_apply (struct hdd_params *, const struct hdd_profile *,
                          char *err, size_t errlen);
/* A file loader's first step: the default profile's values, named
 * after the file (hdd_params_validate's errors then name it too).
 */
extern int profile_file_begin (struct hdd_params *, const char *path,
                               char *err, size_t errlen);
/* Load a profile file into p; -1 and err naming the file (and the line
 * where there is one) on error.  One per format, listed in
 * profile_load.c's profile_formats[].
 */
typedef int profile_file_loader (struct hdd_params *p, const char *path,
                                 char *err, size_t errlen);
extern profile_file_loader profile_load_ini;
extern profile_file_loader profile_load_disksim;   /* .parv, .diskspecs */

#endif /* HDDSIM_PROFILE_LOAD_H */
