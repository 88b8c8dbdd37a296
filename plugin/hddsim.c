/* hddsim: an nbdkit plugin that serves a disk image at the speed of a
 * modeled mechanical hard drive, ordering concurrent requests with its
 * own scheduler.  See nbdkit-hddsim-plugin(1) and docs/design.md.
 */

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "../profile/profile.h"
#include "config.h"
#include "debug.h"
#include "driver.h"
#include "handback.h"
#include "image.h"
#include "powercut.h"
#include "realtime.h"

NBDKIT_DLL_PUBLIC int hddsim_debug_sched = 0;
NBDKIT_DLL_PUBLIC int hddsim_debug_timing = 0;
NBDKIT_DLL_PUBLIC int hddsim_debug_powercut = 0;

#define THREAD_MODEL NBDKIT_THREAD_MODEL_PARALLEL

/* One per NBD connection: the scheduler keys queues on it. */
struct handle {
  uint32_t conn;
  struct handback *hb;          /* how its replies go back (handback.c) */
};

static atomic_uint next_conn;

static void
hddsim_unload (void)
{
  config_free ();
  powercut_free ();
}

static int
hddsim_config (const char *key, const char *value)
{
  return config_set (key, value);
}

static int
hddsim_config_complete (void)
{
  return config_finish ();
}

static int
hddsim_get_ready (void)
{
  struct driver_config dc;
  bool realtime;

  if (realtime_probe (config.realtime, &realtime) == -1
      || image_open (config.image) == -1)
    return -1;
  image_set_host_sync (config.host_sync);
  dc = (struct driver_config) {
    .hdd_params = config.setup.hdd,
    .image_bytes = (uint64_t) image_size (),
    .seed = config.setup.seed,
    .policy = config.setup.policy,
    .sched_params = &config.setup.sched,
    .spin_ns = config.spin_ns,
    .realtime = realtime,
    .trace_path = config.trace,
    .stats_path = config.stats,
    .powercut = powercut_armed (),
    .powercut_exit = config.powercut_exit,
  };
  return driver_start (&dc);
}

static int
hddsim_after_fork (void)
{
  return driver_after_fork ();
}

static void
hddsim_cleanup (void)
{
  driver_stop ();
  image_close ();
}

/* A built-in profile's value of key, or def if it sets none. */
static const char *
profile_value (const struct hdd_profile *p, const char *key, const char *def)
{
  const struct hdd_profile_value *v;

  for (v = p->values; v->key; v++)
    if (strcmp (v->key, key) == 0)
      return v->value;
  return def;
}

/* --dump-plugin output is key=value lines: hddsim_profiles=, one
 * hddsim_profile_NAME=DESCRIPTION line per built-in profile and one
 * hddsim_max_transfer_NAME=SIZE (its default, 0: unlimited), which
 * nbd-max-block=auto would advertise, and one
 * hddsim_max_transfer_real_NAME=SIZE, the drive's real command size, to
 * opt in with max-transfer=SIZE, one hddsim_ncq_depth_NAME=N, the
 * commands its drive queues (1: none), one
 * hddsim_recovery_limit_NAME=DURATION, how long its drive retries a bad
 * sector with erc=off (0: no limit given); and its year, class and
 * sources (hddsim_profile_year_NAME=, _class_NAME=, _sources_NAME=),
 * and one hddsim_spinup_NAME=DURATION, its standby-to-ready time
 * (none: the profile has none).
 */
static void
dump_profiles (void)
{
  size_t i;

  for (i = 0; hdd_profile_list[i]; i++) {
    printf ("hddsim_profile_%s=%s\n", hdd_profile_list[i]->name,
            hdd_profile_list[i]->description);
    printf ("hddsim_max_transfer_%s=%s\n", hdd_profile_list[i]->name,
            profile_value (hdd_profile_list[i], "max-transfer", "0"));
    printf ("hddsim_max_transfer_real_%s=%s\n", hdd_profile_list[i]->name,
            hdd_profile_list[i]->max_transfer_real);
    printf ("hddsim_ncq_depth_%s=%s\n", hdd_profile_list[i]->name,
            profile_value (hdd_profile_list[i], "ncq-depth", "1"));
    printf ("hddsim_recovery_limit_%s=%s\n", hdd_profile_list[i]->name,
            profile_value (hdd_profile_list[i], "recovery-limit", "0"));
    printf ("hddsim_profile_year_%s=%s\n", hdd_profile_list[i]->name,
            hdd_profile_list[i]->year);
    printf ("hddsim_profile_class_%s=%s\n", hdd_profile_list[i]->name,
            hdd_profile_list[i]->klass);
    printf ("hddsim_profile_sources_%s=%s\n", hdd_profile_list[i]->name,
            hdd_profile_list[i]->sources);
    printf ("hddsim_spinup_%s=%s\n", hdd_profile_list[i]->name,
            profile_value (hdd_profile_list[i], "spinup", "none"));
  }
  printf ("hddsim_profiles=");
  for (i = 0; hdd_profile_list[i]; i++)
    printf ("%s%s", i ? "," : "", hdd_profile_list[i]->name);
  printf ("\n");
}

static void
hddsim_dump_plugin (void)
{
  config_dump_plugin (stdout);
  dump_profiles ();
}

static void *
hddsim_open (int readonly)
{
  struct handle *h = malloc (sizeof *h);

  (void) readonly;
  if (driver_power_is_off ()) {
    nbdkit_error ("the power has been cut (powercut=): connection refused");
    free (h);
    return NULL;
  }
  if (!h) {
    nbdkit_error ("malloc: %m");
    return NULL;
  }
  h->hb = handback_open ();
  if (!h->hb) {
    free (h);
    return NULL;
  }
  h->conn = atomic_fetch_add (&next_conn, 1);
  return h;
}

static void
hddsim_close (void *handle)
{
  struct handle *h = handle;

  handback_close (h->hb);
  free (h);
}

static int64_t
hddsim_get_size (void *handle)
{
  (void) handle;
  return image_size ();
}

static int
hddsim_can_write (void *handle)
{
  (void) handle;
  return image_writable ();
}

static int
hddsim_can_true (void *handle)
{
  (void) handle;
  return 1;
}

/* What the client tells its users (Linux: queue/rotational, which
 * picks the guest's I/O scheduler defaults): a modeled drive with
 * platters is rotational; profile=fixed has no mechanics.
 */
static int
hddsim_is_rotational (void *handle)
{
  (void) handle;
  return hdd_params_rotates (config.setup.hdd);
}

/* nbd-max-block= (config.c): the NBD maximum block size, or no
 * constraints at all (nbdkit's "no information": a client then
 * assumes minimum 1, preferred 4096).
 */
static int
hddsim_block_size (void *handle, uint32_t *minimum, uint32_t *preferred,
                   uint32_t *maximum)
{
  (void) handle;
  if (config.nbd_max_block == 0) {
    *minimum = *preferred = *maximum = 0;
    return 0;
  }
  *minimum = 1;
  *preferred = 4096;
  *maximum = config.nbd_max_block;
  return 0;
}

static int
hddsim_can_fua (void *handle)
{
  (void) handle;
  return NBDKIT_FUA_NATIVE;
}

/* The real I/O of one request, run by the driver between queueing it
 * and its modeled completion.
 */
struct data_op {
  enum io_op op;
  void *buf;
  uint32_t count;
  uint64_t offset;
  bool fua;
};

static int
do_data (void *arg, uint64_t skip, uint64_t length)
{
  const struct data_op *d = arg;
  char *buf = d->buf ? (char *) d->buf + skip : NULL;
  uint32_t count = (uint32_t) length;
  uint64_t offset = d->offset + skip;

  switch (d->op) {
  case IO_READ: return image_pread (buf, count, offset);
  case IO_WRITE: return image_pwrite (buf, count, offset);
  case IO_FLUSH: return image_flush ();
  case IO_TRIM: return image_trim (count, offset);
  case IO_ZERO: return image_zero (count, offset);
  }
  return 0;
}

/* A FUA request's host durability, after its data. */
static int
do_sync (void *arg)
{
  (void) arg;
  return image_flush ();
}

static int
serve (void *handle, enum io_op op, void *buf, uint32_t count,
       uint64_t offset, uint32_t flags)
{
  const struct handle *h = handle;
  struct data_op d = {
    .op = op, .buf = buf, .count = count, .offset = offset,
    .fua = (flags & NBDKIT_FLAG_FUA) != 0,
  };
  struct io io = {
    .op = op, .fua = d.fua, .offset = offset, .length = count,
  };

  return driver_request (&io, h->conn, h->hb, do_data,
                         d.fua && op != IO_FLUSH ? do_sync : NULL, &d);
}

static int
hddsim_pread (void *handle, void *buf, uint32_t count, uint64_t offset,
              uint32_t flags)
{
  return serve (handle, IO_READ, buf, count, offset, flags);
}

static int
hddsim_pwrite (void *handle, const void *buf, uint32_t count,
               uint64_t offset, uint32_t flags)
{
  /* serve() only reads through buf for writes. */
  return serve (handle, IO_WRITE, (void *) buf, count, offset, flags);
}

static int
hddsim_flush (void *handle, uint32_t flags)
{
  return serve (handle, IO_FLUSH, NULL, 0, 0, flags);
}

static int
hddsim_trim (void *handle, uint32_t count, uint64_t offset, uint32_t flags)
{
  return serve (handle, IO_TRIM, NULL, count, offset, flags);
}

static int
hddsim_zero (void *handle, uint32_t count, uint64_t offset, uint32_t flags)
{
  return serve (handle, IO_ZERO, NULL, count, offset, flags);
}

static struct nbdkit_plugin plugin = {
  .name = "hddsim",
  .version = "0.1",
  .longname = "nbdkit modeled mechanical hard drive plugin",
  .description = "Serve an image at the speed of a modeled hard drive",
  .magic_config_key = "image",
  .unload = hddsim_unload,
  .config = hddsim_config,
  .config_complete = hddsim_config_complete,
  .get_ready = hddsim_get_ready,
  .after_fork = hddsim_after_fork,
  .cleanup = hddsim_cleanup,
  .dump_plugin = hddsim_dump_plugin,
  .open = hddsim_open,
  .close = hddsim_close,
  .get_size = hddsim_get_size,
  .can_write = hddsim_can_write,
  .can_flush = hddsim_can_true,
  .can_trim = hddsim_can_true,
  .can_zero = hddsim_can_true,
  .can_multi_conn = hddsim_can_true,
  .is_rotational = hddsim_is_rotational,
  .can_fua = hddsim_can_fua,
  .block_size = hddsim_block_size,
  .pread = hddsim_pread,
  .pwrite = hddsim_pwrite,
  .flush = hddsim_flush,
  .trim = hddsim_trim,
  .zero = hddsim_zero,
  .errno_is_preserved = 1,
};

/* Written out rather than NBDKIT_REGISTER_PLUGIN so that --help can
 * list every tunable from the layers' own tables.
 */
NBDKIT_DLL_PUBLIC struct nbdkit_plugin *plugin_init (void);

NBDKIT_DLL_PUBLIC struct nbdkit_plugin *
plugin_init (void)
{
  plugin._struct_size = sizeof plugin;
  plugin._api_version = NBDKIT_API_VERSION;
  plugin._thread_model = THREAD_MODEL;
  plugin.config_help = config_help_text ();
  return &plugin;
}
