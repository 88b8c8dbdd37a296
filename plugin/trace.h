/* hddsim: the per-request trace (trace=FILE), one CSV line each. */
#ifndef HDDSIM_TRACE_H
#define HDDSIM_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "../sched/req.h"

enum req_outcome {
  OUTCOME_OK,
  OUTCOME_IO_ERROR,             /* the image I/O failed */
  OUTCOME_ABORTED,              /* server shut down or client went away */
};

extern FILE *trace_open (const char *path);
/* late_ns is the delivered completion minus the modeled one (negative
 * would be a bug: delivered early); it is not
 * meaningful (and written empty) unless the outcome is OK.
 */
extern void trace_write (FILE *fp, const struct req *r, int64_t late_ns,
                         enum req_outcome outcome);

#endif /* HDDSIM_TRACE_H */
