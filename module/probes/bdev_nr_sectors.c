// SPDX-License-Identifier: GPL-2.0
/* 5.11+: device size without bd_inode. */
#include <linux/blkdev.h>

sector_t probe(struct block_device *b);
sector_t probe(struct block_device *b)
{
	return bdev_nr_sectors(b);
}
