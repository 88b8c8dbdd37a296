/* hddsim: a binary min-heap of pointers, for putting items back in
 * order (a replay's window of rows, a trace source's requests): the
 * caller says which of two items comes first; the heap neither owns
 * nor copies them.  Its room is fixed when it is made: both users
 * hold at most a known number of items, and a full heap is their bug.
 */
#ifndef HDDSIM_HEAP_H
#define HDDSIM_HEAP_H

#include <stdbool.h>
#include <stddef.h>

/* Whether a comes before b.  Two items of which neither comes before
 * the other leave the heap in no particular order: make the order
 * total (a sequence number last) where that matters.
 */
typedef bool heap_before_fn (const void *a, const void *b);

struct heap {
  void **items;                 /* items[0] first; items[i] comes no
                                   later than items[2i + 1], items[2i + 2] */
  size_t n, cap;
  heap_before_fn *before;
};

/* Room for cap items (at least 1): 0, or -1 when out of memory. */
extern int heap_init (struct heap *, size_t cap, heap_before_fn *before);
/* The array, not the items.  A zeroed heap may be freed too. */
extern void heap_free (struct heap *);

/* Add an item; the heap must have room (n < cap). */
extern void heap_push (struct heap *, void *item);
/* Remove and return the first item; the heap must not be empty. */
extern void *heap_pop (struct heap *);

static inline size_t
heap_count (const struct heap *h)
{
  return h->n;
}

/* The first item, left in the heap; the heap must not be empty. */
static inline void *
heap_top (const struct heap *h)
{
  return h->items[0];
}

#endif /* HDDSIM_HEAP_H */
