/* hddsim: the drive's parameters: struct hdd_params, its limits and
 * what its enumerated fields mean.
 *
 * Public beyond the model, beside hdd.h, to the loaders that fill it
 * (profile/, disksim/): a loader sets values through hdd_params_set,
 * so that the parameter table's syntax and bounds apply, or writes
 * the fields themselves (the DiskSim loader's zone and seek tables).
 * The model's other headers are its own.
 */
#ifndef HDDSIM_PARAMS_H
#define HDDSIM_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hdd.h"
#include "power_states.h"

#define SECTOR 512

enum hdd_kind { KIND_MECH, KIND_FIXED };
enum cache_mode { CACHE_WB, CACHE_WT, CACHE_OFF };
enum placement { PLACE_START, PLACE_SPREAD };
enum layout { LAYOUT_CYLINDER, LAYOUT_SERPENTINE,
              /* zone-table= only: odd cylinders of a zone, or of the
                 disk, run their surfaces last first (DiskSim's
                 LBN-to-PBN mapping schemes 1 and 2). */
              LAYOUT_ALT_ZONE, LAYOUT_ALT_DISK };
/* How the arm's positioning is timed (seek.c):
 * HDDSIM: a seek when the cylinder changes (+ write-settle for a
 *   write), else a head switch when the surface changes;
 * DISKSIM: DiskSim's dm_mech_g1: the longer of seek and head switch,
 *   and a write adds write-settle - write-settle-neg to any positioning
 *   that is not zero (after a head switch too).
 */
enum position_rule { POSITION_HDDSIM, POSITION_DISKSIM };
/* cache-write-segment=: where a write's data stays (see cache.h). */
enum write_seg { WSEG_NONE, WSEG_SHARED, WSEG_SEPARATE };
/* readahead-hits=: which reads the read-ahead stream serves. */
enum ra_hits { RAHITS_AHEAD, RAHITS_ALMOST, RAHITS_READ };
/* readahead-stop=: when the arm, needed, leaves the read-ahead. */
enum ra_stop { RASTOP_NOW, RASTOP_SECTOR };
/* readahead-until=: where the read-ahead after a read ends. */
enum ra_until { RAUNTIL_SIZE, RAUNTIL_TRACK, RAUNTIL_CYL, RAUNTIL_NEXT_TRACK };
/* controller=: which engine serves the requests: hddsim's (hdd.c and
 * the cache, mech units), or DiskSim 4.0's disk controller, event by
 * event (dctl.h), for the DiskSim import.
 */
enum controller { CTLR_HDDSIM, CTLR_DISKSIM };
/* readahead-over=: DiskSim's 'Read-ahead over requested' (1, 0, -1). */
enum ra_over { RAOVER_NO, RAOVER_YES, RAOVER_DROP };
/* seek-avg-weight=: what seek-avg is the mean of (seek.c): seeks
 * between uniformly random LBAs, or the manufacturers' definition,
 * every seek length weighted by the track pairs that far apart.
 */
enum seek_weight { SEEKW_LBA, SEEKW_TRACKS };

/* The keys of DiskSim's disk module that only its controller
 * (controller=disksim) takes, in DiskSim's units: durations in ns (all
 * but min_seek and xd_inter already times 'Time scale for overheads',
 * which DiskSim does not apply to those two), water marks in millionths.
 */
struct ds_ctlr {
  uint64_t data_prep, resel_first, resel_other;
  uint64_t disc_read, disc_read_aw, disc_write;
  uint64_t extra_disc;          /* Extra write disconnect, 0 or 1 */
  uint64_t xd_command, xd_disc1, xd_inter, xd_disc2, xd_seekdelta;
  uint64_t min_seek;            /* Minimum seek delay (writes) */
  uint64_t water_read, water_write, water_by_req;
  uint64_t hold_read, hold_write, never_disc;
  uint64_t write_segs;          /* Maximum number of write segments */
  uint64_t ra_min, ra_max;      /* bytes */
  int keep;                     /* enum ra_over */
  uint64_t immed_partial, read_direct, write_hit_stop, disc_in_seek;
  uint64_t combine, prebuffer, sneaky_full, sneaky_partial, sneaky_inter;
  uint64_t preseek;             /* Preseeking level, 0-2 */
  uint64_t blk_read, blk_write; /* ns a block crosses the bus; 0: from
                                   iface-rate */
};

/* The most points a seek-table holds.  DIXtrac's extracted curves
 * (DiskSim's validation drives) have 64 to 138 points, one per
 * distance it measured (every distance up to ~10, then a few per
 * decade); 1024 leaves room for a denser extraction, and for a
 * formula (hpl, Lee's curve) tabulated to the nanosecond, while
 * keeping struct hdd_params, which is copied whole, at ~16 KiB.
 */
#define SEEK_TABLE_MAX 1024
#define PARAM_LINES_MAX 32
/* The longest seek any parameter may give (seek-track, seek-avg,
 * seek-full, each seek-table point and the table's extrapolation to
 * the full stroke): a drive's full stroke takes tens of milliseconds,
 * and a bound keeps a typo from stalling every request for days.
 */
#define SEEK_MAX_NS UINT64_C(1000000000)
#define PROFILE_NAME_MAX 256

/* ---- explicit layout (zone-table=, sparing=, sparing-range=, slips=,
 * defects=; geometry.c) ---- */

#define ZONES_MAX 256
#define SLIPS_MAX 1024
#define DEFECTS_MAX 256

/* sparing=: where each zone keeps its spare sectors, numbered as
 * DiskSim's 'Sparing scheme used' (Diskmodel manual, 1.4.2).
 */
enum sparing {
  SPARE_NONE, SPARE_TRACKS, SPARE_CYL, SPARE_TRACK, SPARE_CYL_SLIP,
  SPARE_CYL_FRONT, SPARE_CYL_FRONT_SLIP, SPARE_DISK_END, SPARE_RANGE,
  SPARE_ZONE, SPARE_ZONE_SLIP,
};

/* One zone-table= entry: all counts in sectors (of the zone's tracks). */
struct zone_spec {
  uint64_t first_cyl, last_cyl;
  uint64_t spt;                 /* physical sectors per track */
  uint64_t offset;              /* angle of the zone's first sector */
  uint64_t empty;               /* LBA positions unused at the front */
  uint64_t track_skew, cyl_skew;
  uint64_t spares;              /* per sparing unit */
};

/* slips= and defects=: zone-relative physical sectors (tracks with
 * sparing=tracks).
 */
struct slip_spec {
  unsigned zone;
  uint64_t at;
};

struct defect_spec {
  unsigned zone;
  uint64_t at, to;
};

/* ---- the tail and failing sectors (tail.c, badmap.c) ---- */

#define BAD_FILE_MAX 1024

/* The drive's own work and its read retries (issue 25's tail), and the
 * sectors that fail (bad-sectors=, lse-*=, erc=): one retry model, in
 * tail.c.  All 0 (off) by default; the built-in profiles set the
 * tail's rates, a DiskSim import never does.
 */
struct tail_params {
  uint64_t retry_rate;          /* media reads needing a retry, per
                                   million */
  uint64_t retry_success;       /* per million: a retry revolution reads
                                   the sector */
  uint64_t recal_interval;      /* ns between recalibrations; 0: none */
  uint64_t recal_time;          /* ns one takes (a request waits) */
  uint64_t idle_after;          /* ns of quiet before idle work; 0: none */
  uint64_t idle_step;           /* ns of one step of it (a request that
                                   comes waits for the step to end) */
  uint64_t erc;                 /* ns, SCT error recovery control; 0: off
                                   (recovery-limit) */
  uint64_t recovery_limit;      /* ns the drive retries a sector by itself */
  uint64_t weak_success;        /* per million: a retry of a weak sector
                                   reads it */
  char bad_file[BAD_FILE_MAX];  /* bad-sectors=: "" none */
  uint64_t lse_rate;            /* bursts of latent errors per TB (10^12
                                   bytes) of image, drawn from seed= */
  uint64_t lse_burst;           /* sectors of a burst, the mean */
  uint64_t lse_weak;            /* per million of them weak, not bad */
};

struct hdd_params {
  char profile[PROFILE_NAME_MAX];
  char description[PROFILE_NAME_MAX];
  char file[PROFILE_NAME_MAX];  /* the profile file loaded, or "" */
  /* The line of that file each key was set at (while no parameter
   * given later has set it again), for validation messages.
   */
  struct {
    const char *key;            /* a static string: the table's key */
    unsigned line;
  } lines[PARAM_LINES_MAX];
  unsigned nlines;
  int kind;                     /* enum hdd_kind; service= sets FIXED */
  uint64_t service;             /* ns, fixed service time */

  /* Geometry. */
  uint64_t capacity;            /* bytes */
  uint64_t rpm;
  uint64_t surfaces;
  uint64_t zones;
  uint64_t spt_outer;           /* sectors per track, outermost zone */
  uint64_t spt_inner;           /* sectors per track, innermost zone */
  uint64_t track_skew;          /* ns; 0 = just enough for a head switch */
  uint64_t cyl_skew;            /* ns; 0 = one-cylinder seek + write settle */
  int layout;                   /* enum layout */
  int placement;                /* enum placement */
  /* Explicit layout: nzt > 0 replaces zones=, sectors-outer=,
     sectors-inner=, track-skew= and cyl-skew=. */
  unsigned nzt;
  struct zone_spec zt[ZONES_MAX];
  int sparing;                  /* enum sparing */
  uint64_t sparing_range;       /* cylinders, sparing=range */
  unsigned nslips;
  struct slip_spec slips[SLIPS_MAX];
  unsigned ndefects;
  struct defect_spec defects[DEFECTS_MAX];

  /* Seek. */
  uint64_t seek_track;
  uint64_t seek_avg;
  uint64_t seek_full;
  unsigned seek_npoints;        /* > 0: a measured table replaces the curve */
  uint64_t seek_dist[SEEK_TABLE_MAX];
  uint64_t seek_time[SEEK_TABLE_MAX];
  uint64_t write_settle;
  uint64_t head_switch;
  /* ---- seek/settle rules (DiskSim import; seek.c) ---- */
  int position_rule;            /* enum position_rule */
  uint64_t write_settle_neg;    /* ns a write's positioning is shorter
                                   (DiskSim's negative write settle);
                                   position-rule=disksim only */

  /* Interface. */
  uint64_t iface_rate;          /* bytes/s */
  uint64_t overhead;            /* ns per command */

  /* Per-command overheads (DiskSim's controller), added to 'overhead';
   * all 0 by default.  cmd_overhead[write][hit][after_write]: a read or
   * write, answered by the cache (a read hit; a write under
   * write-back caching, whatever becomes of it) or not, when the
   * previous read or write the drive completed was a write.  The
   * completion overheads come after the last byte has crossed the
   * interface.  See cmd_overhead_ns in hdd.c.
   */
  uint64_t cmd_overhead[2][2][2];
  uint64_t read_complete;       /* ns */
  uint64_t write_complete;      /* ns */

  /* Cache. */
  int cache;                    /* enum cache_mode */
  uint64_t cache_size;          /* bytes */
  uint64_t cache_segments;
  uint64_t readahead;           /* bytes; 0 = off */
  uint64_t write_entries;       /* write-cache-entries=: dirty ranges
                                   the write cache holds at most, each
                                   in a segment of its own; 0 = bytes
                                   alone (legacy=true: ignored) */

  /* Cache: segment rules (DiskSim's).  The defaults are the model as
   * it was, so the built-in profiles keep their timelines.
   */
  int write_seg;                /* enum write_seg; NONE: writes leave
                                   the read segments alone */
  uint64_t write_hits;          /* 1: reads hit data a write left in a
                                   segment (Allow read hits on write
                                   data) */
  uint64_t partial_hits;        /* 1: a read whose start a segment holds
                                   reads only the rest from the media */
  int ra_hits;                  /* enum ra_hits */
  int ra_stop;                  /* enum ra_stop */
  uint64_t ra_on_hit;           /* 1: a full hit in a segment reads
                                   ahead from the segment's end */
  int ra_until;                 /* enum ra_until */
  uint64_t read_free;           /* 1: a read miss keeps the sectors of its
                                   track before it that pass under the
                                   head while it waits (Read any free
                                   blocks) */
  uint64_t phase_zero;          /* 1: the platter is at angle 0 at time
                                   0, as DiskSim's, instead of at a phase
                                   drawn from seed= */
  uint64_t fast_write;          /* DiskSim's Fast write level, with
                                   cache=wt: 0 off; 1, 2: a write
                                   completes when its data has crossed
                                   the interface, the media write runs
                                   on and the next request waits for
                                   it, unless it appends (cache.h) */

  /* Zero-latency access (DiskSim's Immediate buffer read, write) and
   * the read-ahead that keeps the request (Read-ahead over requested =
   * 0); docs/model.md "Zero-latency access".  Off by default.
   */
  uint64_t zl_read;             /* 1: a read starts at the first of its
                                   sectors that passes under the head */
  uint64_t zl_write;            /* 1: so does a write */
  uint64_t ra_keep;             /* 1: read-ahead ends where its segment
                                   would no longer hold the request */

  /* A media write waits for its data (DiskSim's: a sector is written
   * only if its data has crossed the interface when the head reaches
   * it, else on its next pass); docs/model.md "Writes waiting for the
   * interface".  Off by default.
   */
  uint64_t write_bus;           /* 1: as DiskSim (mech.c bus_write_track) */

  /* The engine (controller=) and DiskSim's controller's own keys. */
  int controller;               /* enum controller */
  struct ds_ctlr ds;

  /* The largest transfer one command carries (bytes, a multiple of
   * SECTOR; 0 = unlimited): the engine serves a longer request as
   * consecutive commands (sched/engine.c).
   */
  uint64_t max_transfer;

  /* The drive's command queue (ncq-*=; hdd.h), depth 1 by default: a
   * drive without queueing, as every drive before NCQ.
   */
  struct hdd_queue queue;

  /* legacy=true: the drive of the builds before issue 25, so that a
   * run can be compared with them (docs/model.md "The legacy
   * setting").  Every behaviour issue 25 added reads this one field and
   * is off when it is set: the write cache's bound (write-cache-entries=,
   * cache.c), the media cache (media_cache.c) and the tail (read
   * retries, recalibration, idle housekeeping).
   */
  bool legacy;
  struct tail_params tail;

  /* The media cache (media-cache-*=; media_cache.h, docs/model.md
   * "The media cache"): mc_size 0 = none.
   */
  uint64_t mc_size;             /* bytes of the log */
  uint64_t mc_at;               /* where it is: a drive byte offset */
  uint64_t mc_entries;          /* the map's extents at most */
  uint64_t mc_max_write;        /* bytes: longer writes go home */
  uint64_t mc_region;           /* bytes of home LBAs cleaned at once */
  uint64_t mc_idle;             /* ns the host is quiet before cleaning */
  uint64_t mc_overhead;         /* ns the firmware takes per staged
                                   write (its map), after the media */

  /* Appended (issue 26): seek-avg-weight= (enum seek_weight) and
   * actuators= (0 or 1: one arm; 2: each serves half the LBAs,
   * actuators.c).
   */
  int seek_weight;
  uint64_t actuators;

  /* Drive-managed shingled recording (smr.h, docs/smr.md); off
   * unless smr=1.  Its persistent cache is the media cache above
   * (media-cache-*=), its bands the media cache's regions.
   */
  uint64_t smr;                 /* 1: DM-SMR */
  uint64_t smr_band_outer;      /* bytes, a band at LBA 0 */
  uint64_t smr_band_inner;      /* bytes, a band at the last LBA */
  uint64_t smr_seq_min;         /* bytes: commands this large, beginning
                                   or continuing a band, go in place */
  uint64_t smr_aged;            /* percent of the media cache full at
                                   start */

  /* Power states (power_states.h), by enum hdd_power_state (IDLE_A to
   * STANDBY): the idle time before the drive enters each (idle-a=,
   * idle-b=, idle-c=, standby=; 0 = never, the default) and the time
   * the next command waits to leave it (idle-a-recovery=, ...,
   * spinup=; the profile's).
   */
  uint64_t power_timer[HDD_PS_COUNT];
  uint64_t power_recovery[HDD_PS_COUNT];
};

/* ---- hdd_params.c ---- */

extern void params_defaults (struct hdd_params *);
/* A profile file set 'key' (just set by hdd_params_set) at 'line'. */
extern void params_note_line (struct hdd_params *, const char *key,
                              unsigned line);
/* The checks that need no geometry (hdd_params_validate and hdd_new
 * add the geometry's and the seek fit's, through layout_new).
 */
extern int params_check (const struct hdd_params *, char *err,
                         size_t errlen);

#endif /* HDDSIM_PARAMS_H */
