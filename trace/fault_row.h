/* hddsim: a fault's row of a trace (fault=; plugin/fault.h). */
#ifndef HDDSIM_TRACE_FAULT_ROW_H
#define HDDSIM_TRACE_FAULT_ROW_H

#include <stdint.h>

/* A fault fired: not a request, but the modeled instant T a fault took
 * effect, and which (the parameter's value, in the last column,
 * 'event').  It reads:
 *   ID,0,fault,0,0,T,T,T,0,0,0,,0,0,0,0,0,0,fault,0,,,,,T,0,0,0,WHAT
 * Its id is the next request id, as the power cut's.  Readers skip it
 * (it is no request).
 */
#define TRACE_OP_FAULT "fault"
#define TRACE_FAULT_WHAT_MAX 160

struct trace_fault {
  uint64_t id;
  uint64_t t_ns;
  char what[TRACE_FAULT_WHAT_MAX];      /* no comma, no newline */
};

#endif /* HDDSIM_TRACE_FAULT_ROW_H */
