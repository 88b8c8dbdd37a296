/* hddsim: the drive's geometry and its LBA layout.
 *
 * Zoned bit recording: the stroke is cut into zones of equal numbers
 * of cylinders, and the sectors per track fall linearly from the
 * outermost zone to the innermost (bit density is constant, so a
 * track holds sectors in proportion to its radius).  The cylinder
 * count follows from the capacity: just enough cylinders to hold it.
 *
 * Layouts (Ruemmler & Wilkes 1994, section "Data layout"):
 *  cylinder    every surface of a cylinder in turn, then the next
 *              cylinder (the classic layout of drives of the 2000s);
 *  serpentine  within a zone, surface 0 inwards, surface 1 outwards,
 *              and so on (modern drives).
 * Each track is rotated by the skew accumulated from the start of its
 * zone, so that after a head switch (track skew) or a one-cylinder
 * seek (cylinder skew) the next logical sector is just arriving.
 *
 * An explicit zone table (zone-table=, with sparing=, slips= and
 * defects=) replaces the generated zones with a drive's own, as
 * DiskSim's dm_layout_g1 describes it (Diskmodel manual, 1.4.2): per
 * zone its cylinders (gaps between zones allowed), sectors per track,
 * the angle of its first sector, empty positions at its front and its
 * skews in sectors; spare sectors per sparing unit; slipped sectors
 * (skipped, the rest of the unit, or of the zone, moving up by one)
 * and defects (remapped to a replacement sector).  Lookups are binary
 * searches over the zone's sorted slips and defects.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry.h"
#include "params.h"
#include "rotation.h"

typedef unsigned __int128 u128;

uint64_t
geom_track_skew_ns (const struct hdd_params *p)
{
  return p->track_skew ? p->track_skew : p->head_switch;
}

uint64_t
geom_cyl_skew_ns (const struct hdd_params *p)
{
  uint64_t one;

  if (p->cyl_skew)
    return p->cyl_skew;
  one = p->seek_track;
  if (p->seek_npoints > 0 && p->seek_dist[0] == 1)
    one = p->seek_time[0];
  return one + p->write_settle;
}

/* Sectors of a zone's track passing in ns, rounded up, below a track. */
static uint64_t
skew_sectors (uint64_t ns, uint64_t rpm, uint64_t spt)
{
  u128 units = (u128) ns * rpm * spt;
  uint64_t s = (uint64_t) ((units + NS_PER_MIN - 1) / NS_PER_MIN);

  return s < spt ? s : spt - 1;
}

static int geom_init_table (struct geom *, const struct hdd_params *,
                            char *err, size_t errlen);

int
geom_init (struct geom *g, const struct hdd_params *p, char *err,
           size_t errlen)
{
  uint64_t nz = p->zones, h = p->surfaces, sum_spt = 0, per_zone;
  uint64_t lba = 0, cyl = 0, z;

  g->rpm = p->rpm;
  g->surfaces = h;
  g->sectors = p->capacity / SECTOR;
  g->layout = p->layout;
  g->explicit = false;
  if (p->nzt > 0)
    return geom_init_table (g, p, err, errlen);
  if (p->layout == LAYOUT_ALT_ZONE || p->layout == LAYOUT_ALT_DISK) {
    snprintf (err, errlen, "layout=%s: needs a zone-table= (DiskSim's "
              "mapping schemes 1 and 2)", p->layout == LAYOUT_ALT_ZONE
              ? "alternate" : "alternate-disk");
    return -1;
  }
  if (p->nslips || p->ndefects) {
    snprintf (err, errlen, "%s: needs a zone-table= (slips and defects "
              "are numbered within its zones)",
              p->nslips ? "slips=" : "defects=");
    return -1;
  }
  if (nz > ZONES_MAX || nz == 0) {
    snprintf (err, errlen, "zones=%lu: must be 1 to %d",
              (unsigned long) nz, ZONES_MAX);
    return -1;
  }
  for (z = 0; z < nz; z++) {
    struct zone *zn = &g->zones[z];
    zn->spt = nz == 1 ? p->spt_outer
      : p->spt_outer - ((p->spt_outer - p->spt_inner) * z + (nz - 1) / 2)
                       / (nz - 1);
    sum_spt += zn->spt;
  }
  /* Equal cylinders per zone, enough for the capacity. */
  per_zone = (g->sectors + h * sum_spt - 1) / (h * sum_spt);
  if (per_zone == 0)
    per_zone = 1;
  g->nzones = 0;
  for (z = 0; z < nz && lba < g->sectors; z++) {
    struct zone *zn = &g->zones[z];
    uint64_t left = g->sectors - lba, per_cyl = h * zn->spt;

    zn->first_lba = lba;
    zn->first_cyl = cyl;
    zn->ncyl = per_zone;
    if (zn->ncyl * per_cyl > left)    /* the innermost zone: trim */
      zn->ncyl = (left + per_cyl - 1) / per_cyl;
    zn->nsect = zn->ncyl * per_cyl < left ? zn->ncyl * per_cyl : left;
    zn->track_skew = skew_sectors (geom_track_skew_ns (p), p->rpm, zn->spt);
    zn->cyl_skew = skew_sectors (geom_cyl_skew_ns (p), p->rpm, zn->spt);
    lba += zn->nsect;
    cyl += zn->ncyl;
    g->nzones++;
  }
  g->ncyl = cyl;
  return 0;
}

static unsigned
zone_of_lba (const struct geom *g, uint64_t lba)
{
  unsigned lo = 0, hi = g->nzones - 1;

  while (lo < hi) {
    unsigned mid = (lo + hi + 1) / 2;
    if (g->zones[mid].first_lba <= lba)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

unsigned
geom_zone_of_cyl (const struct geom *g, uint64_t cyl)
{
  unsigned z;

  for (z = 0; z + 1 < g->nzones; z++)
    if (cyl < g->zones[z + 1].first_cyl)
      break;
  return z;
}

static void locate_explicit (const struct geom *, uint64_t lba,
                             struct loc *);
static uint64_t track_lba_explicit (const struct geom *, uint64_t cyl,
                                    uint64_t head);

void
geom_locate (const struct geom *g, uint64_t lba, struct loc *l)
{
  const struct zone *zn;
  uint64_t rel, tr, crel, head, off, h = g->surfaces;

  if (lba >= g->sectors)
    lba = g->sectors - 1;
  if (g->explicit) {
    locate_explicit (g, lba, l);
    return;
  }
  l->zone = zone_of_lba (g, lba);
  zn = &g->zones[l->zone];
  rel = lba - zn->first_lba;
  tr = rel / zn->spt;
  l->sector = rel % zn->spt;
  l->spt = zn->spt;
  if (g->layout == LAYOUT_SERPENTINE) {
    uint64_t i = tr % zn->ncyl;
    head = tr / zn->ncyl;
    crel = head % 2 == 0 ? i : zn->ncyl - 1 - i;
    off = head * ((zn->ncyl - 1) * zn->cyl_skew + zn->track_skew)
          + i * zn->cyl_skew;
  }
  else {
    crel = tr / h;
    head = tr % h;
    off = crel * ((h - 1) * zn->track_skew + zn->cyl_skew)
          + head * zn->track_skew;
  }
  l->cyl = zn->first_cyl + crel;
  l->head = head;
  l->slot = (l->sector + off % zn->spt) % zn->spt;
  l->run = zn->spt - l->sector;
  l->remapped = false;
}

uint64_t
geom_track_lba (const struct geom *g, uint64_t cyl, uint64_t head)
{
  unsigned z = geom_zone_of_cyl (g, cyl);
  const struct zone *zn = &g->zones[z];
  uint64_t crel = cyl - zn->first_cyl, tr;

  if (g->explicit)
    return track_lba_explicit (g, cyl, head);
  if (g->layout == LAYOUT_SERPENTINE)
    tr = head * zn->ncyl + (head % 2 == 0 ? crel : zn->ncyl - 1 - crel);
  else
    tr = crel * g->surfaces + head;
  return zn->first_lba + tr * zn->spt;
}

/* ---- explicit zone tables ---- */

static uint64_t
min_u64 (uint64_t a, uint64_t b)
{
  return a < b ? a : b;
}

/* Entries of the sorted a[0..n) at most v, and below v. */
static unsigned
count_le (const uint64_t *a, unsigned n, uint64_t v)
{
  unsigned lo = 0, hi = n;

  while (lo < hi) {
    unsigned mid = lo + (hi - lo) / 2;
    if (a[mid] <= v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static unsigned
count_lt (const uint64_t *a, unsigned n, uint64_t v)
{
  return v == 0 ? 0 : count_le (a, n, v - 1);
}

static bool
slips_to_end (int sparing)
{
  return sparing == SPARE_CYL_SLIP || sparing == SPARE_CYL_FRONT_SLIP
    || sparing == SPARE_DISK_END || sparing == SPARE_ZONE_SLIP;
}

/* Schemes in which DiskSim turns a track by one sector for every slip
 * before it in the zone (layout_g1.c, g1_map_pbn_skew: slips before
 * the cylinder in the per-cylinder schemes, before the track in the
 * per-track one).
 */
static bool
slips_turn_tracks (int sparing)
{
  return sparing == SPARE_CYL || sparing == SPARE_CYL_SLIP
    || sparing == SPARE_CYL_FRONT || sparing == SPARE_CYL_FRONT_SLIP
    || sparing == SPARE_TRACK;
}

/* The zone's sparing units.  A short last range of sparing=range has
 * no spares (DiskSim counts spares x (cylinders / rangesize)).
 */
static void
zone_units (struct zone *zn, int sparing, uint64_t h, uint64_t range,
            uint64_t spares)
{
  uint64_t spc = zn->spt * h, cyls = zn->ncyl;

  zn->unit_n = 1;
  zn->unit_len = cyls * spc;
  zn->unit_spares = spares;
  zn->last_len = 0;
  switch (sparing) {
  case SPARE_NONE:
  case SPARE_DISK_END:
  case SPARE_TRACKS:            /* whole tracks, see zone_phys */
    zn->unit_spares = 0;
    break;
  case SPARE_TRACK:
    zn->unit_n = cyls * h;
    zn->unit_len = zn->spt;
    break;
  case SPARE_CYL:
  case SPARE_CYL_SLIP:
  case SPARE_CYL_FRONT:
  case SPARE_CYL_FRONT_SLIP:
    zn->unit_n = cyls;
    zn->unit_len = spc;
    break;
  case SPARE_RANGE:
    zn->unit_n = (cyls + range - 1) / range;
    zn->unit_len = range * spc;
    if (cyls % range) {
      zn->last_len = cyls % range * spc;
      zn->last_spares = 0;
    }
    break;
  default:                      /* SPARE_ZONE, SPARE_ZONE_SLIP */
    break;
  }
  if (zn->last_len == 0) {
    zn->last_len = zn->unit_len;
    zn->last_spares = zn->unit_spares;
  }
  zn->front = sparing == SPARE_CYL_FRONT || sparing == SPARE_CYL_FRONT_SLIP
    ? zn->unit_spares : 0;
}

/* LBA positions in unit k, and the first position of unit k. */
static uint64_t
unit_positions (const struct zone *zn, uint64_t k)
{
  return k + 1 == zn->unit_n ? zn->last_len - zn->last_spares
    : zn->unit_len - zn->unit_spares;
}

static uint64_t
unit_first_position (const struct zone *zn, uint64_t k)
{
  return k * (zn->unit_len - zn->unit_spares);
}

static uint64_t
unit_of_position (const struct zone *zn, uint64_t q)
{
  uint64_t per = zn->unit_len - zn->unit_spares, k = per ? q / per : 0;

  return k < zn->unit_n ? k : zn->unit_n - 1;
}

/* Position of a zone-relative physical sector, or UINT64_MAX for a
 * spare sector.
 */
static uint64_t
position_of (const struct zone *zn, uint64_t phys)
{
  uint64_t k = phys / zn->unit_len, r = phys % zn->unit_len;

  if (k >= zn->unit_n || r < zn->front
      || r - zn->front >= unit_positions (zn, k))
    return UINT64_MAX;
  return unit_first_position (zn, k) + r - zn->front;
}

/* Zone position q (empty space included) -> zone-relative physical
 * sector (before defects), and in *run the positions from q on that
 * follow it on consecutive physical sectors.
 */
static uint64_t
zone_phys (const struct geom *g, const struct zone *zn, uint64_t q,
           uint64_t *run)
{
  const uint64_t *at = g->slip_at + zn->slip0, *key = g->slip_key + zn->slip0;
  unsigned n = zn->nslips, j, lo, hi;
  uint64_t k, start, off, phys, left;

  if (g->sparing == SPARE_TRACKS) {
    uint64_t tr = q / zn->spt;
    *run = zn->spt - q % zn->spt;
    return (tr + count_le (key, n, tr)) * zn->spt + q % zn->spt;
  }
  if (slips_to_end (g->sparing)) {
    uint64_t p;
    j = count_le (key, n, q);
    p = q + j;
    k = unit_of_position (zn, p);
    left = unit_first_position (zn, k) + unit_positions (zn, k) - p;
    if (j < n)                  /* the next slip's position */
      left = min_u64 (left, key[j] + j - p);
    *run = left;
    return k * zn->unit_len + zn->front + (p - unit_first_position (zn, k));
  }
  k = unit_of_position (zn, q);
  start = k * zn->unit_len + zn->front;
  off = q - unit_first_position (zn, k);
  lo = count_lt (at, n, k * zn->unit_len);
  hi = count_lt (at, n, (k + 1) * zn->unit_len);
  j = count_le (key + lo, hi - lo, off);
  phys = start + off + j;
  left = unit_positions (zn, k) - off;
  if (lo + j < hi)
    left = min_u64 (left, at[lo + j] - phys);
  *run = left;
  return phys;
}

static unsigned
head_of (const struct geom *g, uint64_t cyl, uint64_t cylrel, uint64_t idx)
{
  if ((g->layout == LAYOUT_ALT_ZONE && cylrel % 2)
      || (g->layout == LAYOUT_ALT_DISK && cyl % 2))
    return (unsigned) (g->surfaces - 1 - idx);
  return (unsigned) idx;
}

static void
locate_explicit (const struct geom *g, uint64_t lba, struct loc *l)
{
  const struct zone *zn;
  const uint64_t *def;
  uint64_t h = g->surfaces, grain, phys, run, tr, cylrel, idx, angle;
  uint64_t turns = 0;
  unsigned i;

  l->zone = zone_of_lba (g, lba);
  zn = &g->zones[l->zone];
  phys = zone_phys (g, zn, lba - zn->first_lba + zn->empty, &run);
  run = min_u64 (run, zn->first_lba + zn->nsect - lba);
  /* Defects: sectors, or tracks with sparing=tracks. */
  grain = g->sparing == SPARE_TRACKS ? zn->spt : 1;
  def = g->def_at + zn->def0;
  i = count_lt (def, zn->ndefects, phys / grain);
  l->remapped = false;
  if (i < zn->ndefects && def[i] == phys / grain) {
    phys = g->def_to[zn->def0 + i] * grain + phys % grain;
    run = grain == 1 ? 1 : run;
    l->remapped = true;
  }
  else if (i < zn->ndefects)
    run = min_u64 (run, def[i] * grain - phys);
  tr = phys / zn->spt;
  l->sector = phys % zn->spt;
  l->spt = zn->spt;
  l->run = min_u64 (run, zn->spt - l->sector);
  cylrel = tr / h;
  idx = tr % h;
  l->cyl = zn->first_cyl + cylrel;
  l->head = head_of (g, l->cyl, cylrel, idx);
  if (slips_turn_tracks (g->sparing)) {
    uint64_t cut = cylrel * h + (g->sparing == SPARE_TRACK ? l->head : 0);
    turns = count_lt (g->slip_at + zn->slip0, zn->nslips, cut * zn->spt);
  }
  angle = zn->offset + zn->track_skew * (idx + (h - 1) * cylrel)
          + zn->cyl_skew * cylrel + turns + l->sector;
  l->slot = angle % zn->spt;
}

void
geom_angle_parts (const struct geom *g, uint64_t cyl, uint64_t head,
                  struct angle_parts *a)
{
  const struct zone *zn = &g->zones[geom_zone_of_cyl (g, cyl)];
  uint64_t h = g->surfaces, cylrel = cyl - zn->first_cyl;
  uint64_t idx = head_of (g, cyl, cylrel, head);   /* its own inverse */

  a->spt = zn->spt;
  a->offset = zn->offset;
  a->track_skew = zn->track_skew;
  a->cyl_skew = zn->cyl_skew;
  a->switches = idx + (h - 1) * cylrel;
  a->cyls = cylrel;
  a->turns = 0;
  if (slips_turn_tracks (g->sparing)) {
    uint64_t cut = cylrel * h + (g->sparing == SPARE_TRACK ? head : 0);
    a->turns = count_lt (g->slip_at + zn->slip0, zn->nslips, cut * zn->spt);
  }
}

/* The first LBA of zone zn from 'lo' (relative to the zone) on whose
 * physical track index is at least 'want' (inverse of the mapping
 * without defects: physical order follows LBA order).
 */
static uint64_t
first_lba_on_track (const struct geom *g, const struct zone *zn,
                    uint64_t lo, uint64_t want)
{
  uint64_t hi = zn->nsect, run;

  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (zone_phys (g, zn, mid + zn->empty, &run) / zn->spt < want)
      lo = mid + 1;
    else
      hi = mid;
  }
  return zn->first_lba + lo;
}

/* The first LBA on or past the track. */
static uint64_t
track_lba_explicit (const struct geom *g, uint64_t cyl, uint64_t head)
{
  unsigned z = geom_zone_of_cyl (g, cyl);
  const struct zone *zn = &g->zones[z];
  uint64_t crel, want;

  if (cyl < zn->first_cyl)
    return zn->first_lba;
  crel = min_u64 (cyl - zn->first_cyl, zn->ncyl - 1);
  /* head_of is its own inverse. */
  want = crel * g->surfaces + head_of (g, zn->first_cyl + crel, crel, head);
  return first_lba_on_track (g, zn, 0, want);
}

/* The first LBA after lba's track, in LBA order.  A track of an
 * explicit table holds fewer LBAs than slots when it has spares or
 * slips, and loc.sector is the physical slot index there (as
 * DiskSim's), so it is found from the mapping, not from spt.  A
 * defect's replacement elsewhere does not move where its own track
 * ends.
 */
uint64_t
geom_track_end (const struct geom *g, uint64_t lba)
{
  const struct zone *zn;
  uint64_t rel, run, tr;
  struct loc l;

  if (lba >= g->sectors)
    return g->sectors;
  if (!g->explicit) {
    geom_locate (g, lba, &l);
    return lba - l.sector + l.spt;
  }
  zn = &g->zones[zone_of_lba (g, lba)];
  rel = lba - zn->first_lba;
  tr = zone_phys (g, zn, rel + zn->empty, &run) / zn->spt;
  return first_lba_on_track (g, zn, rel + 1, tr + 1);
}

static int
cmp_slip (const void *a, const void *b)
{
  const struct slip_spec *x = a, *y = b;

  if (x->zone != y->zone)
    return x->zone < y->zone ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

static int
cmp_defect (const void *a, const void *b)
{
  const struct defect_spec *x = a, *y = b;

  if (x->zone != y->zone)
    return x->zone < y->zone ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

static int
table_fail (char *err, size_t errlen, const char *key, unsigned z,
            const struct zone_spec *zs, const char *what)
{
  snprintf (err, errlen, "%s: zone %u (cylinders %" PRIu64 "-%" PRIu64
            ", %" PRIu64 " sectors per track): %s", key, z, zs->first_cyl,
            zs->last_cyl, zs->spt, what);
  return -1;
}

/* Copy zone z's slips (sorted) into the geometry, check them against
 * the zone's sparing units and make their search keys.
 */
static int
zone_slips (struct geom *g, struct zone *zn, unsigned z,
            const struct zone_spec *zs, const struct slip_spec *sl,
            unsigned n, unsigned *next, char *err, size_t errlen)
{
  uint64_t tracks = zn->ncyl * g->surfaces;
  uint64_t lim = g->sparing == SPARE_TRACKS ? tracks : tracks * zn->spt;
  uint64_t unit = UINT64_MAX;
  unsigned i, first = 0;
  char msg[200];

  zn->slip0 = *next;
  zn->nslips = 0;
  for (i = 0; i < n; i++) {
    uint64_t at = sl[i].at, *key = &g->slip_key[*next];
    if (sl[i].zone != z)
      continue;
    if (at >= lim || (zn->nslips && at == g->slip_at[*next - 1])) {
      snprintf (msg, sizeof msg, "slip %" PRIu64 " is %s (the zone has %"
                PRIu64 " %s)", at, at >= lim ? "beyond the zone"
                : "listed twice", lim, g->sparing == SPARE_TRACKS
                ? "tracks" : "physical sectors");
      return table_fail (err, errlen, "slips=", z, zs, msg);
    }
    g->slip_at[*next] = at;
    if (g->sparing == SPARE_TRACKS)
      *key = at - zn->nslips;
    else if (position_of (zn, at) == UINT64_MAX) {
      snprintf (msg, sizeof msg, "slip %" PRIu64 " is a spare sector", at);
      return table_fail (err, errlen, "slips=", z, zs, msg);
    }
    else if (slips_to_end (g->sparing))
      *key = position_of (zn, at) - zn->nslips;
    else {
      uint64_t k = at / zn->unit_len;
      if (k != unit) {
        unit = k;
        first = zn->nslips;
      }
      if (zn->nslips - first + 1 > (k + 1 == zn->unit_n ? zn->last_spares
                                                       : zn->unit_spares)) {
        snprintf (msg, sizeof msg, "slip %" PRIu64 ": more slips in its "
                  "sparing unit than its %" PRIu64 " spares", at,
                  k + 1 == zn->unit_n ? zn->last_spares : zn->unit_spares);
        return table_fail (err, errlen, "slips=", z, zs, msg);
      }
      *key = at - (k * zn->unit_len + zn->front) - (zn->nslips - first);
    }
    zn->nslips++;
    (*next)++;
  }
  return 0;
}

static int
zone_defects (struct geom *g, struct zone *zn, unsigned z,
              const struct zone_spec *zs, const struct defect_spec *df,
              unsigned n, unsigned *next, char *err, size_t errlen)
{
  uint64_t tracks = zn->ncyl * g->surfaces;
  uint64_t lim = g->sparing == SPARE_TRACKS ? tracks : tracks * zn->spt;
  unsigned i;
  char msg[200];

  zn->def0 = *next;
  zn->ndefects = 0;
  for (i = 0; i < n; i++) {
    if (df[i].zone != z)
      continue;
    if (df[i].at >= lim || df[i].to >= lim
        || (zn->ndefects && df[i].at == g->def_at[*next - 1])) {
      snprintf (msg, sizeof msg, "defect %" PRIu64 ">%" PRIu64 " %s "
                "(the zone has %" PRIu64 " %s)", df[i].at, df[i].to,
                df[i].at >= lim || df[i].to >= lim ? "lies beyond the zone"
                : "is listed twice", lim, g->sparing == SPARE_TRACKS
                ? "tracks" : "physical sectors");
      return table_fail (err, errlen, "defects=", z, zs, msg);
    }
    g->def_at[*next] = df[i].at;
    g->def_to[*next] = df[i].to;
    zn->ndefects++;
    (*next)++;
  }
  return 0;
}

/* LBA positions of a zone, slips deducted where they push to its end. */
static int
zone_positions (const struct geom *g, const struct zone *zn, unsigned z,
                const struct zone_spec *zs, uint64_t *out, char *err,
                size_t errlen)
{
  uint64_t tracks = zn->ncyl * g->surfaces, pos;

  if (g->sparing == SPARE_TRACKS) {
    /* The slipped tracks take spare ones: the data tracks stay. */
    if (zs->spares + zn->nslips > tracks || zs->spares >= tracks)
      return table_fail (err, errlen, "zone-table=", z, zs, "spares= and "
                         "the slipped tracks outnumber the zone's tracks, "
                         "or leave none for data");
    pos = (tracks - zs->spares) * zn->spt;
  }
  else {
    if (zn->unit_spares >= zn->unit_len)
      return table_fail (err, errlen, "zone-table=", z, zs, "spares= "
                         "fill the whole sparing unit or more");
    pos = (zn->unit_n - 1) * (zn->unit_len - zn->unit_spares)
          + zn->last_len - zn->last_spares;
    if (slips_to_end (g->sparing))
      pos -= min_u64 (pos, zn->nslips);
  }
  if (zs->empty >= pos)
    return table_fail (err, errlen, "zone-table=", z, zs, "empty= is the "
                       "whole zone or more");
  *out = pos - zs->empty;
  return 0;
}

/* A sorted copy of the slips or defects (by zone, then sector). */
static void *
sorted_copy (const void *a, unsigned n, size_t size,
             int (*cmp) (const void *, const void *))
{
  void *c = malloc (n ? n * size : 1);

  if (c) {
    memcpy (c, a, n * size);
    qsort (c, n, size, cmp);
  }
  return c;
}

static int
check_zone_refs (const struct hdd_params *p, char *err, size_t errlen)
{
  unsigned i;

  for (i = 0; i < p->nslips; i++)
    if (p->slips[i].zone >= p->nzt) {
      snprintf (err, errlen, "slips=: entry %u (%u:%" PRIu64 "): zone-table= "
                "has %u zones", i + 1, p->slips[i].zone, p->slips[i].at,
                p->nzt);
      return -1;
    }
  for (i = 0; i < p->ndefects; i++)
    if (p->defects[i].zone >= p->nzt) {
      snprintf (err, errlen, "defects=: entry %u (%u:%" PRIu64 ">%" PRIu64
                "): zone-table= has %u zones", i + 1, p->defects[i].zone,
                p->defects[i].at, p->defects[i].to, p->nzt);
      return -1;
    }
  if (p->sparing == SPARE_NONE && (p->nslips || p->ndefects)) {
    snprintf (err, errlen, "%s: needs spares, but sparing=none",
              p->nslips ? "slips=" : "defects=");
    return -1;
  }
  if (p->sparing == SPARE_RANGE && p->sparing_range == 0) {
    snprintf (err, errlen, "sparing-range=0: a range has 1 cylinder or "
              "more");
    return -1;
  }
  if (p->layout == LAYOUT_SERPENTINE) {
    snprintf (err, errlen, "layout=serpentine: not with a zone-table= "
              "(its layouts are cylinder, alternate, alternate-disk)");
    return -1;
  }
  return 0;
}

static int
geom_init_table (struct geom *g, const struct hdd_params *p, char *err,
                 size_t errlen)
{
  struct slip_spec *sl = NULL;
  struct defect_spec *df = NULL;
  uint64_t lba = 0, h = p->surfaces;
  unsigned z, ns = 0, nd = 0;
  int r = -1;

  if (check_zone_refs (p, err, errlen) == -1)
    return -1;
  g->explicit = true;
  g->sparing = p->sparing;
  g->nzones = p->nzt;
  g->ncyl = p->zt[p->nzt - 1].last_cyl + 1;
  sl = sorted_copy (p->slips, p->nslips, sizeof *sl, cmp_slip);
  df = sorted_copy (p->defects, p->ndefects, sizeof *df, cmp_defect);
  if (!sl || !df) {
    snprintf (err, errlen, "out of memory");
    goto out;
  }
  for (z = 0; z < p->nzt; z++) {
    const struct zone_spec *zs = &p->zt[z];
    struct zone *zn = &g->zones[z];
    uint64_t nlbn;
    if (z > 0 && zs->first_cyl <= p->zt[z - 1].last_cyl) {
      char msg[100];
      snprintf (msg, sizeof msg, "starts at or before the end of zone %u "
                "(cylinder %" PRIu64 ")", z - 1, p->zt[z - 1].last_cyl);
      table_fail (err, errlen, "zone-table=", z, zs, msg);
      goto out;
    }
    *zn = (struct zone) {
      .first_cyl = zs->first_cyl, .ncyl = zs->last_cyl - zs->first_cyl + 1,
      .spt = zs->spt, .track_skew = zs->track_skew,
      .cyl_skew = zs->cyl_skew, .offset = zs->offset, .empty = zs->empty,
    };
    zone_units (zn, p->sparing, h, p->sparing_range, zs->spares);
    if (zone_slips (g, zn, z, zs, sl, p->nslips, &ns, err, errlen) == -1
        || zone_defects (g, zn, z, zs, df, p->ndefects, &nd, err,
                         errlen) == -1
        || zone_positions (g, zn, z, zs, &nlbn, err, errlen) == -1)
      goto out;
    zn->first_lba = min_u64 (lba, g->sectors);
    zn->nsect = lba < g->sectors ? min_u64 (nlbn, g->sectors - lba) : 0;
    lba += nlbn;
  }
  if (lba < g->sectors) {
    snprintf (err, errlen, "zone-table=: the zones hold %" PRIu64
              " sectors, fewer than capacity=%" PRIu64 " (%" PRIu64
              " sectors)", lba, p->capacity, g->sectors);
    goto out;
  }
  r = 0;
 out:
  free (sl);
  free (df);
  return r;
}
