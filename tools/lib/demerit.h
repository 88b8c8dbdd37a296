/* hddsim: DiskSim's RMS demerit of modeled against measured service
 * times.
 *
 * DiskSim 4.0 validates a drive model by binning both sets of service
 * times into one distribution of its statdefs file ("Physical access
 * time" for the model, "Trace access time" for the trace: 1750
 * buckets, scale 1000, "Start 0 step 1 grow 1"), printing each
 * distribution as its empirical CDF at the bucket edges, and letting
 * its rms program invert both printed CDFs by linear interpolation at
 * p = 0.0001, 0.0002, ... <= 1.0.  The demerit is the root mean square
 * of the differences, in milliseconds.  Everything below reproduces
 * those steps, including the rounding of the printed CDF.
 */
#ifndef HDDSIM_DEMERIT_H
#define HDDSIM_DEMERIT_H

#include <stddef.h>
#include <stdint.h>

#define DEMERIT_BUCKETS 1750

/* Bucket edge i in integer microseconds: 0, 1, 2, ... 100, then each
 * edge is the previous plus 1 + floor(previous / 100).
 */
extern int64_t demerit_edge_us (unsigned i);

struct demerit_dist {
  uint64_t count;
  double sum_ms;                /* for the mean */
  /* bucket[j], j >= 1: values v (whole microseconds, truncated) with
   * edge(j-1) <= v < edge(j); bucket[DEMERIT_BUCKETS-1] also holds
   * every larger value.  bucket[0] stays empty, as in DiskSim.
   */
  uint64_t bucket[DEMERIT_BUCKETS];
};

extern void demerit_dist_init (struct demerit_dist *);
/* Count one service time given in milliseconds (DiskSim's unit). */
extern void demerit_dist_add (struct demerit_dist *, double ms);
extern double demerit_dist_mean (const struct demerit_dist *);

/* The CDF as DiskSim prints it and rms reads it back: x[i] the bucket
 * edge in ms, y[i] the fraction of values below it (rounded to six
 * decimals as printed), up to and including the first point with
 * y >= 1.  x and y hold DEMERIT_BUCKETS points.  Returns the number of
 * points, 0 if the distribution is empty.
 */
extern size_t demerit_cdf (const struct demerit_dist *, double *x, double *y);

/* The demerit in ms; -1 if either distribution is empty. */
extern double demerit_rms (const struct demerit_dist *model,
                           const struct demerit_dist *measured);

#endif /* HDDSIM_DEMERIT_H */
