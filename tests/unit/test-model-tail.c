/* hddsim: unit tests of the tail (model/tail.h): retries, failing
 * sectors, the recovery limit, reallocation, the drive's own work, and
 * the bad-sector file's two formats (model/badmap.h).
 *
 * The drive of these tests is made for arithmetic (as in
 * test-model-overheads.c): 6000 rpm (10 ms a revolution), 100 sectors a
 * track in one zone (a sector passes under the head in 100 us), two
 * surfaces, the platter at angle 0 at time 0 (phase-zero=1), an
 * overhead of 5 us, no cache, an interface of 1 us a sector
 * (512,000,000 B/s).  A read of LBA 1 (track 0, slot 1) at time 0:
 * the overhead ends at 5 us, slot 1 comes under the head at 100 us (a
 * rotational wait of 95 us), it is read by 200 us and has crossed the
 * interface at 201 us.  Every expected value below is worked out from
 * these numbers, never from a run.  The profile's own tail is turned
 * off (retry-rate=0, no recalibration, no idle work) and each test
 * sets what it tests.
 */

#include <inttypes.h>
#include <unistd.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "test-sched-driver.h"
#include "../../model/badmap.h"
#include "../../model/tail.h"

#define BASE_KV                                                         \
  "rpm", "6000", "zones", "1", "sectors-outer", "100",                  \
  "sectors-inner", "100", "surfaces", "2", "capacity", "100M",          \
  "head-switch", "0.4ms", "track-skew", "0.5ms", "overhead", "5us",     \
  "placement", "start", "iface-rate", "512000000", "cache", "off",      \
  "phase-zero", "1", "retry-rate", "0", "recal-interval", "0",          \
  "recal-time", "0", "idle-work-after", "0", "idle-work-step", "0",     \
  "seek-table", "1:1ms,1023:10ms"

#define REV (10 * MS)
#define READ_LBA1 (201 * US)    /* the read of LBA 1 at time 0 */

static char bad_file[64];

/* A bad-sectors file holding 'text' (plain format or a mapfile). */
static const char *
write_bad_file (const char *text)
{
  int fd;

  snprintf (bad_file, sizeof bad_file, "/tmp/hddsim-test-tail-XXXXXX");
  fd = mkstemp (bad_file);
  ck_assert_int_ge (fd, 0);
  ck_assert_int_eq (write (fd, text, strlen (text)), (ssize_t) strlen (text));
  close (fd);
  return bad_file;
}

static struct hdd *
tail_drive (const char *const *more)
{
  const char *kv[64] = { BASE_KV };
  size_t n = 0, i;
  struct hdd *d;

  while (kv[n])
    n++;
  for (i = 0; more && more[i]; i++)
    kv[n++] = more[i];
  kv[n] = NULL;
  d = drive ("st340014a", kv, 0, 1);
  if (bad_file[0])
    unlink (bad_file);
  bad_file[0] = '\0';
  return d;
}

static uint64_t
io_at (struct hdd *d, enum io_op op, uint64_t lba, uint64_t t,
       struct hdd_cost *c)
{
  uint64_t s = serve_at (d, op, lba * SECTOR, SECTOR, t, c);

  ck_assert_uint_eq (hdd_cost_total (c), s);
  return s;
}

/* The baseline the others add to. */
START_TEST (test_plain_read)
{
  struct hdd *d = tail_drive (NULL);
  struct hdd_cost c;

  ck_assert_uint_eq (io_at (d, IO_READ, 1, 0, &c), READ_LBA1);
  ck_assert_uint_eq (c.tail_ns, 0);
  ck_assert (!c.medium_error);
  hdd_free (d);
}
END_TEST

/* Issue 27: a read over a bad sector with erc=7s retries for 7 s of
 * modeled time and fails: 201 us + 7 s, a medium error, one sector
 * pending; the drive is busy until then.
 */
START_TEST (test_bad_sector_erc)
{
  const char *kv[] = { "bad-sectors", write_bad_file ("1\n"), "erc", "7s",
                       NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;

  ck_assert_uint_eq (io_at (d, IO_READ, 1, 0, &c), READ_LBA1 + 7 * SEC);
  ck_assert (c.medium_error);
  ck_assert_uint_eq (c.tail_ns, 7 * SEC);
  ck_assert_int_eq (c.pending, 1);
  /* Read again: the same, and the sector is already pending. */
  io_at (d, IO_READ, 1, 8 * SEC, &c);
  ck_assert (c.medium_error);
  ck_assert_int_eq (c.pending, 0);
  hdd_free (d);
}
END_TEST

/* erc=off: the drive's own recovery-limit= instead. */
START_TEST (test_bad_sector_own_limit)
{
  const char *kv[] = { "bad-sectors", write_bad_file ("1 bad\n"),
                       "erc", "off", "recovery-limit", "120s", NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;

  ck_assert_uint_eq (io_at (d, IO_READ, 1, 0, &c), READ_LBA1 + 120 * SEC);
  ck_assert (c.medium_error);
  hdd_free (d);
}
END_TEST

/* A read elsewhere is not touched: LBA 2 at time 0 (slot 2 comes at
 * 200 us, is read by 300 us and has crossed at 301 us).
 */
START_TEST (test_bad_sector_elsewhere)
{
  const char *kv[] = { "bad-sectors", write_bad_file ("1\n"), "erc", "7s",
                       NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;

  ck_assert_uint_eq (io_at (d, IO_READ, 2, 0, &c), 301 * US);
  ck_assert (!c.medium_error);
  ck_assert_uint_eq (c.tail_ns, 0);
  hdd_free (d);
}
END_TEST

/* A weak sector read after k retries costs k revolutions; with
 * weak-success=100% every read of it takes exactly one retry.
 */
START_TEST (test_weak_sector_one_retry)
{
  const char *kv[] = { "bad-sectors", write_bad_file ("1 weak\n"),
                       "erc", "7s", "weak-success", "1000000", NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;

  ck_assert_uint_eq (io_at (d, IO_READ, 1, 0, &c), READ_LBA1 + REV);
  ck_assert_uint_eq (c.retries, 1);
  ck_assert (!c.medium_error);
  hdd_free (d);
}
END_TEST

/* With weak-success=30% the retries are drawn (from seed=), and
 * whatever k came, the read cost k revolutions more.
 */
START_TEST (test_weak_sector_k_retries)
{
  const char *kv[] = { "bad-sectors", write_bad_file ("0-99 weak\n"),
                       "erc", "7s", "weak-success", "300000", NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;
  uint64_t s = io_at (d, IO_READ, 1, 0, &c);

  ck_assert_uint_ge (c.retries, 1);
  ck_assert_uint_eq (s, READ_LBA1 + c.retries * REV);
  hdd_free (d);
}
END_TEST

/* Two weak sectors in one read, each one retry at 100%: two
 * revolutions.  LBAs 1-2 at time 0: read by 300 us, crossed by 301 us.
 */
START_TEST (test_two_weak_sectors)
{
  const char *kv[] = { "bad-sectors", write_bad_file ("1+2 weak\n"),
                       "erc", "7s", "weak-success", "1000000", NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;
  uint64_t s = serve_at (d, IO_READ, SECTOR, 2 * SECTOR, 0, &c);

  ck_assert_uint_eq (s, 301 * US + 2 * REV);
  ck_assert_uint_eq (c.retries, 2);
  hdd_free (d);
}
END_TEST

/* A weak sector whose retries run past the limit fails at the limit:
 * weak-success=0 never reads it.
 */
START_TEST (test_weak_sector_past_limit)
{
  const char *kv[] = { "bad-sectors", write_bad_file ("1 weak\n"),
                       "erc", "1s", "weak-success", "0", NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;

  ck_assert_uint_eq (io_at (d, IO_READ, 1, 0, &c), READ_LBA1 + SEC);
  ck_assert (c.medium_error);
  hdd_free (d);
}
END_TEST

/* A write over a bad sector moves it to a spare: no longer pending,
 * one reallocated, and a later read of it succeeds and pays the trip:
 * from track 0 to the spare at the drive's last LBA (cylinder 1023, a
 * seek of 10 ms by the seek-table), its rotational wait (less than a
 * revolution) and the sector (100 us).
 */
START_TEST (test_reallocated_costs_the_trip)
{
  const char *kv[] = { "bad-sectors", write_bad_file ("1\n"), "erc", "7s",
                       NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;
  uint64_t s;

  io_at (d, IO_READ, 1, 0, &c);
  ck_assert_int_eq (c.pending, 1);
  io_at (d, IO_WRITE, 1, 10 * SEC, &c);
  ck_assert_uint_eq (c.reallocated, 1);
  ck_assert_int_eq (c.pending, -1);
  /* Back to track 0 first (a read of LBA 50), then LBA 1: at 30 s
     (whole revolutions) as at time 0, 201 us, then the trip. */
  io_at (d, IO_READ, 50, 20 * SEC, &c);
  s = io_at (d, IO_READ, 1, 30 * SEC, &c);
  ck_assert (!c.medium_error);
  ck_assert_uint_eq (s, READ_LBA1 + c.tail_ns);
  ck_assert_uint_ge (c.tail_ns, 10 * MS + 100 * US);
  ck_assert_uint_le (c.tail_ns, 10 * MS + REV + 100 * US);
  hdd_free (d);
}
END_TEST

/* A weak sector rewritten reads well: no retries, nothing moved. */
START_TEST (test_weak_rewritten)
{
  const char *kv[] = { "bad-sectors", write_bad_file ("1 weak\n"),
                       "erc", "7s", "weak-success", "1000000", NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;

  io_at (d, IO_WRITE, 1, 0, &c);
  ck_assert_uint_eq (c.reallocated, 0);
  ck_assert_uint_eq (io_at (d, IO_READ, 1, 10 * SEC, &c), READ_LBA1);
  ck_assert_uint_eq (c.retries, 0);
  hdd_free (d);
}
END_TEST

/* retry-rate=100% with retry-success=100%: every media read takes
 * exactly one more revolution.
 */
START_TEST (test_soft_retry)
{
  const char *kv[] = { "retry-rate", "1000000", "retry-success", "1000000",
                       NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;

  ck_assert_uint_eq (io_at (d, IO_READ, 1, 0, &c), READ_LBA1 + REV);
  ck_assert_uint_eq (c.retries, 1);
  hdd_free (d);
}
END_TEST

/* Idle work starts idle-work-after= after the drive was last busy, in
 * steps; the first request after it waits for the step under way.  The
 * read at 0 ends at 201 us; the work begins at 15 s + 201 us; a read
 * 30 ms into it waits 70 ms for the step's end, and reads LBA 1 from
 * then: at 15.100201 s + 5 us the platter is 201 us + 5 us into a
 * revolution (15.1 s is whole revolutions), slot 2 passes, and slot 1
 * comes round again at 10 ms + 100 us: a wait of 9.894 ms, then 100 us
 * of transfer and 1 us of crossing.
 */
START_TEST (test_idle_work)
{
  const char *kv[] = { "idle-work-after", "15s", "idle-work-step", "100ms",
                       NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;
  uint64_t t = 15 * SEC + READ_LBA1 + 30 * MS;

  io_at (d, IO_READ, 1, 0, &c);
  ck_assert_uint_eq (io_at (d, IO_READ, 1, t, &c),
                     70 * MS + 5 * US + 9894 * US + 100 * US + 1 * US);
  ck_assert_uint_eq (c.busy_ns, 70 * MS);
  ck_assert_uint_eq (c.tail_ns, 70 * MS);
  /* Right after, no wait. */
  io_at (d, IO_READ, 1, t + SEC, &c);
  ck_assert_uint_eq (c.busy_ns, 0);
  hdd_free (d);
}
END_TEST

/* Recalibrations of 0.5 s every 1 s, the first at a phase in [0, 1 s)
 * drawn from seed=: of ten reads 1.1 s apart from 1 s (0.0, 0.1, ...
 * 0.9 s into a period; each ends long before the next), five fall in a
 * recalibration and wait (at most 0.5 s), five do not.
 */
START_TEST (test_recalibration)
{
  const char *kv[] = { "recal-interval", "1s", "recal-time", "500ms", NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;
  unsigned i, waited = 0;

  for (i = 0; i < 10; i++) {
    io_at (d, IO_READ, 1, SEC + i * 1100 * MS, &c);
    ck_assert_uint_le (c.busy_ns, 500 * MS);
    waited += c.busy_ns > 0;
  }
  ck_assert_uint_eq (waited, 5);
  hdd_free (d);
}
END_TEST

/* legacy=true: none of the tail's rates, whatever the profile says. */
START_TEST (test_legacy)
{
  const char *kv[] = { "retry-rate", "1000000", "retry-success", "1000000",
                       "legacy", "true", NULL };
  struct hdd *d = tail_drive (kv);
  struct hdd_cost c;

  ck_assert_uint_eq (io_at (d, IO_READ, 1, 0, &c), READ_LBA1);
  hdd_free (d);
}
END_TEST

/* Issue 27: a request queued behind a recovery waits for it.  A read
 * of the bad LBA 1 at 0 (fails at 201 us + 7 s), a read of LBA 2
 * arriving at 1 ms: it starts when the first is done.
 */
START_TEST (test_queued_behind_recovery)
{
  const char *kv[] = { BASE_KV, "erc", "7s", NULL };
  struct tdrv *t = tdrv_new ("fifo", "st340014a", NULL);
  struct req *a, *b;
  size_t i;

  for (i = 0; kv[i]; i += 2)
    tdrv_set (t, kv[i], kv[i + 1]);
  tdrv_set (t, "bad-sectors", write_bad_file ("1\n"));
  t->image = 100 * MiB;
  tdrv_engine (t);
  unlink (bad_file);
  bad_file[0] = '\0';
  a = tdrv_at (t, 0, 0, IO_READ, SECTOR, SECTOR);
  b = tdrv_at (t, 1 * MS, 0, IO_READ, 2 * SECTOR, SECTOR);
  tdrv_run_all (t);
  ck_assert_uint_eq (a->done, READ_LBA1 + 7 * SEC);
  ck_assert (a->cost.medium_error);
  ck_assert_uint_eq (b->start, a->done);
  ck_assert (!b->cost.medium_error);
  tdrv_free (t);
}
END_TEST

/* lse-rate=: bursts per TB of image.  390,625 sectors (200,000,000
 * bytes) at 5,000 per TB is exactly one burst; at 10,000, two; with
 * lse-burst=1 each is one sector.  20 TB at 1,000,000 per TB would be
 * 20,000,000 bursts: refused.
 */
START_TEST (test_lse_bursts)
{
  const char *one[] = { "lse-rate", "5000", "lse-burst", "1", "erc", "7s",
                        NULL };
  const char *two[] = { "lse-rate", "10000", "lse-burst", "1", "erc", "7s",
                        NULL };
  const char *many[] = { "lse-rate", "1000000", "erc", "7s", NULL };
  struct hdd_params *p;
  struct tail tl;
  char err[HDD_ERRLEN];

  p = params ("st340014a", one);
  ck_assert_int_eq (tail_init (&tl, p, 390625, 1, err, sizeof err), 0);
  ck_assert_uint_eq (badmap_sectors (&tl.bad), 1);
  tail_free (&tl);
  hdd_params_free (p);
  p = params ("st340014a", two);
  ck_assert_int_eq (tail_init (&tl, p, 390625, 1, err, sizeof err), 0);
  ck_assert_uint_eq (badmap_sectors (&tl.bad), 2);
  tail_free (&tl);
  hdd_params_free (p);
  p = params ("st340014a", many);
  ck_assert_int_eq (tail_init (&tl, p, 20 * (UINT64_C(1000000000000) / 512),
                               1, err, sizeof err), -1);
  ck_assert_msg (strstr (err, "lse-rate=1000000: 20000000 bursts"), "%s",
                 err);
  tail_free (&tl);
  hdd_params_free (p);
}
END_TEST

/* ---- the bad-sector file ---- */

static int
parse (const char *text, struct badmap *m, char *err)
{
  return badmap_parse (m, text, strlen (text), "F", err, 256);
}

/* The manual's example mapfile (ddrescue 1.25, "Mapfile structure"):
 * one '-' block, 0x117000 for 0x200 bytes: sector 0x117000 / 512 = 2232.
 * '/' and '*' blocks are failed but not yet sized: not taken.
 */
START_TEST (test_mapfile_manual_example)
{
  static const char text[] =
    "# Mapfile. Created by GNU ddrescue version 1.25\n"
    "# Command line: ddrescue -d -c18 /dev/fd0 fdimage mapfile\n"
    "# current_pos  current_status  current_pass\n"
    "0x00120000     ?               1\n"
    "#      pos        size  status\n"
    "0x00000000  0x00117000  +\n"
    "0x00117000  0x00000200  -\n"
    "0x00117200  0x00001000  /\n"
    "0x00118200  0x00007E00  *\n"
    "0x00120000  0x00048000  ?\n";
  struct badmap m;
  char err[256];

  ck_assert_int_eq (parse (text, &m, err), 0);
  ck_assert_uint_eq (m.n, 1);
  ck_assert_uint_eq (m.r[0].first, 2232);
  ck_assert_uint_eq (m.r[0].n, 1);
  ck_assert (!m.r[0].weak);
  badmap_free (&m);
}
END_TEST

/* A status line without the pass (mapfiles before ddrescue 1.20),
 * decimal and octal numbers, a comment after whitespace, and '-'
 * blocks not sector-aligned: bytes 600-699 touch sector 1 only; bytes
 * 1500-1599 touch sectors 2 and 3.
 */
START_TEST (test_mapfile_old_and_numbers)
{
  static const char text[] =
    "0 +\n"
    "0 600 +  # finished\n"
    "600 100 -\n"
    "700 01440 +\n"             /* octal 01440 = 800 */
    "1500 100 -\n";
  struct badmap m;
  char err[256];

  ck_assert_int_eq (parse (text, &m, err), 0);
  ck_assert_uint_eq (m.n, 2);
  ck_assert_uint_eq (m.r[0].first, 1);
  ck_assert_uint_eq (m.r[0].n, 1);
  ck_assert_uint_eq (m.r[1].first, 2);
  ck_assert_uint_eq (m.r[1].n, 2);
  badmap_free (&m);
}
END_TEST

static void
expect_error (const char *text, const char *needle)
{
  struct badmap m;
  char err[256] = "";

  ck_assert_int_eq (parse (text, &m, err), -1);
  ck_assert_msg (strstr (err, needle), "got \"%s\", wanted \"%s\"", err,
                 needle);
}

START_TEST (test_mapfile_errors)
{
  /* Blocks must be contiguous (the manual). */
  expect_error ("0 ?\n0 512 +\n1024 512 -\n", "F, line 3: blocks must be "
                "contiguous");
  expect_error ("0 ?\n0 512 x\n", "F, line 2: not a block status");
  expect_error ("0 ? 0\n", "F, line 1: the status line's pass");
  expect_error ("0 ? 1\n0 -5 -\n", "F, line 2: not a non-negative integer");
  expect_error ("0 ?\n0 512\n", "F, line 2: expected a data block");
}
END_TEST

START_TEST (test_plain_format)
{
  static const char text[] =
    "# bad and weak sectors\n"
    "10\n"
    "20-29 weak\n"
    "\n"
    "0x100+4 bad\n"
    "25 bad   # the later line wins\n";
  struct badmap m;
  char err[256];

  ck_assert_int_eq (parse (text, &m, err), 0);
  ck_assert_uint_eq (badmap_sectors (&m), 1 + 10 + 4);
  ck_assert_uint_eq (badmap_count (&m, 20, 10), 10);
  ck_assert (!badmap_find (&m, 25, 1)->weak);
  ck_assert (badmap_find (&m, 26, 1)->weak);
  ck_assert_uint_eq (badmap_find (&m, 0x100, 4)->first, 0x100);
  badmap_free (&m);
  expect_error ("10\n20-5\n", "F, line 2: LAST before FIRST");
  expect_error ("10 worn\n", "F, line 1: expected bad or weak");
  expect_error ("x\n", "F, line 1: expected FIRST");
  expect_error ("1 bad extra\n", "F, line 1: expected FIRST[-LAST|+COUNT] "
                "[bad|weak], got more");
}
END_TEST

/* Parameters that cannot work together are refused, naming them. */
START_TEST (test_bad_values)
{
  struct hdd_params *p = params ("st340014a", NULL);
  char err[HDD_ERRLEN];
  struct hdd *d;

  ck_assert_int_eq (hdd_params_set (p, "bad-sectors", "/nonexistent/x", err,
                                    sizeof err), 0);
  d = hdd_new (p, GIB, 1, err, sizeof err);
  ck_assert_ptr_null (d);
  ck_assert_msg (strstr (err, "bad-sectors /nonexistent/x"), "%s", err);
  ck_assert_int_eq (hdd_params_set (p, "bad-sectors", "none", err,
                                    sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "retry-success", "0", err,
                                    sizeof err), 0);
  d = hdd_new (p, GIB, 1, err, sizeof err);
  ck_assert_ptr_null (d);
  ck_assert_msg (strstr (err, "retry-success=0"), "%s", err);
  hdd_params_free (p);
}
END_TEST

static Suite *
tail_suite (void)
{
  Suite *s = suite_create ("tail");
  TCase *tc = tcase_create ("tail");

  tcase_add_test (tc, test_plain_read);
  tcase_add_test (tc, test_bad_sector_erc);
  tcase_add_test (tc, test_bad_sector_own_limit);
  tcase_add_test (tc, test_bad_sector_elsewhere);
  tcase_add_test (tc, test_weak_sector_one_retry);
  tcase_add_test (tc, test_weak_sector_k_retries);
  tcase_add_test (tc, test_two_weak_sectors);
  tcase_add_test (tc, test_weak_sector_past_limit);
  tcase_add_test (tc, test_reallocated_costs_the_trip);
  tcase_add_test (tc, test_weak_rewritten);
  tcase_add_test (tc, test_soft_retry);
  tcase_add_test (tc, test_idle_work);
  tcase_add_test (tc, test_recalibration);
  tcase_add_test (tc, test_legacy);
  tcase_add_test (tc, test_queued_behind_recovery);
  tcase_add_test (tc, test_lse_bursts);
  tcase_add_test (tc, test_mapfile_manual_example);
  tcase_add_test (tc, test_mapfile_old_and_numbers);
  tcase_add_test (tc, test_mapfile_errors);
  tcase_add_test (tc, test_plain_format);
  tcase_add_test (tc, test_bad_values);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (tail_suite ());
}
