/* hddsim: helpers shared by the sorted policies (cscan, deadline, satf,
 * cfq).
 *
 * A red-black tree of requests sorted by byte offset (libbsd's
 * sys/tree.h, through struct req's sort_link), and the rule every
 * policy applies to flushes.
 *
 * Flushes.  NBD only asks a flush to cover the writes that completed
 * before it arrived, so a flush could legally overtake the writes still
 * queued.  A filesystem that issues write, write, flush expects the
 * opposite, and the policies reorder far more than a real queue of 16
 * would, so every policy here makes a flush a barrier for its own
 * connection: it is not served while any request of the same connection
 * that arrived at or before it is still queued (ties count as earlier).
 * Once nothing holds it back it is served before anything else, since
 * someone is waiting on it and it has no position of its own to sort
 * by.  Requests of other connections, and later requests of the same
 * connection, are not held back by a flush.
 */
#ifndef HDDSIM_REQTREE_H
#define HDDSIM_REQTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "req.h"

/* Sorted by offset; equal offsets by arrival, then by id, so that the
 * order never depends on where malloc put a request.
 */
RB_HEAD(req_tree, req);
RB_PROTOTYPE(req_tree, req, sort_link, req_tree_cmp)

/* The first request (lowest offset, then oldest) at or above 'offset',
 * or NULL.
 */
extern struct req *req_tree_at_or_above (struct req_tree *t, uint64_t offset);

/* The last request strictly below 'offset', or NULL. */
extern struct req *req_tree_below (struct req_tree *t, uint64_t offset);

static inline bool
req_is_flush (const struct req *r)
{
  return r->io.op == IO_FLUSH;
}

/* Reads against everything that changes the media (writes, zero, trim),
 * for policies that keep the two directions apart.
 */
static inline bool
req_is_read (const struct req *r)
{
  return r->io.op == IO_READ;
}

/* Does a request in 'list' (arrival-ordered, through fifo_link) hold
 * back flush f: same connection, not a flush, arrived at or before f?
 */
extern bool req_list_holds_flush (const struct req_list *list,
                                  const struct req *f);

#endif /* HDDSIM_REQTREE_H */
