/* hddsim tests: units of modeled time (ns) and size (bytes), defined
 * once for every test.
 */
#ifndef HDDSIM_TEST_UNITS_H
#define HDDSIM_TEST_UNITS_H

#include <stdint.h>

#define US UINT64_C(1000)
#define MS (1000 * US)
#define SEC (1000 * MS)
#define KiB UINT64_C(1024)
#define MiB (KiB * 1024)
#define GiB (MiB * 1024)

#endif /* HDDSIM_TEST_UNITS_H */
