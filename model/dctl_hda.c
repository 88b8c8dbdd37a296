/* hddsim: the mechanism under DiskSim's disk controller (dctl.h;
 * src/disksim_diskctlr.c, read for the facts): which request holds the
 * arm (DiskSim's "effective HDA"), its positioning, and its media
 * access one block at a time.
 *
 * An access positions to its first block (seek or head switch, at
 * least the write's minimum seek delay), waits for it to come round
 * (from the platter's fixed-point angle, dctl_mech.c), then steps
 * through the track's blocks one sector time each.  At each step the
 * block the head is entering is decided (readable into the segment, or
 * its data there to write: else the head lets it pass) and the one it
 * has passed is credited.  At the track's end it positions to the next
 * track.  Note DiskSim's steps go by block, not by sector: a slipped
 * or spare sector on the track costs no time.
 */

#include "dctl.h"
#include "../common/u64.h"

/* The livelock DiskSim's own check stops (its fpcheck, 6000 sector
 * steps without a new access).
 */
#define SPINS_MAX 6000

static int64_t
req_end (const struct dreq *r)
{
  return r->blkno + r->bcount;
}

static struct dseg *
seg_of (struct dctl *d, int r)
{
  return &d->seg[d->req[r].seg];
}

/* The segment's access starts positioning (disk_initiate_seek): after
 * 'delay', for at least 'mintime'.  A read-ahead that reads to the
 * end of its track (cylinder) stops instead of leaving it.
 */
static bool
initiate_seek (struct dctl *d, int s, bool first, uint64_t delay,
               uint64_t mintime)
{
  struct dseg *sg = &d->seg[s];
  struct daccess *a = &sg->acc;
  uint64_t cyl, head, sector, seek, dist;
  bool remapped;

  a->type = ACC_NONE;
  sg->time = d->now + delay;
  dlay_ltop (d, a->blkno, &cyl, &head, &sector, &remapped);
  dist = cyl > d->cyl ? cyl - d->cyl : d->cyl - cyl;
  a->cause = (int64_t) sector;
  seek = dmech_seek (d, cyl, head, a->read);
  if (seek < mintime)
    sg->time += mintime - seek;
  a->time = sg->time + seek;
  if (a->background && a->read) {
    if (d->c.contread == 2 && dist != 0)
      return false;
    if (d->c.contread == 1 && (dist != 0 || d->head != head))
      return false;
  }
  if (first && d->effhda == d->host && !d->positioned) {
    d->positioned = true;
    d->first_seek = seek;
    d->seek_cyls = dist;
    d->first_latency = UINT64_MAX;   /* seekdone fills it in */
  }
  a->type = ACC_SEEKDONE;
  dctl_schedule (d, a->time, EV_ACCESS, s, NULL);
  TR (d, "seek to %ld (%lu cyl) seek %.6f start %.6f",
         (long) a->blkno, (unsigned long) dist, seek / 1e9, sg->time / 1e9);
  return true;
}

/* The head is on the track: wait for the first block's sector. */
static void
seekdone (struct dctl *d, int s)
{
  struct dseg *sg = &d->seg[s];
  struct daccess *a = &sg->acc;
  uint64_t cyl, head, sector, lat;
  int64_t first, last;
  uint32_t theta;
  bool remapped;

  dlay_ltop (d, a->blkno, &cyl, &head, &sector, &remapped);
  d->cyl = cyl;
  d->head = head;
  a->time = d->now;
  if (sg->outstate == OUT_PREEMPT) {
    a->type = ACC_NONE;
    dhda_release (d, d->effhda);
    return;
  }
  dlay_track (d, cyl, head, &first, &last);
  if (a->blkno < first || a->blkno > last)
    TR (d, "DISKSIM-FAIL seekdone %ld not in %ld-%ld",
           (long) a->blkno, (long) first, (long) last);
  d->track_low = first;
  d->track_high = last;
  sg->time = d->now;
  theta = d->theta + dmech_rotate (d, (sg->time - d->currtime) % d->c.period);
  lat = dmech_latency (d, theta, cyl, head, (uint64_t) a->cause);
  if (d->first_latency == UINT64_MAX)
    d->first_latency = lat;
  a->time = sg->time + lat;
  d->immedstart = d->immedend = last + 1;
  a->blkno = dlay_ptol (d, cyl, head, (uint64_t) a->cause, &remapped);
  a->type = ACC_SECTOR;
  a->bcount = 0;
  TR (d, "seekdone blk %ld track %ld-%ld latency %.6f",
         (long) a->blkno, (long) first, (long) last, lat / 1e9);
  dctl_schedule (d, a->time, EV_ACCESS, s, NULL);
}

/* The block just passed (the one before blkno on the track, going
 * round), and whether it was a block at all.
 */
static int64_t
block_passed (struct dctl *d, int64_t blkno)
{
  int64_t b = blkno > d->track_low ? blkno - 1 : d->track_high;
  uint64_t cyl, head, sector;
  bool remapped;

  dlay_ltop (d, b, &cyl, &head, &sector, &remapped);
  return remapped ? -1 : b;
}

/* Zero-latency bookkeeping of a block passed that was not the next
 * wanted (DiskSim's immedstart/immedend; with its g1 layout the head
 * always starts at the wanted block, so little of it runs).
 */
static int64_t
credit_other (struct dctl *d, struct dseg *sg, const struct dreq *e,
              int64_t cur, int64_t firstblk, int64_t lastblk, int64_t next)
{
  if (cur < sg->start) {        /* reading before the request: Read any
                                   free blocks (DiskSim asserts it) */
    sg->start = cur;
    return cur + 1;
  }
  if (d->immed && d->immedstart >= next) {
    if (cur >= lastblk) {
      if (sg->state == SEG_READING && d->c.contread != 0
          && cur < e->inblkno) {
        d->immedstart = cur;
        d->immedend = cur + 1;
      }
    }
    else if (cur > firstblk) {
      d->immedstart = cur;
      d->immedend = cur + 1;
    }
  }
  else if (cur == d->immedend && (cur < lastblk || cur < e->inblkno)) {
    d->immedend++;
    dseg_wrap (sg, d->immedend);
  }
  else if (cur > d->immedend && cur < lastblk) {
    d->immedstart = cur;
    d->immedend = cur + 1;
  }
  return firstblk;
}

/* The platter's angle at 'now': DiskSim turns it at each step by the
 * time since the last (at the first step after positioning, first by
 * the time since the last step, less whole revolutions).
 */
static void
turn_platter (struct dctl *d, struct dseg *sg, bool first_step)
{
  if (first_step)
    d->theta += dmech_rotate (d, (sg->time - d->currtime) % d->c.period);
  d->theta += dmech_rotate (d, d->now - sg->time);
  d->currtime = d->now;
}

/* The head enters the next block of the track (or, past the
 * request's blocks on it, the next track). */
static void
next_step (struct dctl *d, int s, int n)
{
  struct dseg *sg = &d->seg[s];
  struct daccess *a = &sg->acc;
  uint64_t cyl, head, sector, under = (uint64_t) a->cause;
  int64_t entering, here = a->blkno;
  bool remapped;

  a->blkno = a->blkno < d->track_high ? a->blkno + 1 : d->track_low;
  dlay_ltop (d, a->blkno, &cyl, &head, &sector, &remapped);
  a->cause = (int64_t) sector;
  /* The block DiskSim takes the head to be entering: its own mapping
     back of the sector under it. */
  entering = dlay_ptol (d, d->cyl, d->head, under, &remapped);
  if (remapped)
    entering = -1;
  /* Where DiskSim's two mappings disagree (a zone's slips listed out of
     order, dctl_layout.c), its ptol may call the sector of a block
     unmapped: DiskSim can then never transfer that block and stops
     (its fpcheck).  hddsim takes the block its ltop put there. */
  if (entering == -1 && !remapped)
    entering = here;
  TR (d, "NEXT blk %ld cause %ld currcause %ld (under %lu cyl %lu "
         "head %lu)",
         (long) a->blkno, (long) a->cause, (long) entering,
         (unsigned long) under, (unsigned long) d->cyl,
         (unsigned long) d->head);
  sg->time = d->now;
  a->time = d->now + dmech_xfertime (d, dlay_spt (d, d->track_low), 1);
  a->bcount = 1;
  if (((d->c.read_direct || !a->read)
       && !dseg_block_available (d, s, entering)) || entering < 0)
    a->bcount = 2;
  (void) n;
  dctl_schedule (d, a->time, EV_ACCESS, s, NULL);
}

/* One block's time has passed under the head (disk_buffer_sector_done). */
static void
sector_done (struct dctl *d, int s)
{
  int n = d->effhda;
  struct dseg *sg = &d->seg[s];
  struct daccess *a = &sg->acc;
  struct dreq *e = &d->req[n];
  int64_t next = d->track_high + 1, firstblk, lastblk;
  int64_t cur = block_passed (d, a->blkno);
  uint64_t step_start = sg->time;

  if (++d->spins > SPINS_MAX) {
    if (!d->livelock)
      TR (d, "DISKSIM-FAIL fpcheck");
    d->livelock = true;
  }
  if (cur < 0 && a->bcount)
    a->bcount = 2;
  turn_platter (d, sg, a->bcount == 0);
  if (!d->c.read_direct && a->read && a->bcount == 1
      && !dseg_block_available (d, s, cur))
    a->bcount = 2;
  if (sg->state == SEG_READING) {
    firstblk = sg->end;
    lastblk = min_i64 (a->background ? sg->maxra : req_end (e), next);
  }
  else {
    firstblk = e->inblkno;
    lastblk = min_i64 (sg->end, next);
  }
  TR (d, "SD blk %ld cur %ld bcount %d first %ld last %ld seg "
         "[%ld,%ld) state %d bg %d maxra %ld minra %ld",
         (long) a->blkno, (long) cur, a->bcount, (long) firstblk,
         (long) lastblk, (long) sg->start, (long) sg->end, sg->state,
         a->background, (long) sg->maxra, (long) sg->minra);
  if (d->livelock) {
    /* DiskSim 4.0 stops here (its fpcheck: the head has stepped round
       this long without a block it could take, where its mappings
       disagree): hddsim lets the access have what it waits for. */
    firstblk = max_i64 (firstblk, lastblk);
    d->livelock = false;
    d->spins = 0;
  }
  else if (a->bcount == 1) {
    if (cur == firstblk) {
      if (sg->state != SEG_READING)
        dctl_report_write (d, cur, step_start, d->now);
      firstblk++;
      if (firstblk == d->immedstart) {
        firstblk = d->immedend;
        d->immedstart = d->immedend = next + 1;
      }
    }
    else
      firstblk = credit_other (d, sg, e, cur, firstblk, lastblk, next);
  }
  if (sg->outstate == OUT_TRANSFERING)
    dbus_update_out (d, s);
  if (sg->state == SEG_READING)
    sg->end = firstblk;
  else
    e->inblkno = firstblk;
  dseg_wrap (sg, sg->end);
  if (dhda_step_done (d, n))
    return;
  if (firstblk >= next) {
    a->blkno = next;
    if (!initiate_seek (d, s, false, 0, 0))
      dhda_release (d, n);
    return;
  }
  next_step (d, s, n);
}

static bool
preseek_allows_next (const struct dctl *d, const struct dreq *q)
{
  return d->c.preseek == 2 || (q->flags & RQ_COMPL_RECV)
    || (d->c.preseek == 1 && (q->flags & RQ_COMPL_SENT));
}

/* The read-ahead may give way: let the queue's request have the arm.
 * True if it took it (the caller's access is over).
 */
static bool
offer_arm (struct dctl *d, int n, struct dseg *sg)
{
  int hold = sg->acc.type;

  sg->acc.type = ACC_NONE;
  dhda_prefetch_swap (d);
  if (sg->outstate == OUT_PREEMPT || d->effhda != n)
    return true;
  sg->acc.type = hold;
  return false;
}

/* After a media step of request n (disk_buffer_request_complete): the
 * bus may take what is in, the request's media part may be over (a
 * read going on as read-ahead), another request may take the arm.
 * True when n's access is over.
 */
bool
dhda_step_done (struct dctl *d, int n)
{
  struct dreq *q = &d->req[n];
  struct dseg *sg = seg_of (d, n);
  bool background = sg->acc.background, reading = sg->state == SEG_READING;
  bool done = false, water = false;

  if (d->outwait) {
    d->outwait = false;
    d->outwait_msg.bcount = 0;
    dctl_schedule (d, d->now, EV_XFER, DCTL_NONE, &d->outwait_msg);
  }
  if (reading) {
    if (background)
      done = sg->end >= sg->maxra;
    else {
      water = sg->end - q->outblkno >= q->watermark;
      done = sg->end >= req_end (q);
    }
  }
  else if (background)
    done = sg->end == q->inblkno;
  else {
    water = sg->end - q->inblkno <= q->watermark && sg->end < req_end (q);
    done = q->inblkno >= req_end (q);
  }
  if ((background && done && reading) || sg->outstate == OUT_PREEMPT) {
    sg->acc.type = ACC_NONE;
    dhda_release (d, n);
    return true;
  }
  if (!background && sg->outstate == OUT_IDLE && (done || water))
    dbus_check (d, n);
  if (background && reading && sg->end == sg->minra
      && preseek_allows_next (d, q)) {
    if (offer_arm (d, n, sg))
      return true;
  }
  else if ((!background || !reading) && done) {
    if (!reading || d->c.contread == 0 || sg->end >= sg->maxra)
      sg->acc.type = ACC_NONE;
    else {
      sg->acc.background = true;
      done = false;
    }
    if (!done && preseek_allows_next (d, q) && offer_arm (d, n, sg))
      return true;
  }
  if (done) {
    if (!reading) {
      dctl_queue_done (d, n);
      if (!(q->flags & RQ_COMPL_SENT) && sg->outstate == OUT_IDLE)
        dbus_check (d, n);
    }
    sg->acc.type = ACC_NONE;
    dhda_release (d, n);
  }
  return done;
}

void
dhda_access_event (struct dctl *d, int s)
{
  switch (d->seg[s].acc.type) {
  case ACC_SEEKDONE:
    seekdone (d, s);
    break;
  case ACC_SECTOR:
    sector_done (d, s);
    break;
  default:
    break;
  }
}

/* ---- who holds the arm ---- */

/* Whether the segment stays dirty (another write in it has data not
 * yet on the media), and a limited fast write appending to r that
 * takes the arm next.
 */
static bool
still_dirty (struct dctl *d, int s, int r, int *next)
{
  int t;

  for (t = d->seg[s].reqs; t != DCTL_NONE; t = d->req[t].seg_next) {
    const struct dreq *q = &d->req[t];
    if (t == r || !q->io || q->read || q->inblkno >= req_end (q))
      continue;
    if (q->hit == HIT_APPEND && d->c.fastwrite == 1
        && q->blkno == req_end (&d->req[r]))
      *next = t;
    return true;
  }
  return false;
}

static bool
preseek_allows (const struct dctl *d, const struct dreq *q)
{
  return d->c.preseek == 2
    || (d->c.preseek == 1 && (q->flags & RQ_COMPL_SENT));
}

/* r gives up the arm, and its structures if it is over
 * (disk_release_hda); the next request may take the arm.
 */
void
dhda_release (struct dctl *d, int r)
{
  struct dreq *q = &d->req[r];
  int s = q->seg, next = DCTL_NONE;
  struct dseg *sg = &d->seg[s];
  bool release = false, free_it = false;
  bool shared = sg->reqs != DCTL_NONE
                && d->req[sg->reqs].seg_next != DCTL_NONE;

  TR (d, "release %d io %d seg %d [%ld,%ld)",
         r, q->io, s, (long) sg->start, (long) sg->end);

  if (!q->io) {                 /* a read-ahead alone */
    release = free_it = true;
    sg->state = d->c.cache || shared ? SEG_CLEAN : SEG_EMPTY;
  }
  else if (q->read) {
    if (preseek_allows (d, q)) {
      release = true;
      /* DiskSim assigns a truth value here: 1, its BUFFER_EMPTY. */
      sg->state = SEG_EMPTY;
    }
  }
  else if ((q->flags & RQ_COMPL_RECV) || preseek_allows (d, q)) {
    release = true;
    free_it = (q->flags & RQ_COMPL_RECV) != 0;
    if (still_dirty (d, s, r, &next))
      sg->state = SEG_DIRTY;
    else {
      if (shared)
        sg->state = SEG_CLEAN;
      else
        sg->state = d->c.cache && d->c.hits_on_write ? SEG_CLEAN : SEG_EMPTY;
      d->numdirty--;
    }
  }
  if (free_it) {
    dseg_remove (d, r);
    dctl_free_req (d, r);
    if (sg->reqs != DCTL_NONE)
      dseg_new_owner (d, s);
  }
  if (release) {
    if (d->curhda == d->effhda)
      d->curhda = DCTL_NONE;
    d->effhda = DCTL_NONE;
    dhda_check (d, next, true);
  }
}

/* Stop the read-ahead that holds the arm (disk_buffer_stop_access). */
static void
stop_access (struct dctl *d)
{
  int e = d->effhda, s = d->req[e].seg;
  struct dseg *sg = &d->seg[s];
  bool shared = d->req[sg->reqs].seg_next != DCTL_NONE;
  TR (d, "stop_access %d", e);
  bool recv = (d->req[e].flags & RQ_COMPL_RECV) != 0;

  if (sg->acc.type != ACC_NONE) {
    dctl_unschedule_access (d, s);
    sg->acc.type = ACC_NONE;
  }
  sg->state = !recv || d->c.cache || shared ? SEG_CLEAN : SEG_EMPTY;
  if (recv) {
    dseg_remove (d, e);
    dctl_free_req (d, e);
    if (sg->reqs != DCTL_NONE)
      dseg_new_owner (d, s);
  }
  d->effhda = d->curhda = DCTL_NONE;
}

/* r, a hit on the read-ahead that holds the arm, takes it over
 * (disk_buffer_attempt_access_swap): the read goes on for r.
 */
static bool
access_swap (struct dctl *d, int r)
{
  int e = d->effhda, s = d->req[e].seg;
  struct dseg *sg = &d->seg[s];
  struct dreq *q = &d->req[r], *ef = &d->req[e];
  int64_t sectors = (int64_t) d->g->sectors;

  if (e != d->curhda || !sg->acc.background
      || (ef->io && ef->blkno >= q->blkno))
    return false;
  if (ef->flags & RQ_COMPL_RECV) {
    dseg_remove (d, e);
    dctl_free_req (d, e);
  }
  else {
    sg->acc.read = q->read;
    sg->acc.background = false;
    sg->minra = max_i64 (sg->minra, min_i64 (req_end (q) + d->c.ra_min,
                                             sectors));
    sg->maxra = max_i64 (sg->maxra,
                         min_i64 (dseg_max_readahead (d, s, r), sectors));
    if (sg->end >= req_end (q) && sg->end < sg->maxra)
      sg->acc.background = true;
  }
  d->effhda = d->curhda = DCTL_NONE;
  return true;
}

static void
take_segment (struct dctl *d, int r, bool setseg)
{
  struct dreq *q = &d->req[r];

  if (q->seg != DCTL_NONE && setseg) {
    if (d->effhda != DCTL_NONE) {
      q->seg = DCTL_NONE;
      q->hit = HIT_NOMATCH;
    }
    else
      dseg_set (d, r);
  }
  if (q->seg != DCTL_NONE && !(q->flags & RQ_SEG_OWNED))
    dseg_own (d, r);
}

/* A request wants the arm (disk_activate_read/write): the read-ahead
 * holding it stops or, for a hit on it, hands it over; a media write
 * goes on for a write appending to it.  'setseg': r's segment is only
 * chosen, to be taken if r gets the arm now.
 */
void
dhda_activate (struct dctl *d, int r, bool setseg, bool check_bus)
{
  struct dreq *q = &d->req[r];
  int e = d->effhda;

  if (!(q->flags & RQ_HDA_OWNED) && e != DCTL_NONE && e != r) {
    if (q->read) {
      if (q->hit != HIT_COLLISION
          && (q->seg == DCTL_NONE || d->seg[q->seg].state != SEG_DIRTY)
          && dseg_stopable (d, r)) {
        if (q->seg != d->req[e].seg || q->hit == HIT_NOMATCH)
          stop_access (d);
        else
          access_swap (d, r);
      }
    }
    else if (dseg_stopable (d, r)
             && (q->seg != d->req[e].seg || q->hit != HIT_APPEND))
      stop_access (d);
  }
  take_segment (d, r, setseg);
  if (!(q->flags & RQ_HDA_OWNED) && q->hit != HIT_COLLISION)
    dhda_check (d, r, check_bus);
}

/* A read-ahead holds the arm: let the request the queue offers have it
 * if it may (disk_check_prefetch_swap).
 */
void
dhda_prefetch_swap (struct dctl *d)
{
  int n = dctl_next_queued (d);
  bool setseg = false;

  if (n == DCTL_NONE)
    return;
  if (d->req[n].seg == DCTL_NONE) {
    setseg = true;
    dseg_select (d, n, false);
  }
  dhda_activate (d, n, setseg, true);
}

/* Find the request to take the arm: the current one, r, or the one
 * the queue offers (disk_get_effectivehda).
 */
static void
get_effective (struct dctl *d, int r)
{
  int n = r;
  struct dreq *q;

  if (d->curhda != DCTL_NONE) {
    d->effhda = d->curhda;
    return;
  }
  if (n != DCTL_NONE && d->req[n].io && !dseg_enabled (d, n))
    n = DCTL_NONE;
  if (n == DCTL_NONE)
    n = dctl_next_queued (d);
  if (n == DCTL_NONE)
    return;
  q = &d->req[n];
  if (q->seg != DCTL_NONE && !(q->flags & RQ_SEG_OWNED))
    dseg_own (d, n);
  if (q->seg == DCTL_NONE && dseg_select (d, n, false) != DCTL_NONE) {
    dseg_set (d, n);
    dseg_own (d, n);
  }
  if (q->seg != DCTL_NONE)
    q->queued = false;          /* the queue hands it over */
  d->curhda = d->effhda = n;
  q->flags |= RQ_HDA_OWNED;
}

/* A request with data to move takes the arm: read what the segment
 * lacks, or write what it holds (the rest of disk_check_hda).
 */
static void
start_pending (struct dctl *d, int n, bool check_bus, uint64_t *mintime,
               bool *release, bool *seek)
{
  struct dreq *q = &d->req[n];
  int s = q->seg;
  struct dseg *sg = &d->seg[s];
  struct daccess *a = &sg->acc;
  int64_t sectors = (int64_t) d->g->sectors;

  a->read = q->read;
  a->background = false;
  if (q->read) {
    int64_t maxra = dseg_max_readahead (d, s, n);
    if (a->type == ACC_NONE)
      a->blkno = sg->end;
    sg->minra = max_i64 (sg->minra, min_i64 (req_end (q) + d->c.ra_min,
                                             sectors));
    sg->maxra = max_i64 (sg->maxra, min_i64 (maxra, sectors));
    d->immed = d->c.immed_read;
    sg->state = SEG_READING;
    if (sg->end < req_end (q) || sg->start > q->outblkno)
      *seek = true;
    else if (sg->end < max_i64 (sg->maxra, maxra)) {
      a->background = true;
      if (d->c.ra_idle_hit)
        *seek = true;
    }
    else
      *release = true;
    if (a->type != ACC_NONE)
      *seek = *release = false;
  }
  else {
    /* Only a write streaming on from the one just written (at once,
       its last block written) skips the minimum seek delay. */
    if (q->hit != HIT_APPEND || a->read || a->blkno != q->blkno
        || a->bcount != 1 || a->time != d->now)
      *mintime = d->c.min_seek;
    a->blkno = q->inblkno;
    if (q->flags & RQ_COMPL_RECV)
      a->background = true;
    d->immed = d->c.immed_write;
    if (sg->state != SEG_WRITING && sg->state != SEG_DIRTY)
      d->numdirty++;
    sg->state = SEG_WRITING;
    if (q->inblkno < req_end (q))
      *seek = true;
    else
      *release = true;
  }
  if (check_bus && d->extradisc != n)
    dbus_check (d, n);
}

/* If the arm is free, give it to r or to whoever should have it, and
 * start its media access (disk_check_hda).
 */
void
dhda_check (struct dctl *d, int r, bool check_bus)
{
  bool seek = false, release = false;
  uint64_t mintime = 0, delay = 0;
  struct dseg *sg;
  int n;

  d->spins = 0;
  if (d->effhda != DCTL_NONE)
    return;
  get_effective (d, r);
  if (d->effhda == DCTL_NONE)
    return;
  n = d->effhda;
  TR (d, "check_hda effhda %d io %d seg %d", n, d->req[n].io, d->req[n].seg);
  if (d->req[n].seg == DCTL_NONE) {
    /* DiskSim asserts a segment here; give the arm back. */
    d->req[n].flags &= ~RQ_HDA_OWNED;
    d->req[n].queued = true;
    d->curhda = d->effhda = DCTL_NONE;
    return;
  }
  sg = seg_of (d, n);
  if (d->req[n].io)
    start_pending (d, n, check_bus, &mintime, &release, &seek);
  else {                        /* read-ahead alone */
    sg->state = SEG_READING;
    if (sg->end < sg->maxra) {
      if (sg->acc.type == ACC_NONE)
        sg->acc.blkno = sg->end;
      sg->acc.read = true;
      sg->acc.background = true;
      d->immed = d->c.immed_read;
      seek = sg->acc.type == ACC_NONE;
    }
    else
      release = true;
  }
  if (seek) {
    if (d->req[n].overhead_done > d->now)
      delay += d->req[n].overhead_done - d->now;
    if (d->seek_stop > d->now)
      delay += d->seek_stop - d->now;
    if (!initiate_seek (d, d->req[n].seg, true, delay, mintime))
      dhda_release (d, n);
  }
  else if (release)
    dhda_release (d, n);
  if (!release && sg->state == SEG_READING && sg->acc.background)
    dhda_prefetch_swap (d);
}
