/* hddsim: deadline on a virtual clock (fixed 5 ms service times). */

#include "run-suite.h"
#include "test-sched-driver.h"

#define S (5 * MS)
#define BATCH 16                /* deadline-fifo-batch's default */
#define READ_EXPIRE (500 * MS)

/* Reads only: the far read is held by the sweep until it expires at
 * 510 ms; the batch in progress then (started at 480 ms, batches being
 * 16 x 5 ms = 80 ms from 0) runs out at 560 ms and the next batch
 * starts from the expired read: read-expire + at most one batch.
 */
START_TEST (test_deadline_starvation)
{
  struct tdrv *d = tdrv_new ("deadline", "fixed", "5ms");
  struct req *far = tdrv_starvation (d, 1, 2, 2 * SEC);

  tdrv_run_all (d);
  ck_assert_uint_ge (far->start, far->arrival + READ_EXPIRE);
  ck_assert_uint_le (far->start, far->arrival + READ_EXPIRE + BATCH * S);
  ck_assert_uint_eq (far->start, 7 * BATCH * S);
  tdrv_free (d);
}
END_TEST

/* Reads and writes always pending, each direction's stream always
 * ahead of its sweep: reads are chosen over waiting writes exactly
 * writes-starved (2) times in a row, so the drive serves 32 reads,
 * 16 writes, 32 reads, 16 writes...
 */
START_TEST (test_deadline_writes_starved)
{
  struct tdrv *d = tdrv_new ("deadline", "fixed", "5ms");
  struct tstream rd = {
    .conn = 1, .op = IO_READ, .length = 4 * KiB, .offset = 100 * MiB,
    .stop = 1 * SEC, .depth = 2,
  };
  struct tstream wr = {
    .conn = 2, .op = IO_WRITE, .length = 64 * KiB, .offset = 500 * MiB,
    .stop = 1 * SEC, .depth = 4,
  };
  size_t i, run = 0, runs = 0;

  tdrv_stream (d, &rd);
  tdrv_stream (d, &wr);
  tdrv_run_all (d);
  for (i = 0; i < d->ndone; i++) {
    run++;
    if (i + 1 < d->ndone && d->order[i + 1]->io.op == d->order[i]->io.op)
      continue;
    if (d->order[i]->start < 900 * MS) {    /* both streams still going */
      if (d->order[i]->io.op == IO_READ)
        ck_assert_uint_eq (run, 2 * BATCH);
      else
        ck_assert_uint_eq (run, BATCH);
      runs++;
    }
    run = 0;
  }
  /* a 32+16 cycle takes 240 ms: R W R W R W R before 900 ms */
  ck_assert_uint_eq (runs, 7);
  tdrv_free (d);
}
END_TEST

/* The same two streams and the far read: the first write batch (the
 * third batch, 160-240 ms) ends the read sweep, and a batch that
 * changes direction starts from the oldest request: the far read goes
 * at 240 ms, well before it expires.
 */
START_TEST (test_deadline_direction_change)
{
  struct tdrv *d = tdrv_new ("deadline", "fixed", "5ms");
  struct tstream wr = {
    .conn = 3, .op = IO_WRITE, .length = 64 * KiB, .offset = 500 * MiB,
    .stop = 1 * SEC, .depth = 4,
  };
  struct req *far = tdrv_starvation (d, 1, 2, 1 * SEC);

  tdrv_stream (d, &wr);
  tdrv_run_all (d);
  ck_assert_uint_eq (far->start, 3 * BATCH * S);
  tdrv_free (d);
}
END_TEST

/* Random reads from four readers against a random writer: no read
 * waits past read-expire plus the rest of a batch plus one write batch
 * owed under writes-starved (2 x 16 x 5 ms).
 */
START_TEST (test_deadline_read_bound)
{
  struct tdrv *d = tdrv_new ("deadline", "fixed", "5ms");
  uint32_t c;

  for (c = 1; c <= 4; c++) {
    struct tstream rd = {
      .conn = c, .op = IO_READ, .length = 4 * KiB, .random = true,
      .lo = 0, .hi = 1 * GiB, .seed = c, .stop = 10 * SEC, .depth = 4,
    };
    tdrv_stream (d, &rd);
  }
  struct tstream wr = {
    .conn = 5, .op = IO_WRITE, .length = 64 * KiB, .random = true,
    .lo = 0, .hi = 1 * GiB, .seed = 99, .stop = 10 * SEC, .depth = 8,
  };
  tdrv_stream (d, &wr);
  tdrv_run_all (d);
  ck_assert_uint_le (tdrv_max_wait (d, UINT32_MAX, IO_READ),
                     READ_EXPIRE + 2 * BATCH * S);
  tdrv_free (d);
}
END_TEST

static Suite *
deadline_suite (void)
{
  Suite *s = suite_create ("sched-deadline");
  TCase *tc = tcase_create ("deadline");

  tcase_add_test (tc, test_deadline_starvation);
  tcase_add_test (tc, test_deadline_writes_starved);
  tcase_add_test (tc, test_deadline_direction_change);
  tcase_add_test (tc, test_deadline_read_bound);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (deadline_suite ());
}
