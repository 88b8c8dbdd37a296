/* hddsim: unit tests of the media cache (model/media_cache.c), on a
 * virtual clock.
 *
 * The drive is st4000nm0033 with the write cache off (so every write
 * is a media write) and a media cache of 64 MiB at the drive's outer
 * edge.  Expected values come from the parameters (seek-track, the
 * revolution, the sectors of a track) and the rules of the media cache
 * (docs/model.md "The media cache"), never from a run of the code.
 */

#include <inttypes.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../model/geometry.h"
#include "../../model/media_cache.h"
#include "../../model/seek.h"

/* The tail off (issue 25 item 3: recalibration, idle work and read
 * retries): the estimate cannot foresee it, and these tests are about
 * the media cache alone. */
#define MC_KV "cache", "off", "media-cache-size", "64M", \
    "media-cache-at", "0", "media-cache-idle", "100ms", \
    "recal-interval", "0", "recal-time", "0", "idle-work-after", "0", \
    "idle-work-step", "0", "retry-rate", "0"

static struct hdd *
mc_drive (const char *const *more)
{
  const char *kv[32] = { MC_KV };
  size_t n = 18;

  for (; more && *more; more++)
    kv[n++] = *more;
  kv[n] = NULL;
  return drive ("st4000nm0033", kv, 0, 1);
}

static double
sector_ns (const struct hdd *d)
{
  return rev_ns (d) / (double) hdd_params_of (d)->spt_outer;
}

/* With the arm away (a read in the middle of the drive), a staged
 * write seeks back to the log at the outer edge; the next one, however
 * far its home, lands where the head is on the log's track: no seek, a
 * rotational wait under one sector (plus rounding), and the map holds
 * both.
 */
START_TEST (test_staged_writes_land_under_the_head)
{
  struct hdd *d = mc_drive (NULL);
  const struct media_cache *mc = hdd_media_cache (d);
  struct hdd_cost c;
  uint64_t t = 0;

  t += serve_at (d, IO_READ, 2000 * GIB, 4096, t, &c);
  t += serve_at (d, IO_WRITE, 1000 * GIB, 4096, t, &c);
  ck_assert_uint_gt (c.seek_cylinders, 0);
  t += serve_at (d, IO_WRITE, 3000 * GIB, 4096, t, &c);
  ck_assert_uint_eq (c.seek_ns, 0);
  ck_assert_msg ((double) c.rot_ns <= 2 * sector_ns (d), "rot %" PRIu64,
                 c.rot_ns);
  ck_assert_uint_eq (mc_entries (mc), 2);
  ck_assert_uint_eq (mc_live_sectors (mc), 16);
  hdd_free (d);
}
END_TEST

/* A read of staged data is served from the log: right after staging
 * it, the arm is on the log and does not move to the data's home (the
 * middle of the drive, thousands of cylinders away).
 */
START_TEST (test_read_of_staged_data_from_the_log)
{
  struct hdd *d = mc_drive (NULL);
  struct hdd_cost c;
  uint64_t t = 0;

  t += serve_at (d, IO_WRITE, 2000 * GIB, 4096, t, &c);
  t += serve_at (d, IO_READ, 2000 * GIB, 4096, t, &c);
  ck_assert_uint_eq (c.seek_cylinders, 0);
  hdd_free (d);
}
END_TEST

/* A 12K read whose middle 4K is staged is fragmented: home, the log,
 * home again, three seeks between the data's cylinder and the log's,
 * where the same read with the staged write elsewhere (the arm on the
 * log too) seeks once: at least 3 times the seek time (less 1%: the
 * log's track may differ by a cylinder or so).
 */
START_TEST (test_fragmented_read)
{
  struct hdd *d = mc_drive (NULL), *e = mc_drive (NULL);
  struct hdd_cost c, ce;
  uint64_t t = 0, te = 0;

  t += serve_at (d, IO_WRITE, 2000 * GIB + 4096, 4096, t, &c);
  t += serve_at (d, IO_READ, 2000 * GIB, 12288, t, &c);
  te += serve_at (e, IO_WRITE, 3000 * GIB, 4096, te, &ce);
  te += serve_at (e, IO_READ, 2000 * GIB, 12288, te, &ce);
  ck_assert_uint_gt (ce.seek_ns, 0);
  ck_assert_msg ((double) c.seek_ns >= 2.97 * (double) ce.seek_ns,
                 "fragmented %" PRIu64 ", whole %" PRIu64, c.seek_ns,
                 ce.seek_ns);
  hdd_free (d);
  hdd_free (e);
}
END_TEST

/* With 4 map entries, the fifth scattered staged write finds the map
 * full and waits (busy_ns) while the drive cleans a region: at least
 * the write home of one extent, a seek from the log of at least
 * seek-track plus write-settle; the map never holds more than 4.
 */
START_TEST (test_full_map_stalls_the_host)
{
  static const char *const more[] = { "media-cache-entries", "4", NULL };
  struct hdd *d = mc_drive (more);
  const struct hdd_params *p = hdd_params_of (d);
  const struct media_cache *mc = hdd_media_cache (d);
  struct hdd_cost c;
  uint64_t t = 0, i;

  for (i = 0; i < 5; i++) {
    t += serve_at (d, IO_WRITE, (500 + 600 * i) * GIB, 4096, t, &c);
    ck_assert_uint_le (mc_entries (mc), 4);
    if (i < 4)
      ck_assert_uint_eq (c.busy_ns, 0);
  }
  ck_assert_uint_ge (c.busy_ns, p->seek_track + p->write_settle);
  ck_assert_uint_ge (mc->cleaned_steps, 1);
  hdd_free (d);
}
END_TEST

/* Staged data stays while the host is busy and is cleaned once it has
 * been quiet for media-cache-idle (100 ms): not before, all of it by
 * then plus a few accesses' time; a read arriving during a clean step
 * waits for it.
 */
START_TEST (test_idle_cleaning)
{
  struct hdd *d = mc_drive (NULL);
  const struct media_cache *mc = hdd_media_cache (d);
  struct hdd_cost c;
  uint64_t t = 0, i;

  for (i = 0; i < 3; i++)
    t += serve_at (d, IO_WRITE, (700 + 900 * i) * GIB, 4096, t, &c);
  hdd_idle (d, t + 100 * MS - 1);
  ck_assert_uint_eq (mc_entries (mc), 3);
  hdd_idle (d, t + 100 * MS + 1);       /* a step begins */
  ck_assert_uint_lt (mc_entries (mc), 3);
  serve_at (d, IO_READ, 10 * GIB, 4096, t + 100 * MS + 2, &c);
  ck_assert_uint_gt (c.busy_ns, 0);
  hdd_idle (d, t + 100 * MS + 10 * (uint64_t) (2 * rev_ns (d)) + 200 * MS);
  ck_assert_uint_eq (mc_entries (mc), 0);
  ck_assert_uint_eq (mc_live_sectors (mc), 0);
  hdd_free (d);
}
END_TEST

/* What the observer of clean steps (hdd_set_clean_observer) saw. */
#define MAX_SEEN 8
static struct hdd_clean seen[MAX_SEEN];
static unsigned nseen;

static void
see_clean (void *opaque, const struct hdd_clean *ev)
{
  (void) opaque;
  if (nseen < MAX_SEEN)
    seen[nseen] = *ev;
  nseen++;
}

/* Cleaning is reported (issue 29 item 4, issue 25's "its cleaning in
 * the trace"): each clean step to the observer, its region (the home
 * region of media-cache-region= bytes holding the staged write), its
 * one extent of 4096 bytes, when it ran and why; a request that waited
 * for it has the wait in clean_ns.  As test_full_map_stalls_the_host:
 * the fifth write waits for one forced step, and all its busy_ns is
 * that step.  Then, as test_idle_cleaning: idle steps, none before
 * media-cache-idle (100 ms) of quiet, and a read arriving during one
 * waits for cleaning only.
 */
START_TEST (test_cleaning_is_reported)
{
  static const char *const more[] = { "media-cache-entries", "4", NULL };
  struct hdd *d = mc_drive (more);
  const uint64_t region = hdd_params_of (d)->mc_region;
  struct hdd_cost c;
  uint64_t t = 0, i, quiet;

  nseen = 0;
  hdd_set_clean_observer (d, see_clean, NULL);
  for (i = 0; i < 5; i++)
    t += serve_at (d, IO_WRITE, (500 + 600 * i) * GIB, 4096, t, &c);
  ck_assert_uint_eq (nseen, 1);
  ck_assert (seen[0].forced);
  ck_assert_uint_eq (seen[0].extents, 1);
  ck_assert_uint_eq (seen[0].staged_bytes, 4096);
  /* the oldest staged write's region: the first write's, at 500 GiB */
  ck_assert_uint_eq (seen[0].offset, 500 * GIB - 500 * GIB % region);
  ck_assert_uint_eq (seen[0].length, region);
  ck_assert_uint_gt (seen[0].end_ns, seen[0].start_ns);
  ck_assert_uint_gt (c.busy_ns, 0);
  ck_assert_uint_eq (c.clean_ns, c.busy_ns);
  ck_assert_uint_eq (c.clean_ns, seen[0].end_ns - seen[0].start_ns);

  /* Four staged now; quiet from t on. */
  quiet = t;
  hdd_idle (d, quiet + 100 * MS - 1);
  ck_assert_uint_eq (nseen, 1);
  hdd_idle (d, quiet + 100 * MS + 1);   /* a step begins */
  ck_assert_uint_eq (nseen, 2);
  ck_assert (!seen[1].forced);
  ck_assert_uint_ge (seen[1].start_ns, quiet + 100 * MS);
  ck_assert_uint_eq (seen[1].staged_bytes, 4096);
  serve_at (d, IO_READ, 10 * GIB, 4096, quiet + 100 * MS + 2, &c);
  ck_assert_uint_gt (c.busy_ns, 0);
  ck_assert_uint_eq (c.clean_ns, seen[1].end_ns - (quiet + 100 * MS + 2));
  hdd_free (d);
}
END_TEST

/* Writes longer than media-cache-max-write (64K) go home; so does
 * every write with legacy=true.
 */
START_TEST (test_not_staged)
{
  static const char *const legacy[] = { "legacy", "true", NULL };
  struct hdd *d = mc_drive (NULL);
  struct hdd *l = mc_drive (legacy);
  struct hdd_cost c;

  serve_at (d, IO_WRITE, 2000 * GIB, 128 * 1024, 0, &c);
  ck_assert_uint_eq (mc_entries (hdd_media_cache (d)), 0);
  serve_at (l, IO_WRITE, 2000 * GIB, 4096, 0, &c);
  ck_assert_uint_eq (mc_entries (hdd_media_cache (l)), 0);
  ck_assert (!hdd_media_cache (l)->on);
  hdd_free (d);
  hdd_free (l);
}
END_TEST

/* The estimate is the service, with a media cache filling up and
 * cleaning (a map of 16 entries), and gives the map back unchanged.
 */
START_TEST (test_estimate_is_serve_with_media_cache)
{
  static const char *const more[] = { "media-cache-entries", "16", NULL };
  struct hdd *d = mc_drive (more);
  const struct media_cache *mc = hdd_media_cache (d);
  uint64_t t = 0, i;

  rng_state = 5;
  for (i = 0; i < 400; i++) {
    struct io io = {
      .op = rnd () % 3 ? IO_WRITE : IO_READ,
      .offset = rnd () % (3500 * GIB / 4096) * 4096,
      .length = 4096 << (rnd () % 3),
    };
    struct hdd_cost ce, cs;
    uint64_t e, s, len, live;

    t += rnd () % 3 == 0 ? 150 * MS : 0;
    hdd_idle (d, t);
    len = mc_entries (mc);
    live = mc_live_sectors (mc);
    e = hdd_estimate (d, &io, t, &ce);
    ck_assert_uint_eq (mc_entries (mc), len);
    ck_assert_uint_eq (mc_live_sectors (mc), live);
    s = hdd_serve (d, &io, t, &cs);
    ck_assert_uint_eq (e, s);
    ck_assert_uint_eq (hdd_cost_total (&cs), s);
    t += s;
  }
  hdd_free (d);
}
END_TEST

static Suite *
mcache_suite (void)
{
  Suite *s = suite_create ("media cache");
  TCase *tc = tcase_create ("media cache");

  tcase_add_test (tc, test_staged_writes_land_under_the_head);
  tcase_add_test (tc, test_read_of_staged_data_from_the_log);
  tcase_add_test (tc, test_fragmented_read);
  tcase_add_test (tc, test_full_map_stalls_the_host);
  tcase_add_test (tc, test_idle_cleaning);
  tcase_add_test (tc, test_cleaning_is_reported);
  tcase_add_test (tc, test_not_staged);
  tcase_add_test (tc, test_estimate_is_serve_with_media_cache);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (mcache_suite ());
}
