/* hddsim: DiskSim's "validate" trace format, and its closed-loop replay.
 *
 * One request a line, six fields separated by blanks:
 *
 *   R|W  Hit|Miss|Doub|Trip  blkno  bcount  servtime_us  nextinter_us
 *
 * blkno and bcount count 512-byte blocks.  servtime is the service
 * time the real drive took (microseconds); nextinter is the think time
 * after this request completed before the next one was issued.  The
 * second field says what the real drive's buffer did (a hit, a miss, a
 * double or triple disconnect); DiskSim only counts it, and so does
 * nothing here.  This is the layout DiskSim 4.0's validate trace
 * reader scans ("%c %s %lld %d %lf %lf").
 */
#ifndef HDDSIM_DISKSIM_TRACE_H
#define HDDSIM_DISKSIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../sched/engine.h"

#define DS_BLOCK 512u
#define DS_ERRLEN 512

struct ds_request {
  bool write;
  char action[5];               /* Hit, Miss, Doub or Trip */
  uint64_t blkno;               /* 512-byte blocks */
  uint32_t bcount;              /* 512-byte blocks, at least 1 */
  double servtime_us;           /* measured, as DiskSim reads it */
  uint64_t nextinter_ns;        /* think time after the completion */
  long line;                    /* in the trace file */
};

struct ds_trace;

/* Open a trace whose requests must fit a drive of 'size' bytes.  NULL
 * and err on failure.
 */
extern struct ds_trace *ds_trace_open (const char *path, uint64_t size,
                                       char *err, size_t errlen);
/* The next request: 1, 0 at the end, -1 and err ("FILE:LINE: ...") on
 * a malformed line or a read error.
 */
extern int ds_trace_next (struct ds_trace *, struct ds_request *,
                          char *err, size_t errlen);
extern void ds_trace_close (struct ds_trace *);

/* Called once a request has completed; r->arrival, r->start, r->done
 * and r->cost are the modeled ones.
 */
typedef int (*ds_done_fn) (const struct req *r, const struct ds_request *d,
                           void *opaque);

/* Replay the trace closed-loop, as DiskSim's validate mode does: one
 * request outstanding; the first arrives at 0, request i+1 at request
 * i's modeled completion plus nextinter of line i.  Request ids are
 * 0, 1, 2, ... in trace order.  Returns the number of requests, or -1
 * and err on a trace error, a time overflow or a callback's -1.
 */
extern long ds_replay (struct ds_trace *, struct engine *, ds_done_fn done,
                       void *opaque, char *err, size_t errlen);

#endif /* HDDSIM_DISKSIM_TRACE_H */
