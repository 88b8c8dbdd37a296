/* hddsim: the drive's queue (sched/drive_queue.c) under the engine, on
 * a virtual clock, with times worked out by hand.
 *
 * The tiny drive: one surface of 21 cylinders of 100-sector tracks, no
 * skew, 6000 rpm (a 10 ms revolution, 0.1 ms a sector), the platter at
 * angle 0 at time 0, no cache, no command overhead, an interface of
 * 512 GB/s.  Every request below is one sector of the first track, so
 * its time is the rotational wait for its sector plus 0.1 ms: from t,
 * with the head over sector t / 0.1 ms (mod 100), sector s is reached
 * after ((s - t / 0.1 ms) mod 100) x 0.1 ms; then its 512 bytes cross
 * the interface, 1 ns (BUS), so every completion is 1 ns after the
 * media's (the next wait is 1 ns shorter and ends on the sector).
 * "A50" is a read of sector 50.
 */

#include "run-suite.h"
#include "test-sched-driver.h"

#define SECT UINT64_C(512)
#define TENTH (100 * US)        /* one sector passes under the head */
#define BUS 1                   /* its 512 bytes cross the interface */

static struct tdrv *
tiny (const char *sched, const char *depth)
{
  struct tdrv *d = tdrv_new (sched, NULL, NULL);

  tdrv_set (d, "surfaces", "1");
  tdrv_set (d, "zone-table", "0-20:100");
  tdrv_set (d, "capacity", "1075200");
  tdrv_set (d, "rpm", "6000");
  tdrv_set (d, "phase-zero", "1");
  tdrv_set (d, "cache", "off");
  tdrv_set (d, "readahead", "0");
  tdrv_set (d, "overhead", "0");
  tdrv_set (d, "iface-rate", "512G");
  tdrv_set (d, "seek-track", "1ms");
  tdrv_set (d, "seek-avg", "2ms");
  tdrv_set (d, "seek-full", "3ms");
  tdrv_set (d, "ncq-depth", depth);
  tdrv_set (d, "ncq-order", "rpo");
  tdrv_set (d, "ncq-max-wait", "0");
  tdrv_set (d, "ncq-overhead", "0");
  tdrv_set (d, "ncq-lookahead", "0");
  d->image = 1075200;
  return d;
}

static struct req *
at (struct tdrv *d, uint64_t t, uint32_t conn, uint64_t sector)
{
  return tdrv_at (d, t, conn, IO_READ, sector * SECT, SECT);
}

/* The sectors of the completed requests, in completion order, and
 * their completion times in tenths of a millisecond (each then BUS).
 */
static void
check_order (const struct tdrv *d, const uint64_t *sectors,
             const uint64_t *done, size_t n)
{
  size_t i;

  ck_assert_uint_eq (d->ndone, n);
  for (i = 0; i < n; i++) {
    ck_assert_msg (d->order[i]->io.offset == sectors[i] * SECT,
                   "request %zu: sector %" PRIu64 ", expected %" PRIu64, i,
                   d->order[i]->io.offset / SECT, sectors[i]);
    ck_assert_msg (d->order[i]->done == done[i] * TENTH + BUS,
                   "request %zu: done %" PRIu64 " ns, expected %" PRIu64,
                   i, d->order[i]->done, done[i] * TENTH + BUS);
  }
}

/* A50, B10, C30 at 0, all in the drive at once.  rpo: at 0 the waits
 * are 5.0, 1.0, 3.0 ms: B (done 1.1); from sector 11, C 1.9 (3.1);
 * from 31, A 1.9 (5.1).  Without queueing (depth 1): A 5.1; from 51,
 * B 5.9 (11.1); from 11, C 1.9 (13.1).  fifo firmware: as depth 1.
 */
START_TEST (test_rpo_picks_shortest)
{
  static const uint64_t rpo[] = { 10, 30, 50 }, rpo_done[] = { 11, 31, 51 };
  static const uint64_t arr[] = { 50, 10, 30 }, arr_done[] = { 51, 111, 131 };
  static const char *const depth[] = { "3", "1", "3" };
  struct tdrv *d = tiny ("fifo", depth[_i]);

  if (_i == 2)
    tdrv_set (d, "ncq-order", "fifo");
  at (d, 0, 1, 50);
  at (d, 0, 1, 10);
  at (d, 0, 1, 30);
  tdrv_run_all (d);
  if (_i == 0)
    check_order (d, rpo, rpo_done, 3);
  else
    check_order (d, arr, arr_done, 3);
  tdrv_free (d);
}
END_TEST

/* A50, B10, C30, D40 at 0.  rpo: B (1.1), C (3.1), from 31 D 0.9
 * (4.1), from 41 A 0.9 (5.1).  ncq-max-wait=2ms: at 3.1 A has been held
 * 3.1 ms: A first, from 31 1.9 (5.1), then from 51 D 8.9 (14.1).
 */
START_TEST (test_aging_forces_oldest)
{
  static const uint64_t rpo[] = { 10, 30, 40, 50 }, rpo_done[] = { 11, 31,
                                                                   41, 51 };
  static const uint64_t aged[] = { 10, 30, 50, 40 }, aged_done[] = { 11, 31,
                                                                     51, 141 };
  struct tdrv *d = tiny ("fifo", "4");

  if (_i)
    tdrv_set (d, "ncq-max-wait", "2ms");
  at (d, 0, 1, 50);
  at (d, 0, 1, 10);
  at (d, 0, 1, 30);
  at (d, 0, 1, 40);
  tdrv_run_all (d);
  if (_i)
    check_order (d, aged, aged_done, 4);
  else
    check_order (d, rpo, rpo_done, 4);
  tdrv_free (d);
}
END_TEST

/* A50, B3, C30 at 0.  Without overhead: B 0.3 (0.4), from 4 C 2.6
 * (3.1), from 31 A 1.9 (5.1).  ncq-overhead=0.5ms: the arm may move
 * 0.5 ms after the start, over sector 5: A 4.5, B 9.8, C 2.5: C done at
 * 0.5 + 2.5 + 0.1 = 3.1; from 3.6 (sector 36) A 1.4, B 6.7: A at 3.1 +
 * 0.5 + 1.4 + 0.1 = 5.1; from 5.6 (sector 56) B 4.7: 5.1 + 0.5 + 4.7 +
 * 0.1 = 10.4.  Each command's overhead_ns is the 0.5 ms.
 */
START_TEST (test_overhead_per_command)
{
  static const uint64_t plain[] = { 3, 30, 50 }, plain_done[] = { 4, 31, 51 };
  static const uint64_t ov[] = { 30, 50, 3 }, ov_done[] = { 31, 51, 104 };
  struct tdrv *d = tiny ("fifo", "3");
  size_t i;

  if (_i)
    tdrv_set (d, "ncq-overhead", "0.5ms");
  at (d, 0, 1, 50);
  at (d, 0, 1, 3);
  at (d, 0, 1, 30);
  tdrv_run_all (d);
  if (_i) {
    check_order (d, ov, ov_done, 3);
    for (i = 0; i < 3; i++)
      ck_assert_uint_eq (d->order[i]->cost.overhead_ns, 5 * TENTH);
  }
  else
    check_order (d, plain, plain_done, 3);
  tdrv_free (d);
}
END_TEST

/* A50, B30, C10 at 0, received in that order.  rpo over all: C (1.1),
 * from 11 B 1.9 (3.1), A (5.1).  ncq-lookahead=2: at 0 A or B: B 3.0
 * (3.1); at 3.1 A or C: A 1.9 (5.1); from 51 C 5.9 (11.1).
 */
START_TEST (test_lookahead)
{
  static const uint64_t all[] = { 10, 30, 50 }, all_done[] = { 11, 31, 51 };
  static const uint64_t two[] = { 30, 50, 10 }, two_done[] = { 31, 51, 111 };
  struct tdrv *d = tiny ("fifo", "3");

  if (_i)
    tdrv_set (d, "ncq-lookahead", "2");
  at (d, 0, 1, 50);
  at (d, 0, 1, 30);
  at (d, 0, 1, 10);
  tdrv_run_all (d);
  if (_i)
    check_order (d, two, two_done, 3);
  else
    check_order (d, all, all_done, 3);
  tdrv_free (d);
}
END_TEST

/* Depth 2.  A50 at 0 is on the actuator until 5.1; B10 arrives at 1 ms
 * and is handed to the drive then (a free slot at an arrival), behind
 * A; C55 at 2 ms finds the drive full and waits at the host.  At 5.1
 * the drive starts B, the one it holds (5.9: 11.1), before the host
 * hands it C (whose wait from sector 51 would be 0.4): C is dispatched
 * at 5.1, starts at 11.1, from sector 11 4.4 (15.6).
 */
START_TEST (test_slot_filled_at_arrival)
{
  static const uint64_t order[] = { 50, 10, 55 }, done[] = { 51, 111, 156 };
  struct tdrv *d = tiny ("fifo", "2");
  struct req *a = at (d, 0, 1, 50);
  struct req *b = at (d, 1 * MS, 1, 10);
  struct req *c = at (d, 2 * MS, 1, 55);

  tdrv_run_all (d);
  check_order (d, order, done, 3);
  ck_assert_uint_eq (a->dispatch, 0);
  ck_assert_uint_eq (a->drive_len, 0);
  ck_assert_uint_eq (b->dispatch, 1 * MS);
  ck_assert_uint_eq (b->drive_len, 1);
  ck_assert_uint_eq (b->start, 51 * TENTH + BUS);
  ck_assert_uint_eq (c->dispatch, 51 * TENTH + BUS);
  ck_assert_uint_eq (c->drive_len, 1);
  ck_assert_uint_eq (c->start, 111 * TENTH + BUS);
  tdrv_free (d);
}
END_TEST

/* A flush is not queued.  Fixed 5 ms services, depth 4, fifo.  W (conn
 * 1) at 0 runs 0-5; R1 (conn 2) at 1 is handed to the drive at once;
 * the flush F (conn 1) at 2 is held by W until 5, when the drive starts
 * R1 (5-10): F must wait for the drive to empty, and R2 (conn 2) at 6
 * may not pass it: F 10-15, R2 handed to the drive at 15 (nothing is
 * while the flush is on the actuator), 15-20.
 */
START_TEST (test_flush_not_queued)
{
  struct tdrv *d = tdrv_new ("fifo", "fixed", "5ms");
  struct req *f, *r2;

  tdrv_set (d, "ncq-depth", "4");
  tdrv_at (d, 0, 1, IO_WRITE, 0, 4 * KiB);
  tdrv_at (d, 1 * MS, 2, IO_READ, 1 * MiB, 4 * KiB);
  f = tdrv_at (d, 2 * MS, 1, IO_FLUSH, 0, 0);
  r2 = tdrv_at (d, 6 * MS, 2, IO_READ, 2 * MiB, 4 * KiB);
  tdrv_run_all (d);
  ck_assert_uint_eq (f->start, 10 * MS);
  ck_assert_uint_eq (f->done, 15 * MS);
  ck_assert_uint_eq (r2->dispatch, 15 * MS);
  ck_assert_uint_eq (r2->done, 20 * MS);
  tdrv_free (d);
}
END_TEST

/* cfq holds back what it does not hand the drive: fixed 5 ms
 * services, depth 8.  Connection 1 reads at 0, 1, 2, 3 MiB, connection
 * 2 at 100 MiB, all at 0.  cfq's active queue (1) hands the drive its
 * four and then, empty, waits for them (done 5, 10, 15, 20: 2.6.23
 * keeps the drive for a queue it would idle for) and its idle window
 * (8 ms, no think time known yet): connection 2's read goes to
 * the drive at 28 ms.  fifo hands it over at 0, the drive serving it
 * fifth (positioning 0 for all: the oldest first).
 */
START_TEST (test_cfq_holds_back)
{
  struct tdrv *d = tdrv_new (_i ? "fifo" : "cfq", "fixed", "5ms");
  struct req *other;
  unsigned i;

  tdrv_set (d, "ncq-depth", "8");
  for (i = 0; i < 4; i++)
    tdrv_at (d, 0, 1, IO_READ, i * MiB, 4 * KiB);
  other = tdrv_at (d, 0, 2, IO_READ, 100 * MiB, 4 * KiB);
  tdrv_run_all (d);
  ck_assert_uint_eq (other->dispatch, (_i ? 0 : 28 * MS));
  ck_assert_uint_eq (other->done, (_i ? 25 * MS : 33 * MS));
  tdrv_free (d);
}
END_TEST

/* On a drive seen to queue (more than 4 requests on it at once:
 * hw_tag), a seeky sync queue has no idle window (2.6.23), so its slice
 * ends once it is empty, whatever it has on the drive.  Fixed 5 ms
 * services, depth 8: connection 1 reads six places 200 MiB apart at 0
 * (seeky: mean seek far above 8K sectors), all handed to the drive at
 * once (hw_tag from then on), done at 30 ms; not idled for, its slice
 * ends then.  At 50 ms it reads six places again, connection 2 once at
 * 51 ms: connection 1 is empty with six on the drive, not waited for,
 * and connection 2's read goes to the drive on arrival, at 51 ms.  With
 * ncq-depth=4 the drive never holds more than 4: no hw_tag, connection
 * 1 is idled for (8 ms after 30) and keeps the drive from 50 ms, its
 * six reads done at 80 ms, then idled for again (its think time not
 * yet trusted): connection 2's read goes at 88 ms.
 */
START_TEST (test_cfq_seeky_on_queueing_drive)
{
  struct tdrv *d = tdrv_new ("cfq", "fixed", "5ms");
  struct req *other;
  unsigned i;

  tdrv_set (d, "ncq-depth", _i ? "4" : "8");
  for (i = 0; i < 12; i++)
    tdrv_at (d, i < 6 ? 0 : 50 * MS, 1, IO_READ, i % 6 * 200 * MiB, 4 * KiB);
  other = tdrv_at (d, 51 * MS, 2, IO_READ, 999 * MiB, 4 * KiB);
  tdrv_run_all (d);
  ck_assert_uint_eq (other->dispatch, (_i ? 88 * MS : 51 * MS));
  tdrv_free (d);
}
END_TEST

/* 2.6.23: an async queue dispatches nothing while a sync request is
 * on the drive.  Fixed 5 ms services, depth 8, no idling
 * (cfq-slice-idle=0): a read (connection 1) at 0 goes first; its queue
 * empty, not idled for, the writer's async queue (connection 2, four
 * writes at 0) gets the slice but waits for the read: its writes go to
 * the drive at 5 ms.  fifo hands them over at 0.
 */
START_TEST (test_cfq_async_waits_for_sync)
{
  struct tdrv *d = tdrv_new (_i ? "fifo" : "cfq", "fixed", "5ms");
  struct req *w;
  unsigned i;

  tdrv_set (d, "ncq-depth", "8");
  tdrv_set (d, "cfq-slice-idle", "0");
  tdrv_at (d, 0, 1, IO_READ, 0, 4 * KiB);
  w = tdrv_at (d, 0, 2, IO_WRITE, 100 * MiB, 64 * KiB);
  for (i = 1; i < 4; i++)
    tdrv_at (d, 0, 2, IO_WRITE, 100 * MiB + i * 64 * KiB, 64 * KiB);
  tdrv_run_all (d);
  ck_assert_uint_eq (w->dispatch, (_i ? 0 : 5 * MS));
  tdrv_free (d);
}
END_TEST

/* 2.6.23: a queue with a quantum dispatched gets no new round while
 * another queue waits.  Fixed 5 ms services, depth 32, cfq-quantum=2:
 * connection 1 reads six places at 0, connection 2 once.  Rounds of
 * two: r1, r2 at 0; at 5 ms (r1 done, one still dispatched) r3, r4; at
 * 10 ms (r2 done) two still dispatched: no round; at 15 ms (r3 done)
 * r5, r6.  Without the bound every round goes at 0.
 */
START_TEST (test_cfq_quantum_bounds_queue)
{
  struct tdrv *d = tdrv_new ("cfq", "fixed", "5ms");
  struct req *r[6];
  unsigned i;

  tdrv_set (d, "ncq-depth", "32");
  tdrv_set (d, "cfq-quantum", "2");
  for (i = 0; i < 6; i++)
    r[i] = tdrv_at (d, 0, 1, IO_READ, i * MiB, 4 * KiB);
  tdrv_at (d, 0, 2, IO_READ, 100 * MiB, 4 * KiB);
  tdrv_run_all (d);
  ck_assert_uint_eq (r[1]->dispatch, 0);
  ck_assert_uint_eq (r[2]->dispatch, 5 * MS);
  ck_assert_uint_eq (r[3]->dispatch, 5 * MS);
  ck_assert_uint_eq (r[4]->dispatch, 15 * MS);
  ck_assert_uint_eq (r[5]->dispatch, 15 * MS);
  tdrv_free (d);
}
END_TEST

static Suite *
drive_queue_suite (void)
{
  Suite *s = suite_create ("drive-queue");
  TCase *tc = tcase_create ("drive-queue");

  tcase_add_loop_test (tc, test_rpo_picks_shortest, 0, 3);
  tcase_add_loop_test (tc, test_aging_forces_oldest, 0, 2);
  tcase_add_loop_test (tc, test_overhead_per_command, 0, 2);
  tcase_add_loop_test (tc, test_lookahead, 0, 2);
  tcase_add_test (tc, test_slot_filled_at_arrival);
  tcase_add_test (tc, test_flush_not_queued);
  tcase_add_loop_test (tc, test_cfq_holds_back, 0, 2);
  tcase_add_loop_test (tc, test_cfq_seeky_on_queueing_drive, 0, 2);
  tcase_add_loop_test (tc, test_cfq_async_waits_for_sync, 0, 2);
  tcase_add_test (tc, test_cfq_quantum_bounds_queue);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (drive_queue_suite ());
}
