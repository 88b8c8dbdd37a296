/* hddsim: DiskSim's layout (dm_layout_g1): zones, sparing, slips,
 * defects and the LBN-to-PBN mapping (layout_g1.c), read by
 * read_layout.c.
 */
#ifndef HDDSIM_DISKSIM_LAYOUT_G1_H
#define HDDSIM_DISKSIM_LAYOUT_G1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parv.h"

enum ds_sparing {
  DS_SPARE_NONE = 0,
  DS_SPARE_TRACKS_PER_ZONE = 1,         /* whole tracks at each zone's end */
  DS_SPARE_PER_CYL = 2,
  DS_SPARE_PER_TRACK = 3,
  DS_SPARE_PER_CYL_SLIPTOEND = 4,
  DS_SPARE_PER_CYL_FRONT = 5,
  DS_SPARE_PER_CYL_FRONT_SLIPTOEND = 6,
  DS_SPARE_END_OF_DISK = 7,
  DS_SPARE_PER_RANGE = 8,               /* 'Rangesize for sparing' cylinders */
  DS_SPARE_PER_ZONE = 9,
  DS_SPARE_PER_ZONE_SLIPTOEND = 10,
};

enum ds_mapping {
  DS_MAP_NORMAL = 0,            /* every surface of a cylinder in turn */
  DS_MAP_SERP_ZONE = 1,         /* odd cylinders of a zone: last surface first */
  DS_MAP_SERP_DISK = 2,         /* odd cylinders of the disk: likewise */
};

struct ds_zone {
  struct dsp_where at;          /* the zone's block */
  uint64_t first_cyl, last_cyl;
  uint64_t spt;                 /* physical sectors per track */
  double offset;                /* sectors: angle of the zone's first block */
  double track_skew, cyl_skew;  /* sectors */
  uint64_t deadspace;           /* LBN positions unused at the zone's front */
  uint64_t spares;              /* per unit of the sparing scheme */
  uint64_t *slips;              /* zone-relative physical sectors (tracks
                                   for DS_SPARE_TRACKS_PER_ZONE), sorted */
  uint64_t *slips_file;         /* the same in the file's order, which
                                   DiskSim's own mapping follows (NULL:
                                   a zone not read from a file) */
  size_t nslips;
  uint64_t *defect, *remap;     /* pairs, same units */
  size_t ndefects;
  /* Derived. */
  uint64_t first_lbn, nlbn;
  struct dsp_where slips_at, defects_at, spares_at, dead_at, offset_at,
    tskew_at, cskew_at, spt_at;
};

struct ds_layout {
  int mapping;                  /* enum ds_mapping */
  int sparing;                  /* enum ds_sparing */
  uint64_t rangesize;
  uint64_t surfaces, cylinders, blocks;
  uint64_t mapped;              /* LBNs the zones map (>= blocks) */
  unsigned nzones;
  struct ds_zone *zones;
  struct dsp_where at;
};

/* A physical block: cylinder, surface, sector in logical order on its
 * track (0 = the track's lowest LBN), and the angular slot it occupies
 * (sectors from the zone's angle zero: first-block offset plus skews).
 */
struct ds_pbn {
  uint64_t cyl, head, sector, slot;
  bool remapped;
};

/* LBN -> physical block, as the manual's sparing and mapping schemes
 * define it.  -1 if lbn is beyond the last block.
 */
extern int ds_layout_ltop (const struct ds_layout *, uint64_t lbn,
                           struct ds_pbn *out);

/* Compute each zone's first LBN and LBN count; check spares, slips and
 * defects against the scheme and that the zones map 'Block count'
 * blocks (they may map more: DiskSim only warns).
 */
extern int ds_layout_init (struct ds_layout *, char *err, size_t errlen);

#endif /* HDDSIM_DISKSIM_LAYOUT_G1_H */
