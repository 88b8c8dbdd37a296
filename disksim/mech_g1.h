/* hddsim: DiskSim's seek functions (dm_mech_g1's seek types,
 * mech_g1.c), read by read_mech.c.
 */
#ifndef HDDSIM_DISKSIM_MECH_G1_H
#define HDDSIM_DISKSIM_MECH_G1_H

#include <stddef.h>
#include <stdint.h>

#include "parv.h"

enum ds_seek_type {
  DS_SEEK_CONSTANT, DS_SEEK_LINEAR, DS_SEEK_CURVE, DS_SEEK_HPL,
  DS_SEEK_HPLPLUS10, DS_SEEK_EXTRACTED,
};

struct ds_seek {
  int type;                     /* enum ds_seek_type */
  double constant, one, avg, full;      /* ms */
  double hpl[6];                /* V1 (cylinders), V2..V6 (ms) */
  double first10[10];           /* ms, distances 1..10 */
  size_t n;                     /* extracted curve */
  uint64_t *dist;
  double *ms;
  uint64_t cylinders;           /* for the curve (Lee) equation */
  struct dsp_where at;          /* 'Seek type' */
};

/* DiskSim's seek time for a distance in cylinders, in ms, without the
 * head switch and write settle that dm_seek_time adds.
 */
extern double ds_seek_ms (const struct ds_seek *, uint64_t dist);

/* Read an extracted seek curve ("Seek distances measured: N", then N
 * lines "DIST, TIME_MS[, STDEV]").
 */
extern int ds_seek_read_curve (struct ds_seek *, const char *path,
                               char *err, size_t errlen);

#endif /* HDDSIM_DISKSIM_MECH_G1_H */
