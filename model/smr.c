/* hddsim: DM-SMR on the media cache: bands, which writes go home,
 * cleaning a band (see smr.h; the sources in docs/smr.md).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "smr.h"
#include "../common/u64.h"

#define NONE UINT64_MAX
/* Home runs awaiting their media write: a bound (smr_classify stages
 * a run past it), and the tree's room for an estimate's deletions.
 */
#define INPLACE_MAX 4096

/* ---- bands ---- */

/* A band at lba: sizes go linearly from outer (LBA 0) to inner. */
static uint64_t
band_size_at (uint64_t lba, uint64_t sectors, uint64_t outer, uint64_t inner)
{
  unsigned __int128 d;

  if (outer >= inner) {
    d = (unsigned __int128) (outer - inner) * lba / sectors;
    return outer - (uint64_t) d;
  }
  d = (unsigned __int128) (inner - outer) * lba / sectors;
  return outer + (uint64_t) d;
}

/* The bands' count; their starts into starts[] when not NULL. */
static uint64_t
count_bands (uint64_t sectors, uint64_t outer, uint64_t inner,
             uint64_t *starts)
{
  uint64_t lba = 0, n = 0;

  while (lba < sectors) {
    if (starts)
      starts[n] = lba;
    lba += band_size_at (lba, sectors, outer, inner);
    n++;
  }
  if (starts)
    starts[n] = sectors;
  return n;
}

uint64_t
smr_band_of (const struct smr *s, uint64_t lba)
{
  uint64_t lo = 0, hi = s->nbands - 1;

  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    if (s->band_start[mid] <= lba)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

static uint64_t
band_end (const struct smr *s, uint64_t b)
{
  return s->band_start[b + 1];
}

/* The media cache's region of a home LBA: its band (mc_region_fn). */
static void
band_region (void *ctx, uint64_t home, uint64_t *lba, uint64_t *n)
{
  const struct smr *s = ctx;
  uint64_t b = smr_band_of (s, home);

  *lba = s->band_start[b];
  *n = band_end (s, b) - *lba;
}

/* ---- which writes go home ---- */

/* A command's piece at lba goes home: it continues the run home
 * exactly, whatever its size; or the command is a large one and the
 * piece begins its band.  Only a run's start needs a large command:
 * the drive has then seen a sequential stream and appends to the
 * band's write pointer, so md's recovery (1016 KiB and 8 KiB commands
 * in turn) stays home, while a stream of small writes never starts a
 * run and is staged (S5's 32 KiB collapse).  A model assumption, see
 * docs/smr.md.
 */
static bool
piece_home (const struct smr *s, uint64_t lba, uint64_t cmd_n)
{
  if (lba == s->stream_next)
    return true;
  if (cmd_n < s->seq_min)
    return false;
  return lba == s->band_start[smr_band_of (s, lba)];
}

uint64_t
smr_classify (struct smr *s, uint64_t lba, uint64_t n)
{
  uint64_t end = lba + n, home = 0;

  while (lba < end) {
    uint64_t k = min64 (end, band_end (s, smr_band_of (s, lba))) - lba;

    if (piece_home (s, lba, n) && s->inplace->len < INPLACE_MAX) {
      s->stream_next = lba + k;
      extents_add (s->inplace, lba, k);
      home += k;
    }
    else
      extents_remove (s->inplace, lba, k);
    lba += k;
  }
  return home;
}

uint64_t
smr_run (const struct smr *s, uint64_t lba, uint64_t n, bool *home)
{
  struct extent e;
  bool found = extents_next (s->inplace, lba, &e);

  /* extents_next wraps to the lowest range: e is ours only if it
     starts at or before lba and ends after it, or starts inside. */
  if (found && e.lba <= lba && e.lba + e.n > lba) {
    *home = true;
    return min64 (n, e.lba + e.n - lba);
  }
  *home = false;
  /* A staged run ends at its band's end too: an extent of the map
     lies in one band, cleaned with it. */
  n = min64 (n, band_end (s, smr_band_of (s, lba)) - lba);
  if (found && e.lba > lba && e.lba < lba + n)
    return e.lba - lba;
  return n;
}

void
smr_written_home (struct smr *s, uint64_t lba, uint64_t n)
{
  extents_remove (s->inplace, lba, n);
}

/* ---- cleaning a band ---- */

/* Read the band, read its staged extents from the log (in home order,
 * as the map keeps them), write the band back whole: the band's
 * read-modify-write that shingling forces, one band at a time (Skylight
 * as recalled, not verified in its text: docs/smr.md, Sources).
 */
uint64_t
smr_clean_band (const struct media_cache *mc, const struct mc_job *job,
                const struct mc_mover *mv, uint64_t t, struct hdd_cost *c)
{
  const struct mc_extent *e;

  t = mv->access (mv->ctx, false, t, job->lba, job->n, c);
  for (e = mc_job_first (mc, job); e; e = mc_job_next (mc, job, e))
    t = mv->access (mv->ctx, false, t, e->log, e->n, c);
  return mv->access (mv->ctx, true, t, job->lba, job->n, c);
}

/* ---- building ---- */

/* smr-aged=P: P% of the log and P% of the map already in use, by
 * extents of equal size at home LBAs drawn over the whole drive (the
 * data of random writes, not yet cleaned), appended in the log's order.
 */
static void
age (struct smr *s, struct media_cache *mc, uint64_t pct, uint64_t sectors)
{
  uint64_t want = mc->log_sectors * pct / 100;
  uint64_t count = mc->max_entries * pct / 100, size, i, at = 0;

  if (want == 0 || count == 0)
    return;
  size = max64 (want / count, 1);
  for (i = 0; i < count && at + size <= want; i++) {
    uint64_t lba = splitmix64 (i + 1) % (sectors - size);
    uint64_t b = smr_band_of (s, lba);

    if (band_end (s, b) - s->band_start[b] < size)
      continue;                 /* a band smaller than the extent */
    lba = min64 (lba, band_end (s, b) - size);
    if (!mc_has_room (mc, lba, size))
      break;
    mc_stage (mc, lba, size, mc->log_lba + at);
    at += size;
  }
}

static int
check (const struct hdd_params *p, uint64_t sectors, char *err, size_t errlen)
{
  if (p->smr_band_outer < SECTOR || p->smr_band_inner < SECTOR
      || p->smr_band_outer / SECTOR >= sectors) {
    snprintf (err, errlen, "smr=1: smr-band-outer=%" PRIu64 " and "
              "smr-band-inner=%" PRIu64 " must each hold a sector and be "
              "smaller than the drive (the shingled bands' sizes)",
              p->smr_band_outer, p->smr_band_inner);
    return -1;
  }
  return 0;
}

int
smr_init (struct smr *s, const struct hdd_params *p, uint64_t sectors,
          struct media_cache *mc, char *err, size_t errlen)
{
  uint64_t outer = p->smr_band_outer / SECTOR;
  uint64_t inner = p->smr_band_inner / SECTOR;

  memset (s, 0, sizeof *s);
  s->stream_next = NONE;
  if (!p->smr || !mc->on)
    return 0;
  if (check (p, sectors, err, errlen) == -1)
    return -1;
  s->on = s->owns = true;
  s->nbands = count_bands (sectors, outer, inner, NULL);
  s->band_start = malloc ((s->nbands + 1) * sizeof *s->band_start);
  s->inplace = calloc (1, sizeof *s->inplace);
  if (!s->band_start || !s->inplace
      || extents_init (s->inplace, 2 * INPLACE_MAX + 64,
                       4 * INPLACE_MAX + 128) == -1) {
    snprintf (err, errlen, "smr: out of memory (%" PRIu64 " bands)",
              s->nbands);
    smr_free (s);
    return -1;
  }
  count_bands (sectors, outer, inner, s->band_start);
  s->seq_min = (p->smr_seq_min + SECTOR - 1) / SECTOR;
  mc_set_regions (mc, band_region, s);
  mc_set_cleaner (mc, smr_clean_band);
  age (s, mc, p->smr_aged, sectors);
  return 0;
}

void
smr_free (struct smr *s)
{
  if (!s->owns)
    return;
  free (s->band_start);
  if (s->inplace)
    extents_free (s->inplace);
  free (s->inplace);
  memset (s, 0, sizeof *s);
}

void
smr_lend (struct smr *scratch, const struct smr *s)
{
  *scratch = *s;
  scratch->owns = false;
  if (s->on)
    extents_begin (scratch->inplace);
}

void
smr_return (struct smr *scratch)
{
  if (scratch->on)
    extents_rollback (scratch->inplace);
}
