/* hddsim: the drive's geometry: zones, tracks and where each LBA lies
 * (geometry.c).
 */
#ifndef HDDSIM_GEOMETRY_H
#define HDDSIM_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "params.h"

struct zone {
  uint64_t first_lba;
  uint64_t nsect;               /* LBAs in the zone */
  uint64_t first_cyl;
  uint64_t ncyl;
  uint64_t spt;
  uint64_t track_skew;          /* sectors */
  uint64_t cyl_skew;            /* sectors */
  /* Explicit tables only (geom.explicit): the angle of the first
     sector, the positions left empty at the front, the sparing units
     (n units of 'len' physical sectors, 'spares' of them spare, the
     last unit 'last_len' long with 'last_spares'; 'front' of the
     spares lie at a unit's front), and this zone's slips and defects
     in the geometry's arrays. */
  uint64_t offset, empty;
  uint64_t unit_n, unit_len, unit_spares, last_len, last_spares, front;
  unsigned slip0, nslips, def0, ndefects;
};

struct geom {
  uint64_t rpm;
  uint64_t surfaces;
  uint64_t ncyl;
  uint64_t sectors;             /* usable LBAs (the capacity) */
  int layout;
  unsigned nzones;
  struct zone zones[ZONES_MAX];
  /* Explicit tables only. */
  bool explicit;
  int sparing;                  /* enum sparing */
  /* Slips sorted within each zone, and a search key each: the slip's
     LBA position less the slips before it (of its sparing unit, or
     of the zone when slips push to the zone's end). */
  uint64_t slip_at[SLIPS_MAX], slip_key[SLIPS_MAX];
  uint64_t def_at[DEFECTS_MAX], def_to[DEFECTS_MAX];  /* sorted by at */
};

/* Where one LBA lives. */
struct loc {
  unsigned zone;
  uint64_t cyl;
  uint64_t head;
  uint64_t sector;              /* index on its track: logical, or in
                                   an explicit zone table the physical
                                   slot before skew (spares and slips
                                   count; geom_track_end for where the
                                   track's LBAs end) */
  uint64_t slot;                /* angular slot (sector + skew) mod spt */
  uint64_t spt;
  /* LBAs from this one on consecutive slots of this track (a slip,
     a spare, a remapped sector or the track's end stops the run). */
  uint64_t run;
  bool remapped;                /* a defect's replacement sector */
};

extern int geom_init (struct geom *, const struct hdd_params *,
                      char *err, size_t errlen);
extern void geom_locate (const struct geom *, uint64_t lba, struct loc *);
/* First LBA of a track (for tests and placement). */
extern uint64_t geom_track_lba (const struct geom *, uint64_t cyl,
                                uint64_t head);
extern unsigned geom_zone_of_cyl (const struct geom *, uint64_t cyl);
/* The first LBA after lba's track (spares and slips accounted). */
extern uint64_t geom_track_end (const struct geom *, uint64_t lba);
/* What DiskSim sums, in sectors, for the angle of a physical sector on
 * a track of an explicit table (its g1 layout's dm_pbn_skew): the
 * zone's first-sector offset, the track switches and the cylinder
 * steps since the zone's start (each times its skew), the slips that
 * turn the track (the per-cylinder and per-track sparing schemes),
 * then the sector.
 */
struct angle_parts {
  uint64_t spt, offset, track_skew, cyl_skew;
  uint64_t switches, cyls, turns;
};

extern void geom_angle_parts (const struct geom *, uint64_t cyl,
                              uint64_t head, struct angle_parts *);
/* Skew times actually used (auto values resolved), in ns. */
extern uint64_t geom_track_skew_ns (const struct hdd_params *);
extern uint64_t geom_cyl_skew_ns (const struct hdd_params *);

#endif /* HDDSIM_GEOMETRY_H */
