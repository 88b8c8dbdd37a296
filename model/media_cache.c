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
  /* Node 0 is the tree's "none"; indices are 32-bit. */
  if (mc->cap < UINT32_MAX)
    mc->own = calloc (mc->cap + 1, sizeof *mc->own);
  if (!mc->own) {
    snprintf (err, errlen, "out of memory (the media cache's map, "
              "media-cache-entries=%" PRIu64 ")", p->mc_entries);
    return -1;
  }
  mcm_init (&mc->map, mc->own);
  return 0;
}

int
mc_init_scratch (struct media_cache *s, const struct media_cache *mc)
{
  memset (s, 0, sizeof *s);
  if (!mc->on)
    return 0;
  s->cap = mc->cap;
  s->own = calloc (s->cap + 1, sizeof *s->own);
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
  struct mc_node *own = scratch->own;

  *scratch = *mc;
  scratch->own = own;           /* the pool stays the drive's: borrowed */
}

/* About to change the map: an estimate's copy takes its own first (the
 * nodes link by index: the copy is the same tree).
 */
static void
mc_own (struct media_cache *mc)
{
  if (mc->map.node != mc->own) {
    memcpy (mc->own, mc->map.node, mcm_span (&mc->map) * sizeof *mc->own);
    mc->map.node = mc->own;
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

/* The extents overlapping [lba, end), in home order: the first, and
 * the one after e (NULL past them).
 */
static struct mc_extent *
first_overlapping (const struct media_cache *mc, uint64_t lba, uint64_t end)
{
  struct mc_extent *e = mcm_end_after (&mc->map, lba);

  return e && e->home < end ? e : NULL;
}

static struct mc_extent *
next_overlapping (const struct media_cache *mc, const struct mc_extent *e,
                  uint64_t end)
{
  struct mc_extent *f = mcm_start_at (&mc->map, ext_end (e));

  return f && f->home < end ? f : NULL;
}

uint64_t
mc_overlap (const struct media_cache *mc, uint64_t lba, uint64_t n)
{
  uint64_t end = lba + n, sum = 0;
  const struct mc_extent *e;

  if (!mc->on)
    return 0;
  for (e = first_overlapping (mc, lba, end); e;
       e = next_overlapping (mc, e, end))
    sum += min64 (end, ext_end (e)) - max64 (lba, e->home);
  return sum;
}

void
mc_piece (const struct media_cache *mc, uint64_t lba, uint64_t n,
          uint64_t *at, uint64_t *n_out)
{
  const struct mc_extent *e = mc->on ? mcm_end_after (&mc->map, lba) : NULL;

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
  size_t len = mc->map.len + 1;
  const struct mc_extent *e;

  for (e = first_overlapping (mc, lba, end); e;
       e = next_overlapping (mc, e, end)) {
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

/* Staged data of [lba, lba+n) is replaced: cut it from the map. */
static void
map_cut (struct media_cache *mc, uint64_t lba, uint64_t n)
{
  uint64_t end = lba + n;
  struct mc_extent *e = first_overlapping (mc, lba, end);

  while (e) {
    uint64_t e_end = ext_end (e);

    if (e->home < lba && e_end > end) {         /* split in two */
      struct mc_extent tail = {
        end, e_end - end, e->log + (end - e->home), e->seq
      };
      e->n = lba - e->home;
      mcm_insert (&mc->map, &tail);
      mc->live -= n;
      return;
    }
    if (e->home < lba) {                        /* keep its front */
      mc->live -= e_end - lba;
      e->n = lba - e->home;
    }
    else if (e_end > end) {                     /* keep its back */
      struct mc_extent back = {
        end, e_end - end, e->log + (end - e->home), e->seq
      };
      mc->live -= end - e->home;
      mcm_delete (&mc->map, e->home);           /* its home orders it */
      mcm_insert (&mc->map, &back);
      return;
    }
    else {                                      /* all of it */
      mc->live -= e->n;
      mcm_delete (&mc->map, e->home);
    }
    e = first_overlapping (mc, lba, end);
  }
}

static void region_of (const struct media_cache *, uint64_t home,
                       uint64_t *lba, uint64_t *n);

/* Staged data at home LBA lba may join the extent starting at home:
 * always with fixed regions (mc_clean_cmr writes each extent home
 * whole, whichever region it reaches into); with a region function (a
 * DM-SMR drive's bands) only inside one band, since a band's cleaning
 * rewrites that band alone and forgets the extents starting in it.
 */
static bool
may_join (const struct media_cache *mc, uint64_t home, uint64_t lba)
{
  uint64_t a, b, n;

  if (!mc->region)
    return true;
  region_of (mc, home, &a, &n);
  region_of (mc, lba, &b, &n);
  return a == b;
}

void
mc_stage (struct media_cache *mc, uint64_t lba, uint64_t n, uint64_t at)
{
  struct mc_extent e = { lba, n, at, mc->seq++ };
  struct mc_extent *before;

  mc_own (mc);
  map_cut (mc, lba, n);
  /* Appended right after the extent before it, in home and in the
     log (a sequential run staged piece by piece): one extent. */
  before = lba > 0 ? mcm_end_after (&mc->map, lba - 1) : NULL;
  if (before && ext_end (before) == lba && before->log + before->n == at
      && may_join (mc, before->home, lba))
    before->n += n;
  else
    mcm_insert (&mc->map, &e);
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
  return mc->on && mc->map.len > 0;
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

const struct mc_extent *
mc_job_first (const struct media_cache *mc, const struct mc_job *job)
{
  const struct mc_extent *e = mcm_start_at (&mc->map, job->lba);

  return e && e->home < job->lba + job->n ? e : NULL;
}

const struct mc_extent *
mc_job_next (const struct media_cache *mc, const struct mc_job *job,
             const struct mc_extent *e)
{
  const struct mc_extent *f = mcm_start_at (&mc->map, ext_end (e));

  return f && f->home < job->lba + job->n ? f : NULL;
}

bool
mc_next_job (const struct media_cache *mc, struct mc_job *job)
{
  const struct mc_extent *e;

  if (!mc_has_staged (mc))
    return false;
  region_of (mc, mcm_oldest (&mc->map)->home, &job->lba, &job->n);
  job->count = 0;
  for (e = mc_job_first (mc, job); e; e = mc_job_next (mc, job, e))
    job->count++;
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
  const struct mc_extent *e;

  mc_own (mc);
  while ((e = mc_job_first (mc, job)) != NULL) {
    mc->live -= e->n;
    mcm_delete (&mc->map, e->home);
  }
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
  const struct mc_extent *e;

  for (e = mc_job_first (mc, job); e; e = mc_job_next (mc, job, e))
    t = mv->access (mv->ctx, false, t, e->log, e->n, c);
  for (e = mc_job_first (mc, job); e; e = mc_job_next (mc, job, e))
    t = mv->access (mv->ctx, true, t, e->home, e->n, c);
  return t;
}
