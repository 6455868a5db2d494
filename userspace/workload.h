/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload of "run" and "start": what every engine runs.
 */
#ifndef BLKLOAD_WORKLOAD_H
#define BLKLOAD_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <blkload/offset.h>

#include "job.h"
#include "parse.h"
#include "series.h"

extern const double default_percentiles[17];

/* getopt values of the options, shared by the commands that take them. */
enum {
	OPT_DEV = 256, OPT_RW, OPT_RWMIXREAD, OPT_RWMIXWRITE, OPT_BS, OPT_IODEPTH, OPT_CPUS,
	OPT_OFFSET, OPT_SIZE, OPT_RUNTIME, OPT_RAMP, OPT_NUMBER_IOS, OPT_IO_SIZE, OPT_RANDSEED,
	OPT_ALLOW_WRITE, OPT_FORCE, OPT_BATCH, OPT_NO_LAT, OPT_PERCENTILES, OPT_TIME_BASED,
	OPT_DRAIN, OPT_PER_CPU, OPT_COE, OPT_ENGINE, OPT_POOL, OPT_RBDNAME, OPT_CLIENTNAME,
	OPT_RBD_CONN, OPT_CPU_EXCLUDE, OPT_KB_BASE, OPT_NAME, OPT_DIRECT, OPT_NUMJOBS,
	OPT_CPUS_ALLOWED, OPT_CPUS_POLICY, OPT_OUTPUT, OPT_FIO_NOOP, OPT_FIO_NO, OPT_FILENAME,
	OPT_SAMPLE_INTERVAL, OPT_STATUS_INTERVAL, OPT_SAMPLES_CSV, OPT_IOPS_LOG, OPT_BW_LOG,
	OPT_LAT_LOG, OPT_HIST_LOG, OPT_LOG_AVG, OPT_LOG_HIST, OPT_LOG_COARSE, OPT_SAMPLE_RING,
	OPT_RATE_IOPS, OPT_RATE_PROCESS, OPT_RANDOM_DIST, OPT_BSSPLIT, OPT_BSRANGE,
	OPT_THINKTIME, OPT_THINKTIME_BLOCKS, OPT_STARTDELAY, OPT_LOOPS, OPT_RWMIXTRIM, OPT_FUA, OPT_PREFLUSH, OPT_HIPRI, OPT_NOWAIT, OPT_WRITE_ZEROES,
	OPT_BUF_COMPRESS, OPT_DEDUPE, OPT_ZERO_BUFFERS, OPT_VERIFY, OPT_DO_VERIFY,
	OPT_START_AT, OPT_HELP,
};

struct workload;
bool workload_fills(const struct workload *w);
bool workload_changes(const struct workload *w);
bool workload_writes(const struct workload *w);

struct workload {
	char **devs;
	unsigned int nr_devs;
	uint32_t rw, rwmixread, bs, iodepth, batch, drain_ms, coe;
	uint32_t rwmixtrim;	/* percent of trims in a read or write pattern */
	uint32_t req;		/* BLKLOAD_REQ_* flags: fua, preflush, hipri, nowait, write-zeroes */
	uint32_t rate_iops, rate_process;	/* IOs a second per job, 0: no limit; linear, poisson */
	uint32_t dist, dist_param;	/* BLKLOAD_DIST_*, its parameter (the module's units) */
	/* fio's bssplit/bsrange: per direction (reads; writes and trims), lo, hi, percent */
	uint32_t nbs[2], bss[2][BL_GEN_BS_MAX][3];
	uint32_t bs_max;		/* the largest IO (bs without a split) */
	uint64_t think_ns, startdelay_ns;	/* fio's thinktime and startdelay */
	int64_t start_at_ns;	/* --start-at: CLOCK_REALTIME ns, 0: at once */
	uint32_t think_blocks, loops;	/* 0: fio's default (1) */
	uint32_t buf_compress, buf_dedupe;	/* percent (fill.h) */
	bool zero_buffers;
	uint32_t verify;	/* BLKLOAD_VERIFY_* */
	bool no_readback;	/* fio's do_verify=0 */
	uint64_t offset, size, runtime, ramp, number_ios, io_size, randseed;
	bool have_rw, have_cpus, have_batch, allow_write, force, no_lat, detached;
	bool guarded;	/* the write guard passed for its devices (cmd_run, before the counters) */
	struct cpuset cpus;
	struct report_opts ro;
	bool bins;
	const char *engine;	/* NULL: the kernel module */
	/* librbd: images in a pool, through a client name */
	char **images;
	unsigned int nr_images;
	const char *pool, *clientname;
	bool rbd_conn_per_job;
	const char *cpu_exclude;	/* processes left out of the client CPU */
	const char *name;	/* fio's --name: the jobs' name in reports */
	const char *output;	/* fio's --output: the report goes to this file */
	char **filenames;	/* fio's --filename a:b copies, devs point into them */
	unsigned int nr_filenames;
	struct optlist opts;	/* as given, for fio's "job options" */
	uint64_t sample_ns;	/* time-series interval, 0: none */
	uint32_t sample_ring;	/* samples a queue of the module keeps, 0: its default */
	bool sample_given;	/* asked for (--sample-interval, log_*_msec), not the default */
	uint64_t status_ns;	/* fio's status-interval: print the series while running */
	const char *samples_csv;	/* the series as CSV */
	struct series_logs logs;	/* fio's write_*_log */
	char **jobfiles;	/* point into argv */
	unsigned int nr_jobfiles;
};

/* Parses the workload options; returns 0, 1 after --help, or -1. */
int workload_parse(struct workload *w, int argc, char **argv, const char *cmd);
/* The same; with @jobfiles, arguments are fio job files (w->jobfiles), --dev then optional. */
int workload_parse_args(struct workload *w, int argc, char **argv, const char *cmd,
			bool jobfiles);
void workload_free(struct workload *w);
/* Whether the run options take @name (either spelling): 0 yes, 1 a fio option blkload lacks, -1 no. */
int workload_option_known(const char *name);
void workload_usage(FILE *f, const char *cmd);
/* Every option of the table, separated by @sep ("--bs=" when it takes a value). */
void workload_complete(FILE *f, char sep);
int parse_percentiles(const char *s, struct report_opts *ro);
/* --drain-timeout: milliseconds, or a time with its unit, rounded up to ms. */
int parse_drain_ms(const char *s, uint32_t *ms);
/* fio's random_distribution into BLKLOAD_DIST_* and the module's parameter; -1 if bad. */
int dist_parse(const char *s, uint32_t *dist, uint32_t *param);
/*
 * fio's bssplit ("4k/50:64k/40:1m/10[,WRITES]") or, @range, bsrange
 * ("4k-64k[,WRITES]") into @w's tables; -1 after saying why.
 */
int bs_parse(struct workload *w, const char *s, bool range);

#endif
