/* hddsim: the real-time driver (see driver.h): queueing requests and
 * delivering their completions on time.
 *
 * Only one request is ever on the actuator, so only one completion is
 * ever imminent.  Its worker sleeps on an absolute CLOCK_MONOTONIC
 * deadline until shortly before the modeled completion and spins the
 * rest: the sleep's wake-up error (40-175 us here) is absorbed by the
 * spin instead of showing up as lateness.  That worker then advances
 * the engine itself, so the next request is dispatched at once rather
 * than when the dispatcher's timer fires (dispatcher.c says when the
 * dispatcher is woken instead).  The engine is advanced, and requests
 * are failed, in the order a power cut needs (power.c).
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "clock.h"
#include "debug.h"
#include "dispatcher.h"
#include "driver.h"
#include "driver_core.h"
#include "fault.h"
#include "handback.h"
#include "power.h"
#include "realtime.h"
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
  enum req_outcome orphan_outcome;
  struct power_data data;       /* its data I/O (with powercut=, that of
                                   a write, zero or trim is done when it
                                   is served) */
};

struct driver_core drv = {
  .lock = PTHREAD_MUTEX_INITIALIZER,
};

/* Set once, before the workers come. */
static uint64_t spin_ns;
static bool realtime;

uint64_t
driver_model_now (void)
{
  return monotonic_ns () - drv.epoch;
}

bool
driver_power_is_off (void)
{
  return power_is_off ();
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
  power_served (r, &f->data);
  pthread_cond_signal (&f->dispatched);
}

static void
on_command (struct req *r, const struct req *c, void *opaque)
{
  struct flight *f = r->user;

  (void) opaque;
  power_command_served (r, c, &f->data);
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
  power_completed (r);
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

/* Its worker times a request's completion; a command of a request
 * split into several (sched/engine.c) is timed by nobody but the
 * dispatcher, except the last, which is its request's completion.
 */
bool
driver_worker_times (const struct req *serving)
{
  const struct req *r = serving->parent ? serving->parent : serving;

  return r->state == REQ_SERVING && !((struct flight *) r->user)->orphaned;
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
  if (fault_start (drv.hdd) == -1 || handback_init () == -1)
    return -1;
  drv.engine = engine_new (drv.hdd, cfg->policy, cfg->sched_params,
                           &hooks, NULL);
  if (!drv.engine) {
    nbdkit_error ("out of memory");
    return -1;
  }
  spin_ns = cfg->spin_ns;
  realtime = cfg->realtime;
  if (power_start (cfg) == -1
      || recorder_start (cfg->trace_path, cfg->stats_path) == -1)
    return -1;
  if (cfg->trace_path)          /* the media cache's clean steps, as rows */
    hdd_set_clean_observer (drv.hdd, recorder_clean, NULL);
  return 0;
}

int
driver_after_fork (void)
{
  drv.epoch = monotonic_ns ();
  if (recorder_after_fork (drv.epoch) == -1)
    return -1;
  return dispatcher_start ();
}

void
driver_stop (void)
{
  dispatcher_stop ();
  /* Requests abandoned on the drive by workers that gave up (SIGTERM,
   * hang-ups) are freed when they complete: run the drive out.
   */
  if (drv.engine) {
    pthread_mutex_lock (&drv.lock);
    engine_advance (drv.engine, ENGINE_NEVER - 1);
    pthread_mutex_unlock (&drv.lock);
  }
  recorder_stop ();
  dispatcher_free ();
  engine_free (drv.engine);
  hdd_free (drv.hdd);
  power_stop ();
  handback_fini ();
  drv.engine = NULL;
  drv.hdd = NULL;
}

static struct flight *
flight_new (const struct io *io, uint32_t conn, driver_data_fn data,
            void *arg)
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
  f->data = (struct power_data) {
    .data = data, .arg = arg, .deferred = power_defers (io->op),
  };
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
  now = driver_model_now ();
  if (power_off_by (now)) {
    pthread_mutex_unlock (&drv.lock);
    return EIO;
  }
  f->req.id = drv.next_id++;
  if (engine_submit (drv.engine, &f->req, now) == -1) {
    pthread_mutex_unlock (&drv.lock);
    return ENOMEM;
  }
  /* An idle drive starts this request now, without a thread hop. */
  power_advance (now);
  wake = dispatcher_must_wake ();
  pthread_mutex_unlock (&drv.lock);
  dispatcher_wake_if (wake);
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
    power_count_failed ();
  wake = dispatcher_must_wake ();
  pthread_mutex_unlock (&drv.lock);
  dispatcher_wake_if (wake);
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
      if (power_is_off ())
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
         && deadline - now > spin_ns) {
    uint64_t target = deadline - spin_ns;
    struct timespec ts;

    if (target > now + ABORT_CHECK_NS)
      target = now + ABORT_CHECK_NS;
    ts = ns_to_timespec (target);
    clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    if (power_cut_before (f->req.done))
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
  power_advance (delivered - drv.epoch);
  if (power_cut_before (f->req.done)) {
    f->orphaned = true;
    f->orphan_outcome = OUTCOME_POWERCUT;
    power_count_failed ();
    pthread_mutex_unlock (&drv.lock);
    return -1;
  }
  wake = dispatcher_must_wake ();
  pthread_mutex_unlock (&drv.lock);
  /* f has left the engine: its record needs no lock. */
  recorder_push (&f->req, true, late, outcome);
  dispatcher_wake_if (wake);
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

/* What a request comes to: driver_request's result and errno, and
 * whether its worker has seen the server or the client go.
 */
struct reply {
  int status;
  int err;
  bool aborted;
};

/* The request could not complete: the power was cut, or we must
 * abort.
 */
static struct reply
give_up (struct flight *f, int waited)
{
  bool power = waited == WAIT_POWER;

  abandon (f, power ? OUTCOME_POWERCUT : OUTCOME_ABORTED);
  return (struct reply) {
    .status = -1, .err = power ? EIO : ESHUTDOWN, .aborted = !power,
  };
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

/* How f ended: a read the drive could not recover (bad-sectors=) fails
 * with EIO, whatever the image's I/O gave, as a drive's MEDIUM ERROR
 * reaches a host through NBD (EIO is all NBD carries).
 */
static enum req_outcome
outcome_of (const struct flight *f, struct reply *reply)
{
  if (f->req.cost.medium_error) {
    reply->status = -1;
    reply->err = EIO;
    return OUTCOME_MEDIUM_ERROR;
  }
  return reply->status == 0 ? OUTCOME_OK : OUTCOME_IO_ERROR;
}

/* Serve one request: queue it, do its data I/O (now, or with
 * powercut= as it is served), wait for its modeled completion and
 * retire it.  Its flight is freed, or left to the engine.
 */
static struct reply
serve (const struct io *io, uint32_t conn, struct handback *hb,
       driver_data_fn data, driver_sync_fn sync, void *arg)
{
  struct flight *f = flight_new (io, conn, data, arg);
  struct reply reply = { .status = -1 };
  uint64_t delivered;
  int waited;

  if (!f) {
    reply.err = errno;
    nbdkit_error ("calloc: %m");
    return reply;
  }
  set_timer_slack_once ();
  reply.err = submit (f);
  if (reply.err) {
    if (reply.err == ENOMEM)
      nbdkit_error ("%s of %" PRIu64 " bytes: no memory for its %" PRIu64
                    "-byte commands (max-transfer=)", io_op_name (io->op),
                    io->length, hdd_max_transfer (drv.hdd));
    flight_free (f);
    return reply;
  }
  reply.status = 0;
  if (!f->data.deferred) {
    reply.status = data (arg, 0, io->length);
    reply.err = errno;
    reply.status = then_sync (sync, arg, reply.status, &reply.err);
  }

  waited = wait_dispatched (f, hb);
  if (waited == 0 && f->data.deferred) {
    reply.err = f->data.err;
    reply.status = then_sync (sync, arg, f->data.status, &reply.err);
  }
  if (waited == 0) {
    /* Only a wait ahead needs the priority (realtime.c). */
    realtime_before_wait (realtime,
                          drv.epoch + f->req.done > monotonic_ns ());
    waited = wait_until (f, &delivered, hb);
  }
  if (waited != 0)
    return give_up (f, waited);
  if (retire (f, delivered, outcome_of (f, &reply)) == -1)
    return (struct reply) { .status = -1, .err = EIO };
  flight_free (f);
  return reply;
}

int
driver_request (const struct io *io, uint32_t conn, struct handback *hb,
                driver_data_fn data, driver_sync_fn sync, void *arg)
{
  struct reply reply = { .status = -1 };

  if (handback_enter (hb) == 0) {
    reply = serve (io, conn, hb, data, sync, arg);
    /* A reply to a client that has just gone joins the closing
     * connection's one-at-a-time hand-back (handback.c).
     */
    handback_leave (hb, reply.aborted || should_abort (hb));
    errno = reply.err;
  }
  return reply.status;
}
