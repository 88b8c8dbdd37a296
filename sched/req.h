/* hddsim: a request as the scheduler sees it. */
#ifndef HDDSIM_REQ_H
#define HDDSIM_REQ_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>
#include <bsd/sys/tree.h>

#include "../model/hdd.h"

enum req_state {
  REQ_NEW,                      /* not yet submitted */
  REQ_WAITING,                  /* submitted; beyond the policy's qdepth */
  REQ_QUEUED,                   /* held by the policy */
  REQ_DRIVE,                    /* handed to the drive, in its queue:
                                   dispatch is set */
  REQ_SERVING,                  /* on the actuator: start and done are set */
  REQ_DONE,                     /* completed at 'done' (modeled) */
};

struct req {
  /* Set by the submitter. */
  struct io io;
  uint32_t conn;                /* client connection (CFQ keys queues on it) */
  uint64_t id;

  /* Set by the engine. */
  bool sync;                    /* reads, FUA writes, flushes */
  enum req_state state;
  uint64_t arrival;             /* modeled ns */
  uint64_t dispatch;            /* handed to the drive */
  uint64_t start;               /* on the actuator */
  uint64_t done;
  uint32_t queue_len;           /* requests in the engine at arrival */
  uint32_t drive_len;           /* commands the drive held (queued or on
                                   the actuator) when it was handed to it */
  struct hdd_cost cost;

  /* A request longer than the drive's max-transfer is served as
   * consecutive commands, each a struct req of its own that the
   * policies see (engine.c).  The request's dispatch and drive_len
   * are its first command's to reach the drive, its start the first
   * to reach the actuator, its done the last's, its cost their sum.
   */
  uint32_t ncmds;               /* commands it is served as (1: itself) */
  uint32_t cmds_undispatched;   /* of those, not yet handed to the drive */
  uint32_t cmds_unstarted;      /* not yet on the actuator */
  uint32_t cmds_left;           /* not yet completed or withdrawn */
  struct req *cmds;             /* its commands, or NULL */
  struct req *parent;           /* a command: the request it serves */

  /* Engine linkage (waiting list). */
  TAILQ_ENTRY(req) engine_link;
  /* The drive's queue (drive_queue.c). */
  TAILQ_ENTRY(req) drive_link;

  /* Policy-private linkage and fields: a request is in one policy at
   * a time, so policies share these.
   */
  TAILQ_ENTRY(req) fifo_link;   /* arrival-order or expiry list */
  RB_ENTRY(req) sort_link;      /* sector-sorted tree */
  uint64_t deadline;            /* expiry time, for policies that age */
  void *policy_data;            /* e.g. CFQ's queue */

  void *user;                   /* the submitter's */
};

TAILQ_HEAD(req_list, req);

static inline uint64_t
req_end (const struct req *r)
{
  return r->io.offset + r->io.length;
}

#endif /* HDDSIM_REQ_H */
