/* hddsim: unit tests of the DM-SMR rules (model/smr.c), on a virtual
 * clock.
 *
 * Each test sets the SMR parameters small enough to work the rule out
 * by hand (a map of a few entries, a cache of a few writes) and checks
 * what the rule says must follow: where a write went (the map's
 * entries, the log's sectors), which band cleaning took, and bounds on
 * the time from the parameters (a band cannot be read and rewritten in
 * less than two passes of its sectors at the outer zone's rate).
 */

#include <inttypes.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../model/geometry.h"
#include "../../model/media_cache.h"
#include "../../model/smr.h"

#define MIB (UINT64_C(1) << 20)
#define BAND (32 * MIB)         /* smr-band-outer= below: band 0 */

/* A DM-SMR drive on st4000nm0033's mechanics, the write cache off so
 * that every write reaches the media as the host sends it.  More
 * settings after the defaults override them.
 */
static struct hdd *
smr_drive (const char *const *more)
{
  const char *kv[64] = {
    "cache", "off", "smr", "1", "smr-band-outer", "32M",
    "smr-band-inner", "16M", "media-cache-size", "1G",
    "media-cache-at", "0", "media-cache-entries", "1000",
    "media-cache-max-write", "64M", "media-cache-idle", "1s",
    "smr-seq-min", "512K",
  };
  size_t n = 20, i;

  for (i = 0; more && more[i]; i++)
    kv[n++] = more[i];
  kv[n] = NULL;
  return drive ("st4000nm0033", kv, 0, 1);
}

/* Sectors of the 4 KiB at off staged in the media cache. */
static uint64_t
staged (const struct hdd *d, uint64_t off)
{
  return mc_overlap (hdd_media_cache (d), hdd_image_to_lba (d, off), 8);
}

static struct hdd_smr_state
state (const struct hdd *d)
{
  struct hdd_smr_state s;
  hdd_smr_state (d, &s);
  return s;
}

/* Byte offset of band b's start (placement=start: image = LBAs). */
static uint64_t
band_at (const struct hdd *d, uint64_t b)
{
  return hdd_smr (d)->band_start[b] * 512;
}

static uint64_t
band_bytes (const struct hdd *d, uint64_t b)
{
  const struct smr *s = hdd_smr (d);
  return (s->band_start[b + 1] - s->band_start[b]) * 512;
}

/* Two passes over a band at the outer zone's rate: the least a
 * cleaning can take (read it, write it; a revolution passes spt
 * sectors under one head).
 */
static double
band_passes_ns (const struct hdd *d, uint64_t band_bytes)
{
  const struct hdd_params *p = hdd_params_of (d);
  return 2.0 * (double) (band_bytes / 512) / (double) p->spt_outer
    * rev_ns (d);
}

/* Bands go from 32 MiB at LBA 0 to 16 MiB at the end, linearly. */
START_TEST (test_band_sizes)
{
  struct hdd *d = smr_drive (NULL);
  const struct smr *s = hdd_smr (d);
  uint64_t sectors = hdd_geom (d)->sectors, last;
  /* A band at x (of C sectors) is a - (a - b) x / C long (a = 32 MiB,
     b = 16 MiB): the count is the integral of dx over that, C / (a -
     b) * ln (a / b) = C / 16 MiB * ln 2. */
  double expect = (double) sectors / (16.0 * (double) MIB / 512) * log (2.0);

  ck_assert_uint_eq (s->band_start[0], 0);
  ck_assert_uint_eq (s->band_start[1], BAND / 512);
  ck_assert_uint_eq (s->band_start[s->nbands], sectors);
  last = s->band_start[s->nbands] - s->band_start[s->nbands - 1];
  /* The last band: 16 MiB, or the remainder of the drive. */
  ck_assert_uint_le (last, 16 * MIB / 512 + 1);
  /* Within 0.1% (the sizes are whole sectors). */
  ck_assert_double_eq_tol ((double) s->nbands, expect, expect * 0.001);
  ck_assert_uint_eq (smr_band_of (s, BAND / 512 - 1), 0);
  ck_assert_uint_eq (smr_band_of (s, BAND / 512), 1);
  hdd_free (d);
}
END_TEST

/* A small write in the middle of a band is staged: one map entry, its
 * sectors in the log, the head on the log's first track (the region at
 * LBA 0: media-cache-at=0; the media cache lands a write where the
 * head meets the log's track).
 */
START_TEST (test_small_write_staged)
{
  struct hdd *d = smr_drive (NULL);
  struct hdd_cost c;
  struct hdd_smr_state st;

  serve_at (d, IO_WRITE, band_at (d, 100) + 4 * MIB, 4096, 0, &c);
  st = state (d);
  ck_assert_uint_eq (st.map_entries, 1);
  ck_assert_uint_eq (st.logged_bytes, 4096);
  ck_assert_uint_le (hdd_head_offset (d),
                     hdd_params_of (d)->spt_outer * 512);
  ck_assert_uint_eq (st.bands_cleaned, 0);
  hdd_free (d);
}
END_TEST

/* Large commands that begin a band, and those continuing the run, go
 * in place; a large one elsewhere and a small one at a band's start
 * are staged.
 */
START_TEST (test_whole_band_sequential_in_place)
{
  struct hdd *d = smr_drive (NULL);
  struct hdd_cost c;
  uint64_t t = 0, b = band_at (d, 50);

  t += serve_at (d, IO_WRITE, b, MIB, t, &c);           /* begins band */
  t += serve_at (d, IO_WRITE, b + MIB, MIB, t, &c);     /* continues */
  ck_assert_uint_eq (state (d).map_entries, 0);
  ck_assert_uint_eq (hdd_head_offset (d), b + 2 * MIB);
  t += serve_at (d, IO_WRITE, b + 8 * MIB, MIB, t, &c); /* a jump */
  ck_assert_uint_eq (state (d).map_entries, 1);
  t += serve_at (d, IO_WRITE, band_at (d, 60), 256 * 1024, t, &c);
  /* (smaller than smr-seq-min=) */
  ck_assert_uint_eq (state (d).map_entries, 2);
  hdd_free (d);
}
END_TEST

/* Only a run's start needs a command of smr-seq-min=: md's recovery
 * sends 1016 KiB and 8 KiB commands in turn; the 8 KiB one continues
 * the run home exactly, so it goes home too, and so does the 1016 KiB
 * one after it (nothing staged).  An 8 KiB write 2 MiB further on
 * continues nothing and is staged; so are four 32 KiB writes in a row
 * from another band's start: they never start a run (S5's collapse).
 */
START_TEST (test_small_write_continuing_run_goes_home)
{
  struct hdd *d = smr_drive (NULL);
  struct hdd_cost c;
  uint64_t t = 0, i, b = band_at (d, 50), e = band_at (d, 60);
  uint64_t big = 1016 * 1024, small = 8 * 1024;

  t += serve_at (d, IO_WRITE, b, big, t, &c);                 /* starts */
  t += serve_at (d, IO_WRITE, b + big, small, t, &c);         /* continues */
  t += serve_at (d, IO_WRITE, b + big + small, big, t, &c);   /* continues */
  ck_assert_uint_eq (state (d).map_entries, 0);
  ck_assert_uint_eq (staged (d, b + big), 0);
  ck_assert_uint_eq (hdd_head_offset (d), b + 2 * big + small);
  t += serve_at (d, IO_WRITE, b + 2 * big + small + 2 * MIB, small, t, &c);
  ck_assert_uint_eq (state (d).map_entries, 1);
  ck_assert_uint_eq (staged (d, b + 2 * big + small + 2 * MIB), 8);
  for (i = 0; i < 4; i++)
    t += serve_at (d, IO_WRITE, e + i * 32768, 32768, t, &c);
  ck_assert_uint_eq (mc_overlap (hdd_media_cache (d), e / 512, 256), 256);
  hdd_free (d);
}
END_TEST

/* Through the RAM write cache, each command's data goes where the
 * command decided when it arrived: two 1 MiB commands from a band's
 * start go home, eight 32 KiB ones in a row (merged in the cache into
 * one 256 KiB range) are staged.
 */
START_TEST (test_write_cache_keeps_the_commands_way)
{
  const char *more[] = { "cache", "wb", NULL };
  struct hdd *d = smr_drive (more);
  struct hdd_cost c;
  uint64_t t = 0, i, b = band_at (d, 40), e = band_at (d, 90) + MIB;

  t += serve_at (d, IO_WRITE, b, MIB, t, &c);
  t += serve_at (d, IO_WRITE, b + MIB, MIB, t, &c);
  for (i = 0; i < 8; i++)
    t += serve_at (d, IO_WRITE, e + i * 32768, 32768, t, &c);
  t += serve_at (d, IO_FLUSH, 0, 0, t, &c);
  ck_assert_uint_eq (hdd_dirty_bytes (d), 0);
  ck_assert_uint_eq (mc_overlap (hdd_media_cache (d), b / 512, 4096), 0);
  ck_assert_uint_eq (mc_overlap (hdd_media_cache (d), e / 512, 512), 512);
  hdd_free (d);
}
END_TEST

/* The map full: the next staged write waits while the band staged
 * first is cleaned (FIFO); the host's wait is at least two passes of
 * that band.
 */
START_TEST (test_map_full_forces_fifo_cleaning)
{
  const char *more[] = { "media-cache-entries", "4", NULL };
  struct hdd *d = smr_drive (more);
  struct hdd_cost c;
  uint64_t t = 0, i;
  const uint64_t bands[] = { 70, 20, 90, 40, 10 };

  for (i = 0; i < 4; i++)
    t += serve_at (d, IO_WRITE, band_at (d, bands[i]) + MIB, 4096, t, &c);
  ck_assert_uint_eq (state (d).map_entries, 4);
  ck_assert_uint_eq (state (d).bands_cleaned, 0);
  t += serve_at (d, IO_WRITE, band_at (d, bands[4]) + MIB, 4096, t, &c);
  ck_assert_uint_eq (state (d).bands_cleaned, 1);
  ck_assert_uint_eq (state (d).map_entries, 4);
  ck_assert_msg ((double) c.busy_ns >= band_passes_ns (d, band_bytes (d, 70)),
                 "cleaning a band took only %.1f ms", c.busy_ns / 1e6);
  /* The first band staged (70) was cleaned: its data is in place. */
  ck_assert_uint_eq (staged (d, band_at (d, 70) + MIB), 0);
  ck_assert_uint_eq (staged (d, band_at (d, 20) + MIB), 8);
  hdd_free (d);
}
END_TEST

/* Cleaning takes the band of the oldest staged write, and only it: a
 * write in the next band stays staged.
 */
START_TEST (test_cleaning_takes_the_band)
{
  const char *more[] = { "media-cache-entries", "3", NULL };
  struct hdd *d = smr_drive (more);
  struct hdd_cost c;
  uint64_t t = 0;

  t += serve_at (d, IO_WRITE, band_at (d, 2) + MIB, 4096, t, &c);
  t += serve_at (d, IO_WRITE, band_at (d, 3) + MIB, 4096, t, &c);
  t += serve_at (d, IO_WRITE, band_at (d, 200) + MIB, 4096, t, &c);
  t += serve_at (d, IO_WRITE, band_at (d, 300) + MIB, 4096, t, &c);
  ck_assert_uint_eq (state (d).bands_cleaned, 1);
  ck_assert_uint_eq (staged (d, band_at (d, 2) + MIB), 0);
  ck_assert_uint_eq (staged (d, band_at (d, 3) + MIB), 8);
  hdd_free (d);
}
END_TEST

/* A staged command across a band's end is two extents, one per band,
 * however contiguous in the log (the second piece lands right after
 * the first): cleaning a band rewrites that band alone, so the oldest
 * band's cleaning leaves the next band's piece staged.  (Before this
 * rule the two pieces joined into one extent and the first band's
 * cleaning forgot the second band's data unwritten: an ascending
 * stream cleaned many bands' data for one band's work.)
 */
START_TEST (test_staged_run_stops_at_band_end)
{
  struct hdd *d = smr_drive (NULL);
  struct hdd_cost c;
  uint64_t t;

  /* 256 KiB, under smr-seq-min=512K: staged, half in band 5, half in
     band 6. */
  t = serve_at (d, IO_WRITE, band_at (d, 6) - 128 * 1024, 256 * 1024, 0,
                &c);
  ck_assert_uint_eq (state (d).map_entries, 2);
  ck_assert_uint_eq (state (d).logged_bytes, 256 * 1024);
  hdd_idle (d, t + 1000 * MS + 1);      /* one band's cleaning begins */
  ck_assert_uint_eq (state (d).bands_cleaned, 1);
  ck_assert_uint_eq (staged (d, band_at (d, 6) - 4096), 0);
  ck_assert_uint_eq (staged (d, band_at (d, 6)), 8);
  ck_assert_uint_eq (state (d).logged_bytes, 128 * 1024);
  hdd_free (d);
}
END_TEST

/* The log full: 64 KiB of cache takes two 32 KiB writes; the third
 * cleans the first one's band.
 */
START_TEST (test_log_full_forces_cleaning)
{
  const char *more[] = { "media-cache-size", "64K",
                         "media-cache-max-write", "64K", NULL };
  struct hdd *d = smr_drive (more);
  struct hdd_cost c;
  uint64_t t = 0;

  t += serve_at (d, IO_WRITE, band_at (d, 30) + MIB, 32768, t, &c);
  t += serve_at (d, IO_WRITE, band_at (d, 80) + MIB, 32768, t, &c);
  ck_assert_uint_eq (state (d).logged_bytes, 65536);
  ck_assert_uint_eq (c.busy_ns, 0);
  t += serve_at (d, IO_WRITE, band_at (d, 55) + MIB, 32768, t, &c);
  ck_assert_uint_eq (state (d).bands_cleaned, 1);
  ck_assert_uint_eq (state (d).logged_bytes, 65536);
  ck_assert ((double) c.busy_ns >= band_passes_ns (d, band_bytes (d, 30)));
  hdd_free (d);
}
END_TEST

/* Cleaning starts smr-idle= after the host's last request, not
 * before, and empties the cache while the host stays quiet.
 */
START_TEST (test_idle_cleaning)
{
  struct hdd *d = smr_drive (NULL);
  struct hdd_cost c;
  uint64_t t = 0, i;
  double need = 0;

  for (i = 0; i < 5; i++)
    t += serve_at (d, IO_WRITE, band_at (d, 10 + 17 * i) + MIB, 4096, t, &c);
  hdd_idle (d, t + 1000 * MS - 1);
  ck_assert_uint_eq (state (d).bands_cleaned, 0);
  /* Five bands, each at most a few full strokes and passes: 60 s is
     far more than enough. */
  hdd_idle (d, t + 60000 * MS);
  ck_assert_uint_eq (state (d).bands_cleaned, 5);
  ck_assert_uint_eq (state (d).map_entries, 0);
  ck_assert_uint_eq (state (d).logged_bytes, 0);
  for (i = 0; i < 5; i++)
    need += band_passes_ns (d, band_bytes (d, 10 + 17 * i));
  ck_assert ((double) state (d).clean_ns >= need);
  hdd_free (d);
}
END_TEST

/* A request arriving during a cleaning waits for its band to end. */
START_TEST (test_request_waits_for_cleaning)
{
  struct hdd *d = smr_drive (NULL);
  struct hdd_cost c;
  uint64_t t = 0;

  t += serve_at (d, IO_WRITE, band_at (d, 100) + MIB, 4096, t, &c);
  /* Cleaning begins at t + 1 s; a read 1 ms into it waits. */
  serve_at (d, IO_READ, band_at (d, 7), 4096, t + 1001 * MS, &c);
  ck_assert_uint_eq (state (d).bands_cleaned, 1);
  ck_assert_msg ((double) c.busy_ns + 1e6
                 >= band_passes_ns (d, band_bytes (d, 100)),
                 "waited %.1f ms", c.busy_ns / 1e6);
  hdd_free (d);
}
END_TEST

/* A read over staged data reads its fragment from the cache region
 * (the head ends there: LBA 0 onwards), a read of unstaged data the
 * band.
 */
START_TEST (test_fragmented_read)
{
  struct hdd *d = smr_drive (NULL);
  struct hdd_cost c;
  uint64_t t = 0, b = band_at (d, 200);

  t += serve_at (d, IO_WRITE, b + MIB, 4096, t, &c);
  t += serve_at (d, IO_READ, b + MIB, 4096, t, &c);
  ck_assert_uint_lt (hdd_head_offset (d), 1 * GIB);   /* in the region */
  /* [band][staged][band]: the last piece read is in the band. */
  t += serve_at (d, IO_READ, b + MIB - 8192, 16384, t, &c);
  ck_assert_uint_eq (hdd_head_offset (d), b + MIB + 8192);
  /* Three pieces, two of them after a seek between the region and the
     band, at least a one-cylinder seek each. */
  ck_assert_uint_ge (c.seek_ns, 2 * hdd_params_of (d)->seek_track);
  ck_assert_uint_eq (state (d).map_entries, 1);
  hdd_free (d);
}
END_TEST

/* smr-aged=50 (or 0.5): half the log and half the map in use. */
START_TEST (test_aged)
{
  const char *more[] = { "smr-aged", "0.5", NULL };
  struct hdd *d = smr_drive (more);
  struct hdd_smr_state st = state (d);

  ck_assert_uint_eq (hdd_params_of (d)->smr_aged, 50);
  ck_assert_uint_eq (st.map_entries, 500);
  /* 500 entries of 1 GiB / 2 / 500 each, in whole sectors. */
  ck_assert_uint_eq (st.logged_bytes, 500 * ((GIB / 2 / 500) / 512 * 512));
  hdd_free (d);
}
END_TEST

/* An estimate that forces a cleaning gives everything back: the same
 * cost when the request is then served, the same state before it.
 */
START_TEST (test_estimate_gives_back)
{
  const char *more[] = { "media-cache-entries", "2", NULL };
  struct hdd *d = smr_drive (more);
  struct hdd_cost c;
  struct io io = { .op = IO_WRITE, .offset = band_at (d, 33) + MIB,
                   .length = 4096 };
  uint64_t t = 0, e, s;

  t += serve_at (d, IO_WRITE, band_at (d, 11) + MIB, 4096, t, &c);
  t += serve_at (d, IO_WRITE, band_at (d, 22) + MIB, 4096, t, &c);
  e = hdd_estimate (d, &io, t, NULL);
  e = hdd_estimate (d, &io, t, NULL);
  ck_assert_uint_eq (state (d).bands_cleaned, 0);
  ck_assert_uint_eq (state (d).map_entries, 2);
  ck_assert_uint_eq (staged (d, band_at (d, 11) + MIB), 8);
  s = hdd_serve (d, &io, t, &c);
  ck_assert_uint_eq (s, e);
  ck_assert_uint_eq (state (d).bands_cleaned, 1);
  hdd_free (d);
}
END_TEST

/* Bad values name the parameter. */
START_TEST (test_bad_values)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];
  struct hdd *d;

  ck_assert_int_eq (hdd_params_load_profile (p, "st4000nm0033", err,
                                             sizeof err), 0);
  ck_assert_int_eq (hdd_params_set (p, "smr-aged", "1.5", err, sizeof err),
                    -1);
  ck_assert_ptr_nonnull (strstr (err, "smr-aged"));
  ck_assert_int_eq (hdd_params_set (p, "smr", "1", err, sizeof err), 0);
  d = hdd_new (p, GIB, 1, err, sizeof err);
  ck_assert_ptr_null (d);
  ck_assert_ptr_nonnull (strstr (err, "media-cache-size"));
  ck_assert_int_eq (hdd_params_set (p, "media-cache-size", "1G", err,
                                    sizeof err), 0);
  d = hdd_new (p, GIB, 1, err, sizeof err);
  ck_assert_ptr_null (d);
  ck_assert_ptr_nonnull (strstr (err, "smr-band"));
  hdd_params_free (p);
}
END_TEST

static Suite *
smr_suite (void)
{
  Suite *s = suite_create ("model-smr");
  TCase *tc = tcase_create ("core");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_band_sizes);
  tcase_add_test (tc, test_small_write_staged);
  tcase_add_test (tc, test_whole_band_sequential_in_place);
  tcase_add_test (tc, test_small_write_continuing_run_goes_home);
  tcase_add_test (tc, test_write_cache_keeps_the_commands_way);
  tcase_add_test (tc, test_map_full_forces_fifo_cleaning);
  tcase_add_test (tc, test_cleaning_takes_the_band);
  tcase_add_test (tc, test_staged_run_stops_at_band_end);
  tcase_add_test (tc, test_log_full_forces_cleaning);
  tcase_add_test (tc, test_idle_cleaning);
  tcase_add_test (tc, test_request_waits_for_cleaning);
  tcase_add_test (tc, test_fragmented_read);
  tcase_add_test (tc, test_aged);
  tcase_add_test (tc, test_estimate_gives_back);
  tcase_add_test (tc, test_bad_values);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (smr_suite ());
}
