/* hddsim: read a trace CSV (trace=FILE) by column names. */
#ifndef HDDSIM_TEST_TRACE_CSV_H
#define HDDSIM_TEST_TRACE_CSV_H

#include <stdbool.h>
#include <stdint.h>

struct trace_row {
  uint64_t id;
  uint32_t conn;
  char op[8];
  uint64_t offset, length;
  uint64_t arrival, start, done;
  uint64_t seek_ns, rot_ns, xfer_ns;
  int64_t late_ns;              /* -1 when empty (not delivered) */
  bool fua;
  uint32_t queue_len;
  char outcome[12];
};

/* Returns the number of rows (malloc'd array in *rows), -1 on a
 * malformed file.
 */
extern long trace_read (const char *path, struct trace_row **rows);

#endif /* HDDSIM_TEST_TRACE_CSV_H */
