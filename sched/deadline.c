/* hddsim: deadline, Linux's deadline I/O scheduler (as of 2006).
 *
 * Reads and writes (everything that is not a read: writes, zeroes,
 * trims) are kept apart, each in a tree sorted by offset and in a FIFO
 * in arrival order, which is also expiry order since every request of a
 * direction gets the same expiry (deadline-read-expire,
 * deadline-write-expire).
 *
 * Requests go out in batches of up to deadline-fifo-batch, all in one
 * direction, each batch a one-way sweep upward from where the last
 * request of that direction ended.  A batch ends when it is full or
 * when nothing is left above the sweep.  Then a direction is chosen:
 * reads, unless writes are pending and reads have already been chosen
 * over them deadline-writes-starved times in a row.  The new batch
 * starts at the oldest request of its direction if that request has
 * expired, if the direction changed, or if nothing is left above the
 * sweep; otherwise it carries on with the sweep.
 *
 * Bounds that follow: an expired read is served when the batch in
 * progress ends, unless writes are owed a batch first, so a read waits
 * at most read-expire plus one batch, or plus two batches (the rest of
 * a read batch and a write batch) when writes are queued; reads are
 * chosen over waiting writes at most writes-starved times in a row.
 * (Flushes are the engine's and do not count in batches.)
 */

#include <stdlib.h>

#include "policy.h"
#include "reqtree.h"

enum { DIR_READ, DIR_WRITE, DIR_NONE };

struct policy {
  struct req_tree sorted[2];
  struct req_list fifo[2];
  uint64_t expire[2];
  uint64_t fifo_batch;
  uint64_t writes_starved;

  uint64_t batching;            /* requests in the current batch */
  uint64_t starved;             /* read batches chosen over writes */
  int last_dir;                 /* direction of the current batch */
  uint64_t sweep_pos[2];        /* where the last request ended */
};

static int
req_dir (const struct req *r)
{
  return req_is_read (r) ? DIR_READ : DIR_WRITE;
}

static struct policy *
deadline_create (const struct sched_params *params)
{
  struct policy *p = calloc (1, sizeof *p);
  int i;

  if (!p)
    return NULL;
  for (i = 0; i < 2; i++) {
    RB_INIT (&p->sorted[i]);
    TAILQ_INIT (&p->fifo[i]);
  }
  p->expire[DIR_READ] = params->deadline_read_expire;
  p->expire[DIR_WRITE] = params->deadline_write_expire;
  p->fifo_batch = params->deadline_fifo_batch;
  p->writes_starved = params->deadline_writes_starved;
  p->last_dir = DIR_NONE;
  return p;
}

static void
deadline_destroy (struct policy *p)
{
  free (p);
}

static void
deadline_add (struct policy *p, struct req *r, uint64_t now)
{
  int dir;

  (void) now;
  dir = req_dir (r);
  r->deadline = r->arrival + p->expire[dir];
  RB_INSERT (req_tree, &p->sorted[dir], r);
  TAILQ_INSERT_TAIL (&p->fifo[dir], r, fifo_link);
}

static void
deadline_remove (struct policy *p, struct req *r)
{
  int dir = req_dir (r);

  RB_REMOVE (req_tree, &p->sorted[dir], r);
  TAILQ_REMOVE (&p->fifo[dir], r, fifo_link);
}

/* The next request of the sweep in direction dir, or NULL. */
static struct req *
sweep_next (struct policy *p, int dir)
{
  return req_tree_at_or_above (&p->sorted[dir], p->sweep_pos[dir]);
}

static bool
fifo_expired (struct policy *p, int dir, uint64_t now)
{
  struct req *r = TAILQ_FIRST (&p->fifo[dir]);

  return r && r->deadline <= now;
}

/* A new batch in direction dir: from the oldest request if it has
 * expired, if the direction changed or if the sweep ran out; else
 * carry on with the sweep.
 */
static struct req *
batch_start (struct policy *p, int dir, uint64_t now)
{
  struct req *next = dir == p->last_dir ? sweep_next (p, dir) : NULL;

  p->batching = 0;
  if (!next || fifo_expired (p, dir, now))
    return TAILQ_FIRST (&p->fifo[dir]);
  return next;
}

static struct req *
choose (struct policy *p, uint64_t now)
{
  bool reads = !TAILQ_EMPTY (&p->fifo[DIR_READ]);
  bool writes = !TAILQ_EMPTY (&p->fifo[DIR_WRITE]);
  struct req *r;

  if (p->last_dir != DIR_NONE && p->batching < p->fifo_batch) {
    r = sweep_next (p, p->last_dir);
    if (r)
      return r;
  }
  if (reads && !(writes && p->starved++ >= p->writes_starved))
    return batch_start (p, DIR_READ, now);
  if (writes) {
    p->starved = 0;
    return batch_start (p, DIR_WRITE, now);
  }
  return NULL;
}

static struct req *
deadline_pick (struct policy *p, const struct hdd *hdd, uint64_t now,
               uint64_t *wake)
{
  struct req *r;
  int dir;

  (void) hdd; (void) wake;
  r = choose (p, now);
  if (!r)
    return NULL;
  dir = req_dir (r);
  p->batching++;
  p->last_dir = dir;
  p->sweep_pos[dir] = req_end (r);
  deadline_remove (p, r);
  return r;
}

const struct policy_ops deadline_policy = {
  .name = "deadline",
  .description = "sorted batches per direction with read and write expiry",
  .create = deadline_create,
  .destroy = deadline_destroy,
  .add = deadline_add,
  .pick = deadline_pick,
  .remove = deadline_remove,
};
