/* hddsim: the model's geometry, asked from outside (probe.h). */

#include <stdlib.h>

#include "geometry.h"
#include "probe.h"

struct hdd_probe {
  struct geom g;
};

struct hdd_probe *
hdd_probe_new (void)
{
  return malloc (sizeof (struct hdd_probe));
}

void
hdd_probe_free (struct hdd_probe *pr)
{
  free (pr);
}

int
hdd_probe_layout (struct hdd_probe *pr, const struct hdd_params *p,
                  char *err, size_t errlen)
{
  return geom_init (&pr->g, p, err, errlen);
}

uint64_t
hdd_probe_zone_lba (const struct hdd_probe *pr, unsigned zone)
{
  return pr->g.zones[zone].first_lba;
}

void
hdd_probe_locate (const struct hdd_probe *pr, uint64_t lba,
                  struct hdd_probe_loc *out)
{
  struct loc l;

  geom_locate (&pr->g, lba, &l);
  *out = (struct hdd_probe_loc) {
    .cyl = l.cyl, .head = l.head, .sector = l.sector, .slot = l.slot,
  };
}
