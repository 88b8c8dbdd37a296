/* hddsim: unit tests of the media cache's map (model/mc_map.c), the
 * AVL tree that replaced a sorted array.
 *
 * What the tree must answer is what the array answered: the extent
 * ending after an LBA, the extent starting at or after it, and the
 * oldest (least seq, the lowest home among equals).  A hand-worked map
 * first; then thousands of inserts and deletes, each answer checked
 * against a plain list searched by brute force (the definition, not a
 * run of the code), and the tree's balance (AVL heights) checked.
 */

#include <stdlib.h>

#include "run-suite.h"
#include "../../model/mc_map.h"

START_TEST (test_hand_worked)
{
  struct mc_node pool[8];
  struct mc_map m;
  const struct mc_extent a = { 100, 10, 5000, 7 };
  const struct mc_extent b = { 10, 5, 5010, 9 };
  const struct mc_extent c = { 50, 20, 5020, 7 };

  mcm_init (&m, pool);
  ck_assert_ptr_null (mcm_oldest (&m));
  ck_assert_ptr_null (mcm_end_after (&m, 0));
  mcm_insert (&m, &a);
  mcm_insert (&m, &b);
  mcm_insert (&m, &c);
  ck_assert_uint_eq (m.len, 3);
  /* [10,15) [50,70) [100,110) */
  ck_assert_uint_eq (mcm_end_after (&m, 0)->home, 10);
  ck_assert_uint_eq (mcm_end_after (&m, 14)->home, 10);
  ck_assert_uint_eq (mcm_end_after (&m, 15)->home, 50);
  ck_assert_uint_eq (mcm_end_after (&m, 69)->home, 50);
  ck_assert_uint_eq (mcm_end_after (&m, 70)->home, 100);
  ck_assert_ptr_null (mcm_end_after (&m, 110));
  ck_assert_uint_eq (mcm_start_at (&m, 11)->home, 50);
  ck_assert_uint_eq (mcm_start_at (&m, 50)->home, 50);
  ck_assert_ptr_null (mcm_start_at (&m, 101));
  /* seq 7 twice: the lower home, 50, is the oldest */
  ck_assert_uint_eq (mcm_oldest (&m)->home, 50);
  mcm_delete (&m, 50);
  ck_assert_uint_eq (mcm_oldest (&m)->home, 100);
  mcm_delete (&m, 100);
  ck_assert_uint_eq (mcm_oldest (&m)->seq, 9);
  mcm_delete (&m, 10);
  ck_assert_uint_eq (m.len, 0);
  ck_assert_ptr_null (mcm_oldest (&m));
}
END_TEST

#define SLOTS 512               /* homes: slot * 8, n 1..8 */
#define CAP 400

static struct mc_extent ref[SLOTS];     /* n == 0: none */

/* Thousands of steps: a failed comparison aborts with its message, a
 * passed one sends check nothing (ck_assert's location messages, per
 * call, overflow check's fork-mode pipe at this count).
 */
#define EXPECT(cond, ...) \
  do { if (!(cond)) ck_abort_msg (__VA_ARGS__); } while (0)

/* The subtree's height, checking AVL balance and the order of homes. */
static int
check_subtree (const struct mc_map *m, uint32_t i, uint64_t lo, uint64_t hi)
{
  const struct mc_node *n = &m->node[i];
  int hl, hr;

  if (i == 0)
    return 0;
  EXPECT (n->e.home >= lo && n->e.home < hi, "home %u out of order",
          (unsigned) n->e.home);
  hl = check_subtree (m, n->left, lo, n->e.home);
  hr = check_subtree (m, n->right, n->e.home + 1, hi);
  EXPECT (abs (hl - hr) <= 1, "unbalanced at home %u", (unsigned) n->e.home);
  EXPECT (n->height == 1 + (hl > hr ? hl : hr), "height at home %u",
          (unsigned) n->e.home);
  return n->height;
}

/* a's home, or -1 for none. */
static long
home_of (const struct mc_extent *a)
{
  return a ? (long) a->home : -1;
}

static void
check_against_ref (const struct mc_map *m, unsigned *rng)
{
  const struct mc_extent *oldest = NULL;
  uint64_t lba = (uint64_t) (rand_r (rng) % (SLOTS * 8 + 8));
  const struct mc_extent *end_after = NULL, *start_at = NULL;
  size_t s, len = 0;

  for (s = 0; s < SLOTS; s++) {
    const struct mc_extent *e = &ref[s];
    if (e->n == 0)
      continue;
    len++;
    if (!oldest || e->seq < oldest->seq)
      oldest = e;               /* homes ascend: the first of equals */
    if (!end_after && e->home + e->n > lba)
      end_after = e;
    if (!start_at && e->home >= lba)
      start_at = e;
  }
  EXPECT (m->len == len, "len %zu, expected %zu", m->len, len);
  check_subtree (m, m->root, 0, UINT64_MAX);
  EXPECT (home_of (mcm_oldest (m)) == home_of (oldest), "oldest %ld, "
          "expected %ld", home_of (mcm_oldest (m)), home_of (oldest));
  EXPECT (home_of (mcm_end_after (m, lba)) == home_of (end_after),
          "end after %u: %ld, expected %ld", (unsigned) lba,
          home_of (mcm_end_after (m, lba)), home_of (end_after));
  EXPECT (home_of (mcm_start_at (m, lba)) == home_of (start_at),
          "start at %u: %ld, expected %ld", (unsigned) lba,
          home_of (mcm_start_at (m, lba)), home_of (start_at));
}

START_TEST (test_against_brute_force)
{
  static struct mc_node pool[CAP + 1];
  struct mc_map m;
  unsigned rng = 29;
  uint64_t seq = 0;
  int step;

  mcm_init (&m, pool);
  for (step = 0; step < 20000; step++) {
    size_t s = (size_t) rand_r (&rng) % SLOTS;
    struct mc_extent *r = &ref[s];

    if (r->n > 0) {
      mcm_delete (&m, r->home);
      r->n = 0;
    }
    else if (m.len < CAP) {
      /* a few seqs repeat (the pieces of one cut write) */
      *r = (struct mc_extent) {
        s * 8, 1 + (uint64_t) rand_r (&rng) % 8, 0,
        rand_r (&rng) % 4 == 0 && seq > 0 ? seq - 1 : seq++
      };
      mcm_insert (&m, r);
    }
    check_against_ref (&m, &rng);
  }
}
END_TEST

static Suite *
mcmap_suite (void)
{
  Suite *s = suite_create ("media cache map");
  TCase *tc = tcase_create ("media cache map");

  tcase_add_test (tc, test_hand_worked);
  tcase_add_test (tc, test_against_brute_force);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (mcmap_suite ());
}
