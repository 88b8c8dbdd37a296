/* hddsim fuzzing: a trace (trace=FILE's CSV) as hddsim-replay reads
 * it, then the first rows it accepts replayed through the engine as
 * hddsim-replay does.  The drive is profile=fixed: a mechanical one
 * costs a seek-curve fit (~80 ms under ASan) per input, and the drive
 * has harnesses of its own.
 */

#include <stdlib.h>
#include <string.h>

#include "../sched/engine.h"
#include "../trace/reader.h"
#include "fuzz.h"

/* Enough rows to fill a queue and make a policy choose. */
#define REPLAY_ROWS 64

static int
by_arrival (const void *a, const void *b)
{
  const struct trace_row *x = a, *y = b;

  return x->arrival < y->arrival ? -1 : x->arrival > y->arrival;
}

static void
replay (struct trace_row *rows, long n)
{
  struct req reqs[REPLAY_ROWS] = { 0 };
  struct fuzz_fixed f;
  struct engine *e;
  long i;

  fuzz_fixed_open (&f);
  e = f.engine;
  if (n > REPLAY_ROWS)
    n = REPLAY_ROWS;
  qsort (rows, (size_t) n, sizeof *rows, by_arrival);
  for (i = 0; i < n; i++) {
    reqs[i].id = rows[i].id;
    reqs[i].conn = rows[i].conn;
    reqs[i].io = (struct io) { .op = rows[i].io_op, .fua = rows[i].fua,
                               .offset = rows[i].offset,
                               .length = rows[i].length };
    engine_arrive (e, &reqs[i], rows[i].arrival);
  }
  engine_advance (e, ENGINE_NEVER - 1);
  fuzz_assert (engine_pending (e) == 0, "requests never completed");
  for (i = 0; i < n; i++)
    fuzz_assert (reqs[i].arrival <= reqs[i].start
                 && reqs[i].start <= reqs[i].done,
                 "row of line %lu: arrival, start, done out of order",
                 rows[i].line);
  fuzz_fixed_close (&f);
}

void
fuzz_one (const char *path)
{
  char err[TRACE_ERRLEN];
  struct trace_row *rows;
  long n = trace_read (path, &rows, err, sizeof err);

  if (n < 0) {
    fuzz_assert (strncmp (err, path, strlen (path)) == 0,
                 "the message does not name the file: %s", err);
    return;
  }
  if (trace_check_extents (path, rows, n, FUZZ_IMAGE_BYTES, err,
                           sizeof err) == 0)
    replay (rows, n);
  free (rows);
}
