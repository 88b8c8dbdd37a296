/* hddsim: requests from a trace of any format hddsim-replay reads.
 *
 * One interface over several readers: hddsim's own trace CSV (full or
 * minimal), blkparse's default text output, fio's iolog (v2 and v3),
 * the SNIA IOTTA / MSR Cambridge CSV and DiskSim's ascii input trace.
 * Each gives the same struct src_req per request, checked the same way
 * (bounds on every number, an extent that does not wrap, arrival
 * times in order and at most TRACE_TIME_MAX).  DiskSim's validate
 * trace is not here: it is replayed closed-loop
 * (tools/lib/disksim_replay.h).
 */
#ifndef HDDSIM_TRACE_SOURCE_H
#define HDDSIM_TRACE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/hdd.h"

#define SRC_DEVICE_MAX 48

/* One request as a trace of any format gives it. */
struct src_req {
  enum io_op op;                /* IO_READ, IO_WRITE, IO_FLUSH, IO_TRIM,
                                   IO_ZERO */
  bool fua;
  uint64_t offset, length;      /* bytes; a flush has 0 and 0 */
  bool has_arrival;             /* false: the format has no times (fio
                                   iolog v2): replay closed-loop only */
  uint64_t arrival;             /* ns since the trace's first request (the
                                   source subtracts the first timestamp) */
  uint64_t measured_ns;         /* response/service time the trace
                                   recorded; 0 = none */
  uint32_t stream;              /* what a replay maps to a connection:
                                   hddsim conn, blkparse pid, fio file
                                   index, MSR hostname index, DiskSim
                                   device */
  char device[SRC_DEVICE_MAX];  /* the device / disk / file the request is
                                   for, as the trace names it ("8,16",
                                   "3", "/dev/sdb", "web_2"): opts.device
                                   selects on it */
  unsigned long line;           /* line in the file */
};

/* Set it with designated initializers: fields may be added. */
struct trace_source_opts {
  char blk_event;               /* blkparse: 'Q' (queue) or 'D' (issue);
                                   0 means 'D' */
  const char *device;           /* only requests whose device is this;
                                   NULL: all of them (and a second device
                                   in the trace is an error) */
  bool all_devices;             /* with device NULL: every device's
                                   requests, a second device no error
                                   (trace_source_devices says which) */
  size_t window;                /* requests held to put them in time
                                   order; 0: TRACE_SOURCE_WINDOW */
};

/* Traces are nearly in time order (hddsim's is in completion order,
 * blkparse's merges CPUs): this many requests are held and given in
 * time order.
 */
#define TRACE_SOURCE_WINDOW 16384
#define TRACE_SOURCE_WINDOW_MAX (UINT64_C(1) << 30)

struct trace_source;

/* Open PATH as FORMAT (a name from trace_source_formats), or with
 * format NULL detect it from the first lines: an error naming the
 * candidates where more than one fits, or naming none.  opts may be
 * NULL (the defaults).  NULL and err ("PATH:LINE: what") on failure.
 */
extern struct trace_source *trace_source_open (const char *path,
                                               const char *format,
                                               const struct trace_source_opts
                                               *opts,
                                               char *err, size_t errlen);

/* The next request: 1 and *r; 0 at the end; -1 and err on a malformed
 * line or a read error.  Requests come in arrival order (ties in file
 * order): the source sorts within its window, and a request earlier
 * than one already given (out of order by more than the window) is an
 * error naming both lines.  With opts.device NULL, a request for a
 * second device is an error; with a device chosen that no request is
 * for, the end is an error.
 */
extern int trace_source_next (struct trace_source *, struct src_req *r,
                              char *err, size_t errlen);

/* The devices of the requests read so far (of every device, chosen
 * or not), in the order the trace first names them, each with its
 * number of requests; complete once trace_source_next has returned 0.
 * Sets *devs to an array valid until the next call on the source and
 * returns its length.  Past TRACE_SOURCE_DEVICES_MAX devices the others
 * are counted together in *others (requests; may be NULL).
 */
#define TRACE_SOURCE_DEVICES_MAX 256

struct trace_device {
  char name[SRC_DEVICE_MAX];
  uint64_t requests;
};

extern size_t trace_source_devices (const struct trace_source *,
                                    const struct trace_device **devs,
                                    uint64_t *others);

/* The format's name as in trace_source_formats (the detected one when
 * opened with NULL).
 */
extern const char *trace_source_format (const struct trace_source *);

extern void trace_source_close (struct trace_source *);

/* Formats for --help: name and a one-line description; the last has
 * name NULL.
 */
struct trace_format_info {
  const char *name, *help;
};

extern const struct trace_format_info trace_source_formats[];

#endif /* HDDSIM_TRACE_SOURCE_H */
