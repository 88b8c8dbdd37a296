/* hddsim: unit tests of fast-write= (DiskSim's Fast write level).
 *
 * The drive of these tests is made for arithmetic: 6000 rpm (10 ms a
 * revolution), 100 sectors a track in one zone (a sector passes under
 * the head in 100 us), two surfaces, an interface of 50 us a sector
 * (10,240,000 B/s), a command overhead of 5 us, write-through with no
 * read-ahead, fast-write=1.  Every expected value below is worked out
 * from these numbers, never from a run.
 *
 * Each timeline starts the same way: a read of sectors 0..9 of a track
 * (cylinder 300, surface 0) at t = 0, served at s1.  Its media read
 * ends at te = s1 - 50 us (the last sector's crossing follows it), with
 * the head at the start of sector 10: sector k of the track passes
 * under the head from te + (k - 10) x 100 us on (mod 10 ms).
 */

#include <inttypes.h>
#include <stdlib.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../model/geometry.h"
#include "../../disksim/disksim.h"

#define DATA "tests/data/disksim/"

#define BASE_KV                                                         \
  "rpm", "6000", "zones", "1", "sectors-outer", "100",                  \
  "sectors-inner", "100", "surfaces", "2", "capacity", "100M",          \
  "head-switch", "0.4ms", "track-skew", "0.5ms", "overhead", "5us",     \
  "placement", "start", "iface-rate", "10240000", "cache", "wt",        \
  "readahead", "0"

static struct hdd *
test_drive_with (const char *fast_write, const char *const *more)
{
  const char *kv[64] = { BASE_KV, "fast-write", fast_write };
  size_t n = 0, i;

  while (kv[n])
    n++;
  for (i = 0; more && more[i]; i++)
    kv[n++] = more[i];
  kv[n] = NULL;
  return drive ("st340014a", kv, 0, 1);
}

static struct hdd *
test_drive (const char *fast_write)
{
  return test_drive_with (fast_write, NULL);
}

static uint64_t
serve_lba (struct hdd *d, enum io_op op, uint64_t lba, uint64_t sectors,
           uint64_t t, struct hdd_cost *c)
{
  uint64_t s = serve_at (d, op, lba * SECTOR, sectors * SECTOR, t, c);

  ck_assert_uint_eq (hdd_cost_total (c), s);
  return s;
}

/* The read that starts every timeline; returns te (see above). */
static uint64_t
first_read (struct hdd *d, uint64_t *track)
{
  struct hdd_cost c;
  uint64_t s1;

  *track = geom_track_lba (hdd_geom (d), 300, 0);
  s1 = serve_lba (d, IO_READ, *track, 10, 0, &c);
  return s1 - 50 * US;
}

/* The write of sectors 20..27 arriving at te + 50 us (when the read is
 * over) completes once its data has crossed: 5 us + 8 x 50 us = 405 us,
 * at te + 455 us.  Its media write runs on: after the overhead
 * (te + 55 us) it waits for sector 20 (te + 1 ms) and ends at te + 1.8 ms.
 */
static uint64_t
fast_write_20 (struct hdd *d, uint64_t track, uint64_t te)
{
  struct hdd_cost c;
  uint64_t s = serve_lba (d, IO_WRITE, track + 20, 8, te + 50 * US, &c);

  ck_assert_uint_eq (s, 405 * US);
  ck_assert_uint_eq (c.overhead_ns, 5 * US);
  ck_assert_uint_eq (c.xfer_ns, 400 * US);
  ck_assert (c.cache_hit);
  return te + 455 * US;
}

/* With fast-write=0 the same write waits for its media write: it ends
 * at te + 1.8 ms, 1750 us after it arrived.
 */
START_TEST (test_level0_waits_for_media)
{
  struct hdd *d = test_drive ("0");
  uint64_t track, te = first_read (d, &track);
  struct hdd_cost c;

  ck_assert_uint_eq (serve_lba (d, IO_WRITE, track + 20, 8, te + 50 * US,
                                &c), 1750 * US);
  ck_assert (!c.cache_hit);
  hdd_free (d);
}
END_TEST

START_TEST (test_completes_after_transfer)
{
  struct hdd *d = test_drive ("1");
  uint64_t track, te = first_read (d, &track);

  fast_write_20 (d, track, te);
  hdd_free (d);
}
END_TEST

/* A fast write pays the write-hit overhead (DiskSim's class for every
 * write when fast writes are on): 5 + 20 us, then 400 us of data.
 */
START_TEST (test_write_hit_class)
{
  const char *kv[] = { "overhead-write-hit", "20us", "overhead-write-miss",
                       "70us", NULL };
  struct hdd *d = test_drive_with ("1", kv);
  uint64_t track, te = first_read (d, &track);
  struct hdd_cost c;

  ck_assert_uint_eq (serve_lba (d, IO_WRITE, track + 20, 8, te + 50 * US,
                                &c), 425 * US);
  ck_assert_uint_eq (c.overhead_ns, 25 * US);
  hdd_free (d);
}
END_TEST

/* A forced-unit-access write is written through, still in the
 * write-hit class: 25 us, then it waits for sector 20 (te + 1 ms) and
 * ends at te + 1.8 ms, 1750 us after it arrived.
 */
START_TEST (test_fua_writes_through)
{
  const char *kv[] = { "overhead-write-hit", "20us", "overhead-write-miss",
                       "70us", NULL };
  struct hdd *d = test_drive_with ("1", kv);
  uint64_t track, te = first_read (d, &track);
  struct io io = { .op = IO_WRITE, .offset = (track + 20) * SECTOR,
                   .length = 8 * SECTOR, .fua = true };
  struct hdd_cost c;

  hdd_idle (d, te + 50 * US);
  ck_assert_uint_eq (hdd_serve (d, &io, te + 50 * US, &c), 1750 * US);
  ck_assert_uint_eq (c.overhead_ns, 25 * US);
  ck_assert (!c.cache_hit);
  hdd_free (d);
}
END_TEST

/* A read miss of sector 50 arriving when the write completes
 * (te + 455 us) waits for the media write (to te + 1.8 ms: 1345 us),
 * then its overhead (te + 1.805 ms), then sector 50 (te + 4 ms): read by
 * te + 4.1 ms, across by te + 4.15 ms.  3695 us in all.
 */
START_TEST (test_read_miss_waits)
{
  struct hdd *d = test_drive ("1");
  uint64_t track, te = first_read (d, &track), t;
  struct hdd_cost c;

  t = fast_write_20 (d, track, te);
  ck_assert_uint_eq (serve_lba (d, IO_READ, track + 50, 1, t, &c),
                     3695 * US);
  ck_assert_uint_eq (c.busy_ns, 1345 * US);
  hdd_free (d);
}
END_TEST

/* A read of sectors 0..9, which a segment holds, waits for the media
 * write too (DiskSim serves nothing while it writes): 1345 us, then
 * 5 us + 10 x 50 us.  1850 us (505 us without the wait).
 */
START_TEST (test_read_hit_waits)
{
  struct hdd *d = test_drive ("1");
  uint64_t track, te = first_read (d, &track), t;
  struct hdd_cost c;

  t = fast_write_20 (d, track, te);
  ck_assert_uint_eq (serve_lba (d, IO_READ, track, 10, t, &c), 1850 * US);
  ck_assert_uint_eq (c.busy_ns, 1345 * US);
  ck_assert (c.cache_hit);
  hdd_free (d);
}
END_TEST

/* A write of sectors 28..35 (appending) arriving at te + 455 us joins
 * the media write: it completes in 405 us, and the media writes its
 * sectors right after sector 27, by te + 2.6 ms.  A read miss of sector
 * 50 arriving at te + 860 us then waits 1740 us, pays its overhead
 * (te + 2.605 ms) and reads sector 50 at te + 4 ms: done at te + 4.15 ms,
 * 3290 us.
 */
START_TEST (test_append_joins)
{
  struct hdd *d = test_drive ("1");
  uint64_t track, te = first_read (d, &track), t;
  struct hdd_cost c;

  t = fast_write_20 (d, track, te);
  ck_assert_uint_eq (serve_lba (d, IO_WRITE, track + 28, 8, t, &c),
                     405 * US);
  ck_assert_uint_eq (c.busy_ns, 0);
  t += 405 * US;
  ck_assert_uint_eq (serve_lba (d, IO_READ, track + 50, 1, t, &c),
                     3290 * US);
  ck_assert_uint_eq (c.busy_ns, 1740 * US);
  hdd_free (d);
}
END_TEST

/* With 8-sector segments the 8 sectors of the write still to be
 * written fill the segment: the appending write of 28..35 cannot join
 * (DiskSim appends while fewer than a segment's blocks are left).  Its
 * 5 us overhead runs while the media write goes on (to te + 1.8 ms,
 * 1345 us after it arrived), then its data: 1745 us, 1340 us of them
 * waiting past the overhead.
 */
START_TEST (test_append_bounded_by_segment)
{
  const char *kv[] = { "cache-size", "4K", "cache-segments", "1", NULL };
  struct hdd *d = test_drive_with ("1", kv);
  uint64_t track, te = first_read (d, &track), t;
  struct hdd_cost c;

  t = fast_write_20 (d, track, te);
  ck_assert_uint_eq (serve_lba (d, IO_WRITE, track + 28, 8, t, &c),
                     1745 * US);
  ck_assert_uint_eq (c.busy_ns, 1340 * US);
  hdd_free (d);
}
END_TEST

/* A write of sectors 40..47 (not appending) arriving at te + 455 us
 * runs its 5 us overhead at once, as DiskSim does, while the media write
 * goes on; its data crosses once the media write is over: te + 1.8 ms
 * + 400 us = te + 2.2 ms, 1745 us after it arrived, 1340 us of them
 * waiting past its overhead.  Its own media write reaches sector 40 at
 * te + 3 ms and ends at te + 3.8 ms: a read of sector 50 arriving at
 * te + 2.2 ms waits 1600 us, and after its overhead (te + 3.805 ms)
 * reads sector 50 at te + 4 ms, done at te + 4.15 ms: 1950 us.
 */
START_TEST (test_other_write_waits)
{
  struct hdd *d = test_drive ("2");
  uint64_t track, te = first_read (d, &track), t;
  struct hdd_cost c;

  t = fast_write_20 (d, track, te);
  ck_assert_uint_eq (serve_lba (d, IO_WRITE, track + 40, 8, t, &c),
                     1745 * US);
  ck_assert_uint_eq (c.busy_ns, 1340 * US);
  t += 1745 * US;
  ck_assert_uint_eq (serve_lba (d, IO_READ, track + 50, 1, t, &c),
                     1950 * US);
  ck_assert_uint_eq (c.busy_ns, 1600 * US);
  hdd_free (d);
}
END_TEST

/* The overhead runs from the write's arrival even when it outlasts the
 * media write under way.  With a 1505 us write overhead (5 + 1500) the
 * write of 20..27 arriving at te + 50 us starts its media write at
 * te + 1555 us, past sector 20 (te + 1 ms): it writes it a revolution
 * later, ending at te + 11.8 ms.  A write of 40..47 arriving at
 * te + 11 ms, 800 us before that, has its overhead over at te + 12.505
 * ms and its data across 400 us later: 1905 us, no wait past the
 * overhead (a serial overhead would make it 800 + 1505 + 400 = 2705).
 */
START_TEST (test_overhead_overlaps_media_write)
{
  const char *kv[] = { "overhead-write-hit", "1500us",
                       "overhead-write-hit-after-write", "1500us", NULL };
  struct hdd *d = test_drive_with ("2", kv);
  uint64_t track, te = first_read (d, &track);
  struct hdd_cost c;

  ck_assert_uint_eq (serve_lba (d, IO_WRITE, track + 20, 8, te + 50 * US,
                                &c), 1905 * US);
  ck_assert_uint_eq (serve_lba (d, IO_WRITE, track + 40, 8,
                                te + 11000 * US, &c), 1905 * US);
  ck_assert_uint_eq (c.busy_ns, 0);
  ck_assert_uint_eq (c.overhead_ns, 1505 * US);
  hdd_free (d);
}
END_TEST

/* A write arriving after the media write has ended (te + 1.8 ms) is a
 * new one, even where it appends: sector 28 passed under the head at
 * te + 1.8 ms, so after the overhead (from te + 2 ms: te + 2.005 ms) it
 * waits for it a revolution later, te + 11.8 ms, and ends at te + 12.6
 * ms.  The host has it at te + 2 ms + 405 us; a read of sector 50
 * arriving then waits to te + 12.6 ms, 10.195 ms.
 */
START_TEST (test_append_after_media_is_new)
{
  struct hdd *d = test_drive ("1");
  uint64_t track, te = first_read (d, &track), t;
  struct hdd_cost c;

  fast_write_20 (d, track, te);
  t = te + 2000 * US;
  ck_assert_uint_eq (serve_lba (d, IO_WRITE, track + 28, 8, t, &c),
                     405 * US);
  ck_assert_uint_eq (c.busy_ns, 0);
  t += 405 * US;
  serve_lba (d, IO_READ, track + 50, 1, t, &c);
  ck_assert_uint_eq (c.busy_ns, 10195 * US);
  hdd_free (d);
}
END_TEST

/* A flush right after the write waits for its media write (1345 us)
 * and pays its overhead: 1350 us.
 */
START_TEST (test_flush_waits)
{
  struct hdd *d = test_drive ("1");
  uint64_t track, te = first_read (d, &track), t;
  struct hdd_cost c;
  struct io io = { .op = IO_FLUSH };

  t = fast_write_20 (d, track, te);
  ck_assert_uint_eq (hdd_serve (d, &io, t, &c), 1350 * US);
  hdd_free (d);
}
END_TEST

/* Only with cache=wt; the error names both keys. */
START_TEST (test_needs_write_through)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_int_eq (hdd_params_load_profile (p, "st340014a", err,
                                             sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "fast-write", "1", err, sizeof err),
                    0);
  ck_assert_int_eq (hdd_params_set (p, "cache", "wb", err, sizeof err), 0);
  ck_assert_int_ne (hdd_params_validate (p, err, sizeof err), 0);
  ck_assert_ptr_nonnull (strstr (err, "fast-write=1"));
  ck_assert_ptr_nonnull (strstr (err, "cache=wt"));
  ck_assert_int_ne (hdd_params_set (p, "fast-write", "3", err, sizeof err),
                    0);
  hdd_params_free (p);
}
END_TEST

/* Import DATA/parv; 0 if it imports (*p set), else -1 with err. */
static int
import (const char *parv, struct hdd_params *p, char *err, size_t errlen)
{
  struct ds_drive *dd = ds_drive_load (parv, err, errlen);
  int r;

  ck_assert_msg (dd != NULL, "%s", err);
  r = ds_drive_to_params (dd, p, NULL, NULL, err, errlen);
  ds_drive_free (dd);
  return r;
}

/* barracuda.diskspecs: Fast write level = 1, Combine seq writes = 1. */
START_TEST (test_import_barracuda)
{
  struct hdd_params p;
  char err[HDD_ERRLEN];

  ck_assert_msg (import (DATA "barracuda.parv", &p, err, sizeof err) == 0,
                 "%s", err);
  ck_assert_uint_eq (p.fast_write, 1);
  ck_assert_int_eq (p.cache, CACHE_WT);
}
END_TEST

/* The tiny drive (Fast write level = 0, Combine seq writes = 0) copied
 * into a directory of our own with its diskspecs edited: caching on
 * (read-ahead over requested, which caching needs the model to have).
 */
static void
copy_tiny (const char *dir, const char *fast, const char *combine)
{
  char cmd[1024];

  snprintf (cmd, sizeof cmd,
            "mkdir -p %s/models && cp " DATA "tiny.parv %s/ && "
            "cp " DATA "models/tiny.model " DATA "models/tiny.seek "
            "%s/models/ && sed -e 's/Fast write level = 0/Fast write "
            "level = %s/' -e 's/Combine seq writes = 0/Combine seq writes "
            "= %s/' -e 's/Enable caching in buffer = 0/Enable caching "
            "in buffer = 1/' -e 's/Read-ahead over requested = 0/"
            "Read-ahead over requested = 1/' "
            DATA "tiny.diskspecs > %s/tiny.diskspecs",
            dir, dir, dir, fast, combine, dir);
  ck_assert_int_eq (system (cmd), 0);
}

/* Level 2 with combining maps to fast-write=2; level 1 without
 * combining imports too (DiskSim's controller takes Combine seq
 * writes = 0 as it is: combine-writes=0).
 */
START_TEST (test_import_levels)
{
  char dir[] = "/tmp/hddsim-fw-XXXXXX", parv[600], cmd[700];
  char err[HDD_ERRLEN];
  struct hdd_params p;

  ck_assert_ptr_nonnull (mkdtemp (dir));
  snprintf (parv, sizeof parv, "%s/tiny.parv", dir);
  copy_tiny (dir, "2", "1");
  ck_assert_msg (import (parv, &p, err, sizeof err) == 0, "%s", err);
  ck_assert_uint_eq (p.fast_write, 2);
  copy_tiny (dir, "1", "0");
  ck_assert_msg (import (parv, &p, err, sizeof err) == 0, "%s", err);
  ck_assert_uint_eq (p.fast_write, 1);
  ck_assert_uint_eq (p.ds.combine, 0);
  copy_tiny (dir, "0", "0");
  ck_assert_msg (import (parv, &p, err, sizeof err) == 0, "%s", err);
  ck_assert_uint_eq (p.fast_write, 0);
  snprintf (cmd, sizeof cmd, "rm -rf %s", dir);
  ck_assert_int_eq (system (cmd), 0);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("model-fastwrite");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_level0_waits_for_media);
  tcase_add_test (tc, test_completes_after_transfer);
  tcase_add_test (tc, test_write_hit_class);
  tcase_add_test (tc, test_fua_writes_through);
  tcase_add_test (tc, test_read_miss_waits);
  tcase_add_test (tc, test_read_hit_waits);
  tcase_add_test (tc, test_append_joins);
  tcase_add_test (tc, test_append_bounded_by_segment);
  tcase_add_test (tc, test_other_write_waits);
  tcase_add_test (tc, test_overhead_overlaps_media_write);
  tcase_add_test (tc, test_append_after_media_is_new);
  tcase_add_test (tc, test_flush_waits);
  tcase_add_test (tc, test_needs_write_through);
  tcase_add_test (tc, test_import_barracuda);
  tcase_add_test (tc, test_import_levels);
  suite_add_tcase (s, tc);
  return run_suite (s);
}
