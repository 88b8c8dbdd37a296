/* hddsim: a set of sector ranges (the write cache's dirty data), with
 * an undo journal so that an estimate can change it and give it back.
 *
 * The ranges are kept disjoint and merged (never adjacent), in a
 * red-black tree: every operation is O(log n) plus the ranges it
 * touches.  All memory is allocated by extents_init, for the bounds
 * given there, so no operation allocates (see cache.c for the bounds).
 */
#ifndef HDDSIM_EXTENTS_H
#define HDDSIM_EXTENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <bsd/sys/tree.h>

struct extent {
  uint64_t lba;
  uint64_t n;
};

struct xnode {
  RB_ENTRY (xnode) link;
  struct extent e;
  struct xnode *next_free;
};

RB_HEAD (xtree, xnode);

struct xjournal_entry {
  int kind;                     /* inserted, deleted or changed */
  struct xnode *node;
  struct extent old;            /* changed: the value before */
};

struct extents {
  struct xtree tree;
  size_t len;                   /* ranges */
  uint64_t sectors;             /* sum of their lengths */
  struct xnode *pool, *free;
  size_t pool_cap, pool_used;
  /* Undo journal, while a transaction is open. */
  bool txn;
  struct xjournal_entry *journal;
  size_t jlen, jcap;
  size_t txn_len;
  uint64_t txn_sectors;
  /* extents_mark's point inside the transaction: the journal's length
     and the set's size then. */
  size_t jmark, mark_len;
  uint64_t mark_sectors;
};

/* max_nodes: ranges that may exist at once, counting those deleted
 * inside a transaction; max_journal: journal entries one transaction
 * may need.  -1 when out of memory.
 */
extern int extents_init (struct extents *, size_t max_nodes,
                         size_t max_journal);
extern void extents_free (struct extents *);

extern void extents_add (struct extents *, uint64_t lba, uint64_t n);
extern void extents_remove (struct extents *, uint64_t lba, uint64_t n);
extern uint64_t extents_overlap (const struct extents *, uint64_t lba,
                                 uint64_t n);
extern bool extents_cover (const struct extents *, uint64_t lba, uint64_t n);
/* The first range starting at or after lba, wrapping to the lowest
 * (C-LOOK: a range the head is inside of counts as behind it).  false
 * if the set is empty.
 */
extern bool extents_next (const struct extents *, uint64_t lba,
                          struct extent *out);

/* The ranges in LBA order: the lowest (NULL if none), then the one
 * after x (NULL after the last); x->e is the range.  The set must not
 * change meanwhile.
 */
extern const struct xnode *extents_first (const struct extents *);
extern const struct xnode *extents_after (const struct xnode *x);

static inline bool
extents_empty (const struct extents *s)
{
  return s->len == 0;
}

/* Record every change from now on; rollback undoes them all, in
 * reverse, and stops recording.
 */
extern void extents_begin (struct extents *);
extern void extents_rollback (struct extents *);
/* Inside a transaction: remember this state, so that
 * extents_rollback_to_mark can undo what comes after it and keep what
 * came before (several estimates from one state that an estimate's
 * copy reached: hdd_estimate_begin).  The transaction stays open.
 */
extern void extents_mark (struct extents *);
extern void extents_rollback_to_mark (struct extents *);

#endif /* HDDSIM_EXTENTS_H */
