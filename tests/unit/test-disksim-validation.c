/* hddsim: unit tests of DiskSim validation findings: where a track
 * ends in LBA order when it has spares and slips (geom_track_end, for
 * read-ahead that stops at a track's end), and an imported DiskSim
 * drive against times worked out by hand from its parameters: the HP C2490A of DiskSim 4.0's
 * validation set (tests/data/disksim/hp_c2490a.*), the one drive that
 * imports fully.  Each expected time is also what DiskSim 4.0 itself
 * gives for the same requests (a validate trace of them, built and run
 * outside the project; quoted in each test), so a mapping or layout
 * error that moves hddsim away from DiskSim shows here.
 *
 * The parameters used (hp_c2490a.diskspecs, .model, .parv):
 *   6398 rpm: one revolution 60 s / 6398 = 9,377,930.6 ns; zone 0
 *     (cylinders 0-186) has 108 sectors per track, so a sector passes
 *     in 86,832.7 ns; LBNs 1000-1001 and 2000-2007 lie on one track
 *     each of zone 0.
 *   bus1's Read/Write block transfer time 0.14841 ms: 148,410 ns per
 *     sector, slower than the media (the importer rounds it to
 *     3,449,902 B/s, so +-2 ns).
 *   Read hit over. after read 1.419 ms, Read hit over. after write 0,
 *     Read miss over. after read 3.616 ms, Write hit/miss over. after
 *     write 0.82391 ms, Read completion overhead 0.081 ms, Write
 *     completion overhead 0.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "../../model/hdd.h"
#include "../../model/geometry.h"
#include "../../model/params.h"
#include "../../profile/profile.h"
#include "test-units.h"
#include "run-suite.h"

#define DATA "tests/data/disksim/"
#define SECTOR 512

#define REV_NS 9377930.6                /* 60e9 / 6398 */
#define SECTOR_NS (REV_NS / 108)        /* zone 0 */
#define BUS_NS 148410.0                 /* 0.14841 ms */

static struct hdd_params *params;
static struct hdd *drive;

static void
setup (void)
{
  char err[HDD_ERRLEN];

  params = hdd_params_new ();
  ck_assert_ptr_nonnull (params);
  ck_assert_msg (hdd_params_load_profile (params, DATA "hp_c2490a.parv",
                                          err, sizeof err) == 0, "%s", err);
  drive = hdd_new (params, hdd_params_capacity (params), 1, err, sizeof err);
  ck_assert_msg (drive != NULL, "%s", err);
}

static void
teardown (void)
{
  hdd_free (drive);
  hdd_params_free (params);
}

static uint64_t
serve (enum io_op op, uint64_t lbn, uint64_t blocks, uint64_t t,
       struct hdd_cost *c)
{
  struct io r = { .op = op, .offset = lbn * SECTOR, .length = blocks * SECTOR };

  *c = (struct hdd_cost) { 0 };
  return hdd_serve (drive, &r, t, c);
}

/* |got - want| <= tol, reported in ns. */
static void
near (const char *what, uint64_t got, double want, double tol)
{
  double d = (double) got - want;

  ck_assert_msg (d <= tol && d >= -tol, "%s: %" PRIu64 " ns, want %.1f +- %.1f",
                 what, got, want, tol);
}

/* A one-sector read miss: the command overhead after a read plus the
 * read completion overhead (3.616 + 0.081 ms), then the sector is read
 * (86,832.7 ns) and crosses the slower interface (148,410 ns): the
 * transfer is the first sector's read plus the interface's time for
 * all (one) sectors, DiskSim's rule when the bus is the slower.
 * DiskSim: a one-sector miss in zone 0 spends the same 235.24 us in
 * transfer (e.g. the trace's R 886122 1 on a 104-sector track: 90.17 +
 * 148.41 = 238.6 us in both).
 */
START_TEST (test_read_miss_bus_bound)
{
  struct hdd_cost c;

  serve (IO_READ, 1000, 1, 0, &c);
  ck_assert (!c.cache_hit);
  ck_assert_uint_eq (c.overhead_ns, 3697 * US);
  near ("transfer", c.xfer_ns, SECTOR_NS + BUS_NS, 2);
}
END_TEST

/* The next sector, 20 ms later: the read-ahead has long read it (it
 * reads on after the miss at 86.8 us a sector), so a hit: read hit
 * overhead after a read 1.419 ms, the sector across the interface
 * 0.14841 ms, read completion 0.081 ms = 1.64841 ms.  DiskSim: 1.648410.
 */
START_TEST (test_read_hit_after_read)
{
  struct hdd_cost c;
  uint64_t t = serve (IO_READ, 1000, 1, 0, &c) + 20 * MS;
  uint64_t total = serve (IO_READ, 1001, 1, t, &c);

  ck_assert (c.cache_hit);
  ck_assert_uint_eq (c.overhead_ns, 1500 * US);
  near ("transfer", c.xfer_ns, BUS_NS, 2);
  near ("service time", total, 1.419e6 + BUS_NS + 81e3, 2);
}
END_TEST

/* Reading back what was just written (Allow read hits on write data =
 * 1): a hit with the read hit overhead after a write (0) and the read
 * completion overhead: 4 x 0.14841 + 0.081 = 0.67464 ms.  DiskSim:
 * 0.674640.
 */
START_TEST (test_read_hit_on_written_data)
{
  struct hdd_cost c;
  uint64_t t = serve (IO_WRITE, 2000, 4, 0, &c) + 20 * MS;
  uint64_t total = serve (IO_READ, 2000, 4, t, &c);

  ck_assert (c.cache_hit);
  ck_assert_uint_eq (c.overhead_ns, 81 * US);
  near ("service time", total, 4 * BUS_NS + 81e3, 4);
}
END_TEST

/* A write-through write that continues the one before it, arriving
 * 2 ms after that one completed.  The first ended when its last sector
 * had been written (its data had crossed long before: 4 x 0.148 ms
 * against a 3.283 ms overhead), with the head at the start of LBN
 * 2004.  The second's overhead after a write is 0.82391 ms, so the
 * head is 2.82391 ms past LBN 2004 when it could write, and waits the
 * rest of a revolution, 9.37793 - 2.82391 = 6.55402 ms; then four
 * sectors, 0.34733 ms: 7.72526 ms.  DiskSim: 7.725263.
 */
START_TEST (test_sequential_write_through)
{
  struct hdd_cost c;
  uint64_t t = serve (IO_WRITE, 2000, 4, 0, &c) + 2 * MS;
  uint64_t total = serve (IO_WRITE, 2004, 4, t, &c);

  ck_assert (!c.cache_hit);
  ck_assert_uint_eq (c.seek_ns, 0);
  ck_assert_uint_eq (c.overhead_ns, 823910);
  /* (DiskSim's fixed-point angles: a few ns, dctl_mech.c) */
  near ("rotational wait", c.rot_ns, REV_NS - 2823910, 5);
  near ("service time", total, REV_NS - 2 * MS + 4 * SECTOR_NS, 3);
}
END_TEST

/* A geometry from "key=value" strings, 2 surfaces, 'sectors' LBAs. */
static void
geom_from (struct geom *g, struct hdd_params *p, uint64_t sectors,
           const char *const *kv)
{
  char err[HDD_ERRLEN], key[64];
  unsigned i;

  ck_assert_int_eq (hdd_params_set (p, "surfaces", "2", err, sizeof err), 0);
  for (i = 0; kv[i]; i++) {
    const char *eq = strchr (kv[i], '=');
    snprintf (key, sizeof key, "%.*s", (int) (eq - kv[i]), kv[i]);
    ck_assert_msg (hdd_params_set (p, key, eq + 1, err, sizeof err) == 0,
                   "%s", err);
  }
  p->capacity = sectors * SECTOR;
  ck_assert_msg (geom_init (g, p, err, sizeof err) == 0, "%s", err);
}

/* One spare sector at the end of every track (DiskSim's "sectors per
 * track" sparing, as the DEC RZ26's): 10 slots, 9 LBAs a track, so
 * LBA 0-8 on track 0, 9-17 on track 1; 5 cylinders x 2 surfaces x 9 =
 * 90 LBAs.  With 4 LBA positions empty at the zone's front (DiskSim's
 * "Empty space at zone front"), LBA 0 is track 0's fifth position: 0-4
 * on track 0, 5-13 on track 1.  Without spares, a track is its slots.
 */
START_TEST (test_track_end_spare_per_track)
{
  const char *const kv[] = { "zone-table=0-4:10:spares=1", "sparing=track",
                             NULL };
  const char *const empty[] = { "zone-table=0-4:10:empty=4:spares=1",
                                 "sparing=track", NULL };
  const char *const plain[] = { "zone-table=0-4:10", NULL };
  struct hdd_params *p = hdd_params_new ();
  struct geom g;

  geom_from (&g, p, 90, kv);
  ck_assert_uint_eq (geom_track_end (&g, 0), 9);
  ck_assert_uint_eq (geom_track_end (&g, 8), 9);
  ck_assert_uint_eq (geom_track_end (&g, 9), 18);
  ck_assert_uint_eq (geom_track_end (&g, 89), 90);
  hdd_params_free (p);
  p = hdd_params_new ();
  geom_from (&g, p, 86, empty);
  ck_assert_uint_eq (geom_track_end (&g, 0), 5);
  ck_assert_uint_eq (geom_track_end (&g, 4), 5);
  ck_assert_uint_eq (geom_track_end (&g, 5), 14);
  hdd_params_free (p);
  p = hdd_params_new ();
  geom_from (&g, p, 100, plain);
  ck_assert_uint_eq (geom_track_end (&g, 0), 10);
  ck_assert_uint_eq (geom_track_end (&g, 15), 20);
  hdd_params_free (p);
}
END_TEST

/* sparing=range, 2 cylinders a range, 3 spares a range, slips at
 * physical 5, 40 and 50 (2 surfaces, cylinders 0-4 of 10 sectors).
 * Track 0 (physical 0-9) holds LBAs 0-4 and, past the slip at 5,
 * 5-8 at 6-9: it ends at 9.  Range 0's last track (physical 30-39)
 * holds LBAs 29-36 at 30-37; 38 and 39 are spares: it ends at 37.
 * Range 1 slips its first sector (40): LBAs 37-45 at 41-49, then
 * 46-54 at 51-59 past the slip at 50; the last LBA is 93.
 */
START_TEST (test_track_end_slips_and_spares)
{
  const char *const kv[] = {
    "zone-table=0-4:10:spares=3", "sparing=range", "sparing-range=2",
    "slips=0:50,0:5,0:40", NULL
  };
  struct hdd_params *p = hdd_params_new ();
  struct geom g;

  geom_from (&g, p, 94, kv);
  ck_assert_uint_eq (geom_track_end (&g, 0), 9);
  ck_assert_uint_eq (geom_track_end (&g, 4), 9);
  ck_assert_uint_eq (geom_track_end (&g, 5), 9);
  ck_assert_uint_eq (geom_track_end (&g, 29), 37);
  ck_assert_uint_eq (geom_track_end (&g, 36), 37);
  ck_assert_uint_eq (geom_track_end (&g, 37), 46);
  ck_assert_uint_eq (geom_track_end (&g, 45), 46);
  ck_assert_uint_eq (geom_track_end (&g, 46), 55);
  ck_assert_uint_eq (geom_track_end (&g, 93), 94);
  hdd_params_free (p);
}
END_TEST

static Suite *
validation_suite (void)
{
  Suite *s = suite_create ("disksim-validation");
  TCase *tg = tcase_create ("track end");
  TCase *tc = tcase_create ("hp_c2490a");

  tcase_add_test (tg, test_track_end_spare_per_track);
  tcase_add_test (tg, test_track_end_slips_and_spares);
  suite_add_tcase (s, tg);

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_read_miss_bus_bound);
  tcase_add_test (tc, test_read_hit_after_read);
  tcase_add_test (tc, test_read_hit_on_written_data);
  tcase_add_test (tc, test_sequential_write_through);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (validation_suite ());
}
