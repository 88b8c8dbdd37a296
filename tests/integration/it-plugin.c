/* hddsim: integration tests against nbdkit running the built plugin. */

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <libnbd.h>

#include "../../model/hdd.h"
#include "../../profile/profile.h"
#include "../../sched/policy.h"
#include "../lib/server.h"
#include "../unit/run-suite.h"
#include "../unit/test-units.h"
#include "../../trace/reader.h"

#define IMAGE_BYTES (UINT64_C(64) << 20)

static void
check_pattern (const uint8_t *buf, size_t len, uint64_t offset)
{
  size_t i;
  for (i = 0; i < len; i++)
    ck_assert_msg (buf[i] == pattern_byte (offset + i),
                   "byte %zu at offset %llu: 0x%02x, expected 0x%02x",
                   i, (unsigned long long) offset, buf[i],
                   pattern_byte (offset + i));
}

static long
read_trace (const struct server *s, struct trace_row **rows)
{
  char err[TRACE_ERRLEN];
  long n = trace_read (s->trace, rows, err, sizeof err);
  ck_assert_msg (n >= 0, "%s", err);
  return n;
}

static int
by_start (const void *a, const void *b)
{
  const struct trace_row *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->done < y->done ? -1 : x->done > y->done;
}

/* The trace invariants every run must satisfy: one request on the
 * drive at a time, each delivered at or after its modeled completion,
 * nothing started before it arrived.
 */
static void
check_trace_invariants (struct trace_row *rows, long n)
{
  long i;

  qsort (rows, (size_t) n, sizeof *rows, by_start);
  for (i = 0; i < n; i++) {
    ck_assert_uint_ge (rows[i].start, rows[i].arrival);
    ck_assert_uint_ge (rows[i].done, rows[i].start);
    if (i > 0)
      ck_assert_msg (rows[i].start >= rows[i - 1].done,
                     "service intervals overlap: id %llu [%llu,%llu] and "
                     "id %llu [%llu,%llu]",
                     (unsigned long long) rows[i - 1].id,
                     (unsigned long long) rows[i - 1].start,
                     (unsigned long long) rows[i - 1].done,
                     (unsigned long long) rows[i].id,
                     (unsigned long long) rows[i].start,
                     (unsigned long long) rows[i].done);
    if (strcmp (rows[i].outcome, "ok") == 0)
      ck_assert_int_ge (rows[i].late_ns, 0);
  }
}

/* ---- data ---- */

START_TEST (test_data_round_trip)
{
  static const char *const params[] = { "profile=fixed", "service=1ms", NULL };
  struct server s;
  struct nbd_handle *nbd;
  uint8_t wbuf[65536], rbuf[65536];
  size_t i;

  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  nbd = server_connect (&s);

  ck_assert_int_eq (nbd_pread (nbd, rbuf, 8192, 12288, 0), 0);
  check_pattern (rbuf, 8192, 12288);

  for (i = 0; i < sizeof wbuf; i++)
    wbuf[i] = (uint8_t) (i * 13 + 5);
  ck_assert_int_eq (nbd_pwrite (nbd, wbuf, sizeof wbuf, 1 << 20, 0), 0);
  ck_assert_int_eq (nbd_pwrite (nbd, wbuf, 4096, 5 << 20,
                                LIBNBD_CMD_FLAG_FUA), 0);
  ck_assert_int_eq (nbd_flush (nbd, 0), 0);
  ck_assert_int_eq (nbd_pread (nbd, rbuf, sizeof rbuf, 1 << 20, 0), 0);
  ck_assert_mem_eq (rbuf, wbuf, sizeof wbuf);
  ck_assert_int_eq (nbd_pread (nbd, rbuf, 4096, 5 << 20, 0), 0);
  ck_assert_mem_eq (rbuf, wbuf, 4096);

  ck_assert_int_eq (nbd_zero (nbd, 8192, 2 << 20, 0), 0);
  ck_assert_int_eq (nbd_pread (nbd, rbuf, 8192, 2 << 20, 0), 0);
  for (i = 0; i < 8192; i++)
    ck_assert_uint_eq (rbuf[i], 0);
  ck_assert_int_eq (nbd_trim (nbd, 4096, 3 << 20, 0), 0);

  ck_assert_int_eq (nbd_can_multi_conn (nbd), 1);
  ck_assert_int_eq (nbd_can_fua (nbd), 1);
  ck_assert_int_eq (nbd_get_size (nbd), (int64_t) IMAGE_BYTES);
  nbd_shutdown (nbd, 0);
  nbd_close (nbd);
  server_cleanup (&s);
}
END_TEST

/* ---- concurrency ---- */

#define NCONCURRENT 32

struct batch {
  uint8_t buf[NCONCURRENT][4096];
  uint64_t offset[NCONCURRENT];
  int64_t cookie[NCONCURRENT];
};

static void
issue_reads (struct nbd_handle *nbd, struct batch *b, uint64_t salt)
{
  int i;

  for (i = 0; i < NCONCURRENT; i++) {
    b->offset[i] = ((i * 7919 + salt * 104729) % (IMAGE_BYTES / 4096)) * 4096;
    b->cookie[i] = nbd_aio_pread (nbd, b->buf[i], 4096, b->offset[i],
                                  NBD_NULL_COMPLETION, 0);
    ck_assert_msg (b->cookie[i] > 0, "aio_pread: %s", nbd_get_error ());
  }
}

static void
wait_reads (struct nbd_handle *nbd, struct batch *b)
{
  int i;

  for (i = 0; i < NCONCURRENT; i++) {
    while (nbd_aio_command_completed (nbd, b->cookie[i]) == 0)
      ck_assert_int_ne (nbd_poll (nbd, -1), -1);
    check_pattern (b->buf[i], 4096, b->offset[i]);
  }
}

/* The stats file written at exit counts what the trace shows: every
 * request, each connection apart, and the lateness percentiles.
 */
static void
check_stats (const struct server *s, long requests, int nconn)
{
  char buf[8192], want[64];
  FILE *fp = fopen (s->stats, "r");
  size_t n;
  int c;

  ck_assert_ptr_nonnull (fp);
  n = fread (buf, 1, sizeof buf - 1, fp);
  buf[n] = '\0';
  fclose (fp);
  snprintf (want, sizeof want, "\"requests\": %ld,", requests);
  ck_assert_msg (strstr (buf, want), "no %s in %s", want, buf);
  ck_assert_msg (strstr (buf, "\"early\": 0,"), "%s", buf);
  ck_assert_msg (strstr (buf, "\"lateness_us\": {\"count\": "), "%s", buf);
  ck_assert_msg (strstr (buf, "\"p99.9\""), "%s", buf);
  for (c = 0; c < nconn; c++) {
    snprintf (want, sizeof want, "\"%d\": {\"requests\": %d,", c,
              NCONCURRENT);
    ck_assert_msg (strstr (buf, want), "no %s in %s", want, buf);
  }
}

static void
check_concurrent (int nconn, const char *const *params, const char *sched)
{
  struct server s;
  struct nbd_handle *nbd[2];
  static struct batch b[2];
  struct trace_row *rows;
  long n, i;
  int c;

  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  for (c = 0; c < nconn; c++)
    nbd[c] = server_connect (&s);
  for (c = 0; c < nconn; c++)
    issue_reads (nbd[c], &b[c], (uint64_t) c);
  for (c = 0; c < nconn; c++)
    wait_reads (nbd[c], &b[c]);
  for (c = 0; c < nconn; c++) {
    nbd_shutdown (nbd[c], 0);
    nbd_close (nbd[c]);
  }
  server_stop (&s, NULL);

  n = read_trace (&s, &rows);
  ck_assert_int_eq (n, nconn * NCONCURRENT);
  check_trace_invariants (rows, n);
  check_stats (&s, n, nconn);
  for (i = 0; i < n; i++) {
    ck_assert_str_eq (rows[i].outcome, "ok");
    ck_assert_str_eq (rows[i].op, "read");
  }
  if (strcmp (sched, "fifo") == 0)
    for (i = 1; i < n; i++)     /* rows are sorted by start */
      ck_assert_uint_ge (rows[i].arrival, rows[i - 1].arrival);
  free (rows);
  server_cleanup (&s);
}

START_TEST (test_concurrent_one_connection)
{
  static const char *const params[] = {
    "profile=fixed", "service=2ms", "sched=fifo", NULL
  };
  check_concurrent (1, params, "fifo");
}
END_TEST

START_TEST (test_concurrent_two_connections)
{
  static const char *const params[] = {
    "profile=fixed", "service=2ms", "sched=fifo", NULL
  };
  check_concurrent (2, params, "fifo");
}
END_TEST

START_TEST (test_concurrent_mechanical)
{
  static const char *const params[] = { "sched=fifo", NULL };
  check_concurrent (2, params, "fifo");
}
END_TEST

/* profile=fixed service=5ms: every modeled service time is exactly
 * 5 ms, whatever the request.
 */
START_TEST (test_fixed_service_times)
{
  static const char *const params[] = {
    "profile=fixed", "service=5ms", NULL
  };
  struct server s;
  struct nbd_handle *nbd;
  static struct batch b;
  struct trace_row *rows;
  long n, i;

  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  nbd = server_connect (&s);
  issue_reads (nbd, &b, 3);
  wait_reads (nbd, &b);
  ck_assert_int_eq (nbd_flush (nbd, 0), 0);
  nbd_shutdown (nbd, 0);
  nbd_close (nbd);
  server_stop (&s, NULL);
  n = read_trace (&s, &rows);
  ck_assert_int_eq (n, NCONCURRENT + 1);
  for (i = 0; i < n; i++)
    ck_assert_uint_eq (rows[i].done - rows[i].start, 5 * MS);
  free (rows);
  server_cleanup (&s);
}
END_TEST

/* A drive with platters says so (Linux's queue/rotational picks the
 * guest's I/O scheduler defaults from it); profile=fixed has none.
 */
START_TEST (test_is_rotational)
{
  static const char *const mech[] = { "profile=st340014a", NULL };
  static const char *const fixed[] = { "profile=fixed", NULL };
  const char *const *params[] = { mech, fixed };
  const int want[] = { 1, 0 };
  unsigned i;

  for (i = 0; i < 2; i++) {
    struct server s;
    struct nbd_handle *nbd;

    server_prepare (&s, IMAGE_BYTES);
    server_start (&s, params[i]);
    nbd = server_connect (&s);
    ck_assert_int_eq (nbd_is_rotational (nbd), want[i]);
    nbd_shutdown (nbd, 0);
    nbd_close (nbd);
    server_stop (&s, NULL);
    server_cleanup (&s);
  }
}
END_TEST

/* The modeled service time of every request equals what the model
 * computes for it, replayed in order of service from the same seed.
 */
START_TEST (test_service_times_match_model)
{
  static const char *const params[] = { "seed=42", "sched=fifo", NULL };
  struct server s;
  struct nbd_handle *nbd;
  static struct batch b;
  struct trace_row *rows;
  struct hdd_params *hp = hdd_params_new ();
  struct hdd *hdd;
  char err[HDD_ERRLEN];
  long n, i;

  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  nbd = server_connect (&s);
  issue_reads (nbd, &b, 5);
  wait_reads (nbd, &b);
  nbd_shutdown (nbd, 0);
  nbd_close (nbd);
  server_stop (&s, NULL);
  n = read_trace (&s, &rows);
  ck_assert_int_eq (n, NCONCURRENT);
  qsort (rows, (size_t) n, sizeof *rows, by_start);

  hdd = hdd_new (hp, IMAGE_BYTES, 42, err, sizeof err);
  ck_assert_msg (hdd != NULL, "%s", err);
  for (i = 0; i < n; i++) {
    struct io io = { .op = IO_READ, .offset = rows[i].offset,
                     .length = rows[i].length };
    struct hdd_cost cost;
    hdd_idle (hdd, rows[i].start);
    ck_assert_uint_eq (hdd_serve (hdd, &io, rows[i].start, &cost),
                       rows[i].done - rows[i].start);
    ck_assert_uint_eq (cost.seek_ns, rows[i].seek_ns);
    ck_assert_uint_eq (cost.rot_ns, rows[i].rot_ns);
  }
  hdd_free (hdd);
  hdd_params_free (hp);
  free (rows);
  server_cleanup (&s);
}
END_TEST

/* Replaying the live trace through the engine on a virtual clock, with
 * the same parameters, reproduces every modeled start and completion
 * exactly, for every policy: the timeline never depended on when the
 * host's threads woke up.  Each policy twice: on the default drive,
 * and on a drive imported from DiskSim's parameters (the validated
 * ST32171W, whose fast writes, zone table and slips take other paths
 * of the model).  Two 640 KiB writes per connection are five commands
 * each on the default drive with its real command size
 * (max-transfer=128K, set: the default is unlimited), which the replay
 * must split the same way; the DiskSim drive has no limit.
 */
START_TEST (test_replay_equals_live)
{
  const struct policy_ops *ops = policy_list[_i / 3];
  char sched_arg[64], profile_arg[PATH_MAX + 16], cmd[PATH_MAX + 1024];
  char *parv = realpath ("tests/data/disksim/barracuda.parv", NULL);
  /* The default drive with 128K commands; a DiskSim drive; the default
     drive queueing 32 commands (a command handed to the drive at an
     arrival, served in the firmware's order). */
  const char *drive = _i % 3 == 1 ? "'%s'"
    : _i % 3 == 0 ? "max-transfer=128K" : "max-transfer=128K ncq-depth=32";
  char drive_arg[PATH_MAX + 64];
  const char *params[] = { sched_arg, "seed=7",
                           _i % 3 == 1 ? profile_arg : "max-transfer=128K",
                           _i % 3 == 2 ? "ncq-depth=32" : NULL, NULL };
  const char *tools = getenv ("HDDSIM_TOOLS");
  struct server s;
  struct nbd_handle *nbd[2];
  static struct batch b[2];
  uint8_t wbuf[8192];
  static uint8_t big[640 * 1024];
  int c, i;

  ck_assert_ptr_nonnull (tools);
  ck_assert_ptr_nonnull (parv);
  memset (wbuf, 0x5a, sizeof wbuf);
  snprintf (sched_arg, sizeof sched_arg, "sched=%s", ops->name);
  snprintf (profile_arg, sizeof profile_arg, "profile=%s", parv);
  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  for (c = 0; c < 2; c++)
    nbd[c] = server_connect (&s);
  for (c = 0; c < 2; c++) {
    issue_reads (nbd[c], &b[c], (uint64_t) c + 11);
    for (i = 0; i < 8; i++)
      ck_assert_int_gt (nbd_aio_pwrite (nbd[c], wbuf, sizeof wbuf,
                                        (uint64_t) (i * 1237 + c) * 8192
                                        % (IMAGE_BYTES / 2) + IMAGE_BYTES / 2,
                                        NBD_NULL_COMPLETION, 0), 0);
    for (i = 0; i < 2; i++)
      ck_assert_int_gt (nbd_aio_pwrite (nbd[c], big, sizeof big,
                                        (uint64_t) (2 * c + i) * 8 * 1024
                                        * 1024, NBD_NULL_COMPLETION, 0), 0);
  }
  for (c = 0; c < 2; c++) {
    wait_reads (nbd[c], &b[c]);
    while (nbd_aio_in_flight (nbd[c]) > 0)
      ck_assert_int_ne (nbd_poll (nbd[c], -1), -1);
    ck_assert_int_eq (nbd_flush (nbd[c], 0), 0);
    nbd_shutdown (nbd[c], 0);
    nbd_close (nbd[c]);
  }
  server_stop (&s, NULL);
  snprintf (drive_arg, sizeof drive_arg, drive, profile_arg);
  snprintf (cmd, sizeof cmd, "'%s/hddsim-replay' --check '%s' size=%llu "
            "sched=%s seed=7 %s", tools, s.trace,
            (unsigned long long) IMAGE_BYTES, ops->name, drive_arg);
  ck_assert_msg (system (cmd) == 0, "replay differs from live: %s", cmd);
  free (parv);
  server_cleanup (&s);
}
END_TEST

/* A flush's modeled completion follows every write that had completed
 * when the flush arrived.
 */
START_TEST (test_flush_after_writes)
{
  static const char *const params[] = { "sched=fifo", NULL };
  struct server s;
  struct nbd_handle *nbd;
  uint8_t buf[4096];
  struct trace_row *rows;
  long n, i, j, flushes = 0;
  int k;

  memset (buf, 0xab, sizeof buf);
  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  nbd = server_connect (&s);
  for (k = 0; k < 3; k++) {
    for (i = 0; i < 8; i++)
      ck_assert_int_eq (nbd_aio_pwrite (nbd, buf, sizeof buf,
                                        (uint64_t) ((i * 97 + k * 13) % 1000) * 65536,
                                        NBD_NULL_COMPLETION, 0) > 0, 1);
    ck_assert_int_eq (nbd_flush (nbd, 0), 0);
  }
  while (nbd_aio_in_flight (nbd) > 0)
    ck_assert_int_ne (nbd_poll (nbd, -1), -1);
  nbd_shutdown (nbd, 0);
  nbd_close (nbd);
  server_stop (&s, NULL);

  n = read_trace (&s, &rows);
  ck_assert_int_eq (n, 3 * 9);
  check_trace_invariants (rows, n);
  for (i = 0; i < n; i++) {
    if (strcmp (rows[i].op, "flush") != 0)
      continue;
    flushes++;
    for (j = 0; j < n; j++)
      if (strcmp (rows[j].op, "write") == 0 && rows[j].done <= rows[i].arrival)
        ck_assert_uint_le (rows[j].done, rows[i].done);
  }
  ck_assert_int_eq (flushes, 3);
  free (rows);
  server_cleanup (&s);
}
END_TEST

/* ---- failures ---- */

/* SIGTERM with 16 requests of 2 s each queued: the server lets go of
 * them long before the 32 s they would take (the issue asks for within
 * a second; the bound here leaves room for a loaded machine).  What the
 * client sees is bounded always: its requests end or its connection
 * closes.  The process's exit is bounded only without a sanitizer
 * preload: with one, nbdkit can hang in libp11-kit's exit handler
 * (freelocale, after the plugin's cleanup has run), outside hddsim.
 */
static double
wait_client_released (struct nbd_handle *nbd, double t0)
{
  while (nbd_aio_in_flight (nbd) > 0 && !nbd_aio_is_dead (nbd)
         && now_seconds () - t0 < 30)
    nbd_poll (nbd, 100);
  return now_seconds () - t0;
}

START_TEST (test_sigterm_with_queue)
{
  static const char *const params[] = { "profile=fixed", "service=2s", NULL };
  struct server s;
  struct nbd_handle *nbd;
  static uint8_t buf[16][4096];
  double t0, released, exited;
  int i, status;

  /* nbdkit itself leaks the connection it abandons on SIGTERM with
   * requests in flight; that is not ours to report.
   */
  if (getenv ("HDDSIM_NBDKIT_PRELOAD"))
    setenv ("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=1", 1);
  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  nbd = server_connect (&s);
  for (i = 0; i < 16; i++)
    ck_assert_int_gt (nbd_aio_pread (nbd, buf[i], 4096, (uint64_t) i * 4096,
                                     NBD_NULL_COMPLETION, 0), 0);
  usleep (200000);
  t0 = now_seconds ();
  ck_assert_int_eq (kill (s.pid, SIGTERM), 0);
  released = wait_client_released (nbd, t0);
  exited = released + server_stop (&s, &status);
  fprintf (stderr, "SIGTERM with 16 queued requests: client released in "
           "%.3f s, nbdkit exited in %.3f s\n", released, exited);
  ck_assert_msg (released < 5.0, "the client waited %.1f s", released);
  if (!getenv ("HDDSIM_NBDKIT_PRELOAD"))
    ck_assert_msg (exited < 5.0, "nbdkit took %.1f s to exit", exited);
  nbd_close (nbd);
  server_cleanup (&s);
}
END_TEST

/* A client that hangs up with requests queued harms no other: the
 * other client's reads complete with the right data.
 */
START_TEST (test_disconnect_mid_queue)
{
  static const char *const params[] = { "profile=fixed", "service=20ms", NULL };
  struct server s;
  struct nbd_handle *a, *b;
  static uint8_t abuf[16][4096];
  static struct batch bb;
  uint8_t buf[4096];
  int i;

  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  a = server_connect (&s);
  b = server_connect (&s);
  for (i = 0; i < 16; i++)
    ck_assert_int_gt (nbd_aio_pread (a, abuf[i], 4096, (uint64_t) i * 4096,
                                     NBD_NULL_COMPLETION, 0), 0);
  issue_reads (b, &bb, 9);
  usleep (50000);
  nbd_close (a);                /* no NBD_CMD_DISC: an abrupt hang-up */
  wait_reads (b, &bb);
  ck_assert_int_eq (nbd_pread (b, buf, sizeof buf, 8192, 0), 0);
  check_pattern (buf, sizeof buf, 8192);
  nbd_shutdown (b, 0);
  nbd_close (b);
  server_cleanup (&s);
}
END_TEST

/* The image shrinks under the server: reads past its new end fail
 * with an error the client sees.
 */
START_TEST (test_image_error_reaches_client)
{
  static const char *const params[] = { "profile=fixed", "service=1ms", NULL };
  struct server s;
  struct nbd_handle *nbd;
  uint8_t buf[4096];

  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  nbd = server_connect (&s);
  ck_assert_int_eq (truncate (s.image, 1 << 20), 0);
  ck_assert_int_eq (nbd_pread (nbd, buf, sizeof buf, 0, 0), 0);
  ck_assert_int_eq (nbd_pread (nbd, buf, sizeof buf, 8 << 20, 0), -1);
  ck_assert_int_eq (nbd_get_errno (), EIO);
  nbd_shutdown (nbd, 0);
  nbd_close (nbd);
  server_cleanup (&s);
}
END_TEST

/* Each bad parameter stops start-up with a message naming it, and the
 * image is left as it was.
 */
static const struct {
  const char *param;
  const char *message;
} bad_params[] = {
  { "sched=elevator", "sched=elevator" },
  { "profile=no-such-drive", "no-such-drive" },
  { "seed=minus-one", "seed=minus-one" },
  { "service=5parsecs", "service=5parsecs" },
  { "spin=fast", "spin=fast" },
  { "spin=18446744073.7", "spin=18446744073.7" },
  { "realtime=sometimes", "realtime=sometimes" },
  { "host-sync=maybe", "host-sync=maybe" },
  { "max-transfer=1000", "max-transfer=1000" },
  { "nbd-max-block=big", "nbd-max-block=big" },
  { "nbd-max-block=2K", "nbd-max-block=2K" },
  { "qdepth=0", "qdepth=0" },
  { "cfq-slice-idle=soon", "cfq-slice-idle=soon" },
  { "trace=/nonexistent/dir/trace.csv", "trace=/nonexistent/dir/trace.csv" },
  { "stats=", "stats" },
  { "no-such-parameter=1", "no-such-parameter" },
};

START_TEST (test_bad_parameter)
{
  struct server s;
  char image_arg[160], *err;
  const char *params[3];
  uint8_t buf[4096];
  FILE *fp;
  int status;

  server_prepare (&s, 1 << 20);
  snprintf (image_arg, sizeof image_arg, "image=%s", s.image);
  params[0] = image_arg;
  params[1] = bad_params[_i].param;
  params[2] = NULL;
  status = run_nbdkit (params, &err);
  ck_assert_msg (WIFEXITED (status) && WEXITSTATUS (status) != 0,
                 "%s: nbdkit did not fail", bad_params[_i].param);
  ck_assert_msg (strstr (err, bad_params[_i].message) != NULL,
                 "%s: message does not name it: %s", bad_params[_i].param, err);
  free (err);
  fp = fopen (s.image, "r");
  ck_assert_uint_eq (fread (buf, 1, sizeof buf, fp), sizeof buf);
  fclose (fp);
  check_pattern (buf, sizeof buf, 0);
  server_cleanup (&s);
}
END_TEST

START_TEST (test_bad_image)
{
  static const char *const missing[] = { "image=/nonexistent/disk.img", NULL };
  static const char *const none[] = { "sched=fifo", NULL };
  char *err;
  int status;

  status = run_nbdkit (missing, &err);
  ck_assert (WIFEXITED (status) && WEXITSTATUS (status) != 0);
  ck_assert_msg (strstr (err, "/nonexistent/disk.img"), "%s", err);
  free (err);
  status = run_nbdkit (none, &err);
  ck_assert (WIFEXITED (status) && WEXITSTATUS (status) != 0);
  ck_assert_msg (strstr (err, "image="), "%s", err);
  free (err);
}
END_TEST

/* A request longer than max-transfer, alone on the drive: served as
 * its commands one after another, the reply when the last completes.
 * profile=fixed, service=2ms, max-transfer=128K: a 1 MiB write is
 * eight commands, 16 ms from its start; its data is all written.  Only
 * the dispatcher times a command that is not the last (no worker
 * waits for it): if it did not, this write would never complete.
 */
START_TEST (test_request_longer_than_command)
{
  static const char *const params[] = {
    "profile=fixed", "service=2ms", "max-transfer=128K", "sched=fifo", NULL
  };
  static uint8_t wbuf[1 << 20], rbuf[1 << 20];
  struct server s;
  struct nbd_handle *nbd;
  struct trace_row *rows;
  size_t i;

  for (i = 0; i < sizeof wbuf; i++)
    wbuf[i] = (uint8_t) (i * 7 + 3);
  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  nbd = server_connect (&s);
  ck_assert_int_eq (nbd_pwrite (nbd, wbuf, sizeof wbuf, 4 << 20, 0), 0);
  ck_assert_int_eq (nbd_pread (nbd, rbuf, sizeof rbuf, 4 << 20, 0), 0);
  ck_assert_mem_eq (rbuf, wbuf, sizeof wbuf);
  /* Nothing advertised by default (nbd-max-block=off). */
  ck_assert_int_eq (nbd_get_block_size (nbd, LIBNBD_SIZE_MAXIMUM), 0);
  nbd_shutdown (nbd, 0);
  nbd_close (nbd);
  server_stop (&s, NULL);
  ck_assert_int_eq (read_trace (&s, &rows), 2);
  for (i = 0; i < 2; i++) {
    ck_assert_uint_eq (rows[i].length, 1 << 20);
    ck_assert_uint_eq (rows[i].done - rows[i].start, 8 * 2 * MS);
  }
  free (rows);
  server_cleanup (&s);
}
END_TEST

/* nbd-max-block=auto advertises the drive's max-transfer (here the
 * default drive's real one, 128 KiB) as the NBD maximum block size; a
 * size is taken as it is.
 */
START_TEST (test_nbd_max_block)
{
  static const char *const auto_params[] = {
    "max-transfer=128K", "nbd-max-block=auto", NULL
  };
  static const char *const size_params[] = {
    "profile=fixed", "nbd-max-block=1M", NULL
  };
  const char *const *params[] = { auto_params, size_params };
  const int64_t want[] = { 128 * 1024, 1024 * 1024 };
  int i;

  for (i = 0; i < 2; i++) {
    struct server s;
    struct nbd_handle *nbd;

    server_prepare (&s, IMAGE_BYTES);
    server_start (&s, params[i]);
    nbd = server_connect (&s);
    ck_assert_int_eq (nbd_get_block_size (nbd, LIBNBD_SIZE_MAXIMUM), want[i]);
    ck_assert_int_eq (nbd_get_block_size (nbd, LIBNBD_SIZE_PREFERRED), 4096);
    ck_assert_int_eq (nbd_get_block_size (nbd, LIBNBD_SIZE_MINIMUM), 1);
    nbd_shutdown (nbd, 0);
    nbd_close (nbd);
    server_stop (&s, NULL);
    server_cleanup (&s);
  }
}
END_TEST

START_TEST (test_dump_plugin_and_help)
{
  static const char *const dump[] = { "--dump-plugin", NULL };
  static const char *const help[] = { "--help", NULL };
  char *out;

  ck_assert_int_eq (run_nbdkit (dump, &out), 0);
  ck_assert_msg (strstr (out, "hddsim_policies=fifo"), "%s", out);
  ck_assert_msg (strstr (out, "hddsim_profile_st340014a=Seagate"), "%s", out);
  ck_assert_msg (strstr (out, "hddsim_profiles=st340014a,"), "%s", out);
  /* Unlimited until measured in a guest (issue 16); the real size. */
  ck_assert_msg (strstr (out, "hddsim_max_transfer_st340014a=0\n"), "%s",
                 out);
  ck_assert_msg (strstr (out, "hddsim_max_transfer_real_st340014a=128K\n"),
                 "%s", out);
  ck_assert_msg (strstr (out, "hddsim_max_transfer_real_st4000nm0033="
                         "1280K\n"), "%s", out);
  ck_assert_msg (strstr (out, "hddsim_default_nbd_max_block=off\n"), "%s",
                 out);
  free (out);
  ck_assert_int_eq (run_nbdkit (help, &out), 0);
  ck_assert_msg (strstr (out, "cfq-slice-idle="), "%s", out);
  ck_assert_msg (strstr (out, "seek-avg="), "%s", out);
  free (out);
}
END_TEST

static int
npolicies (void)
{
  int n = 0;
  while (policy_list[n])
    n++;
  return n;
}

static Suite *
plugin_suite (void)
{
  Suite *s = suite_create ("plugin");
  TCase *data = tcase_create ("data");
  TCase *conc = tcase_create ("concurrency");
  TCase *fail = tcase_create ("failures");
  TCase *startup = tcase_create ("start-up errors");

  tcase_add_test (data, test_data_round_trip);
  tcase_add_test (data, test_dump_plugin_and_help);
  tcase_add_test (data, test_request_longer_than_command);
  tcase_add_test (data, test_nbd_max_block);
  tcase_add_test (conc, test_concurrent_one_connection);
  tcase_add_test (conc, test_concurrent_two_connections);
  tcase_add_test (conc, test_concurrent_mechanical);
  tcase_add_test (conc, test_fixed_service_times);
  tcase_add_test (data, test_is_rotational);
  tcase_add_test (conc, test_service_times_match_model);
  tcase_add_test (conc, test_flush_after_writes);
  tcase_add_loop_test (conc, test_replay_equals_live, 0, 3 * npolicies ());
  tcase_add_test (fail, test_sigterm_with_queue);
  tcase_add_test (fail, test_disconnect_mid_queue);
  tcase_add_test (fail, test_image_error_reaches_client);
  tcase_add_loop_test (startup, test_bad_parameter, 0,
                       sizeof bad_params / sizeof bad_params[0]);
  tcase_add_test (startup, test_bad_image);
  /* nbdkit preloaded with ASan hangs on exit after a failed start-up
   * (as with its own file plugin): the sanitizer run skips these.
   */
  tcase_set_tags (startup, "startup-failure");
  tcase_set_timeout (data, 60);
  tcase_set_timeout (conc, 120);
  tcase_set_timeout (fail, 60);
  tcase_set_timeout (startup, 60);
  suite_add_tcase (s, data);
  suite_add_tcase (s, conc);
  suite_add_tcase (s, fail);
  suite_add_tcase (s, startup);
  return s;
}

int
main (void)
{
  /* nbdkit children must not get SIGPIPE'd test processes' signals */
  signal (SIGPIPE, SIG_IGN);
  return run_suite (plugin_suite ());
}
