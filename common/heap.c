/* hddsim: a binary min-heap of pointers (see heap.h). */

#include <assert.h>
#include <stdlib.h>

#include "heap.h"

int
heap_init (struct heap *h, size_t cap, heap_before_fn *before)
{
  assert (cap > 0);
  *h = (struct heap) { .cap = cap, .before = before };
  h->items = malloc (cap * sizeof *h->items);
  return h->items ? 0 : -1;
}

void
heap_free (struct heap *h)
{
  free (h->items);
  h->items = NULL;
  h->n = h->cap = 0;
}

/* The item goes in at the end and its parents move down past it until
 * one comes no later: a hole moved up, rather than swaps.
 */
void
heap_push (struct heap *h, void *item)
{
  size_t i;

  assert (h->n < h->cap);
  i = h->n++;
  while (i > 0 && h->before (item, h->items[(i - 1) / 2])) {
    h->items[i] = h->items[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->items[i] = item;
}

/* The last item fills the hole the first leaves: the earlier child
 * moves up into the hole until the last item comes no later than it.
 */
void *
heap_pop (struct heap *h)
{
  void *top, *last;
  size_t i = 0, n;

  assert (h->n > 0);
  top = h->items[0];
  last = h->items[--h->n];
  n = h->n;
  for (;;) {
    size_t c = 2 * i + 1;

    if (c >= n)
      break;
    if (c + 1 < n && h->before (h->items[c + 1], h->items[c]))
      c++;
    if (!h->before (h->items[c], last))
      break;
    h->items[i] = h->items[c];
    i = c;
  }
  if (n > 0)
    h->items[i] = last;
  return top;
}
