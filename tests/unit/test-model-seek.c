/* hddsim unit tests: seek tables as DiskSim interpolates them, and the
 * positioning rules (head switch against seek, write settle, negative
 * write settle).  Expected values are worked out by hand in the
 * comments, from DiskSim's dm_mech_g1 arithmetic (integer
 * picoseconds, the step from the lower point truncated towards it)
 * and the parameters.
 */

#include <inttypes.h>

#include "test-model-util.h"
#include "../../model/geometry.h"
#include "../../model/probe.h"
#include "../../model/seek.h"
#include "run-suite.h"

/* Reads and writes of 4 KiB at the start of a track, costed from a
 * drive parked on (cyl, head 0).
 */
static uint64_t
park (struct hdd *d, uint64_t cyl, uint64_t t)
{
  struct hdd_cost c;
  uint64_t lba = geom_track_lba (hdd_geom (d), cyl, 0);

  return t + serve_at (d, IO_READ, lba * SECTOR, SECTOR, t, &c);
}

static uint64_t
position (struct hdd *d, enum io_op op, uint64_t cyl, uint64_t head,
          uint64_t t)
{
  uint64_t lba = geom_track_lba (hdd_geom (d), cyl, head);
  struct io io = { .op = op, .fua = op == IO_WRITE, .offset = lba * SECTOR,
                   .length = 4096 };
  struct hdd_cost c;

  hdd_estimate (d, &io, t, &c);
  return c.seek_ns;
}

/* ---- the interpolation itself ---- */

START_TEST (test_interp_by_hand)
{
  /* atlas10k's falling stretch: 10 cyl 1.531 ms, 12 cyl 1.515 ms; at
     11: 1531000000 ps - 1 * 16000000 ps / 2 = 1523000000 ps. */
  ck_assert_uint_eq (seek_table_interp (10, 1531000, 12, 1515000, 11),
                     1523000);
  /* Rising, 1 cyl 1 us to 4 cyl 2 us, at 2: 1000000 ps + 1000000 / 3
     ps = 1333333 ps (truncated) = 1333 ns. */
  ck_assert_uint_eq (seek_table_interp (1, 1000, 4, 2000, 2), 1333);
  /* Falling by 1000 ns over 1999 cyl, one cylinder on: the step is
     1000000 / 1999 = 500.25 ps, truncated to 500 (towards the lower
     point): 2000000 - 500 = 1999500 ps, rounded half up to 2000 ns.
     Unrounded (floating) arithmetic gives 1999.49975 ns = 1999 ns. */
  ck_assert_uint_eq (seek_table_interp (1, 2000, 2000, 1000, 2), 2000);
  /* Beyond the last point, from the last two: 50 cyl 4 ms, 99 cyl
     6 ms, at 150: 4e9 + 100 * 2e9 / 49 = 4e9 + 4081632653 ps
     (truncated) = 8081632653 ps = 8081633 ns. */
  ck_assert_uint_eq (seek_table_interp (50, 4 * MS, 99, 6 * MS, 150),
                     8081633);
  /* A falling line extrapolated past zero stops at 0: 2000 ns - 4 *
     1000 ns. */
  ck_assert_uint_eq (seek_table_interp (1, 2000, 2, 1000, 5), 0);
}
END_TEST

/* ---- through the drive ---- */

/* Points, between points (rising and falling), beyond the last. */
START_TEST (test_table_in_drive)
{
  static const char *const kv[] = {
    "cache", "off", "seek-table", "1:1ms,10:2ms,12:1.9ms,1000:5ms", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  uint64_t t = park (d, 2000, 0);

  ck_assert_uint_eq (position (d, IO_READ, 2001, 0, t), 1 * MS);
  ck_assert_uint_eq (position (d, IO_READ, 1990, 0, t), 2 * MS);
  ck_assert_uint_eq (position (d, IO_READ, 2012, 0, t), 1900 * US);
  ck_assert_uint_eq (position (d, IO_READ, 3000, 0, t), 5 * MS);
  /* 11 cyl, falling: 2 ms - 1 * 0.1 ms / 2 = 1.95 ms. */
  ck_assert_uint_eq (position (d, IO_READ, 2011, 0, t), 1950 * US);
  /* 500 cyl: 1.9e9 ps + 488 * 3.1e9 / 988 ps = 1.9e9 + 1531174089 ps
     = 3431174089 ps = 3431174 ns. */
  ck_assert_uint_eq (position (d, IO_READ, 2500, 0, t), 3431174);
  /* 3000 cyl, beyond 1000: 1.9e9 + 2988 * 3.1e9 / 988 ps = 1.9e9 +
     9375303643 ps = 11275303643 ps = 11275304 ns. */
  ck_assert_uint_eq (position (d, IO_READ, 5000, 0, t), 11275304);
  hdd_free (d);
}
END_TEST

/* Below the first point the line runs from (0, 0): 2 of 5 cylinders
 * to 1 ms is 0.4 ms.
 */
START_TEST (test_table_below_first)
{
  static const char *const kv[] = {
    "cache", "off", "seek-table", "5:1ms,100:5ms,100000:15ms", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  uint64_t t = park (d, 2000, 0);

  ck_assert_uint_eq (position (d, IO_READ, 2002, 0, t), 400 * US);
  hdd_free (d);
}
END_TEST

static char *
table_of (unsigned n)
{
  char *s = malloc ((size_t) n * 24 + 1), *q = s;
  unsigned i;

  ck_assert_ptr_nonnull (s);
  for (i = 1; i <= n; i++)
    q += sprintf (q, "%s%u:%uus", i > 1 ? "," : "", i, 1000 + i);
  return s;
}

/* Falling stretches are accepted; a falling last stretch that the
 * extrapolation takes below zero before the full stroke is not; a
 * table holds SEEK_TABLE_MAX points and no more.
 */
START_TEST (test_table_bounds)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN], *s;

  ck_assert_int_eq (hdd_params_load_profile (p, "st340014a", err,
                                             sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "seek-table",
                                    "1:2ms,10:1.5ms,100:5ms,100000:15ms", err,
                                    sizeof err), 0);
  ck_assert_msg (hdd_params_validate (p, err, sizeof err) == 0, "%s", err);
  /* 2 ms falling 1 ms per 9 cylinders reaches 0 at 19 cylinders. */
  ck_assert_int_eq (hdd_params_set (p, "seek-table", "1:2ms,10:1ms", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), -1);
  ck_assert_msg (strstr (err, "seek-table") && strstr (err, "fall"), "%s",
                 err);
  s = table_of (SEEK_TABLE_MAX);
  ck_assert_msg (hdd_params_set (p, "seek-table", s, err, sizeof err) == 0,
                 "%s", err);
  ck_assert_uint_eq (p->seek_npoints, SEEK_TABLE_MAX);
  ck_assert_uint_eq (p->seek_time[SEEK_TABLE_MAX - 1],
                     (1000 + SEEK_TABLE_MAX) * US);
  free (s);
  s = table_of (SEEK_TABLE_MAX + 1);
  ck_assert_int_eq (hdd_params_set (p, "seek-table", s, err, sizeof err),
                    -1);
  ck_assert_msg (strstr (err, "1024"), "%s", err);
  free (s);
  hdd_params_free (p);
}
END_TEST

/* ---- the positioning rules ---- */

/* A point near the full stroke keeps the extrapolation in bounds. */
#define TABLE "1:0.5ms,1000:5ms,400000:15ms"

/* DiskSim: a move over cylinders and surfaces takes the longer of the
 * seek (0.5 ms) and the head switch (0.8 ms); hddsim the seek.
 */
START_TEST (test_rule_longer_of_seek_and_switch)
{
  static const char *const ds[] = {
    "cache", "off", "seek-table", TABLE, "head-switch", "0.8ms",
    "position-rule", "disksim", NULL
  };
  static const char *const hs[] = {
    "cache", "off", "seek-table", TABLE, "head-switch", "0.8ms", NULL
  };
  struct hdd *d = drive ("st4000nm0033", ds, 0, 1);
  uint64_t t = park (d, 2000, 0);

  ck_assert_uint_eq (position (d, IO_READ, 2001, 1, t), 800 * US);
  ck_assert_uint_eq (position (d, IO_READ, 2001, 0, t), 500 * US);
  ck_assert_uint_eq (position (d, IO_READ, 2000, 1, t), 800 * US);
  hdd_free (d);
  d = drive ("st4000nm0033", hs, 0, 1);
  t = park (d, 2000, 0);
  ck_assert_uint_eq (position (d, IO_READ, 2001, 1, t), 500 * US);
  hdd_free (d);
}
END_TEST

/* DiskSim: a write settles after any positioning, a head switch too
 * (0.8 + 0.2 ms); hddsim only after a seek.  No positioning, no
 * settle.
 */
START_TEST (test_rule_settle_after_switch)
{
  static const char *const ds[] = {
    "cache", "off", "seek-table", TABLE, "head-switch", "0.8ms",
    "write-settle", "0.2ms", "position-rule", "disksim", NULL
  };
  static const char *const hs[] = {
    "cache", "off", "seek-table", TABLE, "head-switch", "0.8ms",
    "write-settle", "0.2ms", NULL
  };
  struct hdd *d = drive ("st4000nm0033", ds, 0, 1);
  uint64_t t = park (d, 2000, 0);

  ck_assert_uint_eq (position (d, IO_WRITE, 2000, 1, t), 1000 * US);
  ck_assert_uint_eq (position (d, IO_WRITE, 2001, 0, t), 700 * US);
  ck_assert_uint_eq (position (d, IO_WRITE, 2001, 1, t), 1000 * US);
  ck_assert_uint_eq (position (d, IO_READ, 2000, 1, t), 800 * US);
  ck_assert_uint_eq (position (d, IO_WRITE, 2000, 0, t), 0);
  hdd_free (d);
  d = drive ("st4000nm0033", hs, 0, 1);
  t = park (d, 2000, 0);
  ck_assert_uint_eq (position (d, IO_WRITE, 2000, 1, t), 800 * US);
  ck_assert_uint_eq (position (d, IO_WRITE, 2001, 0, t), 700 * US);
  hdd_free (d);
}
END_TEST

/* The switch to the next track inside a write settles too under
 * DiskSim's rule: the head comes 0.2 ms after the skewed first sector
 * and waits for it to come round, so the transfer takes at least the
 * settle longer than under hddsim's rule; a read's does not change.
 */
static uint64_t
two_track_xfer (const char *rule, enum io_op op)
{
  const char *const kv[] = {
    "cache", "off", "seek-table", TABLE, "write-settle", "0.2ms",
    "position-rule", rule, NULL
  };
  struct hdd *d = drive ("st4000nm0033", kv, 0, 1);
  const struct geom *g = hdd_geom (d);
  uint64_t t = park (d, 2000, 0), lba = geom_track_lba (g, 2000, 0);
  uint64_t spt = geom_track_lba (g, 2000, 1) - lba;
  struct io io = { .op = op, .fua = op == IO_WRITE, .offset = lba * SECTOR,
                   .length = (spt + 1) * SECTOR };
  struct hdd_cost c;

  hdd_estimate (d, &io, t, &c);
  hdd_free (d);
  return c.xfer_ns;
}

START_TEST (test_rule_settle_inside_request)
{
  ck_assert_uint_ge (two_track_xfer ("disksim", IO_WRITE),
                     two_track_xfer ("hddsim", IO_WRITE) + 200 * US);
  ck_assert_uint_eq (two_track_xfer ("disksim", IO_READ),
                     two_track_xfer ("hddsim", IO_READ));
}
END_TEST

/* A negative settle (DiskSim's hp_c2490a: -0.642 ms) shortens every
 * write's positioning that is not zero: 0.5 - 0.3 ms after a seek,
 * 0.8 - 0.3 ms after a head switch; reads keep theirs.
 */
START_TEST (test_rule_negative_settle)
{
  static const char *const ds[] = {
    "cache", "off", "seek-table", TABLE, "head-switch", "0.8ms",
    "write-settle", "0", "write-settle-neg", "0.3ms",
    "position-rule", "disksim", NULL
  };
  struct hdd *d = drive ("st4000nm0033", ds, 0, 1);
  uint64_t t = park (d, 2000, 0);

  ck_assert_uint_eq (position (d, IO_WRITE, 2001, 0, t), 200 * US);
  ck_assert_uint_eq (position (d, IO_WRITE, 2000, 1, t), 500 * US);
  ck_assert_uint_eq (position (d, IO_READ, 2001, 0, t), 500 * US);
  ck_assert_uint_eq (position (d, IO_WRITE, 2000, 0, t), 0);
  hdd_free (d);
}
END_TEST

/* The rule itself: a settle more negative than the positioning stops
 * at 0 (0.5 ms seek - 0.6 ms); write-settle and write-settle-neg add
 * (0.5 + 0.2 - 0.3 ms).
 */
START_TEST (test_rule_floor_and_sum)
{
  static struct seek_curve c;
  struct geom g = { .ncyl = 2000 };
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_int_eq (hdd_params_set (p, "seek-table", TABLE, err,
                                    sizeof err), 0);
  p->position_rule = POSITION_DISKSIM;
  p->write_settle = 0;
  p->write_settle_neg = 600 * US;
  ck_assert_msg (seek_fit (&c, p, &g, err, sizeof err) == 0, "%s", err);
  ck_assert_uint_eq (seek_position_disksim (&c, 1, false, true), 0);
  ck_assert_uint_eq (seek_position_disksim (&c, 1, false, false), 500 * US);
  p->write_settle = 200 * US;
  p->write_settle_neg = 300 * US;
  ck_assert_msg (seek_fit (&c, p, &g, err, sizeof err) == 0, "%s", err);
  ck_assert_uint_eq (seek_position_disksim (&c, 1, false, true), 400 * US);
  hdd_params_free (p);
}
END_TEST

/* write-settle-neg means DiskSim's rule: alone it is refused, naming
 * both keys.
 */
START_TEST (test_negative_needs_rule)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_int_eq (hdd_params_load_profile (p, "st4000nm0033", err,
                                             sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "write-settle-neg", "0.3ms", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), -1);
  ck_assert_msg (strstr (err, "write-settle-neg")
                 && strstr (err, "position-rule=disksim"), "%s", err);
  ck_assert_int_eq (hdd_params_set (p, "position-rule", "disksim", err,
                                    sizeof err), 0);
  ck_assert_msg (hdd_params_validate (p, err, sizeof err) == 0, "%s", err);
  hdd_params_free (p);
}
END_TEST

static Suite *
seek_suite (void)
{
  Suite *s = suite_create ("model-seek");
  TCase *tc = tcase_create ("seek");

  tcase_add_test (tc, test_interp_by_hand);
  tcase_add_test (tc, test_table_in_drive);
  tcase_add_test (tc, test_table_below_first);
  tcase_add_test (tc, test_table_bounds);
  tcase_add_test (tc, test_rule_longer_of_seek_and_switch);
  tcase_add_test (tc, test_rule_settle_after_switch);
  tcase_add_test (tc, test_rule_settle_inside_request);
  tcase_add_test (tc, test_rule_negative_settle);
  tcase_add_test (tc, test_rule_floor_and_sum);
  tcase_add_test (tc, test_negative_needs_rule);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (seek_suite ());
}
