/* hddsim: how a request ended, as the driver reports it and as the
 * trace's outcome column says it.
 */
#ifndef HDDSIM_TRACE_OUTCOME_H
#define HDDSIM_TRACE_OUTCOME_H

enum req_outcome {
  OUTCOME_OK,
  OUTCOME_IO_ERROR,             /* the image I/O failed */
  OUTCOME_ABORTED,              /* server shut down or client went away */
  OUTCOME_POWERCUT,             /* failed (EIO) by a power cut (powercut=) */
  OUTCOME_MEDIUM_ERROR,         /* a read the drive could not recover
                                   (bad-sectors=; EIO) */
  OUTCOME_COUNT
};

/* The outcome column's words. */
extern const char *const trace_outcome_names[OUTCOME_COUNT];

#endif /* HDDSIM_TRACE_OUTCOME_H */
