// SPDX-License-Identifier: GPL-2.0
/* 6.2+: a family's pre_doit and post_doit take the split op, not a genl_ops. */
#include <net/genetlink.h>

static int probe_pre(const struct genl_split_ops *ops, struct sk_buff *skb,
		     struct genl_info *info)
{
	return 0;
}

static struct genl_family probe_family = {
	.pre_doit	= probe_pre,
};

struct genl_family *probe(void);
struct genl_family *probe(void)
{
	return &probe_family;
}
