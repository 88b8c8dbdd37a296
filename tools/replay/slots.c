/* hddsim-replay: the requests' slots, from the trace's row to the
 * modeled completion, allocated by blocks (see SLOT_BLOCK).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

/* A new block's slots onto the free list; -1 when out of memory. */
static int
slots_grow (struct replay *rp)
{
  struct slot_block *b = malloc (sizeof *b);
  size_t i;

  if (!b)
    return -1;
  b->next = rp->blocks;
  rp->blocks = b;
  for (i = SLOT_BLOCK; i-- > 0; ) {
    b->slots[i].next_free = rp->free_slots;
    rp->free_slots = &b->slots[i];
  }
  return 0;
}

struct slot *
slot_get (struct replay *rp)
{
  struct slot *s;

  if (!rp->free_slots && slots_grow (rp) == -1) {
    fprintf (stderr, "hddsim-replay: out of memory\n");
    return NULL;
  }
  s = rp->free_slots;
  rp->free_slots = s->next_free;
  memset (s, 0, sizeof *s);
  return s;
}

void
slot_put (struct replay *rp, struct slot *s)
{
  s->next_free = rp->free_slots;
  rp->free_slots = s;
}

void
slots_free (struct replay *rp)
{
  struct slot_block *b;

  while ((b = rp->blocks) != NULL) {
    rp->blocks = b->next;
    free (b);
  }
  rp->free_slots = NULL;
}
