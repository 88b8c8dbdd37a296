/* hddsim: the discrete-event engine (see engine.h).
 *
 * Two levels.  The policy decides what to hand the drive and when; the
 * drive holds up to its queue depth (ncq-depth=, 1 for a policy that is
 * itself a firmware's rule, satf) and its firmware's rule picks what the
 * actuator serves next (drive_queue.c).  The policy is asked whenever
 * the drive has room: after a completion, at an arrival, when it asked
 * to be woken.  When the actuator frees, the drive starts the command
 * it picks among those it holds before the host hands it more.  With
 * ncq-depth=1 the drive has room only when it is empty and idle, and
 * the engine is the one-level engine it was: the policy picks what the
 * actuator serves, at a completion or an arrival on an idle drive.
 * A drive with two actuators (actuators=2) serves a command on each at
 * once: when an arm frees, the firmware's rule picks among the
 * commands held for that arm (hdd_actuator_of); the queue depth counts
 * the commands on both arms and held.
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
 * policy sees, so that admission stays in arrival order.  A flush is
 * not queued by the drive (ATA's FLUSH CACHE is not an NCQ command): a
 * ready one waits for the drive to empty, and nothing is handed to the
 * drive until it has run.
 *
 * Commands.  A drive takes at most max-transfer bytes in one command,
 * so a longer read, write or zero is served as consecutive commands of
 * max-transfer bytes (the last one shorter), queued together at the
 * request's arrival; the submitter hears of the request only (its
 * started hook with the last command on the drive, its completed hook
 * when the last command completes), and, through the optional command
 * hook, of each command the model has served (for a submitter whose
 * data must follow the model's order, as with powercut=).  The split lives here, below the
 * policies and above the model, because that is where a real system
 * puts it: the kernel's block layer splits I/O at the device's
 * max_sectors before the elevator sees it, so Linux's CFQ counts its
 * quantum in commands, a deadline's FIFO and a sweep order commands,
 * and a read that arrives during a 4 MiB write can be served between
 * two of its commands.  Splitting in the model instead would hold the
 * drive for the whole request, as no drive is ever asked to; leaving it
 * to the client (the NBD maximum block size alone) makes the pieces
 * arrive one after another (docs/schedulers.md).  A trim carries only a
 * range and is not split.
 *
 * qdepth counts the client's requests, not commands: a request is
 * admitted whole, its commands all visible to the policy at once, and
 * holds its place until its last command is on the drive.  Counted in
 * commands, a writer with four 4 MiB writes outstanding (128 commands
 * of 128 KiB) filled the policy's window of 32 and left every read
 * waiting behind it in arrival order, where no policy could see it
 * (measured: cfq's reader p50 240 ms instead of 8 ms).  Linux avoids
 * the same by counting its request limit per direction, sync apart
 * from async.  queue_len counts requests too.
 */

#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "../common/u64.h"
#include "drive_queue.h"
#include "engine.h"

struct engine {
  struct hdd *hdd;
  const struct policy_ops *ops;
  void *policy;                 /* the data its create() returned */
  struct engine_hooks hooks;
  void *opaque;
  uint64_t qdepth;
  uint64_t max_transfer;        /* the drive's; 0 = unlimited */

  struct req_list waiting;      /* submitted, beyond what the policy sees */
  uint32_t nwaiting;
  uint32_t nqueued;             /* held by the policy or as a flush */
  struct req_list admitted;     /* not flushes, admitted, not completed */
  struct req_list flushes;      /* admitted flushes, in arrival order */
  uint32_t nin_drive;           /* requests whose every command has been
                                   handed to the drive, not completed */
  struct drive_queue drive;     /* handed to the drive, not yet served */
  /* On each actuator, or NULL: one on most drives; a dual-actuator
     drive (actuators=2, model/actuators.c) serves one command on each
     at once, from its one queue. */
  struct req *serving[HDD_ACTUATORS_MAX];
  unsigned nact;

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
  e->max_transfer = hdd_max_transfer (hdd);
  e->nact = hdd_actuators (hdd);
  drive_queue_init (&e->drive, hdd_queue (hdd),
                    ops->firmware ? 1 : hdd_queue (hdd)->depth);
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

/* The command on actuator k completes first (ties: the lower k), or
 * NULL if none is serving.
 */
static struct req *
first_done (const struct engine *e)
{
  struct req *r = NULL;
  unsigned k;

  for (k = 0; k < e->nact; k++)
    if (e->serving[k] && (!r || e->serving[k]->done < r->done))
      r = e->serving[k];
  return r;
}

static unsigned
nserving (const struct engine *e)
{
  unsigned k, n = 0;

  for (k = 0; k < e->nact; k++)
    n += e->serving[k] != NULL;
  return n;
}

struct req *
engine_serving (const struct engine *e)
{
  return first_done (e);
}

uint32_t
engine_pending (const struct engine *e)
{
  /* A request with commands still to dispatch counts as queued. */
  return e->nwaiting + e->nqueued + e->nin_drive;
}

/* Reads, flushes and FUA writes: someone is waiting on each of them. */
static bool
io_is_sync (const struct io *io)
{
  return io->op == IO_READ || io->op == IO_FLUSH || io->fua;
}

int
engine_arrive (struct engine *e, struct req *r, uint64_t arrival)
{
  if (arrival > 0)
    engine_advance (e, arrival - 1);
  return engine_submit (e, r, arrival);
}

/* How many commands the drive serves io as (see the top of the file);
 * 0 if more than a request can be split into.
 */
static uint64_t
commands_of (const struct engine *e, const struct io *io)
{
  uint64_t n;

  if (e->max_transfer == 0 || io->length <= e->max_transfer
      || !(io->op == IO_READ || io->op == IO_WRITE || io->op == IO_ZERO))
    return 1;
  n = io->length / e->max_transfer + (io->length % e->max_transfer != 0);
  return n > UINT32_MAX ? 0 : n;
}

/* Put r at the end of the waiting list. */
static void
enqueue (struct engine *e, struct req *r, uint64_t arrival)
{
  r->arrival = arrival;
  r->dispatch = r->start = r->done = 0;
  r->drive_len = 0;
  r->cost = (struct hdd_cost) { 0 };
  r->sync = io_is_sync (&r->io);
  r->queue_len = engine_pending (e);
  r->state = REQ_WAITING;
  TAILQ_INSERT_TAIL (&e->waiting, r, engine_link);
  e->nwaiting++;
}

/* Fill in the commands of r, queued: consecutive pieces of
 * max-transfer bytes, in offset order, arriving with r.
 */
static void
prepare_commands (struct engine *e, struct req *r)
{
  uint64_t offset = r->io.offset, left = r->io.length;
  uint32_t i;

  r->cmds_undispatched = r->cmds_unstarted = r->cmds_left = r->ncmds;
  for (i = 0; i < r->ncmds; i++) {
    struct req *c = &r->cmds[i];

    c->io = r->io;
    c->io.offset = offset;
    c->io.length = left < e->max_transfer ? left : e->max_transfer;
    c->conn = r->conn;
    c->id = r->id;
    c->user = r->user;
    c->parent = r;
    c->ncmds = 1;
    c->arrival = r->arrival;
    c->sync = r->sync;
    c->queue_len = r->queue_len;
    c->state = REQ_NEW;
    offset += c->io.length;
    left -= c->io.length;
  }
}

int
engine_submit (struct engine *e, struct req *r, uint64_t arrival)
{
  uint64_t n = commands_of (e, &r->io);

  /* Allocated before anything changes, so that a failure leaves the
   * engine as it was.
   */
  r->parent = NULL;
  r->cmds = NULL;
  r->ncmds = 1;
  if (n != 1) {
    r->cmds = n ? calloc (n, sizeof *r->cmds) : NULL;
    if (!r->cmds) {
      errno = ENOMEM;
      return -1;
    }
    r->ncmds = (uint32_t) n;
  }

  if (arrival <= e->advanced_to && e->advanced_to != 0)
    arrival = e->advanced_to + 1;
  if (arrival < e->last_arrival)
    arrival = e->last_arrival;
  e->last_arrival = arrival;

  enqueue (e, r, arrival);
  if (r->cmds)
    prepare_commands (e, r);
  return 0;
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

static bool
is_flush (const struct req *r)
{
  return r->io.op == IO_FLUSH;
}

/* Can the drive take a command now?  It holds at most its queue
 * depth, the command on the actuator included, and takes nothing
 * while a command that is not queued (a flush: SATA's FLUSH CACHE is
 * not an NCQ command) is on the actuator.
 */
static bool
drive_room (const struct engine *e)
{
  unsigned k;

  for (k = 0; k < e->nact; k++)
    if (e->serving[k] && is_flush (e->serving[k]))
      return false;
  return e->drive.nheld + nserving (e) < e->drive.depth;
}

static bool
drive_empty (const struct engine *e)
{
  return nserving (e) == 0 && e->drive.nheld == 0;
}

uint64_t
engine_next_event (const struct engine *e)
{
  const struct req *s = first_done (e);
  uint64_t t = s ? s->done : ENGINE_NEVER;

  if (drive_room (e))
    t = min64 (t, next_decision (e));
  return t;
}

/* Give the policy every command of r at once. */
static void
admit_commands (struct engine *e, struct req *r, uint64_t t)
{
  uint32_t i;

  for (i = 0; i < r->ncmds; i++) {
    struct req *c = &r->cmds[i];

    c->state = REQ_QUEUED;
    TAILQ_INSERT_TAIL (&e->admitted, c, engine_link);
    e->ops->add (e->policy, c, t);
  }
}

/* Admit the requests that have arrived by t, up to qdepth: flushes to
 * the engine's own list, everything else to the policy (a split
 * request as its commands, all at once: qdepth counts the client's
 * requests, see the top of the file).  engine_link moves from the
 * waiting list to the admitted or the flush list.
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
    if (is_flush (r))
      TAILQ_INSERT_TAIL (&e->flushes, r, engine_link);
    else if (r->cmds)
      admit_commands (e, r, t);
    else {
      TAILQ_INSERT_TAIL (&e->admitted, r, engine_link);
      e->ops->add (e->policy, r, t);
    }
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
cost_add (struct hdd_cost *sum, const struct hdd_cost *c)
{
  sum->busy_ns += c->busy_ns;
  sum->overhead_ns += c->overhead_ns;
  sum->seek_ns += c->seek_ns;
  sum->rot_ns += c->rot_ns;
  sum->xfer_ns += c->xfer_ns;
  sum->seek_cylinders += c->seek_cylinders;
  sum->cache_hit = sum->cache_hit && c->cache_hit;
  sum->tail_ns += c->tail_ns;
  sum->retries += c->retries;
  sum->medium_error = sum->medium_error || c->medium_error;
  sum->reallocated += c->reallocated;
  sum->pending += c->pending;
  sum->clean_ns += c->clean_ns;         /* of busy_ns: as busy_ns */
}

/* Command c of a split request r is on the actuator: r starts with
 * the first of its commands to get there, and is on the drive (its
 * started hook) with the last.
 */
static void
command_started (struct engine *e, struct req *c)
{
  struct req *r = c->parent;

  if (r->cmds_unstarted == r->ncmds) {
    r->start = c->start;
    r->cost = (struct hdd_cost) { .cache_hit = true };
  }
  cost_add (&r->cost, &c->cost);
  r->done = c->done;
  if (e->hooks.command)
    e->hooks.command (r, c, e->opaque);
  if (--r->cmds_unstarted == 0) {
    r->state = REQ_SERVING;
    if (e->hooks.started)
      e->hooks.started (r, e->opaque);
  }
}

/* r, a request or a command, is on the actuator from t: the model
 * serves it after the drive's queueing overhead (0 on a drive that
 * does not queue).
 */
static void
serve (struct engine *e, struct req *r, uint64_t t, unsigned k)
{
  uint64_t ov = drive_queue_overhead (&e->drive);

  r->start = t;
  r->done = t + ov + hdd_serve (e->hdd, &r->io, t + ov, &r->cost);
  r->cost.overhead_ns += ov;
  r->state = REQ_SERVING;
  e->serving[k] = r;
  if (r->parent)
    command_started (e, r);
  else if (e->hooks.started)
    e->hooks.started (r, e->opaque);
}

/* Each actuator free at t serves the command the firmware chooses
 * among those it holds for that actuator, if any (with one actuator:
 * among all it holds).
 */
static void
start_next (struct engine *e, uint64_t t)
{
  unsigned k;

  for (k = 0; k < e->nact; k++)
    if (!e->serving[k] && e->drive.nheld > 0) {
      struct req *c = drive_queue_next_on (&e->drive, e->hdd, t, k);
      if (c)
        serve (e, c, t, k);
    }
}

/* Hand r (a request, a command or a flush) to the drive at t.  A split
 * request takes its dispatch and drive_len from its first command and
 * holds its place in qdepth until its last command goes.
 */
static void
hand_to_drive (struct engine *e, struct req *r, uint64_t t)
{
  struct req *p = r->parent;

  r->dispatch = t;
  r->drive_len = e->drive.nheld + nserving (e);
  r->state = REQ_DRIVE;
  drive_queue_put (&e->drive, r);
  if (p) {
    if (p->cmds_undispatched == p->ncmds) {
      p->dispatch = t;
      p->drive_len = r->drive_len;
    }
    if (--p->cmds_undispatched > 0)
      return;
    p->state = REQ_DRIVE;
  }
  e->nqueued--;
  e->nin_drive++;
}

/* The drive has room at t: hand it commands while it has room, a ready
 * flush first (once the drive is empty: a flush is not queued, and
 * nothing passes it), then what the policy picks; then, if the
 * actuator is free, start the firmware's choice.
 */
static void
decide (struct engine *e, uint64_t t)
{
  admit_arrivals (e, t);
  if (nserving (e) < e->nact)   /* an arm is free for background work */
    hdd_idle (e->hdd, t);
  e->decide_at = ENGINE_NEVER;
  e->policy_wake = ENGINE_NEVER;
  while (drive_room (e)) {
    uint64_t wake = ENGINE_NEVER;
    struct req *r = ready_flush (e);

    if (r) {
      if (!drive_empty (e))
        break;
      TAILQ_REMOVE (&e->flushes, r, engine_link);
    }
    else if (!(r = e->ops->pick (e->policy, e->hdd, t, &wake))) {
      /* A policy that asks to be woken in the past would stall time. */
      e->policy_wake = wake <= t ? t + 1 : wake;
      break;
    }
    assert (r->state == REQ_QUEUED);
    hand_to_drive (e, r, t);
    if (is_flush (r))
      break;                    /* nothing is handed over while it runs */
  }
  start_next (e, t);
}

/* Command c of r has completed (or c was withdrawn, for
 * engine_cancel): r is done with its last.
 */
static void
command_done (struct engine *e, struct req *c)
{
  struct req *r = c->parent;

  if (--r->cmds_left > 0)
    return;
  e->nin_drive--;
  r->done = c->done;
  free (r->cmds);               /* c with them */
  r->cmds = NULL;
  r->state = REQ_DONE;
  if (e->hooks.completed)
    e->hooks.completed (r, e->opaque);
}

static void
complete (struct engine *e, struct req *r)
{
  uint64_t t = r->done;         /* r may be freed with its request */
  unsigned k;

  for (k = 0; k < e->nact; k++)
    if (e->serving[k] == r)
      e->serving[k] = NULL;
  r->state = REQ_DONE;
  e->free_since = r->done;
  e->decide_at = r->done;
  if (!is_flush (r)) {
    TAILQ_REMOVE (&e->admitted, r, engine_link);
    if (e->ops->done)
      e->ops->done (e->policy, r, r->done);
  }
  if (r->parent)
    command_done (e, r);
  else {
    e->nin_drive--;
    if (e->hooks.completed)
      e->hooks.completed (r, e->opaque);
  }
  /* The drive goes on with what it holds before the host hands it
     anything more (a decision at the same instant comes after). */
  start_next (e, t);
}

void
engine_advance (struct engine *e, uint64_t now)
{
  if (now > e->advanced_to)
    e->advanced_to = now;

  for (;;) {
    uint64_t t = engine_next_event (e);
    struct req *s;

    if (t == ENGINE_NEVER || t > now)
      break;
    s = first_done (e);
    if (s && s->done == t)
      complete (e, s);
    else
      decide (e, t);
  }
}

/* Take r (a request or a command) out of the engine: 0, or -1 if it
 * is on the drive.  A command's place in qdepth is its request's
 * (cancel_commands).
 */
static int
withdraw (struct engine *e, struct req *r)
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
    if (!r->parent)
      e->nqueued--;
    break;
  case REQ_DRIVE:
  case REQ_SERVING:
    return -1;
  case REQ_NEW:
  case REQ_DONE:
    return 0;
  }
  r->state = REQ_DONE;
  return 0;
}

/* Withdraw the commands of r that are not on the drive or done; r is
 * done with the one on the drive, if any.
 */
static int
cancel_commands (struct engine *e, struct req *r)
{
  bool on_drive = false, holds_place = r->cmds_undispatched > 0;
  uint32_t i;

  if (r->state == REQ_WAITING) {        /* not admitted: no command is */
    withdraw (e, r);
    free (r->cmds);
    r->cmds = NULL;
    return 0;
  }
  for (i = 0; i < r->ncmds; i++) {
    struct req *c = &r->cmds[i];

    if (c->state == REQ_DONE)
      continue;
    if (withdraw (e, c) == -1) {
      on_drive = true;
      continue;
    }
    r->cmds_undispatched--;
    r->cmds_unstarted--;
    r->cmds_left--;
  }
  if (holds_place) {
    e->nqueued--;
    if (on_drive)               /* it completes with its commands there */
      e->nin_drive++;
  }
  if (on_drive)
    return -1;
  free (r->cmds);
  r->cmds = NULL;
  r->state = REQ_DONE;
  return 0;
}

int
engine_cancel (struct engine *e, struct req *r)
{
  if (r->cmds)
    return cancel_commands (e, r);
  return withdraw (e, r);
}
