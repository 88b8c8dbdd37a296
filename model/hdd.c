/* hddsim: the drive (see hdd.h).
 *
 * State: the arm (cylinder and surface under the heads), the platter's
 * phase (a function of time and seed, see rotation.c), the read
 * segments, the read-ahead stream and the dirty data of the write
 * cache.  hdd_serve runs one request from a given time; hdd_idle lets
 * the drive do its background work while the host is quiet.
 *
 * The host interface and the arm work independently, as on a real
 * drive: a cache hit or a write into the cache is served while the arm
 * goes on with its background work, and only a request that needs the
 * arm waits for that work.  Background work is the read-ahead after a
 * read, then destaging the write cache, back to back for as long as
 * there is dirty data.  Read-ahead is preemptive (a request that needs
 * the arm stops it at once, keeping the sectors read so far); a
 * destage write is not (the request waits for it to end: busy_ns).
 *
 * The read-ahead stream is kept lazily: it is defined by where and
 * when it started, and how far it has read by time t is computed by
 * walking the media from there.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hdd_int.h"
#include "../common/u64.h"

#define NEVER UINT64_MAX
/* One destage operation writes at most this much (then re-picks). */
#define DESTAGE_MAX_SECTORS 256

struct seg {
  uint64_t start, end;          /* cached LBAs [start, end) */
  uint64_t stamp;               /* LRU */
};

struct stream {
  bool active;
  unsigned seg;
  uint64_t t0, lba0;            /* reading lba0 onwards from t0 */
  uint64_t cyl0, head0;         /* arm at t0 */
  uint64_t limit;               /* read up to here, then stop */
};

struct hdd {
  struct hdd_params p;
  /* Immutable once built; shared with the scratch copy. */
  struct drive_layout *lay;           /* NULL for profile=fixed */
  const struct geom *g;         /* &lay->g */
  const struct seek_curve *seek; /* &lay->seek */
  const struct image_map *pl;   /* &lay->pl */
  uint64_t image_sectors;
  uint64_t phase0;

  uint64_t cyl, head;           /* the arm */
  uint64_t head_lba;            /* next LBA after the last media access */
  uint64_t mech_free;           /* end of the last mechanical operation */
  uint64_t dirty_since;         /* the dirty data arrived (destage no
                                   earlier than this) */
  uint64_t inflight;            /* sectors of the destage write that
                                   ends at mech_free: still in the cache
                                   until then */
  uint64_t now;                 /* the latest time we were given */
  uint64_t fixed_head;          /* profile=fixed: byte offset */

  uint64_t seg_sectors, ra_sectors, cache_sectors;
  unsigned nseg;
  struct seg *segs;
  uint64_t stamp;
  struct stream st;
  struct extents dirty;

  struct hdd *scratch;          /* hdd_estimate works on a copy */
  /* In the scratch copy, 'dirty' first views the drive's own array
   * (copied only if the estimate changes it: reads never do, and
   * large caches hold many thousand ranges); 'store' is its own.
   */
  bool dirty_shared;
  struct extents store;
};

struct arm {
  uint64_t cyl, head;
};

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
splitmix64 (uint64_t x)
{
  x += UINT64_C(0x9E3779B97F4A7C15);
  x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
  return x ^ (x >> 31);
}

static uint64_t
iface_ns (const struct hdd *d, uint64_t sectors)
{
  unsigned __int128 b = (unsigned __int128) sectors * SECTOR * 1000000000;

  return (uint64_t) ((b + d->p.iface_rate - 1) / d->p.iface_rate);
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

/* ---- the mechanism ---- */

/* Positioning from the arm to a track: seek, or head switch. */
static uint64_t
position_ns (const struct hdd *d, const struct arm *a, const struct loc *l,
             bool write, uint64_t *dist)
{
  *dist = l->cyl > a->cyl ? l->cyl - a->cyl : a->cyl - l->cyl;
  if (*dist)
    return seek_ns (d->seek, *dist) + (write ? d->p.write_settle : 0);
  if (l->head != a->head)
    return d->p.head_switch;
  return 0;
}

/* Where a walk stopped early, and the last track boundary before. */
struct walk_stop {
  uint64_t at;                  /* stop at this time (NEVER: don't) */
  uint64_t done;                /* out: sectors transferred by 'at' */
  bool mark;                    /* out: a track boundary was passed */
  uint64_t mark_t, mark_lba;
  struct arm mark_arm;
};

/* Transfer n sectors from lba, starting at time t with the arm at *a,
 * track by track: position (seek or head switch), wait for the first
 * sector to come round, transfer.  The first track's positioning is
 * the request's seek and rotational wait; later ones (switches hidden,
 * or not, by skew) count as transfer.  Returns the end time.
 */
static uint64_t
walk (const struct hdd *d, struct arm *a, bool write, uint64_t t,
      uint64_t lba, uint64_t n, struct hdd_cost *c, struct walk_stop *stop)
{
  uint64_t did = 0;
  bool first = true;

  while (did < n) {
    struct loc l;
    uint64_t m, dist, pos, wait, x, ts;

    geom_locate (d->g, lba + did, &l);
    m = min64 (n - did, l.spt - l.sector);
    pos = position_ns (d, a, &l, write, &dist);
    wait = rot_wait (d->g->rpm, d->phase0, t + pos, l.slot, l.spt);
    ts = t + pos + wait;
    x = rot_sectors_ns (d->g->rpm, l.spt, m);
    if (stop && ts + x > stop->at) {
      uint64_t k = 0;
      if (stop->at > ts) {
        k = rot_sectors_in (d->g->rpm, l.spt, stop->at - ts);
        while (k > 0 && rot_sectors_ns (d->g->rpm, l.spt, k) > stop->at - ts)
          k--;
        k = min64 (k, m);
      }
      stop->done = did + k;
      a->cyl = l.cyl;
      a->head = l.head;
      return stop->at;
    }
    if (c) {
      if (first) {
        c->seek_ns += pos;
        c->rot_ns += wait;
        if (c->seek_cylinders == 0)
          c->seek_cylinders = dist;
      }
      else
        c->xfer_ns += pos + wait;
      c->xfer_ns += x;
    }
    first = false;
    t = ts + x;
    a->cyl = l.cyl;
    a->head = l.head;
    did += m;
    if (stop && did < n) {
      stop->mark = true;
      stop->mark_t = t;
      stop->mark_lba = lba + did;
      stop->mark_arm = *a;
    }
  }
  if (stop)
    stop->done = n;
  return t;
}

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

/* ---- the read-ahead stream ---- */

static uint64_t
stream_time_to (const struct hdd *d, uint64_t lba)
{
  struct arm a = { d->st.cyl0, d->st.head0 };

  return walk (d, &a, false, d->st.t0, d->st.lba0, lba - d->st.lba0,
               NULL, NULL);
}

/* Sectors the stream has read by time t (at most to its limit); the
 * arm's position then; and the stream rebased to its last track
 * boundary so that later walks stay short.
 */
static uint64_t
stream_reached (struct hdd *d, uint64_t t, struct arm *a)
{
  struct walk_stop stop = { .at = t };
  uint64_t lba0 = d->st.lba0;

  *a = (struct arm) { d->st.cyl0, d->st.head0 };
  if (t <= d->st.t0)
    return lba0;
  walk (d, a, false, d->st.t0, lba0, d->st.limit - lba0, NULL, &stop);
  if (stop.mark) {
    d->st.t0 = stop.mark_t;
    d->st.lba0 = stop.mark_lba;
    d->st.cyl0 = stop.mark_arm.cyl;
    d->st.head0 = stop.mark_arm.head;
  }
  return lba0 + stop.done;
}

static void
seg_extend (struct hdd *d, struct seg *s, uint64_t end)
{
  s->end = max64 (s->end, end);
  if (s->end - s->start > d->seg_sectors)
    s->start = s->end - d->seg_sectors;
}

/* The arm is needed at t: stop reading ahead, keep what was read. */
static void
stream_stop (struct hdd *d, uint64_t t)
{
  struct arm a;
  uint64_t reached;

  if (!d->st.active)
    return;
  reached = stream_reached (d, t, &a);
  seg_extend (d, &d->segs[d->st.seg], reached);
  set_arm (d, &a, reached);
  d->st.active = false;
}

static void
stream_start (struct hdd *d, unsigned seg, uint64_t t, uint64_t lba)
{
  if (d->ra_sectors == 0 || lba >= d->g->sectors)
    return;
  d->st = (struct stream) {
    .active = true, .seg = seg, .t0 = t, .lba0 = lba,
    .cyl0 = d->cyl, .head0 = d->head,
    .limit = min64 (lba + d->ra_sectors, d->g->sectors),
  };
}

static void
stream_raise (struct hdd *d, uint64_t want)
{
  d->st.limit = max64 (d->st.limit, min64 (want, d->g->sectors));
  if (d->st.limit - d->segs[d->st.seg].start > d->seg_sectors)
    d->segs[d->st.seg].start = d->st.limit - d->seg_sectors;
}

/* ---- destaging the write cache ---- */

/* The dirty set, about to change: a scratch copy gets its own now. */
static struct extents *
dirty_mut (struct hdd *d)
{
  if (d->dirty_shared) {
    if (extents_copy (&d->store, &d->dirty) == -1)
      abort ();
    d->dirty = d->store;
    d->dirty_shared = false;
  }
  return &d->dirty;
}

/* Write one piece of dirty data (C-LOOK from the head) from time t;
 * returns the end time.
 */
static uint64_t
destage_one (struct hdd *d, uint64_t t, struct hdd_cost *c)
{
  size_t i = extents_next (&d->dirty, d->head_lba);
  uint64_t lba = d->dirty.v[i].lba;
  uint64_t n = min64 (d->dirty.v[i].n, DESTAGE_MAX_SECTORS);
  struct arm a = arm_of (d);

  t = walk (d, &a, true, t, lba, n, c, NULL);
  set_arm (d, &a, lba + n);
  d->inflight = n;
  if (extents_remove (dirty_mut (d), lba, n) == -1)
    abort ();                   /* removing a prefix never allocates */
  return t;
}

/* The background work up to t: finish the read-ahead, then destage. */
static void
background (struct hdd *d, uint64_t t)
{
  uint64_t s;

  if (d->p.kind == KIND_FIXED)
    return;
  if (d->st.active) {
    uint64_t end = stream_time_to (d, d->st.limit);
    struct arm a;
    if (end > t)
      return;
    stream_reached (d, end, &a);
    seg_extend (d, &d->segs[d->st.seg], d->st.limit);
    set_arm (d, &a, d->st.limit);
    d->mech_free = max64 (d->mech_free, end);
    d->st.active = false;
  }
  s = max64 (d->mech_free, d->dirty_since);
  while (d->dirty.len > 0 && s < t) {
    s = destage_one (d, s, NULL);
    d->mech_free = s;
  }
}

void
hdd_idle (struct hdd *d, uint64_t t)
{
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

static unsigned
seg_lru (struct hdd *d)
{
  unsigned i, best = 0;

  for (i = 1; i < d->nseg; i++)
    if (d->segs[i].stamp < d->segs[best].stamp)
      best = i;
  return best;
}

/* Media access for image sectors [first, first+n), extent by extent. */
static uint64_t
media (struct hdd *d, bool write, uint64_t t, struct req_span sp,
       struct hdd_cost *c, uint64_t *last_lba, uint64_t *last_n)
{
  uint64_t s = sp.first, end = sp.first + sp.n;
  struct arm a = arm_of (d);

  while (s < end) {
    uint64_t n = min64 (end - s, contiguous_from (d, s));
    uint64_t lba = image_to_lba (d, s);
    t = walk (d, &a, write, t, lba, n, c, NULL);
    set_arm (d, &a, lba + n);
    if (write && d->p.cache == CACHE_WB)
      if (extents_remove (dirty_mut (d), lba, n) == -1)
        abort ();
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

/* A read the cache can answer, or the stream is about to: the cost,
 * or NEVER if the media must be read.
 */
static uint64_t
read_cached (struct hdd *d, struct req_span sp, uint64_t t,
             struct hdd_cost *c)
{
  uint64_t lba, ov = d->p.overhead, xf = iface_ns (d, sp.n);
  unsigned i;

  if (d->p.cache == CACHE_OFF || !single_extent (d, sp, &lba))
    return NEVER;
  if (d->st.active && lba >= d->segs[d->st.seg].start
      && lba <= d->st.limit) {
    struct arm a;
    uint64_t reached = stream_reached (d, t, &a), total;
    d->segs[d->st.seg].stamp = ++d->stamp;
    c->overhead_ns = ov;
    if (lba + sp.n <= reached) {
      c->xfer_ns = xf;
      c->cache_hit = true;
      total = ov + xf;
    }
    else {
      uint64_t arrive = stream_time_to (d, lba + sp.n);
      total = max64 (ov + xf, arrive - t + iface_ns (d, 1));
      c->xfer_ns = total - ov;
    }
    stream_raise (d, lba + sp.n + d->ra_sectors);
    return total;
  }
  for (i = 0; i < d->nseg; i++) {
    struct seg *s = &d->segs[i];
    if ((!d->st.active || d->st.seg != i)
        && lba >= s->start && lba + sp.n <= s->end) {
      s->stamp = ++d->stamp;
      goto hit;
    }
  }
  if (extents_cover (&d->dirty, lba, sp.n))
    goto hit;
  return NEVER;

 hit:
  c->overhead_ns = ov;
  c->xfer_ns = xf;
  c->cache_hit = true;
  return ov + xf;
}

/* Sectors the cache holds at t: dirty ones, and those of a destage
 * write still under way.
 */
static uint64_t
cached_sectors (const struct hdd *d, uint64_t t)
{
  return d->dirty.sectors + (d->mech_free > t ? d->inflight : 0);
}

/* A request that needs the arm waits for the destage write under way. */
static uint64_t
arm_wait (struct hdd *d, uint64_t t, struct hdd_cost *c)
{
  if (d->mech_free > t) {
    c->busy_ns += d->mech_free - t;
    return d->mech_free;
  }
  return t;
}

static uint64_t
serve_read (struct hdd *d, struct req_span sp, uint64_t t,
            struct hdd_cost *c)
{
  uint64_t cost = read_cached (d, sp, t, c), end, lba = 0, n = 0, t0 = t;
  unsigned i;

  if (cost != NEVER)
    return cost;
  t = arm_wait (d, t, c);
  stream_stop (d, t);
  c->overhead_ns = d->p.overhead;
  end = media (d, false, t + d->p.overhead, sp, c, &lba, &n);
  /* The last sector goes over the interface after it is read. */
  c->xfer_ns += iface_ns (d, 1);
  if (d->p.cache != CACHE_OFF && n > 0) {
    i = seg_lru (d);
    d->segs[i] = (struct seg) { lba, lba + n, ++d->stamp };
    seg_extend (d, &d->segs[i], lba + n);
    stream_start (d, i, end, lba + n);
  }
  return end + iface_ns (d, 1) - t0;
}

static uint64_t
serve_media_write (struct hdd *d, struct req_span sp, uint64_t t,
                   struct hdd_cost *c)
{
  uint64_t lba, n, end, total, t0 = t;

  t = arm_wait (d, t, c);
  stream_stop (d, t);
  c->overhead_ns = d->p.overhead;
  end = media (d, true, t + d->p.overhead, sp, c, &lba, &n);
  /* The data must have crossed the interface before it is written. */
  total = max64 (end - t, d->p.overhead + iface_ns (d, sp.n));
  c->xfer_ns += total - (end - t);
  return total + (t - t0);
}

static uint64_t
serve_cached_write (struct hdd *d, struct req_span sp, uint64_t t,
                    struct hdd_cost *c)
{
  uint64_t s, end = sp.first + sp.n, start = t, total;
  bool was_clean = d->dirty.len == 0;

  for (s = sp.first; s < end; ) {
    uint64_t n = min64 (end - s, contiguous_from (d, s));
    uint64_t lba = image_to_lba (d, s);

    /* No room: wait while the arm destages, back to back, until there
     * is.  The write waits from its arrival, not from when the
     * destage write under way began.
     */
    while (cached_sectors (d, t) + n - extents_overlap (&d->dirty, lba, n)
           > d->cache_sectors) {
      if (d->mech_free > t)               /* a destage write ends */
        t = d->mech_free;
      else if (d->dirty.len > 0) {        /* start the next one */
        stream_stop (d, t);
        d->mech_free = destage_one (d, max64 (t, d->dirty_since), NULL);
      }
      else
        break;
    }
    /* An estimate need not record the last range (nothing after it
     * depends on it), which spares it copying a large dirty list.
     */
    if (!(d->dirty_shared && s + n >= end)
        && extents_add (dirty_mut (d), lba, n) == -1)
      abort ();
    s += n;
  }
  c->busy_ns = t - start;
  c->overhead_ns = d->p.overhead;
  c->xfer_ns = iface_ns (d, sp.n);
  c->cache_hit = true;
  total = t - start + d->p.overhead + c->xfer_ns;
  if (was_clean)
    d->dirty_since = start + total;
  return total;
}

static uint64_t
serve_flush (struct hdd *d, uint64_t t, struct hdd_cost *c)
{
  uint64_t s;

  c->overhead_ns = d->p.overhead;
  if (cached_sectors (d, t) == 0)
    return d->p.overhead;
  s = arm_wait (d, t, c);
  stream_stop (d, s);
  s += d->p.overhead;
  while (d->dirty.len > 0)
    s = destage_one (d, s, c);
  d->mech_free = s;
  d->inflight = 0;              /* on the media when the flush completes */
  return s - t;
}

static uint64_t
serve_mech (struct hdd *d, const struct io *r, uint64_t t,
            struct hdd_cost *c)
{
  struct req_span sp = span_of (d, r);

  switch (r->op) {
  case IO_READ:
    return serve_read (d, sp, t, c);
  case IO_WRITE:
  case IO_ZERO:
    if (d->p.cache != CACHE_WB || r->fua || sp.n > d->cache_sectors)
      return serve_media_write (d, sp, t, c);
    return serve_cached_write (d, sp, t, c);
  case IO_FLUSH:
    return serve_flush (d, t, c);
  case IO_TRIM:
    break;
  }
  c->overhead_ns = d->p.overhead;
  return d->p.overhead;
}

uint64_t
hdd_serve (struct hdd *d, const struct io *r, uint64_t t,
           struct hdd_cost *out)
{
  struct hdd_cost c = { 0 };
  uint64_t total;

  if (d->p.kind == KIND_FIXED) {
    c.overhead_ns = d->p.service;
    if (r->op != IO_FLUSH)
      d->fixed_head = r->offset + r->length;
    if (out)
      *out = c;
    return d->p.service;
  }
  d->now = max64 (d->now, t);
  background (d, t);
  total = serve_mech (d, r, t, &c);
  /* The request is over at t + total: what the cache holds then. */
  d->now = max64 (d->now, t + total);
  if (out)
    *out = c;
  return total;
}

/* Copy the state into the scratch drive, so that hdd_estimate runs
 * exactly the code of hdd_serve and cannot drift from it.
 */
static struct hdd *
scratch_of (const struct hdd *d)
{
  struct hdd *s = d->scratch;
  struct seg *segs = s->segs;
  struct extents store = s->store;

  *s = *d;
  s->scratch = NULL;
  s->segs = segs;
  memcpy (segs, d->segs, d->nseg * sizeof *segs);
  s->store = store;
  s->dirty_shared = true;
  return s;
}

uint64_t
hdd_estimate (const struct hdd *d, const struct io *r, uint64_t t,
              struct hdd_cost *out)
{
  struct hdd *s = scratch_of (d);
  uint64_t cost = hdd_serve (s, r, t, out);

  /* Keep the scratch's own array (it may have grown) for next time. */
  if (!s->dirty_shared)
    s->store = s->dirty;
  return cost;
}

uint64_t
hdd_head_offset (const struct hdd *d)
{
  if (d->p.kind == KIND_FIXED)
    return d->fixed_head;
  return place_lba_to_image (d->pl, d->head_lba) * SECTOR;
}

uint64_t
hdd_dirty_bytes (const struct hdd *d)
{
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
  return d->seek;
}

const struct hdd_params *
hdd_params_of (const struct hdd *d)
{
  return &d->p;
}

static struct hdd *
alloc_drive (const struct hdd_params *p, unsigned nseg)
{
  struct hdd *d = calloc (1, sizeof *d);

  if (!d)
    return NULL;
  d->p = *p;
  d->nseg = nseg;
  d->segs = calloc (nseg, sizeof *d->segs);
  if (!d->segs) {
    free (d);
    return NULL;
  }
  return d;
}

static void
free_drive (struct hdd *d)
{
  if (d) {
    struct extent *own = d->dirty_shared ? NULL : d->dirty.v;
    free (d->segs);
    free (own);
    if (d->store.v != own)
      free (d->store.v);
    free (d);
  }
}

static int
init_mech (struct hdd *d, uint64_t image_bytes, char *err, size_t errlen)
{
  d->lay = layout_new (&d->p, image_bytes, err, errlen);
  if (!d->lay)
    return -1;
  d->g = &d->lay->g;
  d->seek = &d->lay->seek;
  d->pl = &d->lay->pl;
  if (d->p.cache == CACHE_OFF) {
    d->seg_sectors = d->ra_sectors = d->cache_sectors = 0;
  }
  else {
    d->seg_sectors = d->p.cache_size / d->p.cache_segments / SECTOR;
    d->ra_sectors = min64 (d->p.readahead / SECTOR, d->seg_sectors);
    d->cache_sectors = d->p.cache == CACHE_WB ? d->p.cache_size / SECTOR : 0;
  }
  return 0;
}

struct hdd *
hdd_new (const struct hdd_params *p, uint64_t image_bytes, uint64_t seed,
         char *err, size_t errlen)
{
  unsigned nseg = p->cache_segments ? (unsigned) p->cache_segments : 1;
  struct hdd *d;

  if (params_check (p, err, errlen) == -1)
    return NULL;
  d = alloc_drive (p, nseg);
  if (d)
    d->scratch = alloc_drive (p, nseg);
  if (!d || !d->scratch) {
    snprintf (err, errlen, "out of memory");
    goto fail;
  }
  d->image_sectors = (image_bytes + SECTOR - 1) / SECTOR;
  d->phase0 = splitmix64 (seed) % NS_PER_MIN;
  if (p->kind != KIND_FIXED && init_mech (d, image_bytes, err, errlen) == -1)
    goto fail;
  return d;

 fail:
  hdd_free (d);
  return NULL;
}

void
hdd_free (struct hdd *d)
{
  if (d) {
    layout_free (d->lay);
    free_drive (d->scratch);
    free_drive (d);
  }
}
