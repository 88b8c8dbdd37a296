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
 * (2.6.18's cfq_preempt_queue).  Deviation: a sync queue preempts only
 * when no other sync queue is already waiting for a slice, so that a
 * reader that keeps coming back cannot jump ahead of the readers that
 * wait.
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
 * Flushes are the engine's (engine.c), as Linux's blk-flush keeps them
 * out of CFQ: a flush has no position to sort, no think time and no
 * request after it to idle for, so counting it in its connection's sync
 * queue made cfq preempt async slices for it and idle on the emptied
 * queue after it.
 */

#include <stdlib.h>

#include "policy.h"
#include "reqtree.h"

/* Queues idle longer than this with nothing queued are freed. */
#define CFQQ_REAP_NS (UINT64_C(10) * 1000 * 1000 * 1000)

struct cfqq {
  uint32_t conn;
  bool sync;
  struct req_tree sorted;       /* by offset */
  struct req_list fifo;         /* the same, in arrival order */
  uint32_t queued;
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
};

TAILQ_HEAD(cfqq_list, cfqq);
LIST_HEAD(cfqq_all, cfqq);

struct policy {
  struct sched_params sp;
  struct cfqq_list rr;          /* queues waiting for a slice */
  struct cfqq_all all;
  struct cfqq *active;
  struct cfqq *preempt;         /* sync queue that asked to preempt */
  bool idling;
  uint64_t idle_end;
  bool have_pos;
  uint64_t pos;                 /* end of the last request dispatched */
  struct req_list dispatch;     /* the round handed to the "driver" */
};

static struct policy *
cfq_create (const struct sched_params *params)
{
  struct policy *p = calloc (1, sizeof *p);

  if (!p)
    return NULL;
  p->sp = *params;
  TAILQ_INIT (&p->rr);
  TAILQ_INIT (&p->dispatch);
  LIST_INIT (&p->all);
  return p;
}

static void
cfqq_free (struct cfqq *q)
{
  LIST_REMOVE (q, all_link);
  free (q);
}

static void
cfq_destroy (struct policy *p)
{
  while (!LIST_EMPTY (&p->all))
    cfqq_free (LIST_FIRST (&p->all));
  free (p);
}

static bool
cfqq_idle_unused (const struct policy *p, const struct cfqq *q, uint64_t now)
{
  return q != p->active && q != p->preempt && !q->on_rr && q->queued == 0
    && q->in_flight == 0 && now - q->last_used > CFQQ_REAP_NS;
}

/* The queue of (conn, sync), created if needed; frees stale queues on
 * the way so that a long run with many connections stays small.
 */
static struct cfqq *
cfqq_get (struct policy *p, uint32_t conn, bool sync, uint64_t now)
{
  struct cfqq *q, *next, *found = NULL;

  for (q = LIST_FIRST (&p->all); q; q = next) {
    next = LIST_NEXT (q, all_link);
    if (q->conn == conn && q->sync == sync)
      found = q;
    else if (cfqq_idle_unused (p, q, now))
      cfqq_free (q);
  }
  if (found)
    return found;
  q = calloc (1, sizeof *q);
  if (!q)
    return NULL;
  q->conn = conn;
  q->sync = sync;
  RB_INIT (&q->sorted);
  TAILQ_INIT (&q->fifo);
  LIST_INSERT_HEAD (&p->all, q, all_link);
  return q;
}

static uint64_t
cfqq_slice (const struct policy *p, const struct cfqq *q)
{
  return q->sync ? p->sp.cfq_slice_sync : p->sp.cfq_slice_async;
}

static uint64_t
cfqq_expire (const struct policy *p, const struct cfqq *q)
{
  return q->sync ? p->sp.cfq_fifo_expire_sync : p->sp.cfq_fifo_expire_async;
}

/* Linux's think time: time from a completion to the next request when
 * nothing was outstanding, capped at 2 x slice-idle, in a decaying
 * average with weights 7/8 (fixed point, x256).
 */
static void
cfqq_update_thinktime (struct policy *p, struct cfqq *q, uint64_t now)
{
  uint64_t t, cap = 2 * p->sp.cfq_slice_idle;

  if (!q->sync || !q->last_done || q->queued || q->in_flight)
    return;
  t = now - q->last_done;
  if (t > cap)
    t = cap;
  q->ttime_samples = (7 * q->ttime_samples + 256) / 8;
  q->ttime_total = (7 * q->ttime_total + 256 * t) / 8;
  q->ttime_mean = (q->ttime_total + 128) / q->ttime_samples;
}

static bool
cfqq_idle_window (const struct policy *p, const struct cfqq *q)
{
  if (!q->sync || p->sp.cfq_slice_idle == 0)
    return false;
  if (q->ttime_samples <= 80)   /* Linux's sample_valid */
    return true;
  return q->ttime_mean <= p->sp.cfq_slice_idle;
}

static bool
any_sync_waiting (const struct policy *p)
{
  const struct cfqq *q;

  TAILQ_FOREACH (q, &p->rr, rr_link)
    if (q->sync)
      return true;
  return false;
}

static void
rr_add (struct policy *p, struct cfqq *q, bool front)
{
  if (q->on_rr)
    return;
  if (front)
    TAILQ_INSERT_HEAD (&p->rr, q, rr_link);
  else
    TAILQ_INSERT_TAIL (&p->rr, q, rr_link);
  q->on_rr = true;
}

static void
rr_del (struct policy *p, struct cfqq *q)
{
  if (!q->on_rr)
    return;
  TAILQ_REMOVE (&p->rr, q, rr_link);
  q->on_rr = false;
}

static void
cfq_add (struct policy *p, struct req *r, uint64_t now)
{
  struct cfqq *q = cfqq_get (p, r->conn, r->sync, now);

  /* Out of memory: nothing sensible to do but serve it out of turn
   * would need a queue too; abort like any allocation failure in the
   * engine's callers.
   */
  if (!q)
    abort ();
  cfqq_update_thinktime (p, q, now);
  r->policy_data = q;
  r->deadline = r->arrival + cfqq_expire (p, q);
  RB_INSERT (req_tree, &q->sorted, r);
  TAILQ_INSERT_TAIL (&q->fifo, r, fifo_link);
  q->queued++;
  q->last_used = now;
  if (q == p->active)
    return;                     /* an idle window ends at the next pick */
  if (q->sync && p->active && !p->active->sync && !p->preempt
      && !any_sync_waiting (p))
    p->preempt = q;
  else
    rr_add (p, q, false);
}

/* Take r out of its queue (to dispatch it, or because it is gone). */
static void
queue_del (struct policy *p, struct req *r)
{
  struct cfqq *q = r->policy_data;

  RB_REMOVE (req_tree, &q->sorted, r);
  TAILQ_REMOVE (&q->fifo, r, fifo_link);
  q->queued--;
  if (q->queued == 0) {
    rr_del (p, q);
    if (p->preempt == q)
      p->preempt = NULL;
  }
}

static bool
in_dispatch (const struct policy *p, const struct req *r)
{
  const struct req *d;

  TAILQ_FOREACH (d, &p->dispatch, fifo_link)
    if (d == r)
      return true;
  return false;
}

static void
cfq_remove (struct policy *p, struct req *r)
{
  struct cfqq *q = r->policy_data;

  if (in_dispatch (p, r)) {     /* at most a quantum to look through */
    TAILQ_REMOVE (&p->dispatch, r, fifo_link);
    q->in_flight--;
    return;
  }
  queue_del (p, r);
}

/* Linux's cfq_choose_req, between the first request at or above the
 * head and the nearest one behind it.
 */
static struct req *
elevator (struct policy *p, struct cfqq *q, uint64_t head)
{
  struct req *fwd = req_tree_at_or_above (&q->sorted, head);
  struct req *back = req_tree_below (&q->sorted, head);

  if (back && head - back->io.offset > p->sp.cfq_back_seek_max)
    back = NULL;
  if (fwd && back) {
    uint64_t df = fwd->io.offset - head;
    uint64_t db = (head - back->io.offset) * p->sp.cfq_back_seek_penalty;
    return db < df ? back : fwd;  /* ties to the higher offset */
  }
  if (fwd)
    return fwd;
  if (back)
    return back;
  return RB_MIN (req_tree, &q->sorted);  /* wrap: one long back seek */
}

/* What the active queue q serves next, or NULL if it cannot. */
static struct req *
cfqq_next (struct policy *p, struct cfqq *q, uint64_t head, uint64_t now)
{
  struct req *r = TAILQ_FIRST (&q->fifo);

  if (!r)
    return NULL;
  if (!q->fifo_served && r->deadline <= now) {
    q->fifo_served = true;
    return r;
  }
  return elevator (p, q, head);
}

static void
activate (struct policy *p, struct cfqq *q, uint64_t slice_len)
{
  rr_del (p, q);
  p->active = q;
  p->idling = false;
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
expire (struct policy *p, uint64_t now, bool preempted)
{
  struct cfqq *q = p->active;

  p->active = NULL;
  p->idling = false;
  q->slice_left = 0;
  if (preempted && q->slice_started && q->slice_end > now)
    q->slice_left = q->slice_end - now;
  if (q->queued)
    rr_add (p, q, preempted);
}

static void
activate_next (struct policy *p)
{
  struct cfqq *q = TAILQ_FIRST (&p->rr);

  if (q)
    activate (p, q, q->slice_left ? q->slice_left : cfqq_slice (p, q));
}

static void
do_preempt (struct policy *p, uint64_t now)
{
  struct cfqq *q = p->preempt;

  p->preempt = NULL;
  if (p->active)
    expire (p, now, true);
  activate (p, q, q->slice_left ? q->slice_left : cfqq_slice (p, q) / 2);
}

/* An async queue may dispatch slice-async-rq x quantum requests per
 * slice (see the top of the file).
 */
static bool
async_used (const struct policy *p, const struct cfqq *q)
{
  return !q->sync
    && q->dispatched >= p->sp.cfq_slice_async_rq * p->sp.cfq_quantum;
}

static bool
slice_used (const struct policy *p, const struct cfqq *q, uint64_t now)
{
  return (q->slice_started && now >= q->slice_end) || async_used (p, q);
}

/* A dispatch round, as Linux's __cfq_dispatch_requests: up to
 * cfq-quantum requests of the active queue, chosen one after the other
 * by FIFO expiry and the elevator, go to the "driver" at once and are
 * served in that order whatever happens meanwhile (the slice ends, a
 * sync request preempts): requests in the driver cannot be recalled.
 * An async queue that has used its dispatch allowance stops early.
 * Returns the number of requests moved to p->dispatch.
 */
static unsigned
dispatch_round (struct policy *p, struct cfqq *q, const struct hdd *hdd,
                uint64_t now)
{
  uint64_t head = p->have_pos ? p->pos : hdd_head_offset (hdd);
  unsigned n = 0;
  struct req *r;

  while (n < p->sp.cfq_quantum && !async_used (p, q)
         && (r = cfqq_next (p, q, head, now)) != NULL) {
    if (!q->slice_started) {
      q->slice_started = true;
      q->slice_end = now + q->slice_len;
    }
    q->dispatched++;
    q->in_flight++;
    queue_del (p, r);
    TAILQ_INSERT_TAIL (&p->dispatch, r, fifo_link);
    head = req_end (r);
    p->have_pos = true;
    p->pos = head;
    n++;
  }
  if (n)
    p->idling = false;
  return n;
}

/* Idle for the active sync queue that ran empty, if it may: returns
 * true and sets *wake while the window lasts.
 */
static bool
idle (struct policy *p, struct cfqq *q, uint64_t now, uint64_t *wake)
{
  if (q->queued || !q->slice_started || !cfqq_idle_window (p, q))
    return false;
  if (!p->idling) {
    p->idling = true;
    p->idle_end = now + p->sp.cfq_slice_idle;
    if (p->idle_end > q->slice_end)
      p->idle_end = q->slice_end;
  }
  if (now >= p->idle_end)
    return false;
  *wake = p->idle_end;
  return true;
}

static struct req *
cfq_pick (struct policy *p, const struct hdd *hdd, uint64_t now,
          uint64_t *wake)
{
  /* Each turn either decides or ends a slice; every queue on the
   * round-robin has a request to dispatch, so a second lap never
   * happens.  The bound is a guard, not a rule.
   */
  unsigned turns;
  struct req *r;

  for (turns = 0; turns < 1024; turns++) {
    struct cfqq *q;

    r = TAILQ_FIRST (&p->dispatch);
    if (r) {
      TAILQ_REMOVE (&p->dispatch, r, fifo_link);
      return r;
    }
    if (p->preempt)
      do_preempt (p, now);
    if (!p->active)
      activate_next (p);
    q = p->active;
    if (!q)
      return NULL;
    if (slice_used (p, q, now)) {
      expire (p, now, false);
      continue;
    }
    if (dispatch_round (p, q, hdd, now))
      continue;
    if (idle (p, q, now, wake))
      return NULL;
    /* Empty and not worth idling for: next. */
    expire (p, now, false);
  }
  return NULL;
}

static void
cfq_done (struct policy *p, struct req *r, uint64_t now)
{
  struct cfqq *q = r->policy_data;

  (void) p;
  q->in_flight--;
  q->last_done = now;
  q->last_used = now;
}

const struct policy_ops cfq_policy = {
  .name = "cfq",
  .description = "per-connection sync/async queues with time slices, idling and expiry",
  .create = cfq_create,
  .destroy = cfq_destroy,
  .add = cfq_add,
  .pick = cfq_pick,
  .done = cfq_done,
  .remove = cfq_remove,
};
