/* hddsim fuzzing: a trace of any format through a trace source
 * (trace/trace_source.h), as hddsim-replay reads it: the checks
 * every accepted request must pass, then the first requests that fit
 * the smallest image replayed open loop through the engine
 * (profile=fixed).  Each fuzz-src-FORMAT.c harness is this with its
 * format.
 */
#ifndef HDDSIM_FUZZ_SRC_H
#define HDDSIM_FUZZ_SRC_H

#include <inttypes.h>
#include <string.h>

#include "../sched/engine.h"
#include "../trace/format.h"
#include "../trace/trace_source.h"
#include "fuzz.h"

/* Enough requests to fill a queue and make the policy choose; the
 * parser sees the whole input regardless.
 */
#define SRC_REPLAY 64
/* A small window, so that the fuzzer reaches the out-of-order error
 * with small inputs.
 */
#define SRC_WINDOW 4

static void
src_check (const struct src_req *r, uint64_t last)
{
  fuzz_assert (r->op == IO_READ || r->op == IO_WRITE || r->op == IO_FLUSH
               || r->op == IO_TRIM || r->op == IO_ZERO, "line %lu: op %d",
               r->line, (int) r->op);
  fuzz_assert (r->length <= UINT64_MAX - r->offset, "line %lu: the extent "
               "wraps", r->line);
  fuzz_assert (r->op != IO_FLUSH || (r->offset == 0 && r->length == 0),
               "line %lu: a flush with an extent", r->line);
  fuzz_assert (!r->fua || (r->op != IO_READ && r->op != IO_FLUSH),
               "line %lu: FUA on a %s", r->line, io_op_name (r->op));
  fuzz_assert (r->arrival <= TRACE_TIME_MAX && r->measured_ns
               <= TRACE_TIME_MAX, "line %lu: a time past 2^62 ns", r->line);
  fuzz_assert (r->arrival >= last, "line %lu: arrival %" PRIu64 " before "
               "the previous one's %" PRIu64, r->line, r->arrival, last);
  fuzz_assert (memchr (r->device, '\0', sizeof r->device) != NULL,
               "line %lu: the device name is not terminated", r->line);
  fuzz_assert (r->line > 0, "a request without a line");
}

static void
src_replay (struct src_req *reqs, int n)
{
  struct req q[SRC_REPLAY];
  struct fuzz_fixed f;
  int i;

  memset (q, 0, sizeof q);
  fuzz_fixed_open (&f);
  for (i = 0; i < n; i++) {
    q[i].id = (uint64_t) i;
    q[i].conn = reqs[i].stream;
    q[i].io = (struct io) { .op = reqs[i].op, .fua = reqs[i].fua,
                            .offset = reqs[i].offset,
                            .length = reqs[i].length };
    engine_arrive (f.engine, &q[i], reqs[i].arrival);
  }
  engine_advance (f.engine, ENGINE_NEVER - 1);
  fuzz_assert (engine_pending (f.engine) == 0, "requests never completed");
  for (i = 0; i < n; i++)
    fuzz_assert (q[i].arrival <= q[i].start && q[i].start <= q[i].done,
                 "line %lu: arrival, start, done out of order",
                 reqs[i].line);
  fuzz_fixed_close (&f);
}

static void
fuzz_source (const char *path, const char *format,
             const struct trace_source_opts *opts)
{
  struct trace_source_opts o = *opts;
  struct src_req r, keep[SRC_REPLAY];
  char err[TRACE_ERRLEN];
  struct trace_source *s;
  uint64_t last = 0;
  int got, n = 0;

  o.window = SRC_WINDOW;
  s = trace_source_open (path, format, &o, err, sizeof err);
  if (s) {
    fuzz_assert (!format || strcmp (trace_source_format (s), format) == 0,
                 "opened as %s, asked for %s", trace_source_format (s),
                 format);
    while ((got = trace_source_next (s, &r, err, sizeof err)) == 1) {
      src_check (&r, last);
      last = r.arrival;
      if (n < SRC_REPLAY && r.offset + r.length <= FUZZ_IMAGE_BYTES)
        keep[n++] = r;
    }
    trace_source_close (s);
    if (got == 0) {
      src_replay (keep, n);
      return;
    }
  }
  fuzz_assert (strncmp (err, path, strlen (path)) == 0
               && err[strlen (path)] == ':',
               "the message does not name the file: %s", err);
}

#endif /* HDDSIM_FUZZ_SRC_H */
