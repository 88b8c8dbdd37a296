/* hddsim: unit tests of zero-latency access (model/mech.c's
 * zero-latency-read=, zero-latency-write=: DiskSim's Immediate buffer
 * read and write).
 *
 * The drive: 100-sector tracks, no skew, two surfaces, at 6000 rpm: a
 * revolution is 10 ms, a sector 100 us.  The platter's phase is 0 at
 * time 0, so slot k's start passes the head at k x 0.1 ms (mod 10 ms).
 * LBAs 0-99 are track 0 (cylinder 0, head 0), slots 0-99; LBAs 100-199
 * track 1 (cylinder 0, head 1), slots 0-99.  The arm starts on track 0,
 * so no seek is ever timed; a head switch takes 0.2 ms.
 *
 * The rule worked out from DiskSim's: landing between the start of the
 * track's first requested sector and the start of its last, the head
 * starts at the next sector boundary, reads to the end of the
 * requested run, and takes the sectors before the landing point when
 * they come round: the track's part ends one revolution after that
 * boundary.  Landing elsewhere, it waits for the first sector.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../model/mech.h"

#include "test-hand-mech.h"

/* The mechanism above, zero-latency reads and writes as given. */
static struct mech
mech_of (bool zl_read, bool zl_write)
{
  struct mech m = hand_mech ();

  m.zl_read = zl_read;
  m.zl_write = zl_write;
  return m;
}

/* End of a request's access of [lba, lba+n) arriving at t on track 0. */
static uint64_t
access_end (const struct mech *m, bool write, uint64_t t, uint64_t lba,
            uint64_t n, struct hdd_cost *c)
{
  struct arm a = { 0, 0 };

  return mech_access (m, &a, write, t, lba, n, c);
}

/* A whole track takes one revolution from the next sector boundary,
 * whatever the phase: from a boundary, exactly 10 ms; arriving at
 * 3.25 ms (half-way through slot 32) it starts at slot 33, 3.3 ms, and
 * ends at 13.3 ms, 0.05 ms of it rotational wait.
 */
START_TEST (test_whole_track)
{
  static const uint64_t at[] = { 0, 100 * US, 5 * MS, 9900 * US };
  struct mech m = mech_of (true, false);
  struct hdd_cost c = { 0 };
  unsigned i;

  for (i = 0; i < sizeof at / sizeof at[0]; i++)
    ck_assert_uint_eq (access_end (&m, false, at[i], 0, 100, NULL),
                       at[i] + 10 * MS);
  ck_assert_uint_eq (access_end (&m, false, 3250 * US, 0, 100, &c),
                     13300 * US);
  ck_assert_uint_eq (c.rot_ns, 50 * US);
  ck_assert_uint_eq (c.xfer_ns, 10 * MS);
  /* Off: wait for slot 0 (at 10 ms), read the track: 20 ms. */
  m = mech_of (false, false);
  ck_assert_uint_eq (access_end (&m, false, 3300 * US, 0, 100, NULL),
                     20 * MS);
}
END_TEST

/* LBAs 10-39 (slots 10-39, 3 ms of transfer).  Arriving at 2 ms (slot
 * 20): read 20-39, pass 40-99 and 0-9, read 10-19: ends at 12 ms
 * (without: wait to 11 ms, end at 14).  At 3.9 ms, the start of slot
 * 39 (the last): still inside, ends at 13.9 ms.  At 3.95 ms, inside
 * the last sector: the next boundary is past the run, so it waits for
 * slot 10 (11 ms: 7.05 ms of rotational wait) and ends at 14 ms.  At
 * 0.5 ms, before the run: waits for 1 ms, ends at 4 ms.
 */
START_TEST (test_part_of_track)
{
  struct mech m = mech_of (true, false);
  struct hdd_cost c = { 0 };

  ck_assert_uint_eq (access_end (&m, false, 2 * MS, 10, 30, NULL), 12 * MS);
  ck_assert_uint_eq (access_end (&m, false, 3900 * US, 10, 30, NULL),
                     13900 * US);
  ck_assert_uint_eq (access_end (&m, false, 3950 * US, 10, 30, &c),
                     14 * MS);
  ck_assert_uint_eq (c.rot_ns, 7050 * US);      /* 3.95 ms to 11 ms */
  ck_assert_uint_eq (access_end (&m, false, 500 * US, 10, 30, NULL),
                     4 * MS);
  m = mech_of (false, false);
  ck_assert_uint_eq (access_end (&m, false, 2 * MS, 10, 30, NULL), 14 * MS);
}
END_TEST

/* Track by track.  LBAs 50-179: slots 50-99 of track 0, 0-79 of track
 * 1.  Arriving at 7 ms (slot 70): track 0 ends one revolution later,
 * 17 ms; the head switch ends at 17.2 ms, slot 72 of track 1, inside
 * its run 0-79: one more revolution, 27.2 ms; all of it transfer (the
 * first landing was on a boundary).  LBAs 50-149 (track 1's run 0-49):
 * at 17.2 ms slot 72 is past the run, so it waits for slot 0 (20 ms)
 * and reads 50 sectors: 25 ms.
 */
START_TEST (test_two_tracks)
{
  struct mech m = mech_of (true, false);
  struct hdd_cost c = { 0 };

  ck_assert_uint_eq (access_end (&m, false, 7 * MS, 50, 130, &c),
                     27200 * US);
  ck_assert_uint_eq (c.rot_ns, 0);
  ck_assert_uint_eq (c.xfer_ns, 20200 * US);
  ck_assert_uint_eq (access_end (&m, false, 7 * MS, 50, 100, NULL),
                     25 * MS);
}
END_TEST

/* The interface takes sectors in LBA order.  A whole track from 5 ms
 * (slot 50): the media reads slots 50-99 by 10 ms, then 0-49 from 10
 * to 15 ms.  At 0.2 ms a sector over the interface (slower than the
 * media), LBA 0 is read at 10.1 ms and the 100 sectors follow it:
 * 10.1 + 20 = 30.1 ms.  At 0.01 ms a sector, LBAs 0-49 cross as they
 * are read, the last by 15.01 ms, then LBAs 50-99, read already, in
 * 0.5 ms: 15.51 ms.
 */
START_TEST (test_bus_order)
{
  struct mech m = mech_of (true, false);
  struct arm a = { 0, 0 };
  struct bus_follow bus = { 200 * US, 0 };

  ck_assert_uint_eq (mech_walk_bus (&m, &a, false, 5 * MS, 0, 100, NULL,
                                    &bus),
                     15 * MS);
  ck_assert_uint_eq (bus.done, 30100 * US);
  a = (struct arm) { 0, 0 };
  bus = (struct bus_follow) { 10 * US, 0 };
  mech_walk_bus (&m, &a, false, 5 * MS, 0, 100, NULL, &bus);
  ck_assert_uint_eq (bus.done, 15510 * US);
}
END_TEST

/* Reads and writes each by their own key; the read-ahead stream's walk
 * (mech_walk) never: whole track from 5 ms, 15 ms with, 20 without.
 */
START_TEST (test_read_write_keys)
{
  struct mech m = mech_of (true, false);
  struct arm a = { 0, 0 };

  ck_assert_uint_eq (access_end (&m, true, 5 * MS, 0, 100, NULL), 20 * MS);
  ck_assert_uint_eq (mech_walk (&m, &a, false, 5 * MS, 0, 100, NULL, NULL),
                     20 * MS);
  m = mech_of (false, true);
  ck_assert_uint_eq (access_end (&m, true, 5 * MS, 0, 100, NULL), 15 * MS);
  ck_assert_uint_eq (access_end (&m, false, 5 * MS, 0, 100, NULL), 20 * MS);
}
END_TEST

/* The keys: off by default, 0 or 1, named in the error. */
START_TEST (test_params)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_ptr_nonnull (p);
  ck_assert_uint_eq (p->zl_read, 0);
  ck_assert_uint_eq (p->zl_write, 0);
  ck_assert_int_eq (hdd_params_set (p, "zero-latency-read", "1", err,
                                    sizeof err), 0);
  ck_assert_uint_eq (p->zl_read, 1);
  ck_assert_int_eq (hdd_params_set (p, "zero-latency-write", "2", err,
                                    sizeof err), -1);
  ck_assert_msg (strstr (err, "zero-latency-write") != NULL, "%s", err);
  hdd_params_free (p);
}
END_TEST

/* The tiny drive (tests/data/disksim/) with its diskspecs edited by
 * the sed script 'edit': the parameters it imports to.
 */
static struct hdd_params *
tiny_with (const char *edit)
{
  char dir[] = "/tmp/hddsim-test-zerolat-XXXXXX", cmd[768], path[128];
  char err[HDD_ERRLEN];
  struct hdd_params *p = hdd_params_new ();

  ck_assert_ptr_nonnull (p);
  ck_assert_ptr_nonnull (mkdtemp (dir));
  snprintf (cmd, sizeof cmd, "cp -r tests/data/disksim/tiny.parv "
            "tests/data/disksim/tiny.diskspecs tests/data/disksim/models %s "
            "&& sed -i '%s' %s/tiny.diskspecs", dir, edit, dir);
  ck_assert_int_eq (system (cmd), 0);
  snprintf (path, sizeof path, "%s/tiny.parv", dir);
  ck_assert_msg (hdd_params_load_profile (p, path, err, sizeof err) == 0,
                 "%s", err);
  snprintf (cmd, sizeof cmd, "rm -rf %s", dir);
  ck_assert_int_eq (system (cmd), 0);
  return p;
}

/* The importer: Immediate buffer read/write (tiny has both 0) are
 * DiskSim's zero-latency flags, which its controller keeps: any
 * non-zero value (1-2) imports as on (controller=disksim; its
 * mechanics never act on them with dm_layout_g1, docs/model.md).
 */
static void
imports_as (const char *edit, uint64_t zl_read, uint64_t zl_write)
{
  struct hdd_params *p = tiny_with (edit);

  ck_assert_msg (p->zl_read == zl_read && p->zl_write == zl_write,
                 "%s: zero-latency-read=%" PRIu64 " zero-latency-write=%"
                 PRIu64, edit, p->zl_read, p->zl_write);
  hdd_params_free (p);
}

#define IMM(rw, v) "s/Immediate buffer " rw " = 0/Immediate buffer " rw \
    " = " #v "/;"

START_TEST (test_import)
{
  imports_as (IMM ("read", 1), 1, 0);
  imports_as (IMM ("read", 2), 1, 0);
  imports_as (IMM ("write", 1), 0, 1);
  imports_as (IMM ("write", 2), 0, 1);
  imports_as (IMM ("read", 1) IMM ("write", 1), 1, 1);
}
END_TEST

/* Read-ahead over requested (tiny: 0; 64-block segments; Maximum
 * read-ahead 0) imports as it is (readahead-over=): DiskSim's
 * controller consults it itself, only for read-ahead modes 1-3 with
 * no Maximum read-ahead (dctl_seg.c).
 */
#define CACHING "s/Enable caching in buffer = 0/Enable caching in buffer = 1/;"
#define MODE(m) "s/Buffer continuous read = 0/Buffer continuous read = " #m "/;"

static void
keep_is (const char *edit, int keep, uint64_t readahead_blocks)
{
  struct hdd_params *p = tiny_with (edit);

  ck_assert_msg (p->ds.keep == keep, "%s: readahead-over=%" PRIu64,
                 edit, (uint64_t) p->ds.keep);
  ck_assert_uint_eq (p->readahead, readahead_blocks * 512);
  hdd_params_free (p);
}

START_TEST (test_import_keep)
{
  keep_is (CACHING MODE (3), RAOVER_NO, 64);
  keep_is (CACHING MODE (1), RAOVER_NO, 64);
  keep_is (CACHING MODE (3) "s/Read-ahead over requested = 0/"
           "Read-ahead over requested = 1/", RAOVER_YES, 64);
  keep_is (CACHING MODE (4), RAOVER_NO, 64);
  keep_is (CACHING MODE (3) "s/Maximum read-ahead (blks) = 0/"
           "Maximum read-ahead (blks) = 32/", RAOVER_NO, 32);
}
END_TEST

/* readahead-keep-request=1 (Read-ahead over requested = 0).
 * st340014a: 512-sector segments, read-ahead 512 sectors.  A 4K read
 * at X (8 sectors): read-ahead ends at X+512 (a segment past X), not
 * X+520.  50 ms (six revolutions) later the stream is done: X is still
 * held (a hit), X+512 was never read (a miss).  Off, the segment holds
 * [X+8, X+520): X misses, X+512 hits.  A read of a whole segment (512
 * sectors) reads nothing ahead with the key: X+512 misses.
 */
static bool
hit_after (const char *keep, uint64_t first_len, uint64_t then)
{
  const char *const kv[] = { "readahead-keep-request", keep, NULL };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  const uint64_t x = 5 * GIB;
  struct hdd_cost c;
  uint64_t t;

  t = serve_at (d, IO_READ, x, first_len, 0, &c);
  ck_assert (!c.cache_hit);
  serve_at (d, IO_READ, x + then * 512, 4096, t + 50 * MS, &c);
  hdd_free (d);
  return c.cache_hit;
}

START_TEST (test_keep_request)
{
  ck_assert (hit_after ("1", 4096, 0));
  ck_assert (!hit_after ("1", 4096, 512));
  ck_assert (!hit_after ("0", 4096, 0));
  ck_assert (hit_after ("0", 4096, 512));
  ck_assert (hit_after ("1", 4096, 504));
  ck_assert (!hit_after ("1", 512 * 512, 512));
  ck_assert (hit_after ("0", 512 * 512, 512));
}
END_TEST

static Suite *
zerolat_suite (void)
{
  Suite *s = suite_create ("model-zerolat");
  TCase *tc = tcase_create ("zerolat");

  tcase_add_test (tc, test_whole_track);
  tcase_add_test (tc, test_part_of_track);
  tcase_add_test (tc, test_two_tracks);
  tcase_add_test (tc, test_bus_order);
  tcase_add_test (tc, test_read_write_keys);
  tcase_add_test (tc, test_params);
  tcase_add_test (tc, test_import);
  tcase_add_test (tc, test_import_keep);
  tcase_add_test (tc, test_keep_request);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (zerolat_suite ());
}
