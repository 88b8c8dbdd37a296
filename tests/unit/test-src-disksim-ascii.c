/* hddsim: unit tests of the DiskSim ascii trace source
 * (trace/src_disksim_ascii.c).
 *
 * DiskSim 4.0 manual, 4.1.1: "TIME DEVICE BLKNO BCOUNT FLAGS", time in
 * milliseconds, blocks of 512 bytes, flags in hex with bit 0 = read.
 * So an arrival is (TIME - the first's) x 10^6 ns, an offset BLKNO x
 * 512 and a length BCOUNT x 512.
 */

#include <check.h>

#include "run-suite.h"
#include "test-src.h"

START_TEST (test_requests)
{
  int n = src_read ("0.000000 0 1000 8 1\n"
                    "  1.5\t0  2048  16  0x0\n"
                    "\n"
                    "2.0000005 0 0 1 3\n"
                    "12 0 4 2 10\n", "disksim-ascii");

  ck_assert_msg (n == 4, "%d: %s", n, src_err);
  /* 1000 x 512 = 512000; 8 x 512 = 4096; flags 1: read */
  src_assert_req (&reqs[0], IO_READ, false, 512000, 4096, 0, 1);
  ck_assert_str_eq (reqs[0].device, "0");
  ck_assert_uint_eq (reqs[0].stream, 0);
  ck_assert_uint_eq (reqs[0].measured_ns, 0);
  /* 1.5 ms; 2048 x 512 = 1048576; flags 0: write */
  src_assert_req (&reqs[1], IO_WRITE, false, 1048576, 8192, 1500000, 2);
  /* 2.0000005 ms = 2000000.5 ns, rounded up; flags 3: bit 0 set */
  src_assert_req (&reqs[2], IO_READ, false, 0, 512, 2000001, 4);
  /* flags 0x10: bit 0 clear, a write */
  src_assert_req (&reqs[3], IO_WRITE, false, 2048, 1024, 12000000, 5);
}
END_TEST

START_TEST (test_devices)
{
  static const char text[] = "0.0 1 0 8 1\n0.5 2 0 8 1\n1.0 1 8 8 1\n";

  src_assert_error (src_read (text, "disksim-ascii"), 2, "device 2, but "
                    "line 1's was for 1");
  ck_assert_int_eq (src_read_opts (text, "disksim-ascii",
                                   &(struct trace_source_opts)
                                   { .device = "1" }), 2);
  src_assert_req (&reqs[1], IO_READ, false, 4096, 4096, 1000000, 3);
  ck_assert_int_eq (src_read_opts (text, "disksim-ascii",
                                   &(struct trace_source_opts)
                                   { .device = "2" }), 1);
  ck_assert_uint_eq (reqs[0].stream, 2);
}
END_TEST

START_TEST (test_errors)
{
  src_assert_error (src_read ("0.0 0 0 8\n", "disksim-ascii"), 1,
                    "fewer than 5 fields");
  src_assert_error (src_read ("0.0 0 0 8 1 7\n", "disksim-ascii"), 1,
                    "more than 5 fields");
  src_assert_error (src_read ("-1.0 0 0 8 1\n", "disksim-ascii"), 1,
                    "time '-1.0'");
  src_assert_error (src_read ("1e3 0 0 8 1\n", "disksim-ascii"), 1,
                    "time '1e3'");
  src_assert_error (src_read ("1.0.0 0 0 8 1\n", "disksim-ascii"), 1,
                    "time '1.0.0'");
  src_assert_error (src_read ("0.0 x 0 8 1\n", "disksim-ascii"), 1,
                    "device 'x'");
  src_assert_error (src_read ("0.0 2147483648 0 8 1\n", "disksim-ascii"), 1,
                    "device '2147483648'");
  src_assert_error (src_read ("0.0 0 -5 8 1\n", "disksim-ascii"), 1,
                    "blkno '-5'");
  /* 2^55 blocks are 2^64 bytes */
  src_assert_error (src_read ("0.0 0 36028797018963968 8 1\n",
                              "disksim-ascii"), 1, "blkno");
  src_assert_error (src_read ("0.0 0 36028797018963967 8 1\n",
                              "disksim-ascii"), 1, "the extent wraps");
  src_assert_error (src_read ("0.0 0 0 0 1\n", "disksim-ascii"), 1,
                    "bcount '0'");
  src_assert_error (src_read ("0.0 0 0 2147483648 1\n", "disksim-ascii"),
                    1, "bcount '2147483648'");
  src_assert_error (src_read ("0.0 0 0 8 0xg\n", "disksim-ascii"), 1,
                    "flags '0xg'");
  src_assert_error (src_read ("0.0 0 0 8 0x\n", "disksim-ascii"), 1,
                    "flags '0x'");
  /* 2^62 ns is 4611686018427.387904 ms */
  ck_assert_int_eq (src_read ("4611686018427.387904 0 0 8 1\n",
                              "disksim-ascii"), 1);
  src_assert_error (src_read ("4611686018427.387905 0 0 8 1\n",
                              "disksim-ascii"), 1, "time");
  src_assert_error (src_read ("99999999999999999999 0 0 8 1\n",
                              "disksim-ascii"), 1, "time");
}
END_TEST

/* What every text format's lines get (trace_source.c's line reader). */
START_TEST (test_lines)
{
  static const char nul[] = "0.0 0 0 8 1\n0.5 0\0 0 8 1\n";
  char text[1200];

  ck_assert_int_eq (src_read ("0.0 0 0 8 1\r\n1.0 0 8 8 0\r\n",
                              "disksim-ascii"), 2);
  src_assert_req (&reqs[1], IO_WRITE, false, 4096, 4096, 1000000, 2);
  src_assert_error (src_read ("0.0 0 0 8 1\r\r\n", "disksim-ascii"), 1,
                    "flags '1\r'");
  src_text_len = sizeof nul - 1;
  src_assert_error (src_read (nul, "disksim-ascii"), 2, "a NUL byte");
  /* a 1023-byte line is read, a 1024-byte one is not */
  memset (text, ' ', sizeof text);
  memcpy (text, "0.0 0 0 8 1", 11);
  text[1023] = '\n';
  text[1024] = '\0';
  ck_assert_int_eq (src_read (text, "disksim-ascii"), 1);
  text[1023] = ' ';
  text[1024] = '\n';
  text[1025] = '\0';
  src_assert_error (src_read (text, "disksim-ascii"), 1,
                    "line longer than 1023 bytes");
  /* no newline at the end */
  ck_assert_int_eq (src_read ("0.0 0 0 8 1\n1.0 0 8 8 0", "disksim-ascii"),
                    2);
}
END_TEST

static Suite *
dsa_suite (void)
{
  Suite *s = suite_create ("src_disksim_ascii");
  TCase *tc = tcase_create ("read");

  tcase_add_checked_fixture (tc, src_setup, src_teardown);
  tcase_add_test (tc, test_requests);
  tcase_add_test (tc, test_devices);
  tcase_add_test (tc, test_errors);
  tcase_add_test (tc, test_lines);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (dsa_suite ());
}
