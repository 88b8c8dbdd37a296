/* hddsim: a drive and a policy from key=value parameters.
 *
 * The plugin and hddsim-replay take the same parameters and must
 * build the same drive and policy from them: sched=, profile=, seed=,
 * every scheduler tunable and every drive parameter.  Drive parameters
 * are applied after profile= is loaded, whatever their order, so that
 * "rpm=5400 profile=X" means X at 5400 rpm.
 */
#ifndef HDDSIM_SETUP_H
#define HDDSIM_SETUP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../model/hdd.h"
#include "policy.h"
#include "sched_params.h"

#define SETUP_ERRLEN 512

struct setup_override {
  char *key, *value;
};

struct setup {
  const struct policy_ops *policy;   /* policy_list[policy_index] */
  int policy_index;
  char *profile;
  uint64_t seed;
  struct sched_params sched;
  struct hdd_params *hdd;       /* set by setup_finish */
  struct setup_override *overrides;
  size_t noverrides;
};

extern void setup_init (struct setup *);
/* 0 ok; -1 bad key or value (err names it); 1 not a setup key, the
 * caller's to handle.  Unknown keys are passed to the model, so that
 * 1 is only returned for keys nobody knows.
 */
extern int setup_set (struct setup *, const char *key, const char *value,
                      char *err, size_t errlen);
/* Load the profile and apply the drive overrides; -1 and err if the
 * result is invalid.
 */
extern int setup_finish (struct setup *, char *err, size_t errlen);
extern void setup_free (struct setup *);

/* sched=, profile=, seed= and every scheduler tunable, for --help. */
extern void setup_print_help (FILE *fp);
/* Their defaults, as PREFIXkey=value lines, for --dump-plugin. */
extern void setup_print_defaults (const char *prefix, FILE *fp);

#endif /* HDDSIM_SETUP_H */
