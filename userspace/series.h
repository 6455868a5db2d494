/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A job's time series (include/blkload/sample.h): the samples of its
 * queues added up, fetched from the module or kept by an engine, and what
 * the reports make of them: rates, means and percentiles per interval,
 * fio's bw/iops statistics over samples, CSV and fio's log files.
 */
#ifndef BLKLOAD_SERIES_H
#define BLKLOAD_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <blkload/sample.h>

/*
 * The samples that were read, in index order (sample i ends at about
 * (i + 1) * interval after the ramp); lost ones are simply not there. Each
 * keeps its counts (128 bytes with its index) and, in a shared pool, only
 * the run of its clat buckets from the first to the last non-empty one (4
 * bytes each), not all 2 x 464 of them (3.7 KB).
 */
struct series_entry {
	uint64_t t;			/* ns from the ramp's end */
	struct bl_sample_op op[BL_SAMPLE_OPS];
	uint32_t first[BL_SAMPLE_OPS];	/* first bucket kept */
	uint32_t len[BL_SAMPLE_OPS];	/* buckets kept */
	size_t off[BL_SAMPLE_OPS];	/* where, in pool */
};

struct series {
	uint64_t interval;	/* ns; 0: no samples were taken */
	struct series_entry *e;
	uint64_t *idx;		/* e[k] is sample idx[k] */
	size_t nr, cap;
	uint32_t *pool;
	size_t pool_nr, pool_cap;
	uint64_t next;		/* the module: the index to ask for next */
	uint64_t lost;		/* overwritten before they were read */
	bool failed;		/* reading them failed: the series stops there */
};

/* Adds @smp into sample @i (times: the latest; counts: summed). */
void series_add(struct series *se, uint64_t i, const struct bl_sample *smp);
/* Adds every sample of @b into @a. */
void series_merge(struct series *a, const struct series *b);
/* Sample e[@k] whole, its buckets included. */
void series_get(const struct series *se, size_t k, struct bl_sample *out);
/* Room for @n samples of about @buckets kept buckets, so that adding them does not allocate. */
void series_reserve(struct series *se, size_t n, size_t buckets);
void series_free(struct series *se);
/* Seconds s[k] covers: from the sample before (or where its interval began) to it. */
double series_dt(const struct series *se, size_t k);
/* Whether s[k] covers at least half an interval (a short last one does not count). */
bool series_full(const struct series *se, size_t k);

/* fio's statistics of per-interval rates (bytes/s or IOs/s) over the full samples. */
struct series_stat {
	double min, max, mean, dev;
	uint64_t n;
};

void series_rate_stat(const struct series *se, int op, bool bytes, struct series_stat *st);
/* Percentile @p of a sample's coarse clat buckets; 0 when they are empty. */
uint64_t series_percentile(const uint32_t *chist, double p);

/*
 * fio's --status-interval: a line for each window of @win ns that the
 * samples from s[@from] on complete; returns the position after the last shown.
 * On a terminal, the progress line is cleared first.
 */
size_t series_status(FILE *f, const struct series *se, size_t from, uint64_t win, uint32_t id,
		     bool tty);

/* One CSV of the series of @n jobs (a row per job, sample and direction). */
struct job;
void series_csv(FILE *f, const struct job *jobs, unsigned int n, const double *pct,
		unsigned int npct);

/* fio's log files of one job, @avg_ms and @hist_ms as a multiple of the interval. */
struct series_logs {
	const char *iops, *bw, *lat, *hist;	/* prefixes, NULL: not written */
	uint64_t avg_ns, hist_ns;		/* log_avg_msec, log_hist_msec */
	unsigned int coarseness;		/* log_hist_coarseness, >= BL_SHIST_SHIFT */
	bool offset, prio;			/* fio's log_offset and log_prio columns */
};

int series_write_logs(const struct series_logs *lg, const struct series *se, uint32_t bs,
		      unsigned int jobno);

/* Whether any sample of @se has trims. */
bool series_has_trims(const struct series *se);

#endif
