/* hddsim: the driver's dispatcher, one thread running a libev loop
 * that advances the engine at the decision points no worker is awake
 * for (see dispatcher.c).
 */
#ifndef HDDSIM_DISPATCHER_H
#define HDDSIM_DISPATCHER_H

#include <stdbool.h>

/* In .after_fork: start the thread.  -1 after an nbdkit_error. */
extern int dispatcher_start (void);
/* End the thread (a no-op if it never started); then, once nothing
 * can wake it any more, free its loop.
 */
extern void dispatcher_stop (void);
extern void dispatcher_free (void);

/* After a worker's change to the engine, lock held: must the
 * dispatcher be woken because its timer is now too late?
 */
extern bool dispatcher_must_wake (void);
/* Then, without the lock: wake it if it must. */
extern void dispatcher_wake_if (bool must);

#endif /* HDDSIM_DISPATCHER_H */
