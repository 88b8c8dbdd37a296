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

/* The data I/O of bytes [skip, skip+length) of a request (the whole
 * of it, or with powercut= one command of a split write or zero, see
 * driver_request); its outcome.
 */
typedef int (*driver_data_fn) (void *arg, uint64_t skip, uint64_t length);
/* A FUA request's host durability, after its data. */
typedef int (*driver_sync_fn) (void *arg);

struct handback;

/* Serve one request of connection 'conn' (hb: its handback_open
 * state): queue it at the current time, run data(arg, 0, length) for the real
 * I/O, then sync(arg) if not NULL (the host durability of a FUA
 * write, never under the driver's lock), wait for the modeled
 * completion.  Returns their result, or -1 with errno ESHUTDOWN if
 * the server or the client went away first, or EIO if the power was
 * cut (powercut=) before the request completed.
 *
 * With powercut= the data of writes, zeroes and trims reaches the
 * image when the model serves the request, in the order it serves
 * them (preimage.h), under the driver's lock: data() then runs in
 * whichever thread dispatches it.  A write or zero split into commands
 * (max-transfer=) reaches it command by command, each part as the
 * model serves that command, so that every media write the model
 * reports carries what the image holds (or, for the command being
 * served, is about to hold).
 */
extern int driver_request (const struct io *io, uint32_t conn,
                           struct handback *hb, driver_data_fn data,
                           driver_sync_fn sync, void *arg);

/* The power has been cut: new connections are refused. */
extern bool driver_power_is_off (void);

#endif /* HDDSIM_DRIVER_H */
