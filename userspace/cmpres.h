/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result of "blkload compare": a matrix of cells (rw x bs x iodepth)
 * by client paths (kernel, io_uring, libaio, librbd), each with the IOPS of
 * every repetition, merged latency histograms and whole-client CPU, and the
 * order the runs were executed in. Written and read back (by "diff") as
 * JSON with json-c; also rendered as markdown, CSV and gnuplot charts.
 */
#ifndef BLKLOAD_CMPRES_H
#define BLKLOAD_CMPRES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

#define CMP_FORMAT 1
#define CMP_LEVEL 0.95	/* confidence level of every interval */
#define CMP_ALPHA 0.05	/* significance level of every test */

enum { CMP_CPU_USER, CMP_CPU_NICE, CMP_CPU_SYSTEM, CMP_CPU_IRQ, CMP_CPU_SOFTIRQ, CMP_CPU_NR };
extern const char *const cmp_cpu_names[CMP_CPU_NR];

struct cmp_cell {
	char *rw;
	uint64_t bs;
	uint32_t iodepth;
};

/* One cell on one path: its repetitions and what follows from them. */
struct cmp_entry {
	size_t n;		/* repetitions done */
	double *iops;		/* [n], summed over the targets */
	double *cpu_us;		/* [ncpu], whole-client CPU per IO */
	size_t ncpu;		/* n, or 0 when a result read back had none */
	double *target_iops;	/* [ntargets], summed over the repetitions */
	double cpu_split[CMP_CPU_NR];	/* machine-wide busy seconds, summed over runs */
	double ios;		/* summed over the repetitions */
	uint64_t *hist;		/* BL_HIST_NR buckets, merged over everything */
	uint64_t hist_n;
	/* Derived (cmp_derive()). */
	struct sample_stats s, cpu;
	uint64_t p50, p99, p999;	/* ns, from the merged histogram */
	bool has_ratio;		/* against the baseline path */
	double ratio;
	struct welch w;		/* mean(this) - mean(baseline) */
	bool significant;
};

/* One executed run, in order. */
struct cmp_run {
	unsigned int round, cell, path;
	double iops;
	int status;		/* exit status of the run; 0 ok */
};

struct cmp_result {
	char *version, *started, *host, *kernel;
	double runtime_s, ramp_s;
	unsigned int repeat;
	uint64_t randseed, order_seed;
	uint64_t start_at_ms, slot_ms;	/* --start-at: run k at start_at + k * slot; 0: none */
	char *cpus;		/* NULL: each path's default */
	char **targets;
	unsigned int ntargets;
	char **paths;
	unsigned int npaths;
	int baseline;		/* index into paths, -1: none */
	struct cmp_cell *cells;
	unsigned int ncells;
	struct cmp_entry *e;	/* [ncells * npaths] */
	struct cmp_run *runs;
	unsigned int nruns;
	unsigned int same_cell_adjacent;	/* in the order, where unavoidable */
	bool incomplete;
	/*
	 * Derived: each path's "average of averages", the geometric mean over
	 * the cells with data of its ratio to the baseline, and how many cells.
	 */
	double *avg_ratio;	/* [npaths], 0 when none */
	unsigned int *avg_cells;
};

static inline struct cmp_entry *cmp_at(const struct cmp_result *r, unsigned int cell,
				       unsigned int path)
{
	return &r->e[cell * r->npaths + path];
}

/* Allocates the entries once cells, paths and targets are set. */
void cmp_alloc(struct cmp_result *r);
void cmp_free(struct cmp_result *r);
int cmp_path_index(const struct cmp_result *r, const char *name);

/*
 * Adds a run's blkload JSON (json+, "run" output) to cell/path; returns 0 or
 * -1 with a message on stderr when the document lacks what is needed.
 */
struct json_object;
int cmp_add_run(struct cmp_result *r, unsigned int cell, unsigned int path,
		struct json_object *run, double *iops);

/* Statistics, percentiles, ratios and tests from the repetitions. */
void cmp_derive(struct cmp_result *r);

/*
 * The execution order: @repeat rounds, each every (cell, path) once in a
 * fresh random order (from @seed), never the same (cell, path) twice in a
 * row and, where the matrix allows it, never the same cell twice in a row.
 * Fills r->runs (round, cell, path) and r->same_cell_adjacent.
 */
void cmp_plan(struct cmp_result *r, uint64_t seed);

int cmp_write_json(const struct cmp_result *r, const char *file);
int cmp_read_json(struct cmp_result *r, const char *file);
void cmp_write_md(const struct cmp_result *r, FILE *f);
void cmp_write_csv(const struct cmp_result *r, FILE *f);
/* gnuplot charts in @dir; returns the number of charts drawn, -1 on error. */
int cmp_write_charts(const struct cmp_result *r, const char *dir);

/* The change of one cell on one path between two results (diff A B). */
enum cmp_verdict { CMP_NO_CHANGE, CMP_REGRESSION, CMP_IMPROVEMENT, CMP_UNKNOWN };
extern const char *const cmp_verdict_names[];

struct cmp_change {
	double pct;		/* (mean B - mean A) / mean A, in % */
	double ci_pct;		/* half-width of its 95% interval, in % of mean A */
	bool valid;		/* a test was possible (n >= 2 on both sides) */
	double p;		/* Welch's two-sided p */
	double p_adj;		/* the p the verdict used (Holm-adjusted by diff) */
	bool significant;
	enum cmp_verdict verdict;
};

/*
 * IOPS of @b against @a: a regression (improvement) is a significant change
 * (Welch, p < CMP_ALPHA) of at least @threshold percent down (up).
 */
void cmp_change(const struct cmp_entry *a, const struct cmp_entry *b, double threshold,
		struct cmp_change *out);
/* The verdict of @ch (pct and valid set) at p-value @p. */
void cmp_change_judge(struct cmp_change *ch, double p, double threshold);
/* Holm's step-down adjustment of @n p-values, in place (family-wise error). */
void holm_adjust(double *p, size_t n);

/* "4k", "64k", "4m": the block size as fio users write it (malloc()ed). */
char *cmp_bs_name(uint64_t bs);

#endif
