// SPDX-License-Identifier: GPL-2.0
/*
 * Reports of jobs as fio writes them: the JSON objects fio's consumers read
 * (fio_jsonplus_clat2csv, fio2gnuplot, CBT-style scripts), with blkload's own
 * values added next to fio's, and a text report laid out like fio's.
 *
 * Latencies: slat is from just before the IO's submit call to its return,
 * clat from there to the reap that handed it back to its submitter, lat
 * both (each IO timed from its own submission; one definition on every
 * path, fio's). devlat, the module's alone, ends at the device's completion
 * (bi_end_io) instead: in JSON only (devlat_ns), the text stays fio's. Percentiles come from the one shared histogram layout
 * (include/blkload/hist.h) and are bucket midpoints, within 0.78% of the
 * value; min, max, mean and stddev are exact.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "util.h"

/* fio's latency distribution buckets: upper bounds, in each unit. */
static const unsigned int lat_bounds[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };
static const char *const depth_keys[BL_DEPTH_NR] = { "1", "2", "4", "8", "16", "32", ">=64" };

struct lat_dist {
	double ns[10], us[10], ms[12];	/* ms: ..., 1000, 2000, >=2000 */
};

/* Shares of the IOs in fio's latency ranges (fio's are of clat), from a histogram. */
static void lat_dist(const uint64_t *hist, uint64_t total, struct lat_dist *d)
{
	memset(d, 0, sizeof(*d));
	if (!hist || !total)
		return;
	for (unsigned int i = 0; i < BL_HIST_NR; i++) {
		uint64_t v = bl_hist_mid(i), div = 1;
		double *slot;
		unsigned int k, nr = 10;

		if (!hist[i])
			continue;
		if (v < 1000) {
			slot = d->ns;
		} else if (v < 1000000) {
			slot = d->us;
			div = 1000;
		} else {
			slot = d->ms;
			div = 1000000;
			nr = 11;
		}
		v /= div;
		for (k = 0; k < nr; k++)
			if (v < (k < 10 ? lat_bounds[k] : 2000))
				break;
		slot[k] += 100.0 * (double)hist[i] / (double)total;
	}
}

static void json_lat_dist(struct out *o, const uint64_t *hist, uint64_t total)
{
	static const char *const ms_keys[] = { "2000", ">=2000" };
	struct lat_dist d;
	char key[16];

	lat_dist(hist, total, &d);
	out_begin_object(o, "latency_ns", NULL);
	for (unsigned int k = 0; k < 10; k++) {
		snprintf(key, sizeof(key), "%u", lat_bounds[k]);
		out_double(o, key, NULL, d.ns[k], 6, NULL);
	}
	out_end_object(o);
	out_begin_object(o, "latency_us", NULL);
	for (unsigned int k = 0; k < 10; k++) {
		snprintf(key, sizeof(key), "%u", lat_bounds[k]);
		out_double(o, key, NULL, d.us[k], 6, NULL);
	}
	out_end_object(o);
	out_begin_object(o, "latency_ms", NULL);
	for (unsigned int k = 0; k < 12; k++) {
		if (k < 10)
			snprintf(key, sizeof(key), "%u", lat_bounds[k]);
		out_double(o, k < 10 ? key : ms_keys[k - 10], NULL, d.ms[k], 6, NULL);
	}
	out_end_object(o);
}

static void depth_shares(const uint64_t *depth_ns, double *pct)
{
	uint64_t total = 0;

	for (unsigned int i = 0; i < BL_DEPTH_NR; i++)
		total += depth_ns[i];
	for (unsigned int i = 0; i < BL_DEPTH_NR; i++)
		pct[i] = total ? 100.0 * (double)depth_ns[i] / (double)total : 0;
}

/* fio's {"min","max","mean","stddev","N"}, and percentiles and bins from @hist. */
static void json_lat(struct out *o, const char *key, const struct bl_lat *l, uint64_t n,
		     const uint64_t *hist, const struct report_opts *ro)
{
	out_begin_object(o, key, NULL);
	out_u64(o, "min", NULL, n ? bl_lat_min(l) : 0, NULL);
	out_u64(o, "max", NULL, n ? l->max : 0, NULL);
	out_double(o, "mean", NULL, bl_lat_mean(l, n), 6, NULL);
	out_double(o, "stddev", NULL, bl_lat_stddev(l, n), 6, NULL);
	out_u64(o, "N", NULL, n, NULL);
	/* As fio: no percentiles and no bins without a sample (its tools expect some). */
	if (!n)
		hist = NULL;
	if (hist && ro->nr_percentiles) {
		out_begin_object(o, "percentile", NULL);
		for (unsigned int i = 0; i < ro->nr_percentiles; i++) {
			char *k = xasprintf("%f", ro->percentiles[i]);

			out_u64(o, k, NULL,
				bl_hist_percentile(hist, BL_HIST_NR, n, ro->percentiles[i]), NULL);
			free(k);
		}
		out_end_object(o);
	}
	if (hist && ro->bins) {
		out_begin_object(o, "bins", NULL);
		for (unsigned int i = 0; i < BL_HIST_NR; i++) {
			char *k;

			if (!hist[i])
				continue;
			k = xasprintf("%" PRIu64, (uint64_t)bl_hist_mid(i));
			out_u64(o, k, NULL, hist[i], NULL);
			free(k);
		}
		out_end_object(o);
	}
	out_end_object(o);
}

/* One direction as fio's "read"/"write"/"trim" object. */
static void json_op(struct out *o, const char *key, const struct op_stats *op, uint64_t elapsed,
		    bool no_lat, const struct report_opts *ro, const struct series *se, int opi)
{
	struct series_stat bws = { 0 }, iopss = { 0 };
	double secs = (double)elapsed / 1e9;
	double iops = secs > 0 ? (double)op->ios / secs : 0;
	double bw = secs > 0 ? (double)op->bytes / secs : 0;
	struct bl_lat none;
	uint64_t n = no_lat ? 0 : op->ios;

	bl_lat_init(&none);
	out_begin_object(o, key, NULL);
	out_u64(o, "io_bytes", NULL, op->bytes, NULL);
	out_u64(o, "io_kbytes", NULL, op->bytes / 1024, NULL);
	out_u64(o, "bw_bytes", NULL, (uint64_t)bw, NULL);
	out_u64(o, "bw", NULL, (uint64_t)(bw / 1024), NULL);
	out_double(o, "iops", NULL, iops, 6, NULL);
	out_u64(o, "runtime", NULL, (elapsed + 500000) / 1000000, NULL);
	out_u64(o, "total_ios", NULL, op->ios + op->errors, NULL);
	out_u64(o, "short_ios", NULL, 0, NULL);
	out_u64(o, "drop_ios", NULL, 0, NULL);
	out_u64(o, "errors", NULL, op->errors, NULL);
	/* Without the split (an older module), slat and clat have no samples. */
	json_lat(o, "slat_ns", op->split ? &op->slat : &none, op->split ? n : 0, NULL, ro);
	json_lat(o, "clat_ns", op->split ? &op->clat : &none, op->split ? n : 0,
		 op->split && !no_lat ? op->chist : NULL, ro);
	json_lat(o, "lat_ns", &op->lat, n, no_lat ? NULL : op->hist, ro);
	/* blkload's, the module's: submission to the device's completion, before the reap. */
	if (op->has_devlat)
		json_lat(o, "devlat_ns", &op->devlat, no_lat ? 0 : n, NULL, ro);
	/* blkload's: from each IO's scheduled time (--rate_iops), waits for a slot included. */
	if (op->has_sched)
		json_lat(o, "sched_lat_ns", &op->sched, no_lat ? 0 : op->sched_n,
			 no_lat ? NULL : op->shist, ro);
	/*
	 * fio's statistics over the per-interval samples (bw in KiB/s), of
	 * the full intervals; zeros without samples, as fio's. bw_agg is of
	 * the job itself (100), not of its group.
	 */
	if (se && op->ios) {
		series_rate_stat(se, opi, true, &bws);
		series_rate_stat(se, opi, false, &iopss);
	}
	out_u64(o, "bw_min", NULL, (uint64_t)(bws.min / 1024), NULL);
	out_u64(o, "bw_max", NULL, (uint64_t)(bws.max / 1024), NULL);
	out_double(o, "bw_agg", NULL, bws.n ? 100.0 : 0, 6, NULL);
	out_double(o, "bw_mean", NULL, bws.mean / 1024, 6, NULL);
	out_double(o, "bw_dev", NULL, bws.dev / 1024, 6, NULL);
	out_u64(o, "bw_samples", NULL, bws.n, NULL);
	out_double(o, "iops_min", NULL, iopss.min, 6, NULL);
	out_double(o, "iops_max", NULL, iopss.max, 6, NULL);
	out_double(o, "iops_mean", NULL, iopss.mean, 6, NULL);
	out_double(o, "iops_stddev", NULL, iopss.dev, 6, NULL);
	out_u64(o, "iops_samples", NULL, iopss.n, NULL);
	out_end_object(o);
}

/*
 * The time series: per sample and direction, the rates over its interval,
 * the mean latencies and clat percentiles (from the samples' coarse
 * buckets, within 3.1%).
 */
static void json_series(struct out *o, const struct series *se, bool no_lat,
			const struct report_opts *ro)
{
	static const char *const dirs[BL_SAMPLE_OPS] = { "read", "write", "trim" };

	bool trims = series_has_trims(se);

	out_begin_object(o, "time_series", NULL);
	out_u64(o, "interval_ns", NULL, se->interval, NULL);
	out_u64(o, "lost", NULL, se->lost, NULL);
	out_begin_array(o, "samples", NULL);
	struct bl_sample *s = xcalloc(1, sizeof(*s));

	for (size_t i = 0; i < se->nr; i++) {
		double dt = series_dt(se, i);

		series_get(se, i, s);

		out_begin_object(o, NULL, NULL);
		/* Lost samples are left out: the index shows the gap. */
		out_u64(o, "index", NULL, se->idx[i], NULL);
		out_u64(o, "time_ns", NULL, s->t, NULL);
		out_double(o, "interval_s", NULL, dt, 9, NULL);
		for (int op = 0; op < (trims ? 3 : 2); op++) {
			const struct bl_sample_op *so = &s->op[op];
			double n = (double)so->ios;

			out_begin_object(o, dirs[op], NULL);
			out_u64(o, "ios", NULL, so->ios, NULL);
			out_u64(o, "bytes", NULL, so->bytes, NULL);
			out_double(o, "iops", NULL, dt > 0 ? n / dt : 0, 3, NULL);
			out_double(o, "bw_bytes", NULL, dt > 0 ? (double)so->bytes / dt : 0, 1, NULL);
			if (!no_lat && so->ios && series_percentile(s->chist[op], 100)) {
				out_double(o, "lat_mean_ns", NULL, (double)so->lat / n, 1, NULL);
				out_double(o, "clat_mean_ns", NULL, (double)so->clat / n, 1, NULL);
				out_double(o, "slat_mean_ns", NULL, (double)so->slat / n, 1, NULL);
				out_begin_object(o, "clat_percentile", NULL);
				for (unsigned int k = 0; k < ro->nr_percentiles; k++) {
					char *key = xasprintf("%f", ro->percentiles[k]);

					out_u64(o, key, NULL,
						series_percentile(s->chist[op], ro->percentiles[k]),
						NULL);
					free(key);
				}
				out_end_object(o);
			}
			out_end_object(o);
		}
		out_end_object(o);
	}
	out_end_array(o);
	out_end_object(o);
	free(s);
}

static const char *const verify_what[] = {
	[BLKLOAD_VERIFY_WHAT_OK] = "ok",
	[BLKLOAD_VERIFY_WHAT_MAGIC] = "no header",
	[BLKLOAD_VERIFY_WHAT_OFFSET] = "offset",
	[BLKLOAD_VERIFY_WHAT_SEED] = "seed",
	[BLKLOAD_VERIFY_WHAT_GENERATION] = "generation",
	[BLKLOAD_VERIFY_WHAT_LENGTH] = "length",
	[BLKLOAD_VERIFY_WHAT_CRC] = "crc32c",
	[BLKLOAD_VERIFY_WHAT_RUN] = "another run",
};

static const char *verify_what_name(uint32_t w)
{
	return w < sizeof(verify_what) / sizeof(verify_what[0]) ? verify_what[w] : "?";
}

/* A verifying job's checks: fio has no such object; blkload's own. */
static void json_verify(struct out *o, const struct job *j)
{
	out_begin_object(o, "verify", NULL);
	out_str(o, "mode", NULL, "crc32c");
	out_u64(o, "checked", NULL, j->vchecked, NULL);
	out_u64(o, "skipped", NULL, j->vskipped, NULL);
	out_u64(o, "errors", NULL, j->verrors, NULL);
	out_u64(o, "readback", NULL, j->vreadback, NULL);
	out_begin_array(o, "failures", NULL);
	for (unsigned int i = 0; i < j->nvrep; i++) {
		out_begin_object(o, NULL, NULL);
		out_u64(o, "offset", NULL, j->vrep[i].off, NULL);
		out_str(o, "what", NULL, verify_what_name(j->vrep[i].what));
		out_u64(o, "expected", NULL, j->vrep[i].want, NULL);
		out_u64(o, "found", NULL, j->vrep[i].got, NULL);
		out_end_object(o);
	}
	out_end_array(o);
	out_end_object(o);
}

static void text_verify(const struct job *j)
{
	printf("  verify       : crc32c, %" PRIu64 " units checked, %" PRIu64 " skipped, %" PRIu64
	       " failed, %" PRIu64 " read back\n", j->vchecked, j->vskipped, j->verrors,
	       j->vreadback);
	for (unsigned int i = 0; i < j->nvrep; i++)
		printf("    at %" PRIu64 ": %s: expected %#" PRIx64 ", found %#" PRIx64 "\n",
		       j->vrep[i].off, verify_what_name(j->vrep[i].what), j->vrep[i].want,
		       j->vrep[i].got);
	if (j->verrors > j->nvrep)
		printf("    and %" PRIu64 " more\n", j->verrors - j->nvrep);
}

/* fio's job_runtime: the job's time, or a group's jobs' times added up. */
static uint64_t job_runtime(const struct job *j)
{
	return j->runtime_sum ? j->runtime_sum : j->elapsed;
}

static void json_job(struct out *o, const char *key, const struct job *j, const char *name,
		     const struct report_opts *ro)
{
	uint64_t ios = job_ios(j);
	struct op_stats none = { 0 };
	double depth[BL_DEPTH_NR];
	const uint64_t *hist = NULL;
	struct op_stats all = { 0 };
	bool sum = !j->path;

	out_begin_object(o, key, NULL);
	out_str(o, "jobname", NULL, name);
	out_u64(o, "groupid", NULL, j->groupid, NULL);
	out_s64(o, "error", NULL, -j->error, NULL);
	out_u64(o, "eta", NULL, 0, NULL);
	out_u64(o, "elapsed", NULL, (j->elapsed + 500000000) / 1000000000, NULL);
	/* fio's: when the job started, ms since the epoch (blkload merge's window). */
	if (j->start_ms)
		out_u64(o, "job_start", NULL, j->start_ms, NULL);
	out_begin_object(o, "job options", NULL);
	if (j->opts)
		for (unsigned int i = 0; i < j->opts->nr; i++)
			out_str(o, j->opts->key[i], NULL, j->opts->val[i] ? j->opts->val[i] : "");
	out_end_object(o);
	if (!sum) {
		out_u64(o, "job_id", NULL, j->id, NULL);
		out_str(o, "device", NULL, j->path);
		out_str(o, "rw", NULL, rw_name(j->p.rw));
		out_u64(o, "rwmixread", NULL, j->p.rwmixread, NULL);
		out_u64(o, "rwmixtrim", NULL, j->p.rwmixtrim, NULL);
		out_u64(o, "rate_iops", NULL, j->p.rate_iops, NULL);
		if (j->p.rate_bps)
			out_u64(o, "rate_bps", NULL, j->p.rate_bps, NULL);
		char *dn = dist_name(&j->p);

		if (j->bssplit)
			out_str(o, "bssplit", NULL, j->bssplit);
		out_u64(o, "thinktime_ns", NULL, j->p.think_ns, NULL);
		out_u64(o, "thinktime_blocks", NULL, j->p.think_blocks ? j->p.think_blocks : 1, NULL);
		out_u64(o, "startdelay_ns", NULL, j->p.startdelay_ns, NULL);
		out_u64(o, "loops", NULL, j->p.loops ? j->p.loops : 1, NULL);
		out_u64(o, "buffer_compress_percentage", NULL, j->p.buf_compress, NULL);
		out_u64(o, "dedupe_percentage", NULL, j->p.buf_dedupe, NULL);
		out_u64(o, "zero_buffers", NULL, j->p.zero_buffers, NULL);
		if (j->has_verify)
			json_verify(o, j);
		out_str(o, "random_distribution", NULL, dn);
		free(dn);
		out_str(o, "rate_process", NULL,
			j->p.rate_process == BLKLOAD_RATE_PROCESS_POISSON ? "poisson" : "linear");
		out_begin_array(o, "req", NULL);
		for (unsigned int b = 0; b < 32; b++)
			if (j->p.req >> b & 1)
				out_str(o, NULL, NULL, req_name(1U << b));
		out_end_array(o);
		out_u64(o, "bs", NULL, j->p.bs, NULL);
		out_u64(o, "iodepth", NULL, j->p.iodepth, NULL);
		out_u64(o, "iodepth_batch_submit", NULL, j->p.batch, NULL);
		/* 0: a module before it, which reaped every ready completion at once. */
		if (j->p.batch_complete)
			out_u64(o, "iodepth_batch_complete_max", NULL, j->p.batch_complete, NULL);
		out_str(o, "cpus", NULL, j->cpus);
		out_u64(o, "offset", NULL, j->p.offset, NULL);
		out_u64(o, "size", NULL, j->p.size, NULL);
		out_u64(o, "number_ios", NULL, j->p.number_ios, NULL);
		out_u64(o, "runtime_ns", NULL, j->p.runtime_ns, NULL);
		out_u64(o, "ramp_time_ns", NULL, j->p.ramp_ns, NULL);
		out_u64(o, "randseed", NULL, j->p.randseed, NULL);
		out_u64(o, "dev_size", NULL, j->dev_size, NULL);
		out_u64(o, "dev_lbs", NULL, j->dev_lbs, NULL);
		out_str(o, "state", NULL, state_name(j->state));
		out_str(o, "done_reason", NULL, reason_name(j->reason));
		out_bool(o, "detached", NULL, !j->owner);
		out_bool(o, "deleted", NULL, j->deleted);
	}
	if (j->ss)
		ss_report(o, j->ss, true);
	out_u64(o, "nr_queues", NULL, j->nr_cpus, NULL);
	out_u64(o, "mem_pinned", NULL, j->mem_pinned, NULL);
	out_u64(o, "elapsed_ns", NULL, j->elapsed, NULL);
	out_u64(o, "inflight", NULL, j->inflight, NULL);
	out_u64(o, "stall_max_ns", NULL, j->stall_max, NULL);
	json_op(o, "read", &j->op[OP_READ], j->elapsed, j->p.no_lat, ro, &j->ser, OP_READ);
	json_op(o, "write", &j->op[OP_WRITE], j->elapsed, j->p.no_lat, ro, &j->ser, OP_WRITE);
	json_op(o, "trim", &j->op[OP_TRIM], j->elapsed, j->p.no_lat, ro, &j->ser, OP_TRIM);
	out_begin_object(o, "sync", NULL);
	out_u64(o, "total_ios", NULL, 0, NULL);
	json_lat(o, "lat_ns", &none.lat, 0, NULL, ro);
	out_end_object(o);
	out_u64(o, "job_runtime", NULL, (job_runtime(j) + 500000) / 1000000, NULL);
	out_u64(o, "cpu_ns", NULL, j->cpu_time, NULL);
	out_double(o, "cpu_ns_per_io", NULL, ios ? (double)j->cpu_time / (double)ios : 0, 2,
		   NULL);
	/*
	 * The module's workers run in the kernel: all of their time is sys;
	 * ctx is their context switches, split over queues as their CPU time.
	 * An engine's threads: user and system time and context switches
	 * (getrusage), after the ramp.
	 */
	out_double(o, "usr_cpu", NULL,
		   job_runtime(j) ? 100.0 * (double)j->usr_ns / (double)job_runtime(j) : 0, 6, NULL);
	out_double(o, "sys_cpu", NULL,
		   job_runtime(j) ? 100.0 * (double)(j->cpu_time - j->usr_ns) /
				    (double)job_runtime(j) : 0, 6, NULL);
	out_u64(o, "ctx", NULL, j->ctx, NULL);
	out_u64(o, "majf", NULL, 0, NULL);
	out_u64(o, "minf", NULL, 0, NULL);
	depth_shares(j->depth_ns, depth);
	out_begin_object(o, "iodepth_level", NULL);
	for (unsigned int i = 0; i < BL_DEPTH_NR; i++)
		out_double(o, depth_keys[i], NULL, depth[i], 6, NULL);
	out_end_object(o);
	/* IOs per submit and per reap are not counted: fio's keys, no samples. */
	for (unsigned int k = 0; k < 2; k++) {
		static const char *const keys[] = { "0", "4", "8", "16", "32", "64", ">=64" };

		out_begin_object(o, k ? "iodepth_complete" : "iodepth_submit", NULL);
		for (unsigned int i = 0; i < ARRAY_SIZE(keys); i++)
			out_double(o, keys[i], NULL, 0, 6, NULL);
		out_end_object(o);
	}
	/* The IO depth distribution in ns of each level (fio has only shares). */
	out_begin_object(o, "iodepth_level_ns", NULL);
	for (unsigned int i = 0; i < BL_DEPTH_NR; i++)
		out_u64(o, depth_keys[i], NULL, j->depth_ns[i], NULL);
	out_end_object(o);
	op_sum(&all, &j->op[OP_READ]);
	op_sum(&all, &j->op[OP_WRITE]);
	op_sum(&all, &j->op[OP_TRIM]);
	/* fio's distribution is of clat (lat where the split is unknown). */
	if (!j->p.no_lat)
		hist = all.split && all.chist ? all.chist : all.hist;
	json_lat_dist(o, hist, hist ? all.ios : 0);
	op_clear(&all);
	if (j->ser.interval)
		json_series(o, &j->ser, j->p.no_lat, ro);
	/* fio's latency_target options do not exist here: their defaults. */
	out_u64(o, "latency_depth", NULL, j->p.iodepth, NULL);
	out_u64(o, "latency_target", NULL, 0, NULL);
	out_double(o, "latency_percentile", NULL, 100.0, 6, NULL);
	out_u64(o, "latency_window", NULL, 0, NULL);
	if (ro->queues && j->nr_queues) {
		out_begin_array(o, "queues", NULL);
		for (unsigned int i = 0; i < j->nr_queues; i++) {
			const struct queue_stats *q = &j->queues[i];

			out_begin_object(o, NULL, NULL);
			out_u64(o, "cpu", NULL, q->cpu, NULL);
			out_u64(o, "cpu_ns", NULL, q->cpu_time, NULL);
			out_u64(o, "ctx", NULL, q->ctx, NULL);
			out_u64(o, "inflight", NULL, q->inflight, NULL);
			out_u64(o, "stall_max_ns", NULL, q->stall_max, NULL);
			/* The kernel sends each queue's latency too: kept. */
			json_op(o, "read", &q->op[OP_READ], j->elapsed, j->p.no_lat, ro, NULL, 0);
			json_op(o, "write", &q->op[OP_WRITE], j->elapsed, j->p.no_lat, ro, NULL, 0);
			json_op(o, "trim", &q->op[OP_TRIM], j->elapsed, j->p.no_lat, ro, NULL, 0);
			depth_shares(q->depth_ns, depth);
			out_begin_object(o, "iodepth_level", NULL);
			for (unsigned int k = 0; k < BL_DEPTH_NR; k++)
				out_double(o, depth_keys[k], NULL, depth[k], 6, NULL);
			out_end_object(o);
			out_end_object(o);
		}
		out_end_array(o);
	}
	out_end_object(o);
}

/*
 * fio's number formatting: at most four digits, with a binary (KiB, MiB)
 * or decimal (kB, MB) unit prefix.
 */
char *fmt_num(double v, bool binary, const char *unit)
{
	static const char *const bin[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };
	static const char *const dec[] = { "", "k", "M", "G", "T", "P" };
	double base = binary ? 1024.0 : 1000.0;
	unsigned int u = 0;

	while (v >= 9999.5 && u < 5) {
		v /= base;
		u++;
	}
	if (!u || v >= 999.95)
		return xasprintf("%.0f%s%s", v, binary ? bin[u] : dec[u], unit);
	if (v >= 99.995)
		return xasprintf("%.0f%s%s", v, binary ? bin[u] : dec[u], unit);
	if (v >= 9.9995)
		return xasprintf("%.1f%s%s", v, binary ? bin[u] : dec[u], unit);
	return xasprintf("%.2f%s%s", v, binary ? bin[u] : dec[u], unit);
}

/* fio's latency unit for a set of values: nsec, usec or msec, and its divisor. */
static const char *lat_unit(double big, double *div)
{
	if (big >= 1e7) {
		*div = 1e6;
		return "msec";
	}
	if (big >= 1e4) {
		*div = 1e3;
		return "usec";
	}
	*div = 1;
	return "nsec";
}

static void text_lat(const char *label, const struct bl_lat *l, uint64_t n)
{
	double mean = bl_lat_mean(l, n), div;
	const char *unit = lat_unit(mean, &div);

	printf("    %4s (%s): min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f\n", label, unit,
	       (double)bl_lat_min(l) / div, (double)l->max / div, mean / div,
	       bl_lat_stddev(l, n) / div);
}

static void text_percentiles(const char *label, const uint64_t *hist, uint64_t n,
			     const struct report_opts *ro)
{
	uint64_t top = bl_hist_percentile(hist, BL_HIST_NR, n,
					  ro->percentiles[ro->nr_percentiles - 1]);
	double div;
	const char *unit = lat_unit((double)top, &div);
	int width = snprintf(NULL, 0, "%.0f", (double)top / div);

	printf("    %s percentiles (%s):\n", label, unit);
	for (unsigned int i = 0; i < ro->nr_percentiles; i++) {
		double v = (double)bl_hist_percentile(hist, BL_HIST_NR, n, ro->percentiles[i]);

		printf("%s%5.2fth=[%*.0f]", i % 4 ? ", " : "     | ", ro->percentiles[i], width,
		       v / div);
		if (i % 4 == 3 || i + 1 == ro->nr_percentiles)
			printf("%s\n", i + 1 == ro->nr_percentiles ? "" : ",");
	}
}

static void text_op(const char *label, const struct op_stats *op, uint64_t elapsed, bool no_lat,
		    const struct report_opts *ro, const struct series *se, int opi)
{
	struct series_stat bws, iopss;

	double secs = (double)elapsed / 1e9;
	double iops = secs > 0 ? (double)op->ios / secs : 0;
	double bw = secs > 0 ? (double)op->bytes / secs : 0;
	char *a = fmt_num(iops, false, ""), *b = fmt_num(bw, true, "B/s");
	char *c = fmt_num(bw, false, "B/s"), *d = fmt_num((double)op->bytes, true, "B");

	printf("  %s: IOPS=%s, BW=%s (%s)(%s/%.0fmsec)", label, a, b, c, d, (double)elapsed / 1e6);
	if (op->errors)
		printf(", errors=%" PRIu64, op->errors);
	printf("\n");
	free(a);
	free(b);
	free(c);
	free(d);
	if (!op->ios)
		return;
	if (!no_lat) {
		if (op->split) {
			text_lat("slat", &op->slat, op->ios);
			text_lat("clat", &op->clat, op->ios);
		}
		text_lat("lat", &op->lat, op->ios);
		if (op->has_sched && op->sched_n)
			text_lat("sched lat", &op->sched, op->sched_n);
		if (ro->nr_percentiles && op->split && op->chist)
			text_percentiles("clat", op->chist, op->ios, ro);
		if (ro->nr_percentiles && op->hist)
			text_percentiles(" lat", op->hist, op->ios, ro);
		if (ro->nr_percentiles && op->has_sched && op->shist && op->sched_n)
			text_percentiles("sched lat", op->shist, op->sched_n, ro);
	}
	if (!se || !se->interval)
		return;
	/* fio's lines over the per-interval samples. */
	series_rate_stat(se, opi, true, &bws);
	series_rate_stat(se, opi, false, &iopss);
	if (!bws.n)
		return;
	printf("   bw (  KiB/s): min=%" PRIu64 ", max=%" PRIu64 ", per=100.00%%, avg=%.2f, stdev=%.2f, samples=%" PRIu64 "\n",
	       (uint64_t)(bws.min / 1024), (uint64_t)(bws.max / 1024), bws.mean / 1024,
	       bws.dev / 1024, bws.n);
	printf("   iops        : min=%" PRIu64 ", max=%" PRIu64 ", avg=%.2f, stdev=%.2f, samples=%" PRIu64 "\n",
	       (uint64_t)iopss.min, (uint64_t)iopss.max, iopss.mean, iopss.dev, iopss.n);
}

static void text_dist(const struct job *j)
{
	static const char *const units[] = { "nsec", "usec", "msec" };
	struct op_stats all = { 0 };
	struct lat_dist d;
	double depth[BL_DEPTH_NR];

	op_sum(&all, &j->op[OP_READ]);
	op_sum(&all, &j->op[OP_WRITE]);
	op_sum(&all, &j->op[OP_TRIM]);
	if (!j->p.no_lat && all.hist && all.ios) {
		lat_dist(all.split && all.chist ? all.chist : all.hist, all.ios, &d);
		for (unsigned int u = 0; u < 3; u++) {
			const double *v = u == 0 ? d.ns : u == 1 ? d.us : d.ms;
			unsigned int nr = u == 2 ? 12 : 10, shown = 0;

			for (unsigned int k = 0; k < nr; k++) {
				if (v[k] < 0.005)
					continue;
				if (!shown++)
					printf("  lat (%s)   : ", units[u]);
				else
					printf(", ");
				if (k < 10)
					printf("%u=%.2f%%", lat_bounds[k], v[k]);
				else
					printf("%s=%.2f%%", k == 10 ? "2000" : ">=2000", v[k]);
			}
			if (shown)
				printf("\n");
		}
	}
	op_clear(&all);
	if (j->ss)
		ss_report(NULL, j->ss, false);
	printf("  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%" PRIu64 ", %.0f ns/IO on %u queues\n",
	       job_runtime(j) ? 100.0 * (double)j->usr_ns / (double)job_runtime(j) : 0.0,
	       job_runtime(j) ? 100.0 * (double)(j->cpu_time - j->usr_ns) /
				(double)job_runtime(j) : 0.0,
	       j->ctx,
	       job_ios(j) ? (double)j->cpu_time / (double)job_ios(j) : 0.0,
	       j->nr_cpus);
	depth_shares(j->depth_ns, depth);
	printf("  IO depths    : ");
	for (unsigned int i = 0; i < BL_DEPTH_NR; i++)
		printf("%s%s=%.1f%%", i ? ", " : "", depth_keys[i], depth[i]);
	printf("\n     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64
	       ",0 short=0,0,0,0 dropped=0,0,0,0\n",
	       j->op[OP_READ].ios + j->op[OP_READ].errors,
	       j->op[OP_WRITE].ios + j->op[OP_WRITE].errors,
	       j->op[OP_TRIM].ios + j->op[OP_TRIM].errors);
}

static void text_job(const struct job *j, const char *name, const struct report_opts *ro)
{
	bool sum = !j->path;

	printf("%s: (groupid=%u, jobs=%u): err=%2d: ", name, j->groupid,
	       sum || j->nr_jobs > 1 ? j->nr_jobs : 1, -j->error);
	if (sum) {
		printf("%u queues\n", j->nr_cpus);
	} else {
		char *req = req_names(j->p.req);

		printf("job %u on %s, rw=%s, bs=%u, iodepth=%u, cpus=%s", j->id, j->path,
		       rw_name(j->p.rw), j->p.bs, j->p.iodepth, j->cpus);
		if (j->p.rwmixtrim)
			printf(", rwmixtrim=%u", j->p.rwmixtrim);
		if (j->bssplit)
			printf(", bssplit=%s", j->bssplit);
		if (j->p.dist) {
			char *dn = dist_name(&j->p);

			printf(", random_distribution=%s", dn);
			free(dn);
		}
		if (j->p.rate_iops)
			printf(", rate_iops=%u%s", j->p.rate_iops,
			       j->p.rate_process == BLKLOAD_RATE_PROCESS_POISSON ? " poisson" : "");
		if (j->p.rate_bps)
			printf(", rate=%" PRIu64 " B/s%s", j->p.rate_bps,
			       j->p.rate_process == BLKLOAD_RATE_PROCESS_POISSON ? " poisson" : "");
		if (*req)
			printf(", %s", req);
		printf(": %s", state_name(j->state));
		free(req);
		if (j->state == BLKLOAD_STATE_DONE)
			printf(" (%s)", reason_name(j->reason));
		if (j->error)
			printf(", error %s", strerror(-j->error));
		printf("\n");
	}
	if (j->op[OP_READ].ios || j->op[OP_READ].errors || (!sum && job_has_op(j, OP_READ)))
		text_op("read", &j->op[OP_READ], j->elapsed, j->p.no_lat, ro, &j->ser, OP_READ);
	if (j->op[OP_WRITE].ios || j->op[OP_WRITE].errors || (!sum && job_has_op(j, OP_WRITE)))
		text_op("write", &j->op[OP_WRITE], j->elapsed, j->p.no_lat, ro, &j->ser, OP_WRITE);
	if (j->op[OP_TRIM].ios || j->op[OP_TRIM].errors || (!sum && job_has_op(j, OP_TRIM)))
		text_op("trim", &j->op[OP_TRIM], j->elapsed, j->p.no_lat, ro, &j->ser, OP_TRIM);
	text_dist(j);
	if (j->has_verify)
		text_verify(j);
	/* A stall worth a line: a second or more without any completion. */
	if (j->stall_max >= 1000000000ULL)
		printf("  stalled      : up to %.3f s with IO in flight and no completion\n",
		       (double)j->stall_max / 1e9);
	if (ro->queues) {
		for (unsigned int i = 0; i < j->nr_queues; i++) {
			const struct queue_stats *q = &j->queues[i];

			printf("  cpu %u: read ios=%" PRIu64 ", write ios=%" PRIu64, q->cpu,
			       q->op[OP_READ].ios, q->op[OP_WRITE].ios);
			if (q->op[OP_TRIM].ios)
				printf(", trim ios=%" PRIu64, q->op[OP_TRIM].ios);
			printf(", cpu %.3f s, inflight %" PRIu64, (double)q->cpu_time / 1e9,
			       q->inflight);
			if (!j->p.no_lat)
				printf(", lat mean read %.0f write %.0f ns",
				       bl_lat_mean(&q->op[OP_READ].lat, q->op[OP_READ].ios),
				       bl_lat_mean(&q->op[OP_WRITE].lat, q->op[OP_WRITE].ios));
			printf("\n");
		}
	}
}

void report_job(struct out *o, const char *key, const struct job *j, const char *name,
		const struct report_opts *ro)
{
	if (out_is_json(o))
		json_job(o, key, j, name, ro);
	else
		text_job(j, name, ro);
}

/* fio's "Run status group N (all jobs):" lines for the jobs of one group. */
void report_group(const struct job *jobs, unsigned int n, uint32_t groupid)
{
	static const char *const names[NR_OPS] = { "READ", "WRITE", "TRIM" };
	bool any = false;

	for (int op = 0; op < NR_OPS; op++) {
		double bmin = 0, bmax = 0, total_bw;
		uint64_t bytes = 0, rmin = 0, rmax = 0, elapsed = 0;
		unsigned int k = 0;
		char *a, *b, *c, *d, *e, *f, *g, *h;

		for (unsigned int i = 0; i < n; i++) {
			const struct job *j = &jobs[i];
			double bw;

			if (j->groupid != groupid || !j->op[op].ios)
				continue;
			bw = j->elapsed ? (double)j->op[op].bytes * 1e9 / (double)j->elapsed : 0;
			if (!k++ || bw < bmin)
				bmin = bw;
			if (bw > bmax)
				bmax = bw;
			if (k == 1 || j->elapsed < rmin)
				rmin = j->elapsed;
			if (j->elapsed > rmax)
				rmax = j->elapsed;
			bytes += j->op[op].bytes;
		}
		if (!k)
			continue;
		if (!any)
			printf("\nRun status group %u (all jobs):\n", groupid);
		any = true;
		/* fio: the group's bytes over its longest job. */
		elapsed = rmax;
		total_bw = elapsed ? (double)bytes * 1e9 / (double)elapsed : 0;
		a = fmt_num(total_bw, true, "B/s");
		b = fmt_num(total_bw, false, "B/s");
		c = fmt_num(bmin, true, "B/s");
		d = fmt_num(bmax, true, "B/s");
		e = fmt_num(bmin, false, "B/s");
		f = fmt_num(bmax, false, "B/s");
		g = fmt_num((double)bytes, true, "B");
		h = fmt_num((double)bytes, false, "B");
		printf("%7s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%.0f-%.0fmsec\n", names[op],
		       a, b, c, d, e, f, g, h, (double)rmin / 1e6, (double)rmax / 1e6);
		free(a);
		free(b);
		free(c);
		free(d);
		free(e);
		free(f);
		free(g);
		free(h);
	}
}

void report_disks(struct out *o, const struct disk_util *du, unsigned int n)
{
	if (out_is_json(o)) {
		out_begin_array(o, "disk_util", NULL);
		for (unsigned int i = 0; i < n; i++) {
			const struct disk_util *d = &du[i];

			out_begin_object(o, NULL, NULL);
			out_str(o, "name", NULL, d->name);
			out_u64(o, "read_ios", NULL, d->ios[0], NULL);
			out_u64(o, "write_ios", NULL, d->ios[1], NULL);
			out_u64(o, "read_sectors", NULL, d->sectors[0], NULL);
			out_u64(o, "write_sectors", NULL, d->sectors[1], NULL);
			out_u64(o, "read_merges", NULL, d->merges[0], NULL);
			out_u64(o, "write_merges", NULL, d->merges[1], NULL);
			out_u64(o, "read_ticks", NULL, d->ticks[0], NULL);
			out_u64(o, "write_ticks", NULL, d->ticks[1], NULL);
			out_u64(o, "in_queue", NULL, d->in_queue, NULL);
			out_double(o, "util", NULL, d->util, 6, NULL);
			out_end_object(o);
		}
		out_end_array(o);
		return;
	}
	if (!n)
		return;
	printf("\nDisk stats (read/write):\n");
	for (unsigned int i = 0; i < n; i++) {
		const struct disk_util *d = &du[i];

		printf("  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64
		       ", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64 ", util=%.2f%%\n",
		       d->name, d->ios[0], d->ios[1], d->merges[0], d->merges[1], d->ticks[0],
		       d->ticks[1], d->in_queue, d->util);
	}
}
