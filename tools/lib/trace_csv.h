/* hddsim: read a trace CSV (trace=FILE) by column names. */
#ifndef HDDSIM_TEST_TRACE_CSV_H
#define HDDSIM_TEST_TRACE_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../model/hdd.h"

struct trace_row {
  uint64_t id;
  uint32_t conn;
  char op[8];
  enum io_op io_op;             /* op, parsed */
  uint64_t offset, length;
  uint64_t arrival, start, done;
  uint64_t seek_ns, rot_ns, xfer_ns;
  int64_t late_ns;              /* -1 when empty (not delivered) */
  bool fua;
  uint32_t queue_len;
  char outcome[12];
  unsigned long line;           /* where the row is in its file */
};

/* Modeled times in a trace must not exceed this: 2^62 ns is 146
 * years, so a replay can add the service times of billions of
 * requests to an arrival without wrapping a uint64_t.
 */
#define TRACE_TIME_MAX (UINT64_C(1) << 62)

#define TRACE_ERRLEN 512

/* Read and check every row of a trace: known op and outcome, decimal
 * numbers that fit their column, arrival <= start <= done <=
 * TRACE_TIME_MAX, an extent that does not wrap, unique ids.  Returns
 * the number of rows (malloc'd array in *rows), or -1 with err
 * ("PATH:LINE: what") on the first bad row or an unreadable file.
 */
extern long trace_read (const char *path, struct trace_row **rows,
                        char *err, size_t errlen);

/* Check that every row's extent lies inside an image of 'size' bytes;
 * -1 with err naming the path and line of the first that does not.
 */
extern int trace_check_extents (const char *path,
                                const struct trace_row *rows, long n,
                                uint64_t size, char *err, size_t errlen);

#endif /* HDDSIM_TEST_TRACE_CSV_H */
