/* hddsim: the seek curve.
 *
 * Ruemmler & Wilkes (1994): a short seek is dominated by the arm's
 * acceleration and deceleration, t = a + b*sqrt(d); a long one reaches
 * the coast speed, t linear in d.  We join the two with a tangent at a
 * threshold x, so the curve is smooth, and fit a, b and x so that
 *   t(1)       = seek-track
 *   t(ncyl-1)  = seek-full
 *   mean t     = seek-avg, over seeks between uniformly random LBAs
 * (what a random-I/O benchmark over the whole drive measures, and what
 * spec sheets mean by average seek).  If seek-avg is too high for any
 * square-root/linear blend, the short part becomes a + b*d^p with
 * p < 1/2.  A measured table of (distance, time) points replaces the
 * curve when given; it is interpolated linearly.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "hdd_int.h"
#include "../common/param.h"

#define BINS 128

static double
curve_eval (const struct seek_curve *c, double d)
{
  if (d <= 0)
    return 0;
  if (c->table) {
    unsigned i;
    for (i = 1; i < c->npoints - 1 && d > c->d[i]; i++)
      ;
    /* Linear between points i-1 and i; extrapolate beyond the last. */
    return c->t[i - 1] + (c->t[i] - c->t[i - 1]) * (d - c->d[i - 1])
                         / (c->d[i] - c->d[i - 1]);
  }
  if (d < c->x)
    return c->a + c->b * (c->p == 0.5 ? sqrt (d) : pow (d, c->p));
  return c->a + c->b * pow (c->x, c->p) + c->slope * (d - c->x);
}

uint64_t
seek_ns (const struct seek_curve *c, uint64_t dist)
{
  double t;

  if (dist == 0)
    return 0;
  t = curve_eval (c, (double) dist);
  return t <= 0 ? 0 : (uint64_t) llround (t);
}

/* Cylinders at the LBA quantiles: bin i spans [cyl[i], cyl[i+1]]. */
static void
lba_bins (const struct geom *g, double cyl[BINS + 1])
{
  unsigned i;

  for (i = 0; i <= BINS; i++) {
    struct loc l;
    geom_locate (g, (uint64_t) ((double) g->sectors * i / BINS), &l);
    cyl[i] = (double) l.cyl;
  }
}

static double
mean_over_bins (const struct seek_curve *c, const double cyl[BINS + 1])
{
  double sum = 0, mid[BINS];
  unsigned i, j;

  for (i = 0; i < BINS; i++)
    mid[i] = (cyl[i] + cyl[i + 1]) / 2;
  for (i = 0; i < BINS; i++) {
    /* Two random points of one bin are a third of its width apart. */
    sum += curve_eval (c, fabs (cyl[i + 1] - cyl[i]) / 3);
    for (j = i + 1; j < BINS; j++)
      sum += 2 * curve_eval (c, fabs (mid[j] - mid[i]));
  }
  return sum / ((double) BINS * BINS);
}

double
seek_mean_random (const struct seek_curve *c, const struct geom *g)
{
  double cyl[BINS + 1];

  lba_bins (g, cyl);
  return mean_over_bins (c, cyl);
}

/* Shape the curve for threshold x and exponent p through the end points. */
static void
shape (struct seek_curve *c, double track, double full, double x, double p)
{
  double dmax = (double) c->maxd;
  double denom = pow (x, p) - 1 + p * pow (x, p - 1) * (dmax - x);

  c->x = x;
  c->p = p;
  c->b = denom > 0 ? (full - track) / denom : 0;
  c->a = track - c->b;
  c->slope = c->b * p * pow (x, p - 1);
}

/* The table is extrapolated beyond its last point, so its time at the
 * full stroke must keep within the bound of every seek time too.
 */
static int
fit_table (struct seek_curve *c, const struct hdd_params *p, char *err,
           size_t errlen)
{
  unsigned i;
  double full;

  c->table = true;
  c->d[0] = 0;
  c->t[0] = 0;
  for (i = 0; i < p->seek_npoints; i++) {
    c->d[i + 1] = (double) p->seek_dist[i];
    c->t[i + 1] = (double) p->seek_time[i];
  }
  c->npoints = p->seek_npoints + 1;
  full = curve_eval (c, (double) c->maxd);
  if (!(full <= (double) SEEK_MAX_NS)) {
    char b[32];
    snprintf (err, errlen, "seek-table: extrapolated to the full stroke "
              "(%" PRIu64 " cylinders) a seek takes %.9gs, more than %s "
              "(the bound of seek-full); add a point at the full stroke",
              c->maxd, full / 1e9, format_duration (SEEK_MAX_NS, b, sizeof b));
    return -1;
  }
  return 0;
}

int
seek_fit (struct seek_curve *c, const struct hdd_params *p,
          const struct geom *g, char *err, size_t errlen)
{
  double track = (double) p->seek_track, full = (double) p->seek_full;
  double avg = (double) p->seek_avg, cyl[BINS + 1], lo, hi, dmax;
  char a[32], b[32], f[32], m[32];
  int i;

  *c = (struct seek_curve) { .maxd = g->ncyl > 1 ? g->ncyl - 1 : 1 };
  if (p->seek_npoints > 0)
    return fit_table (c, p, err, errlen);
  dmax = (double) c->maxd;
  if (c->maxd < 2) {
    shape (c, track, full, 1, 0.5);
    return 0;
  }
  lba_bins (g, cyl);

  shape (c, track, full, 1, 0.5);
  if (mean_over_bins (c, cyl) > avg) {
    snprintf (err, errlen,
              "seek-avg=%s: too short for seek-track=%s and "
              "seek-full=%s (even a linear seek curve averages %s)",
              format_duration (p->seek_avg, a, sizeof a),
              format_duration (p->seek_track, b, sizeof b),
              format_duration (p->seek_full, f, sizeof f),
              format_duration ((uint64_t) llround (mean_over_bins (c, cyl)),
                               m, sizeof m));
    return -1;
  }
  shape (c, track, full, dmax, 0.5);
  if (mean_over_bins (c, cyl) >= avg) {
    /* Between linear (x = 1) and square root (x = full): find x. */
    lo = 1, hi = dmax;
    for (i = 0; i < 40; i++) {
      double mid = sqrt (lo * hi);      /* x spans decades */
      shape (c, track, full, mid, 0.5);
      if (mean_over_bins (c, cyl) < avg)
        lo = mid;
      else
        hi = mid;
    }
    shape (c, track, full, sqrt (lo * hi), 0.5);
    return 0;
  }
  /* More concave than a square root: t = a + b d^p, p < 1/2. */
  lo = 0.01, hi = 0.5;
  shape (c, track, full, dmax, lo);
  if (mean_over_bins (c, cyl) < avg) {
    snprintf (err, errlen,
              "seek-avg=%s: too close to seek-full=%s "
              "for any seek curve starting at seek-track=%s",
              format_duration (p->seek_avg, a, sizeof a),
              format_duration (p->seek_full, f, sizeof f),
              format_duration (p->seek_track, b, sizeof b));
    return -1;
  }
  for (i = 0; i < 30; i++) {
    double mid = (lo + hi) / 2;
    shape (c, track, full, dmax, mid);
    if (mean_over_bins (c, cyl) > avg)
      lo = mid;
    else
      hi = mid;
  }
  shape (c, track, full, dmax, (lo + hi) / 2);
  return 0;
}
