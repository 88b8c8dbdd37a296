/* hddsim: the per-request trace file (trace=FILE).
 *
 * What trace= accepts: a regular file (created, or truncated: a trace
 * is one run's) or a pipe (a FIFO or the stdout of a pipeline: a trace
 * is a stream, so a consumer may read it live).  Anything else is
 * refused at start-up: a character or block device could be a disk,
 * a tape or a terminal, and writing CSV to one (or discarding it, as
 * /dev/null and /dev/full do) is never what a trace is for.  Symbolic
 * links are written through.
 *
 * A write error later (a full disk) is reported once, through
 * nbdkit_error, and the trace stops there: a trace with a hole would
 * replay as a different run.  A regular file is cut back to its last
 * whole line, so what remains is a valid trace of the first requests;
 * the records that were not written are counted (stats "trace_lost").
 */

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "trace.h"

/* Lines are formatted here and written in large pieces: one write(2)
 * per ~1500 lines at ~100 bytes a line.
 */
#define TRACE_BUF (256 * 1024)

struct trace_file {
  char *path;
  int fd;
  bool regular;
  bool failed;                  /* a write failed: nothing more is written */
  off_t good;                   /* bytes of whole lines in the file */
  size_t used;
  uint64_t pending;             /* records in buf */
  uint64_t lost;
  char buf[TRACE_BUF];
};

const char *
file_type_name (unsigned mode)
{
  switch (mode & S_IFMT) {
  case S_IFREG: return "a regular file";
  case S_IFDIR: return "a directory";
  case S_IFCHR: return "a character device";
  case S_IFBLK: return "a block device";
  case S_IFIFO: return "a pipe";
  case S_IFSOCK: return "a socket";
  case S_IFLNK: return "a symbolic link";
  default: return "not a regular file";
  }
}

/* Checked before opening, since opening a device can act on it (a tape
 * rewinds), and again on the open descriptor, in case the path changed
 * in between.
 */
static int
check_type (const char *path, mode_t mode)
{
  if (S_ISREG (mode) || S_ISFIFO (mode))
    return 0;
  nbdkit_error ("trace=%s: %s; trace= must name a regular file or a pipe",
                path, file_type_name (mode));
  return -1;
}

/* A FIFO is opened without blocking, so that nbdkit does not hang at
 * start-up waiting for a reader: no reader is an error (ENXIO).
 */
static int
open_trace_fd (const char *path)
{
  struct stat st;
  int flags = O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC | O_NONBLOCK;
  int fd;

  if (stat (path, &st) == 0) {
    if (check_type (path, st.st_mode) == -1)
      return -1;
    if (S_ISREG (st.st_mode))
      flags |= O_TRUNC;
  }
  else
    flags |= O_TRUNC;
  fd = open (path, flags, 0644);
  if (fd == -1) {
    if (errno == ENXIO)
      nbdkit_error ("trace=%s: a pipe with no reader", path);
    else
      nbdkit_error ("trace=%s: %m", path);
    return -1;
  }
  if (fstat (fd, &st) == -1 || fcntl (fd, F_SETFL, 0) == -1) {
    nbdkit_error ("trace=%s: %m", path);
    close (fd);
    return -1;
  }
  if (check_type (path, st.st_mode) == -1) {
    close (fd);
    return -1;
  }
  return fd;
}

/* write(2) all of buf; -1 and errno on failure. */
static int
write_all (int fd, const char *buf, size_t len)
{
  while (len > 0) {
    ssize_t r = write (fd, buf, len);
    if (r == -1 && errno == EINTR)
      continue;
    if (r == -1)
      return -1;
    if (r == 0) {
      errno = EIO;
      return -1;
    }
    buf += r;
    len -= (size_t) r;
  }
  return 0;
}

static void
fail (struct trace_file *t)
{
  nbdkit_error ("trace=%s: write failed: %m; the trace stops after its "
                "last whole line, and later requests are counted in the "
                "stats as trace_lost", t->path);
  t->failed = true;
  if (t->regular && ftruncate (t->fd, t->good) == -1)
    nbdkit_debug ("trace=%s: cannot cut back to %lld bytes: %m",
                  t->path, (long long) t->good);
}

void
trace_file_flush (struct trace_file *t)
{
  if (t->failed || t->used == 0)
    return;
  if (write_all (t->fd, t->buf, t->used) == -1) {
    fail (t);
    t->lost += t->pending;
  }
  else
    t->good += (off_t) t->used;
  t->used = 0;
  t->pending = 0;
}

static bool make_room (struct trace_file *t);

void
trace_file_add (struct trace_file *t, const struct trace_record *r)
{
  if (!make_room (t))
    return;
  t->used += trace_format_line (t->buf + t->used, r);
  t->pending++;
}

/* Room for a line, or the trace has failed: then the line is lost. */
static bool
make_room (struct trace_file *t)
{
  if (!t->failed && TRACE_BUF - t->used < TRACE_LINE_MAX)
    trace_file_flush (t);       /* may fail: then this line is lost too */
  if (t->failed) {
    t->lost++;
    return false;
  }
  return true;
}

void
trace_file_add_cut (struct trace_file *t, const struct trace_cut *c)
{
  if (!make_room (t))
    return;
  t->used += trace_format_cut (t->buf + t->used, c);
  t->pending++;
}

void
trace_file_add_fault (struct trace_file *t, const struct trace_fault *f)
{
  if (!make_room (t))
    return;
  t->used += trace_format_fault (t->buf + t->used, f);
  t->pending++;
}

void
trace_file_add_clean (struct trace_file *t, const struct trace_clean *c)
{
  if (!make_room (t))
    return;
  t->used += trace_format_clean (t->buf + t->used, c);
  t->pending++;
}

uint64_t
trace_file_lost (const struct trace_file *t)
{
  return t->lost;
}

struct trace_file *
trace_file_open (const char *path)
{
  struct trace_file *t = calloc (1, sizeof *t);
  struct stat st;

  if (!t || !(t->path = strdup (path))) {
    nbdkit_error ("trace=%s: out of memory", path);
    free (t);
    return NULL;
  }
  t->fd = open_trace_fd (path);
  if (t->fd == -1) {
    free (t->path);
    free (t);
    return NULL;
  }
  t->regular = fstat (t->fd, &st) == 0 && S_ISREG (st.st_mode);
  /* The header is written now: a full or failing disk shows at
   * start-up, not as a trace silently lost.
   */
  t->used = trace_format_header (t->buf);
  if (write_all (t->fd, t->buf, t->used) == -1) {
    nbdkit_error ("trace=%s: %m", path);
    trace_file_close (t);
    return NULL;
  }
  t->good = (off_t) t->used;
  t->used = 0;
  return t;
}

void
trace_file_close (struct trace_file *t)
{
  if (!t)
    return;
  trace_file_flush (t);
  if (close (t->fd) == -1 && !t->failed)
    nbdkit_error ("trace=%s: close: %m", t->path);
  free (t->path);
  free (t);
}
