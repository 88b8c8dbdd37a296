/* hddsim: parameter tables (see param.h). */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "param.h"

/* What each type is called: on --help's "key=METAVAR" and in the
 * message for a value that does not parse.  A PROFILE key's message
 * names the metavar ("cannot parse as DURATION"), a TUNABLE key's the
 * noun ("expected a duration"); both then give the example.
 */
static const struct {
  const char *metavar;          /* ENUM: the choices instead */
  const char *noun;             /* not for ENUM and STRING: their */
  const char *example;          /* messages are their own */
} types[] = {
  [PARAM_UINT] = { "N", "a non-negative integer", "" },
  [PARAM_DURATION] = { "DURATION", "a duration", " (e.g. 8ms, 250us, 1.5s)" },
  [PARAM_SIZE] = { "SIZE", "a size", " (e.g. 4096, 64K, 16M)" },
  [PARAM_RATE] = { "RATE", "a rate", " (bytes/s, e.g. 100M or 58MB/s)" },
  [PARAM_ENUM] = { NULL, NULL, NULL },
  [PARAM_BOOL] = { "true|false", "true or false",
                   " (or on/off, yes/no, 1/0)" },
  [PARAM_STRING] = { "STRING", NULL, NULL },
};

const struct param_desc *
param_find (const struct param_desc *table, const char *key)
{
  for (; table->key; table++)
    if (strcmp (table->key, key) == 0)
      return table;
  return NULL;
}

static int
parse_enum (const struct param_desc *d, const char *value, uint64_t *v,
            char *err, size_t errlen)
{
  size_t i, used;

  for (i = 0; d->choices[i]; i++)
    if (strcmp (d->choices[i], value) == 0) {
      *v = i;
      return 0;
    }
  used = (size_t) snprintf (err, errlen, "%s=%s: expected one of:",
                            d->key, value);
  for (i = 0; d->choices[i] && used < errlen; i++)
    used += (size_t) snprintf (err + used, errlen - used, " %s",
                               d->choices[i]);
  return -1;
}

static int
parse_text (const struct param_desc *d, const char *value, uint64_t *v)
{
  bool b;
  int r = -1;

  switch (d->type) {
  case PARAM_UINT: r = parse_uint (value, v); break;
  case PARAM_DURATION: r = parse_duration (value, v); break;
  case PARAM_SIZE: r = parse_size (value, v); break;
  case PARAM_RATE: r = parse_rate (value, v); break;
  case PARAM_BOOL:
    r = parse_bool (value, &b);
    if (r == 0)
      *v = b;
    break;
  case PARAM_ENUM: case PARAM_STRING: break;
  }
  return r;
}

static void
malformed (const struct param_desc *d, const char *value, char *err,
           size_t errlen)
{
  const char *what = types[d->type].noun;

  if (d->style == PARAM_STYLE_PROFILE) {
    what = d->type == PARAM_UINT ? "a whole number" : types[d->type].metavar;
    snprintf (err, errlen, "%s=%s: cannot parse as %s%s", d->key, value,
              what, types[d->type].example);
  }
  else
    snprintf (err, errlen, "%s=%s: expected %s%s", d->key, value,
              what, types[d->type].example);
}

static void
out_of_range (const struct param_desc *d, const char *value, char *err,
              size_t errlen)
{
  char lo[32], hi[32];

  if (d->style == PARAM_STYLE_PROFILE)
    snprintf (err, errlen, "%s=%s: out of range [%" PRIu64 ", %" PRIu64 "]",
              d->key, value, d->min, d->max);
  else
    snprintf (err, errlen, "%s=%s: out of range [%s, %s]", d->key, value,
              param_format (d, d->min, lo, sizeof lo),
              param_format (d, d->max, hi, sizeof hi));
}

int
param_parse (const struct param_desc *d, const char *value, uint64_t *v,
             char *err, size_t errlen)
{
  switch (d->type) {
  case PARAM_ENUM: return parse_enum (d, value, v, err, errlen);
  case PARAM_STRING:
    snprintf (err, errlen, "%s: a string, not a number", d->key);
    return -1;
  case PARAM_BOOL:
  case PARAM_UINT: case PARAM_DURATION: case PARAM_SIZE: case PARAM_RATE:
    break;
  }
  if (parse_text (d, value, v) == -1) {
    malformed (d, value, err, errlen);
    return -1;
  }
  if (d->type != PARAM_BOOL && (*v < d->min || *v > d->max)) {
    out_of_range (d, value, err, errlen);
    return -1;
  }
  return 0;
}

static void *
field (const struct param_desc *d, void *obj)
{
  return (char *) obj + d->offset;
}

void
param_store (const struct param_desc *d, void *obj, uint64_t v)
{
  switch (d->type) {
  case PARAM_ENUM: *(int *) field (d, obj) = (int) v; break;
  case PARAM_BOOL: *(bool *) field (d, obj) = v != 0; break;
  case PARAM_STRING: break;
  case PARAM_UINT: case PARAM_DURATION: case PARAM_SIZE: case PARAM_RATE:
    *(uint64_t *) field (d, obj) = v;
    break;
  }
}

/* The inverse of param_store; not for PARAM_STRING. */
static uint64_t
load (const struct param_desc *d, const void *obj)
{
  const void *f = (const char *) obj + d->offset;

  switch (d->type) {
  case PARAM_ENUM: return (uint64_t) *(const int *) f;
  case PARAM_BOOL: return *(const bool *) f;
  case PARAM_STRING: break;
  case PARAM_UINT: case PARAM_DURATION: case PARAM_SIZE: case PARAM_RATE:
    return *(const uint64_t *) f;
  }
  return 0;
}

static int
set_string (const struct param_desc *d, void *obj, const char *value,
            char *err, size_t errlen)
{
  char **s = field (d, obj);
  char *copy;

  if (*value == '\0') {
    snprintf (err, errlen, "%s: the value must not be empty", d->key);
    return -1;
  }
  copy = strdup (value);
  if (!copy) {
    snprintf (err, errlen, "%s: out of memory", d->key);
    return -1;
  }
  free (*s);
  *s = copy;
  return 0;
}

int
param_set (const struct param_desc *table, void *obj, const char *key,
           const char *value, char *err, size_t errlen)
{
  const struct param_desc *d = param_find (table, key);
  uint64_t v;

  if (!d)
    return 1;
  if (d->type == PARAM_STRING)
    return set_string (d, obj, value, err, errlen);
  if (param_parse (d, value, &v, err, errlen) == -1)
    return -1;
  param_store (d, obj, v);
  return 0;
}

void
param_defaults (const struct param_desc *table, void *obj)
{
  for (; table->key; table++) {
    if (table->type == PARAM_STRING)
      *(char **) field (table, obj) = NULL;
    else
      param_store (table, obj, table->def);
  }
}

void
param_free (const struct param_desc *table, void *obj)
{
  for (; table->key; table++)
    if (table->type == PARAM_STRING) {
      char **s = field (table, obj);
      free (*s);
      *s = NULL;
    }
}

const char *
param_format (const struct param_desc *d, uint64_t v, char *buf, size_t len)
{
  switch (d->type) {
  case PARAM_DURATION: return format_duration (v, buf, len);
  case PARAM_SIZE:
    if (d->style == PARAM_STYLE_TUNABLE)
      return format_size (v, buf, len);
    break;
  case PARAM_ENUM: snprintf (buf, len, "%s", d->choices[v]); return buf;
  case PARAM_BOOL: snprintf (buf, len, "%s", v ? "true" : "false");
    return buf;
  case PARAM_STRING: snprintf (buf, len, "-"); return buf;
  case PARAM_UINT: case PARAM_RATE: break;
  }
  snprintf (buf, len, "%" PRIu64, v);
  return buf;
}

static const char *
metavar (const struct param_desc *d, char *buf, size_t len)
{
  size_t i, used = 0;

  if (d->metavar)
    return d->metavar;
  if (d->type != PARAM_ENUM)
    return types[d->type].metavar;
  /* A drive key's names are in its help text. */
  if (d->style == PARAM_STYLE_PROFILE)
    return "NAME";
  buf[0] = '\0';
  for (i = 0; d->choices[i] && used < len; i++)
    used += (size_t) snprintf (buf + used, len - used, "%s%s",
                               i ? "|" : "", d->choices[i]);
  return buf;
}

/* "key=METAVAR" padded to the style's column, then the help; without
 * the newline, for a default to follow.
 */
static void
help_start (enum param_style style, const char *lhs, const char *help,
            FILE *fp)
{
  if (style == PARAM_STYLE_PROFILE)
    fprintf (fp, "%-*s", PARAM_HELP_COLUMN + 1, lhs);
  /* A long left side gets a line of its own, as nbdkit's --help. */
  else if (strlen (lhs) > PARAM_HELP_COLUMN)
    fprintf (fp, "%s\n%-*s", lhs, PARAM_HELP_COLUMN, "");
  else
    fprintf (fp, "%-*s", PARAM_HELP_COLUMN, lhs);
  fprintf (fp, " %s", help);
}

void
param_print_help_line (enum param_style style, const char *lhs,
                       const char *help, FILE *fp)
{
  help_start (style, lhs, help, fp);
  fputc ('\n', fp);
}

void
param_print_help_one (const struct param_desc *d, FILE *fp)
{
  char lhs[128], mv[96], def[32];

  snprintf (lhs, sizeof lhs, "%s=%s", d->key, metavar (d, mv, sizeof mv));
  help_start (d->style, lhs, d->help, fp);
  if (d->type != PARAM_STRING && d->style == PARAM_STYLE_TUNABLE)
    fprintf (fp, " (default %s)", param_format (d, d->def, def, sizeof def));
  fputc ('\n', fp);
}

void
param_print_help (const struct param_desc *table, FILE *fp)
{
  for (; table->key; table++)
    param_print_help_one (table, fp);
}

void
param_print_defaults (const struct param_desc *table, const char *prefix,
                      FILE *fp)
{
  for (; table->key; table++) {
    char def[32];
    const char *c;

    if (table->type == PARAM_STRING)
      continue;
    fputs (prefix, fp);
    for (c = table->key; *c; c++)
      fputc (*c == '-' ? '_' : *c, fp);
    fprintf (fp, "=%s\n", param_format (table, table->def, def, sizeof def));
  }
}

void
param_print_values (const struct param_desc *table, const void *obj,
                    FILE *fp)
{
  for (; table->key; table++) {
    char buf[64];

    if (table->type == PARAM_STRING) {
      const char *s = *(char *const *) ((const char *) obj + table->offset);
      if (s)
        fprintf (fp, "%s=%s\n", table->key, s);
      continue;
    }
    fprintf (fp, "%s=%s\n", table->key,
             param_format (table, load (table, obj), buf, sizeof buf));
  }
}
