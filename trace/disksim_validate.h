/* hddsim: DiskSim's "validate" trace format, read.
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
 * reader scans ("%c %s %lld %d %lf %lf").  The replay runs it closed
 * loop (tools/lib/disksim_replay.h).
 */
#ifndef HDDSIM_TRACE_DISKSIM_VALIDATE_H
#define HDDSIM_TRACE_DISKSIM_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* "PATH:LINE: what" into err, for the line last read. */
extern void ds_trace_error (const struct ds_trace *, char *err,
                            size_t errlen, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

#endif /* HDDSIM_TRACE_DISKSIM_VALIDATE_H */
