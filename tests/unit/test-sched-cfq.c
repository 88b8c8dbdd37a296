/* hddsim: cfq on a virtual clock (fixed 5 ms service times, so that
 * slices hold an exact number of requests).
 */

#include "run-suite.h"
#include "test-sched-driver.h"

#define S (5 * MS)
#define SLICE_SYNC (100 * MS)
#define SLICE_ASYNC (40 * MS)
#define SLICE_IDLE (8 * MS)
#define EXPIRE_SYNC (125 * MS)

static struct tdrv *
fixed (void)
{
  return tdrv_new ("cfq", "fixed", "5ms");
}

/* Times the drive went from one connection's request to another's. */
static size_t
switches (const struct tdrv *d)
{
  size_t i, n = 0;

  for (i = 1; i < d->ndone; i++)
    n += d->order[i]->conn != d->order[i - 1]->conn;
  return n;
}

/* Check that every run of one connection's requests (but the last)
 * has exactly 'len' requests.
 */
static void
check_runs (const struct tdrv *d, size_t len)
{
  size_t i, run = 1, runs = 0;

  for (i = 1; i < d->ndone; i++) {
    if (d->order[i]->conn == d->order[i - 1]->conn) {
      run++;
      continue;
    }
    ck_assert_uint_eq (run, len);
    runs++;
    run = 1;
  }
  ck_assert_uint_ge (runs, 4);
}

/* More connections than cfq's pool of queues holds (qdepth + 2 + 64
 * with qdepth=1), each reading once, 20 ms apart, all inside the 10 s
 * a queue is kept for its think time: the least recently used idle
 * queue is reused, and every read still finds the drive idle (5 ms of
 * service and the 8 ms idle window end before the next arrival), so it
 * is served at once and done 5 ms after it arrived.
 */
START_TEST (test_cfq_more_queues_than_pool)
{
  struct tdrv *d = fixed ();
  uint32_t c, n = 200;
  size_t i;

  tdrv_set (d, "qdepth", "1");
  for (c = 0; c < n; c++)
    tdrv_at (d, c * 20 * MS, c + 1, IO_READ, c * MiB, 4 * KiB);
  tdrv_run_all (d);
  ck_assert_uint_eq (d->ndone, n);
  for (i = 0; i < d->ndone; i++)
    ck_assert_uint_eq (d->order[i]->done, d->order[i]->arrival + S);
  tdrv_free (d);
}
END_TEST

/* Two connections reading sequentially back to back: each slice holds
 * 100 ms / 5 ms = 20 requests (the next read arrives 1 ns after a
 * completion, inside the idle window), the queues alternate, and the
 * disk time each gets is within 10% of the other's.
 */
START_TEST (test_cfq_fair_sequential)
{
  struct tdrv *d = fixed ();
  uint32_t c;
  uint64_t t1, t2;

  for (c = 1; c <= 2; c++) {
    struct tstream s = {
      .conn = c, .op = IO_READ, .length = 64 * KiB,
      .offset = c * 200 * MiB, .stop = 2 * SEC,
    };
    tdrv_stream (d, &s);
  }
  tdrv_run_all (d);
  check_runs (d, SLICE_SYNC / S);
  t1 = tdrv_disk_time (d, 1);
  t2 = tdrv_disk_time (d, 2);
  ck_assert_uint_le (t1 > t2 ? t1 - t2 : t2 - t1, (t1 > t2 ? t1 : t2) / 10);
  tdrv_free (d);
}
END_TEST

/* A reader against a full-throttle async writer (four writes
 * outstanding): a read that finds the writer's slice running preempts
 * it as soon as the writer's dispatch round (its four writes, already
 * handed to the drive) has drained, so no read waits more than four
 * services, inside the "about one async slice"; the writer
 * keeps the rest of its slice and gets at least one round per (half)
 * reader slice.
 */
START_TEST (test_cfq_async_writer)
{
  struct tdrv *d = fixed ();
  struct tstream rd = {
    .conn = 1, .op = IO_READ, .length = 4 * KiB, .random = true,
    .lo = 0, .hi = 512 * MiB, .seed = 5, .stop = 2 * SEC,
  };
  struct tstream wr = {
    .conn = 2, .op = IO_WRITE, .length = 64 * KiB, .offset = 512 * MiB,
    .stop = 2 * SEC, .depth = 4,
  };
  uint64_t wait;

  tdrv_stream (d, &rd);
  tdrv_stream (d, &wr);
  tdrv_run_all (d);
  wait = tdrv_max_wait (d, 1, IO_READ);
  ck_assert_uint_le (wait, SLICE_ASYNC + S);
  ck_assert_uint_le (wait, 4 * S);
  ck_assert_uint_ge (tdrv_count (d, 2), 2 * SEC / (SLICE_SYNC / 2 + 4 * S) - 2);
  tdrv_free (d);
}
END_TEST

/* The connections of the completed requests, in completion order, as
 * digits (conns 0-9), into buf of n bytes.
 */
static const char *
conn_order (const struct tdrv *d, char *buf, size_t n)
{
  size_t i;

  ck_assert_uint_lt (d->ndone, n);
  for (i = 0; i < d->ndone; i++)
    buf[i] = (char) ('0' + d->order[i]->conn);
  buf[i] = '\0';
  return buf;
}

/* Where a preempted async queue goes (docs/schedulers.md, the top of
 * sched/cfq.c): back to the *front* of the round-robin, with the rest
 * of its slice.  Two async writers, ten 64 KiB writes each at 0 (conn
 * 1 first in the list), and a read on conn 3 at 3 ms.  cfq-quantum=2
 * makes rounds of two writes (10 ms), so the slice's time can show;
 * slice-async-rq=8 lifts the allowance (2 x 8 = 16) out of the way of
 * the 40 ms slice; slice-idle=0 ends the reader's slice as soon as it
 * runs empty.  Then, from the rules:
 * - conn 1's round 0-10 ms; the read, seen at 5 ms, preempts when the
 *   round drains: it runs 10-15 ms (half slice, one read);
 * - conn 1 had used 10 of its 40 ms: it resumes first, at 15 ms, for
 *   the remaining 30 ms = 6 writes (to 45 ms);
 * - conn 2, which was waiting, gets its full 40 ms = 8 writes from
 *   45 ms; each then has 2 left, served in list order.
 * Sent to the back, conn 1 would follow conn 2's 8 writes; given a
 * fresh slice, it would write 8 and conn 2 would start at 55 ms.
 */
START_TEST (test_cfq_preempt_requeue)
{
  struct tdrv *d = fixed ();
  struct req *rd, *first2 = NULL;
  char got[32];
  uint32_t c;
  unsigned i;

  tdrv_set (d, "cfq-quantum", "2");
  tdrv_set (d, "cfq-slice-async-rq", "8");
  tdrv_set (d, "cfq-slice-idle", "0");
  for (c = 1; c <= 2; c++)
    for (i = 0; i < 10; i++) {
      struct req *w = tdrv_at (d, 0, c, IO_WRITE,
                               c * 300 * MiB + i * 64 * KiB, 64 * KiB);
      if (c == 2 && i == 0)
        first2 = w;
    }
  rd = tdrv_at (d, 3 * MS, 3, IO_READ, 900 * MiB, 4 * KiB);
  tdrv_run_all (d);
  ck_assert_uint_eq (rd->start, 2 * S);
  ck_assert_str_eq (conn_order (d, got, sizeof got),
                    "11" "3" "111111" "22222222" "11" "22");
  ck_assert_uint_eq (first2->start, 3 * S + (SLICE_ASYNC - 2 * S));
  tdrv_free (d);
}
END_TEST

/* Preemption after the async slice has run out (issue 16): the
 * preempted queue has nothing left to resume, so it is expired as at
 * the end of any slice: to the back of the round-robin, and a fresh
 * slice only when its turn comes.  The parameters of
 * test_cfq_preempt_requeue, twenty writes per writer (qdepth=64, so
 * that cfq sees all 41 requests as they arrive):
 * - conn 1's slice 0-40 ms: four rounds of two writes; the read on
 *   conn 3 arrives at 35 ms, is seen at 35 ms (a completion) and
 *   preempts when the last round drains, at 40 ms, when conn 1's slice
 *   has just run out: the read runs 40-45 ms;
 * - conn 2, waiting since 0, gets its 40 ms = 8 writes (45-85 ms);
 * - then conn 1 8, conn 2 8, conn 1 the last 4, conn 2 the last 4.
 * Put back at the front with a fresh slice, conn 1 would write 8 more
 * before conn 2's first (at 85 ms).
 */
START_TEST (test_cfq_preempt_after_slice)
{
  struct tdrv *d = fixed ();
  struct req *rd, *first2 = NULL;
  char got[64];
  uint32_t c;
  unsigned i;

  tdrv_set (d, "cfq-quantum", "2");
  tdrv_set (d, "cfq-slice-async-rq", "8");
  tdrv_set (d, "cfq-slice-idle", "0");
  tdrv_set (d, "qdepth", "64");
  for (c = 1; c <= 2; c++)
    for (i = 0; i < 20; i++) {
      struct req *w = tdrv_at (d, 0, c, IO_WRITE,
                               c * 300 * MiB + i * 64 * KiB, 64 * KiB);
      if (c == 2 && i == 0)
        first2 = w;
    }
  rd = tdrv_at (d, 35 * MS, 3, IO_READ, 900 * MiB, 4 * KiB);
  tdrv_run_all (d);
  ck_assert_uint_eq (rd->start, SLICE_ASYNC);
  ck_assert_str_eq (conn_order (d, got, sizeof got),
                    "11111111" "3" "22222222" "11111111" "22222222"
                    "1111" "2222");
  ck_assert_uint_eq (first2->start, SLICE_ASYNC + S);
  tdrv_free (d);
}
END_TEST

/* A sync queue preempts when no *other* sync queue waits (issue 16):
 * its own earlier request waiting on the round-robin does not count.
 * slice-idle=0, quantum 2, slice-async-rq 8 as above.
 * - conn 9's read 0-5 ms; at 5 ms cfq sees conn 1's ten writes (1 ms)
 *   and conn 3's read A (2 ms), which waits behind conn 1's async
 *   queue in the round-robin, since a sync queue had the drive;
 * - conn 1's slice starts at 5 ms (ends at 45 ms), its first round
 *   5-15 ms; conn 3's read B (7 ms), seen at 10 ms, finds only its own
 *   queue waiting and preempts: when the round drains, A 15-20 ms and
 *   B 20-25 ms (the elevator's order too: A is nearer above the head,
 *   which conn 1's writes left at 300 MiB);
 * - conn 1 resumes with the 30 ms it had left: six writes, 25-55 ms;
 *   its slice is used, it has two writes left: a new slice, 55-65 ms.
 * Without preemption A and B would wait for conn 1's whole slice (8
 * writes, to 45 ms).
 */
START_TEST (test_cfq_preempt_own_queue_waiting)
{
  struct tdrv *d = fixed ();
  struct req *a, *b;
  char got[32];
  unsigned i;

  tdrv_set (d, "cfq-quantum", "2");
  tdrv_set (d, "cfq-slice-async-rq", "8");
  tdrv_set (d, "cfq-slice-idle", "0");
  tdrv_at (d, 0, 9, IO_READ, 100 * MiB, 4 * KiB);
  for (i = 0; i < 10; i++)
    tdrv_at (d, 1 * MS, 1, IO_WRITE, 300 * MiB + i * 64 * KiB, 64 * KiB);
  a = tdrv_at (d, 2 * MS, 3, IO_READ, 800 * MiB, 4 * KiB);
  b = tdrv_at (d, 7 * MS, 3, IO_READ, 900 * MiB, 4 * KiB);
  tdrv_run_all (d);
  ck_assert_str_eq (conn_order (d, got, sizeof got),
                    "9" "11" "33" "111111" "11");
  ck_assert_uint_eq (a->start, 3 * S);
  ck_assert_uint_eq (b->start, 4 * S);
  ck_assert_uint_eq (d->order[d->ndone - 1]->done, 13 * S);
  tdrv_free (d);
}
END_TEST

/* A round is bounded by cfq-quantum-bytes (here 4 MiB; by default
 * unlimited) as well as by cfq-quantum (8).  The drive has no max-transfer (profile=fixed),
 * slice-idle=0; conn 1 writes eight requests at 0, conn 2 reads at
 * 1 ms, which preempts the async slice when the round under way has
 * drained (the slice, 0-40 ms, has not run out by then).
 * - 4 MiB writes: a round is one write (a second would make 8 MiB):
 *   0-5 ms; the read 5-10 ms.  Without the bound the round would be
 *   all eight, 0-40 ms, and the read wait until 40 ms.
 * - 1 MiB writes: four make exactly 4 MiB, the fifth would not fit:
 *   a round of four, 0-20 ms; the read at 20 ms.
 * - 4 MiB writes with the default (no bound): the round is all eight,
 *   0-40 ms; the read at 40 ms.
 */
START_TEST (test_cfq_round_bytes)
{
  static const uint64_t sizes[] = { 4 * MiB, 1 * MiB, 4 * MiB };
  static const char *const bound[] = { "4M", "4M", NULL };
  static const uint64_t read_start[] = { S, 4 * S, 8 * S };
  unsigned k, i;

  for (k = 0; k < 3; k++) {
    struct tdrv *d = fixed ();
    struct req *rd;

    tdrv_set (d, "cfq-slice-idle", "0");
    if (bound[k])
      tdrv_set (d, "cfq-quantum-bytes", bound[k]);
    for (i = 0; i < 8; i++)
      tdrv_at (d, 0, 1, IO_WRITE, 100 * MiB + i * sizes[k], sizes[k]);
    rd = tdrv_at (d, 1 * MS, 2, IO_READ, 900 * MiB, 4 * KiB);
    tdrv_run_all (d);
    ck_assert_uint_eq (rd->start, read_start[k]);
    tdrv_free (d);
  }
}
END_TEST

/* cfq-quantum-bytes is cfq's own tunable, checked like the others. */
START_TEST (test_cfq_round_bytes_param)
{
  struct sched_params sp;
  char err[256] = "";

  sched_params_init (&sp);
  ck_assert_int_eq (sched_params_set (&sp, "cfq-quantum-bytes", "2T", err,
                                      sizeof err), -1);
  ck_assert_msg (strstr (err, "cfq-quantum-bytes") != NULL, "%s", err);
  ck_assert_int_eq (sched_params_set (&sp, "cfq-quantum-bytes", "1M", err,
                                      sizeof err), 0);
  /* 0: no bound, the default. */
  ck_assert_int_eq (sched_params_set (&sp, "cfq-quantum-bytes", "0", err,
                                      sizeof err), 0);
}
END_TEST

static int
cmp_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

  return x < y ? -1 : x > y;
}

/* cfq-async-queued-max: a connection's writes beyond the bound are
 * served outside the reader's slice.  Ten reads of connection 1 at 0
 * and five writes of connection 2 at 1 ms (5 ms each, no idling).  The
 * reads' first round (the quantum, 8) takes the drive to 40 ms; then
 * the writes over the bound of 2 go one by one (40, 45, 50 ms), the
 * reader's slice goes on (55, 60 ms) and the last two writes wait for
 * the async slice (65, 70 ms).  Without the bound all five writes wait
 * for the reads (50-70 ms).
 */
START_TEST (test_cfq_async_queued_max)
{
  static const uint64_t bounded[] = { 40 * MS, 45 * MS, 50 * MS, 65 * MS,
                                      70 * MS };
  static const uint64_t unbounded[] = { 50 * MS, 55 * MS, 60 * MS, 65 * MS,
                                        70 * MS };
  unsigned k, i;

  for (k = 0; k < 2; k++) {
    struct tdrv *d = fixed ();
    struct req *rd[10], *wr[5];
    uint64_t starts[5];

    tdrv_set (d, "cfq-slice-idle", "0");
    if (k == 0)
      tdrv_set (d, "cfq-async-queued-max", "2");
    for (i = 0; i < 10; i++)
      rd[i] = tdrv_at (d, 0, 1, IO_READ, (uint64_t) i * MiB, 4 * KiB);
    for (i = 0; i < 5; i++)
      wr[i] = tdrv_at (d, 1 * MS, 2, IO_WRITE, 900 * MiB + i * MiB, 4 * KiB);
    tdrv_run_all (d);
    for (i = 0; i < 5; i++)
      starts[i] = wr[i]->start;
    qsort (starts, 5, sizeof *starts, cmp_u64);
    for (i = 0; i < 5; i++)
      ck_assert_uint_eq (starts[i], (k == 0 ? bounded : unbounded)[i]);
    ck_assert_uint_eq (rd[9]->start, k == 0 ? 60 * MS : 45 * MS);
    tdrv_free (d);
  }
}
END_TEST

/* The bound counts client requests: with max-transfer=128K, three
 * 512 KiB writes are twelve commands but three requests.  With a bound
 * of 1, after the reads' first round (0-40 ms) the oldest write is
 * served whole (40-60 ms), then the next (60-80 ms), leaving one; the
 * reads go on (80, 85 ms) and the last write waits for its slice
 * (90 ms).
 */
START_TEST (test_cfq_async_queued_max_commands)
{
  struct tdrv *d = fixed ();
  struct req *rd[10], *wr[3];
  unsigned i;

  tdrv_set (d, "cfq-slice-idle", "0");
  tdrv_set (d, "max-transfer", "128K");
  tdrv_set (d, "cfq-async-queued-max", "1");
  for (i = 0; i < 10; i++)
    rd[i] = tdrv_at (d, 0, 1, IO_READ, (uint64_t) i * MiB, 4 * KiB);
  for (i = 0; i < 3; i++)
    wr[i] = tdrv_at (d, 1 * MS, 2, IO_WRITE, 900 * MiB + i * MiB, 512 * KiB);
  tdrv_run_all (d);
  ck_assert_uint_eq (wr[0]->start, 40 * MS);
  ck_assert_uint_eq (wr[0]->done, 60 * MS);
  ck_assert_uint_eq (wr[1]->start, 60 * MS);
  ck_assert_uint_eq (wr[1]->done, 80 * MS);
  ck_assert_uint_eq (rd[8]->start, 80 * MS);
  ck_assert_uint_eq (rd[9]->start, 85 * MS);
  ck_assert_uint_eq (wr[2]->start, 90 * MS);
  tdrv_free (d);
}
END_TEST

/* Two sequential readers that think 1 ms between requests.  With
 * idling each keeps the drive for its whole slice (about 2 s / 100 ms
 * = 20 switches, each a long seek between their regions); without it
 * the drive goes to the other reader after every request (about one
 * switch per request, 2 s / 5 ms = 400).
 */
static size_t
thinking_readers (const char *slice_idle)
{
  struct tdrv *d = fixed ();
  uint32_t c;
  size_t n;

  tdrv_set (d, "cfq-slice-idle", slice_idle);
  for (c = 1; c <= 2; c++) {
    struct tstream s = {
      .conn = c, .op = IO_READ, .length = 64 * KiB,
      .offset = c * 300 * MiB, .stop = 2 * SEC, .think = 1 * MS,
    };
    tdrv_stream (d, &s);
  }
  tdrv_run_all (d);
  n = switches (d);
  tdrv_free (d);
  return n;
}

START_TEST (test_cfq_idle_keeps_stream)
{
  size_t with = thinking_readers ("8ms");
  size_t without = thinking_readers ("0");

  ck_assert_uint_le (with, 2 * SEC / SLICE_SYNC + 2);
  ck_assert_uint_ge (without, 300);
}
END_TEST

/* A reader that thinks 1 ms issues 5 reads (done at 5, 11, 17, 23,
 * 29 ms) and stops; another connection's read, queued since 2 ms,
 * starts when the idle window after the last one closes: 29 + 8 ms.
 * With cfq-slice-idle=0 it goes as soon as the first read ends.
 */
static uint64_t
idle_end (const char *slice_idle)
{
  struct tdrv *d = fixed ();
  struct tstream s = {
    .conn = 1, .op = IO_READ, .length = 4 * KiB, .offset = 100 * MiB,
    .think = 1 * MS, .max = 5,
  };
  struct req *other;
  uint64_t t;

  tdrv_set (d, "cfq-slice-idle", slice_idle);
  tdrv_stream (d, &s);
  other = tdrv_at (d, 2 * MS, 2, IO_READ, 900 * MiB, 4 * KiB);
  tdrv_run_all (d);
  t = other->start;
  tdrv_free (d);
  return t;
}

START_TEST (test_cfq_idle_ends)
{
  ck_assert_uint_eq (idle_end ("8ms"), 29 * MS + SLICE_IDLE);
  ck_assert_uint_eq (idle_end ("0"), 5 * MS);
}
END_TEST

/* Think time turns idling off: a reader that thinks 20 ms (more than
 * slice-idle) between random reads, against a sequential reader that
 * does not think.  Each time the slow reader's queue runs empty the
 * drive idles 8 ms for it, in vain, until its mean think time is
 * trusted: Linux's decaying average holds 3 samples after its 4th
 * request arrives (samples 32, 60, 84 > 80), so exactly the first
 * three of its reads are followed by an 8 ms idle gap.
 */
START_TEST (test_cfq_think_time)
{
  struct tdrv *d = fixed ();
  struct tstream slow = {
    .conn = 1, .op = IO_READ, .length = 4 * KiB, .random = true,
    .lo = 0, .hi = 256 * MiB, .seed = 3, .stop = 2 * SEC, .think = 20 * MS,
  };
  struct tstream fast = {
    .conn = 2, .op = IO_READ, .length = 64 * KiB, .offset = 512 * MiB,
    .stop = 2 * SEC,
  };
  size_t i, gaps = 0;

  tdrv_stream (d, &slow);
  tdrv_stream (d, &fast);
  tdrv_run_all (d);
  /* (the fast reader's last read, at 2 s, is followed by one too) */
  for (i = 1; i < d->ndone; i++)
    if (d->order[i - 1]->conn == 1
        && d->order[i]->start - d->order[i - 1]->done == SLICE_IDLE)
      gaps++;
  ck_assert_uint_ge (tdrv_count (d, 1), 10);
  ck_assert_uint_eq (gaps, 3);
  tdrv_free (d);
}
END_TEST

/* The starvation scenario, far read on another connection: it waits
 * for the stream's slice to end, 100 ms after its first dispatch at 0.
 */
START_TEST (test_cfq_starvation_other_conn)
{
  struct tdrv *d = fixed ();
  struct req *far = tdrv_starvation (d, 1, 2, 2 * SEC);

  tdrv_run_all (d);
  ck_assert_uint_le (far->start, far->arrival + SLICE_SYNC + S);
  ck_assert_uint_eq (far->start, SLICE_SYNC);
  tdrv_free (d);
}
END_TEST

/* Far read on the stream's own connection, 99 MiB behind the head
 * (beyond back-seek-max).
 * - The stream sixteen deep: every dispatch round (8 = cfq-quantum
 *   requests, 40 ms) finds eight stream reads ahead of the head, so the
 *   elevator never takes the far read; FIFO expiry does, in the first
 *   round chosen after it is 125 ms old (expires at 135 ms; rounds
 *   start at 0, 40, 80, then the slice that ended at 100 ms gives way
 *   at 120 to the same queue's next slice, rounds at 120 and 160):
 *   160 ms, within the bound of expiry + one slice.
 * - The stream two deep: the round at 10 ms holds the one stream read
 *   that has arrived and then, nothing being ahead, wraps to the far
 *   read (Linux's dispatch loop does the same): 15 ms.
 */
START_TEST (test_cfq_starvation_same_conn)
{
  struct tdrv *d = fixed ();
  struct req *far = tdrv_starvation_at (d, 1, 1, 2 * SEC, 1 * MiB, 16);

  tdrv_run_all (d);
  ck_assert_uint_le (far->start, far->arrival + EXPIRE_SYNC + SLICE_SYNC + S);
  ck_assert_uint_eq (far->start, 160 * MS);
  tdrv_free (d);

  d = fixed ();
  far = tdrv_starvation (d, 1, 1, 2 * SEC);
  tdrv_run_all (d);
  ck_assert_uint_eq (far->start, 15 * MS);
  tdrv_free (d);
}
END_TEST

/* The elevator inside a queue.  Head at 100M+4K after a first read;
 * queued: a=99M, b=103M, c=80M, e=101.5M.
 * - default (max 16M, penalty 2): e (1.5M ahead beats a: 1M behind
 *   costs 2M), b (1.5M ahead vs a 2.5M behind = 5M), a (nothing ahead,
 *   4M behind is allowed), c (19M behind is too far: wrap to lowest).
 * - penalty 1: a (1M behind beats e 1.5M ahead), e, b, c (23M behind:
 *   wrap).
 * - back-seek-max 0: e, b, then only wraps: c, a.
 */
static void
elevator_order (const char *key, const char *value, const char *expect)
{
  struct tdrv *d = fixed ();
  static const char names[] = "abce";
  static const uint64_t offs[] = {
    99 * MiB, 103 * MiB, 80 * MiB, 101 * MiB + 512 * KiB,
  };
  struct req *r[4];
  char got[5];
  size_t i, j;

  if (key)
    tdrv_set (d, key, value);
  tdrv_at (d, 0, 1, IO_READ, 100 * MiB, 4 * KiB);
  for (i = 0; i < 4; i++)
    r[i] = tdrv_at (d, 1 * MS, 1, IO_READ, offs[i], 4 * KiB);
  tdrv_run_all (d);
  for (i = 0; i < 4; i++)
    for (j = 0; j < 4; j++)
      if (d->order[i + 1] == r[j])
        got[i] = names[j];
  got[4] = '\0';
  ck_assert_str_eq (got, expect);
  tdrv_free (d);
}

START_TEST (test_cfq_back_seek)
{
  elevator_order (NULL, NULL, "ebac");
  elevator_order ("cfq-back-seek-penalty", "1", "aebc");
  elevator_order ("cfq-back-seek-max", "0", "ebca");
}
END_TEST

/* Two async writers with a long async slice: each slice ends after
 * slice-async-rq x quantum dispatches (2 x 8 = 16), or 2 x 4 = 8 with
 * cfq-quantum=4.
 */
static void
async_runs (const char *quantum, size_t expect)
{
  struct tdrv *d = fixed ();
  uint32_t c;

  tdrv_set (d, "cfq-slice-async", "1s");
  if (quantum)
    tdrv_set (d, "cfq-quantum", quantum);
  for (c = 1; c <= 2; c++) {
    struct tstream s = {
      .conn = c, .op = IO_WRITE, .length = 64 * KiB,
      .offset = c * 300 * MiB, .stop = 1 * SEC, .depth = 32,
    };
    tdrv_stream (d, &s);
  }
  tdrv_run (d, 900 * MS);
  check_runs (d, expect);
  tdrv_run_all (d);
  tdrv_free (d);
}

START_TEST (test_cfq_async_rq)
{
  async_runs (NULL, 16);
  async_runs ("4", 8);
}
END_TEST

/* The async slice is a time slice too: 40 ms / 5 ms = 8 writes. */
START_TEST (test_cfq_async_slice)
{
  struct tdrv *d = fixed ();
  uint32_t c;

  for (c = 1; c <= 2; c++) {
    struct tstream s = {
      .conn = c, .op = IO_WRITE, .length = 64 * KiB,
      .offset = c * 300 * MiB, .stop = 1 * SEC, .depth = 32,
    };
    tdrv_stream (d, &s);
  }
  tdrv_run (d, 900 * MS);
  check_runs (d, SLICE_ASYNC / S);
  tdrv_run_all (d);
  tdrv_free (d);
}
END_TEST

static Suite *
cfq_suite (void)
{
  Suite *s = suite_create ("sched-cfq");
  TCase *tc = tcase_create ("cfq");

  tcase_add_test (tc, test_cfq_fair_sequential);
  tcase_add_test (tc, test_cfq_more_queues_than_pool);
  tcase_add_test (tc, test_cfq_async_writer);
  tcase_add_test (tc, test_cfq_preempt_requeue);
  tcase_add_test (tc, test_cfq_preempt_after_slice);
  tcase_add_test (tc, test_cfq_preempt_own_queue_waiting);
  tcase_add_test (tc, test_cfq_round_bytes);
  tcase_add_test (tc, test_cfq_round_bytes_param);
  tcase_add_test (tc, test_cfq_async_queued_max);
  tcase_add_test (tc, test_cfq_async_queued_max_commands);
  tcase_add_test (tc, test_cfq_idle_keeps_stream);
  tcase_add_test (tc, test_cfq_idle_ends);
  tcase_add_test (tc, test_cfq_think_time);
  tcase_add_test (tc, test_cfq_starvation_other_conn);
  tcase_add_test (tc, test_cfq_starvation_same_conn);
  tcase_add_test (tc, test_cfq_back_seek);
  tcase_add_test (tc, test_cfq_async_rq);
  tcase_add_test (tc, test_cfq_async_slice);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (cfq_suite ());
}
