/* hddsim: reading DiskSim's blocks into struct ds_drive: one table of
 * keys per block type (its type, bounds, whether required, and the
 * ds_key it fills), checked by read_check_block (read.c); one reader
 * per DiskSim module (read_disk.c, read_layout.c, read_mech.c).
 */
#ifndef HDDSIM_DISKSIM_READ_H
#define HDDSIM_DISKSIM_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "drive.h"
#include "parv.h"

/* The first error, "FILE:LINE: what is wrong", into err; then the
 * readers stop.
 */
struct read_ctx {
  char *err;
  size_t errlen;
  bool failed;
};

/* Record the first error (later ones are dropped); -1. */
extern int read_fail (struct read_ctx *c, struct dsp_where at,
                      const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

/* ---- key tables ---- */

enum read_kind { K_INT, K_NUM, K_STR, K_LIST, K_BLOCK, K_IGNORE };

/* One key of a block: its kind, whether a file must give it, its
 * bounds (for K_INT and K_NUM), and the ds_key of struct ds_drive it
 * fills (KEY (field)) or NONE; a table ends with a NULL name.
 */
struct read_spec {
  const char *name;
  enum read_kind kind;
  bool required;
  double min, max;
  ptrdiff_t off;                /* offsetof a struct ds_key, or -1 */
};

#define KEY(f) offsetof (struct ds_drive, f)
#define MS 10000.0              /* no overhead or delay above 10 s */
#define FLAG 0, 1
#define NONE (-1)

/* Check every parameter of b against the table t, and that the
 * required ones are there; store those with a ds_key field in d (when
 * not NULL).
 */
extern int read_check_block (struct read_ctx *c, const struct dsp_block *b,
                             const struct read_spec *t, struct ds_drive *d);
/* The value of b's parameter 'name', or NULL. */
extern const struct dsp_value *read_val (const struct dsp_block *b,
                                         const char *name);
/* Where b sets 'name', else where b begins. */
extern struct dsp_where read_where (const struct dsp_block *b,
                                    const char *name);
/* b's block-valued parameter 'name', which must be of 'type'. */
extern const struct dsp_block *read_sub_block (struct read_ctx *c,
                                               const struct dsp_block *b,
                                               const char *name,
                                               const char *type);

/* ---- the readers ---- */

/* disksim_disk block b and its dm_disk (read_disk.c). */
extern int read_disk (struct read_ctx *c, struct ds_drive *d,
                      const struct dsp_block *b);
/* dm_layout_g1 block b of dm_disk block dm (read_layout.c). */
extern int read_layout (struct read_ctx *c, struct ds_drive *d,
                        const struct dsp_block *dm,
                        const struct dsp_block *b);
/* dm_mech_g1 block b (read_mech.c); after read_layout. */
extern int read_mech (struct read_ctx *c, struct ds_drive *d,
                      const struct dsp_block *b);

#endif /* HDDSIM_DISKSIM_READ_H */
