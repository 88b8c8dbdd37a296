/* hddsim: the trace CSV's reader, by column names: a trace as the
 * plugin writes it (full), or a hand-written one that names only some
 * columns (minimal).  Every row is checked against what the writer
 * can have written.
 */
#ifndef HDDSIM_TRACE_READER_H
#define HDDSIM_TRACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/hdd.h"
#include "cut.h"
#include "format.h"

/* One request's row, as read. */
struct trace_row {
  uint64_t id;
  uint32_t conn;
  const char *op;               /* the op's name (io_op_name's) */
  enum io_op io_op;             /* op, parsed */
  uint64_t offset, length;
  uint64_t arrival, start, done;
  uint64_t seek_ns, rot_ns, xfer_ns;
  int64_t late_ns;              /* -1 when empty (not delivered) */
  bool fua;
  uint32_t queue_len;
  const char *outcome;          /* trace_outcome_names' */
  bool has_arrival;             /* the trace has arrival_ns (a minimal
                                   one may not: arrival is then 0) */
  bool has_done;                /* the trace has done_ns */
  unsigned long line;           /* where the row is in its file */
};

/* Read and check every row of a trace: known op and outcome, decimal
 * numbers that fit their column, arrival <= start <= done <=
 * TRACE_TIME_MAX, an extent that does not wrap, unique ids.  Returns
 * the number of rows (malloc'd array in *rows), or -1 with err
 * ("PATH:LINE: what") on the first bad row or an unreadable file.
 * Rows are requests: the power cut's row is checked (see
 * trace_reader_next) but not among them; trace_read_cut gives it.
 */
extern long trace_read (const char *path, struct trace_row **rows,
                        char *err, size_t errlen);

/* Check that every row's extent lies inside an image of 'size' bytes;
 * -1 with err naming the path and line of the first that does not.
 */
extern int trace_check_extents (const char *path,
                                const struct trace_row *rows, long n,
                                uint64_t size, char *err, size_t errlen);

/* One row's extent within an image of 'size' bytes. */
extern int trace_row_check_extent (const char *path,
                                   const struct trace_row *r, uint64_t size,
                                   char *err, size_t errlen);

/* The same rows one at a time, so that a replay never holds the whole
 * trace; every row is checked as trace_read checks it, except that ids
 * are not compared across rows.  Errors name the file and the line.
 */
struct trace_reader;

extern struct trace_reader *trace_reader_open (const char *path,
                                               char *err, size_t errlen);
/* A minimal trace as well: the header must name op, offset and
 * length; every other column of trace_col_names is optional (a
 * missing one gets the defaults documented at default_fields in
 * reader.c: ids 1, 2, ..., conn 0, fua 0, arrival 0, ...) and a name
 * not in trace_col_names is an error.  A full trace reads as with
 * trace_reader_open.
 */
extern struct trace_reader *trace_reader_open_minimal (const char *path,
                                                       char *err,
                                                       size_t errlen);
/* 1 and *row, 0 at the end, -1 and err on a malformed line.  Only
 * requests are rows: the power cut's row is checked (arrival = start
 * = done, no extent, outcome powercut, whole sectors lost, one cut at
 * most) and kept for trace_reader_cut, never given as a row, so that
 * nothing replays or counts it as a request.  On a request's row the
 * power cut's columns must be empty.
 */
extern int trace_reader_next (struct trace_reader *, struct trace_row *row,
                              char *err, size_t errlen);
/* The power cut's row among the rows read so far: true and *cut. */
extern bool trace_reader_cut (const struct trace_reader *,
                              struct trace_cut *cut);
/* The whole trace at PATH read for its power cut's row: 1 and *cut,
 * 0 if it has none, -1 and err as trace_read.
 */
extern int trace_read_cut (const char *path, struct trace_cut *cut,
                           char *err, size_t errlen);
/* The line of the row last read (the header is line 1). */
extern long trace_reader_line (const struct trace_reader *);
extern const char *trace_reader_path (const struct trace_reader *);
extern void trace_reader_close (struct trace_reader *);

#endif /* HDDSIM_TRACE_READER_H */
