/* hddsim: blkparse's default text output as a trace source.
 *
 * blkparse(1), "DEFAULT OUTPUT": every event line starts with the
 * header "%D %2c %8s %5T.%9t %5p %2a %3d", that is
 *
 *   MAJ,MIN  CPU  SEQUENCE  SECONDS.NANOSECONDS  PID  ACTION  RWBS
 *
 * and for Q, D, M, F, G, I (and R, requeue) goes on with
 * "SECTOR + BLOCKS [COMMAND]" (512-byte sectors), or with "[COMMAND]"
 * alone for a request without data (a flush), or "BYTES (HEX) [COMMAND]"
 * for a packet command (SCSI passthrough, not a read or a write: not
 * taken).  The summary blkparse prints at the end ("CPU0 (sdb):",
 * "Total (sdb):", "Throughput", "Events", "Skips", "Input file ...
 * added") is skipped; an event line after it is an error (two outputs
 * concatenated).
 *
 * Requests are the D (issued) events, or the Q (queued) events with
 * opts.blk_event 'Q'.  In Q mode a request arrives at its first Q's
 * time and carries every byte merged into it, so that Q and D give the
 * same bytes: an M (back merge) or F (front merge) names the bio
 * merged (device, sector, size, as its own Q did); that Q is no
 * request of its own, and the request it joined grows, at its end (M:
 * the queued request of that device and operation ending where the bio
 * starts) or at its start (F: the one starting where the bio ends).
 * A request can be joined until it is issued: it is given at its D
 * (blkparse shows that D with the merged size), or when no event has
 * touched it (its Q or a merge) within MERGE_WINDOW_NS of trace time,
 * for traces without D events (a merge follows its Q within
 * microseconds); requests leave in the order of their Qs.  A merge whose request has gone already (issued, or
 * given by the window) leaves the merged Q a request of its own: its
 * bytes are not lost.  A D that repeats a requeued (R) request's
 * device, sector and size is the same request issued again, not a new
 * one.  Other actions (C, G, I, P, U, T, X, A, B, S, m, ...) are
 * ignored.
 *
 * RWBS ("RWBS DESCRIPTION"; blktrace 1.2 prints it as below): an
 * optional F (a cache flush before the request), then R (read), W
 * (write), D (discard: a trim), E (secure erase: a trim) or N (no
 * data), then any of F (FUA), A (readahead), S (sync), M (metadata),
 * B (barrier).  So "FN" is a flush, "FWS" a flush then a write, "WFS"
 * a FUA write.  A request with no data is a flush if it has the flush
 * or the barrier flag and is skipped otherwise (it gives the drive no
 * work); FUA on a read is dropped (hddsim's reads have no FUA).
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace_source_int.h"

/* A queued request not issued (D) nor grown by a merge for this long
 * (of trace time) is given; more pending than MAX_PENDING also gives
 * the oldest.  MAX_MERGED_SECTORS bounds a request grown by merges.
 */
#define MERGE_WINDOW_NS UINT64_C(10000000)
#define MAX_PENDING 4096
#define MAX_MERGED_SECTORS UINT64_C(0xffffffff)
/* Requeued requests remembered until their D comes again. */
#define MAX_REQUEUED 256

#define NS_PER_S UINT64_C(1000000000)

struct event {
  char dev[SRC_DEVICE_MAX];
  char action[3];
  uint64_t stamp;               /* ns */
  uint32_t pid;
  uint64_t sector, nsect;       /* 0 and 0 without an extent */
  char op;                      /* RWBS's R, W, D, E or N (Q, D, M, F) */
  int nreq;                     /* requests it stands for (Q or D) */
  struct src_req req[2];        /* a preflush, then the data */
  unsigned long line;
};

/* OPEN: a merge may still join it; ISSUED: its D came; MERGED: its
 * bio joined another request.
 */
enum pend_state { OPEN, ISSUED, MERGED };

struct pending {
  struct event ev;              /* the Q, grown by the merges into it */
  enum pend_state state;
  uint64_t touched;             /* its Q's or its last merge's time */
};

struct blk {
  struct src_lines l;
  char take;                    /* 'Q' or 'D' */
  bool summary, at_end;
  uint64_t now;                 /* the last event's time */
  /* the requests of one event, given one at a time */
  struct event ready;
  int ready_next;
  /* Q mode: queued, not yet known merged or not; a ring of cap */
  struct pending *pend;
  size_t pend_head, npend, cap;
  /* D mode: requeued requests */
  struct event requeued[MAX_REQUEUED];
  size_t nrequeued;
};

/* ---- One line ---- */

/* The next blank-separated token of *p, NUL-terminated; NULL if none. */
static char *
token (char **p)
{
  char *s = *p, *t;

  while (*s == ' ' || *s == '\t')
    s++;
  if (*s == '\0')
    return NULL;
  t = s;
  while (*s && *s != ' ' && *s != '\t')
    s++;
  if (*s)
    *s++ = '\0';
  *p = s;
  return t;
}

static int
parse_device (const char *s, char *dev)
{
  const char *comma = strchr (s, ',');
  uint64_t maj, min;
  char a[24], b[24];

  if (!comma || (size_t) (comma - s) >= sizeof a
      || strlen (comma + 1) >= sizeof b)
    return -1;
  memcpy (a, s, (size_t) (comma - s));
  a[comma - s] = '\0';
  strcpy (b, comma + 1);
  if (src_u64 (a, UINT32_MAX, &maj) == -1
      || src_u64 (b, UINT32_MAX, &min) == -1)
    return -1;
  snprintf (dev, SRC_DEVICE_MAX, "%" PRIu64 ",%" PRIu64, maj, min);
  return 0;
}

/* "SECONDS.NANOSECONDS", nine digits after the point. */
static int
parse_time (const char *s, uint64_t *ns)
{
  const char *dot = strchr (s, '.');
  char sec[24];
  uint64_t whole, frac;

  if (!dot || (size_t) (dot - s) >= sizeof sec || strlen (dot + 1) != 9)
    return -1;
  memcpy (sec, s, (size_t) (dot - s));
  sec[dot - s] = '\0';
  if (src_u64 (sec, UINT64_MAX / NS_PER_S - 1, &whole) == -1
      || src_u64 (dot + 1, NS_PER_S - 1, &frac) == -1)
    return -1;
  *ns = whole * NS_PER_S + frac;
  return 0;
}

static bool
is_action (const char *s)
{
  size_t n = strlen (s), i;

  if (n < 1 || n > 2)
    return false;
  for (i = 0; i < n; i++)
    if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z')))
      return false;
  return true;
}

/* The header's seven fields; -1 if the line is not an event line. */
static int
parse_header (char **p, struct event *ev, char **rwbs)
{
  char *f[7];
  uint64_t v;
  int i;

  for (i = 0; i < 7; i++)
    if (!(f[i] = token (p)))
      return -1;
  if (parse_device (f[0], ev->dev) == -1
      || src_u64 (f[1], UINT32_MAX, &v) == -1
      || src_u64 (f[2], UINT64_MAX, &v) == -1
      || parse_time (f[3], &ev->stamp) == -1
      || src_u64 (f[4], UINT32_MAX, &v) == -1 || !is_action (f[5]))
    return -1;
  ev->pid = (uint32_t) v;
  strcpy (ev->action, f[5]);
  *rwbs = f[6];
  return 0;
}

/* Where the summary starts: "CPU<n> (<dev>):" or "Total (<dev>):". */
static bool
summary_start (const char *s)
{
  if (strncmp (s, "Total (", 7) == 0)
    return true;
  if (strncmp (s, "CPU", 3) != 0 || s[3] < '0' || s[3] > '9')
    return false;
  s += 3;
  while (*s >= '0' && *s <= '9')
    s++;
  return strncmp (s, " (", 2) == 0;
}

/* After the RWBS: "SECTOR + BLOCKS ...", "[COMMAND]" (no data), or
 * "BYTES (HEX) ..." (a packet command: 0, not taken).  1 with the
 * extent, 0 for a packet command, -1 if none of these.
 */
static int
parse_extent (struct src_lines *l, char *rest, struct event *ev)
{
  char *p = rest, *sector, *plus, *count;

  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '[' || *p == '\0')
    return 1;                   /* no data */
  sector = token (&p);
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '(')
    return 0;                   /* a packet command */
  plus = token (&p);
  count = token (&p);
  if (!plus || strcmp (plus, "+") != 0 || !count)
    return src_bad (l, "%s event: expected 'SECTOR + BLOCKS' after the "
                    "RWBS field", ev->action);
  if (src_u64 (sector, UINT64_MAX, &ev->sector) == -1)
    return src_bad (l, "sector '%s': expected a whole number below 2^64",
                    sector);
  if (src_u64 (count, UINT32_MAX, &ev->nsect) == -1)
    return src_bad (l, "blocks '%s': expected a whole number from 0 to %"
                    PRIu32, count, UINT32_MAX);
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p != '\0' && *p != '[' && *p != '(')
    return src_bad (l, "'%s' after the extent: expected '[COMMAND]'", p);
  return 1;
}

struct rwbs {
  bool preflush, fua, barrier;
  char op;                      /* R, W, D, E or N */
};

static int
parse_rwbs (struct src_lines *l, const char *s, struct rwbs *w)
{
  const char *p = s;

  memset (w, 0, sizeof *w);
  if (p[0] == 'F' && p[1] && strchr ("RWDEN", p[1]))
    w->preflush = true, p++;
  if (!*p || !strchr ("RWDEN", *p))
    return src_bad (l, "RWBS '%s': expected R, W, D, E or N (after an "
                    "optional F)", s);
  w->op = *p++;
  for (; *p; p++)
    switch (*p) {
    case 'F': w->fua = true; break;
    case 'B': w->barrier = true; break;
    case 'A': case 'S': case 'M': break;
    default:
      return src_bad (l, "RWBS '%s': unknown flag '%c' (expected F, A, "
                      "S, M or B after the operation)", s, *p);
    }
  return 0;
}

static void
request (struct event *ev, enum io_op op, bool fua, uint64_t offset,
         uint64_t length)
{
  struct src_req *r = &ev->req[ev->nreq++];

  r->op = op;
  r->fua = fua;
  r->offset = offset;
  r->length = length;
  r->has_arrival = true;
  r->stream = ev->pid;
  r->line = ev->line;
  memcpy (r->device, ev->dev, sizeof r->device);
}

/* What a Q or D event asks of the drive. */
static int
event_requests (struct src_lines *l, struct event *ev, const struct rwbs *w)
{
  uint64_t offset, length;

  if (src_sectors (ev->sector, &offset) == -1)
    return src_bad (l, "sector %" PRIu64 ": the byte offset wraps 2^64",
                    ev->sector);
  length = ev->nsect * 512;     /* nsect < 2^32 */
  if (length == 0 || w->op == 'N') {
    if (w->preflush || w->barrier)
      request (ev, IO_FLUSH, false, 0, 0);
    return 0;
  }
  if (w->preflush)
    request (ev, IO_FLUSH, false, 0, 0);
  switch (w->op) {
  case 'R': request (ev, IO_READ, false, offset, length); break;
  case 'W': request (ev, IO_WRITE, w->fua, offset, length); break;
  default: request (ev, IO_TRIM, w->fua, offset, length); break;
  }
  return 0;
}

static bool
takes_extent (const char *a)
{
  return a[1] == '\0' && strchr ("QDMFGIR", a[0]);
}

/* 1 and *ev for an event line, 0 for a line to skip, -1 on error. */
static int
parse_line (struct blk *b, struct event *ev)
{
  char *p = b->l.buf, *rwbs;
  int got;

  memset (ev, 0, sizeof *ev);
  ev->line = b->l.line;
  if (strspn (p, " \t") == strlen (p))
    return 0;
  if (summary_start (p))
    b->summary = true;
  if (parse_header (&p, ev, &rwbs) == -1) {
    if (b->summary)
      return 0;
    return src_bad (&b->l, "not a blkparse event line (expected 'MAJ,MIN "
                    "CPU SEQUENCE SECONDS.NANOSECONDS PID ACTION RWBS ...')");
  }
  if (b->summary)
    return src_bad (&b->l, "an event after blkparse's summary: two "
                    "outputs concatenated?");
  if (!takes_extent (ev->action))
    return 0;
  got = parse_extent (&b->l, p, ev);
  if (got <= 0)
    return got;
  if (strchr ("QDMF", ev->action[0])) {
    struct rwbs w;

    if (parse_rwbs (&b->l, rwbs, &w) == -1)
      return -1;
    ev->op = w.op;
    if (ev->action[0] != 'M' && ev->action[0] != 'F'
        && event_requests (&b->l, ev, &w) == -1)
      return -1;
  }
  return 1;
}

/* ---- Q mode: merges ---- */

static struct pending *
pend_at (struct blk *b, size_t i)
{
  return &b->pend[(b->pend_head + i) % b->cap];
}

/* Twice the room (up to MAX_PENDING: q_release keeps below it), the
 * ring laid out from 0 again.
 */
static int
pend_grow (struct blk *b)
{
  size_t cap = b->cap ? b->cap * 2 : 16, i;
  struct pending *p = malloc (cap * sizeof *p);

  if (!p)
    return src_bad (&b->l, "out of memory for %zu queued requests", cap);
  for (i = 0; i < b->npend; i++)
    p[i] = *pend_at (b, i);
  free (b->pend);
  b->pend = p;
  b->pend_head = 0;
  b->cap = cap;
  return 0;
}

static bool
same_start (const struct event *a, const struct event *b)
{
  return strcmp (a->dev, b->dev) == 0 && a->sector == b->sector;
}

/* The request carrying a Q's data (after its preflush), or NULL. */
static struct src_req *
data_req (struct event *ev)
{
  struct src_req *r;

  if (ev->nreq == 0)
    return NULL;
  r = &ev->req[ev->nreq - 1];
  return r->op == IO_FLUSH ? NULL : r;
}

/* Whether bio m merges into t: t is open, of m's device and operation,
 * with data, and ends where m starts (M) or starts where m ends (F).
 */
static bool
joins (struct pending *t, const struct event *m)
{
  const struct event *e = &t->ev;

  if (t->state != OPEN || strcmp (e->dev, m->dev) != 0 || e->op != m->op
      || !data_req (&t->ev))
    return false;
  if (m->action[0] == 'M')
    return m->sector >= e->nsect && m->sector - e->nsect == e->sector;
  return e->sector >= m->nsect && e->sector - m->nsect == m->sector;
}

/* The newest open Q of exactly m's extent: the merged bio's own. */
static struct pending *
merged_bio (struct blk *b, const struct event *m)
{
  size_t i;

  for (i = b->npend; i-- > 0;) {
    struct pending *q = pend_at (b, i);
    if (q->state == OPEN && same_start (&q->ev, m)
        && q->ev.nsect == m->nsect && q->ev.op == m->op)
      return q;
  }
  return NULL;
}

/* The newest request m joins, other than the bio's own Q; NULL if it
 * has gone (issued or given) or never was in the trace.
 */
static struct pending *
merge_target (struct blk *b, const struct event *m, const struct pending *bio)
{
  size_t i;

  for (i = b->npend; i-- > 0;) {
    struct pending *t = pend_at (b, i);
    if (t != bio && joins (t, m))
      return t;
  }
  return NULL;
}

/* t takes bio m's sectors: at its end (M) or its start (F). */
static int
grow (struct blk *b, struct pending *t, const struct event *m)
{
  struct src_req *r = data_req (&t->ev);

  if (m->nsect > MAX_MERGED_SECTORS - t->ev.nsect)
    return src_bad (&b->l, "%s event: the request queued on line %lu "
                    "would grow past %" PRIu64 " sectors", m->action,
                    t->ev.line, MAX_MERGED_SECTORS);
  if (m->action[0] == 'F') {
    t->ev.sector = m->sector;   /* below t's start: the offset fits */
    r->offset = m->sector * 512;
  }
  t->ev.nsect += m->nsect;
  r->length = t->ev.nsect * 512;
  t->touched = m->stamp;
  return 0;
}

/* An M or F: the bio's bytes go to the request it joined, and its Q
 * is no request of its own; if that request has gone, the Q stays one.
 */
static int
q_merged (struct blk *b, const struct event *m)
{
  struct pending *bio, *t;

  if (m->nsect == 0)
    return 0;
  bio = merged_bio (b, m);
  t = merge_target (b, m, bio);
  if (!t)
    return 0;
  if (bio)
    bio->state = MERGED;
  return grow (b, t, m);
}

/* A D: the oldest open Q of its device starting at its sector (with
 * data if it has data) is issued: no merge joins it any more.
 */
static void
q_issued (struct blk *b, const struct event *d)
{
  size_t i;

  for (i = 0; i < b->npend; i++) {
    struct pending *q = pend_at (b, i);
    if (q->state == OPEN && same_start (&q->ev, d)
        && (q->ev.nsect == 0) == (d->nsect == 0)) {
      q->state = ISSUED;
      return;
    }
  }
}

static int
q_event (struct blk *b, const struct event *ev)
{
  switch (ev->action[0]) {
  case 'Q':
    if (b->npend == b->cap && pend_grow (b) == -1)
      return -1;
    *pend_at (b, b->npend++) = (struct pending) { *ev, OPEN, ev->stamp };
    break;
  case 'M': case 'F':
    return q_merged (b, ev);
  case 'D':
    q_issued (b, ev);
    break;
  }
  return 0;
}

/* The oldest Q, once no merge can join it any more (or the window
 * says so); true if it left the queue.
 */
static bool
q_release (struct blk *b)
{
  struct pending *q;

  if (b->npend == 0)
    return false;
  q = pend_at (b, 0);
  if (q->state == OPEN && !b->at_end && b->npend < MAX_PENDING
      && b->now - q->touched < MERGE_WINDOW_NS)
    return false;
  if (q->state != MERGED) {
    b->ready = q->ev;
    b->ready_next = 0;
  }
  b->pend_head = (b->pend_head + 1) % b->cap;
  b->npend--;
  return true;
}

/* ---- D mode: requeues ---- */

static bool
same_request (const struct event *a, const struct event *b)
{
  return same_start (a, b) && a->nsect == b->nsect;
}

static void
d_event (struct blk *b, const struct event *ev)
{
  size_t i;

  if (ev->action[0] == 'R') {
    if (b->nrequeued == MAX_REQUEUED)
      memmove (b->requeued, b->requeued + 1,
               --b->nrequeued * sizeof *b->requeued);
    b->requeued[b->nrequeued++] = *ev;
    return;
  }
  if (ev->action[0] != 'D')
    return;
  for (i = 0; i < b->nrequeued; i++)
    if (same_request (&b->requeued[i], ev)) {
      memmove (b->requeued + i, b->requeued + i + 1,
               (--b->nrequeued - i) * sizeof *b->requeued);
      return;                   /* issued again: not a new request */
    }
  b->ready = *ev;
  b->ready_next = 0;
}

/* ---- The source ---- */

static void *
blk_open (const char *path, const struct trace_source_opts *opts,
          char *err, size_t errlen)
{
  struct blk *b = calloc (1, sizeof *b);

  if (!b) {
    snprintf (err, errlen, "%s: out of memory", path);
    return NULL;
  }
  b->take = opts->blk_event;
  if (src_lines_open (&b->l, path, err, errlen) == -1) {
    free (b);
    return NULL;
  }
  return b;
}

static int
read_event (struct blk *b)
{
  struct event ev;
  int got;

  got = src_lines_next (&b->l);
  if (got <= 0) {
    b->at_end = got == 0;
    return got;
  }
  got = parse_line (b, &ev);
  if (got <= 0)
    return got;
  if (ev.stamp > b->now)
    b->now = ev.stamp;
  if (b->take == 'Q')
    return q_event (b, &ev);
  d_event (b, &ev);
  return 0;
}

static int
blk_next (void *state, struct src_req *r, uint64_t *stamp, char *err,
          size_t errlen)
{
  struct blk *b = state;

  src_lines_err (&b->l, err, errlen);
  for (;;) {
    if (b->ready_next < b->ready.nreq) {
      /* A preflush's data follows it 1 ns later: the engine holds a
         flush behind its connection's requests that arrived at or
         before it, so at the same instant the data would go first,
         the opposite of REQ_PREFLUSH. */
      *stamp = b->ready.stamp + (uint64_t) b->ready_next;
      *r = b->ready.req[b->ready_next++];
      return 1;
    }
    b->ready.nreq = 0;
    if (b->take == 'Q' && q_release (b))
      continue;
    if (b->at_end)
      return 0;
    if (read_event (b) == -1)
      return -1;
  }
}

static void
blk_close (void *state)
{
  struct blk *b = state;

  src_lines_close (&b->l);
  free (b->pend);
  free (b);
}

const struct src_format src_blkparse = {
  .name = "blkparse", .ns_per_stamp = 1, .has_devices = true,
  .open = blk_open, .next = blk_next, .close = blk_close,
};
