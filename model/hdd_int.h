/* hddsim: the drive model's internals, shared by the model sources and the
 * model's unit tests (which need the geometry to aim at a cylinder).
 * Not part of the interface the engine and plugin use (model/hdd.h).
 */
#ifndef HDDSIM_HDD_INT_H
#define HDDSIM_HDD_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "hdd.h"

#define SECTOR 512
/* One minute in ns: 'rpm' revolutions take exactly this long, so the
 * platter's phase is exact in integer arithmetic (see rotation.c).
 */
#define NS_PER_MIN UINT64_C(60000000000)

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

  /* The largest transfer one command carries (bytes, a multiple of
   * SECTOR; 0 = unlimited): the engine serves a longer request as
   * consecutive commands (sched/engine.c).
   */
  uint64_t max_transfer;

  /* The drive's command queue (ncq-*=; hdd.h), depth 1 by default: a
   * drive without queueing, as every drive before NCQ.
   */
  struct hdd_queue queue;
};

/* ---- geometry.c ---- */

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
/* Skew times actually used (auto values resolved), in ns. */
extern uint64_t geom_track_skew_ns (const struct hdd_params *);
extern uint64_t geom_cyl_skew_ns (const struct hdd_params *);

/* ---- rotation.c ---- */

/* ns until angular slot 'slot' of a track with 'spt' sectors passes
 * under the head, at time t, for a platter whose phase at time 0 is
 * phase0 ns into a revolution.
 */
extern uint64_t rot_wait (uint64_t rpm, uint64_t phase0, uint64_t t,
                          uint64_t slot, uint64_t spt);
/* ns to pass n sectors of a track with spt sectors (rounded down). */
extern uint64_t rot_sectors_ns (uint64_t rpm, uint64_t spt, uint64_t n);
/* Whole sectors passed in 'ns' (the inverse, rounded down). */
extern uint64_t rot_sectors_in (uint64_t rpm, uint64_t spt, uint64_t ns);
extern uint64_t rot_rev_ns (uint64_t rpm);  /* rounded */

/* ---- seek.c ---- */

struct seek_curve {
  uint64_t maxd;                /* full stroke, cylinders */
  bool table;
  unsigned npoints;             /* point 0 is (0, 0) */
  uint64_t d[SEEK_TABLE_MAX + 1], t[SEEK_TABLE_MAX + 1];   /* cyl, ns */
  /* t(d) = a + b d^p for d < x; tangent line beyond, through full. */
  double a, b, p, x, slope;
  /* The positioning rule and its times (from the parameters). */
  int rule;                     /* enum position_rule */
  uint64_t write_settle, write_settle_neg, head_switch;
};

extern int seek_fit (struct seek_curve *, const struct hdd_params *,
                     const struct geom *, char *err, size_t errlen);
extern uint64_t seek_ns (const struct seek_curve *, uint64_t dist);
/* A seek-table's time at dist, from its points (d1, t1) and (d2, t2)
 * with d1 < d2: DiskSim's integer interpolation (and extrapolation
 * beyond d2) in picoseconds, rounded to ns; never below 0.
 */
extern uint64_t seek_table_interp (uint64_t d1, uint64_t t1, uint64_t d2,
                                   uint64_t t2, uint64_t dist);
/* Positioning under position-rule=disksim: seek over dist cylinders
 * and/or a head switch, then the write settle (see enum position_rule).
 */
extern uint64_t seek_position_disksim (const struct seek_curve *,
                                       uint64_t dist, bool head_change,
                                       bool write);
/* Mean over seeks between uniformly random LBAs (what seek-avg means). */
extern double seek_mean_random (const struct seek_curve *, const struct geom *);

/* ---- mech.c: the mechanism ---- */

struct arm {
  uint64_t cyl, head;
};

/* What the mechanism needs, fixed when the drive is built. */
struct mech {
  const struct geom *g;
  const struct seek_curve *seek;
  uint64_t write_settle, head_switch;
  uint64_t phase0;              /* platter's phase at time 0 */
  bool zl_read, zl_write;       /* zero-latency access (mech_access) */
};

/* Where a walk stopped early, and the last track boundary before. */
struct walk_stop {
  uint64_t at;                  /* stop at this time (UINT64_MAX: don't) */
  uint64_t done;                /* out: sectors transferred by 'at' */
  bool mark;                    /* out: a track boundary was passed */
  uint64_t mark_t, mark_lba;
  struct arm mark_arm;
};

/* The interface following a media read: each sector crosses it after
 * the media has read it, one at a time, 'sector_ns' each.  done: when
 * the interface is free (in: when it may begin; out: when the last
 * sector read so far has crossed).  For a write waiting for its data:
 * done is when the sectors before the track in hand are in.
 */
struct bus_follow {
  uint64_t sector_ns;
  uint64_t done;
};

/* Transfer n sectors from lba, starting at time t with the arm at *a:
 * position (seek or head switch), wait for the first sector, transfer,
 * track by track.  Returns the end time (or stop->at if it stops).
 * Adds to *c when not NULL.
 */
extern uint64_t mech_walk (const struct mech *, struct arm *, bool write,
                           uint64_t t, uint64_t lba, uint64_t n,
                           struct hdd_cost *c, struct walk_stop *stop);
/* mech_walk for a request's or a destage write's media access: with
 * zero-latency reads (writes) each track starts at the first requested
 * sector boundary under the head (mech.c).
 */
extern uint64_t mech_access (const struct mech *, struct arm *, bool write,
                             uint64_t t, uint64_t lba, uint64_t n,
                             struct hdd_cost *c);
/* mech_walk for a read whose sectors follow over the interface as they
 * are read (*bus updated, track by track); for a write
 * (write-waits-for-bus=1) whose sectors the head writes only once they
 * have crossed it, from bus->done on (mech.c bus_write_track).
 */
extern uint64_t mech_walk_bus (const struct mech *, struct arm *,
                               bool write,
                               uint64_t t, uint64_t lba, uint64_t n,
                               struct hdd_cost *c, struct bus_follow *bus);

/* ---- hdd_params.c: the parameters ---- */

extern void params_defaults (struct hdd_params *);
/* A profile file set 'key' (just set by hdd_params_set) at 'line'. */
extern void params_note_line (struct hdd_params *, const char *key,
                              unsigned line);
/* The checks that need no geometry (hdd_params_validate and hdd_new
 * add the geometry's and the seek fit's, through layout_new).
 */
extern int params_check (const struct hdd_params *, char *err,
                         size_t errlen);

/* ---- profile_load.c, profile_ini.c: the loader ---- */

/* Replace all values by a built-in profile's. */
extern int profile_apply (struct hdd_params *, const struct hdd_profile *,
                          char *err, size_t errlen);
/* A file loader's first step: the default profile's values, named
 * after the file (hdd_params_validate's errors then name it too).
 */
extern int profile_file_begin (struct hdd_params *, const char *path,
                               char *err, size_t errlen);
/* Load a profile file into p; -1 and err naming the file (and the line
 * where there is one) on error.  One per format, listed in
 * profile_load.c's profile_formats[].
 */
typedef int profile_file_loader (struct hdd_params *p, const char *path,
                                 char *err, size_t errlen);
extern profile_file_loader profile_load_ini;
extern profile_file_loader profile_load_disksim;   /* .parv, .diskspecs */

/* ---- layout.c: what the parameters fix once ---- */

/* placement=: image sectors to drive LBAs.  chunk == 0: the image is
 * at the start of the drive; else image chunk k (of 'chunk' sectors)
 * begins at drive LBA k * group.
 */
struct image_map {
  uint64_t image_sectors;
  uint64_t chunk, group;
};

struct drive_layout {
  struct geom g;
  struct seek_curve seek;
  struct image_map pl;
};

/* The one place the geometry is built and the seek curve fitted.
 * image_bytes 0: no image (parameter validation): no placement and
 * no size check.
 */
extern struct drive_layout *layout_new (const struct hdd_params *,
                                        uint64_t image_bytes,
                                        char *err, size_t errlen);
extern void layout_free (struct drive_layout *);
extern uint64_t place_image_to_lba (const struct image_map *, uint64_t s);
/* Image sectors from s that are contiguous on the drive. */
extern uint64_t place_contiguous_from (const struct image_map *, uint64_t s);
extern uint64_t place_lba_to_image (const struct image_map *, uint64_t lba);

/* Introspection for tests. */
extern const struct geom *hdd_geom (const struct hdd *);
extern const struct seek_curve *hdd_seek_curve (const struct hdd *);
extern const struct hdd_params *hdd_params_of (const struct hdd *);
/* Drive LBA of an image byte offset (placement applied). */
extern uint64_t hdd_image_to_lba (const struct hdd *, uint64_t offset);

#endif /* HDDSIM_HDD_INT_H */
