/* hddsim: the discrete-event engine (see engine.h).
 *
 * Flushes.  As Linux's blk-flush.c keeps flushes out of the elevators,
 * the engine keeps them out of the policies: a policy sees reads,
 * writes, zeroes and trims only.  NBD asks a flush to cover only the
 * writes that completed before it arrived, so a flush could legally
 * overtake the writes still queued; a filesystem that issues write,
 * write, flush expects the opposite, and the policies reorder far more
 * than a real queue of 16 would.  So a flush is a barrier for its own
 * connection: it is held while any request of the same connection that
 * arrived at or before it (ties count as earlier) has not completed.
 * Once nothing holds it back it is served before anything the policy
 * would pick, oldest first, since someone is waiting on it and it has
 * no position of its own to sort by.  Requests of other connections,
 * and later requests of the same connection, are not held back by a
 * flush.  A held flush counts against qdepth like any request the
 * policy sees, so that admission stays in arrival order.
 */

#include <assert.h>
#include <stdlib.h>

#include "../common/u64.h"
#include "engine.h"

struct engine {
  struct hdd *hdd;
  const struct policy_ops *ops;
  void *policy;                 /* the data its create() returned */
  struct engine_hooks hooks;
  void *opaque;
  uint64_t qdepth;

  struct req_list waiting;      /* submitted, beyond what the policy sees */
  uint32_t nwaiting;
  uint32_t nqueued;             /* held by the policy or as a flush */
  struct req_list admitted;     /* not flushes, admitted, not completed */
  struct req_list flushes;      /* admitted flushes, in arrival order */
  struct req *serving;          /* on the drive, or NULL */

  uint64_t free_since;          /* the drive has been idle since */
  uint64_t decide_at;           /* a decision is due (after a completion) */
  uint64_t policy_wake;         /* the policy asked to be asked again */
  uint64_t advanced_to;         /* the latest 'now' given to advance */
  uint64_t last_arrival;
};

struct engine *
engine_new (struct hdd *hdd, const struct policy_ops *ops,
            const struct sched_params *params,
            const struct engine_hooks *hooks, void *opaque)
{
  struct engine *e = calloc (1, sizeof *e);

  if (!e)
    return NULL;
  e->policy = ops->create (params);
  if (!e->policy) {
    free (e);
    return NULL;
  }
  e->hdd = hdd;
  e->ops = ops;
  e->hooks = *hooks;
  e->opaque = opaque;
  e->qdepth = params->qdepth;
  TAILQ_INIT (&e->waiting);
  TAILQ_INIT (&e->admitted);
  TAILQ_INIT (&e->flushes);
  e->decide_at = ENGINE_NEVER;
  e->policy_wake = ENGINE_NEVER;
  return e;
}

void
engine_free (struct engine *e)
{
  if (!e)
    return;
  e->ops->destroy (e->policy);
  free (e);
}

const struct hdd *
engine_hdd (const struct engine *e)
{
  return e->hdd;
}

struct req *
engine_serving (const struct engine *e)
{
  return e->serving;
}

uint32_t
engine_pending (const struct engine *e)
{
  return e->nwaiting + e->nqueued + (e->serving != NULL);
}

/* Reads, flushes and FUA writes: someone is waiting on each of them. */
static bool
io_is_sync (const struct io *io)
{
  return io->op == IO_READ || io->op == IO_FLUSH || io->fua;
}

void
engine_arrive (struct engine *e, struct req *r, uint64_t arrival)
{
  if (arrival > 0)
    engine_advance (e, arrival - 1);
  engine_submit (e, r, arrival);
}

void
engine_submit (struct engine *e, struct req *r, uint64_t arrival)
{
  if (arrival <= e->advanced_to && e->advanced_to != 0)
    arrival = e->advanced_to + 1;
  if (arrival < e->last_arrival)
    arrival = e->last_arrival;
  e->last_arrival = arrival;

  r->arrival = arrival;
  r->start = r->done = 0;
  r->sync = io_is_sync (&r->io);
  r->queue_len = engine_pending (e);
  r->state = REQ_WAITING;
  TAILQ_INSERT_TAIL (&e->waiting, r, engine_link);
  e->nwaiting++;
}

/* When the next decision is due on an idle drive: after a completion,
 * when the policy asked, or when a request arrives that the policy is
 * allowed to see.
 */
static uint64_t
next_decision (const struct engine *e)
{
  uint64_t t = min64 (e->decide_at, e->policy_wake);
  const struct req *first = TAILQ_FIRST (&e->waiting);

  if (first && e->nqueued < e->qdepth)
    t = min64 (t, max64 (first->arrival, e->free_since));
  return t;
}

uint64_t
engine_next_event (const struct engine *e)
{
  if (e->serving)
    return e->serving->done;
  return next_decision (e);
}

static bool
is_flush (const struct req *r)
{
  return r->io.op == IO_FLUSH;
}

/* Admit the requests that have arrived by t, up to qdepth: flushes to
 * the engine's own list, everything else to the policy.  engine_link
 * moves from the waiting list to the admitted or the flush list.
 */
static void
admit_arrivals (struct engine *e, uint64_t t)
{
  struct req *r;

  while ((r = TAILQ_FIRST (&e->waiting)) != NULL
         && r->arrival <= t && e->nqueued < e->qdepth) {
    TAILQ_REMOVE (&e->waiting, r, engine_link);
    e->nwaiting--;
    r->state = REQ_QUEUED;
    e->nqueued++;
    if (is_flush (r)) {
      TAILQ_INSERT_TAIL (&e->flushes, r, engine_link);
      continue;
    }
    TAILQ_INSERT_TAIL (&e->admitted, r, engine_link);
    e->ops->add (e->policy, r, t);
  }
}

/* Is flush f held back by a request of its connection that arrived at
 * or before it and has not completed?  The admitted list is in arrival
 * order, so the walk stops at f's arrival; it is only made while a
 * flush is held.
 */
static bool
flush_held (const struct engine *e, const struct req *f)
{
  const struct req *r;

  TAILQ_FOREACH (r, &e->admitted, engine_link) {
    if (r->arrival > f->arrival)
      break;
    if (r->conn == f->conn)
      return true;
  }
  return false;
}

/* The oldest flush that nothing holds back, or NULL. */
static struct req *
ready_flush (const struct engine *e)
{
  struct req *f;

  TAILQ_FOREACH (f, &e->flushes, engine_link)
    if (!flush_held (e, f))
      return f;
  return NULL;
}

static void
dispatch (struct engine *e, struct req *r, uint64_t t)
{
  r->start = t;
  r->done = t + hdd_serve (e->hdd, &r->io, t, &r->cost);
  r->state = REQ_SERVING;
  e->serving = r;
  e->decide_at = ENGINE_NEVER;
  e->policy_wake = ENGINE_NEVER;
  if (e->hooks.started)
    e->hooks.started (r, e->opaque);
}

static void
decide (struct engine *e, uint64_t t)
{
  uint64_t wake = ENGINE_NEVER;
  struct req *r;

  admit_arrivals (e, t);
  hdd_idle (e->hdd, t);
  r = ready_flush (e);
  if (r)
    TAILQ_REMOVE (&e->flushes, r, engine_link);
  else
    r = e->ops->pick (e->policy, e->hdd, t, &wake);
  if (r) {
    assert (r->state == REQ_QUEUED);
    e->nqueued--;
    dispatch (e, r, t);
    return;
  }
  /* A policy that asks to be woken in the past would stall time. */
  e->policy_wake = wake <= t ? t + 1 : wake;
  e->decide_at = ENGINE_NEVER;
}

static void
complete (struct engine *e)
{
  struct req *r = e->serving;

  e->serving = NULL;
  r->state = REQ_DONE;
  e->free_since = r->done;
  e->decide_at = r->done;
  if (!is_flush (r)) {
    TAILQ_REMOVE (&e->admitted, r, engine_link);
    if (e->ops->done)
      e->ops->done (e->policy, r, r->done);
  }
  if (e->hooks.completed)
    e->hooks.completed (r, e->opaque);
}

void
engine_advance (struct engine *e, uint64_t now)
{
  if (now > e->advanced_to)
    e->advanced_to = now;

  for (;;) {
    uint64_t t = engine_next_event (e);

    if (t == ENGINE_NEVER || t > now)
      break;
    if (e->serving)
      complete (e);
    else
      decide (e, t);
  }
}

int
engine_cancel (struct engine *e, struct req *r)
{
  switch (r->state) {
  case REQ_WAITING:
    TAILQ_REMOVE (&e->waiting, r, engine_link);
    e->nwaiting--;
    break;
  case REQ_QUEUED:
    if (is_flush (r))
      TAILQ_REMOVE (&e->flushes, r, engine_link);
    else {
      TAILQ_REMOVE (&e->admitted, r, engine_link);
      e->ops->remove (e->policy, r);
    }
    e->nqueued--;
    break;
  case REQ_SERVING:
    return -1;
  case REQ_NEW:
  case REQ_DONE:
    return 0;
  }
  r->state = REQ_DONE;
  return 0;
}
