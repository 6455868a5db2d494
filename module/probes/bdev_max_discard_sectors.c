// SPDX-License-Identifier: GPL-2.0
/* 5.19+: discard support is bdev_max_discard_sectors(), not QUEUE_FLAG_DISCARD. */
#include <linux/blkdev.h>

unsigned int probe(struct block_device *b);
unsigned int probe(struct block_device *b)
{
	return bdev_max_discard_sectors(b);
}
