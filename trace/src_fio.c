/* hddsim: fio's iolog (write_iolog=, read_iolog=) as a trace source.
 *
 * fio's HOWTO, "Trace file format": the first line is "fio version 2
 * iolog" or "fio version 3 iolog"; then one action a line, fields
 * separated by blanks:
 *
 *   v2:           FILENAME ACTION [OFFSET LENGTH]
 *   v3: TIMESTAMP FILENAME ACTION [OFFSET LENGTH]
 *
 * File actions (no offset, no length): add, open, close; a file must
 * be added before it is opened and opened before its I/O.  I/O actions
 * (offset and length in bytes): read, write, trim, sync and datasync
 * (fsync/fdatasync: a flush; offset and length are ignored), and in v2
 * only, wait (OFFSET microseconds after the previous wait; "everything
 * below 100 is discarded" is fio's replay, not the log's: the reader
 * keeps every wait).  v3's timestamp is microseconds since the start of
 * the run (fio writes utime_since_now).
 *
 * v2 has no times: its requests have has_arrival false, and arrival
 * holds the sum of the waits before the request (0 without any), fio's
 * own replay delays.  The stream is the file's index in the order the
 * files were added; the device is the file name.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace_source_int.h"

#define MAX_FILES 1024
/* A v2 wait or a v3 timestamp, in microseconds: at most 2^62 ns. */
#define MAX_US (UINT64_C(1) << 52)

enum file_state { ADDED, OPENED, CLOSED };

struct fio {
  struct src_lines l;
  int version;                  /* 2 or 3 */
  uint64_t waited_us;           /* v2: the waits so far */
  size_t nfiles;
  struct { char name[SRC_DEVICE_MAX]; enum file_state state; }
    files[MAX_FILES];
};

static int
read_version (struct fio *f)
{
  int got = src_lines_next (&f->l);

  if (got < 0)
    return -1;
  if (got == 0) {
    f->l.line = 1;
    return src_bad (&f->l, "empty file: expected 'fio version 2 iolog' or "
                    "'fio version 3 iolog'");
  }
  if (strcmp (f->l.buf, "fio version 2 iolog") == 0)
    f->version = 2;
  else if (strcmp (f->l.buf, "fio version 3 iolog") == 0)
    f->version = 3;
  else
    return src_bad (&f->l, "expected 'fio version 2 iolog' or 'fio version "
                    "3 iolog' (fio's v1 logs are not read)");
  return 0;
}

static void *
fio_open (const char *path, const struct trace_source_opts *opts,
          char *err, size_t errlen)
{
  struct fio *f = calloc (1, sizeof *f);

  (void) opts;
  if (!f) {
    snprintf (err, errlen, "%s: out of memory", path);
    return NULL;
  }
  if (src_lines_open (&f->l, path, err, errlen) == -1
      || read_version (f) == -1) {
    src_lines_close (&f->l);
    free (f);
    return NULL;
  }
  return f;
}

static long
find_file (const struct fio *f, const char *name)
{
  size_t i;

  for (i = 0; i < f->nfiles; i++)
    if (strcmp (f->files[i].name, name) == 0)
      return (long) i;
  return -1;
}

static int
file_action (struct fio *f, const char *name, const char *action)
{
  long i = find_file (f, name);

  if (strcmp (action, "add") == 0) {
    if (i >= 0)
      return 0;                 /* fio adds a file again on a re-run */
    if (strlen (name) >= SRC_DEVICE_MAX)
      return src_bad (&f->l, "file name '%s' longer than %d bytes", name,
                      SRC_DEVICE_MAX - 1);
    if (f->nfiles == MAX_FILES)
      return src_bad (&f->l, "more than %d files", MAX_FILES);
    strcpy (f->files[f->nfiles].name, name);
    f->files[f->nfiles++].state = ADDED;
    return 0;
  }
  if (strcmp (action, "open") != 0 && strcmp (action, "close") != 0)
    return src_bad (&f->l, "action '%s' without offset and length: "
                    "expected add, open or close", action);
  if (i < 0)
    return src_bad (&f->l, "%s of '%s', which was not added", action,
                    name);
  if (action[0] == 'o')
    f->files[i].state = OPENED;
  else if (f->files[i].state != OPENED)
    return src_bad (&f->l, "close of '%s', which is not open", name);
  else
    f->files[i].state = CLOSED;
  return 0;
}

static int
parse_op (struct fio *f, const char *action, enum io_op *op)
{
  static const struct { const char *name; enum io_op op; } ops[] = {
    { "read", IO_READ }, { "write", IO_WRITE }, { "trim", IO_TRIM },
    { "sync", IO_FLUSH }, { "datasync", IO_FLUSH },
  };
  size_t i;

  for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp (action, ops[i].name) == 0) {
      *op = ops[i].op;
      return 0;
    }
  return src_bad (&f->l, "action '%s': expected read, write, trim, sync, "
                  "datasync%s", action, f->version == 2 ? " or wait" : "");
}

/* v2's wait: 0 and the wait added up. */
static int
wait_action (struct fio *f, const char *us)
{
  uint64_t v;

  if (f->version == 3)
    return src_bad (&f->l, "a wait in a version 3 iolog (fio does not "
                    "allow it: the timestamps say when)");
  if (src_u64 (us, MAX_US, &v) == -1)
    return src_bad (&f->l, "wait %s: expected microseconds from 0 to %"
                    PRIu64, us, MAX_US);
  if (v > MAX_US - f->waited_us)
    return src_bad (&f->l, "the waits add up to more than 2^52 us");
  f->waited_us += v;
  return 0;
}

static int
io_action (struct fio *f, struct src_req *r, char **fld)
{
  long i = find_file (f, fld[0]);
  uint64_t offset, length;

  if (strcmp (fld[1], "wait") == 0)
    return wait_action (f, fld[2]);
  if (parse_op (f, fld[1], &r->op) == -1)
    return -1;
  if (i < 0 || f->files[i].state != OPENED)
    return src_bad (&f->l, "%s on '%s', which is not %s", fld[1], fld[0],
                    i < 0 ? "added" : "open");
  if (src_u64 (fld[2], UINT64_MAX, &offset) == -1)
    return src_bad (&f->l, "offset '%s': expected bytes, a whole number "
                    "below 2^64", fld[2]);
  if (src_u64 (fld[3], UINT64_MAX, &length) == -1)
    return src_bad (&f->l, "length '%s': expected bytes, a whole number "
                    "below 2^64", fld[3]);
  if (r->op != IO_FLUSH) {
    r->offset = offset;
    r->length = length;
  }
  r->stream = (uint32_t) i;
  strcpy (r->device, f->files[i].name);
  return 1;
}

/* One line: 1 and a request, 0 for a line without one, -1. */
static int
parse_line (struct fio *f, struct src_req *r, uint64_t *stamp)
{
  char *fld[6], **a = fld;
  int n = src_split_blanks (f->l.buf, fld, 6);

  if (n == 0)
    return 0;
  if (f->version == 3) {
    if (src_u64 (fld[0], MAX_US, stamp) == -1)
      return src_bad (&f->l, "timestamp '%s': expected microseconds from "
                      "0 to %" PRIu64, fld[0], MAX_US);
    a++, n--;
  }
  else
    *stamp = f->waited_us;
  r->line = f->l.line;
  r->has_arrival = f->version == 3;
  if (n == 2)
    return file_action (f, a[0], a[1]);
  if (n == 4)
    return io_action (f, r, a);
  return src_bad (&f->l, "%s fields: expected %sFILENAME ACTION or "
                  "%sFILENAME ACTION OFFSET LENGTH", n > 4 ? "too many"
                  : "too few", f->version == 3 ? "TIMESTAMP " : "",
                  f->version == 3 ? "TIMESTAMP " : "");
}

static int
fio_next (void *state, struct src_req *r, uint64_t *stamp, char *err,
          size_t errlen)
{
  struct fio *f = state;
  int got;

  src_lines_err (&f->l, err, errlen);
  while ((got = src_lines_next (&f->l)) == 1) {
    memset (r, 0, sizeof *r);
    got = parse_line (f, r, stamp);
    if (got != 0)
      return got;
  }
  return got;
}

static void
fio_close (void *state)
{
  struct fio *f = state;

  src_lines_close (&f->l);
  free (f);
}

const struct src_format src_fio = {
  .name = "fio-iolog", .ns_per_stamp = 1000, .has_devices = true,
  .open = fio_open, .next = fio_next, .close = fio_close,
};
