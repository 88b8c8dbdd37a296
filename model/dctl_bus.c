/* hddsim: the bus under DiskSim's disk controller (dctl.h;
 * src/disksim_diskctlr.c, read for the facts): the disk sends the host
 * an interrupt (reconnect, disconnect, completion), each after its
 * overhead, and the host's answer comes back at once (DiskSim's driver
 * and pass-through controller take no time); data crosses a block at a
 * time at the bus's block time, in chunks of what the segment holds.
 *
 * A read reconnects once its water mark of blocks is in (or all it
 * wants), a write once the media has room for more (its water mark
 * of blocks still to write); when the data runs out the disk keeps the
 * bus ('Hold bus entire read/write xfer', 'Never disconnect') or lets
 * it go, paying a disconnect and later a reselection.
 */

#include "dctl.h"
#include "../common/u64.h"

static int64_t
req_end (const struct dreq *r)
{
  return r->blkno + r->bcount;
}

static uint64_t
block_time (const struct dctl *d, bool read)
{
  return read ? d->c.blk_read : d->c.blk_write;
}

/* An interrupt to the host (disk_send_event_up_path): its answer
 * arrives after 'delay'.
 */
void
dbus_send (struct dctl *d, const struct dmsg *m, uint64_t delay)
{
  d->buswait++;
  d->busowned = true;
  TR (d, "send cause %d bcount %ld delay %.6f",
         m->cause, (long) m->bcount, delay / 1e9);
  dctl_schedule (d, d->now + delay, EV_ANSWER, DCTL_NONE, m);
}

/* What request r has for the bus now, if anything
 * (disk_request_needs_bus): blocks the host may take (a read), room
 * for blocks (a write), or a write's completion once on the media.
 */
static bool
needs_bus (struct dctl *d, int r, bool check_water, struct dmsg *m)
{
  struct dreq *q = &d->req[r];
  struct dseg *sg;
  int64_t n;

  if (d->outstate != BUS_IDLE && !d->outwait)
    return false;
  if (q->seg == DCTL_NONE || !q->io || (q->flags & RQ_COMPL_SENT))
    return false;
  sg = &d->seg[q->seg];
  if (q->read) {
    if (!(sg->end > q->outblkno && sg->start <= q->outblkno
          && (!check_water || sg->end >= req_end (q)
              || sg->end - q->outblkno >= q->watermark)))
      return false;
    n = min_i64 (sg->end, req_end (q)) - q->outblkno;
  }
  else {
    int o = dseg_owner (d, q->seg, false);
    bool fresh = q->outblkno == q->blkno && q->hit != HIT_APPEND;
    const struct dreq *ow = &d->req[o == DCTL_NONE ? r : o];
    if (!(q->inblkno >= req_end (q) || fresh
          || (sg->end == q->outblkno && sg->end < req_end (q)
              && sg->end - ow->inblkno < sg->size
              && (!check_water || sg->end - q->inblkno <= q->watermark))))
      return false;
    n = fresh ? min_i64 (q->bcount, sg->size)
              : min_i64 (req_end (q) - q->outblkno,
                         sg->size - sg->end + ow->inblkno);
  }
  if (d->outwait) {
    *m = d->outwait_msg;
    d->outwait = false;
  }
  else
    *m = (struct dmsg) { CAUSE_RECONNECT, q->blkno, 0, q->read };
  m->bcount = n;
  return true;
}

/* The requests waiting for the bus, best first
 * (disk_select_bus_request): one holding the arm, an appending limited
 * fast write.  DiskSim's sneaky reads and write prebuffering only come
 * with more than one request queued.
 */
static int
select_bus_request (struct dctl *d, struct dmsg *m)
{
  int r, best = DCTL_NONE, best_v = -99;

  for (r = d->pendxfer; r != DCTL_NONE; r = d->req[r].bus_next) {
    const struct dreq *q = &d->req[r];
    struct dmsg cm;
    int v = -100;
    if (q->flags & RQ_HDA_OWNED) {
      if (needs_bus (d, r, true, &cm))
        v = r == d->effhda ? 9 : r == d->curhda ? 8 : 10;
    }
    else if (best_v <= 7 && d->c.fastwrite == 1 && q->hit == HIT_APPEND) {
      if (needs_bus (d, r, true, &cm))
        v = 7;
    }
    if (v >= best_v) {
      best_v = v;
      best = r;
      *m = cm;
    }
  }
  return best;
}

static void
unlink_pending (struct dctl *d, int r)
{
  int *p = &d->pendxfer;

  while (*p != DCTL_NONE && *p != r)
    p = &d->req[*p].bus_next;
  if (*p == r)
    *p = d->req[r].bus_next;
  d->req[r].bus_next = DCTL_NONE;
}

static void
reconnect (struct dctl *d, int n, struct dmsg *m)
{
  uint64_t delay;

  dhda_activate (d, n, false, false);
  if (d->extradisc == n) {
    d->extradisc = DCTL_NONE;
    delay = d->c.resel_first;
  }
  else
    delay = d->req[n].flags & RQ_EXTRA_DISC ? d->c.resel_other
                                             : d->c.resel_first;
  if (m->bcount > 0)
    delay += d->c.data_prep;
  d->seg[d->req[n].seg].outstate = OUT_CONTACTING;
  d->outstate = BUS_WAIT;
  dbus_send (d, m, delay);
}

/* Start bus activity if the bus is free (disk_check_bus): for r, or
 * for whoever should have it.
 */
void
dbus_check (struct dctl *d, int r)
{
  int n = r;
  struct dmsg m;

  if (d->buswait)
    return;
  if (r != DCTL_NONE) {
    if (d->effbus != DCTL_NONE ? d->effbus != r
        : d->curbus != DCTL_NONE && d->curbus != r)
      n = DCTL_NONE;
    if (n != DCTL_NONE && !needs_bus (d, n, true, &m))
      n = DCTL_NONE;
  }
  else if (d->effbus != DCTL_NONE)
    n = needs_bus (d, d->effbus, true, &m) ? d->effbus : DCTL_NONE;
  else if (d->curbus != DCTL_NONE)
    n = needs_bus (d, d->curbus, true, &m) ? d->curbus : DCTL_NONE;
  else
    n = select_bus_request (d, &m);
  if (n == DCTL_NONE)
    return;
  if (n != d->curbus && n != d->effbus)
    unlink_pending (d, n);
  d->curbus = d->effbus = n;
  /* A message saved while waiting for data is a reconnection too. */
  reconnect (d, n, &m);
}

/* How many blocks the next chunk carries (disk_buffer_transfer_size):
 * > 0 a chunk, 0 the request is done, -1 let the bus go, -2 keep it
 * and wait.
 */
static int64_t
read_chunk (struct dctl *d, struct dreq *q, struct dseg *sg)
{
  if (sg->outstate == OUT_TRANSFERING)
    q->outblkno += sg->outbcount;
  if (q->outblkno >= req_end (q)) {
    sg->outstate = OUT_IDLE;
    return 0;
  }
  if (sg->end > q->outblkno) {
    sg->outstate = OUT_TRANSFERING;
    return sg->outbcount = min_i64 (sg->end, req_end (q)) - q->outblkno;
  }
  if (d->c.hold_read || d->c.never_disc) {
    sg->outstate = OUT_TRANSFERING;
    sg->outbcount = 0;
    return -2;
  }
  sg->outstate = OUT_IDLE;
  return -1;
}

static int64_t
write_chunk (struct dctl *d, int r, struct dreq *q, struct dseg *sg)
{
  int o = dseg_owner (d, q->seg, false);
  const struct dreq *ow = &d->req[o == DCTL_NONE ? r : o];

  if (q->outblkno == req_end (q) && q->inblkno >= q->outblkno) {
    sg->outstate = OUT_IDLE;
    return 0;
  }
  if (sg->outstate == OUT_TRANSFERING) {
    q->outblkno += sg->outbcount;
    if (q->blkno < sg->start)
      sg->start = q->blkno;
    if (q->outblkno > sg->end)
      sg->end = q->outblkno;
    if (sg->hold_bcount && sg->end == sg->hold_blkno) {
      sg->end += sg->hold_bcount;
      sg->hold_bcount = 0;
    }
    dseg_wrap (sg, sg->end);
    if (ow->inblkno < sg->start || ow->inblkno > sg->end)
      TR (d, "DISKSIM-FAIL transfer_size owner in %ld seg [%ld,%ld)",
             (long) ow->inblkno, (long) sg->start, (long) sg->end);
    if (q->outblkno >= req_end (q)) {
      sg->outstate = OUT_IDLE;
      return d->c.fastwrite == 0 ? -1 : 0;
    }
  }
  sg->outstate = OUT_TRANSFERING;
  sg->outbcount = min_i64 (sg->size - (q->outblkno - ow->inblkno),
                           req_end (q) - q->outblkno);
  if ((!(q->flags & RQ_SEG_OWNED) && sg->end < q->outblkno)
      || sg->outbcount <= 0) {
    if (d->c.hold_write || d->c.never_disc) {
      sg->outbcount = 0;
      return -2;
    }
    sg->outstate = OUT_IDLE;
    return -1;
  }
  return sg->outbcount;
}

/* The request's completion goes to the host (disk_request_complete). */
void
dbus_request_complete (struct dctl *d, int r)
{
  struct dreq *q = &d->req[r];
  struct dmsg m = { CAUSE_COMPLETION, q->blkno, 0, q->read };
  struct dseg *sg = &d->seg[q->seg];

  d->lastread = q->read;
  q->flags |= RQ_COMPL_SENT;
  if (q->read) {
    dctl_queue_done (d, r);
    if (d->c.keep == -1 && d->req[sg->reqs].seg_next == DCTL_NONE)
      sg->start = q->outblkno;
  }
  if (r == d->effhda || r == d->curhda) {
    if (sg->acc.type == ACC_NONE)
      dhda_release (d, r);
    else if (q->read && d->c.preseek != 0)
      dhda_prefetch_swap (d);
  }
  dbus_send (d, &m, d->c.complete[q->read ? 0 : 1]);
  d->outstate = BUS_WAIT;
}

/* The host answered a reconnection, or a chunk has crossed
 * (disk_reconnection_or_transfer_complete): the next chunk, or the
 * end.
 */
void
dbus_transfer_done (struct dctl *d, const struct dmsg *in)
{
  int r = d->effbus != DCTL_NONE ? d->effbus : d->curbus;
  struct dreq *q;
  struct dseg *sg;
  struct dmsg m = *in;
  int64_t n;

  if (r == DCTL_NONE)
    return;
  q = &d->req[r];
  sg = &d->seg[q->seg];
  d->effbus = r;
  d->outstate = BUS_TRANSFERING;
  n = q->read ? read_chunk (d, q, sg) : write_chunk (d, r, q, sg);
  TR (d, "transfer_size %ld (out %ld in %ld seg [%ld,%ld))",
         (long) n, (long) q->outblkno, (long) q->inblkno, (long) sg->start,
         (long) sg->end);
  m.bcount = n;
  if (n == -2) {
    d->outwait = true;
    d->outwait_msg = m;
  }
  else if (n == -1) {
    uint64_t delay;
    m.cause = CAUSE_DISCONNECT;
    if (q->read)
      delay = d->c.disc_read[d->lastread ? 0 : 1];
    else
      delay = q->flags & RQ_EXTRA_DISC ? d->c.xd_disc2 : d->c.disc_write;
    dbus_send (d, &m, delay);
    d->outstate = BUS_WAIT;
  }
  else if (n == 0)
    dbus_request_complete (d, r);
  else {
    d->starttrans = d->now;
    d->blksdone = 0;
    dctl_schedule (d, d->now + (uint64_t) n * block_time (d, q->read),
                   EV_XFER, DCTL_NONE, &m);
  }
}

/* The host answered a disconnection (disk_disconnect). */
static void
disconnected (struct dctl *d)
{
  int r = d->effbus;
  struct dreq *q = &d->req[r];

  d->effbus = DCTL_NONE;
  if (d->busowned) {
    d->busowned = false;
    d->outstate = d->buswait ? BUS_WAIT : BUS_IDLE;
  }
  if (r == d->curbus && (q->flags & RQ_EXTRA_DISC) && d->extradisc == r) {
    dctl_schedule (d, d->now + d->c.xd_inter, EV_PREPARE, r, NULL);
    return;
  }
  if (r == d->curbus)
    d->curbus = DCTL_NONE;
  q->bus_next = d->pendxfer;
  d->pendxfer = r;
  dbus_check (d, DCTL_NONE);
}

/* The host answered the completion (disk_completion): a read's
 * request is over, its read-ahead may go on; a write's request is over
 * once its media write is.
 */
static void
completed (struct dctl *d)
{
  int r = d->effbus, s;
  struct dreq *q = &d->req[r];

  q->flags |= RQ_COMPL_RECV;
  d->effbus = DCTL_NONE;
  if (r == d->curbus)
    d->curbus = DCTL_NONE;
  if (d->busowned) {
    d->busowned = false;
    d->outstate = BUS_IDLE;
  }
  s = q->seg;
  if (q->read) {
    q->io = false;              /* what is left is its read-ahead */
    if (r == d->effhda || r == d->curhda) {
      if (d->seg[s].acc.type == ACC_NONE)
        dhda_release (d, r);
      else
        dhda_prefetch_swap (d);
    }
    else {
      dseg_remove (d, r);
      dctl_free_req (d, r);
      if (d->seg[s].reqs != DCTL_NONE)
        dseg_new_owner (d, s);
      else if (!d->c.cache)
        d->seg[s].state = SEG_EMPTY;
    }
  }
  else if (q->inblkno >= req_end (q)) {
    if (r == d->effhda || r == d->curhda)
      dhda_release (d, r);
    else {
      q->io = false;
      dseg_remove (d, r);
      dctl_free_req (d, r);
      if (d->seg[s].reqs != DCTL_NONE)
        dseg_new_owner (d, s);
    }
  }
  else if (q->flags & RQ_SEG_OWNED)
    d->seg[s].acc.background = true;
  dhda_check (d, DCTL_NONE, true);
  dbus_check (d, DCTL_NONE);
}

/* The host's answer to an interrupt (disk_interrupt_complete). */
void
dbus_answer (struct dctl *d, const struct dmsg *m)
{
  d->buswait--;
  switch (m->cause) {
  case CAUSE_RECONNECT:
  case CAUSE_READY:
    dbus_transfer_done (d, m);
    break;
  case CAUSE_DISCONNECT:
    disconnected (d);
    break;
  case CAUSE_COMPLETION:
    if (d->effbus == d->host) {
      d->host_done = true;
      d->host_at = d->now;
      d->host_at_ms = d->now_ms;
    }
    completed (d);
    break;
  }
}

/* The write's second connection after DiskSim's extra write
 * disconnect (disk_prepare_for_data_transfer).
 */
void
dbus_prepare (struct dctl *d, int r)
{
  dbus_check (d, r);
}

/* A media step while a chunk crosses: how far the bus has got
 * (disk_buffer_update_outbuffer).
 */
void
dbus_update_out (struct dctl *d, int s)
{
  int r = d->effbus;
  struct dseg *sg = &d->seg[s];
  struct dreq *q;
  uint64_t bt;
  int64_t blks;

  if (r == DCTL_NONE || d->outwait)
    return;
  q = &d->req[r];
  bt = block_time (d, q->read);
  blks = bt ? (int64_t) ((d->now - d->starttrans) / bt) : sg->outbcount;
  blks = min_i64 (sg->outbcount, blks - d->blksdone);
  d->blksdone += blks;
  q->outblkno += blks;
  sg->outbcount -= blks;
  if (q->outblkno > sg->end)
    sg->end = q->outblkno;
  dseg_wrap (sg, sg->end);
}
