// SPDX-License-Identifier: GPL-2.0
/* 6.7, 6.8 (and 6.6.23+): struct bdev_handle. */
#include <linux/blkdev.h>

void probe(const char *path, void *holder);
void probe(const char *path, void *holder)
{
	struct bdev_handle *h = bdev_open_by_path(path, BLK_OPEN_READ, holder, NULL);

	if (!IS_ERR(h))
		bdev_release(h);
}
