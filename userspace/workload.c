// SPDX-License-Identifier: GPL-2.0
/*
 * The workload options of run and start, with fio's names, and their
 * parsing: one place for every engine.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "fioopts.h"
#include "parse.h"
#include "util.h"
#include "workload.h"
#include "engines/engine.h"

const double default_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};



/*
 * The one table of run's options: parsing (getopt, each name in both
 * spellings), --help and the shell completion come from it, and from the
 * options each engine declares (engine_ops.opts, parsed by the engine). An
 * entry without help is an alias of the entry before it with the same value.
 */
static const struct wopt wopts[] = {
	{ "dev", required_argument, OPT_DEV, "DEV", "target block device (repeat for more jobs)" },
	{ "filename", required_argument, OPT_FILENAME, "DEV",
	  "fio's: devices separated by ':' (\\: for a ':' in a name)" },
	{ "rw", required_argument, OPT_RW, "PATTERN",
	  "read write randread randwrite rw randrw trim randtrim (read)" },
	{ "readwrite", required_argument, OPT_RW, NULL, NULL },
	{ "rwmixread", required_argument, OPT_RWMIXREAD, "PCT", "reads in rw/randrw (50)" },
	{ "rwmixwrite", required_argument, OPT_RWMIXWRITE, "PCT", "writes in rw/randrw (50)" },
	{ "rate", required_argument, OPT_RATE, "BYTES[,W[,T]]",
	  "fio's: bytes a second (a mix: each direction's, in proportion to its share); each IO due its length later" },
	{ "rate_min", required_argument, OPT_RATE_MIN, "BYTES[,W[,T]]",
	  "fio's: a direction slower than this over a rate_cycle ends the job with an error" },
	{ "ratemin", required_argument, OPT_RATE_MIN, NULL, NULL },
	{ "rate_iops_min", required_argument, OPT_RATE_IOPS_MIN, "N[,W[,T]]",
	  "fio's: as rate_min, in IOs a second" },
	{ "rate_cycle", required_argument, OPT_RATE_CYCLE, "MS",
	  "fio's: the window of rate_min and rate_iops_min, in ms (1000)" },
	{ "ratecycle", required_argument, OPT_RATE_CYCLE, NULL, NULL },
	{ "exitall", optional_argument, OPT_EXITALL, NULL,
	  "fio's: when a job ends, the jobs exit_what names are stopped" },
	{ "ss", required_argument, OPT_SS, "KIND:LIMIT[%]",
	  "fio's steady state: iops, iops_slope, bw or bw_slope over ss_dur; met, the job (its group) ends" },
	{ "steadystate", required_argument, OPT_SS, NULL, NULL },
	{ "ss_dur", required_argument, OPT_SS_DUR, "TIME",
	  "fio's: the steady state window (0: no check)" },
	{ "steadystate_duration", required_argument, OPT_SS_DUR, NULL, NULL },
	{ "ss_ramp", required_argument, OPT_SS_RAMP, "TIME",
	  "fio's: the time before the steady state window takes values" },
	{ "steadystate_ramp_time", required_argument, OPT_SS_RAMP, NULL, NULL },
	{ "ss_interval", required_argument, OPT_SS_INTERVAL, "TIME",
	  "fio's: a steady state value each (1s)" },
	{ "steadystate_check_interval", required_argument, OPT_SS_INTERVAL, NULL, NULL },
	{ "exit_what", required_argument, OPT_EXIT_WHAT, "group|stonewall|all",
	  "fio's: whom exitall stops: the job's group (default), every running job, or the rest of the run" },
	{ "rate_iops", required_argument, OPT_RATE_IOPS, "N",
	  "IOs a second per job, spread over its queues; latency also from each IO's due time" },
	{ "rate_process", required_argument, OPT_RATE_PROCESS, "linear|poisson",
	  "spacing of rate_iops: even (linear) or exponential gaps (poisson)" },
	{ "random_distribution", required_argument, OPT_RANDOM_DIST, "D",
	  "random (default), zipf:THETA, pareto:H, normal:DEV%, zoned:A/S:..., zoned_abs:A/SIZE:... (fio's)" },
	{ "blockalign", required_argument, OPT_BLOCKALIGN, "SIZE",
	  "fio's: random IOs start at multiples of SIZE (default bs; a split's smallest size)" },
	{ "ba", required_argument, OPT_BLOCKALIGN, NULL, NULL },
	{ "bssplit", required_argument, OPT_BSSPLIT, "SIZE/PCT:...[,WRITES]",
	  "fio's: block sizes by percent, e.g. 4k/50:64k/40:1m/10 (a pass: size over the mean size, in IOs)" },
	{ "bsrange", required_argument, OPT_BSRANGE, "LO-HI[,WRITES]",
	  "fio's: block sizes from LO to HI, multiples of LO" },
	{ "thinktime", required_argument, OPT_THINKTIME, "TIME",
	  "fio's: after thinktime_blocks IOs a queue waits for them, then stalls this long (us)" },
	{ "thinktime_blocks", required_argument, OPT_THINKTIME_BLOCKS, "N",
	  "fio's: IOs between two thinktime stalls (1)" },
	{ "startdelay", required_argument, OPT_STARTDELAY, "TIME",
	  "fio's: the job starts this long after the others (s)" },
	{ "start-at", required_argument, OPT_START_AT, "TIME",
	  "start at this wall-clock time, for hosts started together: @EPOCH, ISO 8601 or HH:MM[:SS] (within 24h)" },
	{ "loops", required_argument, OPT_LOOPS, "N",
	  "fio's: do the job's IO count N times (1)" },
	{ "buffer_compress_percentage", required_argument, OPT_BUF_COMPRESS, "PCT",
	  "fio's: that share of each 512-byte chunk written is zeros, the rest random (0)" },
	{ "zonemode", required_argument, OPT_ZONEMODE, "none|strided",
	  "fio's: strided: IO stays in a zone of zonerange until zonesize went to it, then zoneskip further" },
	{ "zonesize", required_argument, OPT_ZONESIZE, "SIZE",
	  "fio's: bytes done in a zone before the next (zonesize alone: strided)" },
	{ "zonerange", required_argument, OPT_ZONERANGE, "SIZE", "fio's: a zone's size (zonesize)" },
	{ "zoneskip", required_argument, OPT_ZONESKIP, "SIZE", "fio's: bytes skipped after a zone (0)" },
	{ "dedupe_mode", required_argument, OPT_DEDUPE_MODE, "repeat|working_set",
	  "fio's: dedupe copies of one unit (repeat), or of a working set's blocks" },
	{ "dedupe_working_set_percentage", required_argument, OPT_DEDUPE_WS, "PCT",
	  "fio's: the working set, percent of the region's blocks (5)" },
	{ "dedupe_global", optional_argument, OPT_DEDUPE_GLOBAL, NULL,
	  "fio's: the run's jobs with it write the same dedupe copies (one seed for their data)" },
	{ "dedupe_percentage", required_argument, OPT_DEDUPE, "PCT",
	  "fio's: that share of the blocks written are copies of one block (0)" },
	{ "zero_buffers", optional_argument, OPT_ZERO_BUFFERS, NULL,
	  "fio's: writes carry zeros (default: random data, each sector stamped)" },
	{ "verify", required_argument, OPT_VERIFY, "crc32c",
	  "fio's: each unit written carries a CRC-32C header; reads check it" },
	{ "do_verify", required_argument, OPT_DO_VERIFY, "0|1",
	  "fio's: a job that writes reads its units back at the end (1)" },
	{ "rwmixtrim", required_argument, OPT_RWMIXTRIM, "PCT",
	  "trims among the IOs of a read or write pattern; rwmixread splits the rest (0)" },
	{ "fua", optional_argument, OPT_FUA, NULL, "writes carry FUA (REQ_FUA; RWF_DSYNC in io_uring and libaio)" },
	{ "preflush", optional_argument, OPT_PREFLUSH, NULL,
	  "writes carry a cache flush before them (REQ_PREFLUSH; module only)" },
	{ "hipri", optional_argument, OPT_HIPRI, NULL,
	  "polled IO: the device needs poll queues (module: bio_poll; io_uring: IOPOLL)" },
	{ "nowait", optional_argument, OPT_NOWAIT, NULL,
	  "reads and writes the device cannot take now fail with EAGAIN (fio's nowait)" },
	{ "write_zeroes", optional_argument, OPT_WRITE_ZEROES, NULL,
	  "writes are write-zeroes, without data (REQ_OP_WRITE_ZEROES)" },
	{ "bs", required_argument, OPT_BS, "SIZE", "block size, multiple of the logical block (4k)" },
	{ "blocksize", required_argument, OPT_BS, NULL, NULL },
	{ "iodepth", required_argument, OPT_IODEPTH, "N", "IOs in flight per CPU queue (1)" },
	{ "cpus", required_argument, OPT_CPUS, "LIST",
	  "CPUs for queues, e.g. 0-3,8 (first online CPU)" },
	{ "numjobs", required_argument, OPT_NUMJOBS, "N",
	  "fio's: N copies of the job, each a job of its own, one CPU each, round-robin" },
	{ "cpus_allowed", required_argument, OPT_CPUS_ALLOWED, "LIST",
	  "fio's: the CPUs the copies are placed on (round-robin)" },
	{ "cpus_allowed_policy", required_argument, OPT_CPUS_POLICY, "shared|split",
	  "fio's: either places one copy per CPU in turn" },
	{ "numa_cpu_nodes", required_argument, OPT_NUMA_NODES, "NODES",
	  "fio's: the copies are placed on these NUMA nodes' CPUs (replacing cpus_allowed's, as fio)" },
	{ "numa_mem_policy", required_argument, OPT_NUMA_MEM, "MODE[:NODES]",
	  "fio's: not applied (the module's queues' memory is on their CPUs' nodes); warned" },
	{ "name", required_argument, OPT_NAME, "NAME", "fio's: the jobs' name in reports" },
	{ "direct", required_argument, OPT_DIRECT, "0|1",
	  "fio's: 0 is buffered IO (the page cache), on the io_uring and libaio engines" },
	{ "buffered", required_argument, OPT_BUFFERED, "0|1", "fio's: the opposite of direct" },
	{ "output", required_argument, OPT_OUTPUT, "FILE", "fio's: the report goes to FILE" },
	/* fio options whose meaning blkload has anyway. */
	{ "group_reporting", optional_argument, OPT_FIO_NOOP, NULL, NULL },
	{ "bs_unaligned", optional_argument, OPT_BS_UNALIGNED, NULL,
	  "fio's: bssplit sizes as given (else each is rounded down to a multiple of the smallest)" },
	{ "blocksize_unaligned", optional_argument, OPT_BS_UNALIGNED, NULL, NULL },
	{ "random_generator", required_argument, OPT_RANDGEN, "tausworthe|tausworthe64|lfsr",
	  "fio's: blkload draws with splitmix64 whichever is named; lfsr also keeps the random map" },
	{ "norandommap", optional_argument, OPT_NORANDOMMAP, NULL,
	  "fio's: random offsets drawn uniformly, repeats and all (default: each block once a pass)" },
	{ "randrepeat", optional_argument, OPT_FIO_NOOP, NULL, NULL },
	{ "invalidate", optional_argument, OPT_FIO_NOOP, NULL, NULL },
	{ "thread", optional_argument, OPT_FIO_NOOP, NULL, NULL },
	/* fio's default, 1: a reap that must wait waits for one completion. */
	{ "iodepth_batch_complete_min", optional_argument, OPT_FIO_NOOP, NULL, NULL },
	{ "iodepth_batch_complete", optional_argument, OPT_FIO_NOOP, NULL, NULL },
	{ "offset", required_argument, OPT_OFFSET, "SIZE", "start of the region (0)" },
	{ "size", required_argument, OPT_SIZE, "SIZE", "length of the region (the whole device)" },
	{ "filesize", required_argument, OPT_FILESIZE, "SIZE",
	  "fio's, on a device: the region ends at SIZE (size = SIZE - offset), unless size is given" },
	{ "runtime", required_argument, OPT_RUNTIME, "TIME",
	  "stop this long after the ramp, or after one pass over the region first (fio's; with time_based: run this long)" },
	{ "ramp_time", required_argument, OPT_RAMP, "TIME",
	  "run this long before statistics start" },
	{ "number_ios", required_argument, OPT_NUMBER_IOS, "N",
	  "stop after N IOs per job (no runtime or limit: one pass over the region, like fio)" },
	{ "io_size", required_argument, OPT_IO_SIZE, "SIZE", "stop after SIZE bytes per job" },
	{ "io_limit", required_argument, OPT_IO_SIZE, NULL, NULL },
	{ "randseed", required_argument, OPT_RANDSEED, "N",
	  "seed of the offset sequence (0; fio's randrepeat=0: a new one each run)" },
	{ "allow-write", no_argument, OPT_ALLOW_WRITE, NULL, "required for workloads that write" },
	{ "force", no_argument, OPT_FORCE, NULL, "write even to a mounted or claimed device" },
	{ "iodepth_batch_submit", required_argument, OPT_BATCH, "N",
	  "bios per plug (1: each bio on its own)" },
	{ "iodepth_batch", required_argument, OPT_BATCH, NULL, NULL },
	{ "batch", required_argument, OPT_BATCH, NULL, NULL },
	{ "iodepth_batch_complete_max", required_argument, OPT_BATCH_COMPLETE, "N",
	  "most completions a reap takes before the queue is refilled (fio's; 1)" },
	{ "gtod_reduce", optional_argument, OPT_NO_LAT, NULL, "no per-IO timestamps or histogram" },
	{ "no-lat", no_argument, OPT_NO_LAT, NULL, NULL },
	{ "percentile_list", required_argument, OPT_PERCENTILES, "P:P:...",
	  "percentiles to report (fio's default list)" },
	{ "time_based", optional_argument, OPT_TIME_BASED, NULL,
	  "run for the whole runtime, passes over the region repeating (fio's)" },
	{ "drain-timeout", required_argument, OPT_DRAIN, "TIME",
	  "how long a stop waits for in-flight IO (5s); Ctrl-C stops, a second detaches" },
	{ "per-cpu", no_argument, OPT_PER_CPU, NULL, "per-CPU queue breakdown in the report" },
	{ "ioengine", required_argument, OPT_ENGINE, "NAME",
	  "the client path: kernel (the module, default) or a userspace engine (below)" },
	{ "engine", required_argument, OPT_ENGINE, NULL, NULL },
	{ "cpu-exclude", required_argument, OPT_CPU_EXCLUDE, "NAMES",
	  "processes left out of the client CPU (auto: the Ceph daemons; none; or comm names)" },
	{ "continue_on_error", required_argument, OPT_COE, "WHAT",
	  "none read write io all: count these IO errors and go on" },
	{ "kb_base", required_argument, OPT_KB_BASE, "1024|1000",
	  "fio's: k = kb_base, KiB = the other base (1024)" },
	{ "sample-interval", required_argument, OPT_SAMPLE_INTERVAL, "TIME",
	  "time series: a sample every TIME after the ramp (1s; 0: none; at least 10ms)" },
	{ "sample-ring", required_argument, OPT_SAMPLE_RING, "N",
	  "samples each CPU queue keeps until read (the whole run up to 256)" },
	{ "status-interval", required_argument, OPT_STATUS_INTERVAL, "TIME",
	  "fio's: print each job's numbers every TIME while it runs" },
	{ "samples-csv", required_argument, OPT_SAMPLES_CSV, "FILE",
	  "the time series as CSV (a row per job, sample and direction)" },
	{ "write_iops_log", optional_argument, OPT_IOPS_LOG, "PREFIX",
	  "fio's: PREFIX_iops.N.log, IOPS per log_avg_msec" },
	{ "write_bw_log", optional_argument, OPT_BW_LOG, "PREFIX",
	  "fio's: PREFIX_bw.N.log, KiB/s per log_avg_msec" },
	{ "write_lat_log", optional_argument, OPT_LAT_LOG, "PREFIX",
	  "fio's: PREFIX_{lat,clat,slat}.N.log, mean ns per log_avg_msec" },
	{ "write_hist_log", optional_argument, OPT_HIST_LOG, "PREFIX",
	  "fio's: PREFIX_clat_hist.N.log, clat buckets per log_hist_msec" },
	{ "log_avg_msec", required_argument, OPT_LOG_AVG, "MS",
	  "fio's: log window, a multiple of --sample-interval (sets it when not given)" },
	{ "log_hist_msec", required_argument, OPT_LOG_HIST, "MS",
	  "fio's: histogram log window (log_avg_msec)" },
	{ "log_offset", optional_argument, OPT_LOG_OFFSET, NULL,
	  "fio's: an offset column in the logs (0 in a window, as fio's averaged entries)" },
	{ "log_prio", optional_argument, OPT_LOG_PRIO, NULL,
	  "fio's: the priority column as 0xCLASSLEVEL (0x0000 in a window, as fio's averaged entries)" },
	{ "log_hist_coarseness", required_argument, OPT_LOG_COARSE, "N",
	  "fio's: 2^N buckets merged, 2 to 6 (2; fio's 0 and 1 are finer than the samples)" },
	{ "parse-only", no_argument, OPT_PARSE_ONLY, NULL,
	  "fio's: read the options and job files, say what is wrong, and exit (no device or module)" },
	{ "verbose", no_argument, OPT_VERBOSE, NULL,
	  "say what each accepted fio option means here" },
	{ "cmdhelp", optional_argument, OPT_CMDHELP, "OPT",
	  "fio's: what blkload does with fio option OPT (all of them without OPT)" },
	{ "showcmd", no_argument, OPT_SHOWCMD, NULL,
	  "fio's: the job files as one command line (blkload fio ...), then exit" },
	{ "help", no_argument, OPT_HELP, NULL, "this text" },
};

/* Options in all: the core table's, then each engine's. */
static size_t wopt_count(void)
{
	size_t n = ARRAY_SIZE(wopts);

	for (const struct engine_ops *const *e = engine_all(); *e; e++)
		n += (*e)->nr_opts;
	return n;
}

/* Option @i of all; @owner: the engine that declares it, or NULL (the core's). */
static const struct wopt *wopt_at(size_t i, const struct engine_ops **owner)
{
	if (owner)
		*owner = NULL;
	if (i < ARRAY_SIZE(wopts))
		return &wopts[i];
	i -= ARRAY_SIZE(wopts);
	for (const struct engine_ops *const *e = engine_all(); *e; e++) {
		if (i < (*e)->nr_opts) {
			if (owner)
				*owner = *e;
			return &(*e)->opts[i];
		}
		i -= (*e)->nr_opts;
	}
	return NULL;
}

/* The getopt table, each name once (opts_both_spellings adds the other spelling). */
static struct option *workload_getopt(void)
{
	size_t n = wopt_count();
	struct option *o = xcalloc(n + 1, sizeof(*o));

	for (size_t i = 0; i < n; i++) {
		const struct wopt *w = wopt_at(i, NULL);

		o[i].name = w->name;
		o[i].has_arg = w->has_arg;
		o[i].val = w->val;
	}
	return o;
}

/* "--rw, --readwrite PATTERN": an entry and its aliases. */
static char *opt_names(size_t i)
{
	const struct wopt *o = wopt_at(i, NULL), *k;
	char *s = xasprintf("--%s", o->name), *t;

	for (size_t j = i + 1; (k = wopt_at(j, NULL)) && !k->help && k->val == o->val; j++) {
		t = xasprintf("%s, --%s", s, k->name);
		free(s);
		s = t;
	}
	if (o->arg) {
		t = xasprintf("%s %s", s, o->arg);
		free(s);
		s = t;
	}
	return s;
}

/* Words of @text after @indent, wrapped at 79 columns. */
static void print_wrapped(FILE *f, const char *text, int col, int indent)
{
	const char *p = text;

	while (*p) {
		const char *sp = strchr(p, ' ');
		int len = sp ? (int)(sp - p) : (int)strlen(p);

		if (col > indent && col + 1 + len > 79) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", len, p);
		col += len;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

static void print_list(FILE *f, int val, const char *what)
{
	char *s = xstrdup("");

	for (size_t i = 0; i < wopt_count(); i++) {
		const struct wopt *o = wopt_at(i, NULL);
		char *t;

		if (o->val != val)
			continue;
		t = xasprintf("%s%s--%s", s, *s ? " " : "", o->name);
		free(s);
		s = t;
	}
	fprintf(f, "%s:\n  ", what);
	print_wrapped(f, s, 2, 2);
	free(s);
}

void workload_usage(FILE *f, const char *cmd)
{
	fprintf(f,
		"usage: blkload [-j] %s --dev DEVICE [--dev DEVICE ...] [OPTIONS]\n"
		"       blkload [-j] %s [OPTIONS] JOBFILE.fio [JOBFILE.fio ...]\n"
		"\n"
		"fio job files: [global] and job sections, stonewall, new_group, ${VAR};\n"
		"options given here apply to every job and win over the file's.\n"
		"Options take fio's names, in snake_case or kebab-case; sizes take k/m/g\n"
		"suffixes (kb_base), times s/ms/us/m/h.\n"
		"\n",
		cmd, cmd);
	for (size_t i = 0; i < wopt_count(); i++) {
		const struct engine_ops *owner, *prev = NULL;
		const struct wopt *o = wopt_at(i, &owner);
		char *names;
		int col;

		if (i)
			wopt_at(i - 1, &prev);
		if (owner && owner != prev)
			fprintf(f, "\n%s (--ioengine %s): %s\n", owner->name, owner->name, owner->help);
		if (!o->help)
			continue;
		names = opt_names(i);
		col = fprintf(f, "  %-28s", names);
		if (col > 30) {
			fprintf(f, "\n%30s", "");
			col = 30;
		}
		print_wrapped(f, o->help, col, 30);
		free(names);
	}
	fprintf(f, "\nengines (--ioengine):\n");
	engine_list(f);
	fputc('\n', f);
	print_list(f, OPT_FIO_NOOP, "fio's, accepted: blkload does that anyway");
	fprintf(f, "\nEvery other fio option is known by name (fio's HOWTO): one that blkload\n"
		"behaves like for the value given is accepted (buffered=0, disk_util,\n"
		"end_fsync=0, ...); a file option (directory, nrfiles, ...) is ignored\n"
		"with a warning; the rest are refused with the reason.\n");
}

void workload_complete(FILE *f, char sep)
{
	for (size_t i = 0; i < wopt_count(); i++) {
		const struct wopt *o = wopt_at(i, NULL);

		fprintf(f, "%s--%s%s", i ? (char[]){ sep, 0 } : "", o->name,
			o->has_arg == required_argument ? "=" : "");
	}
}


static int bad_value(const char *opt, const char *val, const char *what)
{
	fprintf(stderr, "blkload: --%s '%s': %s\n", opt, val, what);
	return -1;
}

int parse_percentiles(const char *s, struct report_opts *ro)
{
	char *copy = xstrdup(s), *save = NULL, *tok;
	int ret = 0;

	free(ro->percentiles);
	ro->percentiles = NULL;
	ro->nr_percentiles = 0;
	for (tok = strtok_r(copy, ":,", &save); tok; tok = strtok_r(NULL, ":,", &save)) {
		char *end;
		double p = strtod(tok, &end);

		if (*end || !(p > 0 && p <= 100)) {
			ret = bad_value("percentile_list", s, "percentiles are in (0, 100]");
			break;
		}
		for (unsigned int i = 0; i < ro->nr_percentiles; i++)
			if (ro->percentiles[i] == p)
				ret = bad_value("percentile_list", s, "each percentile once");
		if (ret)
			break;
		ro->percentiles = xrealloc(ro->percentiles,
					   (ro->nr_percentiles + 1) * sizeof(double));
		ro->percentiles[ro->nr_percentiles++] = p;
	}
	free(copy);
	return ret;
}

int parse_drain_ms(const char *s, uint32_t *ms)
{
	uint64_t ns;

	if (!parse_u32_range(s, 0, 3600000, ms))
		return 0;
	if (parse_time_ns(s, &ns) || !strpbrk(s, "smhdu") || ns > 3600000000000ULL)
		return -1;
	/* Rounded up: a wait asked for is never 0 ms, which means "do not wait". */
	*ms = (uint32_t)((ns + 999999) / 1000000);
	return 0;
}

/* fio's continue_on_error values that have a meaning here. */
/*
 * fio's random_distribution: random, zipf:THETA, pareto:H, normal:DEV (DEV a
 * percentage of the region); the parameter in the module's units (theta and
 * h in thousandths, DEV in hundredths of a percent). Its range is checked
 * again by the module, against the region.
 */
int dist_parse(const char *s, uint32_t *dist, uint32_t *param)
{
	static const struct {
		const char *name;
		uint32_t dist;
		double scale, max;
	} d[] = {
		{ "zipf", BLKLOAD_DIST_ZIPF, 1000, 10 },
		{ "pareto", BLKLOAD_DIST_PARETO, 1000, 1 },
		{ "normal", BLKLOAD_DIST_NORMAL, 100, 100 },
	};
	const char *colon = strchr(s, ':');
	char *end;
	double v;

	if (!strcmp(s, "random")) {
		*dist = BLKLOAD_DIST_RANDOM;
		*param = 0;
		return 0;
	}
	if (!colon)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(d); i++) {
		if (strlen(d[i].name) != (size_t)(colon - s) || strncmp(s, d[i].name, colon - s))
			continue;
		errno = 0;
		v = strtod(colon + 1, &end);
		if (errno || end == colon + 1 || *end || !(v > 0) || v > d[i].max ||
		    (d[i].dist != BLKLOAD_DIST_ZIPF && v >= d[i].max))
			return -1;
		*dist = d[i].dist;
		*param = (uint32_t)(v * d[i].scale + 0.5);
		/* zipf 1 has no closed form (fio refuses it too); 0 rounds to nothing. */
		if (!*param || (*dist == BLKLOAD_DIST_ZIPF && *param == 1000))
			return -1;
		return 0;
	}
	return -1;
}

/*
 * fio's zoned:A/S:A/S:... (A percent of the IOs to the next S percent of the
 * region; an empty S shares what the other zones leave) and
 * zoned_abs:A/SIZE:...; one set of zones for every direction. 0, or -1 with
 * the reason in @why.
 */
static int zones_parse(const char *s, struct bl_params *p, const char **why)
{
	bool abs = !strncmp(s, "zoned_abs:", 10);
	uint64_t acc = 0, sizes = 0;
	unsigned int n = 0, missing = 0;
	char *copy, *e, *save = NULL;
	int ret = -1;

	*why = abs ? "zoned_abs:PERCENT/SIZE:... (up to 16 zones, the percents adding up to 100)" :
		     "zoned:PERCENT/PERCENT:... (up to 16 zones, the IOs' percents adding up to 100, the sizes' to at most 100)";
	copy = xstrdup(s + (abs ? 10 : 6));
	if (strchr(copy, ',')) {
		*why = "zones apart for reads, writes and trims are not in blkload yet: give one set for all";
		goto out;
	}
	for (e = strtok_r(copy, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(e, '/');
		uint64_t size = UINT64_MAX;
		uint32_t a, pct;

		if (n == BL_DIST_ZONES_MAX) {
			*why = "at most 16 zones (fio takes 256)";
			goto out;
		}
		if (!slash)
			goto out;
		*slash = '\0';
		if (parse_u32_range(e, 0, 100, &a))
			goto out;
		if (slash[1] && abs) {
			if (parse_size(slash + 1, &size) || !size)
				goto out;
		} else if (slash[1]) {
			if (parse_u32_range(slash + 1, 0, 100, &pct))
				goto out;
			size = pct;
			sizes += pct;
		} else if (abs) {
			goto out;
		} else {
			missing++;
		}
		p->zones[n++] = (struct bl_dist_zone){ .access = a, .size = size };
		acc += a;
	}
	if (!n || acc != 100 || sizes > 100)
		goto out;
	for (unsigned int i = 0; i < n; i++)
		if (p->zones[i].size == UINT64_MAX)
			p->zones[i].size = (100 - sizes) / missing;
	p->nzones = n;
	p->dist = abs ? BLKLOAD_DIST_ZONED_ABS : BLKLOAD_DIST_ZONED;
	p->dist_param = 0;
	ret = 0;
out:
	free(copy);
	return ret;
}

/* One direction of bssplit/bsrange, "a/p:b/q" or "lo-hi", into @t; the count or -1. */
static int bs_one(char *s, bool range, uint32_t t[][3])
{
	uint32_t given = 0, open = 0, n = 0;
	char *save = NULL, *e;

	for (e = strtok_r(s, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
		char *sep = strchr(e, range ? '-' : '/');
		uint64_t lo, hi;
		uint32_t pct = 0;

		if (n == BL_GEN_BS_MAX || (range && n))
			return -1;
		if (sep)
			*sep = '\0';
		if (parse_size(e, &lo) || !lo || lo > UINT32_MAX)
			return -1;
		hi = lo;
		if (range && (!sep || parse_size(sep + 1, &hi) || hi < lo || hi > UINT32_MAX))
			return -1;
		if (!range && sep && *(sep + 1) && parse_u32_range(sep + 1, 0, 100, &pct))
			return -1;
		t[n][0] = (uint32_t)lo;
		t[n][1] = (uint32_t)hi;
		/* fio: an entry without a percent shares what the others leave; 0 drops it. */
		t[n][2] = range ? 100 : (!sep || !*(sep + 1)) ? UINT32_MAX : pct;
		if (t[n][2] == UINT32_MAX)
			open++;
		else
			given += t[n][2];
		if (t[n][2])
			n++;
	}
	if (!n || given > 100 || (!open && given != 100) || (open && given == 100))
		return -1;
	for (uint32_t i = 0, k = 0; i < n; i++) {
		if (t[i][2] != UINT32_MAX)
			continue;
		/* The rest in equal parts, the first ones taking the remainder. */
		t[i][2] = (100 - given) / open + (k++ < (100 - given) % open);
	}
	return (int)n;
}

int bs_parse(struct workload *w, const char *s, bool range)
{
	char *copy = xstrdup(s), *comma = strchr(copy, ',');
	uint32_t t[2][BL_GEN_BS_MAX][3];
	const char *why = NULL;
	int n[2];

	if (comma)
		*comma = '\0';
	n[0] = bs_one(copy, range, t[0]);
	n[1] = comma ? bs_one(comma + 1, range, t[1]) : n[0];
	free(copy);
	if (n[0] < 0 || n[1] < 0 ||
	    bl_params_split_set(&w->p, 0, t[0], (unsigned int)n[0], &why) ||
	    bl_params_split_set(&w->p, 1, comma ? t[1] : t[0], (unsigned int)n[1], &why)) {
		fprintf(stderr, "blkload: --%s %s: %s\n", range ? "bsrange" : "bssplit", s,
			why ? why : range ? "LO-HI with sizes (4k-64k), a second for writes after a comma" :
			"SIZE/PERCENT entries separated by ':', the percents adding up to 100, "
			"at most 16 (4k/50:64k/40:1m/10), writes' after a comma");
		return -1;
	}
	return 0;
}

static int coe_parse(const char *s, uint32_t *coe)
{
	static const struct { const char *name; uint32_t bits; } v[] = {
		{ "none", 0 }, { "0", 0 },
		{ "read", BLKLOAD_COE_READ }, { "write", BLKLOAD_COE_WRITE },
		{ "io", BLKLOAD_COE_READ | BLKLOAD_COE_WRITE },
		{ "all", BLKLOAD_COE_READ | BLKLOAD_COE_WRITE },
		{ "1", BLKLOAD_COE_READ | BLKLOAD_COE_WRITE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		if (!strcmp(s, v[i].name)) {
			*coe = v[i].bits;
			return 0;
		}
	}
	return -1;
}

void workload_free(struct workload *w)
{
	free(w->devs);
	free(w->images);
	cpuset_free(&w->cpus);
	cpuset_free(&w->allowed);
	free(w->ro.percentiles);
	for (unsigned int i = 0; i < w->nr_filenames; i++)
		free(w->filenames[i]);
	free(w->filenames);
	free(w->jobfiles);
	optlist_free(&w->opts);
	for (unsigned int i = 0; i < w->nr_args; i++)
		free(w->args[i]);
	free(w->args);
	if (w->ss_run)
		ss_free(w->ss_run);
	free(w->ss_run);
}

int workload_option_known(const char *name)
{
	for (size_t i = 0; i < wopt_count(); i++) {
		const struct wopt *o = wopt_at(i, NULL);
		const char *a = o->name, *b = name;

		while (*a && (*a == *b || ((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))) {
			a++;
			b++;
		}
		if (*a || *b)
			continue;
		if (o->val == OPT_HELP || o->val == OPT_OUTPUT || o->val == OPT_PARSE_ONLY ||
		    o->val == OPT_VERBOSE || o->val == OPT_CMDHELP || o->val == OPT_SHOWCMD)
			return -1;
		return 0;
	}
	return -1;
}

static int parse_opts(struct workload *w, int argc, char **argv, const char *cmd,
		      const struct option *opts, bool jobfiles);

/* fio's --filename=a:b: devices separated by ':', "\\:" for a ':' in one. */
static int add_filenames(struct workload *w, const char *list)
{
	char *copy = xstrdup(list), *p = copy, *out = copy, *start = copy;

	/* Kept until workload_free(): the device names point into it. */
	w->filenames = xrealloc(w->filenames, (w->nr_filenames + 1) * sizeof(*w->filenames));
	w->filenames[w->nr_filenames++] = copy;
	for (;; p++) {
		if (*p == '\\' && p[1] == ':') {
			*out++ = ':';
			p++;
			continue;
		}
		if (*p == ':' || !*p) {
			bool end = !*p;

			*out++ = '\0';
			if (!*start)
				return bad_value("filename", list, "device paths separated by ':'");
			w->devs = xrealloc(w->devs, (w->nr_devs + 1) * sizeof(*w->devs));
			w->devs[w->nr_devs++] = start;
			start = out;
			if (end)
				break;
			continue;
		}
		*out++ = *p;
	}
	return 0;
}

/* The online CPUs (/sys/devices/system/cpu/online); CPU 0 when it cannot be read. */
static void online_cpus(struct cpuset *on)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	char *line = NULL;
	size_t cap = 0;

	if (f && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (parse_cpulist(line, on))
			cpuset_set(on, 0);
	} else {
		cpuset_set(on, 0);
	}
	if (f)
		fclose(f);
	free(line);
}

/*
 * fio's numa_cpu_nodes: the CPUs of those NUMA nodes (sysfs), in @cpus; as
 * in fio (which binds to the nodes after cpus_allowed's affinity), they
 * replace cpus_allowed's (@have: @cpus filled), with a warning.
 */
static int numa_cpus(const char *nodes, struct cpuset *cpus, bool have, const char *cmd)
{
	static bool warned;	/* once a run: every numjobs copy is parsed again */
	struct cpuset set = { 0 }, all = { 0 };
	char path[64], *line = NULL;
	size_t cap = 0;
	int ret = -1;

	if (parse_cpulist(nodes, &set) || !cpuset_count(&set))
		return bad_value("numa_cpu_nodes", nodes, "a NUMA node list such as 0 or 0-1");
	for (unsigned int n = 0; n < cpuset_limit(&set); n++) {
		struct cpuset one = { 0 };
		FILE *f;
		ssize_t len;

		if (!cpuset_test(&set, n))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/cpulist", n);
		f = fopen(path, "r");
		len = f ? getline(&line, &cap, f) : -1;
		if (f)
			fclose(f);
		if (len < 0) {
			fprintf(stderr, "blkload: %s: numa_cpu_nodes %s: no NUMA node %u here (%s)\n",
				cmd, nodes, n, path);
			goto out;
		}
		line[strcspn(line, "\n")] = 0;
		/* A node without CPUs (memory only) adds none. */
		if (*line && parse_cpulist(line, &one) == 0)
			for (unsigned int c = 0; c < cpuset_limit(&one); c++)
				if (cpuset_test(&one, c))
					cpuset_set(&all, c);
		cpuset_free(&one);
	}
	if (have && !warned) {
		warned = true;
		fprintf(stderr, "blkload: %s: numa_cpu_nodes %s replaces cpus_allowed's CPUs, as in fio\n",
			cmd, nodes);
	}
	cpuset_free(cpus);
	for (unsigned int c = 0; c < cpuset_limit(&all); c++)
		if (cpuset_test(&all, c))
			cpuset_set(cpus, c);
	if (!cpuset_count(cpus)) {
		fprintf(stderr, "blkload: %s: numa_cpu_nodes %s: those nodes have no CPU\n", cmd, nodes);
		goto out;
	}
	ret = 0;
out:
	free(line);
	cpuset_free(&set);
	cpuset_free(&all);
	return ret;
}

/*
 * fio's cpus_allowed (and numa_cpu_nodes): the CPUs the job's copies
 * (numjobs) are placed on, one CPU each (workload_place()); blkload's
 * --cpus is another thing (one queue per CPU of one job), so not both.
 */
static int fio_cpus(struct workload *w, const char *allowed, const char *nodes, const char *cmd)
{
	struct cpuset on = { 0 };

	if (!allowed && !nodes)
		return 0;
	if (w->have_cpus) {
		fprintf(stderr, "blkload: %s: --cpus (one job, a queue per CPU) or fio's %s (the CPUs its numjobs copies run on, one each), not both\n",
			cmd, allowed ? "cpus_allowed" : "numa_cpu_nodes");
		return -1;
	}
	cpuset_free(&w->allowed);
	if (allowed && (parse_cpulist(allowed, &w->allowed) || !cpuset_count(&w->allowed)))
		return bad_value("cpus_allowed", allowed, "a CPU list such as 0-3,8");
	if (nodes && numa_cpus(nodes, &w->allowed, allowed, cmd))
		return -1;
	if (!allowed)
		allowed = nodes;
	/*
	 * Every CPU of the list online (fio refuses one past the CPUs there
	 * are); not checked against this process's affinity, which threads
	 * may leave (taskset -c 0 blkload ... --cpus_allowed=1-3).
	 */
	online_cpus(&on);
	for (unsigned int c = 0; c < cpuset_limit(&w->allowed); c++) {
		if (cpuset_test(&w->allowed, c) && (c >= CPU_SETSIZE || !cpuset_test(&on, c))) {
			fprintf(stderr, "blkload: %s: --%s %s: CPU %u is offline or does not exist\n",
				cmd, nodes && allowed == nodes ? "numa_cpu_nodes" : "cpus_allowed",
				allowed, c);
			cpuset_free(&on);
			return -1;
		}
	}
	cpuset_free(&on);
	w->have_allowed = true;
	return 0;
}

void workload_place(struct workload *w, unsigned int clone)
{
	unsigned int n, at, cpu = 0;
	cpu_set_t set;

	w->clone = clone;
	/* fio seeds each job apart (its job number); randrepeat=0 runs are apart anyway. */
	w->p.randseed += (uint64_t)clone * 0x9e3779b97f4a7c15ULL;
	if (w->have_cpus || (!w->have_allowed && w->numjobs <= 1))
		return;
	if (w->have_allowed) {
		/* fio_cpus() checked them: online CPUs, below CPU_SETSIZE. */
		CPU_ZERO(&set);
		for (unsigned int c = 0; c < cpuset_limit(&w->allowed) && c < CPU_SETSIZE; c++)
			if (cpuset_test(&w->allowed, c))
				CPU_SET(c, &set);
	} else if (sched_getaffinity(0, sizeof(set), &set)) {
		CPU_ZERO(&set);
		CPU_SET(0, &set);
	}
	n = (unsigned int)CPU_COUNT(&set);
	at = n ? clone % n : 0;
	for (unsigned int c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, &set) && !at--) {
			cpu = c;
			break;
		}
	}
	cpuset_free(&w->cpus);
	memset(&w->cpus, 0, sizeof(w->cpus));
	cpuset_set(&w->cpus, cpu);
	w->have_cpus = true;
}

/*
 * fio's numa_mem_policy is not applied: the module allocates each queue's
 * memory on its CPU's node; the userspace engines' buffers go where the
 * kernel's default policy puts them. A mode other than default gets one
 * warning a run.
 */
static int numa_mem(const char *v)
{
	static const char *const modes[] = { "default", "prefer", "bind", "interleave", "local" };
	static bool warned;
	size_t len = strcspn(v, ":");
	bool known = false;

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		known |= strlen(modes[i]) == len && !strncmp(v, modes[i], len);
	if (!known)
		return bad_value("numa_mem_policy", v,
				 "default, local, prefer:NODE, bind:NODES or interleave:NODES");
	if (strncmp(v, "default", len) && !warned) {
		warned = true;
		fprintf(stderr, "blkload: numa_mem_policy=%s not applied: the module puts a queue's memory on its CPU's node, the userspace engines' buffers are where the kernel puts them\n",
			v);
	}
	return 0;
}

/*
 * Once a run: a uniform random job that goes without fio's random map for
 * a split (fio keeps its map there) or blockalign (fio warns as well).
 */
static void map_note(const struct workload *w, const char *cmd)
{
	static bool told;

	if (told || !w->p.random_map || !bl_rw_random(w->p.rw) || bl_params_map(&w->p) ||
	    w->p.dist != BLKLOAD_DIST_RANDOM)
		return;
	told = true;
	if (w->p.nbs[0] || w->p.nbs[1])
		fprintf(stderr, "blkload: %s: no random map with bssplit or bsrange (fio keeps one): a pass may repeat blocks and miss others\n",
			cmd);
	else if (w->p.zone_range)
		fprintf(stderr, "blkload: %s: no random map in a zonemode=strided zone (fio keeps one a zone): its draws may repeat blocks\n",
			cmd);
	else
		fprintf(stderr, "blkload: %s: blockalign turns off the random map, as in fio\n", cmd);
}

/* Greatest common divisor; gcd32(0, b) is b. */
static uint32_t gcd32(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* fio's engines that do one IO at a time, each done when its call returns. */
static bool fio_sync_engine(const char *name)
{
	static const char *const sync_engines[] = { "psync", "sync", "pvsync", "pvsync2", "vsync" };

	for (size_t i = 0; i < ARRAY_SIZE(sync_engines); i++)
		if (!strcmp(name, sync_engines[i]))
			return true;
	return false;
}

/*
 * fio's per-direction form READS[,WRITES[,TRIMS]] into @v: an empty field
 * is none, and the last value given, not ended by a comma, is the next
 * directions' too (fio's rule: rate=1m is every direction's, rate=1m,2m
 * gives trims 2m, rate=1m, only reads); sizes (bytes) or, @count, plain
 * numbers. -1 if bad.
 */
static int dir_values(const char *s, uint64_t v[3], bool count)
{
	char *dup = xstrdup(s), *at = dup, *field = NULL;
	unsigned int d = 0;
	int ret = 0;
	bool last = false;

	memset(v, 0, 3 * sizeof(*v));
	for (; (field = strsep(&at, ",")) && !ret; d++) {
		last = *field;
		if (d > 2 || (*field && (count ? parse_u64(field, &v[d]) : parse_size(field, &v[d]))))
			ret = -1;
	}
	for (; !ret && last && d && d < 3; d++)
		v[d] = v[d - 1];
	free(dup);
	return ret;
}

/* The first direction the job does (0 reads, 1 writes, 2 trims), of @has. */
static int first_dir(const bool has[3])
{
	return has[0] ? 0 : has[1] ? 1 : 2;
}

/* Each direction's share of the job's IOs (reads, writes, trims) and mean size in bytes. */
static void dir_shares(const struct bl_params *p, double share[3], double mean[3])
{
	double trim = bl_params_trim_pct(p) / 100.0, mix = bl_params_mix(p) / 100.0;

	share[0] = mix * (1 - trim);
	share[1] = (1 - mix) * (1 - trim);
	share[2] = trim;
	for (unsigned int d = 0; d < 2; d++)
		mean[d] = (double)bl_params_mean200(p, d) * p->bs / 200;
	mean[2] = mean[1];	/* trims take the writes' sizes */
}

/*
 * fio's rate (bytes a second, per direction) as the job's rate: IOs of bs
 * a second (rate_iops, as a module before rate-bps takes it) when that is
 * exact, else bytes a second (rate-bps: a rate of no whole number of IOs,
 * a bs-split paced by bytes as fio paces). fio paces each direction apart,
 * its IOs following the caps; blkload paces the job's one stream: a mix is
 * taken when each direction has a rate and the rates keep the mix's shares
 * (within half a percent of the IOs), paced at their sum; else refused.
 * Then fio's rate_min and rate_iops_min: one value for the job's
 * directions. -1 after saying why.
 */
static int rate_plan(struct workload *w, const uint64_t rate[3], const uint64_t rmin[3],
		     const uint64_t rimin[3], const char *cmd)
{
	static const char *const dn[3] = { "reads", "writes", "trims" };
	bool has[3] = { bl_params_reads(&w->p), bl_params_writes(&w->p), bl_params_trims(&w->p) };
	double share[3], mean[3], n = 0;
	uint64_t sum = 0, mv = 0, iv = 0;
	int dirs = 0, first = -1;

	dir_shares(&w->p, share, mean);
	/* fio's own refusals (init.c), in its words. */
	if ((rmin[0] || rmin[1] || rmin[2]) && (rimin[0] || rimin[1] || rimin[2])) {
		fprintf(stderr, "blkload: %s: rate_min and rate_iops_min are mutually exclusive (fio's rule)\n",
			cmd);
		return -1;
	}
	for (int d = 0; d < 3; d++)
		if ((rate[d] && rate[d] < rmin[d]) ||
		    (w->p.rate_iops && d == first_dir(has) && w->p.rate_iops < rimin[d])) {
			fprintf(stderr, "blkload: %s: the minimum rate exceeds the rate (%s: rate %" PRIu64 ", rate_min %" PRIu64 ", rate_iops %u, rate_iops_min %" PRIu64 "; fio's rule)\n",
				cmd, dn[d], rate[d], rmin[d], w->p.rate_iops, rimin[d]);
			return -1;
		}
	for (int d = 0; d < 3; d++) {
		if (!has[d])
			continue;
		/* rate_min: one value over the job's directions. */
		if (first >= 0 && (rmin[d] != mv || rimin[d] != iv)) {
			fprintf(stderr, "blkload: %s: rate_min/rate_iops_min: one value for the job's %s and %s (fio's per-direction minimums that differ are not in blkload yet)\n",
				cmd, dn[first], dn[d]);
			return -1;
		}
		if (first < 0) {
			first = d;
			mv = rmin[d];
			iv = rimin[d];
		}
		dirs++;
		sum += rate[d];
		if (rate[d])
			n += rate[d] / mean[d];
	}
	if ((mv || iv) && w->nr_devs > 1) {
		fprintf(stderr, "blkload: %s: rate_min: fio's is the job's over all its files; blkload runs a job per device: give one device a job\n",
			cmd);
		return -1;
	}
	if (iv > UINT32_MAX) {
		fprintf(stderr, "blkload: %s: rate_iops_min %" PRIu64 ": over 2^32\n", cmd, iv);
		return -1;
	}
	w->p.rate_min = mv;
	w->p.rate_iops_min = (uint32_t)iv;
	if (!sum)
		return 0;
	if (w->nr_devs > 1) {
		fprintf(stderr, "blkload: %s: --rate: fio's rate is the job's over all its files; blkload runs a job per device: give rate_iops, which is each device's job's rate\n",
			cmd);
		return -1;
	}
	for (int d = 0; d < 3 && dirs > 1; d++) {
		double got = has[d] && rate[d] ? rate[d] / mean[d] / n : 0;

		if (!has[d])
			continue;
		if (!rate[d] || got < share[d] - 0.005 || got > share[d] + 0.005) {
			fprintf(stderr, "blkload: %s: --rate: fio paces each direction of a mix apart, its IOs following the caps; blkload paces the job's IOs as one stream: give each direction a rate in proportion to its share of the IOs (%s: %.1f%% of the IOs, the rates give %.1f%%), or rate_iops\n",
				cmd, dn[d], share[d] * 100, got * 100);
			return -1;
		}
	}
	/* As IOs only where each queue has one a second at least (else rate-iops would be refused). */
	if (!w->p.nbs[0] && !w->p.nbs[1] && sum % w->p.bs == 0 && sum / w->p.bs <= UINT32_MAX &&
	    sum / w->p.bs >= (w->have_cpus ? cpuset_count(&w->cpus) : 1)) {
		w->p.rate_iops = (uint32_t)(sum / w->p.bs);
		return 0;
	}
	w->p.rate_bps = sum;
	return 0;
}

/* Option @name of @opts (either spelling, whole names only), or NULL. */
static const struct option *opt_find(const struct option *opts, const char *name, size_t len)
{
	for (; opts->name; opts++)
		if (strlen(opts->name) == len && !strncmp(opts->name, name, len))
			return opts;
	return NULL;
}

/* Whether fio's option @name (@len bytes) takes a value, not a bool or a bare flag. */
static bool fio_takes_value(const char *name, size_t len)
{
	char *n = strndup(name, len);
	const struct fio_opt *f = fio_opt_find(n);

	free(n);
	return f && f->value;
}

/* A string for the rewritten vector, kept in @args until workload_free(). */
static char *keep_arg(char ***args, unsigned int *n, char *s)
{
	*args = xrealloc(*args, (*n + 1) * sizeof(**args));
	(*args)[(*n)++] = s;
	return s;
}

/*
 * fio's command line as fio reads it, before getopt sees it: "-name=value"
 * (one dash: fio parses with getopt_long_only) as "--name=value"; a bool
 * given its value apart ("--randrepeat 0") as "--randrepeat=0"; a fio alias
 * of an option blkload has under another name (--timeout: --runtime) under
 * blkload's; and every other fio option judged by fio's table (fioopts.h):
 * taken out when blkload behaves that way anyway or when it is a file
 * option (one warning), refused with the reason. Stops at "--". Returns the
 * new vector (argv's strings, or new ones in @args), NULL after a message.
 */
static char **fio_argv(int argc, char **argv, const struct option *opts, const char *cmd,
		       char ***args, unsigned int *nr_args, int *newc)
{
	char **out = xcalloc((size_t)argc + 1, sizeof(*out));
	int n = 0, i;

	for (i = 0; i < argc; i++) {
		char *a = argv[i], *name, *eq, *val, *ours;
		const struct option *o;
		const struct fio_opt *f;
		size_t len;

		if (!i || a[0] != '-' || !a[1] || !strcmp(a, "--")) {
			out[n++] = a;
			if (i && !strcmp(a, "--"))
				break;
			continue;
		}
		name = a + 1 + (a[1] == '-');
		eq = strchr(name, '=');
		len = eq ? (size_t)(eq - name) : strlen(name);
		o = opt_find(opts, name, len);
		f = NULL;
		if (!o) {
			char *n0 = strndup(name, len);

			f = fio_opt_find(n0);
			free(n0);
		}
		/* A single dash: only a long name this parser or fio's table has. */
		if (a[1] != '-' && (len < 2 || (!o && !f))) {
			out[n++] = a;
			continue;
		}
		if (o) {
			if (a[1] != '-')
				a = keep_arg(args, nr_args, xasprintf("-%s", a));
			/*
			 * A value given apart: a bool's when it is a bool word; the next
			 * word whatever it is for an option fio gives a value to
			 * (iodepth_batch_complete 16, write_bw_log NAME).
			 */
			if (o->has_arg == optional_argument && !eq && i + 1 < argc &&
			    (fio_bool_word(argv[i + 1]) ||
			     (argv[i + 1][0] != '-' && fio_takes_value(name, len))))
				a = keep_arg(args, nr_args, xasprintf("--%.*s=%s", (int)len, name,
								     argv[++i]));
			out[n++] = a;
			continue;
		}
		if (!f) {
			/* Not fio's either: getopt says so (or takes an abbreviation). */
			out[n++] = a;
			continue;
		}
		val = eq ? eq + 1 : NULL;
		if (!eq && i + 1 < argc && (f->value ? strcmp(argv[i + 1], "--") != 0 :
						   fio_bool_word(argv[i + 1])))
			val = argv[++i];
		ours = fio_opt_ours(f, workload_option_known);
		if (ours) {
			out[n++] = keep_arg(args, nr_args, val ? xasprintf("--%s=%s", ours, val) :
								 xasprintf("--%s", ours));
			free(ours);
			continue;
		}
		{
			char *spelled = strndup(name, len);
			enum fio_verdict v = fio_opt_check(f, spelled, val, cmd, false);

			free(spelled);
			if (v == FIO_REFUSE) {
				free(out);
				return NULL;
			}
		}
	}
	for (i++; i < argc; i++)
		out[n++] = argv[i];
	*newc = n;
	return out;
}

/* Parses the workload options; returns 0, 1 after --help, or -1. */
int workload_parse_args(struct workload *w, int argc, char **argv, const char *cmd,
			bool jobfiles)
{
	struct option *base = workload_getopt();
	struct option *opts = opts_both_spellings(base);
	char **args = NULL, **v;
	unsigned int nr_args = 0;
	int n = 0, ret = -1;

	/* --verbose is for fio_argv()'s verdicts too, wherever it stands. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-verbose"))
			fio_opts_verbose = true;
	v = fio_argv(argc, argv, opts, cmd, &args, &nr_args, &n);
	if (v)
		ret = parse_opts(w, n, v, cmd, opts, jobfiles);
	else
		memset(w, 0, sizeof(*w));
	/* After parse_opts(), which starts from an empty workload. */
	w->args = args;
	w->nr_args = nr_args;
	free(v);
	opts_free(opts, base);
	free(base);
	return ret;
}

int workload_parse(struct workload *w, int argc, char **argv, const char *cmd)
{
	return workload_parse_args(w, argc, argv, cmd, false);
}

/*
 * fio's log windows are whole numbers of samples: log_avg_msec sets the
 * interval unless --sample-interval was given; a window of 0 (fio: each
 * IO) is one interval.
 */
static int logs_check(struct workload *w, bool have_sample, const char *cmd)
{
	struct series_logs *lg = &w->logs;
	bool any = lg->iops || lg->bw || lg->lat || lg->hist;
	const char **p[] = { &lg->iops, &lg->bw, &lg->lat, &lg->hist };

	for (size_t i = 0; i < ARRAY_SIZE(p); i++)
		if (*p[i] && !**p[i])
			*p[i] = w->name ? w->name : "blkload";

	if (!have_sample && (lg->avg_ns || lg->hist_ns)) {
		w->p.sample_ns = lg->avg_ns ? lg->avg_ns : lg->hist_ns;
		if (w->p.sample_ns < 10000000ULL) {
			fprintf(stderr, "blkload: %s: log_avg_msec and log_hist_msec are at least 10 (the shortest sample interval)\n",
				cmd);
			return -1;
		}
	}
	w->sample_given = have_sample || lg->avg_ns || lg->hist_ns;
	/*
	 * fio's log_avg_msec=0 logs each IO, with its offset and priority;
	 * blkload's logs are windows: said once, so a plot of offsets is not
	 * taken for one.
	 */
	if ((lg->offset || lg->prio) && !lg->avg_ns && (lg->iops || lg->bw || lg->lat)) {
		static bool told;

		if (!told)
			fprintf(stderr, "blkload: %s: %s: blkload's logs are windows of the sample interval (fio's log_avg_msec=0 logs each IO): the column is 0, as in fio's averaged entries\n",
				cmd, lg->offset ? "log_offset" : "log_prio");
		told = true;
	}
	if (!lg->avg_ns)
		lg->avg_ns = w->p.sample_ns;
	if (!lg->hist_ns)
		lg->hist_ns = lg->avg_ns;
	if ((any || w->status_ns || w->samples_csv) && !w->p.sample_ns) {
		fprintf(stderr, "blkload: %s: logs, --status-interval and --samples-csv need samples (--sample-interval is 0)\n",
			cmd);
		return -1;
	}
	if (w->p.sample_ns && (lg->avg_ns % w->p.sample_ns || lg->hist_ns % w->p.sample_ns ||
			     lg->avg_ns < w->p.sample_ns || lg->hist_ns < w->p.sample_ns)) {
		fprintf(stderr, "blkload: %s: log_avg_msec and log_hist_msec must be multiples of --sample-interval (%" PRIu64 " ms)\n",
			cmd, w->p.sample_ns / 1000000);
		return -1;
	}
	if (w->status_ns && engine_find(w->engine) && !engine_find(w->engine)->live) {
		fprintf(stderr, "blkload: %s: --status-interval is for the kernel engine (userspace engines report at the end)\n",
			cmd);
		return -1;
	}
	if (w->p.sample_ns && w->status_ns && (w->status_ns % w->p.sample_ns || w->status_ns < w->p.sample_ns)) {
		fprintf(stderr, "blkload: %s: --status-interval must be a multiple of --sample-interval (%" PRIu64 " ms)\n",
			cmd, w->p.sample_ns / 1000000);
		return -1;
	}
	return 0;
}

static int parse_opts(struct workload *w, int argc, char **argv, const char *cmd,
		      const struct option *opts, bool jobfiles)
{
	uint32_t u32;
	uint64_t rate[3] = { 0 }, rmin[3] = { 0 }, rimin[3] = { 0 };
	uint32_t rcycle_ms = 0, ws_pct = 5;	/* fio's dedupe_working_set_percentage default */
	int zmode = -1;		/* fio's zonemode: not given, none, strided */
	bool ws_mode = false;
	const char *allowed = NULL, *numa_nodes = NULL;
	bool have_sample = false, randrepeat_off = false, have_seed = false;
	int time_based = 0;
	bool lfsr = false, bs_unaligned = false;
	uint64_t filesize = 0;
	int c, idx;

	memset(w, 0, sizeof(*w));
	w->p.rwmixread = 50;
	w->p.bs = 4096;
	w->p.iodepth = 1;
	/* fio's default: a random pass visits each block once (norandommap: uniform draws). */
	w->p.random_map = true;
	w->drain_ms = 5000;
	w->engine = NULL;
	w->p.sample_ns = 1000000000ULL;
	ss_opts_init(&w->ss);
	w->logs.coarseness = BL_SHIST_SHIFT;
	w->ro.nr_percentiles = ARRAY_SIZE(default_percentiles);
	w->ro.percentiles = xcalloc(w->ro.nr_percentiles, sizeof(double));
	memcpy(w->ro.percentiles, default_percentiles, sizeof(default_percentiles));

	/*
	 * fio's kb_base changes how every size reads, wherever it stands:
	 * a first, silent pass takes it (getopt's own matching, abbreviations
	 * included), the second does the rest.
	 */
	parse_set_kb_base(1024);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, &idx)) != -1) {
		if (c != OPT_KB_BASE)
			continue;
		if (parse_u32_range(optarg, 1000, 1024, &u32) || parse_set_kb_base(u32)) {
			opterr = 1;
			return bad_value("kb_base", optarg,
					 "1024 (k = 1024, KiB = 1000, fio's default) or 1000");
		}
	}
	opterr = 1;
	optind = 0;	/* 0: glibc rescans the option string (no "+") */
	while ((c = getopt_long(argc, argv, "h", opts, &idx)) != -1) {
		int ret = 0;

		/* fio's "job options": what was given, in fio's spelling. */
		if (c >= OPT_DEV && c != OPT_HELP && c != OPT_VERBOSE) {
			char *key = xstrdup(opts[idx].name);

			for (char *p = key; *p; p++)
				if (*p == '-')
					*p = '_';
			optlist_set(&w->opts, key, optarg);
			free(key);
		}
		switch (c) {
		case OPT_FILENAME:
			/* fio's --filename=a:b names two; "\\:" is a ':' in a name. */
			ret = add_filenames(w, optarg);
			break;
		case OPT_DEV:	/* taken as it is: /dev/disk/by-path names have ':' */
			w->devs = xrealloc(w->devs, (w->nr_devs + 1) * sizeof(*w->devs));
			w->devs[w->nr_devs++] = optarg;
			break;
		case OPT_NAME:
			/* Each --name starts a job (cmd_run.c splits the line); one per workload here. */
			if (w->name) {
				fprintf(stderr, "blkload: %s: --name once per job\n", cmd);
				return -1;
			}
			w->name = optarg;
			break;
		case OPT_OUTPUT:
			w->output = optarg;
			break;
		case OPT_PARSE_ONLY:
			w->parse_only = true;
			break;
		case OPT_VERBOSE:
			fio_opts_verbose = true;
			break;
		case OPT_SHOWCMD:
			w->showcmd = true;
			break;
		case OPT_CMDHELP:
			return fio_opt_help(stdout, optarg, workload_option_known) ? -1 : 1;
		case OPT_DIRECT:
		case OPT_BUFFERED: {
			/* The last of the two wins, as in fio. */
			int b = fio_bool_value(optarg);

			if (b < 0)
				ret = bad_value(opts[idx].name, optarg, "a bool: 0 or 1");
			w->buffered = c == OPT_DIRECT ? b == 0 : b == 1;
			break;
		}
		case OPT_NUMJOBS:
			ret = parse_u32_range(optarg, 1, 4096, &w->numjobs) ?
			      bad_value(opts[idx].name, optarg,
					"a number from 1 to 4096 (fio's most jobs)") : 0;
			break;
		case OPT_CPUS_ALLOWED:
			allowed = optarg;
			break;
		case OPT_BS_UNALIGNED: {
			int b = optarg ? fio_bool_value(optarg) : 1;

			if (b < 0)
				ret = bad_value(opts[idx].name, optarg, "0 or 1");
			bs_unaligned = b == 1;
			break;
		}
		case OPT_RANDGEN:
			/*
			 * fio's offset generators: blkload has one (splitmix64,
			 * and the random map's bijection). lfsr's promise, no
			 * block twice a pass, is the map's: lfsr keeps it even
			 * with norandommap, as fio's lfsr needs no map.
			 */
			if (strcmp(optarg, "tausworthe") && strcmp(optarg, "tausworthe64") &&
			    strcmp(optarg, "lfsr"))
				ret = bad_value(opts[idx].name, optarg, "tausworthe, tausworthe64 or lfsr");
			lfsr = !strcmp(optarg, "lfsr");
			break;
		case OPT_NORANDOMMAP: {
			int b = optarg ? fio_bool_value(optarg) : 1;

			if (b < 0)
				ret = bad_value(opts[idx].name, optarg, "0 or 1");
			w->p.random_map = b == 0;
			break;
		}
		case OPT_NUMA_NODES:
			numa_nodes = optarg;
			break;
		case OPT_NUMA_MEM:
			ret = numa_mem(optarg);
			break;
		case OPT_CPUS_POLICY:
			if (strcmp(optarg, "split") && strcmp(optarg, "shared"))
				ret = bad_value(opts[idx].name, optarg, "split or shared");
			break;
		case OPT_FIO_NOOP:
			/* fio's randrepeat=0: a seed of its own for each run (unless randseed); the last wins. */
			if (!strcmp(opts[idx].name, "randrepeat")) {
				int b = optarg ? fio_bool_value(optarg) : 1;

				if (b < 0)
					ret = bad_value(opts[idx].name, optarg, "a bool: 0 or 1");
				randrepeat_off = b == 0;
				break;
			}
			if (!strcmp(opts[idx].name, "group_reporting")) {
				int b = optarg ? fio_bool_value(optarg) : 1;

				if (b < 0)
					ret = bad_value(opts[idx].name, optarg, "a bool: 0 or 1");
				w->group_reporting = b == 1;
				break;
			}
			/* fio's iodepth_batch_complete_min: how many completions a reap waits for. */
			if (!strncmp(opts[idx].name, "iodepth_batch_complete", 22) && optarg &&
			    strcmp(optarg, "1") && strcmp(optarg, "0")) {
				ret = bad_value(opts[idx].name, optarg,
						"blkload's reap waits for one completion at least (fio's default, 0 or 1); waiting for more is not in blkload yet");
				break;
			}
			/* What blkload does anyway: fio's bare form or =1. */
			if (optarg && strcmp(optarg, "1") && strcmp(optarg, "true") &&
			    !(!strcmp(opts[idx].name, "invalidate") && !strcmp(optarg, "0")))
				ret = bad_value(opts[idx].name, optarg,
						"1 (blkload does that anyway; the other way is not supported)");
			break;
		case OPT_RW: {
			/* fio's PATTERN:OFFSET: a hole after each IO (sequential patterns). */
			char *v = xstrdup(optarg), *colon = strchr(v, ':');
			const char *hole_why = NULL;

			w->p.rw_hole = 0;
			if (colon) {
				bool neg = colon[1] == '-';
				uint64_t h;

				*colon = '\0';
				if (parse_size(colon + 1 + neg, &h) || h > INT64_MAX)
					hole_why = "PATTERN:OFFSET with OFFSET a size such as 8k or -8k";
				else
					w->p.rw_hole = neg ? -h : h;
			}
			if (hole_why)
				ret = bad_value(opts[idx].name, optarg, hole_why);
			else if (rw_parse(v, &w->p.rw))
				ret = bad_value(opts[idx].name, optarg,
						!strcmp(v, "trimwrite") || !strcmp(v, "randtrimwrite") ?
						"fio's trimwrite is not in blkload yet" :
						"one of read write randread randwrite rw randrw trim randtrim");
			else if (w->p.rw_hole && bl_rw_random(w->p.rw))
				ret = bad_value(opts[idx].name, optarg,
						"OFFSET on a random pattern (fio's rw_sequencer: N IOs from one random offset) is not in blkload yet");
			free(v);
			w->have_rw = true;
			break;
		}
		case OPT_RWMIXREAD:
			ret = parse_u32_range(optarg, 0, 100, &w->p.rwmixread) ?
			      bad_value(opts[idx].name, optarg, "a percentage 0-100") : 0;
			break;
		case OPT_RATE:
			/* fio's reads[,writes[,trims]]; one value is every direction's. */
			if (dir_values(optarg, rate, false))
				ret = bad_value(opts[idx].name, optarg,
						"bytes a second, such as 10m, or fio's READS,WRITES,TRIMS");
			/* The last of rate and rate_iops wins (a command line's over a file's). */
			w->p.rate_iops = 0;
			break;
		case OPT_RATE_MIN:
			if (dir_values(optarg, rmin, false))
				ret = bad_value(opts[idx].name, optarg,
						"bytes a second, such as 1m, or fio's READS,WRITES,TRIMS");
			break;
		case OPT_RATE_IOPS_MIN:
			if (dir_values(optarg, rimin, true))
				ret = bad_value(opts[idx].name, optarg,
						"IOs a second, or fio's READS,WRITES,TRIMS");
			break;
		case OPT_RATE_CYCLE:
			ret = parse_u32_range(optarg, 1, 3600000, &rcycle_ms) ?
			      bad_value(opts[idx].name, optarg, "milliseconds, 1 to 3600000") : 0;
			break;
		case OPT_EXITALL:
		case OPT_DEDUPE_GLOBAL:
		case OPT_LOG_OFFSET:
		case OPT_LOG_PRIO: {
			/* fio's bools: the bare form is 1. */
			int b = optarg ? fio_bool_value(optarg) : 1;

			if (b < 0)
				ret = bad_value(opts[idx].name, optarg, "a bool: 0 or 1");
			*(c == OPT_EXITALL ? &w->exitall : c == OPT_DEDUPE_GLOBAL ? &w->dedupe_global :
			  c == OPT_LOG_OFFSET ? &w->logs.offset : &w->logs.prio) = b == 1;
			break;
		}
		case OPT_SS: {
			const char *why;

			if (ss_parse(optarg, &w->ss, &why))
				ret = bad_value(opts[idx].name, optarg, why);
			break;
		}
		case OPT_SS_DUR:
		case OPT_SS_RAMP:
		case OPT_SS_INTERVAL: {
			uint64_t ns;

			if (parse_time_ns(optarg, &ns) || ns > 86400000000000ULL ||
			    (c == OPT_SS_INTERVAL && ns < 100000000ULL)) {
				ret = bad_value(opts[idx].name, optarg,
						c == OPT_SS_INTERVAL ? "a time, 100ms to a day" :
						"a time, such as 30s, up to a day");
				break;
			}
			*(c == OPT_SS_DUR ? &w->ss.dur_ns : c == OPT_SS_RAMP ? &w->ss.ramp_ns :
			  &w->ss.interval_ns) = ns;
			break;
		}
		case OPT_EXIT_WHAT:
			if (!strcmp(optarg, "group"))
				w->exit_what = EXIT_GROUP;
			else if (!strcmp(optarg, "stonewall"))
				w->exit_what = EXIT_STONEWALL;
			else if (!strcmp(optarg, "all"))
				w->exit_what = EXIT_ALL;
			else
				ret = bad_value(opts[idx].name, optarg, "group, stonewall or all");
			break;
		case OPT_RATE_IOPS:
			memset(rate, 0, sizeof(rate));
			ret = parse_u32_range(optarg, 1, UINT32_MAX, &w->p.rate_iops) ?
			      bad_value(opts[idx].name, optarg,
					"IOs a second, a number (fio's read,write form: one number here)") : 0;
			break;
		case OPT_RATE_PROCESS:
			if (!strcmp(optarg, "linear"))
				w->p.rate_process = BLKLOAD_RATE_PROCESS_LINEAR;
			else if (!strcmp(optarg, "poisson"))
				w->p.rate_process = BLKLOAD_RATE_PROCESS_POISSON;
			else
				ret = bad_value(opts[idx].name, optarg, "linear or poisson");
			break;
		case OPT_RANDOM_DIST: {
			const char *why;

			w->p.nzones = 0;
			if (!strncmp(optarg, "zoned:", 6) || !strncmp(optarg, "zoned_abs:", 10))
				ret = zones_parse(optarg, &w->p, &why) ?
				      bad_value(opts[idx].name, optarg, why) : 0;
			else
				ret = dist_parse(optarg, &w->p.dist, &w->p.dist_param) ?
				      bad_value(opts[idx].name, optarg,
						"random, zipf:THETA (>0, not 1, up to 10), pareto:H (0-1), normal:DEV (percent, below 100), zoned:ZONES, zoned_abs:ZONES") : 0;
			break;
		}
		case OPT_THINKTIME: {
			uint64_t us;

			/* fio's thinktime is in microseconds without a unit. */
			if (!parse_u64(optarg, &us)) {
				ret = us > 3600000000ULL ? -1 : 0;
				w->p.think_ns = us * 1000;
			} else {
				ret = parse_time_ns(optarg, &w->p.think_ns);
			}
			if (ret || w->p.think_ns > 3600000000000ULL)
				ret = bad_value(opts[idx].name, optarg,
						"microseconds, or a time such as 5ms, up to 1h");
			break;
		}
		case OPT_THINKTIME_BLOCKS:
			ret = parse_u32_range(optarg, 1, UINT32_MAX, &w->p.think_blocks) ?
			      bad_value(opts[idx].name, optarg, "a number of IOs, at least 1") : 0;
			break;
		case OPT_STARTDELAY:
			ret = parse_time_ns(optarg, &w->p.startdelay_ns) ||
			      w->p.startdelay_ns > 3600000000000ULL ?
			      bad_value(opts[idx].name, optarg, "a time such as 2s, up to 1h") : 0;
			break;
		case OPT_START_AT: {
			struct timespec ts;
			int64_t now;

			clock_gettime(CLOCK_REALTIME, &ts);
			now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
			if (parse_wallclock(optarg, now, &w->start_at_ns)) {
				ret = bad_value(opts[idx].name, optarg,
						"@EPOCH[.FRAC], YYYY-MM-DDTHH:MM[:SS][Z|+HH:MM] or HH:MM[:SS] (local time)");
			} else if (w->start_at_ns <= now) {
				fprintf(stderr, "blkload: --start-at %s: that was %.3f s ago\n", optarg,
					(double)(now - w->start_at_ns) / 1e9);
				ret = -1;
			} else if (w->start_at_ns - now > 86400LL * 1000000000) {
				fprintf(stderr, "blkload: --start-at %s: %.0f s from now; at most 24 h ahead\n",
					optarg, (double)(w->start_at_ns - now) / 1e9);
				ret = -1;
			}
			break;
		}
		case OPT_LOOPS:
			ret = parse_u32_range(optarg, 1, UINT32_MAX, &w->p.loops) ?
			      bad_value(opts[idx].name, optarg, "a number, at least 1") : 0;
			break;
		case OPT_BUF_COMPRESS:
			ret = parse_u32_range(optarg, 0, 100, &w->p.buf_compress) ?
			      bad_value(opts[idx].name, optarg, "a percentage 0-100") : 0;
			break;
		case OPT_DEDUPE:
			ret = parse_u32_range(optarg, 0, 100, &w->p.buf_dedupe) ?
			      bad_value(opts[idx].name, optarg, "a percentage 0-100") : 0;
			break;
		case OPT_ZONEMODE:
			if (!strcmp(optarg, "none"))
				zmode = 0;
			else if (!strcmp(optarg, "strided"))
				zmode = 1;
			else
				ret = bad_value(opts[idx].name, optarg,
						!strcmp(optarg, "zbd") ?
						"none or strided (fio's zbd, for zoned block devices, is not in blkload yet)" :
						"none or strided");
			break;
		case OPT_ZONESIZE:
		case OPT_ZONERANGE:
		case OPT_ZONESKIP:
			if (parse_size(optarg, c == OPT_ZONESIZE ? &w->p.zone_size :
					       c == OPT_ZONERANGE ? &w->p.zone_range : &w->p.zone_skip))
				ret = bad_value(opts[idx].name, optarg, "a size, such as 256m");
			break;
		case OPT_DEDUPE_MODE:
			if (!strcmp(optarg, "repeat"))
				ws_mode = false;
			else if (!strcmp(optarg, "working_set"))
				ws_mode = true;
			else
				ret = bad_value(opts[idx].name, optarg, "repeat or working_set");
			break;
		case OPT_DEDUPE_WS:
			ret = parse_u32_range(optarg, 0, 100, &ws_pct) ?
			      bad_value(opts[idx].name, optarg, "a percentage 0-100") : 0;
			break;

		case OPT_VERIFY:
			if (!strcmp(optarg, "crc32c") || !strcmp(optarg, "crc32c-intel"))
				w->p.verify = BLKLOAD_VERIFY_CRC32C;
			else if (!strcmp(optarg, "0") || !strcmp(optarg, "none"))
				w->p.verify = BLKLOAD_VERIFY_NONE;
			else
				ret = bad_value(opts[idx].name, optarg, "crc32c (or 0, none)");
			break;
		case OPT_DO_VERIFY:
			if (strcmp(optarg, "0") && strcmp(optarg, "1"))
				ret = bad_value(opts[idx].name, optarg, "0 or 1");
			else
				w->p.verify_no_readback = !strcmp(optarg, "0");
			break;
		case OPT_ZERO_BUFFERS:
			if (optarg && strcmp(optarg, "0") && strcmp(optarg, "1")) {
				ret = bad_value(opts[idx].name, optarg, "0 or 1");
				break;
			}
			w->p.zero_buffers = !optarg || !strcmp(optarg, "1");
			break;
		case OPT_BLOCKALIGN: {
			/* fio's R,W form: one value for both directions here. */
			char *v = xstrdup(optarg), *comma = strchr(v, ',');
			uint64_t a, b;

			if (comma)
				*comma = '\0';
			if (parse_size(v, &a) || a > UINT32_MAX ||
			    (comma && (parse_size(comma + 1, &b) || b != a)))
				ret = bad_value(opts[idx].name, optarg,
						comma ? "one size for reads and writes (blockalign apart by direction is not in blkload yet)" :
						"a size, a multiple of bs");
			else
				w->p.blockalign = (uint32_t)a;
			free(v);
			break;
		}
		case OPT_BSSPLIT:
		case OPT_BSRANGE:
			if (bs_parse(w, optarg, c == OPT_BSRANGE))
				return -1;
			break;
		case OPT_RWMIXTRIM:
			ret = parse_u32_range(optarg, 0, 100, &w->p.rwmixtrim) ?
			      bad_value(opts[idx].name, optarg, "a percentage 0-100") : 0;
			break;
		case OPT_FUA:
		case OPT_PREFLUSH:
		case OPT_HIPRI:
		case OPT_NOWAIT:
		case OPT_WRITE_ZEROES: {
			static const uint32_t bit[] = {
				[OPT_FUA - OPT_FUA] = BLKLOAD_REQ_FUA,
				[OPT_PREFLUSH - OPT_FUA] = BLKLOAD_REQ_PREFLUSH,
				[OPT_HIPRI - OPT_FUA] = BLKLOAD_REQ_HIPRI,
				[OPT_NOWAIT - OPT_FUA] = BLKLOAD_REQ_NOWAIT,
				[OPT_WRITE_ZEROES - OPT_FUA] = BLKLOAD_REQ_WRITE_ZEROES,
			};

			/* fio's forms: bare, =1 or =0. */
			if (optarg && strcmp(optarg, "0") && strcmp(optarg, "1")) {
				ret = bad_value(opts[idx].name, optarg, "0 or 1");
				break;
			}
			if (optarg && !strcmp(optarg, "0"))
				w->p.req &= ~bit[c - OPT_FUA];
			else
				w->p.req |= bit[c - OPT_FUA];
			break;
		}
		case OPT_RWMIXWRITE:
			ret = parse_u32_range(optarg, 0, 100, &u32) ?
			      bad_value(opts[idx].name, optarg, "a percentage 0-100") : 0;
			w->p.rwmixread = 100 - u32;
			break;
		case OPT_BS: {
			uint64_t v;

			/* Only the syntax here: the module says what it accepts. */
			if (parse_size(optarg, &v) || v > UINT32_MAX)
				ret = bad_value(opts[idx].name, optarg, strchr(optarg, ',') ?
						"one size such as 4k (fio's READS,WRITES sizes are not in blkload yet; bssplit takes READS,WRITES)" :
						"a size such as 4k");
			w->p.bs = (uint32_t)v;
			break;
		}
		case OPT_IODEPTH:
			ret = parse_u32_range(optarg, 0, UINT32_MAX, &w->p.iodepth) ?
			      bad_value(opts[idx].name, optarg, "a number, decimal or 0x hex") : 0;
			break;
		case OPT_BATCH:
			ret = parse_u32_range(optarg, 0, UINT32_MAX, &w->p.batch) ?
			      bad_value(opts[idx].name, optarg, "a number, decimal or 0x hex") : 0;
			w->have_batch = true;
			break;
		case OPT_BATCH_COMPLETE:
			ret = parse_u32_range(optarg, 0, 65536, &w->p.batch_complete) ?
			      bad_value(opts[idx].name, optarg,
					"a number of completions, 0-65536 (0: fio's default, 1)") : 0;
			break;
		case OPT_CPUS:
			ret = parse_cpulist(optarg, &w->cpus) ?
			      bad_value(opts[idx].name, optarg, "a CPU list such as 0-3,8") : 0;
			w->have_cpus = true;
			break;
		case OPT_OFFSET:
			ret = parse_size(optarg, &w->p.offset) ? bad_value(opts[idx].name, optarg, "a size") : 0;
			break;
		case OPT_SIZE:
			ret = parse_size(optarg, &w->p.size) ?
			      bad_value(opts[idx].name, optarg, strchr(optarg, '%') ?
					"fio's size=N% (a share of the device) is not in blkload yet" :
					"a size") : 0;
			break;
		case OPT_FILESIZE:
			ret = parse_size(optarg, &filesize) || !filesize ?
			      bad_value(opts[idx].name, optarg,
					"a size (a range of sizes is for files: size= sets the device's region)") : 0;
			break;
		case OPT_IO_SIZE:
			ret = parse_size(optarg, &w->p.io_size) ?
			      bad_value(opts[idx].name, optarg, "a size") : 0;
			break;
		case OPT_RUNTIME:
			ret = parse_time_ns(optarg, &w->p.runtime_ns) ?
			      bad_value(opts[idx].name, optarg, "a time such as 10s") : 0;
			break;
		case OPT_RAMP:
			ret = parse_time_ns(optarg, &w->p.ramp_ns) ?
			      bad_value(opts[idx].name, optarg, "a time such as 2s") : 0;
			break;
		case OPT_NUMBER_IOS:
			ret = parse_u64(optarg, &w->p.number_ios) ?
			      bad_value(opts[idx].name, optarg, "a number, decimal or 0x hex") : 0;
			break;
		case OPT_RANDSEED:
			have_seed = true;
			ret = parse_u64(optarg, &w->p.randseed) ?
			      bad_value(opts[idx].name, optarg, "a number, decimal or 0x hex") : 0;
			break;
		case OPT_DRAIN:
			ret = parse_drain_ms(optarg, &w->drain_ms) ?
			      bad_value(opts[idx].name, optarg,
					"milliseconds, or a time such as 5s, up to 1h") : 0;
			break;
		case OPT_ALLOW_WRITE:
			w->p.allow_write = true;
			break;
		case OPT_FORCE:
			w->p.force = true;
			break;
		case OPT_NO_LAT:
			if (optarg && strcmp(optarg, "0") && strcmp(optarg, "1"))
				ret = bad_value(opts[idx].name, optarg, "0 or 1");
			w->p.no_lat = !optarg || !strcmp(optarg, "1");
			break;
		case OPT_PERCENTILES:
			ret = parse_percentiles(optarg, &w->ro);
			break;
		case OPT_KB_BASE:
			break;	/* taken by the first pass */
		case OPT_TIME_BASED:
			time_based = !optarg ? 1 : fio_bool_value(optarg);
			if (time_based < 0)
				ret = bad_value(opts[idx].name, optarg, "0 or 1");
			break;
		case OPT_PER_CPU:
			w->ro.queues = true;
			break;
		case OPT_ENGINE:
			/* The CLI checks that it exists (engine_find()); fio's synchronous ones map. */
			w->engine = optarg;
			w->sync_engine = fio_sync_engine(optarg);
			if (w->sync_engine || !strcmp(optarg, "posixaio"))
				w->engine = "libaio";
			break;
		case OPT_CPU_EXCLUDE:
			w->cpu_exclude = optarg;
			break;
		case OPT_COE:
			ret = coe_parse(optarg, &w->p.coe) ?
			      bad_value(opts[idx].name, optarg,
					"one of none read write io all (verify failures never stop a job)") : 0;
			break;
		case OPT_SAMPLE_INTERVAL:
			ret = parse_time_ns(optarg, &w->p.sample_ns) ||
			      (w->p.sample_ns && w->p.sample_ns < 10000000ULL) ||
			      w->p.sample_ns > 3600000000000ULL ?
			      bad_value(opts[idx].name, optarg, "0 (none), or 10ms to 1h") : 0;
			have_sample = true;
			break;
		case OPT_SAMPLE_RING:
			ret = parse_u32_range(optarg, 2, 65536, &w->p.sample_ring) ?
			      bad_value(opts[idx].name, optarg, "a number from 2 to 65536") : 0;
			break;
		case OPT_STATUS_INTERVAL:
			ret = parse_time_ns(optarg, &w->status_ns) || w->status_ns < 10000000ULL ?
			      bad_value(opts[idx].name, optarg, "a time of at least 10ms") : 0;
			break;
		case OPT_SAMPLES_CSV:
			w->samples_csv = optarg;
			break;
		case OPT_IOPS_LOG:
		case OPT_BW_LOG:
		case OPT_LAT_LOG:
		case OPT_HIST_LOG: {
			const char *prefix = optarg && *optarg ? optarg : NULL;

			if (optarg && (!strcmp(optarg, "0") || !strcmp(optarg, "1")))
				prefix = NULL;	/* fio's boolean form: the job's name */
			if (optarg && !strcmp(optarg, "0"))
				break;
			if (!prefix)
				prefix = "";	/* the job's name, once known */
			if (c == OPT_IOPS_LOG)
				w->logs.iops = prefix;
			else if (c == OPT_BW_LOG)
				w->logs.bw = prefix;
			else if (c == OPT_LAT_LOG)
				w->logs.lat = prefix;
			else
				w->logs.hist = prefix;
			break;
		}

		case OPT_LOG_AVG:
		case OPT_LOG_HIST:
			if (parse_u32_range(optarg, 0, 3600000, &u32)) {
				ret = bad_value(opts[idx].name, optarg, "milliseconds, 0 to 3600000");
				break;
			}
			if (c == OPT_LOG_AVG)
				w->logs.avg_ns = (uint64_t)u32 * 1000000ULL;
			else
				w->logs.hist_ns = (uint64_t)u32 * 1000000ULL;
			break;
		case OPT_LOG_COARSE:
			ret = parse_u32_range(optarg, BL_SHIST_SHIFT, 6, &w->logs.coarseness) ?
			      bad_value(opts[idx].name, optarg,
					"2 to 6 (the samples keep 2^2 of fio's buckets in one)") : 0;
			break;
		case OPT_HELP:
		case 'h':
			workload_usage(stdout, cmd);
			return 1;
		default:
			/* An engine's own option: the engine parses it. */
			if (engine_of_opt(c)) {
				ret = engine_of_opt(c)->parse_opt(w, c, opts[idx].name, optarg);
				break;
			}
			/* getopt named the option; not the whole usage again. */
			fprintf(stderr, "blkload: '%s --help' lists the options\n", cmd);
			return -1;
		}
		if (ret)
			return -1;
	}
	/*
	 * No engine named: the module; fio's default (psync) is a userspace
	 * one, and fio's buffered IO (direct=0) runs on blkload's libaio
	 * engine, which fio's libaio is with direct=0: each IO is done by the
	 * time its submission returns, one at a time.
	 */
	if (!w->engine)
		w->engine = w->buffered ? "libaio" : "kernel";
	if (fio_cpus(w, allowed, numa_nodes, cmd) || logs_check(w, have_sample, cmd))
		return -1;
	/*
	 * fio's filesize on a device (smaller than it): IO up to that byte
	 * from offset, fio's io_size = filesize - offset; size wins.
	 */
	if (filesize && !w->p.size) {
		if (filesize <= w->p.offset) {
			fprintf(stderr, "blkload: %s: filesize %" PRIu64 " is not past offset %" PRIu64 "\n",
				cmd, filesize, w->p.offset);
			return -1;
		}
		w->p.size = filesize - w->p.offset;
	}
	/* fio's lfsr: no block twice a pass, map or not. */
	if (lfsr)
		w->p.random_map = true;
	/* fio's runtime without time_based: a cap; a pass over the region ends the job first. */
	w->p.pass_ends = w->p.runtime_ns && time_based != 1;
	if (randrepeat_off && !have_seed && getrandom(&w->p.randseed, sizeof(w->p.randseed), 0) !=
	    sizeof(w->p.randseed)) {
		fprintf(stderr, "blkload: %s: randrepeat=0: no random seed: %s\n", cmd, strerror(errno));
		return -1;
	}
	/*
	 * A split: bs becomes the unit every size is a multiple of, its
	 * smallest size. Sizes that are not multiples of it (4k/50:6k/50) are
	 * rounded down to one, as fio does, unless fio's bs_unaligned: then
	 * the unit is their greatest common divisor, random IOs starting at
	 * multiples of the smallest size (fio's default blockalign). A bsrange
	 * draws multiples of its low size.
	 */
	w->p.bs_max = w->p.bs;
	if (w->p.nbs[0]) {
		uint32_t lo = UINT32_MAX, hi = 0, unit = 0;
		bool ranges = false;

		for (int d = 0; d < 2; d++)
			for (uint32_t i = 0; i < w->p.nbs[d]; i++) {
				const struct bl_gen_bs *e = &w->p.bss[d][i];

				lo = e->lo < lo ? e->lo : lo;
				hi = e->hi > hi ? e->hi : hi;
				ranges |= e->lo != e->hi;
				unit = gcd32(unit, e->lo);
			}
		if (!bs_unaligned && unit != lo && !ranges) {
			static bool told;	/* once a run: numjobs copies parse again */

			/* fio without bs_unaligned: each size down to a multiple of the smallest. */
			if (!told)
				fprintf(stderr, "blkload: %s: bssplit sizes rounded down to multiples of %u, as fio does without bs_unaligned\n",
					cmd, lo);
			told = true;
			hi = 0;
			for (int d = 0; d < 2; d++)
				for (uint32_t i = 0; i < w->p.nbs[d]; i++) {
					struct bl_gen_bs *e = &w->p.bss[d][i];

					e->lo -= e->lo % lo;
					e->hi = e->lo;
					hi = e->hi > hi ? e->hi : hi;
				}
			unit = lo;
		}
		w->p.bs = ranges ? lo : unit;
		w->p.bs_max = hi;
		if (w->p.bs < lo && !w->p.blockalign)
			w->p.blockalign = lo;
	}
	if (rate_plan(w, rate, rmin, rimin, cmd))
		return -1;
	/* fio's steady state: a window of two values at least (one is no slope, no deviation). */
	if (w->ss.dur_ns && w->ss.dur_ns < 2 * w->ss.interval_ns) {
		fprintf(stderr, "blkload: %s: ss_dur (%.3g s) is shorter than two ss_interval (2 x %.3g s): a window of one value has no slope and no deviation\n",
			cmd, w->ss.dur_ns / 1e9, w->ss.interval_ns / 1e9);
		return -1;
	}
	/* fio's zonemode=strided (zonesize alone means it), in fio's words and rules. */
	if (zmode == 0 && w->p.zone_size) {
		fprintf(stderr, "blkload: %s: zonemode=none and zonesize are not compatible (fio's rule)\n",
			cmd);
		return -1;
	}
	if (zmode == 1 && !w->p.zone_size) {
		fprintf(stderr, "blkload: %s: zonemode=strided needs zonesize (fio's rule)\n", cmd);
		return -1;
	}
	if (zmode == 0 || (zmode == -1 && !w->p.zone_size)) {
		w->p.zone_size = w->p.zone_range = w->p.zone_skip = 0;
	} else if (w->nr_devs > 1) {
		/* fio turns strided off for a job of several files. */
		fprintf(stderr, "blkload: %s: zonemode=strided off for a job of several devices, as fio does for several files\n",
			cmd);
		w->p.zone_size = w->p.zone_range = w->p.zone_skip = 0;
	} else {
		if (!w->p.zone_range)
			w->p.zone_range = w->p.zone_size;
		/*
		 * fio's zones move on to the device's end, size is only how
		 * much IO the job does: here the region is the device from
		 * offset, and size the job's io_size.
		 */
		if (w->p.size && !w->p.io_size)
			w->p.io_size = w->p.size;
		w->p.size = 0;
	}
	/* fio's working set applies to dedupe copies; 0% is a set of one block. */
	if (ws_mode && w->p.buf_dedupe)
		w->p.dedupe_ws = ws_pct ? ws_pct : 1;
	/* Only with a minimum to check: a module before it then takes the rest. */
	if (rcycle_ms && (w->p.rate_min || w->p.rate_iops_min))
		w->p.rate_cycle_ns = rcycle_ms * 1000000ULL;
	map_note(w, cmd);
	/*
	 * fio's psync, sync, pvsync, pvsync2, vsync: one IO at a time (fio
	 * takes no iodepth above 1 with them), here on the libaio engine at
	 * iodepth 1: each IO submitted when the one before completed.
	 */
	if (w->sync_engine)
		w->p.iodepth = 1;
	if (w->numjobs > 1 && w->p.verify && bl_params_changes(&w->p)) {
		fprintf(stderr, "blkload: %s: verify with numjobs=%u copies that write: each writes over the others' blocks (in fio too), so their checks fail; numjobs=1, or a job per region\n",
			cmd, w->numjobs);
		return -1;
	}
	/* Arguments: fio job files (run and start); the options then apply to every job. */
	for (; optind < argc; optind++) {
		if (!jobfiles) {
			fprintf(stderr, "blkload: %s: unexpected argument '%s' (devices go with --dev)\n",
				cmd, argv[optind]);
			return -1;
		}
		w->jobfiles = xrealloc(w->jobfiles, (w->nr_jobfiles + 1) * sizeof(*w->jobfiles));
		w->jobfiles[w->nr_jobfiles++] = argv[optind];
	}
	if (w->nr_jobfiles)
		return 0;
	if (w->nr_images && (!engine_find(w->engine) || !engine_find(w->engine)->images)) {
		fprintf(stderr, "blkload: %s: --rbdname takes --engine librbd\n", cmd);
		return -1;
	}
	/* fio's default filename is the job's name: "--name=/dev/sdb" alone (CBT's rawfio). */
	if (!w->nr_devs && !w->nr_images && w->name && w->name[0] == '/') {
		w->devs = xrealloc(w->devs, sizeof(*w->devs));
		w->devs[w->nr_devs++] = (char *)w->name;
	}
	if (!w->nr_devs && !w->nr_images) {
		fprintf(stderr, "blkload: %s: no device: --dev DEVICE or --filename=DEVICE, or filename= in the job file\n",
			cmd);
		return -1;
	}
	return 0;
}
