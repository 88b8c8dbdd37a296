/* hddsim: the media cache's map, an AVL tree in a pool (see mc_map.h). */

#include <stdbool.h>
#include <stddef.h>

#include "mc_map.h"

#define NIL 0

void
mcm_init (struct mc_map *m, struct mc_node *pool)
{
  m->node = pool;
  m->root = m->free = m->used = NIL;
  m->len = 0;
  pool[NIL] = (struct mc_node) { .height = 0 };
}

static struct mc_node *
at (const struct mc_map *m, uint32_t i)
{
  return &m->node[i];
}

static int32_t
height (const struct mc_map *m, uint32_t i)
{
  return i == NIL ? 0 : at (m, i)->height;
}

/* a staged before b: the least seq, then the lowest home. */
static bool
older (const struct mc_map *m, uint32_t a, uint32_t b)
{
  const struct mc_extent *x = &at (m, a)->e, *y = &at (m, b)->e;

  return x->seq < y->seq || (x->seq == y->seq && x->home < y->home);
}

/* i's height and oldest from its children's. */
static void
update (struct mc_map *m, uint32_t i)
{
  struct mc_node *n = at (m, i);
  int32_t hl = height (m, n->left), hr = height (m, n->right);

  n->height = 1 + (hl > hr ? hl : hr);
  n->oldest = i;
  if (n->left != NIL && older (m, at (m, n->left)->oldest, n->oldest))
    n->oldest = at (m, n->left)->oldest;
  if (n->right != NIL && older (m, at (m, n->right)->oldest, n->oldest))
    n->oldest = at (m, n->right)->oldest;
}

static uint32_t
rotate_right (struct mc_map *m, uint32_t i)
{
  uint32_t l = at (m, i)->left;

  at (m, i)->left = at (m, l)->right;
  at (m, l)->right = i;
  update (m, i);
  update (m, l);
  return l;
}

static uint32_t
rotate_left (struct mc_map *m, uint32_t i)
{
  uint32_t r = at (m, i)->right;

  at (m, i)->right = at (m, r)->left;
  at (m, r)->left = i;
  update (m, i);
  update (m, r);
  return r;
}

/* i's subtree, its children balanced, balanced again: its new root. */
static uint32_t
balance (struct mc_map *m, uint32_t i)
{
  struct mc_node *n = at (m, i);
  int32_t b = height (m, n->left) - height (m, n->right);

  if (b > 1) {
    uint32_t l = n->left;
    if (height (m, at (m, l)->left) < height (m, at (m, l)->right))
      n->left = rotate_left (m, l);
    return rotate_right (m, i);
  }
  if (b < -1) {
    uint32_t r = n->right;
    if (height (m, at (m, r)->right) < height (m, at (m, r)->left))
      n->right = rotate_right (m, r);
    return rotate_left (m, i);
  }
  update (m, i);
  return i;
}

static uint32_t
insert_at (struct mc_map *m, uint32_t i, uint32_t k)
{
  if (i == NIL)
    return k;
  if (at (m, k)->e.home < at (m, i)->e.home)
    at (m, i)->left = insert_at (m, at (m, i)->left, k);
  else
    at (m, i)->right = insert_at (m, at (m, i)->right, k);
  return balance (m, i);
}

void
mcm_insert (struct mc_map *m, const struct mc_extent *e)
{
  uint32_t k;

  if (m->free != NIL) {
    k = m->free;
    m->free = at (m, k)->left;
  }
  else
    k = ++m->used;
  *at (m, k) = (struct mc_node) { .e = *e, .oldest = k, .height = 1 };
  m->root = insert_at (m, m->root, k);
  m->len++;
}

/* Unlink the least node of i's subtree into *min: the subtree's root. */
static uint32_t
unlink_min (struct mc_map *m, uint32_t i, uint32_t *min)
{
  if (at (m, i)->left == NIL) {
    *min = i;
    return at (m, i)->right;
  }
  at (m, i)->left = unlink_min (m, at (m, i)->left, min);
  return balance (m, i);
}

static uint32_t
delete_at (struct mc_map *m, uint32_t i, uint64_t home)
{
  struct mc_node *n = at (m, i);
  uint32_t l, r, s;

  if (home < n->e.home) {
    n->left = delete_at (m, n->left, home);
    return balance (m, i);
  }
  if (home > n->e.home) {
    n->right = delete_at (m, n->right, home);
    return balance (m, i);
  }
  l = n->left;
  r = n->right;
  n->left = m->free;            /* to the free list */
  m->free = i;
  if (r == NIL)
    return l;
  r = unlink_min (m, r, &s);    /* the successor takes i's place */
  at (m, s)->left = l;
  at (m, s)->right = r;
  return balance (m, s);
}

void
mcm_delete (struct mc_map *m, uint64_t home)
{
  m->root = delete_at (m, m->root, home);
  m->len--;
}

struct mc_extent *
mcm_end_after (const struct mc_map *m, uint64_t lba)
{
  uint32_t i = m->root, found = NIL;

  while (i != NIL) {
    const struct mc_node *n = at (m, i);
    if (n->e.home + n->e.n > lba) {
      found = i;
      i = n->left;
    }
    else
      i = n->right;
  }
  return found == NIL ? NULL : &at (m, found)->e;
}

struct mc_extent *
mcm_start_at (const struct mc_map *m, uint64_t lba)
{
  uint32_t i = m->root, found = NIL;

  while (i != NIL) {
    const struct mc_node *n = at (m, i);
    if (n->e.home >= lba) {
      found = i;
      i = n->left;
    }
    else
      i = n->right;
  }
  return found == NIL ? NULL : &at (m, found)->e;
}

const struct mc_extent *
mcm_oldest (const struct mc_map *m)
{
  return m->root == NIL ? NULL : &at (m, at (m, m->root)->oldest)->e;
}
