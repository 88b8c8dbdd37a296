/* hddsim: fifo, the drive serves requests in arrival order.
 * (Flushes are the engine's: one goes as soon as its connection's
 * earlier requests have completed, as Linux's blk-flush puts a flush
 * ahead of what noop still holds.)
 */

#include <stdlib.h>

#include "policy.h"

struct policy {
  struct req_list queue;
};

static struct policy *
fifo_create (const struct sched_params *params)
{
  struct policy *p = calloc (1, sizeof *p);

  (void) params;
  if (p)
    TAILQ_INIT (&p->queue);
  return p;
}

static void
fifo_destroy (struct policy *p)
{
  free (p);
}

static void
fifo_add (struct policy *p, struct req *r, uint64_t now)
{
  (void) now;
  TAILQ_INSERT_TAIL (&p->queue, r, fifo_link);
}

static struct req *
fifo_pick (struct policy *p, const struct hdd *hdd, uint64_t now,
           uint64_t *wake)
{
  struct req *r = TAILQ_FIRST (&p->queue);

  (void) hdd; (void) now; (void) wake;
  if (r)
    TAILQ_REMOVE (&p->queue, r, fifo_link);
  return r;
}

static void
fifo_remove (struct policy *p, struct req *r)
{
  TAILQ_REMOVE (&p->queue, r, fifo_link);
}

const struct policy_ops fifo_policy = {
  .name = "fifo",
  .description = "arrival order",
  .create = fifo_create,
  .destroy = fifo_destroy,
  .add = fifo_add,
  .pick = fifo_pick,
  .remove = fifo_remove,
};
