/* hddsim: the drive's own command queue (SATA NCQ, SCSI TCQ) and the
 * rule its firmware serves it by.
 *
 * Two levels, as a real system has them: the host's policy decides
 * what to hand the drive and when; the drive holds up to its queue
 * depth of commands and chooses, each time its one actuator is free,
 * which of them to serve next.  The queue is the drive's, its rule and
 * limits are the drive's parameters (ncq-*= in the model's table,
 * model/hdd.h), but it holds the scheduler's commands and is run on
 * the engine's clock, so it lives here, beside the engine that owns
 * modeled time, and knows nothing of policies (docs/schedulers.md,
 * "The drive's queue").
 *
 * Not thread-safe; the engine calls it under its caller's lock.
 */
#ifndef HDDSIM_DRIVE_QUEUE_H
#define HDDSIM_DRIVE_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "../model/hdd.h"
#include "req.h"

struct drive_queue {
  struct hdd_queue rule;        /* the drive's ncq-*= */
  uint64_t depth;               /* commands it holds, the actuator's one
                                   included; 1: no queueing */
  struct req_list held;         /* received, not on the actuator, in
                                   the order received */
  uint32_t nheld;
};

/* A queue following the drive's rule, holding at most 'depth'
 * commands (the drive's ncq-depth=, or 1 for a policy that is itself
 * the firmware's rule).
 */
extern void drive_queue_init (struct drive_queue *, const struct hdd_queue *,
                              uint64_t depth);

/* The extra time each command costs on a drive that queues
 * (ncq-overhead= when depth > 1, else 0).
 */
extern uint64_t drive_queue_overhead (const struct drive_queue *);

/* c is handed to the drive (c->dispatch set by the caller). */
extern void drive_queue_put (struct drive_queue *, struct req *c);

/* The command the firmware serves next, its actuator free at 'now',
 * taken out of the queue; NULL if it holds none.  The oldest command
 * held ncq-max-wait or longer by now comes first; otherwise, among the
 * ncq-lookahead oldest, the order's choice (rpo: the least positioning
 * time from now plus the overhead, ties to the older; fifo: the
 * oldest).
 */
extern struct req *drive_queue_next (struct drive_queue *,
                                     const struct hdd *, uint64_t now);
/* The same among the commands for actuator k (hdd_actuator_of) of a
 * drive with more than one (drive_queue_next is k = 0): the aging
 * bound, the lookahead and the order apply to that actuator's
 * commands, as each arm is free on its own.
 */
extern struct req *drive_queue_next_on (struct drive_queue *,
                                        const struct hdd *, uint64_t now,
                                        unsigned k);

/* Seek and rotational wait of io if the arm starts positioning at t,
 * as the model estimates them; 0 when io needs no positioning.  The
 * one measure both the drive's rpo and the one-level satf policy
 * order by.
 */
extern uint64_t drive_positioning (const struct hdd *, const struct io *io,
                                   uint64_t t);

#endif /* HDDSIM_DRIVE_QUEUE_H */
