/* hddsim: the power cut's row of a trace (powercut=). */
#ifndef HDDSIM_TRACE_CUT_H
#define HDDSIM_TRACE_CUT_H

#include <stdint.h>

/* The power cut's row (powercut=): not a request, but the instant the
 * power failed, with what the cut took and what had been made durable
 * by then (the stats' "powercut" object without "failed", which grows
 * as the requests the cut failed retire).  It reads:
 *   ID,0,powercut,0,0,T,T,T,0,0,0,,0,0,0,0,0,0,powercut,0,E,B,F,U,T,0
 * with arrival_ns = start_ns = done_ns = dispatch_ns = T, the modeled
 * time of the cut, E, B, F, U in lost_extents, lost_bytes,
 * flushes_done and fua_writes_done, and drive_queue 0.  Its id is the next request id: the number of
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

#endif /* HDDSIM_TRACE_CUT_H */
