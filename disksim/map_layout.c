/* hddsim: DiskSim's layout (dm_layout_g1) as the model's zone-table=,
 * sparing=, slips= and defects=, held against the model's own
 * geometry (probe.h) LBN by LBN where it matters.
 */

#include <inttypes.h>
#include <math.h>
#include <stdint.h>

#include "../model/probe.h"
#include "map.h"

/* What hddsim cannot hold of one zone: its zone-table= takes whole
 * sectors.
 */
static void
zone_blockers (struct map_out *o, const struct ds_zone *z, unsigned i)
{
  if (z->offset != floor (z->offset))
    map_block (o, z->offset_at, "Offset of first block = %g (zone %u): "
               "hddsim's zone-table= takes whole sectors", z->offset, i);
  if (z->track_skew != floor (z->track_skew))
    map_block (o, z->tskew_at, "Skew for track switch = %g sectors (zone %u): "
               "hddsim skews by whole sectors", z->track_skew, i);
  if (z->cyl_skew != floor (z->cyl_skew))
    map_block (o, z->cskew_at, "Skew for cylinder switch = %g sectors (zone "
               "%u): hddsim skews by whole sectors", z->cyl_skew, i);
}

/* The zone, its slips and its defects as zone-table=, slips=, defects=
 * entries (DiskSim's units: zone-relative physical sectors, or tracks
 * with sparing scheme 1, as hddsim's).
 */
static void
zone_to_params (struct map_out *o, const struct ds_zone *z, unsigned i,
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
    map_block (o, z->slips_at, "slips: the zones list more than the %d slips "
               "hddsim's slips= holds", SLIPS_MAX);
  else
    for (k = 0; k < z->nslips; k++)
      p->slips[p->nslips++] = (struct slip_spec) {
        i, z->slips_file ? z->slips_file[k] : z->slips[k] };
  if (p->ndefects + z->ndefects > DEFECTS_MAX)
    map_block (o, z->defects_at, "defects: the zones list more than the %d "
               "defects hddsim's defects= holds", DEFECTS_MAX);
  else
    for (k = 0; k < z->ndefects; k++)
      p->defects[p->ndefects++] = (struct defect_spec) {
        i, z->defect[k], z->remap[k]
      };
}

/* One LBN where the model and ds_layout_ltop must agree. */
static bool
same_place (struct map_out *o, const struct ds_layout *l,
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
  map_block (o, l->at, "LBN %" PRIu64 ": DiskSim's layout puts it at "
             "cylinder %" PRIu64 ", head %" PRIu64 ", sector %" PRIu64
             " (slot %" PRIu64 "), hddsim's zone-table= at %" PRIu64 ", %"
             PRIu64 ", %" PRIu64 " (slot %" PRIu64 ")", lbn, d.cyl, d.head,
             d.sector, d.slot, m.cyl, m.head, m.sector, m.slot);
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
compare_layout (struct map_out *o, const struct ds_layout *l,
                const struct hdd_params *p)
{
  struct hdd_probe *g = hdd_probe_new ();
  char err[HDD_ERRLEN];
  unsigned i;

  if (!g) {
    map_block (o, l->at, "out of memory");
    return;
  }
  if (hdd_probe_layout (g, p, err, sizeof err) == -1) {
    map_block (o, l->at, "the zones as hddsim's: %s", err);
    hdd_probe_free (g);
    return;
  }
  for (i = 0; i < l->nzones && l->zones[i].first_lbn < l->blocks; i++) {
    const struct ds_zone *z = &l->zones[i];
    uint64_t first = hdd_probe_zone_lba (g, i), k, x;
    bool ok = true;
    if (first != z->first_lbn) {
      map_block (o, z->at, "zone %u: hddsim's zone-table= starts it at LBN %"
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

void
map_layout (struct map_out *o, const struct ds_drive *d, struct hdd_params *p)
{
  const struct ds_layout *l = &d->layout;
  uint64_t outer = 0, inner = UINT64_MAX;
  unsigned i;

  p->layout = l->mapping == DS_MAP_SERP_ZONE ? LAYOUT_ALT_ZONE
    : l->mapping == DS_MAP_SERP_DISK ? LAYOUT_ALT_DISK : LAYOUT_CYLINDER;
  map_set (o, p, l->at, "Number of data surfaces", "surfaces",
           l->surfaces, false);
  map_set (o, p, l->at, "Block count", "capacity", l->blocks * SECTOR,
           false);
  if (l->nzones > ZONES_MAX) {
    map_block (o, l->zones[0].at, "Zones: %u zones; hddsim holds at most %d",
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
