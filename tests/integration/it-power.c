/* hddsim: power states and faults through NBD (standby=, fault=).
 *
 * The model imposes the spin-up, so a read that wakes a stopped drive
 * takes at least the profile's spin-up time on the wall clock too: a
 * lower bound, never an upper one (the host may be late, never
 * early).
 */

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <libnbd.h>

#include "../lib/server.h"
#include "../../model/params.h"
#include "../../profile/profile.h"
#include "../../trace/reader.h"
#include "../unit/run-suite.h"

#define IMAGE_BYTES (UINT64_C(64) << 20)
#define MS UINT64_C(1000000)

static char buf[4096];

static char *
slurp (const char *path)
{
  FILE *fp = fopen (path, "r");
  char *text;
  long n;

  ck_assert_ptr_nonnull (fp);
  fseek (fp, 0, SEEK_END);
  n = ftell (fp);
  rewind (fp);
  text = calloc (1, (size_t) n + 1);
  ck_assert_uint_eq (fread (text, 1, (size_t) n, fp), (size_t) n);
  fclose (fp);
  return text;
}

/* Field 'col' (from 0) of the trace's line whose op and offset are
 * these, as a number.
 */
static uint64_t
trace_field (const char *path, const char *op, uint64_t offset, int col)
{
  char *text = slurp (path), *line, *save = NULL, want[64];
  uint64_t v = UINT64_MAX;

  snprintf (want, sizeof want, ",%s,%" PRIu64 ",", op, offset);
  for (line = strtok_r (text, "\n", &save); line;
       line = strtok_r (NULL, "\n", &save))
    if (strstr (line, want)) {
      char *p = line;
      int c;
      for (c = 0; c < col && p; c++) {
        p = strchr (p, ',');
        if (p)
          p++;
      }
      ck_assert_ptr_nonnull (p);
      v = strtoull (p, NULL, 10);
    }
  free (text);
  ck_assert_msg (v != UINT64_MAX, "%s: no %s row at %" PRIu64, path, op,
                 offset);
  return v;
}

static uint64_t
profile_spinup (const char *profile)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];
  uint64_t ns;

  ck_assert_int_eq (hdd_params_load_profile (p, profile, err, sizeof err), 0);
  ns = p->power_recovery[HDD_PS_STANDBY];
  hdd_params_free (p);
  return ns;
}

static double
timed_read (struct nbd_handle *nbd, uint64_t offset)
{
  double t0 = now_seconds ();

  ck_assert_msg (nbd_pread (nbd, buf, sizeof buf, offset, 0) == 0,
                 "pread: %s", nbd_get_error ());
  return now_seconds () - t0;
}

/* After standby=5s of idle, the next read waits the spin-up: at least
 * the profile's spinup= on the wall clock, exactly it in the trace's
 * wake_ns, one wake in the stats.
 */
START_TEST (test_standby_read_waits_spinup)
{
  static const char *const params[] = {
    "profile=st500lt012", "standby=5s", NULL
  };
  uint64_t spinup = profile_spinup ("st500lt012");
  struct nbd_handle *nbd;
  struct server s;
  double took;
  char *stats;

  ck_assert_uint_gt (spinup, 0);
  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  nbd = server_connect (&s);
  timed_read (nbd, 0);
  sleep (6);                    /* 5 s of idle, and a margin */
  took = timed_read (nbd, 1 << 20);
  ck_assert_msg (took >= spinup / 1e9, "a read after standby took %.3f s, "
                 "less than the spin-up, %.3f s", took, spinup / 1e9);
  nbd_close (nbd);
  server_stop (&s, NULL);
  ck_assert_uint_eq (trace_field (s.trace, "read", 1 << 20, 26), spinup);
  ck_assert_uint_eq (trace_field (s.trace, "read", 0, 26), 0);
  stats = slurp (s.stats);
  ck_assert_msg (strstr (stats, "\"wakes\": 1,"), "%s", stats);
  ck_assert_msg (strstr (stats, "\"standby\": 1}"), "%s", stats);
  free (stats);
  server_cleanup (&s);
}
END_TEST

/* fault=slow:3@at:500ms: a row at exactly 500 ms, and a read after it
 * takes three times service=1ms; fault=recover@signal: SIGUSR2 makes
 * it healthy again.  The trace still reads (the fault rows are no
 * requests).
 */
START_TEST (test_fault_rows_and_factor)
{
  static const char *const params[] = {
    "profile=fixed", "service=1ms", "fault=slow:3@at:500ms",
    "fault=recover@signal", NULL
  };
  struct nbd_handle *nbd;
  struct trace_row *rows;
  char err[TRACE_ERRLEN];
  struct server s;
  uint64_t start, done;
  char *trace;

  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  nbd = server_connect (&s);
  usleep (700 * 1000);
  timed_read (nbd, 4096);
  ck_assert_int_eq (kill (s.pid, SIGUSR2), 0);
  usleep (100 * 1000);
  timed_read (nbd, 8192);
  nbd_close (nbd);
  server_stop (&s, NULL);

  start = trace_field (s.trace, "read", 4096, 6);
  done = trace_field (s.trace, "read", 4096, 7);
  ck_assert_uint_eq (done - start, 3 * MS);
  ck_assert_uint_eq (trace_field (s.trace, "read", 4096, 27), 2 * MS);
  start = trace_field (s.trace, "read", 8192, 6);
  done = trace_field (s.trace, "read", 8192, 7);
  ck_assert_uint_eq (done - start, 1 * MS);
  trace = slurp (s.trace);
  ck_assert_msg (strstr (trace, ",0,fault,0,0,500000000,500000000,"
                         "500000000,"), "%s", trace);
  ck_assert_msg (strstr (trace, ",slow:3@at:500ms,0\n"), "%s", trace);
  ck_assert_msg (strstr (trace, ",recover@signal,0\n"), "%s", trace);
  free (trace);
  ck_assert_int_eq (trace_read (s.trace, &rows, err, sizeof err), 2);
  free (rows);
  server_cleanup (&s);
}
END_TEST

/* Write 'text' to 'path' as run does: whole, then renamed into
 * place, so that the drive never reads half of it.
 */
static void
put_file (const char *path, const char *text)
{
  char tmp[256];
  FILE *fp;

  snprintf (tmp, sizeof tmp, "%s.tmp", path);
  fp = fopen (tmp, "w");
  ck_assert_ptr_nonnull (fp);
  fputs (text, fp);
  ck_assert_int_eq (fclose (fp), 0);
  ck_assert_int_eq (rename (tmp, path), 0);
}

/* fault=bad@file:PATH: the sectors come from the file's line.  Before
 * it appears, sector 2048 reads; after, a read over it fails with EIO
 * at the recovery limit (erc=1s), and the trace's fault row names the
 * sectors.  A second fault whose file holds no LBA+COUNT never fires:
 * its sectors, 4096+8, still read.
 */
START_TEST (test_bad_sectors_from_file)
{
  char good[200], junk[200], p_good[220], p_junk[220];
  const char *params[] = {
    "profile=st340014a", "erc=1s", "retry-rate=0", p_good, p_junk, NULL
  };
  struct nbd_handle *nbd;
  struct server s;
  char *trace, want[300];

  server_prepare (&s, IMAGE_BYTES);
  snprintf (good, sizeof good, "%s/bad-good", s.dir);
  snprintf (junk, sizeof junk, "%s/bad-junk", s.dir);
  snprintf (p_good, sizeof p_good, "fault=bad@file:%s", good);
  snprintf (p_junk, sizeof p_junk, "fault=bad@file:%s", junk);
  server_start (&s, params);
  nbd = server_connect (&s);
  timed_read (nbd, 2048 * 512);
  put_file (good, "2048+8\n");
  put_file (junk, "4096 8\n");
  usleep (300 * 1000);          /* 30 polls */
  ck_assert_int_eq (nbd_pread (nbd, buf, sizeof buf, 2048 * 512, 0), -1);
  ck_assert_int_eq (nbd_get_errno (), EIO);
  timed_read (nbd, 4096 * 512);
  nbd_close (nbd);
  server_stop (&s, NULL);

  trace = slurp (s.trace);
  /* the event column, then clean_ns (issue 29) */
  snprintf (want, sizeof want, ",bad:2048+8@file:%s,0\n", good);
  ck_assert_msg (strstr (trace, want), "%s", trace);
  ck_assert_msg (!strstr (trace, junk), "%s", trace);
  ck_assert_msg (strstr (trace, ",medium-error,") != NULL, "%s", trace);
  free (trace);
  server_cleanup (&s);
}
END_TEST

/* Bad values are refused at start-up, naming the parameter. */
START_TEST (test_bad_values_refused)
{
  static const struct { const char *param, *says; } cases[] = {
    { "fault=slow:3", "expected KIND@TRIGGER" },
    { "fault=slow:0.5@at:1s", "a factor from 1 to 1000" },
    { "fault=slow:2@soon", "fault=slow:2@soon: expected at:DURATION" },
    { "fault=bad:99999999999+8@at:1s", "outside the drive's" },
    { "fault=bad@at:1s", "bad without LBA+COUNT takes its sectors from "
      "its trigger's file" },
    { "standby=hdparm:253", "vendor-defined" },
  };
  size_t i;

  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct server s;
    const char *params[] = {
      "profile=st4000nm0033", NULL, NULL, NULL
    };
    char image[160], *err;

    server_prepare (&s, IMAGE_BYTES);
    snprintf (image, sizeof image, "image=%s", s.image);
    params[1] = image;
    params[2] = cases[i].param;
    ck_assert_int_ne (run_nbdkit (params, &err), 0);
    ck_assert_msg (strstr (err, cases[i].says), "%s: %s", cases[i].param,
                   err);
    free (err);
    server_cleanup (&s);
  }
}
END_TEST

static Suite *
power_suite (void)
{
  Suite *s = suite_create ("power states and faults");
  TCase *tc = tcase_create ("nbd");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_standby_read_waits_spinup);
  tcase_add_test (tc, test_fault_rows_and_factor);
  tcase_add_test (tc, test_bad_sectors_from_file);
  tcase_add_test (tc, test_bad_values_refused);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  signal (SIGPIPE, SIG_IGN);
  return run_suite (power_suite ());
}
