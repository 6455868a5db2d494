// SPDX-License-Identifier: GPL-2.0
/*
 * clockcount: an LD_PRELOAD shim that counts clock_gettime() calls of a
 * process (all its threads) and prints the count to stderr at exit, as
 * "clockcount: N". scripts/engine-costs.sh uses it to compare how often fio
 * and blkload's userspace engines read the clock per IO (fio with
 * --clocksource=clock_gettime, so that its reads go through libc too).
 *
 *   cc -O2 -shared -fPIC -o clockcount.so clockcount.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

static unsigned long long calls;
static int (*real_clock_gettime)(clockid_t, struct timespec *);

int clock_gettime(clockid_t id, struct timespec *ts)
{
	if (!real_clock_gettime)
		real_clock_gettime = (int (*)(clockid_t, struct timespec *))
			dlsym(RTLD_NEXT, "clock_gettime");
	__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
	return real_clock_gettime(id, ts);
}

__attribute__((destructor)) static void clockcount_report(void)
{
	fprintf(stderr, "clockcount: %llu\n", __atomic_load_n(&calls, __ATOMIC_RELAXED));
}
