/* hddsim fuzzing: a trace read as --format=fio-iolog (fuzz/src.h). */

#include "src.h"

void
fuzz_one (const char *path)
{
  fuzz_source (path, "fio-iolog",
               &(struct trace_source_opts) { .device = NULL });
}
