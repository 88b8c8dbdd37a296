/* hddsim: the per-request trace (trace=FILE), one CSV line each. */

#include <inttypes.h>
#include <stdio.h>

#include "trace.h"

/* The first twelve columns are the stable interface (tools and tests
 * read them by name); new columns are only ever appended.
 */
static const char header[] =
  "id,conn,op,offset,length,arrival_ns,start_ns,done_ns,"
  "seek_ns,rot_ns,xfer_ns,late_ns,"
  "fua,busy_ns,overhead_ns,seek_cyl,cache_hit,queue_len,outcome\n";

static const char *const outcome_names[] = { "ok", "error", "aborted" };

FILE *
trace_open (const char *path)
{
  FILE *fp = fopen (path, "w");

  if (!fp)
    return NULL;
  /* A large buffer: lines are written under the engine lock. */
  setvbuf (fp, NULL, _IOFBF, 1 << 20);
  fputs (header, fp);
  return fp;
}

void
trace_write (FILE *fp, const struct req *r, int64_t late_ns,
             enum req_outcome outcome)
{
  char late[24] = "";

  if (outcome == OUTCOME_OK)
    snprintf (late, sizeof late, "%" PRId64, late_ns);
  fprintf (fp,
           "%" PRIu64 ",%" PRIu32 ",%s,%" PRIu64 ",%" PRIu64
           ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
           ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s"
           ",%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d,%" PRIu32 ",%s\n",
           r->id, r->conn, io_op_name (r->io.op), r->io.offset, r->io.length,
           r->arrival, r->start, r->done,
           r->cost.seek_ns, r->cost.rot_ns, r->cost.xfer_ns, late,
           r->io.fua, r->cost.busy_ns, r->cost.overhead_ns,
           r->cost.seek_cylinders, r->cost.cache_hit, r->queue_len,
           outcome_names[outcome]);
}
