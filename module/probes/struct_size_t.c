// SPDX-License-Identifier: GPL-2.0
/* 6.5+ (backported to Debian's 6.1.1xx): struct_size() of a type, not an object. */
#include <linux/kernel.h>
#include <linux/overflow.h>

size_t probe(unsigned int n);

struct probe_flex {
	int n;
	long v[];
};

size_t probe(unsigned int n)
{
	return struct_size_t(struct probe_flex, v, n);
}
