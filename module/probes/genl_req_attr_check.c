// SPDX-License-Identifier: GPL-2.0
/* 6.0+: missing-attribute check that fills the extack. */
#include <net/genetlink.h>

bool probe(struct genl_info *info);
bool probe(struct genl_info *info)
{
	return GENL_REQ_ATTR_CHECK(info, 1);
}
