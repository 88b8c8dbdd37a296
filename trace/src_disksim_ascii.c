/* hddsim: DiskSim's default ("ascii") input trace as a trace source.
 *
 * DiskSim 4.0 manual, 4.1.1 "Default Format": one request a line, five
 * values separated by white space:
 *
 *   TIME  DEVICE  BLKNO  BCOUNT  FLAGS
 *
 * TIME: the arrival, nonnegative milliseconds (a decimal fraction;
 * more than six places are rounded to the nearest nanosecond), in
 * ascending order; DEVICE: the device number; BLKNO: the first block
 * (nonnegative); BCOUNT: the size in blocks (positive); FLAGS: a hex
 * bit field (with or without 0x) of which bit 0 says read (1) or write
 * (0); the other bits (priority and the like, for a full system
 * simulation) do not concern a drive and are ignored.  Blocks are
 * 512 bytes (the devices' access unit in DiskSim's disk models).  The
 * device is DEVICE as a decimal number; so is the stream.
 */

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "trace_source_int.h"

#define NS_PER_MS UINT64_C(1000000)

struct dsa {
  struct src_lines l;
};

static void *
dsa_open (const char *path, const struct trace_source_opts *opts,
          char *err, size_t errlen)
{
  struct dsa *d = calloc (1, sizeof *d);

  (void) opts;
  if (!d) {
    snprintf (err, errlen, "%s: out of memory", path);
    return NULL;
  }
  if (src_lines_open (&d->l, path, err, errlen) == -1) {
    free (d);
    return NULL;
  }
  return d;
}

/* "MS[.FRACTION]" to ns, exactly to six places, rounded beyond. */
static int
parse_ms (const char *s, uint64_t *ns)
{
  const char *p = s;
  uint64_t whole = 0, frac = 0, scale = NS_PER_MS;

  if (!isdigit ((unsigned char) *p))
    return -1;
  for (; isdigit ((unsigned char) *p); p++) {
    if (whole > (TRACE_TIME_MAX / NS_PER_MS) / 10)
      return -1;
    whole = whole * 10 + (uint64_t) (*p - '0');
  }
  if (*p == '.') {
    for (p++; isdigit ((unsigned char) *p); p++) {
      if (scale > 1)
        frac += (uint64_t) (*p - '0') * (scale /= 10);
      else if (scale == 1) {
        frac += *p >= '5';      /* the seventh place rounds */
        scale = 0;
      }
    }
  }
  if (*p != '\0' || whole > TRACE_TIME_MAX / NS_PER_MS)
    return -1;
  *ns = whole * NS_PER_MS + frac;
  return *ns > TRACE_TIME_MAX ? -1 : 0;
}

static int
parse_hex (const char *s, uint64_t *v)
{
  size_t n;

  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    s += 2;
  n = strlen (s);
  if (n == 0 || n > 16 || strspn (s, "0123456789abcdefABCDEF") != n)
    return -1;
  *v = strtoull (s, NULL, 16);
  return 0;
}

static int
parse_fields (struct dsa *d, char **f, struct src_req *r, uint64_t *stamp)
{
  uint64_t dev, blkno, bcount, flags;

  if (parse_ms (f[0], stamp) == -1)
    return src_bad (&d->l, "time '%s': expected milliseconds, a decimal "
                    "number from 0 to 2^62 ns (like 12.5)", f[0]);
  if (src_u64 (f[1], INT_MAX, &dev) == -1)
    return src_bad (&d->l, "device '%s': expected a whole number from 0 to "
                    "%d", f[1], INT_MAX);
  if (src_u64 (f[2], UINT64_MAX, &blkno) == -1
      || src_sectors (blkno, &r->offset) == -1)
    return src_bad (&d->l, "blkno '%s': expected a whole number of "
                    "512-byte blocks below 2^55", f[2]);
  if (src_u64 (f[3], INT_MAX, &bcount) == -1 || bcount == 0)
    return src_bad (&d->l, "bcount '%s': expected a whole number of blocks "
                    "from 1 to %d", f[3], INT_MAX);
  if (parse_hex (f[4], &flags) == -1)
    return src_bad (&d->l, "flags '%s': expected a hex number (bit 0: 1 "
                    "read, 0 write)", f[4]);
  r->op = flags & 1 ? IO_READ : IO_WRITE;
  r->length = bcount * 512;
  r->stream = (uint32_t) dev;
  snprintf (r->device, sizeof r->device, "%" PRIu64, dev);
  return 0;
}

static int
dsa_next (void *state, struct src_req *r, uint64_t *stamp, char *err,
          size_t errlen)
{
  struct dsa *d = state;
  char *f[6];
  int got, n;

  src_lines_err (&d->l, err, errlen);
  while ((got = src_lines_next (&d->l)) == 1) {
    n = src_split_blanks (d->l.buf, f, 5);
    if (n == 0)
      continue;
    if (n != 5)
      return src_bad (&d->l, "%s fields: expected TIME DEVICE BLKNO BCOUNT "
                      "FLAGS", n > 5 ? "more than 5" : "fewer than 5");
    r->line = d->l.line;
    r->has_arrival = true;
    return parse_fields (d, f, r, stamp) == -1 ? -1 : 1;
  }
  return got;
}

static void
dsa_close (void *state)
{
  struct dsa *d = state;

  src_lines_close (&d->l);
  free (d);
}

const struct src_format src_disksim_ascii = {
  .name = "disksim-ascii", .ns_per_stamp = 1, .has_devices = true,
  .open = dsa_open, .next = dsa_next, .close = dsa_close,
};
