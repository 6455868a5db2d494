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

void series_reserve(struct series *se, size_t n)
{
	if (n <= se->cap)
		return;
	se->s = xrealloc(se->s, n * sizeof(*se->s));
	se->idx = xrealloc(se->idx, n * sizeof(*se->idx));
	se->cap = n;
}

void series_add(struct series *se, uint64_t i, const struct bl_sample *smp)
{
	size_t lo = 0, hi = se->nr;
	struct bl_sample *d;

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
	if (lo == se->nr || se->idx[lo] != i) {
		if (se->nr == se->cap)
			series_reserve(se, se->cap ? 2 * se->cap : 16);
		memmove(se->s + lo + 1, se->s + lo, (se->nr - lo) * sizeof(*se->s));
		memmove(se->idx + lo + 1, se->idx + lo, (se->nr - lo) * sizeof(*se->idx));
		memset(se->s + lo, 0, sizeof(*se->s));
		se->idx[lo] = i;
		se->nr++;
	}
	d = &se->s[lo];
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

void series_free(struct series *se)
{
	free(se->s);
	free(se->idx);
	memset(se, 0, sizeof(*se));
}

/* Where s[k]'s span begins: the sample before it, else its interval's start. */
static uint64_t span_start(const struct series *se, size_t k)
{
	if (k && se->idx[k - 1] + 1 == se->idx[k])
		return se->s[k - 1].t;
	return se->idx[k] * se->interval;
}

double series_dt(const struct series *se, size_t k)
{
	uint64_t prev = span_start(se, k);

	return se->s[k].t > prev ? (double)(se->s[k].t - prev) / 1e9 : 0;
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
		v = (double)(bytes ? se->s[i].op[op].bytes : se->s[i].op[op].ios) / dt;
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

static const char *const dir_names[BL_SAMPLE_OPS] = { "read", "write" };

void series_csv(FILE *f, const struct job *jobs, unsigned int n, const double *pct,
		unsigned int npct)
{
	fprintf(f, "job,time_s,interval_s,dir,ios,iops,bw_bytes,lat_mean_ns,clat_mean_ns,slat_mean_ns");
	for (unsigned int k = 0; k < npct; k++)
		fprintf(f, ",clat_p%g_ns", pct[k]);
	fprintf(f, "\n");
	for (unsigned int j = 0; j < n; j++) {
		const struct series *se = &jobs[j].ser;

		for (size_t i = 0; i < se->nr; i++) {
			const struct bl_sample *s = &se->s[i];
			double dt = series_dt(se, i);

			for (int op = 0; op < BL_SAMPLE_OPS; op++) {
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
}

/*
 * The samples s[@i]... of one log window of @win ns (whole intervals),
 * summed; returns the position after them. Lost samples add nothing; the
 * window's span runs from where its first sample's began to its last. A
 * run's last sample, when it covers less than half an interval, goes with
 * the window before it.
 */
static size_t window(const struct series *se, size_t i, uint64_t win, struct bl_sample *sum,
		     double *dt)
{
	uint64_t k = win > se->interval ? win / se->interval : 1, w = se->idx[i] / k;
	size_t e;

	memset(sum, 0, sizeof(*sum));
	for (e = i; e < se->nr && (se->idx[e] / k == w || (e + 1 == se->nr && !series_full(se, e)));
	     e++) {
		sum->t = se->s[e].t;
		for (int op = 0; op < BL_SAMPLE_OPS; op++) {
			sum->op[op].ios += se->s[e].op[op].ios;
			sum->op[op].bytes += se->s[e].op[op].bytes;
			sum->op[op].lat += se->s[e].op[op].lat;
			sum->op[op].clat += se->s[e].op[op].clat;
			sum->op[op].slat += se->s[e].op[op].slat;
			for (unsigned int b = 0; b < BL_SHIST_NR; b++) {
				uint64_t v = (uint64_t)sum->chist[op][b] + se->s[e].chist[op][b];

				sum->chist[op][b] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
			}
		}
	}
	*dt = sum->t > span_start(se, i) ? (double)(sum->t - span_start(se, i)) / 1e9 : 0;
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
 * fio's log lines: "msec, value, direction, block size, offset" for IOPS,
 * KiB/s and mean latencies (ns) of each window; "msec, direction, block
 * size, bucket counts..." for clat histograms. A direction is logged when
 * the job did any IO in it; a window without IO logs no latency.
 */
static void log_values(FILE *f, const struct series *se, uint64_t win, const bool *dirs,
		       int what)
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
			fprintf(f, "%" PRIu64 ", %" PRIu64 ", %d, 0, 0\n",
				(sum.t + 500000) / 1000000, v, op);
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
			dirs[op] |= se->s[i].op[op].ios != 0;
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
		log_values(f, se, lg->avg_ns, dirs, what);
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
			fprintf(f, "%s %s: IOPS=%.0f, BW=%s/s", op && sum.op[0].ios ? ";" : "",
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
