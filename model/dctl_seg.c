/* hddsim: the buffer's segments as DiskSim's disk cache keeps them
 * (dctl.h; src/disksim_diskcache.c, read for the facts).
 *
 * The segments form a list, least recently used first (a segment a
 * request takes goes to its end); with a dedicated write segment, it
 * is the list's first at the start.  A segment holds the blocks
 * [start, end) and the requests using it, sorted by their first block;
 * one of them owns it.  DiskSim 4.0 never recycles or reuses a segment
 * for a disk (its disk's 'acctime' stays 0, which both checks read as
 * "not allowed"), so a request that finds no segment waits.
 */

#include "dctl.h"
#include "../common/u64.h"

static int64_t
req_end (const struct dreq *r)
{
  return r->blkno + r->bcount;
}

bool
dseg_overlap (const struct dseg *s, int64_t blkno, int64_t n)
{
  int64_t end = blkno + n;

  return (blkno >= s->start && blkno < s->end)
    || (end > s->start && end <= s->end)
    || (blkno <= s->start && end >= s->end);
}

/* The segment keeps its last 'size' blocks. */
void
dseg_wrap (struct dseg *s, int64_t end)
{
  s->start = max_i64 (s->start, end - s->size);
}

int64_t
dseg_watermark (const struct dctl *d, int64_t size, int64_t bcount,
                bool read)
{
  double water = read ? d->c.water_read : d->c.water_write;

  if (d->c.water_by_req)
    return max_i64 (1, (int64_t) ((double) min_i64 (size, bcount) * water));
  return (int64_t) ((double) size * water + 0.9999999999);
}

static int
first_req (const struct dctl *d, int s)
{
  return d->seg[s].reqs;
}

void
dseg_remove (struct dctl *d, int r)
{
  struct dseg *s = &d->seg[d->req[r].seg];
  int *p = &s->reqs;

  while (*p != DCTL_NONE && *p != r)
    p = &d->req[*p].seg_next;
  if (*p == r)
    *p = d->req[r].seg_next;
  d->req[r].seg = DCTL_NONE;
}

/* The request owning segment s; 'effective': for a read access, the
 * reader furthest behind over the bus.
 */
int
dseg_owner (struct dctl *d, int s, bool effective)
{
  const struct dseg *sg = &d->seg[s];
  int o = sg->reqs, r;

  while (o != DCTL_NONE && !(d->req[o].flags & RQ_SEG_OWNED))
    o = d->req[o].seg_next;
  if (!effective || !sg->acc.exists || !sg->acc.read)
    return o;
  for (r = sg->reqs; r != DCTL_NONE; r = d->req[r].seg_next)
    if ((!d->req[r].io || d->req[r].read)
        && (o == DCTL_NONE || d->req[r].outblkno < d->req[o].outblkno))
      o = r;
  return o;
}

/* Whether the head may read block blkno into segment s (it has room),
 * or write it from there (its data is in).
 */
bool
dseg_block_available (struct dctl *d, int s, int64_t blkno)
{
  const struct dseg *sg = &d->seg[s];

  if (blkno < 0)
    return false;
  if (sg->state == SEG_READING) {
    int o;
    if (blkno < sg->end && blkno >= sg->start)
      return false;
    if (blkno < sg->start && (!d->c.read_free || sg->end != sg->start))
      return false;
    o = dseg_owner (d, s, true);
    return o == DCTL_NONE || (d->req[o].flags & RQ_COMPL_SENT)
      || blkno - d->req[o].outblkno < sg->size;
  }
  if (sg->state == SEG_WRITING) {
    const struct dreq *e = &d->req[d->effhda];
    if (blkno < e->inblkno || blkno >= sg->end)
      return false;
    /* DiskSim's extra write disconnect also holds the head back until
       some of a write's data is in (its disksim_diskcache.c). */
    if (e->io && d->c.extra_disc) {
      int64_t held = sg->end - sg->start;
      if (e->bcount < 45 ? held < min_i64 (e->bcount, 10) : held < 15)
        return false;
    }
    return true;
  }
  return false;
}

/* Where read-ahead after request r may end (the block after). */
int64_t
dseg_max_readahead (struct dctl *d, int s, int r)
{
  const struct dreq *q = &d->req[r];
  int64_t endreq = req_end (q);

  if (d->c.contread == 0)
    return endreq;
  if (d->c.contread == 4) {     /* DiskSim's DEC prefetch scheme */
    uint64_t cyl, head, sect;
    int64_t first, last;
    bool remapped;
    int64_t at = min_i64 (endreq, (int64_t) d->g->sectors - 1);
    dlay_ltop (d, at, &cyl, &head, &sect, &remapped);
    dlay_track (d, cyl, head, &first, &last);
    if (d->seg[s].start < first)
      return last + 1 + (int64_t) dlay_spt (d, q->blkno);
    return last + 1;
  }
  if (d->c.ra_max)
    return endreq + d->c.ra_max;
  if (d->c.keep > 0) {
    int64_t size = d->seg[s].size;
    if (q->bcount >= size || size - q->bcount < d->c.ra_min)
      return endreq + d->c.ra_min;
    return q->blkno + size;
  }
  return endreq + d->seg[s].size;
}

/* ---- selecting a segment ---- */

static void
collide (struct dctl *d, int r)
{
  d->req[r].hit = HIT_COLLISION;
  d->req[r].seg = DCTL_NONE;
}

/* A segment holding what the request may not read or overwrite: a
 * collision (DiskSim would clean the segment first if it could reuse
 * it, which it never can).
 */
static void
collide_if_overlap (struct dctl *d, int s, int r)
{
  if (dseg_overlap (&d->seg[s], d->req[r].blkno, d->req[r].bcount))
    collide (d, r);
}

/* How good segment s is for read r (DiskSim's scores: > 0 usable). */
static int
read_score (struct dctl *d, int s, int r, int best, int *hit)
{
  const struct dseg *sg = &d->seg[s];
  const struct dreq *q = &d->req[r];
  int v = -1;

  *hit = HIT_NOMATCH;
  if (d->c.dedicated && s == d->wseg) {
    if (sg->state == SEG_DIRTY || sg->state == SEG_WRITING)
      collide_if_overlap (d, s, r);
    return -1;
  }
  if (sg->state == SEG_EMPTY)
    return 3;
  if (q->blkno < sg->start || q->blkno >= sg->end) {
    if (sg->state == SEG_CLEAN && sg->reqs == DCTL_NONE)
      return 2;
    if (sg->state == SEG_READING) {
      if (sg->end == q->blkno && d->c.almost) {
        *hit = HIT_PARTIAL;
        return 5;
      }
      return d->req[sg->reqs].io ? -1 : 1;
    }
    if (q->blkno < sg->start
        && (sg->state == SEG_DIRTY || sg->state == SEG_WRITING))
      collide_if_overlap (d, s, r);
    return -1;
  }
  switch (sg->state) {
  case SEG_DIRTY:
  case SEG_WRITING:
    if (d->c.cache) {
      if (d->c.hits_on_write && best < 10)
        v = sg->state == SEG_DIRTY ? 11 : 10;
      else
        collide (d, r);
    }
    break;
  case SEG_READING:
    if (d->c.cache)
      v = 9;
    break;
  case SEG_CLEAN:
    if (d->c.hits_on_write || (sg->acc.exists && sg->acc.read))
      v = 8;
    break;
  }
  if (sg->end >= req_end (q))
    *hit = HIT_WHOLE;
  else {
    *hit = HIT_PARTIAL;
    v -= 4;
  }
  return v;
}

static int write_score (struct dctl *, int s, int r, int *hit);

/* The segments in use order, each scored for r by its direction's
 * rule; r's seg and hit are the best one's.  A collision found on the
 * way ends the search.  Returns the best score (0: none).
 */
static int
best_segment (struct dctl *d, int r)
{
  struct dreq *q = &d->req[r];
  int best = 0, i;

  q->seg = DCTL_NONE;
  q->hit = HIT_NOMATCH;
  for (i = 0; i < d->c.nsegs; i++) {
    int s = d->order[i], hit, v;
    if (q->hit == HIT_COLLISION)
      continue;
    v = q->read ? read_score (d, s, r, best, &hit)
                : write_score (d, s, r, &hit);
    if (v > best) {
      q->seg = s;
      q->hit = hit;
      best = v;
    }
  }
  return best;
}

static int
select_read (struct dctl *d, int r)
{
  struct dreq *q = &d->req[r];
  int best = best_segment (d, r);

  /* A read-ahead with no request behind it gives way only if it can
     be stopped. */
  if (best == 1 && !dseg_stopable (d, r))
    q->seg = DCTL_NONE;
  return q->seg;
}

/* The last write among a segment's requests (DiskSim takes the first
 * request, then any write after it).
 */
static int
last_write (const struct dctl *d, int s)
{
  int h = first_req (d, s), r;

  for (r = d->req[h].seg_next; r != DCTL_NONE; r = d->req[r].seg_next)
    if (!d->req[r].read)
      h = r;
  return h;
}

static int
first_write (const struct dctl *d, int s)
{
  int r = first_req (d, s);

  while (r != DCTL_NONE && d->req[r].read)
    r = d->req[r].seg_next;
  return r;
}

/* Write r into a segment already dirty or being written: appending to
 * its data, or prepending to it.
 */
static int
combine_score (struct dctl *d, int s, int r, int *hit)
{
  const struct dseg *sg = &d->seg[s];
  const struct dreq *q = &d->req[r];
  const struct dreq *h = &d->req[last_write (d, s)];
  int o = dseg_owner (d, s, false), fw;

  if (o != DCTL_NONE && q->blkno == req_end (h) && q->blkno == sg->end
      && sg->size > q->blkno - d->req[o].inblkno) {
    *hit = HIT_APPEND;
    return sg->state == SEG_WRITING ? 7 : 6;
  }
  fw = first_write (d, s);
  if (sg->state == SEG_DIRTY && fw != DCTL_NONE) {
    const struct dreq *f = &d->req[fw];
    if (f->blkno == req_end (q) && f->blkno == sg->start
        && (sg->start == sg->end || sg->hold_bcount == 0)
        && sg->size >= sg->end - sg->start + q->bcount
        && (d->extradisc == DCTL_NONE || d->req[d->extradisc].seg != s)) {
      *hit = HIT_PREPEND;
      return 5;
    }
  }
  collide_if_overlap (d, s, r);
  return -1;
}

static int
write_score (struct dctl *d, int s, int r, int *hit)
{
  const struct dseg *sg = &d->seg[s];
  bool room = d->numdirty < d->c.wsegs;
  int f = first_req (d, s);

  *hit = HIT_NOMATCH;
  if (d->c.dedicated && s != d->wseg) {
    if ((sg->state == SEG_CLEAN && f != DCTL_NONE)
        || (sg->state == SEG_READING
            && (d->req[f].io || d->req[f].seg_next != DCTL_NONE
                || !dseg_stopable (d, r))))
      collide_if_overlap (d, s, r);
    return -1;
  }
  switch (sg->state) {
  case SEG_EMPTY:
    return room ? 3 : -1;
  case SEG_READING:
    if (!d->req[f].io && d->req[f].seg_next == DCTL_NONE)
      return room ? 1 : -1;
    collide_if_overlap (d, s, r);
    return -1;
  case SEG_CLEAN:
    if (f == DCTL_NONE) {
      if (!room)
        return -1;
      return dseg_overlap (sg, d->req[r].blkno, d->req[r].bcount) ? 4 : 2;
    }
    collide_if_overlap (d, s, r);
    return -1;
  }
  if (!d->c.combine || sg->outstate == OUT_TRANSFERING) {
    collide_if_overlap (d, s, r);
    return -1;
  }
  return combine_score (d, s, r, hit);
}

static int
select_write (struct dctl *d, int r)
{
  struct dreq *q = &d->req[r];
  int best = best_segment (d, r);

  if (best == 1 && !dseg_stopable (d, r)) {
    if (dseg_overlap (&d->seg[q->seg], q->blkno, q->bcount))
      q->hit = HIT_COLLISION;
    q->seg = DCTL_NONE;
  }
  return q->seg;
}

/* Choose r's segment (its seg and hit).  'set_extradisc': on arrival,
 * mark a write that follows a write elsewhere in the most recently
 * used segment for DiskSim's extra write disconnect.
 */
int
dseg_select (struct dctl *d, int r, bool set_extradisc)
{
  struct dreq *q = &d->req[r];
  int s = q->read ? select_read (d, r) : select_write (d, r);

  if (set_extradisc && d->c.extra_disc && !d->c.never_disc
      && d->extradisc == DCTL_NONE && !q->read && s != DCTL_NONE
      && s == d->order[d->c.nsegs - 1] && d->seg[s].acc.exists
      && !d->seg[s].acc.read && q->blkno != d->seg[s].end)
    q->flags |= RQ_EXTRA_DISC;
  return s;
}

/* ---- taking a segment ---- */

static void
move_to_end (struct dctl *d, int s)
{
  int i, n = d->c.nsegs;

  for (i = 0; i < n && d->order[i] != s; i++)
    ;
  for (; i + 1 < n; i++)
    d->order[i] = d->order[i + 1];
  d->order[n - 1] = s;
}

static void
insert_sorted (struct dctl *d, int s, int r)
{
  int *p = &d->seg[s].reqs;

  while (*p != DCTL_NONE
         && !(d->req[*p].io && d->req[r].blkno < d->req[*p].blkno))
    p = &d->req[*p].seg_next;
  d->req[r].seg_next = *p;
  *p = r;
}

/* r takes the segment it selected (disk_buffer_set_segment). */
void
dseg_set (struct dctl *d, int r)
{
  struct dreq *q = &d->req[r];
  int s = q->seg, i;
  struct dseg *sg = &d->seg[s];

  move_to_end (d, s);
  if (!q->read)                 /* clean copies of what it overwrites */
    for (i = 0; i < d->c.nsegs; i++) {
      struct dseg *t = &d->seg[i];
      if (i != s && t->state == SEG_CLEAN && t->reqs == DCTL_NONE
          && dseg_overlap (t, q->blkno, q->bcount))
        t->state = SEG_EMPTY;
    }
  if (sg->reqs == DCTL_NONE && !sg->acc.exists)
    sg->acc = (struct daccess) {
      .exists = true, .type = ACC_NONE, .read = q->read,
      .blkno = q->blkno, .bcount = (int) q->bcount, .time = d->now,
    };
  insert_sorted (d, s, r);
  q->watermark = dseg_watermark (d, sg->size, q->bcount, q->read);
}

/* A request ahead of r in the segment still writing. */
static void
own_read (struct dctl *d, int s, int r)
{
  struct dseg *sg = &d->seg[s];
  struct dreq *q = &d->req[r];

  if (q->hit == HIT_NOMATCH) {
    sg->state = SEG_CLEAN;
    sg->acc.blkno = q->outblkno;
    sg->start = sg->end = q->outblkno;
    sg->minra = sg->maxra = -1;
    sg->hold_bcount = 0;
  }
  if (q->io) {
    int64_t sectors = (int64_t) d->g->sectors;
    sg->minra = max_i64 (sg->minra,
                         min_i64 (req_end (q) + d->c.ra_min, sectors));
    sg->maxra = max_i64 (sg->maxra,
                         min_i64 (dseg_max_readahead (d, s, r), sectors));
    if (sg->end >= req_end (q) && d->effhda == r)
      sg->acc.background = true;
  }
}

static void
own_write (struct dctl *d, int s, int r)
{
  struct dseg *sg = &d->seg[s];
  struct dreq *q = &d->req[r];

  if (d->effhda == DCTL_NONE || d->effhda == r
      || d->req[d->effhda].seg != s) {
    if (sg->acc.type == ACC_NONE)
      sg->acc.blkno = q->inblkno;
    if (q->flags & RQ_COMPL_RECV)
      sg->acc.background = true;
  }
  if (q->hit == HIT_NOMATCH) {
    sg->minra = sg->maxra = -1;
    sg->hold_bcount = 0;
    sg->start = sg->end = q->inblkno;
    sg->state = SEG_DIRTY;
    d->numdirty++;
  }
  else if (q->hit == HIT_PREPEND)
    sg->start = sg->end = q->inblkno;
}

/* r becomes the segment's owner unless another owns it
 * (disk_buffer_attempt_seg_ownership); a prepending write takes it
 * from the write it prepends to, whose data the segment holds aside.
 */
bool
dseg_own (struct dctl *d, int r)
{
  struct dreq *q = &d->req[r];
  int s = q->seg, t;
  struct dseg *sg = &d->seg[s];

  for (t = sg->reqs; t != DCTL_NONE; t = d->req[t].seg_next) {
    if (!(d->req[t].flags & RQ_SEG_OWNED))
      continue;
    if (q->hit != HIT_PREPEND)
      return false;
    d->req[t].flags &= ~RQ_SEG_OWNED;
    d->req[t].hit = HIT_APPEND;
    if (sg->end != sg->start) {
      sg->hold_blkno = sg->start;
      sg->hold_bcount = sg->end - sg->start;
    }
  }
  q->flags |= RQ_SEG_OWNED;
  if (q->io && (d->effhda == DCTL_NONE || d->effhda == r
                || d->req[d->effhda].seg != s)) {
    sg->acc.read = q->read;
    sg->acc.background = false;
  }
  if (!q->io || q->read)
    own_read (d, s, r);
  else
    own_write (d, s, r);
  return true;
}

/* Segment s has lost its owner: a reader holding the arm that is not
 * the effective one, else an appending write, else the effective
 * request if it uses s (disk_find_new_seg_owner).
 */
void
dseg_new_owner (struct dctl *d, int s)
{
  int r, best = DCTL_NONE;

  for (r = d->seg[s].reqs; r != DCTL_NONE; r = d->req[r].seg_next) {
    const struct dreq *q = &d->req[r];
    if (q->flags & RQ_SEG_OWNED)
      return;
    if (best == DCTL_NONE && r != d->effhda && (q->flags & RQ_HDA_OWNED)
        && q->io && q->read)
      best = r;
  }
  if (best == DCTL_NONE)
    for (r = d->seg[s].reqs; r != DCTL_NONE; r = d->req[r].seg_next)
      if (d->req[r].hit == HIT_APPEND) {
        best = r;
        break;
      }
  if (best != DCTL_NONE)
    dseg_own (d, best);
  else if (d->effhda != DCTL_NONE && d->req[d->effhda].seg == s)
    dseg_own (d, d->effhda);
}

/* ---- whether the arm's work may give way ---- */

static bool
is_best_next (struct dctl *d, int r)
{
  int b = dctl_next_queued (d);

  return b == DCTL_NONE || b == r;
}

/* The effective request's read, stopped for r: the seek under way ends
 * where it was going, the sector under way (with 'Stop prefetch in
 * sector' = 0) ends too, else it stops at once.
 */
static bool
stop_reading (struct dctl *d, int s)
{
  struct dseg *sg = &d->seg[s];
  struct daccess *a = &sg->acc;

  if (a->type == ACC_GOT_REMAP || a->type == ACC_GOTO_REMAP) {
    sg->outstate = OUT_PREEMPT;
    return false;
  }
  if (a->type == ACC_NONE)
    return true;
  if (!d->c.disc_in_seek
      && (a->type == ACC_SEEKDONE || !d->c.stop_in_sector)) {
    dctl_unschedule_access (d, s);
    if (a->type == ACC_SEEKDONE) {
      uint64_t cyl, head, sector;
      bool remapped;
      dlay_ltop (d, a->blkno, &cyl, &head, &sector, &remapped);
      a->cause = (int64_t) sector;
      a->time = sg->time + dmech_seek (d, cyl, head, a->read);
      d->cyl = cyl;
      d->head = head;
    }
    d->seek_stop = a->time;
    a->type = ACC_NONE;
    return true;
  }
  if (a->type == ACC_SEEKDONE || !d->c.stop_in_sector) {
    sg->outstate = OUT_PREEMPT;
    return false;
  }
  return true;
}

static bool
stopable_reading (struct dctl *d, int s, int r)
{
  struct dseg *sg = &d->seg[s];
  const struct dreq *e = &d->req[d->effhda], *q = &d->req[r];

  if (e->io && sg->end < sg->minra
      && (!q->read || q->seg != s || q->blkno < sg->start
          || q->blkno > sg->end))
    return false;
  if (!q->read && d->c.write_hit_stop
      && dseg_overlap (sg, q->blkno, q->bcount))
    sg->maxra = sg->minra = sg->end;
  if (q->read && d->c.cache && q->seg == s && q->blkno >= sg->start
      && (q->blkno < sg->end || (d->c.almost && q->blkno == sg->end)))
    return is_best_next (d, r);
  if ((!(e->flags & RQ_COMPL_SENT) && d->c.preseek != 2)
      || (!(e->flags & RQ_COMPL_RECV) && d->c.preseek == 0))
    return false;
  if (sg->end < sg->minra) {
    sg->maxra = sg->minra;
    return false;
  }
  return stop_reading (d, s);
}

/* Can the arm's current work give way to r, or take r on
 * (disk_buffer_stopable_access)?  A read-ahead can stop (and may, as
 * a side effect, be cut short by a write over it); a media write takes
 * on a write appending to it.
 */
bool
dseg_stopable (struct dctl *d, int r)
{
  const struct dseg *sg;
  const struct dreq *q = &d->req[r];
  int s;

  if (d->effhda == DCTL_NONE || d->req[d->effhda].seg == DCTL_NONE)
    return false;               /* DiskSim would stop: nothing to stop */
  s = d->req[d->effhda].seg;
  sg = &d->seg[s];
  if (sg->state == SEG_READING)
    return stopable_reading (d, s, r);
  if (sg->state == SEG_WRITING && q->hit == HIT_APPEND && q->seg == s
      && sg->end == q->blkno
      && (d->c.fastwrite != 1 || dctl_pending_one (d)))
    return is_best_next (d, r);
  return false;
}

/* Whether the queue may start r now (disk_enablement_function): it
 * has a segment or could get one, not one being written by another.
 */
bool
dseg_enabled (struct dctl *d, int r)
{
  struct dreq *q = &d->req[r];

  if (q->read) {
    int s = q->seg;
    if (s != DCTL_NONE)
      return d->seg[s].state != SEG_WRITING && d->seg[s].state != SEG_DIRTY;
    s = dseg_select (d, r, false);
    if (s == DCTL_NONE)
      return false;
    q->hit = HIT_NOMATCH;
    q->seg = DCTL_NONE;
    return d->seg[s].state != SEG_WRITING && d->seg[s].state != SEG_DIRTY;
  }
  if (q->seg != DCTL_NONE) {
    int o;
    if (q->flags & RQ_SEG_OWNED)
      return true;
    o = dseg_owner (d, q->seg, false);
    if (o == DCTL_NONE)
      o = first_write (d, q->seg);
    return o == r || req_end (q) - d->req[o].inblkno <= d->seg[q->seg].size
      || d->req[o].inblkno == q->blkno;
  }
  if (dseg_select (d, r, false) == DCTL_NONE)
    return false;
  if (q->hit == HIT_APPEND) {
    int o = dseg_owner (d, q->seg, false);
    if (req_end (q) - d->req[o].inblkno > d->seg[q->seg].size
        && d->req[o].inblkno != q->blkno) {
      q->hit = HIT_NOMATCH;
      q->seg = DCTL_NONE;
      return false;
    }
  }
  q->hit = HIT_NOMATCH;
  q->seg = DCTL_NONE;
  return true;
}
