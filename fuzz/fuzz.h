/* hddsim: afl++ harnesses, one per input format (docs/fuzzing.md).
 *
 * A harness is one file, fuzz/fuzz-NAME.c, that defines fuzz_one();
 * its seeds are the files in fuzz/corpus/NAME/.  The Makefile finds
 * both by name: a new input format is that file and that folder.
 *
 * fuzz_one parses the file at 'path' as its format, uses what parsed
 * the way the plugin or hddsim-replay would, and frees everything (it
 * runs thousands of times in one process).  Rejecting an input with a
 * message is the parser doing its job; a crash, a sanitizer report or
 * a failed fuzz_assert is a finding.
 */
#ifndef HDDSIM_FUZZ_H
#define HDDSIM_FUZZ_H

#include <stdint.h>

#include "../model/hdd.h"
#include "../sched/setup.h"

extern void fuzz_one (const char *path);

/* An invariant every accepted input must keep: abort with a message
 * (afl++ saves the input as a crash).
 */
#define fuzz_assert(cond, ...) \
  ((cond) ? (void) 0 : fuzz_fail (__FILE__, __LINE__, __VA_ARGS__))
extern void fuzz_fail (const char *file, int line, const char *fmt, ...)
  __attribute__ ((noreturn, format (printf, 3, 4)));

/* The smallest image: every profile can hold it (capacity= is at
 * least 1 MiB).
 */
#define FUZZ_IMAGE_BYTES (UINT64_C(1) << 20)

/* Serve a fixed handful of requests on a drive built from p and check
 * what hdd.h promises of each: the parts add up to the service time,
 * the estimate equals the service, no request takes more than an
 * hour.  A profile the model refuses (hdd_new fails) is fine.
 */
extern void fuzz_drive (const struct hdd_params *p, uint64_t seed);

/* The same requests through the engine with s's policy and tunables. */
extern void fuzz_engine (const struct setup *s);

/* An engine on profile=fixed service=1ms (a drive of the smallest
 * image), for the trace harnesses: the drive has harnesses of its own,
 * and a mechanical one costs a seek-curve fit per input.
 */
struct engine;
struct fuzz_fixed {
  struct setup setup;
  struct hdd *hdd;
  struct engine *engine;
};
extern void fuzz_fixed_open (struct fuzz_fixed *);
extern void fuzz_fixed_close (struct fuzz_fixed *);

#endif /* HDDSIM_FUZZ_H */
