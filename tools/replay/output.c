/* hddsim-replay: --output, the replayed requests in the trace format
 * the plugin writes.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../trace/writer.h"
#include "replay.h"

/* Rows are formatted straight into this buffer, written out when it
 * is nearly full: one fwrite per row cost more than formatting a
 * number.
 */
#define OUT_BUF (1 << 16)

static void
flush_rows (struct replay *rp)
{
  fwrite_unlocked (rp->obuf, 1, rp->oused, rp->out);
  rp->oused = 0;
}

/* One row of the trace format the plugin writes (trace/writer.c);
 * a replayed request has no delivery, so late_ns is left empty.
 */
void
write_row (struct replay *rp, const struct req *r)
{
  struct trace_record t;

  if (OUT_BUF - rp->oused < TRACE_LINE_MAX)
    flush_rows (rp);
  trace_record_of (&t, r, TRACE_LATE_NONE, r->cost.medium_error
                   ? OUTCOME_MEDIUM_ERROR : OUTCOME_OK);
  rp->oused += trace_format_line (rp->obuf + rp->oused, &t);
}

/* A clean step's row (trace/clean_row.h), when the model reports one
 * (hdd_set_clean_observer).
 */
void
write_clean_row (void *opaque, const struct hdd_clean *ev)
{
  struct replay *rp = opaque;
  const struct trace_clean c = {
    .start_ns = ev->start_ns,
    .end_ns = ev->end_ns, .offset = ev->offset, .length = ev->length,
    .extents = ev->extents, .staged_bytes = ev->staged_bytes,
    .forced = ev->forced,
  };

  if (!rp->out)
    return;
  if (OUT_BUF - rp->oused < TRACE_LINE_MAX)
    flush_rows (rp);
  rp->oused += trace_format_clean (rp->obuf + rp->oused, &c);
}

static void
write_header (FILE *fp)
{
  char line[TRACE_LINE_MAX];

  fwrite (line, 1, trace_format_header (line), fp);
}

int
open_output (struct replay *rp)
{
  /* --check, --demerit and --summary report on their own; the CSV
   * then goes only where --output says.
   */
  if (!rp->output && (rp->check || rp->demerit || rp->summary))
    return 0;
  rp->obuf = malloc (OUT_BUF);
  if (!rp->obuf) {
    fprintf (stderr, "hddsim-replay: out of memory\n");
    return -1;
  }
  rp->out = rp->output ? fopen (rp->output, "w") : stdout;
  if (!rp->out) {
    fprintf (stderr, "hddsim-replay: %s: %s\n", rp->output, strerror (errno));
    free (rp->obuf);
    return -1;
  }
  write_header (rp->out);
  return 0;
}

int
close_output (struct replay *rp)
{
  int r;

  if (!rp->out)
    return 0;
  flush_rows (rp);
  free (rp->obuf);
  /* A failed write leaves the stream's error flag set. */
  r = ferror (rp->out) ? EOF : 0;
  if (rp->out == stdout ? fflush (rp->out) : fclose (rp->out))
    r = EOF;
  if (r != 0 || rp->failed) {
    if (r != 0)
      fprintf (stderr, "hddsim-replay: %s: %s\n",
               rp->output ? rp->output : "stdout", strerror (errno));
    return -1;
  }
  return 0;
}
