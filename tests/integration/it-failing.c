/* hddsim: integration test of a failing drive through NBD (issue 27):
 * a read over a bad sector of a GNU ddrescue mapfile fails with EIO
 * once the drive has retried it up to its recovery limit (erc=), a
 * read elsewhere does not; the trace and stats= say so.
 *
 * The recovery is modeled time delivered on the wall clock, so the
 * limit is kept short here (erc=1s).  What is asserted of time is the
 * modeled time in the trace (the read fails exactly erc= after its
 * media access), and that the reply never came before it.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <libnbd.h>

#include "../lib/server.h"
#include "../../trace/reader.h"
#include "../unit/run-suite.h"

#define IMAGE_BYTES (UINT64_C(64) << 20)
#define BAD_AT (UINT64_C(1) << 20)      /* one bad sector at 1 MiB */
#define ERC_NS UINT64_C(1000000000)

/* A mapfile as ddrescue writes it: rescued but for one sector. */
static void
write_mapfile (const char *path)
{
  FILE *fp = fopen (path, "w");

  ck_assert_ptr_nonnull (fp);
  fprintf (fp, "# Mapfile. Created by GNU ddrescue version 1.25\n"
           "# current_pos  current_status  current_pass\n"
           "0x%08llX     +               1\n"
           "#      pos        size  status\n"
           "0x%08llX  0x%08llX  +\n"
           "0x%08llX  0x00000200  -\n"
           "0x%08llX  0x%08llX  +\n",
           (unsigned long long) BAD_AT, 0ULL, (unsigned long long) BAD_AT,
           (unsigned long long) BAD_AT,
           (unsigned long long) BAD_AT + 512,
           (unsigned long long) (IMAGE_BYTES - BAD_AT - 512));
  fclose (fp);
}

static uint64_t
stats_value (const char *path, const char *key)
{
  char text[65536], pattern[64], *p;
  FILE *fp = fopen (path, "r");
  size_t n;

  ck_assert_ptr_nonnull (fp);
  n = fread (text, 1, sizeof text - 1, fp);
  fclose (fp);
  text[n] = '\0';
  snprintf (pattern, sizeof pattern, "\"%s\": ", key);
  p = strstr (text, pattern);
  ck_assert_msg (p != NULL, "%s: no %s in %s", path, key, text);
  return strtoull (p + strlen (pattern), NULL, 10);
}

START_TEST (test_bad_sector_fails_with_eio)
{
  struct server s;
  char map[160], param[200], err[TRACE_ERRLEN];
  static char buf[4096];
  const char *params[] = {
    "profile=st340014a", "erc=1s", "retry-rate=0", param, NULL
  };
  struct nbd_handle *nbd;
  struct trace_row *rows;
  double t0, waited;
  long n, i;
  int bad = -1, good = -1;

  server_prepare (&s, IMAGE_BYTES);
  snprintf (map, sizeof map, "%s/mapfile", s.dir);
  write_mapfile (map);
  snprintf (param, sizeof param, "bad-sectors=%s", map);
  server_start (&s, params);
  nbd = server_connect (&s);

  /* Elsewhere: data as it was. */
  ck_assert_msg (nbd_pread (nbd, buf, sizeof buf, 2 * BAD_AT, 0) == 0,
                 "pread elsewhere: %s", nbd_get_error ());
  ck_assert_uint_eq ((uint8_t) buf[100], pattern_byte (2 * BAD_AT + 100));
  /* Over the bad sector: EIO, not before the recovery limit. */
  t0 = now_seconds ();
  ck_assert_int_eq (nbd_pread (nbd, buf, sizeof buf, BAD_AT, 0), -1);
  waited = now_seconds () - t0;
  ck_assert_int_eq (nbd_get_errno (), EIO);
  ck_assert_msg (waited >= 1.0, "failed after %.3f s, before erc=1s",
                 waited);
  /* And the sector after it is fine (its own 4K block). */
  ck_assert_msg (nbd_pread (nbd, buf, sizeof buf, BAD_AT + 4096, 0) == 0,
                 "pread after: %s", nbd_get_error ());
  nbd_close (nbd);
  server_stop (&s, NULL);

  n = trace_read (s.trace, &rows, err, sizeof err);
  ck_assert_msg (n == 3, "%ld rows: %s", n, err);
  for (i = 0; i < n; i++) {
    if (rows[i].offset == BAD_AT)
      bad = (int) i;
    if (rows[i].offset == 2 * BAD_AT)
      good = (int) i;
  }
  ck_assert_int_ge (bad, 0);
  ck_assert_int_ge (good, 0);
  ck_assert_str_eq (rows[bad].outcome, "medium-error");
  ck_assert_str_eq (rows[good].outcome, "ok");
  /* The failed read held the drive for the limit, on top of its own
     access: more than erc, less than erc and a full-stroke read. */
  ck_assert_uint_ge (rows[bad].done - rows[bad].start, ERC_NS);
  ck_assert_uint_le (rows[bad].done - rows[bad].start, ERC_NS + 50000000);
  free (rows);
  ck_assert_uint_eq (stats_value (s.stats, "uncorrectable"), 1);
  ck_assert_uint_eq (stats_value (s.stats, "pending"), 1);
  server_cleanup (&s);
}
END_TEST

/* A bad mapfile stops nbdkit at start-up, naming the file and line. */
START_TEST (test_bad_mapfile_refused)
{
  struct server s;
  char map[160], param[200], image[200], *err = NULL;
  const char *params[] = { "profile=st340014a", "erc=1s", param, NULL,
                           NULL };
  FILE *fp;
  int status;

  server_prepare (&s, IMAGE_BYTES);
  snprintf (map, sizeof map, "%s/mapfile", s.dir);
  fp = fopen (map, "w");
  ck_assert_ptr_nonnull (fp);
  fprintf (fp, "0 ?\n0 512 +\n1024 512 -\n");
  fclose (fp);
  snprintf (param, sizeof param, "bad-sectors=%s", map);
  snprintf (image, sizeof image, "image=%s", s.image);
  params[3] = image;
  status = run_nbdkit (params, &err);
  ck_assert_int_ne (status, 0);
  ck_assert_msg (strstr (err, "line 3") && strstr (err, map),
                 "stderr: %s", err);
  free (err);
  server_cleanup (&s);
}
END_TEST

static Suite *
failing_suite (void)
{
  Suite *s = suite_create ("failing");
  TCase *tc = tcase_create ("failing");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_bad_sector_fails_with_eio);
  tcase_add_test (tc, test_bad_mapfile_refused);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (failing_suite ());
}
