/* hddsim: the engine's flush rule, under every policy (fixed 5 ms
 * service times).
 *
 * The rule (sched/engine.c): a flush is held while a request of its
 * own connection that arrived at or before it has not completed, and
 * is served as soon as nothing holds it, before anything the policy
 * would pick, the oldest ready flush first.  What each policy does with
 * the reads and writes around it differs, so the checks are stated in
 * terms of the completions the rule refers to, not of a fixed order.
 */

#include "run-suite.h"
#include "test-sched-driver.h"

static struct tdrv *
fixed (int i)
{
  return tdrv_new (policy_list[i]->name, "fixed", "5ms");
}

static uint64_t
latest_done (struct req *const *reqs, size_t n)
{
  uint64_t t = 0;
  size_t i;

  for (i = 0; i < n; i++)
    if (reqs[i]->done > t)
      t = reqs[i]->done;
  return t;
}

/* A read on conn 9 holds the drive 0-5 ms.  Conn 1's earlier requests
 * (two writes far apart and a read) must all complete before the
 * flush starts, and the flush starts at the very completion of the last
 * of them, however the policy orders them: neither conn 2's write
 * queued since 1.8 ms nor conn 1's write that arrives after the flush
 * holds it.  Under fifo that puts the flush ahead of conn 2's older
 * write, at 4 x 5 ms (the read and conn 1's three requests).
 */
START_TEST (test_flush_barrier)
{
  struct tdrv *d = fixed (_i);
  struct req *earlier[3], *other, *fl;

  tdrv_at (d, 0, 9, IO_READ, 500 * MiB, 4 * KiB);
  earlier[0] = tdrv_at (d, 1 * MS, 1, IO_WRITE, 900 * MiB, 4 * KiB);
  earlier[1] = tdrv_at (d, 1 * MS, 1, IO_WRITE, 10 * MiB, 4 * KiB);
  earlier[2] = tdrv_at (d, 1500 * US, 1, IO_READ, 700 * MiB, 4 * KiB);
  other = tdrv_at (d, 1800 * US, 2, IO_WRITE, 5 * MiB, 4 * KiB);
  fl = tdrv_at (d, 2 * MS, 1, IO_FLUSH, 0, 0);
  tdrv_at (d, 3 * MS, 1, IO_WRITE, 1 * MiB, 4 * KiB);
  tdrv_run_all (d);
  ck_assert_uint_eq (d->ndone, 7);
  ck_assert_uint_eq (fl->start, latest_done (earlier, 3));
  ck_assert_uint_ge (fl->start, 4 * 5 * MS);
  if (strcmp (policy_list[_i]->name, "fifo") == 0) {
    ck_assert_uint_eq (fl->start, 4 * 5 * MS);
    ck_assert_uint_eq (other->start, fl->done);
  }
  tdrv_free (d);
}
END_TEST

/* A request of the flush's connection that arrives at the flush's own
 * instant, submitted after it, counts as earlier: the flush waits for
 * it (read 0-5 ms, then that write, at 5 ms or after cfq's idle
 * window for conn 9, then the flush).
 */
START_TEST (test_flush_tie)
{
  struct tdrv *d = fixed (_i);
  struct req *fl, *tie;

  tdrv_at (d, 0, 9, IO_READ, 500 * MiB, 4 * KiB);
  fl = tdrv_at (d, 2 * MS, 1, IO_FLUSH, 0, 0);
  tie = tdrv_at (d, 2 * MS, 1, IO_WRITE, 300 * MiB, 4 * KiB);
  tdrv_run_all (d);
  ck_assert_uint_ge (tie->start, 5 * MS);
  ck_assert_uint_eq (fl->start, tie->done);
  tdrv_free (d);
}
END_TEST

/* Two flushes with nothing to wait for, on connections that have no
 * other requests, go in arrival order as soon as the drive is free,
 * ahead of conn 9's read queued before both: read 0-5, the older flush
 * (conn 2) 5-10, conn 1's flush 10-15, the queued read 15-20.
 */
START_TEST (test_flush_first)
{
  struct tdrv *d = fixed (_i);
  struct req *r0, *queued, *f1, *f2;

  r0 = tdrv_at (d, 0, 9, IO_READ, 500 * MiB, 4 * KiB);
  queued = tdrv_at (d, 1 * MS, 9, IO_READ, 600 * MiB, 4 * KiB);
  f2 = tdrv_at (d, 1500 * US, 2, IO_FLUSH, 0, 0);
  f1 = tdrv_at (d, 2 * MS, 1, IO_FLUSH, 0, 0);
  tdrv_run_all (d);
  ck_assert_uint_eq (r0->done, 5 * MS);
  ck_assert_uint_eq (f2->start, 5 * MS);
  ck_assert_uint_eq (f1->start, f2->done);
  ck_assert_uint_eq (queued->start, f1->done);
  tdrv_free (d);
}
END_TEST

/* A flush whose only blocker is withdrawn (its client went away) no
 * longer waits for it.  At 5 ms every policy has conn 9's second read
 * (older than conn 1's write, and where cscan's sweep goes next), the
 * write and the flush; it serves the read (5-10 ms); the write is
 * cancelled at 7 ms, so the flush goes at 10 ms, when the drive is free.
 */
START_TEST (test_flush_blocker_cancelled)
{
  struct tdrv *d = fixed (_i);
  struct req *w, *fl, *queued;

  tdrv_at (d, 0, 9, IO_READ, 500 * MiB, 4 * KiB);
  queued = tdrv_at (d, 500 * US, 9, IO_READ, 600 * MiB, 4 * KiB);
  w = tdrv_at (d, 1 * MS, 1, IO_WRITE, 100 * MiB, 4 * KiB);
  fl = tdrv_at (d, 2 * MS, 1, IO_FLUSH, 0, 0);
  tdrv_run (d, 7 * MS);
  ck_assert_uint_eq (queued->start, 5 * MS);
  ck_assert_int_eq (engine_cancel (d->e, w), 0);
  tdrv_run_all (d);
  ck_assert_uint_eq (d->ndone, 3);
  ck_assert_uint_eq (fl->start, queued->done);
  tdrv_free (d);
}
END_TEST

/* A flush withdrawn while held (admitted at 5 ms, cancelled at 7 ms,
 * while the write it waits for is queued or on the drive) is gone: the
 * write and conn 9's reads complete, nothing is left pending.
 */
START_TEST (test_flush_cancelled)
{
  struct tdrv *d = fixed (_i);
  struct req *fl;

  tdrv_at (d, 0, 9, IO_READ, 500 * MiB, 4 * KiB);
  tdrv_at (d, 1 * MS, 1, IO_WRITE, 100 * MiB, 4 * KiB);
  fl = tdrv_at (d, 2 * MS, 1, IO_FLUSH, 0, 0);
  tdrv_at (d, 4 * MS, 9, IO_READ, 600 * MiB, 4 * KiB);
  tdrv_run (d, 7 * MS);
  ck_assert_int_eq (engine_cancel (d->e, fl), 0);
  tdrv_run_all (d);
  ck_assert_uint_eq (d->ndone, 3);
  ck_assert_int_eq (tdrv_rank (d, fl), -1);
  tdrv_free (d);
}
END_TEST

static int
npolicies (void)
{
  int n = 0;

  while (policy_list[n])
    n++;
  return n;
}

static Suite *
flush_suite (void)
{
  Suite *s = suite_create ("sched-flush");
  TCase *tc = tcase_create ("flush");
  int n = npolicies ();

  tcase_add_loop_test (tc, test_flush_barrier, 0, n);
  tcase_add_loop_test (tc, test_flush_tie, 0, n);
  tcase_add_loop_test (tc, test_flush_first, 0, n);
  tcase_add_loop_test (tc, test_flush_blocker_cancelled, 0, n);
  tcase_add_loop_test (tc, test_flush_cancelled, 0, n);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (flush_suite ());
}
