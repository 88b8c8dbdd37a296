/* hddsim: a set of failing sectors of the image (badmap.c): bad ones
 * (a read fails after the recovery limit) and weak ones (a read
 * succeeds after retries), read from bad-sectors=FILE or drawn from
 * seed= (lse-rate=), and the sets the drive keeps as they change
 * (reallocated, pending).
 */
#ifndef HDDSIM_BADMAP_H
#define HDDSIM_BADMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Image sectors [first, first + n), 512 bytes each. */
struct bad_range {
  uint64_t first, n;
  bool weak;
};

/* Ranges sorted by first, never overlapping. */
struct badmap {
  struct bad_range *r;
  size_t n, cap;
};

/* Parse the text of a bad-sectors file (not NUL-terminated: len bytes)
 * into *m (empty on entry), naming 'name' and the line in errors.  The
 * format is found from the first line that is not a comment: a GNU
 * ddrescue mapfile's status line (a position, a status character and
 * an optional pass), or a plain line FIRST[-LAST|+COUNT] [bad|weak].
 * 0, or -1 with err set (and *m freed).
 */
extern int badmap_parse (struct badmap *m, const char *text, size_t len,
                         const char *name, char *err, size_t errlen);
/* The same from a file. */
extern int badmap_load (struct badmap *m, const char *path,
                        char *err, size_t errlen);

/* Add [first, first+n) (merged over what it overlaps: the new kind
 * wins), take it out; -1 on no memory.
 */
extern int badmap_add (struct badmap *m, uint64_t first, uint64_t n,
                       bool weak);
extern int badmap_remove (struct badmap *m, uint64_t first, uint64_t n);
/* The first range overlapping [first, first+n), or NULL. */
extern const struct bad_range *badmap_find (const struct badmap *m,
                                            uint64_t first, uint64_t n);
/* Sectors of [first, first+n) in the map. */
extern uint64_t badmap_count (const struct badmap *m, uint64_t first,
                              uint64_t n);
extern uint64_t badmap_sectors (const struct badmap *m);
extern void badmap_free (struct badmap *m);

#endif /* HDDSIM_BADMAP_H */
