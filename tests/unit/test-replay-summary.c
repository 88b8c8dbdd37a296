/* hddsim: unit tests of hddsim-replay's --summary histograms
 * (tools/lib/replay_summary.c).
 *
 * Expected values from the definition: nearest rank (the
 * ceil (p n / 100)-th smallest sample), exact below 1024 ns, above it
 * 1024 buckets per power of two, each reporting the largest value it
 * holds.
 */

#include <stdint.h>
#include <stdlib.h>

#include <check.h>

#include "run-suite.h"

#include "../../tools/lib/replay_summary.h"

static struct replay_summary *s;

static void
add (enum io_op op, uint64_t arrival, uint64_t start, uint64_t done,
     uint64_t wanted)
{
  struct req r = { .io = { .op = op, .length = 4096 },
                   .arrival = arrival, .start = start, .done = done };

  ck_assert_int_eq (replay_summary_add (s, &r, wanted), 0);
}

static void
setup (void)
{
  s = replay_summary_new (true);
  ck_assert_ptr_nonnull (s);
}

static void
teardown (void)
{
  replay_summary_free (s);
}

/* 1..100 ns: below 1024, so each value is its own bucket: p50 is the
 * 50th smallest (50), p90 the 90th, p99 the 99th, p100 the largest.
 */
START_TEST (test_nearest_rank_exact)
{
  uint64_t v;

  for (v = 100; v >= 1; v--)
    add (IO_READ, 0, 0, v, 0);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_READ, false, 50), 50);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_READ, false, 90), 90);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_READ, false, 99), 99);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_READ, false, 100), 100);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_OP_COUNT, false, 50),
                     50);
}
END_TEST

/* Three samples: p50 is rank ceil(1.5) = 2, p90 rank ceil(2.7) = 3. */
START_TEST (test_rank_rounds_up)
{
  add (IO_WRITE, 0, 0, 1000000, 0);
  add (IO_WRITE, 0, 0, 2000000, 0);
  add (IO_WRITE, 0, 0, 3000000, 0);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_WRITE, false, 50),
                     2000000);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_WRITE, false, 90),
                     3000000);
}
END_TEST

/* 1,000,000 and 1,000,100 ns: both in [2^19, 2^20), whose buckets are
 * 2^19 / 1024 = 512 ns wide, and 1,000,000 = 1953 * 512 + 64, so both
 * fall in bucket [999936, 1000448): p33 (rank 1) and p66 (rank 2)
 * report its largest, 1,000,100 (for rank 1, 0.01% above the exact
 * value); 1,000,448 = 1954 * 512 is the next bucket's first value and
 * stays apart (p100, rank 3).
 */
START_TEST (test_bucket_reports_its_largest)
{
  add (IO_READ, 0, 0, 1000448, 0);
  add (IO_READ, 0, 0, 1000100, 0);
  add (IO_READ, 0, 0, 1000000, 0);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_READ, false, 33),
                     1000100);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_READ, false, 66),
                     1000100);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_READ, false, 100),
                     1000448);
}
END_TEST

/* Up to 2047 ns every value is exact: below 1024 a bucket each, and
 * [1024, 2048) has 1024 buckets of 1 ns.  Four samples: ranks 1 to 4
 * are p25, p50, p75, p100.
 */
START_TEST (test_exact_below_2048)
{
  add (IO_ZERO, 0, 0, 2047, 0);
  add (IO_ZERO, 0, 0, 1024, 0);
  add (IO_ZERO, 0, 0, 1023, 0);
  add (IO_ZERO, 0, 0, 600, 0);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_ZERO, false, 25), 600);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_ZERO, false, 50), 1023);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_ZERO, false, 75), 1024);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_ZERO, false, 100), 2047);
}
END_TEST

/* The response at the drive counts from the arrival at the drive, the
 * held one from the time the trace issued the request.
 */
START_TEST (test_held_from_the_trace)
{
  add (IO_READ, 5000, 5000, 6000, 1000);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_READ, false, 100),
                     1000);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_READ, true, 100),
                     5000);
}
END_TEST

/* Values near 2^63 land in the last bucket, not past the array. */
START_TEST (test_largest_values)
{
  uint64_t big = UINT64_MAX - 1;

  add (IO_FLUSH, 0, 0, big, 0);
  ck_assert_uint_eq (replay_summary_percentile (s, IO_FLUSH, false, 50), big);
}
END_TEST

static Suite *
summary_suite (void)
{
  Suite *su = suite_create ("replay_summary");
  TCase *tc = tcase_create ("hist");

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_nearest_rank_exact);
  tcase_add_test (tc, test_rank_rounds_up);
  tcase_add_test (tc, test_bucket_reports_its_largest);
  tcase_add_test (tc, test_exact_below_2048);
  tcase_add_test (tc, test_held_from_the_trace);
  tcase_add_test (tc, test_largest_values);
  suite_add_tcase (su, tc);
  return su;
}

int
main (void)
{
  return run_suite (summary_suite ());
}
