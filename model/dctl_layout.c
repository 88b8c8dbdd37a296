/* hddsim: DiskSim's g1 layout the way its code maps a physical sector
 * back to its block (dm_translate_ptol) and finds a track's first and
 * last blocks (dm_get_track_boundaries), for DiskSim's controller
 * (dctl.h; diskmodel/layout_g1.c, read for the facts).
 *
 * The block-to-sector direction is hddsim's geometry (geometry.c),
 * which gives DiskSim's answer for every block.  This direction is
 * DiskSim's own code's, quirks included: a slip moves the sectors after
 * it back by one only on its own cylinder (range, for range sparing),
 * or, with sparing=track, when the slip's offset in its cylinder equals
 * the head's number; slips are looked at last first, in the order the
 * file lists them; the brute-force schemes find a track's boundaries
 * by mapping its sectors back one by one.  The controller steps a
 * track's blocks by these answers, so they decide which block the
 * head is over.
 */

#include <stdlib.h>

#include "dctl.h"
#include "../common/u64.h"

#define SLIPPED (-1)
#define REMAPPED (-2)

struct band {
  unsigned z;
  int64_t first;                /* the band's first block */
  int64_t blks;                 /* its blocks (DiskSim's blksinband) */
  int64_t startcyl, spt, spares, dead, ncyl;
};

static bool
sectpercyl (int s)
{
  return s == SPARE_CYL || s == SPARE_CYL_SLIP || s == SPARE_CYL_FRONT
    || s == SPARE_CYL_FRONT_SLIP;
}

static bool
slip_to_end (int s)
{
  return s == SPARE_CYL_SLIP || s == SPARE_CYL_FRONT_SLIP
    || s == SPARE_DISK_END;
}

static bool
spare_at_front (int s)
{
  return s == SPARE_CYL_FRONT || s == SPARE_CYL_FRONT_SLIP;
}

/* dm_layout_g1_compute_blksinband: the band's blocks. */
static int64_t
band_blocks (const struct hdd_params *p, const struct zone_spec *z,
             int64_t slips)
{
  int64_t cyls = (int64_t) (z->last_cyl - z->first_cyl + 1);
  int64_t h = (int64_t) p->surfaces, spt = (int64_t) z->spt;
  int64_t sp = (int64_t) z->spares;
  int64_t n = cyls * spt * h - (int64_t) z->empty;

  switch (p->sparing) {
  case SPARE_TRACKS:
    return n - sp * spt;
  case SPARE_TRACK:
    return n - sp * cyls * h;
  case SPARE_DISK_END:
    return n - slips;
  case SPARE_ZONE:
    return n - sp;
  case SPARE_ZONE_SLIP:
    return n - sp - slips;
  case SPARE_RANGE:
    return n - sp * (cyls / (int64_t) p->sparing_range);
  default:
    if (sectpercyl (p->sparing))
      return n - sp * cyls - (slip_to_end (p->sparing) ? slips : 0);
    return n;
  }
}

/* The bands: each one's first block (the sum of those before) and
 * slips (p->slips lists them zone by zone, in the file's order).
 */
struct dlay *
dlay_new (const struct hdd_params *p)
{
  struct dlay *l = calloc (1, sizeof *l);
  int64_t first = 0;
  unsigned z, i;

  if (!l)
    return NULL;
  l->nbands = p->nzt;
  for (i = p->nslips; i-- > 0; ) {
    l->slip0[p->slips[i].zone] = i;
    l->nslip[p->slips[i].zone]++;
  }
  for (z = 0; z < p->nzt; z++) {
    l->first[z] = first;
    l->blks[z] = band_blocks (p, &p->zt[z], l->nslip[z]);
    first += l->blks[z];
  }
  return l;
}

static void
fill_band (const struct dctl *d, unsigned zi, struct band *b)
{
  const struct zone_spec *z = &d->p->zt[zi];

  *b = (struct band) {
    .z = zi, .first = d->lay->first[zi], .blks = d->lay->blks[zi],
    .startcyl = (int64_t) z->first_cyl, .spt = (int64_t) z->spt,
    .spares = (int64_t) z->spares, .dead = (int64_t) z->empty,
    .ncyl = (int64_t) (z->last_cyl - z->first_cyl + 1),
  };
}

static void
band_of_cyl (const struct dctl *d, uint64_t cyl, struct band *b)
{
  unsigned z = 0;

  while (z + 1 < d->lay->nbands && cyl > d->p->zt[z].last_cyl)
    z++;
  fill_band (d, z, b);
}

/* find_band_lbn: the band whose blocks hold lba. */
static void
band_of_lbn (const struct dctl *d, int64_t lba, struct band *b)
{
  unsigned lo = 0, hi = d->lay->nbands - 1;

  while (lo < hi) {
    unsigned mid = lo + (hi - lo + 1) / 2;
    if (d->lay->first[mid] <= lba)
      lo = mid;
    else
      hi = mid - 1;
  }
  fill_band (d, lo, b);
}

uint64_t
dlay_spt (const struct dctl *d, int64_t lba)
{
  struct band b;

  band_of_lbn (d, lba, &b);
  return (uint64_t) b.spt;
}

/* g1_surfno_on_cyl: the head's place in its cylinder's order. */
static int64_t
surf_on_cyl (const struct dctl *d, const struct band *b, int64_t cyl,
             int64_t head)
{
  int64_t h = (int64_t) d->p->surfaces;

  if ((d->p->layout == LAYOUT_ALT_ZONE && (cyl - b->startcyl) % 2)
      || (d->p->layout == LAYOUT_ALT_DISK && cyl % 2))
    return h - head - 1;
  return head;
}

static int64_t
slip_at (const struct dctl *d, const struct band *b, int i)
{
  return (int64_t) d->p->slips[d->lay->slip0[b->z] + (unsigned) i].at;
}

/* A defect's home or replacement: REMAPPED for its home; at the
 * replacement, the home's position (*remap set).
 */
static int
follow_defects (const struct dctl *d, const struct band *b, int64_t *pos,
                bool *remap)
{
  int i;

  for (i = (int) d->p->ndefects - 1; i >= 0; i--) {
    const struct defect_spec *f = &d->p->defects[i];
    if (f->zone != b->z)
      continue;
    if (*pos == (int64_t) f->at)
      return REMAPPED;
    if (*pos == (int64_t) f->to) {
      *remap = true;
      *pos = (int64_t) f->at;
      break;
    }
  }
  return 0;
}

/* The sector schemes: position in the zone, slips, spares (the
 * g1_ptol_sectper* functions).
 */
static int64_t
ptol_sectors (const struct dctl *d, const struct band *b, int64_t cyl,
              int64_t head, int64_t sector, bool *remap)
{
  int s = d->p->sparing, i;
  int64_t h = (int64_t) d->p->surfaces, crel = cyl - b->startcyl;
  int64_t percyl = b->spt * h, lbn = b->first;
  int64_t range = (int64_t) d->p->sparing_range * percyl;
  int64_t pos = crel * percyl + surf_on_cyl (d, b, cyl, head) * b->spt
                + sector;

  *remap = false;               /* DiskSim's ptol clears it each call */
  if (follow_defects (d, b, &pos, remap) == REMAPPED)
    return REMAPPED;
  for (i = (int) d->lay->nslip[b->z] - 1; i >= 0; i--) {
    int64_t sl = slip_at (d, b, i);
    if (pos == sl)
      return SLIPPED;
    if (pos <= sl)
      continue;
    if (s == SPARE_TRACK) {
      if (sl / percyl == crel && sl % percyl == surf_on_cyl (d, b, cyl, head))
        pos--;
    }
    else if (s == SPARE_RANGE) {
      if (sl / range == crel / (int64_t) d->p->sparing_range)
        pos--;
    }
    else if (s == SPARE_ZONE || s == SPARE_ZONE_SLIP)
      pos--;
    else if (sl / percyl == crel)
      pos--;
    else if (slip_to_end (s))
      lbn--;
  }
  if (s == SPARE_TRACK) {
    if (pos % b->spt >= b->spt - b->spares)
      return SLIPPED;
    lbn += pos / b->spt * (b->spt - b->spares) + pos % b->spt;
  }
  else if (s == SPARE_RANGE) {
    int64_t perrange = range - b->spares;
    pos %= range;
    if (pos >= perrange)
      return SLIPPED;
    lbn += crel / (int64_t) d->p->sparing_range * perrange + pos;
  }
  else if (s == SPARE_ZONE || s == SPARE_ZONE_SLIP) {
    if (pos >= b->blks)
      return SLIPPED;
    lbn += pos;
  }
  else {                        /* per cylinder, and disk-end */
    int64_t percyl_lbn = percyl - b->spares;
    bool front = spare_at_front (s);
    if ((!front && pos % percyl >= percyl_lbn)
        || (front && pos % percyl < b->spares))
      return SLIPPED;
    lbn += pos / percyl * percyl_lbn + pos % percyl - (front ? b->spares : 0);
  }
  lbn -= b->dead;
  return lbn < 0 ? SLIPPED : lbn;
}

/* Track sparing: whole tracks slip and are remapped. */
static int64_t
ptol_tracks (const struct dctl *d, const struct band *b, int64_t cyl,
             int64_t head, int64_t sector)
{
  int64_t h = (int64_t) d->p->surfaces;
  int64_t track = (cyl - b->startcyl) * h + surf_on_cyl (d, b, cyl, head);
  int64_t lbn;
  bool remap = false;
  int i;

  if (follow_defects (d, b, &track, &remap) == REMAPPED)
    return REMAPPED;
  for (i = (int) d->lay->nslip[b->z] - 1; i >= 0; i--) {
    int64_t sl = slip_at (d, b, i);
    if (track == sl)
      return SLIPPED;
    if (track > sl)
      track--;
  }
  if (track > (b->blks + b->dead) / b->spt)
    return SLIPPED;
  lbn = b->first + sector + track * b->spt - b->dead;
  return lbn < 0 ? SLIPPED : lbn;
}

static int64_t
ptol_nosparing (const struct dctl *d, const struct band *b, int64_t cyl,
                int64_t head, int64_t sector)
{
  int64_t h = (int64_t) d->p->surfaces;
  int64_t lbn = b->first
    + ((cyl - b->startcyl) * h + surf_on_cyl (d, b, cyl, head)) * b->spt
    + sector - b->dead;

  return lbn < 0 ? SLIPPED : lbn;
}

int64_t
dlay_ptol (const struct dctl *d, uint64_t cyl, uint64_t head,
           uint64_t sector, bool *remap)
{
  struct band b;

  *remap = false;
  band_of_cyl (d, cyl, &b);
  if (d->p->sparing == SPARE_NONE)
    return ptol_nosparing (d, &b, (int64_t) cyl, (int64_t) head,
                           (int64_t) sector);
  if (d->p->sparing == SPARE_TRACKS)
    return ptol_tracks (d, &b, (int64_t) cyl, (int64_t) head,
                        (int64_t) sector);
  return ptol_sectors (d, &b, (int64_t) cyl, (int64_t) head,
                       (int64_t) sector, remap);
}

/* Boundaries by formula: a track's blocks in a row (no sparing,
 * spares per track, whole spare tracks), clipped to the band's start.
 */
static void
bounds_formula (const struct dctl *d, const struct band *b, int64_t cyl,
                int64_t head, int64_t *first, int64_t *last)
{
  int64_t h = (int64_t) d->p->surfaces;
  int64_t per = b->spt - (d->p->sparing == SPARE_TRACK ? b->spares : 0);
  int64_t track = (cyl - b->startcyl) * h + surf_on_cyl (d, b, cyl, head);
  int64_t lbn = b->first + track * per - b->dead;

  if (d->p->sparing == SPARE_TRACKS) {  /* slips move whole tracks */
    bool remap = false;
    int i;
    int64_t base = b->first;
    if (follow_defects (d, b, &track, &remap) == REMAPPED)
      base = REMAPPED;
    for (i = (int) d->lay->nslip[b->z] - 1; i >= 0; i--) {
      int64_t sl = slip_at (d, b, i);
      if (track == sl)
        base = SLIPPED;
      if (track > sl)
        track--;
    }
    if (track > (b->blks + b->dead) / b->spt)
      base = SLIPPED;
    lbn = base + track * b->spt - b->dead;
    if (base < 0) {
      *first = *last = base;
      return;
    }
    *first = lbn + b->spt <= base ? SLIPPED : max_i64 (lbn, base);
    *last = lbn + b->spt - 1 <= base ? SLIPPED : lbn + b->spt - 1;
    return;
  }
  *first = lbn + per <= b->first ? SLIPPED : max_i64 (lbn, b->first);
  *last = lbn + per - 1 <= b->first ? SLIPPED : lbn + per - 1;
}

void
dlay_track (const struct dctl *d, uint64_t cyl, uint64_t head,
            int64_t *first, int64_t *last)
{
  struct band b;
  int64_t s, add = 0, v = SLIPPED;
  bool remap;

  band_of_cyl (d, cyl, &b);
  if (d->p->sparing == SPARE_NONE || d->p->sparing == SPARE_TRACK
      || d->p->sparing == SPARE_TRACKS) {
    bounds_formula (d, &b, (int64_t) cyl, (int64_t) head, first, last);
    return;
  }
  /* The brute force of the cylinder, range and zone schemes. */
  for (s = 0; s < b.spt; s++) {
    v = ptol_sectors (d, &b, (int64_t) cyl, (int64_t) head, s, &remap);
    if (v == REMAPPED)
      add++;
    if (remap)
      v = SLIPPED;
    if (v >= 0) {
      v = max_i64 (v - add, b.first);
      break;
    }
  }
  *first = s == b.spt ? SLIPPED : v;
  add = 0;
  v = SLIPPED;
  for (s = b.spt - 1; s >= 0; s--) {
    v = ptol_sectors (d, &b, (int64_t) cyl, (int64_t) head, s, &remap);
    if (v == REMAPPED)
      add++;
    if (remap)
      v = SLIPPED;
    if (v >= 0) {
      v += add;
      break;
    }
  }
  *last = v;
}

/* ---- block to sector (the g1_ltop_* functions, MAP_FULL) ---- */

struct pbn {
  int64_t cyl, head, sector;
};

/* A defect of the band at position pos moves it to its replacement. */
static bool
remap_to (const struct dctl *d, const struct band *b, int64_t *pos)
{
  unsigned i;

  for (i = 0; i < d->p->ndefects; i++) {
    const struct defect_spec *f = &d->p->defects[i];
    if (f->zone == b->z && (int64_t) f->at == *pos && f->at != f->to) {
      *pos = (int64_t) f->to;
      return true;
    }
  }
  return false;
}

static void
place (const struct dctl *d, const struct band *b, int64_t cylrel,
       int64_t track_in_cyl, int64_t sector, struct pbn *r)
{
  r->cyl = cylrel + b->startcyl;
  r->head = surf_on_cyl (d, b, r->cyl, track_in_cyl);
  r->sector = sector;
}

/* Spares at each track's end: slips on the track push the blocks
 * after them (DiskSim compares with the block's place as it grows).
 */
static bool
ltop_track_spares (const struct dctl *d, const struct band *b, int64_t lbn,
                   struct pbn *r)
{
  int64_t h = (int64_t) d->p->surfaces, per = b->spt - b->spares;
  int64_t track = lbn / per, first, pos;
  bool remapped = false;
  int i;

  lbn %= per;
  first = b->spt * track;
  for (i = 0; i < (int) d->lay->nslip[b->z]; i++) {
    int64_t sl = slip_at (d, b, i);
    if (sl >= first && sl - first <= lbn)
      lbn++;
  }
  pos = first + lbn;
  if (remap_to (d, b, &pos)) {
    remapped = true;
    track = pos / b->spt;
    lbn = pos % b->spt;
  }
  place (d, b, track / h, track % h, lbn < b->spt ? lbn : r->sector, r);
  return remapped;
}

/* Spares at each cylinder's end (DiskSim's code leaves the -front
 * schemes' spares out), or slips to the disk's end; slips on earlier
 * cylinders count first with -slip (sliptoend), then those of the
 * cylinder as the block's place grows.
 */
static bool
ltop_cyl_spares (const struct dctl *d, const struct band *b, int64_t lbn,
                 struct pbn *r)
{
  int64_t h = (int64_t) d->p->surfaces, percyl = b->spt * h;
  int64_t per = percyl - b->spares, cyl = lbn / per, first, slips = 0;
  bool toend = slip_to_end (d->p->sparing);
  int i;

  lbn %= per;
  first = cyl * percyl;
  for (i = 0; i < (int) d->lay->nslip[b->z]; i++) {
    int64_t sl = slip_at (d, b, i);
    if ((toend && sl / percyl < cyl)
        || (sl >= first && sl - first <= lbn + slips))
      slips++;
  }
  lbn += slips;
  {
    int64_t pos = first + lbn;
    if (remap_to (d, b, &pos)) {
      place (d, b, pos / percyl, pos % percyl / b->spt, pos % percyl % b->spt,
             r);
      return true;
    }
  }
  cyl += lbn / per;
  lbn %= per;
  place (d, b, cyl, lbn / b->spt, lbn % b->spt, r);
  return false;
}

static bool
ltop_range_spares (const struct dctl *d, const struct band *b, int64_t lbn,
                   struct pbn *r)
{
  int64_t percyl = b->spt * (int64_t) d->p->surfaces;
  int64_t rs = (int64_t) d->p->sparing_range, range = percyl * rs;
  int64_t per = range - b->spares, rn = lbn / per, first, slips = 0, pos;
  bool remapped = false;
  int i;

  lbn %= per;
  first = rn * range;
  for (i = 0; i < (int) d->lay->nslip[b->z]; i++) {
    int64_t sl = slip_at (d, b, i);
    if (sl >= first && sl - first <= lbn + slips)
      slips++;
  }
  lbn += slips;
  pos = first + lbn;
  if (remap_to (d, b, &pos)) {
    remapped = true;
    lbn = pos % range;
  }
  place (d, b, rn * rs + lbn / percyl, lbn % percyl / b->spt, lbn % b->spt,
         r);
  return remapped;
}

static bool
ltop_zone_spares (const struct dctl *d, const struct band *b, int64_t lbn,
                  struct pbn *r)
{
  int64_t percyl = b->spt * (int64_t) d->p->surfaces, slips = 0;
  bool remapped;
  int i;

  for (i = 0; i < (int) d->lay->nslip[b->z]; i++)
    if (slip_at (d, b, i) <= lbn + slips)
      slips++;
  lbn += slips;
  remapped = remap_to (d, b, &lbn);
  place (d, b, lbn / percyl, lbn % percyl / b->spt, lbn % b->spt, r);
  return remapped;
}

/* Whole spare tracks: slips and defects move whole tracks. */
static void
ltop_spare_tracks (const struct dctl *d, const struct band *b, int64_t lbn,
                   struct pbn *r)
{
  int64_t h = (int64_t) d->p->surfaces, track = lbn / b->spt;
  unsigned i;

  for (i = 0; i < d->lay->nslip[b->z]; i++)
    if (slip_at (d, b, (int) i) <= track)
      track++;
  for (i = 0; i < d->p->ndefects; i++) {
    const struct defect_spec *f = &d->p->defects[i];
    if (f->zone == b->z && (int64_t) f->at == track) {
      track = (int64_t) f->to;
      break;
    }
  }
  place (d, b, track / h, track % h, lbn % b->spt, r);
}

void
dlay_ltop (const struct dctl *d, int64_t lba, uint64_t *cyl, uint64_t *head,
           uint64_t *sector, bool *remapped)
{
  struct band b;
  struct pbn r = { 0, 0, 0 };
  int64_t lbn, h = (int64_t) d->p->surfaces;

  band_of_lbn (d, lba, &b);
  lbn = lba - b.first + b.dead;
  *remapped = false;
  switch (d->p->sparing) {
  case SPARE_NONE:
    place (d, &b, lbn / (b.spt * h), lbn / b.spt % h, lbn % b.spt, &r);
    break;
  case SPARE_TRACKS:
    ltop_spare_tracks (d, &b, lbn, &r);
    break;
  case SPARE_TRACK:
    *remapped = ltop_track_spares (d, &b, lbn, &r);
    break;
  case SPARE_RANGE:
    *remapped = ltop_range_spares (d, &b, lbn, &r);
    break;
  case SPARE_ZONE:
  case SPARE_ZONE_SLIP:
    *remapped = ltop_zone_spares (d, &b, lbn, &r);
    break;
  default:
    *remapped = ltop_cyl_spares (d, &b, lbn, &r);
    break;
  }
  *cyl = (uint64_t) r.cyl;
  *head = (uint64_t) r.head;
  *sector = (uint64_t) r.sector;
}
