/* hddsim: requests from a trace of any format (see trace_source.h):
 * the formats' table, detection, the checks every format's requests
 * pass, and the line reading the text formats share.
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/heap.h"
#include "../common/param.h"
#include "disksim_validate.h"
#include "format.h"
#include "trace_source_int.h"

/* In the order detection tries them (any order would do: detection
 * takes a format only if it is the one that fits).
 */
static const struct src_format *const formats[] = {
  &src_hddsim, &src_blkparse, &src_fio, &src_msr, &src_disksim_ascii,
};

#define NFORMATS (sizeof formats / sizeof formats[0])

const struct trace_format_info trace_source_formats[] = {
  { "hddsim", "hddsim's trace CSV (trace=FILE), full or minimal: "
    "op,offset,length[,arrival_ns,conn,id,fua,...]" },
  { "blkparse", "blkparse's default text output (blktrace): requests "
    "from Q or D events, by maj,min device" },
  { "fio-iolog", "fio's iolog, version 2 (no times) or 3 "
    "(microseconds)" },
  { "msr", "SNIA IOTTA / MSR Cambridge CSV: Timestamp (filetime), "
    "Hostname, DiskNumber, Type, Offset, Size, ResponseTime" },
  { "disksim-ascii", "DiskSim's ascii input trace: time (ms), device, "
    "blkno, bcount, flags (bit 0: read)" },
  { NULL, NULL },
};

struct trace_source {
  const struct src_format *fmt;
  void *state;
  char *path;
  char *device;                 /* opts->device, or NULL */
  bool all_devices;             /* opts->all_devices: no device check */
  bool first;                   /* no request given yet */
  char first_device[SRC_DEVICE_MAX];
  unsigned long first_device_line; /* 0: none of the chosen device yet */
  /* Every device's requests read: trace_source_devices */
  struct trace_device devs[TRACE_SOURCE_DEVICES_MAX];
  size_t ndevs, last_dev;
  uint64_t other_requests;      /* past TRACE_SOURCE_DEVICES_MAX */
  uint64_t first_stamp, last_stamp;
  unsigned long last_line;
  /* The window: requests read, not given, in a heap by (stamp, seq);
     window + 1 of them in pool, those not in the heap on a free list */
  struct held {
    struct src_req r;
    uint64_t stamp, seq;
    struct held *next_free;
  } *pool, *free_held;
  struct heap heap;
  size_t window;
  uint64_t seq;
  bool at_end;
};

/* ---- What the text formats share ---- */

int
src_lines_open (struct src_lines *l, const char *path, char *err,
                size_t errlen)
{
  memset (l, 0, sizeof *l);
  l->path = path;
  src_lines_err (l, err, errlen);
  l->fp = fopen (path, "r");
  if (!l->fp) {
    snprintf (err, errlen, "%s: %s", path, strerror (errno));
    return -1;
  }
  return 0;
}

/* A character at a time: fgets cannot tell a NUL byte in a line from
 * the line's end, and getline would hold a line of any length.
 */
int
src_lines_next (struct src_lines *l)
{
  size_t n = 0;
  int c;

  while ((c = getc_unlocked (l->fp)) != EOF && c != '\n') {
    if (c == '\0') {
      l->line++;
      return src_bad (l, "a NUL byte in the line: not a text trace");
    }
    if (n == sizeof l->buf - 1) {
      l->line++;
      return src_bad (l, "line longer than %zu bytes", sizeof l->buf - 1);
    }
    l->buf[n++] = (char) c;
  }
  if (c == EOF && ferror (l->fp)) {
    l->line++;
    return src_bad (l, "%s", strerror (errno));
  }
  if (c == EOF && n == 0)
    return 0;
  l->line++;
  if (n > 0 && l->buf[n - 1] == '\r')
    n--;                        /* CRLF line ends */
  l->buf[n] = '\0';
  return 1;
}

void
src_lines_close (struct src_lines *l)
{
  if (l->fp)
    fclose (l->fp);
  l->fp = NULL;
}

static int
vbad_at (char *err, size_t errlen, const char *path, unsigned long line,
         const char *fmt, va_list ap)
{
  int used = snprintf (err, errlen, "%s:%lu: ", path, line);

  if (used >= 0 && (size_t) used < errlen)
    vsnprintf (err + used, errlen - (size_t) used, fmt, ap);
  return -1;
}

int
src_bad (struct src_lines *l, const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vbad_at (l->err, l->errlen, l->path, l->line, fmt, ap);
  va_end (ap);
  return -1;
}

static int __attribute__ ((format (printf, 5, 6)))
bad_at (char *err, size_t errlen, const char *path, unsigned long line,
        const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vbad_at (err, errlen, path, line, fmt, ap);
  va_end (ap);
  return -1;
}

static bool
is_blank (char c)
{
  return c == ' ' || c == '\t';
}

int
src_split_blanks (char *s, char **f, int max)
{
  int n = 0;

  for (;;) {
    while (is_blank (*s))
      s++;
    if (*s == '\0')
      return n;
    if (n == max)
      return max + 1;
    f[n++] = s;
    while (*s && !is_blank (*s))
      s++;
    if (*s == '\0')
      return n;
    *s++ = '\0';
  }
}

int
src_split_commas (char *s, char **f, int max)
{
  int n = 0;

  f[n++] = s;
  while ((s = strchr (s, ',')) != NULL) {
    if (n == max)
      return max + 1;
    *s++ = '\0';
    f[n++] = s;
  }
  return n;
}

int
src_u64 (const char *s, uint64_t max, uint64_t *v)
{
  return parse_uint (s, v) == -1 || *v > max ? -1 : 0;
}

int
src_sectors (uint64_t sectors, uint64_t *bytes)
{
  if (sectors > UINT64_MAX / 512)
    return -1;
  *bytes = sectors * 512;
  return 0;
}

int
src_device (struct src_req *r, const char *name)
{
  size_t len = strlen (name);

  if (len >= sizeof r->device)
    return -1;
  memcpy (r->device, name, len + 1);
  return 0;
}

/* ---- Opening: by name or by detection ---- */

static const struct src_format *
format_named (const char *name)
{
  size_t i;

  for (i = 0; i < NFORMATS; i++)
    if (strcmp (formats[i]->name, name) == 0)
      return formats[i];
  return NULL;
}

/* Time order, ties in file order: the order is total. */
static bool
earlier (const void *x, const void *y)
{
  const struct held *a = x, *b = y;

  return a->stamp < b->stamp || (a->stamp == b->stamp && a->seq < b->seq);
}

/* Room for the window and the request read past it, all free. */
static int
hold_window (struct trace_source *s)
{
  size_t i;

  s->pool = malloc ((s->window + 1) * sizeof *s->pool);
  if (!s->pool || heap_init (&s->heap, s->window + 1, earlier) == -1)
    return -1;
  for (i = s->window + 1; i-- > 0; ) {
    s->pool[i].next_free = s->free_held;
    s->free_held = &s->pool[i];
  }
  return 0;
}

static struct trace_source *
open_as (const struct src_format *fmt, const char *path,
         const struct trace_source_opts *opts, char *err, size_t errlen)
{
  struct trace_source *s;

  if (opts->device && !fmt->has_devices) {
    snprintf (err, errlen, "%s: a %s trace names no devices: a device "
              "('%s') cannot be chosen", path, fmt->name, opts->device);
    return NULL;
  }
  s = calloc (1, sizeof *s);
  if (!s || !(s->path = strdup (path))
      || (opts->device && !(s->device = strdup (opts->device)))) {
    if (s)
      free (s->path);
    free (s);
    snprintf (err, errlen, "%s: out of memory", path);
    return NULL;
  }
  s->fmt = fmt;
  s->first = true;
  s->all_devices = opts->all_devices && !opts->device;
  s->window = opts->window ? opts->window : TRACE_SOURCE_WINDOW;
  if (hold_window (s) == -1) {
    snprintf (err, errlen, "%s: out of memory for a window of %zu "
              "requests", path, s->window);
    trace_source_close (s);
    return NULL;
  }
  s->state = fmt->open (path, opts, err, errlen);
  if (!s->state) {
    trace_source_close (s);
    return NULL;
  }
  return s;
}

/* Whether the file is fmt: it opens as fmt and its first request (if
 * it has any) parses.
 */
static bool
fits (const struct src_format *fmt, const char *path,
      const struct trace_source_opts *opts)
{
  struct trace_source_opts all = *opts;
  char err[TRACE_ERRLEN];
  struct trace_source *s;
  struct src_req r;
  int got;

  all.device = NULL;
  all.all_devices = true;       /* any device: only trying the format */
  all.window = 1;               /* the first request or two are enough */
  s = open_as (fmt, path, &all, err, sizeof err);
  if (!s)
    return false;
  got = trace_source_next (s, &r, err, sizeof err);
  trace_source_close (s);
  return got >= 0;
}

/* Not one of ours: say so, and whether it is the closed-loop
 * validation trace the replay reads by itself.
 */
static bool
is_disksim_validate (const char *path)
{
  char err[DS_ERRLEN];
  struct ds_trace *t = ds_trace_open (path, UINT64_MAX, err, sizeof err);
  struct ds_request d;
  bool yes;

  if (!t)
    return false;
  yes = ds_trace_next (t, &d, err, sizeof err) == 1;
  ds_trace_close (t);
  return yes;
}

static bool
is_empty (const char *path, char *err, size_t errlen, bool *empty)
{
  FILE *fp = fopen (path, "r");
  int c;

  if (!fp) {
    snprintf (err, errlen, "%s: %s", path, strerror (errno));
    return false;
  }
  while ((c = getc (fp)) != EOF && isspace (c))
    ;
  *empty = c == EOF;
  fclose (fp);
  return true;
}

static struct trace_source *
detect (const char *path, const struct trace_source_opts *opts, char *err,
        size_t errlen)
{
  const struct src_format *found[NFORMATS];
  size_t n = 0, i;
  bool empty;

  if (!is_empty (path, err, errlen, &empty))
    return NULL;
  if (empty) {
    snprintf (err, errlen, "%s: empty file: no trace format to detect "
              "(name one with --format)", path);
    return NULL;
  }
  for (i = 0; i < NFORMATS; i++)
    if (fits (formats[i], path, opts))
      found[n++] = formats[i];
  if (n == 1)
    return open_as (found[0], path, opts, err, errlen);
  if (n > 1) {
    int used = snprintf (err, errlen, "%s: the format is ambiguous: it "
                         "reads as", path);
    for (i = 0; i < n && used >= 0 && (size_t) used < errlen; i++)
      used += snprintf (err + used, errlen - (size_t) used, " %s%s",
                        found[i]->name, i + 1 < n ? "," : "");
    if (used >= 0 && (size_t) used < errlen)
      snprintf (err + used, errlen - (size_t) used,
                " (name one with --format)");
    return NULL;
  }
  if (is_disksim_validate (path))
    snprintf (err, errlen, "%s: a DiskSim validation trace: replay it "
              "with --format=disksim-validate", path);
  else
    snprintf (err, errlen, "%s: no trace format fits (hddsim, blkparse, "
              "fio-iolog, msr, disksim-ascii): name one with --format "
              "to see why it fails", path);
  return NULL;
}

struct trace_source *
trace_source_open (const char *path, const char *format,
                   const struct trace_source_opts *opts, char *err,
                   size_t errlen)
{
  static const struct trace_source_opts defaults = { .blk_event = 'D' };
  struct trace_source_opts o = opts ? *opts : defaults;
  const struct src_format *fmt;

  if (o.blk_event == 0)
    o.blk_event = 'D';
  if (o.window > TRACE_SOURCE_WINDOW_MAX) {
    snprintf (err, errlen, "%s: a window of %zu requests: at most %" PRIu64,
              path, o.window, TRACE_SOURCE_WINDOW_MAX);
    return NULL;
  }
  if (o.blk_event != 'D' && o.blk_event != 'Q') {
    snprintf (err, errlen, "%s: blkparse event '%c': expected Q (queued) "
              "or D (issued)", path, o.blk_event);
    return NULL;
  }
  if (!format)
    return detect (path, &o, err, errlen);
  fmt = format_named (format);
  if (!fmt) {
    snprintf (err, errlen, "%s: unknown trace format '%s' (expected "
              "hddsim, blkparse, fio-iolog, msr or disksim-ascii)", path,
              format);
    return NULL;
  }
  return open_as (fmt, path, &o, err, errlen);
}

/* ---- Every request's checks ---- */

static int
check_request (const struct trace_source *s, const struct src_req *r,
               char *err, size_t errlen)
{
  if (r->length > UINT64_MAX - r->offset)
    return bad_at (err, errlen, s->path, r->line, "offset=%" PRIu64
                   " length=%" PRIu64 ": the extent wraps around 2^64",
                   r->offset, r->length);
  if (r->op == IO_FLUSH && (r->offset != 0 || r->length != 0))
    return bad_at (err, errlen, s->path, r->line, "a flush with offset=%"
                   PRIu64 " length=%" PRIu64, r->offset, r->length);
  if (r->fua && (r->op == IO_READ || r->op == IO_FLUSH))
    return bad_at (err, errlen, s->path, r->line, "FUA on a %s (only "
                   "writes, trims and zeroes have it)", io_op_name (r->op));
  if (r->measured_ns > TRACE_TIME_MAX)
    return bad_at (err, errlen, s->path, r->line, "a recorded response "
                   "time of %" PRIu64 " ns: more than 2^62 ns",
                   r->measured_ns);
  return 0;
}

/* One more request for r's device in the devices' table. */
static void
count_device (struct trace_source *s, const struct src_req *r)
{
  size_t i;

  if (s->ndevs && strcmp (s->devs[s->last_dev].name, r->device) == 0) {
    s->devs[s->last_dev].requests++;
    return;
  }
  for (i = 0; i < s->ndevs; i++)
    if (strcmp (s->devs[i].name, r->device) == 0)
      break;
  if (i == TRACE_SOURCE_DEVICES_MAX) {
    s->other_requests++;
    return;
  }
  if (i == s->ndevs) {
    memcpy (s->devs[i].name, r->device, sizeof s->devs[i].name);
    s->devs[i].requests = 0;
    s->ndevs++;
  }
  s->devs[i].requests++;
  s->last_dev = i;
}

/* Room kept at the end of a list of devices for what did not fit. */
#define LIST_TAIL 48

/* "8,0 (2 requests), 8,16 (1 request)" into buf, as many as fit, then
 * how many requests the others hold.
 */
static void
list_devices (const struct trace_source *s, char *buf, size_t len)
{
  uint64_t rest = s->other_requests;
  size_t used = 0, i;

  buf[0] = '\0';
  for (i = 0; i < s->ndevs; i++) {
    const struct trace_device *d = &s->devs[i];
    char one[SRC_DEVICE_MAX + 40];
    int n = snprintf (one, sizeof one, "%s%s (%" PRIu64 " request%s)",
                      i ? ", " : "", d->name, d->requests,
                      d->requests == 1 ? "" : "s");

    if (n < 0 || used + (size_t) n + LIST_TAIL >= len)
      break;
    memcpy (buf + used, one, (size_t) n + 1);
    used += (size_t) n;
  }
  for (; i < s->ndevs; i++)
    rest += s->devs[i].requests;
  if (rest && used < len)
    snprintf (buf + used, len - used, "%sother devices (%" PRIu64
              " requests)", used ? ", " : "", rest);
}

/* The rest of the trace read for the devices' table: 0, or -1 and err
 * on a malformed line (which the replay must stop at anyway).
 */
static int
count_rest (struct trace_source *s, char *err, size_t errlen)
{
  struct src_req r;
  uint64_t stamp;
  int got;

  for (;;) {
    memset (&r, 0, sizeof r);
    got = s->fmt->next (s->state, &r, &stamp, err, errlen);
    if (got <= 0)
      return got;
    count_device (s, &r);
  }
}

/* One device a trace: a second one without a choice is an error, as
 * replaying two disks' requests onto one drive means nothing.  The
 * error lists every device the trace holds, so one can be chosen.
 */
static int
check_device (struct trace_source *s, const struct src_req *r, char *err,
              size_t errlen)
{
  size_t used;

  if (!s->first_device_line) {
    memcpy (s->first_device, r->device, sizeof s->first_device);
    s->first_device_line = r->line;
    return 0;
  }
  if (s->all_devices || strcmp (s->first_device, r->device) == 0)
    return 0;
  if (count_rest (s, err, errlen) == -1)
    return -1;
  bad_at (err, errlen, s->path, r->line, "a request for device %s, but "
          "line %lu's was for %s: the trace holds %s%zu devices; choose "
          "one with --device: ", r->device, s->first_device_line,
          s->first_device, s->other_requests ? "more than " : "",
          s->ndevs);
  used = strlen (err);
  list_devices (s, err + used, errlen - used);
  return -1;
}

/* A device chosen that no request is for is a typo, not an idle disk. */
static int
check_chosen (const struct trace_source *s, char *err, size_t errlen)
{
  size_t used;

  if (!s->device || s->first_device_line)
    return 0;
  if (s->ndevs) {
    snprintf (err, errlen, "%s: no request for device '%s'; the trace's "
              "devices: ", s->path, s->device);
    used = strlen (err);
    list_devices (s, err + used, errlen - used);
  }
  else
    snprintf (err, errlen, "%s: no request for device '%s' (nor for any "
              "other)", s->path, s->device);
  return -1;
}

/* The next request of the chosen device, checked: 1, 0 at the end, -1. */
static int
read_request (struct trace_source *s, struct src_req *r, uint64_t *stamp,
              char *err, size_t errlen)
{
  int got;

  for (;;) {
    memset (r, 0, sizeof *r);
    got = s->fmt->next (s->state, r, stamp, err, errlen);
    if (got == 0)
      return check_chosen (s, err, errlen);
    if (got < 0 || check_request (s, r, err, errlen) == -1)
      return -1;
    count_device (s, r);
    if (s->device && strcmp (s->device, r->device) != 0)
      continue;
    return check_device (s, r, err, errlen) == -1 ? -1 : 1;
  }
}

/* Read until the window is full or the trace ends.  A request earlier
 * than one already given cannot be put in order any more.
 */
static int
fill (struct trace_source *s, char *err, size_t errlen)
{
  struct held *h;
  int got;

  /* At most window held: one of the window + 1 is free. */
  while (!s->at_end && heap_count (&s->heap) <= s->window) {
    h = s->free_held;
    got = read_request (s, &h->r, &h->stamp, err, errlen);
    if (got < 0)
      return -1;
    if (got == 0) {
      s->at_end = true;
      break;
    }
    if (!s->first && h->stamp < s->last_stamp)
      return bad_at (err, errlen, s->path, h->r.line, "time %" PRIu64
                     " (in the trace's unit, %" PRIu64 " ns) is earlier "
                     "than line %lu's %" PRIu64 ", given already: the "
                     "trace is out of time order by more than the window "
                     "of %zu requests (--window)", h->stamp,
                     s->fmt->ns_per_stamp, s->last_line, s->last_stamp,
                     s->window);
    h->seq = s->seq++;
    s->free_held = h->next_free;
    heap_push (&s->heap, h);
  }
  return 0;
}

/* Arrival: the stamp less the first one, in ns. */
static int
set_arrival (struct trace_source *s, struct src_req *r, uint64_t stamp,
             char *err, size_t errlen)
{
  uint64_t delta;

  if (s->first)
    s->first_stamp = stamp;
  delta = stamp - s->first_stamp;
  if (delta > TRACE_TIME_MAX / s->fmt->ns_per_stamp)
    return bad_at (err, errlen, s->path, r->line, "time %" PRIu64 " is "
                   "more than 2^62 ns after the first request's (%" PRIu64
                   ")", stamp, s->first_stamp);
  r->arrival = delta * s->fmt->ns_per_stamp;
  s->first = false;
  s->last_stamp = stamp;
  s->last_line = r->line;
  return 0;
}

int
trace_source_next (struct trace_source *s, struct src_req *r, char *err,
                   size_t errlen)
{
  struct held *h;

  if (fill (s, err, errlen) == -1)
    return -1;
  if (heap_count (&s->heap) == 0)
    return 0;
  h = heap_pop (&s->heap);
  *r = h->r;
  h->next_free = s->free_held;
  s->free_held = h;
  return set_arrival (s, r, h->stamp, err, errlen) == -1 ? -1 : 1;
}

size_t
trace_source_devices (const struct trace_source *s,
                      const struct trace_device **devs, uint64_t *others)
{
  *devs = s->devs;
  if (others)
    *others = s->other_requests;
  return s->ndevs;
}

const char *
trace_source_format (const struct trace_source *s)
{
  return s->fmt->name;
}

void
trace_source_close (struct trace_source *s)
{
  if (!s)
    return;
  if (s->state)
    s->fmt->close (s->state);
  heap_free (&s->heap);
  free (s->pool);
  free (s->device);
  free (s->path);
  free (s);
}
