// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

char *file_line(const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	if (getline(&line, &cap, f) < 0) {
		free(line);
		line = NULL;
	} else {
		line[strcspn(line, "\n")] = 0;
	}
	fclose(f);
	return line;
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

uint64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int start_at_wait(int64_t at_ns, volatile sig_atomic_t *stop)
{
	struct timespec at = { .tv_sec = at_ns / 1000000000, .tv_nsec = at_ns % 1000000000 };
	struct timespec now;
	int64_t left;

	/* A Ctrl-C while the jobs were made. */
	if (*stop)
		return 1;
	clock_gettime(CLOCK_REALTIME, &now);
	left = at_ns - ((int64_t)now.tv_sec * 1000000000 + now.tv_nsec);
	if (left < 0) {
		fprintf(stderr, "blkload: --start-at: the moment passed %.3f s ago while the jobs were made; nothing started\n",
			(double)-left / 1e9);
		return -1;
	}
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "blkload: starting in %.1f s (--start-at)\n", (double)left / 1e9);
	/* Absolute: a clock step (NTP) moves the wake-up with the clock. */
	while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL) == EINTR)
		if (*stop)
			return 1;
	return *stop ? 1 : 0;
}
