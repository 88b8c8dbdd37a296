/* hddsim: unit test of readahead-until=next-track after a partial hit
 * that crosses onto a new track.
 *
 * DiskSim's DEC scheme (Buffer continuous read = 4) reads ahead to the
 * end of the track after the one the request ends on when the segment
 * began on an earlier track (a stream across tracks), else to the end
 * of the request's track.  A partial hit continues the segment that
 * served its first sectors, so a request that hits the last sectors of
 * one track and reads the first of the next from the media is such a
 * stream, although its media read starts on the new track.  (Atlas III,
 * requests 6634 and 9567 of the validation trace: hddsim took them as
 * streams within one track, left the arm a track short and saved a head
 * switch and a revolution that DiskSim pays.)
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../model/geometry.h"

/* The ends of tracks T0, T1, T2 from cylinder 1000, head 0, in LBA
 * order (e[0] = T0's end = T1's start), each track longer than the
 * 64-sector segment.
 */
static void
three_tracks (const struct hdd *d, uint64_t e[3])
{
  const struct geom *g = hdd_geom (d);
  uint64_t start = geom_track_lba (g, 1000, 0);
  int i;

  for (i = 0; i < 3; i++) {
    e[i] = geom_track_end (g, start);
    ck_assert_uint_gt (e[i] - start, 64);
    start = e[i];
  }
}

/* st340014a, write-through, one segment of 64 sectors, read-ahead a
 * segment, the DEC scheme, partial hits.  Tracks T0, T1, T2 follow in
 * LBA order from cylinder 1000, head 0: T0 = [x, e1), T1 = [e1, e2),
 * T2 = [e2, e3), each longer than the segment.
 */
START_TEST (test_partial_hit_across_tracks)
{
  const char *const kv[] = {
    "cache", "wt", "cache-size", "32K", "cache-segments", "1",
    "readahead", "32K", "readahead-until", "next-track",
    "cache-partial-hits", "1", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  uint64_t e[3], e1, e3, t;
  struct hdd_cost c;

  three_tracks (d, e);
  e1 = e[0], e3 = e[2];

  /* [e1-16, e1-8) from the media: the segment began on T0, so the
     read-ahead stops at T0's end; 100 ms (twelve revolutions) later the
     segment holds [e1-16, e1). */
  t = serve_at (d, IO_READ, (e1 - 16) * 512, 4096, 0, &c) + 100 * MS;
  ck_assert (!c.cache_hit);
  /* [e1-8, e1+8): 8 sectors from the segment, 8 from T1's media.  A
     stream across tracks: the read-ahead goes to T2's end e3 (two
     tracks, well within the next 100 ms), the segment wrapping to its
     last 64 sectors, [e3-64, e3). */
  t += serve_at (d, IO_READ, (e1 - 8) * 512, 8192, t, &c);
  ck_assert (!c.cache_hit);
  t += 100 * MS;
  /* T2's last 4K hits; read-ahead to T1's end only would hold
     [e2-64, e2) and miss it. */
  serve_at (d, IO_READ, (e3 - 8) * 512, 4096, t, &c);
  ck_assert_msg (c.cache_hit, "T2's last 4K missed: the read-ahead "
                 "stopped at the end of the request's track");
  ck_assert_uint_eq (c.seek_ns + c.rot_ns, 0);
  hdd_free (d);
}
END_TEST

/* The same two reads with two segments of 64 sectors.  DiskSim reads a
 * partial hit's rest into the segment that served its front: the
 * segment of [e1-16, e1) takes [e1, e1+8) and the read-ahead to e3, and
 * wraps to [e3-64, e3).  So 100 ms later [e1-16, e1-8) misses (with the
 * rest read into the other segment it would still be held and hit),
 * while T2's last 4K hits.  (Atlas III, request 3683: hddsim served in
 * 0.798 ms what DiskSim reads from the media in 7.394 ms.)
 */
START_TEST (test_partial_hit_continues_its_segment)
{
  const char *const kv[] = {
    "cache", "wt", "cache-size", "64K", "cache-segments", "2",
    "readahead", "32K", "readahead-until", "next-track",
    "cache-partial-hits", "1", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  uint64_t e[3], e1, e3, t;
  struct hdd_cost c;

  three_tracks (d, e);
  e1 = e[0], e3 = e[2];

  t = serve_at (d, IO_READ, (e1 - 16) * 512, 4096, 0, &c) + 100 * MS;
  ck_assert (!c.cache_hit);
  t += serve_at (d, IO_READ, (e1 - 8) * 512, 8192, t, &c) + 100 * MS;
  ck_assert (!c.cache_hit);
  t += serve_at (d, IO_READ, (e3 - 8) * 512, 4096, t, &c) + 100 * MS;
  ck_assert_msg (c.cache_hit, "T2's last 4K missed");
  serve_at (d, IO_READ, (e1 - 16) * 512, 4096, t, &c);
  ck_assert_msg (!c.cache_hit, "[e1-16, e1-8) hit: the partial hit's "
                 "rest went into another segment");
  hdd_free (d);
}
END_TEST

/* A partial hit's data goes over the interface after the read-hit
 * overhead, its media read starts after the read-miss one (DiskSim's
 * disk_read_arrive).  The drive: 6000 rpm (10 ms a revolution), 100
 * sectors a track (100 us each), an interface of 50 us a sector, a
 * 5 us overhead plus 20 ms for a read hit, nothing more for a miss.
 * A read of sectors 0..9 of cylinder 300's track leaves them in a
 * segment; its media read ends at te with the head at sector 10's start
 * (te = its completion - 50 us, the last sector's crossing).  A read of
 * 5..14 arriving at te + 50 us: 5..9 are held; the media read starts at
 * te + 55 us, mid sector 10, so it reads 10..14 a revolution later, to
 * te + 10.5 ms.  The data crosses from te + 50 us + 20.005 ms: 10
 * sectors, 500 us, all read by then: done at te + 20.555 ms, 20.505 ms
 * after the read arrived (with the miss overhead on the bus too, it
 * would be te + 10.55 ms: 10.5 ms).
 */
START_TEST (test_partial_hit_bus_after_hit_overhead)
{
  const char *const kv[] = {
    "rpm", "6000", "zones", "1", "sectors-outer", "100",
    "sectors-inner", "100", "surfaces", "2", "capacity", "100M",
    "head-switch", "0.4ms", "track-skew", "0.5ms", "overhead", "5us",
    "placement", "start", "iface-rate", "10240000", "cache", "wt",
    "readahead", "0", "cache-partial-hits", "1",
    "overhead-read-hit", "20ms", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  uint64_t x = geom_track_lba (hdd_geom (d), 300, 0), te;
  struct hdd_cost c;

  te = serve_at (d, IO_READ, x * 512, 10 * 512, 0, &c) - 50 * US;
  ck_assert (!c.cache_hit);
  ck_assert_uint_eq (serve_at (d, IO_READ, (x + 5) * 512, 10 * 512,
                               te + 50 * US, &c), 20505 * US);
  ck_assert_uint_eq (hdd_cost_total (&c), 20505 * US);
  hdd_free (d);
}
END_TEST

static Suite *
ra_partial_suite (void)
{
  Suite *s = suite_create ("model-ra-partial");
  TCase *tc = tcase_create ("ra-partial");

  tcase_add_test (tc, test_partial_hit_across_tracks);
  tcase_add_test (tc, test_partial_hit_continues_its_segment);
  tcase_add_test (tc, test_partial_hit_bus_after_hit_overhead);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (ra_partial_suite ());
}
