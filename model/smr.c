/* hddsim: drive-managed SMR: bands, the persistent cache, cleaning
 * (see smr.h; the rules' sources are in docs/smr.md).
 *
 * Simplifications, each said in docs/smr.md: the map counts merged
 * ranges (adjacent staged writes are one extent); the log's space is
 * the valid data it holds (a rewrite of staged data takes no more);
 * a staged fragment's place in the log is not kept but drawn from its
 * LBA (deterministically, uniformly over the region), so reading it
 * back costs a short seek and a rotation as on the drive; the region's
 * tracks are timed as those of the LBAs it stands at.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "smr.h"
#include "../common/u64.h"

#define NONE UINT64_MAX
/* Host runs in place awaiting their media write (smr_classify). */
#define INPLACE_MAX 4096

/* ---- bands ---- */

/* Band sizes go linearly from the outer size at LBA 0 to the inner
 * one at the end (bands are a number of tracks, and tracks shrink
 * inwards: Skylight measured 15-40 MiB bands, larger at the OD).
 */
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

/* ---- per-band state, and an estimate's undo of it ---- */

/* The band's state, to change: an estimate's copy keeps what it was
 * the first time it changes it, for smr_return.
 */
static struct smr_band *
band_w (struct smr *s, uint64_t b)
{
  if (s->txn && s->touched[b] != s->gen) {
    s->touched[b] = s->gen;
    s->undo[s->nundo++] = (struct smr_undo) { (uint32_t) b, s->band[b] };
  }
  return &s->band[b];
}

/* ---- the FIFO of bands to clean ---- */

/* The ring holds twice the bands: an estimate's copy appends after the
 * drive's live entries without reaching them, even if it dequeues and
 * enqueues every band once.
 */
static uint64_t
ring (const struct smr *s)
{
  return 2 * s->nbands;
}

static void
enqueue (struct smr *s, uint64_t b)
{
  if (s->band[b].queued)
    return;
  s->fifo[(s->fifo_head + s->fifo_len) % ring (s)] = (uint32_t) b;
  s->fifo_len++;
  band_w (s, b)->queued = 1;
}

/* The band staged first that still has data in the cache; NONE if
 * none.
 */
static uint64_t
dequeue (struct smr *s)
{
  while (s->fifo_len > 0) {
    uint64_t b = s->fifo[s->fifo_head];
    s->fifo_head = (s->fifo_head + 1) % ring (s);
    s->fifo_len--;
    band_w (s, b)->queued = 0;
    if (s->band[b].entries > 0)
      return b;
  }
  return NONE;
}

/* Band b's log entries are dropped (cleaned, or rewritten in place). */
static void
band_drop (struct smr *s, uint64_t b)
{
  struct smr_band *x = band_w (s, b);

  s->entries -= x->entries;
  s->logged -= x->logged;
  x->entries = x->logged = 0;
}

/* ---- where staged data lies in the region ---- */

static uint64_t
log_place (const struct smr *s, uint64_t lba, uint64_t n)
{
  uint64_t room = s->pc_sectors > n ? s->pc_sectors - n : 1;

  return s->pc_lba + splitmix64 (lba) % room;
}

/* ---- cleaning ---- */

/* Read band b, read its log entries from the cache, rewrite it whole
 * (Skylight's read-modify-write of a band); from t.  The entries are
 * read one by one, as many as were staged, each where the log put it.
 */
static uint64_t
clean_band (struct smr *s, const struct mech *m, struct arm *a, uint64_t t,
            uint64_t b, uint64_t *head_lba)
{
  uint64_t lo = s->band_start[b], hi = band_end (s, b), t0 = t, i;
  uint64_t k = s->band[b].entries;
  uint64_t each = k ? max64 (s->band[b].logged / k, 1) : 0;

  t = mech_access (m, a, false, t, lo, hi - lo, NULL);
  for (i = 0; i < k; i++)
    t = mech_access (m, a, false, t, log_place (s, lo + i * each, each),
                     each, NULL);
  t = mech_access (m, a, true, t, lo, hi - lo, NULL);
  extents_remove (s->staged, lo, hi - lo);
  band_drop (s, b);
  *head_lba = hi;
  s->bands_cleaned++;
  s->clean_ns += t - t0;
  return t;
}

static uint64_t
clean_oldest (struct smr *s, const struct mech *m, struct arm *a, uint64_t t,
              uint64_t *head_lba)
{
  uint64_t b = dequeue (s);

  return b == NONE ? t : clean_band (s, m, a, t, b, head_lba);
}

uint64_t
smr_idle_from (const struct smr *s)
{
  if (!s->on || s->entries == 0)
    return NONE;
  return s->last_host + s->idle_ns;
}

uint64_t
smr_idle (struct smr *s, const struct mech *m, struct arm *a, uint64_t from,
          uint64_t t, uint64_t *head_lba)
{
  while (s->entries > 0 && from < t)
    from = clean_oldest (s, m, a, from, head_lba);
  return from;
}

/* ---- writes ---- */

/* A command's piece [lba, lba+n) inside one band goes in place: it
 * begins the band, or continues a run in place, and the command is a
 * large one.
 */
static bool
piece_in_place (const struct smr *s, uint64_t lba, uint64_t cmd_n)
{
  if (cmd_n < s->seq_min)
    return false;
  return lba == s->band_start[smr_band_of (s, lba)] || lba == s->stream_next;
}

uint64_t
smr_classify (struct smr *s, uint64_t lba, uint64_t n)
{
  uint64_t end = lba + n, in = 0;

  while (lba < end) {
    uint64_t b = smr_band_of (s, lba);
    uint64_t k = min64 (end, band_end (s, b)) - lba;

    /* The set is bounded (smr_init); past it a run is staged. */
    if (piece_in_place (s, lba, n) && s->inplace->len < INPLACE_MAX) {
      s->stream_next = lba + k;
      extents_add (s->inplace, lba, k);
      in += k;
    }
    else
      extents_remove (s->inplace, lba, k);
    lba += k;
  }
  return in;
}

/* Room in the cache's log for n more sectors, and in its map for one
 * more entry.
 */
static bool
has_room (const struct smr *s, uint64_t n)
{
  return s->logged + n <= s->pc_sectors && s->entries < s->map_max;
}

/* Append [lba, lba+n) (inside one band) to the log: one entry. */
static uint64_t
stage (struct smr *s, const struct mech *m, struct arm *a, uint64_t t,
       uint64_t lba, uint64_t n, struct hdd_cost *c, uint64_t *head_lba)
{
  uint64_t t0 = t, at, b = smr_band_of (s, lba);
  struct smr_band *x;

  while (!has_room (s, n) && s->entries > 0)
    t = clean_oldest (s, m, a, t, head_lba);
  if (c)
    c->busy_ns += t - t0;
  if (s->log_head + n > s->pc_sectors)
    s->log_head = 0;
  at = s->pc_lba + s->log_head;
  t = mech_access (m, a, true, t, at, n, c);
  s->log_head += n;
  *head_lba = at + n;
  extents_add (s->staged, lba, n);
  x = band_w (s, b);
  x->entries++;
  x->logged += (uint32_t) n;
  s->entries++;
  s->logged += n;
  enqueue (s, b);
  return t;
}

/* [lba, lba+n) in place: the band has the newest data. */
static uint64_t
write_in_place (struct smr *s, const struct mech *m, struct arm *a,
                uint64_t t, uint64_t lba, uint64_t n, struct hdd_cost *c,
                uint64_t *head_lba)
{
  uint64_t b = smr_band_of (s, lba), lo = s->band_start[b];

  t = mech_access (m, a, true, t, lba, n, c);
  extents_remove (s->staged, lba, n);
  extents_remove (s->inplace, lba, n);
  /* A band with nothing staged left: its log entries are obsolete. */
  if (extents_overlap (s->staged, lo, band_end (s, b) - lo) == 0)
    band_drop (s, b);
  *head_lba = lba + n;
  return t;
}

/* [lba, lba+n) staged, band by band (an extent of the map lies in one
 * band).
 */
static uint64_t
write_staged (struct smr *s, const struct mech *m, struct arm *a, uint64_t t,
              uint64_t lba, uint64_t n, struct hdd_cost *c,
              uint64_t *head_lba)
{
  uint64_t end = lba + n;

  while (lba < end) {
    uint64_t k = min64 (end, band_end (s, smr_band_of (s, lba))) - lba;
    t = stage (s, m, a, t, lba, k, c, head_lba);
    lba += k;
  }
  return t;
}

uint64_t
smr_write (struct smr *s, const struct mech *m, struct arm *a, uint64_t t,
           uint64_t lba, uint64_t n, struct hdd_cost *c, uint64_t *head_lba)
{
  uint64_t end = lba + n;
  struct extent e;

  /* Runs the host's commands made in place (smr_classify), the rest
     staged, in LBA order. */
  while (lba < end) {
    bool in = extents_next (s->inplace, lba, &e) && e.lba <= lba
      && e.lba + e.n > lba;
    uint64_t stop;

    if (in)
      stop = min64 (end, e.lba + e.n);
    else
      stop = extents_next (s->inplace, lba, &e) && e.lba > lba
        && e.lba < end ? e.lba : end;
    t = in ? write_in_place (s, m, a, t, lba, stop - lba, c, head_lba)
      : write_staged (s, m, a, t, lba, stop - lba, c, head_lba);
    lba = stop;
  }
  return t;
}

/* ---- reads ---- */

bool
smr_read_staged (const struct smr *s, uint64_t lba, uint64_t n)
{
  return s->on && extents_overlap (s->staged, lba, n) > 0;
}

/* Staged [lba, lba+k): as many fragments as the band's log entries
 * are long on average (the entries themselves are not kept), each
 * where the log put it.
 */
static uint64_t
read_fragments (const struct smr *s, const struct mech *m, struct arm *a,
                uint64_t t, uint64_t lba, uint64_t k, struct hdd_cost *c,
                uint64_t *head_lba)
{
  const struct smr_band *x = &s->band[smr_band_of (s, lba)];
  uint64_t frags = 1, i, done = 0;

  if (x->logged > 0)
    frags = min64 (k, max64 (1, (k * x->entries + x->logged - 1) / x->logged));
  for (i = 0; i < frags; i++) {
    uint64_t n = (k * (i + 1)) / frags - done;
    uint64_t at = log_place (s, lba + done, n);
    t = mech_access (m, a, false, t, at, n, c);
    *head_lba = at + n;
    done += n;
  }
  return t;
}

uint64_t
smr_read (const struct smr *s, const struct mech *m, struct arm *a,
          uint64_t t, uint64_t lba, uint64_t n, struct hdd_cost *c,
          uint64_t *head_lba)
{
  uint64_t end = lba + n;
  struct extent e;

  while (lba < end) {
    uint64_t k;

    if (extents_next (s->staged, lba, &e) && e.lba <= lba
        && e.lba + e.n > lba) {
      /* In a staged range (extents_next wraps: e is the one we're in
         only if it starts at or before lba and ends after it). */
      k = min64 (end, e.lba + e.n) - lba;
      t = read_fragments (s, m, a, t, lba, k, c, head_lba);
    }
    else {
      uint64_t stop = end;
      if (extents_next (s->staged, lba, &e) && e.lba > lba && e.lba < end)
        stop = e.lba;
      k = stop - lba;
      t = mech_access (m, a, false, t, lba, k, c);
      *head_lba = lba + k;
    }
    lba += k;
  }
  return t;
}

/* ---- building ---- */

static int
check (const struct hdd_params *p, uint64_t sectors, char *err, size_t errlen)
{
  if (p->smr_band_outer < SECTOR || p->smr_band_inner < SECTOR) {
    snprintf (err, errlen, "smr=1: smr-band-outer= and smr-band-inner= "
              "must be at least one sector (the shingled bands' sizes)");
    return -1;
  }
  if (p->smr_pc_size < SECTOR || p->smr_pc_size / SECTOR >= sectors) {
    snprintf (err, errlen, "smr-pc-size=%" PRIu64 ": the persistent cache "
              "must hold a sector and be smaller than the drive",
              p->smr_pc_size);
    return -1;
  }
  if (p->smr_map_extents == 0) {
    snprintf (err, errlen, "smr=1: smr-map-extents= must be at least 1");
    return -1;
  }
  return 0;
}

/* smr-aged=P: P% of the cache's log and of its map already used, by
 * entries of equal size at LBAs drawn over the whole drive (the data
 * of random writes, not yet cleaned).
 */
static void
age (struct smr *s, uint64_t pct, uint64_t sectors)
{
  uint64_t want = s->pc_sectors * pct / 100;
  uint64_t count = s->map_max * pct / 100, size, i;

  if (want == 0 || count == 0)
    return;
  size = max64 (want / count, 1);
  for (i = 0; i < count && s->logged + size <= want; i++) {
    uint64_t lba = splitmix64 (i + 1) % (sectors - size);
    uint64_t b = smr_band_of (s, lba);
    struct smr_band *x = &s->band[b];

    if (band_end (s, b) - s->band_start[b] < size)
      continue;                 /* a band smaller than the entry */
    lba = min64 (lba, band_end (s, b) - size);
    extents_add (s->staged, lba, size);
    x->entries++;
    x->logged += (uint32_t) size;
    s->entries++;
    s->logged += size;
    enqueue (s, b);
  }
  s->log_head = s->logged % s->pc_sectors;
}

int
smr_init (struct smr *s, const struct hdd_params *p, uint64_t sectors,
          char *err, size_t errlen)
{
  uint64_t outer = p->smr_band_outer / SECTOR, inner = p->smr_band_inner / SECTOR;
  size_t nodes;

  memset (s, 0, sizeof *s);
  s->stream_next = NONE;
  if (!p->smr)
    return 0;
  if (check (p, sectors, err, errlen) == -1)
    return -1;
  s->on = s->owns = true;
  s->nbands = count_bands (sectors, outer, inner, NULL);
  s->band_start = malloc ((s->nbands + 1) * sizeof *s->band_start);
  s->fifo = malloc (2 * s->nbands * sizeof *s->fifo);
  s->band = calloc (s->nbands, sizeof *s->band);
  s->touched = calloc (s->nbands + 1, sizeof *s->touched);
  s->undo = malloc (s->nbands * sizeof *s->undo);
  s->staged = calloc (1, sizeof *s->staged);
  s->inplace = calloc (1, sizeof *s->inplace);
  /* An estimate may delete every range and add some: the deleted are
     kept until it ends (extents.h). */
  nodes = (size_t) p->smr_map_extents * 2 + 1024;
  if (!s->band_start || !s->fifo || !s->band || !s->touched || !s->undo
      || !s->staged
      || !s->inplace || extents_init (s->staged, nodes, nodes * 2) == -1
      || extents_init (s->inplace, 2 * INPLACE_MAX + 64,
                                      4 * INPLACE_MAX + 128) == -1) {
    snprintf (err, errlen, "smr: out of memory (smr-map-extents=%" PRIu64
              ")", p->smr_map_extents);
    smr_free (s);
    return -1;
  }
  count_bands (sectors, outer, inner, s->band_start);
  s->seq_min = (p->smr_seq_min + SECTOR - 1) / SECTOR;
  s->pc_sectors = p->smr_pc_size / SECTOR;
  s->pc_lba = (unsigned __int128) sectors * p->smr_pc_at / 100;
  s->pc_lba = min64 (s->pc_lba, sectors - s->pc_sectors);
  s->map_max = p->smr_map_extents;
  s->idle_ns = p->smr_idle;
  age (s, p->smr_aged, sectors);
  return 0;
}

void
smr_free (struct smr *s)
{
  if (!s->owns)
    return;
  free (s->band_start);
  free (s->fifo);
  free (s->band);
  free (s->touched);
  free (s->undo);
  if (s->staged)
    extents_free (s->staged);
  if (s->inplace)
    extents_free (s->inplace);
  free (s->staged);
  free (s->inplace);
  memset (s, 0, sizeof *s);
}

/* A new mark for touched[]: its last slot keeps the count, shared by
 * every copy (the array is the drive's).
 */
static uint32_t
next_gen (struct smr *s)
{
  uint32_t *g = &s->touched[s->nbands];

  if (++*g == 0) {              /* wrapped: no mark may look current */
    memset (s->touched, 0, s->nbands * sizeof *s->touched);
    *g = 1;
  }
  return *g;
}

void
smr_lend (struct smr *scratch, const struct smr *s)
{
  *scratch = *s;
  scratch->owns = false;
  if (!s->on)
    return;
  scratch->txn = true;
  scratch->gen = next_gen (scratch);
  scratch->nundo = 0;
  extents_begin (scratch->staged);
  extents_begin (scratch->inplace);
}

void
smr_return (struct smr *scratch)
{
  uint64_t i;

  if (!scratch->on)
    return;
  extents_rollback (scratch->staged);
  extents_rollback (scratch->inplace);
  for (i = scratch->nundo; i-- > 0; )
    scratch->band[scratch->undo[i].b] = scratch->undo[i].old;
  scratch->txn = false;
  scratch->nundo = 0;
}
