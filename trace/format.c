/* hddsim: the trace CSV's column names (see format.h). */

#include "format.h"

const char *const trace_col_names[TRACE_NCOLS] = {
  [TRACE_COL_ID] = "id",
  [TRACE_COL_CONN] = "conn",
  [TRACE_COL_OP] = "op",
  [TRACE_COL_OFFSET] = "offset",
  [TRACE_COL_LENGTH] = "length",
  [TRACE_COL_ARRIVAL] = "arrival_ns",
  [TRACE_COL_START] = "start_ns",
  [TRACE_COL_DONE] = "done_ns",
  [TRACE_COL_SEEK] = "seek_ns",
  [TRACE_COL_ROT] = "rot_ns",
  [TRACE_COL_XFER] = "xfer_ns",
  [TRACE_COL_LATE] = "late_ns",
  [TRACE_COL_FUA] = "fua",
  [TRACE_COL_BUSY] = "busy_ns",
  [TRACE_COL_OVERHEAD] = "overhead_ns",
  [TRACE_COL_SEEK_CYL] = "seek_cyl",
  [TRACE_COL_CACHE_HIT] = "cache_hit",
  [TRACE_COL_QUEUE_LEN] = "queue_len",
  [TRACE_COL_OUTCOME] = "outcome",
  [TRACE_COL_COMMANDS] = "commands",
  [TRACE_COL_LOST_EXTENTS] = "lost_extents",
  [TRACE_COL_LOST_BYTES] = "lost_bytes",
  [TRACE_COL_FLUSHES_DONE] = "flushes_done",
  [TRACE_COL_FUA_WRITES_DONE] = "fua_writes_done",
  [TRACE_COL_DISPATCH] = "dispatch_ns",
  [TRACE_COL_DRIVE_QUEUE] = "drive_queue",
};
