/* hddsim fuzzing: a trace whose format is detected (fuzz/src.h): the
 * format detection picks one that reads the file, or says why not.
 */

#include "src.h"

void
fuzz_one (const char *path)
{
  fuzz_source (path, NULL,
               &(struct trace_source_opts) { .blk_event = 'D' });
}
