// SPDX-License-Identifier: GPL-2.0
/* 6.0+: the typed bio operation and flags word. */
#include <linux/blk_types.h>

blk_opf_t probe(void);
blk_opf_t probe(void)
{
	return REQ_OP_WRITE;
}
