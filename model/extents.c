/* hddsim: a set of sector ranges, kept sorted and merged.
 *
 * Holds the write cache's dirty data.  Drives of interest hold at most
 * a few thousand dirty ranges, so a sorted array with memmove is both
 * simple and fast enough.
 */

#include <stdlib.h>
#include <string.h>

#include "hdd_int.h"

/* First extent whose end is after lba. */
static size_t
first_ending_after (const struct extents *s, uint64_t lba)
{
  size_t lo = 0, hi = s->len;

  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (s->v[mid].lba + s->v[mid].n <= lba)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int
reserve (struct extents *s, size_t more)
{
  if (s->len + more > s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 16;
    struct extent *v;
    while (cap < s->len + more)
      cap *= 2;
    v = realloc (s->v, cap * sizeof *v);
    if (!v)
      return -1;
    s->v = v;
    s->cap = cap;
  }
  return 0;
}

static void
insert_at (struct extents *s, size_t i, uint64_t lba, uint64_t n)
{
  memmove (&s->v[i + 1], &s->v[i], (s->len - i) * sizeof s->v[0]);
  s->v[i] = (struct extent) { lba, n };
  s->len++;
}

static void
delete_at (struct extents *s, size_t i)
{
  memmove (&s->v[i], &s->v[i + 1], (s->len - i - 1) * sizeof s->v[0]);
  s->len--;
}

int
extents_remove (struct extents *s, uint64_t lba, uint64_t n)
{
  uint64_t end = lba + n;
  size_t i = first_ending_after (s, lba);

  while (i < s->len && s->v[i].lba < end) {
    struct extent *e = &s->v[i];
    uint64_t e_end = e->lba + e->n;

    if (e->lba < lba && e_end > end) {          /* split in two */
      if (reserve (s, 1) == -1)
        return -1;
      e = &s->v[i];
      e->n = lba - e->lba;
      insert_at (s, i + 1, end, e_end - end);
      s->sectors -= n;
      return 0;
    }
    if (e->lba < lba) {                         /* keep the head */
      s->sectors -= e_end - lba;
      e->n = lba - e->lba;
      i++;
    }
    else if (e_end > end) {                     /* keep the tail */
      s->sectors -= end - e->lba;
      e->n = e_end - end;
      e->lba = end;
      i++;
    }
    else {                                      /* wholly inside */
      s->sectors -= e->n;
      delete_at (s, i);
    }
  }
  return 0;
}

int
extents_add (struct extents *s, uint64_t lba, uint64_t n)
{
  size_t i;

  if (n == 0)
    return 0;
  if (extents_remove (s, lba, n) == -1 || reserve (s, 1) == -1)
    return -1;
  i = first_ending_after (s, lba);
  insert_at (s, i, lba, n);
  s->sectors += n;
  /* Merge with an adjacent neighbour on either side. */
  if (i + 1 < s->len && s->v[i].lba + s->v[i].n == s->v[i + 1].lba) {
    s->v[i].n += s->v[i + 1].n;
    delete_at (s, i + 1);
  }
  if (i > 0 && s->v[i - 1].lba + s->v[i - 1].n == s->v[i].lba) {
    s->v[i - 1].n += s->v[i].n;
    delete_at (s, i);
  }
  return 0;
}

uint64_t
extents_overlap (const struct extents *s, uint64_t lba, uint64_t n)
{
  uint64_t end = lba + n, sum = 0;
  size_t i;

  for (i = first_ending_after (s, lba); i < s->len && s->v[i].lba < end;
       i++) {
    uint64_t a = s->v[i].lba > lba ? s->v[i].lba : lba;
    uint64_t b = s->v[i].lba + s->v[i].n < end ? s->v[i].lba + s->v[i].n : end;
    sum += b - a;
  }
  return sum;
}

bool
extents_cover (const struct extents *s, uint64_t lba, uint64_t n)
{
  size_t i = first_ending_after (s, lba);

  return n > 0 && i < s->len && s->v[i].lba <= lba
    && s->v[i].lba + s->v[i].n >= lba + n;
}

size_t
extents_next (const struct extents *s, uint64_t lba)
{
  size_t i = first_ending_after (s, lba);

  /* An extent the head is inside of counts as behind it: C-LOOK. */
  if (i < s->len && s->v[i].lba < lba)
    i++;
  return i < s->len ? i : 0;
}

int
extents_copy (struct extents *dst, const struct extents *src)
{
  dst->len = 0;
  if (reserve (dst, src->len) == -1)
    return -1;
  if (src->len > 0)
    memcpy (dst->v, src->v, src->len * sizeof src->v[0]);
  dst->len = src->len;
  dst->sectors = src->sectors;
  return 0;
}

void
extents_free (struct extents *s)
{
  free (s->v);
  *s = (struct extents) { 0 };
}
