/* hddsim: cfq, Linux's Completely Fair Queueing (as of 2.6.18, the
 * version in the 2006 C-SCAN vs CFQ thread).
 *
 * Service queues.  Each NBD connection has a sync queue (reads and FUA
 * writes: someone waits on each) and an async queue (plain
 * writes, zeroes, trims), standing in for Linux's per-process queues.
 * Queues with requests wait their turn in one round-robin list; the
 * active queue owns the drive for a time slice (cfq-slice-sync,
 * cfq-slice-async) that starts at its first dispatch.  An async queue
 * also gives up the drive after cfq-slice-async-rq x cfq-quantum
 * dispatches (16 by default, which is Linux's cfq_prio_to_maxrq at the
 * default priority, 2 x (rq + 3 rq)).
 *
 * Idling.  When the active sync queue runs empty before its slice ends,
 * the drive waits up to cfq-slice-idle (not past the slice's end) for
 * that queue's next request, so that a process reading sequentially
 * with a little think time keeps the head to itself instead of being
 * interleaved with everyone else.  As in Linux, a queue whose mean think
 * time (a decaying average, Linux's fixed-point formula) exceeds
 * slice-idle is not idled for.
 *
 * Preemption.  A sync request arriving while an async queue is active
 * ends the async slice once its dispatch round has drained; the async
 * queue goes back to the front of the round-robin and keeps the rest of
 * its slice, and the sync queue gets the drive with half a slice
 * (2.6.18's cfq_preempt_queue); an async queue whose slice or
 * allowance ran out while its round drained has nothing to resume and
 * goes to the back, as at any slice's end.  Deviation: a sync queue
 * preempts only when no other sync queue is already waiting for a
 * slice (its own waiting requests do not count), so that a reader that
 * keeps coming back cannot jump ahead of the readers that wait.
 *
 * Inside a queue: a one-way elevator from the head (Linux's
 * cfq_choose_req): the first request at or above the head, unless the
 * nearest one behind it is within cfq-back-seek-max and closer once its
 * distance is multiplied by cfq-back-seek-penalty; if nothing is ahead
 * or close behind, the lowest offset.  The head is, as Linux's
 * last_position, where the last request dispatched from any queue
 * ended (the model's head only before the first dispatch): the drive's
 * read-ahead and destaging move the real head where the host cannot
 * see it.
 *
 * FIFO expiry: until it has served one expired request in a slice, the
 * active queue serves its oldest request instead when that one is older
 * than cfq-fifo-expire-sync or -async (Linux's cfq_check_fifo: at most
 * one expired request per slice).
 *
 * Dispatch rounds.  As in Linux with a drive that takes one command at
 * a time, the active queue hands up to cfq-quantum requests at once to
 * the "driver" (chosen one after the other by FIFO expiry and the
 * elevator), and those are served in that order even if the slice ends
 * or a sync request preempts meanwhile: a preemption or the end of a
 * slice takes effect when the round has drained.  A reader with one
 * request outstanding has rounds of one; a writer with four has rounds
 * of four.
 *
 * Rounds are bounded by bytes as well (cfq-quantum-bytes; a round
 * always takes its first request).  Linux's CFQ needs no such bound:
 * the block layer has split every request at the device's max_sectors
 * before CFQ sees it, so its quantum of 8 holds the drive for at most
 * 8 x max_sectors_kb.  Here a request is split only if the drive has a
 * max-transfer (engine.c); without one, a client's requests arrive as
 * they were sent (QEMU merges a guest's writeback into NBD writes of
 * up to 9 MiB), and 8 of them held the drive for hundreds of
 * milliseconds, during which neither the slice nor a preemption could
 * act.  Bytes rather than time: the time of a round is only known once
 * it is served (each request's cost depends on the cache and the head
 * the previous one left), and bytes are what Linux bounds.  A value to
 * set is 4M, the quantum times 512 KiB, Linux's default max_sectors_kb
 * before 4.4 (BLK_DEF_MAX_SECTORS 1024 sectors), which binds only where
 * the request size is not already bounded below it.  The default is 0,
 * unlimited, as Linux's CFQ, until the bound is measured in a guest
 * (issue 16): timelines stay as they were without it.
 *
 * A connection's waiting writes may be bounded (cfq-async-queued-max,
 * in client requests, however many commands each is): past the bound,
 * the oldest is served, whole, outside the async queue's slice
 * (relieve_async says why an NBD client needs it and Linux's CFQ does
 * not).  Default 0, unbounded, as Linux's.
 *
 * Flushes are the engine's (engine.c), as Linux's blk-flush keeps them
 * out of CFQ: a flush has no position to sort, no think time and no
 * request after it to idle for, so counting it in its connection's sync
 * queue made cfq preempt async slices for it and idle on the emptied
 * queue after it.
 *
 * A drive that queues (ncq-depth > 1; drive_queue.h).  The engine asks
 * for a request whenever the drive has a free slot, as Linux's SCSI
 * and libata drivers take requests (elv_next_request) while the device
 * has free tags; a round is formed each time the previous one has gone
 * to the drive.  On such a drive hddsim's cfq holds requests back as
 * Linux 2.6.23 does (its cfq_dispatch_requests, cfq_select_queue and
 * cfq_update_idle_window, read in its source), not as 2.6.18: 2.6.18
 * lets an async queue's rounds fill the drive while reads are on it,
 * and the drive's firmware then serves the cached writes (no
 * positioning) before the reads, up to its aging bound (measured:
 * bench/ncq-writer-readers.sh, readers' p99 2.4 s under cfq as under
 * fifo); Linux added the rules below between 2.6.19 and 2.6.23 for
 * drives that queue.  Each needs requests on the drive when a round is
 * formed, which a drive that does not queue never has there, so the
 * timelines of ncq-depth=1 are 2.6.18's as before:
 *   - an async queue dispatches nothing while a sync request is on the
 *     drive (sync_flight);
 *   - a queue with cfq-quantum requests dispatched (in its round or on
 *     the drive) gets no new round while another queue has requests
 *     waiting, nor past 4 quanta alone;
 *   - the active queue, empty, with requests still on the drive, keeps
 *     the drive (no other queue is served) only if it would be idled
 *     for; its idle window starts when they have completed;
 *   - queueing detected (hw_tag: more than 4 requests on the drive at
 *     once, cfq_activate_request), a seeky sync queue (mean seek
 *     distance, Linux's decaying average of sectors between a request
 *     and the end of the last one queued, above 8K sectors: 2.6.23's
 *     CIC_SEEKY) has no idle window.
 * (2.6.18 and 2.6.23 also shorten the idle window of a seeky queue on
 * any drive, and 2.6.23 starts a slice at its first completion; not
 * modelled: either would change the timelines of a drive that does not
 * queue.)
 */

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "reqtree.h"

#define MS UINT64_C(1000000)
#define HOUR (UINT64_C(3600) * 1000 * MS)

/* A queue with nothing queued or in flight is freed once it has been
 * unused for this long.  Freeing loses only its think-time history,
 * whose samples decay by 7/8 per request anyway; 10 s is far beyond
 * any slice, idle window or expiry (at most a few hundred ms by
 * default), so a connection that pauses between bursts keeps its
 * queue, while a run with many short-lived connections stays small.
 */
#define CFQQ_REAP_NS (UINT64_C(10) * 1000 * MS)

/* The tunables, named and defaulted as Linux 2.6.18's CFQ's
 * (block/cfq-iosched.c; docs/schedulers.md).
 */
struct cfq_tunables {
  uint64_t slice_sync;          /* ns */
  uint64_t slice_async;
  uint64_t slice_async_rq;
  uint64_t slice_idle;
  uint64_t quantum;
  uint64_t quantum_bytes;       /* bytes per dispatch round; 0: no bound */
  uint64_t async_queued_max;    /* client requests an async queue may
                                   keep waiting; 0: no bound */
  uint64_t fifo_expire_sync;
  uint64_t fifo_expire_async;
  uint64_t back_seek_max;       /* bytes */
  uint64_t back_seek_penalty;
};

#define TUN(f) offsetof (struct cfq_tunables, f)

/* The ranges only keep out nonsense: an hour and 1024 are far beyond
 * any useful slice or count, and keep slice-async-rq x quantum and a
 * back seek's distance x penalty far from overflowing.
 */
static const struct param_desc cfq_params[] = {
  { .key = "cfq-slice-sync", .type = PARAM_DURATION, .offset = TUN(slice_sync),
    .min = 1, .max = HOUR, .def = 100 * MS,
    .help = "time slice of a sync queue" },
  { .key = "cfq-slice-async", .type = PARAM_DURATION,
    .offset = TUN(slice_async), .min = 1, .max = HOUR, .def = 40 * MS,
    .help = "time slice of an async queue" },
  { .key = "cfq-slice-async-rq", .type = PARAM_UINT,
    .offset = TUN(slice_async_rq), .min = 1, .max = 1024, .def = 2,
    .help = "async dispatches per slice, in quanta" },
  { .key = "cfq-slice-idle", .type = PARAM_DURATION, .offset = TUN(slice_idle),
    .min = 0, .max = HOUR, .def = 8 * MS,
    .help = "idle window for the active sync queue (0 = off)" },
  { .key = "cfq-quantum", .type = PARAM_UINT, .offset = TUN(quantum),
    .min = 1, .max = 1024, .def = 8,
    .help = "requests per dispatch round" },
  { .key = "cfq-quantum-bytes", .type = PARAM_SIZE,
    .offset = TUN(quantum_bytes), .min = 0, .max = UINT64_C(1) << 40,
    .def = 0,
    .help = "bytes per dispatch round (its first request whatever its "
    "size; 0 = unlimited)" },
  { .key = "cfq-async-queued-max", .type = PARAM_UINT,
    .offset = TUN(async_queued_max), .min = 0, .max = 1024, .def = 0,
    .help = "async requests a connection may keep waiting before the "
    "surplus is served outside its slice (0 = unlimited)" },
  { .key = "cfq-fifo-expire-sync", .type = PARAM_DURATION,
    .offset = TUN(fifo_expire_sync), .min = 1, .max = HOUR, .def = 125 * MS,
    .help = "sync request expiry" },
  { .key = "cfq-fifo-expire-async", .type = PARAM_DURATION,
    .offset = TUN(fifo_expire_async), .min = 1, .max = HOUR,
    .def = 250 * MS, .help = "async request expiry" },
  { .key = "cfq-back-seek-max", .type = PARAM_SIZE,
    .offset = TUN(back_seek_max), .min = 0, .max = UINT64_MAX,
    .def = 16 * 1024 * 1024, .help = "longest backward seek allowed" },
  { .key = "cfq-back-seek-penalty", .type = PARAM_UINT,
    .offset = TUN(back_seek_penalty), .min = 1, .max = 1024, .def = 2,
    .help = "cost factor of a backward seek" },
  { .key = NULL },
};

struct cfqq {
  uint32_t conn;
  bool sync;
  struct req_tree sorted;       /* by offset */
  struct req_list fifo;         /* the same, in arrival order */
  uint32_t queued;
  uint32_t waiting;             /* client requests with a command queued */
  uint32_t in_flight;           /* picked, not yet done */

  TAILQ_ENTRY(cfqq) rr_link;
  bool on_rr;
  LIST_ENTRY(cfqq) all_link;

  bool slice_started;
  uint64_t slice_len;           /* of the slice being run */
  uint64_t slice_end;
  uint64_t slice_left;          /* what a preemption left of a slice */
  uint64_t dispatched;          /* in this slice */
  bool fifo_served;             /* served an expired request this slice */

  uint64_t last_done;           /* completion of its last request */
  uint64_t last_used;
  uint64_t ttime_samples, ttime_total, ttime_mean;
  uint64_t last_pos;            /* sector after its last request queued */
  uint64_t seek_samples, seek_total, seek_mean;   /* in sectors */
};

TAILQ_HEAD(cfqq_list, cfqq);
LIST_HEAD(cfqq_all, cfqq);

struct cfq_data {
  struct cfq_tunables tun;
  struct cfqq_list rr;          /* queues waiting for a slice */
  struct cfqq_all all;
  struct cfqq_all unused;       /* the pool's free queues */
  struct cfqq *pool;
  struct cfqq *active;
  struct cfqq *preempt;         /* sync queue that asked to preempt */
  bool idling;
  uint64_t idle_end;
  bool have_pos;
  uint64_t pos;                 /* end of the last request dispatched */
  struct req_list dispatch;     /* the round handed to the "driver" */
  uint32_t in_driver;           /* picked (on the drive), not yet done */
  uint32_t sync_flight;         /* sync requests in the round or on the
                                   drive, not yet done */
  bool hw_tag;                  /* the drive was seen to queue */
};

/* Queues are allocated once, so that a request never waits on (or
 * fails for) memory.  A queue is busy while it holds or has in flight
 * one of the at most qdepth admitted requests, or is the active or the
 * preempting queue: never more than qdepth + 2 at once.  The rest of
 * the pool keeps idle queues' think times (cfqq_update_thinktime) for
 * up to CFQQ_IDLE_KEPT of them, 32 connections' two classes; past that
 * the least recently used idle queue is reused before its reap time.
 */
#define CFQQ_IDLE_KEPT 64

static size_t
cfqq_pool_size (const struct sched_params *params)
{
  return params->qdepth + 2 + CFQQ_IDLE_KEPT;
}

static void *
cfq_create (const struct sched_params *params)
{
  struct cfq_data *cfqd = calloc (1, sizeof *cfqd);
  size_t i, n = cfqq_pool_size (params);

  if (!cfqd)
    return NULL;
  cfqd->pool = calloc (n, sizeof *cfqd->pool);
  if (!cfqd->pool) {
    free (cfqd);
    return NULL;
  }
  sched_params_apply (params, cfq_params, &cfqd->tun);
  TAILQ_INIT (&cfqd->rr);
  TAILQ_INIT (&cfqd->dispatch);
  LIST_INIT (&cfqd->all);
  LIST_INIT (&cfqd->unused);
  for (i = 0; i < n; i++)
    LIST_INSERT_HEAD (&cfqd->unused, &cfqd->pool[i], all_link);
  return cfqd;
}

static void
cfqq_free (struct cfq_data *cfqd, struct cfqq *q)
{
  LIST_REMOVE (q, all_link);
  LIST_INSERT_HEAD (&cfqd->unused, q, all_link);
}

static void
cfq_destroy (void *data)
{
  struct cfq_data *cfqd = data;

  free (cfqd->pool);
  free (cfqd);
}

static bool
cfqq_idle (const struct cfq_data *cfqd, const struct cfqq *q)
{
  return q != cfqd->active && q != cfqd->preempt && !q->on_rr && q->queued == 0
    && q->in_flight == 0;
}

static bool
cfqq_idle_unused (const struct cfq_data *cfqd, const struct cfqq *q, uint64_t now)
{
  return cfqq_idle (cfqd, q) && now - q->last_used > CFQQ_REAP_NS;
}

/* A queue from the pool: a free one, or else the least recently used
 * idle one.  The pool's size (cfqq_pool_size) guarantees one of them.
 */
static struct cfqq *
cfqq_alloc (struct cfq_data *cfqd)
{
  struct cfqq *q = LIST_FIRST (&cfqd->unused), *lru = NULL;

  if (!q) {
    LIST_FOREACH (q, &cfqd->all, all_link)
      if (cfqq_idle (cfqd, q) && (!lru || q->last_used < lru->last_used))
        lru = q;
    assert (lru != NULL);
    cfqq_free (cfqd, lru);
    q = lru;
  }
  LIST_REMOVE (q, all_link);
  memset (q, 0, sizeof *q);
  return q;
}

/* The queue of (conn, sync), created if needed; frees stale queues on
 * the way so that a long run with many connections stays small.
 */
static struct cfqq *
cfqq_get (struct cfq_data *cfqd, uint32_t conn, bool sync, uint64_t now)
{
  struct cfqq *q, *next, *found = NULL;

  for (q = LIST_FIRST (&cfqd->all); q; q = next) {
    next = LIST_NEXT (q, all_link);
    if (q->conn == conn && q->sync == sync)
      found = q;
    else if (cfqq_idle_unused (cfqd, q, now))
      cfqq_free (cfqd, q);
  }
  if (found)
    return found;
  q = cfqq_alloc (cfqd);
  q->conn = conn;
  q->sync = sync;
  RB_INIT (&q->sorted);
  TAILQ_INIT (&q->fifo);
  LIST_INSERT_HEAD (&cfqd->all, q, all_link);
  return q;
}

static uint64_t
cfqq_slice (const struct cfq_data *cfqd, const struct cfqq *q)
{
  return q->sync ? cfqd->tun.slice_sync : cfqd->tun.slice_async;
}

static uint64_t
cfqq_expire (const struct cfq_data *cfqd, const struct cfqq *q)
{
  return q->sync ? cfqd->tun.fifo_expire_sync : cfqd->tun.fifo_expire_async;
}

/* Linux's think time: time from a completion to the next request when
 * nothing was outstanding, capped at 2 x slice-idle, in a decaying
 * average with weights 7/8 in fixed point (TTIME_ONE is one sample).
 * The sample weight climbs 32, 60, 84, ... towards TTIME_ONE, so
 * Linux's sample_valid (weight > TTIME_VALID) holds from the third
 * sample on; until then the queue is idled for.
 */
#define TTIME_ONE 256
#define TTIME_VALID 80

static void
cfqq_update_thinktime (struct cfq_data *cfqd, struct cfqq *q, uint64_t now)
{
  uint64_t t, cap = 2 * cfqd->tun.slice_idle;

  if (!q->sync || !q->last_done || q->queued || q->in_flight)
    return;
  t = now - q->last_done;
  if (t > cap)
    t = cap;
  q->ttime_samples = (7 * q->ttime_samples + TTIME_ONE) / 8;
  q->ttime_total = (7 * q->ttime_total + TTIME_ONE * t) / 8;
  q->ttime_mean = (q->ttime_total + TTIME_ONE / 2) / q->ttime_samples;
}

/* Linux's seek distance (cfq_update_io_seektime, alike in 2.6.18 and
 * 2.6.23): sectors from the end of the queue's last request to this
 * one, clamped against the odd far seek, in the same decaying average
 * as the think time.  A queue is seeky (2.6.23's CIC_SEEKY) when the
 * mean exceeds 8K sectors (4 MiB).
 */
#define SECTOR_BYTES 512
#define SEEKY_SECTORS (UINT64_C(8) * 1024)

static void
cfqq_update_seek (struct cfqq *q, const struct req *r)
{
  uint64_t sector = r->io.offset / SECTOR_BYTES, dist, cap;

  if (!q->sync)
    return;
  dist = q->last_pos < sector ? sector - q->last_pos : q->last_pos - sector;
  cap = q->seek_mean * 4 + (q->seek_samples <= 60 ? 2 * 1024 * 1024
                            : 2 * 1024 * 64);
  if (dist > cap)
    dist = cap;
  q->seek_samples = (7 * q->seek_samples + TTIME_ONE) / 8;
  q->seek_total = (7 * q->seek_total + TTIME_ONE * dist) / 8;
  q->seek_mean = (q->seek_total + q->seek_samples / 2) / q->seek_samples;
  q->last_pos = req_end (r) / SECTOR_BYTES;
}

static bool
cfqq_idle_window (const struct cfq_data *cfqd, const struct cfqq *q)
{
  if (!q->sync || cfqd->tun.slice_idle == 0)
    return false;
  if (cfqd->hw_tag && q->seek_mean > SEEKY_SECTORS)
    return false;
  if (q->ttime_samples <= TTIME_VALID)
    return true;
  return q->ttime_mean <= cfqd->tun.slice_idle;
}

/* Is a sync queue other than self waiting for a slice? */
static bool
other_sync_waiting (const struct cfq_data *cfqd, const struct cfqq *self)
{
  const struct cfqq *q;

  TAILQ_FOREACH (q, &cfqd->rr, rr_link)
    if (q->sync && q != self)
      return true;
  return false;
}

static void
rr_add (struct cfq_data *cfqd, struct cfqq *q, bool front)
{
  if (q->on_rr)
    return;
  if (front)
    TAILQ_INSERT_HEAD (&cfqd->rr, q, rr_link);
  else
    TAILQ_INSERT_TAIL (&cfqd->rr, q, rr_link);
  q->on_rr = true;
}

static void
rr_del (struct cfq_data *cfqd, struct cfqq *q)
{
  if (!q->on_rr)
    return;
  TAILQ_REMOVE (&cfqd->rr, q, rr_link);
  q->on_rr = false;
}

/* Whether r and n are commands of one client request.  A split
 * request's commands are given to the policy together, in order, so
 * those still queued are neighbours in the queue's FIFO.
 */
static bool
same_request (const struct req *r, const struct req *n)
{
  return n && r->parent && n->parent == r->parent;
}

static void
cfq_add (void *data, struct req *r, uint64_t now)
{
  struct cfq_data *cfqd = data;
  struct cfqq *q = cfqq_get (cfqd, r->conn, r->sync, now);

  cfqq_update_thinktime (cfqd, q, now);
  cfqq_update_seek (q, r);
  r->policy_data = q;
  r->deadline = r->arrival + cfqq_expire (cfqd, q);
  RB_INSERT (req_tree, &q->sorted, r);
  if (!same_request (r, TAILQ_LAST (&q->fifo, req_list)))
    q->waiting++;
  TAILQ_INSERT_TAIL (&q->fifo, r, fifo_link);
  q->queued++;
  q->last_used = now;
  if (q == cfqd->active)
    return;                     /* an idle window ends at the next pick */
  if (q->sync && cfqd->active && !cfqd->active->sync && !cfqd->preempt
      && !other_sync_waiting (cfqd, q))
    cfqd->preempt = q;
  else
    rr_add (cfqd, q, false);
}

/* Take r out of its queue (to dispatch it, or because it is gone). */
static void
queue_del (struct cfq_data *cfqd, struct req *r)
{
  struct cfqq *q = r->policy_data;

  RB_REMOVE (req_tree, &q->sorted, r);
  if (!same_request (r, TAILQ_PREV (r, req_list, fifo_link))
      && !same_request (r, TAILQ_NEXT (r, fifo_link)))
    q->waiting--;
  TAILQ_REMOVE (&q->fifo, r, fifo_link);
  q->queued--;
  if (q->queued == 0) {
    rr_del (cfqd, q);
    if (cfqd->preempt == q)
      cfqd->preempt = NULL;
  }
}

static bool
in_dispatch (const struct cfq_data *cfqd, const struct req *r)
{
  const struct req *d;

  TAILQ_FOREACH (d, &cfqd->dispatch, fifo_link)
    if (d == r)
      return true;
  return false;
}

static void
cfq_remove (void *data, struct req *r)
{
  struct cfq_data *cfqd = data;
  struct cfqq *q = r->policy_data;

  if (in_dispatch (cfqd, r)) {     /* at most a quantum to look through */
    TAILQ_REMOVE (&cfqd->dispatch, r, fifo_link);
    q->in_flight--;
    cfqd->sync_flight -= q->sync;
    return;
  }
  queue_del (cfqd, r);
}

/* Linux's cfq_choose_req, between the first request at or above the
 * head and the nearest one behind it.
 */
static struct req *
elevator (struct cfq_data *cfqd, struct cfqq *q, uint64_t head)
{
  struct req *fwd = req_tree_at_or_above (&q->sorted, head);
  struct req *back = req_tree_below (&q->sorted, head);

  if (back && head - back->io.offset > cfqd->tun.back_seek_max)
    back = NULL;
  if (fwd && back) {
    uint64_t df = fwd->io.offset - head;
    uint64_t db = (head - back->io.offset) * cfqd->tun.back_seek_penalty;
    return db < df ? back : fwd;  /* ties to the higher offset */
  }
  if (fwd)
    return fwd;
  if (back)
    return back;
  return RB_MIN (req_tree, &q->sorted);  /* wrap: one long back seek */
}

/* What the active queue q serves next, or NULL if it cannot;
 * *expired: it is the expired request FIFO expiry serves.
 */
static struct req *
cfqq_next (struct cfq_data *cfqd, struct cfqq *q, uint64_t head, uint64_t now,
           bool *expired)
{
  struct req *r = TAILQ_FIRST (&q->fifo);

  *expired = false;
  if (!r)
    return NULL;
  if (!q->fifo_served && r->deadline <= now) {
    *expired = true;
    return r;
  }
  return elevator (cfqd, q, head);
}

/* The bytes r moves, for cfq-quantum-bytes: a trim moves none. */
static uint64_t
req_bytes (const struct req *r)
{
  return r->io.op == IO_TRIM ? 0 : r->io.length;
}

static void
activate (struct cfq_data *cfqd, struct cfqq *q, uint64_t slice_len)
{
  rr_del (cfqd, q);
  cfqd->active = q;
  cfqd->idling = false;
  q->slice_started = false;
  q->slice_len = slice_len;
  q->slice_left = 0;
  q->dispatched = 0;
  q->fifo_served = false;
}

/* End the active queue's slice; a preempted queue goes back to the
 * front of the round-robin with the rest of its slice.
 */
static void
expire (struct cfq_data *cfqd, uint64_t now, bool preempted)
{
  struct cfqq *q = cfqd->active;

  cfqd->active = NULL;
  cfqd->idling = false;
  q->slice_left = 0;
  if (preempted && q->slice_started && q->slice_end > now)
    q->slice_left = q->slice_end - now;
  if (q->queued)
    rr_add (cfqd, q, preempted);
}

static void
activate_next (struct cfq_data *cfqd)
{
  struct cfqq *q = TAILQ_FIRST (&cfqd->rr);

  if (q)
    activate (cfqd, q, q->slice_left ? q->slice_left : cfqq_slice (cfqd, q));
}

/* An async queue may dispatch slice-async-rq x quantum requests per
 * slice (see the top of the file).
 */
static bool
async_used (const struct cfq_data *cfqd, const struct cfqq *q)
{
  return !q->sync
    && q->dispatched >= cfqd->tun.slice_async_rq * cfqd->tun.quantum;
}

static bool
slice_used (const struct cfq_data *cfqd, const struct cfqq *q, uint64_t now)
{
  return (q->slice_started && now >= q->slice_end) || async_used (cfqd, q);
}

/* The preempted queue resumes first only if it has something left to
 * resume: one whose slice or allowance has run out meanwhile (its last
 * round drained past the slice's end) is expired as at any slice's end,
 * to the back of the round-robin.
 */
static void
do_preempt (struct cfq_data *cfqd, uint64_t now)
{
  struct cfqq *q = cfqd->preempt;

  cfqd->preempt = NULL;
  if (cfqd->active)
    expire (cfqd, now, !slice_used (cfqd, cfqd->active, now));
  activate (cfqd, q, q->slice_left ? q->slice_left : cfqq_slice (cfqd, q) / 2);
}

/* r leaves q's queue for the "driver" (cfqd->dispatch), and the head
 * cfq sorts from moves to its end.
 */
static void
hand_to_driver (struct cfq_data *cfqd, struct cfqq *q, struct req *r)
{
  q->in_flight++;
  cfqd->sync_flight += q->sync;
  queue_del (cfqd, r);
  TAILQ_INSERT_TAIL (&cfqd->dispatch, r, fifo_link);
  cfqd->have_pos = true;
  cfqd->pos = req_end (r);
}

/* A dispatch round, as Linux's __cfq_dispatch_requests: up to
 * cfq-quantum requests of the active queue, chosen one after the other
 * by FIFO expiry and the elevator, go to the "driver" at once and are
 * served in that order whatever happens meanwhile (the slice ends, a
 * sync request preempts): requests in the driver cannot be recalled.
 * An async queue that has used its dispatch allowance stops early, and
 * a round stops before a request that would take it past
 * cfq-quantum-bytes (if set).  Returns the number of requests moved to
 * cfqd->dispatch.
 */
static unsigned
dispatch_round (struct cfq_data *cfqd, struct cfqq *q, const struct hdd *hdd,
                uint64_t now)
{
  uint64_t head = cfqd->have_pos ? cfqd->pos : hdd_head_offset (hdd);
  uint64_t bytes = 0;
  unsigned n = 0;
  struct req *r;
  bool expired;

  while (n < cfqd->tun.quantum && !async_used (cfqd, q)
         && (r = cfqq_next (cfqd, q, head, now, &expired)) != NULL) {
    if (n > 0 && cfqd->tun.quantum_bytes
        && bytes + req_bytes (r) > cfqd->tun.quantum_bytes)
      break;
    bytes += req_bytes (r);
    if (expired)
      q->fifo_served = true;
    if (!q->slice_started) {
      q->slice_started = true;
      q->slice_end = now + q->slice_len;
    }
    q->dispatched++;
    hand_to_driver (cfqd, q, r);
    head = cfqd->pos;
    n++;
  }
  if (n)
    cfqd->idling = false;
  return n;
}

/* A connection's async queue holding more than cfq-async-queued-max
 * client requests (a split one counts once, until its last command
 * leaves the queue; the active queue excepted: it is being served), or
 * NULL.
 */
static struct cfqq *
async_over_bound (const struct cfq_data *cfqd)
{
  struct cfqq *q;

  if (cfqd->tun.async_queued_max == 0)
    return NULL;
  TAILQ_FOREACH (q, &cfqd->rr, rr_link)
    if (!q->sync && q->waiting > cfqd->tun.async_queued_max)
      return q;
  return NULL;
}

/* Serve the oldest command of an async queue over its bound, outside
 * its slice, so that the oldest request is freed whole, command after
 * command: the active queue keeps its slice, its idle window and its
 * place.  Linux's CFQ needs no such rule: the block layer allocates
 * sync and async requests from separate pools (nr_requests each), so
 * writes that CFQ holds back never keep a reader's request from
 * reaching it.  An NBD client has one window for both (QEMU: 16
 * requests in flight); writes held back fill it and the reads wait
 * above the drive, where no policy sees them.  Serving the surplus
 * keeps room in the window for reads.
 */
static bool
relieve_async (struct cfq_data *cfqd)
{
  struct cfqq *q = async_over_bound (cfqd);

  if (!q)
    return false;
  hand_to_driver (cfqd, q, TAILQ_FIRST (&q->fifo));
  return true;
}

/* Idle for the active sync queue that ran empty, if it may: returns
 * true and sets *wake while the window lasts.
 */
static bool
idle (struct cfq_data *cfqd, struct cfqq *q, uint64_t now, uint64_t *wake)
{
  if (q->queued || !q->slice_started || !cfqq_idle_window (cfqd, q))
    return false;
  if (!cfqd->idling) {
    cfqd->idling = true;
    cfqd->idle_end = now + cfqd->tun.slice_idle;
    if (cfqd->idle_end > q->slice_end)
      cfqd->idle_end = q->slice_end;
  }
  if (now >= cfqd->idle_end)
    return false;
  *wake = cfqd->idle_end;
  return true;
}

/* 2.6.23's checks before a round (cfq_dispatch_requests): an async
 * queue waits while sync requests are on the drive; a queue with a
 * quantum dispatched waits while others have requests, or at 4 quanta.
 * Neither can hold on a drive that does not queue: a round is formed
 * only once the last has completed.
 */
static bool
may_dispatch (const struct cfq_data *cfqd, const struct cfqq *q)
{
  uint64_t quantum = cfqd->tun.quantum;

  if (!q->sync && cfqd->sync_flight)
    return false;
  if (q->in_flight >= quantum
      && (!TAILQ_EMPTY (&cfqd->rr) || q->in_flight >= 4 * quantum))
    return false;
  return true;
}

/* A request leaves the dispatch round for the drive: a drive that has
 * held more than 4 at once is one that queues (cfq_activate_request's
 * hw_tag).
 */
static void
to_drive (struct cfq_data *cfqd)
{
  if (++cfqd->in_driver > 4)
    cfqd->hw_tag = true;
}

static struct req *
cfq_pick (void *data, const struct hdd *hdd, uint64_t now,
          uint64_t *wake)
{
  struct cfq_data *cfqd = data;
  /* Each turn either decides or ends a slice; every queue on the
   * round-robin has a request to dispatch, so a second lap never
   * happens.  The bound is a guard, not a rule.
   */
  unsigned turns;
  struct req *r;

  for (turns = 0; turns < 1024; turns++) {
    struct cfqq *q;

    r = TAILQ_FIRST (&cfqd->dispatch);
    if (r) {
      TAILQ_REMOVE (&cfqd->dispatch, r, fifo_link);
      to_drive (cfqd);
      return r;
    }
    if (cfqd->preempt)
      do_preempt (cfqd, now);
    if (relieve_async (cfqd))
      continue;
    if (!cfqd->active)
      activate_next (cfqd);
    q = cfqd->active;
    if (!q)
      return NULL;
    if (slice_used (cfqd, q, now)) {
      expire (cfqd, now, false);
      continue;
    }
    if (q->queued && !may_dispatch (cfqd, q))
      return NULL;
    if (dispatch_round (cfqd, q, hdd, now))
      continue;
    /* Its requests still on the drive: wait for them if it would be
       idled for (2.6.23's cfq_select_queue). */
    if (q->in_flight && cfqq_idle_window (cfqd, q))
      return NULL;
    if (idle (cfqd, q, now, wake))
      return NULL;
    /* Empty and not worth idling for: next. */
    expire (cfqd, now, false);
  }
  return NULL;
}

static void
cfq_done (void *data, struct req *r, uint64_t now)
{
  struct cfq_data *cfqd = data;
  struct cfqq *q = r->policy_data;

  cfqd->in_driver--;
  cfqd->sync_flight -= q->sync;
  q->in_flight--;
  q->last_done = now;
  q->last_used = now;
}

const struct policy_ops cfq_policy = {
  .name = "cfq",
  .description = "per-connection sync/async queues with time slices, idling and expiry",
  .params = cfq_params,
  .create = cfq_create,
  .destroy = cfq_destroy,
  .add = cfq_add,
  .pick = cfq_pick,
  .done = cfq_done,
  .remove = cfq_remove,
};
