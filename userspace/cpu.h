/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole-client CPU over a measured window: every CPU's busy time from
 * /proc/stat (krbd works in kworkers and softirq, librbd in its own
 * threads), minus the processes named to be left out (the Ceph daemons when
 * they run on the same host), with the run's own process time (all its
 * threads) beside it. The busy total is the window times the online CPUs
 * minus their idle and iowait time, which a tickless kernel accounts
 * exactly; the user/system/irq/softirq split is the tick's sampling, which
 * misses short bursts of work between idle periods (a completion here, a
 * wakeup there), so it may add up to less.
 */
#ifndef BLKLOAD_CPU_H
#define BLKLOAD_CPU_H

#include <stdint.h>

#include "out.h"

enum { CPU_USER, CPU_NICE, CPU_SYSTEM, CPU_IRQ, CPU_SOFTIRQ, CPU_NR };

/* Processes left out, by command name (/proc/PID/comm). */
struct cpu_exclude {
	char **names;
	unsigned int nr;
	/* Per process seen at the first sample: pid and its time then (ns). */
	struct cpu_proc {
		int pid;
		uint64_t ns;
		int seen;
	} *procs;
	unsigned int nr_procs;
};

struct cpu_sample {
	uint64_t t_ns;			/* CLOCK_MONOTONIC */
	uint64_t busy[CPU_NR];		/* ns, all CPUs, sampled at ticks */
	uint64_t idle;			/* ns, all CPUs, idle and iowait (exact with NO_HZ) */
	unsigned int ncpus;		/* online CPUs */
	uint64_t excluded;		/* ns of the left-out processes since the first sample */
	uint64_t own;			/* ns of this process, all threads */
};

/* A measured window: its first and last samples. */
struct cpu_window {
	struct cpu_exclude ex;
	struct cpu_sample a, b;
	int started, ended;
};

/*
 * "ceph-osd,ceph-mon" into @ex; NULL or "auto": the Ceph daemons;
 * "none": nothing. Returns 0 or -1.
 */
int cpu_exclude_parse(struct cpu_exclude *ex, const char *list);
void cpu_exclude_free(struct cpu_exclude *ex);

/* Takes a sample from @proc (normally "/proc"); the first one starts the window. */
int cpu_sample_take(const char *proc, struct cpu_exclude *ex, struct cpu_sample *s, int first);

/* Starts and ends a window (idempotent); from /proc. */
void cpu_window_start(struct cpu_window *cw);
void cpu_window_end(struct cpu_window *cw);

/* The window's figures for @ios IOs, as an object "client_cpu". */
void cpu_report(struct out *o, const struct cpu_sample *a, const struct cpu_sample *b,
		uint64_t ios, const struct cpu_exclude *ex);

#endif
