/* hddsim: cscan, a one-way elevator.
 *
 * Requests wait in a red-black tree sorted by offset.  The drive serves
 * the first request at or above the head and, when nothing is left
 * above it, wraps to the lowest offset, so the head sweeps upward and
 * flies back: add and pick are O(log n).
 *
 * "The head" is where the last request this policy dispatched ended,
 * as in Linux's elevators, not the model's head position: the drive's
 * own read-ahead and destaging move the real head past a sequential
 * reader's next request (which its cache then serves), and sweeping
 * from there would let the reader fall behind the sweep.  Before the
 * first dispatch the model's head is used.
 *
 * There is deliberately no aging.  A stream that keeps arriving just
 * above the head holds the sweep for as long as it lasts, and a request
 * below the head waits all that time: the starvation the comparison with
 * the other policies is meant to show.
 */

#include <stdlib.h>

#include "policy.h"
#include "reqtree.h"

struct cscan_data {
  struct req_tree tree;         /* by offset */
  bool have_pos;
  uint64_t pos;                 /* end of the last request dispatched */
};

static void *
cscan_create (const struct sched_params *params)
{
  struct cscan_data *cd = calloc (1, sizeof *cd);

  (void) params;
  if (!cd)
    return NULL;
  RB_INIT (&cd->tree);
  return cd;
}

static void
cscan_destroy (void *data)
{
  free (data);
}

static void
cscan_add (void *data, struct req *r, uint64_t now)
{
  struct cscan_data *cd = data;

  (void) now;
  RB_INSERT (req_tree, &cd->tree, r);
}

static void
cscan_remove (void *data, struct req *r)
{
  struct cscan_data *cd = data;

  RB_REMOVE (req_tree, &cd->tree, r);
}

static struct req *
cscan_pick (void *data, const struct hdd *hdd, uint64_t now, uint64_t *wake)
{
  struct cscan_data *cd = data;
  uint64_t head = cd->have_pos ? cd->pos : hdd_head_offset (hdd);
  struct req *r;

  (void) now; (void) wake;
  r = req_tree_at_or_above (&cd->tree, head);
  if (!r)
    r = RB_MIN (req_tree, &cd->tree);   /* wrap to the lowest offset */
  if (r) {
    cd->have_pos = true;
    cd->pos = req_end (r);
    RB_REMOVE (req_tree, &cd->tree, r);
  }
  return r;
}

const struct policy_ops cscan_policy = {
  .name = "cscan",
  .description = "one-way sweep upward from the head, wrapping to the lowest offset",
  .create = cscan_create,
  .destroy = cscan_destroy,
  .add = cscan_add,
  .pick = cscan_pick,
  .remove = cscan_remove,
};
