/* hddsim fuzzing: a trace read as --format=hddsim (fuzz/src.h). */

#include "src.h"

void
fuzz_one (const char *path)
{
  fuzz_source (path, "hddsim",
               &(struct trace_source_opts) { .device = NULL });
}
