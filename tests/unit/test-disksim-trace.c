/* hddsim: unit tests of the DiskSim validate trace reader
 * (trace/disksim_validate.c) and its closed-loop replay
 * (tools/lib/disksim_replay.c).
 *
 * The replay runs on profile=fixed, where every request takes exactly
 * service=, so every arrival, start and completion is worked out by
 * hand from the trace's think times.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "run-suite.h"
#include "test-units.h"

#include "../../sched/setup.h"
#include "../../tools/lib/disksim_replay.h"

#define SIZE (UINT64_C(1) << 30)  /* 2097152 blocks */

static char tmpdir[] = "/tmp/hddsim-test-dstrace-XXXXXX";
static char path[256];
static char err[DS_ERRLEN];

static void
write_trace (const char *text)
{
  FILE *fp;

  snprintf (path, sizeof path, "%s/t.trace", tmpdir);
  fp = fopen (path, "w");
  ck_assert_ptr_nonnull (fp);
  fputs (text, fp);
  ck_assert_int_eq (fclose (fp), 0);
}

START_TEST (test_parse_fields)
{
  struct ds_trace *t;
  struct ds_request d;

  write_trace ("R Hit     583176   4    663.00000  45422.00000\n"
               "W\tMiss 0 1 0 0.0004\r\n"
               "R Doub 2097151 1 12434.375000 27307.318970\n"
               "W Trip 10 16 1.5 1.0005\n");
  t = ds_trace_open (path, SIZE, err, sizeof err);
  ck_assert_ptr_nonnull (t);

  ck_assert_msg (ds_trace_next (t, &d, err, sizeof err) == 1, "%s", err);
  ck_assert (!d.write);
  ck_assert_str_eq (d.action, "Hit");
  ck_assert_uint_eq (d.blkno, 583176);
  ck_assert_uint_eq (d.bcount, 4);
  ck_assert_double_eq (d.servtime_us, 663.0);
  ck_assert_uint_eq (d.nextinter_ns, 45422 * US);
  ck_assert_int_eq (d.line, 1);

  /* Tabs and CRLF; 0.4 ns rounds to 0. */
  ck_assert_int_eq (ds_trace_next (t, &d, err, sizeof err), 1);
  ck_assert (d.write);
  ck_assert_str_eq (d.action, "Miss");
  ck_assert_uint_eq (d.blkno, 0);
  ck_assert_uint_eq (d.bcount, 1);
  ck_assert_double_eq (d.servtime_us, 0.0);
  ck_assert_uint_eq (d.nextinter_ns, 0);

  /* The last block of the drive; microseconds to the nearest ns. */
  ck_assert_int_eq (ds_trace_next (t, &d, err, sizeof err), 1);
  ck_assert_str_eq (d.action, "Doub");
  ck_assert_uint_eq (d.blkno, 2097151);
  ck_assert_double_eq (d.servtime_us, 12434.375);
  ck_assert_uint_eq (d.nextinter_ns, UINT64_C(27307319));

  ck_assert_int_eq (ds_trace_next (t, &d, err, sizeof err), 1);
  ck_assert_str_eq (d.action, "Trip");
  ck_assert_uint_eq (d.bcount, 16);
  ck_assert_int_eq (d.line, 4);

  ck_assert_int_eq (ds_trace_next (t, &d, err, sizeof err), 0);
  ds_trace_close (t);
}
END_TEST

/* Every bad line: -1 and an error naming the file, the line and what
 * is wrong with it.
 */
static const struct {
  const char *text, *why;
} bad_lines[] = {
  { "X Hit 0 1 1 1\n", "'X': expected R or W" },
  { "Read Hit 0 1 1 1\n", "'Read': expected R or W" },
  { "R Hot 0 1 1 1\n", "'Hot': expected Hit, Miss, Doub or Trip" },
  { "R Hit -5 1 1 1\n", "blkno '-5'" },
  { "R Hit 12x 1 1 1\n", "blkno '12x'" },
  { "R Hit 0 0 1 1\n", "bcount '0'" },
  { "R Hit 0 2147483648 1 1\n", "bcount '2147483648'" },
  { "R Hit 2097151 2 1 1\n", "blocks 2097151+2 end beyond size=1073741824" },
  { "R Hit 99999999999 1 1 1\n", "end beyond size=" },
  { "R Hit 0 1 -1 1\n", "servtime '-1'" },
  { "R Hit 0 1 nan 1\n", "servtime 'nan'" },
  { "R Hit 0 1 1 1e3\n", "nextinter '1e3'" },
  { "R Hit 0 1 1 2000000000000\n", "nextinter '2000000000000'" },
  { "R Hit 0 1 1\n", "too few fields" },
  { "R Hit 0 1 1 1 1\n", "too many fields" },
  { "\n", "empty line" },
};

START_TEST (test_bad_line)
{
  struct ds_trace *t;
  struct ds_request d;
  char want[512];

  /* The bad line is the second: the first is good. */
  snprintf (want, sizeof want, "R Hit 0 1 1 1\n%s", bad_lines[_i].text);
  write_trace (want);
  t = ds_trace_open (path, SIZE, err, sizeof err);
  ck_assert_ptr_nonnull (t);
  ck_assert_int_eq (ds_trace_next (t, &d, err, sizeof err), 1);
  ck_assert_int_eq (ds_trace_next (t, &d, err, sizeof err), -1);
  snprintf (want, sizeof want, "%s:2: ", path);
  ck_assert_msg (strncmp (err, want, strlen (want)) == 0,
                 "no file:line in '%s'", err);
  ck_assert_msg (strstr (err, bad_lines[_i].why) != NULL,
                 "'%s' does not say '%s'", err, bad_lines[_i].why);
  ds_trace_close (t);
}
END_TEST

START_TEST (test_long_line)
{
  char line[1200];
  struct ds_trace *t;
  struct ds_request d;

  memset (line, ' ', sizeof line);
  memcpy (line, "R Hit 0 1 1 1", 13);
  line[sizeof line - 2] = '\n';
  line[sizeof line - 1] = '\0';
  write_trace (line);
  t = ds_trace_open (path, SIZE, err, sizeof err);
  ck_assert_int_eq (ds_trace_next (t, &d, err, sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, ":1: line longer than"));
  ds_trace_close (t);
}
END_TEST

START_TEST (test_missing_file)
{
  ck_assert_ptr_null (ds_trace_open ("/nonexistent/x.trace", SIZE, err,
                                     sizeof err));
  ck_assert_str_eq (err, "/nonexistent/x.trace: No such file or directory");
}
END_TEST

/* ---- closed loop on profile=fixed ---- */

#define MAXREQ 8

static struct req got[MAXREQ];
static int ngot;

static int
record (const struct req *r, const struct ds_request *d, void *opaque)
{
  (void) d;
  (void) opaque;
  ck_assert_int_lt (ngot, MAXREQ);
  got[ngot++] = *r;
  return 0;
}

static long
replay_fixed (const char *service, const char *sched)
{
  static const struct engine_hooks no_hooks = { .started = NULL };
  struct setup s;
  struct hdd *hdd;
  struct engine *e;
  struct ds_trace *t;
  char serr[SETUP_ERRLEN];
  long n;

  setup_init (&s);
  ck_assert_int_eq (setup_set (&s, "profile", "fixed", serr, sizeof serr), 0);
  ck_assert_int_eq (setup_set (&s, "service", service, serr, sizeof serr), 0);
  ck_assert_int_eq (setup_set (&s, "sched", sched, serr, sizeof serr), 0);
  ck_assert_int_eq (setup_finish (&s, serr, sizeof serr), 0);
  hdd = hdd_new (s.hdd, SIZE, 0, serr, sizeof serr);
  ck_assert_ptr_nonnull (hdd);
  e = engine_new (hdd, s.policy, &s.sched, &no_hooks, NULL);
  ck_assert_ptr_nonnull (e);
  t = ds_trace_open (path, SIZE, err, sizeof err);
  ck_assert_ptr_nonnull (t);
  ngot = 0;
  n = ds_replay (t, e, record, NULL, err, sizeof err);
  ds_trace_close (t);
  engine_free (e);
  hdd_free (hdd);
  setup_free (&s);
  return n;
}

/* service=2ms; think times 0.5 ms, 1.50025 ms, 7 us:
 *   request 0 arrives at 0,                 done 2 ms;
 *   request 1 arrives at 2 + 0.5 = 2.5 ms,  done 4.5 ms;
 *   request 2 arrives at 4.5 + 1.50025 = 6.00025 ms, done 8.00025 ms;
 *   request 3 arrives at 8.00025 + 0.007 = 8.00725 ms, done 10.00725 ms.
 * The measured service times (first number) change nothing.
 */
START_TEST (test_closed_loop)
{
  static const uint64_t arrival[] = {
    0, 2500 * US, 6000250, 8007250,
  };
  int i;

  /* Under cfq all four are reads of one sync queue: a write would
   * rightly wait out cfq's idle window (slice_idle) after each read.
   */
  if (_i == 0)
    write_trace ("R Hit 0 8 1000.0 500.0\n"
                 "W Miss 8 8 99999.0 1500.250\n"
                 "R Hit 100 1 10.0 7\n"
                 "W Hit 2097150 2 5 123456\n");
  else
    write_trace ("R Hit 0 8 1000.0 500.0\n"
                 "R Miss 8 8 99999.0 1500.250\n"
                 "R Hit 100 1 10.0 7\n"
                 "R Hit 2097150 2 5 123456\n");
  ck_assert_int_eq (replay_fixed ("2ms", _i ? "cfq" : "fifo"), 4);
  ck_assert_int_eq (ngot, 4);
  for (i = 0; i < 4; i++) {
    ck_assert_uint_eq (got[i].id, (uint64_t) i);
    ck_assert_uint_eq (got[i].arrival, arrival[i]);
    ck_assert_uint_eq (got[i].start, arrival[i]);
    ck_assert_uint_eq (got[i].done, arrival[i] + 2 * MS);
  }
  ck_assert_int_eq (got[0].io.op, IO_READ);
  ck_assert_int_eq (got[1].io.op, _i == 0 ? IO_WRITE : IO_READ);
  ck_assert_uint_eq (got[1].io.offset, 8 * 512);
  ck_assert_uint_eq (got[1].io.length, 8 * 512);
  ck_assert_uint_eq (got[2].io.offset, 100 * 512);
  ck_assert_uint_eq (got[2].io.length, 512);
  ck_assert_uint_eq (got[3].io.offset, SIZE - 1024);
}
END_TEST

/* A bad line stops the replay with its file:line; the requests before
 * it have been replayed.
 */
START_TEST (test_closed_loop_bad_line)
{
  write_trace ("R Hit 0 8 1000.0 500.0\n"
               "R Hit 0 8 1000.0\n");
  ck_assert_int_eq (replay_fixed ("1ms", "fifo"), -1);
  ck_assert_int_eq (ngot, 1);
  ck_assert_ptr_nonnull (strstr (err, "t.trace:2: too few fields"));
}
END_TEST

static void
make_tmpdir (void)
{
  if (mkdtemp (tmpdir) == NULL) {
    perror (tmpdir);
    exit (EXIT_FAILURE);
  }
}

static void
remove_tmpdir (void)
{
  char cmd[128];

  snprintf (cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (system (cmd) != 0)
    fprintf (stderr, "could not remove %s\n", tmpdir);
}

static Suite *
dstrace_suite (void)
{
  Suite *s = suite_create ("disksim-trace");
  TCase *tc = tcase_create ("parse");
  TCase *tr = tcase_create ("replay");

  tcase_add_test (tc, test_parse_fields);
  tcase_add_loop_test (tc, test_bad_line, 0,
                       sizeof bad_lines / sizeof *bad_lines);
  tcase_add_test (tc, test_long_line);
  tcase_add_test (tc, test_missing_file);
  suite_add_tcase (s, tc);
  /* fifo, and cfq: its idle window after an emptied sync queue must
   * not keep the next read of that queue waiting.
   */
  tcase_add_loop_test (tr, test_closed_loop, 0, 2);
  tcase_add_test (tr, test_closed_loop_bad_line);
  suite_add_tcase (s, tr);
  return s;
}

int
main (void)
{
  int status;

  make_tmpdir ();
  status = run_suite (dstrace_suite ());
  remove_tmpdir ();
  return status;
}
