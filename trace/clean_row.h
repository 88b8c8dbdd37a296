/* hddsim: a clean step's row of a trace (model/hdd.h, struct
 * hdd_clean): the drive cleaned its media cache (on a DM-SMR drive, a
 * band's read-modify-write).
 */
#ifndef HDDSIM_TRACE_CLEAN_ROW_H
#define HDDSIM_TRACE_CLEAN_ROW_H

#include <stdbool.h>
#include <stdint.h>

/* Not a request: the arm's work from S to E on the region of home
 * addresses at image bytes [OFF, OFF+LEN) (the band), and why it ran
 * ('event': "idle" or "forced", the extents and bytes it merged).  It
 * reads:
 *   0,0,clean,OFF,LEN,S,S,E,0,0,0,,0,0,0,0,0,0,clean,0,,,,,S,0,0,0,
 *     forced extents=N staged=B,0
 * Its id is 0: it takes no request's id (the requests' ids stay as
 * they were without the row).  Readers skip it (it is no request).
 */
#define TRACE_OP_CLEAN "clean"

struct trace_clean {
  uint64_t start_ns, end_ns;
  uint64_t offset, length;
  uint64_t extents, staged_bytes;
  bool forced;
};

#endif /* HDDSIM_TRACE_CLEAN_ROW_H */
