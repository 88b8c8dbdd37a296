/* hddsim: the DiskSim loader: a DiskSim 4.0 drive specification (.parv,
 * .diskspecs) as the model's parameters.
 *
 * Two steps.  ds_drive_load reads the files (parv.h) and keeps what
 * decides one disk's timing as DiskSim defines it (drive.h): the zone
 * table with its LBN mapping (spares, slips, defects), the seek
 * function, the cache and the per-command overheads.  Every key of the
 * disk's blocks is checked (type, range, required); keys of other
 * components (statistics, buses, controllers, the driver, synthetic
 * workloads) are ignored but for what changes one disk's timing.
 * ds_drive_to_params then expresses that drive in struct hdd_params
 * (model/params.h), and refuses, naming the file, line and key, every
 * value whose timing the model cannot reproduce.
 *
 * The loader knows the model's public headers only (hdd.h, params.h,
 * probe.h), and nothing of profiles: profile/profile_disksim.c makes
 * it a profile file format.
 */
#ifndef HDDSIM_DISKSIM_H
#define HDDSIM_DISKSIM_H

#include <stddef.h>
#include <stdio.h>

struct ds_drive;
struct hdd_params;

/* NULL and err ("FILE:LINE: what is wrong") if the files do not load. */
extern struct ds_drive *ds_drive_load (const char *path, char *err,
                                       size_t errlen);
extern void ds_drive_free (struct ds_drive *);

/* Express d in *p (every field set).  On failure: -1, err holds the
 * first reason ("FILE:LINE: KEY = VALUE: why") and how many more there
 * are; if 'each' is not NULL it is called with every reason.
 */
extern int ds_drive_to_params (const struct ds_drive *d, struct hdd_params *p,
                               void (*each) (const char *why, void *),
                               void *opaque, char *err, size_t errlen);

/* Print every reason the model cannot take the drive, one a line
 * ("FILE:LINE: KEY = VALUE: why"), for a listing of what a drive
 * needs.  The number of reasons (0: it imports), or -1 if the files
 * do not load (the error printed).
 */
extern int disksim_check_file (const char *path, FILE *fp);

#endif /* HDDSIM_DISKSIM_H */
