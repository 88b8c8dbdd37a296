/* hddsim: the real-time driver (see driver.h).
 *
 * Only one request is ever on the actuator, so only one completion is
 * ever imminent.  Its worker sleeps on an absolute CLOCK_MONOTONIC
 * deadline until shortly before the modeled completion and spins the
 * rest: the sleep's wake-up error (40-175 us here) is absorbed by the
 * spin instead of showing up as lateness.  That worker then advances
 * the engine itself, so the next request is dispatched at once rather
 * than when the dispatcher's timer fires.
 *
 * The dispatcher is woken only when it must act: while the request on
 * the drive has a worker waiting for it, that worker advances the
 * engine at the completion, and nothing else can happen before then
 * (engine_next_event is that completion).  The dispatcher times the
 * rest -- the end of an idle window, an expiry, the completion of a
 * request its worker gave up on -- and a worker wakes it only when
 * its change to the engine brings that time forward.  Waking it on
 * every submit and retire (an eventfd write, then the dispatcher
 * taking drv.lock) was 9% of nbdkit's samples at 4K QD16 and much of
 * the contention on drv.lock (docs/lateness.md).  The price: the
 * dispatcher no longer stands by at each completion, so a delivering
 * worker kept off the CPU also delays the signal to the next one (the
 * modeled times are the same either way; the next delivery may be
 * later).  That worker runs at real-time priority, the dispatcher does
 * not.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <ev.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "../common/u64.h"
#include "../sched/engine.h"
#include "clock.h"
#include "debug.h"
#include "realtime.h"
#include "driver.h"
#include "handback.h"
#include "preimage.h"
#include "powercut.h"
#include "recorder.h"
#include "stats.h"

/* How long a waiting worker sleeps before checking whether the server
 * is shutting down or its client went away.
 */
#define ABORT_CHECK_NS (50 * UINT64_C(1000000))

/* A request in flight: the engine's view and its worker's. */
struct flight {
  struct req req;
  pthread_cond_t dispatched;
  bool orphaned;                /* its worker gave up while it was on the
                                   drive; freed when it completes */
  enum req_outcome orphan_outcome;
  /* powercut=: a write, zero or trim whose data reaches the image when
     it is served (apply_served), with its outcome. */
  bool deferred;
  driver_data_fn data;
  void *arg;
  int status, err;
};

static struct {
  pthread_mutex_t lock;         /* guards everything below but 'loop' */
  struct hdd *hdd;
  struct engine *engine;
  uint64_t epoch;               /* CLOCK_MONOTONIC at modeled time 0 */
  uint64_t spin_ns;
  bool realtime;
  uint64_t next_id;
  uint64_t dispatcher_due;      /* the dispatcher is (about to be) timed
                                   for this; ENGINE_NEVER: not at all */

  struct ev_loop *loop;
  ev_async wake;
  ev_async quit;
  ev_timer decision_timer;
  ev_timer poll_timer;          /* powercut=file: */
  pthread_t thread;
  bool thread_running;

  bool powercut, powercut_exit;
  struct stats_powercut cut;    /* counters until the cut; then its
                                   record (t_ns once power_off) */
} drv = {
  .lock = PTHREAD_MUTEX_INITIALIZER,
  .dispatcher_due = ENGINE_NEVER,
};

/* The power has been cut (read without the lock by workers). */
static atomic_bool power_off;

static uint64_t
model_now (void)
{
  return monotonic_ns () - drv.epoch;
}

bool
driver_power_is_off (void)
{
  return atomic_load (&power_off);
}

/* One more request the cut failed, in the stats' record.  Lock held. */
static void
count_cut_failure (void)
{
  drv.cut.failed++;
  recorder_powercut (&drv.cut);
}

/* A request completing at modeled 'done' comes after the cut. */
static bool
cut_before (uint64_t done)
{
  return atomic_load (&power_off) && done > drv.cut.t_ns;
}

static bool
writes_data (enum io_op op)
{
  return op == IO_WRITE || op == IO_ZERO || op == IO_TRIM;
}

/* powercut=: the data of 'part' of f's request (all of it, or one of
 * its commands), served from 'start' to 'done', reaches the image,
 * after the store has kept what the media still needs.  After a part
 * has failed the rest are not written: the request fails.
 */
static void
apply_part (struct flight *f, const struct io *part, uint64_t start,
            uint64_t done)
{
  if (f->status == -1)
    return;
  if (preimage_before_write (part->op, part->offset, part->length,
                             part->fua, start, done) == -1) {
    f->err = errno;
    f->status = -1;
    if (f->err == ENOSPC && part->op == IO_TRIM) {
      /* A trim is advisory: not doing it loses nothing. */
      nbdkit_debug ("powercut: trim of %" PRIu64 " bytes at %" PRIu64
                    " not done: larger than the pre-image store's room",
                    part->length, part->offset);
      f->status = 0;
    }
    else if (f->err == ENOSPC)
      nbdkit_error ("powercut: a %s of %" PRIu64 " bytes at offset %"
                    PRIu64 " does not fit the pre-image store (%" PRIu64
                    " sectors); it fails with ENOSPC",
                    io_op_name (part->op), part->length, part->offset,
                    preimage_capacity ());
    return;
  }
  if (hddsim_debug_powercut)
    nbdkit_debug ("powercut: write ticket %" PRIu64 ": id=%" PRIu64
                  " %s off=%" PRIu64 " len=%" PRIu64 " start=%" PRIu64
                  " done=%" PRIu64, preimage_tickets (), f->req.id,
                  io_op_name (part->op), part->offset, part->length,
                  start, done);
  f->status = f->data (f->arg, part->offset - f->req.io.offset,
                       part->length);
  f->err = errno;
}

/* powercut=: the data of a write, zero or trim reaches the image as
 * the model serves it, in its order, after the store has kept what
 * the media still needs (preimage.h).  Lock held.
 */
static void
apply_served (struct flight *f)
{
  const struct req *r = &f->req;

  if (atomic_load (&power_off)) {
    f->status = -1;
    f->err = EIO;
    return;
  }
  if (r->io.op == IO_FLUSH) {
    if (hddsim_debug_powercut)
      nbdkit_debug ("powercut: flush id=%" PRIu64 " after write ticket %"
                    PRIu64 " start=%" PRIu64 " done=%" PRIu64, r->id,
                    preimage_tickets (), r->start, r->done);
    preimage_flush (r->start, r->done);
    return;
  }
  if (!f->deferred) {
    preimage_advance (r->start);
    return;
  }
  if (r->io.op != IO_TRIM)
    powercut_write_served (r->done);
  /* A split request's parts went with its commands (on_command). */
  if (r->ncmds == 1)
    apply_part (f, &r->io, r->start, r->done);
}

/* powercut=: command c of a split write or zero has been served: its
 * part of the data reaches the image now, before the model serves the
 * next command, as an unsplit request's does after its own serve.
 * Lock held.
 */
static void
on_command (struct req *r, const struct req *c, void *opaque)
{
  struct flight *f = r->user;

  (void) opaque;
  if (drv.powercut && f->deferred && !atomic_load (&power_off))
    apply_part (f, &c->io, c->start, c->done);
}

static void
on_started (struct req *r, void *opaque)
{
  struct flight *f = r->user;

  (void) opaque;
  if (hddsim_debug_sched)
    nbdkit_debug ("dispatch id=%" PRIu64 " %s off=%" PRIu64 " len=%" PRIu64
                  " start=%" PRIu64 " done=%" PRIu64 " seek=%" PRIu64
                  " rot=%" PRIu64 " xfer=%" PRIu64,
                  r->id, io_op_name (r->io.op), r->io.offset, r->io.length,
                  r->start, r->done, r->cost.seek_ns, r->cost.rot_ns,
                  r->cost.xfer_ns);
  if (drv.powercut)
    apply_served (f);
  pthread_cond_signal (&f->dispatched);
}

static void
flight_free (struct flight *f)
{
  pthread_cond_destroy (&f->dispatched);
  free (f);
}

static void
on_completed (struct req *r, void *opaque)
{
  struct flight *f = r->user;

  (void) opaque;
  if (drv.powercut && !atomic_load (&power_off)) {
    if (r->io.op == IO_FLUSH)
      drv.cut.flushes_done++;
    else if (r->io.fua && (r->io.op == IO_WRITE || r->io.op == IO_ZERO))
      drv.cut.fua_writes_done++;
  }
  if (f->orphaned) {
    recorder_push (r, true, 0, f->orphan_outcome);
    flight_free (f);
  }
}

static const struct engine_hooks hooks = {
  .started = on_started,
  .completed = on_completed,
  .command = on_command,
};

/* Is a worker waiting for the completion of what is on the drive?
 * Its worker times a request's completion; a command of a request
 * split into several (sched/engine.c) is timed by nobody but the
 * dispatcher, except the last, which is its request's completion.
 */
static bool
worker_times (const struct req *serving)
{
  const struct req *r = serving->parent ? serving->parent : serving;

  return r->state == REQ_SERVING && !((struct flight *) r->user)->orphaned;
}

/* When the dispatcher must next advance the engine (see the top of
 * this file); lock held.
 */
static uint64_t
dispatcher_work (void)
{
  const struct req *serving = engine_serving (drv.engine);
  uint64_t cut = drv.powercut ? powercut_deadline () : ENGINE_NEVER;

  if (atomic_load (&power_off))
    return ENGINE_NEVER;
  if (serving && worker_times (serving))
    return cut;
  return min64 (cut, engine_next_event (drv.engine));
}

/* The power fails at modeled time t: the drive's background work up
 * to t, the image back to what the media held then, and from now on
 * nothing completes.  Lock held.
 */
static void
power_cut (uint64_t t)
{
  struct preimage_loss loss;

  hdd_idle (drv.hdd, t);
  preimage_cut (drv.hdd, t, &loss);
  drv.cut.t_ns = t;
  drv.cut.lost_extents = loss.extents;
  drv.cut.lost_bytes = loss.sectors * 512;
  atomic_store (&power_off, true);
  recorder_powercut (&drv.cut);
  recorder_trace_cut (&(struct trace_cut) {
      .id = drv.next_id++, .t_ns = t, .lost_extents = loss.extents,
      .lost_bytes = drv.cut.lost_bytes, .flushes_done = drv.cut.flushes_done,
      .fua_writes_done = drv.cut.fua_writes_done,
    });
  nbdkit_error ("power cut at modeled time %" PRIu64 " ns: %" PRIu64
                " bytes in %" PRIu64 " extents were not on the media; %"
                PRIu64 " flushes and %" PRIu64 " FUA writes had completed%s",
                t, drv.cut.lost_bytes, drv.cut.lost_extents,
                drv.cut.flushes_done, drv.cut.fua_writes_done,
                drv.powercut_exit ? "; exiting" : "");
  if (drv.powercut_exit) {
    recorder_stop ();
    _exit (POWERCUT_EXIT_STATUS);
  }
}

/* Advance the engine to now; with powercut=, event by event, so that
 * nothing after the cut is served, and make the cut once it is due.
 * Lock held.
 */
static void
advance (uint64_t now)
{
  if (!drv.powercut) {
    engine_advance (drv.engine, now);
    return;
  }
  while (!atomic_load (&power_off)) {
    uint64_t due = powercut_deadline ();
    uint64_t t = engine_next_event (drv.engine);

    if (due <= now && (t == ENGINE_NEVER || t > due)) {
      engine_advance (drv.engine, due);
      power_cut (due);
      return;
    }
    if (t == ENGINE_NEVER || t > now) {
      engine_advance (drv.engine, now);
      return;
    }
    engine_advance (drv.engine, t);
  }
}

/* After a worker's change to the engine: must the dispatcher be woken
 * because its timer is now too late?  Lock held.  A timer that is
 * early instead only makes it re-arm when it fires.
 */
static bool
dispatcher_must_wake (void)
{
  uint64_t due = dispatcher_work ();

  if (due >= drv.dispatcher_due)
    return false;
  /* It re-arms for the engine's state when it wakes: further changes
   * before then need not wake it again.
   */
  drv.dispatcher_due = due;
  return true;
}

static void
wake_dispatcher_if (bool must)
{
  if (must)
    ev_async_send (drv.loop, &drv.wake);
}

/* Advance the engine to now and re-arm the dispatcher for the next
 * decision point.  Runs in the dispatcher thread.
 */
static void
rearm (struct ev_loop *loop)
{
  uint64_t now, next;

  pthread_mutex_lock (&drv.lock);
  now = model_now ();
  if (drv.powercut && powercut_check ())
    powercut_fire (now);
  advance (now);
  next = drv.dispatcher_due = dispatcher_work ();
  pthread_mutex_unlock (&drv.lock);

  if (atomic_load (&power_off))
    ev_timer_stop (loop, &drv.poll_timer);
  ev_timer_stop (loop, &drv.decision_timer);
  if (next != ENGINE_NEVER) {
    ev_now_update (loop);
    ev_timer_set (&drv.decision_timer,
                  next > now ? (double) (next - now) / 1e9 : 0., 0.);
    ev_timer_start (loop, &drv.decision_timer);
  }
}

static void
on_wake (struct ev_loop *loop, ev_async *w, int revents)
{
  (void) w; (void) revents;
  rearm (loop);
}

static void
on_decision_timer (struct ev_loop *loop, ev_timer *w, int revents)
{
  (void) w; (void) revents;
  rearm (loop);
}

static void
on_poll_timer (struct ev_loop *loop, ev_timer *w, int revents)
{
  (void) w; (void) revents;
  rearm (loop);
}

/* powercut=signal: from the signal handler (ev_async_send is
 * async-signal-safe).
 */
static void
wake_from_signal (void)
{
  ev_async_send (drv.loop, &drv.wake);
}

static void
on_quit (struct ev_loop *loop, ev_async *w, int revents)
{
  (void) w; (void) revents;
  ev_break (loop, EVBREAK_ALL);
}

static void *
dispatcher (void *arg)
{
  (void) arg;
  ev_run (drv.loop, 0);
  return NULL;
}

/* libev's epoll and poll backends round timeouts up to a whole
 * millisecond; select keeps microseconds (measured: DESIGN.md).
 * Never the default loop: its SIGCHLD watcher would steal nbdkit's
 * --run child.
 */
static struct ev_loop *
new_loop (void)
{
  struct ev_loop *loop = ev_loop_new (EVBACKEND_SELECT | EVFLAG_NOSIGMASK);

  if (!loop)
    loop = ev_loop_new (EVFLAG_AUTO | EVFLAG_NOSIGMASK);
  return loop;
}

static int
start_dispatcher (void)
{
  sigset_t all, old;
  int err;

  drv.loop = new_loop ();
  if (!drv.loop) {
    nbdkit_error ("cannot create the event loop (libev)");
    return -1;
  }
  ev_async_init (&drv.wake, on_wake);
  ev_async_start (drv.loop, &drv.wake);
  ev_async_init (&drv.quit, on_quit);
  ev_async_start (drv.loop, &drv.quit);
  ev_timer_init (&drv.decision_timer, on_decision_timer, 0., 0.);
  if (drv.powercut && powercut_polls ()) {
    double every = POWERCUT_POLL_NS / 1e9;
    ev_timer_init (&drv.poll_timer, on_poll_timer, every, every);
    ev_timer_start (drv.loop, &drv.poll_timer);
  }
  if (drv.powercut && powercut_install (wake_from_signal) == -1)
    return -1;
  /* The cut may come before any request: be timed for it from now. */
  if (drv.powercut)
    ev_timer_start (drv.loop, &drv.decision_timer);

  /* Signals belong to nbdkit's own threads. */
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  err = pthread_create (&drv.thread, NULL, dispatcher, NULL);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (err) {
    errno = err;
    nbdkit_error ("cannot start the dispatcher thread: %m");
    return -1;
  }
  drv.thread_running = true;
  return 0;
}

/* powercut=: the store of what the media holds, fed by the model. */
static int
start_media (const struct driver_config *cfg)
{
  uint64_t cache = hdd_write_cache_bytes (drv.hdd);

  if (!hdd_params_rotates (cfg->hdd_params)) {
    nbdkit_error ("powercut= needs a modeled drive: profile=fixed has "
                  "no media or cache to lose data from");
    return -1;
  }
  if (preimage_init (cfg->image_bytes, cache, cache > 0) == -1)
    return -1;
  hdd_set_media_observer (drv.hdd, preimage_observe, NULL);
  return 0;
}

int
driver_start (const struct driver_config *cfg)
{
  char err[HDD_ERRLEN] = "";

  drv.hdd = hdd_new (cfg->hdd_params, cfg->image_bytes, cfg->seed,
                     err, sizeof err);
  if (!drv.hdd) {
    nbdkit_error ("%s", err);
    return -1;
  }
  if (handback_init () == -1)
    return -1;
  drv.engine = engine_new (drv.hdd, cfg->policy, cfg->sched_params,
                           &hooks, NULL);
  if (!drv.engine) {
    nbdkit_error ("out of memory");
    return -1;
  }
  drv.spin_ns = cfg->spin_ns;
  drv.realtime = cfg->realtime;
  drv.powercut = cfg->powercut;
  drv.powercut_exit = cfg->powercut_exit;
  if (cfg->powercut && start_media (cfg) == -1)
    return -1;
  return recorder_start (cfg->trace_path, cfg->stats_path);
}

int
driver_after_fork (void)
{
  drv.epoch = monotonic_ns ();
  if (recorder_after_fork (drv.epoch) == -1)
    return -1;
  return start_dispatcher ();
}

void
driver_stop (void)
{
  if (drv.thread_running) {
    ev_async_send (drv.loop, &drv.quit);
    pthread_join (drv.thread, NULL);
    drv.thread_running = false;
  }
  /* Requests abandoned on the drive by workers that gave up (SIGTERM,
   * hang-ups) are freed when they complete: run the drive out.
   */
  if (drv.engine) {
    pthread_mutex_lock (&drv.lock);
    engine_advance (drv.engine, ENGINE_NEVER - 1);
    pthread_mutex_unlock (&drv.lock);
  }
  recorder_stop ();
  if (drv.loop)
    ev_loop_destroy (drv.loop);
  engine_free (drv.engine);
  hdd_free (drv.hdd);
  preimage_free ();
  handback_fini ();
  drv.powercut = drv.powercut_exit = false;
  drv.cut = (struct stats_powercut) { 0 };
  atomic_store (&power_off, false);
  drv.loop = NULL;
  drv.engine = NULL;
  drv.hdd = NULL;
  drv.dispatcher_due = ENGINE_NEVER;
}

static struct flight *
flight_new (const struct io *io, uint32_t conn)
{
  struct flight *f = calloc (1, sizeof *f);
  pthread_condattr_t attr;

  if (!f)
    return NULL;
  pthread_condattr_init (&attr);
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  pthread_cond_init (&f->dispatched, &attr);
  pthread_condattr_destroy (&attr);
  f->req.io = *io;
  f->req.conn = conn;
  f->req.user = f;
  return f;
}

/* Queue f: 0, or an errno: EIO if the power is off (by now), ENOMEM
 * if there is no memory for the request's commands.
 */
static int
submit (struct flight *f)
{
  uint64_t now;
  bool wake;

  pthread_mutex_lock (&drv.lock);
  now = model_now ();
  if (drv.powercut)
    advance (now);
  if (atomic_load (&power_off)) {
    pthread_mutex_unlock (&drv.lock);
    return EIO;
  }
  f->req.id = drv.next_id++;
  if (engine_submit (drv.engine, &f->req, now) == -1) {
    pthread_mutex_unlock (&drv.lock);
    return ENOMEM;
  }
  /* An idle drive starts this request now, without a thread hop. */
  advance (now);
  wake = dispatcher_must_wake ();
  pthread_mutex_unlock (&drv.lock);
  wake_dispatcher_if (wake);
  return 0;
}

/* The worker gives up on f: withdraw it, or leave it to complete on
 * the drive if it is already there.
 */
static void
abandon (struct flight *f, enum req_outcome outcome)
{
  bool free_now, served, wake;

  pthread_mutex_lock (&drv.lock);
  served = f->req.state == REQ_DONE;
  free_now = engine_cancel (drv.engine, &f->req) == 0;
  f->orphaned = !free_now;
  f->orphan_outcome = outcome;
  if (outcome == OUTCOME_POWERCUT)
    count_cut_failure ();
  wake = dispatcher_must_wake ();
  pthread_mutex_unlock (&drv.lock);
  wake_dispatcher_if (wake);
  /* Out of the engine, f is this worker's alone: record it off the
   * lock.  Pulled from the queue before it was served, it has no
   * service interval for the trace but is one more aborted request;
   * one still on the drive is recorded when it completes.
   */
  if (free_now) {
    recorder_push (&f->req, served, 0, outcome);
    flight_free (f);
  }
}

/* nbdkit_nanosleep with a zero timeout only checks for shutdown and
 * for the client hanging up.  Once one worker of the connection has
 * seen that, the others need not ask nbdkit (which logs an error each
 * time: under valgrind, hundreds of workers queued on stderr's lock).
 */
static bool
should_abort (struct handback *hb)
{
  return handback_closing (hb) || nbdkit_nanosleep (0, 0) == -1;
}

/* Outcomes of the waits. */
#define WAIT_ABORT -1           /* server shutting down, client gone */
#define WAIT_POWER -2           /* the power was cut first */

/* Wait until the engine has put f on the drive. */
static int
wait_dispatched (struct flight *f, struct handback *hb)
{
  pthread_mutex_lock (&drv.lock);
  while (f->req.state < REQ_SERVING) {
    struct timespec ts = ns_to_timespec (monotonic_ns () + ABORT_CHECK_NS);
    if (pthread_cond_timedwait (&f->dispatched, &drv.lock, &ts) == ETIMEDOUT
        && f->req.state < REQ_SERVING) {
      pthread_mutex_unlock (&drv.lock);
      if (atomic_load (&power_off))
        return WAIT_POWER;
      if (should_abort (hb))
        return WAIT_ABORT;
      pthread_mutex_lock (&drv.lock);
    }
  }
  pthread_mutex_unlock (&drv.lock);
  return 0;
}

static inline void
cpu_relax (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#endif
}

/* Return at the first clock reading at or after f's modeled
 * completion, or WAIT_*; *delivered is that reading.
 */
static int
wait_until (const struct flight *f, uint64_t *delivered,
            struct handback *hb)
{
  uint64_t now, deadline = drv.epoch + f->req.done;

  while ((now = monotonic_ns ()) < deadline
         && deadline - now > drv.spin_ns) {
    uint64_t target = deadline - drv.spin_ns;
    struct timespec ts;

    if (target > now + ABORT_CHECK_NS)
      target = now + ABORT_CHECK_NS;
    ts = ns_to_timespec (target);
    clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    if (cut_before (f->req.done))
      return WAIT_POWER;
    if (should_abort (hb))
      return WAIT_ABORT;
  }
  while ((now = monotonic_ns ()) < deadline)
    cpu_relax ();
  *delivered = now;
  return 0;
}

/* f's completion has been delivered at 'delivered': retire it.  -1
 * if the power was cut before it completed (f is then left to the
 * engine, orphaned).
 */
static int
retire (struct flight *f, uint64_t delivered, enum req_outcome outcome)
{
  int64_t late = (int64_t) (delivered - drv.epoch) - (int64_t) f->req.done;
  bool wake;

  pthread_mutex_lock (&drv.lock);
  /* Under the lock, before the reply: a cut due by now is made first,
     so no request completing after it is acknowledged. */
  advance (delivered - drv.epoch);
  if (cut_before (f->req.done)) {
    f->orphaned = true;
    f->orphan_outcome = OUTCOME_POWERCUT;
    count_cut_failure ();
    pthread_mutex_unlock (&drv.lock);
    return -1;
  }
  wake = dispatcher_must_wake ();
  pthread_mutex_unlock (&drv.lock);
  /* f has left the engine: its record needs no lock. */
  recorder_push (&f->req, true, late, outcome);
  wake_dispatcher_if (wake);
  if (hddsim_debug_timing)
    nbdkit_debug ("delivered id=%" PRIu64 " late=%" PRId64 " ns",
                  f->req.id, late);
  return 0;
}

/* The delivery sleep must not be lengthened by timer slack.  Slack is
 * per thread and nbdkit's workers live as long as their connection:
 * set it once per thread, not once per request.
 */
static void
set_timer_slack_once (void)
{
  static __thread bool done;

  if (!done) {
    prctl (PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    done = true;
  }
}

/* The request could not complete: the power was cut, or we must
 * abort.
 */
static int
give_up (struct flight *f, struct handback *hb, int waited)
{
  bool power = waited == WAIT_POWER;

  abandon (f, power ? OUTCOME_POWERCUT : OUTCOME_ABORTED);
  handback_leave (hb, power ? should_abort (hb) : true);
  errno = power ? EIO : ESHUTDOWN;
  return -1;
}

/* After the data op's 'status': the FUA sync, if any and it went well. */
static int
then_sync (driver_sync_fn sync, void *arg, int status, int *err)
{
  if (status != 0 || !sync)
    return status;
  status = sync (arg);
  *err = errno;
  return status;
}

int
driver_request (const struct io *io, uint32_t conn, struct handback *hb,
                driver_data_fn data, driver_sync_fn sync, void *arg)
{
  struct flight *f;
  uint64_t delivered;
  int status = 0, err = 0, waited;

  if (handback_enter (hb) == -1)
    return -1;
  f = flight_new (io, conn);
  if (!f) {
    nbdkit_error ("calloc: %m");
    handback_leave (hb, should_abort (hb));
    return -1;
  }
  set_timer_slack_once ();
  f->deferred = drv.powercut && writes_data (io->op);
  f->data = data;
  f->arg = arg;

  err = submit (f);
  if (err) {
    if (err == ENOMEM)
      nbdkit_error ("%s of %" PRIu64 " bytes: no memory for its %" PRIu64
                    "-byte commands (max-transfer=)", io_op_name (io->op),
                    io->length, hdd_max_transfer (drv.hdd));
    flight_free (f);
    handback_leave (hb, should_abort (hb));
    errno = err;
    return -1;
  }
  if (!f->deferred) {
    status = data (arg, 0, io->length);
    err = errno;
    status = then_sync (sync, arg, status, &err);
  }

  waited = wait_dispatched (f, hb);
  if (waited == 0 && f->deferred) {
    err = f->err;
    status = then_sync (sync, arg, f->status, &err);
  }
  if (waited == 0) {
    /* Only a wait ahead needs the priority (realtime.c). */
    realtime_before_wait (drv.realtime,
                          drv.epoch + f->req.done > monotonic_ns ());
    waited = wait_until (f, &delivered, hb);
  }
  if (waited != 0)
    return give_up (f, hb, waited);
  if (retire (f, delivered,
              status == 0 ? OUTCOME_OK : OUTCOME_IO_ERROR) == -1) {
    handback_leave (hb, should_abort (hb));
    errno = EIO;
    return -1;
  }
  flight_free (f);
  /* A reply to a client that has just gone joins the closing
   * connection's one-at-a-time hand-back (handback.c).
   */
  handback_leave (hb, should_abort (hb));
  errno = err;
  return status;
}
