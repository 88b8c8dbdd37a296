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

struct realtime_saved {
  int policy;
  int priority;
  bool raised;
};

/* Raise the calling thread to SCHED_FIFO (lowest real-time priority)
 * and back.  No-ops when not usable.
 */
extern void realtime_enter (bool usable, struct realtime_saved *saved);
extern void realtime_leave (const struct realtime_saved *saved);

#endif /* HDDSIM_REALTIME_H */
