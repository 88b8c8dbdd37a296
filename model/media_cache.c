/* hddsim: the media cache (see media_cache.h). */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "media_cache.h"
#include "../common/u64.h"

/* A staged write may cut one extent in two and add itself: the map
 * holds up to two more than its bound while mc_stage runs.
 */
#define MAP_SLACK 2

int
mc_init (struct media_cache *mc, const struct hdd_params *p,
         char *err, size_t errlen)
{
  memset (mc, 0, sizeof *mc);
  if (p->legacy || p->mc_size == 0 || p->controller == CTLR_DISKSIM
      || p->kind == KIND_FIXED)
    return 0;
  mc->on = true;
  mc->log_lba = p->mc_at / SECTOR;
  mc->log_sectors = p->mc_size / SECTOR;
  mc->max_entries = p->mc_entries;
  mc->max_write = p->mc_max_write / SECTOR;
  mc->region_sectors = p->mc_region / SECTOR;
  mc->idle_ns = p->mc_idle;
  mc->overhead_ns = p->mc_overhead;
  mc->cap = mc->max_entries + MAP_SLACK;
  mc->clean = mc_clean_cmr;
  mc->own = calloc (mc->cap, sizeof *mc->own);
  if (!mc->own) {
    snprintf (err, errlen, "out of memory (the media cache's map, "
              "media-cache-entries=%" PRIu64 ")", p->mc_entries);
    return -1;
  }
  mc->map = mc->own;
  return 0;
}

int
mc_init_scratch (struct media_cache *s, const struct media_cache *mc)
{
  memset (s, 0, sizeof *s);
  if (!mc->on)
    return 0;
  s->cap = mc->cap;
  s->own = calloc (s->cap, sizeof *s->own);
  return s->own ? 0 : -1;
}

void
mc_free (struct media_cache *mc)
{
  free (mc->own);
  memset (mc, 0, sizeof *mc);
}

void
mc_lend (struct media_cache *scratch, const struct media_cache *mc)
{
  struct mc_extent *own = scratch->own;

  *scratch = *mc;
  scratch->own = own;           /* map stays the drive's: borrowed */
}

/* About to change the map: an estimate's copy takes its own first. */
static void
mc_own (struct media_cache *mc)
{
  if (mc->map != mc->own) {
    memcpy (mc->own, mc->map, mc->len * sizeof *mc->map);
    mc->map = mc->own;
  }
}

void
mc_set_cleaner (struct media_cache *mc, mc_clean_fn fn)
{
  mc->clean = fn ? fn : mc_clean_cmr;
}

void
mc_set_regions (struct media_cache *mc, mc_region_fn fn, void *ctx)
{
  mc->region = fn;
  mc->region_ctx = ctx;
}

/* ---- the map ---- */

static uint64_t
ext_end (const struct mc_extent *e)
{
  return e->home + e->n;
}

/* The first extent that ends after lba (extents are disjoint and in
 * home order, so their ends are in order too).
 */
static size_t
first_ending_after (const struct media_cache *mc, uint64_t lba)
{
  size_t lo = 0, hi = mc->len;

  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ext_end (&mc->map[mid]) <= lba)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The first extent that starts at or after lba. */
static size_t
first_starting_at (const struct media_cache *mc, uint64_t lba)
{
  size_t lo = 0, hi = mc->len;

  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (mc->map[mid].home < lba)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

uint64_t
mc_overlap (const struct media_cache *mc, uint64_t lba, uint64_t n)
{
  uint64_t end = lba + n, sum = 0;
  size_t i;

  if (!mc->on)
    return 0;
  for (i = first_ending_after (mc, lba);
       i < mc->len && mc->map[i].home < end; i++)
    sum += min64 (end, ext_end (&mc->map[i])) - max64 (lba, mc->map[i].home);
  return sum;
}

void
mc_piece (const struct media_cache *mc, uint64_t lba, uint64_t n,
          uint64_t *at, uint64_t *n_out)
{
  size_t i = mc->on ? first_ending_after (mc, lba) : 0;
  const struct mc_extent *e = i < mc->len ? &mc->map[i] : NULL;

  if (e && e->home <= lba) {            /* staged: from the log */
    *at = e->log + (lba - e->home);
    *n_out = min64 (n, ext_end (e) - lba);
  }
  else {                                /* home, up to the next staged */
    *at = lba;
    *n_out = e ? min64 (n, e->home - lba) : n;
  }
}

/* Extents after [lba, lba+n) is cut out and one added: those it does
 * not cover whole, one more if it splits one, and itself.
 */
static size_t
len_after_stage (const struct media_cache *mc, uint64_t lba, uint64_t n)
{
  uint64_t end = lba + n;
  size_t i, len = mc->len + 1;

  for (i = first_ending_after (mc, lba);
       i < mc->len && mc->map[i].home < end; i++) {
    const struct mc_extent *e = &mc->map[i];
    if (e->home >= lba && ext_end (e) <= end)
      len--;
    else if (e->home < lba && ext_end (e) > end)
      len++;
  }
  return len;
}

bool
mc_wants (const struct media_cache *mc, uint64_t lba, uint64_t n)
{
  (void) lba;
  return mc->on && n > 0 && n <= mc->max_write && n <= mc->log_sectors;
}

bool
mc_has_room (const struct media_cache *mc, uint64_t lba, uint64_t n)
{
  return mc->live - mc_overlap (mc, lba, n) + n <= mc->log_sectors
    && len_after_stage (mc, lba, n) <= mc->max_entries;
}

uint64_t
mc_log_head (const struct media_cache *mc, uint64_t n)
{
  return mc->log_lba + (mc->head + n > mc->log_sectors ? 0 : mc->head);
}

static void
map_insert (struct media_cache *mc, size_t i, const struct mc_extent *e)
{
  memmove (&mc->map[i + 1], &mc->map[i], (mc->len - i) * sizeof *mc->map);
  mc->map[i] = *e;
  mc->len++;
}

static void
map_delete (struct media_cache *mc, size_t i, size_t count)
{
  memmove (&mc->map[i], &mc->map[i + count],
           (mc->len - i - count) * sizeof *mc->map);
  mc->len -= count;
}

/* Staged data of [lba, lba+n) is replaced: cut it from the map. */
static void
map_cut (struct media_cache *mc, uint64_t lba, uint64_t n)
{
  uint64_t end = lba + n;
  size_t i = first_ending_after (mc, lba);

  while (i < mc->len && mc->map[i].home < end) {
    struct mc_extent *e = &mc->map[i];
    uint64_t e_end = ext_end (e);

    if (e->home < lba && e_end > end) {         /* split in two */
      struct mc_extent tail = {
        end, e_end - end, e->log + (end - e->home), e->seq
      };
      e->n = lba - e->home;
      map_insert (mc, i + 1, &tail);
      mc->live -= n;
      return;
    }
    if (e->home < lba) {                        /* keep its front */
      mc->live -= e_end - lba;
      e->n = lba - e->home;
      i++;
    }
    else if (e_end > end) {                     /* keep its back */
      mc->live -= end - e->home;
      e->log += end - e->home;
      e->n = e_end - end;
      e->home = end;
      return;
    }
    else {                                      /* all of it */
      mc->live -= e->n;
      map_delete (mc, i, 1);
    }
  }
}

void
mc_stage (struct media_cache *mc, uint64_t lba, uint64_t n, uint64_t at)
{
  struct mc_extent e = { lba, n, at, mc->seq++ };
  size_t i;

  mc_own (mc);
  map_cut (mc, lba, n);
  i = first_starting_at (mc, lba);
  /* Appended right after the extent before it, in home and in the
     log (a sequential run staged piece by piece): one extent. */
  if (i > 0 && ext_end (&mc->map[i - 1]) == lba
      && mc->map[i - 1].log + mc->map[i - 1].n == at)
    mc->map[i - 1].n += n;
  else
    map_insert (mc, i, &e);
  mc->live += n;
  mc->head = at - mc->log_lba + n;
  mc->staged++;
}

void
mc_forget (struct media_cache *mc, uint64_t lba, uint64_t n)
{
  if (mc_overlap (mc, lba, n) == 0)
    return;
  mc_own (mc);
  map_cut (mc, lba, n);
}

/* ---- cleaning ---- */

bool
mc_has_staged (const struct media_cache *mc)
{
  return mc->on && mc->len > 0;
}

static void
region_of (const struct media_cache *mc, uint64_t home, uint64_t *lba,
           uint64_t *n)
{
  if (mc->region) {
    mc->region (mc->region_ctx, home, lba, n);
    return;
  }
  *lba = home - home % mc->region_sectors;
  *n = mc->region_sectors;
}

bool
mc_next_job (const struct media_cache *mc, struct mc_job *job)
{
  size_t i, oldest = 0;

  if (!mc_has_staged (mc))
    return false;
  for (i = 1; i < mc->len; i++)
    if (mc->map[i].seq < mc->map[oldest].seq)
      oldest = i;
  region_of (mc, mc->map[oldest].home, &job->lba, &job->n);
  job->first = first_starting_at (mc, job->lba);
  for (i = job->first;
       i < mc->len && mc->map[i].home < job->lba + job->n; i++)
    ;
  job->count = i - job->first;
  return true;
}

uint64_t
mc_clean (const struct media_cache *mc, const struct mc_job *job,
          const struct mc_mover *mv, uint64_t t, struct hdd_cost *c)
{
  return mc->clean (mc, job, mv, t, c);
}

void
mc_clean_done (struct media_cache *mc, const struct mc_job *job)
{
  size_t i;

  mc_own (mc);
  for (i = job->first; i < job->first + job->count; i++)
    mc->live -= mc->map[i].n;
  map_delete (mc, job->first, job->count);
  mc->cleaned_steps++;
}

/* The staged extents are read from the log one by one (in home order:
 * the log is a small part of the stroke, so the seeks between them are
 * short), into the buffer, then written home in home order (C-LOOK
 * over the region).
 */
uint64_t
mc_clean_cmr (const struct media_cache *mc, const struct mc_job *job,
              const struct mc_mover *mv, uint64_t t, struct hdd_cost *c)
{
  size_t i;

  for (i = job->first; i < job->first + job->count; i++)
    t = mv->access (mv->ctx, false, t, mc->map[i].log, mc->map[i].n, c);
  for (i = job->first; i < job->first + job->count; i++)
    t = mv->access (mv->ctx, true, t, mc->map[i].home, mc->map[i].n, c);
  return t;
}
