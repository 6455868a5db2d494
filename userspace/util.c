// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void oom(void)
{
	fputs("blkload: out of memory\n", stderr);
	exit(1);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	return s;
}
