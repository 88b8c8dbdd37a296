/* hddsim: the interface every scheduling policy implements.
 *
 * The engine owns time and the drive; a policy only orders requests.
 * It is given each request when it is allowed to see it (add), asked
 * what to serve when the drive is free (pick), and told when a request
 * it picked completes (done).  'now' is always modeled time.  A policy
 * sees reads, writes, zeroes and trims only: flushes are sequenced by
 * the engine.
 */
#ifndef HDDSIM_POLICY_H
#define HDDSIM_POLICY_H

#include <stdint.h>

#include "req.h"
#include "sched_params.h"

struct policy;                  /* each policy defines its own */

struct policy_ops {
  const char *name;
  const char *description;

  struct policy *(*create) (const struct sched_params *);
  void (*destroy) (struct policy *);

  void (*add) (struct policy *, struct req *, uint64_t now);

  /* Next request to serve at 'now', removed from the policy, or NULL.
   * When NULL, *wake tells when to ask again even if nothing arrives
   * (an idle window or an expiry; must be > now), UINT64_MAX for "on
   * the next arrival".  The drive's state may be read, not changed.
   */
  struct req *(*pick) (struct policy *, const struct hdd *, uint64_t now,
                       uint64_t *wake);

  /* A request returned by pick has completed at 'now'.  Optional:
   * policies that keep no state about requests on the drive leave it
   * NULL.
   */
  void (*done) (struct policy *, struct req *, uint64_t now);

  /* Take back a request given by add and not yet picked (its client
   * went away).
   */
  void (*remove) (struct policy *, struct req *);
};

/* The built-in policies, by name; NULL if unknown. */
extern const struct policy_ops *policy_find (const char *name);
/* NULL-terminated list, for --help and --dump-plugin. */
extern const struct policy_ops *const policy_list[];

#endif /* HDDSIM_POLICY_H */
