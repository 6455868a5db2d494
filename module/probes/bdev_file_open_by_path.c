// SPDX-License-Identifier: GPL-2.0
/* 6.9+: block devices are opened as files. */
#include <linux/blkdev.h>
#include <linux/fs.h>

void probe(const char *path, void *holder);
void probe(const char *path, void *holder)
{
	struct file *f = bdev_file_open_by_path(path, BLK_OPEN_READ, holder, NULL);

	if (!IS_ERR(f))
		(void)file_bdev(f);
}
