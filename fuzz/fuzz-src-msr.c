/* hddsim fuzzing: a trace read as --format=msr (fuzz/src.h). */

#include "src.h"

void
fuzz_one (const char *path)
{
  fuzz_source (path, "msr",
               &(struct trace_source_opts) { .device = NULL });
}
