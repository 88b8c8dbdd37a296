/* hddsim: what DiskSim models of one disk (struct ds_drive), as
 * ds_drive_load (disksim.h) reads it: the layout, the seek function,
 * and every key that times the disk, each with where it was set.
 */
#ifndef HDDSIM_DISKSIM_DRIVE_H
#define HDDSIM_DISKSIM_DRIVE_H

#include <stdbool.h>

#include "disksim.h"
#include "layout_g1.h"
#include "mech_g1.h"
#include "parv.h"

struct ds_key {                 /* a value and where it was set */
  double v;
  struct dsp_where at;
  bool set;
};

struct ds_drive {
  char name[256];               /* the disksim_disk block's name */
  struct ds_layout layout;
  struct ds_seek seek;
  /* dm_mech_g1 */
  struct ds_key rpm, rpm_error, head_switch, write_settle, access_type;
  /* disksim_disk: cache and overheads (ms, blocks, flags) */
  struct ds_key bulk, per_request, overhead_scale;
  struct ds_key rhit_r, rhit_w, rmiss_r, rmiss_w, whit_r, whit_w,
    wmiss_r, wmiss_w, rcompl, wcompl;
  struct ds_key segments, seg_size, caching, cont_read, ra_min, ra_max,
    ra_over, ra_idle_hit, read_any_free, fast_write, combine;
  struct ds_key write_segs, sep_write_seg, low_wm, high_wm, wm_by_req;
  struct ds_key imm_read, imm_write, stop_pf_sector, write_hit_stop_pf,
    read_direct, imm_partial, hits_on_write, almost_hits;
  struct ds_key sneaky_full, sneaky_partial, sneaky_inter, prebuffer,
    preseek, max_queue, extra_disc, min_seek_delay;
  struct ds_key prep, resel1, resel, rdisc_r, rdisc_w, wdisc;
  struct ds_key xd_command, xd_disc1, xd_inter, xd_disc2, xd_seekdelta;
  struct ds_key never_disc, hold_read, hold_write, disc_write_seek;
  /* other components that change one disk's timing */
  struct ds_key bus_xfer, bus_read, bus_write, ctlr_xfer, ctlr_scale,
    driver_const;
  struct dsp_tree *tree;        /* the files' text: owns every dsp_where */
};

#endif /* HDDSIM_DISKSIM_DRIVE_H */
