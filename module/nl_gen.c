// SPDX-License-Identifier: GPL-2.0
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/blkload.yaml */
/* YNL-GEN kernel source (scripts/nlgen.py) */

#include "nl_gen.h"

const struct nla_policy blkload_nl_policy[BLKLOAD_A_MAX + 1] = {
	[BLKLOAD_A_VERSION] = { .type = NLA_NUL_STRING, .len = 64, },
	[BLKLOAD_A_ABI_VERSION] = { .type = NLA_U32, },
	[BLKLOAD_A_KERNEL_RELEASE] = { .type = NLA_NUL_STRING, .len = 64, },
	[BLKLOAD_A_MAX_IODEPTH] = { .type = NLA_U32, },
	[BLKLOAD_A_MAX_BS] = { .type = NLA_U32, },
	[BLKLOAD_A_MAX_JOBS] = { .type = NLA_U32, },
	[BLKLOAD_A_MEM_BUDGET] = { .type = NLA_U64, },
	[BLKLOAD_A_MEM_USED] = { .type = NLA_U64, },
	[BLKLOAD_A_NR_JOBS] = { .type = NLA_U32, },
};
