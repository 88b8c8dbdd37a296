/* hddsim: DiskSim 4.0's disk controller (controller=disksim): the
 * model's second engine, event by event as DiskSim's disk module runs
 * one disk in validate mode (src/disksim_diskctlr.c, disksim_diskcache.c,
 * diskmodel/mech_g1.c, read for the facts; docs/model.md "DiskSim's
 * controller").
 *
 * hdd.c hands it the requests of a drive whose parameters say
 * controller=disksim (the DiskSim import); it answers with service
 * times as DiskSim would, its own clock in picoseconds (DiskSim's
 * dm_time_t) and the platter's angle in DiskSim's fixed point (a
 * uint32 fraction of a revolution), so that the arithmetic's
 * truncations are DiskSim's too.
 *
 * Its state is plain data (indices, no pointers), so that hdd_estimate
 * copies it whole.  The files:
 *   dctl.c        events, requests in and out, the host's side
 *   dctl_hda.c    the mechanism: positioning, sector by sector
 *   dctl_bus.c    the bus: transfers, disconnects, reconnections
 *   dctl_seg.c    the buffer's segments
 *   dctl_mech.c   DiskSim's fixed-point mechanics
 *   dctl_layout.c DiskSim's g1 layout as its code maps, both ways
 */
#ifndef HDDSIM_DCTL_H
#define HDDSIM_DCTL_H

#include <stdbool.h>
#include <stdint.h>

#include "geometry.h"
#include "hdd.h"
#include "params.h"
#include "seek.h"

static inline int64_t
min_i64 (int64_t a, int64_t b)
{
  return a < b ? a : b;
}

static inline int64_t
max_i64 (int64_t a, int64_t b)
{
  return a > b ? a : b;
}

#ifdef DCTL_TRACE
#include <stdio.h>
#define TR(d, ...) (fprintf (stderr, "%15.6f ", (double) (d)->now / 1e9), \
                    fprintf (stderr, __VA_ARGS__), fputc ('\n', stderr))
#else
#define TR(d, ...) ((void) 0)
#endif

#define DCTL_SEGS_MAX 64
#define DCTL_REQS_MAX 16
#define DCTL_EVENTS_MAX 32
#define DCTL_NONE (-1)

/* A segment's data against the media (DiskSim's buffer state). */
enum dseg_state { SEG_EMPTY, SEG_CLEAN, SEG_DIRTY, SEG_READING,
                  SEG_WRITING };
/* A segment's data against the bus. */
enum dseg_out { OUT_PREEMPT, OUT_IDLE, OUT_CONTACTING, OUT_TRANSFERING };
/* What a request finds in the buffer. */
enum dhit { HIT_COLLISION = -1, HIT_NOMATCH, HIT_WHOLE, HIT_PARTIAL,
            HIT_PREPEND, HIT_APPEND };
/* The disk towards its bus. */
enum dbus_state { BUS_IDLE, BUS_TRANSFERING, BUS_WAIT };
/* The media access a segment has scheduled. */
enum dacc { ACC_NONE, ACC_SEEKDONE, ACC_SECTOR, ACC_GOTO_REMAP,
            ACC_GOT_REMAP };
/* Why the disk talks to the host. */
enum dcause { CAUSE_RECONNECT, CAUSE_DISCONNECT, CAUSE_COMPLETION,
              CAUSE_READY };

/* Request flags (a diskreq's in DiskSim). */
#define RQ_SEG_OWNED    0x01
#define RQ_HDA_OWNED    0x02
#define RQ_EXTRA_DISC   0x04
#define RQ_COMPL_SENT   0x08
#define RQ_COMPL_RECV   0x10

/* What the engine takes of the parameters (dctl_init). */
struct dctl_conf {
  uint64_t period;              /* ps a revolution (DiskSim's rotatetime) */
  uint64_t head_switch;         /* ps */
  int64_t write_delta;          /* ps added to a write's positioning */
  uint64_t per_request;         /* ps before a request is looked at */
  uint64_t cmd[2][2][2];        /* ps: [write][hit][after write] */
  uint64_t complete[2];         /* ps: read, write */
  uint64_t data_prep, resel_first, resel_other;
  uint64_t disc_read[2];        /* ps: after a read, after a write */
  uint64_t disc_write;
  uint64_t xd_command, xd_disc1, xd_inter, xd_disc2, xd_seekdelta;
  uint64_t min_seek;
  uint64_t blk_read, blk_write; /* ps a block crosses the bus */
  double water_read, water_write;
  bool water_by_req;
  bool hold_read, hold_write, never_disc, extra_disc;
  bool cache;                   /* Enable caching in buffer */
  int nsegs, segsize, wsegs;    /* segments, their blocks, dirty ones */
  bool dedicated;               /* segment 0 holds writes only */
  int contread;                 /* Buffer continuous read, 0-4 */
  int64_t ra_min, ra_max;       /* blocks */
  int keep;                     /* Read-ahead over requested: -1, 0, 1 */
  bool ra_idle_hit, read_free, almost, stop_in_sector;
  bool hits_on_write, immed_partial, read_direct, write_hit_stop;
  bool disc_in_seek, combine, prebuffer;
  bool sneaky_full, sneaky_partial, sneaky_inter;
  int fastwrite;                /* 0, 1, 2 */
  int preseek;                  /* 0, 1, 2 */
  bool immed_read, immed_write;
};

/* The media access a segment owns (DiskSim's seg->access). */
struct daccess {
  bool exists;                  /* DiskSim's seg->access != NULL */
  int type;                     /* enum dacc; ACC_NONE: not scheduled */
  bool read, background;
  int64_t blkno;
  int64_t cause;                /* physical sector on the track */
  int bcount;                   /* 0: first after positioning; 1; 2 */
  uint64_t time;
};

struct dseg {
  int state, outstate;
  int64_t start, end;           /* blocks held: [start, end) */
  int64_t minra, maxra;         /* read-ahead bounds (block after) */
  int64_t hold_blkno, hold_bcount;
  int64_t outbcount;
  int64_t size;
  int reqs;                     /* its requests, sorted by block */
  uint64_t time;                /* DiskSim's seg->time */
  struct daccess acc;
};

struct dreq {
  bool live;
  bool io;                      /* has a host request (not a prefetch) */
  bool read;
  bool queued;                  /* in the disk's queue, not started */
  bool in_queue;                /* in the queue at all */
  int64_t blkno, bcount;
  int64_t inblkno, outblkno;    /* the media's and the bus's progress */
  uint64_t overhead_done;
  unsigned flags;
  int hit, seg, seg_next, bus_next;
  int64_t watermark;
};

/* A message between disk and host (an interrupt and its answer). */
struct dmsg {
  int cause;                    /* enum dcause */
  int64_t blkno, bcount;
  bool read;
};

enum dev_kind { EV_ACCESS, EV_ANSWER, EV_XFER, EV_PREPARE, EV_ARRIVE };

struct dev {
  uint64_t time, seq;
  double time_ms;               /* the same time on DiskSim's clock */
  int kind;                     /* enum dev_kind */
  int arg;                      /* segment, or request */
  struct dmsg msg;
};

/* DiskSim's g1 layout's bands (dctl_layout.c), fixed once built. */
struct dlay {
  unsigned nbands;
  int64_t first[ZONES_MAX], blks[ZONES_MAX];
  unsigned slip0[ZONES_MAX], nslip[ZONES_MAX];
};

struct dctl {
  struct dctl_conf c;
  const struct hdd_params *p;   /* the drive's, never changed */
  const struct geom *g;
  const struct seek_curve *seek;
  uint64_t now;                 /* ps (DiskSim's simtime) */
  /* DiskSim's simtime itself, a double in ms: each event's time is
     the time of the event that scheduled it plus its delay, rounded to
     the double, as DiskSim adds them (dctl_schedule).  Only the
     service time reported to the demerit reads it: DiskSim bins the
     difference of two such doubles. */
  double now_ms;
  uint64_t seq;
  struct dev ev[DCTL_EVENTS_MAX];
  unsigned nev;
  struct dseg seg[DCTL_SEGS_MAX];
  int order[DCTL_SEGS_MAX];     /* the segment list, LRU first */
  int wseg;                     /* the dedicated write segment */
  struct dreq req[DCTL_REQS_MAX];
  int effhda, curhda, effbus, curbus, pendxfer, extradisc;
  int outstate;                 /* enum dbus_state */
  bool busowned;
  int buswait;                  /* messages on their way up */
  bool outwait;                 /* a transfer waits for data */
  struct dmsg outwait_msg;
  bool lastread;
  int numdirty;
  uint64_t starttrans;
  int64_t blksdone;
  /* The mechanism (DiskSim's mech_state). */
  uint64_t cyl, head;
  uint32_t theta;
  uint64_t currtime;
  int64_t track_low, track_high;
  int64_t immedstart, immedend;
  bool immed;
  unsigned spins;               /* steps since the arm last changed hands */
  bool livelock;                /* DiskSim's fpcheck would have stopped */
  uint64_t seek_stop;
  const struct dlay *lay;        /* DiskSim's bands, built once */
  /* The host's request: its end, once the completion is in. */
  int host;
  bool host_done;
  uint64_t host_at;
  double host_at_ms;            /* host_at on DiskSim's clock */
  /* Its first positioning and command overhead, for the cost
     breakdown. */
  bool positioned, host_whole_hit;
  uint64_t host_ov;
  uint64_t first_seek, first_latency, seek_cyls;
  /* hddsim's clock against ours: the last completion, in both. */
  uint64_t anchor_ns, anchor_ps;
  double anchor_ms;             /* anchor_ps on DiskSim's clock */
  /* Media writes go here (NULL: nobody asked). */
  hdd_media_fn media_fn;
  void *media_opaque;
};

/* ---- dctl.c ---- */
extern void dctl_init (struct dctl *, const struct hdd_params *,
                       const struct geom *, const struct seek_curve *,
                       const struct dlay *);
/* Serve a read or write of n blocks at lba arriving at t (ns); the
 * service time in ns.
 */
extern uint64_t dctl_serve (struct dctl *, bool read, int64_t lba,
                            int64_t n, uint64_t t, struct hdd_cost *);
extern void dctl_idle (struct dctl *, uint64_t t);
/* Blocks the buffer holds that are not on the media yet. */
extern uint64_t dctl_dirty_blocks (const struct dctl *);
/* The block after the last the head passed. */
extern int64_t dctl_head_lba (const struct dctl *);

/* Internal to the engine's files. */
extern void dctl_schedule (struct dctl *, uint64_t at, int kind, int arg,
                           const struct dmsg *);
extern bool dctl_unschedule_access (struct dctl *, int seg);
extern bool dctl_pending_one (const struct dctl *);
extern int dctl_next_queued (struct dctl *);
extern void dctl_queue_done (struct dctl *, int r);
extern void dctl_report_write (struct dctl *, int64_t lba, uint64_t start,
                               uint64_t end);
extern int dctl_new_req (struct dctl *);
extern void dctl_free_req (struct dctl *, int r);

/* ---- dctl_mech.c: DiskSim's mechanics ---- */
extern uint32_t dmech_rotate (const struct dctl *, uint64_t ps);
extern uint64_t dmech_rottime (const struct dctl *, uint32_t from,
                               uint32_t to);
extern uint64_t dmech_xfertime (const struct dctl *, uint64_t spt,
                                uint64_t n);
extern uint64_t dmech_seek (const struct dctl *, uint64_t cyl,
                            uint64_t head, bool read);
extern uint32_t dmech_angle (const struct dctl *, uint64_t cyl,
                             uint64_t head, uint64_t sector);
extern uint64_t dmech_latency (const struct dctl *, uint32_t theta,
                               uint64_t cyl, uint64_t head, uint64_t sector);

/* ---- dctl_layout.c: DiskSim's g1 layout, as its code maps ---- */
extern struct dlay *dlay_new (const struct hdd_params *);
/* Where a block lies (dm_translate_ltop): cylinder, head, physical
 * sector on the track; remapped to a defect's replacement.
 */
extern void dlay_ltop (const struct dctl *, int64_t lba, uint64_t *cyl,
                       uint64_t *head, uint64_t *sector, bool *remapped);
/* The sectors per track of a block's band (dm_get_sectors_lbn). */
extern uint64_t dlay_spt (const struct dctl *, int64_t lba);
/* The block at a physical sector, or -1 (slipped, spare), -2
 * (remapped); *remap: the sector is a defect's replacement.
 */
extern int64_t dlay_ptol (const struct dctl *, uint64_t cyl, uint64_t head,
                          uint64_t sector, bool *remap);
/* The track's first and last blocks (negative: none). */
extern void dlay_track (const struct dctl *, uint64_t cyl, uint64_t head,
                        int64_t *first, int64_t *last);

/* ---- dctl_seg.c: the buffer ---- */
extern int dseg_select (struct dctl *, int r, bool set_extradisc);
extern void dseg_set (struct dctl *, int r);
extern bool dseg_own (struct dctl *, int r);
extern int dseg_owner (struct dctl *, int s, bool effective);
extern void dseg_remove (struct dctl *, int r);
extern void dseg_wrap (struct dseg *, int64_t end);
extern bool dseg_overlap (const struct dseg *, int64_t blkno, int64_t n);
extern bool dseg_block_available (struct dctl *, int s, int64_t blkno);
extern int64_t dseg_max_readahead (struct dctl *, int s, int r);
extern void dseg_new_owner (struct dctl *, int s);
extern bool dseg_stopable (struct dctl *, int r);
extern bool dseg_enabled (struct dctl *, int r);
extern int64_t dseg_watermark (const struct dctl *, int64_t size,
                               int64_t bcount, bool read);

/* ---- dctl_hda.c: the mechanism ---- */
extern void dhda_check (struct dctl *, int r, bool check_bus);
extern void dhda_release (struct dctl *, int r);
extern void dhda_activate (struct dctl *, int r, bool setseg,
                           bool check_bus);
extern void dhda_prefetch_swap (struct dctl *);
extern void dhda_access_event (struct dctl *, int s);
extern bool dhda_step_done (struct dctl *, int r);

/* ---- dctl_bus.c: the bus ---- */
extern void dbus_send (struct dctl *, const struct dmsg *, uint64_t delay);
extern void dbus_check (struct dctl *, int r);
extern void dbus_answer (struct dctl *, const struct dmsg *);
extern void dbus_transfer_done (struct dctl *, const struct dmsg *);
extern void dbus_update_out (struct dctl *, int s);
extern void dbus_request_complete (struct dctl *, int r);
extern void dbus_prepare (struct dctl *, int r);

#endif /* HDDSIM_DCTL_H */
