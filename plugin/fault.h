/* hddsim: faults while running (fault=KIND@TRIGGER; docs/power-states.md).
 *
 * The kinds are the model's (model/faults.h), the trigger forms
 * powercut='s (common/trigger.h).  A modeled trigger (at:, random:,
 * after-writes:) is handed to the model, which fires the fault at its
 * instant; the others fire when the plugin sees them: signal (SIGUSR2:
 * each signal fires the next fault=...@signal not yet fired, in the
 * order given; SIGUSR1 stays powercut='s) and file:PATH (polled every
 * 10 ms), at the modeled time they are seen.  Each firing is a row of
 * the trace (op "fault") and counted in the stats.
 *
 * Unless said otherwise, called with the driver's lock held.
 */
#ifndef HDDSIM_FAULT_H
#define HDDSIM_FAULT_H

#include <stdbool.h>
#include <stdint.h>

#include "../model/hdd.h"

/* config: one fault=VALUE (the key may be given many times). */
extern int fault_config (const char *value);
/* config_complete: parse them all ('seed' draws random:).  -1 after
 * an nbdkit_error naming the parameter.
 */
extern int fault_config_complete (uint64_t seed);
extern void fault_free (void);
extern const char *fault_help (void);

/* driver_start (no lock): give the drive its faults and arm the
 * modeled triggers.  -1 after an nbdkit_error.
 */
extern int fault_start (struct hdd *);

/* The dispatcher, as it starts (no lock): a file to poll; SIGUSR2
 * calls wake() (-1 after an nbdkit_error).
 */
extern bool fault_polls (void);
extern int fault_install (void (*wake) (void));
/* Each time it wakes: fire what a signal or a file has triggered, at
 * modeled 'now'.
 */
extern void fault_poll_trigger (struct hdd *, uint64_t now);
/* After the engine has run: the faults fired, to the trace and the
 * stats.
 */
extern void fault_report_fired (struct hdd *, uint64_t *next_id);

#endif /* HDDSIM_FAULT_H */
