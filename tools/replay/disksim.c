/* hddsim-replay: DiskSim's validation traces, closed loop with their
 * think times, and the demerit of their measured service times.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../lib/demerit.h"
#include "../lib/disksim_replay.h"
#include "replay.h"

static int
ds_completed (const struct req *r, const struct ds_request *d, void *opaque)
{
  struct replay *rp = opaque;

  if (rp->out)
    write_row (rp, r);
  if (rp->modeled) {
    /* DiskSim's unit is the millisecond.  Its model side counts the
     * time from issue to completion (one request outstanding): its
     * completion's simtime less its start's, two doubles, which
     * DiskSim's own controller (controller=disksim) reproduces; the
     * difference can fall just under a bucket's edge where the exact
     * time is on it.
     */
    double ms = r->cost.disksim_ms > 0 ? r->cost.disksim_ms
                : (double) (r->done - r->arrival) / 1e6;
    demerit_dist_add (rp->modeled, ms);
    demerit_dist_add (rp->measured, d->servtime_us / 1000.0);
  }
  rp->requests++;
  return 0;
}

static int
write_cdf (const struct replay *rp)
{
  static double xm[DEMERIT_BUCKETS], ym[DEMERIT_BUCKETS];
  static double xt[DEMERIT_BUCKETS], yt[DEMERIT_BUCKETS];
  size_t nm = demerit_cdf (rp->modeled, xm, ym);
  size_t nt = demerit_cdf (rp->measured, xt, yt);
  size_t i, n = nm > nt ? nm : nt;
  FILE *fp = fopen (rp->cdf, "w");

  if (!fp) {
    fprintf (stderr, "hddsim-replay: %s: %s\n", rp->cdf, strerror (errno));
    return -1;
  }
  fprintf (fp, "# DiskSim's statdefs buckets: edge_ms measured modeled "
           "(fraction below the edge)\n");
  for (i = 0; i < n; i++)
    fprintf (fp, "%.3f %f %f\n", (double) demerit_edge_us ((unsigned) i)
             / 1000.0, i < nt ? yt[i] : 1.0, i < nm ? ym[i] : 1.0);
  if (fclose (fp) != 0) {
    fprintf (stderr, "hddsim-replay: %s: %s\n", rp->cdf, strerror (errno));
    return -1;
  }
  return 0;
}

static int
print_demerit (const struct replay *rp)
{
  double d = demerit_rms (rp->modeled, rp->measured);

  if (d < 0) {
    fprintf (stderr, "hddsim-replay: %s: no requests, no demerit\n",
             rp->trace);
    return -1;
  }
  printf ("requests=%ld\ndemerit_ms=%.6f\nmodeled_mean_ms=%.6f\n"
          "measured_mean_ms=%.6f\n", rp->requests, d,
          demerit_dist_mean (rp->modeled), demerit_dist_mean (rp->measured));
  return fflush (stdout) == 0 ? 0 : -1;
}

int
replay_disksim (struct replay *rp)
{
  static struct demerit_dist modeled, measured;
  char err[DS_ERRLEN];
  struct ds_trace *t = ds_trace_open (rp->trace, rp->size, err, sizeof err);
  long n;

  if (!t) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  if (rp->demerit || rp->cdf) {
    demerit_dist_init (&modeled);
    demerit_dist_init (&measured);
    rp->modeled = &modeled;
    rp->measured = &measured;
  }
  n = ds_replay (t, rp->engine, ds_completed, rp, err, sizeof err);
  ds_trace_close (t);
  if (n < 0) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  if (rp->cdf && write_cdf (rp) == -1)
    return -1;
  if (rp->demerit && print_demerit (rp) == -1)
    return -1;
  return 0;
}
