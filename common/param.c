/* hddsim: typed key=value parameters described by tables. */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "param.h"

/* Parse "123", "8.5", "0.25" into a value scaled by 'scale' (which must
 * cover the fraction digits), rejecting overflow.  Decimal fractions
 * are handled in integers so that "8.5ms" is exactly 8500000 ns.
 * Returns a pointer to the first unparsed character, or NULL.
 */
static const char *
parse_scaled_decimal (const char *s, uint64_t scale, uint64_t *out)
{
  uint64_t whole = 0, frac = 0, frac_scale = 1;
  bool digits = false;

  if (!isdigit ((unsigned char) *s) && *s != '.')
    return NULL;
  for (; isdigit ((unsigned char) *s); s++) {
    if (whole > (UINT64_MAX - 9) / 10)
      return NULL;
    whole = whole * 10 + (uint64_t) (*s - '0');
    digits = true;
  }
  if (*s == '.') {
    s++;
    for (; isdigit ((unsigned char) *s); s++) {
      digits = true;
      if (frac_scale < scale) {   /* digits beyond 'scale' are dropped */
        frac = frac * 10 + (uint64_t) (*s - '0');
        frac_scale *= 10;
      }
    }
  }
  if (!digits)
    return NULL;
  frac *= scale / frac_scale;
  if (whole > UINT64_MAX / scale || whole * scale > UINT64_MAX - frac)
    return NULL;
  *out = whole * scale + frac;
  return s;
}

int
parse_duration (const char *s, uint64_t *ns)
{
  static const struct { const char *suffix; uint64_t mult; } units[] = {
    { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
    { "", 1000000000 },         /* bare number: seconds, as nbdkit's delay filter */
  };
  size_t i;

  for (i = 0; i < sizeof units / sizeof units[0]; i++) {
    uint64_t v;
    const char *end = parse_scaled_decimal (s, units[i].mult, &v);
    if (end && strcmp (end, units[i].suffix) == 0) {
      *ns = v;
      return 0;
    }
  }
  return -1;
}

/* Binary multipliers for sizes ("64K", "2M", "16MiB"), as nbdkit. */
static int
size_suffix (const char *end, uint64_t *mult)
{
  static const char letters[] = "KMGTP";
  const char *p;

  if (*end == '\0' || strcmp (end, "B") == 0 || strcmp (end, "b") == 0) {
    *mult = 1;
    return 0;
  }
  p = strchr (letters, toupper ((unsigned char) *end));
  if (!p)
    return -1;
  *mult = UINT64_C(1) << (10 * (p - letters + 1));
  end++;
  if (*end == '\0' || strcmp (end, "B") == 0 || strcmp (end, "iB") == 0)
    return 0;
  return -1;
}

int
parse_size (const char *s, uint64_t *bytes)
{
  uint64_t v, mult;
  const char *end;
  char *e;

  if (!isdigit ((unsigned char) *s))
    return -1;
  errno = 0;
  v = strtoull (s, &e, 10);
  end = e;
  if (errno != 0 || size_suffix (end, &mult) == -1)
    return -1;
  if (mult > 1 && v > UINT64_MAX / mult)
    return -1;
  *bytes = v * mult;
  return 0;
}

/* Rates are decimal, as drive spec sheets quote them: "100M",
 * "100MB/s" and "100000000" all mean ATA-100's 100 MB/s.
 */
static int
parse_rate (const char *s, uint64_t *bps)
{
  static const struct { char letter; uint64_t mult; } units[] = {
    { '\0', 1 }, { 'k', 1000 }, { 'K', 1000 }, { 'M', 1000000 },
    { 'G', 1000000000 },
  };
  size_t i;

  for (i = 0; i < sizeof units / sizeof units[0]; i++) {
    uint64_t v;
    const char *end = parse_scaled_decimal (s, units[i].mult, &v);
    if (!end)
      return -1;
    if (units[i].letter != '\0') {
      if (*end != units[i].letter)
        continue;
      end++;
    }
    else if (isalpha ((unsigned char) *end) && strcmp (end, "B/s") != 0)
      continue;
    if (*end == '\0' || strcmp (end, "B/s") == 0 || strcmp (end, "/s") == 0) {
      *bps = v;
      return 0;
    }
  }
  return -1;
}

/* Digits only, by hand: hddsim-replay parses a dozen numbers per
 * trace row, and strtoull (locale, sign, base and whitespace handling
 * this does not want) was a sixth of its time.
 */
int
parse_uint (const char *s, uint64_t *v)
{
  uint64_t x = 0;

  if (*s == '\0')
    return -1;
  for (; *s; s++) {
    unsigned d = (unsigned char) *s - '0';
    if (d > 9)
      return -1;
    /* The exact test only near the top: it divides. */
    if (x > (UINT64_MAX - 9) / 10 && x > (UINT64_MAX - d) / 10)
      return -1;
    x = x * 10 + d;
  }
  *v = x;
  return 0;
}

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

/* Exact: the value read back by parse_duration is the one printed, so
 * a nanosecond never shows as "0.000ms" and 12345.678ms is not rounded.
 */
const char *
format_duration (uint64_t ns, char *buf, size_t len)
{
  if (ns != 0 && ns % 1000000000 == 0)
    snprintf (buf, len, "%" PRIu64 "s", ns / 1000000000);
  else if (ns >= 1000000 && ns % 1000 == 0) {
    char frac[8];
    size_t n;
    snprintf (frac, sizeof frac, "%03" PRIu64, ns % 1000000 / 1000);
    for (n = strlen (frac); n > 0 && frac[n - 1] == '0'; n--)
      frac[n - 1] = '\0';
    snprintf (buf, len, "%" PRIu64 "%s%sms", ns / 1000000, n ? "." : "",
              frac);
  }
  else if (ns >= 1000 && ns % 1000 == 0)
    snprintf (buf, len, "%" PRIu64 "us", ns / 1000);
  else
    snprintf (buf, len, "%" PRIu64 "ns", ns);
  return buf;
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
