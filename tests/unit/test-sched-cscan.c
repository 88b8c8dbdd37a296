/* hddsim: cscan on a virtual clock (fixed 5 ms service times). */

#include "run-suite.h"
#include "test-sched-driver.h"

#define S (5 * MS)

static struct tdrv *
fixed (const char *sched)
{
  return tdrv_new (sched, "fixed", "5ms");
}

/* The head starts at 40 MiB + 4 KiB (after a lone first read); six
 * requests queued behind it are served upward from the head, then from
 * the lowest offset up: 50 70 90, wrap, 10 20 30.
 */
START_TEST (test_cscan_sweep_and_wrap)
{
  struct tdrv *d = fixed ("cscan");
  static const uint64_t script[] = { 50, 10, 90, 30, 70, 20 };
  static const uint64_t expect[] = { 40, 50, 70, 90, 10, 20, 30 };
  size_t i;

  tdrv_at (d, 0, 1, IO_READ, 40 * MiB, 4 * KiB);
  for (i = 0; i < 6; i++)
    tdrv_at (d, 1 * MS, 1, i % 2 ? IO_WRITE : IO_READ, script[i] * MiB,
             4 * KiB);
  tdrv_run_all (d);
  ck_assert_uint_eq (d->ndone, 7);
  for (i = 0; i < 7; i++) {
    ck_assert_uint_eq (d->order[i]->io.offset, expect[i] * MiB);
    /* back to back: the drive never waits with work queued */
    ck_assert_uint_eq (d->order[i]->done, (i + 1) * S);
  }
  tdrv_free (d);
}
END_TEST

/* A request exactly at the head is "at or above" it; a request that
 * arrives just above the head during the sweep joins it, one just below
 * waits for the wrap; of two requests at one offset the older goes
 * first and the other, now behind the head, waits for the next sweep.
 */
START_TEST (test_cscan_join_sweep)
{
  struct tdrv *d = fixed ("cscan");
  struct req *first, *at_head, *dup1, *dup2, *low, *late_above, *late_below;

  first = tdrv_at (d, 0, 1, IO_READ, 10 * MiB, 1 * MiB);    /* head -> 11M */
  low = tdrv_at (d, 1 * MS, 1, IO_READ, 1 * MiB, 4 * KiB);
  dup1 = tdrv_at (d, 1 * MS, 2, IO_READ, 30 * MiB, 4 * KiB);
  at_head = tdrv_at (d, 2 * MS, 1, IO_READ, 11 * MiB, 4 * KiB);
  dup2 = tdrv_at (d, 3 * MS, 3, IO_READ, 30 * MiB, 4 * KiB);
  /* during the second service (5-10 ms), the head is at 11M+4K */
  late_above = tdrv_at (d, 7 * MS, 1, IO_WRITE, 20 * MiB, 4 * KiB);
  late_below = tdrv_at (d, 7 * MS, 1, IO_WRITE, 11 * MiB, 2 * KiB);
  tdrv_run_all (d);
  ck_assert_int_eq (tdrv_rank (d, first), 0);
  ck_assert_int_eq (tdrv_rank (d, at_head), 1);
  ck_assert_int_eq (tdrv_rank (d, late_above), 2);
  ck_assert_int_eq (tdrv_rank (d, dup1), 3);
  ck_assert_int_eq (tdrv_rank (d, low), 4);
  ck_assert_int_eq (tdrv_rank (d, late_below), 5);
  ck_assert_int_eq (tdrv_rank (d, dup2), 6);
  tdrv_free (d);
}
END_TEST

/* The seeds' attack: a stream that keeps arriving just above the head
 * keeps a far read waiting for as long as the stream lasts (2 s here),
 * and no longer: it is next once the stream stops.
 */
START_TEST (test_cscan_starvation)
{
  struct tdrv *d = fixed ("cscan");
  struct req *far = tdrv_starvation (d, 1, 2, 2 * SEC);
  size_t i;

  tdrv_run_all (d);
  /* every stream request that had arrived when 'far' could have
   * started went first: 'far' is the last request served
   */
  ck_assert_int_eq (tdrv_rank (d, far), (long) d->ndone - 1);
  ck_assert_uint_ge (far->start, 2 * SEC);
  ck_assert_uint_le (far->start, 2 * SEC + 2 * S);
  for (i = 1; i < d->ndone; i++)
    ck_assert_uint_eq (d->order[i]->start, d->order[i - 1]->done);
  tdrv_free (d);
}
END_TEST

/* The same on the mechanical model, whose read-ahead streams past the
 * reader's next request (served from the cache): the sweep is from
 * where the last dispatched request ended, not from the drive's head,
 * so the stream still holds it and the far read is served last.
 */
START_TEST (test_cscan_starvation_mech)
{
  struct tdrv *d = tdrv_new ("cscan", NULL, NULL);
  struct req *far = tdrv_starvation (d, 1, 2, 2 * SEC);

  tdrv_run_all (d);
  ck_assert_int_eq (tdrv_rank (d, far), (long) d->ndone - 1);
  ck_assert_uint_ge (far->start, 2 * SEC);
  tdrv_free (d);
}
END_TEST

static Suite *
cscan_suite (void)
{
  Suite *s = suite_create ("sched-cscan");
  TCase *tc = tcase_create ("cscan");

  tcase_add_test (tc, test_cscan_sweep_and_wrap);
  tcase_add_test (tc, test_cscan_join_sweep);
  tcase_add_test (tc, test_cscan_starvation);
  tcase_add_test (tc, test_cscan_starvation_mech);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (cscan_suite ());
}
