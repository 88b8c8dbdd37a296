/* hddsim: what the real-time driver's parts share (see driver.h).
 *
 * driver.c delivers completions on time (a worker queues its request,
 * waits for the modeled completion, spins the rest and retires it);
 * dispatcher.c runs the libev thread that advances the engine when no
 * worker is awake to; power.c keeps the order a power cut needs
 * (powercut=).  They share the drive, its engine and the lock that
 * guards both.
 */
#ifndef HDDSIM_DRIVER_CORE_H
#define HDDSIM_DRIVER_CORE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../model/hdd.h"
#include "../sched/engine.h"

struct driver_core {
  pthread_mutex_t lock;         /* guards everything below but 'epoch',
                                   and the dispatcher's and power.c's
                                   state (the engine's hooks run under
                                   it) */
  struct hdd *hdd;
  struct engine *engine;
  uint64_t epoch;               /* CLOCK_MONOTONIC at modeled time 0,
                                   set before the threads start */
  uint64_t next_id;             /* of the next request (or the cut) */
};

extern struct driver_core drv;

/* Modeled time now. */
extern uint64_t driver_model_now (void);

/* Is a worker waiting for the completion of 'serving', what is on the
 * drive?  Lock held.
 */
extern bool driver_worker_times (const struct req *serving);

#endif /* HDDSIM_DRIVER_CORE_H */
