/* hddsim: DiskSim's validate trace format, read (see
 * disksim_validate.h).
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/param.h"
#include "disksim_validate.h"

/* Longer lines are not a validate trace (the real ones are ~50
 * characters; DiskSim's reader stops at 200).
 */
#define MAX_LINE 1024
/* A time field beyond this (11.6 days) is a corrupt line, not a trace. */
#define MAX_US 1e12

struct ds_trace {
  FILE *fp;
  char *path;
  uint64_t size;
  long line;
  char *buf;
  size_t cap;
};

void
ds_trace_error (const struct ds_trace *t, char *err, size_t errlen,
                const char *fmt, ...)
{
  va_list ap;
  int n = snprintf (err, errlen, "%s:%ld: ", t->path, t->line);

  if (n < 0 || (size_t) n >= errlen)
    return;
  va_start (ap, fmt);
  vsnprintf (err + n, errlen - (size_t) n, fmt, ap);
  va_end (ap);
}

struct ds_trace *
ds_trace_open (const char *path, uint64_t size, char *err, size_t errlen)
{
  struct ds_trace *t = calloc (1, sizeof *t);

  if (!t || !(t->path = strdup (path))) {
    free (t);
    snprintf (err, errlen, "%s: out of memory", path);
    return NULL;
  }
  t->fp = fopen (path, "r");
  if (!t->fp) {
    snprintf (err, errlen, "%s: %s", path, strerror (errno));
    free (t->path);
    free (t);
    return NULL;
  }
  t->size = size;
  return t;
}

void
ds_trace_close (struct ds_trace *t)
{
  if (!t)
    return;
  fclose (t->fp);
  free (t->buf);
  free (t->path);
  free (t);
}

/* A decimal integer in [0, max], digits only. */
static int
parse_count (const char *s, uint64_t max, uint64_t *out)
{
  return parse_uint (s, out) == -1 || *out > max ? -1 : 0;
}

/* A non-negative decimal number of microseconds, as "%lf" reads it but
 * without signs, exponents, hex, infinities or NaNs.
 */
static int
parse_us (const char *s, double *out)
{
  const char *p;
  char *end;
  double v;

  for (p = s; *p; p++)
    if ((*p < '0' || *p > '9') && *p != '.')
      return -1;
  errno = 0;
  v = strtod (s, &end);
  if (end == s || *end || errno || !isfinite (v) || v > MAX_US)
    return -1;
  *out = v;
  return 0;
}

static int
split_fields (char *line, char **f, int max)
{
  int n = 0;
  char *save, *tok;

  for (tok = strtok_r (line, " \t", &save); tok;
       tok = strtok_r (NULL, " \t", &save)) {
    if (n == max)
      return max + 1;
    f[n++] = tok;
  }
  return n;
}

static int
parse_fields (const struct ds_trace *t, char **f, struct ds_request *d,
              char *err, size_t errlen)
{
  static const char *const actions[] = { "Hit", "Miss", "Doub", "Trip" };
  uint64_t v;
  double inter;
  size_t i;

  if (strcmp (f[0], "R") != 0 && strcmp (f[0], "W") != 0) {
    ds_trace_error (t, err, errlen, "'%s': expected R or W", f[0]);
    return -1;
  }
  d->write = f[0][0] == 'W';
  for (i = 0; i < sizeof actions / sizeof *actions; i++)
    if (strcmp (f[1], actions[i]) == 0)
      break;
  if (i == sizeof actions / sizeof *actions) {
    ds_trace_error (t, err, errlen, "'%s': expected Hit, Miss, Doub or "
                    "Trip", f[1]);
    return -1;
  }
  snprintf (d->action, sizeof d->action, "%s", actions[i]);
  if (parse_count (f[2], INT64_MAX, &d->blkno) == -1) {
    ds_trace_error (t, err, errlen, "blkno '%s': expected a block number",
                    f[2]);
    return -1;
  }
  if (parse_count (f[3], INT_MAX, &v) == -1 || v == 0) {
    ds_trace_error (t, err, errlen, "bcount '%s': expected a block count "
                    "of 1 to %d", f[3], INT_MAX);
    return -1;
  }
  d->bcount = (uint32_t) v;
  if (d->blkno > t->size / DS_BLOCK
      || d->bcount > t->size / DS_BLOCK - d->blkno) {
    ds_trace_error (t, err, errlen, "blocks %" PRIu64 "+%" PRIu32 " end "
                    "beyond size=%" PRIu64 " (%" PRIu64 " blocks of %u "
                    "bytes)", d->blkno, d->bcount, t->size,
                    t->size / DS_BLOCK, DS_BLOCK);
    return -1;
  }
  if (parse_us (f[4], &d->servtime_us) == -1) {
    ds_trace_error (t, err, errlen, "servtime '%s': expected "
                    "microseconds, 0 to %g", f[4], MAX_US);
    return -1;
  }
  if (parse_us (f[5], &inter) == -1) {
    ds_trace_error (t, err, errlen, "nextinter '%s': expected "
                    "microseconds, 0 to %g", f[5], MAX_US);
    return -1;
  }
  d->nextinter_ns = (uint64_t) llround (inter * 1000.0);
  return 0;
}

int
ds_trace_next (struct ds_trace *t, struct ds_request *d, char *err,
               size_t errlen)
{
  char *f[6];
  ssize_t len;
  int n;

  errno = 0;
  len = getline (&t->buf, &t->cap, t->fp);
  if (len == -1) {
    if (ferror (t->fp) || errno == ENOMEM) {
      snprintf (err, errlen, "%s: %s", t->path,
                strerror (errno ? errno : EIO));
      return -1;
    }
    return 0;
  }
  t->line++;
  if (len > MAX_LINE) {
    ds_trace_error (t, err, errlen, "line longer than %d characters",
                    MAX_LINE);
    return -1;
  }
  t->buf[strcspn (t->buf, "\r\n")] = '\0';
  n = split_fields (t->buf, f, 6);
  if (n != 6) {
    ds_trace_error (t, err, errlen, "%s: expected 6 fields (R|W Hit|Miss "
                    "blkno bcount servtime_us nextinter_us)",
                    n == 0 ? "empty line" : n > 6 ? "too many fields"
                    : "too few fields");
    return -1;
  }
  memset (d, 0, sizeof *d);
  d->line = t->line;
  if (parse_fields (t, f, d, err, errlen) == -1)
    return -1;
  return 1;
}
