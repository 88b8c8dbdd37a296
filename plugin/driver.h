/* hddsim: the real-time driver.
 *
 * Delivers the engine's modeled timeline on the host's monotonic
 * clock.  Workers (nbdkit's threads) queue their request, do the data
 * I/O, then wait until the modeled completion and return; one
 * dispatcher thread running a libev loop advances the engine at the
 * decision points nobody else is awake for (an idle window's end, an
 * expiry).
 */
#ifndef HDDSIM_DRIVER_H
#define HDDSIM_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "../model/hdd.h"
#include "../sched/policy.h"
#include "../sched/sched_params.h"

struct driver_config {
  const struct hdd_params *hdd_params;
  uint64_t image_bytes;
  uint64_t seed;
  const struct policy_ops *policy;
  const struct sched_params *sched_params;
  uint64_t spin_ns;             /* spin, not sleep, this close to a deadline */
  bool realtime;                /* deliver at SCHED_FIFO priority */
  const char *trace_path;       /* NULL: no trace */
  const char *stats_path;       /* NULL: no stats file */
  bool powercut;                /* power-loss emulation (powercut=) */
  bool powercut_exit;           /* exit nbdkit at the cut */
};

/* In .get_ready: build the drive and the engine, open the output
 * files, so that every error shows before nbdkit forks.
 */
extern int driver_start (const struct driver_config *);
/* In .after_fork: start the clock and the dispatcher thread. */
extern int driver_after_fork (void);
extern void driver_stop (void);

/* Outcome of the data I/O, reported by the callback. */
typedef int (*driver_data_fn) (void *arg);

struct handback;

/* Serve one request of connection 'conn' (hb: its handback_open
 * state): queue it at the current time, run data(arg) for the real
 * I/O, then sync(arg) if not NULL (the host durability of a FUA
 * write, never under the driver's lock), wait for the modeled
 * completion.  Returns their result, or -1 with errno ESHUTDOWN if
 * the server or the client went away first, or EIO if the power was
 * cut (powercut=) before the request completed.
 *
 * With powercut= the data of writes, zeroes and trims reaches the
 * image when the model serves the request, in the order it serves
 * them (media.h), under the driver's lock: data(arg) then runs in
 * whichever thread dispatches it.
 */
extern int driver_request (const struct io *io, uint32_t conn,
                           struct handback *hb, driver_data_fn data,
                           driver_data_fn sync, void *arg);

/* The power has been cut: new connections are refused. */
extern bool driver_power_is_off (void);

#endif /* HDDSIM_DRIVER_H */
