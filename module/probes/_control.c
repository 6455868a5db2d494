// SPDX-License-Identifier: GPL-2.0
/*
 * Control probe: uses only what every supported kernel has, and carries a
 * warning unrelated to any API (an unused variable). It must compile: a
 * probe may only fail on the API it tests, never on a warning.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>

void probe(struct blk_plug *plug);
void probe(struct blk_plug *plug)
{
	int unrelated;

	blk_start_plug(plug);
	blk_finish_plug(plug);
}
