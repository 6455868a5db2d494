/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BLKLOAD_UTIL_H
#define BLKLOAD_UTIL_H

#include <stddef.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct option;
/*
 * @opts (getopt_long's table, NULL-terminated) with every name that has a
 * '_' or '-' also under the other spelling, as fio users type both
 * (--ramp_time, --ramp-time). Freed with opts_free(); getopt_long keeps no
 * pointer into it once parsing is done.
 */
struct option *opts_both_spellings(const struct option *opts);
void opts_free(struct option *both, const struct option *opts);

#endif
