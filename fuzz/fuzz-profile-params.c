/* hddsim fuzzing: the plugin's key=value parameters, one per line
 * (profile=NAME, seed=, sched=, drive overrides such as seek-table=,
 * scheduler tunables), through the same setup the plugin and
 * hddsim-replay use; then an engine on a drive built from them.
 */

#include <stdio.h>
#include <string.h>

#include "fuzz.h"

/* A profile=PATH would read whatever file the fuzzer names: files are
 * fuzz-profile-ini's job.
 */
static bool
reads_a_file (const char *key, const char *value)
{
  size_t len = strlen (value);

  return strcmp (key, "profile") == 0
    && (strchr (value, '/') || (len > 4 && strcmp (value + len - 4, ".ini") == 0));
}

static void
set_line (struct setup *s, char *line)
{
  char err[SETUP_ERRLEN], *eq;

  line[strcspn (line, "\r\n")] = '\0';
  eq = strchr (line, '=');
  if (!eq)
    return;
  *eq = '\0';
  if (!reads_a_file (line, eq + 1))
    (void) setup_set (s, line, eq + 1, err, sizeof err);
}

void
fuzz_one (const char *path)
{
  char line[4096], err[SETUP_ERRLEN];
  struct setup s;
  FILE *fp = fopen (path, "r");

  if (!fp)
    return;
  setup_init (&s);
  while (fgets (line, sizeof line, fp))
    set_line (&s, line);
  fclose (fp);
  /* Only the engine: building a drive costs a seek-curve fit, and
     fuzz-profile-ini already checks the drive alone with the same
     drive keys. */
  if (setup_finish (&s, err, sizeof err) == 0)
    fuzz_engine (&s);
  setup_free (&s);
}
