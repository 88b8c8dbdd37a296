/* hddsim: how values are written (see value.h). */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "value.h"

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
int
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

/* nbdkit_parse_bool's words, by hand: common/ builds without nbdkit,
 * and nbdkit's message would not name the key.
 */
int
parse_bool (const char *s, bool *b)
{
  static const char *const yes[] = { "1", "true", "on", "yes", NULL };
  static const char *const no[] = { "0", "false", "off", "no", NULL };
  size_t i;

  for (i = 0; yes[i]; i++)
    if (strcasecmp (s, yes[i]) == 0) {
      *b = true;
      return 0;
    }
  for (i = 0; no[i]; i++)
    if (strcasecmp (s, no[i]) == 0) {
      *b = false;
      return 0;
    }
  return -1;
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

/* Sizes in the largest binary unit that divides them: 16M, 64K. */
const char *
format_size (uint64_t v, char *buf, size_t len)
{
  static const char units[] = "KMGTP";
  int u = -1;

  while (v != 0 && v % 1024 == 0 && u < 4) {
    v /= 1024;
    u++;
  }
  if (u < 0)
    snprintf (buf, len, "%" PRIu64, v);
  else
    snprintf (buf, len, "%" PRIu64 "%c", v, units[u]);
  return buf;
}
