/* hddsim: unit tests of readahead-until=next-track (DiskSim's "DEC
 * prefetch scheme", Buffer continuous read = 4) when the track holds
 * more than a segment.
 *
 * DiskSim's rule for that scheme (disk_buffer_get_max_readahead) bounds
 * the read-ahead by the track alone and ignores Maximum read-ahead; a
 * segment that fills wraps, keeping its last Segment-size blocks
 * (disk_buffer_segment_wrap).  So with a 64-sector segment on a track
 * of about 1170 sectors, a small read at a track's start reads ahead to
 * the track's end and keeps only the track's last 64 sectors: the read
 * right after it misses.  (Atlas III, 64-block segments, 168-256
 * sectors a track: its 1,321 sequential reads of the validation trace
 * take 5.2 ms measured, DiskSim 3.9 ms; a hit would take 0.8 ms.)
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../model/geometry.h"

/* st340014a, write-through, one segment of 64 sectors (32K), read-ahead
 * a segment, DiskSim's DEC scheme.  Also the start of track (cylinder
 * 1000, head 0) and its sectors.
 */
static struct hdd *
dec_drive (uint64_t *x, uint64_t *spt)
{
  const char *const kv[] = {
    "cache", "wt", "cache-size", "32K", "cache-segments", "1",
    "readahead", "32K", "readahead-until", "next-track", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  const struct geom *g = hdd_geom (d);
  struct loc l;

  *x = geom_track_lba (g, 1000, 0);
  geom_locate (g, *x, &l);
  *spt = l.spt;
  ck_assert_uint_eq (l.sector, 0);
  ck_assert_uint_gt (*spt, 2 * 64 + 8);
  return d;
}

/* A 4K read of [X, X+8) from the media, then 100 ms (twelve
 * revolutions at 7200 rpm: the read-ahead has long reached the track's
 * end X+S).  The segment holds [X+S-64, X+S):
 *   X+S-8 (4K, inside it) hits;
 *   X+8 (right after the request, 56 sectors past a segment's worth of
 *   read-ahead) misses: the read-ahead went on past X+8+64 and the
 *   segment's front was overwritten.
 * (Bounded by readahead= as well, the read-ahead would stop at X+72,
 * the segment [X+8, X+72): X+8 a hit, X+S-8 a miss.)
 */
START_TEST (test_track_beyond_segment)
{
  uint64_t x, spt, t;
  struct hdd *d = dec_drive (&x, &spt);
  struct hdd_cost c;

  t = serve_at (d, IO_READ, x * 512, 4096, 0, &c) + 100 * MS;
  ck_assert (!c.cache_hit);
  t += serve_at (d, IO_READ, (x + spt - 8) * 512, 4096, t, &c);
  ck_assert_msg (c.cache_hit, "the track's last 4K missed");
  ck_assert_uint_eq (c.seek_ns + c.rot_ns, 0);
  serve_at (d, IO_READ, (x + 8) * 512, 4096, t + 100 * MS, &c);
  ck_assert_msg (!c.cache_hit, "X+8 hit: the read-ahead stopped at a "
                 "segment past the request");
  hdd_free (d);
}
END_TEST

/* The same read 64 sectors before the track's end, [X+S-72, X+S-64):
 * the read-ahead reads exactly a segment's worth, [X+S-64, X+S), to the
 * track's end, so the request's successor X+S-64 stays and hits.
 */
START_TEST (test_track_within_segment)
{
  uint64_t x, spt, t;
  struct hdd *d = dec_drive (&x, &spt);
  struct hdd_cost c;

  t = serve_at (d, IO_READ, (x + spt - 72) * 512, 4096, 0, &c) + 100 * MS;
  ck_assert (!c.cache_hit);
  serve_at (d, IO_READ, (x + spt - 64) * 512, 4096, t, &c);
  ck_assert_msg (c.cache_hit, "X+S-64 missed");
  hdd_free (d);
}
END_TEST

static Suite *
dec_prefetch_suite (void)
{
  Suite *s = suite_create ("model-dec-prefetch");
  TCase *tc = tcase_create ("dec-prefetch");

  tcase_add_test (tc, test_track_beyond_segment);
  tcase_add_test (tc, test_track_within_segment);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (dec_prefetch_suite ());
}
