/* hddsim: helpers shared by the sorted policies (see reqtree.h). */

#include <stddef.h>

#include "reqtree.h"

static int
req_tree_cmp (const struct req *a, const struct req *b)
{
  if (a->io.offset != b->io.offset)
    return a->io.offset < b->io.offset ? -1 : 1;
  if (a->arrival != b->arrival)
    return a->arrival < b->arrival ? -1 : 1;
  if (a->id != b->id)
    return a->id < b->id ? -1 : 1;
  /* Only duplicate ids get here; the tree still needs a total order. */
  return a < b ? -1 : a > b;
}

RB_GENERATE(req_tree, req, sort_link, req_tree_cmp)

/* The tree is ordered by offset first, so a descent on the offset
 * alone finds the bound; RB_NFIND would need a key request.
 */
struct req *
req_tree_at_or_above (struct req_tree *t, uint64_t offset)
{
  struct req *n = RB_ROOT (t), *found = NULL;

  while (n) {
    if (n->io.offset >= offset) {
      found = n;
      n = RB_LEFT (n, sort_link);
    }
    else
      n = RB_RIGHT (n, sort_link);
  }
  return found;
}

struct req *
req_tree_below (struct req_tree *t, uint64_t offset)
{
  struct req *n = RB_ROOT (t), *found = NULL;

  while (n) {
    if (n->io.offset < offset) {
      found = n;
      n = RB_RIGHT (n, sort_link);
    }
    else
      n = RB_LEFT (n, sort_link);
  }
  return found;
}
