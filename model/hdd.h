/* hddsim: the modeled drive.
 *
 * One drive, one actuator.  All times are integer nanoseconds of
 * modeled time.  The model knows nothing of threads or clocks: every
 * call is given the modeled time it happens at, and the same calls
 * with the same parameters and seed give the same answers.
 */
#ifndef HDDSIM_HDD_H
#define HDDSIM_HDD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum io_op {
  IO_READ,
  IO_WRITE,
  IO_FLUSH,
  IO_TRIM,
  IO_ZERO,
};

#define IO_OP_COUNT 5

extern const char *io_op_name (enum io_op op);

/* One request as the drive sees it. */
struct io {
  enum io_op op;
  bool fua;                     /* write/zero: force unit access */
  uint64_t offset;              /* bytes from the start of the image */
  uint64_t length;              /* bytes; 0 for flush */
};

/* Where the time of one request went.  The parts add up to the
 * service time hdd_serve returns.
 */
struct hdd_cost {
  uint64_t busy_ns;             /* waiting for the arm: a destage write
                                   under way (only requests that need
                                   the arm wait; read-ahead is stopped
                                   at once), or for room in a full
                                   write cache */
  uint64_t overhead_ns;         /* command processing */
  uint64_t seek_ns;             /* arm movement, settle, head switch */
  uint64_t rot_ns;              /* waiting for the first sector */
  uint64_t xfer_ns;             /* media and interface transfer,
                                   including switches inside it */
  uint64_t seek_cylinders;      /* distance of the initial seek */
  bool cache_hit;               /* served from (or into) the drive's cache
                                   without touching the media */
  /* The tail (tail.h): what the drive's retries, its own work and its
     failing sectors did to this request. */
  uint64_t tail_ns;             /* of the parts above, what the tail
                                   added: waits for the drive's own work
                                   (in busy_ns), retry revolutions and a
                                   failure's limit (in rot_ns), a trip to
                                   a spare; hdd_estimate sees none of it
                                   (and after a wait the access itself
                                   may differ from the estimate's) */
  uint32_t retries;             /* revolutions retried */
  bool medium_error;            /* a read failed: unrecoverable */
  uint32_t reallocated;         /* sectors a write moved to spares */
  int32_t pending;              /* change in sectors pending */
  uint64_t wake_ns;             /* waiting for the drive to leave a power
                                   state: spin-up, heads loading
                                   (power_states.h) */
  uint64_t fault_ns;            /* what faults added: fail-slow, stalls
                                   (faults.h) */
  /* controller=disksim: the service time as DiskSim's own clock has
     it, the difference of two doubles in ms (model/dctl.h); DiskSim's
     demerit bins that.  0 otherwise. */
  double disksim_ms;
  uint64_t clean_ns;            /* of busy_ns, waiting for the drive to
                                   clean its media cache (an SMR drive's
                                   bands): forced cleaning for room, or
                                   a clean step under way */
};

static inline uint64_t
hdd_cost_total (const struct hdd_cost *c)
{
  return c->busy_ns + c->overhead_ns + c->seek_ns + c->rot_ns + c->xfer_ns
    + c->wake_ns + c->fault_ns;
}

/* Parameters: a drive's values, set one by one (profile/profile.h
 * loads a whole profile).  Defined by the model (params.h); callers
 * hold a pointer.
 */
struct hdd_params;

#define HDD_ERRLEN 256

extern struct hdd_params *hdd_params_copy (const struct hdd_params *);
extern void hdd_params_free (struct hdd_params *);

/* Set one parameter (e.g. "rpm", "7200").  0 ok; -1 bad value (err
 * names key and value); 1 key unknown to the model.
 */
extern int hdd_params_set (struct hdd_params *, const char *key,
                           const char *value, char *err, size_t errlen);

/* Check the whole set for consistency (after all overrides); -1 and
 * err if inconsistent (e.g. seek-track > seek-avg), naming the profile
 * file when the values came from one.
 */
extern int hdd_params_validate (const struct hdd_params *,
                                char *err, size_t errlen);

extern const char *hdd_params_profile_name (const struct hdd_params *);
/* The drive's capacity in bytes: what an image may hold at most. */
extern uint64_t hdd_params_capacity (const struct hdd_params *);
/* The largest transfer of one command (max-transfer=; 0 = unlimited). */
extern uint64_t hdd_params_max_transfer (const struct hdd_params *);
/* Whether the drive has platters (false for profile=fixed). */
extern bool hdd_params_rotates (const struct hdd_params *);
extern void hdd_params_print_help (FILE *fp);
extern void hdd_params_print_values (const struct hdd_params *, FILE *fp);

/* The drive.  'seed' fixes the platter's phase at time 0. */
struct hdd;

extern struct hdd *hdd_new (const struct hdd_params *, uint64_t image_bytes,
                            uint64_t seed, char *err, size_t errlen);
extern void hdd_free (struct hdd *);

/* Cost of serving r if it started at time t from the current state;
 * changes nothing (it runs hdd_serve on a copy that borrows the write
 * cache's dirty set and gives it back as it was, so, like every call
 * here, one at a time per drive).  Fills *out when out is not NULL.
 */
extern uint64_t hdd_estimate (const struct hdd *, const struct io *r,
                              uint64_t t, struct hdd_cost *out);
/* A pick's estimates: hdd_estimate_begin (d, t), any number of
 * hdd_estimate (d, ..., t), hdd_estimate_end (d), with nothing served
 * or idled between.  The same results as without them; the work every
 * estimate at t starts with (the background work up to t) is done
 * once.  Estimates at another time are made as usual.
 */
extern void hdd_estimate_begin (const struct hdd *, uint64_t t);
extern void hdd_estimate_end (const struct hdd *);

/* r would be served without positioning the arm for it, whatever the
 * drive's state and the time: its seek_ns and rot_ns are 0 (a write
 * into the write cache, a fast write, a trim, anything on
 * profile=fixed).  false says nothing: a read may still be a hit.
 * Cheaper than hdd_estimate, for policies that only want positioning.
 */
extern bool hdd_no_positioning (const struct hdd *, const struct io *r);

/* Serve r starting at t: update head, platter and cache state.
 * Returns the service time (r completes at t + result).
 */
extern uint64_t hdd_serve (struct hdd *, const struct io *r, uint64_t t,
                           struct hdd_cost *out);

/* The host has been quiet: let the drive run its background work
 * (read-ahead, destage) up to t.  t never goes backwards.  hdd_serve
 * and hdd_estimate do this themselves, so calling it first is optional.
 */
extern void hdd_idle (struct hdd *, uint64_t t);

/* ---- Media writes, for power-loss emulation ----
 *
 * The drive reports every write that reaches the platter: destage
 * pieces of the write cache (in the background, while a write waits
 * for room, for a flush), and the media writes of write-through, FUA,
 * cache=off and fast writes.  One event per run of image sectors (a
 * destage piece or a request's extent can map to several).  Events
 * come in the order the model computes them, which is the arm's
 * order; the estimate's copy of the drive never reports.
 */
struct hdd_media_write {
  uint64_t offset, length;      /* image bytes, sector aligned */
  uint64_t start_ns;            /* the arm begins (positioning) */
  uint64_t end_ns;              /* the run's last sector is written */
  /* true: the data of the request being served (its own media write,
     or a destage of what it has just put in the cache); false: what
     the cache held before that request. */
  bool own;
  /* How the model walked it, for hdd_media_written. */
  uint64_t walk_t, walk_lba, walk_n, walk_skip;
  uint64_t arm_cyl, arm_head;
  uint64_t bus_sector_ns, bus_done;
  bool bus;
};

typedef void (*hdd_media_fn) (void *opaque, const struct hdd_media_write *);

/* Install (or with fn NULL remove) the observer of media writes. */
extern void hdd_set_media_observer (struct hdd *, hdd_media_fn fn,
                                    void *opaque);

/* One clean step of the media cache (media_cache.h; on a DM-SMR drive
 * a band's read-modify-write): the arm's from start_ns to end_ns, for
 * the region of home addresses at image bytes [offset, offset+length)
 * (length 0: outside the image), merging 'extents' staged extents of
 * staged_bytes.  forced: the log or its map was full and a host write
 * waited for it; else the host had been idle (media-cache-idle=).
 */
struct hdd_clean {
  uint64_t start_ns, end_ns;
  uint64_t offset, length;
  uint64_t extents, staged_bytes;
  bool forced;
};

typedef void (*hdd_clean_fn) (void *opaque, const struct hdd_clean *);

/* Install (or with fn NULL remove) the observer of clean steps. */
extern void hdd_set_clean_observer (struct hdd *, hdd_clean_fn fn,
                                    void *opaque);

/* Sectors of event ev (from its first) on the media at time t, from
 * the walk the model charged: 0 before the first is written, all of
 * them from end_ns on.  With zero-latency-write=1 the sectors of a
 * track are counted as if written in LBA order.
 */
extern uint64_t hdd_media_written (const struct hdd *,
                                   const struct hdd_media_write *ev,
                                   uint64_t t);

/* The write-back cache's capacity in bytes; 0 unless cache=wb. */
extern uint64_t hdd_write_cache_bytes (const struct hdd *);

/* Byte offset the head is over (end of the last media access), for
 * policies that sweep.
 */
extern uint64_t hdd_head_offset (const struct hdd *);

/* max-transfer= of the drive's parameters (0 = unlimited). */
extern uint64_t hdd_max_transfer (const struct hdd *);

/* The drive's own command queue (SATA NCQ, SCSI TCQ): how many
 * commands it holds and the rule its firmware orders them by.  The
 * values are the drive's (profile parameters ncq-*=); the queue itself
 * is run by the scheduler's layer (sched/drive_queue.c), below the
 * host's policy, on the engine's clock.
 */
enum hdd_queue_order {
  HDD_QUEUE_RPO,                /* shortest positioning time first */
  HDD_QUEUE_FIFO,               /* the order received */
};

struct hdd_queue {
  uint64_t depth;               /* commands it holds; 1 = no queueing */
  int order;                    /* enum hdd_queue_order */
  uint64_t max_wait;            /* ns a command may wait before it is
                                   served first, oldest first; 0 = none */
  uint64_t overhead;            /* ns each command costs more when the
                                   drive queues (depth > 1) */
  uint64_t lookahead;           /* commands the rule looks at, the
                                   oldest first; 0 = all it holds */
};

/* ncq-*= of the drive's parameters. */
extern const struct hdd_queue *hdd_queue (const struct hdd *);

/* Bytes not yet on the media (volatile write cache), including a
 * destage write still under way, as of the latest time the drive was
 * given (the end of the last request served).
 */
extern uint64_t hdd_dirty_bytes (const struct hdd *);

/* ---- Actuators (actuators=; model/actuators.c) ----
 *
 * A drive has one arm, or two that each serve one half of the LBAs
 * (Seagate's Exos 2X SATA drives: one command queue for both).  The
 * engine keeps one command on each arm at once; the firmware's rule
 * picks among the commands for the arm that is free.
 */
#define HDD_ACTUATORS_MAX 2

extern unsigned hdd_actuators (const struct hdd *);
/* The arm that serves r (0 on a drive with one). */
extern unsigned hdd_actuator_of (const struct hdd *, const struct io *r);

/* A DM-SMR drive's persistent cache and cleaning (smr=1; all 0
 * otherwise): the log in use and its map's entries now, and the bands
 * cleaned and the time the arm spent cleaning them so far.
 */
struct hdd_smr_state {
  uint64_t logged_bytes;
  uint64_t map_entries;
  uint64_t bands_cleaned;
  uint64_t clean_ns;
};

extern void hdd_smr_state (const struct hdd *, struct hdd_smr_state *out);

#endif /* HDDSIM_HDD_H */
