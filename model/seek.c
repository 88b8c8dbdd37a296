/* hddsim: the seek curve.
 *
 * Ruemmler & Wilkes (1994): a short seek is dominated by the arm's
 * acceleration and deceleration, t = a + b*sqrt(d); a long one reaches
 * the coast speed, t linear in d.  We join the two with a tangent at a
 * threshold x, so the curve is smooth, and fit a, b and x so that
 *   t(1)       = seek-track
 *   t(ncyl-1)  = seek-full
 *   mean t     = seek-avg, over seeks between uniformly random LBAs
 * (what a random-I/O benchmark over the whole drive measures), or, with
 * seek-avg-weight=tracks, the manufacturers' own definition (HGST and
 * WD OEM specifications, "Average seek time": the weighted average of
 * all possible seek combinations, sum over n = 1..max of (max + 1 - n)
 * (Tn.in + Tn.out) / ((max + 1) max), max the longest seek: every seek
 * length weighted by the number of track pairs that far apart).  If
 * seek-avg is too high for any square-root/linear blend, the short part
 * becomes a + b*d^p with p < 1/2.  A measured table of (distance, time) points replaces the
 * curve when given; it is interpolated linearly, between points and
 * beyond the last from the last two, as DiskSim's dm_mech_g1 does with
 * an extracted curve (mech_g1_seektime.c): in integer picoseconds,
 * the step from the lower point truncated towards that point.  The
 * times may fall somewhere (DIXtrac's curves do: atlas10k 1.531 ms at
 * 10 cylinders, 1.515 ms at 12); below the first point the line runs
 * from (0, 0), as DiskSim's does for a curve file with a header.
 *
 * The positioning rule (enum position_rule) decides what a move over
 * cylinders and surfaces costs, with the write settle.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "geometry.h"
#include "probe.h"
#include "seek.h"
#include "../common/param.h"

#define BINS 128
#define PS_PER_NS 1000

typedef unsigned __int128 u128;

/* DiskSim's dm_time_t counts picoseconds: t1 + (dist - d1) (t2 - t1)
 * / (d2 - d1), the quotient of magnitudes truncated (its time type was
 * once unsigned, hence the two branches).  128 bits: a step of up to
 * 1 s (1e12 ps) times millions of cylinders.
 */
static u128
interp_ps (uint64_t d1, uint64_t t1, uint64_t d2, uint64_t t2, uint64_t dist)
{
  u128 p1 = (u128) t1 * PS_PER_NS, p2 = (u128) t2 * PS_PER_NS, step;

  if (p1 > p2) {
    step = (u128) (dist - d1) * (p1 - p2) / (d2 - d1);
    return step >= p1 ? 0 : p1 - step;  /* a falling line may pass 0 */
  }
  return p1 + (u128) (dist - d1) * (p2 - p1) / (d2 - d1);
}

uint64_t
seek_table_interp (uint64_t d1, uint64_t t1, uint64_t d2, uint64_t t2,
                   uint64_t dist)
{
  u128 r = (interp_ps (d1, t1, d2, t2, dist) + PS_PER_NS / 2) / PS_PER_NS;

  return r > UINT64_MAX ? UINT64_MAX : (uint64_t) r;
}

/* The first point at or beyond dist (the last point when dist lies
 * beyond it); never point 0.
 */
static unsigned
table_upper (const struct seek_curve *c, uint64_t dist)
{
  unsigned lo = 1, hi = c->npoints - 1;

  while (lo < hi) {
    unsigned mid = lo + (hi - lo) / 2;
    if (c->d[mid] >= dist)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

static uint64_t
table_ns (const struct seek_curve *c, uint64_t dist)
{
  unsigned i = table_upper (c, dist);

  if (c->d[i] == dist)
    return c->t[i];
  return seek_table_interp (c->d[i - 1], c->t[i - 1], c->d[i], c->t[i],
                            dist);
}

/* The table at a fractional distance (for the mean over LBA bins). */
static double
table_eval (const struct seek_curve *c, double d)
{
  unsigned i = table_upper (c, (uint64_t) ceil (d));
  double d1 = (double) c->d[i - 1], t1 = (double) c->t[i - 1];
  double t = t1 + ((double) c->t[i] - t1) * (d - d1)
                  / ((double) c->d[i] - d1);

  return t < 0 ? 0 : t;
}

static double
curve_eval (const struct seek_curve *c, double d)
{
  if (d <= 0)
    return 0;
  if (c->table)
    return table_eval (c, d);
  if (d < c->x)
    return c->a + c->b * (c->p == 0.5 ? sqrt (d) : pow (d, c->p));
  return c->knee + c->slope * (d - c->x);
}

/* llround (t) for t > 0 (half away from zero) without the library
 * call: below 2^52, t less its integer part is exact; from there to
 * 2^62, t is an integer.
 */
static uint64_t
round_ns (double t)
{
  uint64_t r;

  if (t >= 0x1p62)
    return (uint64_t) llround (t);
  r = (uint64_t) t;
  return t - (double) r >= 0.5 ? r + 1 : r;
}

uint64_t
seek_ps (const struct seek_curve *c, uint64_t dist)
{
  unsigned i;
  u128 r;

  if (dist == 0 || !c->table)
    return seek_ns (c, dist) * PS_PER_NS;
  i = table_upper (c, dist);
  if (c->d[i] == dist)
    return c->t[i] * PS_PER_NS;
  r = interp_ps (c->d[i - 1], c->t[i - 1], c->d[i], c->t[i], dist);
  return r > UINT64_MAX ? UINT64_MAX : (uint64_t) r;
}

uint64_t
seek_ns (const struct seek_curve *c, uint64_t dist)
{
  double t;

  if (dist == 0)
    return 0;
  if (c->table)
    return table_ns (c, dist);
  t = curve_eval (c, (double) dist);
  return t <= 0 ? 0 : round_ns (t);
}

/* dm_mech_g1's dm_seek_time: the longer of the seek and the head
 * switch (each 0 when not needed), then, for a write, 'Add. write
 * settling delay' added to a positioning that is not zero, whether a
 * seek or a head switch, negative values included.  A negative delay
 * larger than the positioning would make DiskSim's time negative;
 * hddsim stops at 0 (the importer refuses such a drive).
 */
uint64_t
seek_position_disksim (const struct seek_curve *c, uint64_t dist,
                       bool head_change, bool write)
{
  uint64_t s = dist ? seek_ns (c, dist) : 0;
  uint64_t h = head_change ? c->head_switch : 0;
  uint64_t t = s > h ? s : h;

  if (t == 0 || !write)
    return t;
  t += c->write_settle;
  return t > c->write_settle_neg ? t - c->write_settle_neg : 0;
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

/* The manufacturers' mean over track pairs (the top of the file):
 * inward and outward seeks take the same time here, so the mean is
 * sum (maxd + 1 - n) 2 t(n) / ((maxd + 1) maxd).  Exact up to
 * TRACKS_EXACT cylinders, where the square-root part bends; beyond,
 * the smooth rest is summed over TRACKS_STEPS equal runs of lengths,
 * each at its middle, so a fit of ~40 steps stays quick on a drive of
 * a million cylinders.
 */
#define TRACKS_EXACT 2048
#define TRACKS_STEPS 4096

double
seek_mean_tracks (const struct seek_curve *c)
{
  double maxd = (double) c->maxd, sum = 0;
  uint64_t n, exact = c->maxd < TRACKS_EXACT ? c->maxd : TRACKS_EXACT;
  unsigned k;

  for (n = 1; n <= exact; n++)
    sum += (maxd + 1 - (double) n) * curve_eval (c, (double) n);
  if (c->maxd > exact) {
    double from = (double) exact + 1, len = maxd - from + 1;
    for (k = 0; k < TRACKS_STEPS; k++) {
      double a = from + len * k / TRACKS_STEPS;
      double b = from + len * (k + 1) / TRACKS_STEPS;
      double mid = (a + b - 1) / 2;
      sum += (b - a) * (maxd + 1 - mid) * curve_eval (c, mid);
    }
  }
  return 2 * sum / ((maxd + 1) * maxd);
}

/* The mean seek-avg is fitted to (seek-avg-weight=). */
static double
fit_mean (const struct seek_curve *c, const double cyl[BINS + 1],
          int weight)
{
  return weight == SEEKW_TRACKS ? seek_mean_tracks (c)
                                : mean_over_bins (c, cyl);
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
  c->knee = c->a + c->b * pow (c->x, c->p);
}

/* The table is extrapolated beyond its last point, so its time at the
 * full stroke must keep within the bound of every seek time too; and
 * a falling last stretch must not reach zero before the full stroke
 * (DiskSim would give a negative seek time there).
 */
static int
fit_table (struct seek_curve *c, const struct hdd_params *p, char *err,
           size_t errlen)
{
  unsigned i, n = p->seek_npoints;
  double full, d1, t1, d2, t2;
  char b[32];

  c->table = true;
  c->d[0] = 0;
  c->t[0] = 0;
  for (i = 0; i < n; i++) {
    c->d[i + 1] = p->seek_dist[i];
    c->t[i + 1] = p->seek_time[i];
  }
  c->npoints = n + 1;
  for (i = 1; i <= n; i++)
    if (c->t[i] > SEEK_MAX_NS || c->d[i] <= c->d[i - 1] || n < 2) {
      snprintf (err, errlen, "seek-table: point %u (%" PRIu64 " cylinders, "
                "%" PRIu64 " ns): the table needs 2 to %d points, "
                "distances increasing, each time at most %s", i, c->d[i],
                c->t[i], SEEK_TABLE_MAX,
                format_duration (SEEK_MAX_NS, b, sizeof b));
      return -1;
    }
  if (c->maxd <= c->d[n])
    return 0;
  d1 = (double) c->d[n - 1], t1 = (double) c->t[n - 1];
  d2 = (double) c->d[n], t2 = (double) c->t[n];
  full = t1 + (t2 - t1) * ((double) c->maxd - d1) / (d2 - d1);
  if (!(full <= (double) SEEK_MAX_NS)) {
    snprintf (err, errlen, "seek-table: extrapolated to the full stroke "
              "(%" PRIu64 " cylinders) a seek takes %.9gs, more than %s "
              "(the bound of seek-full); add a point at the full stroke",
              c->maxd, full / 1e9, format_duration (SEEK_MAX_NS, b, sizeof b));
    return -1;
  }
  if (!(full > 0)) {
    snprintf (err, errlen, "seek-table: the last points fall, and "
              "extrapolated to the full stroke (%" PRIu64 " cylinders) "
              "a seek would take %.9gs; add a point at the full stroke",
              c->maxd, full / 1e9);
    return -1;
  }
  return 0;
}

static void
set_rule (struct seek_curve *c, const struct hdd_params *p)
{
  c->rule = p->position_rule;
  c->write_settle = p->write_settle;
  c->write_settle_neg = p->write_settle_neg;
  c->head_switch = p->head_switch;
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
  set_rule (c, p);
  if (p->seek_npoints > 0)
    return fit_table (c, p, err, errlen);
  dmax = (double) c->maxd;
  if (c->maxd < 2) {
    shape (c, track, full, 1, 0.5);
    return 0;
  }
  lba_bins (g, cyl);

  shape (c, track, full, 1, 0.5);
  if (fit_mean (c, cyl, p->seek_weight) > avg) {
    snprintf (err, errlen,
              "seek-avg=%s: too short for seek-track=%s and "
              "seek-full=%s (even a linear seek curve averages %s)",
              format_duration (p->seek_avg, a, sizeof a),
              format_duration (p->seek_track, b, sizeof b),
              format_duration (p->seek_full, f, sizeof f),
              format_duration ((uint64_t) llround (fit_mean (c, cyl,
                                                             p->seek_weight)),
                               m, sizeof m));
    return -1;
  }
  shape (c, track, full, dmax, 0.5);
  if (fit_mean (c, cyl, p->seek_weight) >= avg) {
    /* Between linear (x = 1) and square root (x = full): find x. */
    lo = 1, hi = dmax;
    for (i = 0; i < 40; i++) {
      double mid = sqrt (lo * hi);      /* x spans decades */
      shape (c, track, full, mid, 0.5);
      if (fit_mean (c, cyl, p->seek_weight) < avg)
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
  if (fit_mean (c, cyl, p->seek_weight) < avg) {
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
    if (fit_mean (c, cyl, p->seek_weight) > avg)
      lo = mid;
    else
      hi = mid;
  }
  shape (c, track, full, dmax, (lo + hi) / 2);
  return 0;
}
