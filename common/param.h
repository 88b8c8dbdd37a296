/* hddsim: parameter tables, for whoever owns key=value parameters.
 *
 * The drive, the engine, each policy, the setup and the plugin take
 * key=value strings (nbdkit parameters, profile INI files, tool
 * arguments).  Each declares one table of its keys: each key's type,
 * range, default and help, and where it lives in the owner's struct.
 * Parsing (value.h), range checks, defaults, error messages, --help and
 * --dump-plugin all come from that table, so that a key is described
 * in one place and its default printed from the value the code uses.
 */
#ifndef HDDSIM_PARAM_H
#define HDDSIM_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "value.h"

enum param_type {
  PARAM_UINT,                   /* uint64_t, a plain integer */
  PARAM_DURATION,               /* uint64_t ns: 8ms, 250us, 1.5s */
  PARAM_SIZE,                   /* uint64_t bytes: 4096, 64K, 16M */
  PARAM_RATE,                   /* uint64_t bytes/s, decimal: 100M, 58MB/s */
  PARAM_ENUM,                   /* int: the index of one of 'choices' */
  PARAM_BOOL,                   /* bool: true/false, on/off, yes/no, 1/0 */
  PARAM_STRING,                 /* char *, owned (strdup), not empty */
};

/* How a key speaks to its user.  The drive's keys were written apart
 * from the others, and each kind keeps the words its users have always
 * seen:
 *
 *                   TUNABLE                      PROFILE
 *   malformed       "K=V: expected a duration    "K=V: cannot parse as
 *                    (e.g. ...)"                   DURATION (e.g. ...)"
 *                   ("a non-negative integer")   ("a whole number")
 *   out of range    [1ns, 3600s], as written     [1, 1000000000]
 *   --help          "key=off|on|auto" at column  "key=NAME" at column 28,
 *                   27, a long one on a line of   long ones not wrapped,
 *                   its own, "(default X)"       no default (the
 *                                                 profile's)
 *   a SIZE printed  16M                          16777216
 */
enum param_style {
  PARAM_STYLE_TUNABLE,          /* keys with a default of their own */
  PARAM_STYLE_PROFILE,          /* the drive's: values from a profile */
};

struct param_desc {
  const char *key;              /* NULL ends a table */
  enum param_type type;
  size_t offset;                /* offsetof the field in the owner */
  uint64_t min, max;            /* inclusive; not for ENUM, BOOL, STRING */
  uint64_t def;                 /* default; ENUM: index; BOOL: 0 or 1;
                                   STRING: none (NULL); PROFILE: none */
  const char *const *choices;   /* ENUM: NULL-terminated names */
  const char *metavar;          /* for --help; NULL: from the type */
  const char *help;
  enum param_style style;
};

/* Enough for any message of this module. */
#define PARAM_ERRLEN 256

/* The entry for key, or NULL. */
extern const struct param_desc *param_find (const struct param_desc *table,
                                            const char *key);

/* Parse value for d into *v (ENUM: the index; BOOL: 0 or 1), checking
 * the range.  0 ok; -1 with err naming key and value.  Not for
 * PARAM_STRING.
 */
extern int param_parse (const struct param_desc *d, const char *value,
                        uint64_t *v, char *err, size_t errlen);

/* Store a value parsed by param_parse into d's field of obj. */
extern void param_store (const struct param_desc *d, void *obj, uint64_t v);

/* Parse and store.  0 ok; -1 bad value (err filled, obj untouched);
 * 1 key not in the table (err untouched).
 */
extern int param_set (const struct param_desc *table, void *obj,
                      const char *key, const char *value,
                      char *err, size_t errlen);

/* Every field of a TUNABLE table to its default (strings to NULL). */
extern void param_defaults (const struct param_desc *table, void *obj);

/* Free the table's strings in obj and set them to NULL. */
extern void param_free (const struct param_desc *table, void *obj);

/* A value of d as a user would write it ("8ms", "16M", "auto",
 * "true"); returns buf.
 */
extern const char *param_format (const struct param_desc *d, uint64_t v,
                                 char *buf, size_t len);

/* Where TUNABLE --help text starts after "key=TYPE". */
#define PARAM_HELP_COLUMN 27

/* One "key=TYPE  help (default X)" line per entry, for --help. */
extern void param_print_help (const struct param_desc *table, FILE *fp);
extern void param_print_help_one (const struct param_desc *d, FILE *fp);
/* The same line for a key the owner parses itself (not in a table). */
extern void param_print_help_line (enum param_style style, const char *lhs,
                                   const char *help, FILE *fp);

/* One "PREFIXkey=default" line per entry with a default, the key's
 * dashes as underscores, for --dump-plugin.
 */
extern void param_print_defaults (const struct param_desc *table,
                                  const char *prefix, FILE *fp);

/* One "key=value" line per entry with obj's value (strings that are
 * set), as a profile is listed (hddsim-profile).
 */
extern void param_print_values (const struct param_desc *table,
                                const void *obj, FILE *fp);

#endif /* HDDSIM_PARAM_H */
