/* hddsim: unit tests of the DiskSim cache keys the model takes (the
 * cache section of disksim/map_cache.c): the hand-made drive
 * tests/data/disksim/tiny.*, with its cache turned on, maps its
 * segment rules onto the cache-* parameters.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <check.h>

#include "../../disksim/disksim.h"
#include "../../model/hdd.h"
#include "../../model/params.h"
#include "../../profile/profile.h"
#include "run-suite.h"

#include "test-disksim-files.h"

/* Replace the line starting "  KEY = " by "  KEY = VALUE,". */
static char *
set_key (char *text, const char *key, const char *value)
{
  char find[200], *hit, *eol, *out;

  snprintf (find, sizeof find, "\n  %s = ", key);
  hit = strstr (text, find);
  ck_assert_msg (hit != NULL, "'%s' not in tiny.diskspecs", key);
  hit += strlen (find);
  eol = strchr (hit, '\n');
  ck_assert_ptr_nonnull (eol);
  out = malloc (strlen (text) + strlen (value) + 2);
  ck_assert_ptr_nonnull (out);
  memcpy (out, text, (size_t) (hit - text));
  sprintf (out + (hit - text), "%s,%s", value, eol);
  free (text);
  return out;
}

static unsigned nreasons;
static char reasons[8][HDD_ERRLEN];

static void
collect (const char *why, void *opaque)
{
  (void) opaque;
  if (nreasons < 8)
    snprintf (reasons[nreasons], sizeof reasons[0], "%s", why);
  nreasons++;
}

/* The tiny drive with its cache on (and the keys that would be
 * refused with it set to what the model does), then kv's keys, mapped
 * into *p with no reason to refuse.
 */
static void
load_tiny_cached (const char *const *kv, struct hdd_params *p)
{
  static const char *const files[] = {
    "tiny.parv", "models/tiny.model", "models/tiny.seek",
  };
  static const char *const on[] = {
    "Enable caching in buffer", "1",
    "Read hit over. after read", "0.2",
    "Read hit over. after write", "0.2", NULL,
  };
  char src[600], dst[600], err[HDD_ERRLEN];
  struct ds_drive *d;
  char *text;
  size_t i;

  for (i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf (src, sizeof src, DATA "%s", files[i]);
    snprintf (dst, sizeof dst, "%s/%s", tmpdir, files[i]);
    text = slurp (src);
    spit (dst, text);
    free (text);
  }
  text = slurp (DATA "tiny.diskspecs");
  for (i = 0; on[i]; i += 2)
    text = set_key (text, on[i], on[i + 1]);
  for (; kv && kv[0]; kv += 2)
    text = set_key (text, kv[0], kv[1]);
  snprintf (dst, sizeof dst, "%s/tiny.diskspecs", tmpdir);
  spit (dst, text);
  free (text);
  snprintf (dst, sizeof dst, "%s/tiny.parv", tmpdir);
  d = ds_drive_load (dst, err, sizeof err);
  ck_assert_msg (d != NULL, "%s", err);
  nreasons = 0;
  ck_assert_msg (ds_drive_to_params (d, p, collect, NULL, err,
                                     sizeof err) == 0, "%s", err);
  ds_drive_free (d);
  ck_assert_uint_eq (nreasons, 0);
}

/* tiny: 4 segments of 64 blocks.  A shared write segment leaves the
 * four read segments, 4 x 64 x 512 = 131072 bytes; a separate one is
 * one of the four, leaving three, 98304 bytes.  Immed transfer partial
 * hit (either value, the read water mark being 0) gives partial hits;
 * Allow almost read hits 0 and 1 are readahead-hits=read and almost;
 * Stop prefetch in sector 0 and 1 are readahead-stop=sector and now;
 * Read-ahead on idle hit is readahead-on-hit.  Buffer continuous read
 * 1 reads ahead Maximum read-ahead (32 blocks) to the track's end; 4
 * (DiskSim's DEC scheme, which ignores Maximum read-ahead) up to the
 * segment (64 blocks) by its track rule.
 */
START_TEST (test_write_segment_keys)
{
  static const char *const shared_hits[] = {
    "Use separate write segment", "0",
    "Allow read hits on write data", "1", "Buffer continuous read", "1",
    "Maximum read-ahead (blks)", "32", "Read-ahead over requested", "1",
    NULL,
  };
  static const char *const separate_nohits[] = {
    "Use separate write segment", "1",
    "Allow read hits on write data", "0", "Immed transfer partial hit", "0",
    "Allow almost read hits", "1", "Stop prefetch in sector", "1",
    "Read-ahead on idle hit", "1", "Buffer continuous read", "4",
    "Read any free blocks", "1",
    "Maximum read-ahead (blks)", "32", "Read-ahead over requested", "1",
    NULL,
  };
  struct hdd_params *p = hdd_params_new ();

  ck_assert_ptr_nonnull (p);
  load_tiny_cached (shared_hits, p);
  ck_assert_int_eq (p->cache, CACHE_WT);
  ck_assert_int_eq (p->write_seg, WSEG_SHARED);
  ck_assert_uint_eq (p->write_hits, 1);
  ck_assert_uint_eq (p->cache_segments, 4);
  ck_assert_uint_eq (p->cache_size, 131072);

  ck_assert_uint_eq (p->partial_hits, 1);      /* Immed ... = 1 */
  ck_assert_int_eq (p->ra_hits, RAHITS_READ);   /* almost read hits = 0 */
  ck_assert_int_eq (p->ra_stop, RASTOP_SECTOR); /* Stop ... in sector = 0 */
  ck_assert_uint_eq (p->ra_on_hit, 0);          /* ... on idle hit = 0 */
  ck_assert_int_eq (p->ra_until, RAUNTIL_TRACK); /* continuous read = 1 */
  ck_assert_uint_eq (p->readahead, 32 * 512);   /* Maximum read-ahead */
  ck_assert_uint_eq (p->read_free, 0);          /* Read any free blocks */
  load_tiny_cached (separate_nohits, p);
  ck_assert_int_eq (p->write_seg, WSEG_SEPARATE);
  ck_assert_uint_eq (p->write_hits, 0);
  ck_assert_uint_eq (p->cache_segments, 3);
  ck_assert_uint_eq (p->cache_size, 98304);
  ck_assert_uint_eq (p->partial_hits, 1);      /* Immed ... = 0 */
  ck_assert_int_eq (p->ra_hits, RAHITS_ALMOST); /* almost read hits = 1 */
  ck_assert_int_eq (p->ra_stop, RASTOP_NOW);    /* Stop ... in sector = 1 */
  ck_assert_uint_eq (p->ra_on_hit, 1);          /* ... on idle hit = 1 */
  ck_assert_int_eq (p->ra_until, RAUNTIL_NEXT_TRACK);   /* = 4 */
  ck_assert_uint_eq (p->readahead, 64 * 512);   /* the segment, not 32 */
  ck_assert_uint_eq (p->read_free, 1);
  hdd_params_free (p);
}
END_TEST

static Suite *
cache_disksim_suite (void)
{
  Suite *s = suite_create ("model-cache-disksim");
  TCase *tc = tcase_create ("map");

  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_write_segment_keys);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (cache_disksim_suite ());
}
