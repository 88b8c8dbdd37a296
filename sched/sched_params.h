/* hddsim: scheduler tunables, with Linux's defaults where they exist. */
#ifndef HDDSIM_SCHED_PARAMS_H
#define HDDSIM_SCHED_PARAMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sched_params {
  uint64_t qdepth;              /* requests a policy may see at once */

  uint64_t cfq_slice_sync;      /* ns */
  uint64_t cfq_slice_async;
  uint64_t cfq_slice_async_rq;
  uint64_t cfq_slice_idle;
  uint64_t cfq_quantum;
  uint64_t cfq_fifo_expire_sync;
  uint64_t cfq_fifo_expire_async;
  uint64_t cfq_back_seek_max;   /* bytes */
  uint64_t cfq_back_seek_penalty;

  uint64_t deadline_read_expire;
  uint64_t deadline_write_expire;
  uint64_t deadline_fifo_batch;
  uint64_t deadline_writes_starved;

  uint64_t satf_max_wait;
};

extern void sched_params_init (struct sched_params *);
/* 0 ok; -1 bad value (err filled); 1 unknown key. */
extern int sched_params_set (struct sched_params *, const char *key,
                             const char *value, char *err, size_t errlen);
extern void sched_params_print_help (FILE *fp);
extern void sched_params_print_values (const struct sched_params *, FILE *fp);

#endif /* HDDSIM_SCHED_PARAMS_H */
