/* hddsim: the SNIA IOTTA / MSR Cambridge block trace CSV as a trace
 * source.
 *
 * The traces' README.txt: one request a line,
 *
 *   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
 *
 * Timestamp: when the request was issued, in Windows filetime (100 ns
 * ticks since 1601-01-01); Hostname and DiskNumber name the volume;
 * Type "Read" or "Write"; Offset and Size in bytes; ResponseTime in
 * filetime units (100 ns).  The published files have no header line;
 * one that is exactly the field names above is skipped.  The device is
 * "HOSTNAME_DISKNUMBER" (the traces' file names: web_2), the stream
 * the hostname's index in the order hostnames first appear.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "trace_source_int.h"

#define HEADER "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime"
#define MAX_HOSTS 256
#define TICK_NS 100

struct msr {
  struct src_lines l;
  size_t nhosts;
  char hosts[MAX_HOSTS][SRC_DEVICE_MAX];
};

static void *
msr_open (const char *path, const struct trace_source_opts *opts,
          char *err, size_t errlen)
{
  struct msr *m = calloc (1, sizeof *m);

  (void) opts;
  if (!m) {
    snprintf (err, errlen, "%s: out of memory", path);
    return NULL;
  }
  if (src_lines_open (&m->l, path, err, errlen) == -1) {
    free (m);
    return NULL;
  }
  return m;
}

static int
host_index (struct msr *m, const char *host, uint32_t *index)
{
  size_t i;

  for (i = 0; i < m->nhosts; i++)
    if (strcmp (m->hosts[i], host) == 0) {
      *index = (uint32_t) i;
      return 0;
    }
  if (m->nhosts == MAX_HOSTS)
    return src_bad (&m->l, "more than %d hostnames", MAX_HOSTS);
  strcpy (m->hosts[m->nhosts], host);
  *index = (uint32_t) m->nhosts++;
  return 0;
}

static int
parse_type (struct msr *m, const char *type, struct src_req *r)
{
  if (strcmp (type, "Read") == 0)
    r->op = IO_READ;
  else if (strcmp (type, "Write") == 0)
    r->op = IO_WRITE;
  else
    return src_bad (&m->l, "Type '%s': expected Read or Write", type);
  return 0;
}

static int
parse_volume (struct msr *m, const char *host, const char *disk,
              struct src_req *r)
{
  uint64_t d;
  char dev[SRC_DEVICE_MAX + 24];

  if (!*host || strspn (host, " \t") == strlen (host))
    return src_bad (&m->l, "an empty Hostname");
  if (src_u64 (disk, UINT32_MAX, &d) == -1)
    return src_bad (&m->l, "DiskNumber '%s': expected a whole number from "
                    "0 to %" PRIu32, disk, UINT32_MAX);
  snprintf (dev, sizeof dev, "%s_%" PRIu64, host, d);
  if (src_device (r, dev) == -1)
    return src_bad (&m->l, "Hostname '%s': longer than %d bytes with its "
                    "disk number", host, SRC_DEVICE_MAX - 1);
  return host_index (m, host, &r->stream);
}

static int
parse_numbers (struct msr *m, char **f, struct src_req *r, uint64_t *stamp)
{
  uint64_t response;

  if (src_u64 (f[0], UINT64_MAX, stamp) == -1)
    return src_bad (&m->l, "Timestamp '%s': expected filetime, a whole "
                    "number of 100 ns ticks", f[0]);
  if (src_u64 (f[4], UINT64_MAX, &r->offset) == -1)
    return src_bad (&m->l, "Offset '%s': expected bytes, a whole number "
                    "below 2^64", f[4]);
  if (src_u64 (f[5], UINT64_MAX, &r->length) == -1)
    return src_bad (&m->l, "Size '%s': expected bytes, a whole number "
                    "below 2^64", f[5]);
  if (src_u64 (f[6], TRACE_TIME_MAX / TICK_NS, &response) == -1)
    return src_bad (&m->l, "ResponseTime '%s': expected 100 ns ticks from "
                    "0 to %" PRIu64, f[6], TRACE_TIME_MAX / TICK_NS);
  r->measured_ns = response * TICK_NS;
  return 0;
}

static int
parse_line (struct msr *m, struct src_req *r, uint64_t *stamp)
{
  char *f[8];
  int n;

  if (m->l.line == 1 && strcmp (m->l.buf, HEADER) == 0)
    return 0;
  if (m->l.buf[0] == '\0')
    return 0;
  n = src_split_commas (m->l.buf, f, 7);
  if (n != 7)
    return src_bad (&m->l, "%s fields: expected " HEADER,
                    n > 7 ? "more than 7" : "fewer than 7");
  r->line = m->l.line;
  r->has_arrival = true;
  if (parse_type (m, f[3], r) == -1 || parse_volume (m, f[1], f[2], r) == -1
      || parse_numbers (m, f, r, stamp) == -1)
    return -1;
  return 1;
}

static int
msr_next (void *state, struct src_req *r, uint64_t *stamp, char *err,
          size_t errlen)
{
  struct msr *m = state;
  int got;

  src_lines_err (&m->l, err, errlen);
  while ((got = src_lines_next (&m->l)) == 1) {
    got = parse_line (m, r, stamp);
    if (got != 0)
      return got;
  }
  return got;
}

static void
msr_close (void *state)
{
  struct msr *m = state;

  src_lines_close (&m->l);
  free (m);
}

const struct src_format src_msr = {
  .name = "msr", .ns_per_stamp = TICK_NS, .has_devices = true,
  .open = msr_open, .next = msr_next, .close = msr_close,
};
