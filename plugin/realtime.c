/* hddsim: real-time priority for the thread delivering a completion.
 *
 * On a loaded host a worker that sleeps until shortly before its
 * modeled completion may wake up to find both CPUs taken by ordinary
 * tasks (the guest, the benchmark, a compiler) and be delivered
 * milliseconds late.  While it waits for its completion -- almost all
 * of it asleep, at most spin= of it spinning -- it runs SCHED_FIFO at
 * the lowest real-time priority, so it preempts ordinary tasks when
 * its time comes.  The kernel's real-time throttling (95% by default)
 * bounds the harm of any bug here.
 *
 * Why the priority is kept across requests.  Switching to SCHED_FIFO
 * and back around every wait cost two sched_setscheduler calls per
 * request, and the drop back forces a reschedule: 17-20% of nbdkit's
 * samples at 4K QD16 on a fast drive (docs/lateness.md), the largest
 * single cost of the plugin.  So a worker is raised the first time it
 * has a modeled wait ahead and stays raised while its requests keep
 * having one; its data I/O and nbdkit's send and receive then run at
 * real-time priority too, which only shortens the time the worker
 * holds the CPU it would hold anyway.  A worker whose requests have
 * nothing to wait for (a drive faster than the host: profile=fixed
 * service=0, cache hits) gains nothing from the priority, so it drops
 * it -- but only after REALTIME_IDLE_REQUESTS such requests in a row,
 * not after one: a completion found already due is usually a late
 * wake-up, an isolated event on a loaded host, exactly when the
 * priority matters for the next request.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "realtime.h"

/* A whole queue depth's worth (QD16) of requests without a wait. */
#define REALTIME_IDLE_REQUESTS 16

/* This thread's priority: nbdkit's workers live as long as their
 * connection, so this is kept per thread, across requests.
 */
static __thread struct {
  bool raised;
  int policy;                   /* to return to, with 'priority' */
  int priority;
  unsigned idle;                /* requests in a row with no wait */
} self;

static int
set_fifo (int priority)
{
  struct sched_param sp = { .sched_priority = priority };
  return pthread_setschedparam (pthread_self (), SCHED_FIFO, &sp);
}

int
realtime_probe (enum realtime_mode mode, bool *usable)
{
  int err;

  *usable = false;
  if (mode == REALTIME_OFF)
    return 0;
  err = set_fifo (sched_get_priority_min (SCHED_FIFO));
  if (err == 0) {
    struct sched_param sp = { .sched_priority = 0 };

    pthread_setschedparam (pthread_self (), SCHED_OTHER, &sp);
    *usable = true;
    return 0;
  }
  if (mode == REALTIME_ON) {
    nbdkit_error ("realtime=on: cannot use SCHED_FIFO: %s "
                  "(needs CAP_SYS_NICE or an RLIMIT_RTPRIO)", strerror (err));
    return -1;
  }
  nbdkit_debug ("realtime=auto: SCHED_FIFO not permitted (%s): "
                "delivering at normal priority", strerror (err));
  return 0;
}

static void
raise_self (void)
{
  struct sched_param sp;

  if (pthread_getschedparam (pthread_self (), &self.policy, &sp) != 0)
    return;
  self.priority = sp.sched_priority;
  self.raised = set_fifo (sched_get_priority_min (SCHED_FIFO)) == 0;
}

static void
lower_self (void)
{
  struct sched_param sp = { .sched_priority = self.priority };

  pthread_setschedparam (pthread_self (), self.policy, &sp);
  self.raised = false;
}

void
realtime_before_wait (bool usable, bool wait_ahead)
{
  if (!usable)
    return;
  if (wait_ahead) {
    self.idle = 0;
    if (!self.raised)
      raise_self ();
  }
  else if (self.raised && ++self.idle >= REALTIME_IDLE_REQUESTS)
    lower_self ();
}
