/* hddsim: the drive's power states: PowerChoice's idle_a, idle_b,
 * idle_c and standby_z, entered after idle times (idle-a=, idle-b=,
 * idle-c=, standby=), and the recovery that the next command waits
 * for (idle-a-recovery=, ..., spinup=).  See docs/power-states.md.
 *
 * Each timer counts from the end of the drive's last activity (a
 * command, or its own background work: read-ahead, destage), as the
 * manuals' "each time the drive performs an Active function, the
 * standby timer is reinitialized"; the drive is in the deepest state
 * whose timer has run out.  Entering a state takes no time; leaving it
 * takes its recovery, charged to the command that wakes the drive
 * (hdd_cost.wake_ns).  In idle_b, idle_c and standby the heads are
 * unloaded onto the ramp, off the outer edge: they come back at
 * cylinder 0.
 *
 * Offered beyond the model for the statistics (hdd_power_stats).
 */
#ifndef HDDSIM_POWER_STATES_H
#define HDDSIM_POWER_STATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hdd;
struct hdd_params;

enum hdd_power_state {
  HDD_PS_ACTIVE,                /* serving, or background work */
  HDD_PS_IDLE,                  /* spinning, heads loaded, no timer out */
  HDD_PS_IDLE_A,                /* reduced electronics */
  HDD_PS_IDLE_B,                /* heads unloaded */
  HDD_PS_IDLE_C,                /* heads unloaded, reduced rpm */
  HDD_PS_STANDBY,               /* heads unloaded, spindle stopped */
  HDD_PS_COUNT
};

extern const char *hdd_power_state_name (enum hdd_power_state);

/* What the drive keeps (inside struct hdd). */
struct power_states {
  uint64_t last_end;            /* the last command's completion */
  uint64_t accounted;           /* ns[] covers [0, accounted) */
  uint64_t ns[HDD_PS_COUNT];
  uint64_t entered[HDD_PS_COUNT];
  uint64_t wakes;               /* commands that waited for a recovery */
  uint64_t wake_ns;             /* and how long, summed */
};

/* The statistics up to modeled time t (nothing changes). */
struct hdd_power_stats {
  bool managed;                 /* any timer is set */
  enum hdd_power_state state;   /* at t */
  uint64_t ns[HDD_PS_COUNT];
  uint64_t entered[HDD_PS_COUNT];
  uint64_t wakes, wake_ns;
};

extern void hdd_power_stats (const struct hdd *, uint64_t t,
                             struct hdd_power_stats *);
/* Any power-state timer is set. */
extern bool hdd_power_managed (const struct hdd *);

/* A copy of what the statistics need, to be taken under whatever lock
 * guards the drive and turned into statistics at any later t without
 * it (the plugin's stats writer).
 */
struct hdd_power_snapshot {
  struct power_states ps;
  uint64_t idle_since;          /* the drive's activity ended */
  uint64_t timer[HDD_PS_COUNT];
};

extern void hdd_power_snapshot (const struct hdd *,
                                struct hdd_power_snapshot *);
extern void hdd_power_snapshot_stats (const struct hdd_power_snapshot *,
                                      uint64_t t, struct hdd_power_stats *);



/* ---- the model's own (hdd.c, hdd_params.c) ---- */

/* Any of idle-a=, idle-b=, idle-c=, standby= set. */
extern bool power_states_managed (const struct hdd_params *);
/* A timer without its recovery time; profile=fixed with a timer. */
extern int power_states_check (const struct hdd_params *, char *err,
                               size_t errlen);
/* standby=hdparm:N: hdparm -S N's idle time (0: off); -1 for a value
 * that gives no time (253: vendor-defined, 254: reserved, > 255).
 */
extern int power_states_hdparm (uint64_t n, uint64_t *ns);

/* The state after 'idle' ns without activity. */
extern enum hdd_power_state power_state_after (const struct hdd_params *,
                                               uint64_t idle);
/* A command starts at t, the drive having been idle since idle_since
 * (<= t): account the gap, and return the recovery it waits for; *state
 * is the state it wakes from.
 */
extern uint64_t power_states_wake (struct power_states *,
                                   const struct hdd_params *,
                                   uint64_t idle_since, uint64_t t,
                                   enum hdd_power_state *state);
/* hdd_power_stats' accounting, on a copy, with the drive's timers. */
extern void power_states_stats (const struct power_states *,
                                const uint64_t *timer,
                                uint64_t idle_since, uint64_t t,
                                struct hdd_power_stats *);
/* The drive is active from t until 'end'. */
extern void power_states_busy (struct power_states *, uint64_t end);

#endif /* HDDSIM_POWER_STATES_H */
