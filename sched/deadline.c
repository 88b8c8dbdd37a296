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

#include <stddef.h>
#include <stdlib.h>

#include "policy.h"
#include "reqtree.h"

#define MS UINT64_C(1000000)
#define HOUR (UINT64_C(3600) * 1000 * MS)

enum { DIR_READ, DIR_WRITE, DIR_NONE };

/* The tunables, with Linux's defaults (deadline-iosched.c). */
struct deadline_tunables {
  uint64_t expire[2];           /* ns, by direction */
  uint64_t fifo_batch;
  uint64_t writes_starved;
};

#define TUN(f) offsetof (struct deadline_tunables, f)

/* The ranges only keep out nonsense (an hour, 65536 requests). */
static const struct param_desc deadline_params[] = {
  { .key = "deadline-read-expire", .type = PARAM_DURATION,
    .offset = TUN(expire[DIR_READ]), .min = 1, .max = HOUR, .def = 500 * MS,
    .help = "read expiry" },
  { .key = "deadline-write-expire", .type = PARAM_DURATION,
    .offset = TUN(expire[DIR_WRITE]), .min = 1, .max = HOUR,
    .def = 5000 * MS, .help = "write expiry" },
  { .key = "deadline-fifo-batch", .type = PARAM_UINT,
    .offset = TUN(fifo_batch), .min = 1, .max = 65536, .def = 16,
    .help = "requests per sorted batch" },
  { .key = "deadline-writes-starved", .type = PARAM_UINT,
    .offset = TUN(writes_starved), .min = 0, .max = 1024, .def = 2,
    .help = "read batches before writes must go" },
  { .key = NULL },
};

struct deadline_data {
  struct req_tree sorted[2];
  struct req_list fifo[2];
  struct deadline_tunables tun;

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

static void *
deadline_create (const struct sched_params *params)
{
  struct deadline_data *dd = calloc (1, sizeof *dd);
  int i;

  if (!dd)
    return NULL;
  for (i = 0; i < 2; i++) {
    RB_INIT (&dd->sorted[i]);
    TAILQ_INIT (&dd->fifo[i]);
  }
  sched_params_apply (params, deadline_params, &dd->tun);
  dd->last_dir = DIR_NONE;
  return dd;
}

static void
deadline_destroy (void *data)
{
  free (data);
}

static void
deadline_add (void *data, struct req *r, uint64_t now)
{
  struct deadline_data *dd = data;
  int dir;

  (void) now;
  dir = req_dir (r);
  r->deadline = r->arrival + dd->tun.expire[dir];
  RB_INSERT (req_tree, &dd->sorted[dir], r);
  TAILQ_INSERT_TAIL (&dd->fifo[dir], r, fifo_link);
}

static void
deadline_remove (void *data, struct req *r)
{
  struct deadline_data *dd = data;
  int dir = req_dir (r);

  RB_REMOVE (req_tree, &dd->sorted[dir], r);
  TAILQ_REMOVE (&dd->fifo[dir], r, fifo_link);
}

/* The next request of the sweep in direction dir, or NULL. */
static struct req *
sweep_next (struct deadline_data *dd, int dir)
{
  return req_tree_at_or_above (&dd->sorted[dir], dd->sweep_pos[dir]);
}

static bool
fifo_expired (struct deadline_data *dd, int dir, uint64_t now)
{
  struct req *r = TAILQ_FIRST (&dd->fifo[dir]);

  return r && r->deadline <= now;
}

/* A new batch in direction dir: from the oldest request if it has
 * expired, if the direction changed or if the sweep ran out; else
 * carry on with the sweep.
 */
static struct req *
batch_start (struct deadline_data *dd, int dir, uint64_t now)
{
  struct req *next = dir == dd->last_dir ? sweep_next (dd, dir) : NULL;

  dd->batching = 0;
  if (!next || fifo_expired (dd, dir, now))
    return TAILQ_FIRST (&dd->fifo[dir]);
  return next;
}

static struct req *
choose (struct deadline_data *dd, uint64_t now)
{
  bool reads = !TAILQ_EMPTY (&dd->fifo[DIR_READ]);
  bool writes = !TAILQ_EMPTY (&dd->fifo[DIR_WRITE]);
  struct req *r;

  if (dd->last_dir != DIR_NONE && dd->batching < dd->tun.fifo_batch) {
    r = sweep_next (dd, dd->last_dir);
    if (r)
      return r;
  }
  if (reads && !(writes && dd->starved++ >= dd->tun.writes_starved))
    return batch_start (dd, DIR_READ, now);
  if (writes) {
    dd->starved = 0;
    return batch_start (dd, DIR_WRITE, now);
  }
  return NULL;
}

static struct req *
deadline_pick (void *data, const struct hdd *hdd, uint64_t now,
               uint64_t *wake)
{
  struct deadline_data *dd = data;
  struct req *r;
  int dir;

  (void) hdd; (void) wake;
  r = choose (dd, now);
  if (!r)
    return NULL;
  dir = req_dir (r);
  dd->batching++;
  dd->last_dir = dir;
  dd->sweep_pos[dir] = req_end (r);
  deadline_remove (dd, r);
  return r;
}

const struct policy_ops deadline_policy = {
  .name = "deadline",
  .description = "sorted batches per direction with read and write expiry",
  .params = deadline_params,
  .create = deadline_create,
  .destroy = deadline_destroy,
  .add = deadline_add,
  .pick = deadline_pick,
  .remove = deadline_remove,
};
