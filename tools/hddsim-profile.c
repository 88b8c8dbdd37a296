/* hddsim-profile: what a drive profile becomes.
 *
 *   hddsim-profile PROFILE [KEY=VALUE...]
 *   hddsim-profile --sources NAME
 *
 * Loads PROFILE (a built-in name, an INI file or a DiskSim .parv /
 * .diskspecs file) as the plugin does, applies the drive parameters
 * given after it, and prints every drive parameter as KEY=VALUE lines.
 * A DiskSim file the model cannot take yet is listed in full: every
 * refusal as FILE:LINE: KEY = VALUE: why, one a line (the plugin stops
 * at the first).  --sources prints a built-in profile's year, class
 * and sources, then each of its values with its source, tab-separated
 * (KEY, VALUE, SOURCE), as docs/profiles.md shows them.  Exit status 0
 * if the profile loads, 1 if not, 2 on bad usage.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../disksim/disksim.h"
#include "../profile/profile.h"
#include "../sched/setup.h"

static void
usage (FILE *fp)
{
  fprintf (fp, "usage: hddsim-profile PROFILE [KEY=VALUE...]\n"
           "       hddsim-profile --sources NAME\n"
           "PROFILE: a built-in name, FILE.ini, FILE.parv or "
           "FILE.diskspecs.\n");
}

/* A built-in profile's values, each with its source. */
static int
print_sources (const char *name)
{
  const struct hdd_profile *p = hdd_profile_find (name);
  const struct hdd_profile_value *v;

  if (!p) {
    fprintf (stderr, "hddsim-profile: %s: not a built-in profile\n", name);
    return 1;
  }
  printf ("# %s: %s\n# %s, %s; sources: %s\n", p->name, p->description,
          p->year, p->klass, p->sources);
  for (v = p->values; v->key; v++)
    printf ("%s\t%s\t%s\n", v->key, v->value, v->source);
  return 0;
}

/* Every reason the DiskSim file is refused, after the first one the
 * loader gave: a user fixing a drive wants the whole list at once.
 */
static void
list_disksim_refusals (const char *path)
{
  int n;

  if (!hdd_profile_is_disksim (path))
    return;
  fprintf (stderr, "hddsim-profile: every reason:\n");
  n = disksim_check_file (path, stderr);
  if (n > 0)
    fprintf (stderr, "hddsim-profile: %d reasons\n", n);
}

int
main (int argc, char **argv)
{
  char err[SETUP_ERRLEN];
  struct setup s;
  int i, r = 0;

  if (argc < 2 || strcmp (argv[1], "--help") == 0
      || strcmp (argv[1], "-h") == 0) {
    usage (argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (strcmp (argv[1], "--sources") == 0) {
    if (argc != 3) {
      usage (stderr);
      return 2;
    }
    return print_sources (argv[2]);
  }
  setup_init (&s);
  if (setup_set (&s, "profile", argv[1], err, sizeof err) != 0)
    goto bad;
  for (i = 2; i < argc; i++) {
    char *eq = strchr (argv[i], '=');

    if (!eq) {
      fprintf (stderr, "hddsim-profile: %s: expected KEY=VALUE\n", argv[i]);
      setup_free (&s);
      return 2;
    }
    *eq = '\0';
    r = setup_set (&s, argv[i], eq + 1, err, sizeof err);
    if (r == 1)
      snprintf (err, sizeof err, "%s: not a drive parameter", argv[i]);
    if (r != 0)
      goto bad;
  }
  if (setup_finish (&s, err, sizeof err) == -1) {
    fprintf (stderr, "hddsim-profile: %s\n", err);
    list_disksim_refusals (argv[1]);
    setup_free (&s);
    return 1;
  }
  hdd_params_print_values (s.hdd, stdout);
  setup_free (&s);
  return 0;

 bad:
  fprintf (stderr, "hddsim-profile: %s\n", err);
  setup_free (&s);
  return 2;
}
