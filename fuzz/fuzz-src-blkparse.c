/* hddsim fuzzing: a trace read as --format=blkparse (fuzz/src.h), with
 * requests from D events and then from Q events (merges).
 */

#include "src.h"

void
fuzz_one (const char *path)
{
  fuzz_source (path, "blkparse",
               &(struct trace_source_opts) { .blk_event = 'D' });
  fuzz_source (path, "blkparse",
               &(struct trace_source_opts) { .blk_event = 'Q' });
}
