/* hddsim: DiskSim's RMS demerit (see demerit.h).
 *
 * The steps and their constants are DiskSim 4.0's: statdefs gives the
 * distribution (1750 buckets, Scale 1000, Start 0 step 1 grow 1), its
 * stat module bins and prints it, its rms program compares two printed
 * distributions.  Only the facts are taken over; the code is ours.
 */

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demerit.h"

/* statdefs: "Scale/Equals: 1000/0": values are milliseconds, binned
 * as whole microseconds.
 */
#define SCALE 1000.0
/* rms: the quantiles p = STEP, 2 STEP, ... <= 1. */
#define STEP 0.0001

static int64_t edges[DEMERIT_BUCKETS];

/* "Start 0 step 1 grow 1": each edge is the previous one plus the step
 * plus grow percent of the previous one, truncated.
 */
static void
init_edges (void)
{
  int64_t e = 0;
  unsigned i;

  if (edges[1] != 0)
    return;
  for (i = 0; i < DEMERIT_BUCKETS; i++) {
    edges[i] = e;
    e += 1 + e / 100;
  }
}

int64_t
demerit_edge_us (unsigned i)
{
  init_edges ();
  return i < DEMERIT_BUCKETS ? edges[i] : -1;
}

void
demerit_dist_init (struct demerit_dist *d)
{
  init_edges ();
  memset (d, 0, sizeof *d);
}

/* DiskSim counts a value in [edge(k), edge(k+1)) in bucket k+1, so
 * that bucket j's printed cumulative fraction at edge(j) is the
 * fraction of values below edge(j).  Values past edge(N-2) all go to
 * the last bucket; negative ones would land in bucket 1.
 */
static unsigned
bucket_of (double ms)
{
  double scaled = ms * SCALE;
  int64_t v;
  unsigned lo = 0, hi = DEMERIT_BUCKETS - 2;

  if (!(scaled >= 0))
    scaled = 0;
  if (scaled >= (double) edges[DEMERIT_BUCKETS - 2])
    return DEMERIT_BUCKETS - 1;
  v = (int64_t) scaled;         /* DiskSim: (int) (value * scale) */
  /* The largest k with edges[k] <= v. */
  while (lo < hi) {
    unsigned mid = lo + (hi - lo + 1) / 2;
    if (edges[mid] <= v)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo + 1;
}

void
demerit_dist_add (struct demerit_dist *d, double ms)
{
  d->bucket[bucket_of (ms)]++;
  d->count++;
  d->sum_ms += ms;
}

double
demerit_dist_mean (const struct demerit_dist *d)
{
  return d->count ? d->sum_ms / (double) d->count : 0.0;
}

/* DiskSim prints the running sum with "%f" and rms reads it back with
 * "%lf": six decimals.
 */
static double
as_printed (double y)
{
  char buf[64];

  snprintf (buf, sizeof buf, "%f", y);
  return strtod (buf, NULL);
}

size_t
demerit_cdf (const struct demerit_dist *d, double *x, double *y)
{
  double sum = 0.0;
  size_t i;

  if (d->count == 0)
    return 0;
  for (i = 0; i < DEMERIT_BUCKETS; i++) {
    /* The density of each bucket is added in turn, as DiskSim does. */
    sum += (double) d->bucket[i] / (double) d->count;
    x[i] = (double) edges[i] / SCALE;
    y[i] = as_printed (sum);
    if (y[i] >= 1.0)
      return i + 1;
  }
  /* Rounding kept the sum below 1: rms would read on past the table;
   * close the CDF at the last edge instead.
   */
  y[DEMERIT_BUCKETS - 1] = 1.0;
  return DEMERIT_BUCKETS;
}

/* The value below which a fraction p of the distribution lies, by
 * linear interpolation between the printed points; *i is where the
 * previous (smaller) p was found.  y[0] is 0 and p > 0, so i >= 1.
 */
static double
invert (const double *x, const double *y, size_t n, size_t *i, double p)
{
  double frac;

  while (*i < n - 1 && y[*i] < p)
    (*i)++;
  frac = (p - y[*i - 1]) / (y[*i] - y[*i - 1]);
  return x[*i - 1] + frac * (x[*i] - x[*i - 1]);
}

double
demerit_rms (const struct demerit_dist *model,
             const struct demerit_dist *measured)
{
  double x1[DEMERIT_BUCKETS], y1[DEMERIT_BUCKETS];
  double x2[DEMERIT_BUCKETS], y2[DEMERIT_BUCKETS];
  size_t n1 = demerit_cdf (model, x1, y1);
  size_t n2 = demerit_cdf (measured, x2, y2);
  size_t i1 = 1, i2 = 1;
  double p, squares = 0.0;
  long count = 0;

  if (n1 < 2 || n2 < 2)
    return -1;
  /* p is accumulated as rms does: 10000 steps, the last one at
   * 0.99999999999990 rather than exactly 1.
   */
  for (p = STEP; p <= 1.0; p += STEP) {
    double diff = invert (x1, y1, n1, &i1, p) - invert (x2, y2, n2, &i2, p);
    squares += diff * diff;
    count++;
  }
  return sqrt (squares / (double) count);
}
