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
 */

#include <stdio.h>

#include "hdd_int.h"

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

void
geom_locate (const struct geom *g, uint64_t lba, struct loc *l)
{
  const struct zone *zn;
  uint64_t rel, tr, crel, head, off, h = g->surfaces;

  if (lba >= g->sectors)
    lba = g->sectors - 1;
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
}

uint64_t
geom_track_lba (const struct geom *g, uint64_t cyl, uint64_t head)
{
  unsigned z = geom_zone_of_cyl (g, cyl);
  const struct zone *zn = &g->zones[z];
  uint64_t crel = cyl - zn->first_cyl, tr;

  if (g->layout == LAYOUT_SERPENTINE)
    tr = head * zn->ncyl + (head % 2 == 0 ? crel : zn->ncyl - 1 - crel);
  else
    tr = crel * g->surfaces + head;
  return zn->first_lba + tr * zn->spt;
}
