/* hddsim: unit tests of the dirty-range set (model/extents.c) against
 * a plain bitmap of sectors, the obvious model of a set of ranges.
 *
 * Expected values come from the bitmap: sectors set, runs of set
 * sectors (the ranges, merged), the first run at or after an LBA.
 */

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "run-suite.h"
#include "../../model/extents.h"

#define SPACE 2048              /* sectors */
#define OPS 400                 /* per transaction */

static uint64_t rng = 1;

static uint64_t
rnd (void)
{
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * UINT64_C(2685821657736338717);
}

static void
bitmap_set (unsigned char *b, uint64_t lba, uint64_t n, int v)
{
  memset (b + lba, v, n);
}

static size_t
bitmap_runs (const unsigned char *b)
{
  size_t i, runs = 0;

  for (i = 0; i < SPACE; i++)
    if (b[i] && (i == 0 || !b[i - 1]))
      runs++;
  return runs;
}

/* Why the ranges are not the bitmap's maximal runs, or NULL.  Plain
 * C checks, one ck_assert per call: Check marks every assertion's
 * line (a pipe write in fork mode), and millions of them made this
 * test take minutes under valgrind.
 */
static const char *
mismatch (const struct extents *s, const unsigned char *b)
{
  uint64_t lba = 0, sectors = 0, i;
  struct extent e, first;
  size_t seen = 0;

  for (i = 0; i < SPACE; i++)
    sectors += b[i];
  if (s->sectors != sectors)
    return "sector count";
  if (s->len != bitmap_runs (b))
    return "range count";
  /* Walk the ranges with extents_next, from 0 upwards. */
  while (seen < s->len) {
    if (!extents_next (s, lba, &e) || e.lba < lba)
      return "extents_next";
    if (!b[e.lba] || (e.lba > 0 && b[e.lba - 1]))
      return "a range starts off a run's start";
    for (i = e.lba; i < e.lba + e.n; i++)
      if (!b[i])
        return "a range covers a clear sector";
    if (e.lba + e.n != SPACE && b[e.lba + e.n])
      return "a range ends before its run";
    lba = e.lba + e.n;
    seen++;
  }
  /* Past the last range, C-LOOK wraps to the lowest. */
  if (s->len > 0) {
    if (!extents_next (s, 0, &first) || !extents_next (s, lba, &e)
        || e.lba != first.lba)
      return "no wrap to the lowest range";
  }
  else if (extents_next (s, 0, &e))
    return "a range in an empty set";
  return NULL;
}

static void
check_equal (const struct extents *s, const unsigned char *b)
{
  const char *why = mismatch (s, b);

  ck_assert_msg (why == NULL, "ranges are not the bitmap: %s", why);
}

static void
random_op (struct extents *s, unsigned char *b)
{
  uint64_t n = rnd () % 3 == 0 ? rnd () % 200 + 1 : rnd () % 8 + 1;
  uint64_t lba = rnd () % (SPACE - n);

  if (rnd () % 2) {
    extents_add (s, lba, n);
    bitmap_set (b, lba, n, 1);
  }
  else {
    extents_remove (s, lba, n);
    bitmap_set (b, lba, n, 0);
  }
}

static void
check_queries (const struct extents *s, const unsigned char *b)
{
  unsigned k;

  for (k = 0; k < 20; k++) {
    uint64_t n = rnd () % 64 + 1, lba = rnd () % (SPACE - n), i, set = 0;
    for (i = lba; i < lba + n; i++)
      set += b[i];
    if (extents_overlap (s, lba, n) != set
        || extents_cover (s, lba, n) != (set == n))
      ck_abort_msg ("query at %" PRIu64 "+%" PRIu64 ": overlap %" PRIu64
                    ", want %" PRIu64, lba, n, extents_overlap (s, lba, n),
                    set);
  }
}

/* Adds and removes keep exactly the bitmap's runs. */
START_TEST (test_extents_are_the_bitmap)
{
  static unsigned char b[SPACE];
  struct extents s;
  unsigned i;

  memset (b, 0, sizeof b);
  rng = 11;
  /* At most SPACE/2 disjoint, non-adjacent ranges, +2 while merging. */
  ck_assert_int_eq (extents_init (&s, SPACE / 2 + 2, 1), 0);
  for (i = 0; i < 2000; i++) {
    random_op (&s, b);
    check_equal (&s, b);
    check_queries (&s, b);
  }
  extents_free (&s);
}
END_TEST

/* A transaction of any changes, rolled back, leaves the set exactly as
 * it was; and the set works on afterwards (nodes released, tree valid).
 */
START_TEST (test_extents_rollback)
{
  static unsigned char b[SPACE], before[SPACE];
  struct extents s;
  unsigned round, i;

  memset (b, 0, sizeof b);
  rng = 29;
  /* A transaction keeps the nodes it deletes: room for all it makes. */
  ck_assert_int_eq (extents_init (&s, SPACE / 2 + 2 + 2 * OPS,
                                  10 * OPS + 3 * SPACE), 0);
  for (round = 0; round < 20; round++) {
    for (i = 0; i < 50; i++)
      random_op (&s, b);
    memcpy (before, b, sizeof b);
    extents_begin (&s);
    for (i = 0; i < OPS; i++)
      random_op (&s, b);
    check_equal (&s, b);
    extents_rollback (&s);
    check_equal (&s, before);
    check_queries (&s, before);
    memcpy (b, before, sizeof b);
  }
  extents_free (&s);
}
END_TEST

/* Why walking with extents_first and extents_after does not give the
 * bitmap's runs in order, or NULL.
 */
static const char *
walk_mismatch (const struct extents *s, const unsigned char *b)
{
  const struct xnode *x;
  uint64_t i = 0;

  for (x = extents_first (s); x; x = extents_after (x)) {
    while (i < SPACE && !b[i])
      i++;
    if (x->e.lba != i)
      return "a range where the next run does not start";
    while (i < SPACE && b[i])
      i++;
    if (x->e.lba + x->e.n != i)
      return "a range that does not end where its run does";
  }
  while (i < SPACE && !b[i])
    i++;
  return i == SPACE ? NULL : "a run after the last range";
}

/* Several estimates from one state (hdd_estimate_begin): inside a
 * transaction, changes, a mark, then rounds of changes each rolled
 * back to the mark (the set is as at the mark, the changes before it
 * kept), then the whole transaction rolled back (the set as before
 * it).  Random changes touch nodes changed before the mark again: the
 * journal must record those anew.
 */
START_TEST (test_extents_rollback_to_mark)
{
  static unsigned char b[SPACE], before[SPACE], at_mark[SPACE];
  struct extents s;
  unsigned round, k, i;
  const char *why;

  memset (b, 0, sizeof b);
  rng = 31;
  ck_assert_int_eq (extents_init (&s, SPACE / 2 + 2 + 4 * OPS,
                                  20 * OPS + 6 * SPACE), 0);
  for (round = 0; round < 10; round++) {
    for (i = 0; i < 50; i++)
      random_op (&s, b);
    memcpy (before, b, sizeof b);
    extents_begin (&s);
    for (i = 0; i < OPS; i++)
      random_op (&s, b);
    extents_mark (&s);
    memcpy (at_mark, b, sizeof b);
    for (k = 0; k < 5; k++) {
      for (i = 0; i < OPS; i++)
        random_op (&s, b);
      check_equal (&s, b);
      extents_rollback_to_mark (&s);
      check_equal (&s, at_mark);
      check_queries (&s, at_mark);
      why = walk_mismatch (&s, at_mark);
      ck_assert_msg (why == NULL, "walk: %s", why);
      memcpy (b, at_mark, sizeof b);
    }
    extents_rollback (&s);
    check_equal (&s, before);
    memcpy (b, before, sizeof b);
  }
  extents_free (&s);
}
END_TEST

static Suite *
extents_suite (void)
{
  Suite *s = suite_create ("model-extents");
  TCase *tc = tcase_create ("extents");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_extents_are_the_bitmap);
  tcase_add_test (tc, test_extents_rollback);
  tcase_add_test (tc, test_extents_rollback_to_mark);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (extents_suite ());
}
