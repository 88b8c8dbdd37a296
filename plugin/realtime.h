/* hddsim: real-time priority for the thread delivering a completion. */
#ifndef HDDSIM_REALTIME_H
#define HDDSIM_REALTIME_H

#include <stdbool.h>

enum realtime_mode {
  REALTIME_OFF,
  REALTIME_AUTO,                /* use it where permitted */
  REALTIME_ON,                  /* required: fail at start-up otherwise */
};

/* Check that the mode can be honoured; -1 (error reported) if
 * REALTIME_ON is not permitted.  Returns whether it will be used.
 */
extern int realtime_probe (enum realtime_mode mode, bool *usable);

/* Called by a worker once its request is on the drive, before it
 * waits for the modeled completion: 'wait_ahead' says whether that
 * completion is still in the future.  The calling thread is raised to
 * SCHED_FIFO (lowest real-time priority) on a wait and stays raised
 * across its requests; it drops back to its own policy only after
 * REALTIME_IDLE_REQUESTS requests in a row with nothing to wait for.
 * A no-op when not usable.
 */
extern void realtime_before_wait (bool usable, bool wait_ahead);

#endif /* HDDSIM_REALTIME_H */
