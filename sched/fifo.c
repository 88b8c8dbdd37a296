/* hddsim: fifo, the drive serves requests in arrival order.
 * (Flushes are the engine's: one goes as soon as its connection's
 * earlier requests have completed, as Linux's blk-flush puts a flush
 * ahead of what noop still holds.)
 */

#include <stdlib.h>

#include "policy.h"

struct fifo_data {
  struct req_list queue;
};

static void *
fifo_create (const struct sched_params *params)
{
  struct fifo_data *fd = calloc (1, sizeof *fd);

  (void) params;
  if (fd)
    TAILQ_INIT (&fd->queue);
  return fd;
}

static void
fifo_destroy (void *data)
{
  free (data);
}

static void
fifo_add (void *data, struct req *r, uint64_t now)
{
  struct fifo_data *fd = data;

  (void) now;
  TAILQ_INSERT_TAIL (&fd->queue, r, fifo_link);
}

static struct req *
fifo_pick (void *data, const struct hdd *hdd, uint64_t now, uint64_t *wake)
{
  struct fifo_data *fd = data;
  struct req *r = TAILQ_FIRST (&fd->queue);

  (void) hdd; (void) now; (void) wake;
  if (r)
    TAILQ_REMOVE (&fd->queue, r, fifo_link);
  return r;
}

static void
fifo_remove (void *data, struct req *r)
{
  struct fifo_data *fd = data;

  TAILQ_REMOVE (&fd->queue, r, fifo_link);
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
