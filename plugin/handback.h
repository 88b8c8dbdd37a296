/* hddsim: handing replies back to nbdkit safely when a connection
 * closes (see handback.c for why nbdkit 1.32 needs this).
 */
#ifndef HDDSIM_HANDBACK_H
#define HDDSIM_HANDBACK_H

#include <stdbool.h>

struct handback;                /* one per NBD connection */

/* In .get_ready and .cleanup: the per-thread state's key.  After
 * handback_fini every connection's state is freed.
 */
extern int handback_init (void);
extern void handback_fini (void);

/* In .open and .close. */
extern struct handback *handback_open (void);
extern void handback_close (struct handback *);

/* A worker thread enters the plugin with a request on connection c.
 * -1 (error reported) if out of memory.
 */
extern int handback_enter (struct handback *c);

/* Whether a worker of connection c has seen it close. */
extern bool handback_closing (struct handback *c);

/* The worker is about to return its reply to nbdkit.  'closing': it
 * has seen the client hang up or the server shut down.  On a closing
 * connection this waits for the worker's turn.
 */
extern void handback_leave (struct handback *c, bool closing);

#endif /* HDDSIM_HANDBACK_H */
