/* hddsim: the interface every scheduling policy implements.
 *
 * The engine owns time and the drive; a policy only orders requests.
 * It is given each request when it is allowed to see it (add), asked
 * what to hand the drive whenever the drive has room for a command
 * (pick: at a completion, at an arrival, when it asked to be woken),
 * and told when a request it picked completes (done).  'now' is always modeled time.  A policy
 * sees reads, writes, zeroes and trims only: flushes are sequenced by
 * the engine.
 *
 * A policy owns its tunables: it declares their table (name, type,
 * range, default, help) in its own file, and create() gets its values
 * through sched_params_apply().  Adding a policy means one file here
 * and a line in policies.c's list.
 */
#ifndef HDDSIM_POLICY_H
#define HDDSIM_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/param.h"
#include "req.h"
#include "sched_params.h"

/* Each function gets the data its policy's create() returned (as
 * Linux's elevator_data: struct cfq_data, struct deadline_data, ...).
 */
struct policy_ops {
  const char *name;
  const char *description;
  /* The policy's tunables, ended by a NULL key; NULL if it has none. */
  const struct param_desc *params;
  /* The policy is itself a drive's firmware rule (satf): the engine
   * gives it the actuator directly, with no drive queue below it
   * (ncq-depth taken as 1).  The others are the host's: the engine asks
   * them whenever the drive has a free slot, and the drive orders what
   * it holds (drive_queue.h).
   */
  bool firmware;

  void *(*create) (const struct sched_params *);
  void (*destroy) (void *data);

  void (*add) (void *data, struct req *, uint64_t now);

  /* Next request to hand the drive at 'now', removed from the
   * policy, or NULL (also to hold requests back while others are on
   * the drive).
   * When NULL, *wake tells when to ask again even if nothing arrives
   * (an idle window or an expiry; must be > now), UINT64_MAX for "on
   * the next arrival".  The drive's state may be read, not changed.
   */
  struct req *(*pick) (void *data, const struct hdd *, uint64_t now,
                       uint64_t *wake);

  /* A request returned by pick has completed at 'now'.  Optional:
   * policies that keep no state about requests on the drive leave it
   * NULL.
   */
  void (*done) (void *data, struct req *, uint64_t now);

  /* Take back a request given by add and not yet picked (its client
   * went away).
   */
  void (*remove) (void *data, struct req *);
};

/* The built-in policies, by name; NULL if unknown. */
extern const struct policy_ops *policy_find (const char *name);
/* NULL-terminated list, for --help and --dump-plugin. */
extern const struct policy_ops *const policy_list[];

#endif /* HDDSIM_POLICY_H */
