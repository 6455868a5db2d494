// SPDX-License-Identifier: GPL-2.0
/* 6.5+: genl_info for dumps. */
#include <net/genetlink.h>

const struct genl_info *probe(struct netlink_callback *cb);
const struct genl_info *probe(struct netlink_callback *cb)
{
	return genl_info_dump(cb);
}
