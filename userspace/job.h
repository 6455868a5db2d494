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
#include <blkload/lat.h>
#include <blkload/params.h>

#include "nl.h"
#include "out.h"
#include "series.h"
#include "ss.h"

/* As the module's stats and the shared generator (BL_GEN_*) number them. */
enum { OP_READ, OP_WRITE, OP_TRIM, NR_OPS };

/*
 * One operation's counts and latencies (fio's names: slat until the submit
 * call returned, clat from there to the completion, lat the two together).
 * A latency's min is meaningful only when ios is not 0.
 */
struct op_stats {
	uint64_t ios, bytes, errors;
	struct bl_lat lat, clat, slat;
	bool split;		/* slat and clat are known (not from an older module) */
	/* The module's device-side latency (submit to bi_end_io), not fio's; N: ios. */
	struct bl_lat devlat;
	bool has_devlat;
	uint64_t *hist;		/* of lat: BL_HIST_NR buckets, or NULL */
	uint64_t *chist;	/* of clat, or NULL */
	/* A rate-limited job: from each IO's scheduled time to its completion. */
	bool has_sched;
	struct bl_lat sched;
	uint64_t sched_n;	/* its IOs: a sum may mix jobs with and without a rate */
	uint64_t *shist;
};

struct queue_stats {
	uint32_t cpu;
	uint64_t cpu_time, inflight, stall_max, ctx;
	uint64_t depth_ns[BL_DEPTH_NR];
	struct op_stats op[NR_OPS];
};

struct job {
	uint32_t id;
	char *path;
	/* The workload as the module took it (job-get: BL_PARAMS_ATTRS, params.h). */
	struct bl_params p;
	uint32_t state, reason, dev_lbs, owner;
	char *bssplit;			/* fio's bssplit form of the module's split, or NULL */
	/* verify: what its checks found (verify-stats) */
	bool has_verify;
	uint64_t vchecked, vskipped, verrors, vreadback;
	unsigned int nvrep;
	struct { uint64_t off, want, got; uint32_t what; } vrep[16];
	int32_t error;
	uint64_t dev_size, mem_pinned;
	bool deleted;		/* freed by the module once its IO drains */
	char *cpus;		/* "0-3" */
	unsigned int nr_cpus;
	/* statistics */
	uint64_t elapsed, cpu_time, inflight, stall_max;
	uint64_t runtime_sum;		/* group_reporting: its jobs' times added up (fio's job_runtime) */
	uint64_t start_ms;		/* wall clock (ms since the epoch) when it was started */
	uint64_t depth_ns[BL_DEPTH_NR];	/* time at each IO depth level, all queues */
	uint64_t usr_ns;		/* userspace engines: the user part of cpu_time */
	uint64_t ctx;			/* context switches of the workers or engine threads */
	bool ramp_done;
	struct op_stats op[NR_OPS];
	struct queue_stats *queues;
	unsigned int nr_queues;
	uint32_t queues_next;	/* more rows from this one (job-get queue-first), or 0 */
	struct series ser;		/* its samples, kept apart from the job-get replies */
	/* for reports */
	uint32_t groupid;		/* fio's: jobs between stonewalls */
	uint32_t wave;			/* jobs of one wave ran together, waves one by one */
	unsigned int nr_jobs;		/* a sum: how many jobs it sums */
	const struct optlist *opts;	/* fio's "job options", not owned */
	const char *name;		/* fio's jobname (--name, a job file's section), not owned */
	bool group_reporting;		/* fio's: its group is reported as one sum */
	const struct series_logs *logs;	/* fio's write_*_log of its workload, not owned */
	const struct ss_state *ss;	/* fio's steady state of its job or group, not owned */
};

/* Options as the user gave them (fio's "job options"), in order; val NULL: a flag. */
struct optlist {
	char **key, **val;
	unsigned int nr;
};

void optlist_set(struct optlist *l, const char *key, const char *val);
void optlist_free(struct optlist *l);

/* A block device's counters over a run (/sys/class/block/NAME/stat), as fio's disk_util. */
struct disk_util {
	char *name;
	uint64_t ios[2], merges[2], sectors[2], ticks[2], in_queue, io_ticks;
	double util;		/* % of the wall time with IO in flight */
};

/* Fills @j from a job-get reply; returns 0 or -1 when required parts are missing. */
int job_parse(struct nlattr **tb, struct job *j);
void job_clear(struct job *j);
/* Adds @b's statistics to @a (histograms bucket by bucket). */
void job_sum(struct job *a, const struct job *b);
/* Adds @b's counts and latencies to @a. */
void op_sum(struct op_stats *a, const struct op_stats *b);
void op_clear(struct op_stats *op);
/* IOs done (without error), errors, bytes: every operation together. */
uint64_t job_ios(const struct job *j);
uint64_t job_errors(const struct job *j);
uint64_t job_bytes(const struct job *j);
/* Whether the job (not a sum) has @op in its workload. */
bool job_has_op(const struct job *j, int op);

const char *rw_name(uint32_t rw);
int rw_parse(const char *s, uint32_t *rw);
const char *state_name(uint32_t s);
/* A request flavour's option name (BLKLOAD_REQ_* bit); all of them, space separated (freed). */
const char *req_name(uint32_t bit);
char *req_names(uint32_t req);
/* The module's bs-split attributes (triples) as fio's bssplit ("4096/50:65536/50"), or NULL. */
char *bs_format(const void *r, int rlen, const void *w, int wlen);
/* fio's random_distribution string of a job's (freed). */
char *dist_name(const struct bl_params *p);
const char *reason_name(uint32_t r);
void job_rate_min_note(struct job *j, const char *name);

struct report_opts {
	double *percentiles;
	unsigned int nr_percentiles;
	bool bins;		/* json+: every non-empty histogram bucket */
	bool queues;		/* per-CPU rows */
};

/* fio's number formatting: four digits at most, a binary or decimal prefix (freed). */
char *fmt_num(double v, bool binary, const char *unit);
/* One job's (or the sum's) report object, text or JSON (report.c). */
void report_job(struct out *o, const char *key, const struct job *j, const char *name,
		const struct report_opts *ro);
/* fio's "Run status group" lines (text). */
void report_group(const struct job *jobs, unsigned int n, uint32_t groupid);
/* fio's "disk_util" array, or its "Disk stats" lines. */
void report_disks(struct out *o, const struct disk_util *du, unsigned int n);

/* disk.c: the counters of the device at @path now; -1 when it has none. */
int disk_sample(const char *path, struct disk_util *d);
/* @b minus @a into @b, util over @wall_ns. */
void disk_delta(const struct disk_util *a, struct disk_util *b, uint64_t wall_ns);
void disk_util_free(struct disk_util *d);

#endif
