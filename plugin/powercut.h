/* hddsim: when the power fails (powercut=, see docs/power-loss.md).
 *
 * The trigger only: when it fires, in modeled time.  What a cut does
 * (the model brought to that instant, the image restored to the media,
 * requests failed) is the driver's (driver.c) and the pre-image
 * store's (preimage.c).
 */
#ifndef HDDSIM_POWERCUT_H
#define HDDSIM_POWERCUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* nbdkit's exit status after a cut with powercut-exit=yes. */
#define POWERCUT_EXIT_STATUS 3

#define POWERCUT_NEVER UINT64_MAX

/* How often the dispatcher looks for powercut=file:PATH. */
#define POWERCUT_POLL_NS (10 * UINT64_C(1000000))

/* Parse powercut=VALUE (NULL: off); 'seed' draws random:A-B.  -1 and
 * err naming the parameter on a bad value.
 */
extern int powercut_parse (const char *value, uint64_t seed,
                           char *err, size_t errlen);
extern void powercut_free (void);

/* Any trigger configured. */
extern bool powercut_armed (void);
/* The modeled time of the cut, once known (at:, random:, after-writes:
 * once the N-th write is served, signal and file: once they fired);
 * POWERCUT_NEVER until then.
 */
extern uint64_t powercut_deadline (void);
/* A write or zero was served, completing at 'done'. */
extern void powercut_write_served (uint64_t done);
/* Triggers that fire outside modeled time (signal, file) must be
 * looked at: polls says whether, check() whether it fired; if it did,
 * fire (t) makes the deadline t (the modeled time now).
 */
extern bool powercut_polls (void);
extern bool powercut_check (void);
extern void powercut_fire (uint64_t t);
/* After fork: with powercut=signal, SIGUSR1 sets the trigger and calls
 * wake() (async-signal-safe).  -1 after an nbdkit_error.
 */
extern int powercut_install (void (*wake) (void));

#endif /* HDDSIM_POWERCUT_H */
