/* hddsim: unit tests of the SNIA / MSR Cambridge trace source
 * (trace/src_msr.c).
 *
 * The traces' README: Timestamp,Hostname,DiskNumber,Type,Offset,Size,
 * ResponseTime; Timestamp and ResponseTime in Windows filetime units
 * (100 ns ticks).  So an arrival is (Timestamp - the first request's)
 * x 100 ns and a response time ResponseTime x 100 ns.
 */

#include <check.h>

#include "run-suite.h"
#include "test-src.h"

START_TEST (test_requests)
{
  int n = src_read ("128166372003061629,web,2,Read,7014609920,24576,41286\n"
                    "128166372003071629,web,2,Write,512,4096,1\n"
                    "128166372013061629,web,2,Read,0,512,0\n", "msr");

  ck_assert_msg (n == 3, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_READ, false, 7014609920, 24576, 0, 1);
  /* 41286 ticks x 100 ns */
  ck_assert_uint_eq (reqs[0].measured_ns, 4128600);
  ck_assert_str_eq (reqs[0].device, "web_2");
  ck_assert_uint_eq (reqs[0].stream, 0);
  ck_assert (reqs[0].has_arrival);
  /* 10000 ticks later: 1 ms */
  src_assert_req (&reqs[1], IO_WRITE, false, 512, 4096, 1000000, 2);
  ck_assert_uint_eq (reqs[1].measured_ns, 100);
  /* 10^7 ticks later: 1 s */
  src_assert_req (&reqs[2], IO_READ, false, 0, 512, 1000000000, 3);
}
END_TEST

/* The field names as a first line are skipped; two hosts are two
 * streams (and devices: one chosen).
 */
START_TEST (test_header_hosts)
{
  static const char text[] =
    "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
    "100,src1,0,Read,0,512,10\n"
    "150,src2,0,Read,0,512,10\n"
    "200,src1,0,Write,4096,512,10\n";

  src_assert_error (src_read (text, "msr"), 3, "device src2_0, but line "
                    "2's was for src1_0");
  ck_assert_int_eq (src_read_opts (text, "msr", &(struct trace_source_opts)
                                   { .device = "src1_0" }), 2);
  /* 200 - 100 ticks = 10 us */
  src_assert_req (&reqs[1], IO_WRITE, false, 4096, 512, 10000, 4);
  ck_assert_uint_eq (reqs[1].stream, 0);
  ck_assert_int_eq (src_read_opts (text, "msr", &(struct trace_source_opts)
                                   { .device = "src2_0" }), 1);
  ck_assert_uint_eq (reqs[0].stream, 1);
}
END_TEST

START_TEST (test_errors)
{
  src_assert_error (src_read ("1,web,2,Trim,0,512,1\n", "msr"), 1,
                    "Type 'Trim': expected Read or Write");
  src_assert_error (src_read ("1,web,2,read,0,512,1\n", "msr"), 1,
                    "Type 'read'");
  src_assert_error (src_read ("1,web,2,Read,0,512\n", "msr"), 1,
                    "fewer than 7 fields");
  src_assert_error (src_read ("1,web,2,Read,0,512,1,8\n", "msr"), 1,
                    "more than 7 fields");
  src_assert_error (src_read ("1,,2,Read,0,512,1\n", "msr"), 1,
                    "an empty Hostname");
  /* HOSTNAME_DISK in 47 bytes */
  src_assert_error (src_read ("1,12345678901234567890123456789012345678901234"
                              "56,2,Read,0,512,1\n", "msr"), 1,
                    "longer than 47 bytes");
  ck_assert_int_eq (src_read ("1,12345678901234567890123456789012345678901234"
                              "5,2,Read,0,512,1\n", "msr"), 1);
  src_assert_error (src_read ("1,web,4294967296,Read,0,512,1\n", "msr"), 1,
                    "DiskNumber '4294967296'");
  src_assert_error (src_read ("1,web,-2,Read,0,512,1\n", "msr"), 1,
                    "DiskNumber '-2'");
  src_assert_error (src_read ("1.5,web,2,Read,0,512,1\n", "msr"), 1,
                    "Timestamp '1.5'");
  src_assert_error (src_read ("1,web,2,Read,0x10,512,1\n", "msr"), 1,
                    "Offset '0x10'");
  src_assert_error (src_read ("1,web,2,Read,0,,1\n", "msr"), 1,
                    "Size ''");
  src_assert_error (src_read ("1,web,2,Read,18446744073709551615,2,1\n",
                              "msr"), 1, "the extent wraps");
  /* 2^62 ns is 46116860184273879.04 ticks */
  ck_assert_int_eq (src_read ("1,web,2,Read,0,512,46116860184273879\n",
                              "msr"), 1);
  src_assert_error (src_read ("1,web,2,Read,0,512,46116860184273880\n",
                              "msr"), 1, "ResponseTime '46116860184273880'");
  ck_assert_int_eq (src_read ("1,web,2,Read,0,512,1\n"
                              "46116860184273880,web,2,Read,0,512,1\n",
                              "msr"), 2);
  src_assert_error (src_read ("1,web,2,Read,0,512,1\n"
                              "46116860184273881,web,2,Read,0,512,1\n",
                              "msr"), 2, "more than 2^62 ns after");
}
END_TEST

static Suite *
msr_suite (void)
{
  Suite *s = suite_create ("src_msr");
  TCase *tc = tcase_create ("read");

  tcase_add_checked_fixture (tc, src_setup, src_teardown);
  tcase_add_test (tc, test_requests);
  tcase_add_test (tc, test_header_hosts);
  tcase_add_test (tc, test_errors);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (msr_suite ());
}
