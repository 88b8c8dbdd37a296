/* hddsim: the plugin's parameters. */
#ifndef HDDSIM_CONFIG_H
#define HDDSIM_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../sched/setup.h"

struct config {
  char *image;
  uint64_t spin_ns;
  int realtime;                 /* enum realtime_mode */
  bool host_sync;               /* fdatasync the image on flush and FUA */
  char *trace;
  char *stats;
  char *powercut;               /* powercut=, parsed by powercut.c */
  bool powercut_exit;
  struct setup setup;           /* drive, policy and their tunables */
};

extern struct config config;

extern int config_set (const char *key, const char *value);
extern int config_finish (void);
extern void config_free (void);
/* The text of --help, built once from the layers' tables. */
extern const char *config_help_text (void);
/* --dump-plugin's lines: the policies and every default, from the
 * same tables.
 */
extern void config_dump_plugin (FILE *fp);

#endif /* HDDSIM_CONFIG_H */
