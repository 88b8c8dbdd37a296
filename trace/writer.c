/* hddsim: the trace CSV's lines, as the plugin and hddsim-replay
 * write them (see writer.h).
 */

#include <stdint.h>
#include <string.h>

#include "format.h"
#include "writer.h"

size_t
trace_format_header (char *buf)
{
  size_t n = 0;
  int c;

  for (c = 0; c < TRACE_NCOLS; c++) {
    size_t len = strlen (trace_col_names[c]);
    memcpy (buf + n, trace_col_names[c], len);
    n += len;
    buf[n++] = c + 1 < TRACE_NCOLS ? ',' : '\n';
  }
  return n;
}

/* The plugin formats a line per request, at up to ~100k a second:
 * digits by hand are several times cheaper than snprintf's format
 * parsing, and give the same bytes as "%" PRIu64.
 */
static const char digit_pairs[201] =
  "0001020304050607080910111213141516171819"
  "2021222324252627282930313233343536373839"
  "4041424344454647484950515253545556575859"
  "6061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

/* 10^0 .. 10^19: 10^19 is the largest power of ten below 2^64. */
static const uint64_t powers_of_ten[20] = {
  UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000),
  UINT64_C(10000), UINT64_C(100000), UINT64_C(1000000),
  UINT64_C(10000000), UINT64_C(100000000), UINT64_C(1000000000),
  UINT64_C(10000000000), UINT64_C(100000000000),
  UINT64_C(1000000000000), UINT64_C(10000000000000),
  UINT64_C(100000000000000), UINT64_C(1000000000000000),
  UINT64_C(10000000000000000), UINT64_C(100000000000000000),
  UINT64_C(1000000000000000000), UINT64_C(10000000000000000000),
};

/* How many decimal digits v has (0 has one).  1233 / 4096 is just
 * above log10 (2), so t is floor (log10 (v)) or one more: the table
 * settles which.
 */
static unsigned
decimal_digits (uint64_t v)
{
  unsigned t;

  if (v == 0)
    return 1;
  t = (unsigned) (64 - __builtin_clzll (v)) * 1233 >> 12;
  return t + (v >= powers_of_ten[t]);
}

/* The digits written in place from their end: no scratch buffer and
 * no memcpy call of a variable length per field.  One 64-bit division
 * per four digits; the four are split in 32 bits, which the compiler
 * does more cheaply.
 */
static char *
put_u64 (char *p, uint64_t v)
{
  char *end, *q;
  uint32_t w;

  if (v < 10) {                 /* most of a row's small fields */
    *p = (char) ('0' + v);
    return p + 1;
  }
  end = q = p + decimal_digits (v);
  while (v >= 10000) {
    uint32_t four = (uint32_t) (v % 10000);
    v /= 10000;
    q -= 4;
    memcpy (q, digit_pairs + 2 * (four / 100), 2);
    memcpy (q + 2, digit_pairs + 2 * (four % 100), 2);
  }
  w = (uint32_t) v;
  if (w >= 100) {
    q -= 2;
    memcpy (q, digit_pairs + 2 * (w % 100), 2);
    w /= 100;
  }
  if (w >= 10)
    memcpy (q - 2, digit_pairs + 2 * w, 2);
  else
    q[-1] = (char) ('0' + w);
  return end;
}

static char *
put_str (char *p, const char *s)
{
  size_t len = strlen (s);

  memcpy (p, s, len);
  return p + len;
}

/* One field and the separator after it. */
static char *
field_u64 (char *p, uint64_t v)
{
  p = put_u64 (p, v);
  *p++ = ',';
  return p;
}

static char *
field_str (char *p, const char *s)
{
  p = put_str (p, s);
  *p++ = ',';
  return p;
}

static char *
put_late (char *p, int64_t late_ns)
{
  if (late_ns == TRACE_LATE_NONE)
    return p;
  if (late_ns < 0) {
    *p++ = '-';
    return put_u64 (p, -(uint64_t) late_ns);
  }
  return put_u64 (p, (uint64_t) late_ns);
}

size_t
trace_format_line (char *buf, const struct trace_record *t)
{
  char *p = buf;

  p = field_u64 (p, t->id);
  p = field_u64 (p, t->conn);
  p = field_str (p, io_op_name (t->io.op));
  p = field_u64 (p, t->io.offset);
  p = field_u64 (p, t->io.length);
  p = field_u64 (p, t->arrival);
  p = field_u64 (p, t->start);
  p = field_u64 (p, t->done);
  p = field_u64 (p, t->cost.seek_ns);
  p = field_u64 (p, t->cost.rot_ns);
  p = field_u64 (p, t->cost.xfer_ns);
  p = put_late (p, t->late_ns);
  *p++ = ',';
  p = field_u64 (p, t->io.fua);
  p = field_u64 (p, t->cost.busy_ns);
  p = field_u64 (p, t->cost.overhead_ns);
  p = field_u64 (p, t->cost.seek_cylinders);
  p = field_u64 (p, t->cost.cache_hit);
  p = field_u64 (p, t->queue_len);
  p = field_str (p, trace_outcome_names[t->outcome]);
  p = field_u64 (p, t->commands);
  /* the power cut's columns: empty on a request's row */
  p = put_str (p, ",,,,");
  p = field_u64 (p, t->dispatch);
  p = field_u64 (p, t->drive_queue);
  p = field_u64 (p, t->cost.wake_ns);
  p = field_u64 (p, t->cost.fault_ns);
  *p++ = ',';                   /* no event */
  p = put_u64 (p, t->cost.clean_ns);
  *p++ = '\n';
  return (size_t) (p - buf);
}

/* An event row's columns from seek_ns to commands: no request's seek,
 * rotation, transfer or lateness, fua ... queue_len 0, the event's op as
 * its outcome, no commands.  Shared by power-cut, fault and clean rows.
 */
static char *
event_no_request (char *p, const char *op)
{
  p = put_str (p, "0,0,0,,0,0,0,0,0,0,");
  p = field_str (p, op);
  return field_str (p, "0");
}

size_t
trace_format_cut (char *buf, const struct trace_cut *c)
{
  char *p = buf;

  p = field_u64 (p, c->id);
  p = field_str (p, "0," TRACE_OP_POWERCUT ",0,0");
  p = field_u64 (p, c->t_ns);
  p = field_u64 (p, c->t_ns);
  p = field_u64 (p, c->t_ns);
  p = event_no_request (p, TRACE_OP_POWERCUT);
  p = field_u64 (p, c->lost_extents);
  p = field_u64 (p, c->lost_bytes);
  p = field_u64 (p, c->flushes_done);
  p = field_u64 (p, c->fua_writes_done);
  /* its instant, nothing held, no wake or fault time, no event, no
     cleaning */
  p = field_u64 (p, c->t_ns);
  p = put_str (p, "0,0,0,,0\n");
  return (size_t) (p - buf);
}

size_t
trace_format_fault (char *buf, const struct trace_fault *f)
{
  char *p = buf;

  p = field_u64 (p, f->id);
  p = field_str (p, "0," TRACE_OP_FAULT ",0,0");
  p = field_u64 (p, f->t_ns);
  p = field_u64 (p, f->t_ns);
  p = field_u64 (p, f->t_ns);
  p = event_no_request (p, TRACE_OP_FAULT);
  p = put_str (p, ",,,,");                /* nothing lost or done */
  p = field_u64 (p, f->t_ns);
  p = put_str (p, "0,0,0,");
  p = put_str (p, f->what);
  p = put_str (p, ",0\n");
  return (size_t) (p - buf);
}

size_t
trace_format_clean (char *buf, const struct trace_clean *c)
{
  char *p = buf;

  p = field_str (p, "0,0," TRACE_OP_CLEAN);
  p = field_u64 (p, c->offset);
  p = field_u64 (p, c->length);
  p = field_u64 (p, c->start_ns);
  p = field_u64 (p, c->start_ns);
  p = field_u64 (p, c->end_ns);
  /* the arm's own work, no request's */
  p = event_no_request (p, TRACE_OP_CLEAN);
  p = put_str (p, ",,,,");                /* nothing lost or done */
  p = field_u64 (p, c->start_ns);
  p = put_str (p, "0,0,0,");
  p = put_str (p, c->forced ? "forced" : "idle");
  p = put_str (p, " extents=");
  p = put_u64 (p, c->extents);
  p = put_str (p, " staged=");
  p = put_u64 (p, c->staged_bytes);
  p = put_str (p, ",0\n");
  return (size_t) (p - buf);
}
