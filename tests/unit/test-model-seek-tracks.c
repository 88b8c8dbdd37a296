/* hddsim unit tests: the manufacturers' average seek (seek-avg-weight=
 * tracks): the mean over all seek lengths n = 1..max, each weighted by
 * the max + 1 - n track pairs that far apart, both directions alike
 * (HGST/WD OEM specifications, "Average seek time": sum (max + 1 - n)
 * (Tn.in + Tn.out) / ((max + 1) max)).  Expected values are worked by
 * hand in the comments.
 */

#include "test-model-util.h"
#include "../../model/geometry.h"
#include "../../model/seek.h"
#include "run-suite.h"

/* A seek table through (0, 0) and the given points, its full stroke
 * maxd cylinders.
 */
static void
table (struct seek_curve *c, uint64_t maxd, const uint64_t *d,
       const uint64_t *t, unsigned n)
{
  unsigned i;

  memset (c, 0, sizeof *c);
  c->maxd = maxd;
  c->table = true;
  c->npoints = n + 1;
  for (i = 0; i < n; i++) {
    c->d[i + 1] = d[i];
    c->t[i + 1] = t[i];
  }
}

START_TEST (test_tracks_by_hand)
{
  static struct seek_curve c;
  static const uint64_t d2[] = { 1, 2 }, t2[] = { 1 * MS, 4 * MS };
  static const uint64_t d3[] = { 1, 2, 3 }, t3[] = { 1 * MS, 2 * MS, 6 * MS };

  /* 3 cylinders (max 2): 2 pairs 1 apart, 1 pair 2 apart; each both
     ways: (2 * 2 * 1 ms + 1 * 2 * 4 ms) / (3 * 2) = 12 / 6 = 2 ms. */
  table (&c, 2, d2, t2, 2);
  ck_assert_double_eq_tol (seek_mean_tracks (&c), 2.0 * MS, 1e-6);
  /* 4 cylinders (max 3): weights 3, 2, 1 for 1, 2, 3 cylinders:
     2 (3 * 1 + 2 * 2 + 1 * 6) ms / (4 * 3) = 26 / 12 = 13/6 ms. */
  table (&c, 3, d3, t3, 3);
  ck_assert_double_eq_tol (seek_mean_tracks (&c), 13.0 / 6 * MS, 1e-6);
}
END_TEST

/* Beyond the exact part: a linear seek t(n) = n ns over a million
 * cylinders (max M = 999,999).  sum (M + 1 - n) 2 n / ((M + 1) M)
 * = (M + 1) - (2M + 1) / 3 = (M + 2) / 3 = 333,333.667 ns: a third of
 * the stroke, the classic result for uniformly random track pairs.
 * Lengths beyond the exact part are summed in runs, each at its middle:
 * within a millionth.
 */
START_TEST (test_tracks_linear_third)
{
  static struct seek_curve c;
  static const uint64_t d[] = { 1, 2 }, t[] = { 1, 2 };

  table (&c, 999999, d, t, 2);
  ck_assert_double_eq_tol (seek_mean_tracks (&c), 1000001.0 / 3,
                           1000001.0 / 3 * 1e-6);
}
END_TEST

/* The fit meets seek-avg by the weighting asked for, and the two
 * weightings are different curves (an LBA-uniform mean counts the
 * outer zones' cylinders more).
 */
START_TEST (test_fit_tracks)
{
  static const char *const tracks[] = { "seek-avg-weight", "tracks", NULL };
  struct hdd *dt = drive ("st4000nm0033", tracks, 0, 1);
  struct hdd *dl = drive ("st4000nm0033", NULL, 0, 1);
  const struct seek_curve *ct = hdd_seek_curve (dt);
  const struct seek_curve *cl = hdd_seek_curve (dl);
  double avg = param_ns (dt, "seek-avg");

  ck_assert_double_eq_tol (seek_mean_tracks (ct), avg, avg * 1e-4);
  ck_assert_double_eq_tol (seek_mean_random (cl, hdd_geom (dl)), avg,
                           avg * 1e-4);
  ck_assert (fabs (seek_mean_tracks (cl) - avg) > avg * 1e-3);
  hdd_free (dt);
  hdd_free (dl);
}
END_TEST

static Suite *
suite (void)
{
  Suite *s = suite_create ("model-seek-tracks");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_tracks_by_hand);
  tcase_add_test (tc, test_tracks_linear_third);
  tcase_add_test (tc, test_fit_tracks);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (suite ());
}
