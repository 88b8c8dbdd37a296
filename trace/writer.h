/* hddsim: the trace CSV's lines, formatted in place.  The plugin
 * writes one per request, at up to ~100k a second; hddsim-replay its
 * --output.
 */
#ifndef HDDSIM_TRACE_WRITER_H
#define HDDSIM_TRACE_WRITER_H

#include <stddef.h>

#include "clean_row.h"
#include "cut.h"
#include "fault_row.h"
#include "record.h"

/* Longest line trace_format_line or trace_format_cut writes, with its
 * newline.
 */
#define TRACE_LINE_MAX 512

/* The header line (with newline) and one record's line, written to
 * buf (at least TRACE_LINE_MAX bytes), not NUL-terminated; both
 * return the length.
 */
extern size_t trace_format_header (char *buf);
extern size_t trace_format_line (char *buf, const struct trace_record *);
extern size_t trace_format_cut (char *buf, const struct trace_cut *);
/* A fault's row (fault_row.h). */
extern size_t trace_format_fault (char *buf, const struct trace_fault *);
/* A clean step's row (clean_row.h). */
extern size_t trace_format_clean (char *buf, const struct trace_clean *);

#endif /* HDDSIM_TRACE_WRITER_H */
