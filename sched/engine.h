/* hddsim: the discrete-event engine.
 *
 * The engine holds the queue, sequences flushes (a flush is a barrier
 * for its own connection and never reaches the policy: see engine.c),
 * asks the policy what to hand the drive whenever the drive has room,
 * lets the drive's queue (drive_queue.h) choose what its actuator
 * serves, asks the model how long it takes, and advances on a clock it
 * is given.
 * It never reads a clock: the modeled timeline is a function of the
 * arrivals, the requests, the drive, the policy and nothing else, so
 * that a driver which calls engine_advance late (a thread that woke up
 * late, a replay that jumps) gets exactly the same modeled start and
 * completion times as one that calls it at every event.
 *
 * Not thread-safe: the plugin serialises calls under one lock.
 */
#ifndef HDDSIM_ENGINE_H
#define HDDSIM_ENGINE_H

#include <stdint.h>

#include "../model/hdd.h"
#include "policy.h"
#include "req.h"
#include "sched_params.h"

#define ENGINE_NEVER UINT64_MAX

struct engine;

/* The hooks see the requests submitted; only the command hook sees the
 * commands a request longer than the drive's max-transfer is split
 * into (engine.c).
 */
struct engine_hooks {
  /* r (its last command) is now on the actuator; r->dispatch (its
   * first command's to reach the drive), r->start (its first command's
   * on the actuator), r->done and r->cost (its commands' sum) are set.
   */
  void (*started) (struct req *r, void *opaque);
  /* r's modeled completion r->done has been reached; the engine has
   * let go of r.
   */
  void (*completed) (struct req *r, void *opaque);
  /* Optional: command c of r, split into commands, has been served by
   * the model (c->start, c->done and c->cost set); it comes before r's
   * started hook, with its last command too.  For a submitter whose
   * data must reach storage in the model's order (powercut=).
   */
  void (*command) (struct req *r, const struct req *c, void *opaque);
};

/* The engine uses, but does not own, the drive. */
extern struct engine *engine_new (struct hdd *hdd,
                                  const struct policy_ops *ops,
                                  const struct sched_params *params,
                                  const struct engine_hooks *hooks,
                                  void *opaque);
extern void engine_free (struct engine *);

/* Queue r, which arrived at modeled time 'arrival'.  Arrivals must not
 * go backwards and must come after every 'now' already given to
 * engine_advance (they are nudged 1 ns past it otherwise, so that a
 * decision already taken at t never misses a request that arrived at
 * t).  r->arrival holds the time used.  A request longer than the
 * drive's max-transfer is queued as consecutive commands (engine.c).
 * 0, or -1 (errno ENOMEM) if there is no memory for its commands: then
 * nothing has changed.
 */
extern int engine_submit (struct engine *, struct req *r, uint64_t arrival);

/* For a replayed timeline: run every event before 'arrival', then
 * submit r at exactly 'arrival' (so it is not nudged).  Returns what
 * engine_submit returns.
 */
extern int engine_arrive (struct engine *, struct req *r, uint64_t arrival);

/* Modeled time of the next event (a completion or a decision), or
 * ENGINE_NEVER if nothing can happen before the next arrival.
 */
extern uint64_t engine_next_event (const struct engine *);

/* Process every event at or before 'now', in modeled order. */
extern void engine_advance (struct engine *, uint64_t now);

/* Withdraw r (its client went away).  Returns 0 if r was withdrawn,
 * -1 if it (one of its commands) is already on the drive: then it
 * completes as modeled (the actuator cannot be recalled), its other
 * commands withdrawn, and the completed hook still runs.
 */
extern int engine_cancel (struct engine *, struct req *r);

/* Requests submitted and not yet completed (a split request counts
 * once).
 */
extern uint32_t engine_pending (const struct engine *);
/* The request or command on the actuator, or NULL (a command's
 * 'user' is its request's).
 */
extern struct req *engine_serving (const struct engine *);

extern const struct hdd *engine_hdd (const struct engine *);

#endif /* HDDSIM_ENGINE_H */
