/* hddsim: unit tests of the per-command overheads and of reads bounded
 * by an interface slower than the media (DiskSim's controller).
 *
 * The drive of these tests is made for arithmetic: 6000 rpm (10 ms a
 * revolution), 100 sectors a track in one zone (a sector passes under
 * the head in 100 us), two surfaces, a head switch of 0.4 ms hidden by
 * a track skew of 0.5 ms (5 sectors).  The interface takes 250 us a
 * sector (2,048,000 B/s) unless a test says otherwise.  Every expected
 * value below is worked out from these numbers, never from a run.
 */

#include <inttypes.h>
#include <unistd.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../model/geometry.h"
#include "../../disksim/disksim.h"

#define DATA "tests/data/disksim/"

#define BASE_KV                                                         \
  "rpm", "6000", "zones", "1", "sectors-outer", "100",                  \
  "sectors-inner", "100", "surfaces", "2", "capacity", "100M",          \
  "head-switch", "0.4ms", "track-skew", "0.5ms", "overhead", "5us",     \
  "placement", "start", "iface-rate", "2048000"

static struct hdd *
test_drive (const char *const *more)
{
  const char *kv[64] = { BASE_KV };
  size_t n = 0, i;

  while (kv[n])
    n++;
  for (i = 0; more && more[i]; i++)
    kv[n++] = more[i];
  kv[n] = NULL;
  return drive ("st340014a", kv, 0, 1);
}

static uint64_t
read_lba (struct hdd *d, uint64_t lba, uint64_t sectors, uint64_t t,
          struct hdd_cost *c)
{
  uint64_t s = serve_at (d, IO_READ, lba * SECTOR, sectors * SECTOR, t, c);

  ck_assert_uint_eq (hdd_cost_total (c), s);
  return s;
}

/* ---- the interface following the media ---- */

/* Ten sectors from the start of a track, interface slower (250 us a
 * sector against 100 us): the first sector is read 100 us after the
 * transfer begins; from then on the interface is the bottleneck: ten
 * crossings, 2.5 ms.  Transfer 0.1 + 2.5 = 2.6 ms (the media alone
 * would end at 1 ms, and the old model said 1 ms + 250 us).
 */
START_TEST (test_bus_bound_one_track)
{
  const char *kv[] = { "cache", "off", NULL };
  struct hdd *d = test_drive (kv);
  uint64_t lba = geom_track_lba (hdd_geom (d), 300, 0);
  struct hdd_cost c;

  read_lba (d, lba, 10, 0, &c);
  ck_assert_uint_eq (c.xfer_ns, 2600 * US);
  ck_assert_uint_eq (c.overhead_ns, 5 * US);
  hdd_free (d);
}
END_TEST

/* The same read with an interface faster than the media (50 us a
 * sector, 10,240,000 B/s): it keeps up, and only the last sector's
 * crossing follows the media: 1 ms + 50 us.
 */
START_TEST (test_bus_faster_than_media)
{
  const char *kv[] = { "cache", "off", "iface-rate", "10240000", NULL };
  struct hdd *d = test_drive (kv);
  uint64_t lba = geom_track_lba (hdd_geom (d), 300, 0);
  struct hdd_cost c;

  read_lba (d, lba, 10, 0, &c);
  ck_assert_uint_eq (c.xfer_ns, 1050 * US);
  hdd_free (d);
}
END_TEST

/* Twenty sectors from sector 90 of surface 0: ten to the track's end
 * (1 ms), the head switch (0.4 ms) and the wait for the skewed first
 * sector of surface 1 (0.1 ms more: skew 5 sectors = 0.5 ms), ten more
 * (1 ms).  Interface 250 us a sector: it is still busy with the first
 * track's ten when the second begins (0.1 + 2.5 = 2.6 ms > 1.5 ms), so
 * it never waits: 0.1 ms + 20 x 0.25 ms = 5.1 ms.
 */
START_TEST (test_bus_bound_across_switch)
{
  const char *kv[] = { "cache", "off", NULL };
  struct hdd *d = test_drive (kv);
  uint64_t lba = geom_track_lba (hdd_geom (d), 300, 0) + 90;
  struct hdd_cost c;

  read_lba (d, lba, 20, 0, &c);
  ck_assert_uint_eq (c.xfer_ns, 5100 * US);
  hdd_free (d);
}
END_TEST

/* The same read with an interface a little slower than the media
 * (120 us a sector; 4,266,667 B/s rounds a sector up to 120,000 ns).
 * The first track's ten are across at 0.1 + 1.2 = 1.3 ms, before the
 * second track begins at 1.5 ms: the interface waits.  From there the
 * second track's first sector is read at 1.6 ms and its ten cross by
 * 1.6 + 1.2 = 2.8 ms (the media ends at 2.5 ms; 2.5 + 0.12 is less).
 */
START_TEST (test_bus_waits_for_next_track)
{
  const char *kv[] = { "cache", "off", "iface-rate", "4266667", NULL };
  struct hdd *d = test_drive (kv);
  uint64_t lba = geom_track_lba (hdd_geom (d), 300, 0) + 90;
  struct hdd_cost c;

  read_lba (d, lba, 20, 0, &c);
  ck_assert_uint_eq (c.xfer_ns, 2800 * US);
  hdd_free (d);
}
END_TEST

/* A read the read-ahead stream is about to reach.  Ten sectors from
 * the start of a track (write-through, read-ahead 64K: 128 sectors):
 * the media reads them from ts to ts + 1 ms, the interface is done at
 * ts + 2.6 ms (as above), and the stream goes on from sector 10 at
 * ts + 1 ms.  At ts + 2.6 ms the host asks for sectors 40..49: the
 * stream reads sector 40 by ts + 1 + 3.1 = ts + 4.1 ms, 1.5 ms from
 * now, and the ten then cross in 2.5 ms: 4.0 ms (the interface from
 * the end of the overhead alone: 5 us + 2.5 ms; the last sector, read
 * at ts + 5 ms, then one crossing: 2.65 ms).
 */
START_TEST (test_bus_bound_stream)
{
  const char *kv[] = { "cache", "wt", "readahead", "64K", NULL };
  struct hdd *d = test_drive (kv);
  uint64_t lba = geom_track_lba (hdd_geom (d), 300, 0), s, ts;
  struct hdd_cost c;

  s = read_lba (d, lba, 10, 0, &c);
  ck_assert_uint_eq (c.xfer_ns, 2600 * US);
  ts = c.overhead_ns + c.seek_ns + c.rot_ns;
  ck_assert_uint_eq (s, ts + 2600 * US);
  s = read_lba (d, lba + 40, 10, s, &c);
  ck_assert_uint_eq (s, 4000 * US);
  ck_assert_uint_eq (c.overhead_ns, 5 * US);
  hdd_free (d);
}
END_TEST

/* ---- the overhead classes ---- */

/* Distinct values, so that each class shows which one was charged:
 * overhead= 5 us for every command, and per class (us): read hit 10,
 * after a write 20; read miss 30, 40; write hit 50, 60; write miss 70,
 * 80; completion of a read 7, of a write 9.
 */
#define CLASS_KV                                                        \
  "overhead-read-hit", "10us", "overhead-read-hit-after-write", "20us", \
  "overhead-read-miss", "30us", "overhead-read-miss-after-write", "40us", \
  "overhead-write-hit", "50us", "overhead-write-hit-after-write", "60us", \
  "overhead-write-miss", "70us",                                        \
  "overhead-write-miss-after-write", "80us",                            \
  "read-complete", "7us", "write-complete", "9us"

static uint64_t
op_lba (struct hdd *d, enum io_op op, uint64_t lba, uint64_t t,
        struct hdd_cost *c)
{
  uint64_t s = serve_at (d, op, lba * SECTOR, op == IO_FLUSH ? 0 : 4096, t,
                         c);

  ck_assert_uint_eq (hdd_cost_total (c), s);
  return t + s + 1 * MS;
}

/* Write-through: writes are in the miss class.  The drive starts as
 * after a read (as DiskSim's does).  No read-ahead: the read segment
 * holds just what was read, and a second read of it is a hit.
 */
START_TEST (test_classes_write_through)
{
  const char *kv[] = { "cache", "wt", "readahead", "0", CLASS_KV, NULL };
  struct hdd *d = test_drive (kv);
  uint64_t a = geom_track_lba (hdd_geom (d), 100, 0);
  uint64_t b = geom_track_lba (hdd_geom (d), 500, 0);
  uint64_t w = geom_track_lba (hdd_geom (d), 900, 0), t = 0;
  struct hdd_cost c;

  t = op_lba (d, IO_READ, a, t, &c);            /* miss after read */
  ck_assert (!c.cache_hit);
  ck_assert_uint_eq (c.overhead_ns, (5 + 30 + 7) * US);
  t = op_lba (d, IO_READ, a, t, &c);            /* hit after read */
  ck_assert (c.cache_hit);
  ck_assert_uint_eq (c.overhead_ns, (5 + 10 + 7) * US);
  t = op_lba (d, IO_WRITE, w, t, &c);           /* write after read */
  ck_assert_uint_eq (c.overhead_ns, (5 + 70 + 9) * US);
  t = op_lba (d, IO_WRITE, w + 64, t, &c);      /* write after write */
  ck_assert_uint_eq (c.overhead_ns, (5 + 80 + 9) * US);
  t = op_lba (d, IO_READ, a, t, &c);            /* hit after write */
  ck_assert (c.cache_hit);
  ck_assert_uint_eq (c.overhead_ns, (5 + 20 + 7) * US);
  t = op_lba (d, IO_WRITE, w + 128, t, &c);
  t = op_lba (d, IO_READ, b, t, &c);            /* miss after write */
  ck_assert (!c.cache_hit);
  ck_assert_uint_eq (c.overhead_ns, (5 + 40 + 7) * US);
  t = op_lba (d, IO_READ, a, t, &c);            /* hit after read again */
  ck_assert (c.cache_hit);
  ck_assert_uint_eq (c.overhead_ns, (5 + 10 + 7) * US);
  (void) t;
  hdd_free (d);
}
END_TEST

/* Write-back: every write is in the hit class, a forced-unit-access
 * one too (DiskSim's rule: fast writes decide the class, not where the
 * data goes).  A cached write costs its overheads and the interface:
 * 4096 bytes at 2,048,000 B/s are 2 ms.  A flush pays overhead= alone
 * and leaves the class as it was.
 */
START_TEST (test_classes_write_back)
{
  const char *kv[] = { "cache", "wb", CLASS_KV, NULL };
  struct hdd *d = test_drive (kv);
  uint64_t w = geom_track_lba (hdd_geom (d), 900, 0), t = 0, s;
  struct hdd_cost c;
  struct io fua = { .op = IO_WRITE, .offset = (w + 64) * SECTOR,
                    .length = 4096, .fua = true };

  s = serve_at (d, IO_WRITE, w * SECTOR, 4096, t, &c);  /* after read */
  ck_assert (c.cache_hit);
  ck_assert_uint_eq (c.overhead_ns, (5 + 50 + 9) * US);
  ck_assert_uint_eq (s, (5 + 50 + 9) * US + 2 * MS);
  t += s + MS;
  t = op_lba (d, IO_FLUSH, 0, t, &c);
  ck_assert_uint_eq (c.overhead_ns, 5 * US);
  hdd_idle (d, t);
  s = hdd_serve (d, &fua, t, &c);                       /* after write */
  ck_assert (!c.cache_hit);
  ck_assert_uint_eq (c.overhead_ns, (5 + 60 + 9) * US);
  ck_assert_uint_eq (hdd_cost_total (&c), s);
  hdd_free (d);
}
END_TEST

/* The estimate runs the same composition: it charges the class the
 * served request would be charged, and leaves the drive's class alone.
 */
START_TEST (test_estimate_same_class)
{
  const char *kv[] = { "cache", "wt", CLASS_KV, NULL };
  struct hdd *d = test_drive (kv);
  uint64_t w = geom_track_lba (hdd_geom (d), 900, 0);
  uint64_t b = geom_track_lba (hdd_geom (d), 500, 0), t;
  struct io rd = { .op = IO_READ, .offset = b * SECTOR, .length = 4096 };
  struct hdd_cost c;

  t = op_lba (d, IO_WRITE, w, 0, &c);
  hdd_estimate (d, &rd, t, &c);
  ck_assert_uint_eq (c.overhead_ns, (5 + 40 + 7) * US);
  hdd_estimate (d, &rd, t, &c);         /* still after the write */
  ck_assert_uint_eq (c.overhead_ns, (5 + 40 + 7) * US);
  hdd_free (d);
}
END_TEST

/* ---- the import ---- */

/* barracuda's controller (barracuda.diskspecs): time scale 1,
 * per-request 0, and the eight classes and two completions as given;
 * the bulk sector transfer 0.134 ms is 512 B / 0.134 ms = 3,820,895.5
 * B/s, rounded 3,820,896.  None of them is refused any more.
 */
START_TEST (test_import_barracuda)
{
  char err[HDD_ERRLEN];
  struct ds_drive *dd = ds_drive_load (DATA "barracuda.parv", err,
                                       sizeof err);
  struct hdd_params p;
  char *buf = NULL;
  size_t len = 0;
  FILE *fp;

  ck_assert_msg (dd != NULL, "%s", err);
  ds_drive_to_params (dd, &p, NULL, NULL, err, sizeof err);
  ds_drive_free (dd);
  ck_assert_uint_eq (p.overhead, 0);
  ck_assert_uint_eq (p.cmd_overhead[0][1][0], 82000);
  ck_assert_uint_eq (p.cmd_overhead[0][1][1], 596000);
  ck_assert_uint_eq (p.cmd_overhead[0][0][0], 613070);
  ck_assert_uint_eq (p.cmd_overhead[0][0][1], 568130);
  ck_assert_uint_eq (p.cmd_overhead[1][1][0], 1010000);
  ck_assert_uint_eq (p.cmd_overhead[1][1][1], 929100);
  ck_assert_uint_eq (p.cmd_overhead[1][0][0], 1053630);
  ck_assert_uint_eq (p.cmd_overhead[1][0][1], 815600);
  ck_assert_uint_eq (p.read_complete, 0);
  ck_assert_uint_eq (p.write_complete, 0);
  ck_assert_uint_eq (p.iface_rate, 3820896);

  fp = open_memstream (&buf, &len);
  ck_assert_int_eq (disksim_check_file (DATA "barracuda.parv", fp), 0);
  fclose (fp);
  ck_assert_msg (strstr (buf, "over. after") == NULL
                 && strstr (buf, "completion overhead") == NULL
                 && strstr (buf, "ms per block") == NULL, "%s", buf);
  free (buf);
}
END_TEST

static char tmpdir[256];

/* One directory for the test case, made and removed by the parent
 * process (an unchecked fixture), so that a failing test leaves
 * nothing behind.
 */
static void
setup (void)
{
  snprintf (tmpdir, sizeof tmpdir, "/tmp/hddsim-test-overheads-XXXXXX");
  if (!mkdtemp (tmpdir)) {
    perror (tmpdir);
    exit (EXIT_FAILURE);
  }
}

static void
teardown (void)
{
  char path[512];

  snprintf (path, sizeof path, "%s/tiny.diskspecs", tmpdir);
  unlink (path);
  snprintf (path, sizeof path, "%s/tiny.parv", tmpdir);
  unlink (path);
  rmdir (tmpdir);
}

/* A file of the hand-made drive (tiny.diskspecs or tiny.parv) with each
 * pair's first string replaced by its second, in the test's directory;
 * what it sources is taken from tests/data.
 */
static const char *
tiny_variant (const char *file, const char *const *pairs)
{
  static char path[512];
  char cwd[256], src[256], *text, *hit;
  FILE *fp;
  size_t len;

  snprintf (src, sizeof src, DATA "%s", file);
  fp = fopen (src, "r");

  ck_assert_ptr_nonnull (fp);
  ck_assert_ptr_nonnull (getcwd (cwd, sizeof cwd));
  text = calloc (1, 1 << 16);
  len = fread (text, 1, (1 << 16) - 1, fp);
  fclose (fp);
  text[len] = '\0';
  for (; pairs[0]; pairs += 2) {
    char *rest;
    hit = strstr (text, pairs[0]);
    ck_assert_msg (hit != NULL, "%s", pairs[0]);
    rest = strdup (hit + strlen (pairs[0]));
    sprintf (hit, "%s%s", pairs[1], rest);
    free (rest);
  }
  hit = strstr (text, "source ");
  ck_assert_ptr_nonnull (hit);
  {
    char *rest = strdup (hit + strlen ("source "));
    sprintf (hit, "source %s/" DATA "%s", cwd, rest);
    free (rest);
  }
  snprintf (path, sizeof path, "%s/%s", tmpdir, file);
  fp = fopen (path, "w");
  ck_assert_ptr_nonnull (fp);
  fputs (text, fp);
  fclose (fp);
  free (text);
  return path;
}

/* The hand-made drive with a scale of 2: per-request 0.05 ms -> 100
 * us; read miss 0.2 ms -> 400 us; read completion 0.081 ms -> 162 us.
 */
START_TEST (test_import_time_scale)
{
  const char *const pairs[] = {
    "Time scale for overheads = 1.0", "Time scale for overheads = 2.0",
    "Read completion overhead = 0.0", "Read completion overhead = 0.081",
    NULL,
  };
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_msg (hdd_params_load_profile (p, tiny_variant ("tiny.diskspecs", pairs), err,
                                          sizeof err) == 0, "%s", err);
  ck_assert_uint_eq (p->overhead, 100 * US);
  ck_assert_uint_eq (p->cmd_overhead[0][0][0], 400 * US);
  ck_assert_uint_eq (p->cmd_overhead[1][1][1], 200 * US);
  ck_assert_uint_eq (p->read_complete, 162 * US);
  ck_assert_uint_eq (p->write_complete, 0);
  hdd_params_free (p);
}
END_TEST

/* The hand-made drive (6000 rpm, 100 sectors a track in its outer
 * zone: 100 us a sector) behind a bus of 0.2 ms a block, twice the
 * media's time: it imports, and ten sectors from LBN 0 (the start of a
 * track) take 0.1 ms + 10 x 0.2 ms = 2.1 ms of transfer; the overhead
 * is per-request 0.05 + read miss 0.2 + read completion 0.081 ms.
 */
START_TEST (test_import_slow_bus)
{
  const char *const pairs[] = {
    "Bulk sector transfer time = 0.05", "Bulk sector transfer time = 0.2",
    "Read completion overhead = 0.0", "Read completion overhead = 0.081",
    NULL,
  };
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];
  struct hdd *d;
  struct hdd_cost c;

  ck_assert_msg (hdd_params_load_profile (p, tiny_variant ("tiny.diskspecs", pairs), err,
                                          sizeof err) == 0, "%s", err);
  ck_assert_uint_eq (p->iface_rate, 2560000);
  d = hdd_new (p, 4 << 20, 1, err, sizeof err);
  ck_assert_msg (d != NULL, "%s", err);
  read_lba (d, 0, 10, 0, &c);
  /* Within 10 ns: DiskSim's sector times are its fixed-point angles'
     (dctl_mech.c), a few ns off the exact ones. */
  ck_assert_msg (c.xfer_ns + 10 >= 2100 * US && c.xfer_ns <= 2100 * US + 10,
                 "transfer %" PRIu64 " ns", c.xfer_ns);
  ck_assert_uint_eq (c.overhead_ns, (50 + 200 + 81) * US);
  hdd_free (d);
  hdd_params_free (p);
}
END_TEST

/* The bus's block time counts when it is the slowest: tiny.parv's
 * bus at 0.3 ms a block (the disk's bulk time is 0.05 ms) is
 * 512 B / 0.3 ms = 1,706,666.7 B/s, rounded 1,706,667.
 */
START_TEST (test_import_bus_block_time)
{
  const char *const pairs[] = {
    "Read block transfer time = 0.0", "Read block transfer time = 0.3",
    NULL,
  };
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_msg (hdd_params_load_profile (p, tiny_variant ("tiny.parv",
                                                           pairs),
                                          err, sizeof err) == 0, "%s", err);
  ck_assert_uint_eq (p->iface_rate, 1706667);
  hdd_params_free (p);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("model-overheads");
  TCase *tc = tcase_create ("overheads");

  /* Valgrind on a shared 2-core machine: seconds per test. */
  tcase_set_timeout (tc, 60);
  tcase_add_unchecked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_bus_bound_one_track);
  tcase_add_test (tc, test_bus_faster_than_media);
  tcase_add_test (tc, test_bus_bound_across_switch);
  tcase_add_test (tc, test_bus_waits_for_next_track);
  tcase_add_test (tc, test_bus_bound_stream);
  tcase_add_test (tc, test_classes_write_through);
  tcase_add_test (tc, test_classes_write_back);
  tcase_add_test (tc, test_estimate_same_class);
  tcase_add_test (tc, test_import_barracuda);
  tcase_add_test (tc, test_import_time_scale);
  tcase_add_test (tc, test_import_slow_bus);
  tcase_add_test (tc, test_import_bus_block_time);
  suite_add_tcase (s, tc);
  return run_suite (s);
}
