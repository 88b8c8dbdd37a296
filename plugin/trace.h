/* hddsim: the per-request trace file (trace=FILE), one CSV line each
 * in the format of trace/writer.h.  Used by one thread at a
 * time (the recorder's writer).
 */
#ifndef HDDSIM_TRACE_H
#define HDDSIM_TRACE_H

#include <stdint.h>

#include "../trace/writer.h"

struct trace_file;

/* At start-up: open PATH (a regular file, created or truncated, or a
 * pipe; symbolic links are followed), write the header and make sure
 * it reached the file.  NULL after an nbdkit_error naming trace=.
 */
extern struct trace_file *trace_file_open (const char *path);
extern void trace_file_add (struct trace_file *, const struct trace_record *);
/* The power cut's row (powercut=; trace_format_cut). */
extern void trace_file_add_cut (struct trace_file *, const struct trace_cut *);
/* A fault's row (fault=; trace_format_fault). */
extern void trace_file_add_fault (struct trace_file *,
                                  const struct trace_fault *);
/* A clean step's row (trace_format_clean). */
extern void trace_file_add_clean (struct trace_file *,
                                  const struct trace_clean *);
/* Write out what is buffered. */
extern void trace_file_flush (struct trace_file *);
/* Records that could not be written (after a write error). */
extern uint64_t trace_file_lost (const struct trace_file *);
extern void trace_file_close (struct trace_file *);

/* "a character device" etc., for messages about an output path. */
extern const char *file_type_name (unsigned mode);

#endif /* HDDSIM_TRACE_H */
