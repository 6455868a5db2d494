// SPDX-License-Identifier: GPL-2.0
/* 6.6+: per-socket private data for a genetlink family. */
#include <net/genetlink.h>

static struct genl_family fam = {
	.sock_priv_size = 8,
};

void *probe(void);
void *probe(void)
{
	return &fam;
}
