/* hddsim: unit tests of the binary min-heap (common/heap.c).  The
 * arrays after each push and pop are worked out by hand from the rule
 * (the new item rises past every parent it comes before; the last
 * item sinks from the top past every child that comes before it, the
 * earlier child first).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <check.h>

#include "run-suite.h"

#include "../../common/heap.h"

struct item {
  int key;
  int seq;                      /* the order among equal keys */
};

static bool
key_before (const void *a, const void *b)
{
  return ((const struct item *) a)->key < ((const struct item *) b)->key;
}

/* The order the heap's users give it: total, ties by sequence. */
static bool
key_seq_before (const void *a, const void *b)
{
  const struct item *x = a, *y = b;

  return x->key != y->key ? x->key < y->key : x->seq < y->seq;
}

/* The heap's array holds exactly these keys, in this order. */
static void
check_keys (const struct heap *h, const int *keys, size_t n)
{
  size_t i;

  ck_assert_uint_eq (heap_count (h), n);
  for (i = 0; i < n; i++)
    ck_assert_msg (((const struct item *) h->items[i])->key == keys[i],
                   "items[%zu] has key %d, expected %d", i,
                   ((const struct item *) h->items[i])->key, keys[i]);
}

/* 5 3 8 1 9 2 pushed, then popped to the end:
 *   push 5   [5]
 *   push 3   [3 5]            3 rises past 5
 *   push 8   [3 5 8]
 *   push 1   [1 3 8 5]        1 rises past 5, then past 3
 *   push 9   [1 3 8 5 9]
 *   push 2   [1 3 2 5 9 8]    2 rises past 8, not past 1
 *   pop 1    [2 3 8 5 9]      8 sinks: children 3, 2; 2 moves up
 *   pop 2    [3 5 8 9]        9 sinks: 3 (before 8), then 5
 *   pop 3    [5 9 8]          9 sinks: 5 (before 8); 5 has no child
 *   pop 5    [8 9]            8 sinks: child 9 is later: stays
 *   pop 8    [9]
 *   pop 9    []
 */
START_TEST (test_hand_worked)
{
  static const int pushed[] = { 5, 3, 8, 1, 9, 2 };
  static const int after_push[][6] = {
    { 5 }, { 3, 5 }, { 3, 5, 8 }, { 1, 3, 8, 5 }, { 1, 3, 8, 5, 9 },
    { 1, 3, 2, 5, 9, 8 },
  };
  static const int popped[] = { 1, 2, 3, 5, 8, 9 };
  static const int after_pop[][5] = {
    { 2, 3, 8, 5, 9 }, { 3, 5, 8, 9 }, { 5, 9, 8 }, { 8, 9 }, { 9 }, { 0 },
  };
  struct item items[6];
  struct heap h;
  size_t i;

  ck_assert_int_eq (heap_init (&h, 6, key_before), 0);
  for (i = 0; i < 6; i++) {
    items[i] = (struct item) { .key = pushed[i], .seq = (int) i };
    heap_push (&h, &items[i]);
    check_keys (&h, after_push[i], i + 1);
  }
  for (i = 0; i < 6; i++) {
    struct item *top = heap_top (&h);

    ck_assert_int_eq (top->key, popped[i]);
    ck_assert_ptr_eq (heap_pop (&h), top);
    check_keys (&h, after_pop[i], 5 - i);
  }
  heap_free (&h);
}
END_TEST

/* Equal keys: with the key alone, every item comes out once and the
 * keys in order; with the sequence last, the equal ones in sequence.
 *   push 1a 1b 0c 1d 0e (key, letter = seq)
 *   key alone:    [1a] [1a 1b] [0c 1b 1a] [0c 1b 1a 1d] [0c 0e 1a 1d 1b]
 *                 pops 0c, then 0e, then the three 1s
 *   key and seq:  pops 0c 0e 1a 1b 1d
 */
START_TEST (test_ties)
{
  static const int keys[] = { 1, 1, 0, 1, 0 };
  static const int tied_after_push[][5] = {
    { 1 }, { 1, 1 }, { 0, 1, 1 }, { 0, 1, 1, 1 }, { 0, 0, 1, 1, 1 },
  };
  static const int total_order[] = { 2, 4, 0, 1, 3 };   /* seqs */
  struct item items[5];
  bool seen[5] = { false };
  struct heap h;
  size_t i;

  for (i = 0; i < 5; i++)
    items[i] = (struct item) { .key = keys[i], .seq = (int) i };

  ck_assert_int_eq (heap_init (&h, 5, key_before), 0);
  for (i = 0; i < 5; i++) {
    heap_push (&h, &items[i]);
    check_keys (&h, tied_after_push[i], i + 1);
  }
  for (i = 0; i < 5; i++) {
    struct item *it = heap_pop (&h);

    ck_assert_int_eq (it->key, (i < 2 ? 0 : 1));
    ck_assert_msg (!seen[it->seq], "item %d popped twice", it->seq);
    seen[it->seq] = true;
  }
  ck_assert_uint_eq (heap_count (&h), 0);
  heap_free (&h);

  ck_assert_int_eq (heap_init (&h, 5, key_seq_before), 0);
  for (i = 0; i < 5; i++)
    heap_push (&h, &items[i]);
  for (i = 0; i < 5; i++)
    ck_assert_int_eq (((struct item *) heap_pop (&h))->seq, total_order[i]);
  heap_free (&h);
}
END_TEST

/* Pushes and pops mixed, as a window fills and drains: every pop is
 * the least key held (a plain scan of what is held says which), to
 * the last item, with the heap full at times.
 */
START_TEST (test_mixed)
{
  enum { CAP = 64, ROUNDS = 5000 };
  static struct item items[ROUNDS];
  static bool held[ROUNDS];
  struct heap h;
  uint64_t x = 12345;
  size_t pushed = 0, i;

  ck_assert_int_eq (heap_init (&h, CAP, key_seq_before), 0);
  while (pushed < ROUNDS || heap_count (&h) > 0) {
    x = x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    if (pushed < ROUNDS && heap_count (&h) < CAP && (x >> 33) % 3 != 0) {
      items[pushed] = (struct item) { .key = (int) ((x >> 40) % 100),
                                      .seq = (int) pushed };
      held[pushed] = true;
      heap_push (&h, &items[pushed++]);
    }
    else if (heap_count (&h) > 0) {
      const struct item *least = NULL, *it;

      for (i = 0; i < pushed; i++)
        if (held[i] && (!least || key_seq_before (&items[i], least)))
          least = &items[i];
      it = heap_pop (&h);
      ck_assert_ptr_eq (it, least);
      held[it->seq] = false;
    }
  }
  heap_free (&h);
  ck_assert_ptr_null (h.items);
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("heap");
  TCase *tc = tcase_create ("order");
  tcase_add_test (tc, test_hand_worked);
  tcase_add_test (tc, test_ties);
  tcase_add_test (tc, test_mixed);
  suite_add_tcase (s, tc);
  return run_suite (s);
}
