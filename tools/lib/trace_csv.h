/* hddsim: the trace CSV (trace=FILE): its columns, the writer's line
 * format and a reader by column names.  The plugin writes traces with
 * the format below and hddsim-replay both reads and writes them, so
 * the format lives here, once.
 */
#ifndef HDDSIM_TEST_TRACE_CSV_H
#define HDDSIM_TEST_TRACE_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../model/hdd.h"
#include "../../sched/req.h"

/* The columns in file order.  The first twelve are the stable
 * interface (tools and tests read them by name); new columns are only
 * ever appended.  The last four are the power cut's (powercut=): empty
 * on a request's row, set on the one row that records the cut (op and
 * outcome "powercut", see struct trace_cut).
 */
enum trace_col {
  TRACE_COL_ID, TRACE_COL_CONN, TRACE_COL_OP, TRACE_COL_OFFSET,
  TRACE_COL_LENGTH, TRACE_COL_ARRIVAL, TRACE_COL_START, TRACE_COL_DONE,
  TRACE_COL_SEEK, TRACE_COL_ROT, TRACE_COL_XFER, TRACE_COL_LATE,
  TRACE_COL_FUA, TRACE_COL_BUSY, TRACE_COL_OVERHEAD, TRACE_COL_SEEK_CYL,
  TRACE_COL_CACHE_HIT, TRACE_COL_QUEUE_LEN, TRACE_COL_OUTCOME,
  TRACE_COL_COMMANDS, TRACE_COL_LOST_EXTENTS, TRACE_COL_LOST_BYTES,
  TRACE_COL_FLUSHES_DONE, TRACE_COL_FUA_WRITES_DONE,
  TRACE_NCOLS
};

extern const char *const trace_col_names[TRACE_NCOLS];

/* How a request ended (the outcome column). */
enum req_outcome {
  OUTCOME_OK,
  OUTCOME_IO_ERROR,             /* the image I/O failed */
  OUTCOME_ABORTED,              /* server shut down or client went away */
  OUTCOME_POWERCUT,             /* failed (EIO) by a power cut (powercut=) */
  OUTCOME_COUNT
};

extern const char *const trace_outcome_names[OUTCOME_COUNT];

/* late_ns value written as an empty field: not delivered, or not
 * known (a replayed trace).
 */
#define TRACE_LATE_NONE INT64_MIN

/* Everything one trace line says about a request: a copy small
 * enough to hand to another thread.
 */
struct trace_record {
  uint64_t id;
  uint32_t conn;
  uint32_t queue_len;
  uint32_t commands;            /* the drive served it as (max-transfer) */
  struct io io;
  uint64_t arrival, start, done;
  struct hdd_cost cost;
  int64_t late_ns;              /* delivered - modeled done, or
                                   TRACE_LATE_NONE */
  enum req_outcome outcome;
  bool unserved;                /* withdrawn from the queue before it was
                                   served: counted in the stats, but it
                                   has no service interval to trace */
};

extern void trace_record_of (struct trace_record *, const struct req *,
                             int64_t late_ns, enum req_outcome);

/* The power cut's row (powercut=): not a request, but the instant the
 * power failed, with what the cut took and what had been made durable
 * by then (the stats' "powercut" object without "failed", which grows
 * as the requests the cut failed retire).  It reads:
 *   ID,0,powercut,0,0,T,T,T,0,0,0,,0,0,0,0,0,0,powercut,0,E,B,F,U
 * with arrival_ns = start_ns = done_ns = T, the modeled time of the
 * cut, and E, B, F, U in lost_extents, lost_bytes, flushes_done and
 * fua_writes_done.  Its id is the next request id: the number of
 * requests that had arrived by the cut (none gets an id after it).
 */
#define TRACE_OP_POWERCUT "powercut"

/* The cut's record: the row above, and the stats' "powercut" object
 * (all but the id), which the plugin keeps as the cut's counters.
 */
struct trace_cut {
  uint64_t id;
  uint64_t t_ns;
  uint64_t lost_extents;        /* runs of sectors put back to what the
                                   media held */
  uint64_t lost_bytes;
  uint64_t flushes_done;        /* completed by t_ns */
  uint64_t fua_writes_done;
  uint64_t failed;              /* requests the cut failed (EIO), in the
                                   stats only: not in the row, which is
                                   written before they have all retired
                                   (0 when read from a trace) */
};

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

/* Modeled times in a trace must not exceed this: 2^62 ns is 146
 * years, so a replay can add the service times of billions of
 * requests to an arrival without wrapping a uint64_t.
 */
#define TRACE_TIME_MAX (UINT64_C(1) << 62)

#define TRACE_ERRLEN 512

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
 * trace_csv.c: ids 1, 2, ..., conn 0, fua 0, arrival 0, ...) and a name
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

#endif /* HDDSIM_TEST_TRACE_CSV_H */
