/* hddsim: the drive's power states (see power_states.h). */

#include <inttypes.h>
#include <stdio.h>

#include "params.h"
#include "power_states.h"
#include "../common/u64.h"
#include "../common/value.h"

#define SEC UINT64_C(1000000000)
#define MIN (60 * SEC)

static const char *const names[HDD_PS_COUNT] = {
  [HDD_PS_ACTIVE] = "active", [HDD_PS_IDLE] = "idle",
  [HDD_PS_IDLE_A] = "idle_a", [HDD_PS_IDLE_B] = "idle_b",
  [HDD_PS_IDLE_C] = "idle_c", [HDD_PS_STANDBY] = "standby",
};

/* The parameters' names, for messages. */
static const char *const timer_keys[HDD_PS_COUNT] = {
  [HDD_PS_IDLE_A] = "idle-a", [HDD_PS_IDLE_B] = "idle-b",
  [HDD_PS_IDLE_C] = "idle-c", [HDD_PS_STANDBY] = "standby",
};
static const char *const recovery_keys[HDD_PS_COUNT] = {
  [HDD_PS_IDLE_A] = "idle-a-recovery", [HDD_PS_IDLE_B] = "idle-b-recovery",
  [HDD_PS_IDLE_C] = "idle-c-recovery", [HDD_PS_STANDBY] = "spinup",
};

const char *
hdd_power_state_name (enum hdd_power_state s)
{
  return s < HDD_PS_COUNT ? names[s] : "?";
}

bool
power_states_managed (const struct hdd_params *p)
{
  int s;

  for (s = HDD_PS_IDLE_A; s < HDD_PS_COUNT; s++)
    if (p->power_timer[s])
      return true;
  return false;
}

/* A timer needs its recovery: a drive that leaves idle_b, idle_c or
 * standby in no time at all is a profile without the value, not a
 * drive (idle_a's recovery, the electronics', may well be 0).
 */
int
power_states_check (const struct hdd_params *p, char *err, size_t errlen)
{
  char a[32];
  int s;

  if (p->kind == KIND_FIXED && power_states_managed (p)) {
    snprintf (err, errlen, "idle-a=, idle-b=, idle-c=, standby=: need a "
              "modeled drive (profile=fixed has no spindle or heads)");
    return -1;
  }
  for (s = HDD_PS_IDLE_B; s < HDD_PS_COUNT; s++)
    if (p->power_timer[s] && p->power_recovery[s] == 0) {
      snprintf (err, errlen, "%s=%s: the profile gives no %s= (the time to "
                "leave that state); give one", timer_keys[s],
                format_duration (p->power_timer[s], a, sizeof a),
                recovery_keys[s]);
      return -1;
    }
  return 0;
}

/* hdparm(8), -S: "values from 1 to 240 specify multiples of 5 seconds
 * ...; values from 241 to 251 specify from 1 to 11 units of 30
 * minutes ...; a value of 252 signifies a timeout of 21 minutes; 253
 * sets a vendor-defined timeout period between 8 and 12 hours, and
 * the value 254 is reserved; 255 is interpreted as 21 minutes plus 15
 * seconds."
 */
int
power_states_hdparm (uint64_t n, uint64_t *ns)
{
  if (n <= 240)
    *ns = n * 5 * SEC;
  else if (n <= 251)
    *ns = (n - 240) * 30 * MIN;
  else if (n == 252)
    *ns = 21 * MIN;
  else if (n == 255)
    *ns = 21 * MIN + 15 * SEC;
  else
    return -1;
  return 0;
}

static enum hdd_power_state
state_after (const uint64_t *timer, uint64_t idle)
{
  enum hdd_power_state st = HDD_PS_IDLE;
  int s;

  for (s = HDD_PS_IDLE_A; s < HDD_PS_COUNT; s++)
    if (timer[s] && idle >= timer[s])
      st = (enum hdd_power_state) s;
  return st;
}

enum hdd_power_state
power_state_after (const struct hdd_params *p, uint64_t idle)
{
  return state_after (p->power_timer, idle);
}

/* The gap [idle_since, t) into the states it passed through, each
 * timer counted from idle_since.
 */
static void
account_gap (uint64_t *ns, uint64_t *entered, const uint64_t *timer,
             uint64_t idle_since, uint64_t t)
{
  uint64_t gap = t - idle_since, from = 0;
  enum hdd_power_state st = HDD_PS_IDLE;

  /* Walk the timers in time order: the state from each expiry on is
     the deepest expired by then. */
  while (from < gap) {
    uint64_t next = gap;
    int s;
    enum hdd_power_state nst;

    for (s = HDD_PS_IDLE_A; s < HDD_PS_COUNT; s++)
      if (timer[s] > from && timer[s] < next)
        next = timer[s];
    ns[st] += next - from;
    from = next;
    nst = state_after (timer, from);
    if (nst != st)
      entered[nst]++;
    st = nst;
  }
}

uint64_t
power_states_wake (struct power_states *ps, const struct hdd_params *p,
                   uint64_t idle_since, uint64_t t,
                   enum hdd_power_state *state)
{
  uint64_t rec;

  if (idle_since > ps->accounted)
    ps->ns[HDD_PS_ACTIVE] += idle_since - ps->accounted;
  idle_since = max64 (idle_since, ps->accounted);
  if (t <= idle_since) {
    *state = HDD_PS_ACTIVE;
    ps->accounted = max64 (ps->accounted, t);
    return 0;
  }
  account_gap (ps->ns, ps->entered, p->power_timer, idle_since, t);
  ps->accounted = t;
  *state = power_state_after (p, t - idle_since);
  rec = *state >= HDD_PS_IDLE_A ? p->power_recovery[*state] : 0;
  if (*state >= HDD_PS_IDLE_A) {
    ps->wakes++;
    ps->wake_ns += rec;
  }
  return rec;
}

void
power_states_busy (struct power_states *ps, uint64_t end)
{
  ps->last_end = max64 (ps->last_end, end);
}

/* For the statistics: the same accounting on a copy, up to t. */
void
power_states_stats (const struct power_states *ps, const uint64_t *timer,
                    uint64_t idle_since, uint64_t t,
                    struct hdd_power_stats *out)
{
  uint64_t acc = ps->accounted;
  int s;

  *out = (struct hdd_power_stats) {
    .managed = timer[HDD_PS_IDLE_A] || timer[HDD_PS_IDLE_B]
      || timer[HDD_PS_IDLE_C] || timer[HDD_PS_STANDBY],
    .state = HDD_PS_ACTIVE,
    .wakes = ps->wakes, .wake_ns = ps->wake_ns,
  };
  for (s = 0; s < HDD_PS_COUNT; s++) {
    out->ns[s] = ps->ns[s];
    out->entered[s] = ps->entered[s];
  }
  if (t <= acc)
    return;
  if (idle_since > acc)
    out->ns[HDD_PS_ACTIVE] += min64 (idle_since, t) - acc;
  idle_since = max64 (idle_since, acc);
  if (t <= idle_since)
    return;
  account_gap (out->ns, out->entered, timer, idle_since, t);
  out->state = state_after (timer, t - idle_since);
}

void
hdd_power_snapshot_stats (const struct hdd_power_snapshot *s, uint64_t t,
                          struct hdd_power_stats *out)
{
  power_states_stats (&s->ps, s->timer, min64 (s->idle_since, t), t, out);
}
