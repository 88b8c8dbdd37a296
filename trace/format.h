/* hddsim: the trace CSV (trace=FILE): its columns and the bounds on
 * what a trace may say.  The plugin writes traces (writer.h) and
 * hddsim-replay both reads (reader.h) and writes them, so the format
 * lives here, once, below both.
 */
#ifndef HDDSIM_TRACE_FORMAT_H
#define HDDSIM_TRACE_FORMAT_H

#include <stdint.h>

/* The columns in file order.  The first twelve are the stable
 * interface (tools and tests read them by name); new columns are only
 * ever appended.  The four after commands are the power cut's
 * (powercut=): empty on a request's row, set on the one row that
 * records the cut (op and outcome "powercut", see struct trace_cut).
 * The last two say when the request (its first command) was handed to
 * the drive and how many commands the drive held then (its queue, the
 * actuator's command included; always 0 with ncq-depth=1, where
 * dispatch_ns is start_ns); the cut's row has its instant and 0.
 * Then the time a request waited for the drive to leave a power state
 * (wake_ns: spin-up, heads loading) and the time faults added to it
 * (fault_ns: fail-slow, stalls); 'event' is empty but on a fault's row
 * (trace/fault_row.h), where it says which fault fired.  clean_ns: of
 * busy_ns, the time the request waited for the drive to clean its
 * media cache (an SMR drive's bands); a clean step's own row is
 * trace/clean_row.h.
 * Traces written before a column existed lack it and still read.
 */
enum trace_col {
  TRACE_COL_ID, TRACE_COL_CONN, TRACE_COL_OP, TRACE_COL_OFFSET,
  TRACE_COL_LENGTH, TRACE_COL_ARRIVAL, TRACE_COL_START, TRACE_COL_DONE,
  TRACE_COL_SEEK, TRACE_COL_ROT, TRACE_COL_XFER, TRACE_COL_LATE,
  TRACE_COL_FUA, TRACE_COL_BUSY, TRACE_COL_OVERHEAD, TRACE_COL_SEEK_CYL,
  TRACE_COL_CACHE_HIT, TRACE_COL_QUEUE_LEN, TRACE_COL_OUTCOME,
  TRACE_COL_COMMANDS, TRACE_COL_LOST_EXTENTS, TRACE_COL_LOST_BYTES,
  TRACE_COL_FLUSHES_DONE, TRACE_COL_FUA_WRITES_DONE,
  TRACE_COL_DISPATCH, TRACE_COL_DRIVE_QUEUE,
  TRACE_COL_WAKE, TRACE_COL_FAULT, TRACE_COL_EVENT,
  TRACE_COL_CLEAN,
  TRACE_NCOLS
};

extern const char *const trace_col_names[TRACE_NCOLS];

/* Modeled times in a trace must not exceed this: 2^62 ns is 146
 * years, so a replay can add the service times of billions of
 * requests to an arrival without wrapping a uint64_t.
 */
#define TRACE_TIME_MAX (UINT64_C(1) << 62)

/* Room for a reader's message ("PATH:LINE: what"). */
#define TRACE_ERRLEN 512

#endif /* HDDSIM_TRACE_FORMAT_H */
