/* hddsim: a DiskSim drive (struct ds_drive) as hddsim parameters.
 *
 * Each DiskSim value either has an exact counterpart in struct
 * hdd_params, or is a value at which DiskSim behaves as hddsim's model
 * does, or it is refused ("blocked") with the file, the line, the key
 * and what the model lacks.  All reasons are collected, so one run
 * lists everything a drive needs.  Values are checked against the
 * model's own parameter table (hdd_params_set) and the geometry the
 * model would build (hdd_probe_layout), so the import cannot drift
 * from what the model does.
 *
 * Read but without effect on one disk's timing here, and why:
 *   Scheduler, Max queue length <= 1   the order is sched='s business
 *   Print stats, Avg sectors per cylinder, Calc sector by sector
 *                                      statistics, a scheduler hint, and
 *                                      (the manual) no effect
 *   Hold bus entire read/write xfer, Never disconnect, Disconnect write
 *   if seek, Set watermark by reqsize  bus ownership only: cost nothing
 *                                      while disconnect and reselect
 *                                      overheads and water marks are 0
 *                                      (refused otherwise)
 *   Read directly to buffer            the media reads into the buffer
 *                                      and the interface follows (hddsim's
 *                                      reads: see map_interface)
 *   Maximum number of write segments   one segment is dirty at a time
 *                                      without write prebuffering (see
 *                                      map_fast_write)
 *   Write hit stop prefetch            a write stops the read-ahead
 *                                      anyway
 *   the five Extradisc values          only with Extra write disconnect
 *                                      = 1 (refused)
 *   Single cylinder / Full strobe seek time, Average seek time
 *                                      only for the seek types that use
 *                                      them
 *   every other component's keys       statistics, buses and controllers
 *                                      (but their block transfer times and
 *                                      'Scale for delays', which count),
 *                                      synthetic workloads
 */

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/params.h"
#include "../model/probe.h"
#include "drive.h"


struct out {
  unsigned n;
  char first[HDD_ERRLEN];
  void (*each) (const char *, void *);
  void *opaque;
};

static void
block (struct out *o, struct dsp_where at, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

static void
block (struct out *o, struct dsp_where at, const char *fmt, ...)
{
  char msg[512];
  size_t used;
  va_list ap;

  used = (size_t) snprintf (msg, sizeof msg, "%s:%u: ", at.file, at.line);
  va_start (ap, fmt);
  vsnprintf (msg + used, sizeof msg - used, fmt, ap);
  va_end (ap);
  if (o->n++ == 0) {
    size_t n = strlen (msg) < sizeof o->first ? strlen (msg)
                                              : sizeof o->first - 1;
    memcpy (o->first, msg, n);
    o->first[n] = '\0';
  }
  if (o->each)
    o->each (msg, o->opaque);
}

static uint64_t
ms_to_ns (double ms)
{
  return ms <= 0 ? 0 : (uint64_t) llround (ms * 1e6);
}

/* Set through the model's parameter table, so its bounds apply. */
static void
set_param (struct out *o, struct hdd_params *p, struct dsp_where at,
           const char *dskey, const char *key, uint64_t v, bool ns)
{
  char buf[32], err[HDD_ERRLEN];

  snprintf (buf, sizeof buf, "%" PRIu64 "%s", v, ns ? "ns" : "");
  if (hdd_params_set (p, key, buf, err, sizeof err) != 0)
    block (o, at, "%s: as hddsim's %s", dskey, err);
}

/* ---- components around the disk ---- */

static void
map_system (struct out *o, const struct ds_drive *d)
{
  if (d->driver_const.set && d->driver_const.v != 0)
    block (o, d->driver_const.at, "Constant access time = %g: the driver "
           "fixes or replaces the disk's access times; not modelled",
           d->driver_const.v);
  if (d->ctlr_scale.set && d->ctlr_scale.v != 0)
    block (o, d->ctlr_scale.at, "Scale for delays = %g: controller "
           "overheads are not modelled (0 turns them off)",
           d->ctlr_scale.v);
}

/* ---- mechanics ---- */

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
map_seek (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  const struct ds_seek *s = &d->seek;
  uint64_t maxd = d->layout.cylinders > 2 ? d->layout.cylinders - 1 : 2;
  uint64_t dist[SEEK_TABLE_MAX], ns[SEEK_TABLE_MAX];
  size_t n, i;

  if (s->type == DS_SEEK_EXTRACTED) {
    n = s->n;
    if (n > SEEK_TABLE_MAX) {
      block (o, s->at, "Seek type = extracted: the curve has %zu points; "
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
      block (o, s->at, "Seek type = %s: a table exact to the ns needs "
             "more than the %d points of hddsim's seek-table",
             seek_type_name (s->type), SEEK_TABLE_MAX);
      return;
    }
  }
  if (n == 0) {                 /* the parser requires a point: defensive */
    block (o, s->at, "Seek type = %s: no seek times",
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
map_settle (struct out *o, const struct ds_drive *d, struct hdd_params *p,
            bool heads)
{
  uint64_t maxd = d->layout.cylinders > 2 ? d->layout.cylinders - 1 : 2;
  uint64_t shortest, settle = ms_to_ns (fabs (d->write_settle.v));

  set_param (o, p, d->head_switch.at, "Head switch time", "head-switch",
             ms_to_ns (d->head_switch.v), true);
  p->position_rule = POSITION_DISKSIM;
  if (d->write_settle.v >= 0) {
    set_param (o, p, d->write_settle.at, "Add. write settling delay",
               "write-settle", settle, true);
    return;
  }
  set_param (o, p, d->write_settle.at, "Add. write settling delay",
             "write-settle-neg", settle, true);
  if (!p->seek_npoints)
    return;                     /* the seek was refused already */
  shortest = shortest_seek (p, maxd);
  if (heads && p->head_switch < shortest)
    shortest = p->head_switch;
  if (settle > shortest)
    block (o, d->write_settle.at, "Add. write settling delay = %g ms: "
           "more negative than the shortest positioning (%.6f ms); "
           "DiskSim's time would be negative", d->write_settle.v,
           (double) shortest / 1e6);
}

static void
map_mech (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  if (d->access_type.v != 0)
    block (o, d->access_type.at, "Access time type = %s: hddsim models "
           "seeks and rotation (trackSwitchPlusRotation)",
           d->access_type.v == 1 ? "averageRotation" : "constant");
  if (d->rpm_error.v != 0)
    block (o, d->rpm_error.at, "Percent error in rpms = %g: a randomly "
           "drawn speed is not modelled", d->rpm_error.v);
  set_param (o, p, d->rpm.at, "Rotation speed (in rpms)", "rpm",
             (uint64_t) d->rpm.v, false);
  map_seek (o, d, p);
  map_settle (o, d, p, d->layout.surfaces > 1);
}

/* ---- layout ---- */

/* What hddsim cannot hold of one zone: its zone-table= takes whole
 * sectors.
 */
static void
zone_blockers (struct out *o, const struct ds_zone *z, unsigned i)
{
  if (z->offset != floor (z->offset))
    block (o, z->offset_at, "Offset of first block = %g (zone %u): "
           "hddsim's zone-table= takes whole sectors", z->offset, i);
  if (z->track_skew != floor (z->track_skew))
    block (o, z->tskew_at, "Skew for track switch = %g sectors (zone %u): "
           "hddsim skews by whole sectors", z->track_skew, i);
  if (z->cyl_skew != floor (z->cyl_skew))
    block (o, z->cskew_at, "Skew for cylinder switch = %g sectors (zone "
           "%u): hddsim skews by whole sectors", z->cyl_skew, i);
}

/* The zone, its slips and its defects as zone-table=, slips=, defects=
 * entries (DiskSim's units: zone-relative physical sectors, or tracks
 * with sparing scheme 1, as hddsim's).
 */
static void
zone_to_params (struct out *o, const struct ds_zone *z, unsigned i,
                struct hdd_params *p)
{
  size_t k;

  p->zt[i] = (struct zone_spec) {
    .first_cyl = z->first_cyl, .last_cyl = z->last_cyl, .spt = z->spt,
    .offset = (uint64_t) z->offset, .empty = z->deadspace,
    .track_skew = (uint64_t) z->track_skew,
    .cyl_skew = (uint64_t) z->cyl_skew, .spares = z->spares,
  };
  if (p->nslips + z->nslips > SLIPS_MAX)
    block (o, z->slips_at, "slips: the zones list more than the %d slips "
           "hddsim's slips= holds", SLIPS_MAX);
  else
    for (k = 0; k < z->nslips; k++)
      p->slips[p->nslips++] = (struct slip_spec) { i, z->slips[k] };
  if (p->ndefects + z->ndefects > DEFECTS_MAX)
    block (o, z->defects_at, "defects: the zones list more than the %d "
           "defects hddsim's defects= holds", DEFECTS_MAX);
  else
    for (k = 0; k < z->ndefects; k++)
      p->defects[p->ndefects++] = (struct defect_spec) {
        i, z->defect[k], z->remap[k]
      };
}

/* One LBN where the model and ds_layout_ltop must agree. */
static bool
same_place (struct out *o, const struct ds_layout *l,
            const struct hdd_probe *g, uint64_t lbn)
{
  struct ds_pbn d;
  struct hdd_probe_loc m;

  if (lbn >= l->blocks || ds_layout_ltop (l, lbn, &d) == -1)
    return true;
  hdd_probe_locate (g, lbn, &m);
  if (m.cyl == d.cyl && m.head == d.head && m.sector == d.sector
      && m.slot == d.slot)
    return true;
  block (o, l->at, "LBN %" PRIu64 ": DiskSim's layout puts it at cylinder "
         "%" PRIu64 ", head %" PRIu64 ", sector %" PRIu64 " (slot %" PRIu64
         "), hddsim's zone-table= at %" PRIu64 ", %" PRIu64 ", %" PRIu64
         " (slot %" PRIu64 ")", lbn, d.cyl, d.head, d.sector, d.slot, m.cyl,
         m.head, m.sector, m.slot);
  return false;
}

/* Zone-relative physical sector of a DiskSim position (for finding the
 * LBNs next to a slip).
 */
static uint64_t
ds_phys (const struct ds_layout *l, const struct ds_zone *z,
         const struct ds_pbn *d)
{
  uint64_t cylrel = d->cyl - z->first_cyl, idx = d->head;

  if ((l->mapping == DS_MAP_SERP_ZONE && cylrel % 2)
      || (l->mapping == DS_MAP_SERP_DISK && d->cyl % 2))
    idx = l->surfaces - 1 - d->head;
  return (cylrel * l->surfaces + idx) * z->spt + d->sector;
}

/* The first LBN of zone z past zone-relative physical sector 'phys'. */
static uint64_t
lbn_after (const struct ds_layout *l, const struct ds_zone *z, uint64_t phys)
{
  uint64_t lo = z->first_lbn, hi = z->first_lbn + z->nlbn;
  struct ds_pbn d;

  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    ds_layout_ltop (l, mid, &d);
    if (ds_phys (l, z, &d) <= phys)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Build the model's geometry from p and hold it against DiskSim's
 * mapping: each zone's LBNs, its first and last LBN, 64 between, and
 * the LBNs on either side of every slip and defect.
 */
static void
compare_layout (struct out *o, const struct ds_layout *l,
                const struct hdd_params *p)
{
  struct hdd_probe *g = hdd_probe_new ();
  char err[HDD_ERRLEN];
  unsigned i;

  if (!g) {
    block (o, l->at, "out of memory");
    return;
  }
  if (hdd_probe_layout (g, p, err, sizeof err) == -1) {
    block (o, l->at, "the zones as hddsim's: %s", err);
    hdd_probe_free (g);
    return;
  }
  for (i = 0; i < l->nzones && l->zones[i].first_lbn < l->blocks; i++) {
    const struct ds_zone *z = &l->zones[i];
    uint64_t first = hdd_probe_zone_lba (g, i), k, x;
    bool ok = true;
    if (first != z->first_lbn) {
      block (o, z->at, "zone %u: hddsim's zone-table= starts it at LBN %"
             PRIu64 ", DiskSim at %" PRIu64, i, first, z->first_lbn);
      break;
    }
    for (k = 0; k <= 64 && ok; k++)
      ok = same_place (o, l, g, z->first_lbn + (z->nlbn - 1) * k / 64);
    for (k = 0; k < z->nslips + z->ndefects && ok; k++) {
      uint64_t at = k < z->nslips ? z->slips[k] : z->defect[k - z->nslips];
      if (l->sparing == DS_SPARE_TRACKS_PER_ZONE)
        at = at * z->spt + z->spt - 1;
      x = lbn_after (l, z, at);
      ok = same_place (o, l, g, x) && (x == 0 || same_place (o, l, g, x - 1));
    }
    if (!ok)
      break;
  }
  hdd_probe_free (g);
}

static void
map_layout (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  const struct ds_layout *l = &d->layout;
  uint64_t outer = 0, inner = UINT64_MAX;
  unsigned i;

  p->layout = l->mapping == DS_MAP_SERP_ZONE ? LAYOUT_ALT_ZONE
    : l->mapping == DS_MAP_SERP_DISK ? LAYOUT_ALT_DISK : LAYOUT_CYLINDER;
  set_param (o, p, l->at, "Number of data surfaces", "surfaces",
             l->surfaces, false);
  set_param (o, p, l->at, "Block count", "capacity", l->blocks * SECTOR,
             false);
  if (l->nzones > ZONES_MAX) {
    block (o, l->zones[0].at, "Zones: %u zones; hddsim holds at most %d",
           l->nzones, ZONES_MAX);
    return;
  }
  p->sparing = l->sparing;  /* DiskSim's scheme numbers are sparing='s */
  p->sparing_range = l->rangesize ? l->rangesize : 1;
  p->nzt = l->nzones;
  p->nslips = p->ndefects = 0;
  for (i = 0; i < l->nzones; i++) {
    zone_blockers (o, &l->zones[i], i);
    zone_to_params (o, &l->zones[i], i, p);
    if (l->zones[i].spt > outer)
      outer = l->zones[i].spt;
    if (l->zones[i].spt < inner)
      inner = l->zones[i].spt;
  }
  /* Only shown (the zone table replaces them); kept consistent. */
  p->zones = l->nzones;
  p->spt_outer = outer;
  p->spt_inner = inner;
  if (p->rpm)
    compare_layout (o, l, p);
}

/* ---- cache, interface, overheads ---- */

static void
need (struct out *o, const struct ds_key *k, const char *key, double want,
      const char *why)
{
  if (k->set && k->v != want)
    block (o, k->at, "%s = %g: %s", key, k->v, why);
}

/* The per-command overheads: DiskSim's per-request overhead (at every
 * request's arrival) is hddsim's overhead=; each hit/miss x after
 * read/write class and each completion overhead its own key, added to
 * it.  'Time scale for overheads' multiplies them all.
 */
static void
map_overheads (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  const struct { const struct ds_key *k; const char *name, *key; } cls[] = {
    { &d->rhit_r, "Read hit over. after read", "overhead-read-hit" },
    { &d->rhit_w, "Read hit over. after write",
      "overhead-read-hit-after-write" },
    { &d->rmiss_r, "Read miss over. after read", "overhead-read-miss" },
    { &d->rmiss_w, "Read miss over. after write",
      "overhead-read-miss-after-write" },
    { &d->whit_r, "Write hit over. after read", "overhead-write-hit" },
    { &d->whit_w, "Write hit over. after write",
      "overhead-write-hit-after-write" },
    { &d->wmiss_r, "Write miss over. after read", "overhead-write-miss" },
    { &d->wmiss_w, "Write miss over. after write",
      "overhead-write-miss-after-write" },
    { &d->rcompl, "Read completion overhead", "read-complete" },
    { &d->wcompl, "Write completion overhead", "write-complete" },
  };
  double scale = d->overhead_scale.v;
  size_t i;

  set_param (o, p, d->per_request.at, "Per-request overhead time",
             "overhead", ms_to_ns (scale * d->per_request.v), true);
  for (i = 0; i < sizeof cls / sizeof cls[0]; i++)
    set_param (o, p, cls[i].k->at, cls[i].name, cls[i].key,
               ms_to_ns (scale * cls[i].k->v), true);
  need (o, &d->prep, "Data preparation overhead", 0, "not modelled");
  need (o, &d->resel1, "First reselect overhead", 0, "bus reselection is "
        "not modelled");
  need (o, &d->resel, "Other reselect overhead", 0, "bus reselection is "
        "not modelled");
  need (o, &d->rdisc_r, "Read disconnect afterread", 0, "bus disconnection "
        "is not modelled");
  need (o, &d->rdisc_w, "Read disconnect afterwrite", 0, "bus "
        "disconnection is not modelled");
  need (o, &d->wdisc, "Write disconnect overhead", 0, "bus disconnection "
        "is not modelled");
  need (o, &d->extra_disc, "Extra write disconnect", 0, "not modelled");
  need (o, &d->min_seek_delay, "Minimum seek delay", 0, "not modelled");
}

/* Bulk transfer: the slowest of disk, bus and controller per block.
 * Slower than the media, it bounds a read: hddsim's sectors cross the
 * interface one by one as they are read (mech_walk_bus), as DiskSim's
 * buffer hands them to the bus.
 */
static void
map_interface (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  const struct ds_key *k = &d->bulk;
  double ms = d->bulk.v;
  uint64_t rate;

  if (d->bus_xfer.set && d->bus_xfer.v > ms)
    k = &d->bus_xfer, ms = d->bus_xfer.v;
  if (d->ctlr_xfer.set && d->ctlr_xfer.v > ms)
    k = &d->ctlr_xfer, ms = d->ctlr_xfer.v;
  rate = ms > 0 ? (uint64_t) llround (SECTOR * 1000.0 / ms)
                : UINT64_C(1) << 40;
  set_param (o, p, k->at, "Bulk sector transfer time", "iface-rate", rate,
             false);
}

static void
set_word (struct out *o, struct hdd_params *p, struct dsp_where at,
          const char *dskey, const char *key, const char *v)
{
  char err[HDD_ERRLEN];

  if (hdd_params_set (p, key, v, err, sizeof err) != 0)
    block (o, at, "%s: as hddsim's %s", dskey, err);
}

/* Read-ahead over requested: DiskSim consults it only for a read-ahead
 * of modes 1-3 sized by the segment (Maximum read-ahead = 0): 0 keeps
 * the request in the segment, the read-ahead ending a segment past the
 * request's first block; 1 lets it run a segment past the request's
 * end.  Elsewhere (mode 4, a Maximum read-ahead) it changes nothing.
 * -1 drops the request's blocks from the segment once sent.
 */
static void
map_keep_request (struct out *o, const struct ds_drive *d,
                  struct hdd_params *p, bool consulted)
{
  if (d->ra_over.v < 0) {
    block (o, d->ra_over.at, "Read-ahead over requested = %g: dropping the "
           "request's data from its segment is not modelled", d->ra_over.v);
    return;
  }
  set_word (o, p, d->ra_over.at, "Read-ahead over requested",
            "readahead-keep-request",
            consulted && d->ra_over.v == 0 ? "1" : "0");
}

static void
map_readahead (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  /* Buffer continuous read: 1, 2 stop at the end of the request's
     track, cylinder (DiskSim stops a background read at a head switch,
     a seek); 3 reads Maximum read-ahead past the request; 4 (DiskSim's
     "DEC prefetch scheme") to the end of the track of the block after
     the request, one track more if the segment began on an earlier
     track, not limited by Maximum read-ahead (the segment limits it). */
  static const char *const until[] = {
    NULL, "track", "cylinder", "size", "next-track",
  };
  unsigned mode = (unsigned) d->cont_read.v;

  if (mode == 0)
    p->readahead = 0;
  else if (mode < sizeof until / sizeof until[0]
           && d->cont_read.v == (double) mode) {
    /* Modes 1-3: Maximum read-ahead, or 0 for a segment's worth. */
    bool by_seg = mode == 4 || d->ra_max.v == 0;
    p->readahead = (uint64_t) (by_seg ? d->seg_size.v : d->ra_max.v) * SECTOR;
    set_word (o, p, d->cont_read.at, "Buffer continuous read",
              "readahead-until", until[mode]);
    map_keep_request (o, d, p, mode != 4 && by_seg);
  }
  else
    block (o, d->cont_read.at, "Buffer continuous read = %g: not one of "
           "DiskSim's 0 to 4", d->cont_read.v);
  need (o, &d->ra_min, "Minimum read-ahead (blks)", 0, "hddsim stops "
        "read-ahead at once when the arm is needed");
  set_word (o, p, d->ra_idle_hit.at, "Read-ahead on idle hit",
            "readahead-on-hit", d->ra_idle_hit.v != 0 ? "1" : "0");
  set_word (o, p, d->read_any_free.at, "Read any free blocks",
            "read-any-free", d->read_any_free.v != 0 ? "1" : "0");
  /* 1: a prefetch may be aborted in the middle of a sector; 0: only
     at sector boundaries (the manual). */
  set_word (o, p, d->stop_pf_sector.at, "Stop prefetch in sector",
            "readahead-stop", d->stop_pf_sector.v != 0 ? "now" : "sector");
  /* DiskSim's read-ahead serves a read whose first block it has read
     (waiting for the rest), and with almost read hits one whose first
     block it is reading now. */
  set_word (o, p, d->almost_hits.at, "Allow almost read hits",
            "readahead-hits", d->almost_hits.v != 0 ? "almost" : "read");
}

/* A write's data stays in a segment: one of its own (Use separate
 * write segment = 1: DiskSim's dedicated write segment, one of the
 * Number of buffer segments) or a read segment (0).  Reads may hit it
 * with Allow read hits on write data = 1.
 */
static void
map_write_segments (struct out *o, const struct ds_drive *d,
                    struct hdd_params *p)
{
  bool separate = d->sep_write_seg.v == 1 && d->segments.v > 1;
  uint64_t nread = (uint64_t) d->segments.v - separate;

  set_word (o, p, d->sep_write_seg.at, "Use separate write segment",
            "cache-write-segment", separate ? "separate" : "shared");
  set_word (o, p, d->hits_on_write.at, "Allow read hits on write data",
            "cache-write-hits", d->hits_on_write.v != 0 ? "1" : "0");
  set_param (o, p, d->segments.at, "Number of buffer segments",
             "cache-segments", nread, false);
  /* cache-size is the read segments' (the write segment is one more). */
  set_param (o, p, d->seg_size.at, "Segment size (in blks)", "cache-size",
             nread * (uint64_t) d->seg_size.v * SECTOR, false);
}

/* Fast write level 1 and 2: a write completes once its data is in
 * the buffer and the media write goes on (model: fast-write=).  The
 * number of write segments does not bound it: without write
 * prebuffering (refused) a write waits for the media write before it
 * takes a segment, so one segment is dirty at a time.  Appending to
 * the media write under way needs Combine seq writes.
 */
static void
map_fast_write (struct out *o, const struct ds_drive *d,
                struct hdd_params *p)
{
  if (d->fast_write.v == 0)
    return;
  need (o, &d->combine, "Combine seq writes", 1, "with fast writes "
        "hddsim always lets a write append to the media write under way");
  set_param (o, p, d->fast_write.at, "Fast write level", "fast-write",
             (uint64_t) d->fast_write.v, false);
}

static void
map_cache (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  /* 2 is allowed by DiskSim and not defined by the manual; DiskSim's
     cache code takes any non-zero value for "on". */
  if (d->caching.v == 0) {
    p->cache = CACHE_OFF;
    p->readahead = 0;
    need (o, &d->cont_read, "Buffer continuous read", 0, "read-ahead "
          "without caching is not modelled");
    need (o, &d->fast_write, "Fast write level", 0, "write-back without "
          "caching is not modelled");
    p->cache_segments = 1;
    p->cache_size = SECTOR;
    return;
  }
  p->cache = CACHE_WT;
  map_fast_write (o, d, p);
  /* A read whose first blocks a segment holds reads only the rest.
     Immed transfer partial hit = 0 makes DiskSim wait for the read
     water mark before transferring, which is at most one block with
     High (read) water mark = 0 (map_controller requires it): the
     cached blocks are there, so both values behave the same. */
  set_word (o, p, d->imm_partial.at, "Immed transfer partial hit",
            "cache-partial-hits", "1");
  map_write_segments (o, d, p);
  map_readahead (o, d, p);
}

static void
map_controller (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  /* Immediate buffer read/write never change DiskSim 4.0's timing with
     dm_layout_g1: mech_g1's access_block takes the layout's
     angle-to-sector result as a failure (its success code, DM_OK, is
     negative) and keeps the requested first sector, so every access
     waits for it as without the key.  They import as hddsim's
     zero-latency access off (docs/model.md "Zero-latency access"). */
  set_word (o, p, d->imm_read.at, "Immediate buffer read",
            "zero-latency-read", "0");
  set_word (o, p, d->imm_write.at, "Immediate buffer write",
            "zero-latency-write", "0");
  /* DiskSim writes a sector only once its data is in the buffer
     (write-waits-for-bus=, docs/model.md). */
  p->write_bus = 1;
  /* DiskSim's platter is at angle 0 at time 0, whatever its seeds. */
  p->phase_zero = 1;
  need (o, &d->preseek, "Preseeking level", 0, "hddsim does not seek "
        "before the completion");
  need (o, &d->low_wm, "Low (write) water mark", 0, "bus disconnection is "
        "not modelled");
  need (o, &d->high_wm, "High (read) water mark", 0, "bus disconnection is "
        "not modelled");
  if (d->max_queue.v > 1) {
    need (o, &d->sneaky_full, "Allow sneaky full read hits", 0, "hits "
          "served during another request are not modelled");
    need (o, &d->sneaky_partial, "Allow sneaky partial read hits", 0,
          "hits served during another request are not modelled");
    need (o, &d->sneaky_inter, "Allow sneaky intermediate read hits", 0,
          "hits served during another request are not modelled");
    need (o, &d->prebuffer, "Allow write prebuffering", 0, "not modelled");
  }
}

static void
map_all (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  map_system (o, d);
  map_mech (o, d, p);
  map_layout (o, d, p);
  map_interface (o, d, p);
  map_cache (o, d, p);
  map_overheads (o, d, p);
  map_controller (o, d, p);
}

int
ds_drive_to_params (const struct ds_drive *d, struct hdd_params *p,
                    void (*each) (const char *, void *), void *opaque,
                    char *err, size_t errlen)
{
  struct out o = { .each = each, .opaque = opaque };

  params_defaults (p);
  snprintf (p->profile, sizeof p->profile, "%s", d->name);
  snprintf (p->description, sizeof p->description, "DiskSim %.100s, %"
            PRIu64 " blocks (%.100s)", d->name, d->layout.blocks,
            d->tree->path);
  map_all (&o, d, p);
  if (o.n) {
    if (o.n == 1)
      snprintf (err, errlen, "%s", o.first);
    else
      snprintf (err, errlen, "%s (and %u more)", o.first, o.n - 1);
    return -1;
  }
  return hdd_params_validate (p, err, errlen);
}

static void
print_reason (const char *why, void *fp)
{
  fprintf (fp, "%s\n", why);
}

int
disksim_check_file (const char *path, FILE *fp)
{
  char err[HDD_ERRLEN];
  struct ds_drive *d = ds_drive_load (path, err, sizeof err);
  struct hdd_params p;
  struct out o = { .each = print_reason, .opaque = fp };

  if (!d) {
    fprintf (fp, "%s\n", err);
    return -1;
  }
  params_defaults (&p);
  map_all (&o, d, &p);
  ds_drive_free (d);
  return (int) o.n;
}
