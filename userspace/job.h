/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Jobs as the CLI sees them: parsed from the kernel's job-get replies,
 * summed, and reported as text or JSON.
 */
#ifndef BLKLOAD_JOB_H
#define BLKLOAD_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include <blkload/hist.h>

#include "nl.h"
#include "out.h"

enum { OP_READ, OP_WRITE, NR_OPS };

struct op_stats {
	uint64_t ios, bytes, errors, lat_min, lat_max, lat_sum, lat_sum_hi;
	uint64_t *hist;		/* BL_HIST_NR buckets, or NULL */
};

struct queue_stats {
	uint32_t cpu;
	uint64_t cpu_time, inflight, stall_max;
	struct op_stats op[NR_OPS];
};

struct job {
	uint32_t id;
	char *path;
	uint32_t rw, rwmixread, bs, iodepth, batch, state, reason, dev_lbs, owner, coe;
	int32_t error;
	uint64_t offset, size, runtime, ramp, number_ios, randseed, dev_size, mem_pinned;
	bool no_lat;
	bool deleted;		/* freed by the module once its IO drains */
	char *cpus;		/* "0-3" */
	unsigned int nr_cpus;
	/* statistics */
	uint64_t elapsed, cpu_time, inflight, stall_max;
	bool ramp_done;
	struct op_stats op[NR_OPS];
	struct queue_stats *queues;
	unsigned int nr_queues;
};

/* Fills @j from a job-get reply; returns 0 or -1 when required parts are missing. */
int job_parse(struct nlattr **tb, struct job *j);
void job_clear(struct job *j);
/* Adds @b's statistics to @a (histograms bucket by bucket). */
void job_sum(struct job *a, const struct job *b);

const char *rw_name(uint32_t rw);
int rw_parse(const char *s, uint32_t *rw);
const char *state_name(uint32_t s);
const char *reason_name(uint32_t r);

struct report_opts {
	double *percentiles;
	unsigned int nr_percentiles;
	bool bins;		/* json+: every non-empty histogram bucket */
	bool queues;		/* per-CPU rows */
};

/* One job's (or the sum's) report object, text or JSON. */
void report_job(struct out *o, const char *key, const struct job *j, const char *name,
		const struct report_opts *ro);

#endif
