// SPDX-License-Identifier: GPL-2.0
/* <= 6.4: fmode_t, FMODE_EXCL with a holder, blkdev_put(bdev, mode). */
#include <linux/blkdev.h>
#include <linux/fs.h>

void probe(const char *path, void *holder);
void probe(const char *path, void *holder)
{
	fmode_t mode = FMODE_READ | FMODE_EXCL;
	struct block_device *b = blkdev_get_by_path(path, mode, holder);

	if (!IS_ERR(b))
		blkdev_put(b, mode);
}
