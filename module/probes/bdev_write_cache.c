// SPDX-License-Identifier: GPL-2.0
/* ~6.0+: a device's volatile write cache through bdev_write_cache(). */
#include <linux/blkdev.h>

bool probe(struct block_device *b);
bool probe(struct block_device *b)
{
	return bdev_write_cache(b);
}
