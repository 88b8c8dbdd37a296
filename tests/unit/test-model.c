/* hddsim: unit tests of the drive model's mechanics, on a virtual
 * clock.
 *
 * Every expected value is worked out from the parameters and the
 * physics (seek-avg + half a revolution + transfer + overhead, bytes
 * per revolution times revolutions per second, ...), never taken from
 * a run of the code.
 */


#include <inttypes.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../model/geometry.h"

/* phase-zero=1: the platter is at angle 0 at time 0 whatever the seed
 * (DiskSim's convention, set for imported drives), so a read of LBA 0
 * (track 0, slot 0, no skew) arriving at 0 with no overhead waits for
 * nothing; with the seed's phase it waits for the slot to come round.
 */
START_TEST (test_phase_zero)
{
  const char *const kv[] = { "phase-zero", "1", "overhead", "0",
                             "cache", "off", NULL };
  const char *const seeded[] = { "overhead", "0", "cache", "off", NULL };
  uint64_t seed;

  for (seed = 1; seed <= 3; seed++) {
    struct hdd *d = drive ("st340014a", kv, 0, seed);
    struct hdd *e = drive ("st340014a", seeded, 0, seed);
    struct hdd_cost c;

    serve_at (d, IO_READ, 0, 512, 0, &c);
    ck_assert_uint_eq (c.seek_ns, 0);
    ck_assert_uint_eq (c.rot_ns, 0);
    serve_at (e, IO_READ, 0, 512, 0, &c);
    ck_assert_uint_gt (c.rot_ns, 0);
    hdd_free (d);
    hdd_free (e);
  }
}
END_TEST

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

/* seek-table points are bounded as seek-full is (1 s): the issue's
 * table (a 292-year seek) is refused, and so is a table whose
 * extrapolation beyond its last point passes the bound at the full
 * stroke (st340014a: tens of thousands of cylinders at 1 s each).
 */
START_TEST (test_seek_table_bounded)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_int_eq (hdd_params_set (p, "seek-table",
                                    "1:1ns,2:9223372036.854775807s",
                                    err, sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, "seek-table"));
  ck_assert_ptr_nonnull (strstr (err, "1s"));
  ck_assert_int_eq (hdd_params_set (p, "seek-table", "1:1ns,2:1.000000001s",
                                    err, sizeof err), -1);
  /* At the bound: accepted point by point, refused as extrapolated. */
  ck_assert_int_eq (hdd_params_set (p, "seek-table", "1:1ns,2:1s",
                                    err, sizeof err), 0);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, "full stroke"));
  /* A table reaching the full stroke within the bound is fine. */
  ck_assert_int_eq (hdd_params_set (p, "seek-table",
                                    "1:1ms,1000:5ms,1000000:20ms",
                                    err, sizeof err), 0);
  ck_assert_msg (hdd_params_validate (p, err, sizeof err) == 0, "%s", err);
  hdd_params_free (p);
}
END_TEST

/* Validation messages show nanoseconds as nanoseconds, not "0.000ms". */
START_TEST (test_validation_units)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  /* A linear curve from 100ns to 300ns averages far above 101ns. */
  ck_assert_int_eq (hdd_params_set (p, "seek-track", "100ns", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "seek-avg", "101ns", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "seek-full", "300ns", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), -1);
  ck_assert_msg (strstr (err, "seek-avg=101ns") != NULL, "%s", err);
  ck_assert_msg (strstr (err, "seek-track=100ns") != NULL, "%s", err);
  ck_assert_msg (strstr (err, "seek-full=300ns") != NULL, "%s", err);
  ck_assert_msg (strstr (err, "0.000ms") == NULL, "%s", err);
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

/* The arm at cylinder 'from', surface 0: read its first sector. */
static uint64_t
park (struct hdd *d, uint64_t cyl, uint64_t t)
{
  struct hdd_cost c;
  uint64_t lba = geom_track_lba (hdd_geom (d), cyl, 0);

  return t + serve_at (d, IO_READ, lba * SECTOR, SECTOR, t, &c);
}

static struct hdd_cost
estimate_read (struct hdd *d, uint64_t lba, uint64_t t)
{
  struct io io = { .op = IO_READ, .offset = lba * SECTOR, .length = 4096 };
  struct hdd_cost c;

  hdd_estimate (d, &io, t, &c);
  return c;
}

/* One cylinder, the full stroke, and the mean over random seeks give
 * back seek-track, seek-full and seek-avg.
 */
static void
check_seek_points (const char *profile)
{
  static const char *const kv[] = { "cache", "off", NULL };
  struct hdd *d = drive (profile, kv, 0, 11);
  uint64_t cap = hdd_params_of (d)->capacity, ncyl, t, i, n = 20000;
  double sum = 0, avg;
  struct hdd_cost c;

  hdd_free (d);
  d = drive (profile, kv, cap, 11);
  ncyl = hdd_geom (d)->ncyl;
  t = park (d, 1000, 0);
  c = estimate_read (d, geom_track_lba (hdd_geom (d), 1001, 0), t);
  ck_assert_uint_eq (c.seek_cylinders, 1);
  ck_assert_msg (fabs ((double) c.seek_ns - param_ns (d, "seek-track")) <= 1,
                 "%s: 1-cylinder seek %" PRIu64 " ns", profile, c.seek_ns);
  t = park (d, 0, t);
  c = estimate_read (d, geom_track_lba (hdd_geom (d), ncyl - 1, 0), t);
  ck_assert_uint_eq (c.seek_cylinders, ncyl - 1);
  ck_assert_msg (fabs ((double) c.seek_ns - param_ns (d, "seek-full")) <= 1,
                 "%s: full-stroke seek %" PRIu64 " ns", profile, c.seek_ns);

  rng_state = 0xfeed;
  for (i = 0; i < n; i++) {
    uint64_t a = rnd () % (cap / SECTOR), b = rnd () % (cap / SECTOR);
    struct hdd_cost c1;
    t += serve_at (d, IO_READ, a * SECTOR, SECTOR, t, &c1);
    sum += (double) estimate_read (d, b, t).seek_ns;
  }
  avg = param_ns (d, "seek-avg");
  ck_assert_msg (fabs (sum / n - avg) <= 0.015 * avg,
                 "%s: mean random seek %.3f ms, seek-avg %.3f ms", profile,
                 sum / n / 1e6, avg / 1e6);
  hdd_free (d);
}

START_TEST (test_seek_points)
{
  check_seek_points ("st340014a");
  check_seek_points ("st4000nm0033");
  check_seek_points ("st500lt012");
}
END_TEST

/* A measured table replaces the curve: points are hit exactly and
 * interpolated linearly between.
 */
START_TEST (test_seek_table)
{
  static const char *const kv[] = {
    "cache", "off", "seek-table", "1:1ms,1000:5ms,50000:20ms", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 0, 1);
  uint64_t t = park (d, 2000, 0);
  const struct geom *g = hdd_geom (d);

  ck_assert_uint_eq (estimate_read (d, geom_track_lba (g, 2001, 0), t)
                     .seek_ns, 1 * MS);
  ck_assert_uint_eq (estimate_read (d, geom_track_lba (g, 3000, 0), t)
                     .seek_ns, 5 * MS);
  /* 500 cylinders: 1 ms + 4 ms * 499/999. */
  ck_assert_int_le (llabs ((long long) estimate_read
                           (d, geom_track_lba (g, 2500, 0), t).seek_ns
                           - (long long) (1e6 + 4e6 * 499 / 999)), 1);
  ck_assert_uint_eq (estimate_read (d, geom_track_lba (g, 52000, 0), t)
                     .seek_ns, 20 * MS);
  hdd_free (d);
}
END_TEST

/* A write after a seek settles longer; a head switch costs head-switch. */
START_TEST (test_settle_and_head_switch)
{
  static const char *const kv[] = { "cache", "off", NULL };
  struct hdd *d = drive ("st4000nm0033", kv, 0, 5);
  const struct hdd_params *p = hdd_params_of (d);
  const struct geom *g = hdd_geom (d);
  uint64_t t = park (d, 5000, 0), lba = geom_track_lba (g, 5001, 0);
  struct io w = { .op = IO_WRITE, .fua = true, .offset = lba * SECTOR,
                  .length = 4096 };
  struct hdd_cost c;

  hdd_estimate (d, &w, t, &c);
  ck_assert_int_le (llabs ((long long) c.seek_ns
                           - (long long) (p->seek_track + p->write_settle)),
                    1);
  c = estimate_read (d, geom_track_lba (g, 5000, 1), t);
  ck_assert_uint_eq (c.seek_cylinders, 0);
  ck_assert_uint_eq (c.seek_ns, p->head_switch);
  hdd_free (d);
}
END_TEST

/* The platter's phase follows modeled time: reading a sector again
 * waits for it to come round, measured from when it last passed the
 * head.  Never an average.
 */
START_TEST (test_rotation_follows_time)
{
  static const char *const kv[] = { "cache", "off", NULL };
  struct hdd *d = drive ("st340014a", kv, 0, 99);
  const double rev = rev_ns (d), ov = param_ns (d, "overhead");
  uint64_t t = 0, i, off = 12345678 * UINT64_C(512);
  double passed;
  struct hdd_cost c;

  t += serve_at (d, IO_READ, off, SECTOR, t, &c);
  passed = (double) (c.overhead_ns + c.seek_ns + c.rot_ns);  /* from 0 */
  rng_state = 42;
  for (i = 0; i < 50; i++) {
    uint64_t start = t + rnd () % (30 * MS);
    double since, expect;
    t = start + serve_at (d, IO_READ, off, SECTOR, start, &c);
    ck_assert_uint_eq (c.seek_ns, 0);
    since = (double) start + ov - passed;
    expect = rev - fmod (since, rev);
    if (expect >= rev - 2)
      expect = 0;
    ck_assert_msg (fabs ((double) c.rot_ns - expect) <= 2,
                   "rotational wait %" PRIu64 " ns, expected %.0f ns",
                   c.rot_ns, expect);
    passed = (double) start + ov + (double) c.rot_ns;
  }
  hdd_free (d);

  /* The seed turns the platter: the same first read waits differently. */
  {
    struct hdd *d1 = drive ("st340014a", kv, 0, 1);
    struct hdd *d2 = drive ("st340014a", kv, 0, 2);
    struct hdd_cost c1, c2;
    serve_at (d1, IO_READ, off, SECTOR, 0, &c1);
    serve_at (d2, IO_READ, off, SECTOR, 0, &c2);
    ck_assert_uint_ne (c1.rot_ns, c2.rot_ns);
    hdd_free (d1);
    hdd_free (d2);
  }
}
END_TEST

/* Every zone streams at its media rate, less the skews: a QD1
 * reader of 64K requests with 50us of host time between them.
 */
static void
check_zone_rates (const char *profile, uint64_t bytes)
{
  static const char *const kv[] = { "cache", "wb", NULL };
  struct hdd *d = drive (profile, kv, 0, 3);
  uint64_t cap = hdd_params_of (d)->capacity;
  const struct geom *g;
  unsigned z;

  hdd_free (d);
  d = drive (profile, kv, cap, 3);
  g = hdd_geom (d);
  for (z = 0; z < g->nzones; z++) {
    const struct zone *zn = &g->zones[z];
    uint64_t off = (zn->first_lba + zn->nsect / 4) * SECTOR / 65536 * 65536;
    double want = zone_rate (d, z), got;
    if (zn->nsect * SECTOR < 2 * bytes)
      continue;
    got = seq_rate (d, off, bytes, 50 * US);
    ck_assert_msg (fabs (got - want) <= 0.03 * want,
                   "%s zone %u: %.2f MB/s, expected %.2f MB/s", profile, z,
                   got / 1e6, want / 1e6);
  }
  hdd_free (d);
}

START_TEST (test_sequential_zones)
{
  check_zone_rates ("st340014a", 8 << 20);
  check_zone_rates ("st4000nm0033", 24 << 20);
  check_zone_rates ("st500lt012", 16 << 20);
}
END_TEST

/* Without read-ahead the same reader finds its next sector just gone
 * and waits about a revolution for it, every request.
 */
START_TEST (test_no_readahead_loses_revolutions)
{
  static const char *const kv[] = { "readahead", "off", NULL };
  struct hdd *d = drive ("st340014a", kv, 0, 3);
  uint64_t t = 0, i, n = 200;
  double stream = 65536 / zone_rate (d, 0) * 1e9, per, rev = rev_ns (d);

  for (i = 0; i < n; i++) {
    struct hdd_cost c;
    uint64_t s = serve_at (d, IO_READ, i * 65536, 65536, t, &c);
    if (i == 0)
      per = (double) (t + s);
    t += s + 50 * US;
  }
  per = ((double) (t - 50 * US) - per) / (double) (n - 1);
  /* Host gap + overhead + interface tail are part of the revolution. */
  ck_assert_msg (per >= stream + 0.9 * rev && per <= stream + 1.1 * rev,
                 "%.3f ms per request: expected %.3f ms streaming + "
                 "a revolution of %.3f ms", per / 1e6, stream / 1e6,
                 rev / 1e6);
  hdd_free (d);
}
END_TEST

/* placement=spread puts a small image over the whole stroke (random
 * reads pay full seeks, the end of the image is on inner tracks);
 * placement=start keeps it in the outer cylinders (short seeks).
 */
START_TEST (test_placement)
{
  static const char *const spread[] = {
    "cache", "off", "placement", "spread", NULL
  };
  static const char *const start[] = { "cache", "off", NULL };
  struct hdd *d = drive ("st340014a", spread, 4 * GIB, 5);
  const struct geom *g = hdd_geom (d);
  double rev = rev_ns (d), full, part;
  uint64_t t = 0, i, n = 3000;
  double sum = 0;

  full = param_ns (d, "seek-avg") + rev / 2 + param_ns (d, "overhead");
  rng_state = 77;
  for (i = 0; i < n; i++) {
    struct hdd_cost c;
    uint64_t s = serve_at (d, IO_READ, rnd () % (4 * GIB / 4096) * 4096,
                           4096, t, &c);
    sum += (double) s;
    t += s;
  }
  ck_assert_msg (fabs (sum / n - full) <= 0.05 * full,
                 "spread: %.3f ms, expected %.3f ms", sum / n / 1e6,
                 full / 1e6);
  /* The last 64K of the image lie in the innermost zone. */
  ck_assert_uint_eq (geom_zone_of_cyl (g, ({ struct loc l;
          geom_locate (g, hdd_image_to_lba (d, 4 * GIB - 65536), &l);
          l.cyl; })), g->nzones - 1);
  hdd_free (d);

  d = drive ("st340014a", start, 4 * GIB, 5);
  sum = 0;
  for (i = 0; i < n; i++) {
    struct hdd_cost c;
    uint64_t s = serve_at (d, IO_READ, rnd () % (4 * GIB / 4096) * 4096,
                           4096, t, &c);
    sum += (double) c.seek_ns;
    t += s;
  }
  /* 4 GiB of 40 GB: a tenth of the stroke, far below seek-avg. */
  part = sum / n;
  ck_assert_msg (part < 0.5 * param_ns (d, "seek-avg"),
                 "start: mean seek %.3f ms", part / 1e6);
  hdd_free (d);
}
END_TEST

/* spread: sequential reads at the outer and inner edges of the image
 * stream at the outermost and innermost zones' rates.
 */
START_TEST (test_spread_edges)
{
  static const char *const kv[] = { "placement", "spread", NULL };
  struct hdd *d = drive ("st340014a", kv, 4 * GIB, 5);
  const struct geom *g = hdd_geom (d);
  double outer = seq_rate (d, 0, 8 << 20, 50 * US);
  double inner = seq_rate (d, 4 * GIB - (8 << 20), 8 << 20, 50 * US);
  double w_out = zone_rate (d, 0), w_in = zone_rate (d, g->nzones - 1);

  ck_assert_msg (fabs (outer - w_out) <= 0.03 * w_out, "outer %.2f MB/s, "
                 "expected %.2f", outer / 1e6, w_out / 1e6);
  ck_assert_msg (fabs (inner - w_in) <= 0.03 * w_in, "inner %.2f MB/s, "
                 "expected %.2f", inner / 1e6, w_in / 1e6);
  hdd_free (d);
}
END_TEST

/* hdd_estimate changes nothing and says what hdd_serve will do. */
START_TEST (test_estimate_is_serve)
{
  static const char *const profiles[] = { "st340014a", "st500lt012" };
  unsigned k;

  for (k = 0; k < 2; k++) {
    struct hdd *d = drive (profiles[k], NULL, 8 * GIB, k);
    uint64_t t = 0, i;
    rng_state = 5 + k;
    for (i = 0; i < 3000; i++) {
      struct io io = {
        .op = (enum io_op) (rnd () % IO_OP_COUNT), .fua = rnd () % 4 == 0,
        .offset = rnd () % 2 ? rnd () % (8 * GIB / 4096) * 4096
                             : (i * 65536) % (8 * GIB),
        .length = (rnd () % 64 + 1) * 4096,
      };
      struct hdd_cost ce, ce2, cs;
      uint64_t e, e2, s;
      if (io.op == IO_FLUSH)
        io.length = io.offset = 0;
      hdd_idle (d, t);
      e = hdd_estimate (d, &io, t, &ce);
      e2 = hdd_estimate (d, &io, t, &ce2);
      s = hdd_serve (d, &io, t, &cs);
      /* Unless the tail changed it (tail.h: the drive's own work and
         its retries, which no drive foresees). */
      ck_assert_uint_eq (e2, e);
      if (cs.tail_ns == 0) {
        ck_assert_uint_eq (e, s);
        ck_assert_int_eq (memcmp (&ce, &cs, sizeof cs), 0);
      }
      t += s + (rnd () % 3 == 0 ? rnd () % (20 * MS) : 0);
    }
    hdd_free (d);
  }
}
END_TEST

/* The head offset (for sweeping policies) is the end of the last
 * media access, in image bytes, whatever the placement.
 */
START_TEST (test_head_offset)
{
  static const char *const start[] = { "cache", "off", NULL };
  static const char *const spread[] = {
    "cache", "off", "placement", "spread", NULL
  };
  const char *const *kvs[] = { start, spread };
  unsigned k;

  for (k = 0; k < 2; k++) {
    struct hdd *d = drive ("st340014a", kvs[k], 4 * GIB, 1);
    uint64_t t = 0, off;
    struct hdd_cost c;
    rng_state = 9;
    for (off = 0; off < 4 * GIB; off += 301 * (GIB / 1024)) {
      t += serve_at (d, IO_READ, off, 65536, t, &c);
      ck_assert_uint_eq (hdd_head_offset (d), off + 65536);
      t += serve_at (d, IO_WRITE, off / 2, 4096, t, &c);
      ck_assert_uint_eq (hdd_head_offset (d), off / 2 + 4096);
    }
    hdd_free (d);
  }
}
END_TEST

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
  tcase_add_test (tc, test_phase_zero);
  tcase_add_test (tc, test_fixed_by_service_key);
  tcase_add_test (tc, test_param_errors);
  tcase_add_test (tc, test_image_too_big);
  tcase_add_test (tc, test_seek_table_bounded);
  tcase_add_test (tc, test_validation_units);
  tcase_add_test (tc, test_random_read_qd1);
  tcase_add_test (tc, test_sequential_streams);
  tcase_add_test (tc, test_seek_points);
  tcase_add_test (tc, test_seek_table);
  tcase_add_test (tc, test_settle_and_head_switch);
  tcase_add_test (tc, test_rotation_follows_time);
  tcase_add_test (tc, test_sequential_zones);
  tcase_add_test (tc, test_no_readahead_loses_revolutions);
  tcase_add_test (tc, test_placement);
  tcase_add_test (tc, test_spread_edges);
  tcase_add_test (tc, test_estimate_is_serve);
  tcase_add_test (tc, test_head_offset);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (model_suite ());
}
