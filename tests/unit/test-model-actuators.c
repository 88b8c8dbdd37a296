/* hddsim: a dual-actuator drive (actuators=2, model/actuators.c) under
 * the engine, on a virtual clock.
 *
 * By hand, the tiny dual drive: two surfaces of 21 cylinders of
 * 100-sector tracks, one zone, 6000 rpm (a 10 ms revolution, 0.1 ms a
 * sector), the platter at angle 0 at time 0, no cache, no command
 * overhead, an interface of 512 GB/s.  Arm 0 serves LBAs 0-2099 (its
 * surface), arm 1 LBAs 2100-4199 (the other), each from its own
 * cylinder 0.  "A50" reads LBA 50: arm 0's sector 50 on its first
 * track; "B2130" reads arm 1's sector 30.  A read of sector s from t
 * ends after the wait for s, 0.1 ms and 1 ns for the interface (BUS).
 *
 * In counts: 4K random reads at QD16 on exos2x18, closed loop, the
 * rate in modeled time, spread over both halves against confined to
 * one, and confined to one against the same drive with one arm over
 * the whole stroke (issue 26's done-when: >= 1.8x and <= 1.1x).
 */

#include "run-suite.h"
#include "test-sched-driver.h"

#define SECT UINT64_C(512)
#define TENTH (100 * US)
#define BUS 1

static struct tdrv *
tiny (const char *actuators)
{
  struct tdrv *d = tdrv_new ("fifo", NULL, NULL);

  tdrv_set (d, "actuators", actuators);
  tdrv_set (d, "surfaces", "2");
  tdrv_set (d, "zones", "1");
  tdrv_set (d, "sectors-outer", "100");
  tdrv_set (d, "sectors-inner", "100");
  tdrv_set (d, "layout", "serpentine");
  tdrv_set (d, "capacity", "2150400");
  tdrv_set (d, "rpm", "6000");
  tdrv_set (d, "phase-zero", "1");
  tdrv_set (d, "cache", "off");
  tdrv_set (d, "readahead", "0");
  tdrv_set (d, "overhead", "0");
  tdrv_set (d, "iface-rate", "512G");
  tdrv_set (d, "seek-track", "1ms");
  tdrv_set (d, "seek-avg", "2ms");
  tdrv_set (d, "seek-full", "3ms");
  tdrv_set (d, "ncq-depth", "4");
  tdrv_set (d, "ncq-order", "rpo");
  tdrv_set (d, "ncq-max-wait", "0");
  tdrv_set (d, "ncq-overhead", "0");
  tdrv_set (d, "ncq-lookahead", "0");
  d->image = 2150400;
  return d;
}

static struct req *
at (struct tdrv *d, uint64_t t, uint64_t lba)
{
  return tdrv_at (d, t, 1, IO_READ, lba * SECT, SECT);
}

/* A50 and B2130 at 0, one on each arm: both start at 0, B ends at
 * 3.1 ms, A at 5.1 ms, each as if alone.  With one arm (serpentine: LBA
 * 2130 is surface 1's track at cylinder 20, a seek away) one waits for
 * the other: the later ends after 5.1 ms.
 */
START_TEST (test_two_arms_at_once)
{
  struct tdrv *d = tiny ("2");
  struct req *a = at (d, 0, 50), *b = at (d, 0, 2130);

  tdrv_run_all (d);
  ck_assert_uint_eq (a->start, 0);
  ck_assert_uint_eq (b->start, 0);
  ck_assert_uint_eq (b->done, 31 * TENTH + BUS);
  ck_assert_uint_eq (a->done, 51 * TENTH + BUS);
  tdrv_free (d);

  d = tiny ("1");
  a = at (d, 0, 50);
  b = at (d, 0, 2130);
  tdrv_run_all (d);
  ck_assert_uint_gt (a->done > b->done ? a->done : b->done,
                     51 * TENTH + BUS);
  tdrv_free (d);
}
END_TEST

/* A50, A10, A30 and B2130 at 0: arm 1 serves B alone (3.1 ms); arm 0
 * orders its three by rpo as a one-arm drive: A10 (1.1), from sector
 * 11 A30 (3.1), from 31 A50 (5.1).  The one queue holds all four; the
 * firmware picks for each arm among its own.
 */
START_TEST (test_one_queue_per_arm_order)
{
  struct tdrv *d = tiny ("2");
  struct req *a50 = at (d, 0, 50), *a10 = at (d, 0, 10);
  struct req *a30 = at (d, 0, 30), *b = at (d, 0, 2130);

  tdrv_run_all (d);
  ck_assert_uint_eq (b->done, 31 * TENTH + BUS);
  ck_assert_uint_eq (a10->done, 11 * TENTH + BUS);
  ck_assert_uint_eq (a30->done, 31 * TENTH + BUS);
  ck_assert_uint_eq (a50->done, 51 * TENTH + BUS);
  tdrv_free (d);
}
END_TEST

/* actuators=2 on a drive that cannot be split is refused by name. */
START_TEST (test_odd_surfaces_refused)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN] = "";
  struct hdd *h;

  ck_assert_int_eq (hdd_params_load_profile (p, "st340014a", err,
                                             sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "actuators", "2", err, sizeof err), 0);
  h = hdd_new (p, 1 << 30, 1, err, sizeof err);
  ck_assert_ptr_null (h);
  ck_assert_msg (strstr (err, "actuators=2") != NULL, "%s", err);
  hdd_params_free (p);
}
END_TEST

/* ---- the done-when figures, in counts of modeled time ---- */

#define N 4000

/* 4K random reads at QD16, closed loop, over image bytes [lo, hi),
 * lo2..hi2 a second range the stream alternates with (0: none); the
 * completions per second of modeled time.
 */
static double
iops (const char *actuators, uint64_t lo, uint64_t hi, uint64_t lo2,
      uint64_t hi2)
{
  struct tdrv *d = tdrv_new ("fifo", "exos2x18", NULL);
  struct tstream s = { .conn = 1, .op = IO_READ, .length = 4096,
                       .random = true, .lo = lo, .hi = hi, .seed = 7,
                       .depth = lo2 == hi2 ? 16 : 8, .max = N };
  double rate;

  tdrv_set (d, "actuators", actuators);
  tdrv_set (d, "cache", "off");
  d->image = hdd_params_capacity (d->hp);
  tdrv_stream (d, &s);
  if (lo2 != hi2) {             /* the other half: 8 + 8 outstanding */
    s.conn = 2;
    s.lo = lo2;
    s.hi = hi2;
    s.seed = 8;
    tdrv_stream (d, &s);
  }
  tdrv_run_all (d);
  rate = (double) d->ndone * 1e9 / (double) d->order[d->ndone - 1]->done;
  tdrv_free (d);
  return rate;
}

START_TEST (test_split_against_one_half)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN] = "";
  uint64_t cap, half;
  double both, one, single;

  ck_assert_int_eq (hdd_params_load_profile (p, "exos2x18", err,
                                             sizeof err), 0);
  cap = hdd_params_capacity (p) / 4096 * 4096;
  half = cap / 2 / 4096 * 4096;
  hdd_params_free (p);
  both = iops ("2", 0, half, half, cap);
  one = iops ("2", 0, half, 0, 0);
  single = iops ("1", 0, cap, 0, 0);
  fprintf (stderr, "exos2x18 4K random reads QD16: both halves %.1f/s, "
           "one half %.1f/s (%.2fx), one arm over the whole stroke "
           "%.1f/s (one half / single %.2fx)\n", both, one, both / one,
           single, one / single);
  ck_assert_msg (both >= 1.8 * one, "both %.1f one %.1f", both, one);
  ck_assert_msg (one <= 1.1 * single, "one %.1f single %.1f", one, single);
}
END_TEST

static Suite *
suite (void)
{
  Suite *s = suite_create ("model-actuators");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_two_arms_at_once);
  tcase_add_test (tc, test_one_queue_per_arm_order);
  tcase_add_test (tc, test_odd_surfaces_refused);
  tcase_add_test (tc, test_split_against_one_half);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (suite ());
}
