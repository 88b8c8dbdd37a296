/* hddsim: DiskSim's mechanics (dm_mech_g1) as the model's: the rotation
 * speed, the seek function as a seek-table exact to the nanosecond, and
 * DiskSim's positioning rule with its head switch and write settle.
 */

#include <inttypes.h>
#include <math.h>

#include "../model/probe.h"
#include "map.h"

/* A formula's seek times as a table, exact to the nanosecond: the
 * model interpolates between points as seek_table_interp does, and
 * every distance between two points must come out at the formula's
 * time (rounded to ns).  SEEK_TABLE_MAX points suffice for the
 * formulas' shapes over the cylinder counts of real drives; more is
 * refused.
 */
static uint64_t
seek_at (const struct ds_seek *s, uint64_t dist)
{
  return ms_to_ns (ds_seek_ms (s, dist));
}

/* Whether the model's line from a to b gives f at every distance. */
static bool
chord_ok (const struct ds_seek *s, uint64_t a, uint64_t b)
{
  uint64_t fa = seek_at (s, a), fb = seek_at (s, b), x;

  for (x = a + 1; x < b; x++)
    if (seek_table_interp (a, fa, b, fb, x) != seek_at (s, x))
      return false;
  return true;
}

/* Points of a table that is the seek function at every distance; the
 * count (more than max: too many).  Greedy: from each point, the
 * farthest next point whose chord is exact (doubling, then bisecting:
 * exactness is not monotonic in the distance, so the chord found may
 * not be the longest, only an exact one).
 */
static size_t
table_from_function (const struct ds_seek *s, uint64_t maxd, uint64_t *dist,
                     uint64_t *ns, size_t max)
{
  uint64_t a = 1;
  size_t n = 0;

  dist[n] = 1;
  ns[n++] = seek_at (s, 1);
  while (a < maxd) {
    uint64_t good = a + 1, step = 2, bad;
    while (a + step <= maxd && chord_ok (s, a, a + step)) {
      good = a + step;
      step *= 2;
    }
    bad = a + step <= maxd ? a + step : maxd + 1;
    while (bad - good > 1) {            /* good passes, bad fails */
      uint64_t mid = good + (bad - good) / 2;
      if (chord_ok (s, a, mid))
        good = mid;
      else
        bad = mid;
    }
    if (n == max)
      return max + 1;
    dist[n] = good;
    ns[n++] = seek_at (s, good);
    a = good;
  }
  return n;
}

static const char *
seek_type_name (int type)
{
  switch (type) {
  case DS_SEEK_CONSTANT: return "constant";
  case DS_SEEK_CURVE: return "curve";
  case DS_SEEK_HPL: return "hpl";
  case DS_SEEK_HPLPLUS10: return "hplplus10";
  case DS_SEEK_EXTRACTED: return "extracted";
  }
  return "linear";
}

/* DiskSim's seek curve as hddsim's seek-table.  An extracted curve is
 * taken point for point: hddsim interpolates and extrapolates it as
 * DiskSim does (seek.c), falling stretches included.
 */
static void
map_seek (struct map_out *o, const struct ds_drive *d, struct hdd_params *p)
{
  const struct ds_seek *s = &d->seek;
  uint64_t maxd = d->layout.cylinders > 2 ? d->layout.cylinders - 1 : 2;
  uint64_t dist[SEEK_TABLE_MAX], ns[SEEK_TABLE_MAX];
  size_t n, i;

  if (s->type == DS_SEEK_EXTRACTED) {
    n = s->n;
    if (n > SEEK_TABLE_MAX) {
      map_block (o, s->at, "Seek type = extracted: the curve has %zu points; "
                 "hddsim's seek-table holds at most %d", n, SEEK_TABLE_MAX);
      return;
    }
    for (i = 0; i < n; i++) {
      dist[i] = s->dist[i];
      ns[i] = ms_to_ns (s->ms[i]);
    }
  }
  else {
    n = table_from_function (s, maxd, dist, ns, SEEK_TABLE_MAX);
    if (n > SEEK_TABLE_MAX) {
      map_block (o, s->at, "Seek type = %s: a table exact to the ns needs "
                 "more than the %d points of hddsim's seek-table",
                 seek_type_name (s->type), SEEK_TABLE_MAX);
      return;
    }
  }
  if (n == 0) {                 /* the parser requires a point: defensive */
    map_block (o, s->at, "Seek type = %s: no seek times",
               seek_type_name (s->type));
    return;
  }
  if (n == 1) {                 /* hddsim wants two points: flat beyond */
    dist[1] = dist[0] + 1;
    ns[1] = ns[0];
    n = 2;
  }
  p->seek_npoints = (unsigned) n;
  for (i = 0; i < n; i++) {
    p->seek_dist[i] = dist[i];
    p->seek_time[i] = ns[i];
  }
  p->seek_track = ns[0];
  p->seek_full = seek_at (s, maxd);
}

/* The shortest seek over 1..maxd cylinders: the table is piecewise
 * linear, so at a point or at the full stroke (extrapolated).
 */
static uint64_t
shortest_seek (const struct hdd_params *p, uint64_t maxd)
{
  unsigned i, n = p->seek_npoints;
  uint64_t best = UINT64_MAX;

  for (i = 0; i < n && p->seek_dist[i] <= maxd; i++)
    if (p->seek_time[i] < best)
      best = p->seek_time[i];
  if (n >= 2 && maxd > p->seek_dist[n - 1]) {
    uint64_t t = seek_table_interp (p->seek_dist[n - 2], p->seek_time[n - 2],
                                    p->seek_dist[n - 1], p->seek_time[n - 1],
                                    maxd);
    if (t < best)
      best = t;
  }
  return best;
}

/* DiskSim's positioning (dm_mech_g1's dm_seek_time): the longer of
 * seek and head switch, and a write adds 'Add. write settling delay'
 * to any positioning that is not zero, after a head switch too.  A
 * negative delay shortens a write's positioning (the seek curve was
 * measured for reads); it must leave every positioning at 0 or more,
 * or DiskSim would go back in time.
 */
static void
map_settle (struct map_out *o, const struct ds_drive *d, struct hdd_params *p,
            bool heads)
{
  uint64_t maxd = d->layout.cylinders > 2 ? d->layout.cylinders - 1 : 2;
  uint64_t shortest, settle = ms_to_ns (fabs (d->write_settle.v));

  map_set (o, p, d->head_switch.at, "Head switch time", "head-switch",
           ms_to_ns (d->head_switch.v), true);
  p->position_rule = POSITION_DISKSIM;
  if (d->write_settle.v >= 0) {
    map_set (o, p, d->write_settle.at, "Add. write settling delay",
             "write-settle", settle, true);
    return;
  }
  map_set (o, p, d->write_settle.at, "Add. write settling delay",
           "write-settle-neg", settle, true);
  if (!p->seek_npoints)
    return;                     /* the seek was refused already */
  shortest = shortest_seek (p, maxd);
  if (heads && p->head_switch < shortest)
    shortest = p->head_switch;
  if (settle > shortest)
    map_block (o, d->write_settle.at, "Add. write settling delay = %g ms: "
               "more negative than the shortest positioning (%.6f ms); "
               "DiskSim's time would be negative", d->write_settle.v,
               (double) shortest / 1e6);
}

void
map_mech (struct map_out *o, const struct ds_drive *d, struct hdd_params *p)
{
  if (d->access_type.v != 0)
    map_block (o, d->access_type.at, "Access time type = %s: hddsim models "
               "seeks and rotation (trackSwitchPlusRotation)",
               d->access_type.v == 1 ? "averageRotation" : "constant");
  if (d->rpm_error.v != 0)
    map_block (o, d->rpm_error.at, "Percent error in rpms = %g: a randomly "
               "drawn speed is not modelled", d->rpm_error.v);
  map_set (o, p, d->rpm.at, "Rotation speed (in rpms)", "rpm",
           (uint64_t) d->rpm.v, false);
  map_seek (o, d, p);
  map_settle (o, d, p, d->layout.surfaces > 1);
}
