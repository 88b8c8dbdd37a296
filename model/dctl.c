/* hddsim: DiskSim's disk controller (dctl.h): its events, a request's
 * arrival (disk_request_arrive, disk_read_arrive, disk_write_arrive),
 * and the host's side (src/disksim_diskctlr.c, read for the facts).
 *
 * Events run in time order, ties in the order they were scheduled, as
 * DiskSim's event queue runs them.  A request arriving at t comes after
 * every event due by t (DiskSim's arrival passes through the driver,
 * the buses and the controller first, each a step of its own).
 */

#include <string.h>

#include "dctl.h"
#include "../common/u64.h"

#define PS_PER_NS UINT64_C(1000)

/* A delay in ps as DiskSim has it, a double in ms: correctly rounded,
 * as strtod rounds a parameter and DiskSim's dm_time_itod a ps count.
 */
static double
ps_ms (int64_t ps)
{
  return (double) ps / 1e9;
}

static int64_t
req_end (const struct dreq *r)
{
  return r->blkno + r->bcount;
}

/* ---- events ---- */

void
dctl_schedule (struct dctl *d, uint64_t at, int kind, int arg,
               const struct dmsg *m)
{
  struct dev *e;

  if (d->nev == DCTL_EVENTS_MAX)
    return;                     /* cannot happen: a handful at a time */
  e = &d->ev[d->nev++];
  *e = (struct dev) {
    .time = at, .seq = d->seq++, .kind = kind, .arg = arg,
    .time_ms = d->now_ms + ps_ms ((int64_t) (at - d->now)),
  };
  if (m)
    e->msg = *m;
}

bool
dctl_unschedule_access (struct dctl *d, int s)
{
  unsigned i;

  for (i = 0; i < d->nev; i++)
    if (d->ev[i].kind == EV_ACCESS && d->ev[i].arg == s) {
      d->ev[i] = d->ev[--d->nev];
      return true;
    }
  return false;
}

static int
earliest (const struct dctl *d)
{
  unsigned i;
  int best = -1;

  for (i = 0; i < d->nev; i++)
    if (best < 0 || d->ev[i].time < d->ev[best].time
        || (d->ev[i].time == d->ev[best].time
            && d->ev[i].seq < d->ev[best].seq))
      best = (int) i;
  return best;
}

static void request_arrive (struct dctl *, int r);

static void
dispatch (struct dctl *d, const struct dev *e)
{
  d->now = e->time;
  d->now_ms = e->time_ms;
  switch (e->kind) {
  case EV_ACCESS:
    dhda_access_event (d, e->arg);
    break;
  case EV_ANSWER:
    dbus_answer (d, &e->msg);
    break;
  case EV_XFER:
    dbus_transfer_done (d, &e->msg);
    break;
  case EV_PREPARE:
    dbus_prepare (d, e->arg);
    break;
  case EV_ARRIVE:
    request_arrive (d, e->arg);
    break;
  }
}

/* Run the events due by 'until' (all of them if 'until_done' and the
 * host's request is not over yet).
 */
static void
run (struct dctl *d, uint64_t until, bool until_done)
{
  for (;;) {
    int i = earliest (d);
    struct dev e;
    if (i < 0)
      return;
    if (until_done ? d->host_done : d->ev[i].time > until)
      return;
    e = d->ev[i];
    d->ev[i] = d->ev[--d->nev];
    dispatch (d, &e);
  }
}

/* ---- the disk's queue and its requests ---- */

int
dctl_new_req (struct dctl *d)
{
  int i;

  for (i = 0; i < DCTL_REQS_MAX; i++)
    if (!d->req[i].live) {
      d->req[i] = (struct dreq) {
        .live = true, .seg = DCTL_NONE, .seg_next = DCTL_NONE,
        .bus_next = DCTL_NONE,
      };
      return i;
    }
  return DCTL_NONE;
}

void
dctl_free_req (struct dctl *d, int r)
{
  d->req[r].live = false;
}

/* The request the queue would start next (ioqueue_show_next_request
 * with the enablement function): hddsim's drive holds one at a time.
 */
int
dctl_next_queued (struct dctl *d)
{
  int i;

  for (i = 0; i < DCTL_REQS_MAX; i++)
    if (d->req[i].live && d->req[i].queued)
      return dseg_enabled (d, i) ? i : DCTL_NONE;
  return DCTL_NONE;
}

bool
dctl_pending_one (const struct dctl *d)
{
  int i, n = 0;

  for (i = 0; i < DCTL_REQS_MAX; i++)
    n += d->req[i].live && d->req[i].queued;
  return n == 1;
}

void
dctl_queue_done (struct dctl *d, int r)
{
  d->req[r].queued = false;
  d->req[r].in_queue = false;
}

void
dctl_report_write (struct dctl *d, int64_t lba, uint64_t start, uint64_t end)
{
  struct hdd_media_write w;

  if (!d->media_fn)
    return;
  w = (struct hdd_media_write) {
    .offset = (uint64_t) lba * SECTOR, .length = SECTOR,
    .start_ns = start / PS_PER_NS, .end_ns = (end + PS_PER_NS - 1) / PS_PER_NS,
    .own = true, .walk_lba = (uint64_t) lba, .walk_n = 0,
  };
  d->media_fn (d->media_opaque, &w);
}

/* ---- a request arrives (disk_request_arrive) ---- */

static uint64_t
overhead (const struct dctl *d, bool write, bool hit)
{
  return d->c.cmd[write][hit][!d->lastread];
}

/* The command overhead request n pays on arrival: the host's goes
 * into its cost breakdown.
 */
static uint64_t
charge (struct dctl *d, int n, uint64_t ov)
{
  if (n == d->host)
    d->host_ov = ov;
  return ov;
}

/* A read: ready to send what the buffer holds, or disconnect while the
 * media reads (disk_read_arrive).
 */
static void
read_arrive (struct dctl *d, int n, struct dmsg *m)
{
  struct dreq *q = &d->req[n];
  int s = q->seg;
  bool enough = q->hit == HIT_WHOLE || q->hit == HIT_PARTIAL;

  q->overhead_done = d->now + overhead (d, false, false);
  if (q->hit == HIT_PARTIAL && !d->c.immed_partial) {
    const struct dseg *sg = &d->seg[s];
    int64_t rw = dseg_watermark (d, sg->size, q->bcount, true);
    if (sg->end <= q->blkno || sg->end - q->blkno < min_i64 (rw, q->bcount))
      enough = false;
  }
  if (d->c.never_disc
      || (enough && d->curbus == DCTL_NONE
          && ((d->c.sneaky_full && q->hit == HIT_WHOLE)
              || (d->c.sneaky_partial && q->hit == HIT_PARTIAL)
              || (d->pendxfer == DCTL_NONE
                  && (d->effhda == DCTL_NONE || dseg_stopable (d, n)))))) {
    uint64_t ov = overhead (d, false, q->hit != HIT_NOMATCH);
    m->cause = CAUSE_READY;
    d->curbus = n;
    if (s != DCTL_NONE) {
      dseg_set (d, n);
      d->seg[s].outstate = OUT_CONTACTING;
    }
    dbus_send (d, m, charge (d, n, ov) + d->c.data_prep);
    dhda_activate (d, n, false, true);
    return;
  }
  m->cause = CAUSE_DISCONNECT;
  dbus_send (d, m, charge (d, n, overhead (d, false, false))
                   + d->c.disc_read[d->lastread ? 0 : 1]);
  dhda_activate (d, n, true, true);
}

/* A write: take the data now, or disconnect until the buffer has room
 * (disk_write_arrive).  Its overheads are the hit class whenever fast
 * writes are on.
 */
static void
write_arrive (struct dctl *d, int n, struct dmsg *m)
{
  struct dreq *q = &d->req[n];
  int s = q->seg;
  bool fast = d->c.fastwrite != 0;

  q->overhead_done = d->now + overhead (d, true, fast);
  if (d->c.never_disc
      || (s != DCTL_NONE && d->curbus == DCTL_NONE
          && (d->c.prebuffer
              || (d->pendxfer == DCTL_NONE
                  && (d->effhda == DCTL_NONE || dseg_stopable (d, n)))))) {
    uint64_t delay;
    if (q->flags & RQ_EXTRA_DISC) {
      q->overhead_done = d->now + d->c.xd_command + d->c.xd_seekdelta;
      d->extradisc = n;
      m->cause = CAUSE_DISCONNECT;
      delay = charge (d, n, d->c.xd_command) + d->c.xd_disc1;
      if (s != DCTL_NONE)
        d->seg[s].outstate = OUT_IDLE;
    }
    else {
      m->cause = CAUSE_READY;
      delay = charge (d, n, overhead (d, true, fast)) + d->c.data_prep;
      if (s != DCTL_NONE)
        d->seg[s].outstate = OUT_CONTACTING;
    }
    d->curbus = n;
    if (s != DCTL_NONE)
      dseg_set (d, n);
    dbus_send (d, m, delay);
    dhda_activate (d, n, false, true);
    return;
  }
  q->flags &= ~RQ_EXTRA_DISC;
  m->cause = CAUSE_DISCONNECT;
  /* Without fast writes DiskSim 4.0 sends nothing here and does not
     start the write (disk_write_arrive): its bus stays waiting for an
     answer that never comes.  hddsim disconnects, as with fast writes
     (docs/model.md). */
  dbus_send (d, m, charge (d, n, overhead (d, true, fast))
                   + (fast ? d->c.disc_write : 0));
  dhda_activate (d, n, true, true);
}

static void
request_arrive (struct dctl *d, int n)
{
  struct dreq *q = &d->req[n];
  struct dmsg m = { CAUSE_READY, q->blkno, 0, q->read };

  d->busowned = true;
  d->outstate = BUS_WAIT;
  q->inblkno = q->outblkno = q->blkno;
  d->effbus = n;
  q->queued = q->in_queue = true;
  dseg_select (d, n, true);
  if (n == d->host)
    d->host_whole_hit = q->read && q->hit == HIT_WHOLE;
  TR (d, "arrive %s %ld %ld hit %d seg %d", q->read ? "R" : "W",
      (long) q->blkno, (long) q->bcount, q->hit, q->seg);
  if (q->read)
    read_arrive (d, n, &m);
  else
    write_arrive (d, n, &m);
}

/* ---- the host's side ---- */

/* hddsim's time in ns to ours in ps, keeping DiskSim's: the request
 * arrives the host's think time after the last completion, which our
 * clock has to the ps (hddsim's to the ns).
 */
static uint64_t
to_ps (const struct dctl *d, uint64_t t)
{
  if (t >= d->anchor_ns)
    return d->anchor_ps + (t - d->anchor_ns) * PS_PER_NS;
  return t * PS_PER_NS;
}

/* ps (at least the last completion's) on DiskSim's clock: the
 * completion plus the time since, as DiskSim adds the host's think
 * time to it (iotrace_validate_get_ioreq_event).
 */
static double
to_ms (const struct dctl *d, uint64_t ps)
{
  return d->anchor_ms + ps_ms ((int64_t) (ps - d->anchor_ps));
}

/* Our clock moves on to 'ps' with nothing due before. */
static void
advance (struct dctl *d, uint64_t ps)
{
  if (d->now <= ps) {
    d->now = ps;
    d->now_ms = to_ms (d, ps);
  }
}

void
dctl_idle (struct dctl *d, uint64_t t)
{
  run (d, to_ps (d, t), false);
  advance (d, to_ps (d, t));
}

/* Nothing left to happen and the request not done: DiskSim's bus
 * waiting for an answer that never comes (it would end the run there).
 * hddsim completes the request at once.
 */
static void
unstick (struct dctl *d)
{
  d->host_done = true;
  d->host_at = d->now;
  d->host_at_ms = d->now_ms;
}

uint64_t
dctl_serve (struct dctl *d, bool read, int64_t lba, int64_t n, uint64_t t,
            struct hdd_cost *c)
{
  uint64_t at = to_ps (d, t), service;
  int r;

  run (d, at, false);
  advance (d, at);
  r = dctl_new_req (d);
  if (r == DCTL_NONE || n <= 0)
    return 0;
  d->req[r].io = true;
  d->req[r].read = read;
  d->req[r].blkno = lba;
  d->req[r].bcount = n;
  d->host = r;
  d->host_done = false;
  d->positioned = false;
  d->first_seek = d->first_latency = d->seek_cyls = d->host_ov = 0;
  d->host_whole_hit = false;
  if (d->c.per_request)
    dctl_schedule (d, at + d->c.per_request, EV_ARRIVE, r, NULL);
  else
    request_arrive (d, r);
  run (d, 0, true);
  if (!d->host_done)
    unstick (d);
  d->host = DCTL_NONE;
  service = d->host_at - at;
  if (c)
    c->disksim_ms = d->host_at_ms - to_ms (d, at);
  d->anchor_ps = d->host_at;
  d->anchor_ms = d->host_at_ms;
  d->anchor_ns = t + (service + PS_PER_NS / 2) / PS_PER_NS;
  if (c) {
    uint64_t ns = d->anchor_ns - t;
    c->seek_ns = min64 (d->first_seek / PS_PER_NS, ns);
    c->rot_ns = d->first_latency == UINT64_MAX ? 0
      : min64 (d->first_latency / PS_PER_NS, ns - c->seek_ns);
    c->seek_cylinders = d->seek_cyls;
    c->overhead_ns = min64 ((d->c.per_request + d->host_ov
                             + d->c.complete[read ? 0 : 1]) / PS_PER_NS,
                            ns - c->seek_ns - c->rot_ns);
    c->xfer_ns = ns - c->seek_ns - c->rot_ns - c->overhead_ns;
    c->cache_hit = d->host_whole_hit || !d->positioned;
  }
  return d->anchor_ns - t;
}

uint64_t
dctl_dirty_blocks (const struct dctl *d)
{
  uint64_t n = 0;
  int i;

  for (i = 0; i < DCTL_REQS_MAX; i++) {
    const struct dreq *q = &d->req[i];
    if (q->live && q->io && !q->read && q->inblkno < req_end (q))
      n += (uint64_t) (req_end (q) - q->inblkno);
  }
  return n;
}

int64_t
dctl_head_lba (const struct dctl *d)
{
  return d->track_low;
}

/* ---- set-up ---- */

static uint64_t
ns_ps (uint64_t ns)
{
  return ns * PS_PER_NS;
}

static void
conf_overheads (struct dctl_conf *c, const struct hdd_params *p)
{
  int w, h, a;

  c->per_request = ns_ps (p->overhead);
  for (w = 0; w < 2; w++)
    for (h = 0; h < 2; h++)
      for (a = 0; a < 2; a++)
        c->cmd[w][h][a] = ns_ps (p->cmd_overhead[w][h][a]);
  c->complete[0] = ns_ps (p->read_complete);
  c->complete[1] = ns_ps (p->write_complete);
  c->data_prep = ns_ps (p->ds.data_prep);
  c->resel_first = ns_ps (p->ds.resel_first);
  c->resel_other = ns_ps (p->ds.resel_other);
  c->disc_read[0] = ns_ps (p->ds.disc_read);
  c->disc_read[1] = ns_ps (p->ds.disc_read_aw);
  c->disc_write = ns_ps (p->ds.disc_write);
  c->xd_command = ns_ps (p->ds.xd_command);
  c->xd_disc1 = ns_ps (p->ds.xd_disc1);
  c->xd_inter = ns_ps (p->ds.xd_inter);
  c->xd_disc2 = ns_ps (p->ds.xd_disc2);
  c->xd_seekdelta = ns_ps (p->ds.xd_seekdelta);
  c->min_seek = ns_ps (p->ds.min_seek);
}

static void
conf_cache (struct dctl_conf *c, const struct hdd_params *p)
{
  static const int contread[] = {
    [RAUNTIL_SIZE] = 3, [RAUNTIL_TRACK] = 1, [RAUNTIL_CYL] = 2,
    [RAUNTIL_NEXT_TRACK] = 4,
  };

  c->cache = p->cache != CACHE_OFF;
  c->dedicated = p->write_seg == WSEG_SEPARATE;
  c->nsegs = (int) p->cache_segments + c->dedicated;
  c->segsize = (int) (p->cache_size / SECTOR / p->cache_segments);
  c->wsegs = (int) p->ds.write_segs;
  c->contread = p->readahead == 0 ? 0 : contread[p->ra_until];
  c->ra_min = (int64_t) (p->ds.ra_min / SECTOR);
  c->ra_max = (int64_t) (p->ds.ra_max / SECTOR);
  c->keep = p->ds.keep == RAOVER_DROP ? -1 : p->ds.keep;
  c->ra_idle_hit = p->ra_on_hit != 0;
  c->read_free = p->read_free != 0;
  c->almost = p->ra_hits == RAHITS_ALMOST;
  c->stop_in_sector = p->ra_stop == RASTOP_NOW;
  c->hits_on_write = p->write_hits != 0;
  c->immed_partial = p->ds.immed_partial != 0;
  c->read_direct = p->ds.read_direct != 0;
  c->write_hit_stop = p->ds.write_hit_stop != 0;
  c->disc_in_seek = p->ds.disc_in_seek != 0;
  c->combine = p->ds.combine != 0;
  c->prebuffer = p->ds.prebuffer != 0;
  c->sneaky_full = p->ds.sneaky_full != 0;
  c->sneaky_partial = p->ds.sneaky_partial != 0;
  c->sneaky_inter = p->ds.sneaky_inter != 0;
  c->fastwrite = (int) p->fast_write;
  c->preseek = (int) p->ds.preseek;
  c->immed_read = p->zl_read != 0;
  c->immed_write = p->zl_write != 0;
}

static void
conf_bus (struct dctl_conf *c, const struct hdd_params *p)
{
  uint64_t blk = (uint64_t) SECTOR * UINT64_C(1000000000000) / p->iface_rate;

  c->blk_read = p->ds.blk_read ? ns_ps (p->ds.blk_read) : blk;
  c->blk_write = p->ds.blk_write ? ns_ps (p->ds.blk_write) : blk;
  c->water_read = (double) p->ds.water_read / 1e6;
  c->water_write = (double) p->ds.water_write / 1e6;
  c->water_by_req = p->ds.water_by_req != 0;
  c->hold_read = p->ds.hold_read != 0;
  c->hold_write = p->ds.hold_write != 0;
  c->never_disc = p->ds.never_disc != 0;
  c->extra_disc = p->ds.extra_disc != 0;
}

void
dctl_init (struct dctl *d, const struct hdd_params *p, const struct geom *g,
           const struct seek_curve *seek, const struct dlay *lay)
{
  int i;

  memset (d, 0, sizeof *d);
  d->p = p;
  d->g = g;
  d->seek = seek;
  d->lay = lay;
  /* DiskSim's rotatetime: dm_time_dtoi (1000.0 / (rpm / 60.0)) ps. */
  d->c.period = (uint64_t) (1000.0 / ((double) p->rpm / 60.0) * 1e9);
  d->c.head_switch = ns_ps (p->head_switch);
  d->c.write_delta = (int64_t) ns_ps (p->write_settle)
                     - (int64_t) ns_ps (p->write_settle_neg);
  conf_overheads (&d->c, p);
  conf_cache (&d->c, p);
  conf_bus (&d->c, p);
  for (i = 0; i < d->c.nsegs; i++) {
    d->seg[i] = (struct dseg) {
      .state = SEG_EMPTY, .outstate = OUT_IDLE, .size = d->c.segsize,
      .reqs = DCTL_NONE,
    };
    d->order[i] = i;
  }
  d->wseg = d->c.dedicated ? 0 : DCTL_NONE;
  d->effhda = d->curhda = d->effbus = d->curbus = DCTL_NONE;
  d->pendxfer = d->extradisc = d->host = DCTL_NONE;
  d->outstate = BUS_IDLE;
  d->lastread = true;
}
