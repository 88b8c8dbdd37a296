/* hddsim: everything one trace line says about a request. */
#ifndef HDDSIM_TRACE_RECORD_H
#define HDDSIM_TRACE_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "../model/hdd.h"
#include "outcome.h"

struct req;

/* late_ns value written as an empty field: not delivered, or not
 * known (a replayed trace).
 */
#define TRACE_LATE_NONE INT64_MIN

/* A copy small enough to hand to another thread. */
struct trace_record {
  uint64_t id;
  uint32_t conn;
  uint32_t queue_len;
  uint32_t commands;            /* the drive served it as (max-transfer) */
  uint32_t drive_queue;         /* commands the drive held at dispatch */
  struct io io;
  uint64_t arrival, dispatch, start, done;
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

#endif /* HDDSIM_TRACE_RECORD_H */
