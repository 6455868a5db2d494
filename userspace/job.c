// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing, summing and reporting of jobs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "parse.h"
#include "util.h"

static const char *const rw_names[] = {
	[BLKLOAD_RW_READ] = "read",
	[BLKLOAD_RW_WRITE] = "write",
	[BLKLOAD_RW_RANDREAD] = "randread",
	[BLKLOAD_RW_RANDWRITE] = "randwrite",
	[BLKLOAD_RW_RW] = "rw",
	[BLKLOAD_RW_RANDRW] = "randrw",
};

static const char *const state_names[] = {
	[BLKLOAD_STATE_CREATED] = "created",
	[BLKLOAD_STATE_RUNNING] = "running",
	[BLKLOAD_STATE_STOPPING] = "stopping",
	[BLKLOAD_STATE_DONE] = "done",
};

static const char *const reason_names[] = {
	[BLKLOAD_REASON_NONE] = "none",
	[BLKLOAD_REASON_RUNTIME] = "runtime",
	[BLKLOAD_REASON_LIMIT] = "limit",
	[BLKLOAD_REASON_ERROR] = "error",
	[BLKLOAD_REASON_STOPPED] = "stopped",
	[BLKLOAD_REASON_OWNER_GONE] = "owner-gone",
	[BLKLOAD_REASON_CPU_OFFLINE] = "cpu-offline",
};

const char *rw_name(uint32_t rw)
{
	return rw < ARRAY_SIZE(rw_names) ? rw_names[rw] : "?";
}

int rw_parse(const char *s, uint32_t *rw)
{
	for (uint32_t i = 0; i < ARRAY_SIZE(rw_names); i++) {
		if (!strcmp(s, rw_names[i])) {
			*rw = i;
			return 0;
		}
	}
	/* fio's aliases */
	if (!strcmp(s, "readwrite")) {
		*rw = BLKLOAD_RW_RW;
		return 0;
	}
	return -1;
}

const char *state_name(uint32_t s)
{
	return s < ARRAY_SIZE(state_names) ? state_names[s] : "?";
}

const char *reason_name(uint32_t r)
{
	return r < ARRAY_SIZE(reason_names) ? reason_names[r] : "?";
}

static void op_clear(struct op_stats *op)
{
	free(op->hist);
	memset(op, 0, sizeof(*op));
}

static int op_parse(const struct nlattr *nest, struct op_stats *op)
{
	struct nlattr *tb[BLKLOAD_A_OP_STATS_MAX + 1];

	memset(op, 0, sizeof(*op));
	if (!nest)
		return 0;
	if (nla_parse_nested(tb, BLKLOAD_A_OP_STATS_MAX, (struct nlattr *)nest, NULL) < 0)
		return -1;
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_IOS], &op->ios);
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_BYTES], &op->bytes);
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_ERRORS], &op->errors);
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_LAT_MIN], &op->lat_min);
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_LAT_MAX], &op->lat_max);
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_LAT_SUM], &op->lat_sum);
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_LAT_SUM_HI], &op->lat_sum_hi);
	if (tb[BLKLOAD_A_OP_STATS_HIST]) {
		size_t len = (size_t)nla_len(tb[BLKLOAD_A_OP_STATS_HIST]);

		op->hist = xcalloc(BL_HIST_NR, sizeof(uint64_t));
		if (len > BL_HIST_NR * sizeof(uint64_t))
			len = BL_HIST_NR * sizeof(uint64_t);
		memcpy(op->hist, nla_data(tb[BLKLOAD_A_OP_STATS_HIST]), len);
	}
	return 0;
}

static int queue_parse(const struct nlattr *nest, struct queue_stats *q)
{
	struct nlattr *tb[BLKLOAD_A_QUEUE_STATS_MAX + 1];

	memset(q, 0, sizeof(*q));
	if (nla_parse_nested(tb, BLKLOAD_A_QUEUE_STATS_MAX, (struct nlattr *)nest, NULL) < 0)
		return -1;
	nla_get_u32_checked(tb[BLKLOAD_A_QUEUE_STATS_CPU], &q->cpu);
	nla_get_u64_checked(tb[BLKLOAD_A_QUEUE_STATS_CPU_TIME], &q->cpu_time);
	nla_get_u64_checked(tb[BLKLOAD_A_QUEUE_STATS_INFLIGHT], &q->inflight);
	nla_get_u64_checked(tb[BLKLOAD_A_QUEUE_STATS_STALL_MAX], &q->stall_max);
	if (op_parse(tb[BLKLOAD_A_QUEUE_STATS_READ], &q->op[OP_READ]) ||
	    op_parse(tb[BLKLOAD_A_QUEUE_STATS_WRITE], &q->op[OP_WRITE]))
		return -1;
	return 0;
}

static int stats_parse(const struct nlattr *nest, struct job *j)
{
	struct nlattr *tb[BLKLOAD_A_STATS_MAX + 1];
	struct nlattr *a;
	int rem;

	if (!nest)
		return 0;
	if (nla_parse_nested(tb, BLKLOAD_A_STATS_MAX, (struct nlattr *)nest, NULL) < 0)
		return -1;
	nla_get_u64_checked(tb[BLKLOAD_A_STATS_ELAPSED], &j->elapsed);
	nla_get_u64_checked(tb[BLKLOAD_A_STATS_CPU_TIME], &j->cpu_time);
	nla_get_u64_checked(tb[BLKLOAD_A_STATS_INFLIGHT], &j->inflight);
	nla_get_u64_checked(tb[BLKLOAD_A_STATS_STALL_MAX], &j->stall_max);
	j->ramp_done = tb[BLKLOAD_A_STATS_RAMP_DONE] != NULL;
	if (op_parse(tb[BLKLOAD_A_STATS_READ], &j->op[OP_READ]) ||
	    op_parse(tb[BLKLOAD_A_STATS_WRITE], &j->op[OP_WRITE]))
		return -1;
	nla_for_each_nested(a, (struct nlattr *)nest, rem) {
		if (nla_type(a) != BLKLOAD_A_STATS_QUEUE)
			continue;
		j->queues = xrealloc(j->queues, (j->nr_queues + 1) * sizeof(*j->queues));
		if (queue_parse(a, &j->queues[j->nr_queues]))
			return -1;
		j->nr_queues++;
	}
	return 0;
}

int job_parse(struct nlattr **tb, struct job *j)
{
	const char *path = nla_get_str_checked(tb[BLKLOAD_A_PATH]);
	struct cpuset set = { 0 };

	memset(j, 0, sizeof(*j));
	if (!nla_get_u32_checked(tb[BLKLOAD_A_JOB_ID], &j->id) || !path)
		return -1;
	j->path = xstrdup(path);
	nla_get_u32_checked(tb[BLKLOAD_A_RW], &j->rw);
	nla_get_u32_checked(tb[BLKLOAD_A_RWMIXREAD], &j->rwmixread);
	nla_get_u32_checked(tb[BLKLOAD_A_BS], &j->bs);
	nla_get_u32_checked(tb[BLKLOAD_A_IODEPTH], &j->iodepth);
	nla_get_u32_checked(tb[BLKLOAD_A_BATCH], &j->batch);
	nla_get_u32_checked(tb[BLKLOAD_A_STATE], &j->state);
	nla_get_u32_checked(tb[BLKLOAD_A_REASON], &j->reason);
	nla_get_u32_checked(tb[BLKLOAD_A_ERROR], (uint32_t *)&j->error);
	nla_get_u32_checked(tb[BLKLOAD_A_DEV_LBS], &j->dev_lbs);
	nla_get_u32_checked(tb[BLKLOAD_A_OWNER], &j->owner);
	nla_get_u32_checked(tb[BLKLOAD_A_CONTINUE_ON_ERROR], &j->coe);
	nla_get_u64_checked(tb[BLKLOAD_A_OFFSET], &j->offset);
	nla_get_u64_checked(tb[BLKLOAD_A_SIZE], &j->size);
	nla_get_u64_checked(tb[BLKLOAD_A_RUNTIME], &j->runtime);
	nla_get_u64_checked(tb[BLKLOAD_A_RAMP_TIME], &j->ramp);
	nla_get_u64_checked(tb[BLKLOAD_A_NUMBER_IOS], &j->number_ios);
	nla_get_u64_checked(tb[BLKLOAD_A_RANDSEED], &j->randseed);
	nla_get_u64_checked(tb[BLKLOAD_A_DEV_SIZE], &j->dev_size);
	nla_get_u64_checked(tb[BLKLOAD_A_MEM_PINNED], &j->mem_pinned);
	j->no_lat = tb[BLKLOAD_A_NO_LAT] != NULL;
	j->deleted = tb[BLKLOAD_A_DELETED] != NULL;
	if (tb[BLKLOAD_A_CPUMASK]) {
		const uint8_t *d = nla_data(tb[BLKLOAD_A_CPUMASK]);
		size_t len = (size_t)nla_len(tb[BLKLOAD_A_CPUMASK]);

		for (size_t i = 0; i + sizeof(uint64_t) <= len; i += sizeof(uint64_t)) {
			uint64_t w;

			memcpy(&w, d + i, sizeof(w));
			for (unsigned int b = 0; b < 64; b++)
				if (w >> b & 1)
					cpuset_set(&set, (unsigned int)(i / 8 * 64 + b));
		}
	}
	j->cpus = cpuset_format(&set);
	j->nr_cpus = cpuset_count(&set);
	cpuset_free(&set);
	return stats_parse(tb[BLKLOAD_A_STATS], j);
}

void job_clear(struct job *j)
{
	free(j->path);
	free(j->cpus);
	for (int i = 0; i < NR_OPS; i++)
		op_clear(&j->op[i]);
	for (unsigned int q = 0; q < j->nr_queues; q++)
		for (int i = 0; i < NR_OPS; i++)
			op_clear(&j->queues[q].op[i]);
	free(j->queues);
	memset(j, 0, sizeof(*j));
}

void job_sum(struct job *a, const struct job *b)
{
	for (int i = 0; i < NR_OPS; i++) {
		struct op_stats *x = &a->op[i];
		const struct op_stats *y = &b->op[i];

		if (y->ios && (!x->ios || y->lat_min < x->lat_min))
			x->lat_min = y->lat_min;
		if (y->lat_max > x->lat_max)
			x->lat_max = y->lat_max;
		x->ios += y->ios;
		x->bytes += y->bytes;
		x->errors += y->errors;
		x->lat_sum += y->lat_sum;
		x->lat_sum_hi += y->lat_sum_hi + (x->lat_sum < y->lat_sum);
		if (y->hist) {
			if (!x->hist)
				x->hist = xcalloc(BL_HIST_NR, sizeof(uint64_t));
			for (unsigned int k = 0; k < BL_HIST_NR; k++)
				x->hist[k] += y->hist[k];
		}
	}
	if (b->elapsed > a->elapsed)
		a->elapsed = b->elapsed;
	a->cpu_time += b->cpu_time;
	a->inflight += b->inflight;
	if (b->stall_max > a->stall_max)
		a->stall_max = b->stall_max;
	a->nr_cpus += b->nr_cpus;
	a->mem_pinned += b->mem_pinned;
	if (b->error && !a->error)
		a->error = b->error;
}

/* Mean latency from the 128-bit sum. */
static double lat_mean(const struct op_stats *op)
{
	long double sum = (long double)op->lat_sum_hi * 18446744073709551616.0L +
			  (long double)op->lat_sum;

	return op->ios ? (double)(sum / (long double)op->ios) : 0;
}

static void report_op(struct out *o, const char *key, const char *label, const struct op_stats *op,
		      uint64_t elapsed, bool no_lat, const struct report_opts *ro)
{
	double secs = (double)elapsed / 1e9;
	double iops = secs > 0 ? (double)op->ios / secs : 0;
	double bw = secs > 0 ? (double)op->bytes / secs : 0;
	char *bws = fmt_bytes((uint64_t)bw);
	char *head;

	if (out_is_json(o)) {
		out_begin_object(o, key, NULL);
		out_u64(o, "io_bytes", NULL, op->bytes, NULL);
		out_u64(o, "io_kbytes", NULL, op->bytes / 1024, NULL);
		out_u64(o, "bw_bytes", NULL, (uint64_t)bw, NULL);
		out_u64(o, "bw", NULL, (uint64_t)(bw / 1024), NULL);
		out_double(o, "iops", NULL, iops, 6, NULL);
		out_u64(o, "runtime", NULL, elapsed / 1000000, NULL);
		out_u64(o, "total_ios", NULL, op->ios + op->errors, NULL);
		out_u64(o, "short_ios", NULL, 0, NULL);
		out_u64(o, "drop_ios", NULL, 0, NULL);
		out_u64(o, "errors", NULL, op->errors, NULL);
		if (!no_lat) {
			out_begin_object(o, "lat_ns", NULL);
			out_u64(o, "min", NULL, op->lat_min, NULL);
			out_u64(o, "max", NULL, op->lat_max, NULL);
			out_double(o, "mean", NULL, lat_mean(op), 6, NULL);
			out_u64(o, "N", NULL, op->ios, NULL);
			if (op->hist && ro->nr_percentiles) {
				out_begin_object(o, "percentile", NULL);
				for (unsigned int i = 0; i < ro->nr_percentiles; i++) {
					char *k = xasprintf("%f", ro->percentiles[i]);

					out_u64(o, k, NULL,
						bl_hist_percentile(op->hist, BL_HIST_NR, op->ios,
								   ro->percentiles[i]), NULL);
					free(k);
				}
				out_end_object(o);
			}
			if (op->hist && ro->bins) {
				out_begin_object(o, "bins", NULL);
				for (unsigned int i = 0; i < BL_HIST_NR; i++) {
					char *k;

					if (!op->hist[i])
						continue;
					k = xasprintf("%" PRIu64, (uint64_t)bl_hist_mid(i));
					out_u64(o, k, NULL, op->hist[i], NULL);
					free(k);
				}
				out_end_object(o);
			}
			out_end_object(o);
		}
		out_end_object(o);
		free(bws);
		return;
	}

	head = xasprintf("%s: IOPS=%.0f, BW=%s/s, ios=%" PRIu64 ", bytes=%" PRIu64
			 ", errors=%" PRIu64,
			 label, iops, bws, op->ios, op->bytes, op->errors);
	printf("  %s\n", head);
	free(head);
	free(bws);
	if (no_lat || !op->ios)
		return;
	printf("    lat (nsec): min=%" PRIu64 ", max=%" PRIu64 ", avg=%.2f\n", op->lat_min,
	       op->lat_max, lat_mean(op));
	if (!op->hist || !ro->nr_percentiles)
		return;
	printf("    lat percentiles (nsec):\n");
	for (unsigned int i = 0; i < ro->nr_percentiles; i++) {
		printf("%s%6.2fth=[%" PRIu64 "]", i % 4 ? ", " : "     | ", ro->percentiles[i],
		       (uint64_t)bl_hist_percentile(op->hist, BL_HIST_NR, op->ios,
						    ro->percentiles[i]));
		if (i % 4 == 3 || i + 1 == ro->nr_percentiles)
			printf("\n");
	}
}

void report_job(struct out *o, const char *key, const struct job *j, const char *name,
		const struct report_opts *ro)
{
	uint64_t ios = j->op[OP_READ].ios + j->op[OP_WRITE].ios;
	bool json = out_is_json(o);
	bool sum = !j->path;

	if (json) {
		out_begin_object(o, key, NULL);
		out_str(o, "jobname", NULL, name);
		if (!sum) {
			out_u64(o, "job_id", NULL, j->id, NULL);
			out_str(o, "device", NULL, j->path);
			out_str(o, "rw", NULL, rw_name(j->rw));
			out_u64(o, "rwmixread", NULL, j->rwmixread, NULL);
			out_u64(o, "bs", NULL, j->bs, NULL);
			out_u64(o, "iodepth", NULL, j->iodepth, NULL);
			out_u64(o, "iodepth_batch_submit", NULL, j->batch, NULL);
			out_str(o, "cpus", NULL, j->cpus);
			out_u64(o, "offset", NULL, j->offset, NULL);
			out_u64(o, "size", NULL, j->size, NULL);
			out_u64(o, "number_ios", NULL, j->number_ios, NULL);
			out_u64(o, "runtime_ns", NULL, j->runtime, NULL);
			out_u64(o, "ramp_time_ns", NULL, j->ramp, NULL);
			out_u64(o, "randseed", NULL, j->randseed, NULL);
			out_u64(o, "dev_size", NULL, j->dev_size, NULL);
			out_u64(o, "dev_lbs", NULL, j->dev_lbs, NULL);
			out_str(o, "state", NULL, state_name(j->state));
			out_str(o, "done_reason", NULL, reason_name(j->reason));
			out_bool(o, "detached", NULL, !j->owner);
			out_bool(o, "deleted", NULL, j->deleted);
		}
		out_s64(o, "error", NULL, j->error, NULL);
		out_u64(o, "nr_queues", NULL, j->nr_cpus, NULL);
		out_u64(o, "mem_pinned", NULL, j->mem_pinned, NULL);
		out_u64(o, "elapsed", NULL, j->elapsed / 1000000, NULL);
		out_u64(o, "job_runtime", NULL, j->elapsed / 1000000, NULL);
		out_u64(o, "elapsed_ns", NULL, j->elapsed, NULL);
		out_u64(o, "inflight", NULL, j->inflight, NULL);
		out_u64(o, "stall_max_ns", NULL, j->stall_max, NULL);
		report_op(o, "read", "read", &j->op[OP_READ], j->elapsed, j->no_lat, ro);
		report_op(o, "write", "write", &j->op[OP_WRITE], j->elapsed, j->no_lat, ro);
		out_u64(o, "cpu_ns", NULL, j->cpu_time, NULL);
		out_double(o, "cpu_ns_per_io", NULL, ios ? (double)j->cpu_time / (double)ios : 0,
			   2, NULL);
		out_double(o, "usr_cpu", NULL, 0, 6, NULL);
		out_double(o, "sys_cpu", NULL,
			   j->elapsed ? 100.0 * (double)j->cpu_time / (double)j->elapsed : 0, 6,
			   NULL);
		if (ro->queues && j->nr_queues) {
			out_begin_array(o, "queues", NULL);
			for (unsigned int i = 0; i < j->nr_queues; i++) {
				const struct queue_stats *q = &j->queues[i];

				out_begin_object(o, NULL, NULL);
				out_u64(o, "cpu", NULL, q->cpu, NULL);
				out_u64(o, "cpu_ns", NULL, q->cpu_time, NULL);
				out_u64(o, "inflight", NULL, q->inflight, NULL);
				out_u64(o, "stall_max_ns", NULL, q->stall_max, NULL);
				/* The kernel sends each queue's latency too: kept. */
				report_op(o, "read", "read", &q->op[OP_READ], j->elapsed, j->no_lat,
					  ro);
				report_op(o, "write", "write", &q->op[OP_WRITE], j->elapsed,
					  j->no_lat, ro);
				out_end_object(o);
			}
			out_end_array(o);
		}
		out_end_object(o);
		return;
	}

	if (sum) {
		printf("%s: %u queues\n", name, j->nr_cpus);
	} else {
		printf("%s: (job %u) rw=%s, bs=%u, iodepth=%u, cpus=%s: %s", name, j->id,
		       rw_name(j->rw), j->bs, j->iodepth, j->cpus, state_name(j->state));
		if (j->state == BLKLOAD_STATE_DONE)
			printf(" (%s)", reason_name(j->reason));
		if (j->error)
			printf(", error %s", strerror(-j->error));
		printf("\n");
	}
	if (j->op[OP_READ].ios || j->op[OP_READ].errors || j->rw != BLKLOAD_RW_WRITE)
		report_op(o, key, "read", &j->op[OP_READ], j->elapsed, j->no_lat, ro);
	if (j->op[OP_WRITE].ios || j->op[OP_WRITE].errors ||
	    (!sum && j->rw != BLKLOAD_RW_READ && j->rw != BLKLOAD_RW_RANDREAD))
		report_op(o, key, "write", &j->op[OP_WRITE], j->elapsed, j->no_lat, ro);
	printf("  cpu: %.3f s on %u queues over %.3f s, %.0f ns/IO\n",
	       (double)j->cpu_time / 1e9, j->nr_cpus, (double)j->elapsed / 1e9,
	       ios ? (double)j->cpu_time / (double)ios : 0.0);
	/* A stall worth a line: a second or more without any completion. */
	if (j->stall_max >= 1000000000ULL)
		printf("  stalled: up to %.3f s with IO in flight and no completion\n",
		       (double)j->stall_max / 1e9);
	if (ro->queues) {
		for (unsigned int i = 0; i < j->nr_queues; i++) {
			const struct queue_stats *q = &j->queues[i];

			printf("  cpu %u: read ios=%" PRIu64 ", write ios=%" PRIu64
			       ", cpu %.3f s, inflight %" PRIu64,
			       q->cpu, q->op[OP_READ].ios, q->op[OP_WRITE].ios,
			       (double)q->cpu_time / 1e9, q->inflight);
			if (!j->no_lat)
				printf(", lat mean read %.0f write %.0f ns",
				       lat_mean(&q->op[OP_READ]), lat_mean(&q->op[OP_WRITE]));
			printf("\n");
		}
	}
}
