/* hddsim: unit tests of the fio iolog trace source (trace/src_fio.c).
 *
 * fio's HOWTO, "Trace file format": v2 lines are "FILENAME ACTION
 * [OFFSET LENGTH]", v3 lines start with a timestamp in microseconds
 * (fio's log_io_u writes utime_since_now).  Offsets and lengths are
 * bytes; arrivals are (timestamp - the first request's) x 1000 ns.
 */

#include <check.h>

#include "run-suite.h"
#include "test-src.h"

START_TEST (test_v3)
{
  int n = src_read ("fio version 3 iolog\n"
                    "25 /dev/nbd0 add\n"
                    "135 /dev/nbd0 open\n"
                    "138 /dev/nbd0 read 0 4096\n"
                    "162 /dev/nbd0 write 45056 8192\n"
                    "170 /dev/nbd0 trim 1048576 65536\n"
                    "171 /dev/nbd0 sync 0 0\n"
                    "180 /dev/nbd0 datasync 0 0\n"
                    "190 /dev/nbd0 close\n", "fio-iolog");

  ck_assert_msg (n == 5, "%d: %s", n, src_err);
  /* 138 us is time 0; 162 - 138 = 24 us = 24000 ns */
  src_assert_req (&reqs[0], IO_READ, false, 0, 4096, 0, 4);
  ck_assert (reqs[0].has_arrival);
  ck_assert_str_eq (reqs[0].device, "/dev/nbd0");
  ck_assert_uint_eq (reqs[0].stream, 0);
  src_assert_req (&reqs[1], IO_WRITE, false, 45056, 8192, 24000, 5);
  src_assert_req (&reqs[2], IO_TRIM, false, 1048576, 65536, 32000, 6);
  src_assert_req (&reqs[3], IO_FLUSH, false, 0, 0, 33000, 7);
  src_assert_req (&reqs[4], IO_FLUSH, false, 0, 0, 42000, 8);
}
END_TEST

/* v2: no times (has_arrival false); arrival is the waits before. */
START_TEST (test_v2)
{
  int n = src_read ("fio version 2 iolog\n"
                    "/tmp/a add\n"
                    "/tmp/b add\n"
                    "/tmp/a open\n"
                    "/tmp/a write 4096 4096\n"
                    "/tmp/a wait 150 0\n"
                    "/tmp/a wait 50 0\n"
                    "/tmp/a read 0 512\n", "fio-iolog");

  ck_assert_msg (n == 2, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_WRITE, false, 4096, 4096, 0, 5);
  ck_assert (!reqs[0].has_arrival);
  /* 150 + 50 us of waits */
  src_assert_req (&reqs[1], IO_READ, false, 0, 512, 200000, 8);
  ck_assert (!reqs[1].has_arrival);
}
END_TEST

/* Two files: each its own stream; a second device needs a choice. */
START_TEST (test_files)
{
  static const char text[] = "fio version 3 iolog\n"
    "0 /tmp/a add\n"
    "0 /tmp/b add\n"
    "1 /tmp/a open\n"
    "1 /tmp/b open\n"
    "10 /tmp/b read 0 4096\n"
    "20 /tmp/a read 8192 4096\n";

  src_assert_error (src_read (text, "fio-iolog"), 7, "device /tmp/a, but "
                    "line 6's was for /tmp/b");
  ck_assert_int_eq (src_read_opts (text, "fio-iolog",
                                   &(struct trace_source_opts)
                                   { .device = "/tmp/a" }), 1);
  src_assert_req (&reqs[0], IO_READ, false, 8192, 4096, 0, 7);
  ck_assert_uint_eq (reqs[0].stream, 0);
  ck_assert_int_eq (src_read_opts (text, "fio-iolog",
                                   &(struct trace_source_opts)
                                   { .device = "/tmp/b" }), 1);
  ck_assert_uint_eq (reqs[0].stream, 1);
}
END_TEST

#define V3 "fio version 3 iolog\n0 /f add\n0 /f open\n"

START_TEST (test_errors)
{
  src_assert_error (src_read ("", "fio-iolog"), 1, "empty file");
  src_assert_error (src_read ("fio version 1 iolog\n", "fio-iolog"), 1,
                    "expected 'fio version 2 iolog'");
  src_assert_error (src_read (V3 "5 /f wait 100 0\n", "fio-iolog"), 4,
                    "a wait in a version 3 iolog");
  src_assert_error (src_read (V3 "5 /f scribble 0 1\n", "fio-iolog"), 4,
                    "action 'scribble'");
  src_assert_error (src_read (V3 "5 /f remove\n", "fio-iolog"), 4,
                    "action 'remove' without offset and length");
  src_assert_error (src_read (V3 "5 /g read 0 1\n", "fio-iolog"), 4,
                    "read on '/g', which is not added");
  src_assert_error (src_read (V3 "5 /f close\n6 /f read 0 1\n",
                              "fio-iolog"), 5, "which is not open");
  src_assert_error (src_read (V3 "5 /g open\n", "fio-iolog"), 4,
                    "open of '/g', which was not added");
  src_assert_error (src_read (V3 "x /f read 0 1\n", "fio-iolog"), 4,
                    "timestamp 'x'");
  /* 2^52 us is the most: 2^52 x 1000 ns < 2^62 */
  src_assert_error (src_read (V3 "4503599627370497 /f read 0 1\n",
                              "fio-iolog"), 4, "timestamp '4503599627370497'");
  src_assert_error (src_read (V3 "5 /f read -1 1\n", "fio-iolog"), 4,
                    "offset '-1'");
  src_assert_error (src_read (V3 "5 /f read 0 18446744073709551616\n",
                              "fio-iolog"), 4,
                    "length '18446744073709551616'");
  src_assert_error (src_read (V3 "5 /f read 18446744073709551615 1\n",
                              "fio-iolog"), 4, "the extent wraps");
  src_assert_error (src_read (V3 "5 /f read 0\n", "fio-iolog"), 4,
                    "too few fields");
  src_assert_error (src_read (V3 "5 /f read 0 1 2\n", "fio-iolog"), 4,
                    "too many fields");
  /* device names hold 47 bytes */
  src_assert_error (src_read ("fio version 3 iolog\n0 /"
                              "123456789012345678901234567890123456789012345"
                              "67 add\n", "fio-iolog"), 2,
                    "longer than 47 bytes");
  ck_assert_int_eq (src_read ("fio version 3 iolog\n0 /"
                              "12345678901234567890123456789012345678901234"
                              "56 add\n", "fio-iolog"), 0);
  /* waits of 2^52 us in all, then one more */
  ck_assert_int_eq (src_read ("fio version 2 iolog\n/f add\n/f open\n"
                              "/f wait 4503599627370495 0\n/f wait 1 0\n"
                              "/f read 0 1\n", "fio-iolog"), 1);
  ck_assert_uint_eq (reqs[0].arrival, 0);
  src_assert_error (src_read ("fio version 2 iolog\n/f add\n/f open\n"
                              "/f wait 4503599627370495 0\n/f wait 2 0\n",
                              "fio-iolog"), 5, "more than 2^52 us");
  src_assert_error (src_read ("fio version 2 iolog\n/f add\n/f wait x 0\n",
                              "fio-iolog"), 3, "wait x");
  /* within the window (1) put in order; beyond it an error */
  ck_assert_int_eq (src_read (V3 "9 /f read 0 1\n8 /f read 0 2\n",
                              "fio-iolog"), 2);
  ck_assert_uint_eq (reqs[0].length, 2);
  src_assert_error (src_read_opts (V3 "9 /f read 0 1\n10 /f read 0 1\n"
                                   "8 /f read 0 1\n", "fio-iolog",
                                   &(struct trace_source_opts)
                                   { .window = 1 }), 6, "out of time order");
}
END_TEST

static Suite *
fio_suite (void)
{
  Suite *s = suite_create ("src_fio");
  TCase *tc = tcase_create ("read");

  tcase_add_checked_fixture (tc, src_setup, src_teardown);
  tcase_add_test (tc, test_v3);
  tcase_add_test (tc, test_v2);
  tcase_add_test (tc, test_files);
  tcase_add_test (tc, test_errors);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (fio_suite ());
}
