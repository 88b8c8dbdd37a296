/* hddsim: unit tests of drive profiles: the built-in ones, INI files
 * (libinih) and their error messages, and the help listings.
 */

#include <inttypes.h>
#include <unistd.h>

#include "test-model-util.h"

static char *
capture (void (*fn) (FILE *))
{
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream (&buf, &len);

  ck_assert_ptr_nonnull (fp);
  fn (fp);
  fclose (fp);
  return buf;
}

static char tmpdir[] = "/tmp/hddsim-test-model-XXXXXX";

static const char *
write_ini (const char *name, const char *text)
{
  static char path[256];
  FILE *fp;

  snprintf (path, sizeof path, "%s/%s", tmpdir, name);
  fp = fopen (path, "w");
  ck_assert_ptr_nonnull (fp);
  fputs (text, fp);
  fclose (fp);
  return path;
}

START_TEST (test_builtin_profiles)
{
  static const char *const names[] = {
    "st340014a", "st4000nm0033", "st500lt012", "fixed",
    "st2000dm006", "hus726t4tala6l4", "st2000lm015", "exos2x18",
    "st8000as0002", "wd40efax",
  };
  size_t i;

  for (i = 0; i < 10; i++) {
    struct hdd_params *p = hdd_params_new ();
    char err[HDD_ERRLEN];
    struct hdd *d;
    ck_assert_ptr_eq (hdd_profile_find (names[i]), hdd_profile_list[i]);
    ck_assert_str_eq (hdd_profile_list[i]->name, names[i]);
    ck_assert_msg (hdd_params_load_profile (p, names[i], err, sizeof err)
                   == 0, "%s", err);
    ck_assert_str_eq (hdd_params_profile_name (p), names[i]);
    ck_assert_msg (hdd_params_validate (p, err, sizeof err) == 0, "%s", err);
    d = hdd_new (p, GIB, 1, err, sizeof err);
    ck_assert_msg (d != NULL, "%s", err);
    hdd_free (d);
    hdd_params_free (p);
  }
  /* The default is the 2006 benchmark's drive. */
  {
    struct hdd_params *p = hdd_params_new ();
    ck_assert_str_eq (hdd_params_profile_name (p), "st340014a");
    ck_assert_uint_eq (p->rpm, 7200);
    ck_assert_uint_eq (p->cache_size, 2 << 20);
    ck_assert_uint_eq (p->iface_rate, 100000000);
    hdd_params_free (p);
  }
  ck_assert_ptr_null (hdd_profile_list[10]);
}
END_TEST

START_TEST (test_help_lists_keys)
{
  static const char *const keys[] = {
    "rpm=", "seek-track=", "seek-avg=", "seek-full=", "seek-table=",
    "write-settle=", "head-switch=", "iface-rate=", "overhead=", "cache=",
    "cache-size=", "cache-segments=", "readahead=", "placement=",
    "service=", "surfaces=", "zones=", "sectors-outer=", "sectors-inner=",
    "track-skew=", "cyl-skew=", "layout=", "capacity=", "profile=",
  };
  char *help = capture (hdd_profile_print_help);
  size_t i;

  for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
    ck_assert_msg (strstr (help, keys[i]) != NULL, "%s missing", keys[i]);
  free (help);
}
END_TEST

/* Every value can be overridden after the profile. */
START_TEST (test_overrides)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_int_eq (hdd_params_load_profile (p, "st500lt012", err,
                                             sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "rpm", "7200", err, sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "seek-avg", "10ms", err, sizeof err),
                    0);
  ck_assert_int_eq (hdd_params_set (p, "iface-rate", "58MB/s", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "readahead", "off", err, sizeof err),
                    0);
  ck_assert_uint_eq (p->rpm, 7200);
  ck_assert_uint_eq (p->seek_avg, 10000000);
  ck_assert_uint_eq (p->iface_rate, 58000000);
  ck_assert_uint_eq (p->readahead, 0);
  ck_assert_str_eq (hdd_params_profile_name (p), "st500lt012");
  hdd_params_free (p);
}
END_TEST

START_TEST (test_ini_profile)
{
  const char *path;
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  path = write_ini ("mine.ini",
                    "; a drive of my own\n"
                    "[drive]\n"
                    "name = mydrive\n"
                    "rpm = 5400\n"
                    "seek-avg = 12ms\n"
                    "seek-full = 25ms\n"
                    "cache = wt\n");
  ck_assert_msg (hdd_params_load_profile (p, path, err, sizeof err) == 0,
                 "%s", err);
  ck_assert_str_eq (hdd_params_profile_name (p), "mydrive");
  ck_assert_uint_eq (p->rpm, 5400);
  ck_assert_uint_eq (p->seek_avg, 12000000);
  ck_assert_int_eq (p->cache, CACHE_WT);
  /* Unset keys keep the default profile's values. */
  ck_assert_uint_eq (p->cache_size, 2 << 20);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), 0);

  /* base = starts from another built-in profile. */
  path = write_ini ("based.ini", "base = st4000nm0033\nseek-avg = 9ms\n");
  ck_assert_msg (hdd_params_load_profile (p, path, err, sizeof err) == 0,
                 "%s", err);
  ck_assert_uint_eq (p->surfaces, 10);   /* st4000nm0033 */
  ck_assert_uint_eq (p->seek_avg, 9000000);
  hdd_params_free (p);
}
END_TEST

/* Errors name the file, the line and the key (and the bad value). */
START_TEST (test_ini_errors)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];
  const char *path;

  path = write_ini ("bad-value.ini", "[drive]\nrpm = 7200\nseek-avg = soon\n");
  ck_assert_int_eq (hdd_params_load_profile (p, path, err, sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, path));
  ck_assert_ptr_nonnull (strstr (err, "line 3"));
  ck_assert_ptr_nonnull (strstr (err, "seek-avg"));
  ck_assert_ptr_nonnull (strstr (err, "soon"));

  path = write_ini ("bad-key.ini", "[drive]\nrpn = 7200\n");
  ck_assert_int_eq (hdd_params_load_profile (p, path, err, sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, "line 2"));
  ck_assert_ptr_nonnull (strstr (err, "rpn"));

  path = write_ini ("bad-syntax.ini", "rpm = 7200\nthis is not ini\n");
  ck_assert_int_eq (hdd_params_load_profile (p, path, err, sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, "line 2"));

  /* Values each fine, inconsistent together: validation names the
   * file the profile came from.
   */
  path = write_ini ("inconsistent.ini", "; comment\n[drive]\n\n"
                    "rpm = 5400\nseek-track = 9ms\n");
  ck_assert_msg (hdd_params_load_profile (p, path, err, sizeof err) == 0,
                 "%s", err);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), -1);
  ck_assert_msg (strstr (err, path) != NULL, "%s", err);
  ck_assert_ptr_nonnull (strstr (err, "seek-track=9ms"));
  /* ... and the line that set the key the message names. */
  ck_assert_msg (strstr (err, "line 5 (seek-track)") != NULL, "%s", err);
  ck_assert_msg (strstr (err, "rpm") == NULL, "%s", err);
  /* A parameter given over the file: no line to blame. */
  ck_assert_int_eq (hdd_params_set (p, "seek-track", "10ms", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), -1);
  ck_assert_msg (strstr (err, path) != NULL, "%s", err);
  ck_assert_msg (strstr (err, "line 5") == NULL, "%s", err);
  /* A built-in profile loaded after it is no longer a file's. */
  ck_assert_int_eq (hdd_params_load_profile (p, "st340014a", err,
                                             sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "seek-track", "9ms", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), -1);
  ck_assert_msg (strstr (err, path) == NULL, "%s", err);

  ck_assert_int_eq (hdd_params_load_profile (p, "/nonexistent/x.ini", err,
                                             sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, "/nonexistent/x.ini"));
  hdd_params_free (p);
}
END_TEST

static Suite *
profile_suite (void)
{
  Suite *s = suite_create ("model-profile");
  TCase *tc = tcase_create ("profile");

  tcase_add_test (tc, test_builtin_profiles);
  tcase_add_test (tc, test_help_lists_keys);
  tcase_add_test (tc, test_overrides);
  tcase_add_test (tc, test_ini_profile);
  tcase_add_test (tc, test_ini_errors);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr;
  int failed;

  if (mkdtemp (tmpdir) == NULL) {
    perror (tmpdir);
    return EXIT_FAILURE;
  }
  sr = srunner_create (profile_suite ());
  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  {
    char cmd[300];
    snprintf (cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system (cmd) != 0)
      failed++;
  }
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
