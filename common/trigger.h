/* hddsim: when something happens to the drive: the trigger forms that
 * powercut= and fault= share.
 *
 *   at:DURATION              a modeled time
 *   after-writes:N           when the N-th write or zero is served
 *   random:DURATION-DURATION a modeled time drawn from seed=
 *   signal                   a signal (the owner says which)
 *   file:PATH                PATH appears (the owner polls)
 *
 * Only the parsing is here, once; what a trigger fires and how a
 * signal or a file is watched are the owners' (plugin/powercut.c,
 * plugin/fault.c).
 */
#ifndef HDDSIM_TRIGGER_H
#define HDDSIM_TRIGGER_H

#include <stddef.h>
#include <stdint.h>

enum trigger_kind {
  TRIGGER_OFF, TRIGGER_AT, TRIGGER_AFTER_WRITES, TRIGGER_RANDOM,
  TRIGGER_SIGNAL, TRIGGER_FILE,
};

#define TRIGGER_NEVER UINT64_MAX

struct trigger {
  enum trigger_kind kind;
  uint64_t at;                  /* at:, random: the modeled ns; else
                                   TRIGGER_NEVER */
  uint64_t writes;              /* after-writes: N */
  char *path;                   /* file: (malloc'd) */
};

#define TRIGGER_USAGE "expected at:DURATION, after-writes:N, " \
  "random:DURATION-DURATION, signal or file:PATH"

/* Parse VALUE, given as KEY=FULL (both only for messages: FULL is the
 * whole parameter's value, of which VALUE may be the tail).  'seed'
 * draws random:A-B, from the stream 'salt' (each owner its own, so
 * that two triggers do not draw the same instant).  0, or -1 and err
 * naming the parameter.
 */
extern int trigger_parse (struct trigger *, const char *key,
                          const char *full, const char *value,
                          uint64_t seed, uint64_t salt,
                          char *err, size_t errlen);
extern void trigger_free (struct trigger *);

#endif /* HDDSIM_TRIGGER_H */
