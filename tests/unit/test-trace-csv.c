/* hddsim: unit tests of the trace reader (trace/reader.c).
 *
 * Each test writes a tiny hand-made trace and reads it back.  The
 * good rows are consistent by construction (arrival <= start <= done,
 * seek + rot + xfer within done - start); each bad one breaks one
 * rule, and the error must name the file, the line and the column.
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "run-suite.h"

#include "../../trace/reader.h"

#define HEADER "id,conn,op,offset,length,arrival_ns,start_ns,done_ns," \
  "seek_ns,rot_ns,xfer_ns,late_ns,fua,busy_ns,overhead_ns,seek_cyl," \
  "cache_hit,queue_len,outcome\n"

/* Two good rows: a read served in 7 us of which 6 us are seek,
 * rotation and transfer, and a FUA write that arrived while it ran.
 */
#define ROW1 "1,0,read,4096,4096,1000,2000,9000,3000,2000,1000,50,0,0,1000," \
  "10,0,1,ok\n"
#define ROW2 "2,3,write,0,512,1500,9000,12000,1000,1000,1000,,1,0,0,0,0," \
  "2,aborted\n"

static char dir[] = "/tmp/hddsim-test-trace-XXXXXX";
static char path[64];
static char err[TRACE_ERRLEN];
static struct trace_row *rows;

static void
setup (void)
{
  ck_assert_ptr_nonnull (mkdtemp (dir));
  snprintf (path, sizeof path, "%s/t.csv", dir);
  rows = NULL;
  err[0] = '\0';
}

static void
teardown (void)
{
  free (rows);
  unlink (path);
  rmdir (dir);
  strcpy (dir + strlen (dir) - 6, "XXXXXX");
}

static long
read_text (const char *text)
{
  FILE *fp = fopen (path, "w");

  ck_assert_ptr_nonnull (fp);
  fputs (text, fp);
  ck_assert_int_eq (fclose (fp), 0);
  free (rows);
  return trace_read (path, &rows, err, sizeof err);
}

/* ROW1 then ROW2 with one column of ROW2 (line 3) replaced. */
static long
read_with (const char *col, const char *value)
{
  static const char *const cols[] = {
    "id", "conn", "op", "offset", "length", "arrival_ns", "start_ns",
    "done_ns", "seek_ns", "rot_ns", "xfer_ns", "late_ns", "fua", "busy_ns",
    "overhead_ns", "seek_cyl", "cache_hit", "queue_len", "outcome",
  };
  char row2[] = ROW2, text[1024], *f[19];
  size_t used, i;

  row2[strlen (row2) - 1] = '\0';
  /* strtok would skip the empty late_ns: split by hand */
  f[0] = row2;
  for (i = 1; i < 19; i++) {
    f[i] = strchr (f[i - 1], ',');
    ck_assert_ptr_nonnull (f[i]);
    *f[i]++ = '\0';
  }
  used = (size_t) snprintf (text, sizeof text, HEADER ROW1);
  for (i = 0; i < 19; i++)
    used += (size_t) snprintf (text + used, sizeof text - used, "%s%s",
                               i ? "," : "",
                               strcmp (cols[i], col) == 0 ? value : f[i]);
  snprintf (text + used, sizeof text - used, "\n");
  return read_text (text);
}

/* The read failed and err says where and what. */
static void
assert_error (long n, unsigned line, const char *what)
{
  char where[96];

  ck_assert_int_eq (n, -1);
  ck_assert_ptr_null (rows);
  snprintf (where, sizeof where, "%s:%u: ", path, line);
  ck_assert_msg (strncmp (err, where, strlen (where)) == 0,
                 "'%s' does not start with '%s'", err, where);
  ck_assert_msg (strstr (err, what) != NULL, "'%s' does not say '%s'",
                 err, what);
}

START_TEST (test_good_rows)
{
  long n = read_text (HEADER ROW1 ROW2);

  ck_assert_msg (n == 2, "%s", err);
  ck_assert_uint_eq (rows[0].id, 1);
  ck_assert_int_eq (rows[0].io_op, IO_READ);
  ck_assert_uint_eq (rows[0].offset, 4096);
  ck_assert_uint_eq (rows[0].length, 4096);
  ck_assert_uint_eq (rows[0].arrival, 1000);
  ck_assert_uint_eq (rows[0].start, 2000);
  ck_assert_uint_eq (rows[0].done, 9000);
  ck_assert_uint_eq (rows[0].seek_ns, 3000);
  ck_assert_int_eq (rows[0].late_ns, 50);
  ck_assert_uint_eq (rows[0].queue_len, 1);
  ck_assert_str_eq (rows[0].outcome, "ok");
  ck_assert_uint_eq (rows[0].line, 2);
  ck_assert_uint_eq (rows[1].conn, 3);
  ck_assert_int_eq (rows[1].io_op, IO_WRITE);
  ck_assert (rows[1].fua);
  ck_assert_int_eq (rows[1].late_ns, -1);
  ck_assert_str_eq (rows[1].outcome, "aborted");
  ck_assert_uint_eq (rows[1].line, 3);
}
END_TEST

/* Columns in another order, CRLF line ends, a blank line at the end. */
START_TEST (test_by_name_crlf_blank)
{
  long n = read_text ("outcome,id,conn,op,offset,length,arrival_ns,"
                      "start_ns,done_ns,seek_ns,rot_ns,xfer_ns,late_ns,fua,"
                      "queue_len\r\n"
                      "ok,7,0,flush,0,0,10,20,30,0,0,0,5,0,4\r\n\r\n");

  ck_assert_msg (n == 1, "%s", err);
  ck_assert_uint_eq (rows[0].id, 7);
  ck_assert_int_eq (rows[0].io_op, IO_FLUSH);
  ck_assert_uint_eq (rows[0].queue_len, 4);
}
END_TEST

START_TEST (test_header_only)
{
  ck_assert_int_eq (read_text (HEADER), 0);
}
END_TEST

START_TEST (test_unknown_op)
{
  assert_error (read_with ("op", "scribble"), 3, "op=scribble");
  assert_error (read_with ("op", ""), 3, "unknown operation");
  assert_error (read_with ("op", "READ"), 3, "op=READ");
}
END_TEST

START_TEST (test_outcome)
{
  assert_error (read_with ("outcome", "fine"), 3, "outcome=fine");
}
END_TEST

/* strtoull would read all of these as numbers. */
START_TEST (test_numbers)
{
  assert_error (read_with ("offset", "18446744073709551616"), 3, "offset=");
  assert_error (read_with ("offset", "-1"), 3, "offset=-1");
  assert_error (read_with ("offset", " 12"), 3, "offset= 12");
  assert_error (read_with ("offset", "12x"), 3, "offset=12x");
  assert_error (read_with ("offset", ""), 3, "offset=:");
  assert_error (read_with ("length", "0x10"), 3, "length=0x10");
  assert_error (read_with ("id", "1e3"), 3, "id=1e3");
  assert_error (read_with ("conn", "4294967296"), 3, "conn=4294967296");
  assert_error (read_with ("queue_len", "4294967296"), 3, "queue_len=");
  assert_error (read_with ("fua", "2"), 3, "fua=2");
  assert_error (read_with ("late_ns", "--5"), 3, "late_ns=--5");
  assert_error (read_with ("late_ns", "9223372036854775808"), 3, "late_ns=");
  ck_assert_int_eq (read_with ("conn", "4294967295"), 2);
  ck_assert_uint_eq (rows[1].conn, UINT32_MAX);
  ck_assert_int_eq (read_with ("late_ns", "-7"), 2);
  ck_assert_int_eq (rows[1].late_ns, -7);
}
END_TEST

/* Digits read as the row is split: up to 19 at once (10^19 - 1 fits),
 * 20 and more, or anything else, exactly as parse_uint says.
 */
START_TEST (test_digit_counts)
{
  ck_assert_int_eq (read_with ("id", "9999999999999999999"), 2);
  ck_assert_uint_eq (rows[1].id, UINT64_C(9999999999999999999));
  ck_assert_int_eq (read_with ("id", "18446744073709551615"), 2);
  ck_assert_uint_eq (rows[1].id, UINT64_MAX);
  ck_assert_int_eq (read_with ("id", "10000000000000000000"), 2);
  ck_assert_uint_eq (rows[1].id, UINT64_C(10000000000000000000));
  /* 24 digits, all but the last zeros: 7 */
  ck_assert_int_eq (read_with ("offset", "000000000000000000000007"), 2);
  ck_assert_uint_eq (rows[1].offset, 7);
  ck_assert_int_eq (read_with ("id", "1234567890123456789"), 2);
  ck_assert_uint_eq (rows[1].id, UINT64_C(1234567890123456789));
  /* above 2^64 - 1 by 10^19: wraps to a value that fits if summed
     blindly */
  assert_error (read_with ("id", "28446744073709551615"), 3,
                "id=28446744073709551615");
  assert_error (read_with ("offset", "184467440737095516150"), 3, "offset=");
  assert_error (read_with ("length", "4096 "), 3, "length=4096 ");
  assert_error (read_with ("length", "40a96"), 3, "length=40a96");
}
END_TEST

/* The reader cuts lines from a 64 KiB buffer: rows of every length
 * from 60 to 119 bytes (ids padded with leading zeros), 3000 of them
 * (about 270 KiB), so that lines straddle the buffer's refills at
 * every offset; each must come back whole.
 */
START_TEST (test_buffer_boundaries)
{
  FILE *fp = fopen (path, "w");
  long i, n = 3000;

  ck_assert_ptr_nonnull (fp);
  fputs (HEADER, fp);
  for (i = 0; i < n; i++)
    fprintf (fp, "%0*ld,%ld,write,%ld,512,%ld,%ld,%ld,0,0,0,,0,0,0,0,0,0,ok\n",
             (int) (1 + i % 60), i + 1, i % 7, i * 4096, i * 10, i * 10 + 5,
             i * 10 + 9);
  ck_assert_int_eq (fclose (fp), 0);
  ck_assert_int_eq (trace_read (path, &rows, err, sizeof err), n);
  for (i = 0; i < n; i++) {
    ck_assert_uint_eq (rows[i].id, (uint64_t) i + 1);
    ck_assert_uint_eq (rows[i].conn, (uint64_t) (i % 7));
    ck_assert_uint_eq (rows[i].offset, (uint64_t) i * 4096);
    ck_assert_uint_eq (rows[i].done, (uint64_t) i * 10 + 9);
    ck_assert_uint_eq (rows[i].line, (unsigned long) i + 2);
  }
}
END_TEST

/* A last row without its newline is a row. */
START_TEST (test_no_final_newline)
{
  char text[512];

  snprintf (text, sizeof text, HEADER ROW1 "%.*s", (int) strlen (ROW2) - 1,
            ROW2);
  ck_assert_int_eq (read_text (text), 2);
  ck_assert_uint_eq (rows[1].id, 2);
  ck_assert_str_eq (rows[1].outcome, "aborted");
}
END_TEST

/* A line of 1022 bytes is read (ROW1 with its id padded by zeros), one
 * of 1023 is too long.
 */
START_TEST (test_line_length_limit)
{
  char text[2048];
  int pad = 1022 - ((int) strlen (ROW1) - 1);

  snprintf (text, sizeof text, HEADER "%0*d" ROW1, pad, 0);
  ck_assert_int_eq (strlen (text) - strlen (HEADER), 1023);
  ck_assert_int_eq (read_text (text), 1);
  ck_assert_uint_eq (rows[0].id, 1);
  snprintf (text, sizeof text, HEADER "%0*d" ROW1, pad + 1, 0);
  assert_error (read_text (text), 2, "line longer than 1022 bytes");
}
END_TEST

/* The examples: an arrival of 2^64-1, a length of 2^64-1. */
START_TEST (test_absurd_times)
{
  char v[32];

  assert_error (read_with ("arrival_ns", "18446744073709551615"), 3,
                "arrival_ns=18446744073709551615");
  /* the same with a start and done after it */
  assert_error (read_text (HEADER "9,0,read,0,512,18446744073709551615,"
                           "18446744073709551615,18446744073709551615,"
                           "0,0,0,,0,0,0,0,0,0,ok\n"), 2,
                "arrival_ns=18446744073709551615");
  snprintf (v, sizeof v, "%" PRIu64, TRACE_TIME_MAX + 1);
  assert_error (read_with ("done_ns", v), 3, "done_ns=");
  snprintf (v, sizeof v, "%" PRIu64, TRACE_TIME_MAX);
  ck_assert_msg (read_with ("done_ns", v) == 2, "%s", err);
}
END_TEST

START_TEST (test_timeline)
{
  /* ROW2 arrives at 1500 and starts at 9000, done at 12000 */
  assert_error (read_with ("start_ns", "1499"), 3, "arrival <= start");
  assert_error (read_with ("done_ns", "8999"), 3, "start <= done");
  /* seek + rot + xfer = 3000 = done - start: one more is too much */
  assert_error (read_with ("xfer_ns", "1001"), 3, "more than the service");
  ck_assert_int_eq (read_with ("xfer_ns", "1000"), 2);
}
END_TEST

START_TEST (test_extent)
{
  /* 1 + (2^64 - 1) wraps to 0 */
  assert_error (read_text (HEADER "9,0,read,1,18446744073709551615,0,0,"
                           "0,0,0,0,,0,0,0,0,0,0,ok\n"), 2, "wraps");
  assert_error (read_with ("op", "flush"), 3, "a flush with");
  /* a read with FUA: ROW2 has fua=1 */
  assert_error (read_with ("op", "read"), 3, "fua=1 on a read");
}
END_TEST

START_TEST (test_extents_in_image)
{
  /* ROW1 ends at 8192, ROW2 at 512 */
  ck_assert_int_eq (read_text (HEADER ROW1 ROW2), 2);
  ck_assert_int_eq (trace_check_extents (path, rows, 2, 8192, err,
                                         sizeof err), 0);
  ck_assert_int_eq (trace_check_extents (path, rows, 2, 8191, err,
                                         sizeof err), -1);
  ck_assert_msg (strstr (err, ":2: read at offset=4096 length=4096")
                 && strstr (err, "size=8191"), "%s", err);
  /* the length of 2^64-1, at offset 0: it does not wrap, but
     it ends beyond any image */
  ck_assert_int_eq (read_text (HEADER "9,0,read,0,18446744073709551615,0,0,"
                               "0,0,0,0,,0,0,0,0,0,0,ok\n"), 1);
  ck_assert_int_eq (trace_check_extents (path, rows, 1, UINT64_C(1) << 40,
                                         err, sizeof err), -1);
  ck_assert_msg (strstr (err, ":2: ") != NULL, "%s", err);
}
END_TEST

START_TEST (test_duplicate_id)
{
  assert_error (read_with ("id", "1"), 3, "repeats the id of line 2");
}
END_TEST

START_TEST (test_shape)
{
  assert_error (read_text (HEADER ROW1 "2,3,write\n"), 3,
                "3 fields, expected 19");
  assert_error (read_text (HEADER "\n" ROW1 "1,2\n"), 4, "2 fields");
  assert_error (read_text ("id,conn,op\n" ROW1), 1, "no column 'offset'");
  assert_error (read_text (""), 1, "empty file");
}
END_TEST

START_TEST (test_long_line)
{
  char text[4096];

  snprintf (text, sizeof text, HEADER ROW1 "%02000d\n", 0);
  assert_error (read_text (text), 3, "longer than");
}
END_TEST

/* ---- the power cut's row (powercut=) ---- */

/* A trace as the plugin writes it since the cut has a row: the power
 * cut's four columns appended, empty on the requests' rows.
 */
#define CUT_HEADER "id,conn,op,offset,length,arrival_ns,start_ns,done_ns," \
  "seek_ns,rot_ns,xfer_ns,late_ns,fua,busy_ns,overhead_ns,seek_cyl," \
  "cache_hit,queue_len,outcome,lost_extents,lost_bytes,flushes_done," \
  "fua_writes_done\n"
#define CUT_ROW1 "1,0,read,4096,4096,1000,2000,9000,3000,2000,1000,50,0,0," \
  "1000,10,0,1,ok,,,,\n"
/* The write was on the drive at the cut (10000 ns): failed by it. */
#define CUT_ROW2 "2,3,write,0,512,1500,9000,12000,1000,1000,1000,,1,0,0,0," \
  "0,2,powercut,,,,\n"

/* The cut's row with its fields from 'at' on replaced by 'tail'
 * (arrival_ns ... fua_writes_done of a good cut at 10000 ns, 3 extents
 * of 12288 bytes lost, 4 flushes and 5 FUA writes done).
 */
static long
read_cut (const char *id_op, const char *times, const char *tail)
{
  char text[1024];

  snprintf (text, sizeof text, CUT_HEADER CUT_ROW1 "%s,0,0,%s,0,0,0,,0,0,0,"
            "0,0,0,%s\n" CUT_ROW2, id_op, times, tail);
  return read_text (text);
}

#define GOOD_TIMES "10000,10000,10000"
#define GOOD_TAIL "powercut,3,12288,4,5"

START_TEST (test_cut_row)
{
  struct trace_cut c;
  long n = read_cut ("3,0,powercut", GOOD_TIMES, GOOD_TAIL);

  /* the two requests are the rows; the cut is not one of them */
  ck_assert_msg (n == 2, "%s", err);
  ck_assert_uint_eq (rows[0].id, 1);
  ck_assert_uint_eq (rows[1].id, 2);
  ck_assert_uint_eq (rows[1].line, 4);
  ck_assert_str_eq (rows[1].outcome, "powercut");
  ck_assert_int_eq (trace_read_cut (path, &c, err, sizeof err), 1);
  ck_assert_uint_eq (c.id, 3);
  ck_assert_uint_eq (c.t_ns, 10000);
  ck_assert_uint_eq (c.lost_extents, 3);
  ck_assert_uint_eq (c.lost_bytes, 12288);
  ck_assert_uint_eq (c.flushes_done, 4);
  ck_assert_uint_eq (c.fua_writes_done, 5);
  /* a trace without a cut, with or without the cut's columns */
  ck_assert_int_eq (read_text (CUT_HEADER CUT_ROW1), 1);
  ck_assert_int_eq (trace_read_cut (path, &c, err, sizeof err), 0);
  ck_assert_int_eq (read_text (HEADER ROW1), 1);
  ck_assert_int_eq (trace_read_cut (path, &c, err, sizeof err), 0);
}
END_TEST

/* The streaming reader skips it too, and says it saw it. */
START_TEST (test_cut_row_streaming)
{
  struct trace_reader *t;
  struct trace_row r;
  struct trace_cut c;

  ck_assert_int_eq (read_cut ("3,0,powercut", GOOD_TIMES, GOOD_TAIL), 2);
  t = trace_reader_open (path, err, sizeof err);
  ck_assert_ptr_nonnull (t);
  ck_assert_int_eq (trace_reader_next (t, &r, err, sizeof err), 1);
  ck_assert_uint_eq (r.id, 1);
  ck_assert (!trace_reader_cut (t, &c));
  ck_assert_int_eq (trace_reader_next (t, &r, err, sizeof err), 1);
  ck_assert_uint_eq (r.id, 2);
  ck_assert (trace_reader_cut (t, &c));
  ck_assert_uint_eq (c.t_ns, 10000);
  ck_assert_int_eq (trace_reader_next (t, &r, err, sizeof err), 0);
  trace_reader_close (t);
}
END_TEST

/* Each breaks one rule of the cut's row (line 3). */
START_TEST (test_cut_row_errors)
{
  char text[1024];

  assert_error (read_cut ("3,0,powercut", GOOD_TIMES, "ok,3,12288,4,5"), 3,
                "outcome=ok");
  assert_error (read_cut ("3,0,powercut", "10000,10000,10001", GOOD_TAIL), 3,
                "one instant");
  assert_error (read_cut ("3,0,powercut", "9999,10000,10000", GOOD_TAIL), 3,
                "one instant");
  assert_error (read_cut ("3,0,powercut", GOOD_TIMES, "powercut,3,1000,4,5"),
                3, "lost_bytes=1000: not whole");
  assert_error (read_cut ("3,0,powercut", GOOD_TIMES, "powercut,0,512,4,5"),
                3, "lost_extents=0 with lost_bytes=512");
  assert_error (read_cut ("3,0,powercut", GOOD_TIMES, "powercut,3,1024,4,5"),
                3, "lost_extents=3 with lost_bytes=1024");
  assert_error (read_cut ("3,0,powercut", GOOD_TIMES, "powercut,3,12288,,5"),
                3, "flushes_done=:");
  assert_error (read_cut ("3,0,powercut", GOOD_TIMES, "powercut,-1,12288,4,5"),
                3, "lost_extents=-1");
  /* its id is the next request's: no request has it */
  assert_error (read_cut ("2,0,powercut", GOOD_TIMES, GOOD_TAIL), 3,
                "id=2 of the power cut repeats the id of line 4");
  /* an extent */
  snprintf (text, sizeof text, CUT_HEADER "3,0,powercut,0,512,10000,10000,"
            "10000,0,0,0,,0,0,0,0,0,0," GOOD_TAIL "\n");
  assert_error (read_text (text), 2, "the cut has no extent");
  /* two cuts */
  snprintf (text, sizeof text, CUT_HEADER "3,0,powercut,0,0,10000,10000,"
            "10000,0,0,0,,0,0,0,0,0,0," GOOD_TAIL "\n"
            "4,0,powercut,0,0,10000,10000,10000,0,0,0,,0,0,0,0,0,0,"
            GOOD_TAIL "\n");
  assert_error (read_text (text), 3, "a second power cut (the first is on "
                "line 2)");
  /* a trace without the cut's columns cannot hold a cut */
  assert_error (read_text (HEADER "3,0,powercut,0,0,10000,10000,10000,0,0,"
                           "0,,0,0,0,0,0,0,powercut\n"), 2,
                "no column 'lost_extents' in the header");
  /* a request's row leaves them empty */
  assert_error (read_text (CUT_HEADER "1,0,read,4096,4096,1000,2000,9000,"
                           "3000,2000,1000,50,0,0,1000,10,0,1,ok,,512,,\n"),
                2, "lost_bytes=512 on a read row");
}
END_TEST

START_TEST (test_missing_file)
{
  ck_assert_int_eq (trace_read ("/nonexistent/t.csv", &rows, err,
                                sizeof err), -1);
  ck_assert_str_eq (err, "/nonexistent/t.csv: No such file or directory");
}
END_TEST

static Suite *
trace_suite (void)
{
  Suite *s = suite_create ("trace_csv");
  TCase *tc = tcase_create ("read");

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_good_rows);
  tcase_add_test (tc, test_by_name_crlf_blank);
  tcase_add_test (tc, test_header_only);
  tcase_add_test (tc, test_unknown_op);
  tcase_add_test (tc, test_outcome);
  tcase_add_test (tc, test_numbers);
  tcase_add_test (tc, test_digit_counts);
  tcase_add_test (tc, test_buffer_boundaries);
  tcase_add_test (tc, test_no_final_newline);
  tcase_add_test (tc, test_line_length_limit);
  tcase_add_test (tc, test_absurd_times);
  tcase_add_test (tc, test_timeline);
  tcase_add_test (tc, test_extent);
  tcase_add_test (tc, test_extents_in_image);
  tcase_add_test (tc, test_duplicate_id);
  tcase_add_test (tc, test_shape);
  tcase_add_test (tc, test_long_line);
  tcase_add_test (tc, test_missing_file);
  tcase_add_test (tc, test_cut_row);
  tcase_add_test (tc, test_cut_row_streaming);
  tcase_add_test (tc, test_cut_row_errors);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (trace_suite ());
}
