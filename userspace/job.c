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
	[BLKLOAD_RW_TRIM] = "trim",
	[BLKLOAD_RW_RANDTRIM] = "randtrim",
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
	[BLKLOAD_REASON_RATE_MIN] = "rate-min",
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

const char *req_name(uint32_t bit)
{
	switch (bit) {
	case BLKLOAD_REQ_FUA:
		return "fua";
	case BLKLOAD_REQ_PREFLUSH:
		return "preflush";
	case BLKLOAD_REQ_HIPRI:
		return "hipri";
	case BLKLOAD_REQ_NOWAIT:
		return "nowait";
	case BLKLOAD_REQ_WRITE_ZEROES:
		return "write_zeroes";
	default:
		return "?";
	}
}

/* One direction's (lo, hi, percent) triples as fio writes them. */
static char *bs_format_one(const uint32_t *t, size_t n)
{
	char *s = xstrdup("");

	for (size_t i = 0; i < n; i++, t += 3) {
		char *x;

		if (t[0] == t[1])
			x = xasprintf("%s%s%u/%u", s, i ? ":" : "", t[0], t[2]);
		else
			x = xasprintf("%s%s%u-%u/%u", s, i ? ":" : "", t[0], t[1], t[2]);
		free(s);
		s = x;
	}
	return s;
}

char *bs_format(const void *r, int rlen, const void *w, int wlen)
{
	size_t nr = rlen > 0 ? (size_t)rlen / 12 : 0, nw = wlen > 0 ? (size_t)wlen / 12 : 0;
	uint32_t *tr, *tw;
	char *a, *b, *s;

	if (!nr && !nw)
		return NULL;
	/* Copies: netlink attribute data need not be aligned for u32. */
	tr = xcalloc(nr + 1, 12);
	tw = xcalloc(nw + 1, 12);
	memcpy(tr, r, nr * 12);
	memcpy(tw, w, nw * 12);
	a = bs_format_one(tr, nr);
	b = bs_format_one(tw, nw);
	s = strcmp(a, b) ? xasprintf("%s,%s", a, b) : xstrdup(a);
	free(a);
	free(b);
	free(tr);
	free(tw);
	return s;
}

char *dist_name(const struct bl_params *p)
{
	char *s, *t;

	switch (p->dist) {
	case BLKLOAD_DIST_ZIPF:
		return xasprintf("zipf:%g", p->dist_param / 1000.0);
	case BLKLOAD_DIST_PARETO:
		return xasprintf("pareto:%g", p->dist_param / 1000.0);
	case BLKLOAD_DIST_NORMAL:
		return xasprintf("normal:%g", p->dist_param / 100.0);
	case BLKLOAD_DIST_ZONED:
	case BLKLOAD_DIST_ZONED_ABS:
		s = xstrdup(p->dist == BLKLOAD_DIST_ZONED ? "zoned" : "zoned_abs");
		for (uint32_t i = 0; i < p->nzones && i < BL_DIST_ZONES_MAX; i++) {
			t = xasprintf("%s:%u/%" PRIu64, s, p->zones[i].access, p->zones[i].size);
			free(s);
			s = t;
		}
		return s;
	default:
		return xstrdup("random");
	}
}

char *req_names(uint32_t req)
{
	char *s = xstrdup("");

	for (unsigned int b = 0; b < 32; b++) {
		char *t;

		if (!(req >> b & 1))
			continue;
		t = xasprintf("%s%s%s", s, *s ? " " : "", req_name(1U << b));
		free(s);
		s = t;
	}
	return s;
}

const char *state_name(uint32_t s)
{
	return s < ARRAY_SIZE(state_names) ? state_names[s] : "?";
}

/*
 * fio's rate_min ended job @j (named @name): said as fio says it, and the
 * job's error is fio's (EIO), so the report and the exit status fail it.
 */
void job_rate_min_note(struct job *j, const char *name)
{
	if (j->reason != BLKLOAD_REASON_RATE_MIN)
		return;
	fprintf(stderr, "blkload: %s: %s=%" PRIu64 "%s not met in a ratecycle of %.3g s (on one CPU queue's share): the job ended\n",
		name ? name : j->path ? j->path : "job",
		j->p.rate_min ? "rate_min" : "rate_iops_min",
		j->p.rate_min ? j->p.rate_min : j->p.rate_iops_min,
		j->p.rate_min ? "B/s" : "",
		(j->p.rate_cycle_ns ? j->p.rate_cycle_ns : 1000000000ULL) / 1e9);
	if (!j->error)
		j->error = -EIO;
}

const char *reason_name(uint32_t r)
{
	return r < ARRAY_SIZE(reason_names) ? reason_names[r] : "?";
}

void op_clear(struct op_stats *op)
{
	free(op->hist);
	free(op->chist);
	free(op->shist);
	memset(op, 0, sizeof(*op));
}

uint64_t job_ios(const struct job *j)
{
	return j->op[OP_READ].ios + j->op[OP_WRITE].ios + j->op[OP_TRIM].ios;
}

uint64_t job_errors(const struct job *j)
{
	return j->op[OP_READ].errors + j->op[OP_WRITE].errors + j->op[OP_TRIM].errors;
}

uint64_t job_bytes(const struct job *j)
{
	return j->op[OP_READ].bytes + j->op[OP_WRITE].bytes + j->op[OP_TRIM].bytes;
}

bool job_has_op(const struct job *j, int op)
{
	switch (op) {
	case OP_TRIM:
		return bl_params_trims(&j->p);
	case OP_READ:
		return bl_params_reads(&j->p);
	default:
		return bl_params_writes(&j->p);
	}
}

static uint64_t *hist_parse(const struct nlattr *a)
{
	size_t len;
	uint64_t *h;

	if (!a)
		return NULL;
	len = (size_t)nla_len(a);
	h = xcalloc(BL_HIST_NR, sizeof(uint64_t));
	if (len > BL_HIST_NR * sizeof(uint64_t))
		len = BL_HIST_NR * sizeof(uint64_t);
	memcpy(h, nla_data((struct nlattr *)a), len);
	return h;
}

static int lat_parse(const struct nlattr *nest, struct bl_lat *l, uint64_t **hist)
{
	struct nlattr *tb[BLKLOAD_A_LAT_STATS_MAX + 1];

	if (nla_parse_nested(tb, BLKLOAD_A_LAT_STATS_MAX, (struct nlattr *)nest, NULL) < 0)
		return -1;
	nla_get_u64_checked(tb[BLKLOAD_A_LAT_STATS_LAT_MIN], &l->min);
	nla_get_u64_checked(tb[BLKLOAD_A_LAT_STATS_LAT_MAX], &l->max);
	nla_get_u64_checked(tb[BLKLOAD_A_LAT_STATS_LAT_SUM], &l->sum);
	nla_get_u64_checked(tb[BLKLOAD_A_LAT_STATS_LAT_SUM_HI], &l->sum_hi);
	nla_get_u64_checked(tb[BLKLOAD_A_LAT_STATS_LAT_SQ], &l->sq);
	nla_get_u64_checked(tb[BLKLOAD_A_LAT_STATS_LAT_SQ_HI], &l->sq_hi);
	if (hist)
		*hist = hist_parse(tb[BLKLOAD_A_LAT_STATS_LAT_HIST]);
	return 0;
}

static void depth_parse(const struct nlattr *a, uint64_t *depth)
{
	size_t len;

	if (!a)
		return;
	len = (size_t)nla_len(a);
	if (len > BL_DEPTH_NR * sizeof(uint64_t))
		len = BL_DEPTH_NR * sizeof(uint64_t);
	memcpy(depth, nla_data((struct nlattr *)a), len);
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
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_LAT_MIN], &op->lat.min);
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_LAT_MAX], &op->lat.max);
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_LAT_SUM], &op->lat.sum);
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_LAT_SUM_HI], &op->lat.sum_hi);
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_LAT_SQ], &op->lat.sq);
	nla_get_u64_checked(tb[BLKLOAD_A_OP_STATS_LAT_SQ_HI], &op->lat.sq_hi);
	op->hist = hist_parse(tb[BLKLOAD_A_OP_STATS_HIST]);
	/* A module before ABI 2's appended latencies sends lat alone. */
	if (tb[BLKLOAD_A_OP_STATS_CLAT] && tb[BLKLOAD_A_OP_STATS_SLAT]) {
		if (lat_parse(tb[BLKLOAD_A_OP_STATS_CLAT], &op->clat, &op->chist) ||
		    lat_parse(tb[BLKLOAD_A_OP_STATS_SLAT], &op->slat, NULL))
			return -1;
		op->split = true;
	}
	if (tb[BLKLOAD_A_OP_STATS_DEVLAT]) {
		if (lat_parse(tb[BLKLOAD_A_OP_STATS_DEVLAT], &op->devlat, NULL))
			return -1;
		op->has_devlat = true;
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
	nla_get_u64_checked(tb[BLKLOAD_A_QUEUE_STATS_CTX], &q->ctx);
	depth_parse(tb[BLKLOAD_A_QUEUE_STATS_DEPTH_TIME], q->depth_ns);
	if (op_parse(tb[BLKLOAD_A_QUEUE_STATS_READ], &q->op[OP_READ]) ||
	    op_parse(tb[BLKLOAD_A_QUEUE_STATS_WRITE], &q->op[OP_WRITE]) ||
	    op_parse(tb[BLKLOAD_A_QUEUE_STATS_TRIM], &q->op[OP_TRIM]))
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
	nla_get_u64_checked(tb[BLKLOAD_A_STATS_CTX], &j->ctx);
	j->queues_next = tb[BLKLOAD_A_STATS_QUEUES_NEXT] ?
			 nla_get_u32(tb[BLKLOAD_A_STATS_QUEUES_NEXT]) : 0;
	j->ramp_done = tb[BLKLOAD_A_STATS_RAMP_DONE] != NULL;
	depth_parse(tb[BLKLOAD_A_STATS_DEPTH_TIME], j->depth_ns);
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

/* verify-stats: the counters and the first failures. */
static int verify_parse(struct nlattr *nest, struct job *j)
{
	struct nlattr *tb[BLKLOAD_A_VERIFY_STATS_MAX + 1], *a;
	int rem;

	if (nla_parse_nested(tb, BLKLOAD_A_VERIFY_STATS_MAX, nest, NULL) < 0)
		return -1;
	j->has_verify = true;
	nla_get_u64_checked(tb[BLKLOAD_A_VERIFY_STATS_CHECKED], &j->vchecked);
	nla_get_u64_checked(tb[BLKLOAD_A_VERIFY_STATS_SKIPPED], &j->vskipped);
	nla_get_u64_checked(tb[BLKLOAD_A_VERIFY_STATS_ERRORS], &j->verrors);
	nla_get_u64_checked(tb[BLKLOAD_A_VERIFY_STATS_READBACK], &j->vreadback);
	nla_for_each_nested(a, nest, rem) {
		struct nlattr *r[BLKLOAD_A_VERIFY_REPORT_MAX + 1];

		if (nla_type(a) != BLKLOAD_A_VERIFY_STATS_REPORT ||
		    j->nvrep >= sizeof(j->vrep) / sizeof(j->vrep[0]))
			continue;
		if (nla_parse_nested(r, BLKLOAD_A_VERIFY_REPORT_MAX, a, NULL) < 0)
			return -1;
		nla_get_u64_checked(r[BLKLOAD_A_VERIFY_REPORT_OFFSET], &j->vrep[j->nvrep].off);
		nla_get_u32_checked(r[BLKLOAD_A_VERIFY_REPORT_WHAT], &j->vrep[j->nvrep].what);
		nla_get_u64_checked(r[BLKLOAD_A_VERIFY_REPORT_EXPECTED], &j->vrep[j->nvrep].want);
		nla_get_u64_checked(r[BLKLOAD_A_VERIFY_REPORT_FOUND], &j->vrep[j->nvrep].got);
		j->nvrep++;
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
	/* The parameters: the module's defaults, then what the reply carries (params.h). */
	bl_params_init(&j->p);
	for (size_t i = 0; i < BL_PARAM_ATTRS_NR; i++) {
		const struct bl_param_attr *a = &bl_param_attrs[i];
		uint64_t v64;
		uint32_t v32;

		if (a->kind == BL_PK_FLAG)
			bl_param_set(&j->p, a, tb[a->type] != NULL);
		else if (a->kind == BL_PK_U32 && nla_get_u32_checked(tb[a->type], &v32))
			bl_param_set(&j->p, a, v32);
		else if (a->kind == BL_PK_U64 && nla_get_u64_checked(tb[a->type], &v64))
			bl_param_set(&j->p, a, v64);
	}
	if (tb[BLKLOAD_A_VERIFY_STATS] && verify_parse(tb[BLKLOAD_A_VERIFY_STATS], j))
		return -1;
	j->bssplit = bs_format(tb[BLKLOAD_A_BS_SPLIT] ? nla_data(tb[BLKLOAD_A_BS_SPLIT]) : NULL,
			       tb[BLKLOAD_A_BS_SPLIT] ? nla_len(tb[BLKLOAD_A_BS_SPLIT]) : 0,
			       tb[BLKLOAD_A_BS_SPLIT_WRITE] ?
			       nla_data(tb[BLKLOAD_A_BS_SPLIT_WRITE]) : NULL,
			       tb[BLKLOAD_A_BS_SPLIT_WRITE] ? nla_len(tb[BLKLOAD_A_BS_SPLIT_WRITE]) : 0);
	if (tb[BLKLOAD_A_RANDOM_ZONES]) {
		const char *why;

		bl_params_zones_set(&j->p, nla_data(tb[BLKLOAD_A_RANDOM_ZONES]),
				    (unsigned int)nla_len(tb[BLKLOAD_A_RANDOM_ZONES]), &why);
	}
	nla_get_u32_checked(tb[BLKLOAD_A_STATE], &j->state);
	nla_get_u32_checked(tb[BLKLOAD_A_REASON], &j->reason);
	nla_get_u32_checked(tb[BLKLOAD_A_ERROR], (uint32_t *)&j->error);
	nla_get_u32_checked(tb[BLKLOAD_A_DEV_LBS], &j->dev_lbs);
	nla_get_u32_checked(tb[BLKLOAD_A_OWNER], &j->owner);
	nla_get_u64_checked(tb[BLKLOAD_A_DEV_SIZE], &j->dev_size);
	nla_get_u64_checked(tb[BLKLOAD_A_MEM_PINNED], &j->mem_pinned);
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
	/* Beside stats: a nest holds 64 KiB. */
	if (op_parse(tb[BLKLOAD_A_STATS_TRIM], &j->op[OP_TRIM]) ||
	    stats_parse(tb[BLKLOAD_A_STATS], j))
		return -1;
	if (tb[BLKLOAD_A_STATS_SCHED]) {
		static const int type[NR_OPS] = {
			[OP_READ] = BLKLOAD_A_SCHED_STATS_READ,
			[OP_WRITE] = BLKLOAD_A_SCHED_STATS_WRITE,
			[OP_TRIM] = BLKLOAD_A_SCHED_STATS_TRIM,
		};
		struct nlattr *st[BLKLOAD_A_SCHED_STATS_MAX + 1];

		if (nla_parse_nested(st, BLKLOAD_A_SCHED_STATS_MAX, tb[BLKLOAD_A_STATS_SCHED],
				     NULL) < 0)
			return -1;
		for (int op = 0; op < NR_OPS; op++) {
			if (!st[type[op]])
				continue;
			if (lat_parse(st[type[op]], &j->op[op].sched, &j->op[op].shist))
				return -1;
			j->op[op].has_sched = true;
			j->op[op].sched_n = j->op[op].ios;
		}
	}
	return 0;
}

void job_clear(struct job *j)
{
	free(j->path);
	free(j->bssplit);
	free(j->cpus);
	for (int i = 0; i < NR_OPS; i++)
		op_clear(&j->op[i]);
	for (unsigned int q = 0; q < j->nr_queues; q++)
		for (int i = 0; i < NR_OPS; i++)
			op_clear(&j->queues[q].op[i]);
	free(j->queues);
	series_free(&j->ser);
	memset(j, 0, sizeof(*j));
}

/* Adds the latencies of @bn samples in @b to @an in @a; a min of no sample is no min. */
static void lat_sum(struct bl_lat *a, uint64_t an, const struct bl_lat *b, uint64_t bn)
{
	uint64_t min = a->min;

	bl_lat_merge(a, b);
	if (!bn)
		a->min = min;
	else if (an && min < b->min)
		a->min = min;
	else
		a->min = b->min;
}

static void hist_sum(uint64_t **a, const uint64_t *b)
{
	if (!b)
		return;
	if (!*a)
		*a = xcalloc(BL_HIST_NR, sizeof(uint64_t));
	for (unsigned int k = 0; k < BL_HIST_NR; k++)
		(*a)[k] += b[k];
}

void op_sum(struct op_stats *x, const struct op_stats *y)
{
	bool first = !x->ios && !x->errors && !x->split;

	lat_sum(&x->lat, x->ios, &y->lat, y->ios);
	lat_sum(&x->clat, x->ios, &y->clat, y->ios);
	lat_sum(&x->slat, x->ios, &y->slat, y->ios);
	lat_sum(&x->devlat, x->ios, &y->devlat, y->ios);
	/* The device side only when every part with IOs has it. */
	if (y->ios)
		x->has_devlat = (first || x->has_devlat) && y->has_devlat;
	else if (first)
		x->has_devlat = y->has_devlat;
	/* Split latencies only when every part with IOs has them. */
	if (y->ios)
		x->split = (first || x->split) && y->split;
	else if (first)
		x->split = y->split;
	x->ios += y->ios;
	x->bytes += y->bytes;
	x->errors += y->errors;
	hist_sum(&x->hist, y->hist);
	hist_sum(&x->chist, y->chist);
	if (y->has_sched) {
		lat_sum(&x->sched, x->has_sched ? x->sched_n : 0, &y->sched, y->sched_n);
		x->sched_n += y->sched_n;
		x->has_sched = true;
		hist_sum(&x->shist, y->shist);
	}
}

void job_sum(struct job *a, const struct job *b)
{
	for (int i = 0; i < NR_OPS; i++)
		op_sum(&a->op[i], &b->op[i]);
	for (int i = 0; i < BL_DEPTH_NR; i++)
		a->depth_ns[i] += b->depth_ns[i];
	if (b->elapsed > a->elapsed)
		a->elapsed = b->elapsed;
	if (b->start_ms && (!a->start_ms || b->start_ms < a->start_ms))
		a->start_ms = b->start_ms;
	a->cpu_time += b->cpu_time;
	a->usr_ns += b->usr_ns;
	a->ctx += b->ctx;
	a->inflight += b->inflight;
	if (b->stall_max > a->stall_max)
		a->stall_max = b->stall_max;
	a->nr_cpus += b->nr_cpus;
	a->mem_pinned += b->mem_pinned;
	if (b->error && !a->error)
		a->error = b->error;
	/* Samples add up across jobs that ran together, at one interval. */
	if (!a->nr_jobs) {
		a->wave = b->wave;
		a->ser.interval = b->ser.interval;
	}
	/*
	 * Samples add up across jobs that ran together, at one interval; a
	 * job that lost samples would leave partial sums: then none.
	 */
	if (a->ser.interval && a->ser.interval == b->ser.interval && a->wave == b->wave &&
	    !a->ser.lost && !b->ser.lost && !b->ser.failed)
		series_merge(&a->ser, &b->ser);
	else
		series_free(&a->ser);
	a->nr_jobs += b->nr_jobs ? b->nr_jobs : 1;
}

/*
 * Sets @key (a later value replaces an earlier one, as in a fio job file);
 * a NULL @val is an option given without '=' (a flag), kept apart from "".
 */
void optlist_set(struct optlist *l, const char *key, const char *val)
{
	for (unsigned int i = 0; i < l->nr; i++) {
		if (!strcmp(l->key[i], key)) {
			free(l->val[i]);
			l->val[i] = val ? xstrdup(val) : NULL;
			return;
		}
	}
	l->key = xrealloc(l->key, (l->nr + 1) * sizeof(*l->key));
	l->val = xrealloc(l->val, (l->nr + 1) * sizeof(*l->val));
	l->key[l->nr] = xstrdup(key);
	l->val[l->nr] = val ? xstrdup(val) : NULL;
	l->nr++;
}

void optlist_free(struct optlist *l)
{
	for (unsigned int i = 0; i < l->nr; i++) {
		free(l->key[i]);
		free(l->val[i]);
	}
	free(l->key);
	free(l->val);
	memset(l, 0, sizeof(*l));
}
