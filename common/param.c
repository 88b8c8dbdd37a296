/* hddsim: typed key=value parameters described by tables. */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "param.h"

const struct param_desc *
param_find (const struct param_desc *table, const char *key)
{
  for (; table->key; table++)
    if (strcmp (table->key, key) == 0)
      return table;
  return NULL;
}

static const char *
type_name (enum param_type type)
{
  switch (type) {
  case PARAM_DURATION: return "DURATION";
  case PARAM_SIZE: return "SIZE";
  case PARAM_UINT: return "N";
  case PARAM_RATE: return "RATE";
  case PARAM_ENUM: return "NAME";
  }
  return "?";
}

static int
set_enum (const struct param_desc *d, void *obj, const char *value,
          char *err, size_t errlen)
{
  size_t i;
  size_t used;

  for (i = 0; d->choices[i]; i++) {
    if (strcmp (d->choices[i], value) == 0) {
      *(int *) ((char *) obj + d->offset) = (int) i;
      return 0;
    }
  }
  used = (size_t) snprintf (err, errlen, "%s=%s: expected one of:",
                            d->key, value);
  for (i = 0; d->choices[i] && used < errlen; i++)
    used += (size_t) snprintf (err + used, errlen - used, " %s",
                               d->choices[i]);
  return -1;
}

int
param_set (const struct param_desc *table, void *obj,
           const char *key, const char *value, char *err, size_t errlen)
{
  const struct param_desc *d = param_find (table, key);
  uint64_t v;
  int r = -1;

  if (!d)
    return 1;
  switch (d->type) {
  case PARAM_ENUM: return set_enum (d, obj, value, err, errlen);
  case PARAM_DURATION: r = parse_duration (value, &v); break;
  case PARAM_SIZE: r = parse_size (value, &v); break;
  case PARAM_UINT: r = parse_uint (value, &v); break;
  case PARAM_RATE: r = parse_rate (value, &v); break;
  }
  if (r == -1) {
    snprintf (err, errlen, "%s=%s: cannot parse as %s%s", key, value,
              d->type == PARAM_UINT ? "a whole number" : type_name (d->type),
              d->type == PARAM_DURATION ? " (e.g. 8ms, 250us, 1.5s)" :
              d->type == PARAM_SIZE ? " (e.g. 4096, 64K, 16M)" :
              d->type == PARAM_RATE ? " (bytes/s, e.g. 100M or 58MB/s)" : "");
    return -1;
  }
  if (v < d->min || v > d->max) {
    snprintf (err, errlen, "%s=%s: out of range [%" PRIu64 ", %" PRIu64 "]",
              key, value, d->min, d->max);
    return -1;
  }
  *(uint64_t *) ((char *) obj + d->offset) = v;
  return 0;
}

void
param_print_help (const struct param_desc *table, FILE *fp)
{
  for (; table->key; table++) {
    char lhs[64];
    snprintf (lhs, sizeof lhs, "%s=%s", table->key, type_name (table->type));
    fprintf (fp, "%-28s %s\n", lhs, table->help);
  }
}

void
param_print_values (const struct param_desc *table, const void *obj,
                    const char *prefix, FILE *fp)
{
  for (; table->key; table++) {
    const char *field = (const char *) obj + table->offset;
    char buf[64];

    if (table->type == PARAM_ENUM) {
      fprintf (fp, "%s%s=%s\n", prefix, table->key,
               table->choices[*(const int *) field]);
      continue;
    }
    uint64_t v = *(const uint64_t *) field;
    if (table->type == PARAM_DURATION)
      fprintf (fp, "%s%s=%s\n", prefix, table->key,
               format_duration (v, buf, sizeof buf));
    else
      fprintf (fp, "%s%s=%" PRIu64 "\n", prefix, table->key, v);
  }
}
