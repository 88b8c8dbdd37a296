/* hddsim: unit tests of DiskSim's RMS demerit (tools/lib/demerit.c).
 *
 * Expected values are worked out by hand from DiskSim's definition:
 * statdefs' "Start 0 step 1 grow 1" edges, values truncated to whole
 * microseconds and counted below the next edge, the CDF read at the
 * edges, inverted by linear interpolation at p = i/10000, i = 1..10000,
 * and the root mean square of the differences in ms.
 *
 * Two sums used below (N = 10000, p_i = i/N):
 *   mean p   = (N+1)/(2N)            = 0.50005
 *   mean p^2 = (N+1)(2N+1)/(6N^2)    = 0.333383335
 */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <check.h>

#include "run-suite.h"

#include "../../tools/lib/demerit.h"

#define TOL 1e-9

static struct demerit_dist a, b;

static void
fill (struct demerit_dist *d, const double *ms, size_t n)
{
  size_t i;

  demerit_dist_init (d);
  for (i = 0; i < n; i++)
    demerit_dist_add (d, ms[i]);
}

/* statdefs: widths of 1 us up to 100 us, then 1 + floor(edge/100):
 * 100 -> 102 -> 104 ... (width 2 while the edge is below 200): edge
 * 100 + 2k is bucket 100 + k, so 200 is edge 150, and 200 + 1 + 2 =
 * 203 is edge 151.
 */
START_TEST (test_edges)
{
  ck_assert_int_eq (demerit_edge_us (0), 0);
  ck_assert_int_eq (demerit_edge_us (1), 1);
  ck_assert_int_eq (demerit_edge_us (99), 99);
  ck_assert_int_eq (demerit_edge_us (100), 100);
  ck_assert_int_eq (demerit_edge_us (101), 102);
  ck_assert_int_eq (demerit_edge_us (125), 150);
  ck_assert_int_eq (demerit_edge_us (150), 200);
  ck_assert_int_eq (demerit_edge_us (151), 203);
  ck_assert_int_eq (demerit_edge_us (DEMERIT_BUCKETS), -1);
}
END_TEST

/* One value of 10.5 us is truncated to 10 and counted below edge 11:
 * the CDF is 0 up to x = 0.010 ms and 1 at x = 0.011 ms, the 12th
 * point, where the printed table stops.
 */
START_TEST (test_cdf_one_value)
{
  static double x[DEMERIT_BUCKETS], y[DEMERIT_BUCKETS];
  const double v[] = { 0.0105 };
  size_t n;

  fill (&a, v, 1);
  n = demerit_cdf (&a, x, y);
  ck_assert_uint_eq (n, 12);
  ck_assert_double_eq (y[0], 0.0);
  ck_assert_double_eq (y[10], 0.0);
  ck_assert_double_eq (y[11], 1.0);
  ck_assert_double_eq_tol (x[10], 0.010, 1e-15);
  ck_assert_double_eq_tol (x[11], 0.011, 1e-15);
}
END_TEST

/* Three values: DiskSim prints the running fraction with six decimals,
 * and that is what its rms reads: 0.333333 and 0.666667.
 */
START_TEST (test_cdf_printed_rounding)
{
  static double x[DEMERIT_BUCKETS], y[DEMERIT_BUCKETS];
  const double v[] = { 0.001, 0.002, 0.003 };
  size_t n;

  fill (&a, v, 3);
  n = demerit_cdf (&a, x, y);
  ck_assert_uint_eq (n, 5);
  ck_assert_double_eq (y[1], 0.0);
  ck_assert_double_eq (y[2], 0.333333);
  ck_assert_double_eq (y[3], 0.666667);
  ck_assert_double_eq (y[4], 1.0);
}
END_TEST

/* A value beyond the last edge but one lands in the last bucket. */
START_TEST (test_cdf_overflow)
{
  static double x[DEMERIT_BUCKETS], y[DEMERIT_BUCKETS];
  const double v[] = { 1e9 };

  fill (&a, v, 1);
  ck_assert_uint_eq (demerit_cdf (&a, x, y), DEMERIT_BUCKETS);
  ck_assert_double_eq (y[DEMERIT_BUCKETS - 2], 0.0);
  ck_assert_double_eq (y[DEMERIT_BUCKETS - 1], 1.0);
}
END_TEST

/* Same buckets, same CDF: 10.9 us and 10.0 us are both "10". */
START_TEST (test_rms_same_bucket)
{
  const double m[] = { 0.0109, 0.040 }, t[] = { 0.010, 0.0405 };

  fill (&a, m, 2);
  fill (&b, t, 2);
  ck_assert_double_eq (demerit_rms (&a, &b), 0.0);
}
END_TEST

/* {10 us} against {20 us}: the inverted CDFs are 0.010 + 0.001 p and
 * 0.020 + 0.001 p ms, 0.010 ms apart at every p: demerit 0.010.
 */
START_TEST (test_rms_shift)
{
  const double m[] = { 0.010 }, t[] = { 0.020 };

  fill (&a, m, 1);
  fill (&b, t, 1);
  ck_assert_double_eq_tol (demerit_rms (&a, &b), 0.010, TOL);
}
END_TEST

/* Interpolation.  Model {10 us, 20 us}: CDF 0 at 10, 0.5 at 11 ... 20,
 * 1 at 21, so x(p) = 10 + 2p for p <= 0.5 and 20 + (p - 0.5)/0.5 =
 * 19 + 2p above.  Measured {10 us, 10 us}: x(p) = 10 + p.  The
 * difference is p us up to 0.5 and 9 + p us above.  With p_i = i/N:
 *   sum_{i<=5000} p_i^2       = 5000*5001*10001/6 / N^2   = 416.791675
 *   sum_{i>5000} (9 + p_i)^2  = 5000*81 + 18*37502500/N
 *                               + 291704167500/N^2        = 475421.541675
 *   (sum_{i=5001}^{10000} i = 37502500; of i^2 = 291704167500)
 *   demerit = 0.001 * sqrt (475838.33335 / N) = 0.0068981036 ms.
 * Without interpolation (the upper edge of each step) it would differ.
 */
START_TEST (test_rms_interpolates)
{
  const double m[] = { 0.010, 0.020 }, t[] = { 0.010, 0.010 };

  fill (&a, m, 2);
  fill (&b, t, 2);
  ck_assert_double_eq_tol (demerit_rms (&a, &b), 0.0068981036, 1e-10);
  /* Symmetric: the differences are squared. */
  ck_assert_double_eq_tol (demerit_rms (&b, &a), 0.0068981036, 1e-10);
}
END_TEST

/* Where buckets grow: 150 us falls in [150, 152) (width 2), 10 us in
 * [10, 11) (width 1).  The difference is 0.140 + 0.001 p ms, so
 * demerit^2 = 0.140^2 + 2 * 0.140 * 0.001 * 0.50005
 *             + 0.001^2 * 0.333383335 = 0.019740347383335,
 * demerit = 0.1405003466 ms.
 */
START_TEST (test_rms_wide_bucket)
{
  const double m[] = { 0.1505 }, t[] = { 0.010 };

  fill (&a, m, 1);
  fill (&b, t, 1);
  ck_assert_double_eq_tol (demerit_rms (&a, &b), 0.1405003466, 1e-10);
}
END_TEST

START_TEST (test_rms_empty)
{
  const double t[] = { 0.010 };

  demerit_dist_init (&a);
  fill (&b, t, 1);
  ck_assert_double_eq (demerit_rms (&a, &b), -1.0);
  ck_assert_double_eq (demerit_rms (&b, &a), -1.0);
}
END_TEST

START_TEST (test_mean)
{
  const double m[] = { 1.0, 2.5, 4.0 };

  fill (&a, m, 3);
  ck_assert_uint_eq (a.count, 3);
  ck_assert_double_eq_tol (demerit_dist_mean (&a), 2.5, 1e-12);
}
END_TEST

static Suite *
demerit_suite (void)
{
  Suite *s = suite_create ("demerit");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_edges);
  tcase_add_test (tc, test_cdf_one_value);
  tcase_add_test (tc, test_cdf_printed_rounding);
  tcase_add_test (tc, test_cdf_overflow);
  tcase_add_test (tc, test_rms_same_bucket);
  tcase_add_test (tc, test_rms_shift);
  tcase_add_test (tc, test_rms_interpolates);
  tcase_add_test (tc, test_rms_wide_bucket);
  tcase_add_test (tc, test_rms_empty);
  tcase_add_test (tc, test_mean);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (demerit_suite ());
}
