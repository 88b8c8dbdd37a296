/* hddsim-replay's parts (main.c says what it does): what they share,
 * the replay's state, and each part's entry points.
 */
#ifndef HDDSIM_REPLAY_H
#define HDDSIM_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../common/heap.h"
#include "../../sched/engine.h"
#include "../../sched/setup.h"

struct demerit_dist;
struct replay_summary;
struct trace_reader;
struct trace_source;

#define DEFAULT_WINDOW 16384

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
  struct heap heap;
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

/* options.c: the options, then the trace's path: the index of the
 * first parameter, or -1 (said).
 */
extern int parse_options (struct replay *, int argc, char **argv);
/* The plugin's parameters (and size=) from argv[first] on: 0, or -1
 * (said).
 */
extern int parse_params (struct replay *, int argc, char **argv, int first);

/* slots.c */
extern struct slot *slot_get (struct replay *);
extern void slot_put (struct replay *, struct slot *);
extern void slots_free (struct replay *);

/* input.c: the trace opened as the input path its format takes, and
 * its requests in the order it issues them.
 */
extern int open_trace (struct replay *);
extern void close_trace (struct replay *);
extern int next_request (struct replay *, struct slot **sp);
extern int scale_arrival (const struct replay *, struct slot *,
                          uint64_t arrival);
/* input_hddsim.c, input_source.c: one input path's next request, as
 * next_request gives it but not yet placed on the image.
 */
extern int next_row (struct replay *, struct slot **sp);
extern int next_src (struct replay *, struct slot **sp);

/* reorder.c: full hddsim traces' window, in arrival order. */
extern int reorder_init (struct replay *);
extern void reorder_free (struct replay *);
extern void reorder_hold (struct replay *, struct slot *);
extern size_t reorder_held (const struct replay *);
extern struct slot *reorder_release (struct replay *);

/* issue.c: the trace replayed open or closed loop; the engine's
 * completion hook.
 */
extern int replay_trace (struct replay *);
extern void request_completed (struct req *, void *opaque);

/* disksim.c: a DiskSim validation trace replayed closed loop. */
extern int replay_disksim (struct replay *);

/* output.c: --output. */
extern int open_output (struct replay *);
extern int close_output (struct replay *);
extern void write_row (struct replay *, const struct req *);
/* The model's observer of clean steps (hdd_set_clean_observer). */
extern void write_clean_row (void *rp, const struct hdd_clean *);

#endif /* HDDSIM_REPLAY_H */
