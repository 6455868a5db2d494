/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's steady state (ss, ss_dur, ss_ramp, ss_interval): a job, or its
 * reporting group under group_reporting, ends once its IOPS or bandwidth,
 * taken every interval over a window of ss_dur, deviate from their mean
 * (iops, bw) or slope (iops_slope, bw_slope) less than the limit, in
 * percent of the mean or absolute. Fed by the module's wave loop
 * (engines/kernel.c) with the jobs' running totals; reported in fio's
 * "steadystate" object.
 */
#ifndef BLKLOAD_SS_H
#define BLKLOAD_SS_H

#include <stdbool.h>
#include <stdint.h>

struct out;

/* What the user asked (dur_ns 0: off). */
struct ss_opts {
	bool bw;		/* bandwidth, not IOPS */
	bool slope;		/* the slope, not the largest deviation from the mean */
	bool pct;		/* limit in percent of the mean */
	double limit;
	uint64_t dur_ns, ramp_ns, interval_ns;
};

/* One job's (or group's) check: its window and what it found. */
struct ss_state {
	struct ss_opts o;
	unsigned int n;		/* values in a full window: dur / interval */
	unsigned int have;	/* values taken (at most n kept, oldest first) */
	double *iops, *bw;	/* the window, oldest first */
	double start_t, prev_t;	/* s; prev_t 0: no reading yet */
	uint64_t prev_ios, prev_bytes;
	bool attained;
	double criterion, deviation, slope;
};

/* fio's ss=KIND:LIMIT[%] into @o: 0, or -1 with @why. */
int ss_parse(const char *s, struct ss_opts *o, const char **why);
/* Whether two jobs ask the same check (fio's rule within a reporting group). */
bool ss_opts_same(const struct ss_opts *a, const struct ss_opts *b);
/* fio's default: iops_slope:0.01%, one second an interval. */
void ss_opts_init(struct ss_opts *o);
/* Starts the check of @s at @t (s), the job's start: a window of dur / interval values. */
void ss_start(struct ss_state *s, const struct ss_opts *o, double t);
/*
 * The running totals @ios and @bytes at @t (s): a value for each interval
 * past ss_ramp; true once the window's values meet the limit.
 */
bool ss_feed(struct ss_state *s, double t, uint64_t ios, uint64_t bytes);
/* fio's "steadystate" object (JSON) or line (text). */
void ss_report(struct out *o, const struct ss_state *s, bool json);
void ss_free(struct ss_state *s);

#endif
