/* hddsim: the drive (see hdd.h): request service and the estimate.
 *
 * State: the arm (cylinder and surface under the heads), the platter's
 * phase (a function of time and seed, see rotation.c) and the cache
 * (cache.c: read segments, the read-ahead stream, the dirty data of
 * the write cache).  hdd_serve runs one request from a given time;
 * hdd_idle lets the drive do its background work while the host is
 * quiet.
 *
 * The host interface and the arm work independently, as on a real
 * drive: a cache hit or a write into the cache is served while the arm
 * goes on with its background work, and only a request that needs the
 * arm waits for that work.  Background work is the read-ahead after a
 * read, then destaging the write cache, back to back for as long as
 * there is dirty data.  Read-ahead is preemptive (a request that needs
 * the arm stops it at once, keeping the sectors read so far); a
 * destage write is not (the request waits for it to end: busy_ns).
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "actuators.h"
#include "cache.h"
#include "dctl.h"
#include "extents.h"
#include "fault_bad.h"
#include "faults.h"
#include "geometry.h"
#include "inspect.h"
#include "layout.h"
#include "mech.h"
#include "media_cache.h"
#include "params.h"
#include "power_states.h"
#include "rotation.h"
#include "seek.h"
#include "tail.h"
#include "smr.h"
#include "../common/u64.h"

#define NEVER UINT64_MAX
/* The memo's slots: 2^REACH_MEMO_BITS (72 KiB).  Its index is the top
 * bits of a Fibonacci hash, so the bits must match the size: with 256
 * slots indexed by 8 bits, the 32 dirty ranges collided often enough
 * that two of them evicted each other at every pick (60,875 locates on
 * 20,000 requests of bench/replay-rate, 27,530 with 1,024 slots).
 */
#define REACH_MEMO_BITS 10
#define REACH_MEMO (1u << REACH_MEMO_BITS)

struct reach_memo {
  uint64_t lba;                 /* NEVER: empty */
  struct loc l;
};

struct hdd {
  struct hdd_params p;
  /* Immutable once built; shared with the scratch copy. */
  struct drive_layout *lay;     /* NULL for profile=fixed */
  const struct geom *g;         /* &lay->g */
  const struct image_map *pl;   /* &lay->pl */
  struct mech mech;
  uint64_t image_sectors;

  uint64_t cyl, head;           /* the arm */
  uint64_t head_lba;            /* next LBA after the last media access */
  uint64_t mech_free;           /* end of the last mechanical operation */
  uint64_t now;                 /* the latest time we were given */
  uint64_t fixed_head;          /* profile=fixed: byte offset */
  bool last_write;              /* the last read or write was a write */
  /* fast-write: the last write's media write ends at fw_end (the arm's
     last work while mech_free == fw_end); fw_tail is the LBA after its
     data, fw_n its sectors. */
  uint64_t fw_end, fw_tail, fw_n;
  struct cache cache;
  /* The media cache (media_cache.h; off unless media-cache-size=), and
     the end of the last host command, from which the host is idle. */
  struct media_cache mc;
  uint64_t host_end;
  /* Where the dirty ranges Write Cache Reordering looked at lie
     (destage_reach_ns), direct-mapped by LBA: the geometry never
     changes, so a pick costs a seek and a rotational wait per range,
     not a locate and a walk.  Out of line, shared with the scratch
     copy (what it holds is the geometry's, whoever fills it). */
  struct reach_memo *memo;
  struct smr smr;               /* DM-SMR on the media cache (smr.h);
                                   off unless smr=1 */
  /* Media writes go to media_fn (NULL: nobody asked; always NULL in
     the scratch copy).  own_first, own_end: the image sectors the
     request being served has put in the write cache so far. */
  hdd_media_fn media_fn;
  void *media_opaque;
  hdd_clean_fn clean_fn;        /* clean steps (NULL: nobody asked) */
  void *clean_opaque;
  uint64_t own_first, own_end;

  /* controller=disksim: DiskSim's disk controller serves instead. */
  struct dctl dc;
  struct dlay *dlay;            /* its bands (the scratch copy shares) */

  /* Retries, the drive's own work, failing sectors (tail.h); the
     scratch copy shares it and never uses it. */
  struct tail tail;
  /* Power states and faults (power_states.h, faults.h): state of the
     drive's, so the estimate's copy has them too. */
  struct power_states ps;
  struct faults faults;

  struct hdd *scratch;          /* hdd_estimate runs in this copy;
                                   NULL in the copy itself */
  struct actuators *act;        /* actuators=2: the two arms serve;
                                   NULL with one (actuators.c) */
  struct estimate_base *base;   /* hdd_estimate_begin's; NULL in the
                                   copies */
};

/* The estimates of one pick (hdd_estimate_begin) start from 'h', the
 * drive's state run on to t as every one of them would run it first;
 * built at the first estimate (ready), given back by hdd_estimate_end.
 */
struct estimate_base {
  struct hdd h;
  uint64_t t;
  bool open, ready;
};

static bool
disksim_ctlr (const struct hdd *d)
{
  return d->p.controller == CTLR_DISKSIM;
}

/* The scratch copy an estimate runs in: every drive has one, the copy
 * none.  What only the state after a request needs can be left undone
 * there.
 */
static inline bool
is_scratch (const struct hdd *d)
{
  return d->scratch == NULL;
}

const char *
io_op_name (enum io_op op)
{
  switch (op) {
  case IO_READ: return "read";
  case IO_WRITE: return "write";
  case IO_FLUSH: return "flush";
  case IO_TRIM: return "trim";
  case IO_ZERO: return "zero";
  }
  return "?";
}

static uint64_t
iface_ns (const struct hdd *d, uint64_t sectors)
{
  unsigned __int128 b = (unsigned __int128) sectors * SECTOR * 1000000000;

  return (uint64_t) ((b + d->p.iface_rate - 1) / d->p.iface_rate);
}

/* The command overhead of a read or write (hit: see struct
 * hdd_params): DiskSim charges a class by what the command is and what
 * the one before it was, for the controller's state it finds.
 */
static uint64_t
cmd_overhead_ns (const struct hdd *d, bool write, bool hit)
{
  return d->p.overhead + d->p.cmd_overhead[write][hit][d->last_write];
}

/* A write is in the "hit" class whenever write-back caching or fast
 * writes are on, as in DiskSim (where fast writes decide it, not where the data goes).
 */
static bool
write_hit_class (const struct hdd *d)
{
  return d->p.cache == CACHE_WB || d->p.fast_write != 0;
}

/* ---- placement (layout.c) ---- */

static uint64_t
image_to_lba (const struct hdd *d, uint64_t s)
{
  return place_image_to_lba (d->pl, s);
}

static uint64_t
contiguous_from (const struct hdd *d, uint64_t s)
{
  return place_contiguous_from (d->pl, s);
}

uint64_t
hdd_image_to_lba (const struct hdd *d, uint64_t offset)
{
  return image_to_lba (d, offset / SECTOR);
}

/* ---- the arm ---- */

static struct arm
arm_of (const struct hdd *d)
{
  return (struct arm) { d->cyl, d->head };
}

static void
set_arm (struct hdd *d, const struct arm *a, uint64_t head_lba)
{
  d->cyl = a->cyl;
  d->head = a->head;
  d->head_lba = head_lba;
}

static uint64_t arm_wait (struct hdd *, uint64_t t, struct hdd_cost *);

/* ---- reporting media writes (hdd_set_media_observer) ---- */

void
hdd_set_media_observer (struct hdd *d, hdd_media_fn fn, void *opaque)
{
  if (d->act) {
    actuators_set_media_observer (d->act, fn, opaque);
    return;
  }
  d->media_fn = fn;
  d->media_opaque = opaque;
  d->dc.media_fn = fn;
  d->dc.media_opaque = opaque;
}

void
hdd_set_clean_observer (struct hdd *d, hdd_clean_fn fn, void *opaque)
{
  if (d->act) {
    actuators_set_clean_observer (d->act, fn, opaque);
    return;
  }
  d->clean_fn = fn;
  d->clean_opaque = opaque;
}

/* When the walk of ev has written its first k sectors: the same walk,
 * cut short (a track's sectors pass under the head in order, so the
 * first k take the same time in both).
 */
static uint64_t
walk_prefix_end (const struct hdd *d, const struct hdd_media_write *ev,
                 uint64_t k)
{
  struct arm a = { ev->arm_cyl, ev->arm_head };

  if (ev->bus) {
    struct bus_follow b = { ev->bus_sector_ns, ev->bus_done };
    return mech_walk_bus (&d->mech, &a, true, ev->walk_t, ev->walk_lba, k,
                          NULL, &b);
  }
  return mech_access (&d->mech, &a, true, ev->walk_t, ev->walk_lba, k,
                      NULL);
}

uint64_t
hdd_media_written (const struct hdd *d, const struct hdd_media_write *ev,
                   uint64_t t)
{
  if (d->act)
    return actuators_media_written (d->act, ev, t);
  uint64_t lo = 0, hi = ev->walk_n, n = ev->length / SECTOR;

  if (t >= ev->end_ns)
    return n;
  /* The longest prefix of the walk written by t. */
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    if (walk_prefix_end (d, ev, mid) <= t)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo <= ev->walk_skip ? 0 : min64 (lo - ev->walk_skip, n);
}

/* One run of image sectors [s, s+n) of the walk w, to the observer. */
static void
report_run (struct hdd *d, struct hdd_media_write w, uint64_t s, uint64_t n,
            uint64_t skip, bool own)
{
  w.offset = s * SECTOR;
  w.length = n * SECTOR;
  w.walk_skip = skip;
  w.own = own;
  if (skip + n < w.walk_n)
    w.end_ns = walk_prefix_end (d, &w, skip + n);
  d->media_fn (d->media_opaque, &w);
}

/* Image run [s, s+n) at skip in the walk: split where the request
 * being served's own sectors begin and end.
 */
static void
report_split_own (struct hdd *d, const struct hdd_media_write *w,
                  uint64_t s, uint64_t n, uint64_t skip)
{
  uint64_t end = s + n;

  while (s < end) {
    bool own = s >= d->own_first && s < d->own_end;
    uint64_t k = end - s;

    if (own)
      k = min64 (k, d->own_end - s);
    else if (s < d->own_first)
      k = min64 (k, d->own_first - s);
    report_run (d, *w, s, k, skip, own);
    s += k;
    skip += k;
  }
}

/* The media write of LBAs [lba, lba+n), walked from t with the arm at
 * *a (and the interface at *bus, when the data followed it), ending at
 * end: one event per run of image sectors.  own: the request's own
 * data (else a destage piece).
 */
static void
report_walk (struct hdd *d, uint64_t t, const struct arm *a,
             const struct bus_follow *bus, uint64_t lba, uint64_t n,
             uint64_t end, bool own)
{
  struct hdd_media_write w = {
    .start_ns = t, .end_ns = end, .walk_t = t, .walk_lba = lba, .walk_n = n,
    .arm_cyl = a->cyl, .arm_head = a->head, .bus = bus != NULL,
    .bus_sector_ns = bus ? bus->sector_ns : 0, .bus_done = bus ? bus->done : 0,
  };
  uint64_t skip = 0;

  if (!d->media_fn)
    return;
  while (skip < n) {
    uint64_t s = place_lba_to_image (d->pl, lba + skip);
    uint64_t k = min64 (n - skip, contiguous_from (d, s));

    if (own)
      report_run (d, w, s, k, skip, true);
    else
      report_split_own (d, &w, s, k, skip);
    skip += k;
  }
}

/* The arm is needed at t: stop reading ahead (the arm may be busy a
 * little longer, to end a sector: media() and destage_one() wait).
 */
static void
stream_stop (struct hdd *d, uint64_t t)
{
  struct arm a;
  uint64_t lba, free_at;

  if (cache_stream_stop (&d->cache, t, &a, &lba, &free_at)) {
    set_arm (d, &a, lba);
    if (free_at > t) {
      d->mech_free = max64 (d->mech_free, free_at);
      d->cache.inflight = 0;    /* no destage write while reading ahead */
    }
  }
}

/* What the arm takes from 'destage_at' to the start of a write at lba:
 * positioning and rotational wait.
 */
struct destage_probe {
  struct hdd *d;
  uint64_t t;
};

/* Where lba lies: from the memo, or located and kept there. */
static const struct loc *
memo_locate (struct hdd *d, uint64_t lba)
{
  struct reach_memo *m =
    &d->memo[(lba * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - REACH_MEMO_BITS)];

  if (m->lba != lba) {
    m->lba = lba;
    geom_locate (d->g, lba, &m->l);
  }
  return &m->l;
}

static uint64_t
destage_reach_ns (void *ctx, uint64_t lba, uint64_t below)
{
  const struct destage_probe *pr = ctx;
  struct arm a = arm_of (pr->d);

  return mech_reach_ns (&pr->d->mech, &a, true, pr->t,
                        memo_locate (pr->d, lba), below);
}

/* The next destage write from t: the range the arm reaches soonest
 * (Write Cache Reordering, cache.c) when the entries are bounded, else
 * (and with legacy=true, as before issue 25) the next in C-LOOK order.
 */
static bool
destage_pick (struct hdd *d, uint64_t t, struct extent *piece)
{
  struct destage_probe pr = { d, t };

  if (d->cache.max_entries == 0)
    return cache_destage_next (&d->cache, d->head_lba, piece);
  return cache_destage_reordered (&d->cache, destage_reach_ns, &pr, piece);
}

static uint64_t smr_media_write (struct hdd *, uint64_t lba, uint64_t n,
                                 uint64_t t, struct hdd_cost *, bool own);

/* Write one piece of dirty data (destage_pick's) from time t;
 * returns the end time.
 */
static uint64_t
destage_one (struct hdd *d, uint64_t t, struct hdd_cost *c)
{
  struct extent piece;
  struct arm a = arm_of (d);
  struct arm a0;
  uint64_t t0;

  if (!cache_has_dirty (&d->cache))
    return t;
  t = c ? arm_wait (d, t, c) : max64 (t, d->mech_free);
  if (!destage_pick (d, t, &piece))
    return t;
  a0 = a;
  t0 = t;
  if (d->smr.on) {
    t = smr_media_write (d, piece.lba, piece.n, t, c, false);
  }
  else {
    t = mech_access (&d->mech, &a, true, t, piece.lba, piece.n, c);
    report_walk (d, t0, &a0, NULL, piece.lba, piece.n, t, false);
    set_arm (d, &a, piece.lba + piece.n);
  }
  d->cache.inflight = piece.n;
  cache_mark_clean (&d->cache, piece.lba, piece.n);
  return t;
}

/* ---- the media cache (media_cache.h) ---- */

/* The cleaner's mover: the arm reads or writes drive LBAs. */
static uint64_t
mc_arm_access (void *ctx, bool write, uint64_t t, uint64_t lba, uint64_t n,
               struct hdd_cost *c)
{
  struct hdd *d = ctx;
  struct arm a = arm_of (d);

  t = mech_access (&d->mech, &a, write, t, lba, n, c);
  set_arm (d, &a, lba + n);
  return t;
}

/* A clean step of the job from t0 to t, to the observer. */
static void
report_clean (struct hdd *d, const struct mc_job *job, uint64_t t0,
              uint64_t t, bool forced)
{
  struct hdd_clean ev = {
    .start_ns = t0, .end_ns = t, .extents = job->count, .forced = forced,
  };
  const struct mc_extent *e;
  uint64_t first = place_lba_to_image (d->pl, job->lba);

  if (!d->clean_fn || is_scratch (d))
    return;
  ev.offset = first * SECTOR;
  ev.length = (place_lba_to_image (d->pl, job->lba + job->n) - first)
    * SECTOR;
  for (e = mc_job_first (&d->mc, job); e; e = mc_job_next (&d->mc, job, e))
    ev.staged_bytes += e->n * SECTOR;
  d->clean_fn (d->clean_opaque, &ev);
}

/* One clean step from t (the arm free then): returns its end.  Like a
 * destage write, it is not preempted: a request that needs the arm
 * waits for it (busy_ns, and clean_ns).  forced: a host write waits
 * for room (else the host is idle).
 */
static uint64_t
mc_clean_step (struct hdd *d, uint64_t t, struct hdd_cost *c, bool forced)
{
  const struct mc_mover mv = { mc_arm_access, d };
  struct mc_job job;

  uint64_t t0 = t;

  if (!mc_next_job (&d->mc, &job))
    return t;
  t = mc_clean (&d->mc, &job, &mv, t, c);
  report_clean (d, &job, t0, t, forced);
  mc_clean_done (&d->mc, &job);
  d->mc.clean_ns += t - t0;
  if (t0 != d->mc.clean_end)
    d->mc.clean_from = t0;      /* a new run of clean steps */
  d->mc.clean_end = t;
  d->mech_free = t;
  d->cache.inflight = 0;
  return t;
}

/* The host has been quiet for media-cache-idle since its last command:
 * clean, step by step, up to t.
 */
static void
mc_idle_clean (struct hdd *d, uint64_t t)
{
  uint64_t s;

  if (!mc_has_staged (&d->mc))
    return;
  s = max64 (d->mech_free, d->host_end + d->mc.idle_ns);
  while (mc_has_staged (&d->mc) && s < t)
    s = mc_clean_step (d, s, NULL, false);
}

/* The background work up to t: finish the read-ahead, then destage. */
static void
background (struct hdd *d, uint64_t t)
{
  uint64_t s;

  if (d->p.kind == KIND_FIXED)
    return;
  if (disksim_ctlr (d)) {
    dctl_idle (&d->dc, t);
    return;
  }
  if (d->cache.st.active) {
    struct arm a;
    uint64_t lba, end;
    if (!cache_stream_finish (&d->cache, t, &a, &lba, &end))
      return;
    set_arm (d, &a, lba);
    d->mech_free = max64 (d->mech_free, end);
  }
  s = max64 (d->mech_free, d->cache.dirty_since);
  while (cache_has_dirty (&d->cache) && s < t) {
    s = destage_one (d, s, NULL);
    d->mech_free = s;
  }
  if (!cache_has_dirty (&d->cache))
    mc_idle_clean (d, t);
}

void
hdd_idle (struct hdd *d, uint64_t t)
{
  if (d->act) {
    actuators_idle (d->act, t);
    return;
  }
  faults_fire_due (&d->faults, t, d, !is_scratch (d));
  d->now = max64 (d->now, t);
  background (d, t);
}

/* ---- requests ---- */

struct req_span {
  uint64_t first, n;            /* image sectors */
};

static struct req_span
span_of (const struct hdd *d, const struct io *r)
{
  uint64_t first = r->offset / SECTOR;
  uint64_t end = (r->offset + r->length + SECTOR - 1) / SECTOR;

  end = min64 (end, d->image_sectors);
  first = min64 (first, end);
  return (struct req_span) { first, end - first };
}

/* Media access for image sectors [first, first+n), extent by extent. */
static uint64_t
media (struct hdd *d, bool write, uint64_t t, struct req_span sp,
       struct hdd_cost *c, uint64_t *last_lba, uint64_t *last_n,
       struct bus_follow *bus)
{
  uint64_t s = sp.first, end = sp.first + sp.n;
  struct arm a = arm_of (d);

  t = arm_wait (d, t, c);
  while (s < end) {
    uint64_t n = min64 (end - s, contiguous_from (d, s));
    uint64_t lba = image_to_lba (d, s);
    struct arm a0 = a;

    if (!write)                 /* staged pieces are read from the log */
      mc_piece (&d->mc, lba, n, &lba, &n);
    struct bus_follow bus0 = bus ? *bus : (struct bus_follow) { 0 };
    uint64_t t0 = t;

    uint64_t head = lba + n;

    if (bus)
      t = mech_walk_bus (&d->mech, &a, write, t, lba, n, c, bus);
    else
      t = mech_access (&d->mech, &a, write, t, lba, n, c);
    if (write)
      report_walk (d, t0, &a0, bus ? &bus0 : NULL, lba, n, t, true);
    set_arm (d, &a, head);
    if (write)
      cache_write_done (&d->cache, lba, n);
    if (write && d->p.cache == CACHE_WB)
      cache_mark_clean (&d->cache, lba, n);
    *last_lba = lba;
    *last_n = n;
    s += n;
  }
  d->mech_free = t;
  return t;
}

static bool
single_extent (const struct hdd *d, struct req_span sp, uint64_t *lba)
{
  *lba = image_to_lba (d, sp.first);
  return sp.n <= contiguous_from (d, sp.first);
}

/* How long after t 'at' comes (0 if it has passed). */
static uint64_t
ns_after (uint64_t at, uint64_t t)
{
  return at > t ? at - t : 0;
}

/* A read the stream is about to complete, from t: its sectors cross
 * the interface as they arrive (as a media read's, see mech.c), after
 * those already in (from lba to 'reached').  The last crossing ends at
 * the latest of: all of them from the end of the overhead; the first
 * sector still to come, then it and those after it (an interface
 * slower than the media); the last one, then it (a faster one).
 */
static uint64_t
stream_wait_ns (struct hdd *d, uint64_t lba, uint64_t n, uint64_t reached,
                uint64_t t, uint64_t ov)
{
  uint64_t k = max64 (lba, reached);
  uint64_t first = cache_stream_time_to (&d->cache, k + 1);
  uint64_t last = cache_stream_time_to (&d->cache, lba + n);

  return max64 (max64 (ov + iface_ns (d, n),
                       ns_after (first, t) + iface_ns (d, lba + n - k)),
                ns_after (last, t) + iface_ns (d, 1));
}

/* A read the stream has read, or is about to (it has got to
 * 'reached' by t): the cost (a hit's
 * overhead either way: the data is on its way into the segment).
 */
static uint64_t
read_from_stream (struct hdd *d, uint64_t lba, uint64_t n, uint64_t t,
                  uint64_t reached, struct hdd_cost *c)
{
  uint64_t ov = cmd_overhead_ns (d, false, true), xf = iface_ns (d, n), total;

  c->overhead_ns = ov;
  if (lba + n <= reached) {
    c->xfer_ns = xf;
    c->cache_hit = true;
    total = ov + xf;
  }
  else {
    total = stream_wait_ns (d, lba, n, reached, t, ov);
    c->xfer_ns = total - ov;
  }
  cache_stream_use (&d->cache, lba, n);
  return total;
}

/* A read the cache can answer, or the stream is about to: the cost,
 * or NEVER if the media must be read.
 */
static uint64_t
read_cached (struct hdd *d, struct req_span sp, uint64_t t,
             struct hdd_cost *c)
{
  uint64_t lba, reached;

  if (d->p.cache == CACHE_OFF || !single_extent (d, sp, &lba))
    return NEVER;
  /* A sector it cannot read is never in the cache (tail.h): the media
     read tries it, and fails or recovers there. */
  if (tail_unreadable (&d->tail, sp.first, sp.n))
    return NEVER;
  if (cache_stream_covers (&d->cache, lba, t, &reached))
    return read_from_stream (d, lba, sp.n, t, reached, c);
  if (cache_seg_holds (&d->cache, lba, sp.n)) {
    struct arm a = arm_of (d);
    cache_hit_readahead (&d->cache, lba, sp.n, max64 (t, d->mech_free), &a);
  }
  else if (!cache_dirty_holds (&d->cache, lba, sp.n))
    return NEVER;
  c->overhead_ns = cmd_overhead_ns (d, false, true);
  c->xfer_ns = iface_ns (d, sp.n);
  c->cache_hit = true;
  return c->overhead_ns + c->xfer_ns;
}

/* Sectors the cache holds at t: dirty ones, and those of a destage
 * write still under way.
 */
static uint64_t
cached_sectors (const struct hdd *d, uint64_t t)
{
  return cache_dirty_sectors (&d->cache)
    + (d->mech_free > t ? d->cache.inflight : 0);
}

/* Of a wait for the arm from t to until, the time it spends in the
 * last run of clean steps (one under way, or those a destage write
 * under way forced before its own write).
 */
static uint64_t
clean_between (const struct hdd *d, uint64_t t, uint64_t until)
{
  uint64_t from = max64 (t, d->mc.clean_from);
  uint64_t to = min64 (until, d->mc.clean_end);

  return d->mc.on && to > from ? to - from : 0;
}

/* A request that needs the arm waits for the destage write under way,
 * and for the drive's own work (tail.h: a recalibration, idle work).
 */
static uint64_t
arm_wait (struct hdd *d, uint64_t t, struct hdd_cost *c)
{
  uint64_t w;

  if (d->mech_free > t) {
    c->busy_ns += d->mech_free - t;
    c->clean_ns += clean_between (d, t, d->mech_free);
    t = d->mech_free;
  }
  if (is_scratch (d))
    return t;
  w = tail_arm_free (&d->tail, t, max64 (d->tail.last_end, d->mech_free));
  if (w > t) {                  /* the arm was the drive's until w */
    c->busy_ns += w - t;
    c->tail_ns += w - t;
    d->mech_free = w;
  }
  return w;
}

/* ---- the tail's failing sectors (tail.h) ---- */

/* Image sectors [first, first+n) have one moved to a spare: the arm
 * goes there after the access (spares at the drive's end) and
 * transfers it, from end; returns when it is done.
 */
static uint64_t
spare_trip (struct hdd *d, uint64_t first, uint64_t n, bool write,
            uint64_t end, struct hdd_cost *c)
{
  struct arm a = arm_of (d);
  uint64_t spare = d->g->sectors - 1, t0 = end;

  if (!tail_remapped (&d->tail, first, n))
    return end;
  end = mech_access (&d->mech, &a, write, end, spare, 1, c);
  set_arm (d, &a, spare + 1);
  c->tail_ns += end - t0;
  d->mech_free = end;
  return end;
}

/* The media read of image sectors [first, first+n) ended at end: its
 * retries (whole revolutions: the platter is where it was), or its
 * failure at the recovery limit, then any trip to a spare.  Returns
 * the new end; *plain: none of it happened.
 */
static uint64_t
read_tail (struct hdd *d, uint64_t first, uint64_t n, uint64_t end,
           struct hdd_cost *c, bool *plain)
{
  struct tail_result r;
  uint64_t e;

  *plain = true;
  if (is_scratch (d) || n == 0 || !tail_active (&d->tail))
    return end;
  tail_read (&d->tail, first, n, &r);
  end += r.ns;
  c->rot_ns += r.ns;
  c->tail_ns += r.ns;
  c->retries += r.retries;
  c->pending += r.pending;
  c->medium_error = c->medium_error || r.failed;
  d->mech_free = end;
  e = r.failed ? end : spare_trip (d, first, n, false, end, c);
  *plain = !r.failed && e == end;
  return e;
}

/* ---- fast-write (DiskSim's Fast write level 1 and 2) ----
 *
 * DiskSim (src/disksim_diskctlr.c) completes a write to the host when
 * its last block has crossed the bus into its segment; the media write,
 * begun after the command overhead, goes on meanwhile, and the segment
 * stays busy until it ends.  A request arriving before then waits for
 * it (reads too, hits included: the drive serves nothing while it
 * writes), except a write that appends to it (starts at the block
 * after the data being written, with fewer than a segment's blocks
 * still to write): the media write takes it on without stopping.
 * Level 1 lets only a write that is the drive's one pending request
 * append, level 2 any; hddsim's drive holds one request at a time, so
 * the two are alike.
 */

/* The fast write's media write is under way at t. */
static bool
fast_write_busy (const struct hdd *d, uint64_t t)
{
  return d->p.fast_write != 0 && d->fw_end > t && d->mech_free == d->fw_end;
}

/* A request arriving at t waits for the fast write's media write. */
static uint64_t
fast_write_wait (struct hdd *d, uint64_t t, struct hdd_cost *c)
{
  if (!fast_write_busy (d, t))
    return t;
  c->busy_ns += d->fw_end - t;
  return d->fw_end;
}

/* DiskSim's BUFFER_APPEND with the segment still writing: the write
 * starts where the data being written ends, and fewer than a segment's
 * blocks are left to write (the last write's, a bound: the media is
 * past its start).
 */
static bool
fast_write_appends (const struct hdd *d, struct req_span sp, uint64_t t)
{
  uint64_t lba;

  return fast_write_busy (d, t) && single_extent (d, sp, &lba)
    && lba == d->fw_tail && d->fw_n < d->cache.seg_sectors;
}

static uint64_t
serve_fast_write (struct hdd *d, struct req_span sp, uint64_t t,
                  struct hdd_cost *c)
{
  uint64_t ov = cmd_overhead_ns (d, true, true), start, bus_done, end;
  uint64_t lba, n;
  struct hdd_cost arm = { 0 };  /* the media's: the host does not wait */

  if (fast_write_appends (d, sp, t)) {
    start = t;
    end = media (d, true, d->fw_end, sp, &arm, &lba, &n, NULL);
  }
  else {
    struct hdd_cost wait = { 0 };

    /* DiskSim runs the command overhead from the write's arrival, while
       the drive is still busy (the last fast write's media write): the
       data crosses the bus, and the media write starts, once both are
       over.  START is where a serial overhead would begin. */
    start = arm_wait (d, t, &wait);
    stream_stop (d, start);
    start = max64 (start, t + ov) - ov;
    c->busy_ns += start - t;
    end = media (d, true, start + ov, sp, &arm, &lba, &n, NULL);
  }
  /* The next request comes after bus_done: were the media write to
     end sooner (an interface slower than the media: DiskSim's media
     would wait for the data), nothing could tell. */
  bus_done = start + ov + iface_ns (d, sp.n);
  d->mech_free = d->fw_end = end;
  d->fw_tail = lba + n;
  d->fw_n = sp.n;
  c->overhead_ns = ov;
  c->xfer_ns = iface_ns (d, sp.n);
  c->cache_hit = true;
  return bus_done - t;
}

/* lba is in the media cache's log (a read's piece staged there): the
 * read segments keep home data only.
 */
static bool
in_media_cache (const struct hdd *d, uint64_t lba)
{
  return d->mc.on && lba >= d->mc.log_lba
    && lba < d->mc.log_lba + d->mc.log_sectors;
}

/* When a read's data may start over the interface.  DiskSim
 * (disk_read_arrive) starts the media after the read-miss overhead, but
 * a partial hit's data (k cached sectors first) only after the read-hit
 * one, as for a whole hit.
 */
static uint64_t
bus_overhead_ns (const struct hdd *d, uint64_t miss_ov, uint64_t k)
{
  return k > 0 ? cmd_overhead_ns (d, false, true) : miss_ov;
}

static uint64_t
serve_read (struct hdd *d, struct req_span sp, uint64_t t,
            struct hdd_cost *c)
{
  uint64_t t0 = t, ov = cmd_overhead_ns (d, false, false), k;
  uint64_t cost, end, done, lba = 0, n = 0, rot;
  struct bus_follow bus;
  bool plain;

  t = fast_write_wait (d, t, c);
  cost = read_cached (d, sp, t, c);
  if (cost != NEVER)
    return cost + (t - t0);
  t = arm_wait (d, t, c);
  stream_stop (d, t);
  /* A partial hit: the cached sectors go over the interface first,
     while the arm fetches the rest; the media's sectors follow as they
     are read (the last after it is read, or later if the interface is
     the slower). */
  k = d->p.cache != CACHE_OFF && single_extent (d, sp, &lba)
    ? cache_seg_prefix (&d->cache, lba, sp.n) : 0;
  c->overhead_ns = ov;
  bus = (struct bus_follow) { iface_ns (d, 1),
                              t + bus_overhead_ns (d, ov, k) + iface_ns (d, k) };
  end = media (d, false, t + ov,
               (struct req_span) { sp.first + k, sp.n - k }, c, &lba, &n,
               &bus);
  rot = c->rot_ns;
  end = read_tail (d, sp.first + k, sp.n - k, end, c, &plain);
  done = max64 (end + iface_ns (d, 1), bus.done);
  c->xfer_ns += done - end;
  /* The cost is known: what the segment keeps only changes the state
     an estimate throws away.  A read the tail failed, or sent to a
     spare, keeps nothing; nor does one the media cache served. */
  if (d->p.cache != CACHE_OFF && n > 0 && !is_scratch (d)
      && plain && !in_media_cache (d, lba)) {
    struct arm a = arm_of (d);
    /* One extent: the first positioning's wait was on its track. */
    cache_read_done (&d->cache, lba, n, end, &a,
                     n == sp.n - k ? rot : 0, n == sp.n - k ? k : 0);
  }
  return done - t0;
}

/* The first sector of the log's track holding h, from h on, that
 * the head reaches after positioning there from t, with n sectors
 * after it on the track and in the log; NEVER if none.
 */
static uint64_t
mc_land_on_track (const struct hdd *d, uint64_t t, uint64_t h, uint64_t n)
{
  uint64_t q, j, end = d->mc.log_lba + d->mc.log_sectors;
  struct arm a = arm_of (d);
  struct hdd_cost c1 = { 0 };
  struct loc l;

  geom_locate (d->g, h, &l);
  if (n > l.run || h + n > end)
    return NEVER;
  mech_access (&d->mech, &a, true, t, h, 1, &c1);
  q = rot_sectors_in (d->g->rpm, l.spt, c1.rot_ns);
  if (q == 0)
    return h;
  /* Slot h + (spt - q) comes round within a sector of the wait's
     whole sectors; rounding may leave it just passed: then the next. */
  for (j = l.spt - q; j <= l.spt - q + 2; j++) {
    struct hdd_cost cj = { 0 };
    if (j + n > l.run || h + j + n > end)
      return NEVER;             /* past the track's end: the next */
    a = arm_of (d);
    mech_access (&d->mech, &a, true, t, h + j, 1, &cj);
    if (cj.rot_ns < c1.rot_ns)
      return h + j;
  }
  return h;
}

/* Where a staged write of n sectors goes: the log's next sector the
 * head reaches first, from the head of the log on, on its track (or
 * the next track's, when the rest of that one is too short): the drive
 * appends where the head lands rather than wait a revolution for the
 * head of the log, and the sectors it skips stay unused until the log
 * wraps.
 */
static uint64_t
mc_landing (const struct hdd *d, uint64_t t, uint64_t n)
{
  uint64_t h = mc_log_head (&d->mc, n), at;

  at = mc_land_on_track (d, t, h, n);
  if (at == NEVER) {
    at = mc_land_on_track (d, t, geom_track_end (d->g, h), n);
    if (at == NEVER)
      at = h;
  }
  return at;
}

/* Wait, cleaning, until the media cache has room for [lba, lba+n):
 * the host's write stalls (busy_ns).
 */
static uint64_t
mc_make_room (struct hdd *d, uint64_t t, uint64_t lba, uint64_t n,
              struct hdd_cost *c)
{
  while (!mc_has_room (&d->mc, lba, n) && mc_has_staged (&d->mc)) {
    uint64_t s = mc_clean_step (d, t, NULL, true);
    c->busy_ns += s - t;
    c->clean_ns += s - t;
    t = s;
  }
  return t;
}

/* A write staged in the media cache: appended to its log where the
 * head lands, once there is room.  Its data is on the media (the log)
 * when it completes.
 */
static uint64_t
serve_staged_write (struct hdd *d, uint64_t first, uint64_t lba, uint64_t n,
                    uint64_t t, struct hdd_cost *c)
{
  uint64_t ov = cmd_overhead_ns (d, true, write_hit_class (d));
  uint64_t t0 = t, at, end, wait_bus;
  struct arm a;

  t = arm_wait (d, t, c);
  stream_stop (d, t);
  c->overhead_ns = ov;
  t = mc_make_room (d, t + ov, lba, n, c);
  at = mc_landing (d, t, n);
  a = arm_of (d);
  end = mech_access (&d->mech, &a, true, t, at, n, c);
  if (d->media_fn) {            /* all of it, or none, at its end */
    struct hdd_media_write w = {
      .offset = first * SECTOR, .length = n * SECTOR, .start_ns = t,
      .end_ns = end, .own = true,
    };
    d->media_fn (d->media_opaque, &w);
  }
  set_arm (d, &a, at + n);
  d->mech_free = end;
  cache_write_done (&d->cache, lba, n);
  if (d->p.cache == CACHE_WB)
    cache_mark_clean (&d->cache, lba, n);
  if (!is_scratch (d))          /* the cost is known */
    mc_stage (&d->mc, lba, n, at);
  /* The data must have crossed the interface before it is written. */
  wait_bus = ns_after (t + iface_ns (d, n), end);
  c->xfer_ns += wait_bus;
  c->overhead_ns += d->mc.overhead_ns;
  return end + wait_bus + d->mc.overhead_ns - t0;
}

/* ---- DM-SMR (smr.h): media writes, home or to the log ---- */

/* Drive LBAs [lba, lba+n) to the media from t, the arm free: run by
 * run, what the host's commands sent home (smr_classify) home, the
 * rest appended to the media cache's log (cleaning first while it is
 * full: the wait goes to c->busy_ns).  own: the data of the request
 * being served (else a destage piece).  Returns the end.
 */
static uint64_t
smr_media_write (struct hdd *d, uint64_t lba, uint64_t n, uint64_t t,
                 struct hdd_cost *c, bool own)
{
  struct hdd_cost none = { 0 };

  if (!c)
    c = &none;                  /* the arm's own time: nobody waits */
  while (n > 0) {
    bool home;
    uint64_t k = smr_run (&d->smr, lba, n, &home), t0 = t, at;
    struct arm a0 = arm_of (d), a = a0;

    if (home || !mc_wants (&d->mc, lba, k)) {
      at = lba;
      t = mech_access (&d->mech, &a, true, t, lba, k, c);
      mc_forget (&d->mc, lba, k);       /* the band has the newest */
      smr_written_home (&d->smr, lba, k);
    }
    else {
      t = mc_make_room (d, t, lba, k, c);
      t0 = t;
      a0 = a = arm_of (d);
      at = mc_landing (d, t, k);
      t = mech_access (&d->mech, &a, true, t, at, k, c);
      if (!is_scratch (d))      /* the cost is known */
        mc_stage (&d->mc, lba, k, at);
    }
    report_walk (d, t0, &a0, NULL, lba, k, t, own);
    set_arm (d, &a, at + k);
    d->mech_free = t;
    lba += k;
    n -= k;
  }
  return t;
}

/* A host write reaching the media on a DM-SMR drive (write cache off,
 * or FUA): the command's overhead, then its runs (smr_media_write).
 */
static uint64_t
serve_smr_write (struct hdd *d, struct req_span sp, uint64_t t,
                 struct hdd_cost *c)
{
  uint64_t ov = cmd_overhead_ns (d, true, write_hit_class (d));
  uint64_t t0 = t, s = sp.first, end = sp.first + sp.n, e, total;

  t = arm_wait (d, t, c);
  stream_stop (d, t);
  c->overhead_ns = ov;
  e = t + ov;
  while (s < end) {
    uint64_t k = min64 (end - s, contiguous_from (d, s));
    uint64_t lba = image_to_lba (d, s);
    e = smr_media_write (d, lba, k, e, c, true);
    cache_write_done (&d->cache, lba, k);
    if (d->p.cache == CACHE_WB)
      cache_mark_clean (&d->cache, lba, k);
    s += k;
  }
  /* The data must have crossed the interface before it is written. */
  total = max64 (e - t, ov + iface_ns (d, sp.n));
  c->xfer_ns += total - (e - t);
  return total + (t - t0);
}

static uint64_t
serve_media_write (struct hdd *d, struct req_span sp, uint64_t t,
                   struct hdd_cost *c)
{
  uint64_t lba, n, end, total, t0 = t;
  uint64_t ov = cmd_overhead_ns (d, true, write_hit_class (d));

  if (d->smr.on)
    return serve_smr_write (d, sp, t, c);
  if (single_extent (d, sp, &lba) && mc_wants (&d->mc, lba, sp.n))
    return serve_staged_write (d, sp.first, lba, sp.n, t, c);
  t = arm_wait (d, t, c);
  stream_stop (d, t);
  c->overhead_ns = ov;
  end = media (d, true, t + ov, sp, c, &lba, &n, d->p.write_bus
               ? &(struct bus_follow) { iface_ns (d, 1), t + ov } : NULL);
  if (!is_scratch (d))
    end = spare_trip (d, sp.first, sp.n, true, end, c);
  /* The data must have crossed the interface before it is written. */
  total = max64 (end - t, ov + iface_ns (d, sp.n));
  c->xfer_ns += total - (end - t);
  return total + (t - t0);
}

/* At t the write cache has no room for [lba, lba+n): not the bytes,
 * or not a segment for a range of its own (cache_entries_full).
 */
static bool
no_room (const struct hdd *d, uint64_t t, uint64_t lba, uint64_t n)
{
  bool destaging = d->mech_free > t && d->cache.inflight > 0;

  return cached_sectors (d, t) + n - cache_dirty_overlap (&d->cache, lba, n)
    > d->cache.cache_sectors
    || cache_entries_full (&d->cache, lba, n, destaging);
}

/* No room for n more sectors at [lba, lba+n): wait while the arm
 * destages, back to back, until there is.  The write waits from its
 * arrival, not from when the destage write under way began.  Returns
 * when there is room.
 */
static uint64_t
wait_for_room (struct hdd *d, uint64_t t, uint64_t lba, uint64_t n,
               uint64_t *clean_ns)
{
  while (no_room (d, t, lba, n)) {
    if (d->mech_free > t) {             /* a destage write ends */
      *clean_ns += clean_between (d, t, d->mech_free);  /* its cleaning */
      t = d->mech_free;
    }
    else if (cache_has_dirty (&d->cache)) {     /* start the next one */
      stream_stop (d, t);
      d->mech_free = destage_one (d, max64 (t, d->cache.dirty_since), NULL);
    }
    else
      break;
  }
  return t;
}

static uint64_t
serve_cached_write (struct hdd *d, struct req_span sp, uint64_t t,
                    struct hdd_cost *c)
{
  uint64_t s, end = sp.first + sp.n, start = t, total;
  bool was_clean = !cache_has_dirty (&d->cache);

  d->own_first = d->own_end = sp.first;

  for (s = sp.first; s < end; ) {
    uint64_t n = min64 (end - s, contiguous_from (d, s));
    uint64_t lba = image_to_lba (d, s);

    t = wait_for_room (d, t, lba, n, &c->clean_ns);
    cache_mark_dirty (&d->cache, lba, n);
    cache_write_done (&d->cache, lba, n);
    s += n;
    d->own_end = s;
  }
  c->busy_ns = t - start;
  c->overhead_ns = cmd_overhead_ns (d, true, true);
  c->xfer_ns = iface_ns (d, sp.n);
  c->cache_hit = true;
  total = t - start + c->overhead_ns + c->xfer_ns;
  if (was_clean)
    d->cache.dirty_since = start + total;
  return total;
}

static uint64_t
serve_flush (struct hdd *d, uint64_t t, struct hdd_cost *c)
{
  uint64_t s;

  c->overhead_ns = d->p.overhead;
  if (cached_sectors (d, t) == 0 && !fast_write_busy (d, t))
    return d->p.overhead;
  s = arm_wait (d, t, c);
  stream_stop (d, s);
  s += d->p.overhead;
  while (cache_has_dirty (&d->cache))
    s = destage_one (d, s, c);
  d->mech_free = s;
  d->cache.inflight = 0;        /* on the media when the flush completes */
  return s - t;
}

/* A read or write is over: the completion overhead, and what the next
 * command's overhead class will find.
 */
static uint64_t
complete (struct hdd *d, bool write, uint64_t total, struct hdd_cost *c)
{
  uint64_t ov = write ? d->p.write_complete : d->p.read_complete;

  c->overhead_ns += ov;
  d->last_write = write;
  return total + ov;
}

/* Which way a write goes (serve_write; hdd_no_positioning). */
static bool
takes_fast_write (const struct hdd *d, const struct io *r, struct req_span sp)
{
  return d->p.fast_write != 0 && !r->fua && sp.n > 0;
}

static bool
takes_media_write (const struct hdd *d, const struct io *r,
                   struct req_span sp)
{
  return d->p.cache != CACHE_WB || r->fua || sp.n > d->cache.cache_sectors;
}

/* DM-SMR: where the command's data will go is the command's (smr.h). */
static void
smr_arrive (struct hdd *d, struct req_span sp)
{
  uint64_t s = sp.first, end = sp.first + sp.n;

  while (s < end) {
    uint64_t n = min64 (end - s, contiguous_from (d, s));
    smr_classify (&d->smr, image_to_lba (d, s), n);
    s += n;
  }
}

static uint64_t
serve_write (struct hdd *d, const struct io *r, struct req_span sp,
             uint64_t t, struct hdd_cost *c)
{
  /* A bad sector written goes to a spare (SMART's reallocation). */
  if (!is_scratch (d) && tail_active (&d->tail)) {
    struct tail_result tr;
    tail_write (&d->tail, sp.first, sp.n, &tr);
    c->reallocated += tr.reallocated;
    c->pending += tr.pending;
  }
  if (d->smr.on)
    smr_arrive (d, sp);
  if (takes_fast_write (d, r, sp))
    return serve_fast_write (d, sp, t, c);
  if (takes_media_write (d, r, sp))
    return serve_media_write (d, sp, t, c);
  return serve_cached_write (d, sp, t, c);
}

/* DiskSim's controller serves reads and writes (a forced-unit-access
 * write as any other: DiskSim has none); a flush waits for the media
 * to have every write, a trim costs nothing.
 */
static uint64_t
serve_disksim (struct hdd *d, const struct io *r, uint64_t t,
               struct hdd_cost *c)
{
  struct req_span sp = span_of (d, r);
  uint64_t s;

  switch (r->op) {
  case IO_READ:
  case IO_WRITE:
  case IO_ZERO:
    return dctl_serve (&d->dc, r->op == IO_READ, (int64_t) sp.first,
                       (int64_t) sp.n, t, c);
  case IO_FLUSH:
    for (s = t; dctl_dirty_blocks (&d->dc) > 0; s += 1000)
      dctl_idle (&d->dc, s);
    c->busy_ns = s - t;
    return s - t;
  case IO_TRIM:
    break;
  }
  return 0;
}

static uint64_t
serve_mech (struct hdd *d, const struct io *r, uint64_t t,
            struct hdd_cost *c)
{
  struct req_span sp = span_of (d, r);

  if (disksim_ctlr (d))
    return serve_disksim (d, r, t, c);

  switch (r->op) {
  case IO_READ:
    return complete (d, false, serve_read (d, sp, t, c), c);
  case IO_WRITE:
  case IO_ZERO:
    return complete (d, true, serve_write (d, r, sp, t, c), c);
  case IO_FLUSH:
    return serve_flush (d, t, c);
  case IO_TRIM:
    break;
  }
  c->overhead_ns = d->p.overhead;
  return d->p.overhead;
}

/* Power states: the command at t first waits for the drive to leave
 * the state it is in (0 if none: power_states.h).  Active until t if
 * its background work runs on.
 */
static uint64_t
wake (struct hdd *d, uint64_t t)
{
  enum hdd_power_state st;
  uint64_t since = max64 (d->ps.last_end, d->mech_free), rec;

  if (!power_states_managed (&d->p))
    return 0;
  if (d->cache.st.active)
    since = t;
  rec = power_states_wake (&d->ps, &d->p, min64 (since, t), t, &st);
  if (st >= HDD_PS_IDLE_B && !disksim_ctlr (d)) {
    /* The heads were unloaded onto the ramp: they load at the outer
       edge. */
    d->cyl = d->head = d->head_lba = 0;
  }
  return rec;
}

static uint64_t
serve_rotating (struct hdd *d, const struct io *r, uint64_t t,
                struct hdd_cost *c)
{
  uint64_t total;

  d->now = max64 (d->now, t);
  d->own_first = d->own_end = 0;
  background (d, t);
  c->wake_ns = wake (d, t);
  total = serve_mech (d, r, t + c->wake_ns, c) + c->wake_ns;
  d->own_first = d->own_end = 0;
  return total;
}

uint64_t
hdd_serve (struct hdd *d, const struct io *r, uint64_t t,
           struct hdd_cost *out)
{
  struct hdd_cost c = { 0 };
  uint64_t total;

  if (d->act)
    return actuators_serve (d->act, r, t, out);
  faults_fire_due (&d->faults, t, d, !is_scratch (d));
  if (d->p.kind == KIND_FIXED) {
    c.overhead_ns = d->p.service;
    if (r->op != IO_FLUSH)
      d->fixed_head = r->offset + r->length;
    total = d->p.service;
  }
  else
    total = serve_rotating (d, r, t, &c);
  /* Faults stretch the service, from when the drive is ready. */
  c.fault_ns = faults_extra (&d->faults, t + c.wake_ns, total - c.wake_ns);
  total += c.fault_ns;
  if (r->op == IO_WRITE || r->op == IO_ZERO)
    faults_write_served (&d->faults, t + total);
  if (d->p.kind != KIND_FIXED) {
    if (!is_scratch (d))
      d->tail.last_end = max64 (d->tail.last_end, t + total);
    /* The request is over at t + total: what the cache holds then. */
    d->now = max64 (d->now, t + total);
    d->host_end = max64 (d->host_end, t + total);
    power_states_busy (&d->ps, t + total);
  }
  if (out)
    *out = c;
  return total;
}

/* Bytes [from, to) of struct hdd, from d to s. */
static void
copy_range (struct hdd *s, const struct hdd *d, size_t from, size_t to)
{
  memcpy ((char *) s + from, (const char *) d + from, to - from);
}

/* The fault slots in use and what follows them (the rest of the 32
 * slots is never read).
 */
static void
copy_faults (struct faults *s, const struct faults *d)
{
  _Static_assert (offsetof (struct faults, slot) == 0
                  && offsetof (struct faults, n) == sizeof d->slot,
                  "slot, then n");
  memcpy (s->slot, d->slot, d->n * sizeof *d->slot);
  memcpy (&s->n, &d->n, sizeof *d - offsetof (struct faults, n));
}

/* An estimate's copy of d's state (then the cache's, media cache's and
 * SMR's borrowing).  Not copied, as a copy never reads them and the
 * copy is made per estimate: p, which never changes and the copy got
 * once (~57 KiB of it, the seek table the most); DiskSim's controller
 * (12 KiB) unless it serves; the tail (its every use is the real
 * drive's: is_scratch) but for its map of bad sectors, which a read
 * asks to know what the cache cannot hold (read_cached; the copy only
 * reads the map and never frees it); the fault slots not in use
 * (2.3 KiB).
 */
static void
copy_state (struct hdd *s, const struct hdd *d)
{
  _Static_assert (offsetof (struct hdd, lay) == sizeof d->p, "p, then lay");
  copy_range (s, d, offsetof (struct hdd, lay), offsetof (struct hdd, dc));
  if (disksim_ctlr (d))
    s->dc = d->dc;
  copy_range (s, d, offsetof (struct hdd, dlay), offsetof (struct hdd, tail));
  s->tail.bad = d->tail.bad;
  copy_range (s, d, offsetof (struct hdd, ps), offsetof (struct hdd, faults));
  copy_faults (&s->faults, &d->faults);
  copy_range (s, d, offsetof (struct hdd, faults) + sizeof d->faults,
              sizeof *d);
  s->scratch = NULL;
  s->base = NULL;
  s->media_fn = NULL;
  s->dc.media_fn = NULL;
}

/* s, a copy, takes d's state; its cache borrows d's dirty set. */
static void
lend (struct hdd *s, const struct hdd *d)
{
  struct cache keep = s->cache;
  struct media_cache mkeep = s->mc;

  copy_state (s, d);
  s->cache = keep;
  cache_lend (&s->cache, &d->cache);
  s->mc = mkeep;
  mc_lend (&s->mc, &d->mc);
  smr_lend (&s->smr, &d->smr);
}

static void
give_back (struct hdd *s)
{
  smr_return (&s->smr);
  cache_return (&s->cache);
}

/* ---- one pick's estimates (hdd_estimate_begin) ---- */

/* Every estimate at t starts as hdd_serve does, with what is due by t
 * whatever the request: faults firing, the background work (read-ahead
 * ending, destage writes, each a Write Cache Reordering pick over the
 * dirty ranges).  Run once here, for all the estimates of a pick;
 * hdd_serve runs it again, which then does nothing (the faults have
 * fired, the background has reached t).  Not with the media cache, SMR,
 * DiskSim's controller: their state is borrowed in other ways.
 */
static bool
base_applies (const struct hdd *d)
{
  return d->base && d->p.kind != KIND_FIXED && !disksim_ctlr (d)
    && !d->mc.on && !d->smr.on;
}

static void
base_build (const struct hdd *d, uint64_t t)
{
  struct hdd *b = &d->base->h;

  lend (b, d);
  faults_fire_due (&b->faults, t, b, false);
  b->now = max64 (b->now, t);
  b->own_first = b->own_end = 0;
  background (b, t);
  cache_mark (&b->cache);
  d->base->ready = true;
}

/* An estimate from the base: as from d, the base's start being what
 * hdd_serve would do first.
 */
static uint64_t
estimate_from_base (const struct hdd *d, const struct io *r, uint64_t t,
                    struct hdd_cost *out)
{
  struct hdd *s = d->scratch;
  const struct hdd *b = &d->base->h;
  struct cache keep = s->cache;
  struct media_cache mkeep = s->mc;
  uint64_t cost;

  if (!d->base->ready)
    base_build (d, t);
  copy_state (s, b);
  s->cache = keep;
  cache_lend_marked (&s->cache, &b->cache);
  s->mc = mkeep;
  mc_lend (&s->mc, &b->mc);
  cost = hdd_serve (s, r, t, out);
  cache_return_to_mark (&s->cache);
  return cost;
}

void
hdd_estimate_begin (const struct hdd *d, uint64_t t)
{
  if (!base_applies (d))
    return;
  hdd_estimate_end (d);
  d->base->t = t;
  d->base->open = true;
}

/* The base gives the drive's dirty set back (the set it changed is the
 * one every estimate borrows): before an estimate at another time, and
 * at the pick's end.
 */
static void
base_release (const struct hdd *d)
{
  if (d->base->ready)
    give_back (&d->base->h);
  d->base->ready = false;
}

void
hdd_estimate_end (const struct hdd *d)
{
  if (!d->base)
    return;
  base_release (d);
  d->base->open = false;
}

/* The estimate runs exactly the code of hdd_serve, on a copy of the
 * drive's state, so that it cannot drift from it; the copy only leaves
 * undone what comes after the cost is known and changes nothing but
 * the state it throws away (is_scratch).  The copy borrows the dirty
 * set, which the cache gives back as it was.
 */
uint64_t
hdd_estimate (const struct hdd *d, const struct io *r, uint64_t t,
              struct hdd_cost *out)
{
  struct hdd *s = d->scratch;
  uint64_t cost;

  if (d->act)
    return actuators_estimate (d->act, r, t, out);
  if (d->p.kind == KIND_FIXED) {
    s->faults = d->faults;
    return hdd_serve (s, r, t, out);
  }
  if (d->base && d->base->open) {
    if (d->base->t == t)
      return estimate_from_base (d, r, t, out);
    base_release (d);
  }
  lend (s, d);
  cost = hdd_serve (s, r, t, out);
  give_back (s);
  return cost;
}

/* serve_fast_write and serve_cached_write charge the host no seek or
 * rotation (the media write's are the arm's own); nor do a trim and
 * profile=fixed.
 */
bool
hdd_no_positioning (const struct hdd *d, const struct io *r)
{
  struct req_span sp;

  if (d->act)
    return actuators_no_positioning (d->act, r);
  if (d->p.kind == KIND_FIXED || r->op == IO_TRIM)
    return true;
  if (r->op != IO_WRITE && r->op != IO_ZERO)
    return false;
  if (disksim_ctlr (d))
    return false;
  sp = span_of (d, r);
  return takes_fast_write (d, r, sp) || !takes_media_write (d, r, sp);
}

uint64_t
hdd_head_offset (const struct hdd *d)
{
  if (d->act)
    return actuators_head_offset (d->act);
  if (d->p.kind == KIND_FIXED)
    return d->fixed_head;
  if (disksim_ctlr (d))
    return (uint64_t) dctl_head_lba (&d->dc) * SECTOR;
  return place_lba_to_image (d->pl, d->head_lba) * SECTOR;
}

uint64_t
hdd_max_transfer (const struct hdd *d)
{
  return d->p.max_transfer;
}

const struct hdd_queue *
hdd_queue (const struct hdd *d)
{
  return &d->p.queue;
}

uint64_t
hdd_write_cache_bytes (const struct hdd *d)
{
  if (d->act)
    return actuators_write_cache_bytes (d->act);
  return d->p.kind == KIND_FIXED ? 0 : d->cache.cache_sectors * SECTOR;
}

uint64_t
hdd_dirty_bytes (const struct hdd *d)
{
  if (d->act)
    return actuators_dirty_bytes (d->act);
  if (d->p.kind == KIND_FIXED)
    return 0;
  if (disksim_ctlr (d))
    return dctl_dirty_blocks (&d->dc) * SECTOR;
  return cached_sectors (d, d->now) * SECTOR;
}

const struct geom *
hdd_geom (const struct hdd *d)
{
  return d->g;
}

const struct seek_curve *
hdd_seek_curve (const struct hdd *d)
{
  return d->mech.seek;
}

const struct hdd_params *
hdd_params_of (const struct hdd *d)
{
  return &d->p;
}

const struct media_cache *
hdd_media_cache (const struct hdd *d)
{
  return &d->mc;
}

const struct smr *
hdd_smr (const struct hdd *d)
{
  return &d->smr;
}

void
hdd_smr_state (const struct hdd *d, struct hdd_smr_state *out)
{
  *out = (struct hdd_smr_state) { 0 };
  if (d->p.kind == KIND_FIXED || !d->smr.on)
    return;
  out->logged_bytes = mc_live_sectors (&d->mc) * SECTOR;
  out->map_entries = mc_entries (&d->mc);
  out->bands_cleaned = d->mc.cleaned_steps;
  out->clean_ns = d->mc.clean_ns;
}

static int
init_mech (struct hdd *d, uint64_t image_bytes, uint64_t seed,
           char *err, size_t errlen)
{
  d->lay = layout_new (&d->p, image_bytes, err, errlen);
  if (!d->lay)
    return -1;
  d->g = &d->lay->g;
  d->pl = &d->lay->pl;
  d->mech = (struct mech) {
    .g = &d->lay->g, .seek = &d->lay->seek,
    .write_settle = d->p.write_settle, .head_switch = d->p.head_switch,
    .phase0 = d->p.phase_zero ? 0 : splitmix64 (seed) % NS_PER_MIN,
    .zl_read = d->p.zl_read != 0, .zl_write = d->p.zl_write != 0,
  };
  if (cache_init (&d->cache, &d->p, &d->mech, d->pl, err, errlen) == -1
      || mc_init (&d->mc, &d->p, err, errlen) == -1)
    return -1;
  if (tail_init (&d->tail, &d->p, d->image_sectors, seed, err, errlen) == -1)
    return -1;
  if (smr_init (&d->smr, &d->p, d->lay->g.sectors, &d->mc, err, errlen) == -1)
    return -1;
  if (disksim_ctlr (d)) {
    d->dlay = dlay_new (&d->p);
    if (!d->dlay) {
      snprintf (err, errlen, "out of memory");
      return -1;
    }
    dctl_init (&d->dc, &d->p, &d->lay->g, &d->lay->seek, d->dlay);
  }
  d->memo = malloc (REACH_MEMO * sizeof *d->memo);
  if (!d->memo) {
    snprintf (err, errlen, "out of memory");
    return -1;
  }
  for (unsigned i = 0; i < REACH_MEMO; i++)
    d->memo[i].lba = NEVER;
  d->scratch = malloc (sizeof *d->scratch);
  if (!d->scratch || cache_init_scratch (&d->scratch->cache, &d->cache) == -1
      || mc_init_scratch (&d->scratch->mc, &d->mc) == -1) {
    snprintf (err, errlen, "out of memory");
    return -1;
  }
  d->scratch->p = d->p;         /* once: hdd_estimate copies the rest */
  d->base = calloc (1, sizeof *d->base);
  if (!d->base || cache_init_scratch (&d->base->h.cache, &d->cache) == -1
      || mc_init_scratch (&d->base->h.mc, &d->mc) == -1) {
    snprintf (err, errlen, "out of memory");
    return -1;
  }
  d->base->h.p = d->p;
  return 0;
}

struct hdd *
hdd_new (const struct hdd_params *p, uint64_t image_bytes, uint64_t seed,
         char *err, size_t errlen)
{
  struct hdd *d;

  if (params_check (p, err, errlen) == -1)
    return NULL;
  d = calloc (1, sizeof *d);
  if (!d) {
    snprintf (err, errlen, "out of memory");
    return NULL;
  }
  d->p = *p;
  d->image_sectors = (image_bytes + SECTOR - 1) / SECTOR;
  if (p->kind == KIND_FIXED) {
    d->scratch = calloc (1, sizeof *d->scratch);
    if (!d->scratch) {
      snprintf (err, errlen, "out of memory");
      goto fail;
    }
    *d->scratch = *d;
    d->scratch->scratch = NULL;
  }
  else if (init_mech (d, image_bytes, seed, err, errlen) == -1)
    goto fail;
  if (p->actuators == 2) {
    d->act = actuators_new (p, d->pl, seed, err, errlen);
    if (!d->act)
      goto fail;
  }
  return d;

 fail:
  hdd_free (d);
  return NULL;
}

void
hdd_free (struct hdd *d)
{
  if (d) {
    actuators_free (d->act);
    if (d->scratch) {
      cache_free (&d->scratch->cache);
      mc_free (&d->scratch->mc);
      free (d->scratch);
    }
    if (d->base) {
      cache_free (&d->base->h.cache);
      mc_free (&d->base->h.mc);
      free (d->base);
    }
    cache_free (&d->cache);
    tail_free (&d->tail);
    mc_free (&d->mc);
    free (d->memo);
    smr_free (&d->smr);
    free (d->dlay);
    layout_free (d->lay);
    free (d);
  }
}

unsigned
hdd_actuators (const struct hdd *d)
{
  return d->act ? 2 : 1;
}

unsigned
hdd_actuator_of (const struct hdd *d, const struct io *r)
{
  return d->act ? actuators_of (d->act, r) : 0;
}

/* ---- power states and faults (power_states.c, faults.c) ---- */

void
hdd_power_snapshot (const struct hdd *d, struct hdd_power_snapshot *s)
{
  s->ps = d->ps;
  s->idle_since = max64 (d->ps.last_end, d->mech_free);
  memcpy (s->timer, d->p.power_timer, sizeof s->timer);
}

bool
hdd_power_managed (const struct hdd *d)
{
  return power_states_managed (&d->p);
}

void
hdd_power_stats (const struct hdd *d, uint64_t t, struct hdd_power_stats *out)
{
  struct hdd_power_snapshot s;

  hdd_power_snapshot (d, &s);
  hdd_power_snapshot_stats (&s, t, out);
}

/* Can bad fault f's sectors go bad on this drive?  0, or -1 and err. */
static int
bad_fault_fits (const struct hdd *d, const struct hdd_fault *f, char *err,
                size_t errlen)
{
  uint64_t sectors = d->p.capacity / SECTOR;
  char kind[64];

  hdd_fault_format (f, kind, sizeof kind);
  if (disksim_ctlr (d)) {
    snprintf (err, errlen, "%s: not with controller=disksim (DiskSim's "
              "disk has no failing sectors)", kind);
    return -1;
  }
  if (d->p.kind == KIND_FIXED || f->lba + f->count > sectors) {
    snprintf (err, errlen, "%s: outside the drive's %" PRIu64 " sectors",
              kind, sectors);
    return -1;
  }
  return 0;
}

int
hdd_fault_add (struct hdd *d, const struct hdd_fault *f, char *err,
               size_t errlen)
{
  struct faults *fs = &d->faults;

  if (fs->n == HDD_FAULTS_MAX) {
    snprintf (err, errlen, "more than %d faults", HDD_FAULTS_MAX);
    return -1;
  }
  if (f->kind == HDD_FAULT_BAD && bad_fault_fits (d, f, err, errlen) == -1)
    return -1;
  fs->slot[fs->n] = (struct fault_slot) { .f = *f, .at = HDD_FAULT_NEVER };
  return (int) fs->n++;
}

int
hdd_fault_bad_range (struct hdd *d, int i, uint64_t lba, uint64_t count,
                     char *err, size_t errlen)
{
  struct fault_slot *s = &d->faults.slot[i];
  struct hdd_fault f = s->f;

  if (f.kind != HDD_FAULT_BAD || s->fired) {
    snprintf (err, errlen, "fault %d is no bad fault still to fire", i);
    return -1;
  }
  f.lba = lba;
  f.count = count;
  if (count == 0 || lba + count < lba) {
    snprintf (err, errlen, "bad:%" PRIu64 "+%" PRIu64 ": COUNT >= 1 "
              "sectors", lba, count);
    return -1;
  }
  if (bad_fault_fits (d, &f, err, errlen) == -1)
    return -1;
  s->f = f;
  return 0;
}

void
hdd_fault_at (struct hdd *d, int i, uint64_t t)
{
  struct fault_slot *s = &d->faults.slot[i];

  if (!s->fired && t < s->at)
    s->at = t;
}

void
hdd_fault_after_writes (struct hdd *d, int i, uint64_t n)
{
  d->faults.slot[i].writes_left = n;
}

bool
hdd_fault_fired (struct hdd *d, int *i, uint64_t *t)
{
  struct faults *fs = &d->faults;

  if (fs->nreported == fs->nfired)
    return false;
  *i = (int) fs->order[fs->nreported++];
  *t = fs->slot[*i].at;
  return true;
}

/* ---- sectors going bad (fault_bad.h) ---- */

int
hdd_fault_mark_bad (struct hdd *d, uint64_t lba, uint64_t count)
{
  return tail_mark_bad (&d->tail, lba, count);
}
