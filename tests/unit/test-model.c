/* hddsim: unit tests of the drive model's mechanics, on a virtual
 * clock.
 *
 * Every expected value is worked out from the parameters and the
 * physics (seek-avg + half a revolution + transfer + overhead, bytes
 * per revolution times revolutions per second, ...), never taken from
 * a run of the code.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "../../model/hdd.h"
#include "../../model/hdd_int.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define GIB (UINT64_C(1) << 30)

static uint64_t rng_state;

static uint64_t
rnd (void)
{
  /* xorshift64*: the test's own random numbers, not the model's. */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(2685821657736338717);
}

static struct hdd_params *
params (const char *profile, const char *const *kv)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_ptr_nonnull (p);
  ck_assert_msg (hdd_params_load_profile (p, profile, err, sizeof err) == 0,
                 "%s", err);
  for (; kv && kv[0]; kv += 2)
    ck_assert_msg (hdd_params_set (p, kv[0], kv[1], err, sizeof err) == 0,
                   "%s=%s: %s", kv[0], kv[1], err);
  ck_assert_msg (hdd_params_validate (p, err, sizeof err) == 0, "%s", err);
  return p;
}

static struct hdd *
drive (const char *profile, const char *const *kv, uint64_t image,
       uint64_t seed)
{
  struct hdd_params *p = params (profile, kv);
  char err[HDD_ERRLEN];
  struct hdd *d = hdd_new (p, image, seed, err, sizeof err);

  ck_assert_msg (d != NULL, "%s", err);
  hdd_params_free (p);
  return d;
}

static double
param_ns (const struct hdd *d, const char *key)
{
  const struct hdd_params *p = hdd_params_of (d);
  if (strcmp (key, "seek-avg") == 0) return (double) p->seek_avg;
  if (strcmp (key, "seek-track") == 0) return (double) p->seek_track;
  if (strcmp (key, "seek-full") == 0) return (double) p->seek_full;
  if (strcmp (key, "overhead") == 0) return (double) p->overhead;
  abort ();
}

static double
rev_ns (const struct hdd *d)
{
  return 60e9 / (double) hdd_params_of (d)->rpm;
}

/* Serve one request at time t after the host was quiet since the last
 * completion: what the engine does at QD1.
 */
static uint64_t
serve_at (struct hdd *d, enum io_op op, uint64_t off, uint64_t len,
          uint64_t t, struct hdd_cost *c)
{
  struct io io = { .op = op, .offset = off, .length = len };

  hdd_idle (d, t);
  return hdd_serve (d, &io, t, c);
}

/* ---- profile=fixed ---- */

START_TEST (test_fixed_service)
{
  static const char *const kv[] = { "service", "3ms", NULL };
  struct hdd *d = drive ("fixed", kv, GIB, 1);
  enum io_op ops[] = { IO_READ, IO_WRITE, IO_FLUSH, IO_TRIM, IO_ZERO };
  uint64_t t = 0;
  size_t i;

  for (i = 0; i < 5; i++) {
    struct hdd_cost c;
    uint64_t s = serve_at (d, ops[i], i * 4096, ops[i] == IO_FLUSH ? 0 : 4096,
                           t, &c);
    ck_assert_uint_eq (s, 3 * MS);
    ck_assert_uint_eq (hdd_cost_total (&c), s);
    t += s;
  }
  hdd_free (d);
}
END_TEST

/* service= alone turns any profile into a fixed one. */
START_TEST (test_fixed_by_service_key)
{
  static const char *const kv[] = { "service", "250us", NULL };
  struct hdd *d = drive ("st340014a", kv, GIB, 1);
  struct hdd_cost c;

  ck_assert_uint_eq (serve_at (d, IO_READ, 12345 * 512, 65536, 0, &c),
                     250 * US);
  hdd_free (d);
}
END_TEST

/* ---- parameters ---- */

START_TEST (test_param_errors)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_int_eq (hdd_params_set (p, "rpm", "fast", err, sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, "rpm"));
  ck_assert_ptr_nonnull (strstr (err, "fast"));
  ck_assert_int_eq (hdd_params_set (p, "seek-avg", "8.5 ms", err,
                                    sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, "seek-avg"));
  ck_assert_int_eq (hdd_params_set (p, "cache", "maybe", err, sizeof err),
                    -1);
  ck_assert_ptr_nonnull (strstr (err, "maybe"));
  ck_assert_int_eq (hdd_params_set (p, "no-such-key", "1", err, sizeof err),
                    1);
  ck_assert_int_eq (hdd_params_set (p, "seek-table", "1:1ms", err,
                                    sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, "seek-table"));
  ck_assert_int_eq (hdd_params_load_profile (p, "nosuch", err, sizeof err),
                    -1);
  ck_assert_ptr_nonnull (strstr (err, "nosuch"));

  /* Inconsistent sets fail validation, naming the keys. */
  ck_assert_int_eq (hdd_params_set (p, "seek-track", "9ms", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, "seek-track"));
  hdd_params_free (p);
}
END_TEST

START_TEST (test_image_too_big)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_ptr_null (hdd_new (p, UINT64_C(50) << 30, 1, err, sizeof err));
  ck_assert_ptr_nonnull (strstr (err, "capacity"));
  hdd_params_free (p);
}
END_TEST

/* ---- QD1 random reads: seek-avg + half a revolution + transfer ---- */

static void
check_random_reads (const char *profile)
{
  static const char *const kv[] = { "cache", "off", NULL };
  struct hdd *d = drive (profile, kv, 0, 7);
  const struct hdd_params *p = hdd_params_of (d);
  const uint64_t cap = p->capacity, n = 4000;
  /* A 4K transfer at the LBA-weighted mean track length. */
  double spt = (double) (p->spt_outer + p->spt_inner) / 2;
  double xfer = 8 / spt * rev_ns (d) + 512 * 1e9 / (double) p->iface_rate;
  double expect = param_ns (d, "seek-avg") + rev_ns (d) / 2 + xfer
                  + param_ns (d, "overhead");
  double sum = 0;
  uint64_t t = 0, i;

  hdd_free (d);
  d = drive (profile, kv, cap, 7);
  rng_state = 0x1234567;
  for (i = 0; i < n; i++) {
    struct hdd_cost c;
    uint64_t off = rnd () % (cap / 4096) * 4096;
    uint64_t s = serve_at (d, IO_READ, off, 4096, t, &c);
    ck_assert_uint_eq (hdd_cost_total (&c), s);
    ck_assert (!c.cache_hit);
    sum += (double) s;
    t += s + 100 * US;
  }
  ck_assert_msg (fabs (sum / n - expect) <= 0.04 * expect,
                 "%s: mean %.3f ms, expected %.3f ms +-4%%", profile,
                 sum / n / 1e6, expect / 1e6);
  hdd_free (d);
}

START_TEST (test_random_read_qd1)
{
  check_random_reads ("st340014a");
  check_random_reads ("st4000nm0033");
  check_random_reads ("st500lt012");
}
END_TEST

/* ---- sequential reads stream at the media rate ---- */

/* Sustained rate of zone z from the parameters: a cylinder holds
 * surfaces * spt sectors and takes surfaces revolutions plus the
 * head switches and the one-cylinder seek that the skews hide.
 */
static double
zone_rate (const struct hdd *d, unsigned z)
{
  const struct hdd_params *p = hdd_params_of (d);
  double spt = (double) hdd_geom (d)->zones[z].spt;
  double h = (double) p->surfaces;
  double ts = (double) (p->track_skew ? p->track_skew : p->head_switch);
  double cs = (double) (p->cyl_skew ? p->cyl_skew
                        : p->seek_track + p->write_settle);

  return h * spt * SECTOR / ((h * rev_ns (d) + (h - 1) * ts + cs) / 1e9);
}

/* Read 'bytes' sequentially in 64K requests from image offset 'off',
 * with 'gap' of host time between a completion and the next request.
 */
static double
seq_rate (struct hdd *d, uint64_t off, uint64_t bytes, uint64_t gap)
{
  uint64_t t = 0, start = 0, done;

  for (done = 0; done < bytes; done += 65536) {
    struct hdd_cost c;
    uint64_t s = serve_at (d, IO_READ, off + done, 65536, t, &c);
    if (done == 0)
      start = t + s;            /* skip the first seek */
    t += s + gap;
  }
  return (double) (bytes - 65536) / ((double) (t - gap - start) / 1e9);
}

START_TEST (test_sequential_streams)
{
  static const char *const kv[] = { "cache", "wb", NULL };
  struct hdd *d = drive ("st340014a", kv, 0, 3);
  uint64_t cap = hdd_params_of (d)->capacity;
  double want, got;

  hdd_free (d);
  d = drive ("st340014a", kv, cap, 3);
  want = zone_rate (d, 0);
  got = seq_rate (d, 0, 16 << 20, 50 * US);
  ck_assert_msg (fabs (got - want) <= 0.03 * want,
                 "outer zone: %.2f MB/s, expected %.2f MB/s", got / 1e6,
                 want / 1e6);
  hdd_free (d);
}
END_TEST

static Suite *
model_suite (void)
{
  Suite *s = suite_create ("model");
  TCase *tc = tcase_create ("mechanics");

  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_fixed_service);
  tcase_add_test (tc, test_fixed_by_service_key);
  tcase_add_test (tc, test_param_errors);
  tcase_add_test (tc, test_image_too_big);
  tcase_add_test (tc, test_random_read_qd1);
  tcase_add_test (tc, test_sequential_streams);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (model_suite ());
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
