/* hddsim: unit tests of the trace's line format (trace/writer.c).
 *
 * The expected lines are written out by hand from the documented
 * column order (nbdkit-hddsim-plugin(1)), so a change to the bytes of
 * a trace shows here; the reader must give back what was written.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "run-suite.h"

#include "../../trace/reader.h"
#include "../../trace/writer.h"

static const char header[] =
  "id,conn,op,offset,length,arrival_ns,start_ns,done_ns,"
  "seek_ns,rot_ns,xfer_ns,late_ns,"
  "fua,busy_ns,overhead_ns,seek_cyl,cache_hit,queue_len,outcome,"
  "commands,lost_extents,lost_bytes,flushes_done,fua_writes_done,"
  "dispatch_ns,drive_queue,wake_ns,fault_ns,event,clean_ns\n";

static struct trace_record
sample (void)
{
  return (struct trace_record) {
    .id = 42, .conn = 3, .queue_len = 7, .commands = 5,
    .io = { .op = IO_WRITE, .fua = true, .offset = 1048576, .length = 4096 },
    .arrival = 1000, .dispatch = 2000, .start = 2500, .done = 12345678,
    .drive_queue = 3,
    .cost = { .busy_ns = 11, .overhead_ns = 22, .seek_ns = 3000000,
              .rot_ns = 4166666, .xfer_ns = 81920, .seek_cylinders = 1234,
              .cache_hit = false },
    .late_ns = 57, .outcome = OUTCOME_OK,
  };
}

static void
check_line (const struct trace_record *t, const char *expected)
{
  char buf[TRACE_LINE_MAX];
  size_t n = trace_format_line (buf, t);

  ck_assert_msg (n == strlen (expected) && memcmp (buf, expected, n) == 0,
                 "got \"%.*s\", expected \"%s\"", (int) n, buf, expected);
}

START_TEST (test_header)
{
  char buf[TRACE_LINE_MAX];
  size_t n = trace_format_header (buf);

  ck_assert_uint_eq (n, strlen (header));
  ck_assert (memcmp (buf, header, n) == 0);
}
END_TEST

START_TEST (test_delivered_line)
{
  struct trace_record t = sample ();

  check_line (&t, "42,3,write,1048576,4096,1000,2500,12345678,"
              "3000000,4166666,81920,57,1,11,22,1234,0,7,ok,5,,,,,2000,3,0,0,,0\n");
  t.cost.clean_ns = 7;          /* 7 of busy_ns's 11 waited for cleaning */
  check_line (&t, "42,3,write,1048576,4096,1000,2500,12345678,"
              "3000000,4166666,81920,57,1,11,22,1234,0,7,ok,5,,,,,2000,3,0,0,,7\n");
  t.cost.clean_ns = 0;
  t.late_ns = -5;               /* early: a bug, but written as it is */
  check_line (&t, "42,3,write,1048576,4096,1000,2500,12345678,"
              "3000000,4166666,81920,-5,1,11,22,1234,0,7,ok,5,,,,,2000,3,0,0,,0\n");
}
END_TEST

/* Numbers are written from a digit count and four digits per step:
 * the edges of both, by hand.  Each value is the row's id, so the rest
 * of the line is test_delivered_line's.
 */
START_TEST (test_number_edges)
{
  static const struct { uint64_t v; const char *text; } edges[] = {
    { 0, "0" }, { 9, "9" }, { 10, "10" }, { 99, "99" }, { 100, "100" },
    { 999, "999" }, { 1000, "1000" }, { 9999, "9999" }, { 10000, "10000" },
    { 10001, "10001" }, { 100000, "100000" }, { 99999999, "99999999" },
    { 100000000, "100000000" }, { 4294967295, "4294967295" },
    { 4294967296, "4294967296" }, { 1000200030004, "1000200030004" },
    { 70000000000009, "70000000000009" },
    { UINT64_C(999999999999999999), "999999999999999999" },
    { UINT64_C(1000000000000000000), "1000000000000000000" },
    { UINT64_C(9999999999999999999), "9999999999999999999" },
    { UINT64_C(10000000000000000000), "10000000000000000000" },
    { UINT64_MAX, "18446744073709551615" },
  };
  const char *rest = ",3,write,1048576,4096,1000,2500,12345678,"
    "3000000,4166666,81920,57,1,11,22,1234,0,7,ok,5,,,,,2000,3,0,0,,0\n";
  struct trace_record t = sample ();
  char expected[TRACE_LINE_MAX];
  size_t i;

  for (i = 0; i < sizeof edges / sizeof edges[0]; i++) {
    t.id = edges[i].v;
    snprintf (expected, sizeof expected, "%s%s", edges[i].text, rest);
    check_line (&t, expected);
  }
}
END_TEST

START_TEST (test_undelivered_and_extremes)
{
  struct trace_record t = sample ();

  t.late_ns = TRACE_LATE_NONE;
  t.outcome = OUTCOME_ABORTED;
  t.io = (struct io) { .op = IO_FLUSH };
  t.cost.cache_hit = true;
  t.id = UINT64_MAX;
  t.cost.seek_ns = 0;
  check_line (&t, "18446744073709551615,3,flush,0,0,1000,2500,12345678,"
              "0,4166666,81920,,0,11,22,1234,1,7,aborted,5,,,,,2000,3,0,0,,0\n");
  t.outcome = OUTCOME_IO_ERROR;
  t.late_ns = INT64_MIN + 1;
  check_line (&t, "18446744073709551615,3,flush,0,0,1000,2500,12345678,"
              "0,4166666,81920,-9223372036854775807,0,11,22,1234,1,7,"
              "error,5,,,,,2000,3,0,0,,0\n");
}
END_TEST

/* The power cut's row, as trace/cut.h spells it out: one instant in
 * the three times, no extent, costs 0, outcome powercut, the four
 * figures, then the instant again as dispatch_ns and drive_queue 0.
 */
START_TEST (test_cut_line)
{
  const struct trace_cut c = {
    .id = 460, .t_ns = 13430216476, .lost_extents = 2,
    .lost_bytes = 98304, .flushes_done = 162, .fua_writes_done = 7,
  };
  static const char expected[] =
    "460,0,powercut,0,0,13430216476,13430216476,13430216476,"
    "0,0,0,,0,0,0,0,0,0,powercut,0,2,98304,162,7,13430216476,0,0,0,,0\n";
  char buf[TRACE_LINE_MAX];
  size_t n = trace_format_cut (buf, &c);

  ck_assert_msg (n == strlen (expected) && memcmp (buf, expected, n) == 0,
                 "got \"%.*s\", expected \"%s\"", (int) n, buf, expected);
}
END_TEST

/* A fault's row, as trace/fault_row.h spells it out, and the reader
 * skips it: it is no request.
 */
START_TEST (test_fault_line)
{
  struct trace_fault f = { .id = 12, .t_ns = 500000000 };
  static const char expected[] =
    "12,0,fault,0,0,500000000,500000000,500000000,"
    "0,0,0,,0,0,0,0,0,0,fault,0,,,,,500000000,0,0,0,slow:3@at:500ms,0\n";
  char buf[TRACE_LINE_MAX], path[] = "/tmp/hddsim-fault-XXXXXX";
  char err[TRACE_ERRLEN];
  struct trace_row *rows;
  size_t n;
  FILE *fp;

  snprintf (f.what, sizeof f.what, "slow:3@at:500ms");
  n = trace_format_fault (buf, &f);
  ck_assert_msg (n == strlen (expected) && memcmp (buf, expected, n) == 0,
                 "got \"%.*s\", expected \"%s\"", (int) n, buf, expected);
  fp = fdopen (mkstemp (path), "w");
  ck_assert_ptr_nonnull (fp);
  fwrite (buf, 1, trace_format_header (buf), fp);
  fwrite (expected, 1, strlen (expected), fp);
  fclose (fp);
  ck_assert_int_eq (trace_read (path, &rows, err, sizeof err), 0);
  free (rows);
  unlink (path);
}
END_TEST

/* A temporary trace (PATH, a mkstemp template) with the header and
 * the row of T written, left open for more.
 */
static FILE *
trace_file_started (char *path, const struct trace_record *t)
{
  char buf[TRACE_LINE_MAX];
  int fd = mkstemp (path);
  FILE *fp = fdopen (fd, "w");

  ck_assert_ptr_nonnull (fp);
  fwrite (buf, 1, trace_format_header (buf), fp);
  fwrite (buf, 1, trace_format_line (buf, t), fp);
  return fp;
}

/* A clean step's row, as trace/clean_row.h spells it out, and the
 * reader skips it: it is no request.
 */
START_TEST (test_clean_line)
{
  const struct trace_clean c = {
    .start_ns = 3000000000, .end_ns = 3512000000,
    .offset = 41943040, .length = 41943040, .extents = 12,
    .staged_bytes = 49152, .forced = true,
  };
  static const char expected[] =
    "0,0,clean,41943040,41943040,3000000000,3000000000,3512000000,"
    "0,0,0,,0,0,0,0,0,0,clean,0,,,,,3000000000,0,0,0,"
    "forced extents=12 staged=49152,0\n";
  char buf[TRACE_LINE_MAX], path[] = "/tmp/hddsim-clean-XXXXXX";
  char err[TRACE_ERRLEN];
  struct trace_record t = sample ();
  struct trace_row *rows;
  size_t n;
  FILE *fp;

  n = trace_format_clean (buf, &c);
  ck_assert_msg (n == strlen (expected) && memcmp (buf, expected, n) == 0,
                 "got \"%.*s\", expected \"%s\"", (int) n, buf, expected);
  fp = trace_file_started (path, &t);
  fwrite (expected, 1, strlen (expected), fp);
  fclose (fp);
  ck_assert_msg (trace_read (path, &rows, err, sizeof err) == 1, "%s", err);
  ck_assert_uint_eq (rows[0].id, 42);
  free (rows);
  unlink (path);
}
END_TEST

/* A trace with a request, the cut and a request failed by it: the
 * reader gives the two requests as rows and the cut apart, with every
 * figure written.
 */
START_TEST (test_reader_reads_the_cut)
{
  char path[] = "/tmp/hddsim-trace-format-XXXXXX", buf[TRACE_LINE_MAX];
  const struct trace_cut c = {
    .id = 44, .t_ns = 20000000, .lost_extents = 3, .lost_bytes = 12288,
    .flushes_done = 1, .fua_writes_done = UINT64_MAX,
  };
  struct trace_record t = sample ();
  struct trace_row *rows;
  struct trace_cut got;
  char err[TRACE_ERRLEN];
  FILE *fp = trace_file_started (path, &t);

  fwrite (buf, 1, trace_format_cut (buf, &c), fp);
  t.id = 43;
  t.late_ns = TRACE_LATE_NONE;
  t.outcome = OUTCOME_POWERCUT;
  fwrite (buf, 1, trace_format_line (buf, &t), fp);
  fclose (fp);
  ck_assert_msg (trace_read (path, &rows, err, sizeof err) == 2, "%s", err);
  ck_assert_uint_eq (rows[0].id, 42);
  ck_assert_uint_eq (rows[1].id, 43);
  ck_assert_str_eq (rows[1].outcome, "powercut");
  free (rows);
  ck_assert_msg (trace_read_cut (path, &got, err, sizeof err) == 1, "%s", err);
  unlink (path);
  ck_assert_uint_eq (got.id, 44);
  ck_assert_uint_eq (got.t_ns, 20000000);
  ck_assert_uint_eq (got.lost_extents, 3);
  ck_assert_uint_eq (got.lost_bytes, 12288);
  ck_assert_uint_eq (got.flushes_done, 1);
  ck_assert_uint_eq (got.fua_writes_done, UINT64_MAX);
}
END_TEST

START_TEST (test_reader_reads_what_is_written)
{
  char path[] = "/tmp/hddsim-trace-format-XXXXXX", buf[TRACE_LINE_MAX];
  struct trace_record t = sample ();
  struct trace_row *rows;
  char err[TRACE_ERRLEN];
  FILE *fp = trace_file_started (path, &t);

  t.id = 43;                    /* ids are unique in a trace */
  t.late_ns = TRACE_LATE_NONE;
  t.outcome = OUTCOME_ABORTED;
  fwrite (buf, 1, trace_format_line (buf, &t), fp);
  fclose (fp);
  ck_assert_msg (trace_read (path, &rows, err, sizeof err) == 2, "%s", err);
  unlink (path);
  ck_assert_uint_eq (rows[0].id, 42);
  ck_assert_uint_eq (rows[0].conn, 3);
  ck_assert_str_eq (rows[0].op, "write");
  ck_assert_uint_eq (rows[0].offset, 1048576);
  ck_assert_uint_eq (rows[0].length, 4096);
  ck_assert_uint_eq (rows[0].arrival, 1000);
  ck_assert_uint_eq (rows[0].start, 2500);
  ck_assert_uint_eq (rows[0].done, 12345678);
  ck_assert_uint_eq (rows[0].seek_ns, 3000000);
  ck_assert_uint_eq (rows[0].rot_ns, 4166666);
  ck_assert_uint_eq (rows[0].xfer_ns, 81920);
  ck_assert_int_eq (rows[0].late_ns, 57);
  ck_assert (rows[0].fua);
  ck_assert_uint_eq (rows[0].queue_len, 7);
  ck_assert_str_eq (rows[0].outcome, "ok");
  ck_assert_int_eq (rows[1].late_ns, -1);
  ck_assert_str_eq (rows[1].outcome, "aborted");
  free (rows);
}
END_TEST

static Suite *
trace_format_suite (void)
{
  Suite *s = suite_create ("trace format");
  TCase *tc = tcase_create ("format");

  tcase_add_test (tc, test_header);
  tcase_add_test (tc, test_delivered_line);
  tcase_add_test (tc, test_number_edges);
  tcase_add_test (tc, test_undelivered_and_extremes);
  tcase_add_test (tc, test_reader_reads_what_is_written);
  tcase_add_test (tc, test_cut_line);
  tcase_add_test (tc, test_fault_line);
  tcase_add_test (tc, test_clean_line);
  tcase_add_test (tc, test_reader_reads_the_cut);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (trace_format_suite ());
}
