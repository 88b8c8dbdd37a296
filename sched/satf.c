/* hddsim: satf, shortest access time first (NCQ-style rotational
 * position ordering).
 *
 * Among the requests the engine lets it see (at most qdepth, the
 * oldest ones: the rest wait in arrival order), the drive serves the
 * one with the shortest modeled positioning time if started now: seek
 * plus the wait for its first sector, as the model estimates them.
 * Ties go to the older request.
 *
 * The age limit: a request that has waited satf-max-wait is served
 * before anything else (the oldest first), so nothing waits longer than
 * max-wait plus the service in progress when it came of age, as long
 * as the requests that come of age do not pile up faster than the drive
 * serves them.
 */

#include <stdlib.h>

#include "policy.h"

struct policy {
  struct req_list arrivals;     /* oldest first */
  uint64_t max_wait;
};

static struct policy *
satf_create (const struct sched_params *params)
{
  struct policy *p = calloc (1, sizeof *p);

  if (!p)
    return NULL;
  TAILQ_INIT (&p->arrivals);
  p->max_wait = params->satf_max_wait;
  return p;
}

static void
satf_destroy (struct policy *p)
{
  free (p);
}

static void
satf_add (struct policy *p, struct req *r, uint64_t now)
{
  (void) now;
  r->deadline = r->arrival + p->max_wait;
  TAILQ_INSERT_TAIL (&p->arrivals, r, fifo_link);
}

static void
satf_remove (struct policy *p, struct req *r)
{
  TAILQ_REMOVE (&p->arrivals, r, fifo_link);
}

static uint64_t
positioning (const struct hdd *hdd, const struct req *r, uint64_t now)
{
  struct hdd_cost c;

  hdd_estimate (hdd, &r->io, now, &c);
  return c.seek_ns + c.rot_ns;
}

static struct req *
shortest (struct policy *p, const struct hdd *hdd, uint64_t now)
{
  struct req *r, *best = NULL;
  uint64_t best_t = UINT64_MAX;

  TAILQ_FOREACH (r, &p->arrivals, fifo_link) {
    uint64_t t = positioning (hdd, r, now);
    if (t < best_t) {           /* strict: ties keep the older */
      best = r;
      best_t = t;
    }
  }
  return best;
}

static struct req *
satf_pick (struct policy *p, const struct hdd *hdd, uint64_t now,
           uint64_t *wake)
{
  struct req *r;

  (void) wake;
  r = TAILQ_FIRST (&p->arrivals);
  if (r && r->deadline > now)
    r = shortest (p, hdd, now);
  if (r)
    satf_remove (p, r);
  return r;
}

const struct policy_ops satf_policy = {
  .name = "satf",
  .description = "shortest modeled positioning time first, with an age limit",
  .create = satf_create,
  .destroy = satf_destroy,
  .add = satf_add,
  .pick = satf_pick,
  .remove = satf_remove,
};
