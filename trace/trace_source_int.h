/* hddsim: what the trace-source formats share (trace_source.c) and
 * what each format gives it (src_*.c).  Not for the tools: they use
 * trace_source.h.
 */
#ifndef HDDSIM_TRACE_SOURCE_INT_H
#define HDDSIM_TRACE_SOURCE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace_source.h"

/* Longest line any text format may have, newline included. */
#define SRC_LINE_MAX 1024

/* A text file read a line at a time, with "PATH:LINE: what" errors. */
struct src_lines {
  FILE *fp;
  const char *path;
  unsigned long line;           /* of the line in buf */
  char *err;                    /* where src_bad writes (the caller's) */
  size_t errlen;
  char buf[SRC_LINE_MAX];
};

/* -1 and err ("PATH: what") if the file cannot be opened. */
extern int src_lines_open (struct src_lines *, const char *path,
                           char *err, size_t errlen);
/* The next line in buf without its newline (and a CR before it): 1;
 * 0 at the end; -1 and err on a line too long or a read error.
 */
extern int src_lines_next (struct src_lines *);
extern void src_lines_close (struct src_lines *);

/* Later messages go to the caller's err. */
static inline void
src_lines_err (struct src_lines *l, char *err, size_t errlen)
{
  l->err = err;
  l->errlen = errlen;
}

/* "PATH:LINE: what" into l->err, for the line last read; returns -1. */
extern int src_bad (struct src_lines *l, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* Split s in place at runs of blanks (spaces, tabs); leading and
 * trailing blanks are dropped.  The number of fields, at most max; if
 * there are more, max + 1 (the fields past max are not split).
 */
extern int src_split_blanks (char *s, char **f, int max);
/* Split s in place at each comma: the number of fields, max + 1 if
 * more than max.
 */
extern int src_split_commas (char *s, char **f, int max);

/* A decimal whole number of at most max: digits only (no sign, no
 * blank, no "0x"); 0, or -1 if s is anything else or too large.
 */
extern int src_u64 (const char *s, uint64_t max, uint64_t *v);

/* 512-byte sectors or blocks to bytes: -1 if that wraps 2^64. */
extern int src_sectors (uint64_t sectors, uint64_t *bytes);

/* Copy a device name into r->device: -1 if it does not fit. */
extern int src_device (struct src_req *r, const char *name);

/* One format.  open reads as little as it needs (a header);
 * next gives the next request with r->line, r->op ... r->device set
 * (r->arrival is trace_source.c's) and *stamp its time in the format's
 * own unit since the format's own origin (ns_per_stamp nanoseconds
 * each).  trace_source.c checks the rest (see trace_source_next).
 */
struct src_format {
  const char *name;             /* as in trace_source_formats */
  uint64_t ns_per_stamp;
  bool has_devices;             /* requests name a device */
  void *(*open) (const char *path, const struct trace_source_opts *,
                 char *err, size_t errlen);
  int (*next) (void *, struct src_req *r, uint64_t *stamp,
               char *err, size_t errlen);
  void (*close) (void *);
};

extern const struct src_format src_hddsim, src_blkparse, src_fio,
  src_msr, src_disksim_ascii;

#endif /* HDDSIM_TRACE_SOURCE_INT_H */
