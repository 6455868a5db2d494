/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsing of user input with fio's rules: numbers are decimal (a leading
 * zero is not octal) or hexadecimal after "0x"; sizes take k/m/g/t/p (and
 * kb, mb, ...) in powers of kb_base (1024 by default) and kib/mib/... in
 * powers of the other base, as fio's compatibility mode does; times default
 * to seconds and take ns, us/usec, ms/msec, s, m, h, d. CPU lists are
 * "0-3,8". Every parser returns 0 or -EINVAL/-ERANGE and leaves *out
 * untouched on error.
 */
#ifndef BLKLOAD_PARSE_H
#define BLKLOAD_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* fio's kb_base: 1024 (default) or 1000; -EINVAL otherwise. */
int parse_set_kb_base(unsigned int base);
int parse_u64(const char *s, uint64_t *out);
int parse_u32_range(const char *s, uint32_t min, uint32_t max, uint32_t *out);
int parse_size(const char *s, uint64_t *out);
int parse_time_ns(const char *s, uint64_t *out);
/*
 * A wall-clock moment (CLOCK_REALTIME, ns since the epoch): "@SECONDS[.FRAC]",
 * "YYYY-MM-DD[T ]HH:MM[:SS[.FRAC]]" in local time or with "Z"/"+HH:MM", or
 * "HH:MM[:SS[.FRAC]]" today (local time, as the day is at @now_ns).
 */
int parse_wallclock(const char *s, int64_t now_ns, int64_t *out);

/* A set of CPU numbers as a growable bitmap. */
struct cpuset {
	uint64_t *bits;
	size_t nwords;
};

int parse_cpulist(const char *s, struct cpuset *set);
bool cpuset_test(const struct cpuset *set, unsigned int cpu);
void cpuset_set(struct cpuset *set, unsigned int cpu);
void cpuset_clear(struct cpuset *set, unsigned int cpu);
unsigned int cpuset_count(const struct cpuset *set);
/* Highest CPU in the set plus one, 0 when empty. */
unsigned int cpuset_limit(const struct cpuset *set);
void cpuset_free(struct cpuset *set);
/* "0-3,8" back from a set; malloc()ed. */
char *cpuset_format(const struct cpuset *set);

#endif
