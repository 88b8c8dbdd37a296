/* hddsim: typed key=value parameters described by tables.
 *
 * The model, the policies and the plugin all take tunables as
 * key=value strings (nbdkit parameters, profile INI files).  One table
 * per layer describes each key's type, range and place in a struct, so
 * that parsing, range checks, error messages and --help text are
 * written once.
 */
#ifndef HDDSIM_PARAM_H
#define HDDSIM_PARAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "value.h"

enum param_type {
  PARAM_DURATION,    /* uint64_t ns; accepts ns, us, ms, s suffixes */
  PARAM_SIZE,        /* uint64_t bytes; accepts k, K, M, G, T (binary) */
  PARAM_UINT,        /* uint64_t plain integer */
  PARAM_RATE,        /* uint64_t bytes per second; accepts size/s, e.g. 100M */
  PARAM_ENUM,        /* int; one of the names in 'choices' (index) */
};

struct param_desc {
  const char *key;
  enum param_type type;
  size_t offset;            /* offsetof the field in the target struct */
  uint64_t min, max;        /* inclusive range (for ENUM: unused) */
  const char *const *choices; /* NULL-terminated names, PARAM_ENUM only */
  const char *help;
};

/* Error messages are written into a caller's buffer so that the model
 * and sched layers need no logging dependency.
 */
#define PARAM_ERRLEN 256

/* Returns 0 on success, -1 on a bad value (err filled, naming the key
 * and value), 1 if 'key' is not in the table (err untouched).
 */
extern int param_set (const struct param_desc *table, void *obj,
                      const char *key, const char *value,
                      char *err, size_t errlen);

/* Look up a key; NULL if absent. */
extern const struct param_desc *param_find (const struct param_desc *table,
                                            const char *key);

/* Print "key=TYPE  help" lines, for --help. */
extern void param_print_help (const struct param_desc *table, FILE *fp);

/* Print "key=value" lines with the current values, for --dump-plugin. */
extern void param_print_values (const struct param_desc *table,
                                const void *obj, const char *prefix,
                                FILE *fp);

#endif /* HDDSIM_PARAM_H */
