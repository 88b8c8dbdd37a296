/* hddsim: drive profiles from INI files (libinih).
 *
 *   ; comments
 *   [drive]                 sections are titles only
 *   name = mydrive
 *   description = ...
 *   base = st4000nm0033     start from a built-in profile (put it first)
 *   rpm = 5400              any drive parameter, as on the command line
 *   zone-table = 0-99:120,  a list value goes on over indented lines
 *     100-199:100           (joined with ','), each under libinih's 200
 *                           characters
 */

#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/params.h"
#include "formats.h"
#include "profile.h"

/* libinih's handler is not told the line (INI_HANDLER_LINENO is off in
 * the distributions' builds): the reader counts them.
 */
struct ini_source {
  FILE *fp;
  unsigned line;                /* of the text last read */
  bool at_line_start;
  bool indented;                /* that line began with a blank */
};

static char *
ini_read (char *str, int num, void *stream)
{
  struct ini_source *src = stream;
  char *r = fgets (str, num, src->fp);

  if (r) {
    if (src->at_line_start) {
      src->line++;
      src->indented = r[0] == ' ' || r[0] == '\t';
    }
    src->at_line_start = strchr (r, '\n') != NULL;
  }
  return r;
}

struct ini_state {
  struct hdd_params *p;
  const struct ini_source *src;
  char msg[HDD_ERRLEN];         /* the first error */
  bool failed;
  char *joined;                 /* the last key's value, continuations */
  char last[64];                /* joined on (libinih passes each on) */
};

/* libinih passes an indented continuation line as the same key again:
 * the value so far, ',', and the continuation.  NULL: out of memory.
 */
static const char *
ini_join (struct ini_state *s, const char *name, const char *value)
{
  char *j;

  if (s->src->indented && s->joined && strcmp (name, s->last) == 0) {
    j = malloc (strlen (s->joined) + strlen (value) + 2);
    if (j)
      sprintf (j, "%s,%s", s->joined, value);
  }
  else
    j = strdup (value);
  free (s->joined);
  s->joined = j;
  snprintf (s->last, sizeof s->last, "%s", name);
  return j;
}

/* base = NAME: the built-in profile's values, keeping the file's name. */
static int
ini_base (struct hdd_params *p, const char *value, char *err, size_t errlen)
{
  const struct hdd_profile *prof = hdd_profile_find (value);
  char name[PROFILE_NAME_MAX], file[PROFILE_NAME_MAX];

  if (!prof) {
    snprintf (err, errlen, "base=%s: unknown built-in profile", value);
    return -1;
  }
  snprintf (name, sizeof name, "%s", p->profile);
  snprintf (file, sizeof file, "%s", p->file);
  if (profile_apply (p, prof, err, errlen) == -1)
    return -1;
  snprintf (p->profile, sizeof p->profile, "%s", name);
  snprintf (p->file, sizeof p->file, "%s", file);
  return 0;
}

static int
ini_line (void *user, const char *section, const char *name,
          const char *value)
{
  struct ini_state *s = user;
  char err[HDD_ERRLEN];
  int r;

  (void) section;
  if (s->failed)
    return 0;
  if (strcmp (name, "description") == 0) {
    snprintf (s->p->description, sizeof s->p->description, "%s", value);
    return 1;
  }
  if (strcmp (name, "name") == 0) {
    snprintf (s->p->profile, sizeof s->p->profile, "%s", value);
    return 1;
  }
  value = ini_join (s, name, value);
  if (!value) {
    snprintf (s->msg, sizeof s->msg, "%s: out of memory", name);
    s->failed = true;
    return 0;
  }
  if (strcmp (name, "base") == 0)
    r = ini_base (s->p, value, err, sizeof err);
  else
    r = hdd_params_set (s->p, name, value, err, sizeof err);
  if (r == 1)
    snprintf (s->msg, sizeof s->msg, "%s: unknown key", name);
  else if (r == -1)
    snprintf (s->msg, sizeof s->msg, "%s", err);
  if (r != 0) {
    s->failed = true;
    return 0;
  }
  params_note_line (s->p, name, s->src->line);
  return 1;
}

int
profile_load_ini (struct hdd_params *p, const char *path, char *err,
                  size_t errlen)
{
  struct ini_source src = { .at_line_start = true };
  struct ini_state s = { .p = p, .src = &src };
  int line;

  if (profile_file_begin (p, path, err, errlen) == -1)
    return -1;
  src.fp = fopen (path, "r");
  if (!src.fp) {
    snprintf (err, errlen, "profile=%s: cannot open the profile file: %m",
              path);
    return -1;
  }
  line = ini_parse_stream (ini_read, &src, ini_line, &s);
  fclose (src.fp);
  free (s.joined);
  if (line == -2) {
    snprintf (err, errlen, "profile=%s: out of memory", path);
    return -1;
  }
  if (line > 0) {
    snprintf (err, errlen, "profile %s, line %d: %s", path, line,
              s.failed ? s.msg : "syntax error (expected key = value)");
    return -1;
  }
  return 0;
}
