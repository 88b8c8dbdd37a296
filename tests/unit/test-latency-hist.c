/* hddsim: unit tests of the lateness histogram (plugin/latency_hist.c).
 * The module is pure arithmetic, so the test compiles it in directly
 * rather than pull the plugin into the core library.
 */

#include <stdint.h>
#include <stdlib.h>

#include <check.h>

#include "run-suite.h"

#include "../../plugin/latency_hist.c"

/* Samples 1..1000 us, below 1024 us where buckets are 1 us wide:
 * nearest-rank percentiles are the ceil(q*n)-th smallest sample.
 */
START_TEST (test_nearest_rank)
{
  static struct latency_hist h;
  uint64_t us;

  for (us = 1; us <= 1000; us++)
    latency_hist_add (&h, us * 1000);
  ck_assert_uint_eq (latency_hist_quantile (&h, 0.5), 500 * 1000);
  ck_assert_uint_eq (latency_hist_quantile (&h, 0.99), 990 * 1000);
  ck_assert_uint_eq (latency_hist_quantile (&h, 0.999), 999 * 1000);
  ck_assert_uint_eq (latency_hist_quantile (&h, 1.0), 1000 * 1000);
  ck_assert_uint_eq (h.max_ns, 1000 * 1000);
  ck_assert_uint_eq (h.count, 1000);
}
END_TEST

/* Above 1 ms the resolution is 1/512 of a power of two: a quantile is
 * the low edge of its bucket, within 0.2% below the sample.
 */
START_TEST (test_resolution)
{
  static struct latency_hist h;
  const uint64_t ns = UINT64_C(12345678);
  uint64_t q;

  latency_hist_add (&h, ns);
  latency_hist_add (&h, 2 * ns);
  q = latency_hist_quantile (&h, 0.5);
  ck_assert_uint_le (q, ns);
  ck_assert_uint_ge (q, ns - ns / 512);
  ck_assert_uint_eq (latency_hist_quantile (&h, 0.0), q);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("latency-hist");
  TCase *tc = tcase_create ("quantiles");
  tcase_add_test (tc, test_nearest_rank);
  tcase_add_test (tc, test_resolution);
  suite_add_tcase (s, tc);
  return run_suite (s);
}
