/* hddsim tests: a mechanism whose times are worked out by hand: two
 * surfaces of ten cylinders, 100-sector tracks with no skew, 6000 rpm
 * (a 10 ms revolution, 0.1 ms a sector), a 0.2 ms head switch, the
 * platter at angle 0 at time 0, and no seek curve (the tests stay on
 * one cylinder).  Include after test-model-util.h.
 */
#ifndef HDDSIM_TEST_HAND_MECH_H
#define HDDSIM_TEST_HAND_MECH_H

static struct hdd_params *hand_params;
static struct geom hand_geom;
static const struct seek_curve hand_no_seek = { .rule = POSITION_HDDSIM };

static struct mech
hand_mech (void)
{
  char err[HDD_ERRLEN];

  hdd_params_free (hand_params);
  hand_params = hdd_params_new ();
  ck_assert_ptr_nonnull (hand_params);
  ck_assert_int_eq (hdd_params_set (hand_params, "surfaces", "2", err,
                                    sizeof err), 0);
  ck_assert_msg (hdd_params_set (hand_params, "zone-table", "0-9:100", err,
                                 sizeof err) == 0, "%s", err);
  ck_assert_int_eq (hdd_params_set (hand_params, "rpm", "6000", err,
                                    sizeof err), 0);
  hand_params->capacity = 2000 * SECTOR;
  ck_assert_msg (geom_init (&hand_geom, hand_params, err, sizeof err) == 0,
                 "%s", err);
  return (struct mech) { .g = &hand_geom, .seek = &hand_no_seek,
                         .head_switch = 200 * US };
}

#endif /* HDDSIM_TEST_HAND_MECH_H */
