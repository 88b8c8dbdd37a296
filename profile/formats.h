/* hddsim: the profile file formats: one loader each, listed in
 * profile_load.c's profile_formats[] by the file name's ending, and
 * what every loader starts from.
 *
 * A loader calls profile_file_begin first, then hdd_params_set for
 * each value (params_note_line with its line, so that validation
 * errors can name it), and names the file and the line in its own
 * errors.
 */
#ifndef HDDSIM_FORMATS_H
#define HDDSIM_FORMATS_H

#include <stddef.h>

#include "../model/params.h"
#include "profile.h"

/* Replace all values by a built-in profile's. */
extern int profile_apply (struct hdd_params *, const struct hdd_profile *,
                          char *err, size_t errlen);
/* A file loader's first step: the default profile's values, named
 * after the file (hdd_params_validate's errors then name it too).
 */
extern int profile_file_begin (struct hdd_params *, const char *path,
                               char *err, size_t errlen);
/* Load a profile file into p; -1 and err naming the file (and the line
 * where there is one) on error.
 */
typedef int profile_file_loader (struct hdd_params *p, const char *path,
                                 char *err, size_t errlen);
extern profile_file_loader profile_load_ini;        /* profile_ini.c */
extern profile_file_loader profile_load_disksim;    /* profile_disksim.c */

#endif /* HDDSIM_FORMATS_H */
