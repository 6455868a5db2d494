// SPDX-License-Identifier: GPL-2.0
/*
 * blkload: the generic netlink family.
 *
 * The ops table is written by hand so that it builds on kernels without
 * genl_split_ops (6.1); the policy comes from the spec (nl_gen.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/utsname.h>
#include <net/genetlink.h>

#include "blkload.h"
#include "compat.h"
#include "nl_gen.h"

static struct genl_family blkload_nl_family;

static int blkload_nl_info_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	hdr = genlmsg_put_reply(msg, info, &blkload_nl_family, 0, info->genlhdr->cmd);
	if (!hdr)
		goto err_free_msg;

	if (nla_put_string(msg, BLKLOAD_A_VERSION, BLKLOAD_VERSION) ||
	    nla_put_u32(msg, BLKLOAD_A_ABI_VERSION, BLKLOAD_ABI_VERSION) ||
	    nla_put_string(msg, BLKLOAD_A_KERNEL_RELEASE, utsname()->release) ||
	    nla_put_u32(msg, BLKLOAD_A_MAX_IODEPTH, READ_ONCE(blkload_max_iodepth)) ||
	    nla_put_u32(msg, BLKLOAD_A_MAX_BS, BLKLOAD_BS_MAX) ||
	    nla_put_u32(msg, BLKLOAD_A_MAX_JOBS, READ_ONCE(blkload_max_jobs)) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_MEM_BUDGET, blkload_mem_budget(), 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_MEM_USED, blkload_mem_used(), 0) ||
	    nla_put_u32(msg, BLKLOAD_A_NR_JOBS, blkload_nr_jobs()))
		goto err_cancel;

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_cancel:
	genlmsg_cancel(msg, hdr);
err_free_msg:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static const struct genl_small_ops blkload_nl_ops[] = {
	{
		/* Reading what the module is and allows needs no privilege. */
		.cmd	= BLKLOAD_CMD_INFO_GET,
		.doit	= blkload_nl_info_get_doit,
	},
};

static const struct genl_multicast_group blkload_nl_mcgrps[] = {
	{ .name = BLKLOAD_MCGRP_EVENTS, },
};

static struct genl_family blkload_nl_family __ro_after_init = {
	.name		= BLKLOAD_FAMILY_NAME,
	.version	= BLKLOAD_FAMILY_VERSION,
	.maxattr	= BLKLOAD_A_MAX,
	.policy		= blkload_nl_policy,
	.netnsok	= false,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.small_ops	= blkload_nl_ops,
	.n_small_ops	= ARRAY_SIZE(blkload_nl_ops),
	.mcgrps		= blkload_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(blkload_nl_mcgrps),
};

int __init blkload_nl_init(void)
{
	return genl_register_family(&blkload_nl_family);
}

void blkload_nl_exit(void)
{
	genl_unregister_family(&blkload_nl_family);
}
