/* hddsim: a DiskSim drive (struct ds_drive) as hddsim parameters.
 *
 * Each DiskSim value either has an exact counterpart in struct
 * hdd_params, or is a value at which DiskSim behaves as hddsim's model
 * does, or it is refused ("blocked") with the file, the line, the key
 * and what the model lacks.  All reasons are collected, so one run
 * lists everything a drive needs.  Values are checked against the
 * model's own parameter table (hdd_params_set) and the geometry the
 * model would build (geom_init), so the import cannot drift from what
 * the model does.
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
 *   Read directly to buffer            the buffer never fills: the
 *                                      interface keeps up with the media
 *                                      (refused otherwise)
 *   Maximum number of write segments, Combine seq writes, Write hit stop
 *   prefetch                           write caching only (refused)
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

#include "disksim_import.h"
#include "hdd_int.h"

typedef unsigned __int128 u128;

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

#define SEEK_TOL_NS 500         /* a table from a formula: within 0.5 us */

static uint64_t
seek_at (const struct ds_seek *s, uint64_t dist)
{
  return ms_to_ns (ds_seek_ms (s, dist));
}

/* Whether the line from (a, f(a)) to (b, f(b)) stays within the
 * tolerance of f at every distance between.
 */
static bool
chord_ok (const struct ds_seek *s, uint64_t a, uint64_t b)
{
  double fa = (double) seek_at (s, a), fb = (double) seek_at (s, b);
  uint64_t x;

  for (x = a + 1; x < b; x++) {
    double line = fa + (fb - fa) * (double) (x - a) / (double) (b - a);
    if (fabs (line - (double) seek_at (s, x)) > SEEK_TOL_NS)
      return false;
  }
  return true;
}

/* Points of a table that is the seek function at its points and
 * within SEEK_TOL_NS between; the count (more than max: too many).
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
      block (o, s->at, "Seek type = %s: a table within %d ns of the "
             "formula needs more than the %d points of hddsim's "
             "seek-table", s->type == DS_SEEK_CONSTANT ? "constant"
             : s->type == DS_SEEK_CURVE ? "curve" : s->type == DS_SEEK_HPL
             ? "hpl" : "hplplus10", SEEK_TOL_NS, SEEK_TABLE_MAX);
      return;
    }
  }
  if (n == 1) {                 /* hddsim wants two points: flat beyond */
    dist[1] = dist[0] + 1;
    ns[1] = ns[0];
    n = 2;
  }
  for (i = 1; i < n; i++)
    if (ns[i] < ns[i - 1]) {
      block (o, s->at, "the seek curve falls from %.3f ms at %" PRIu64
             " cylinders to %.3f ms at %" PRIu64 "; hddsim's seek-table "
             "must not decrease", (double) ns[i - 1] / 1e6, dist[i - 1],
             (double) ns[i] / 1e6, dist[i]);
      return;
    }
  p->seek_npoints = (unsigned) n;
  for (i = 0; i < n; i++) {
    p->seek_dist[i] = dist[i];
    p->seek_time[i] = ns[i];
  }
  p->seek_track = ns[0];
  p->seek_full = seek_at (s, maxd);
}

/* The shortest seek of the table (DiskSim takes the longer of seek and
 * head switch when both happen; hddsim the seek).
 */
static uint64_t
shortest_seek (const struct hdd_params *p, uint64_t *at)
{
  uint64_t best = UINT64_MAX;
  unsigned i;

  for (i = 0; i < p->seek_npoints; i++)
    if (p->seek_time[i] < best) {
      best = p->seek_time[i];
      *at = p->seek_dist[i];
    }
  return best;
}

static void
map_mech (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  bool heads = d->layout.surfaces > 1;
  uint64_t at = 0;

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
  if (heads && p->seek_npoints
      && ms_to_ns (d->head_switch.v) > shortest_seek (p, &at))
    block (o, d->head_switch.at, "Head switch time = %g ms: longer than "
           "the %" PRIu64 "-cylinder seek (%.3f ms); DiskSim then takes "
           "the head switch's time, hddsim the seek's", d->head_switch.v,
           at, (double) shortest_seek (p, &at) / 1e6);
  set_param (o, p, d->head_switch.at, "Head switch time", "head-switch",
             ms_to_ns (d->head_switch.v), true);
  if (d->write_settle.v < 0)
    block (o, d->write_settle.at, "Add. write settling delay = %g ms: "
           "hddsim's write-settle cannot be negative", d->write_settle.v);
  else if (d->write_settle.v > 0 && heads)
    block (o, d->write_settle.at, "Add. write settling delay = %g ms: "
           "DiskSim adds it after a head switch too, hddsim only after a "
           "seek", d->write_settle.v);
  else
    set_param (o, p, d->write_settle.at, "Add. write settling delay",
               "write-settle", ms_to_ns (d->write_settle.v), true);
}

/* ---- layout ---- */

static bool
spares_in_zone (int sparing)
{
  return sparing != DS_SPARE_NONE && sparing != DS_SPARE_END_OF_DISK;
}

/* What hddsim cannot hold of one zone. */
static void
zone_blockers (struct out *o, const struct ds_layout *l,
               const struct ds_zone *z, unsigned i)
{
  if (z->deadspace)
    block (o, z->dead_at, "Empty space at zone front = %" PRIu64 " (zone "
           "%u): hddsim's zones have no management area", z->deadspace, i);
  if (spares_in_zone (l->sparing) && z->spares)
    block (o, z->spares_at, "Number of spares = %" PRIu64 " (zone %u, "
           "sparing scheme %d): hddsim has no spare sectors", z->spares, i,
           l->sparing);
  if (z->nslips)
    block (o, z->slips_at, "slips: %zu slipped %s in zone %u: hddsim has "
           "no slips", z->nslips, l->sparing == DS_SPARE_TRACKS_PER_ZONE
           ? "tracks" : "sectors", i);
  if (z->ndefects)
    block (o, z->defects_at, "defects: %zu remapped in zone %u: hddsim "
           "has no remapping", z->ndefects, i);
  if (z->offset != 0)
    block (o, z->offset_at, "Offset of first block = %g (zone %u): "
           "hddsim's zones start at angle 0", z->offset, i);
  if (z->track_skew != floor (z->track_skew))
    block (o, z->tskew_at, "Skew for track switch = %g sectors (zone %u): "
           "hddsim skews by whole sectors", z->track_skew, i);
  if (z->cyl_skew != floor (z->cyl_skew))
    block (o, z->cskew_at, "Skew for cylinder switch = %g sectors (zone "
           "%u): hddsim skews by whole sectors", z->cyl_skew, i);
}

/* One skew time giving every zone its skew in sectors, as geometry.c
 * converts (sectors = ceil (ns * rpm * spt / 1 min)): the intersection
 * of the zones' intervals, or 0 if empty (*ok false).
 */
static uint64_t
common_skew_ns (const struct ds_layout *l, uint64_t rpm, bool track,
                bool *ok, unsigned *bad)
{
  u128 lo = 0, hi = (u128) UINT64_MAX;
  unsigned i;

  *ok = true;
  for (i = 0; i < l->nzones; i++) {
    const struct ds_zone *z = &l->zones[i];
    u128 s = (u128) (track ? z->track_skew : z->cyl_skew);
    u128 unit = (u128) rpm * z->spt, zlo, zhi;
    /* ns in ((s-1) M / unit, s M / unit] */
    zlo = s == 0 ? 0 : (s - 1) * NS_PER_MIN / unit + 1;
    zhi = s * NS_PER_MIN / unit;
    if (zlo > lo)
      lo = zlo;
    if (zhi < hi)
      hi = zhi;
    if (lo > hi) {
      *ok = false;
      *bad = i;
      return 0;
    }
  }
  return (uint64_t) hi;
}

/* Build the model's geometry from p and compare it zone by zone. */
static void
compare_zones (struct out *o, const struct ds_layout *l,
               const struct hdd_params *p)
{
  struct geom *g = malloc (sizeof *g);
  char err[HDD_ERRLEN];
  unsigned i;

  if (!g) {
    block (o, l->at, "out of memory");
    return;
  }
  if (geom_init (g, p, err, sizeof err) == -1) {
    block (o, l->at, "the zones as hddsim's: %s", err);
    free (g);
    return;
  }
  /* Zones past 'Block count' hold nothing the host can reach; the
     last reachable one may end early in hddsim (it is trimmed to the
     capacity), which changes nothing the host sees. */
  for (i = 0; i < l->nzones && l->zones[i].first_lbn < l->blocks; i++) {
    const struct ds_zone *z = &l->zones[i];
    const struct zone *h = &g->zones[i];
    uint64_t nlbn = z->nlbn, ncyl = z->last_cyl - z->first_cyl + 1;
    bool last = z->first_lbn + z->nlbn >= l->blocks;
    if (last)
      nlbn = l->blocks - z->first_lbn;
    if (i >= g->nzones || h->first_cyl != z->first_cyl || h->spt != z->spt
        || h->first_lba != z->first_lbn || h->nsect != nlbn
        || (last ? h->ncyl > ncyl : h->ncyl != ncyl)) {
      block (o, z->spt_at, "zone %u (cylinders %" PRIu64 "..%" PRIu64
             ", %" PRIu64 " sectors per track, LBNs from %" PRIu64 "): "
             "hddsim's zones=%u sectors-outer=%" PRIu64 " sectors-inner=%"
             PRIu64 " put %s; hddsim needs an explicit zone table", i,
             z->first_cyl, z->last_cyl, z->spt, z->first_lbn, l->nzones,
             p->spt_outer, p->spt_inner, i >= g->nzones ? "no zone there"
             : "other cylinders or sectors per track there");
      break;
    }
    if (h->track_skew != (uint64_t) z->track_skew
        || h->cyl_skew != (uint64_t) z->cyl_skew) {
      block (o, z->tskew_at, "zone %u: skews %g/%g sectors (track/"
             "cylinder), hddsim's would be %" PRIu64 "/%" PRIu64, i,
             z->track_skew, z->cyl_skew, h->track_skew, h->cyl_skew);
      break;
    }
  }
  free (g);
}

static void
map_layout (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  const struct ds_layout *l = &d->layout;
  unsigned i, bad = 0;
  uint64_t ts, cs;
  bool ok;

  if (l->mapping != DS_MAP_NORMAL)
    block (o, l->mapping_at, "LBN-to-PBN mapping scheme = %d: hddsim's "
           "layouts are cylinder (scheme 0) and serpentine across a "
           "zone's surfaces (no DiskSim scheme)", l->mapping);
  p->layout = LAYOUT_CYLINDER;
  set_param (o, p, l->at, "Number of data surfaces", "surfaces",
             l->surfaces, false);
  set_param (o, p, l->at, "Block count", "capacity", l->blocks * SECTOR,
             false);
  if (l->nzones > ZONES_MAX) {
    block (o, l->zones[0].at, "Zones: %u zones; hddsim holds at most %d",
           l->nzones, ZONES_MAX);
    return;
  }
  for (i = 0; i < l->nzones; i++)
    zone_blockers (o, l, &l->zones[i], i);
  p->zones = l->nzones;
  p->spt_outer = l->zones[0].spt;
  p->spt_inner = l->zones[l->nzones - 1].spt;
  ts = common_skew_ns (l, p->rpm, true, &ok, &bad);
  if (!ok)
    block (o, l->zones[bad].tskew_at, "Skew for track switch = %g sectors "
           "(zone %u): hddsim takes one track-skew time for all zones, "
           "and no one time gives every zone its skew", 
           l->zones[bad].track_skew, bad);
  cs = common_skew_ns (l, p->rpm, false, &ok, &bad);
  if (!ok)
    block (o, l->zones[bad].cskew_at, "Skew for cylinder switch = %g "
           "sectors (zone %u): hddsim takes one cylinder-skew time for "
           "all zones, and no one time gives every zone its skew",
           l->zones[bad].cyl_skew, bad);
  /* 0 means "automatic" in hddsim: that resolves from the seek; the
     comparison below sees whether it comes out right. */
  p->track_skew = ts;
  p->cyl_skew = cs;
  if (p->rpm)
    compare_zones (o, l, p);
}

/* ---- cache, interface, overheads ---- */

static void
need (struct out *o, const struct ds_key *k, const char *key, double want,
      const char *why)
{
  if (k->set && k->v != want)
    block (o, k->at, "%s = %g: %s", key, k->v, why);
}

/* The per-command overhead: every class of command the drive can see
 * must cost the same.
 */
static void
map_overheads (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  const struct { const struct ds_key *k; const char *name; bool hit; } cls[] = {
    { &d->rmiss_r, "Read miss over. after read", false },
    { &d->rmiss_w, "Read miss over. after write", false },
    { &d->wmiss_r, "Write miss over. after read", false },
    { &d->wmiss_w, "Write miss over. after write", false },
    { &d->rhit_r, "Read hit over. after read", true },
    { &d->rhit_w, "Read hit over. after write", true },
  };
  bool hits = d->caching.v != 0;
  size_t i;

  for (i = 1; i < sizeof cls / sizeof cls[0]; i++)
    if ((hits || !cls[i].hit) && cls[i].k->v != cls[0].k->v)
      block (o, cls[i].k->at, "%s = %g ms, but %s = %g ms: hddsim has one "
             "per-command overhead", cls[i].name, cls[i].k->v, cls[0].name,
             cls[0].k->v);
  set_param (o, p, d->rmiss_r.at, "Read miss over. after read", "overhead",
             ms_to_ns (d->overhead_scale.v * (d->per_request.v
                                              + d->rmiss_r.v)), true);
  need (o, &d->rcompl, "Read completion overhead", 0, "hddsim has no "
        "overhead after the transfer");
  need (o, &d->wcompl, "Write completion overhead", 0, "hddsim has no "
        "overhead after the transfer");
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

/* Bulk transfer: the slowest of disk, bus and controller per block. */
static void
map_interface (struct out *o, const struct ds_drive *d, struct hdd_params *p)
{
  const struct ds_key *k = &d->bulk;
  double ms = d->bulk.v, media_ms;
  uint64_t maxspt = 0, rate;
  unsigned i;

  if (d->bus_xfer.set && d->bus_xfer.v > ms)
    k = &d->bus_xfer, ms = d->bus_xfer.v;
  if (d->ctlr_xfer.set && d->ctlr_xfer.v > ms)
    k = &d->ctlr_xfer, ms = d->ctlr_xfer.v;
  for (i = 0; i < d->layout.nzones; i++)
    if (d->layout.zones[i].spt > maxspt)
      maxspt = d->layout.zones[i].spt;
  media_ms = d->rpm.v > 0 ? 60000.0 / d->rpm.v / (double) maxspt : 0;
  if (ms > media_ms)
    block (o, k->at, "%g ms per block: slower than the media (%.4f ms per "
           "sector in the outer zone); hddsim's reads assume the interface "
           "keeps up with the media", ms, media_ms);
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
    p->readahead = mode == 4 ? (uint64_t) d->seg_size.v * SECTOR
                             : (uint64_t) d->ra_max.v * SECTOR;
    set_word (o, p, d->cont_read.at, "Buffer continuous read",
              "readahead-until", until[mode]);
    need (o, &d->ra_over, "Read-ahead over requested", 1, "hddsim's "
          "read-ahead may push the requested data out of the segment (1)");
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
  if (d->fast_write.v != 0)
    block (o, d->fast_write.at, "Fast write level = %g: DiskSim caches "
           "only sequential write streams; hddsim's write-back caches any "
           "write (model: fast write levels 1 and 2)", d->fast_write.v);
  p->cache = CACHE_WT;
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
map_controller (struct out *o, const struct ds_drive *d)
{
  need (o, &d->imm_read, "Immediate buffer read", 0, "hddsim has no "
        "zero-latency reads");
  need (o, &d->imm_write, "Immediate buffer write", 0, "hddsim has no "
        "zero-latency writes");
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
  map_controller (o, d);
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

/* The loader's entry point (a profile_file_loader, see profile_load.c):
 * profile=FILE.parv or FILE.diskspecs.  Its messages name the file and
 * line where DiskSim's files give them; the prefix names the parameter.
 */
int
profile_load_disksim (struct hdd_params *out, const char *path, char *err,
                      size_t errlen)
{
  size_t used = (size_t) snprintf (err, errlen, "profile=%s: ", path);
  struct ds_drive *d;
  struct hdd_params p;
  int r;

  if (used >= errlen)
    used = 0;
  d = ds_drive_load (path, err + used, errlen - used);
  if (!d)
    return -1;
  r = ds_drive_to_params (d, &p, NULL, NULL, err + used, errlen - used);
  ds_drive_free (d);
  if (r == 0) {
    *out = p;
    snprintf (out->file, sizeof out->file, "%s", path);
  }
  return r;
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
