/* hddsim: the media cache's map (media_cache.h): its staged extents in
 * home order, and which is the oldest.
 *
 * A drive-managed SMR drive's map holds a quarter of a million extents
 * (docs/smr.md); a sorted array moved up to all of them on every staged
 * write and scanned all of them for the oldest on every clean step, so
 * runs past the map took minutes.  This is an AVL tree: every
 * operation is O(log n).  Each node also names the oldest extent of its
 * subtree (the least (seq, home): the log's order, and among pieces of
 * one write the lowest home, as the array's scan found it), so the
 * cleaner's next band is found in O(log n) too.
 *
 * The nodes are linked by index into one pool, never by pointer: an
 * estimate's copy of the drive (media_cache.h, mc_lend) borrows the
 * drive's pool and, when it must change the map, copies the pool with
 * one memcpy into its own and gets the same tree.  Index 0 is no node.
 */
#ifndef HDDSIM_MC_MAP_H
#define HDDSIM_MC_MAP_H

#include <stddef.h>
#include <stdint.h>

/* One staged extent: home LBAs [home, home+n) are at log LBAs
 * [log, log+n) (drive LBAs inside the media cache's region).  seq: the
 * order it was staged in (log order).
 */
struct mc_extent {
  uint64_t home, n;
  uint64_t log;
  uint64_t seq;
};

struct mc_node {
  struct mc_extent e;           /* first: a node's extent is the node */
  uint32_t left, right;
  uint32_t oldest;              /* the subtree's least (seq, home) */
  int32_t height;
};

struct mc_map {
  struct mc_node *node;         /* the pool: node[1 .. cap] */
  uint32_t root, free, used;    /* free: a list through .left; used:
                                   nodes ever handed out */
  size_t len;
};

/* An empty map on pool[0 .. cap] (cap + 1 nodes). */
extern void mcm_init (struct mc_map *, struct mc_node *pool);
/* The pool's nodes in use (to copy it: node[0 .. mcm_span)). */
static inline size_t
mcm_span (const struct mc_map *m)
{
  return (size_t) m->used + 1;
}

/* The first extent that ends after lba, or NULL (extents are disjoint,
 * so their ends are in home order too).
 */
extern struct mc_extent *mcm_end_after (const struct mc_map *, uint64_t lba);
/* The first extent that starts at or after lba, or NULL. */
extern struct mc_extent *mcm_start_at (const struct mc_map *, uint64_t lba);
/* The oldest extent (least seq; the lowest home among equals). */
extern const struct mc_extent *mcm_oldest (const struct mc_map *);

/* Add e (disjoint from every extent in the map); the pool must have
 * room.  Pointers into the map are stale after mcm_insert and
 * mcm_delete.
 */
extern void mcm_insert (struct mc_map *, const struct mc_extent *e);
/* Remove the extent starting at home (it must exist). */
extern void mcm_delete (struct mc_map *, uint64_t home);

/* An extent's n and log may change in place; its home or seq only by
 * mcm_delete and mcm_insert (they order the tree and its oldest).
 */

#endif /* HDDSIM_MC_MAP_H */
