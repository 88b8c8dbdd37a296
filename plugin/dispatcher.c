/* hddsim: the driver's dispatcher (see dispatcher.h).
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
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <ev.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "../common/u64.h"
#include "dispatcher.h"
#include "driver_core.h"
#include "fault.h"
#include "power.h"
#include "powercut.h"

static struct {
  uint64_t due;                 /* under drv.lock: the dispatcher is
                                   (about to be) timed for this;
                                   ENGINE_NEVER: not at all */
  struct ev_loop *loop;
  ev_async wake;
  ev_async quit;
  ev_timer decision_timer;
  ev_timer poll_timer;          /* powercut=file: */
  pthread_t thread;
  bool thread_running;
} disp = {
  .due = ENGINE_NEVER,
};

/* When the dispatcher must next advance the engine (see the top of
 * this file); lock held.
 */
static uint64_t
dispatcher_work (void)
{
  const struct req *serving = engine_serving (drv.engine);
  uint64_t cut = power_cut_due ();

  if (power_is_off ())
    return ENGINE_NEVER;
  if (serving && driver_worker_times (serving))
    return cut;
  return min64 (cut, engine_next_event (drv.engine));
}

/* A timer that is early instead only makes it re-arm when it
 * fires.
 */
bool
dispatcher_must_wake (void)
{
  uint64_t due = dispatcher_work ();

  if (due >= disp.due)
    return false;
  /* It re-arms for the engine's state when it wakes: further changes
   * before then need not wake it again.
   */
  disp.due = due;
  return true;
}

void
dispatcher_wake_if (bool must)
{
  if (must)
    ev_async_send (disp.loop, &disp.wake);
}

/* Advance the engine to now and re-arm the dispatcher for the next
 * decision point.  Runs in the dispatcher thread.
 */
static void
rearm (struct ev_loop *loop)
{
  uint64_t now, next;

  pthread_mutex_lock (&drv.lock);
  now = driver_model_now ();
  power_poll_trigger (now);
  fault_poll_trigger (drv.hdd, now);
  power_advance (now);
  next = disp.due = dispatcher_work ();
  pthread_mutex_unlock (&drv.lock);

  if (power_is_off () && !fault_polls ())
    ev_timer_stop (loop, &disp.poll_timer);
  ev_timer_stop (loop, &disp.decision_timer);
  if (next != ENGINE_NEVER) {
    ev_now_update (loop);
    ev_timer_set (&disp.decision_timer,
                  next > now ? (double) (next - now) / 1e9 : 0., 0.);
    ev_timer_start (loop, &disp.decision_timer);
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
  ev_async_send (disp.loop, &disp.wake);
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
  ev_run (disp.loop, 0);
  return NULL;
}

/* libev's epoll and poll backends round timeouts up to a whole
 * millisecond; select keeps microseconds (measured: docs/design.md).
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

int
dispatcher_start (void)
{
  sigset_t all, old;
  int err;

  disp.loop = new_loop ();
  if (!disp.loop) {
    nbdkit_error ("cannot create the event loop (libev)");
    return -1;
  }
  ev_async_init (&disp.wake, on_wake);
  ev_async_start (disp.loop, &disp.wake);
  ev_async_init (&disp.quit, on_quit);
  ev_async_start (disp.loop, &disp.quit);
  ev_timer_init (&disp.decision_timer, on_decision_timer, 0., 0.);
  if (power_polls () || fault_polls ()) {
    double every = POWERCUT_POLL_NS / 1e9;
    ev_timer_init (&disp.poll_timer, on_poll_timer, every, every);
    ev_timer_start (disp.loop, &disp.poll_timer);
  }
  if (power_install (wake_from_signal) == -1
      || fault_install (wake_from_signal) == -1)
    return -1;
  /* The cut may come before any request: be timed for it from now. */
  if (power_armed ())
    ev_timer_start (disp.loop, &disp.decision_timer);

  /* Signals belong to nbdkit's own threads. */
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  err = pthread_create (&disp.thread, NULL, dispatcher, NULL);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (err) {
    errno = err;
    nbdkit_error ("cannot start the dispatcher thread: %m");
    return -1;
  }
  disp.thread_running = true;
  return 0;
}

void
dispatcher_stop (void)
{
  if (disp.thread_running) {
    ev_async_send (disp.loop, &disp.quit);
    pthread_join (disp.thread, NULL);
    disp.thread_running = false;
  }
}

void
dispatcher_free (void)
{
  if (disp.loop)
    ev_loop_destroy (disp.loop);
  disp.loop = NULL;
  disp.due = ENGINE_NEVER;
}
