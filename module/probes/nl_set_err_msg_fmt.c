// SPDX-License-Identifier: GPL-2.0
/* 6.2+: formatted extack messages. */
#include <linux/netlink.h>

void probe(struct netlink_ext_ack *extack, int v);
void probe(struct netlink_ext_ack *extack, int v)
{
	NL_SET_ERR_MSG_FMT(extack, "value %d", v);
}
