/* hddsim tests: start and stop nbdkit with the built plugin. */
#ifndef HDDSIM_TEST_SERVER_H
#define HDDSIM_TEST_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct libnbd_handle;
struct nbd_handle;

struct server {
  pid_t pid;
  char dir[64];                 /* temporary directory for files below */
  char sock[128];
  char pidfile[128];
  char image[128];
  char trace[128];
  char stats[128];
};

/* A fresh temporary directory with an image of 'image_bytes' (each
 * 4K block filled with a pattern derived from its offset).
 */
extern void server_prepare (struct server *s, uint64_t image_bytes);

/* Start nbdkit -f -U sock with hddsim, image= and trace= and stats= in
 * the temporary directory, plus 'params' (NULL-terminated).  Waits
 * until it listens; aborts the test on failure.
 */
extern void server_start (struct server *s, const char *const *params);

extern struct nbd_handle *server_connect (const struct server *s);

/* SIGTERM and wait; returns the seconds it took to exit, and the
 * exit status in *status.
 */
extern double server_stop (struct server *s, int *status);

/* Remove the temporary directory. */
extern void server_cleanup (struct server *s);

/* Run nbdkit with params to completion (it must fail at start-up);
 * returns its exit status and stderr (malloc'd) in *err.
 */
extern int run_nbdkit (const char *const *params, char **err);

/* The byte at 'offset' of a freshly prepared image. */
extern uint8_t pattern_byte (uint64_t offset);

/* Time since an arbitrary point, in seconds (CLOCK_MONOTONIC). */
extern double now_seconds (void);

#endif /* HDDSIM_TEST_SERVER_H */
