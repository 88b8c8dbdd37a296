/* hddsim: DiskSim's dm_layout_g1: zones, spares, slips, defects and the
 * LBN-to-PBN mapping, as Diskmodel's manual (section 1.4.2) defines
 * them.
 *
 * Each zone is cut into sparing units (a track, a cylinder, a range of
 * cylinders, the whole zone) whose last 'Number of spares' sectors (the
 * first ones for the "front" schemes) hold no LBN.  The zone's LBNs
 * fill the remaining positions in order; 'Empty space at zone front'
 * takes the zone's first positions (DiskSim counts it in LBN
 * positions, which is what makes the validation drives' block counts
 * come out).  A slipped sector is skipped: in the plain schemes the
 * rest of its unit moves up by one into the unit's spares; in the
 * "slip to end" schemes (4, 6, 7, 10) everything after it in the zone
 * moves up.  A defect is remapped: the LBN that would land on it lands
 * on its replacement instead.  Scheme 1 spares, slips and remaps whole
 * tracks.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "layout_g1.h"

static bool
slip_to_end (int sparing)
{
  return sparing == DS_SPARE_PER_CYL_SLIPTOEND
    || sparing == DS_SPARE_PER_CYL_FRONT_SLIPTOEND
    || sparing == DS_SPARE_END_OF_DISK
    || sparing == DS_SPARE_PER_ZONE_SLIPTOEND;
}

static bool
spares_in_front (int sparing)
{
  return sparing == DS_SPARE_PER_CYL_FRONT
    || sparing == DS_SPARE_PER_CYL_FRONT_SLIPTOEND;
}

/* The sparing units of a zone: 'n' units of 'len' physical sectors,
 * the last one possibly shorter ('last_len'), each with 'spares'
 * spare sectors (none in a short last range).
 */
struct units {
  uint64_t n, len, last_len, spares, last_spares, front;
};

static uint64_t
zone_cyls (const struct ds_zone *z)
{
  return z->last_cyl - z->first_cyl + 1;
}

static void
zone_units (const struct ds_layout *l, const struct ds_zone *z,
            struct units *u)
{
  uint64_t spc = z->spt * l->surfaces, cyls = zone_cyls (z);

  *u = (struct units) { .n = 1, .len = cyls * spc, .spares = z->spares };
  switch (l->sparing) {
  case DS_SPARE_NONE:
  case DS_SPARE_END_OF_DISK:
  case DS_SPARE_TRACKS_PER_ZONE:        /* handled by tracks */
    u->spares = 0;
    break;
  case DS_SPARE_PER_TRACK:
    u->n = cyls * l->surfaces;
    u->len = z->spt;
    break;
  case DS_SPARE_PER_CYL:
  case DS_SPARE_PER_CYL_SLIPTOEND:
  case DS_SPARE_PER_CYL_FRONT:
  case DS_SPARE_PER_CYL_FRONT_SLIPTOEND:
    u->n = cyls;
    u->len = spc;
    break;
  case DS_SPARE_PER_RANGE:
    /* A short last range has no spares (DiskSim counts
       spares x (cylinders / rangesize)). */
    u->n = (cyls + l->rangesize - 1) / l->rangesize;
    u->len = l->rangesize * spc;
    if (cyls % l->rangesize) {
      u->last_len = (cyls % l->rangesize) * spc;
      u->last_spares = 0;
    }
    break;
  default:                      /* DS_SPARE_PER_ZONE(_SLIPTOEND) */
    break;
  }
  if (u->last_len == 0) {
    u->last_len = u->len;
    u->last_spares = u->spares;
  }
  u->front = spares_in_front (l->sparing) ? u->spares : 0;
}

/* LBN positions in unit k, and the first position of unit k. */
static uint64_t
unit_positions (const struct units *u, uint64_t k)
{
  return k + 1 == u->n ? u->last_len - u->last_spares : u->len - u->spares;
}

static uint64_t
unit_first_position (const struct units *u, uint64_t k)
{
  return k * (u->len - u->spares);
}

/* Position index of a zone-relative physical sector, or UINT64_MAX if
 * it is a spare.
 */
static uint64_t
position_of (const struct units *u, uint64_t phys)
{
  uint64_t k = phys / u->len, r = phys % u->len;

  if (k >= u->n)
    return UINT64_MAX;
  if (r < u->front || r - u->front >= unit_positions (u, k))
    return UINT64_MAX;
  return unit_first_position (u, k) + r - u->front;
}

static uint64_t
physical_of (const struct units *u, uint64_t q)
{
  uint64_t per = u->len - u->spares, k = per ? q / per : 0;

  if (k >= u->n)
    k = u->n - 1;
  return k * u->len + u->front + (q - unit_first_position (u, k));
}

static int
cmp_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

  return x < y ? -1 : x > y;
}

static int
zone_error (const struct dsp_where *at, char *err, size_t errlen,
            const char *what)
{
  snprintf (err, errlen, "%s:%u: %s", at->file, at->line, what);
  return -1;
}

/* Check one zone's spares, slips and defects; count its LBNs. */
static int
zone_init (const struct ds_layout *l, struct ds_zone *z, char *err,
           size_t errlen)
{
  uint64_t tracks = zone_cyls (z) * l->surfaces, phys = tracks * z->spt;
  uint64_t positions, i, k, lim;
  bool by_track = l->sparing == DS_SPARE_TRACKS_PER_ZONE;
  struct units u;
  char msg[200];

  if (z->nslips > 1)           /* qsort takes no NULL, even for 0 */
    qsort (z->slips, z->nslips, sizeof *z->slips, cmp_u64);
  lim = by_track ? tracks : phys;
  for (i = 0; i < z->nslips; i++)
    if (z->slips[i] >= lim || (i > 0 && z->slips[i] == z->slips[i - 1])) {
      snprintf (msg, sizeof msg, "slips: %" PRIu64 " is %s (the zone has "
                "%" PRIu64 " %s)", z->slips[i], z->slips[i] >= lim
                ? "beyond the zone" : "listed twice", lim,
                by_track ? "tracks" : "physical sectors");
      return zone_error (&z->slips_at, err, errlen, msg);
    }
  for (i = 0; i < z->ndefects; i++)
    if (z->defect[i] >= lim || z->remap[i] >= lim) {
      snprintf (msg, sizeof msg, "defects: pair %" PRIu64 " -> %" PRIu64
                " lies beyond the zone (%" PRIu64 " %s)", z->defect[i],
                z->remap[i], lim, by_track ? "tracks" : "physical sectors");
      return zone_error (&z->defects_at, err, errlen, msg);
    }
  if (l->sparing == DS_SPARE_NONE && (z->nslips || z->ndefects))
    return zone_error (z->nslips ? &z->slips_at : &z->defects_at, err,
                       errlen, "slips and defects need spares, but "
                       "'Sparing scheme used' is 0 (no spares)");
  if (by_track) {
    if (z->spares + z->nslips > tracks)
      return zone_error (&z->spares_at, err, errlen, "the spare and "
                         "slipped tracks outnumber the zone's tracks");
    positions = (tracks - z->spares) * z->spt;
  }
  else {
    zone_units (l, z, &u);
    if (u.spares >= u.len)
      return zone_error (&z->spares_at, err, errlen,
                         "Number of spares: as many as the sparing unit's "
                         "sectors or more");
    positions = 0;
    for (k = 0; k < u.n; k++)
      positions += unit_positions (&u, k);
    /* Slips must lie in data positions; in the plain schemes each
       unit's slips must fit in its spares. */
    for (i = 0; i < z->nslips; i++)
      if (position_of (&u, z->slips[i]) == UINT64_MAX) {
        snprintf (msg, sizeof msg, "slips: %" PRIu64 " is a spare "
                  "sector", z->slips[i]);
        return zone_error (&z->slips_at, err, errlen, msg);
      }
    for (i = 0; i < z->nslips; i++) {
      uint64_t first = i, unit = z->slips[i] / u.len, n = 0;
      if (slip_to_end (l->sparing))
        continue;
      while (i < z->nslips && z->slips[i] / u.len == unit) {
        n++;
        i++;
      }
      i--;
      if (n > (unit + 1 == u.n ? u.last_spares : u.spares)) {
        snprintf (msg, sizeof msg, "slips: %" PRIu64 " slips from %"
                  PRIu64 " in one sparing unit, which has %" PRIu64
                  " spares", n, z->slips[first],
                  unit + 1 == u.n ? u.last_spares : u.spares);
        return zone_error (&z->slips_at, err, errlen, msg);
      }
    }
  }
  if (slip_to_end (l->sparing))
    positions = positions > z->nslips ? positions - z->nslips : 0;
  if (z->deadspace >= positions)
    return zone_error (&z->dead_at, err, errlen, "Empty space at zone "
                       "front: the whole zone or more");
  z->nlbn = positions - z->deadspace;
  return 0;
}

int
ds_layout_init (struct ds_layout *l, char *err, size_t errlen)
{
  uint64_t lbn = 0;
  unsigned i;

  for (i = 0; i < l->nzones; i++) {
    struct ds_zone *z = &l->zones[i];
    if (zone_init (l, z, err, errlen) == -1)
      return -1;
    z->first_lbn = lbn;
    lbn += z->nlbn;
  }
  /* DiskSim only warns when the two differ (the manual, dm_disk):
     the disk exports 'Block count' blocks, mapped by the zones.  More
     blocks than the zones map cannot be placed. */
  if (lbn < l->blocks) {
    snprintf (err, errlen, "%s:%u: Block count = %" PRIu64 ", but the "
              "zones map only %" PRIu64 " LBNs (sparing scheme %d)",
              l->at.file, l->at.line, l->blocks, lbn, l->sparing);
    return -1;
  }
  l->mapped = lbn;
  return 0;
}

/* Zone-relative position -> zone-relative physical sector, sector
 * schemes.
 */
static uint64_t
sector_scheme_phys (const struct ds_layout *l, const struct ds_zone *z,
                    uint64_t q, bool *remapped)
{
  struct units u;
  uint64_t phys, i;

  zone_units (l, z, &u);
  if (slip_to_end (l->sparing)) {
    /* Every slip at or before the (moving) position pushes it on. */
    for (i = 0; i < z->nslips; i++)
      if (position_of (&u, z->slips[i]) <= q)
        q++;
    phys = physical_of (&u, q);
  }
  else {
    uint64_t per = u.len - u.spares, k = per ? q / per : 0;
    uint64_t start, off;
    if (k >= u.n)
      k = u.n - 1;
    start = k * u.len + u.front;
    off = q - unit_first_position (&u, k);
    for (i = 0; i < z->nslips; i++)
      if (z->slips[i] >= start && z->slips[i] - start <= off)
        off++;
    phys = start + off;
  }
  for (i = 0; i < z->ndefects; i++)
    if (z->defect[i] == phys) {
      *remapped = true;
      return z->remap[i];
    }
  return phys;
}

/* Slips before the cylinder (per-cylinder schemes) or before the
 * track (per-track scheme): sectors the track is turned by.
 */
static uint64_t
slip_turns (const struct ds_layout *l, const struct ds_zone *z,
            uint64_t cylrel, uint64_t head)
{
  uint64_t cut, n = 0, i;

  switch (l->sparing) {
  case DS_SPARE_PER_CYL:
  case DS_SPARE_PER_CYL_SLIPTOEND:
  case DS_SPARE_PER_CYL_FRONT:
  case DS_SPARE_PER_CYL_FRONT_SLIPTOEND:
    cut = cylrel * l->surfaces * z->spt;
    break;
  case DS_SPARE_PER_TRACK:
    cut = (cylrel * l->surfaces + head) * z->spt;
    break;
  default:
    return 0;
  }
  for (i = 0; i < z->nslips; i++)
    n += z->slips[i] < cut;
  return n;
}

int
ds_layout_ltop (const struct ds_layout *l, uint64_t lbn, struct ds_pbn *out)
{
  const struct ds_zone *z = NULL;
  uint64_t q, track, sector, cylrel, idx, i;
  double angle;
  unsigned k;
  bool remapped = false;

  for (k = 0; k < l->nzones; k++)
    if (lbn < l->zones[k].first_lbn + l->zones[k].nlbn) {
      z = &l->zones[k];
      break;
    }
  if (!z)
    return -1;
  q = lbn - z->first_lbn + z->deadspace;
  if (l->sparing == DS_SPARE_TRACKS_PER_ZONE) {
    track = q / z->spt;
    sector = q % z->spt;
    for (i = 0; i < z->nslips; i++)
      if (z->slips[i] <= track)
        track++;
    for (i = 0; i < z->ndefects; i++)
      if (z->defect[i] == track) {
        track = z->remap[i];
        remapped = true;
        break;
      }
  }
  else {
    uint64_t phys = sector_scheme_phys (l, z, q, &remapped);
    track = phys / z->spt;
    sector = phys % z->spt;
  }
  cylrel = track / l->surfaces;
  idx = track % l->surfaces;            /* position in the cylinder's order */
  out->cyl = z->first_cyl + cylrel;
  out->head = idx;
  if ((l->mapping == DS_MAP_SERP_ZONE && cylrel % 2)
      || (l->mapping == DS_MAP_SERP_DISK && out->cyl % 2))
    out->head = l->surfaces - 1 - idx;
  out->sector = sector;
  out->remapped = remapped;
  /* The angle: first-block offset, a track skew per track switch and a
     cylinder skew per cylinder switch since the zone's start, a sector
     per slip before the track in the per-cylinder and per-track
     schemes (DiskSim's layout_g1.c turns the track so: slips also push
     the skew on), then the sector; a fractional angle starts at the
     next sector boundary. */
  angle = z->offset + z->track_skew * (double) (idx + (l->surfaces - 1)
                                                 * cylrel)
          + z->cyl_skew * (double) cylrel + (double) sector
          + (double) slip_turns (l, z, cylrel, out->head);
  angle = ceil (angle - 1e-9);
  out->slot = (uint64_t) fmod (angle, (double) z->spt);
  return 0;
}
