/* hddsim: the drive's cache: read segments, the read-ahead stream and
 * the write-back cache's dirty data.
 *
 * The cache decides what it holds and what to destage next; the drive
 * (hdd.c) moves the arm.  The read-ahead stream is the one piece of
 * arm work the cache describes itself: it is defined by where and when
 * it started, and how far it has read by time t is computed by walking
 * the media from there (mech_walk), lazily.
 *
 * Memory: everything is allocated by cache_init, for the bounds the
 * parameters and the image fix, so nothing on the request path
 * allocates or fails.
 */
#ifndef HDDSIM_CACHE_H
#define HDDSIM_CACHE_H

#include "extents.h"
#include "layout.h"
#include "mech.h"
#include "params.h"

struct cache_seg {
  uint64_t start, end;          /* cached LBAs [start, end) */
  uint64_t stamp;               /* LRU */
  bool written;                 /* a write's data (cache-write-segment) */
};

struct cache_stream {
  bool active;
  unsigned seg;                 /* the segment it fills: its start is
                                   where the data begins, before what
                                   the stream has read since pushes it
                                   out */
  uint64_t t0, lba0;            /* reading lba0 onwards from t0 */
  struct arm arm0;              /* arm at t0 */
  uint64_t limit;               /* read up to here, then stop */
  /* When it reaches limit, and the arm then: a walk that every
     background step and estimate would repeat, so it is kept until
     limit moves (end_limit != limit: not known). */
  uint64_t end_limit, end_t;
  struct arm end_arm;
};

struct cache {
  const struct mech *mech;
  uint64_t drive_sectors;
  uint64_t seg_sectors, ra_sectors;
  uint64_t cache_sectors;       /* write-back capacity; 0 if not wb */
  unsigned nseg;
  struct cache_seg *segs;
  uint64_t stamp;
  struct cache_stream st;
  int write_seg;                /* enum write_seg */
  bool write_hits;              /* reads may hit written data */
  bool partial_hits;            /* cache-partial-hits */
  int ra_hits;                  /* enum ra_hits */
  int ra_stop;                  /* enum ra_stop */
  bool ra_on_hit;               /* readahead-on-hit */
  int ra_until;                 /* enum ra_until */
  bool read_free;               /* read-any-free */
  bool ra_keep;                 /* readahead-keep-request */
  struct cache_seg wseg;        /* cache-write-segment=separate's */
  /* The write cache.  An estimate's copy shares the drive's dirty set
   * and gives it back unchanged (cache_lend, cache_return).
   */
  struct extents *dirty;
  bool owns_dirty;
  uint64_t dirty_since;         /* destage no earlier than this */
  uint64_t inflight;            /* sectors of the destage write under
                                   way: held until it ends */
  uint64_t max_entries;         /* dirty ranges held at most (counting
                                   the destage write under way); 0 = no
                                   bound but cache_sectors */
};

extern int cache_init (struct cache *, const struct hdd_params *,
                       const struct mech *, const struct image_map *,
                       char *err, size_t errlen);
/* A cache to run estimates in: own segments, no dirty set of its own. */
extern int cache_init_scratch (struct cache *, const struct cache *);
extern void cache_free (struct cache *);

/* The estimate: 'scratch' takes the state of 'c' (sharing its dirty
 * set); cache_return undoes every change made to the dirty set since,
 * in O(changes x log n).
 */
extern void cache_lend (struct cache *scratch, const struct cache *c);
extern void cache_return (struct cache *scratch);
/* Several estimates from one state (hdd_estimate_begin): 'base' has
 * borrowed c's dirty set (cache_lend) and moved on; cache_mark keeps
 * the set as it is now; cache_lend_marked gives 'scratch' base's state
 * (the set shared, as it is); cache_return_to_mark undoes what was done
 * to the set since the mark.  cache_return (base) gives it all back.
 */
extern void cache_mark (struct cache *base);
extern void cache_lend_marked (struct cache *scratch,
                               const struct cache *base);
extern void cache_return_to_mark (struct cache *scratch);

/* ---- read segments and the stream ---- */

/* A segment other than the stream's holds [lba, lba+n) (made most
 * recently used).  Written data counts only with cache-write-hits=1.
 */
extern bool cache_seg_holds (struct cache *, uint64_t lba, uint64_t n);
/* At t, lba is in the stream's segment (read, and not yet pushed out
 * by what the stream read after it) or the stream is to read it (with
 * readahead-hits=ahead; almost: it is reading lba now; read: no).
 * When true, *reached is where the stream has got by t (as
 * cache_stream_reached tells), so that the caller need not walk again.
 */
extern bool cache_stream_covers (struct cache *, uint64_t lba, uint64_t t,
                                 uint64_t *reached);
/* cache-partial-hits=1: how many sectors from lba on (fewer than n) a
 * segment other than the stream's holds; 0 otherwise.
 */
extern uint64_t cache_seg_prefix (struct cache *, uint64_t lba, uint64_t n);
/* Where the stream has got by t, and the arm then (rebasing it). */
extern uint64_t cache_stream_reached (struct cache *, uint64_t t,
                                      struct arm *a);
/* When the stream reaches lba. */
extern uint64_t cache_stream_time_to (const struct cache *, uint64_t lba);
/* A read of [lba, lba+n) is served from the stream: keep it reading
 * ahead of it.  The segment keeps what was read before the read
 * (cache_stream_covers).
 */
extern void cache_stream_use (struct cache *, uint64_t lba, uint64_t n);
/* The arm is needed at t: stop reading ahead, keep what was read.
 * true (and *a, *head_lba, and *free_at, when the arm is free: t, or
 * with readahead-stop=sector the end of a sector it is reading) if the
 * stream was reading.
 */
extern bool cache_stream_stop (struct cache *, uint64_t t, struct arm *a,
                               uint64_t *head_lba, uint64_t *free_at);
/* Background: the stream has reached its limit by t.  true (with the
 * arm, its LBA and the end time) when it ends by t; it is then over.
 */
extern bool cache_stream_finish (struct cache *, uint64_t t, struct arm *a,
                                 uint64_t *head_lba, uint64_t *end);
/* readahead-on-hit=1: [lba, lba+n) was just served from a segment
 * (cache_seg_holds) and the arm is free from t, at *a: unless the
 * stream is reading, read ahead from the segment's end to readahead=
 * past the request.
 */
extern void cache_hit_readahead (struct cache *, uint64_t lba, uint64_t n,
                                 uint64_t t, const struct arm *a);
/* The media read [lba, lba+n) ending at t with the arm at *a: keep it
 * in the least recently used segment and read ahead from there.  It
 * waited 'rot_wait' on lba's track first: with read-any-free=1 the
 * sectors before lba that passed under the head meanwhile are kept too.
 * The request's first 'hit' sectors, just before lba, came from a
 * segment (a partial hit): the read goes on in that segment, as
 * DiskSim's does (with readahead-until=next-track the stream begins
 * there, also where a separate write segment served them).
 */
extern void cache_read_done (struct cache *, uint64_t lba, uint64_t n,
                             uint64_t t, const struct arm *a,
                             uint64_t rot_wait, uint64_t hit);

/* A write of [lba, lba+n) has passed through the buffer.  With
 * cache-write-segment=shared its data (the last segment's worth) takes
 * the read segment it overlaps, else the least recently used one (not
 * the stream's); with separate it takes the write segment.  Either
 * way, the other read segments it overlaps are dropped: they hold
 * what it overwrote.  With none, nothing changes.
 */
extern void cache_write_done (struct cache *, uint64_t lba, uint64_t n);

/* ---- the write cache ---- */

extern void cache_mark_dirty (struct cache *, uint64_t lba, uint64_t n);
/* On the media now (destaged, or written through). */
extern void cache_mark_clean (struct cache *, uint64_t lba, uint64_t n);
extern bool cache_dirty_holds (const struct cache *, uint64_t lba,
                               uint64_t n);
extern uint64_t cache_dirty_overlap (const struct cache *, uint64_t lba,
                                     uint64_t n);
/* A write of [lba, lba+n) finds no entry for it: it would start a
 * dirty range of its own (it neither overlaps nor touches one) and the
 * cache already holds max_entries ranges, with the destage write under
 * way if 'destaging'.
 */
extern bool cache_entries_full (const struct cache *, uint64_t lba,
                                uint64_t n, bool destaging);
/* The next destage write from head_lba (C-LOOK), at most
 * DESTAGE_MAX_SECTORS; false if nothing is dirty.
 */
extern bool cache_destage_next (const struct cache *, uint64_t head_lba,
                                struct extent *piece);
/* The next destage write by Write Cache Reordering: the dirty range
 * (its first DESTAGE_MAX_SECTORS) of least cost(ctx, its first LBA,
 * below), the first of equals in LBA order; false if nothing is dirty.
 * 'below' is the least cost so far: a cost that is not below it may
 * be given as any value not below it (it cannot be picked).
 */
extern bool cache_destage_reordered (const struct cache *,
                                     uint64_t (*cost) (void *ctx,
                                                       uint64_t lba,
                                                       uint64_t below),
                                     void *ctx, struct extent *piece);

static inline bool
cache_has_dirty (const struct cache *c)
{
  return !extents_empty (c->dirty);
}

static inline uint64_t
cache_dirty_sectors (const struct cache *c)
{
  return c->dirty->sectors;
}

#endif /* HDDSIM_CACHE_H */
