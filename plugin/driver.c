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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include <ev.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "../sched/engine.h"
#include "clock.h"
#include "debug.h"
#include "realtime.h"
#include "driver.h"
#include "handback.h"
#include "recorder.h"

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
  pthread_t thread;
  bool thread_running;
} drv = {
  .lock = PTHREAD_MUTEX_INITIALIZER,
  .dispatcher_due = ENGINE_NEVER,
};

static uint64_t
model_now (void)
{
  return monotonic_ns () - drv.epoch;
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
  if (f->orphaned) {
    recorder_push (r, true, 0, OUTCOME_ABORTED);
    flight_free (f);
  }
}

static const struct engine_hooks hooks = {
  .started = on_started,
  .completed = on_completed,
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

  if (serving && worker_times (serving))
    return ENGINE_NEVER;
  return engine_next_event (drv.engine);
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
  engine_advance (drv.engine, now);
  next = drv.dispatcher_due = dispatcher_work ();
  pthread_mutex_unlock (&drv.lock);

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
  handback_fini ();
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

/* -1 if there is no memory for the request's commands. */
static int
submit (struct flight *f)
{
  uint64_t now;
  bool wake;

  pthread_mutex_lock (&drv.lock);
  f->req.id = drv.next_id++;
  now = model_now ();
  if (engine_submit (drv.engine, &f->req, now) == -1) {
    pthread_mutex_unlock (&drv.lock);
    return -1;
  }
  /* An idle drive starts this request now, without a thread hop. */
  engine_advance (drv.engine, now);
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

/* Wait until the engine has put f on the drive; -1 if we must abort. */
static int
wait_dispatched (struct flight *f, struct handback *hb)
{
  pthread_mutex_lock (&drv.lock);
  while (f->req.state < REQ_SERVING) {
    struct timespec ts = ns_to_timespec (monotonic_ns () + ABORT_CHECK_NS);
    if (pthread_cond_timedwait (&f->dispatched, &drv.lock, &ts) == ETIMEDOUT
        && f->req.state < REQ_SERVING) {
      pthread_mutex_unlock (&drv.lock);
      if (should_abort (hb))
        return -1;
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

/* Return at the first clock reading at or after 'deadline' (host
 * monotonic ns), or -1 if we must abort; *delivered is that reading.
 */
static int
wait_until (uint64_t deadline, uint64_t *delivered, struct handback *hb)
{
  uint64_t now;

  while ((now = monotonic_ns ()) < deadline
         && deadline - now > drv.spin_ns) {
    uint64_t target = deadline - drv.spin_ns;
    struct timespec ts;

    if (target > now + ABORT_CHECK_NS)
      target = now + ABORT_CHECK_NS;
    ts = ns_to_timespec (target);
    clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    if (should_abort (hb))
      return -1;
  }
  while ((now = monotonic_ns ()) < deadline)
    cpu_relax ();
  *delivered = now;
  return 0;
}

/* f's completion has been delivered at 'delivered': retire it. */
static void
retire (struct flight *f, uint64_t delivered, enum req_outcome outcome)
{
  int64_t late = (int64_t) (delivered - drv.epoch) - (int64_t) f->req.done;
  bool wake;

  pthread_mutex_lock (&drv.lock);
  engine_advance (drv.engine, delivered - drv.epoch);
  wake = dispatcher_must_wake ();
  pthread_mutex_unlock (&drv.lock);
  /* f has left the engine: its record needs no lock. */
  recorder_push (&f->req, true, late, outcome);
  wake_dispatcher_if (wake);
  if (hddsim_debug_timing)
    nbdkit_debug ("delivered id=%" PRIu64 " late=%" PRId64 " ns",
                  f->req.id, late);
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

int
driver_request (const struct io *io, uint32_t conn, struct handback *hb,
                driver_data_fn data, void *arg)
{
  struct flight *f;
  uint64_t delivered;
  int status, err, waited;

  if (handback_enter (hb) == -1)
    return -1;
  f = flight_new (io, conn);
  if (!f) {
    nbdkit_error ("calloc: %m");
    handback_leave (hb, should_abort (hb));
    return -1;
  }
  set_timer_slack_once ();

  if (submit (f) == -1) {
    nbdkit_error ("%s of %" PRIu64 " bytes: no memory for its %" PRIu64
                  "-byte commands (max-transfer=)", io_op_name (io->op),
                  io->length, hdd_max_transfer (drv.hdd));
    flight_free (f);
    handback_leave (hb, should_abort (hb));
    errno = ENOMEM;
    return -1;
  }
  status = data (arg);
  err = errno;

  waited = wait_dispatched (f, hb) == 0;
  if (waited) {
    /* Only a wait ahead needs the priority (realtime.c). */
    realtime_before_wait (drv.realtime,
                          drv.epoch + f->req.done > monotonic_ns ());
    waited = wait_until (drv.epoch + f->req.done, &delivered, hb) == 0;
  }
  if (!waited) {
    abandon (f, OUTCOME_ABORTED);
    handback_leave (hb, true);
    errno = ESHUTDOWN;
    return -1;
  }
  retire (f, delivered, status == 0 ? OUTCOME_OK : OUTCOME_IO_ERROR);
  flight_free (f);
  /* A reply to a client that has just gone joins the closing
   * connection's one-at-a-time hand-back (handback.c).
   */
  handback_leave (hb, should_abort (hb));
  errno = err;
  return status;
}
