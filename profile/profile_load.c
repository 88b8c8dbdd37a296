/* hddsim: the profile loader: turns a profile, built in or from a file,
 * into parameters.
 *
 * Every source goes through hdd_params_set, so a file's values are
 * parsed and range-checked exactly as nbdkit parameters are.  A file
 * starts from the default profile (HDD_PROFILE_DEFAULT); keys it does
 * not set keep those values.
 *
 * File formats are chosen by the file name's ending (profile_formats
 * below).  A new format (as DiskSim's .parv was) is one function of type
 * profile_file_loader (formats.h) and one row in that table.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/param.h"
#include "../model/params.h"
#include "formats.h"
#include "profile.h"

static const struct {
  const char *suffix;
  profile_file_loader *load;
} profile_formats[] = {
  { ".ini", profile_load_ini },         /* first: the format of a bare PATH */
  { ".parv", profile_load_disksim },
  { ".diskspecs", profile_load_disksim },
};

#define NFORMATS (sizeof profile_formats / sizeof profile_formats[0])

int
profile_apply (struct hdd_params *p, const struct hdd_profile *prof,
               char *err, size_t errlen)
{
  const struct hdd_profile_value *v;

  params_defaults (p);
  snprintf (p->profile, sizeof p->profile, "%s", prof->name);
  snprintf (p->description, sizeof p->description, "%s", prof->description);
  for (v = prof->values; v->key; v++)
    if (hdd_params_set (p, v->key, v->value, err, errlen) != 0)
      return -1;
  return 0;
}

int
profile_file_begin (struct hdd_params *p, const char *path, char *err,
                    size_t errlen)
{
  if (profile_apply (p, hdd_profile_find (HDD_PROFILE_DEFAULT),
                     err, errlen) == -1)
    return -1;
  snprintf (p->profile, sizeof p->profile, "%s", path);
  snprintf (p->file, sizeof p->file, "%s", path);
  snprintf (p->description, sizeof p->description, "profile file %s", path);
  return 0;
}

static bool
ends_with (const char *s, const char *suffix)
{
  size_t n = strlen (s), m = strlen (suffix);

  return n > m && strcmp (s + n - m, suffix) == 0;
}

/* The loader for a name: a file format by its ending; any other name
 * with a '/' is an INI file (the first format); NULL for a built-in.
 */
static profile_file_loader *
loader_for (const char *name)
{
  size_t i;

  for (i = 0; i < NFORMATS; i++)
    if (ends_with (name, profile_formats[i].suffix))
      return profile_formats[i].load;
  return strchr (name, '/') ? profile_formats[0].load : NULL;
}

bool
hdd_profile_is_disksim (const char *name)
{
  return loader_for (name) == profile_load_disksim;
}

static void
unknown_profile (const char *name, char *err, size_t errlen)
{
  size_t used = (size_t) snprintf (err, errlen, "profile=%s: unknown; "
                                   "built in:", name);
  size_t i;

  for (i = 0; hdd_profile_list[i] && used < errlen; i++)
    used += (size_t) snprintf (err + used, errlen - used, " %s",
                               hdd_profile_list[i]->name);
  for (i = 0; i < NFORMATS && used < errlen; i++)
    used += (size_t) snprintf (err + used, errlen - used, "%s or a PATH%s",
                               i ? "," : ";", profile_formats[i].suffix);
}

int
hdd_params_load_profile (struct hdd_params *p, const char *name, char *err,
                         size_t errlen)
{
  profile_file_loader *load = loader_for (name);
  const struct hdd_profile *prof;

  if (load)
    return load (p, name, err, errlen);
  prof = hdd_profile_find (name);
  if (!prof) {
    unknown_profile (name, err, errlen);
    return -1;
  }
  return profile_apply (p, prof, err, errlen);
}

struct hdd_params *
hdd_params_new (void)
{
  struct hdd_params *p = malloc (sizeof *p);
  char err[HDD_ERRLEN];

  if (p && hdd_params_load_profile (p, HDD_PROFILE_DEFAULT, err,
                                    sizeof err) == -1) {
    /* A built-in profile that does not load is a bug the unit tests
     * catch (test-model-profile.c); never hand out half a profile.
     */
    free (p);
    return NULL;
  }
  return p;
}

/* The built-in profiles, each with its year, class and sources (every
 * value's own source: --dump-plugin's drive values, docs/profiles.md).
 */
static void
print_profiles (FILE *fp)
{
  size_t i;

  for (i = 0; hdd_profile_list[i]; i++) {
    const struct hdd_profile *p = hdd_profile_list[i];
    fprintf (fp, "  profile=%s: %s; %s, %s; sources: %s\n", p->name,
             p->description, p->year, p->klass, p->sources);
  }
}

void
hdd_profile_print_help (FILE *fp)
{
  param_print_help_line (PARAM_STYLE_PROFILE, "profile=NAME|PATH.ini",
                         "drive profile (default " HDD_PROFILE_DEFAULT
                         "; see the profiles list)", fp);
  print_profiles (fp);
  hdd_params_print_help (fp);
}
