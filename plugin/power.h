/* hddsim: the order a power cut needs in the driver (powercut=, see
 * docs/power-loss.md).
 *
 * powercut.c says when the power fails, the pre-image store
 * (preimage.h) what the media held; this is how the driver's work is
 * ordered around the cut.  The data of writes, zeroes and trims
 * reaches the image as the model serves them, in its order; the
 * engine is advanced event by event, so that nothing after the cut is
 * served; a cut that is due is made before any later completion is
 * acknowledged; and the cut's counters are kept for the stats and
 * the trace.  The driver calls these at each step whether or not
 * powercut= is set: without it they do only what the driver does
 * anyway (power_advance advances the engine) or nothing.
 *
 * Unless said otherwise, called with the driver's lock held.
 */
#ifndef HDDSIM_POWER_H
#define HDDSIM_POWER_H

#include <stdbool.h>
#include <stdint.h>

#include "../sched/req.h"
#include "driver.h"

/* A request's data I/O, and with powercut= its outcome. */
struct power_data {
  driver_data_fn data;
  void *arg;
  bool deferred;                /* its data reaches the image when the
                                   model serves it (power_served) */
  int status, err;              /* deferred: the data I/O's outcome */
};

/* In driver_start (no lock; the drive is built): with powercut=, the
 * pre-image store, fed by the model.  -1 after an nbdkit_error.
 */
extern int power_start (const struct driver_config *);
/* In driver_stop: free the store, and the power is on again. */
extern void power_stop (void);

/* Does the data of 'op' wait until the model serves it? (no lock) */
extern bool power_defers (enum io_op op);

/* The power has been cut.  No lock needed. */
extern bool power_is_off (void);
/* A request completing at modeled 'done' comes after the cut.  No
 * lock needed.
 */
extern bool power_cut_before (uint64_t done);

/* The engine's hooks: r was put on the drive (its data, if deferred,
 * reaches the image now); command c of a split request r was served
 * (its part of the data does); r completed.
 */
extern void power_served (const struct req *r, struct power_data *);
extern void power_command_served (const struct req *r, const struct req *c,
                                  struct power_data *);
extern void power_completed (const struct req *r);

/* Advance the engine to 'now'; with powercut=, event by event, so
 * that nothing after the cut is served, and make the cut once it is
 * due.
 */
extern void power_advance (uint64_t now);
/* Before a request is queued: has the power been cut by 'now'?  With
 * powercut=, the engine is brought to now first, so that a cut due by
 * then is made.
 */
extern bool power_off_by (uint64_t now);
/* The modeled time of the cut, when the dispatcher must make it if no
 * worker does first; ENGINE_NEVER if not known (or no powercut=).
 */
extern uint64_t power_cut_due (void);
/* One more request the cut failed (EIO), for the stats. */
extern void power_count_failed (void);

/* For the dispatcher, as it starts (no lock): powercut= is set, so the
 * cut may come before any request; the trigger is a file to poll every
 * POWERCUT_POLL_NS; with powercut=signal, SIGUSR1 calls wake() (-1
 * after an nbdkit_error).
 */
extern bool power_armed (void);
extern bool power_polls (void);
extern int power_install (void (*wake) (void));
/* Each time it wakes: a trigger that fires outside modeled time
 * (signal, file) and has fired makes the cut due at 'now'.
 */
extern void power_poll_trigger (uint64_t now);

#endif /* HDDSIM_POWER_H */
