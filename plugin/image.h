/* hddsim: the image file that holds the drive's data. */
#ifndef HDDSIM_IMAGE_H
#define HDDSIM_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

/* All return 0, or -1 with errno set and the error reported. */
extern int image_open (const char *path);
/* host_sync false: flush and FUA do not fdatasync the image (see the
 * host-sync= parameter).
 */
extern void image_set_host_sync (bool host_sync);
extern void image_close (void);
extern int64_t image_size (void);
extern bool image_writable (void);

extern int image_pread (void *buf, uint32_t count, uint64_t offset);
extern int image_pwrite (const void *buf, uint32_t count, uint64_t offset);
extern int image_flush (void);
/* fdatasync whatever host-sync= says (a power cut's last act). */
extern int image_sync (void);
extern int image_trim (uint32_t count, uint64_t offset);
extern int image_zero (uint32_t count, uint64_t offset);

#endif /* HDDSIM_IMAGE_H */
