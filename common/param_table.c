/* hddsim: parameter tables (see param_table.h). */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "param.h"
#include "param_table.h"

const struct pt_def *
pt_find (const struct pt_def *table, const char *key)
{
  for (; table->key; table++)
    if (strcmp (table->key, key) == 0)
      return table;
  return NULL;
}

void
pt_expected_one_of (const char *key, const char *value,
                    const char *const *choices, char *err, size_t errlen)
{
  size_t i, used;

  used = (size_t) snprintf (err, errlen, "%s=%s: expected one of:",
                            key, value);
  for (i = 0; choices[i] && used < errlen; i++)
    used += (size_t) snprintf (err + used, errlen - used, " %s",
                               choices[i]);
}

static int
parse_enum (const struct pt_def *d, const char *value, uint64_t *v,
            char *err, size_t errlen)
{
  size_t i;

  for (i = 0; d->choices[i]; i++)
    if (strcmp (d->choices[i], value) == 0) {
      *v = i;
      return 0;
    }
  pt_expected_one_of (d->key, value, d->choices, err, errlen);
  return -1;
}

static int
parse_bool_value (const struct pt_def *d, const char *value, uint64_t *v,
                  char *err, size_t errlen)
{
  bool b;

  if (parse_bool (value, &b) == -1) {
    snprintf (err, errlen, "%s=%s: expected true or false (or on/off, "
              "yes/no, 1/0)", d->key, value);
    return -1;
  }
  *v = b;
  return 0;
}

static const char *
type_example (enum pt_type type)
{
  switch (type) {
  case PT_DURATION: return "a duration (e.g. 8ms, 250us, 1.5s)";
  case PT_SIZE: return "a size (e.g. 4096, 64K, 16M)";
  case PT_UINT: return "a non-negative integer";
  case PT_ENUM: case PT_BOOL: case PT_STRING: break;
  }
  return "a value";
}

static int
parse_number (const struct pt_def *d, const char *value, uint64_t *v,
              char *err, size_t errlen)
{
  char lo[32], hi[32];
  int r = -1;

  switch (d->type) {
  case PT_DURATION: r = parse_duration (value, v); break;
  case PT_SIZE: r = parse_size (value, v); break;
  case PT_UINT: r = parse_uint (value, v); break;
  case PT_ENUM: case PT_BOOL: case PT_STRING: break;
  }
  if (r == -1) {
    snprintf (err, errlen, "%s=%s: expected %s", d->key, value,
              type_example (d->type));
    return -1;
  }
  if (*v < d->min || *v > d->max) {
    snprintf (err, errlen, "%s=%s: out of range [%s, %s]", d->key, value,
              pt_format (d, d->min, lo, sizeof lo),
              pt_format (d, d->max, hi, sizeof hi));
    return -1;
  }
  return 0;
}

int
pt_parse (const struct pt_def *d, const char *value, uint64_t *v,
          char *err, size_t errlen)
{
  switch (d->type) {
  case PT_ENUM: return parse_enum (d, value, v, err, errlen);
  case PT_BOOL: return parse_bool_value (d, value, v, err, errlen);
  case PT_STRING:
    snprintf (err, errlen, "%s: a string, not a number", d->key);
    return -1;
  case PT_UINT: case PT_DURATION: case PT_SIZE: break;
  }
  return parse_number (d, value, v, err, errlen);
}

static void *
field (const struct pt_def *d, void *obj)
{
  return (char *) obj + d->offset;
}

void
pt_store (const struct pt_def *d, void *obj, uint64_t v)
{
  switch (d->type) {
  case PT_ENUM: *(int *) field (d, obj) = (int) v; break;
  case PT_BOOL: *(bool *) field (d, obj) = v != 0; break;
  case PT_STRING: break;
  case PT_UINT: case PT_DURATION: case PT_SIZE:
    *(uint64_t *) field (d, obj) = v;
    break;
  }
}

static int
set_string (const struct pt_def *d, void *obj, const char *value,
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
pt_set (const struct pt_def *table, void *obj, const char *key,
        const char *value, char *err, size_t errlen)
{
  const struct pt_def *d = pt_find (table, key);
  uint64_t v;

  if (!d)
    return 1;
  if (d->type == PT_STRING)
    return set_string (d, obj, value, err, errlen);
  if (pt_parse (d, value, &v, err, errlen) == -1)
    return -1;
  pt_store (d, obj, v);
  return 0;
}

void
pt_defaults (const struct pt_def *table, void *obj)
{
  for (; table->key; table++) {
    if (table->type == PT_STRING)
      *(char **) field (table, obj) = NULL;
    else
      pt_store (table, obj, table->def);
  }
}

void
pt_free (const struct pt_def *table, void *obj)
{
  for (; table->key; table++)
    if (table->type == PT_STRING) {
      char **s = field (table, obj);
      free (*s);
      *s = NULL;
    }
}

const char *
pt_format (const struct pt_def *d, uint64_t v, char *buf, size_t len)
{
  switch (d->type) {
  case PT_DURATION: return format_duration (v, buf, len);
  case PT_SIZE: return format_size (v, buf, len);
  case PT_ENUM: snprintf (buf, len, "%s", d->choices[v]); return buf;
  case PT_BOOL: snprintf (buf, len, "%s", v ? "true" : "false"); return buf;
  case PT_STRING: snprintf (buf, len, "-"); return buf;
  case PT_UINT: break;
  }
  snprintf (buf, len, "%" PRIu64, v);
  return buf;
}

static const char *
metavar (const struct pt_def *d, char *buf, size_t len)
{
  size_t i, used = 0;

  if (d->metavar)
    return d->metavar;
  switch (d->type) {
  case PT_UINT: return "N";
  case PT_DURATION: return "DURATION";
  case PT_SIZE: return "SIZE";
  case PT_BOOL: return "true|false";
  case PT_STRING: return "STRING";
  case PT_ENUM: break;
  }
  buf[0] = '\0';
  for (i = 0; d->choices[i] && used < len; i++)
    used += (size_t) snprintf (buf + used, len - used, "%s%s",
                               i ? "|" : "", d->choices[i]);
  return buf;
}

void
pt_print_help_one (const struct pt_def *d, FILE *fp)
{
  char lhs[128], mv[96], def[32];

  snprintf (lhs, sizeof lhs, "%s=%s", d->key, metavar (d, mv, sizeof mv));
  /* A long left side gets a line of its own, as nbdkit's --help. */
  if (strlen (lhs) > PT_HELP_COLUMN)
    fprintf (fp, "%s\n%-*s", lhs, PT_HELP_COLUMN, "");
  else
    fprintf (fp, "%-*s", PT_HELP_COLUMN, lhs);
  fprintf (fp, " %s", d->help);
  if (d->type != PT_STRING)
    fprintf (fp, " (default %s)", pt_format (d, d->def, def, sizeof def));
  fputc ('\n', fp);
}

void
pt_print_help (const struct pt_def *table, FILE *fp)
{
  for (; table->key; table++)
    pt_print_help_one (table, fp);
}

void
pt_print_defaults (const struct pt_def *table, const char *prefix, FILE *fp)
{
  for (; table->key; table++) {
    char def[32];
    const char *c;

    if (table->type == PT_STRING)
      continue;
    fputs (prefix, fp);
    for (c = table->key; *c; c++)
      fputc (*c == '-' ? '_' : *c, fp);
    fprintf (fp, "=%s\n", pt_format (table, table->def, def, sizeof def));
  }
}
