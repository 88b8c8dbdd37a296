/* hddsim-replay: run a recorded trace through the engine on a virtual
 * clock, DiskSim-style, in a fraction of the time it took live.
 *
 *   hddsim-replay [OPTIONS] TRACE [size=BYTES] [sched=...] [profile=...]
 *                 [seed=N] [tunables...]
 *
 * Formats (--format=, detected when not given): hddsim (the plugin's
 * trace=, or a minimal CSV), blkparse, fio-iolog, msr, disksim-ascii
 * (tools/lib/trace_source.h), and disksim-validate (DiskSim's
 * validation traces, always closed loop with their think times: see
 * tools/lib/disksim_trace.h).
 *
 * How requests are issued:
 *   open loop (the default)  at the trace's arrival times, divided by
 *                            --speed=F;
 *   --max-inflight=N         the same, but a client that keeps at most
 *                            N in flight (QEMU's NBD client keeps 16):
 *                            an arrival beyond them waits, in order,
 *                            until a request completes;
 *   --closed[=N]             N outstanding (default 1), the next issued
 *                            as one completes; the trace's times are
 *                            not used.
 * A request is submitted to the engine at the time it is issued, so the
 * output's arrival_ns is when it reached the drive, as in a live trace.
 *
 * A full hddsim trace is written in order of completion: up to --window
 * rows are held and released in arrival order, and a row that arrives
 * before one already released is an error naming its line.  With the
 * parameters of the live run, the open-loop replay of a full hddsim
 * trace is the live timeline: --check compares start_ns and done_ns of
 * every request and fails on the first difference.  Requests that the
 * live run abandoned before they reached the drive are not in the
 * trace, so a run with such aborts cannot be checked.
 *
 * The trace is streamed: a request is read when it is issued, so
 * memory depends on the requests in flight, not on the trace's length.
 *
 * A request beyond the image (size=, or the profile's capacity) is an
 * error naming its line; with --wrap its offset is taken modulo the
 * image instead (see wrap_offset).
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/param.h"
#include "../sched/engine.h"
#include "../sched/setup.h"
#include "../trace/reader.h"
#include "../trace/trace_source.h"
#include "../trace/writer.h"
#include "lib/demerit.h"
#include "lib/disksim_replay.h"
#include "lib/replay_summary.h"

#define DEFAULT_WINDOW 16384
#define MAX_INFLIGHT (UINT32_C(1) << 20)

enum format {
  FORMAT_HDDSIM,                /* a full hddsim trace, trace_reader */
  FORMAT_SOURCE,                /* anything trace_source reads */
  FORMAT_DISKSIM,               /* DiskSim validate, closed loop */
};

/* One request, from the time it is read until its modeled completion. */
struct slot {
  struct req req;
  uint64_t wanted;              /* when the trace issues it (after --speed) */
  uint64_t live_start, live_done;       /* full hddsim traces */
  unsigned long line;
  struct slot *next_free;
};

/* Slots are allocated this many at a time: the window alone holds
 * thousands, and a malloc each (and a free at the end) was 4% of the
 * instructions of a 20,000-request replay.
 */
#define SLOT_BLOCK 256

struct slot_block {
  struct slot_block *next;
  struct slot slots[SLOT_BLOCK];
};

struct replay {
  /* Options. */
  const char *trace, *output, *cdf, *format_name, *device;
  enum format format;
  bool check, demerit, summary, wrap, closed, size_given;
  char blk_event;
  double speed;                 /* 0: not given (1) */
  uint32_t limit;               /* most requests in flight; 0: no limit */
  uint64_t size;
  size_t window;
  struct setup setup;

  /* The run. */
  FILE *out;
  char *obuf;                   /* rows formatted in place, OUT_BUF */
  size_t oused;
  struct engine *engine;
  struct replay_summary *sum;
  long requests;
  uint32_t inflight;
  bool failed;                  /* --check found a difference, or I/O */
  bool draining;                /* after an error: only free the slots */
  struct slot *free_slots;
  struct slot_block *blocks;    /* every slot is in one of these */

  /* Full hddsim traces: rows read, not yet issued, by arrival: those
     read in arrival order in a FIFO (run, a ring of window + 1), the
     others in a heap.  A trace in arrival order, as the replay's own
     input usually is, then costs no heap at all. */
  struct trace_reader *reader;
  struct slot **heap;
  size_t nheap;
  struct slot **run;
  size_t run_head, nrun;
  bool reader_done, released_any;
  uint64_t last_arrival, last_id;

  /* Other formats. */
  struct trace_source *src;
  uint64_t next_id;

  /* disksim-validate. */
  struct demerit_dist *modeled, *measured;
};

static void
usage (FILE *fp)
{
  const struct trace_format_info *f;

  fprintf (fp,
           "usage: hddsim-replay [--format=NAME] [--closed[=N] | "
           "--max-inflight=N] [--speed=F]\n"
           "                     [--device=NAME] [--blk-event=Q|D] "
           "[--wrap] [--summary] [--check]\n"
           "                     [--output=FILE] [--window=ROWS] "
           "TRACE [size=BYTES] [PARAM=VALUE...]\n"
           "       hddsim-replay --format=disksim-validate [--output=FILE] "
           "[--demerit] [--cdf=FILE] TRACE [size=BYTES] [PARAM=VALUE...]\n"
           "PARAMs are the plugin's: sched=, profile=, seed=, drive "
           "parameters and scheduler tunables.\n"
           "size= defaults to the profile's capacity.\n"
           "Formats (detected when --format is not given):\n");
  for (f = trace_source_formats; f->name; f++)
    fprintf (fp, "  %-17s %s\n", f->name, f->help);
  fprintf (fp, "  %-17s %s\n", "disksim-validate",
           "DiskSim's validation traces, closed loop with their think "
           "times (never detected)");
}

/* ---- options ---- */

static bool
known_format (const char *name)
{
  const struct trace_format_info *f;

  if (strcmp (name, "disksim-validate") == 0)
    return true;
  for (f = trace_source_formats; f->name; f++)
    if (strcmp (name, f->name) == 0)
      return true;
  return false;
}

static int
parse_format (struct replay *rp, const char *name)
{
  const struct trace_format_info *f;

  if (!known_format (name)) {
    fprintf (stderr, "hddsim-replay: --format=%s: expected one of", name);
    for (f = trace_source_formats; f->name; f++)
      fprintf (stderr, " %s", f->name);
    fprintf (stderr, " disksim-validate\n");
    return -1;
  }
  rp->format_name = name;
  return 0;
}

static int
parse_count (const char *opt, const char *value, uint64_t max, uint64_t *n)
{
  if (parse_uint (value, n) == -1 || *n == 0 || *n > max) {
    fprintf (stderr, "hddsim-replay: --%s=%s: expected 1 to %" PRIu64 "\n",
             opt, value, max);
    return -1;
  }
  return 0;
}

static int
parse_limit (struct replay *rp, const char *opt, const char *value)
{
  uint64_t n = 1;

  if (value && parse_count (opt, value, MAX_INFLIGHT, &n) == -1)
    return -1;
  if (rp->limit) {
    fprintf (stderr, "hddsim-replay: --closed and --max-inflight exclude "
             "each other (given twice?)\n");
    return -1;
  }
  rp->limit = (uint32_t) n;
  return 0;
}

static int
parse_speed (struct replay *rp, const char *value)
{
  char *end;
  double f;

  errno = 0;
  f = strtod (value, &end);
  if (errno || end == value || *end || !isfinite (f) || f < 1e-6 || f > 1e6) {
    fprintf (stderr, "hddsim-replay: --speed=%s: expected a factor from "
             "1e-6 to 1e6\n", value);
    return -1;
  }
  rp->speed = f;
  return 0;
}

static int
parse_blk_event (struct replay *rp, const char *value)
{
  if ((value[0] != 'Q' && value[0] != 'D') || value[1]) {
    fprintf (stderr, "hddsim-replay: --blk-event=%s: expected Q (queued) "
             "or D (issued to the driver)\n", value);
    return -1;
  }
  rp->blk_event = value[0];
  return 0;
}

static int
parse_device (struct replay *rp, const char *value)
{
  if (!*value || strlen (value) >= SRC_DEVICE_MAX) {
    fprintf (stderr, "hddsim-replay: --device=%s: expected a name of 1 to "
             "%d characters\n", value, SRC_DEVICE_MAX - 1);
    return -1;
  }
  rp->device = value;
  return 0;
}

static int
parse_option (struct replay *rp, int c)
{
  uint64_t w;

  switch (c) {
  case 'c': rp->check = true; return 0;
  case 'o': rp->output = optarg; return 0;
  case 'd': rp->demerit = true; return 0;
  case 's': rp->summary = true; return 0;
  case 'W': rp->wrap = true; return 0;
  case 'C': rp->cdf = optarg; return 0;
  case 'f': return parse_format (rp, optarg);
  case 'L': rp->closed = true; return parse_limit (rp, "closed", optarg);
  case 'M': return parse_limit (rp, "max-inflight", optarg);
  case 'S': return parse_speed (rp, optarg);
  case 'B': return parse_blk_event (rp, optarg);
  case 'D': return parse_device (rp, optarg);
  case 'w':
    if (parse_count ("window", optarg, UINT64_C(1) << 30, &w) == -1)
      return -1;
    rp->window = (size_t) w;
    return 0;
  case 'h': usage (stdout); exit (EXIT_SUCCESS);
  default: usage (stderr); return -1;
  }
}

/* Options that make no sense together, said rather than ignored. */
static int
check_options (struct replay *rp)
{
  bool ds = rp->format_name
    && strcmp (rp->format_name, "disksim-validate") == 0;

  if (!ds && (rp->demerit || rp->cdf)) {
    fprintf (stderr, "hddsim-replay: --demerit and --cdf need measured "
             "service times: --format=disksim-validate\n");
    return -1;
  }
  if (ds && (rp->check || rp->limit || rp->speed || rp->device
             || rp->blk_event || rp->wrap || rp->summary)) {
    fprintf (stderr, "hddsim-replay: --format=disksim-validate replays "
             "closed loop with the trace's think times: it takes only "
             "--output, --demerit and --cdf\n");
    return -1;
  }
  if (rp->closed && rp->speed) {
    fprintf (stderr, "hddsim-replay: --speed scales arrival times, which "
             "--closed does not use\n");
    return -1;
  }
  if (rp->check && (rp->closed || rp->speed)) {
    fprintf (stderr, "hddsim-replay: --check compares with the live "
             "timeline: not with --closed or --speed\n");
    return -1;
  }
  rp->format = ds ? FORMAT_DISKSIM : FORMAT_SOURCE;
  return 0;
}

static int
parse_options (struct replay *rp, int argc, char **argv)
{
  static const struct option opts[] = {
    { "check", no_argument, NULL, 'c' },
    { "output", required_argument, NULL, 'o' },
    { "format", required_argument, NULL, 'f' },
    { "demerit", no_argument, NULL, 'd' },
    { "cdf", required_argument, NULL, 'C' },
    { "window", required_argument, NULL, 'w' },
    { "closed", optional_argument, NULL, 'L' },
    { "max-inflight", required_argument, NULL, 'M' },
    { "speed", required_argument, NULL, 'S' },
    { "device", required_argument, NULL, 'D' },
    { "blk-event", required_argument, NULL, 'B' },
    { "summary", no_argument, NULL, 's' },
    { "wrap", no_argument, NULL, 'W' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  int c;

  while ((c = getopt_long (argc, argv, "co:h", opts, NULL)) != -1)
    if (parse_option (rp, c) == -1)
      return -1;
  if (optind >= argc) {
    usage (stderr);
    return -1;
  }
  if (check_options (rp) == -1)
    return -1;
  rp->trace = argv[optind];
  return optind + 1;
}

static int
parse_params (struct replay *rp, int argc, char **argv, int first)
{
  char err[SETUP_ERRLEN];
  int i, r;

  for (i = first; i < argc; i++) {
    char *eq = strchr (argv[i], '=');
    if (!eq) {
      fprintf (stderr, "hddsim-replay: %s: expected KEY=VALUE\n", argv[i]);
      return -1;
    }
    *eq = '\0';
    if (strcmp (argv[i], "size") == 0) {
      if (parse_size (eq + 1, &rp->size) == -1 || rp->size == 0) {
        fprintf (stderr, "hddsim-replay: size=%s: expected a size\n", eq + 1);
        return -1;
      }
      continue;
    }
    r = setup_set (&rp->setup, argv[i], eq + 1, err, sizeof err);
    if (r != 0) {
      if (r == 1)
        fprintf (stderr, "hddsim-replay: %s: unknown parameter\n", argv[i]);
      else
        fprintf (stderr, "hddsim-replay: %s\n", err);
      return -1;
    }
  }
  if (setup_finish (&rp->setup, err, sizeof err) == -1) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  rp->size_given = rp->size != 0;
  if (rp->size == 0)
    rp->size = hdd_params_capacity (rp->setup.hdd);
  if (rp->size == 0) {
    fprintf (stderr, "hddsim-replay: size=BYTES (the image size) is "
             "required: the profile has no capacity\n");
    return -1;
  }
  return 0;
}

/* ---- output ---- */

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

/* One row of the trace format the plugin writes (tools/lib/trace_csv.c);
 * a replayed request has no delivery, so late_ns is left empty.
 */
static void
write_row (struct replay *rp, const struct req *r)
{
  struct trace_record t;

  if (OUT_BUF - rp->oused < TRACE_LINE_MAX)
    flush_rows (rp);
  trace_record_of (&t, r, TRACE_LATE_NONE, OUTCOME_OK);
  rp->oused += trace_format_line (rp->obuf + rp->oused, &t);
}

static void
write_header (FILE *fp)
{
  char line[TRACE_LINE_MAX];

  fwrite (line, 1, trace_format_header (line), fp);
}

static int
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

static int
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

/* ---- requests, from the trace to the engine ---- */

/* A new block's slots onto the free list; -1 when out of memory. */
static int
slots_grow (struct replay *rp)
{
  struct slot_block *b = malloc (sizeof *b);
  size_t i;

  if (!b)
    return -1;
  b->next = rp->blocks;
  rp->blocks = b;
  for (i = SLOT_BLOCK; i-- > 0; ) {
    b->slots[i].next_free = rp->free_slots;
    rp->free_slots = &b->slots[i];
  }
  return 0;
}

static struct slot *
slot_get (struct replay *rp)
{
  struct slot *s;

  if (!rp->free_slots && slots_grow (rp) == -1) {
    fprintf (stderr, "hddsim-replay: out of memory\n");
    return NULL;
  }
  s = rp->free_slots;
  rp->free_slots = s->next_free;
  memset (s, 0, sizeof *s);
  return s;
}

static void
slot_put (struct replay *rp, struct slot *s)
{
  s->next_free = rp->free_slots;
  rp->free_slots = s;
}

static void
slots_free (struct replay *rp)
{
  struct slot_block *b;

  while ((b = rp->blocks) != NULL) {
    rp->blocks = b->next;
    free (b);
  }
  rp->free_slots = NULL;
  rp->nheap = rp->nrun = 0;
  free (rp->heap);
  free (rp->run);
}

/* --wrap: a trace from a larger disk, folded onto the image.  Modulo
 * keeps what the policies and the drive react to, the distances
 * between neighbouring requests and the sequential runs, everywhere
 * but at the fold; scaling offsets down would shrink every seek and
 * break runs apart, and needs the trace's disk size, which a stream
 * does not know before its end.  A request that the fold leaves
 * running past the end is moved back to end there.
 */
static void
wrap_offset (const struct replay *rp, struct io *io)
{
  io->offset %= rp->size;
  if (io->length > rp->size - io->offset)
    io->offset = rp->size - io->length;
}

static int
place (const struct replay *rp, struct slot *s)
{
  struct io *io = &s->req.io;

  if (io->length <= rp->size && io->offset <= rp->size - io->length)
    return 0;
  if (rp->wrap && io->length <= rp->size) {
    wrap_offset (rp, io);
    return 0;
  }
  fprintf (stderr, "hddsim-replay: %s:%lu: request [%" PRIu64 ", %" PRIu64
           ") lies beyond the image of %" PRIu64 " bytes (%s)%s\n",
           rp->trace, s->line, io->offset, io->offset + io->length,
           rp->size, rp->size_given ? "size=" : "the profile's capacity",
           io->length <= rp->size ? ": give a larger size= or --wrap" : "");
  return -1;
}

/* The time the trace issues a request, scaled by --speed. */
static int
scale_arrival (const struct replay *rp, struct slot *s, uint64_t arrival)
{
  double t;

  if (!rp->speed || rp->speed == 1.0) {
    s->wanted = arrival;
    return 0;
  }
  t = (double) arrival / rp->speed;
  if (t > (double) TRACE_TIME_MAX) {
    fprintf (stderr, "hddsim-replay: %s:%lu: the arrival %" PRIu64 " ns at "
             "--speed=%g is beyond %" PRIu64 " ns\n", rp->trace, s->line,
             arrival, rp->speed, TRACE_TIME_MAX);
    return -1;
  }
  s->wanted = (uint64_t) t;
  return 0;
}

/* -- full hddsim traces: a window of rows, released by arrival -- */

/* Arrival order; the plugin numbers requests as they arrive.  The
 * line last, so that the order is total (a mangled trace may repeat
 * an id): the heap and the run then release the same row.
 */
static bool
before (const struct slot *a, const struct slot *b)
{
  if (a->req.arrival != b->req.arrival)
    return a->req.arrival < b->req.arrival;
  if (a->req.id != b->req.id)
    return a->req.id < b->req.id;
  return a->line < b->line;
}

static void
heap_push (struct replay *rp, struct slot *s)
{
  size_t i = rp->nheap++;

  while (i > 0 && before (s, rp->heap[(i - 1) / 2])) {
    rp->heap[i] = rp->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  rp->heap[i] = s;
}

static struct slot *
heap_pop (struct replay *rp)
{
  struct slot *top = rp->heap[0], *last = rp->heap[--rp->nheap];
  size_t i = 0, n = rp->nheap;

  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n)
      break;
    if (c + 1 < n && before (rp->heap[c + 1], rp->heap[c]))
      c++;
    if (!before (rp->heap[c], last))
      break;
    rp->heap[i] = rp->heap[c];
    i = c;
  }
  if (n > 0)
    rp->heap[i] = last;
  return top;
}

static struct slot **
run_at (struct replay *rp, size_t k)
{
  return &rp->run[(rp->run_head + k) % (rp->window + 1)];
}

/* A row into the window: at the run's end if nothing there comes
 * after it (the run stays sorted), else into the heap.
 */
static void
hold (struct replay *rp, struct slot *s)
{
  if (rp->nrun == 0 || !before (s, *run_at (rp, rp->nrun - 1))) {
    *run_at (rp, rp->nrun) = s;
    rp->nrun++;
  }
  else
    heap_push (rp, s);
}

static size_t
held (const struct replay *rp)
{
  return rp->nheap + rp->nrun;
}

/* The first held row in arrival order: the run's first or the heap's
 * top, whichever comes before.
 */
static struct slot *
release (struct replay *rp)
{
  struct slot *s;

  if (rp->nrun == 0
      || (rp->nheap > 0 && before (rp->heap[0], rp->run[rp->run_head])))
    return heap_pop (rp);
  s = rp->run[rp->run_head];
  rp->run_head = (rp->run_head + 1) % (rp->window + 1);
  rp->nrun--;
  return s;
}

/* A row to a request held in the window; -1 on an arrival before one
 * already released.
 */
static int
take_row (struct replay *rp, const struct trace_row *t)
{
  struct slot *s;

  if (rp->released_any
      && (t->arrival < rp->last_arrival
          || (t->arrival == rp->last_arrival && t->id < rp->last_id))) {
    fprintf (stderr, "hddsim-replay: %s:%ld: request %" PRIu64 " arrived at "
             "%" PRIu64 " ns, before request %" PRIu64 " (already "
             "replayed): the trace is more than %zu rows out of arrival "
             "order (--window=ROWS)\n", rp->trace,
             trace_reader_line (rp->reader), t->id, t->arrival, rp->last_id,
             rp->window);
    return -1;
  }
  if (!(s = slot_get (rp)))
    return -1;
  s->req.id = t->id;
  s->req.conn = t->conn;
  s->req.arrival = t->arrival;
  s->req.io = (struct io) { .op = t->io_op, .fua = t->fua,
                            .offset = t->offset, .length = t->length };
  s->live_start = t->start;
  s->live_done = t->done;
  s->line = (unsigned long) trace_reader_line (rp->reader);
  hold (rp, s);
  return 0;
}

static int
fill_window (struct replay *rp)
{
  char err[TRACE_ERRLEN];
  struct trace_row row;
  int r;

  while (!rp->reader_done && held (rp) <= rp->window) {
    r = trace_reader_next (rp->reader, &row, err, sizeof err);
    if (r == -1) {
      fprintf (stderr, "hddsim-replay: %s\n", err);
      return -1;
    }
    if (r == 0)
      rp->reader_done = true;
    else if (take_row (rp, &row) == -1)
      return -1;
  }
  return 0;
}

static int
next_row (struct replay *rp, struct slot **sp)
{
  struct slot *s;

  if (fill_window (rp) == -1)
    return -1;
  if (held (rp) == 0)
    return 0;
  s = release (rp);
  rp->last_arrival = s->req.arrival;
  rp->last_id = s->req.id;
  rp->released_any = true;
  *sp = s;
  return scale_arrival (rp, s, s->req.arrival) == -1 ? -1 : 1;
}

/* -- every other format: trace_source, in arrival order -- */

static int
take_src (struct replay *rp, const struct src_req *r, struct slot **sp)
{
  struct slot *s;

  if (!r->has_arrival && !rp->closed) {
    fprintf (stderr, "hddsim-replay: %s:%lu: this %s trace has no arrival "
             "times (fio's iolog v2): replay it with --closed[=N]\n",
             rp->trace, r->line, trace_source_format (rp->src));
    return -1;
  }
  if (!(s = slot_get (rp)))
    return -1;
  s->req.id = rp->next_id++;
  s->req.conn = r->stream;
  s->req.io = (struct io) { .op = r->op, .fua = r->fua,
                            .offset = r->offset, .length = r->length };
  s->line = r->line;
  *sp = s;
  return scale_arrival (rp, s, r->has_arrival ? r->arrival : 0) == -1
    ? -1 : 1;
}

static int
next_src (struct replay *rp, struct slot **sp)
{
  char err[TRACE_ERRLEN];
  struct src_req r;
  int got;

  got = trace_source_next (rp->src, &r, err, sizeof err);
  if (got == -1)
    fprintf (stderr, "hddsim-replay: %s\n", err);
  return got == 1 ? take_src (rp, &r, sp) : got;
}

/* The next request in the order the trace issues them, placed on the
 * image: 1 and *sp, 0 at the end, -1 on an error (said).
 */
static int
next_request (struct replay *rp, struct slot **sp)
{
  int r = rp->format == FORMAT_HDDSIM ? next_row (rp, sp)
    : next_src (rp, sp);

  if (r == 1 && place (rp, *sp) == -1) {
    slot_put (rp, *sp);
    return -1;
  }
  return r;
}

static int
open_trace (struct replay *rp)
{
  /* The source selects the device, and fails on a second one when
   * none is chosen (replaying two disks onto one drive means nothing).
   */
  struct trace_source_opts opts = { .blk_event = rp->blk_event,
                                    .device = rp->device,
                                    .window = rp->window };
  char err[TRACE_ERRLEN] = "";

  /* A full hddsim trace is in order of completion, which the sources
   * do not sort: the window above does.  Anything else, including a
   * minimal hddsim CSV, is a source's.
   */
  if (!rp->format_name || strcmp (rp->format_name, "hddsim") == 0) {
    rp->reader = trace_reader_open (rp->trace, err, sizeof err);
    if (rp->reader) {
      rp->format = FORMAT_HDDSIM;
      rp->heap = malloc ((rp->window + 1) * sizeof *rp->heap);
      rp->run = malloc ((rp->window + 1) * sizeof *rp->run);
      if (!rp->heap || !rp->run) {
        fprintf (stderr, "hddsim-replay: out of memory\n");
        return -1;
      }
      if (rp->device || rp->blk_event) {
        fprintf (stderr, "hddsim-replay: %s: an hddsim trace is of one "
                 "device, from the drive's side: no --device or "
                 "--blk-event\n", rp->trace);
        return -1;
      }
      return 0;
    }
  }
  rp->src = trace_source_open (rp->trace, rp->format_name, &opts,
                               err, sizeof err);
  if (!rp->src) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  if (rp->blk_event && strcmp (trace_source_format (rp->src), "blkparse")) {
    fprintf (stderr, "hddsim-replay: --blk-event: %s is a %s trace, not "
             "blkparse output\n", rp->trace, trace_source_format (rp->src));
    return -1;
  }
  return 0;
}

static void
close_trace (struct replay *rp)
{
  if (rp->reader)
    trace_reader_close (rp->reader);
  if (rp->src)
    trace_source_close (rp->src);
}

/* ---- the replay ---- */

static int
check_one (const struct slot *s)
{
  const struct req *r = &s->req;

  if (s->live_start == r->start && s->live_done == r->done)
    return 0;
  fprintf (stderr, "hddsim-replay: request %" PRIu64 " differs: live "
           "[%" PRIu64 ", %" PRIu64 "], replayed [%" PRIu64 ", %" PRIu64
           "]\n", r->id, s->live_start, s->live_done, r->start, r->done);
  return -1;
}

static void
completed (struct req *r, void *opaque)
{
  struct replay *rp = opaque;
  struct slot *s = (struct slot *) ((char *) r - offsetof (struct slot, req));

  rp->inflight--;
  if (!rp->draining) {
    if (rp->out)
      write_row (rp, r);
    if (rp->check && !rp->failed && check_one (s) == -1)
      rp->failed = true;
    if (rp->sum && replay_summary_add (rp->sum, r, s->wanted) == -1) {
      fprintf (stderr, "hddsim-replay: out of memory\n");
      rp->failed = true;
    }
    rp->requests++;
  }
  slot_put (rp, s);
}

/* A client with at most rp->limit requests in flight: run the drive
 * until the request the trace issues at t may go.  Completions before
 * t free room first; if none is left, the request waits for the next
 * completion (the engine then submits it just after that).
 */
static int
wait_for_room (struct replay *rp, const struct slot *s, uint64_t t)
{
  if (t > 0)
    engine_advance (rp->engine, t - 1);
  while (rp->inflight >= rp->limit) {
    uint64_t e = engine_next_event (rp->engine);

    if (e == ENGINE_NEVER) {
      fprintf (stderr, "hddsim-replay: %s:%lu: no request in flight ever "
               "completes (the policy holds them with nothing else to "
               "wait for)\n", rp->trace, s->line);
      return -1;
    }
    engine_advance (rp->engine, e);
  }
  return 0;
}

/* Issue s: open loop at its time, closed loop as soon as there is
 * room.  Arrivals never go back in time: a request held back behind
 * another is issued after it (engine_submit keeps arrivals in order).
 */
static int
issue (struct replay *rp, struct slot *s)
{
  uint64_t t = rp->closed ? 0 : s->wanted;

  if (rp->limit && wait_for_room (rp, s, t) == -1)
    return -1;
  if (engine_arrive (rp->engine, &s->req, t) == -1) {
    fprintf (stderr, "hddsim-replay: %s:%lu: request %" PRIu64 ": no "
             "memory for its commands (max-transfer=)\n", rp->trace,
             s->line, s->req.id);
    return -1;
  }
  rp->inflight++;
  return 0;
}

static int
replay_trace (struct replay *rp)
{
  struct slot *s;
  int r = -1;

  while ((r = next_request (rp, &s)) == 1)
    if (issue (rp, s) == -1) {
      slot_put (rp, s);
      r = -1;
      break;
    }
  /* After an error, let the requests already submitted complete, to
   * free them.
   */
  rp->draining = r == -1;
  engine_advance (rp->engine, ENGINE_NEVER - 1);
  if (r == -1)
    return -1;
  if (rp->check && !rp->failed)
    fprintf (stderr, "hddsim-replay: %ld requests, identical timeline\n",
             rp->requests);
  if (rp->summary && replay_summary_print (rp->sum, stdout) == -1)
    return -1;
  return rp->failed ? -1 : 0;
}

/* ---- DiskSim validation traces: closed loop ---- */

static int
ds_completed (const struct req *r, const struct ds_request *d, void *opaque)
{
  struct replay *rp = opaque;

  if (rp->out)
    write_row (rp, r);
  if (rp->modeled) {
    /* DiskSim's unit is the millisecond.  Its model side counts the
     * time from issue to completion (one request outstanding).
     */
    demerit_dist_add (rp->modeled, (double) (r->done - r->arrival) / 1e6);
    demerit_dist_add (rp->measured, d->servtime_us / 1000.0);
  }
  rp->requests++;
  return 0;
}

static int
write_cdf (const struct replay *rp)
{
  static double xm[DEMERIT_BUCKETS], ym[DEMERIT_BUCKETS];
  static double xt[DEMERIT_BUCKETS], yt[DEMERIT_BUCKETS];
  size_t nm = demerit_cdf (rp->modeled, xm, ym);
  size_t nt = demerit_cdf (rp->measured, xt, yt);
  size_t i, n = nm > nt ? nm : nt;
  FILE *fp = fopen (rp->cdf, "w");

  if (!fp) {
    fprintf (stderr, "hddsim-replay: %s: %s\n", rp->cdf, strerror (errno));
    return -1;
  }
  fprintf (fp, "# DiskSim's statdefs buckets: edge_ms measured modeled "
           "(fraction below the edge)\n");
  for (i = 0; i < n; i++)
    fprintf (fp, "%.3f %f %f\n", (double) demerit_edge_us ((unsigned) i)
             / 1000.0, i < nt ? yt[i] : 1.0, i < nm ? ym[i] : 1.0);
  if (fclose (fp) != 0) {
    fprintf (stderr, "hddsim-replay: %s: %s\n", rp->cdf, strerror (errno));
    return -1;
  }
  return 0;
}

static int
print_demerit (const struct replay *rp)
{
  double d = demerit_rms (rp->modeled, rp->measured);

  if (d < 0) {
    fprintf (stderr, "hddsim-replay: %s: no requests, no demerit\n",
             rp->trace);
    return -1;
  }
  printf ("requests=%ld\ndemerit_ms=%.6f\nmodeled_mean_ms=%.6f\n"
          "measured_mean_ms=%.6f\n", rp->requests, d,
          demerit_dist_mean (rp->modeled), demerit_dist_mean (rp->measured));
  return fflush (stdout) == 0 ? 0 : -1;
}

static int
replay_disksim (struct replay *rp)
{
  static struct demerit_dist modeled, measured;
  char err[DS_ERRLEN];
  struct ds_trace *t = ds_trace_open (rp->trace, rp->size, err, sizeof err);
  long n;

  if (!t) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  if (rp->demerit || rp->cdf) {
    demerit_dist_init (&modeled);
    demerit_dist_init (&measured);
    rp->modeled = &modeled;
    rp->measured = &measured;
  }
  n = ds_replay (t, rp->engine, ds_completed, rp, err, sizeof err);
  ds_trace_close (t);
  if (n < 0) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  if (rp->cdf && write_cdf (rp) == -1)
    return -1;
  if (rp->demerit && print_demerit (rp) == -1)
    return -1;
  return 0;
}

/* ---- main ---- */

static int
run (struct replay *rp)
{
  static const struct engine_hooks no_hooks = { .started = NULL };
  static const struct engine_hooks hooks = { .completed = completed };
  char err[HDD_ERRLEN];
  struct hdd *hdd = hdd_new (rp->setup.hdd, rp->size, rp->setup.seed,
                             err, sizeof err);
  int r = -1;

  if (!hdd) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  if (rp->summary && !(rp->sum = replay_summary_new (rp->limit
                                                     && !rp->closed))) {
    fprintf (stderr, "hddsim-replay: out of memory\n");
    hdd_free (hdd);
    return -1;
  }
  rp->engine = engine_new (hdd, rp->setup.policy, &rp->setup.sched,
                           rp->format == FORMAT_DISKSIM ? &no_hooks : &hooks,
                           rp);
  if (!rp->engine)
    fprintf (stderr, "hddsim-replay: out of memory\n");
  /* The trace first: an unreadable one leaves no output behind. */
  else if ((rp->format == FORMAT_DISKSIM || open_trace (rp) == 0)
           && open_output (rp) == 0) {
    r = rp->format == FORMAT_DISKSIM ? replay_disksim (rp)
      : replay_trace (rp);
    if (close_output (rp) == -1)
      r = -1;
  }
  close_trace (rp);
  engine_free (rp->engine);
  replay_summary_free (rp->sum);
  hdd_free (hdd);
  return r;
}

int
main (int argc, char **argv)
{
  struct replay rp = { .window = DEFAULT_WINDOW };
  int first, status = EXIT_FAILURE;

  setup_init (&rp.setup);
  first = parse_options (&rp, argc, argv);
  if (first > 0 && parse_params (&rp, argc, argv, first) == 0
      && run (&rp) == 0)
    status = EXIT_SUCCESS;
  slots_free (&rp);
  setup_free (&rp.setup);
  return status;
}
