/* hddsim: the drive's own command queue (see drive_queue.h).
 *
 * The rule, as the Intel/Seagate NCQ white paper (2003) describes
 * Rotational Position Ordering: of the commands it holds, the drive
 * serves the one with "the shortest overall access time, the combined
 * seek and rotational latency time".  Firmware bounds that rule in
 * ways no manual states in full; hddsim models three, each a drive
 * parameter with its source in the profile:
 *   - an aging bound (ncq-max-wait): a command held that long goes
 *     first, the oldest first, as SCSI drives' Command Aging Limit
 *     (HGST's mode page 00h);
 *   - the commands the rule looks at (ncq-lookahead): the oldest N,
 *     a firmware that plans over part of its queue;
 *   - a per-command overhead (ncq-overhead, applied by the engine): a
 *     queued command costs more than a non-queued one (the first-party
 *     DMA setup and status of the NCQ protocol, the sorting itself).
 * The times it orders by are the model's estimates from the drive's
 * state at the moment the arm is free, which a real firmware knows
 * from its servo; the host never sees them.
 */

#include <stddef.h>

#include "drive_queue.h"

void
drive_queue_init (struct drive_queue *q, const struct hdd_queue *rule,
                  uint64_t depth)
{
  q->rule = *rule;
  q->depth = depth;
  TAILQ_INIT (&q->held);
  q->nheld = 0;
}

uint64_t
drive_queue_overhead (const struct drive_queue *q)
{
  return q->depth > 1 ? q->rule.overhead : 0;
}

void
drive_queue_put (struct drive_queue *q, struct req *c)
{
  TAILQ_INSERT_TAIL (&q->held, c, drive_link);
  q->nheld++;
}

uint64_t
drive_positioning (const struct hdd *hdd, const struct io *io, uint64_t t)
{
  struct hdd_cost c;

  if (hdd_no_positioning (hdd, io))
    return 0;                   /* what the estimate would say */
  hdd_estimate (hdd, io, t, &c);
  return c.seek_ns + c.rot_ns;
}

/* Has the oldest held command, c, waited ncq-max-wait by t?  (The
 * list is in the order received, which is the order of dispatch.)
 */
static bool
aged (const struct drive_queue *q, const struct req *c, uint64_t t)
{
  return q->rule.max_wait != 0 && t - c->dispatch >= q->rule.max_wait;
}

/* Is c for actuator k?  (Always, on a drive with one.) */
static bool
on_actuator (const struct hdd *hdd, const struct req *c, unsigned k)
{
  return hdd_actuator_of (hdd, &c->io) == k;
}

/* The oldest command held for actuator k, or NULL. */
static struct req *
oldest_on (const struct drive_queue *q, const struct hdd *hdd, unsigned k)
{
  struct req *c;

  TAILQ_FOREACH (c, &q->held, drive_link)
    if (on_actuator (hdd, c, k))
      return c;
  return NULL;
}

/* Another command for actuator k after c? */
static bool
more_on (const struct hdd *hdd, const struct req *c, unsigned k)
{
  while ((c = TAILQ_NEXT (c, drive_link)) != NULL)
    if (on_actuator (hdd, c, k))
      return true;
  return false;
}

/* Among the ncq-lookahead oldest for actuator k, the least positioning
 * time at t; ties keep the older.
 */
static struct req *
shortest (const struct drive_queue *q, const struct hdd *hdd, uint64_t t,
          unsigned k)
{
  uint64_t n = q->rule.lookahead ? q->rule.lookahead : UINT64_MAX;
  uint64_t best_t = UINT64_MAX;
  struct req *c, *best = NULL;

  hdd_estimate_begin (hdd, t);  /* the drive is the same for each */
  TAILQ_FOREACH (c, &q->held, drive_link) {
    uint64_t p;

    if (!on_actuator (hdd, c, k))
      continue;
    if (n-- == 0)
      break;
    p = drive_positioning (hdd, &c->io, t);
    if (p < best_t) {
      best = c;
      best_t = p;
      if (p == 0)               /* nothing later can beat it */
        break;
    }
  }
  hdd_estimate_end (hdd);
  return best;
}

struct req *
drive_queue_next (struct drive_queue *q, const struct hdd *hdd, uint64_t now)
{
  return drive_queue_next_on (q, hdd, now, 0);
}

struct req *
drive_queue_next_on (struct drive_queue *q, const struct hdd *hdd,
                     uint64_t now, unsigned k)
{
  struct req *c = oldest_on (q, hdd, k);

  if (!c)
    return NULL;
  /* One held, fifo, or the oldest aged: no estimate needed (an estimate
     changes nothing). */
  if (more_on (hdd, c, k) && q->rule.order == HDD_QUEUE_RPO
      && !aged (q, c, now))
    c = shortest (q, hdd, now + drive_queue_overhead (q), k);
  TAILQ_REMOVE (&q->held, c, drive_link);
  q->nheld--;
  return c;
}
