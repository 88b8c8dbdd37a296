/* hddsim: what DiskSim models of one disk (struct ds_drive), read from
 * its specification by ds_drive_load (disksim.h).
 */
#ifndef HDDSIM_DISKSIM_DRIVE_H
#define HDDSIM_DISKSIM_DRIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "disksim.h"
#include "parv.h"

/* ---- the layout (dm_layout_g1) ---- */

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

/* ---- the mechanics (dm_mech_g1) ---- */

enum ds_seek_type {
  DS_SEEK_CONSTANT, DS_SEEK_LINEAR, DS_SEEK_CURVE, DS_SEEK_HPL,
  DS_SEEK_HPLPLUS10, DS_SEEK_EXTRACTED,
};

struct ds_seek {
  int type;                     /* enum ds_seek_type */
  double constant, one, avg, full;      /* ms */
  double hpl[6];                /* V1 (cylinders), V2..V6 (ms) */
  double first10[10];           /* ms, distances 1..10 */
  size_t n;                     /* extracted curve */
  uint64_t *dist;
  double *ms;
  uint64_t cylinders;           /* for the curve (Lee) equation */
  struct dsp_where at;          /* 'Seek type' */
};

/* DiskSim's seek time for a distance in cylinders, in ms, without the
 * head switch and write settle that dm_seek_time adds.
 */
extern double ds_seek_ms (const struct ds_seek *, uint64_t dist);

/* Read an extracted seek curve ("Seek distances measured: N", then N
 * lines "DIST, TIME_MS[, STDEV]").
 */
extern int ds_seek_read_curve (struct ds_seek *, const char *path,
                               char *err, size_t errlen);

/* ---- the whole drive ---- */

struct ds_key {                 /* a value and where it was set */
  double v;
  struct dsp_where at;
  bool set;
};

struct ds_drive {
  char name[256];               /* the disksim_disk block's name */
  struct ds_layout layout;
  struct ds_seek seek;
  /* dm_mech_g1 */
  struct ds_key rpm, rpm_error, head_switch, write_settle, access_type;
  /* disksim_disk: cache and overheads (ms, blocks, flags) */
  struct ds_key bulk, per_request, overhead_scale;
  struct ds_key rhit_r, rhit_w, rmiss_r, rmiss_w, whit_r, whit_w,
    wmiss_r, wmiss_w, rcompl, wcompl;
  struct ds_key segments, seg_size, caching, cont_read, ra_min, ra_max,
    ra_over, ra_idle_hit, read_any_free, fast_write, combine;
  struct ds_key write_segs, sep_write_seg, low_wm, high_wm, wm_by_req;
  struct ds_key imm_read, imm_write, stop_pf_sector, write_hit_stop_pf,
    read_direct, imm_partial, hits_on_write, almost_hits;
  struct ds_key sneaky_full, sneaky_partial, sneaky_inter, prebuffer,
    preseek, max_queue, extra_disc, min_seek_delay;
  struct ds_key prep, resel1, resel, rdisc_r, rdisc_w, wdisc;
  struct ds_key never_disc, hold_read, hold_write, disc_write_seek;
  /* other components that change one disk's timing */
  struct ds_key bus_xfer, ctlr_xfer, ctlr_scale, driver_const;
  struct dsp_tree *tree;        /* the files' text: owns every dsp_where */
};

#endif /* HDDSIM_DISKSIM_DRIVE_H */
