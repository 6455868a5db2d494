// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
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

static bool has_name(const struct option *o, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(o[i].name, name))
			return true;
	return false;
}

struct option *opts_both_spellings(const struct option *opts)
{
	size_t n = 0, k;
	struct option *out;

	while (opts[n].name)
		n++;
	out = xcalloc(2 * n + 1, sizeof(*out));
	memcpy(out, opts, n * sizeof(*out));
	k = n;
	for (size_t i = 0; i < n; i++) {
		char *twin = xstrdup(opts[i].name);
		bool changed = false;

		for (char *c = twin; *c; c++) {
			if (*c == '_' || *c == '-') {
				*c = *c == '_' ? '-' : '_';
				changed = true;
			}
		}
		if (!changed || has_name(out, k, twin)) {
			free(twin);
			continue;
		}
		out[k] = opts[i];
		out[k++].name = twin;
	}
	return out;
}

void opts_free(struct option *both, const struct option *opts)
{
	size_t n = 0;

	if (!both)
		return;
	while (opts[n].name)
		n++;
	for (size_t k = n; both[k].name; k++)
		free((char *)both[k].name);
	free(both);
}
