/* hddsim: real-time priority for the thread delivering a completion.
 *
 * On a loaded host a worker that sleeps until shortly before its
 * modeled completion may wake up to find both CPUs taken by ordinary
 * tasks (the guest, the benchmark, a compiler) and be delivered
 * milliseconds late.  While it waits for its completion -- almost all
 * of it asleep, at most spin= of it spinning -- it runs SCHED_FIFO at
 * the lowest real-time priority, so it preempts ordinary tasks when
 * its time comes.  The kernel's real-time throttling (95% by default)
 * bounds the harm of any bug here.  Data I/O runs at normal priority.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "realtime.h"

static int
set_fifo (int priority)
{
  struct sched_param sp = { .sched_priority = priority };
  return pthread_setschedparam (pthread_self (), SCHED_FIFO, &sp);
}

int
realtime_probe (enum realtime_mode mode, bool *usable)
{
  struct realtime_saved saved;
  int err;

  *usable = false;
  if (mode == REALTIME_OFF)
    return 0;
  err = set_fifo (sched_get_priority_min (SCHED_FIFO));
  if (err == 0) {
    saved = (struct realtime_saved) { .policy = SCHED_OTHER, .raised = true };
    realtime_leave (&saved);
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

void
realtime_enter (bool usable, struct realtime_saved *saved)
{
  struct sched_param sp;

  saved->raised = false;
  if (!usable
      || pthread_getschedparam (pthread_self (), &saved->policy, &sp) != 0)
    return;
  saved->priority = sp.sched_priority;
  saved->raised = set_fifo (sched_get_priority_min (SCHED_FIFO)) == 0;
}

void
realtime_leave (const struct realtime_saved *saved)
{
  struct sched_param sp = { .sched_priority = saved->priority };

  if (saved->raised)
    pthread_setschedparam (pthread_self (), saved->policy, &sp);
}
