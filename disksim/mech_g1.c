/* hddsim: DiskSim's seek functions (dm_mech_g1), as Diskmodel's manual
 * (sections 1.4.3 and 1.5) defines them.
 *
 *  constant    'Constant seek time' for every distance > 0
 *  linear      refused at load time: the manual does not say at which
 *              distances its three points lie
 *  curve       Lee's equation: a sqrt(x-1) + b (x-1) + c through
 *              'Single cylinder', 'Average' and 'Full strobe' seek times
 *  hpl         Ruemmler & Wilkes: V2 + V3 sqrt(d) below V1 cylinders,
 *              V4 + V5 d from V1 on; V6 for one cylinder unless -1
 *  hplplus10   the same, with 'First ten seek times' for 1..10
 *  extracted   a measured curve, linear between its points,
 *              extrapolated from its last two beyond the last, and from
 *              (0, 0) to the first below it (dm_mech_g1's reader leaves
 *              zeroed points before a curve with the count header)
 * The model interpolates the imported table in DiskSim's integer
 * arithmetic (model/seek.c); this file's doubles serve the formulas
 * and the tests.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech_g1.h"

static double
hpl_ms (const double v[6], uint64_t dist)
{
  if (dist == 1 && v[5] != -1)
    return v[5];
  if ((double) dist < v[0])
    return v[1] + v[2] * sqrt ((double) dist);
  return v[3] + v[4] * (double) dist;
}

/* Lee (1993): seek(x) = a sqrt(x-1) + b (x-1) + c, with
 * a = (-10 min + 15 avg - 5 max) / (3 sqrt(numCyl)),
 * b = (7 min - 15 avg + 8 max) / (3 numCyl), c = min.
 */
static double
lee_ms (const struct ds_seek *s, uint64_t dist)
{
  double n = (double) s->cylinders, x = (double) dist;
  double a = (-10 * s->one + 15 * s->avg - 5 * s->full) / (3 * sqrt (n));
  double b = (7 * s->one - 15 * s->avg + 8 * s->full) / (3 * n);

  return a * sqrt (x - 1) + b * (x - 1) + s->one;
}

static double
extracted_ms (const struct ds_seek *s, uint64_t dist)
{
  size_t i;

  if (s->n && dist < s->dist[0])
    return s->ms[0] * (double) dist / (double) s->dist[0];
  for (i = 0; i < s->n; i++) {
    if (dist == s->dist[i])
      return s->ms[i];
    if (i > 0 && (dist < s->dist[i] || i == s->n - 1))
      return s->ms[i - 1] + (s->ms[i] - s->ms[i - 1])
             * ((double) dist - (double) s->dist[i - 1])
             / ((double) s->dist[i] - (double) s->dist[i - 1]);
  }
  return s->n ? s->ms[s->n - 1] : 0;  /* a one-point curve */
}

double
ds_seek_ms (const struct ds_seek *s, uint64_t dist)
{
  if (dist == 0)
    return 0;
  switch (s->type) {
  case DS_SEEK_CONSTANT: return s->constant;
  case DS_SEEK_CURVE: return lee_ms (s, dist);
  case DS_SEEK_HPL: return hpl_ms (s->hpl, dist);
  case DS_SEEK_HPLPLUS10:
    return dist <= 10 ? s->first10[dist - 1] : hpl_ms (s->hpl, dist);
  case DS_SEEK_EXTRACTED: return extracted_ms (s, dist);
  }
  return 0;                     /* DS_SEEK_LINEAR: refused at load */
}

static int
curve_error (char *err, size_t errlen, const char *path, unsigned line,
             const char *what)
{
  snprintf (err, errlen, "%s:%u: %s", path, line, what);
  return -1;
}

#define CURVE_MAX 100000        /* points */
#define SEEK_MS_MAX 10000.0     /* 10 s: no drive seeks longer */

/* One point line: "DIST, TIME[, STDEV]". */
static int
curve_line (char *line, uint64_t *dist, double *ms)
{
  char *end;
  long long d;
  double t;

  errno = 0;
  d = strtoll (line, &end, 10);
  if (end == line || errno || *end != ',' || d < 1)
    return -1;
  line = end + 1;
  t = strtod (line, &end);
  if (end == line || !isfinite (t) || t < 0 || t > SEEK_MS_MAX)
    return -1;
  while (*end == ' ' || *end == '\t')
    end++;
  if (*end == ',') {
    double sd = strtod (end + 1, &end);
    (void) sd;
  }
  while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
    end++;
  if (*end)
    return -1;
  *dist = (uint64_t) d;
  *ms = t;
  return 0;
}

int
ds_seek_read_curve (struct ds_seek *s, const char *path, char *err,
                    size_t errlen)
{
  FILE *fp = fopen (path, "r");
  char line[1024];
  unsigned lineno = 1;
  long long count;
  size_t cap;

  if (!fp) {
    snprintf (err, errlen, "%s: cannot open the seek curve: %s", path,
              strerror (errno));
    return -1;
  }
  if (!fgets (line, sizeof line, fp)
      || sscanf (line, "Seek distances measured: %lld", &count) != 1
      || count < 1 || count > CURVE_MAX) {
    fclose (fp);
    return curve_error (err, errlen, path, 1, "expected 'Seek distances "
                        "measured: N' (N from 1 to 100000)");
  }
  cap = (size_t) count;
  s->dist = calloc (cap, sizeof *s->dist);
  s->ms = calloc (cap, sizeof *s->ms);
  s->n = 0;
  if (!s->dist || !s->ms) {
    fclose (fp);
    return curve_error (err, errlen, path, 1, "out of memory");
  }
  while (fgets (line, sizeof line, fp)) {
    uint64_t d;
    double t;
    lineno++;
    if (strspn (line, " \t\r\n") == strlen (line))
      continue;                 /* blank lines */
    if (s->n == cap) {
      fclose (fp);
      return curve_error (err, errlen, path, lineno, "more points than "
                          "'Seek distances measured' says");
    }
    if (curve_line (line, &d, &t) == -1) {
      fclose (fp);
      return curve_error (err, errlen, path, lineno, "expected 'DISTANCE, "
                          "MILLISECONDS' (distance >= 1 cylinder, time "
                          "0 to 10000 ms)");
    }
    if (s->n > 0 && d <= s->dist[s->n - 1]) {
      fclose (fp);
      return curve_error (err, errlen, path, lineno, "distances must "
                          "increase");
    }
    s->dist[s->n] = d;
    s->ms[s->n] = t;
    s->n++;
  }
  fclose (fp);
  if (s->n != cap) {
    snprintf (err, errlen, "%s:%u: %zu points, but 'Seek distances "
              "measured: %lld'", path, lineno, s->n, count);
    return -1;
  }
  return 0;
}
