/* hddsim: how values are written: whole numbers, durations, sizes,
 * rates and booleans, parsed and formatted.
 *
 * The parameter tables (param.h) read every key=value with these; the
 * trace readers and the few parameters that are not in a table use
 * them directly.  A value formatted here reads back as the same value.
 */
#ifndef HDDSIM_VALUE_H
#define HDDSIM_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* All return 0 on success, -1 on a malformed or out-of-range string
 * (the output untouched).
 */

/* Digits only, the full 64-bit range. */
extern int parse_uint (const char *s, uint64_t *v);
/* ns; accepts ns, us, ms, s suffixes and decimal fractions ("8.5ms");
 * a bare number is seconds.
 */
extern int parse_duration (const char *s, uint64_t *ns);
/* Bytes; binary multipliers K, M, G, T, P, optionally followed by B or
 * iB ("64K", "2MiB").
 */
extern int parse_size (const char *s, uint64_t *bytes);
/* Bytes per second, decimal as spec sheets quote them: "100M",
 * "58MB/s", "100000000".
 */
extern int parse_rate (const char *s, uint64_t *bps);
/* The words nbdkit_parse_bool takes: true/false, on/off, yes/no, 1/0,
 * in any case.
 */
extern int parse_bool (const char *s, bool *b);

/* A duration compactly and exactly ("8.5ms", "125ms", "250us",
 * "3s"); returns buf.
 */
extern const char *format_duration (uint64_t ns, char *buf, size_t len);
/* A size in the largest binary unit that divides it ("16M", "64K",
 * "4097"); returns buf.
 */
extern const char *format_size (uint64_t bytes, char *buf, size_t len);

#endif /* HDDSIM_VALUE_H */
