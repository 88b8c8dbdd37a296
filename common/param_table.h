/* hddsim: parameter tables, for whoever owns tunables.
 *
 * A layer that takes key=value parameters (a policy, the engine, the
 * plugin) declares one table of them: each key's type, range, default
 * and help, and where it lives in the owner's struct.  Parsing, range
 * checks, the defaults, the "expected one of" messages, --help and
 * --dump-plugin all come from that table, so that a tunable is
 * described in one place and its default printed from the value the
 * code uses.  The value parsers themselves (durations, sizes) are
 * value.h's.
 */
#ifndef HDDSIM_PARAM_TABLE_H
#define HDDSIM_PARAM_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum pt_type {
  PT_UINT,                      /* uint64_t, a plain integer */
  PT_DURATION,                  /* uint64_t ns: 8ms, 250us, 1.5s */
  PT_SIZE,                      /* uint64_t bytes: 4096, 64K, 16M */
  PT_ENUM,                      /* int: the index of one of 'choices' */
  PT_BOOL,                      /* bool: true/false, on/off, yes/no, 1/0 */
  PT_STRING,                    /* char *, owned (strdup), not empty */
};

struct pt_def {
  const char *key;              /* NULL ends a table */
  enum pt_type type;
  size_t offset;                /* offsetof the field in the owner */
  uint64_t min, max;            /* inclusive; UINT, DURATION and SIZE */
  uint64_t def;                 /* default; ENUM: index; BOOL: 0 or 1;
                                   STRING: none (NULL) */
  const char *const *choices;   /* ENUM: NULL-terminated names */
  const char *metavar;          /* for --help; NULL: from the type */
  const char *help;
};

/* Enough for any message of this module. */
#define PT_ERRLEN 256

/* The entry for key, or NULL. */
extern const struct pt_def *pt_find (const struct pt_def *table,
                                     const char *key);

/* Parse value for d into *v (ENUM: the index; BOOL: 0 or 1), checking
 * the range.  0 ok; -1 with err naming key and value.  Not for
 * PT_STRING.
 */
extern int pt_parse (const struct pt_def *d, const char *value,
                     uint64_t *v, char *err, size_t errlen);

/* Store a value parsed by pt_parse into d's field of obj. */
extern void pt_store (const struct pt_def *d, void *obj, uint64_t v);

/* Parse and store.  0 ok; -1 bad value (err filled); 1 key not in the
 * table (err untouched).
 */
extern int pt_set (const struct pt_def *table, void *obj, const char *key,
                   const char *value, char *err, size_t errlen);

/* Every field of the table to its default (strings to NULL). */
extern void pt_defaults (const struct pt_def *table, void *obj);

/* Free the table's strings in obj and set them to NULL. */
extern void pt_free (const struct pt_def *table, void *obj);

/* A value of d as a user would write it ("8ms", "16M", "auto",
 * "true"); returns buf.
 */
extern const char *pt_format (const struct pt_def *d, uint64_t v,
                              char *buf, size_t len);

/* Where --help's text starts after "key=TYPE". */
#define PT_HELP_COLUMN 27

/* One "key=TYPE  help (default X)" line per entry, for --help. */
extern void pt_print_help (const struct pt_def *table, FILE *fp);
extern void pt_print_help_one (const struct pt_def *d, FILE *fp);

/* One "PREFIXkey=default" line per entry with a default, the key's
 * dashes as underscores, for --dump-plugin.
 */
extern void pt_print_defaults (const struct pt_def *table,
                               const char *prefix, FILE *fp);

/* "KEY=VALUE: expected one of: a b c" into err, for enumerations that
 * are not in a table.
 */
extern void pt_expected_one_of (const char *key, const char *value,
                                const char *const *choices,
                                char *err, size_t errlen);

#endif /* HDDSIM_PARAM_TABLE_H */
