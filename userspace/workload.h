/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload of "run" and "start": what every engine runs.
 */
#ifndef BLKLOAD_WORKLOAD_H
#define BLKLOAD_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <blkload/params.h>

#include "job.h"
#include "parse.h"
#include "series.h"
#include "ss.h"

extern const double default_percentiles[17];

/* getopt values of the options, shared by the commands that take them. */
enum {
	OPT_DEV = 256, OPT_RW, OPT_RWMIXREAD, OPT_RWMIXWRITE, OPT_BS, OPT_IODEPTH, OPT_CPUS,
	OPT_OFFSET, OPT_SIZE, OPT_RUNTIME, OPT_RAMP, OPT_NUMBER_IOS, OPT_IO_SIZE, OPT_RANDSEED,
	OPT_ALLOW_WRITE, OPT_FORCE, OPT_BATCH, OPT_NO_LAT, OPT_PERCENTILES, OPT_TIME_BASED,
	OPT_DRAIN, OPT_PER_CPU, OPT_COE, OPT_ENGINE, OPT_POOL, OPT_RBDNAME, OPT_CLIENTNAME,
	OPT_RBD_CONN, OPT_CPU_EXCLUDE, OPT_KB_BASE, OPT_NAME, OPT_DIRECT, OPT_NUMJOBS,
	OPT_CPUS_ALLOWED, OPT_CPUS_POLICY, OPT_OUTPUT, OPT_FIO_NOOP, OPT_FILENAME,
	OPT_SAMPLE_INTERVAL, OPT_STATUS_INTERVAL, OPT_SAMPLES_CSV, OPT_IOPS_LOG, OPT_BW_LOG,
	OPT_LAT_LOG, OPT_HIST_LOG, OPT_LOG_AVG, OPT_LOG_HIST, OPT_LOG_COARSE, OPT_SAMPLE_RING,
	OPT_RATE_IOPS, OPT_RATE_PROCESS, OPT_RANDOM_DIST, OPT_BSSPLIT, OPT_BSRANGE,
	OPT_THINKTIME, OPT_THINKTIME_BLOCKS, OPT_STARTDELAY, OPT_LOOPS, OPT_RWMIXTRIM, OPT_FUA, OPT_PREFLUSH, OPT_HIPRI, OPT_NOWAIT, OPT_WRITE_ZEROES,
	OPT_BUF_COMPRESS, OPT_DEDUPE, OPT_ZERO_BUFFERS, OPT_VERIFY, OPT_DO_VERIFY,
	OPT_START_AT, OPT_HELP, OPT_BATCH_COMPLETE, OPT_PARSE_ONLY, OPT_FILESIZE, OPT_BUFFERED, OPT_RATE, OPT_RATE_MIN, OPT_RATE_IOPS_MIN, OPT_RATE_CYCLE, OPT_EXITALL, OPT_EXIT_WHAT, OPT_SS, OPT_SS_DUR, OPT_SS_RAMP, OPT_SS_INTERVAL, OPT_DEDUPE_MODE, OPT_DEDUPE_WS, OPT_DEDUPE_GLOBAL, OPT_LOG_OFFSET, OPT_LOG_PRIO, OPT_ZONEMODE, OPT_ZONESIZE, OPT_ZONERANGE, OPT_ZONESKIP, OPT_VERBOSE, OPT_CMDHELP, OPT_SHOWCMD,
	OPT_NUMA_NODES, OPT_NUMA_MEM, OPT_NORANDOMMAP, OPT_BLOCKALIGN, OPT_RANDGEN,
	OPT_BS_UNALIGNED,
};

/* An option of run's table (workload.c), or of an engine's (engine_ops.opts). */
struct wopt {
	const char *name;
	int has_arg;
	int val;
	const char *arg;	/* the value's name in --help */
	const char *help;	/* NULL: an alias of the entry before it */
};

struct wave_sync;

/* fio's exit_what: whom a job's end stops when exitall is set anywhere. */
enum exit_what { EXIT_GROUP, EXIT_STONEWALL, EXIT_ALL };

struct workload {
	char **devs;
	unsigned int nr_devs;
	/* The workload every engine and the module run (include/blkload/params.h). */
	struct bl_params p;
	uint32_t drain_ms;
	int64_t start_at_ns;	/* --start-at: CLOCK_REALTIME ns, 0: at once */
	bool have_rw, have_cpus, have_batch;
	bool guarded;	/* the write guard passed for its devices (cmd_run, before the counters) */
	struct cpuset cpus;
	/* fio's numjobs: copies of the job (the plan makes them), each on one CPU of allowed */
	uint32_t numjobs;
	struct cpuset allowed;	/* fio's cpus_allowed, when have_allowed */
	bool have_allowed;
	bool group_reporting;	/* fio's: the group's jobs reported as one */
	bool exitall;		/* fio's exitall: a job's end stops others (exit_what) */
	uint8_t exit_what;	/* enum exit_what: which ones */
	struct ss_opts ss;	/* fio's steady state; ss.dur_ns 0: none */
	bool dedupe_global;	/* fio's: the run's dedupe_global jobs write one set of copies */
	struct ss_state *ss_run;	/* its check while it runs (the group's first), owned */
	bool buffered;		/* fio's direct=0: through the page cache (userspace engines) */
	bool sync_engine;	/* fio's psync & co: libaio at iodepth 1 */
	unsigned int clone;	/* which copy (0: the first), set by workload_place() */
	struct wave_sync *sync;	/* a userspace wave's start (engines/engine.c), not owned */
	struct report_opts ro;
	bool bins;
	const char *engine;	/* --ioengine: "kernel" (the module), or a userspace engine's */
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
	bool sample_given;	/* asked for (--sample-interval, log_*_msec), not the default */
	uint64_t status_ns;	/* fio's status-interval: print the series while running */
	const char *samples_csv;	/* the series as CSV */
	struct series_logs logs;	/* fio's write_*_log */
	char **jobfiles;	/* point into argv */
	unsigned int nr_jobfiles;
	bool parse_only;	/* fio's --parse-only: the options and job files, then exit */
	bool showcmd;		/* fio's --showcmd: the job files as a command line, then exit */
	char **args;		/* options rewritten from fio's forms; others point into them */
	unsigned int nr_args;
};

/* Parses the workload options; returns 0, 1 after --help, or -1. */
int workload_parse(struct workload *w, int argc, char **argv, const char *cmd);
/* The same; with @jobfiles, arguments are fio job files (w->jobfiles), --dev then optional. */
int workload_parse_args(struct workload *w, int argc, char **argv, const char *cmd,
			bool jobfiles);
void workload_free(struct workload *w);
/*
 * Copy @clone of a job with fio's numjobs: its seed apart, and with fio's
 * cpus_allowed or numjobs (no --cpus), one CPU, the set's in turn.
 */
void workload_place(struct workload *w, unsigned int clone);
/* Whether the run options take @name (either spelling): 0 yes, -1 no (fioopts.h has fio's). */
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
