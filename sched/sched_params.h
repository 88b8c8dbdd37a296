/* hddsim: the scheduler's tunables as given: the engine's queue depth
 * and, for the policies, the values set for keys of their tables.
 *
 * Each policy owns its tunables (the table in its own file); this
 * module only finds which table a key belongs to, checks the value
 * there and keeps it, so that a policy's create() can apply the values
 * of its own keys over its defaults.  A struct sched_params is plain
 * data (no allocation): it may be copied and needs no freeing.
 */
#ifndef HDDSIM_SCHED_PARAMS_H
#define HDDSIM_SCHED_PARAMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/param.h"

/* More than the tunables of every policy together, each key being kept
 * once (a later value replaces an earlier one).
 */
#define SCHED_MAX_SETTINGS 64

struct sched_setting {
  const struct param_desc *def; /* the key, in its policy's table */
  uint64_t value;               /* parsed and range-checked */
};

struct sched_params {
  uint64_t qdepth;              /* the engine's: requests a policy sees */
  size_t nset;
  struct sched_setting set[SCHED_MAX_SETTINGS];
};

extern void sched_params_init (struct sched_params *);
/* 0 ok; -1 bad value (err filled); 1 unknown key. */
extern int sched_params_set (struct sched_params *, const char *key,
                             const char *value, char *err, size_t errlen);
/* Fill a policy's tunables: its table's defaults, then the values set
 * for its keys.
 */
extern void sched_params_apply (const struct sched_params *,
                                const struct param_desc *table,
                                void *tunables);
/* The engine's and every policy's tunables, for --help. */
extern void sched_params_print_help (FILE *fp);
/* Their defaults as PREFIXkey=value lines, for --dump-plugin. */
extern void sched_params_print_defaults (const char *prefix, FILE *fp);

#endif /* HDDSIM_SCHED_PARAMS_H */
