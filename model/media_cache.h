/* hddsim: the media cache: a reserved region of the platter where the
 * drive stages writes in log order, and cleans them home later.
 *
 * A drive with a media cache (Seagate's "Multi-Tier Caching"; the
 * persistent cache of a drive-managed SMR drive) does not write a small
 * random write where it belongs: it appends it to a log in a region it
 * keeps for itself, where the arm is already, and remembers in a map
 * where each staged piece is.  A read of staged data is served from the
 * log (a read that covers staged and home data is fragmented: its
 * pieces are read where each is).  When the drive is idle, or when the
 * log or the map is full (the host then waits), it cleans: it takes a
 * region of home addresses, reads what is staged for it and writes it
 * home, and forgets it.
 *
 * This file decides what is staged, where it goes in the log, which
 * region is cleaned next and what the map holds; the drive (hdd.c)
 * moves the arm, through the mover it hands to the cleaner
 * (struct mc_mover).  docs/model.md, "The media cache".
 *
 * The state, all of it allocated by mc_init for the bounds the
 * parameters give:
 *   - the log: media-cache-size= bytes at the drive's LBA
 *     media-cache-at=, written from its start on, wrapping at its end
 *     (what it overwrites there has been cleaned: the space is
 *     counted by the live sectors, not by where they lie);
 *   - the map: at most media-cache-entries= extents, each a run of
 *     home LBAs and where in the log it is, in home order (a tree:
 *     mc_map.h); a staged write over staged data replaces it (the old
 *     extent is cut);
 *   - the cleaning: per region of media-cache-region= bytes of home
 *     LBAs, oldest first (the region of the oldest staged extent: the
 *     log's order), by a cleaner function.
 *
 * ---- For a drive-managed SMR persistent cache (issue 29) ----
 *
 * The same structure serves it: the persistent cache is this log, a
 * band is a region (media-cache-region= the band's size, or a band
 * table of the SMR layer's own mapping a home LBA to its band through
 * mc_set_regions), and cleaning a band is a read-modify-write of the
 * whole band.  Install the band cleaner with mc_set_cleaner: it gets
 * the job (the region's home range; its staged extents, in home order,
 * from mc_job_first and mc_job_next) and a mover, and returns when
 * the arm is done; for a band it would read the band, read the staged extents from the
 * log, and write the band back (mover->access three times over, or
 * per track), where mc_clean_cmr writes each extent home.  The map's
 * bound (media-cache-entries=) and the log's size are the SMR drive's
 * persistent-cache limits; which writes are staged (mc_wants: all
 * writes, for an SMR drive, not only small ones) is a parameter.
 *
 * ---- The estimate ----
 *
 * hdd_estimate runs the serving code on a copy of the drive: the copy's
 * media cache borrows the drive's map (mc_lend), read-only, and takes a
 * private copy of it only if it changes it (mc_own: a clean step, in
 * an estimate of a write that finds the log full).  A staged write's
 * cost does not depend on the map's change, so the drive does not
 * stage in its copy (hdd.c).
 */
#ifndef HDDSIM_MEDIA_CACHE_H
#define HDDSIM_MEDIA_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hdd.h"
#include "mc_map.h"
#include "params.h"

/* What a cleaner moves the arm with: access(ctx, write, t, lba, n, c)
 * reads or writes drive LBAs [lba, lba+n) from t, returns the end
 * time, adds to *c when not NULL (the arm's time is the host's only
 * when the host waits for it).
 */
struct mc_mover {
  uint64_t (*access) (void *ctx, bool write, uint64_t t, uint64_t lba,
                      uint64_t n, struct hdd_cost *c);
  void *ctx;
};

/* One clean step: the region of home LBAs [lba, lba+n), and its
 * count staged extents (those starting in it; mc_job_first and
 * mc_job_next give them in home order).
 */
struct mc_job {
  uint64_t lba, n;
  size_t count;
};

struct media_cache;

/* A cleaner: does the job with the mover from t, returns the end
 * time.  It must not change the cache: mc_clean_done forgets the
 * job's extents afterwards.
 */
typedef uint64_t (*mc_clean_fn) (const struct media_cache *,
                                 const struct mc_job *,
                                 const struct mc_mover *, uint64_t t,
                                 struct hdd_cost *c);

/* A home LBA's region (for SMR: its band): [*lba, *lba + *n). */
typedef void (*mc_region_fn) (void *ctx, uint64_t home, uint64_t *lba,
                              uint64_t *n);

struct media_cache {
  bool on;                      /* media-cache-size > 0, not legacy */
  /* The parameters, in sectors (nanoseconds for idle). */
  uint64_t log_lba, log_sectors;        /* the region */
  uint64_t max_entries;
  uint64_t max_write;           /* larger writes go home */
  uint64_t region_sectors;
  uint64_t idle_ns;             /* host quiet this long: clean */
  uint64_t overhead_ns;         /* per staged write, after the media */
  /* The log. */
  uint64_t head;                /* next log sector, from log_lba */
  uint64_t live;                /* sectors staged and not cleaned */
  uint64_t seq;
  /* The map, in home order.  Its pool is own, or the drive's (an
     estimate's borrowed copy, until it changes it). */
  struct mc_map map;
  struct mc_node *own;
  size_t cap;
  mc_clean_fn clean;
  mc_region_fn region;
  void *region_ctx;
  /* Counters, for the tests and the trace's reader.  clean_ns: the
     arm's time in clean steps (hdd.c adds it). */
  uint64_t staged, cleaned_steps;
  uint64_t clean_ns;
  uint64_t clean_from, clean_end;       /* the last run of clean steps,
                                           back to back (a request
                                           waiting for the arm then waits
                                           for cleaning) */
};

/* From the parameters (media-cache-*=; off with legacy=true or
 * media-cache-size=0).  -1 with err when out of memory.
 */
extern int mc_init (struct media_cache *, const struct hdd_params *,
                    char *err, size_t errlen);
/* The estimate's copy: its own map's memory, nothing in it. */
extern int mc_init_scratch (struct media_cache *, const struct media_cache *);
extern void mc_free (struct media_cache *);

/* The estimate: 'scratch' takes the state of 'mc', its map borrowed. */
extern void mc_lend (struct media_cache *scratch,
                     const struct media_cache *mc);

extern void mc_set_cleaner (struct media_cache *, mc_clean_fn);
extern void mc_set_regions (struct media_cache *, mc_region_fn, void *ctx);

/* ---- staging ---- */

/* A media write of home LBAs [lba, lba+n) goes to the log: the cache
 * is on and the write is no longer than media-cache-max-write=.
 */
extern bool mc_wants (const struct media_cache *, uint64_t lba, uint64_t n);
/* The log and the map have room for it (it may replace staged data). */
extern bool mc_has_room (const struct media_cache *, uint64_t lba,
                         uint64_t n);
/* Where it goes: the log's next sector (the drive may land later on
 * the same track: mc_stage is told where it wrote).
 */
extern uint64_t mc_log_head (const struct media_cache *, uint64_t n);
/* It was written at log LBA 'at' (at >= the head, on its track): map
 * it, the head moves past it.  Requires mc_has_room.
 */
extern void mc_stage (struct media_cache *, uint64_t lba, uint64_t n,
                      uint64_t at);

/* Home LBAs [lba, lba+n) were written home (a DM-SMR band written in
 * place): what the log held of them is stale, forget it.
 */
extern void mc_forget (struct media_cache *, uint64_t lba, uint64_t n);

/* ---- reading ---- */

/* Staged sectors in [lba, lba+n). */
extern uint64_t mc_overlap (const struct media_cache *, uint64_t lba,
                            uint64_t n);
/* The first piece of [lba, lba+n): *n_out sectors from lba, at drive
 * LBA *at (in the log if staged, else lba itself: home).  A fragmented
 * read calls it piece by piece.
 */
extern void mc_piece (const struct media_cache *, uint64_t lba, uint64_t n,
                      uint64_t *at, uint64_t *n_out);

/* ---- cleaning ---- */

extern bool mc_has_staged (const struct media_cache *);
/* The next clean step: the region of the oldest staged extent. */
extern bool mc_next_job (const struct media_cache *, struct mc_job *);
/* Run it: the installed cleaner (mc_clean_cmr unless set). */
extern uint64_t mc_clean (const struct media_cache *, const struct mc_job *,
                          const struct mc_mover *, uint64_t t,
                          struct hdd_cost *c);
/* The job's extents in home order: the first, the one after e; NULL
 * after the last.  The map must not change in between.
 */
extern const struct mc_extent *mc_job_first (const struct media_cache *,
                                             const struct mc_job *);
extern const struct mc_extent *mc_job_next (const struct media_cache *,
                                            const struct mc_job *,
                                            const struct mc_extent *e);
/* The job is done: forget its extents. */
extern void mc_clean_done (struct media_cache *, const struct mc_job *);

/* A conventional (CMR) drive's cleaner: the region's staged extents
 * read from the log in log order, then written home in home order.
 */
extern uint64_t mc_clean_cmr (const struct media_cache *,
                              const struct mc_job *,
                              const struct mc_mover *, uint64_t t,
                              struct hdd_cost *c);

/* ---- fullness ---- */

static inline uint64_t
mc_entries (const struct media_cache *mc)
{
  return mc->map.len;
}

static inline uint64_t
mc_live_sectors (const struct media_cache *mc)
{
  return mc->live;
}

#endif /* HDDSIM_MEDIA_CACHE_H */
