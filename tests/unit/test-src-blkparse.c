/* hddsim: unit tests of the blkparse trace source
 * (trace/src_blkparse.c).
 *
 * The inputs are lines in blkparse's default output format (blkparse(1)
 * "DEFAULT OUTPUT": "%D %2c %8s %5T.%9t %5p %2a %3d" then "SECTOR +
 * BLOCKS [COMMAND]"), laid out as blkparse 1.2.0 prints them.  Byte
 * offsets are sectors x 512; arrivals are the event's time less the
 * first request's.
 */

#include <check.h>
#include <inttypes.h>

#include "run-suite.h"
#include "test-src.h"

#define SUMMARY \
  "CPU0 (sdb):\n" \
  " Reads Queued:           4,       40KiB\t Writes Queued:     3,  12KiB\n" \
  "\n" \
  "Throughput (R/W): 888KiB/s / 888KiB/s\n" \
  "Events (sdb): 19 entries\n" \
  "Skips: 0 forward (0 -   0.0%)\n" \
  "Input file sdb.blktrace.0 added\n"

/* Lines 1-10; the D events are lines 2, 6, 7, 8, 9, 10. */
#define EVENTS \
  "  8,16   0        1     0.000000000   100  Q   R 2048 + 8 [dd]\n" \
  "  8,16   0        2     0.000003000   100  D   R 2048 + 8 [dd]\n" \
  "  8,16   0        3     0.000004000   100  Q   R 2056 + 8 [dd]\n" \
  "  8,16   0        4     0.000005000   100  M   R 2056 + 8 [dd]\n" \
  "  8,16   0        5     0.001500000     0  C   R 2048 + 16 [0]\n" \
  "  8,16   1        6     0.002001000   200  D  WS 100 + 8 [kworker/0:1]\n" \
  "  8,16   1        7     0.003000100   200  D   D 4096 + 64 [kworker/0:1]" \
  "\n" \
  "  8,16   1        8     0.003500100   200  D  FN [kworker/0:1]\n" \
  "  8,16   1        9     0.004000100   200  D WFS 800 + 8 [kworker/0:1]\n" \
  "  8,16   1       10     0.004500000   200  D FWS 16 + 8 [jbd2/sdb1-8]\n"

START_TEST (test_issue_events)
{
  int n = src_read (EVENTS SUMMARY, "blkparse");

  ck_assert_msg (n == 7, "%d: %s", n, src_err);
  /* 2048 x 512 = 1048576, 8 x 512 = 4096; the first D is at 3000 ns */
  src_assert_req (&reqs[0], IO_READ, false, 1048576, 4096, 0, 2);
  ck_assert_uint_eq (reqs[0].stream, 100);
  ck_assert_str_eq (reqs[0].device, "8,16");
  ck_assert (reqs[0].has_arrival);
  ck_assert_uint_eq (reqs[0].measured_ns, 0);
  /* WS: a sync write; 100 x 512 = 51200; 2001000 - 3000 */
  src_assert_req (&reqs[1], IO_WRITE, false, 51200, 4096, 1998000, 6);
  ck_assert_uint_eq (reqs[1].stream, 200);
  /* D: a discard; 4096 x 512 = 2097152, 64 x 512 = 32768 */
  src_assert_req (&reqs[2], IO_TRIM, false, 2097152, 32768, 2997100, 7);
  /* FN: a flush without data */
  src_assert_req (&reqs[3], IO_FLUSH, false, 0, 0, 3497100, 8);
  /* WFS: a FUA write at 800 x 512 = 409600 */
  src_assert_req (&reqs[4], IO_WRITE, true, 409600, 4096, 3997100, 9);
  /* FWS: a flush at 4500000 - 3000, then the write 1 ns later */
  src_assert_req (&reqs[5], IO_FLUSH, false, 0, 0, 4497000, 10);
  src_assert_req (&reqs[6], IO_WRITE, false, 8192, 4096, 4497001, 10);
}
END_TEST

static int
src_read_q (const char *text)
{
  return src_read_opts (text, "blkparse",
                        &(struct trace_source_opts) { .blk_event = 'Q' });
}

/* Q events: the read at 2056 merged into 2048's request (M) and the
 * write at 92 into 100's (F) are not requests, their bytes go to the
 * requests they joined (2048 + 16, and 92 + 16 from 100's time); 300
 * is one; 500 has no D but no merge within 10 ms either.
 */
START_TEST (test_queue_events)
{
  int n = src_read_q (
    "  8,0    0        1     0.000000000   100  Q   R 2048 + 8 [dd]\n"
    "  8,0    0        2     0.000001000   100  G   R 2048 + 8 [dd]\n"
    "  8,0    0        3     0.000004000   100  Q   R 2056 + 8 [dd]\n"
    "  8,0    0        4     0.000005000   100  M   R 2056 + 8 [dd]\n"
    "  8,0    0        5     0.002000000   200  Q   W 100 + 8 [kw]\n"
    "  8,0    0        6     0.002500000   200  Q   W 92 + 8 [kw]\n"
    "  8,0    0        7     0.002500100   200  F   W 92 + 8 [kw]\n"
    "  8,0    0        8     0.003000000   300  Q  RA 300 + 16 [cat]\n"
    "  8,0    0        9     0.003000200   300  G  RA 300 + 16 [cat]\n"
    "  8,0    0       10     0.004000000   300  Q   R 500 + 8 [cat]\n"
    "  8,0    0       11     0.020000000     0  C   R 500 + 8 [0]\n");

  ck_assert_msg (n == 4, "%d: %s", n, src_err);
  /* 2048 x 512 = 1048576, 16 x 512 = 8192 */
  src_assert_req (&reqs[0], IO_READ, false, 1048576, 8192, 0, 1);
  /* 92 x 512 = 47104 */
  src_assert_req (&reqs[1], IO_WRITE, false, 47104, 8192, 2000000, 5);
  /* RA: readahead; 300 x 512 = 153600, 16 x 512 = 8192 */
  src_assert_req (&reqs[2], IO_READ, false, 153600, 8192, 3000000, 8);
  src_assert_req (&reqs[3], IO_READ, false, 256000, 4096, 4000000, 10);
}
END_TEST

/* A back merge: 1008 + 16 joins 1000 + 8 at its end; the D shows the
 * merged 1000 + 24.  Q and D give the same request: 1000 x 512 =
 * 512000, 24 x 512 = 12288 bytes.
 */
#define BACK_MERGE \
  "  8,0 0 1 0.000000000 10 Q W 1000 + 8 [kw]\n" \
  "  8,0 0 2 0.000000500 10 G W 1000 + 8 [kw]\n" \
  "  8,0 0 3 0.000002000 10 Q W 1008 + 16 [kw]\n" \
  "  8,0 0 4 0.000003000 10 M W 1008 + 16 [kw]\n" \
  "  8,0 0 5 0.000010000 10 D W 1000 + 24 [kw]\n"

START_TEST (test_back_merge)
{
  int n = src_read_q (BACK_MERGE);

  ck_assert_msg (n == 1, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_WRITE, false, 512000, 12288, 0, 1);
  n = src_read (BACK_MERGE, "blkparse");
  ck_assert_msg (n == 1, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_WRITE, false, 512000, 12288, 0, 5);
}
END_TEST

/* A front merge: 4992 + 8 ends where 5000 + 8 starts and joins it at
 * its start: 4992 x 512 = 2555904, 16 x 512 = 8192, at 5000's Q.
 */
START_TEST (test_front_merge)
{
  int n = src_read_q (
    "  8,0 0 1 0.000000000 10 Q R 5000 + 8 [dd]\n"
    "  8,0 0 2 0.000001000 10 Q R 4992 + 8 [dd]\n"
    "  8,0 0 3 0.000002000 10 F R 4992 + 8 [dd]\n"
    "  8,0 0 4 0.000005000 10 D R 4992 + 16 [dd]\n");

  ck_assert_msg (n == 1, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_READ, false, 2555904, 8192, 0, 1);
}
END_TEST

/* Two merges into one write: 2008 at its end, 1992 at its start, so
 * 1992 + 24 (1992 x 512 = 1019904, 12288 bytes) at line 1's time.  The
 * read at 2016 starts where the write ends, but a merge of a read
 * joins no write: it stays a request (2016 x 512 = 1032192, at 3 us).
 */
START_TEST (test_two_merges)
{
  int n = src_read_q (
    "  8,0 0 1 0.000000000 10 Q W 2000 + 8 [kw]\n"
    "  8,0 0 2 0.000001000 10 Q W 2008 + 8 [kw]\n"
    "  8,0 0 3 0.000001500 10 M W 2008 + 8 [kw]\n"
    "  8,0 0 4 0.000002000 10 Q W 1992 + 8 [kw]\n"
    "  8,0 0 5 0.000002500 10 F W 1992 + 8 [kw]\n"
    "  8,0 0 6 0.000003000 20 Q R 2016 + 8 [dd]\n"
    "  8,0 0 7 0.000003500 20 M R 2016 + 8 [dd]\n"
    "  8,0 0 8 0.000004000 10 D W 1992 + 24 [kw]\n");

  ck_assert_msg (n == 2, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_WRITE, false, 1019904, 12288, 0, 1);
  src_assert_req (&reqs[1], IO_READ, false, 1032192, 4096, 3000, 6);
}
END_TEST

/* A merge whose request has gone keeps its Q a request, with its
 * bytes: issued (a D at 100), issued after a front merge (its D at
 * the grown start 992), and given by the window (20 ms after 100's Q,
 * nothing having touched it for 10 ms).
 */
START_TEST (test_merge_target_gone)
{
  int n = src_read_q (
    "  8,0 0 1 0.000000000 10 Q W 100 + 8 [kw]\n"
    "  8,0 0 2 0.000001000 10 D W 100 + 8 [kw]\n"
    "  8,0 0 3 0.000002000 10 Q W 108 + 8 [kw]\n"
    "  8,0 0 4 0.000003000 10 M W 108 + 8 [kw]\n");

  ck_assert_msg (n == 2, "%d: %s", n, src_err);
  /* 100 x 512 = 51200; 108 x 512 = 55296 */
  src_assert_req (&reqs[0], IO_WRITE, false, 51200, 4096, 0, 1);
  src_assert_req (&reqs[1], IO_WRITE, false, 55296, 4096, 2000, 3);

  n = src_read_q (
    "  8,0 0 1 0.000000000 10 Q W 1000 + 8 [kw]\n"
    "  8,0 0 2 0.000001000 10 Q W 992 + 8 [kw]\n"
    "  8,0 0 3 0.000002000 10 F W 992 + 8 [kw]\n"
    "  8,0 0 4 0.000003000 10 D W 992 + 16 [kw]\n"
    "  8,0 0 5 0.000004000 10 Q W 1008 + 8 [kw]\n"
    "  8,0 0 6 0.000005000 10 M W 1008 + 8 [kw]\n");
  ck_assert_msg (n == 2, "%d: %s", n, src_err);
  /* 992 x 512 = 507904; 1008 x 512 = 516096 */
  src_assert_req (&reqs[0], IO_WRITE, false, 507904, 8192, 0, 1);
  src_assert_req (&reqs[1], IO_WRITE, false, 516096, 4096, 4000, 5);

  n = src_read_q (
    "  8,0 0 1 0.000000000 10 Q W 100 + 8 [kw]\n"
    "  8,0 0 2 0.020000000 10 Q W 108 + 8 [kw]\n"
    "  8,0 0 3 0.020001000 10 M W 108 + 8 [kw]\n");
  ck_assert_msg (n == 2, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_WRITE, false, 51200, 4096, 0, 1);
  src_assert_req (&reqs[1], IO_WRITE, false, 55296, 4096, 20000000, 2);
}
END_TEST

/* The window counts from the last merge, not the Q: merges 8 ms apart
 * (16 ms after the Q) all join sector 0's request: 0 + 24.
 */
START_TEST (test_slow_merges)
{
  int n = src_read_q (
    "  8,0 0 1 0.000000000 10 Q W 0 + 8 [kw]\n"
    "  8,0 0 2 0.008000000 10 Q W 8 + 8 [kw]\n"
    "  8,0 0 3 0.008000100 10 M W 8 + 8 [kw]\n"
    "  8,0 0 4 0.016000000 10 Q W 16 + 8 [kw]\n"
    "  8,0 0 5 0.016000100 10 M W 16 + 8 [kw]\n");

  ck_assert_msg (n == 1, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_WRITE, false, 0, 12288, 0, 1);
}
END_TEST

/* A merge's RWBS is read as a Q's: a bad one is an error. */
START_TEST (test_merge_errors)
{
  src_assert_error (src_read_q (
    "  8,0 0 1 0.000000000 10 Q W 0 + 8 [kw]\n"
    "  8,0 0 2 0.000001000 10 M X 8 + 8 [kw]\n"), 2,
    "RWBS 'X': expected R, W, D, E or N");
}
END_TEST

/* Forty Q events 1 us apart at sectors 0, 8, 16, ...: none has a D,
 * so all wait until the end of the trace, more than the reader first
 * has room for; a back merge (line 43) joins Q 35 (sector 280) to Q 34
 * (272 + 8, which grows to 16 sectors).  So 39 requests, request k at
 * sector 8k (k != 35) and k us.
 */
START_TEST (test_many_pending)
{
  char text[8192];
  size_t used = 0;
  int k, i, n;

  for (k = 0; k < 40; k++) {
    used += (size_t) snprintf (text + used, sizeof text - used,
                               "  8,0 0 %d 0.%09d 100 Q R %d + 8 [dd]\n",
                               k + 1, k * 1000, 8 * k);
    if (k < 2)
      used += (size_t) snprintf (text + used, sizeof text - used,
                                 "  8,0 0 %d 0.%09d 100 G R %d + 8 [dd]\n",
                                 k + 1, k * 1000 + 1, 8 * k);
  }
  snprintf (text + used, sizeof text - used,
            "  8,0 0 99 0.000041000 100 M R 280 + 8 [dd]\n");
  n = src_read_q (text);
  ck_assert_msg (n == 39, "%d: %s", n, src_err);
  for (i = 0, k = 0; k < 40; k++) {
    if (k == 35)
      continue;
    /* lines: two per Q for the first two, one after */
    src_assert_req (&reqs[i++], IO_READ, false, (uint64_t) 8 * k * 512,
                    k == 34 ? 8192 : 4096, (uint64_t) k * 1000,
                    (unsigned long) (k < 2 ? 2 * k + 1 : k + 3));
  }
}
END_TEST

/* A requeued request issued again is one request; a packet command
 * ("BYTES (HEX)") and a no-data N are none; P, U, m lines are ignored.
 */
START_TEST (test_requeue_and_others)
{
  int n = src_read (
    "  8,0    0        1     0.000000000   100  P   N [dd]\n"
    "  8,0    0        2     0.000001000   100  D   R 64 + 8 [dd]\n"
    "  8,0    0        3     0.000002000   100  R   R 64 + 8 [dd]\n"
    "  8,0    0        4     0.000003000   100  D   R 64 + 8 [dd]\n"
    "  8,0    0        5     0.000004000   100  D   R 36 (12 00 00 24 00) "
    "[sg]\n"
    "  8,0    0        6     0.000005000   100  D   N [sg]\n"
    "  8,0    0        7     0.000006000   100  U   N [dd] 1\n"
    "  8,0    0        0     0.000007000     0  m   N cfq100S / dispatched\n"
    "  8,0    0        8     0.000008000   100  D   R 64 + 8 [dd]\n",
    "blkparse");

  ck_assert_msg (n == 2, "%d: %s", n, src_err);
  src_assert_req (&reqs[0], IO_READ, false, 32768, 4096, 0, 2);
  /* line 8 is a new issue of the same extent: 8000 - 1000 */
  src_assert_req (&reqs[1], IO_READ, false, 32768, 4096, 7000, 9);
}
END_TEST

#define DEV2 \
  "  8,0    0        1     0.000000000   100  D   R 64 + 8 [dd]\n" \
  "  8,16   1        1     0.000001000   101  D   W 8 + 8 [dd]\n" \
  "  8,0    0        2     0.000002000   100  D   R 72 + 8 [dd]\n"

START_TEST (test_devices)
{
  src_assert_error (src_read (DEV2, "blkparse"), 2, "device 8,16, but "
                    "line 1's was for 8,0: the trace holds 2 devices; "
                    "choose one with --device: 8,0 (2 requests), 8,16 "
                    "(1 request)");
  ck_assert_int_eq (src_read_opts (DEV2, "blkparse",
                                   &(struct trace_source_opts)
                                   { .blk_event = 'D', .device = "8,16" }), 1);
  /* the first request of the device chosen is at time 0 */
  src_assert_req (&reqs[0], IO_WRITE, false, 4096, 4096, 0, 2);
  ck_assert_int_eq (src_read_opts (DEV2, "blkparse",
                                   &(struct trace_source_opts)
                                   { .blk_event = 'D', .device = "8,0" }), 2);
  src_assert_req (&reqs[1], IO_READ, false, 36864, 4096, 2000, 3);
  /* detected as blkparse all the same */
  src_assert_error (src_read (DEV2, NULL), 2, "the trace holds 2 devices");
  ck_assert_int_eq (src_read_opts (DEV2, NULL, &(struct trace_source_opts)
                                   { .blk_event = 'D', .device = "8,16" }), 1);
  ck_assert_str_eq (src_format_got, "blkparse");
  src_assert_error (src_read_opts (DEV2, "blkparse",
                                   &(struct trace_source_opts)
                                   { .blk_event = 'D', .device = "8,32" }), 0,
                    "no request for device '8,32'; the trace's devices: "
                    "8,0 (2 requests), 8,16 (1 request)");
}
END_TEST

/* Four devices: 8,0 lines 1 and 4; 8,16 line 2; 8,32 lines 3, 6, 7;
 * 8,48 line 5 (a flush is a request).
 */
#define DEV4 \
  "  8,0  0 1 0.000000000 100 D R 64 + 8 [dd]\n" \
  "  8,16 1 1 0.000001000 101 D W 8 + 8 [dd]\n" \
  "  8,32 0 2 0.000002000 102 D R 0 + 8 [dd]\n" \
  "  8,0  0 3 0.000003000 100 D R 72 + 8 [dd]\n" \
  "  8,48 1 2 0.000004000 103 D FN [jbd2]\n" \
  "  8,32 0 4 0.000005000 102 D W 16 + 8 [dd]\n" \
  "  8,32 0 5 0.000006000 102 D W 24 + 8 [dd]\n"

static const char dev4_list[] = "8,0 (2 requests), 8,16 (1 request), "
  "8,32 (3 requests), 8,48 (1 request)";

static struct trace_device devices_seen[TRACE_SOURCE_DEVICES_MAX];

/* Every request of text with all_devices (and device, if not NULL),
 * and the devices seen, copied to devices_seen.
 */
static size_t
read_all_devices (const char *text, const char *device,
                  const struct trace_device **devs, uint64_t *others,
                  int *nreqs)
{
  struct trace_source *s;
  struct src_req r;
  size_t n;
  int got;

  src_write (text);
  s = trace_source_open (src_path, "blkparse", &(struct trace_source_opts)
                         { .device = device, .all_devices = true },
                         src_err, sizeof src_err);
  ck_assert_msg (s != NULL, "%s", src_err);
  *nreqs = 0;
  while ((got = trace_source_next (s, &r, src_err, sizeof src_err)) == 1)
    ++*nreqs;
  ck_assert_msg (got == 0, "%s", src_err);
  n = trace_source_devices (s, devs, others);
  memcpy (devices_seen, *devs, n * sizeof *devices_seen);
  *devs = devices_seen;
  trace_source_close (s);
  return n;
}

START_TEST (test_every_device)
{
  static const char *const names[] = { "8,0", "8,16", "8,32", "8,48" };
  static const uint64_t counts[] = { 2, 1, 3, 1 };
  const struct trace_device *devs;
  uint64_t others;
  char want[256];
  size_t n, i;
  int nreqs;

  /* the error comes at the second device and names all four */
  snprintf (want, sizeof want, "device 8,16, but line 1's was for 8,0: "
            "the trace holds 4 devices; choose one with --device: %s",
            dev4_list);
  src_assert_error (src_read (DEV4, "blkparse"), 2, want);
  /* a malformed line after it is that line's error */
  src_assert_error (src_read (DEV4 "  8,0 0 6 junk\n", "blkparse"), 8,
                    "not a blkparse event line");
  snprintf (want, sizeof want, "no request for device '8,64'; the "
            "trace's devices: %s", dev4_list);
  src_assert_error (src_read_opts (DEV4, "blkparse",
                                   &(struct trace_source_opts)
                                   { .device = "8,64" }), 0, want);

  /* all_devices: the seven requests, no error, the four devices */
  n = read_all_devices (DEV4, NULL, &devs, &others, &nreqs);
  ck_assert_int_eq (nreqs, 7);
  ck_assert_uint_eq (n, 4);
  ck_assert_uint_eq (others, 0);
  for (i = 0; i < n; i++) {
    ck_assert_str_eq (devs[i].name, names[i]);
    ck_assert_uint_eq (devs[i].requests, counts[i]);
  }
  /* a device chosen: its three requests, every device still counted */
  n = read_all_devices (DEV4, "8,32", &devs, &others, &nreqs);
  ck_assert_int_eq (nreqs, 3);
  ck_assert_uint_eq (n, 4);
  ck_assert_uint_eq (devs[2].requests, 3);
}
END_TEST

/* 300 devices, one request each (8,0 to 8,299): the table holds the
 * first TRACE_SOURCE_DEVICES_MAX (256), the other 44 requests are
 * counted together; the error lists what fits and counts the rest, so
 * that listed and rest make 300.
 */
START_TEST (test_many_devices)
{
  static char text[300 * 48];
  const struct trace_device *devs;
  uint64_t others, rest;
  size_t used = 0, n, listed;
  const char *p, *tail;
  int k, nreqs;

  for (k = 0; k < 300; k++)
    used += (size_t) snprintf (text + used, sizeof text - used,
                               "  8,%d 0 %d 0.%09d 100 D R 8 + 8 [dd]\n",
                               k, k + 1, k * 1000);
  n = read_all_devices (text, NULL, &devs, &others, &nreqs);
  ck_assert_int_eq (nreqs, 300);
  ck_assert_uint_eq (n, 256);
  ck_assert_uint_eq (others, 44);
  ck_assert_str_eq (devs[255].name, "8,255");

  src_assert_error (src_read (text, "blkparse"), 2, "the trace holds more "
                    "than 256 devices; choose one with --device: 8,0 (1 "
                    "request), 8,1 (1 request)");
  tail = strstr (src_err, "other devices (");
  ck_assert_msg (tail != NULL, "%s", src_err);
  for (listed = 0, p = src_err; (p = strstr (p, " request)")); p++)
    listed++;
  ck_assert_int_eq (sscanf (tail, "other devices (%" SCNu64 " requests)",
                            &rest), 1);
  ck_assert_uint_eq (listed + rest, 300);
  ck_assert_uint_lt (strlen (src_err), sizeof src_err);
}
END_TEST

/* Each line is line 2, after a good one. */
static int
bad_second (const char *line)
{
  char text[512];

  snprintf (text, sizeof text, "  8,0    0        1     0.000000000   100  "
            "D   R 64 + 8 [dd]\n%s\n", line);
  return src_read (text, "blkparse");
}

START_TEST (test_errors)
{
  src_assert_error (bad_second ("hello"), 2, "not a blkparse event line");
  src_assert_error (bad_second ("  8,0 0 2 0.00000100 100 D R 8 + 8 [dd]"),
                    2, "not a blkparse event line");
  src_assert_error (bad_second ("  8 0 2 0.000001000 100 D R 8 + 8 [dd]"),
                    2, "not a blkparse event line");
  src_assert_error (bad_second ("  8,0 0 2 0.000001000 -1 D R 8 + 8 [dd]"),
                    2, "not a blkparse event line");
  src_assert_error (bad_second ("  8,0 0 2 0.000001000 100 D RX 8 + 8 [d]"),
                    2, "RWBS 'RX': unknown flag 'X'");
  src_assert_error (bad_second ("  8,0 0 2 0.000001000 100 D Q 8 + 8 [d]"),
                    2, "RWBS 'Q': expected R, W, D, E or N");
  src_assert_error (bad_second ("  8,0 0 2 0.000001000 100 D R 8 - 8 [d]"),
                    2, "expected 'SECTOR + BLOCKS'");
  src_assert_error (bad_second ("  8,0 0 2 0.000001000 100 D R 8 + x [d]"),
                    2, "blocks 'x'");
  src_assert_error (bad_second ("  8,0 0 2 0.000001000 100 D R 8 + 4294967296"
                                " [d]"), 2, "blocks '4294967296'");
  src_assert_error (bad_second ("  8,0 0 2 0.000001000 100 D R 8 + 8 junk"),
                    2, "'junk' after the extent");
  /* 2^55 sectors are 2^64 bytes */
  src_assert_error (bad_second ("  8,0 0 2 0.000001000 100 D R "
                                "36028797018963968 + 8 [d]"), 2,
                    "sector 36028797018963968: the byte offset wraps");
  /* 2^55 - 1 sectors is an offset, but the extent wraps */
  src_assert_error (bad_second ("  8,0 0 2 0.000001000 100 D R "
                                "36028797018963967 + 8 [d]"), 2,
                    "the extent wraps around 2^64");
  /* 2^62 ns is 4611686018.427387904 s */
  ck_assert_int_eq (bad_second ("  8,0 0 2 4611686018.427387904 100 D R 8 "
                                "+ 8 [d]"), 2);
  src_assert_error (bad_second ("  8,0 0 2 4611686018.427387905 100 D R 8 "
                                "+ 8 [d]"), 2, "more than 2^62 ns after");
}
END_TEST

START_TEST (test_after_summary)
{
  src_assert_error (src_read (EVENTS SUMMARY EVENTS, "blkparse"), 18,
                    "an event after blkparse's summary");
}
END_TEST

/* Out of order within the window is put in order; by more than the
 * window (1 here) it is an error.
 */
START_TEST (test_order)
{
  static const char text[] =
    "  8,0    1        1     0.000005000   100  D   R 64 + 8 [dd]\n"
    "  8,0    0        1     0.000002000   101  D   R 72 + 8 [dd]\n"
    "  8,0    0        2     0.000001000   101  D   R 80 + 8 [dd]\n";

  ck_assert_int_eq (src_read (text, "blkparse"), 3);
  src_assert_req (&reqs[0], IO_READ, false, 40960, 4096, 0, 3);
  src_assert_req (&reqs[1], IO_READ, false, 36864, 4096, 1000, 2);
  src_assert_req (&reqs[2], IO_READ, false, 32768, 4096, 4000, 1);
  src_assert_error (src_read_opts (text, "blkparse",
                                   &(struct trace_source_opts)
                                   { .blk_event = 'D', .window = 1 }), 3,
                    "out of time order by more than the window of 1");
}
END_TEST

static Suite *
blkparse_suite (void)
{
  Suite *s = suite_create ("src_blkparse");
  TCase *tc = tcase_create ("read");

  tcase_add_checked_fixture (tc, src_setup, src_teardown);
  tcase_add_test (tc, test_issue_events);
  tcase_add_test (tc, test_queue_events);
  tcase_add_test (tc, test_back_merge);
  tcase_add_test (tc, test_front_merge);
  tcase_add_test (tc, test_two_merges);
  tcase_add_test (tc, test_merge_target_gone);
  tcase_add_test (tc, test_slow_merges);
  tcase_add_test (tc, test_merge_errors);
  tcase_add_test (tc, test_many_pending);
  tcase_add_test (tc, test_requeue_and_others);
  tcase_add_test (tc, test_devices);
  tcase_add_test (tc, test_every_device);
  tcase_add_test (tc, test_many_devices);
  tcase_add_test (tc, test_errors);
  tcase_add_test (tc, test_after_summary);
  tcase_add_test (tc, test_order);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (blkparse_suite ());
}
