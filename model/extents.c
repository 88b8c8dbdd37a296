/* hddsim: a set of sector ranges in a red-black tree (see extents.h).
 *
 * Every change is one of three primitives (insert a node, delete a
 * node, change a node's range); inside a transaction each is recorded
 * so that undoing them in reverse passes through exactly the states
 * the set went through, each a valid sorted set (which the tree's
 * re-insertions need).  A deleted node is kept until the transaction
 * ends, so the journal may point at it.
 */

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "extents.h"

enum { J_INSERTED, J_DELETED, J_CHANGED };

static int
xnode_cmp (const struct xnode *a, const struct xnode *b)
{
  return a->e.lba < b->e.lba ? -1 : a->e.lba > b->e.lba;
}

/* libbsd leaves __unused undefined; the static tree functions this
 * file does not call must not warn.
 */
#define __unused __attribute__ ((__unused__))
RB_GENERATE_STATIC (xtree, xnode, link, xnode_cmp);
#undef __unused

int
extents_init (struct extents *s, size_t max_nodes, size_t max_journal)
{
  memset (s, 0, sizeof *s);
  RB_INIT (&s->tree);
  s->pool = calloc (max_nodes, sizeof *s->pool);
  s->journal = calloc (max_journal, sizeof *s->journal);
  if (!s->pool || !s->journal) {
    extents_free (s);
    return -1;
  }
  s->pool_cap = max_nodes;
  s->jcap = max_journal;
  return 0;
}

void
extents_free (struct extents *s)
{
  free (s->pool);
  free (s->journal);
  memset (s, 0, sizeof *s);
}

static void
journal (struct extents *s, int kind, struct xnode *x)
{
  if (!s->txn)
    return;
  /* Two changes of one node in a row: the first keeps the value to
   * restore, the state between them is never needed.
   */
  if (kind == J_CHANGED && s->jlen > s->jmark
      && s->journal[s->jlen - 1].kind == J_CHANGED
      && s->journal[s->jlen - 1].node == x)
    return;
  /* The bound given to extents_init (cache.c derives it) holds. */
  assert (s->jlen < s->jcap);
  s->journal[s->jlen++] = (struct xjournal_entry) { kind, x, x->e };
}

static struct xnode *
node_insert (struct extents *s, uint64_t lba, uint64_t n)
{
  struct xnode *x = s->free;

  /* Released nodes first, then the pool's untouched ones (so that
   * memory is touched only as the set grows).
   */
  if (x)
    s->free = x->next_free;
  else {
    assert (s->pool_used < s->pool_cap);  /* the bound of extents_init */
    x = &s->pool[s->pool_used++];
  }
  x->e = (struct extent) { lba, n };
  RB_INSERT (xtree, &s->tree, x);
  s->len++;
  s->sectors += n;
  journal (s, J_INSERTED, x);
  return x;
}

static void
node_release (struct extents *s, struct xnode *x)
{
  x->next_free = s->free;
  s->free = x;
}

static void
node_delete (struct extents *s, struct xnode *x)
{
  RB_REMOVE (xtree, &s->tree, x);
  s->len--;
  s->sectors -= x->e.n;
  if (s->txn)
    journal (s, J_DELETED, x);
  else
    node_release (s, x);
}

/* Only ever trims or grows a range into the gap beside it, so the
 * node keeps its place in the tree.
 */
static void
node_set (struct extents *s, struct xnode *x, uint64_t lba, uint64_t n)
{
  journal (s, J_CHANGED, x);
  s->sectors = s->sectors - x->e.n + n;
  x->e = (struct extent) { lba, n };
}

static uint64_t
end_of (const struct xnode *x)
{
  return x->e.lba + x->e.n;
}

/* First range whose end is after lba. */
static struct xnode *
first_ending_after (const struct extents *s, uint64_t lba)
{
  struct xnode key = { .e = { lba, 0 } };
  struct xtree *t = (struct xtree *) &s->tree;
  struct xnode *x = RB_NFIND (xtree, t, &key);     /* start >= lba */
  struct xnode *prev = x ? RB_PREV (xtree, t, x) : RB_MAX (xtree, t);

  return prev && end_of (prev) > lba ? prev : x;
}

void
extents_remove (struct extents *s, uint64_t lba, uint64_t n)
{
  uint64_t end = lba + n;
  struct xnode *x = first_ending_after (s, lba);

  while (x && x->e.lba < end) {
    struct xnode *next = RB_NEXT (xtree, &s->tree, x);
    uint64_t x_lba = x->e.lba, x_end = end_of (x);

    if (x_lba < lba && x_end > end) {           /* split in two */
      node_set (s, x, x_lba, lba - x_lba);
      node_insert (s, end, x_end - end);
      return;
    }
    if (x_lba < lba)                            /* keep the head */
      node_set (s, x, x_lba, lba - x_lba);
    else if (x_end > end)                       /* keep the tail */
      node_set (s, x, end, x_end - end);
    else                                        /* wholly inside */
      node_delete (s, x);
    x = next;
  }
}

void
extents_add (struct extents *s, uint64_t lba, uint64_t n)
{
  struct xnode *x, *nb;

  if (n == 0)
    return;
  extents_remove (s, lba, n);
  x = node_insert (s, lba, n);
  /* Merge with an adjacent neighbour on either side. */
  nb = RB_NEXT (xtree, &s->tree, x);
  if (nb && end_of (x) == nb->e.lba) {
    uint64_t merged = x->e.n + nb->e.n;
    node_delete (s, nb);
    node_set (s, x, x->e.lba, merged);
  }
  nb = RB_PREV (xtree, &s->tree, x);
  if (nb && end_of (nb) == x->e.lba) {
    uint64_t merged = nb->e.n + x->e.n;
    node_delete (s, x);
    node_set (s, nb, nb->e.lba, merged);
  }
}

uint64_t
extents_overlap (const struct extents *s, uint64_t lba, uint64_t n)
{
  uint64_t end = lba + n, sum = 0;
  struct xnode *x;

  for (x = first_ending_after (s, lba); x && x->e.lba < end;
       x = RB_NEXT (xtree, &s->tree, x)) {
    uint64_t a = x->e.lba > lba ? x->e.lba : lba;
    uint64_t b = end_of (x) < end ? end_of (x) : end;
    sum += b - a;
  }
  return sum;
}

bool
extents_cover (const struct extents *s, uint64_t lba, uint64_t n)
{
  struct xnode *x = first_ending_after (s, lba);

  return n > 0 && x && x->e.lba <= lba && end_of (x) >= lba + n;
}

bool
extents_next (const struct extents *s, uint64_t lba, struct extent *out)
{
  struct xtree *t = (struct xtree *) &s->tree;
  struct xnode key = { .e = { lba, 0 } };
  struct xnode *x = RB_NFIND (xtree, t, &key);

  if (!x)
    x = RB_MIN (xtree, t);
  if (!x)
    return false;
  *out = x->e;
  return true;
}

void
extents_begin (struct extents *s)
{
  assert (!s->txn);
  s->txn = true;
  s->jlen = 0;
  s->txn_len = s->len;
  s->txn_sectors = s->sectors;
  s->jmark = 0;
  s->mark_len = s->len;
  s->mark_sectors = s->sectors;
}

/* Undo the journal's entries down to 'to', in reverse. */
static void
undo_to (struct extents *s, size_t to)
{
  while (s->jlen > to) {
    struct xjournal_entry *j = &s->journal[--s->jlen];
    switch (j->kind) {
    case J_INSERTED:
      RB_REMOVE (xtree, &s->tree, j->node);
      node_release (s, j->node);
      break;
    case J_DELETED:
      RB_INSERT (xtree, &s->tree, j->node);
      break;
    case J_CHANGED:
      j->node->e = j->old;
      break;
    }
  }
}

void
extents_rollback (struct extents *s)
{
  undo_to (s, 0);
  s->len = s->txn_len;
  s->sectors = s->txn_sectors;
  s->txn = false;
  s->jmark = 0;
}

void
extents_mark (struct extents *s)
{
  assert (s->txn);
  s->jmark = s->jlen;
  s->mark_len = s->len;
  s->mark_sectors = s->sectors;
}

void
extents_rollback_to_mark (struct extents *s)
{
  assert (s->txn);
  undo_to (s, s->jmark);
  s->len = s->mark_len;
  s->sectors = s->mark_sectors;
}

const struct xnode *
extents_first (const struct extents *s)
{
  return RB_MIN (xtree, (struct xtree *) &s->tree);
}

const struct xnode *
extents_after (const struct xnode *x)
{
  return RB_NEXT (xtree, NULL, (struct xnode *) x);
}
