/* hddsim: unit tests of the drive's cache, on a virtual clock.
 *
 * Expected values come from the parameters (overhead, interface rate,
 * seek times, the revolution) and the rules of a write-back cache,
 * never from a run of the code.
 */

#include <inttypes.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../model/geometry.h"
#include "../../sched/engine.h"
#include "../../sched/policy.h"
#include "../../sched/sched_params.h"

static uint64_t
iface (const struct hdd *d, uint64_t bytes)
{
  uint64_t rate = hdd_params_of (d)->iface_rate;
  return (bytes * UINT64_C(1000000000) + rate - 1) / rate;
}

/* The longest one positioning and 'sectors' of media transfer can take. */
static double
worst_access (const struct hdd *d, uint64_t sectors)
{
  const struct hdd_params *p = hdd_params_of (d);
  double rev = rev_ns (d);
  double tracks = ceil ((double) sectors / (double) p->spt_inner) + 1;
  return (double) (p->seek_full + p->write_settle) + rev
         + tracks * (rev + (double) (p->seek_track + p->write_settle));
}

/* A write into a cache with room completes at interface speed. */
START_TEST (test_cached_write_iface_speed)
{
  struct hdd *d = drive ("st340014a", NULL, 0, 1);
  const struct hdd_params *p = hdd_params_of (d);
  struct hdd_cost c;
  uint64_t s = serve_at (d, IO_WRITE, 7 * GIB, 65536, 0, &c);

  ck_assert_uint_eq (s, p->overhead + iface (d, 65536));
  ck_assert (c.cache_hit);
  ck_assert_uint_eq (c.seek_ns + c.rot_ns + c.busy_ns, 0);
  ck_assert_uint_eq (hdd_dirty_bytes (d), 65536);
  hdd_free (d);
}
END_TEST

/* N scattered cached writes, then FLUSH: the flush positions the arm
 * N times (each at least a one-cylinder seek plus write settle), and
 * at most N worst-case accesses; nothing is dirty afterwards.  The
 * cache is bounded by bytes alone (write-cache-entries=0), so that all
 * N stay dirty: the profile's 8 entries would make most writes wait
 * (test_write_entries_bound).
 */
START_TEST (test_flush_destages_all)
{
  static const char *const kv[] = { "write-cache-entries", "0", NULL };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  const struct hdd_params *p = hdd_params_of (d);
  const uint64_t n = 24, cap = p->capacity;
  uint64_t t = 0, i, s, left;
  struct hdd_cost c;

  for (i = 0; i < n; i++) {
    /* Scattered over the stroke, in a shuffled order. */
    uint64_t k = (i * 7) % n;
    t += serve_at (d, IO_WRITE, (k * (cap / n)) / 4096 * 4096, 4096, t, &c);
    ck_assert (c.cache_hit);
  }
  /* The arm destages while the writes come in: at most one or two
   * have gone by now (each takes a seek and some rotation).
   */
  left = hdd_dirty_bytes (d) / 4096;
  ck_assert_uint_le (left, n);
  ck_assert_uint_ge (left, n - 2);
  s = serve_at (d, IO_FLUSH, 0, 0, t, &c);
  ck_assert_uint_eq (hdd_cost_total (&c), s);
  ck_assert_uint_eq (hdd_dirty_bytes (d), 0);
  ck_assert_msg ((double) s >= (double) p->overhead
                 + (double) (left - 1) * (double) (p->seek_track
                                                   + p->write_settle),
                 "flush of %" PRIu64 " scattered writes took %.3f ms", left,
                 (double) s / 1e6);
  ck_assert_msg ((double) s <= (double) p->overhead + n * worst_access (d, 8),
                 "flush took %.3f ms", (double) s / 1e6);
  /* A second flush has nothing to do. */
  ck_assert_uint_eq (serve_at (d, IO_FLUSH, 0, 0, t + s, &c), p->overhead);
  hdd_free (d);
}
END_TEST

/* The drive destages while the host is quiet. */
START_TEST (test_idle_destage)
{
  struct hdd *d = drive ("st340014a", NULL, 0, 1);
  const struct hdd_params *p = hdd_params_of (d);
  uint64_t t = 0, i, s;
  struct hdd_cost c;

  for (i = 0; i < 8; i++)
    t += serve_at (d, IO_WRITE, i * GIB, 4096, t, &c);
  /* 8 positionings fit easily in a second. */
  hdd_idle (d, t + 1000 * MS);
  ck_assert_uint_eq (hdd_dirty_bytes (d), 0);
  s = serve_at (d, IO_FLUSH, 0, 0, t + 1000 * MS, &c);
  ck_assert_uint_eq (s, p->overhead);
  hdd_free (d);
}
END_TEST

/* A request arriving during a destage write waits for it to end. */
START_TEST (test_request_waits_for_destage)
{
  struct hdd *d = drive ("st340014a", NULL, 0, 1);
  const struct hdd_params *p = hdd_params_of (d);
  uint64_t t = 0, s;
  struct hdd_cost c;

  t += serve_at (d, IO_WRITE, 20 * GIB, 4096, t, &c);
  /* The destage starts at t: a long seek from the outer edge and some
   * rotation.  What arrives 1 us into it and needs no arm (a TRIM, a
   * write into the cache) is served at once...
   */
  s = serve_at (d, IO_TRIM, 0, 4096, t + 1 * US, &c);
  ck_assert_uint_eq (c.busy_ns, 0);
  ck_assert_uint_eq (s, p->overhead);
  t += 1 * US + s;
  s = serve_at (d, IO_WRITE, 30 * GIB, 4096, t, &c);
  ck_assert_uint_eq (c.busy_ns, 0);
  ck_assert_uint_eq (s, p->overhead + iface (d, 4096));
  t += s;
  /* ... and a read that must go to the media waits for the write. */
  s = serve_at (d, IO_READ, 0, 4096, t, &c);
  ck_assert_uint_gt (c.busy_ns, 0);
  ck_assert_msg ((double) c.busy_ns <= worst_access (d, 8),
                 "busy %" PRIu64, c.busy_ns);
  ck_assert_uint_eq (s, hdd_cost_total (&c));
  hdd_free (d);
}
END_TEST

/* Writes fill the cache, then each waits for room: dirty data never
 * exceeds the cache, and the waiting shows as busy time.  The bound
 * tested is the bytes' (write-cache-entries=0): with the profile's 8
 * entries the ninth 64K write would wait for a segment first.  Each
 * write arrives as the one before completes: 0.755 ms after it once
 * it has room (overhead 0.1 ms + 64K at 100 MB/s).  The first destage
 * starts with write 0's completion and takes a random seek and
 * rotation, so write 16 (the 17th 64K, 16 x 0.755 = 12.1 ms later)
 * finds room only if that destage was shorter; every later write
 * arrives 0.755 ms after the destage that made room for the one
 * before ended, and no destage is that short: its media transfer
 * alone, 128 sectors on a track of at most 1375 (the outer edge),
 * takes at least 128/1375 of a revolution, 0.776 ms.
 */
START_TEST (test_cache_full)
{
  static const char *const kv[] = {
    "cache-size", "1M", "write-cache-entries", "0", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  uint64_t t = 0, i, waited = 0;

  rng_state = 3;
  for (i = 0; i < 64; i++) {
    struct hdd_cost c;
    uint64_t off = rnd () % (30 * GIB / 65536) * 65536;
    t += serve_at (d, IO_WRITE, off, 65536, t, &c);
    ck_assert_uint_le (hdd_dirty_bytes (d), 1 << 20);
    ck_assert (c.cache_hit);
    if (i < 16)
      ck_assert_uint_eq (c.busy_ns, 0);   /* 16 x 64K fit in 1M */
    else if (i > 16)
      ck_assert_uint_gt (c.busy_ns, 0);
    waited += c.busy_ns > 0;
  }
  ck_assert_uint_ge (waited, 47);
  hdd_free (d);
}
END_TEST

/* ---- the write cache as drives keep it (write-cache-entries=) ---- */

/* 'n' scattered 4K writes (a GiB apart on the drive), back to back
 * from t = 0 on a drive whose command takes no time (overhead 0, an
 * interface of 1000 GiB/s: 4 ns for 4K), so all arrive while the arm
 * writes the first one back (at least a one-track seek, 0.8 ms, away).
 * waited[i]: write i's busy_ns; *most: the most 4K blocks dirty after
 * any of them (a destage write under way counts until it ends).
 */
static void
scattered_writes (const char *const *kv, unsigned n, uint64_t *waited,
                  uint64_t *most)
{
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  uint64_t t = 0;
  unsigned i;

  *most = 0;
  for (i = 0; i < n; i++) {
    struct hdd_cost c;
    t += serve_at (d, IO_WRITE, (uint64_t) (i + 1) * GIB, 4096, t, &c);
    ck_assert (c.cache_hit);
    waited[i] = c.busy_ns;
    if (hdd_dirty_bytes (d) / 4096 > *most)
      *most = hdd_dirty_bytes (d) / 4096;
  }
  hdd_free (d);
}

#define FAST_CMD "overhead", "0", "iface-rate", "1000G"

/* With 3 entries the drive holds the first write's destage (its
 * segment is busy until it ends) and two more; the fourth scattered
 * write waits for that destage write, a positioning of at least a
 * one-track seek plus write settle (0.8 + 0.2 ms) and at most a worst
 * access.  Dirty blocks never exceed 3.
 */
START_TEST (test_write_entries_bound)
{
  static const char *const kv[] = {
    FAST_CMD, "write-cache-entries", "3", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  uint64_t waited[6], most;

  scattered_writes (kv, 6, waited, &most);
  ck_assert_uint_eq (waited[0] + waited[1] + waited[2], 0);
  ck_assert_uint_ge (waited[3], 1000 * US - 3 * 4);
  ck_assert_msg ((double) waited[3] <= worst_access (d, 8),
                 "waited %" PRIu64, waited[3]);
  ck_assert_uint_le (most, 3);
  hdd_free (d);
}
END_TEST

/* A write that extends a dirty range joins its segment: 64 sequential
 * 4K writes on a drive of 2 entries never wait (256K, well inside the
 * 2 MB cache), though the arm writes back what comes in meanwhile.
 */
START_TEST (test_write_entries_appending)
{
  static const char *const kv[] = {
    FAST_CMD, "write-cache-entries", "2", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  uint64_t t = 0, i;
  struct hdd_cost c;

  for (i = 0; i < 64; i++) {
    t += serve_at (d, IO_WRITE, 5 * GIB + i * 4096, 4096, t, &c);
    ck_assert_uint_eq (c.busy_ns, 0);
  }
  hdd_free (d);
}
END_TEST

/* legacy=true ignores the bound: the same six writes never
 * wait (24K of a 2 MB cache), and all six are dirty at the end but
 * the one being written back.
 */
START_TEST (test_write_entries_legacy)
{
  static const char *const kv[] = {
    FAST_CMD, "write-cache-entries", "3", "legacy", "true", NULL
  };
  uint64_t waited[6], most;
  unsigned i;

  scattered_writes (kv, 6, waited, &most);
  for (i = 0; i < 6; i++)
    ck_assert_uint_eq (waited[i], 0);
  ck_assert_uint_eq (most, 6);
}
END_TEST

/* Each built-in profile, after 2,000 scattered 4K writes (sustained:
 * the cache stays full of them): a FLUSH writes back at most the
 * profile's write-cache-entries ranges of 8 sectors, so it takes at
 * most the overhead plus that many worst-case accesses (under 0.4 s
 * on each), and leaves nothing dirty.
 */
START_TEST (test_flush_bounded_by_entries)
{
  static const char *const profiles[] = {
    "st340014a", "st500lt012", "st4000nm0033"
  };
  struct hdd *d = drive (profiles[_i], NULL, 4 * GIB, 1);
  const struct hdd_params *p = hdd_params_of (d);
  uint64_t t = 0, i, s;
  struct hdd_cost c;

  ck_assert_uint_gt (p->write_entries, 0);
  rng_state = 11;
  for (i = 0; i < 2000; i++)
    t += serve_at (d, IO_WRITE, rnd () % (4 * GIB / 4096) * 4096, 4096, t,
                   &c);
  ck_assert_uint_le (hdd_dirty_bytes (d), p->write_entries * 4096);
  s = serve_at (d, IO_FLUSH, 0, 0, t, &c);
  ck_assert_uint_eq (hdd_dirty_bytes (d), 0);
  ck_assert_msg ((double) s <= (double) p->overhead
                 + (double) p->write_entries * worst_access (d, 8),
                 "%s: flush took %.3f ms", profiles[_i], (double) s / 1e6);
  hdd_free (d);
}
END_TEST

/* The offset of the first media write the drive reports. */
static void
note_first_write (void *opaque, const struct hdd_media_write *w)
{
  uint64_t *first = opaque;

  if (*first == UINT64_MAX)
    *first = w->offset;
}

/* Write Cache Reordering: the arm over 100 GiB (a read there), two
 * cached writes, P near the drive's inner edge (3,700 GiB) and Q 1 MiB
 * before the read.  C-LOOK from the head writes P back first (it comes
 * after the head in LBA order).  The drive reaches Q sooner: a seek of
 * a few cylinders (< 1 ms) plus write settle and at most a revolution
 * (4 ms at the 15,000 rpm set here), 5.5 ms at most, where P's seek,
 * over more than a third of the stroke, takes more than seek-avg plus
 * write settle, 9 ms: Q is written back first.  legacy=true keeps
 * C-LOOK: P first.
 */
START_TEST (test_destage_reordered)
{
  static const char *const kv[][5] = {
    { "rpm", "15000", NULL },
    { "rpm", "15000", "legacy", "true", NULL },
  };
  const uint64_t p_off = 3700 * GIB, q_off = 100 * GIB - (1 << 20);
  unsigned i;

  for (i = 0; i < 2; i++) {
    struct hdd *d = drive ("st4000nm0033", kv[i], 0, 1);
    uint64_t t = 0, first = UINT64_MAX;
    struct hdd_cost c;

    hdd_set_media_observer (d, note_first_write, &first);
    t += serve_at (d, IO_READ, 100 * GIB, 4096, t, &c);
    t += 100 * MS;                      /* the read-ahead is over */
    t += serve_at (d, IO_WRITE, p_off, 4096, t, &c);
    ck_assert (c.cache_hit);
    serve_at (d, IO_WRITE, q_off, 4096, t, &c);
    hdd_idle (d, t + SEC);
    ck_assert_uint_eq (hdd_dirty_bytes (d), 0);
    ck_assert_uint_eq (first, i == 0 ? q_off : p_off);
    hdd_free (d);
  }
}
END_TEST

/* FUA writes and cache=off/wt writes go to the media. */
START_TEST (test_media_writes)
{
  static const char *const modes[] = { "wb", "wt", "off" };
  unsigned m;

  for (m = 0; m < 3; m++) {
    const char *kv[] = { "cache", modes[m], NULL };
    struct hdd *d = drive ("st340014a", kv, 0, 1);
    const struct hdd_params *p = hdd_params_of (d);
    struct io w = { .op = IO_WRITE, .fua = m == 0, .offset = 10 * GIB,
                    .length = 4096 };
    struct hdd_cost c;
    uint64_t s;

    hdd_idle (d, 0);
    s = hdd_serve (d, &w, 0, &c);
    ck_assert (!c.cache_hit);
    ck_assert_uint_eq (hdd_dirty_bytes (d), 0);
    /* A long seek from cylinder 0 with its settle, then the sectors. */
    ck_assert_uint_ge (c.seek_ns, p->seek_track + p->write_settle);
    ck_assert_uint_ge (s, p->overhead + c.seek_ns
                       + (uint64_t) (8 * rev_ns (d) / (double) p->spt_outer));
    hdd_free (d);
  }
}
END_TEST

/* A read hit costs overhead + interface; cache=off never hits. */
START_TEST (test_read_hits)
{
  static const char *const off[] = { "cache", "off", NULL };
  struct hdd *d = drive ("st340014a", NULL, 0, 1);
  const struct hdd_params *p = hdd_params_of (d);
  uint64_t t = 0, s;
  struct hdd_cost c;

  t += serve_at (d, IO_READ, 5 * GIB, 4096, t, &c);
  ck_assert (!c.cache_hit);
  /* Again, before read-ahead has recycled the segment. */
  t += 1 * US;
  s = serve_at (d, IO_READ, 5 * GIB, 4096, t, &c);
  ck_assert (c.cache_hit);
  ck_assert_uint_eq (s, p->overhead + iface (d, 4096));
  /* Read-ahead has brought the next 64K in while the drive was idle. */
  s = serve_at (d, IO_READ, 5 * GIB + 4096, 65536, t + s + 20 * MS, &c);
  ck_assert (c.cache_hit);
  ck_assert_uint_eq (s, p->overhead + iface (d, 65536));
  /* Data still dirty in the write cache is read from it. */
  t += 100 * MS;
  t += serve_at (d, IO_WRITE, 9 * GIB, 8192, t, &c);
  s = serve_at (d, IO_READ, 9 * GIB, 8192, t, &c);
  ck_assert (c.cache_hit);
  hdd_free (d);

  d = drive ("st340014a", off, 0, 1);
  t = serve_at (d, IO_READ, 5 * GIB, 4096, 0, &c);
  serve_at (d, IO_READ, 5 * GIB, 4096, t + 20 * MS, &c);
  ck_assert (!c.cache_hit);
  ck_assert_uint_gt (c.rot_ns, 0);
  hdd_free (d);
}
END_TEST

/* The read-ahead segment keeps what it has read (issue 11).
 * st340014a: 2 MiB in 8 segments of 512 sectors, read-ahead 256K = 512
 * sectors.  A 4K miss at X (8 sectors) starts the stream at X+8 with
 * limit X+8+512.  A hit on X+16 (8 sectors) moves the limit to
 * X+24+512 = X+536.  The segment still holds X..X+16 (it has read
 * nothing past a segment from them), so a read of X+8 that arrives
 * late is a hit at overhead + interface, as is X itself.
 */
START_TEST (test_stream_keeps_what_it_read)
{
  struct hdd *d = drive ("st340014a", NULL, 0, 1);
  const struct hdd_params *p = hdd_params_of (d);
  const uint64_t x = 5 * GIB, hit = p->overhead + iface (d, 4096);
  uint64_t t = 0, s;
  struct hdd_cost c;

  t += serve_at (d, IO_READ, x, 4096, t, &c);
  ck_assert (!c.cache_hit);
  t += 1 * MS;                  /* ~140 sectors of the outer zone */
  t += serve_at (d, IO_READ, x + 8192, 4096, t, &c);
  ck_assert (c.cache_hit);
  s = serve_at (d, IO_READ, x + 4096, 4096, t, &c);
  ck_assert (c.cache_hit);
  ck_assert_uint_eq (s, hit);
  t += s;
  s = serve_at (d, IO_READ, x, 4096, t, &c);
  ck_assert (c.cache_hit);
  ck_assert_uint_eq (s, hit);
  hdd_free (d);
}
END_TEST

/* ...but no more than a segment.  A hit on X+512 (8 sectors) moves the
 * limit to X+520+512 = X+1032.  50 ms (six revolutions) later the
 * stream has read to the limit, so the segment holds the last 512
 * sectors, [X+520, X+1032): X+520 hits, X+519 does not (its first
 * sector was pushed out), and neither does X.
 */
START_TEST (test_stream_segment_bounded)
{
  struct hdd *d = drive ("st340014a", NULL, 0, 1);
  const struct hdd_params *p = hdd_params_of (d);
  const uint64_t x = 5 * GIB, hit = p->overhead + iface (d, 4096);
  uint64_t t = 0, s;
  struct hdd_cost c;

  t += serve_at (d, IO_READ, x, 4096, t, &c);
  t += 1 * MS;
  t += serve_at (d, IO_READ, x + 512 * 512, 4096, t, &c);
  t += 50 * MS;
  s = serve_at (d, IO_READ, x + 520 * 512, 4096, t, &c);
  ck_assert (c.cache_hit);
  ck_assert_uint_eq (s, hit);
  t += s;
  serve_at (d, IO_READ, x + 519 * 512, 4096, t, &c);
  ck_assert (!c.cache_hit);
  hdd_free (d);

  /* The same while the stream is still reading: hits on X+256, X+512
   * and X+768 at 2, 4 and 6 ms (each within the limit of the one
   * before: X+520, X+776, X+1032) leave the limit at X+1288, with the
   * stream at about X+8 + 6 ms x 140 sectors/ms = X+848 (less a head
   * switch, at most ~1 ms).  X+8 (whose 512 sectors end at X+520) has
   * been pushed out; X+700 has not.
   */
  d = drive ("st340014a", NULL, 0, 1);
  t = serve_at (d, IO_READ, x, 4096, 0, &c);
  serve_at (d, IO_READ, x + 256 * 512, 4096, t + 2 * MS, &c);
  serve_at (d, IO_READ, x + 512 * 512, 4096, t + 4 * MS, &c);
  t += 6 * MS;
  t += serve_at (d, IO_READ, x + 768 * 512, 4096, t, &c);
  s = serve_at (d, IO_READ, x + 700 * 512, 4096, t, &c);
  ck_assert (c.cache_hit);
  ck_assert_uint_eq (s, hit);
  serve_at (d, IO_READ, x + 8 * 512, 4096, t + s, &c);
  ck_assert (!c.cache_hit);
  ck_assert_uint_gt (c.seek_ns + c.rot_ns, 0);
  hdd_free (d);
}
END_TEST

/* ---- cache-write-segment, cache-write-hits ---- */

/* st340014a write-through, with the given segment rules. */
static struct hdd *
wt_drive (const char *wseg, const char *hits)
{
  const char *const kv[] = {
    "cache", "wt", "cache-write-segment", wseg, "cache-write-hits", hits,
    NULL
  };
  return drive ("st340014a", kv, 0, 1);
}

/* Is a 4K read at off a hit, at overhead + interface? */
static bool
read_hits (struct hdd *d, uint64_t off, uint64_t *t)
{
  const struct hdd_params *p = hdd_params_of (d);
  struct hdd_cost c;
  uint64_t s = serve_at (d, IO_READ, off, 4096, *t, &c);

  *t += s + 1 * MS;
  if (c.cache_hit)
    ck_assert_uint_eq (s, p->overhead + iface (d, 4096));
  else
    ck_assert_uint_gt (c.seek_ns + c.rot_ns, 0);
  return c.cache_hit;
}

static uint64_t
write_at (struct hdd *d, uint64_t off, uint64_t len, uint64_t t)
{
  struct hdd_cost c;

  return t + serve_at (d, IO_WRITE, off, len, t, &c) + 1 * MS;
}

/* A write-through write of 8K at Y leaves its data in a segment: a
 * read of Y hits with cache-write-hits=1 (shared or separate), not
 * with 0, and never with cache-write-segment=none (as before).
 */
START_TEST (test_read_hits_on_write_data)
{
  static const char *const rules[][3] = {
    { "shared", "1", "hit" }, { "separate", "1", "hit" },
    { "shared", "0", "miss" }, { "separate", "0", "miss" },
    { "none", "0", "miss" },
  };
  const uint64_t y = 3 * GIB;
  size_t i;

  for (i = 0; i < sizeof rules / sizeof rules[0]; i++) {
    struct hdd *d = wt_drive (rules[i][0], rules[i][1]);
    uint64_t t = write_at (d, y, 8192, 0);
    ck_assert_msg (read_hits (d, y + 4096, &t) == (rules[i][2][0] == 'h'),
                   "cache-write-segment=%s cache-write-hits=%s: expected "
                   "a %s", rules[i][0], rules[i][1], rules[i][2]);
    hdd_free (d);
  }
}
END_TEST

/* Reads of A0..A7, 1 GiB apart, fill the 8 segments (A0 least
 * recently used).  A write elsewhere with shared takes A0's segment:
 * A0 misses, A1 still hits; with separate or none all stay.
 */
START_TEST (test_shared_write_segment_evicts)
{
  static const char *const rules[][2] = {
    { "shared", "1" }, { "separate", "1" }, { "none", "0" },
  };
  size_t i;
  uint64_t k;

  for (i = 0; i < sizeof rules / sizeof rules[0]; i++) {
    struct hdd *d = wt_drive (rules[i][0], rules[i][1]);
    uint64_t t = 0;
    bool shared = strcmp (rules[i][0], "shared") == 0;
    for (k = 0; k < 8; k++)
      ck_assert (!read_hits (d, k * GIB, &t));
    t = write_at (d, 20 * GIB, 4096, t);
    ck_assert_msg (read_hits (d, 1 * GIB, &t), "%s: A1", rules[i][0]);
    ck_assert_msg (read_hits (d, 0, &t) == !shared, "%s: A0", rules[i][0]);
    hdd_free (d);
  }
}
END_TEST

/* A read of A, then of B far away (the stream stops), then a write of
 * 4K at A: with separate the write segment takes it and A's read
 * segment, which held what the write overwrote, is dropped, so A
 * misses with cache-write-hits=0; with shared the write takes A's
 * segment (A hits with cache-write-hits=1, misses with 0); with none
 * A's segment stays and A hits (as before).
 */
START_TEST (test_write_drops_overwritten)
{
  static const char *const rules[][3] = {
    { "separate", "0", "miss" }, { "shared", "0", "miss" },
    { "shared", "1", "hit" }, { "none", "0", "hit" },
  };
  const uint64_t a = 2 * GIB, b = 30 * GIB;
  size_t i;

  for (i = 0; i < sizeof rules / sizeof rules[0]; i++) {
    struct hdd *d = wt_drive (rules[i][0], rules[i][1]);
    uint64_t t = 0;
    ck_assert (!read_hits (d, a, &t));
    ck_assert (!read_hits (d, b, &t));
    t = write_at (d, a, 4096, t);
    ck_assert_msg (read_hits (d, a, &t) == (rules[i][2][0] == 'h'),
                   "cache-write-segment=%s cache-write-hits=%s: expected "
                   "a %s", rules[i][0], rules[i][1], rules[i][2]);
    hdd_free (d);
  }
}
END_TEST

START_TEST (test_write_hits_need_a_segment)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_int_eq (hdd_params_load_profile (p, "st340014a", err,
                                             sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "cache-write-hits", "1", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), -1);
  ck_assert_msg (strstr (err, "cache-write-hits=1") != NULL
                 && strstr (err, "cache-write-segment=none") != NULL, "%s",
                 err);
  ck_assert_int_eq (hdd_params_set (p, "cache-write-segment", "separate",
                                    err, sizeof err), 0);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "cache-write-segment", "both",
                                    err, sizeof err), -1);
  ck_assert_int_eq (hdd_params_set (p, "cache-write-hits", "2",
                                    err, sizeof err), -1);
  hdd_params_free (p);
}
END_TEST

/* ---- cache-partial-hits, readahead-hits ---- */

/* The first LBA of track 0 of cylinder 1000 (st340014a's outer zone,
 * one surface: one track per cylinder) and that track's sectors.
 */
static uint64_t
track_start (const struct hdd *d, uint64_t *spt)
{
  const struct geom *g = hdd_geom (d);
  uint64_t lba = geom_track_lba (g, 1000, 0);
  struct loc l;

  geom_locate (g, lba, &l);
  *spt = l.spt;
  return lba;
}

/* With read-ahead off, a 64-sector read at P (the start of a track)
 * leaves [P, P+64) in a segment; its media transfer ends at e, just as
 * P+64 comes under the head, and it completes at e + iface(1 sector).
 * A 128-sector read at P follows, timed so that its media access
 * starts (after the overhead) 32 sector times (s = rev / spt) before
 * P+64 comes round again: m - e = rev - 32 s.
 *   cache-partial-hits=1: the media reads only [P+64, P+128): wait
 *     32 s, transfer 64 s, then the last sector over the interface:
 *     overhead + 96 s + iface(1).
 *   cache-partial-hits=0: P passed 32 s ago: wait rev - 32 s, transfer
 *     128 s: overhead + rev + 96 s + iface(1), a revolution more.
 * Either way the interface carries all 128 sectors from the media
 * access on, so neither ends before overhead + iface(128): with
 * 100 MB/s (5.12 us a sector) against the outer zone's 1375 sectors
 * (6.06 us) the cached 64 cannot all cross while the media reads 64
 * (96 s + iface(1) = 587 us < 655 us): the partial hit ends with the
 * interface.
 * (1 us of slack for the model's rounding to whole nanoseconds.)
 */
START_TEST (test_partial_hit_reads_the_rest)
{
  static const char *const on[] = {
    "cache", "wt", "readahead", "off", "cache-partial-hits", "1", NULL
  };
  static const char *const off[] = {
    "cache", "wt", "readahead", "off", NULL
  };
  const char *const *kv[] = { on, off };
  int i;

  for (i = 0; i < 2; i++) {
    struct hdd *d = drive ("st340014a", kv[i], 0, 1);
    const struct hdd_params *p = hdd_params_of (d);
    uint64_t spt, lba = track_start (d, &spt), t, s, one = iface (d, 512);
    double rev = rev_ns (d), sec, want;
    struct hdd_cost c;

    sec = rev / (double) spt;
    ck_assert_uint_ge (spt, 256);
    t = serve_at (d, IO_READ, lba * 512, 64 * 512, 0, &c);
    ck_assert (!c.cache_hit);
    /* Completion = e + one; m = completion + g + overhead. */
    t += (uint64_t) llround (rev - 32 * sec) - one - p->overhead;
    s = serve_at (d, IO_READ, lba * 512, 128 * 512, t, &c);
    want = (double) (p->overhead + one) + 96 * sec + (i == 0 ? 0 : rev);
    want = fmax (want, (double) (p->overhead + iface (d, 128 * 512)));
    ck_assert_msg (fabs ((double) s - want) < 1000, "partial-hits=%d: "
                   "%" PRIu64 " ns, expected %.0f", 1 - i, s, want);
    ck_assert (!c.cache_hit);
    hdd_free (d);
  }
}
END_TEST

/* A 4K miss at X (a track's start) ends its media transfer at e; the
 * stream reads on from X+8.  A read that arrives at the completion
 * (e + iface(1 sector), less than a sector time: 5.12 us against
 * 8.33 ms / spt) finds the stream on X+8, not past it.
 *   X+8:  ahead and almost serve it from the stream (no positioning);
 *         read does not (the first sector is not read yet): the stream
 *         stops, and X+8, already under the head, comes round after
 *         most of a revolution.
 *   X+40: ahead serves it from the stream; almost and read do not.
 */
START_TEST (test_readahead_hits)
{
  static const char *const modes[] = { "ahead", "almost", "read" };
  static const bool at8[] = { true, true, false };
  static const bool at40[] = { true, false, false };
  size_t i;

  for (i = 0; i < 3; i++) {
    const char *const kv[] = { "readahead-hits", modes[i], NULL };
    int k;
    for (k = 0; k < 2; k++) {
      struct hdd *d = drive ("st340014a", kv, 0, 1);
      uint64_t spt, x = track_start (d, &spt), t;
      bool from_stream;
      struct hdd_cost c;

      t = serve_at (d, IO_READ, x * 512, 4096, 0, &c);
      serve_at (d, IO_READ, (x + (k == 0 ? 8 : 40)) * 512, 4096, t, &c);
      from_stream = c.seek_ns + c.rot_ns == 0;
      ck_assert_msg (from_stream == (k == 0 ? at8[i] : at40[i]),
                     "readahead-hits=%s, X+%d: %s the stream", modes[i],
                     k == 0 ? 8 : 40, from_stream ? "from" : "not from");
      if (k == 0 && !at8[i])
        ck_assert_uint_gt (c.rot_ns, rev_ns (d) / 2);
      hdd_free (d);
    }
  }
}
END_TEST

/* readahead-stop=, with overhead=0 so that the arm is needed at the
 * request's arrival.  A 4K miss at X (a track's start) ends its media
 * transfer at e and completes at t1 = e + iface(1 sector); the stream
 * is then in its first sector, X+8 (a sector takes s = rev / spt,
 * 7.1 us on this track, more than iface(1) = 5.12 us).  A read far
 * away arrives at t1:
 *   now:    the arm leaves at t1 (busy 0); the segment ends at X+8,
 *           so a 512-byte read of X+8 then misses;
 *   sector: the arm leaves when X+8 has been read, at e + s (busy
 *           s - iface(1)); the segment holds X+8: that read hits.
 */
START_TEST (test_readahead_stop_sector)
{
  static const char *const modes[] = { "now", "sector" };
  int i;

  for (i = 0; i < 2; i++) {
    const char *const kv[] = {
      "overhead", "0", "readahead-stop", modes[i], NULL
    };
    struct hdd *d = drive ("st340014a", kv, 0, 1);
    uint64_t spt, x = track_start (d, &spt), t, one = iface (d, 512);
    double sec;
    struct hdd_cost c;

    sec = rev_ns (d) / (double) spt;
    ck_assert ((double) one < sec);
    t = serve_at (d, IO_READ, x * 512, 4096, 0, &c);
    t += serve_at (d, IO_READ, x * 512 + 10 * GIB, 4096, t, &c);
    if (i == 0)
      ck_assert_uint_eq (c.busy_ns, 0);
    else
      ck_assert_msg (fabs ((double) c.busy_ns - (sec - (double) one)) < 2,
                     "busy %" PRIu64 " ns, expected %.1f", c.busy_ns,
                     sec - (double) one);
    serve_at (d, IO_READ, (x + 8) * 512, 512, t + 1 * MS, &c);
    ck_assert_msg (c.cache_hit == (i == 1), "readahead-stop=%s: X+8 %s",
                   modes[i], c.cache_hit ? "hit" : "missed");
    hdd_free (d);
  }
}
END_TEST

/* readahead-on-hit (st340014a write-through: no destage writes).  A
 * 4K miss at X (a track's start, 1375 or so sectors) reads ahead to
 * X+8+512 = X+520; 50 ms (six revolutions) later the segment holds
 * [X+8, X+520) (the last 512 sectors).  A hit on X+512 costs overhead
 * + interface either way; with readahead-on-hit=1 the arm, on X's
 * track, then reads ahead from X+520 to X+520+512 = X+1032, on the
 * same track: at most a revolution of rotational wait and 512/1375 of
 * one, 12 ms.  50 ms later X+1000 is a hit; with 0 it is not.
 */
START_TEST (test_readahead_on_hit)
{
  int on;

  for (on = 0; on < 2; on++) {
    const char *const kv[] = {
      "cache", "wt", "readahead-on-hit", on ? "1" : "0", NULL
    };
    struct hdd *d = drive ("st340014a", kv, 0, 1);
    const struct hdd_params *p = hdd_params_of (d);
    uint64_t spt, x = track_start (d, &spt), t, s;
    struct hdd_cost c;

    ck_assert_uint_gt (spt, 1032);
    t = serve_at (d, IO_READ, x * 512, 4096, 0, &c) + 50 * MS;
    s = serve_at (d, IO_READ, (x + 512) * 512, 4096, t, &c);
    ck_assert (c.cache_hit);
    ck_assert_uint_eq (s, p->overhead + iface (d, 4096));
    serve_at (d, IO_READ, (x + 1000) * 512, 4096, t + s + 50 * MS, &c);
    ck_assert_msg (c.cache_hit == (on == 1), "readahead-on-hit=%d: %s", on,
                   c.cache_hit ? "hit" : "missed");
    if (c.cache_hit)
      ck_assert_uint_eq (c.seek_ns + c.rot_ns, 0);
    hdd_free (d);
  }
}
END_TEST

/* readahead-until=track on an explicit zone table (1000 cylinders, one
 * surface: 98,000 LBAs, the capacity below) with two spare
 * sectors at the end of each 100-slot track (sparing=track): a track
 * holds LBAs 0-97, so read-ahead after a read at LBA 0 ends at LBA 98,
 * the next track's first; it must not run on to slot 100 (LBA 99 on
 * the next track), as lba - sector + spt would.
 */
START_TEST (test_readahead_until_track_with_spares)
{
  const char *const kv[] = {
    "cache", "wt", "cache-segments", "1", "readahead", "2M",
    "readahead-until", "track", "surfaces", "1",
    "zone-table", "0-999:100:spares=2", "sparing", "track",
    "capacity", "50176000", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  struct hdd_cost c;
  uint64_t t;

  t = serve_at (d, IO_READ, 0, 8 * 512, 0, &c) + 100 * MS;
  ck_assert (!c.cache_hit);
  t += serve_at (d, IO_READ, 90 * 512, 8 * 512, t, &c);
  ck_assert_msg (c.cache_hit, "LBAs 90-97 (the track's last) missed");
  /* One sector: the bug's limit (LBA 100) would cover it, not 8. */
  serve_at (d, IO_READ, 98 * 512, 512, t, &c);
  ck_assert_msg (!c.cache_hit, "LBA 98 (the next track's first) hit");
  hdd_free (d);
}
END_TEST

/* readahead-until=, on st340014a with one segment of 4096 sectors and
 * readahead=2M (4096 sectors), so that the track rules decide.  X is
 * the start of a track of S sectors (about 1375; one surface: each
 * track is a cylinder, unless surfaces=2).  Each case reads [A, A+N)
 * from the media, waits 100 ms (twelve revolutions: the read-ahead has
 * ended), then reads 4K at H (a hit) and at M (a miss), M being where
 * the read-ahead ended:
 *   size:       A=X, N=8: to X+8+4096; H = X+4096, M = X+4104.
 *   track:      A=X, N=8: to the end of the track, M = X+S.
 *   track:      A=X+S-8, N=8 ends the track: no read-ahead, M = X+S.
 *   cylinder:   2 surfaces, A=X, N=8: to the end of the second
 *               track of the cylinder, M = X+2S.
 *   next-track: A=X, N=8: the sector after, X+8, is on X's track,
 *               where the segment begins: to its end, M = X+S.
 *   next-track: A=X+S-8, N=16: the sector after, X+S+8, is on the next
 *               track, and the segment began on an earlier one: to the
 *               end of the track after that, M = X+3S.
 */
START_TEST (test_readahead_until)
{
  static const struct {
    const char *mode, *surfaces;
    int64_t a_s, a, n, h_s, h, m_s, m;  /* LBA = X + _s * S + offset */
  } cases[] = {
    { "size", "1", 0, 0, 8, 0, 4096, 0, 4104 },
    { "track", "1", 0, 0, 8, 1, -8, 1, 0 },
    { "track", "1", 1, -8, 8, 1, -8, 1, 0 },
    { "cylinder", "2", 0, 0, 8, 2, -8, 2, 0 },
    { "next-track", "1", 0, 0, 8, 1, -8, 1, 0 },
    { "next-track", "1", 1, -8, 16, 3, -8, 3, 0 },
  };
  size_t i;

  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *const kv[] = {
      "cache", "wt", "cache-segments", "1", "readahead", "2M",
      "readahead-until", cases[i].mode, "surfaces", cases[i].surfaces, NULL
    };
    struct hdd *d = drive ("st340014a", kv, 0, 1);
    uint64_t spt, x = track_start (d, &spt), t;
    int64_t sp;
    struct hdd_cost c;

    sp = (int64_t) spt;
    ck_assert_uint_ge (spt, 1000);
    t = serve_at (d, IO_READ, (uint64_t) ((int64_t) x + cases[i].a_s * sp
                                          + cases[i].a) * 512,
                  (uint64_t) cases[i].n * 512, 0, &c) + 100 * MS;
    ck_assert (!c.cache_hit);
    t += serve_at (d, IO_READ, (uint64_t) ((int64_t) x + cases[i].h_s * sp
                                           + cases[i].h) * 512, 4096, t, &c);
    ck_assert_msg (c.cache_hit, "case %zu (%s): H missed", i, cases[i].mode);
    serve_at (d, IO_READ, (uint64_t) ((int64_t) x + cases[i].m_s * sp
                                      + cases[i].m) * 512, 4096, t, &c);
    ck_assert_msg (!c.cache_hit, "case %zu (%s): M hit", i, cases[i].mode);
    hdd_free (d);
  }
}
END_TEST

/* read-any-free (st340014a write-through, read-ahead off, two
 * segments of 1024 sectors).  A 4K read at X (a track's start) ends
 * with the head at X+8 at e and completes at e + iface(1 sector).  A
 * 4K read of X+600 arrives then; after the overhead (0.1 ms) the head
 * is on X's track 8 + (0.1 ms + 5.12 us) / s = 8 + 17.35 sectors on
 * (s = rev / 1375 = 6.061 us), and waits for X+600: the whole sectors
 * X+26 .. X+599 pass under it.  With read-any-free=1 the segment keeps
 * them: X+32 then hits, X+24 (whose X+24..X+25 it does not have)
 * misses; with 0 X+32 misses.
 */
START_TEST (test_read_any_free)
{
  int on;

  for (on = 0; on < 2; on++) {
    const char *const kv[] = {
      "cache", "wt", "readahead", "off", "cache-segments", "2",
      "read-any-free", on ? "1" : "0", NULL
    };
    struct hdd *d = drive ("st340014a", kv, 0, 1);
    const struct hdd_params *p = hdd_params_of (d);
    uint64_t spt, x = track_start (d, &spt), t;
    struct hdd_cost c;

    ck_assert_uint_eq (spt, 1375);
    ck_assert_uint_eq (p->overhead, 100000);
    t = serve_at (d, IO_READ, x * 512, 4096, 0, &c);
    t += serve_at (d, IO_READ, (x + 600) * 512, 4096, t, &c);
    ck_assert_uint_eq (c.seek_ns, 0);
    serve_at (d, IO_READ, (x + 32) * 512, 4096, t + 1 * MS, &c);
    ck_assert_msg (c.cache_hit == (on == 1), "read-any-free=%d: X+32 %s",
                   on, c.cache_hit ? "hit" : "missed");
    hdd_free (d);
  }
  {
    const char *const kv[] = {
      "cache", "wt", "readahead", "off", "cache-segments", "2",
      "read-any-free", "1", NULL
    };
    struct hdd *d = drive ("st340014a", kv, 0, 1);
    uint64_t spt, x = track_start (d, &spt), t;
    struct hdd_cost c;

    t = serve_at (d, IO_READ, x * 512, 4096, 0, &c);
    t += serve_at (d, IO_READ, (x + 600) * 512, 4096, t, &c);
    serve_at (d, IO_READ, (x + 24) * 512, 4096, t + 1 * MS, &c);
    ck_assert (!c.cache_hit);
    hdd_free (d);
  }
}
END_TEST

/* ---- through the engine: a read behind a FLUSH waits for it ---- */

static unsigned ncompleted;

static void
on_completed (struct req *r, void *opaque)
{
  (void) r; (void) opaque;
  ncompleted++;
}

START_TEST (test_read_behind_flush)
{
  static const struct engine_hooks hooks = { .completed = on_completed };
  struct hdd *d = drive ("st340014a", NULL, 0, 1);
  const struct hdd_params *p = hdd_params_of (d);
  struct sched_params sp;
  struct engine *e;
  struct req w[8], f, r;
  uint64_t i;

  sched_params_init (&sp);
  e = engine_new (d, policy_find ("fifo"), &sp, &hooks, NULL);
  ck_assert_ptr_nonnull (e);
  memset (w, 0, sizeof w);
  memset (&f, 0, sizeof f);
  memset (&r, 0, sizeof r);
  for (i = 0; i < 8; i++) {
    w[i].io = (struct io) { .op = IO_WRITE, .offset = i * 4 * GIB,
                            .length = 4096 };
    engine_submit (e, &w[i], 1 + i);
  }
  f.io = (struct io) { .op = IO_FLUSH };
  engine_submit (e, &f, 10);
  r.io = (struct io) { .op = IO_READ, .offset = 2 * GIB, .length = 4096 };
  engine_submit (e, &r, 11);
  ncompleted = 0;
  engine_advance (e, 10000 * MS);
  ck_assert_uint_eq (ncompleted, 10);
  ck_assert_uint_ge (r.start, f.done);
  ck_assert_uint_ge (f.done - f.start, p->overhead
                     + 8 * (p->seek_track + p->write_settle));
  ck_assert_uint_eq (hdd_dirty_bytes (d), 0);
  engine_free (e);
  hdd_free (d);
}
END_TEST

/* An estimate may destage (a write into a full cache, a flush, a FUA
 * write over dirty data) and write pieces in several chunks (spread
 * placement): the drive's dirty data is the same afterwards, so the
 * estimate of the same request, twice, and its service agree, and so
 * do all later requests.  Writes of 1 to 3 sectors at odd offsets
 * leave many small ranges for each estimate to destage.
 */
START_TEST (test_estimate_gives_back_dirty)
{
  static const char *const kv[] = {
    "cache-size", "64K", "cache-segments", "4", "placement", "spread", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 64 * (UINT64_C(1) << 20), 1);
  uint64_t t = 0, i;

  rng_state = 77;
  for (i = 0; i < 4000; i++) {
    uint64_t r = rnd () % 16;
    struct io io = {
      .op = r < 11 ? IO_WRITE : r < 14 ? IO_READ : IO_FLUSH,
      .fua = r == 10,
      .offset = rnd () % (64 * 2048 - 64) * 512,
      .length = (rnd () % 3 + 1) * 512,
    };
    struct hdd_cost ce, cs;
    uint64_t dirty, e, s;
    if (i % 97 == 0)            /* now and then across a chunk boundary */
      io.length = 40960;
    if (io.op == IO_FLUSH)
      io.offset = io.length = 0;
    hdd_idle (d, t);
    dirty = hdd_dirty_bytes (d);
    e = hdd_estimate (d, &io, t, &ce);
    ck_assert_uint_eq (hdd_dirty_bytes (d), dirty);
    ck_assert_uint_eq (hdd_estimate (d, &io, t, NULL), e);
    s = hdd_serve (d, &io, t, &cs);
    /* Unless the tail changed it (tail.h: the drive's own work and its
       retries, which no drive foresees). */
    if (cs.tail_ns == 0) {
      ck_assert_uint_eq (e, s);
      ck_assert_int_eq (memcmp (&ce, &cs, sizeof cs), 0);
    }
    t += s + (rnd () % 4 == 0 ? rnd () % (5 * MS) : 0);
  }
  hdd_free (d);
}
END_TEST

/* An estimate leaves the drive as it was: a drive that estimates two
 * requests before each one it serves serves them exactly as its twin,
 * which never estimates.  Sequential reads (read-ahead hits), re-reads
 * of what was just read (segment hits) and scattered writes, so that
 * what an estimate leaves undone (the segments' update after a read)
 * would show in the drive if it were left undone there too.
 */
START_TEST (test_estimate_leaves_no_trace)
{
  struct hdd *d = drive ("st340014a", NULL, 0, 1);
  struct hdd *twin = drive ("st340014a", NULL, 0, 1);
  uint64_t t = 0, i, next = 3 * GIB, hits = 0;

  rng_state = 31;
  for (i = 0; i < 3000; i++) {
    uint64_t r = rnd () % 8;
    struct io io = { .op = r < 6 ? IO_READ : IO_WRITE, .length = 4096 };
    struct io other = { .op = IO_READ, .length = 4096,
                        .offset = rnd () % (100 * GIB / 4096) * 4096 };
    struct hdd_cost cd, ct, ce;
    uint64_t sd, st;

    if (r < 4) {                /* the stream */
      io.offset = next;
      next += rnd () % 3 == 0 ? 64 * 4096 : 4096;
    }
    else if (r < 6)             /* again, a little behind the stream */
      io.offset = next - (rnd () % 4 + 1) * 4096;
    else
      io.offset = rnd () % (100 * GIB / 4096) * 4096;
    hdd_idle (d, t);
    hdd_idle (twin, t);
    hdd_estimate (d, &io, t, &ce);
    hdd_estimate (d, &other, t, &ce);
    sd = hdd_serve (d, &io, t, &cd);
    st = hdd_serve (twin, &io, t, &ct);
    ck_assert_uint_eq (sd, st);
    ck_assert_int_eq (memcmp (&cd, &ct, sizeof cd), 0);
    hits += io.op == IO_READ && cd.cache_hit;
    t += sd + rnd () % (2 * MS);
  }
  /* Enough hits that a lost segment update would change some. */
  ck_assert_uint_ge (hits, 500);
  hdd_free (d);
  hdd_free (twin);
}
END_TEST

/* The estimates of one pick (hdd_estimate_begin, hdd_estimate_end)
 * are the estimates made one by one: the expected value is the
 * estimate's own definition, an estimate made alone.  st4000nm0033's
 * write cache of 32 ranges (Write Cache Reordering); requests served
 * without hdd_idle before them, so that the background work up to the
 * pick's time (the destage writes the batch does once) is still to do
 * at every pick; one estimate in each pick at another time (made as
 * usual).
 */
START_TEST (test_estimates_of_a_pick)
{
  struct hdd *d = drive ("st4000nm0033", NULL, 0, 1);
  const uint64_t blocks = hdd_params_of (d)->capacity / 4096;
  uint64_t t = 0, i, k, pending = 0;

  rng_state = 53;
  for (i = 0; i < 400; i++) {
    struct io probe[6], io = { .op = rnd () % 10 < 7 ? IO_WRITE : IO_READ,
                               .offset = rnd () % blocks * 4096,
                               .length = 4096 };
    struct hdd_cost alone[6], in_pick[6];
    uint64_t e_alone[6], e_pick[6], when[6];

    for (k = 0; k < 6; k++) {
      probe[k] = (struct io) { .op = k % 2 ? IO_WRITE : IO_READ,
                               .offset = rnd () % blocks * 4096,
                               .length = 4096 * (rnd () % 4 + 1) };
      when[k] = k == 5 ? t + MS : t;
      e_alone[k] = hdd_estimate (d, &probe[k], when[k], &alone[k]);
    }
    pending += hdd_dirty_bytes (d) > 0;
    hdd_estimate_begin (d, t);
    for (k = 0; k < 6; k++)
      e_pick[k] = hdd_estimate (d, &probe[k], when[k], &in_pick[k]);
    hdd_estimate_end (d);
    for (k = 0; k < 6; k++) {
      ck_assert_uint_eq (e_pick[k], e_alone[k]);
      ck_assert_int_eq (memcmp (&in_pick[k], &alone[k], sizeof alone[k]), 0);
    }
    /* And the drive is as it was: the first estimate again. */
    ck_assert_uint_eq (hdd_estimate (d, &probe[0], t, NULL), e_alone[0]);
    t += hdd_serve (d, &io, t, NULL) + rnd () % (20 * MS);
  }
  /* Dirty data at most picks: destage writes to do up to t. */
  ck_assert_uint_ge (pending, 300);
  hdd_free (d);
}
END_TEST

static Suite *
cache_suite (void)
{
  Suite *s = suite_create ("model-cache");
  TCase *tc = tcase_create ("cache");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_cached_write_iface_speed);
  tcase_add_test (tc, test_flush_destages_all);
  tcase_add_test (tc, test_estimate_leaves_no_trace);
  tcase_add_test (tc, test_idle_destage);
  tcase_add_test (tc, test_request_waits_for_destage);
  tcase_add_test (tc, test_cache_full);
  tcase_add_test (tc, test_write_entries_bound);
  tcase_add_test (tc, test_write_entries_appending);
  tcase_add_test (tc, test_write_entries_legacy);
  tcase_add_loop_test (tc, test_flush_bounded_by_entries, 0, 3);
  tcase_add_test (tc, test_destage_reordered);
  tcase_add_test (tc, test_media_writes);
  tcase_add_test (tc, test_read_hits);
  tcase_add_test (tc, test_stream_keeps_what_it_read);
  tcase_add_test (tc, test_stream_segment_bounded);
  tcase_add_test (tc, test_read_hits_on_write_data);
  tcase_add_test (tc, test_shared_write_segment_evicts);
  tcase_add_test (tc, test_write_drops_overwritten);
  tcase_add_test (tc, test_write_hits_need_a_segment);
  tcase_add_test (tc, test_partial_hit_reads_the_rest);
  tcase_add_test (tc, test_readahead_hits);
  tcase_add_test (tc, test_readahead_stop_sector);
  tcase_add_test (tc, test_readahead_on_hit);
  tcase_add_test (tc, test_readahead_until);
  tcase_add_test (tc, test_readahead_until_track_with_spares);
  tcase_add_test (tc, test_read_any_free);
  tcase_add_test (tc, test_read_behind_flush);
  tcase_add_test (tc, test_estimate_gives_back_dirty);
  tcase_add_test (tc, test_estimates_of_a_pick);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (cache_suite ());
}
