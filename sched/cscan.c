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

struct policy {
  struct req_tree tree;         /* by offset */
  bool have_pos;
  uint64_t pos;                 /* end of the last request dispatched */
};

static struct policy *
cscan_create (const struct sched_params *params)
{
  struct policy *p = calloc (1, sizeof *p);

  (void) params;
  if (!p)
    return NULL;
  RB_INIT (&p->tree);
  return p;
}

static void
cscan_destroy (struct policy *p)
{
  free (p);
}

static void
cscan_add (struct policy *p, struct req *r, uint64_t now)
{
  (void) now;
  RB_INSERT (req_tree, &p->tree, r);
}

static void
cscan_remove (struct policy *p, struct req *r)
{
  RB_REMOVE (req_tree, &p->tree, r);
}

static struct req *
cscan_pick (struct policy *p, const struct hdd *hdd, uint64_t now,
            uint64_t *wake)
{
  uint64_t head = p->have_pos ? p->pos : hdd_head_offset (hdd);
  struct req *r;

  (void) now; (void) wake;
  r = req_tree_at_or_above (&p->tree, head);
  if (!r)
    r = RB_MIN (req_tree, &p->tree);    /* wrap to the lowest offset */
  if (r) {
    p->have_pos = true;
    p->pos = req_end (r);
    cscan_remove (p, r);
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
