/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BLKLOAD_UTIL_H
#define BLKLOAD_UTIL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The first line of file @path (sysfs, /proc), malloc()ed, without its newline; NULL if none. */
char *file_line(const char *path);

struct option;
/*
 * @opts (getopt_long's table, NULL-terminated) with every name that has a
 * '_' or '-' also under the other spelling, as fio users type both
 * (--ramp_time, --ramp-time). Freed with opts_free(); getopt_long keeps no
 * pointer into it once parsing is done.
 */
struct option *opts_both_spellings(const struct option *opts);
void opts_free(struct option *both, const struct option *opts);

/* The wall clock (CLOCK_REALTIME) in ms since the epoch: reports' job_start. */
uint64_t wall_ms(void);
/*
 * --start-at: sleeps until @at_ns (CLOCK_REALTIME) with everything made;
 * 0 then, 1 when *@stop was or gets set (Ctrl-C), -1 when the moment
 * passed while the jobs were made (said on stderr: hosts would not start
 * together).
 */
int start_at_wait(int64_t at_ns, volatile sig_atomic_t *stop);

#endif
