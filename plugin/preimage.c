/* hddsim: the pre-image store (see preimage.h and docs/power-loss.md).
 *
 * Per sector whose newest data may not be on the media, an entry: the
 * base (what the media holds once every media write reported so far
 * that has ended is counted) and the versions of the media writes of
 * that sector still under way, oldest first.  A version is either a
 * copy in a sector buffer, the all-zero sector (no buffer), or "lazy":
 * the content the file holds after the write with ticket 'tag' (writes
 * reach the file one by one, ticket by ticket), not yet overwritten.
 * Before a write with ticket j overwrites a sector, every lazy version
 * of it with a tag below j is copied out; the one with tag j (the
 * request's own media write, reported while it was served) stays
 * lazy.  A lazy version is therefore always what the file holds.
 *
 * When modeled time passes the end of a media write, its version
 * becomes the base; a lazy base with nothing under way is what the
 * file holds, so the entry goes.
 *
 * Memory: a fixed pool, sized at start-up (preimage_init).  The entries
 * are the sectors dirty in the model's write cache (at most its
 * capacity), those of the media writes under way (the destage piece,
 * or the one request on the drive) and of trims not yet flushed.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "../common/u64.h"
#include "debug.h"
#include "image.h"
#include "preimage.h"

#define SECT 512
#define NONE UINT32_MAX
#define LAZY UINT32_MAX         /* version.buf: the file holds it */
#define ZEROES (UINT32_MAX - 1) /* version.buf: all zeroes */
#define NOBUF (UINT32_MAX - 2)  /* buf_get: the pool is empty */
#define MAX_PEND 4
/* A destage piece (model/cache.c's DESTAGE_MAX_SECTORS) and slack. */
#define DESTAGE_SECTORS 512
#define SCRATCH_BYTES (UINT64_C(1) << 20)

struct version {
  uint32_t buf;                 /* a buffer, LAZY or ZEROES */
  /* The file after this ticket (LAZY: what it still holds; a copy:
     what it held then, kept for -D hddsim.powercut=1's report). */
  uint64_t tag;
};

struct pend {
  uint32_t run;
  struct version v;
};

struct entry {
  uint64_t sector;
  struct version base;
  uint8_t npend;
  bool used;
  bool trim_wait;               /* trimmed, durable at the next flush */
  struct pend pend[MAX_PEND];
};

enum run_kind {
  RUN_WALK,                     /* a media write: sector by sector */
  RUN_WHOLE,                    /* [offset, +length) at once at end_ns */
  RUN_SCATTERED,                /* trims a flush made durable */
};

struct run {
  struct hdd_media_write ev;
  enum run_kind kind;
};

static struct {
  bool on;
  bool write_back;
  uint64_t image_bytes;
  uint64_t applied;             /* tickets: writes that reached the file */

  char *bufs;
  uint32_t nbufs, *free_bufs, nfree_bufs;

  struct entry *entries;
  uint32_t nentries, *free_entries, nfree_entries;
  uint32_t *hash;               /* entry index or NONE */
  uint64_t hash_mask;
  uint64_t ntrim_wait;

  struct run *runs;             /* a ring, in the order reported */
  uint32_t nruns, run_head, run_count;

  char *scratch;
  uint64_t overflows;           /* the pool was short: see preimage_observe */
} ms;

/* ---- the pool ---- */

static uint32_t
buf_get (void)
{
  return ms.nfree_bufs ? ms.free_bufs[--ms.nfree_bufs] : NOBUF;
}

static void
buf_put (uint32_t b)
{
  if (b != LAZY && b != ZEROES && b != NOBUF)
    ms.free_bufs[ms.nfree_bufs++] = b;
}

static char *
buf_at (uint32_t b)
{
  return ms.bufs + (size_t) b * SECT;
}

static uint64_t
sector_bytes (uint64_t s)
{
  return min64 (SECT, ms.image_bytes - s * SECT);
}

static bool
all_zero (const char *p, uint64_t n)
{
  return n == 0 || (p[0] == 0 && memcmp (p, p + 1, n - 1) == 0);
}

/* A copy of the sector at p: a buffer, or ZEROES. */
static uint32_t
copy_of (const char *p, uint64_t n)
{
  uint32_t b;

  if (all_zero (p, n))
    return ZEROES;
  b = buf_get ();
  if (b != NOBUF)
    memcpy (buf_at (b), p, n);
  return b;
}

/* ---- entries by sector: linear probing ---- */

static uint64_t
slot_of (uint64_t s)
{
  return (s * UINT64_C(0x9E3779B97F4A7C15)) >> 20 & ms.hash_mask;
}

static struct entry *
find (uint64_t s)
{
  uint64_t i;

  for (i = slot_of (s); ms.hash[i] != NONE; i = (i + 1) & ms.hash_mask)
    if (ms.entries[ms.hash[i]].sector == s)
      return &ms.entries[ms.hash[i]];
  return NULL;
}

static struct entry *
create (uint64_t s, struct version base)
{
  uint64_t i;
  uint32_t k;
  struct entry *e;

  if (ms.nfree_entries == 0)
    return NULL;
  k = ms.free_entries[--ms.nfree_entries];
  e = &ms.entries[k];
  *e = (struct entry) { .sector = s, .base = base, .used = true };
  for (i = slot_of (s); ms.hash[i] != NONE; i = (i + 1) & ms.hash_mask)
    ;
  ms.hash[i] = k;
  return e;
}

/* Remove e, shifting back the entries that probed past its slot. */
static void
drop (struct entry *e)
{
  uint32_t k = (uint32_t) (e - ms.entries);
  uint64_t i = slot_of (e->sector), j;

  while (ms.hash[i] != k)
    i = (i + 1) & ms.hash_mask;
  for (j = (i + 1) & ms.hash_mask; ms.hash[j] != NONE;
       j = (j + 1) & ms.hash_mask) {
    uint64_t home = slot_of (ms.entries[ms.hash[j]].sector);
    /* j stays if its home lies cyclically in (i, j]: a lookup from
       there never passes i. */
    bool stays = i <= j ? home > i && home <= j : home > i || home <= j;

    if (!stays) {
      ms.hash[i] = ms.hash[j];
      i = j;
    }
  }
  ms.hash[i] = NONE;
  buf_put (e->base.buf);
  if (e->trim_wait)
    ms.ntrim_wait--;
  e->used = false;
  ms.free_entries[ms.nfree_entries++] = k;
}

/* ---- media writes under way ---- */

static struct run *
run_at (uint32_t k)
{
  return &ms.runs[k];
}

static uint32_t
run_push (const struct hdd_media_write *ev, enum run_kind kind)
{
  uint32_t k;

  if (ms.run_count == ms.nruns)
    return NONE;
  k = (ms.run_head + ms.run_count++) % ms.nruns;
  ms.runs[k] = (struct run) { .ev = *ev, .kind = kind };
  return k;
}

/* The oldest version under way of e is on the media for good. */
static void
promote_oldest (struct entry *e)
{
  buf_put (e->base.buf);
  e->base = e->pend[0].v;
  memmove (&e->pend[0], &e->pend[1], --e->npend * sizeof e->pend[0]);
  if (e->base.buf == LAZY && e->npend == 0 && !e->trim_wait)
    drop (e);
}

static void
finalize_sector (struct entry *e, uint32_t run)
{
  if (e && e->used && e->npend > 0 && e->pend[0].run == run)
    promote_oldest (e);
}

static void
finalize (uint32_t k)
{
  const struct run *r = run_at (k);
  uint64_t s, end;

  if (r->kind == RUN_SCATTERED) {
    uint32_t i;
    for (i = 0; i < ms.nentries; i++)
      finalize_sector (&ms.entries[i], k);
    return;
  }
  end = (r->ev.offset + r->ev.length) / SECT;
  for (s = r->ev.offset / SECT; s < end; s++)
    finalize_sector (find (s), k);
}

void
preimage_advance (uint64_t t)
{
  while (ms.on && ms.run_count > 0 && run_at (ms.run_head)->ev.end_ns <= t) {
    finalize (ms.run_head);
    ms.run_head = (ms.run_head + 1) % ms.nruns;
    ms.run_count--;
  }
}

/* The store is short of room where the bound says it cannot be: say so
 * once, count every time (the cut is then not exact for that sector).
 */
static void
overflow (const char *what)
{
  if (ms.overflows++ == 0)
    nbdkit_error ("powercut: the pre-image store is out of %s "
                  "(a bug: please report it); the image after a cut may "
                  "hold newer data than the media", what);
}

static void
add_pend (struct entry *e, uint32_t run, uint64_t tag)
{
  if (e->npend == MAX_PEND) {
    overflow ("version slots");
    promote_oldest (e);
    if (!e->used)
      return;
  }
  e->pend[e->npend++] = (struct pend) { run, { LAZY, tag } };
}

/* A new version of [first, end) under way in run k, as of ticket tag. */
static void
add_run_sectors (uint64_t first, uint64_t end, uint32_t k, uint64_t tag)
{
  uint64_t s;

  for (s = first; s < end; s++) {
    struct entry *e = find (s);
    /* No entry: the media holds what the file does. */
    if (!e)
      e = create (s, (struct version) { LAZY, ms.applied });
    if (!e) {
      overflow ("entries");
      continue;
    }
    add_pend (e, k, tag);
  }
}

void
preimage_observe (void *opaque, const struct hdd_media_write *ev)
{
  uint32_t k;

  (void) opaque;
  if (!ms.on || ev->length == 0)
    return;
  k = run_push (ev, RUN_WALK);
  if (k == NONE) {
    overflow ("run slots");
    return;
  }
  /* The request being served reaches the file next, as ticket
     applied + 1; a destage carries what the file holds now. */
  add_run_sectors (ev->offset / SECT, (ev->offset + ev->length) / SECT, k,
                   ms.applied + (ev->own ? 1 : 0));
}

/* ---- writes reaching the file ---- */

/* Buffers a write with ticket j needs at sector s (worst case: no
 * all-zero sectors), and entries.
 */
static void
need_at (uint64_t s, uint64_t j, uint64_t *bufs, uint64_t *ents)
{
  const struct entry *e = find (s);
  unsigned i;

  if (!e) {
    (*bufs)++;
    (*ents)++;
    return;
  }
  if (e->base.buf == LAZY && e->base.tag < j)
    (*bufs)++;
  for (i = 0; i < e->npend; i++)
    if (e->pend[i].v.buf == LAZY && e->pend[i].v.tag < j)
      (*bufs)++;
}

static int
read_sectors (uint64_t first, uint64_t n)
{
  uint64_t bytes = min64 (n * SECT, ms.image_bytes - first * SECT);

  return image_pread (ms.scratch, (uint32_t) bytes, first * SECT);
}

/* Read [first, end) of the image a scratch buffer at a time and call
 * fn on each sector with its content.
 */
static int
each_sector (uint64_t first, uint64_t end,
             void (*fn) (uint64_t s, const char *p, uint64_t j, void *arg),
             uint64_t j, void *arg)
{
  const uint64_t chunk = SCRATCH_BYTES / SECT;
  uint64_t c, s;

  for (c = first; c < end; c += chunk) {
    uint64_t n = min64 (chunk, end - c);
    if (read_sectors (c, n) == -1)
      return -1;
    for (s = c; s < c + n; s++)
      fn (s, ms.scratch + (s - c) * SECT, j, arg);
  }
  return 0;
}

/* Count the buffers sector s needs before ticket j: an all-zero one
 * needs none.
 */
static void
count_exact (uint64_t s, const char *p, uint64_t j, void *arg)
{
  uint64_t *bufs = arg, b = 0, e = 0;

  need_at (s, j, &b, &e);
  if (b && all_zero (p, sector_bytes (s)))
    b = 0;
  *bufs += b;
}

/* Exact buffers needed for [first, end): all-zero sectors need none. */
static int
need_exact (uint64_t first, uint64_t end, uint64_t j, uint64_t *bufs)
{
  *bufs = 0;
  return each_sector (first, end, count_exact, j, bufs);
}

/* Copy out what sector s (its content at p) must keep before ticket j
 * overwrites it (each_sector's callback: arg unused).
 */
static void
keep_sector (uint64_t s, const char *p, uint64_t j, void *arg)
{
  struct entry *e = find (s);
  uint64_t n = sector_bytes (s);
  unsigned i;

  (void) arg;
  if (!e) {
    e = create (s, (struct version) { copy_of (p, n), j - 1 });
    if (!e)
      overflow ("entries");
    else if (e->base.buf == NOBUF) {
      overflow ("sector buffers");
      e->base.buf = ZEROES;
    }
    return;
  }
  if (e->base.buf == LAZY && e->base.tag < j)
    e->base.buf = copy_of (p, n);
  for (i = 0; i < e->npend; i++)
    if (e->pend[i].v.buf == LAZY && e->pend[i].v.tag < j)
      e->pend[i].v.buf = copy_of (p, n);
  if (e->base.buf == NOBUF)
    e->base.buf = ZEROES, overflow ("sector buffers");
  for (i = 0; i < e->npend; i++)
    if (e->pend[i].v.buf == NOBUF)
      e->pend[i].v.buf = ZEROES, overflow ("sector buffers");
}

static int
keep_range (uint64_t first, uint64_t end, uint64_t j)
{
  return each_sector (first, end, keep_sector, j, NULL);
}

/* A trim is on the media at its completion (cache=wt or off, or FUA),
 * else at the completion of the next flush.
 */
static void
trim_durability (uint64_t first, uint64_t end, bool fua, uint64_t done,
                 uint64_t j)
{
  uint64_t s;

  if (ms.write_back && !fua) {
    for (s = first; s < end; s++) {
      struct entry *e = find (s);
      if (e && !e->trim_wait) {
        e->trim_wait = true;
        ms.ntrim_wait++;
      }
    }
  }
  else {
    struct hdd_media_write ev = {
      .offset = first * SECT, .length = (end - first) * SECT,
      .start_ns = done, .end_ns = done,
    };
    uint32_t k = run_push (&ev, RUN_WHOLE);
    if (k == NONE)
      overflow ("run slots");
    else
      add_run_sectors (first, end, k, j);
  }
}

int
preimage_before_write (enum io_op op, uint64_t offset, uint64_t length,
                       bool fua, uint64_t start, uint64_t done)
{
  uint64_t first = offset / SECT;
  uint64_t end = min64 ((offset + length + SECT - 1) / SECT,
                        (ms.image_bytes + SECT - 1) / SECT);
  uint64_t j = ms.applied + 1, bufs = 0, ents = 0, s;

  if (!ms.on)
    return 0;
  preimage_advance (start);
  for (s = first; s < end; s++)
    need_at (s, j, &bufs, &ents);
  if (op == IO_TRIM && !(ms.write_back && !fua) && ms.run_count == ms.nruns)
    goto full;
  if (ents > ms.nfree_entries)
    goto full;
  if (bufs > ms.nfree_bufs) {
    if (need_exact (first, end, j, &bufs) == -1)
      return -1;
    if (bufs > ms.nfree_bufs)
      goto full;
  }
  if (keep_range (first, end, j) == -1)
    return -1;
  if (op == IO_TRIM)
    trim_durability (first, end, fua, done, j);
  ms.applied = j;
  return 0;

 full:
  errno = ENOSPC;
  return -1;
}

void
preimage_flush (uint64_t start, uint64_t done)
{
  struct hdd_media_write ev = { .start_ns = done, .end_ns = done };
  uint32_t i, k;

  if (!ms.on)
    return;
  preimage_advance (start);
  if (ms.ntrim_wait == 0)
    return;
  k = run_push (&ev, RUN_SCATTERED);
  if (k == NONE) {
    overflow ("run slots");
    return;
  }
  for (i = 0; i < ms.nentries; i++) {
    struct entry *e = &ms.entries[i];
    if (e->used && e->trim_wait) {
      e->trim_wait = false;
      ms.ntrim_wait--;
      add_pend (e, k, ms.applied);
    }
  }
}

/* ---- the cut ---- */

/* Is e's version in run pend[i] on the media at t? */
static bool
on_media (const struct hdd *hdd, const struct entry *e, unsigned i,
          uint64_t t)
{
  const struct run *r = run_at (e->pend[i].run);

  if (r->kind != RUN_WALK)
    return r->ev.end_ns <= t;
  return hdd_media_written (hdd, &r->ev, t) > e->sector - r->ev.offset / SECT;
}

/* Which of e's versions the media holds at t: the newest under way
 * that is on it (its index in pend), else -1: the base.
 */
static int
media_version (const struct hdd *hdd, const struct entry *e, uint64_t t)
{
  int i = e->npend;

  while (i-- > 0)
    if (on_media (hdd, e, (unsigned) i, t))
      return i;
  return -1;
}

/* A sector the cut wrote back, and which version (for the debug
 * report).
 */
struct restored {
  uint64_t sector;
  uint64_t tag;                 /* the file as of this ticket */
  uint32_t run;                 /* NONE: the base */
  bool zero;
};

static int
cmp_restored (const void *a, const void *b)
{
  uint64_t x = ((const struct restored *) a)->sector;
  uint64_t y = ((const struct restored *) b)->sector;

  return x < y ? -1 : x > y;
}

/* Do a and b (a + 1 == b by sector) belong to one reported extent? */
static bool
same_extent (const struct restored *a, const struct restored *b)
{
  return a->sector + 1 == b->sector && a->tag == b->tag
    && a->run == b->run && a->zero == b->zero;
}

/* -D hddsim.powercut=1: what the cut restored, sectors [x->sector,
 * last], all one version.  A ticket is the count of writes that had
 * reached the file (the driver's debug line names each ticket's
 * request).
 */
static void
report_extent (const struct restored *x, uint64_t last)
{
  const struct run *r;
  const char *what;

  if (x->run == NONE) {
    nbdkit_debug ("powercut: restored sectors %" PRIu64 "-%" PRIu64
                  " (%" PRIu64 "): %s the file held as of write ticket %"
                  PRIu64 " (the base: on the media before every media "
                  "write still under way)", x->sector, last,
                  last - x->sector + 1, x->zero ? "zeroes," : "what",
                  x->tag);
    return;
  }
  r = run_at (x->run);
  what = r->kind == RUN_SCATTERED ? "trims made durable by a flush"
    : r->kind == RUN_WHOLE ? "a durable trim"
    : r->ev.own ? "a request's own media write" : "a destage";
  nbdkit_debug ("powercut: restored sectors %" PRIu64 "-%" PRIu64
                " (%" PRIu64 "): %s the file held as of write ticket %"
                PRIu64 " (%s of [%" PRIu64 ", +%" PRIu64 ") bytes, %"
                PRIu64 "-%" PRIu64 " ns, on the media at the cut)",
                x->sector, last, last - x->sector + 1,
                x->zero ? "zeroes," : "what", x->tag, what, r->ev.offset,
                r->ev.length, r->ev.start_ns, r->ev.end_ns);
}

static int
write_back (uint64_t s, const struct version *v)
{
  static const char zeroes[SECT];
  const char *p = v->buf == ZEROES ? zeroes : buf_at (v->buf);

  return image_pwrite (p, (uint32_t) sector_bytes (s), s * SECT);
}

int
preimage_cut (const struct hdd *hdd, uint64_t t,
              struct preimage_loss *loss)
{
  struct restored *lost;
  uint64_t n = 0, i, first = 0;
  uint32_t k;

  *loss = (struct preimage_loss) { 0 };
  if (!ms.on)
    return 0;
  preimage_advance (t);
  /* The sectors written back, sorted, for counting extents. */
  lost = malloc ((size_t) ms.nentries * sizeof *lost);
  if (!lost) {
    nbdkit_error ("powercut: out of memory");
    return -1;
  }
  for (k = 0; k < ms.nentries; k++) {
    const struct entry *e = &ms.entries[k];
    const struct version *v;
    int p;

    if (!e->used)
      continue;
    p = media_version (hdd, e, t);
    v = p == -1 ? &e->base : &e->pend[p].v;
    if (v->buf == LAZY)         /* the file holds it */
      continue;
    if (write_back (e->sector, v) == -1) {
      free (lost);
      return -1;
    }
    lost[n++] = (struct restored) {
      e->sector, v->tag, p == -1 ? NONE : e->pend[p].run, v->buf == ZEROES
    };
  }
  qsort (lost, n, sizeof *lost, cmp_restored);
  for (i = 0; i < n; i++) {
    if (i == 0 || lost[i].sector != lost[i - 1].sector + 1)
      loss->extents++;
    if (hddsim_debug_powercut && (i + 1 == n
                                  || !same_extent (&lost[i], &lost[i + 1]))) {
      report_extent (&lost[first], lost[i].sector);
      first = i + 1;
    }
  }
  loss->sectors = n;
  free (lost);
  ms.on = false;                /* nothing reaches the media any more */
  return image_sync ();
}

/* ---- set-up ---- */

static uint64_t
pow2_at_least (uint64_t n)
{
  uint64_t p = 1;

  while (p < n)
    p <<= 1;
  return p;
}

int
preimage_init (uint64_t image_bytes, uint64_t cache_bytes,
               bool write_back_on)
{
  /* The write cache's sectors, the one request on the drive, the
     versions of a media write under way that a later write overwrites
     (at most a request's worth: fast writes go on past completion),
     and a destage piece. */
  uint64_t n = cache_bytes / SECT + 2 * (PREIMAGE_MAX_REQUEST / SECT)
    + DESTAGE_SECTORS;
  uint64_t i, h = pow2_at_least (2 * n);

  preimage_free ();
  ms.image_bytes = image_bytes;
  ms.write_back = write_back_on;
  ms.nbufs = ms.nentries = ms.nruns = (uint32_t) n;
  /* Pages are only committed as the store fills (calloc'd entries
     start unused). */
  ms.bufs = malloc ((size_t) n * SECT);
  ms.free_bufs = malloc ((size_t) n * sizeof *ms.free_bufs);
  ms.entries = calloc (n, sizeof *ms.entries);
  ms.free_entries = malloc ((size_t) n * sizeof *ms.free_entries);
  ms.runs = malloc ((size_t) n * sizeof *ms.runs);
  ms.hash = malloc ((size_t) h * sizeof *ms.hash);
  ms.scratch = malloc (SCRATCH_BYTES);
  if (!ms.bufs || !ms.free_bufs || !ms.entries || !ms.free_entries
      || !ms.runs || !ms.hash || !ms.scratch) {
    nbdkit_error ("powercut: cannot allocate the pre-image store "
                  "(%" PRIu64 " sectors for cache-size=%" PRIu64
                  " and %" PRIu64 "-byte requests): %m", n, cache_bytes,
                  PREIMAGE_MAX_REQUEST);
    preimage_free ();
    return -1;
  }
  for (i = 0; i < n; i++) {
    ms.free_bufs[i] = (uint32_t) (n - 1 - i);
    ms.free_entries[i] = (uint32_t) (n - 1 - i);
  }
  ms.nfree_bufs = ms.nfree_entries = (uint32_t) n;
  memset (ms.hash, 0xff, (size_t) h * sizeof *ms.hash);
  ms.hash_mask = h - 1;
  ms.on = true;
  return 0;
}

void
preimage_free (void)
{
  free (ms.bufs);
  free (ms.free_bufs);
  free (ms.entries);
  free (ms.free_entries);
  free (ms.runs);
  free (ms.hash);
  free (ms.scratch);
  memset (&ms, 0, sizeof ms);
}

uint64_t
preimage_tickets (void)
{
  return ms.applied;
}

uint64_t
preimage_used (void)
{
  return ms.nbufs - ms.nfree_bufs;
}

uint64_t
preimage_capacity (void)
{
  return ms.nbufs;
}
