/* hddsim: scheduler tunables, with Linux's defaults where they exist. */

#include <stddef.h>
#include <stdint.h>

#include "../common/param.h"
#include "sched_params.h"

#define MS UINT64_C(1000000)
#define HOUR (UINT64_C(3600) * 1000 * MS)
#define FIELD(f) offsetof (struct sched_params, f)

static const struct param_desc sched_param_table[] = {
  { "qdepth", PARAM_UINT, FIELD(qdepth), 1, 65536, NULL,
    "requests a policy may look at, like NCQ's depth (default 32)" },
  { "cfq-slice-sync", PARAM_DURATION, FIELD(cfq_slice_sync), 1, HOUR, NULL,
    "cfq: time slice of a sync queue (default 100ms)" },
  { "cfq-slice-async", PARAM_DURATION, FIELD(cfq_slice_async), 1, HOUR, NULL,
    "cfq: time slice of an async queue (default 40ms)" },
  { "cfq-slice-async-rq", PARAM_UINT, FIELD(cfq_slice_async_rq), 1, 1024, NULL,
    "cfq: async dispatches per quantum (default 2)" },
  { "cfq-slice-idle", PARAM_DURATION, FIELD(cfq_slice_idle), 0, HOUR, NULL,
    "cfq: idle window for the active sync queue (default 8ms, 0 = off)" },
  { "cfq-quantum", PARAM_UINT, FIELD(cfq_quantum), 1, 1024, NULL,
    "cfq: dispatch quantum (default 8)" },
  { "cfq-fifo-expire-sync", PARAM_DURATION, FIELD(cfq_fifo_expire_sync),
    1, HOUR, NULL, "cfq: sync request expiry (default 125ms)" },
  { "cfq-fifo-expire-async", PARAM_DURATION, FIELD(cfq_fifo_expire_async),
    1, HOUR, NULL, "cfq: async request expiry (default 250ms)" },
  { "cfq-back-seek-max", PARAM_SIZE, FIELD(cfq_back_seek_max),
    0, UINT64_MAX, NULL, "cfq: longest backward seek allowed (default 16M)" },
  { "cfq-back-seek-penalty", PARAM_UINT, FIELD(cfq_back_seek_penalty),
    1, 1024, NULL, "cfq: cost factor of a backward seek (default 2)" },
  { "deadline-read-expire", PARAM_DURATION, FIELD(deadline_read_expire),
    1, HOUR, NULL, "deadline: read expiry (default 500ms)" },
  { "deadline-write-expire", PARAM_DURATION, FIELD(deadline_write_expire),
    1, HOUR, NULL, "deadline: write expiry (default 5s)" },
  { "deadline-fifo-batch", PARAM_UINT, FIELD(deadline_fifo_batch),
    1, 65536, NULL, "deadline: requests per sorted batch (default 16)" },
  { "deadline-writes-starved", PARAM_UINT, FIELD(deadline_writes_starved),
    0, 1024, NULL, "deadline: read batches before writes must go (default 2)" },
  { "satf-max-wait", PARAM_DURATION, FIELD(satf_max_wait), 1, HOUR, NULL,
    "satf: age after which a request is served first (default 500ms)" },
  { NULL },
};

void
sched_params_init (struct sched_params *p)
{
  *p = (struct sched_params) {
    .qdepth = 32,
    .cfq_slice_sync = 100 * MS,
    .cfq_slice_async = 40 * MS,
    .cfq_slice_async_rq = 2,
    .cfq_slice_idle = 8 * MS,
    .cfq_quantum = 8,
    .cfq_fifo_expire_sync = 125 * MS,
    .cfq_fifo_expire_async = 250 * MS,
    .cfq_back_seek_max = 16 * 1024 * 1024,
    .cfq_back_seek_penalty = 2,
    .deadline_read_expire = 500 * MS,
    .deadline_write_expire = 5000 * MS,
    .deadline_fifo_batch = 16,
    .deadline_writes_starved = 2,
    .satf_max_wait = 500 * MS,
  };
}

int
sched_params_set (struct sched_params *p, const char *key,
                  const char *value, char *err, size_t errlen)
{
  return param_set (sched_param_table, p, key, value, err, errlen);
}

void
sched_params_print_help (FILE *fp)
{
  param_print_help (sched_param_table, fp);
}

void
sched_params_print_values (const struct sched_params *p, FILE *fp)
{
  param_print_values (sched_param_table, p, "", fp);
}
