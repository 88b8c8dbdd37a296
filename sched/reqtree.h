/* hddsim: helpers shared by the sorted policies (cscan, deadline,
 * cfq): a red-black tree of requests sorted by byte offset (libbsd's
 * sys/tree.h, through struct req's sort_link).  Flushes never reach a
 * policy: the engine sequences them (engine.c).
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

/* Reads against everything that changes the media (writes, zero, trim),
 * for policies that keep the two directions apart.
 */
static inline bool
req_is_read (const struct req *r)
{
  return r->io.op == IO_READ;
}

#endif /* HDDSIM_REQTREE_H */
