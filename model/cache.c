/* hddsim: the drive's cache (see cache.h). */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "geometry.h"
#include "mech.h"
#include "rotation.h"
#include "../common/u64.h"

/* One destage write covers at most 256 sectors (128 KiB), then the
 * cache picks again.  A request that needs the arm waits for the
 * destage write under way (busy_ns), so this bounds that wait to one
 * positioning plus 256 sectors' transfer: 256/1170 of a revolution on
 * st340014a's outer zone (1.8 ms), 256/3190 on st4000nm0033's (0.7 ms),
 * where a whole dirty range could be cache-size long (2 MiB: 3.5
 * revolutions, 29 ms).  A longer range costs nothing for being cut:
 * the next piece starts under the head (no seek, no rotational wait).
 */
#define DESTAGE_MAX_SECTORS 256

/* ---- memory ---- */

/* Dirty ranges that can exist at once.  Each holds at least one
 * sector, so no more than the cache holds (the write path waits for
 * room first, in hdd.c, counting the destage write under way); and,
 * being disjoint and never adjacent, no more than half the sectors of
 * each contiguous region of the image on the drive, rounded up.  Two
 * more: an insert briefly sits beside the neighbours it merges with.
 */
static size_t
max_ranges (uint64_t cache_sectors, const struct image_map *pl,
            uint64_t *regions)
{
  uint64_t by_image;

  *regions = pl->chunk ? (pl->image_sectors + pl->chunk - 1) / pl->chunk : 1;
  by_image = pl->image_sectors / 2 + *regions + 2;
  return (size_t) min64 (cache_sectors, by_image);
}

/* One request (one hdd_serve) touches P <= regions + 1 pieces of the
 * drive; each piece inserts at most two ranges (a split and the new
 * range).  An estimate keeps deleted nodes until it is undone, so the
 * pool holds the ranges at the start plus those inserted: L + 2P.
 * Journal entries of one estimate: destage writes change one range at a
 * time (consecutive changes of one range are one entry) and delete it,
 * at most 2 per range ever present plus one per interruption by a
 * piece: 2(L + 2P) + P; each piece changes at most 2 and deletes the
 * ranges it covers (at most L + 4P in all, each deleted once) and adds
 * at most 7 entries of its own (split 2, insert 1, two merges 4):
 * in all 3L + 16P.
 */
static int
dirty_init (struct cache *c, const struct image_map *pl)
{
  uint64_t regions, pieces;
  size_t l = max_ranges (c->cache_sectors, pl, &regions);

  pieces = regions + 1;
  c->dirty = malloc (sizeof *c->dirty);
  if (!c->dirty)
    return -1;
  c->owns_dirty = true;
  if (extents_init (c->dirty, l + 2 * pieces + 2,
                    3 * l + 16 * pieces + 16) == -1) {
    free (c->dirty);
    c->dirty = NULL;
    return -1;
  }
  return 0;
}

int
cache_init (struct cache *c, const struct hdd_params *p,
            const struct mech *m, const struct image_map *pl,
            char *err, size_t errlen)
{
  memset (c, 0, sizeof *c);
  c->mech = m;
  c->drive_sectors = m->g->sectors;
  c->nseg = p->cache_segments ? (unsigned) p->cache_segments : 1;
  c->write_seg = p->write_seg;
  c->write_hits = p->write_hits != 0;
  c->partial_hits = p->partial_hits != 0;
  c->ra_hits = p->ra_hits;
  c->ra_stop = p->ra_stop;
  c->ra_on_hit = p->ra_on_hit != 0;
  c->ra_until = p->ra_until;
  c->read_free = p->read_free != 0;
  c->ra_keep = p->ra_keep != 0;
  if (p->cache != CACHE_OFF) {
    c->seg_sectors = p->cache_size / p->cache_segments / SECTOR;
    c->ra_sectors = min64 (p->readahead / SECTOR, c->seg_sectors);
    c->cache_sectors = p->cache == CACHE_WB ? p->cache_size / SECTOR : 0;
  }
  if (!p->legacy)
    c->max_entries = p->write_entries;
  c->segs = calloc (c->nseg, sizeof *c->segs);
  if (!c->segs || dirty_init (c, pl) == -1) {
    snprintf (err, errlen, "out of memory (the drive's cache, "
              "cache-size=%" PRIu64 ")", p->cache_size);
    cache_free (c);
    return -1;
  }
  return 0;
}

int
cache_init_scratch (struct cache *s, const struct cache *c)
{
  memset (s, 0, sizeof *s);
  s->nseg = c->nseg;
  s->segs = calloc (c->nseg, sizeof *s->segs);
  return s->segs ? 0 : -1;
}

void
cache_free (struct cache *c)
{
  free (c->segs);
  if (c->owns_dirty && c->dirty) {
    extents_free (c->dirty);
    free (c->dirty);
  }
  memset (c, 0, sizeof *c);
}

/* s takes c's state, in its own segments, sharing c's dirty set. */
static void
take_state (struct cache *s, const struct cache *c)
{
  struct cache_seg *segs = s->segs;

  *s = *c;
  s->segs = segs;
  memcpy (segs, c->segs, c->nseg * sizeof *segs);
  s->owns_dirty = false;
}

void
cache_lend (struct cache *s, const struct cache *c)
{
  take_state (s, c);
  extents_begin (s->dirty);
}

void
cache_return (struct cache *s)
{
  extents_rollback (s->dirty);
}

void
cache_mark (struct cache *base)
{
  extents_mark (base->dirty);
}

void
cache_lend_marked (struct cache *s, const struct cache *base)
{
  take_state (s, base);
}

void
cache_return_to_mark (struct cache *s)
{
  extents_rollback_to_mark (s->dirty);
}

/* ---- read segments and the stream ---- */

static void
seg_extend (struct cache *c, struct cache_seg *s, uint64_t end)
{
  s->end = max64 (s->end, end);
  if (s->end - s->start > c->seg_sectors)
    s->start = s->end - c->seg_sectors;
}

static unsigned
seg_lru (const struct cache *c)
{
  unsigned i, best = 0;

  for (i = 1; i < c->nseg; i++)
    if (c->segs[i].stamp < c->segs[best].stamp)
      best = i;
  return best;
}

static bool
is_stream_seg (const struct cache *c, unsigned i)
{
  return c->st.active && c->st.seg == i;
}

/* The least recently used segment but the stream's; nseg if none. */
static unsigned
seg_lru_idle (const struct cache *c)
{
  unsigned i, best = c->nseg;

  for (i = 0; i < c->nseg; i++)
    if (!is_stream_seg (c, i)
        && (best == c->nseg || c->segs[i].stamp < c->segs[best].stamp))
      best = i;
  return best;
}

static bool
seg_serves (struct cache *c, struct cache_seg *s, uint64_t lba, uint64_t n)
{
  if ((s->written && !c->write_hits) || lba < s->start || lba + n > s->end)
    return false;
  s->stamp = ++c->stamp;
  return true;
}

static uint64_t
seg_prefix (const struct cache *c, const struct cache_seg *s, uint64_t lba,
            uint64_t n)
{
  if ((s->written && !c->write_hits) || lba < s->start || lba >= s->end)
    return 0;
  return min64 (s->end, lba + n) - lba;
}

uint64_t
cache_seg_prefix (struct cache *c, uint64_t lba, uint64_t n)
{
  uint64_t k = 0;
  unsigned i;

  if (!c->partial_hits)
    return 0;
  for (i = 0; i < c->nseg; i++)
    if (!is_stream_seg (c, i))
      k = max64 (k, seg_prefix (c, &c->segs[i], lba, n));
  if (c->write_seg == WSEG_SEPARATE)
    k = max64 (k, seg_prefix (c, &c->wseg, lba, n));
  return min64 (k, n - 1);
}

bool
cache_seg_holds (struct cache *c, uint64_t lba, uint64_t n)
{
  uint64_t end = lba + n;
  unsigned i;

  /* Every read looks here: the range first, which rules out nearly
     every segment in two comparisons (seg_serves tests it again). */
  for (i = 0; i < c->nseg; i++) {
    const struct cache_seg *s = &c->segs[i];
    if (lba >= s->start && end <= s->end && !is_stream_seg (c, i)
        && seg_serves (c, &c->segs[i], lba, n))
      return true;
  }
  return c->write_seg == WSEG_SEPARATE && seg_serves (c, &c->wseg, lba, n);
}

/* The segment keeps what the stream has read, up to its size: by t it
 * holds [reached - seg_sectors, reached), and what the stream is still
 * to read up to its limit will be there when read.  Only a read further
 * back than a segment from the limit needs the walk to tell.
 */
bool
cache_stream_covers (struct cache *c, uint64_t lba, uint64_t t,
                     uint64_t *reached)
{
  struct arm a;

  if (!c->st.active || lba < c->segs[c->st.seg].start || lba > c->st.limit)
    return false;
  *reached = cache_stream_reached (c, t, &a);
  if (c->ra_hits == RAHITS_AHEAD && lba + c->seg_sectors >= c->st.limit)
    return true;
  if (c->ra_hits == RAHITS_ALMOST && lba > *reached)
    return false;
  if (c->ra_hits == RAHITS_READ && lba >= *reached)
    return false;
  return lba + c->seg_sectors >= *reached;
}

uint64_t
cache_stream_time_to (const struct cache *c, uint64_t lba)
{
  struct arm a = c->st.arm0;

  return mech_walk (c->mech, &a, false, c->st.t0, c->st.lba0,
                    lba - c->st.lba0, NULL, NULL);
}

/* Rebased to the stream's last track boundary so that later walks
 * stay short.
 */
uint64_t
cache_stream_reached (struct cache *c, uint64_t t, struct arm *a)
{
  struct walk_stop stop = { .at = t };
  uint64_t lba0 = c->st.lba0;

  *a = c->st.arm0;
  if (t <= c->st.t0)
    return lba0;
  mech_walk (c->mech, a, false, c->st.t0, lba0, c->st.limit - lba0, NULL,
             &stop);
  if (stop.mark) {
    c->st.t0 = stop.mark_t;
    c->st.lba0 = stop.mark_lba;
    c->st.arm0 = stop.mark_arm;
  }
  return lba0 + stop.done;
}

/* The first LBA after lba's track. */
/* The first LBA after lba's cylinder (its tracks in LBA order). */
static uint64_t
cyl_end (const struct geom *g, uint64_t lba)
{
  struct loc l, m;
  uint64_t e;

  geom_locate (g, lba, &l);
  for (e = geom_track_end (g, lba); e < g->sectors;
       e = geom_track_end (g, e)) {
    geom_locate (g, e, &m);
    if (m.cyl != l.cyl)
      break;
  }
  return e;
}

/* Where read-ahead after a read of [lba, lba+n) ends, its segment
 * beginning at seg_start.  readahead-keep-request=1 (DiskSim's Read-ahead
 * over requested = 0, which it applies only to a read-ahead sized by
 * the segment): the segment keeps the request, so read-ahead ends a
 * segment past its first sector, or at once if the request fills it.
 */
static uint64_t
ra_limit (const struct cache *c, uint64_t seg_start, uint64_t lba,
          uint64_t n)
{
  const struct geom *g = c->mech->g;
  uint64_t e = lba + n, lim = e + c->ra_sectors, te;
  struct loc l;

  if (e >= c->drive_sectors)
    return c->drive_sectors;
  if (c->ra_keep)
    lim = n >= c->seg_sectors ? e : min64 (lim, lba + c->seg_sectors);
  switch (c->ra_until) {
  case RAUNTIL_TRACK:
    lim = min64 (lim, geom_track_end (g, e - 1));
    break;
  case RAUNTIL_CYL:
    lim = min64 (lim, cyl_end (g, e - 1));
    break;
  case RAUNTIL_NEXT_TRACK:
    /* DiskSim's DEC scheme: the track bound alone, even past a
       segment, whose front the read-ahead then overwrites (DiskSim
       wraps the segment and ignores Maximum read-ahead). */
    geom_locate (g, e, &l);
    te = e - l.sector + l.spt;
    if (seg_start < e - l.sector) {     /* a stream across tracks */
      geom_locate (g, lba, &l);
      te += l.spt;
    }
    lim = te;
    break;
  }
  return min64 (lim, c->drive_sectors);
}

void
cache_stream_use (struct cache *c, uint64_t lba, uint64_t n)
{
  struct cache_seg *s = &c->segs[c->st.seg];

  s->stamp = ++c->stamp;
  c->st.limit = max64 (c->st.limit, ra_limit (c, s->start, lba, n));
}

/* readahead-stop=sector: when the stream, at lba by t, has read the
 * sector it is reading at t; t if it is between sectors (positioning,
 * or at the limit).
 */
static uint64_t
stream_sector_end (const struct cache *c, uint64_t t, uint64_t lba)
{
  struct loc l;
  uint64_t end;

  if (c->ra_stop == RASTOP_NOW || lba >= c->st.limit)
    return t;
  geom_locate (c->mech->g, lba, &l);
  end = cache_stream_time_to (c, lba + 1);
  return end - rot_sectors_ns (c->mech->g->rpm, l.spt, 1) < t ? end : t;
}

bool
cache_stream_stop (struct cache *c, uint64_t t, struct arm *a,
                   uint64_t *head_lba, uint64_t *free_at)
{
  if (!c->st.active)
    return false;
  *head_lba = cache_stream_reached (c, t, a);
  *free_at = stream_sector_end (c, t, *head_lba);
  if (*free_at > t)             /* on the same track: *a stays */
    ++*head_lba;
  seg_extend (c, &c->segs[c->st.seg], *head_lba);
  c->st.active = false;
  return true;
}

/* When the stream reaches its limit, and the arm then (kept: see
 * struct cache_stream).  Rebasing (cache_stream_reached) moves the
 * walk's start along the same path, so it does not change the end.
 */
static uint64_t
stream_end (struct cache *c, struct arm *a)
{
  struct cache_stream *st = &c->st;

  if (st->end_limit != st->limit) {
    st->end_arm = st->arm0;
    st->end_t = mech_walk (c->mech, &st->end_arm, false, st->t0, st->lba0,
                           st->limit - st->lba0, NULL, NULL);
    st->end_limit = st->limit;
  }
  *a = st->end_arm;
  return st->end_t;
}

bool
cache_stream_finish (struct cache *c, uint64_t t, struct arm *a,
                     uint64_t *head_lba, uint64_t *end)
{
  *end = stream_end (c, a);
  if (*end > t)
    return false;
  seg_extend (c, &c->segs[c->st.seg], c->st.limit);
  *head_lba = c->st.limit;
  c->st.active = false;
  return true;
}

/* Whole sectors of lba's track, logically before it, that passed
 * under the head in the 'wait' before lba came round: consecutive
 * sectors are consecutive slots, so these are lba-k .. lba-1.
 */
static uint64_t
free_before (const struct cache *c, uint64_t lba, uint64_t wait)
{
  struct loc l;

  if (!c->read_free || wait == 0)
    return 0;
  geom_locate (c->mech->g, lba, &l);
  return min64 (rot_sectors_in (c->mech->g->rpm, l.spt, wait), l.sector);
}

/* The read segment whose data ends at or past lba and holds the 'hit'
 * sectors before it (a partial hit's); nseg if none.  DiskSim reads the
 * rest of a partial hit into the segment that served its front, so
 * the read-ahead that follows wraps that segment, not another.
 */
static unsigned
seg_continued (const struct cache *c, uint64_t lba, uint64_t hit)
{
  unsigned i;

  for (i = 0; i < c->nseg; i++)
    if (seg_prefix (c, &c->segs[i], lba - hit, hit) == hit)
      return i;
  return c->nseg;
}

void
cache_read_done (struct cache *c, uint64_t lba, uint64_t n, uint64_t t,
                 const struct arm *a, uint64_t rot_wait, uint64_t hit)
{
  unsigned i = hit > 0 ? seg_continued (c, lba, hit) : c->nseg;
  uint64_t limit, k = free_before (c, lba, rot_wait);

  if (i < c->nseg)
    c->segs[i].stamp = ++c->stamp;
  else {
    i = seg_lru (c);
    c->segs[i] = (struct cache_seg) { lba - k, lba + n, ++c->stamp, false };
  }
  seg_extend (c, &c->segs[i], lba + n);
  if (c->ra_sectors == 0 || lba + n >= c->drive_sectors)
    return;
  /* A partial hit's request crossing onto lba's track is a stream
     across tracks (ra_limit), though its media read starts there. */
  limit = ra_limit (c, min64 (c->segs[i].start, lba - min64 (hit, lba)),
                    lba, n);
  if (limit <= lba + n)         /* the request ends its track */
    return;
  c->st = (struct cache_stream) {
    .active = true, .seg = i, .t0 = t, .lba0 = lba + n, .arm0 = *a,
    .limit = limit,
  };
}

static bool
seg_overlaps (const struct cache_seg *s, uint64_t lba, uint64_t n)
{
  return s->start < lba + n && lba < s->end;
}

static void
seg_take_write (struct cache *c, struct cache_seg *s, uint64_t lba,
                uint64_t n)
{
  *s = (struct cache_seg) { lba, lba + n, ++c->stamp, true };
  seg_extend (c, s, lba + n);
}

void
cache_write_done (struct cache *c, uint64_t lba, uint64_t n)
{
  unsigned i, take = c->nseg;

  if (c->write_seg == WSEG_NONE || c->seg_sectors == 0 || n == 0)
    return;
  for (i = 0; i < c->nseg; i++) {
    struct cache_seg *s = &c->segs[i];
    if (is_stream_seg (c, i) || !seg_overlaps (s, lba, n))
      continue;
    if (c->write_seg == WSEG_SHARED && take == c->nseg)
      take = i;
    else
      s->end = s->start;        /* empty */
  }
  if (c->write_seg == WSEG_SEPARATE) {
    seg_take_write (c, &c->wseg, lba, n);
    return;
  }
  if (take == c->nseg)
    take = seg_lru_idle (c);
  if (take < c->nseg)
    seg_take_write (c, &c->segs[take], lba, n);
}

void
cache_hit_readahead (struct cache *c, uint64_t lba, uint64_t n, uint64_t t,
                     const struct arm *a)
{
  uint64_t limit;
  unsigned i;

  if (!c->ra_on_hit || c->ra_sectors == 0 || c->st.active)
    return;
  /* The segment that served it is the most recently used one. */
  for (i = 0; i < c->nseg && c->segs[i].stamp != c->stamp; i++)
    ;
  if (i == c->nseg)
    return;
  limit = ra_limit (c, c->segs[i].start, lba, n);
  if (c->segs[i].end >= limit)
    return;
  c->st = (struct cache_stream) {
    .active = true, .seg = i, .t0 = t, .lba0 = c->segs[i].end, .arm0 = *a,
    .limit = limit,
  };
}

/* ---- the write cache ---- */

void
cache_mark_dirty (struct cache *c, uint64_t lba, uint64_t n)
{
  extents_add (c->dirty, lba, n);
}

void
cache_mark_clean (struct cache *c, uint64_t lba, uint64_t n)
{
  extents_remove (c->dirty, lba, n);
}

bool
cache_dirty_holds (const struct cache *c, uint64_t lba, uint64_t n)
{
  return extents_cover (c->dirty, lba, n);
}

uint64_t
cache_dirty_overlap (const struct cache *c, uint64_t lba, uint64_t n)
{
  return extents_overlap (c->dirty, lba, n);
}

/* Drives keep each write's data in a buffer segment of its own until
 * it is on the media (Seagate's SAS manuals, "Caching write data": the
 * buffer "is divided into logical segments from which data is read and
 * to which data is written", and "the drive does not overwrite data
 * that has not yet been written to the medium"; DiskSim's "Maximum
 * number of write segments").  A write that extends or overlaps a
 * dirty range joins its segment; one elsewhere needs a segment free of
 * dirty data.  The destage write under way holds its segment until it
 * ends.
 */
bool
cache_entries_full (const struct cache *c, uint64_t lba, uint64_t n,
                    bool destaging)
{
  uint64_t from = lba > 0 ? lba - 1 : 0;

  if (c->max_entries == 0
      || extents_overlap (c->dirty, from, lba + n + 1 - from) > 0)
    return false;
  return c->dirty->len + (destaging ? 1 : 0) >= c->max_entries;
}

/* Write Cache Reordering (Western Digital's name for it: the
 * Ultrastar HC580 specification, Table 59, SET FEATURES feature code
 * 0002h, "Enable Write Cache Reordering", enabled by default): the
 * drive writes back first the dirty range whose start the arm reaches
 * soonest, as it orders its queued commands.  Each range is looked at,
 * so only with the entries bounded (a few dozen).
 */
/* The ranges in LBA order, each once (extents_first, extents_after:
 * a step along the tree, where a search from the last one's end would
 * descend it again).
 */
bool
cache_destage_reordered (const struct cache *c,
                         uint64_t (*cost) (void *ctx, uint64_t lba,
                                           uint64_t below),
                         void *ctx, struct extent *piece)
{
  const struct xnode *x;
  uint64_t best = UINT64_MAX;
  bool found = false;

  for (x = extents_first (c->dirty); x; x = extents_after (x)) {
    uint64_t k = cost (ctx, x->e.lba, best);
    if (k < best) {
      best = k;
      *piece = x->e;
      found = true;
    }
  }
  if (found)
    piece->n = min64 (piece->n, DESTAGE_MAX_SECTORS);
  return found;
}

bool
cache_destage_next (const struct cache *c, uint64_t head_lba,
                    struct extent *piece)
{
  if (!extents_next (c->dirty, head_lba, piece))
    return false;
  piece->n = min64 (piece->n, DESTAGE_MAX_SECTORS);
  return true;
}
