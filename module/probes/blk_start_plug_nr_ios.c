// SPDX-License-Identifier: GPL-2.0
/* 5.16+: a plug sized for the batch it will hold. */
#include <linux/blkdev.h>

void probe(void);
void probe(void)
{
	struct blk_plug plug;

	blk_start_plug_nr_ios(&plug, 32);
	blk_finish_plug(&plug);
}
