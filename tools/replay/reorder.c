/* hddsim-replay: a full hddsim trace's window of rows, released in
 * arrival order.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "replay.h"

/* Room for the whole window and the row read past it; -1 when out of
 * memory.
 */
int
reorder_init (struct replay *rp)
{
  rp->heap = malloc ((rp->window + 1) * sizeof *rp->heap);
  rp->run = malloc ((rp->window + 1) * sizeof *rp->run);
  return rp->heap && rp->run ? 0 : -1;
}

void
reorder_free (struct replay *rp)
{
  rp->nheap = rp->nrun = 0;
  free (rp->heap);
  free (rp->run);
}

/* Arrival order; the plugin numbers requests as they arrive.  The
 * line last, so that the order is total (a mangled trace may repeat
 * an id): the heap and the run then release the same row.
 */
static bool
before (const struct slot *a, const struct slot *b)
{
  if (a->req.arrival != b->req.arrival)
    return a->req.arrival < b->req.arrival;
  if (a->req.id != b->req.id)
    return a->req.id < b->req.id;
  return a->line < b->line;
}

static void
heap_push (struct replay *rp, struct slot *s)
{
  size_t i = rp->nheap++;

  while (i > 0 && before (s, rp->heap[(i - 1) / 2])) {
    rp->heap[i] = rp->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  rp->heap[i] = s;
}

static struct slot *
heap_pop (struct replay *rp)
{
  struct slot *top = rp->heap[0], *last = rp->heap[--rp->nheap];
  size_t i = 0, n = rp->nheap;

  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n)
      break;
    if (c + 1 < n && before (rp->heap[c + 1], rp->heap[c]))
      c++;
    if (!before (rp->heap[c], last))
      break;
    rp->heap[i] = rp->heap[c];
    i = c;
  }
  if (n > 0)
    rp->heap[i] = last;
  return top;
}

static struct slot **
run_at (struct replay *rp, size_t k)
{
  return &rp->run[(rp->run_head + k) % (rp->window + 1)];
}

/* A row into the window: at the run's end if nothing there comes
 * after it (the run stays sorted), else into the heap.
 */
void
reorder_hold (struct replay *rp, struct slot *s)
{
  if (rp->nrun == 0 || !before (s, *run_at (rp, rp->nrun - 1))) {
    *run_at (rp, rp->nrun) = s;
    rp->nrun++;
  }
  else
    heap_push (rp, s);
}

size_t
reorder_held (const struct replay *rp)
{
  return rp->nheap + rp->nrun;
}

/* The first held row in arrival order: the run's first or the heap's
 * top, whichever comes before.
 */
struct slot *
reorder_release (struct replay *rp)
{
  struct slot *s;

  if (rp->nrun == 0
      || (rp->nheap > 0 && before (rp->heap[0], rp->run[rp->run_head])))
    return heap_pop (rp);
  s = rp->run[rp->run_head];
  rp->run_head = (rp->run_head + 1) % (rp->window + 1);
  rp->nrun--;
  return s;
}
