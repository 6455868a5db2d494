// SPDX-License-Identifier: GPL-2.0
/* 6.5 .. 6.7: blk_mode_t, holder ops, blkdev_put(bdev, holder). */
#include <linux/blkdev.h>

void probe(const char *path, void *holder);
void probe(const char *path, void *holder)
{
	struct block_device *b = blkdev_get_by_path(path, BLK_OPEN_READ, holder, NULL);

	if (!IS_ERR(b))
		blkdev_put(b, holder);
}
