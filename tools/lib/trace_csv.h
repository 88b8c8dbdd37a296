/* hddsim: read a trace CSV (trace=FILE) by column names. */
#ifndef HDDSIM_TEST_TRACE_CSV_H
#define HDDSIM_TEST_TRACE_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct trace_row {
  uint64_t id;
  uint32_t conn;
  char op[8];
  uint64_t offset, length;
  uint64_t arrival, start, done;
  uint64_t seek_ns, rot_ns, xfer_ns;
  int64_t late_ns;              /* -1 when empty (not delivered) */
  bool fua;
  uint32_t queue_len;
  char outcome[12];
};

/* Returns the number of rows (malloc'd array in *rows), -1 on a
 * malformed file.
 */
extern long trace_read (const char *path, struct trace_row **rows);

/* The same rows one at a time, so that a replay never holds the whole
 * trace.  Errors name the file and the line.
 */
struct trace_reader;

extern struct trace_reader *trace_reader_open (const char *path,
                                               char *err, size_t errlen);
/* 1 and *row, 0 at the end, -1 and err on a malformed line. */
extern int trace_reader_next (struct trace_reader *, struct trace_row *row,
                              char *err, size_t errlen);
/* The line of the row last read (the header is line 1). */
extern long trace_reader_line (const struct trace_reader *);
extern const char *trace_reader_path (const struct trace_reader *);
extern void trace_reader_close (struct trace_reader *);

#endif /* HDDSIM_TEST_TRACE_CSV_H */
