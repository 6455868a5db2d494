// SPDX-License-Identifier: GPL-2.0
/* 6.7+ (backported to Debian's 6.1.1xx): joining a multicast group needs a capability. */
#include <net/genetlink.h>

static const struct genl_multicast_group probe_grps[] = {
	{ .name = "probe", .flags = GENL_MCAST_CAP_SYS_ADMIN, },
};

const struct genl_multicast_group *probe(void);
const struct genl_multicast_group *probe(void)
{
	return probe_grps;
}
