/* hddsim fuzzing: a trace read as --format=disksim-ascii (fuzz/src.h). */

#include "src.h"

void
fuzz_one (const char *path)
{
  fuzz_source (path, "disksim-ascii",
               &(struct trace_source_opts) { .device = NULL });
}
