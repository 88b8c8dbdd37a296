/* hddsim: the image file that holds the drive's data.
 *
 * Plain positional I/O on one descriptor: the data path must be
 * correct and never the bottleneck (the modeled drive is thousands of
 * times slower than the host's page cache), so nothing clever here.
 */

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "image.h"

static int fd = -1;
static bool writable;
static int64_t size;
static bool host_sync = true;

void
image_set_host_sync (bool on)
{
  host_sync = on;
}

static int64_t
device_size (int dfd, const struct stat *st)
{
  uint64_t bytes;

  if (S_ISREG (st->st_mode))
    return st->st_size;
  if (S_ISBLK (st->st_mode) && ioctl (dfd, BLKGETSIZE64, &bytes) == 0)
    return (int64_t) bytes;
  errno = EINVAL;
  return -1;
}

int
image_open (const char *path)
{
  struct stat st;

  writable = true;
  fd = open (path, O_RDWR | O_CLOEXEC);
  if (fd == -1 && (errno == EACCES || errno == EROFS || errno == EPERM)) {
    writable = false;
    fd = open (path, O_RDONLY | O_CLOEXEC);
  }
  if (fd == -1) {
    nbdkit_error ("image=%s: %m", path);
    return -1;
  }
  if (fstat (fd, &st) == -1) {
    nbdkit_error ("image=%s: fstat: %m", path);
    image_close ();
    return -1;
  }
  size = device_size (fd, &st);
  if (size == -1) {
    nbdkit_error ("image=%s: not a regular file or block device", path);
    image_close ();
    return -1;
  }
  if (size == 0) {
    nbdkit_error ("image=%s: the image is empty (create it first, "
                  "e.g. truncate -s 4G %s)", path, path);
    image_close ();
    return -1;
  }
  if (!writable)
    nbdkit_debug ("image=%s: opened read-only", path);
  return 0;
}

void
image_close (void)
{
  if (fd >= 0)
    close (fd);
  fd = -1;
}

int64_t
image_size (void)
{
  return size;
}

bool
image_writable (void)
{
  return writable;
}

/* pread and pwrite may move fewer bytes than asked: loop until all
 * have moved.  One loop for both directions, so the short-transfer and
 * end-of-file rules cannot drift apart.
 */
static int
transfer_all (bool writing, char *p, uint32_t count, uint64_t offset)
{
  const char *what = writing ? "pwrite" : "pread";

  while (count > 0) {
    ssize_t r = writing ? pwrite (fd, p, count, (off_t) offset)
                        : pread (fd, p, count, (off_t) offset);
    if (r == -1) {
      nbdkit_error ("image: %s: %m", what);
      return -1;
    }
    if (r == 0) {
      /* The file shrank under a read (report it rather than return
       * zeroes), or a write made no progress: either would loop.
       */
      nbdkit_error ("image: %s: unexpected end of file at offset %"
                    PRIu64, what, offset);
      errno = EIO;
      return -1;
    }
    p += r;
    count -= (uint32_t) r;
    offset += (uint64_t) r;
  }
  return 0;
}

int
image_pread (void *buf, uint32_t count, uint64_t offset)
{
  return transfer_all (false, buf, count, offset);
}

int
image_pwrite (const void *buf, uint32_t count, uint64_t offset)
{
  /* pwrite never writes through p: casting const away is safe. */
  return transfer_all (true, (char *) buf, count, offset);
}

int
image_flush (void)
{
  if (host_sync && fdatasync (fd) == -1) {
    nbdkit_error ("image: fdatasync: %m");
    return -1;
  }
  return 0;
}

int
image_sync (void)
{
  if (fdatasync (fd) == -1) {
    nbdkit_error ("image: fdatasync: %m");
    return -1;
  }
  return 0;
}

/* Trim is advisory: where the file system cannot punch holes, keep the
 * data (NBD allows that).
 */
int
image_trim (uint32_t count, uint64_t offset)
{
  if (fallocate (fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                 (off_t) offset, count) == -1
      && errno != EOPNOTSUPP && errno != ENOSYS) {
    nbdkit_error ("image: trim: %m");
    return -1;
  }
  return 0;
}

int
image_zero (uint32_t count, uint64_t offset)
{
  static const char zeroes[65536];

  if (fallocate (fd, FALLOC_FL_ZERO_RANGE, (off_t) offset, count) == 0)
    return 0;
  if (errno != EOPNOTSUPP && errno != ENOSYS && errno != EINVAL) {
    nbdkit_error ("image: zero: %m");
    return -1;
  }
  while (count > 0) {
    uint32_t n = count < sizeof zeroes ? count : sizeof zeroes;
    if (image_pwrite (zeroes, n, offset) == -1)
      return -1;
    count -= n;
    offset += n;
  }
  return 0;
}
