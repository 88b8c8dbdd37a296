/* hddsim: drive profiles: the built-in drives, and profile files (INI,
 * DiskSim's .parv and .diskspecs), loaded into the model's parameters.
 *
 * A layer above the model (model/hdd.h, params.h) and the DiskSim
 * loader (disksim/), which know nothing of profiles; below the setup
 * (sched/setup.c) that the plugin and the tools share.
 */
#ifndef HDDSIM_PROFILE_H
#define HDDSIM_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../model/hdd.h"

/* Built-in profiles: data only (profiles.c).  Each value keeps its
 * source, for --dump-plugin and the docs.
 */
struct hdd_profile_value {
  const char *key;
  const char *value;
  const char *source;
};

struct hdd_profile {
  const char *name;
  const char *description;
  const struct hdd_profile_value *values;   /* NULL key terminates */
  /* The drive's real command size (its source in the values'
   * max-transfer entry): the built-in profiles default to 0
   * (unlimited) until the split is measured in a guest (issue 16),
   * and a user opts in with max-transfer= this.
   */
  const char *max_transfer_real;
  /* Appended (issue 26), for --dump-plugin and --help: the drive's
   * year, its class and the documents its values come from (each
   * value names its own in its source string).
   */
  const char *year;
  const char *klass;
  const char *sources;
};

/* The profile used when none is named. */
#define HDD_PROFILE_DEFAULT "st340014a"

extern const struct hdd_profile *const hdd_profile_list[]; /* NULL ends */
extern const struct hdd_profile *hdd_profile_find (const char *name);

/* The default profile's parameters; NULL when out of memory. */
extern struct hdd_params *hdd_params_new (void);

/* Replace all values by a built-in profile (by name) or a profile file
 * (by its ending: ".ini", ".parv", ".diskspecs"; any other name
 * containing '/' is read as INI).  -1 and err on error, naming the
 * file, line and key for files.
 */
extern int hdd_params_load_profile (struct hdd_params *, const char *name,
                                    char *err, size_t errlen);

/* Whether hdd_params_load_profile reads 'name' as a DiskSim file. */
extern bool hdd_profile_is_disksim (const char *name);

/* profile= and every drive parameter, for --help. */
extern void hdd_profile_print_help (FILE *fp);

#endif /* HDDSIM_PROFILE_H */
