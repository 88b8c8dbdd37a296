/* hddsim: unit tests of write-waits-for-bus= (model/mech.c
 * bus_write_track): DiskSim's media write, which writes a sector only
 * if its data has crossed the interface when the head reaches it, and
 * otherwise writes it on its next pass.  The data crosses back to back
 * from the end of the command overhead: sector k of the request
 * (counted from its first sector, over all its tracks and extents) is
 * in by then + (k + 1) x one sector's interface time.
 *
 * The synthetic drive (as test-model-zerolat.c's): 100-sector tracks,
 * no skew, two surfaces, 6000 rpm: a revolution is 10 ms, a sector
 * 100 us.  The platter's phase is 0 at time 0, so slot k's start
 * passes the head at k x 0.1 ms (mod 10 ms).  LBAs 0-99 are track 0
 * (cylinder 0, head 0), slots 0-99; LBAs 100-199 track 1 (cylinder 0,
 * head 1), slots 0-99.  The arm starts on track 0; a head switch takes
 * 0.2 ms.  mech_walk_bus is given the interface as it starts (the end
 * of the overhead), so the times below are the media's.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../model/mech.h"

#define DATA "tests/data/disksim/"

#include "test-hand-mech.h"

/* End of a write of [lba, lba+n) from t, arm on track 0, its data
 * crossing from t at sector_ns a sector.
 */
static uint64_t
write_end (uint64_t t, uint64_t lba, uint64_t n, uint64_t sector_ns,
           struct hdd_cost *c)
{
  struct mech m = hand_mech ();
  struct arm a = { 0, 0 };
  struct bus_follow bus = { sector_ns, t };

  return mech_walk_bus (&m, &a, true, t, lba, n, c, &bus);
}

/* An interface faster than the media (50 us a sector): only the first
 * sector can be early.  LBAs 10-19 from 0.9 ms: the head is at slot 10
 * at 1.0 ms, its data in at 0.95 ms: ten sectors, done at 2.0 ms.  From
 * 0.98 ms the data is in at 1.03 ms, after the head passed: slot 10's
 * next pass is at 11.0 ms (10.02 ms of rotational wait), done at
 * 12.0 ms.  Without the rule (mech_access) 2.0 ms from 0.98 ms too.
 * The next pass is the first after the data is in, not always a
 * revolution on: at 15 ms a sector, LBA 10 alone from 0 is in at
 * 15 ms; slot 10 passes at 1, 11 and 21 ms: written by 21.1 ms.
 */
START_TEST (test_first_sector)
{
  struct mech m = hand_mech ();
  struct hdd_cost c = { 0 };
  struct arm a = { 0, 0 };

  ck_assert_uint_eq (write_end (900 * US, 10, 10, 50 * US, NULL), 2 * MS);
  ck_assert_uint_eq (write_end (980 * US, 10, 10, 50 * US, &c), 12 * MS);
  ck_assert_uint_eq (c.rot_ns, 10020 * US);
  ck_assert_uint_eq (c.xfer_ns, 1 * MS);
  ck_assert_uint_eq (mech_access (&m, &a, true, 980 * US, 10, 10, NULL),
                     2 * MS);
  ck_assert_uint_eq (write_end (0, 10, 1, 15 * MS, NULL), 21100 * US);
}
END_TEST

/* A slow interface (8 ms a sector), counted over the request's tracks.
 * LBAs 98-101 from 0: the data of sectors k = 0..3 is in at 8, 16, 24
 * and 32 ms.  k = 0 (slot 98) passes at 9.8 ms: written to 9.9; k = 1
 * (slot 99) passes at 9.9 < 16: next at 19.9, written to 20.0.  Head
 * switch to 20.2 ms; k = 2 (track 1, slot 0) passes at 30.0 >= 24:
 * written to 30.1; k = 3 (slot 1) passes at 30.1 < 32: next at 40.1,
 * done at 40.2 ms.  Counted from each track's start, k = 2 and 3 would
 * be in at 8 and 16 ms and it would end at 30.2.  Rotational wait
 * 9.8 ms; the rest (30.4 ms) is transfer.  The interface is then done
 * with all four sectors at 32 ms.
 */
START_TEST (test_two_tracks)
{
  struct mech m = hand_mech ();
  struct hdd_cost c = { 0 };
  struct arm a = { 0, 0 };
  struct bus_follow bus = { 8 * MS, 0 };

  ck_assert_uint_eq (mech_walk_bus (&m, &a, true, 0, 98, 4, &c, &bus),
                     40200 * US);
  ck_assert_uint_eq (c.rot_ns, 9800 * US);
  ck_assert_uint_eq (c.xfer_ns, 30400 * US);
  ck_assert_uint_eq (bus.done, 32 * MS);
}
END_TEST

/* The same request as two extents (as hdd.c's media() walks an image
 * whose sectors are not contiguous on the drive), the interface carried
 * over: 98-99 end at 20.0 ms with the interface at 16 ms, then 100-101
 * from 20.0 ms end at 40.2 ms as above.
 */
START_TEST (test_two_extents)
{
  struct mech m = hand_mech ();
  struct arm a = { 0, 0 };
  struct bus_follow bus = { 8 * MS, 0 };

  ck_assert_uint_eq (mech_walk_bus (&m, &a, true, 0, 98, 2, NULL, &bus),
                     20 * MS);
  ck_assert_uint_eq (bus.done, 16 * MS);
  ck_assert_uint_eq (mech_walk_bus (&m, &a, true, 20 * MS, 100, 2, NULL,
                                    &bus), 40200 * US);
}
END_TEST

/* DiskSim's HP C2490A (tests/data/disksim/hp_c2490a.*, as in
 * test-disksim-validation.c): 6398 rpm, one revolution 60 s / 6398 =
 * 9.3779306 ms; zone 0 has 108 sectors a track (2000 = 18 x 108 + 56:
 * LBNs 2000-2007 lie on one track, the layout puts them there); bus1's
 * block transfer time 0.14841 ms a sector, slower than the media;
 * Write hit/miss over. after write 0.82391 ms; Write completion
 * overhead 0; no positioning on the same track.
 *
 * W 2000 4 at 0 ends with the head at the start of LBN 2004 (its last
 * sector was written after its data had crossed).  W 2004 4 arrives
 * 8.45402 ms later: after its overhead the head is 9.27793 ms past LBN
 * 2004, which comes round 0.1 ms later (9.37793 - 9.27793) -- but its
 * data is in only 0.14841 ms after the overhead: missed, written a
 * revolution later, then four sectors (4 / 108 rev = 0.34733 ms):
 * 0.82391 + 0.1 + 9.37793 + 0.34733 = 10.64917 ms, i.e. exactly
 * rev x (2 + 4/108) - 8.45402 ms = 10.649172 ms; rotational wait
 * rev + 0.1 ms.  DiskSim 4.0: 10.649140 ms.  Without the rule hddsim
 * gave 1.417551 (overhead + the four sectors' interface time).
 */
START_TEST (test_hp_c2490a_missed_sector)
{
  const double rev = 60e9 / 6398;
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];
  struct hdd *d;
  struct hdd_cost c = { 0 };
  uint64_t t, total;

  ck_assert_ptr_nonnull (p);
  ck_assert_msg (hdd_params_load_profile (p, DATA "hp_c2490a.parv", err,
                                          sizeof err) == 0, "%s", err);
  /* DiskSim's own controller serves the import (the rule is its). */
  ck_assert_int_eq (p->controller, CTLR_DISKSIM);
  d = hdd_new (p, hdd_params_capacity (p), 1, err, sizeof err);
  ck_assert_msg (d != NULL, "%s", err);
  t = serve_at (d, IO_WRITE, 2000 * SECTOR, 4 * SECTOR, 0, &c) + 8454020;
  c = (struct hdd_cost) { 0 };
  total = serve_at (d, IO_WRITE, 2004 * SECTOR, 4 * SECTOR, t, &c);
  ck_assert_uint_eq (c.overhead_ns, 823910);
  /* DiskSim's own controller (the import's) gives DiskSim's answer,
     32 ns under the exact one (its fixed-point angles). */
  ck_assert_msg (fabs ((double) total - 10649140) <= 5,
                 "service time %" PRIu64 " ns, want 10649140", total);
  /* Its breakdown's rotational wait is the first one (0.1 ms); the
     revolution lost waiting for the bus is in the transfer. */
  ck_assert_msg (fabs ((double) c.rot_ns - 100000) <= 10,
                 "rotational wait %" PRIu64 " ns", c.rot_ns);
  ck_assert_msg (fabs ((double) c.xfer_ns - (rev + 4 * rev / 108)) <= 100,
                 "transfer %" PRIu64 " ns", c.xfer_ns);
  hdd_free (d);
  hdd_params_free (p);
}
END_TEST

/* The key: off by default (and in the built-in profiles), 0 or 1,
 * refused with zero-latency writes served by the media.
 */
START_TEST (test_params)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_ptr_nonnull (p);
  ck_assert_uint_eq (p->write_bus, 0);
  ck_assert_int_eq (hdd_params_load_profile (p, "st4000nm0033", err,
                                             sizeof err), 0);
  ck_assert_uint_eq (p->write_bus, 0);
  ck_assert_int_eq (hdd_params_set (p, "write-waits-for-bus", "2", err,
                                    sizeof err), -1);
  ck_assert_msg (strstr (err, "write-waits-for-bus") != NULL, "%s", err);
  ck_assert_int_eq (hdd_params_set (p, "write-waits-for-bus", "1", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "zero-latency-write", "1", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), -1);
  ck_assert_msg (strstr (err, "write-waits-for-bus=1") != NULL
                 && strstr (err, "zero-latency-write=1") != NULL, "%s", err);
  hdd_params_free (p);
}
END_TEST

static Suite *
buswrite_suite (void)
{
  Suite *s = suite_create ("model-buswrite");
  TCase *tc = tcase_create ("buswrite");

  tcase_add_test (tc, test_first_sector);
  tcase_add_test (tc, test_two_tracks);
  tcase_add_test (tc, test_two_extents);
  tcase_add_test (tc, test_hp_c2490a_missed_sector);
  tcase_add_test (tc, test_params);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (buswrite_suite ());
}
