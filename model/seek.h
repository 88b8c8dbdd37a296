/* hddsim: the arm's positioning times: the seek curve fitted to the
 * parameters or read off a seek-table, and the positioning rules
 * (seek.c).
 */
#ifndef HDDSIM_SEEK_H
#define HDDSIM_SEEK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geometry.h"
#include "params.h"

struct seek_curve {
  uint64_t maxd;                /* full stroke, cylinders */
  bool table;
  unsigned npoints;             /* point 0 is (0, 0) */
  uint64_t d[SEEK_TABLE_MAX + 1], t[SEEK_TABLE_MAX + 1];   /* cyl, ns */
  /* t(d) = a + b d^p for d < x; tangent line beyond, through full. */
  double a, b, p, x, slope;
  double knee;                  /* a + b x^p, once (seek_ns's long seeks) */
  /* The positioning rule and its times (from the parameters). */
  int rule;                     /* enum position_rule */
  uint64_t write_settle, write_settle_neg, head_switch;
};

extern int seek_fit (struct seek_curve *, const struct hdd_params *,
                     const struct geom *, char *err, size_t errlen);
extern uint64_t seek_ns (const struct seek_curve *, uint64_t dist);
/* The same in picoseconds: a measured table's interpolation is not
 * rounded to the ns (as DiskSim's dm_time_t), a curve's is.
 */
extern uint64_t seek_ps (const struct seek_curve *, uint64_t dist);
/* Positioning under position-rule=disksim: seek over dist cylinders
 * and/or a head switch, then the write settle (see enum position_rule).
 */
extern uint64_t seek_position_disksim (const struct seek_curve *,
                                       uint64_t dist, bool head_change,
                                       bool write);
/* Mean over seeks between uniformly random LBAs (what seek-avg means). */
extern double seek_mean_random (const struct seek_curve *, const struct geom *);
/* Mean over all seek lengths 1..maxd, each weighted by the track
 * pairs that far apart (the OEM definition; seek-avg-weight=tracks).
 */
extern double seek_mean_tracks (const struct seek_curve *);

#endif /* HDDSIM_SEEK_H */
