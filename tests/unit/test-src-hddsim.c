/* hddsim: unit tests of the hddsim CSV trace source (trace/
 * src_hddsim.c, trace_reader_open_minimal in trace/reader.c), and of what
 * trace_source.c does for every format: detection, options.
 */

#include <check.h>

#include "run-suite.h"
#include "test-src.h"

#define HEADER "id,conn,op,offset,length,arrival_ns,start_ns,done_ns," \
  "seek_ns,rot_ns,xfer_ns,late_ns,fua,busy_ns,overhead_ns,seek_cyl," \
  "cache_hit,queue_len,outcome\n"

/* op, offset, length only: no times, conn 0, no FUA. */
START_TEST (test_minimal)
{
  int n = src_read ("op,offset,length\nread,0,4096\nwrite,4096,512\n"
                    "flush,0,0\n", "hddsim");

  ck_assert_msg (n == 3, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_READ, false, 0, 4096, 0, 2);
  ck_assert (!reqs[0].has_arrival);
  ck_assert_uint_eq (reqs[0].stream, 0);
  ck_assert_str_eq (reqs[0].device, "");
  ck_assert_uint_eq (reqs[0].measured_ns, 0);
  src_assert_req (&reqs[1], IO_WRITE, false, 4096, 512, 0, 3);
  src_assert_req (&reqs[2], IO_FLUSH, false, 0, 0, 0, 4);
}
END_TEST

/* With arrivals: given in arrival order (the first at 500 ns is 0). */
START_TEST (test_minimal_arrivals)
{
  int n = src_read ("op,offset,length,arrival_ns,conn,fua\n"
                    "write,0,4096,1000,2,1\n"
                    "read,8192,4096,500,1,0\n", "hddsim");

  ck_assert_msg (n == 2, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_READ, false, 8192, 4096, 0, 3);
  ck_assert (reqs[0].has_arrival);
  ck_assert_uint_eq (reqs[0].stream, 1);
  src_assert_req (&reqs[1], IO_WRITE, true, 0, 4096, 500, 2);
  ck_assert_uint_eq (reqs[1].stream, 2);
}
END_TEST

/* The plugin's full trace, rows in completion order: the response
 * time is done - arrival.
 */
START_TEST (test_full)
{
  int n = src_read (HEADER
                    "2,3,write,0,512,1500,9000,12000,1000,1000,1000,,1,0,0,"
                    "0,0,2,aborted\n"
                    "1,0,read,4096,4096,1000,2000,9000,3000,2000,1000,50,0,"
                    "0,1000,10,0,1,ok\n", "hddsim");

  ck_assert_msg (n == 2, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_READ, false, 4096, 4096, 0, 3);
  ck_assert_uint_eq (reqs[0].measured_ns, 9000 - 1000);
  src_assert_req (&reqs[1], IO_WRITE, true, 0, 512, 500, 2);
  ck_assert_uint_eq (reqs[1].measured_ns, 12000 - 1500);
  ck_assert_uint_eq (reqs[1].stream, 3);
}
END_TEST

/* A trace cut by powercut=: the cut's row (between the two requests)
 * is no request, so hddsim-replay never issues it.
 */
START_TEST (test_cut_not_a_request)
{
  int n = src_read ("id,conn,op,offset,length,arrival_ns,start_ns,done_ns,"
                    "seek_ns,rot_ns,xfer_ns,late_ns,fua,busy_ns,overhead_ns,"
                    "seek_cyl,cache_hit,queue_len,outcome,commands,"
                    "lost_extents,lost_bytes,flushes_done,fua_writes_done\n"
                    "1,0,read,4096,4096,1000,2000,9000,3000,2000,1000,50,0,"
                    "0,1000,10,0,1,ok,1,,,,\n"
                    "3,0,powercut,0,0,10000,10000,10000,0,0,0,,0,0,0,0,0,0,"
                    "powercut,0,1,4096,0,0\n"
                    "2,3,write,0,512,1500,9000,12000,1000,1000,1000,,1,0,0,"
                    "0,0,2,powercut,1,,,,\n", "hddsim");

  ck_assert_msg (n == 2, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_READ, false, 4096, 4096, 0, 2);
  src_assert_req (&reqs[1], IO_WRITE, true, 0, 512, 500, 4);
}
END_TEST

START_TEST (test_minimal_errors)
{
  src_assert_error (src_read ("op,offest,length\nread,0,1\n", "hddsim"), 1,
                    "unknown column 'offest'");
  src_assert_error (src_read ("op,offset,length,op\nread,0,1,read\n",
                              "hddsim"), 1, "column 'op' twice");
  src_assert_error (src_read ("op,offset\nread,0\n", "hddsim"), 1,
                    "no column 'length'");
  src_assert_error (src_read ("op,offset,length,fua\nread,0,1,1\n",
                              "hddsim"), 2, "fua=1 on a read");
  src_assert_error (src_read ("op,offset,length\nread,0\n", "hddsim"), 2,
                    "2 fields, expected 3");
  src_assert_error (src_read ("op,offset,length\nread,x,1\n", "hddsim"), 2,
                    "offset=x");
  src_assert_error (src_read ("op,offset,length,arrival_ns\n"
                              "read,0,1,4611686018427387905\n", "hddsim"),
                    2, "arrival_ns=4611686018427387905");
  src_assert_error (src_read ("op,offset,length,arrival_ns,start_ns\n"
                              "read,0,1,5,3\n", "hddsim"), 2,
                    "expected arrival <= start");
  src_assert_error (src_read_opts ("op,offset,length\nread,0,1\n", "hddsim",
                                   &(struct trace_source_opts)
                                   { .device = "8,0" }), 0,
                    "a hddsim trace names no devices");
  /* detected, the same */
  src_assert_error (src_read_opts ("op,offset,length\nread,0,1\n", NULL,
                                   &(struct trace_source_opts)
                                   { .device = "8,0" }), 0,
                    "a hddsim trace names no devices");
}
END_TEST

/* Each format's example is detected as that format and as no other. */
START_TEST (test_detect)
{
  static const struct { const char *text, *format; } t[] = {
    { "op,offset,length\nread,0,4096\n", "hddsim" },
    { "  8,0    0        1     0.000000000   100  D   R 64 + 8 [dd]\n",
      "blkparse" },
    { "fio version 2 iolog\n/f add\n/f open\n/f read 0 1\n", "fio-iolog" },
    { "128166372003061629,web,2,Read,7014609920,24576,41286\n", "msr" },
    { "0.0 0 1000 8 1\n", "disksim-ascii" },
  };
  size_t i;

  for (i = 0; i < sizeof t / sizeof t[0]; i++) {
    ck_assert_msg (src_read (t[i].text, NULL) == 1, "%s: %s", t[i].format,
                   src_err);
    ck_assert_str_eq (src_format_got, t[i].format);
  }
}
END_TEST

START_TEST (test_detect_errors)
{
  src_assert_error (src_read ("\n \n", NULL), 0, "empty file");
  src_assert_error (src_read ("hello world\n", NULL), 0,
                    "no trace format fits");
  src_assert_error (src_read ("R Miss 1000 8 1.5 0.2\n", NULL), 0,
                    "a DiskSim validation trace: replay it with "
                    "--format=disksim-validate");
  /* blkparse's summary alone: a blkparse output without requests, and
   * read by no other format
   */
  ck_assert_int_eq (src_read ("CPU0 (sdb):\n Reads Queued: 0, 0KiB\n",
                              NULL), 0);
  ck_assert_str_eq (src_format_got, "blkparse");
}
END_TEST

/* Every name --help lists opens as a format (an empty trace is fine
 * for all but those that need a header line).
 */
START_TEST (test_format_names)
{
  const struct trace_format_info *f;
  int n = 0;

  for (f = trace_source_formats; f->name; f++, n++) {
    ck_assert_ptr_nonnull (f->help);
    if (src_read ("", f->name) == -1)
      ck_assert_msg (strstr (src_err, "unknown trace format") == NULL,
                     "%s: %s", f->name, src_err);
  }
  ck_assert_int_eq (n, 5);
}
END_TEST

START_TEST (test_options)
{
  src_assert_error (src_read ("0.0 0 0 8 1\n", "scribble"), 0,
                    "unknown trace format 'scribble'");
  src_assert_error (src_read_opts ("0.0 0 0 8 1\n", "blkparse",
                                   &(struct trace_source_opts)
                                   { .blk_event = 'C' }), 0,
                    "blkparse event 'C': expected Q (queued) or D");
  src_assert_error (src_read_opts ("0.0 0 0 8 1\n", "disksim-ascii",
                                   &(struct trace_source_opts)
                                   { .window = (size_t) 1 << 31 }), 0,
                    "a window of 2147483648 requests");
}
END_TEST

START_TEST (test_missing_file)
{
  struct trace_source *s = trace_source_open ("/nonexistent/t", "msr", NULL,
                                              src_err, sizeof src_err);

  ck_assert_ptr_null (s);
  ck_assert_str_eq (src_err, "/nonexistent/t: No such file or directory");
  s = trace_source_open ("/nonexistent/t", NULL, NULL, src_err,
                         sizeof src_err);
  ck_assert_ptr_null (s);
  ck_assert_str_eq (src_err, "/nonexistent/t: No such file or directory");
}
END_TEST

/* The examples of tests/data/traces/ (README.md there), detected and
 * read as the docs' worked examples use them; counts and times by hand
 * from the files.
 */
static int
read_example (const char *name, char blk_event, const char *format)
{
  char path[128];
  struct trace_source *s;
  int n = 0, got;

  snprintf (path, sizeof path, "tests/data/traces/%s", name);
  s = trace_source_open (path, NULL, &(struct trace_source_opts)
                         { .blk_event = blk_event }, src_err, sizeof src_err);
  ck_assert_msg (s != NULL, "%s", src_err);
  ck_assert_str_eq (trace_source_format (s), format);
  while (n < SRC_MAX_REQS
         && (got = trace_source_next (s, &reqs[n], src_err,
                                      sizeof src_err)) == 1)
    n++;
  ck_assert_msg (got == 0, "%s", src_err);
  trace_source_close (s);
  return n;
}

START_TEST (test_examples)
{
  /* D: the 128 KiB read (two bios merged), two writes, a read, a
   * flush, a FUA write, a discard; the first D is at 9000 ns
   */
  ck_assert_int_eq (read_example ("example.blkparse", 'D', "blkparse"), 7);
  src_assert_req (&reqs[0], IO_READ, false, 2048 * 512, 256 * 512, 0, 6);
  src_assert_req (&reqs[5], IO_WRITE, true, 8392 * 512, 4096,
                  31001000 - 9000, 28);
  /* Q: the same seven, the merged bio in its request, from 0 ns */
  ck_assert_int_eq (read_example ("example.blkparse", 'Q', "blkparse"), 7);
  src_assert_req (&reqs[0], IO_READ, false, 2048 * 512, 256 * 512, 0, 1);
  src_assert_req (&reqs[6], IO_TRIM, false, 65536 * 512, 2048 * 512,
                  45000000, 30);
  ck_assert_int_eq (read_example ("example-v2.iolog", 'D', "fio-iolog"), 7);
  /* after waits of 5000 and 2000 us */
  src_assert_req (&reqs[5], IO_READ, false, 131072, 65536, 7000000, 11);
  ck_assert_int_eq (read_example ("example-v3.iolog", 'D', "fio-iolog"), 12);
  src_assert_req (&reqs[1], IO_WRITE, false, 49676288, 4096,
                  (213 - 137) * 1000, 5);
  ck_assert_int_eq (read_example ("example.msr.csv", 'D', "msr"), 8);
  src_assert_req (&reqs[1], IO_READ, false, 7038976, 24576,
                  (128166372003112950 - 128166372003061629) * 100, 2);
  ck_assert_uint_eq (reqs[1].measured_ns, 39852 * 100);
  ck_assert_int_eq (read_example ("example.disksim", 'D', "disksim-ascii"),
                    8);
  src_assert_req (&reqs[7], IO_READ, false, 4096 * 512, 8 * 512, 12500000,
                  8);
  ck_assert_int_eq (read_example ("example-minimal.csv", 'D', "hddsim"), 7);
  src_assert_req (&reqs[4], IO_FLUSH, false, 0, 0, 3000000, 6);
}
END_TEST

static Suite *
hddsim_suite (void)
{
  Suite *s = suite_create ("src_hddsim");
  TCase *tc = tcase_create ("read");

  tcase_add_checked_fixture (tc, src_setup, src_teardown);
  tcase_add_test (tc, test_minimal);
  tcase_add_test (tc, test_minimal_arrivals);
  tcase_add_test (tc, test_full);
  tcase_add_test (tc, test_cut_not_a_request);
  tcase_add_test (tc, test_minimal_errors);
  tcase_add_test (tc, test_detect);
  tcase_add_test (tc, test_detect_errors);
  tcase_add_test (tc, test_format_names);
  tcase_add_test (tc, test_options);
  tcase_add_test (tc, test_missing_file);
  tcase_add_test (tc, test_examples);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (hddsim_suite ());
}
