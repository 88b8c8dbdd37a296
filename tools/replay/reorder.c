/* hddsim-replay: a full hddsim trace's window of rows, released in
 * arrival order.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "../../common/heap.h"
#include "replay.h"

/* Arrival order; the plugin numbers requests as they arrive.  The
 * line last, so that the order is total (a mangled trace may repeat
 * an id): the heap and the run then release the same row.
 */
static bool
before (const void *x, const void *y)
{
  const struct slot *a = x, *b = y;

  if (a->req.arrival != b->req.arrival)
    return a->req.arrival < b->req.arrival;
  if (a->req.id != b->req.id)
    return a->req.id < b->req.id;
  return a->line < b->line;
}

/* Room for the whole window and the row read past it; -1 when out of
 * memory.
 */
int
reorder_init (struct replay *rp)
{
  rp->run = malloc ((rp->window + 1) * sizeof *rp->run);
  return rp->run && heap_init (&rp->heap, rp->window + 1, before) == 0
    ? 0 : -1;
}

void
reorder_free (struct replay *rp)
{
  rp->nrun = 0;
  heap_free (&rp->heap);
  free (rp->run);
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
    heap_push (&rp->heap, s);
}

size_t
reorder_held (const struct replay *rp)
{
  return heap_count (&rp->heap) + rp->nrun;
}

/* The first held row in arrival order: the run's first or the heap's
 * top, whichever comes before.
 */
struct slot *
reorder_release (struct replay *rp)
{
  struct slot *s;

  if (rp->nrun == 0
      || (heap_count (&rp->heap) > 0
          && before (heap_top (&rp->heap), rp->run[rp->run_head])))
    return heap_pop (&rp->heap);
  s = rp->run[rp->run_head];
  rp->run_head = (rp->run_head + 1) % (rp->window + 1);
  rp->nrun--;
  return s;
}
