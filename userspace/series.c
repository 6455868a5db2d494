// SPDX-License-Identifier: GPL-2.0
/*
 * Time series of jobs: merging, statistics, CSV and fio's log files.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "out.h"
#include "series.h"
#include "util.h"

void series_reserve(struct series *se, size_t n, size_t buckets)
{
	if (n > se->cap) {
		se->e = xrealloc(se->e, n * sizeof(*se->e));
		se->idx = xrealloc(se->idx, n * sizeof(*se->idx));
		se->cap = n;
	}
	if (buckets > se->pool_cap) {
		se->pool = xrealloc(se->pool, buckets * sizeof(*se->pool));
		se->pool_cap = buckets;
	}
}

/* Keeps @chist's non-empty run for @op of entry @d, at the end of the pool. */
static void keep_hist(struct series *se, struct series_entry *d, int op, const uint32_t *chist)
{
	uint32_t first = 0, end = BL_SHIST_NR;

	while (first < end && !chist[first])
		first++;
	while (end > first && !chist[end - 1])
		end--;
	if (se->pool_nr + (end - first) > se->pool_cap)
		series_reserve(se, se->cap, 2 * (se->pool_nr + (end - first)) + 256);
	d->first[op] = first;
	d->len[op] = end - first;
	d->off[op] = se->pool_nr;
	memcpy(se->pool + se->pool_nr, chist + first, (end - first) * sizeof(*chist));
	se->pool_nr += end - first;
}

void series_get(const struct series *se, size_t k, struct bl_sample *out)
{
	const struct series_entry *d = &se->e[k];

	memset(out, 0, sizeof(*out));
	out->t = d->t;
	for (int op = 0; op < BL_SAMPLE_OPS; op++) {
		out->op[op] = d->op[op];
		memcpy(out->chist[op] + d->first[op], se->pool + d->off[op],
		       d->len[op] * sizeof(*se->pool));
	}
}

static void sum_into(struct bl_sample *d, const struct bl_sample *smp)
{
	if (smp->t > d->t)
		d->t = smp->t;
	for (int op = 0; op < BL_SAMPLE_OPS; op++) {
		d->op[op].ios += smp->op[op].ios;
		d->op[op].bytes += smp->op[op].bytes;
		d->op[op].lat += smp->op[op].lat;
		d->op[op].clat += smp->op[op].clat;
		d->op[op].slat += smp->op[op].slat;
		for (unsigned int b = 0; b < BL_SHIST_NR; b++) {
			uint64_t v = (uint64_t)d->chist[op][b] + smp->chist[op][b];

			d->chist[op][b] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		}
	}
}

void series_add(struct series *se, uint64_t i, const struct bl_sample *smp)
{
	size_t lo = 0, hi = se->nr;
	struct bl_sample *sum = NULL;
	const struct bl_sample *keep = smp;

	/* Samples mostly come in order: the end first, else a binary search. */
	if (se->nr && se->idx[se->nr - 1] < i)
		lo = se->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (se->idx[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	/*
	 * A sample no later than the one before it (a queue's last, taken
	 * before another queue's boundary sample) holds IOs done before
	 * that one: they go into it, and times only grow.
	 */
	if ((lo == se->nr || se->idx[lo] != i) && lo && se->idx[lo - 1] + 1 == i &&
	    se->e[lo - 1].t >= smp->t) {
		series_add(se, i - 1, smp);
		return;
	}
	if (lo < se->nr && se->idx[lo] == i) {
		/* Into an existing sample: the sum is kept anew (the old buckets stay unused). */
		sum = xcalloc(1, sizeof(*sum));
		series_get(se, lo, sum);
		sum_into(sum, smp);
		keep = sum;
	} else {
		if (se->nr == se->cap)
			series_reserve(se, se->cap ? 2 * se->cap : 16, se->pool_cap);
		memmove(se->e + lo + 1, se->e + lo, (se->nr - lo) * sizeof(*se->e));
		memmove(se->idx + lo + 1, se->idx + lo, (se->nr - lo) * sizeof(*se->idx));
		se->idx[lo] = i;
		se->nr++;
	}
	memset(&se->e[lo], 0, sizeof(se->e[lo]));
	se->e[lo].t = keep->t;
	for (int op = 0; op < BL_SAMPLE_OPS; op++) {
		se->e[lo].op[op] = keep->op[op];
		keep_hist(se, &se->e[lo], op, keep->chist[op]);
	}
	free(sum);
}

void series_merge(struct series *a, const struct series *b)
{
	struct bl_sample *smp = xcalloc(1, sizeof(*smp));

	for (size_t k = 0; k < b->nr; k++) {
		series_get(b, k, smp);
		series_add(a, b->idx[k], smp);
	}
	free(smp);
}

void series_free(struct series *se)
{
	free(se->e);
	free(se->idx);
	free(se->pool);
	memset(se, 0, sizeof(*se));
}

/* Where e[k]'s span begins: the sample before it, else its interval's start. */
static uint64_t span_start(const struct series *se, size_t k)
{
	if (k && se->idx[k - 1] + 1 == se->idx[k])
		return se->e[k - 1].t;
	return se->idx[k] * se->interval;
}

double series_dt(const struct series *se, size_t k)
{
	uint64_t prev = span_start(se, k);

	return se->e[k].t > prev ? (double)(se->e[k].t - prev) / 1e9 : 0;
}

bool series_full(const struct series *se, size_t k)
{
	return se->interval && series_dt(se, k) * 1e9 >= (double)se->interval / 2;
}

void series_rate_stat(const struct series *se, int op, bool bytes, struct series_stat *st)
{
	double sum = 0, sq = 0;

	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < se->nr; i++) {
		double dt = series_dt(se, i), v;

		if (!series_full(se, i))
			continue;
		v = (double)(bytes ? se->e[i].op[op].bytes : se->e[i].op[op].ios) / dt;
		if (!st->n++ || v < st->min)
			st->min = v;
		if (v > st->max)
			st->max = v;
		sum += v;
		sq += v * v;
	}
	if (!st->n)
		return;
	st->mean = sum / (double)st->n;
	/* The sample standard deviation, as fio's. */
	if (st->n > 1) {
		double var = (sq - sum * sum / (double)st->n) / (double)(st->n - 1);

		st->dev = var > 0 ? sqrt(var) : 0;
	}
}

uint64_t series_percentile(const uint32_t *chist, double p)
{
	uint64_t sum = 0, total = 0;
	double want;

	for (unsigned int i = 0; i < BL_SHIST_NR; i++)
		total += chist[i];
	/* No latency was counted (gtod_reduce): no percentile. */
	if (!total)
		return 0;
	want = p / 100.0 * (double)total;
	if (want < 1.0)
		want = 1.0;
	for (unsigned int i = 0; i < BL_SHIST_NR; i++) {
		sum += chist[i];
		if ((double)sum >= want)
			return bl_shist_mid(i);
	}
	return bl_shist_mid(BL_SHIST_NR - 1);
}

static bool hist_empty(const uint32_t *chist)
{
	for (unsigned int i = 0; i < BL_SHIST_NR; i++)
		if (chist[i])
			return false;
	return true;
}

static const char *const dir_names[BL_SAMPLE_OPS] = { "read", "write", "trim" };

/* Whether any sample of @se has trims (their rows and columns only then). */
bool series_has_trims(const struct series *se)
{
	for (size_t i = 0; i < se->nr; i++)
		if (se->e[i].op[OP_TRIM].ios)
			return true;
	return false;
}

void series_csv(FILE *f, const struct job *jobs, unsigned int n, const double *pct,
		unsigned int npct)
{
	struct bl_sample *s = xcalloc(1, sizeof(*s));

	fprintf(f, "job,time_s,interval_s,dir,ios,iops,bw_bytes,lat_mean_ns,clat_mean_ns,slat_mean_ns");
	for (unsigned int k = 0; k < npct; k++)
		fprintf(f, ",clat_p%g_ns", pct[k]);
	fprintf(f, "\n");
	for (unsigned int j = 0; j < n; j++) {
		const struct series *se = &jobs[j].ser;
		int nops = job_has_op(&jobs[j], OP_TRIM) || series_has_trims(se) ? 3 : 2;

		for (size_t i = 0; i < se->nr; i++) {
			double dt = series_dt(se, i);

			series_get(se, i, s);

			for (int op = 0; op < nops; op++) {
				const struct bl_sample_op *o = &s->op[op];
				bool lat = !hist_empty(s->chist[op]);
				double ios = (double)o->ios;

				/* Latency columns stay empty where none was counted. */
				fprintf(f, "%u,%.6f,%.6f,%s,%" PRIu64 ",%.3f,%.0f", jobs[j].id,
					(double)s->t / 1e9, dt, dir_names[op], o->ios,
					dt > 0 ? ios / dt : 0, dt > 0 ? (double)o->bytes / dt : 0);
				if (lat)
					fprintf(f, ",%.1f,%.1f,%.1f", (double)o->lat / ios,
						(double)o->clat / ios, (double)o->slat / ios);
				else
					fprintf(f, ",,,");
				for (unsigned int k = 0; k < npct; k++)
					if (lat)
						fprintf(f, ",%" PRIu64,
							series_percentile(s->chist[op], pct[k]));
					else
						fprintf(f, ",");
				fprintf(f, "\n");
			}
		}
	}
	free(s);
}

/*
 * The samples e[@i]... of one log window of @win ns (whole intervals),
 * summed, and the time they cover; returns the position after them. A
 * run's last sample, when it covers less than half an interval, goes with
 * the window before it.
 */
static size_t window(const struct series *se, size_t i, uint64_t win, struct bl_sample *sum,
		     double *dt)
{
	uint64_t k = win > se->interval ? win / se->interval : 1, w = se->idx[i] / k;
	struct bl_sample *one = xcalloc(1, sizeof(*one));
	size_t e;

	memset(sum, 0, sizeof(*sum));
	*dt = 0;
	for (e = i; e < se->nr; e++) {
		/* Its window; or a run's short last sample, right after the one before. */
		if (se->idx[e] / k != w &&
		    !(e + 1 == se->nr && e > i && se->idx[e] == se->idx[e - 1] + 1 &&
		      !series_full(se, e)))
			break;
		/* Lost samples add neither IOs nor time. */
		*dt += series_dt(se, e);
		series_get(se, e, one);
		sum_into(sum, one);
	}
	free(one);
	return e;
}

static FILE *log_open(const char *prefix, const char *kind, unsigned int jobno)
{
	char *path = xasprintf("%s_%s.%u.log", prefix, kind, jobno);
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "blkload: %s: %s\n", path, strerror(errno));
	free(path);
	return f;
}

/*
 * fio's log lines: "msec, value, direction, block size[, offset], priority"
 * for IOPS, KiB/s and mean latencies (ns) of each window, as fio writes its
 * averaged entries (block size, offset and priority 0; the priority as
 * 0x0000 with log_prio; the offset with log_offset); "msec, direction, block
 * size, bucket counts..." for clat histograms. A direction is logged when
 * the job did any IO in it; a window without IO logs no latency.
 */
static void log_values(FILE *f, const struct series_logs *lg, const struct series *se,
		       uint64_t win, const bool *dirs, int what)
{
	struct bl_sample sum;
	double dt;

	for (size_t i = 0, e; i < se->nr; i = e) {
		e = window(se, i, win, &sum, &dt);
		for (int op = 0; op < BL_SAMPLE_OPS; op++) {
			const struct bl_sample_op *o = &sum.op[op];
			uint64_t v;

			if (!dirs[op])
				continue;
			switch (what) {
			case 0:		/* iops */
				v = dt > 0 ? (uint64_t)llround((double)o->ios / dt) : 0;
				break;
			case 1:		/* bw, KiB/s */
				v = dt > 0 ? (uint64_t)llround((double)o->bytes / dt / 1024) : 0;
				break;
			default:	/* 2 lat, 3 clat, 4 slat: mean ns */
				if (!o->ios || hist_empty(sum.chist[op]))
					continue;
				v = (what == 2 ? o->lat : what == 3 ? o->clat : o->slat) / o->ios;
			}
			/* fio's averaged entries: bs, offset and priority 0. */
			fprintf(f, "%" PRIu64 ", %" PRIu64 ", %d, 0%s%s\n",
				(sum.t + 500000) / 1000000, v, op, lg->offset ? ", 0" : "",
				lg->prio ? ", 0x0000" : ", 0");
		}
	}
}

static void log_hist(FILE *f, const struct series *se, uint64_t win, const bool *dirs,
		     uint32_t bs, unsigned int coarseness)
{
	unsigned int merge = 1U << (coarseness - BL_SHIST_SHIFT);
	struct bl_sample sum;
	double dt;

	for (size_t i = 0, e; i < se->nr; i = e) {
		e = window(se, i, win, &sum, &dt);
		for (int op = 0; op < BL_SAMPLE_OPS; op++) {
			if (!dirs[op])
				continue;
			fprintf(f, "%" PRIu64 ", %d, %u", (sum.t + 500000) / 1000000, op, bs);
			for (unsigned int b = 0; b < BL_SHIST_NR; b += merge) {
				uint64_t c = 0;

				for (unsigned int m = 0; m < merge && b + m < BL_SHIST_NR; m++)
					c += sum.chist[op][b + m];
				fprintf(f, ", %" PRIu64, c);
			}
			fprintf(f, "\n");
		}
	}
}

int series_write_logs(const struct series_logs *lg, const struct series *se, uint32_t bs,
		      unsigned int jobno)
{
	static const char *const kinds[] = { "iops", "bw", "lat", "clat", "slat" };
	bool dirs[BL_SAMPLE_OPS] = { false, false };
	int rc = 0;

	for (size_t i = 0; i < se->nr; i++)
		for (int op = 0; op < BL_SAMPLE_OPS; op++)
			dirs[op] |= se->e[i].op[op].ios != 0;
	for (int what = 0; what < 5; what++) {
		const char *prefix = what == 0 ? lg->iops : what == 1 ? lg->bw : lg->lat;
		FILE *f;

		if (!prefix)
			continue;
		f = log_open(prefix, kinds[what], jobno);
		if (!f) {
			rc = -1;
			continue;
		}
		log_values(f, lg, se, lg->avg_ns, dirs, what);
		if (fclose(f))
			rc = -1;
	}
	if (lg->hist) {
		FILE *f = log_open(lg->hist, "clat_hist", jobno);

		if (!f)
			return -1;
		log_hist(f, se, lg->hist_ns, dirs, bs, lg->coarseness);
		if (fclose(f))
			rc = -1;
	}
	return rc;
}

size_t series_status(FILE *f, const struct series *se, size_t from, uint64_t win, uint32_t id,
		     bool tty)
{
	uint64_t k = se->interval && win > se->interval ? win / se->interval : 1;
	struct bl_sample sum;
	double dt;

	/* A window is shown once its last interval's sample (or a later one) is in. */
	while (from < se->nr && se->idx[se->nr - 1] >= (se->idx[from] / k + 1) * k - 1) {
		size_t e = window(se, from, win, &sum, &dt);

		if (tty)
			fputs("\r\033[K", stderr);
		fprintf(f, "job %u [%7.1fs]", id, (double)sum.t / 1e9);
		for (int op = 0; op < BL_SAMPLE_OPS; op++) {
			const struct bl_sample_op *o = &sum.op[op];
			char *bw;

			/* A direction with IO; reads in a window without any (a stall shows as 0). */
			if (!o->ios && (op || sum.op[1].ios))
				continue;
			bw = fmt_bytes(dt > 0 ? (uint64_t)((double)o->bytes / dt) : 0);
			fprintf(f, "%s %s: IOPS=%.0f, BW=%s/s",
				op && (sum.op[0].ios || (op > 1 && sum.op[1].ios)) ? ";" : "",
				dir_names[op], dt > 0 ? (double)o->ios / dt : 0, bw);
			free(bw);
			if (o->ios && !hist_empty(sum.chist[op]))
				fprintf(f, ", clat avg=%.1fus p50=%.1fus p99=%.1fus p99.9=%.1fus",
					(double)o->clat / (double)o->ios / 1e3,
					(double)series_percentile(sum.chist[op], 50) / 1e3,
					(double)series_percentile(sum.chist[op], 99) / 1e3,
					(double)series_percentile(sum.chist[op], 99.9) / 1e3);
		}
		fprintf(f, "\n");
		fflush(f);
		from = e;
	}
	return from;
}
