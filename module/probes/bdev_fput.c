// SPDX-License-Identifier: GPL-2.0
/* 6.9+: drop the exclusive claim synchronously, then the file. */
#include <linux/blkdev.h>
#include <linux/fs.h>

void probe(struct file *f);
void probe(struct file *f)
{
	bdev_fput(f);
}
