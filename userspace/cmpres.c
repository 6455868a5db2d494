// SPDX-License-Identifier: GPL-2.0
/*
 * The compare result: collection of runs, statistics, order of execution,
 * and its renderings (JSON with json-c, markdown, CSV, gnuplot charts).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include <blkload/hist.h>

#include "cmpres.h"
#include "jsonget.h"
#include "out.h"
#include "util.h"

extern char **environ;

const char *const cmp_cpu_names[CMP_CPU_NR] = { "user", "nice", "system", "irq", "softirq" };

void cmp_alloc(struct cmp_result *r)
{
	r->e = xcalloc((size_t)r->ncells * r->npaths, sizeof(*r->e));
	for (size_t i = 0; i < (size_t)r->ncells * r->npaths; i++) {
		r->e[i].hist = xcalloc(BL_HIST_NR, sizeof(uint64_t));
		r->e[i].target_iops = xcalloc(r->ntargets, sizeof(double));
	}
	r->avg_ratio = xcalloc(r->npaths, sizeof(double));
	r->avg_cells = xcalloc(r->npaths, sizeof(unsigned int));
}

void cmp_free(struct cmp_result *r)
{
	if (r->e) {
		for (size_t i = 0; i < (size_t)r->ncells * r->npaths; i++) {
			free(r->e[i].iops);
			free(r->e[i].cpu_us);
			free(r->e[i].target_iops);
			free(r->e[i].hist);
		}
	}
	for (unsigned int i = 0; i < r->ncells; i++)
		free(r->cells[i].rw);
	for (unsigned int i = 0; i < r->ntargets; i++)
		free(r->targets[i]);
	for (unsigned int i = 0; i < r->npaths; i++)
		free(r->paths[i]);
	free(r->e);
	free(r->cells);
	free(r->targets);
	free(r->paths);
	free(r->runs);
	free(r->avg_ratio);
	free(r->avg_cells);
	free(r->version);
	free(r->started);
	free(r->host);
	free(r->kernel);
	free(r->cpus);
	memset(r, 0, sizeof(*r));
}

int cmp_path_index(const struct cmp_result *r, const char *name)
{
	for (unsigned int i = 0; i < r->npaths; i++)
		if (!strcmp(r->paths[i], name))
			return (int)i;
	return -1;
}

char *cmp_bs_name(uint64_t bs)
{
	static const char sfx[] = "kmgt";
	int i = -1;

	while (bs && !(bs % 1024) && i < 3) {
		bs /= 1024;
		i++;
	}
	return i < 0 ? xasprintf("%" PRIu64, bs) : xasprintf("%" PRIu64 "%c", bs, sfx[i]);
}

/* Adds the bins of one direction ({"midpoint ns": count}) to @hist. */
static void add_bins(uint64_t *hist, uint64_t *total, struct json_object *op)
{
	/* Total latency (from before the submit call); fio's own output has clat bins. */
	struct json_object *lat = get(op, "lat_ns");
	struct json_object *bins = get(lat, "bins");

	if (!bins || !json_object_is_type(bins, json_type_object))
		bins = get(get(op, "clat_ns"), "bins");
	if (!bins || !json_object_is_type(bins, json_type_object))
		return;
	json_object_object_foreach(bins, key, val) {
		uint64_t mid = strtoull(key, NULL, 10);
		uint64_t n = (uint64_t)json_object_get_int64(val);

		hist[bl_hist_idx(mid)] += n;
		*total += n;
	}
}

static double op_iops(struct json_object *job)
{
	return get_d(get(job, "read"), "iops") + get_d(get(job, "write"), "iops");
}

int cmp_add_run(struct cmp_result *r, unsigned int cell, unsigned int path,
		struct json_object *run, double *iops)
{
	struct cmp_entry *e = cmp_at(r, cell, path);
	struct json_object *all = get(run, "all_jobs"), *jobs = get(run, "jobs");
	struct json_object *cpu = get(run, "client_cpu");

	if (!all || !jobs || !json_object_is_type(jobs, json_type_array) ||
	    json_object_array_length(jobs) != r->ntargets) {
		fprintf(stderr, "blkload: compare: a run's report has no all_jobs or not a job per target\n");
		return -1;
	}
	if (!cpu) {
		fprintf(stderr, "blkload: compare: a run's report has no client_cpu\n");
		return -1;
	}
	/* A run cut short (stopped, a device gone, an error) is not a sample. */
	for (size_t i = 0; i < r->ntargets; i++) {
		struct json_object *reason = get(json_object_array_get_idx(jobs, i), "done_reason");
		const char *why = reason ? json_object_get_string(reason) : "none";

		if (strcmp(why, "runtime")) {
			fprintf(stderr, "blkload: compare: job %zu of the run ended by '%s', not its runtime\n",
				i, why);
			return -1;
		}
	}
	*iops = op_iops(all);
	e->iops = xrealloc(e->iops, (e->n + 1) * sizeof(double));
	e->cpu_us = xrealloc(e->cpu_us, (e->n + 1) * sizeof(double));
	e->iops[e->n] = *iops;
	e->cpu_us[e->n] = get_d(cpu, "cpu_us_per_io");
	e->n++;
	e->ncpu = e->n;
	for (int i = 0; i < CMP_CPU_NR; i++)
		e->cpu_split[i] += get_d(cpu, cmp_cpu_names[i]);
	e->ios += get_d(get(all, "read"), "total_ios") + get_d(get(all, "write"), "total_ios");
	for (size_t i = 0; i < json_object_array_length(jobs) && i < r->ntargets; i++)
		e->target_iops[i] += op_iops(json_object_array_get_idx(jobs, i));
	add_bins(e->hist, &e->hist_n, get(all, "read"));
	add_bins(e->hist, &e->hist_n, get(all, "write"));
	return 0;
}

void cmp_derive(struct cmp_result *r)
{
	for (unsigned int p = 0; p < r->npaths; p++) {
		unsigned int nr = 0;
		double sum = 0;	/* of log ratios: the geometric mean is symmetric */

		for (unsigned int c = 0; c < r->ncells; c++) {
			struct cmp_entry *e = cmp_at(r, c, p), *b;

			sample_stats(e->iops, e->n, CMP_LEVEL, &e->s);
			sample_stats(e->cpu_us, e->ncpu, CMP_LEVEL, &e->cpu);
			e->p50 = bl_hist_percentile(e->hist, BL_HIST_NR, e->hist_n, 50.0);
			e->p99 = bl_hist_percentile(e->hist, BL_HIST_NR, e->hist_n, 99.0);
			e->p999 = bl_hist_percentile(e->hist, BL_HIST_NR, e->hist_n, 99.9);
			e->has_ratio = false;
			e->significant = false;
			memset(&e->w, 0, sizeof(e->w));
			if (r->baseline < 0)
				continue;
			b = cmp_at(r, c, (unsigned int)r->baseline);
			sample_stats(b->iops, b->n, CMP_LEVEL, &b->s);
			if (!e->n || !b->n || b->s.mean <= 0)
				continue;
			e->has_ratio = true;
			e->ratio = e->s.mean / b->s.mean;
			welch_test(&b->s, &e->s, CMP_LEVEL, &e->w);
			e->significant = (int)p != r->baseline && e->w.valid && e->w.p < CMP_ALPHA;
			sum += log(e->ratio);
			nr++;
		}
		r->avg_ratio[p] = nr ? exp(sum / nr) : 0;
		r->avg_cells[p] = nr;
	}
}

const char *const cmp_verdict_names[] = {
	[CMP_NO_CHANGE] = "no change", [CMP_REGRESSION] = "regression",
	[CMP_IMPROVEMENT] = "improvement", [CMP_UNKNOWN] = "unknown",
};

void cmp_change(const struct cmp_entry *a, const struct cmp_entry *b, double threshold,
		struct cmp_change *out)
{
	struct welch w;

	*out = (struct cmp_change){ .verdict = CMP_UNKNOWN };
	if (!a->n || !b->n || a->s.mean <= 0)
		return;
	out->pct = (b->s.mean / a->s.mean - 1.0) * 100.0;
	welch_test(&a->s, &b->s, CMP_LEVEL, &w);
	if (!w.valid)
		return;
	out->valid = true;
	out->p = w.p;
	out->ci_pct = w.ci_half / a->s.mean * 100.0;
	cmp_change_judge(out, w.p, threshold);
}

void cmp_change_judge(struct cmp_change *ch, double p, double threshold)
{
	if (!ch->valid)
		return;
	ch->p_adj = p;
	ch->significant = p < CMP_ALPHA;
	if (ch->significant && ch->pct <= -threshold)
		ch->verdict = CMP_REGRESSION;
	else if (ch->significant && ch->pct >= threshold)
		ch->verdict = CMP_IMPROVEMENT;
	else
		ch->verdict = CMP_NO_CHANGE;
}

/* Holm's step-down adjustment of the @n p-values in @p, in place. */
void holm_adjust(double *p, size_t n)
{
	size_t *ord = xcalloc(n, sizeof(*ord));
	double run = 0;

	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	/* Insertion sort by p: n is the number of cells x paths, small. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && p[ord[j]] < p[ord[j - 1]]; j--) {
			size_t t = ord[j];

			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
	for (size_t k = 0; k < n; k++) {
		double a = (double)(n - k) * p[ord[k]];

		if (a > 1)
			a = 1;
		if (a < run)
			a = run;
		run = a;
		p[ord[k]] = a;
	}
	free(ord);
}

/* splitmix64: the order's random numbers, reproducible from the recorded seed. */
static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Adjacent pairs in @u[0..n) (cell indices, with @prev before them) sharing a cell. */
static unsigned int same_cells(const unsigned int *u, unsigned int n, unsigned int npaths,
			       int prev)
{
	unsigned int bad = 0;

	for (unsigned int i = 0; i < n; i++) {
		int before = i ? (int)u[i - 1] : prev;

		if (before >= 0 && (unsigned int)before / npaths == u[i] / npaths)
			bad++;
	}
	return bad;
}

void cmp_plan(struct cmp_result *r, uint64_t seed)
{
	unsigned int units = r->ncells * r->npaths, tries;
	unsigned int *u = xcalloc(units, sizeof(*u)), *best = xcalloc(units, sizeof(*u));
	int prev = -1;

	r->order_seed = seed;
	r->nruns = units * r->repeat;
	free(r->runs);
	r->runs = xcalloc(r->nruns, sizeof(*r->runs));
	r->same_cell_adjacent = 0;
	for (unsigned int round = 0; round < r->repeat; round++) {
		unsigned int best_bad = UINT32_MAX;

		/*
		 * Shuffles until no cell follows itself (a unit is
		 * cell * npaths + path); with one cell that is impossible,
		 * and the best order found only avoids repeating a unit.
		 */
		for (tries = 0; tries < 20000 && best_bad; tries++) {
			unsigned int bad;

			for (unsigned int i = 0; i < units; i++)
				u[i] = i;
			for (unsigned int i = units - 1; i > 0; i--) {
				unsigned int j = (unsigned int)(mix(&seed) % (i + 1)), t = u[i];

				u[i] = u[j];
				u[j] = t;
			}
			if (units > 1 && prev >= 0 && u[0] == (unsigned int)prev)
				continue;
			bad = same_cells(u, units, r->npaths, prev);
			if (bad < best_bad) {
				best_bad = bad;
				memcpy(best, u, units * sizeof(*u));
			}
		}
		if (best_bad == UINT32_MAX) {	/* one unit only */
			for (unsigned int i = 0; i < units; i++)
				best[i] = i;
			best_bad = same_cells(best, units, r->npaths, prev);
		}
		r->same_cell_adjacent += best_bad;
		for (unsigned int i = 0; i < units; i++) {
			struct cmp_run *run = &r->runs[round * units + i];

			run->round = round;
			run->cell = best[i] / r->npaths;
			run->path = best[i] % r->npaths;
			run->status = -1;	/* not run */
		}
		prev = (int)best[units - 1];
	}
	free(u);
	free(best);
}

/* ---- JSON ---- */

static struct json_object *jstr(const char *s)
{
	struct json_object *v;
	char *clean;

	if (!s)
		return NULL;
	clean = utf8_clean(s);	/* a target is any bytes; the file stays JSON */
	v = json_object_new_string(clean);
	free(clean);
	return v;
}

static struct json_object *jd(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *jdarray(const double *v, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, jd(v[i]));
	return a;
}

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static struct json_object *entry_json(const struct cmp_result *r, const struct cmp_entry *e,
				      unsigned int path)
{
	struct json_object *o = json_object_new_object(), *x, *bins;

	add(o, "n", json_object_new_int64((int64_t)e->n));
	add(o, "iops", jdarray(e->iops, e->n));
	add(o, "iops_mean", jd(e->s.mean));
	add(o, "iops_stdev", e->s.has_ci ? jd(e->s.sd) : NULL);
	add(o, "iops_ci95_low", e->s.has_ci ? jd(e->s.mean - e->s.ci_half) : NULL);
	add(o, "iops_ci95_high", e->s.has_ci ? jd(e->s.mean + e->s.ci_half) : NULL);
	x = json_object_new_object();
	add(x, "50.000000", json_object_new_uint64(e->p50));
	add(x, "99.000000", json_object_new_uint64(e->p99));
	add(x, "99.900000", json_object_new_uint64(e->p999));
	add(o, "lat_percentile_ns", x);
	add(o, "lat_N", json_object_new_uint64(e->hist_n));
	bins = json_object_new_object();
	for (unsigned int i = 0; i < BL_HIST_NR; i++) {
		char key[24];

		if (!e->hist[i])
			continue;
		snprintf(key, sizeof(key), "%" PRIu64, (uint64_t)bl_hist_mid(i));
		add(bins, key, json_object_new_uint64(e->hist[i]));
	}
	add(o, "lat_bins", bins);
	add(o, "cpu_us_per_io", jdarray(e->cpu_us, e->ncpu));
	add(o, "cpu_us_per_io_mean", jd(e->cpu.mean));
	add(o, "cpu_us_per_io_ci95", e->cpu.has_ci ? jd(e->cpu.ci_half) : NULL);
	x = json_object_new_object();
	for (int i = 0; i < CMP_CPU_NR; i++)
		add(x, cmp_cpu_names[i], jd(e->cpu_split[i]));
	add(o, "machine_cpu_s", x);
	add(o, "ios", jd(e->ios));
	x = json_object_new_array();
	for (unsigned int t = 0; t < r->ntargets; t++) {
		struct json_object *ti = json_object_new_object();

		add(ti, "target", jstr(r->targets[t]));
		add(ti, "iops_mean", jd(e->n ? e->target_iops[t] / (double)e->n : 0));
		json_object_array_add(x, ti);
	}
	add(o, "per_target", x);
	if (e->has_ratio && (int)path != r->baseline) {
		add(o, "ratio", jd(e->ratio));
		add(o, "welch_t", e->w.valid ? jd(e->w.t) : NULL);
		add(o, "welch_df", e->w.valid ? jd(e->w.df) : NULL);
		add(o, "welch_p", e->w.valid ? jd(e->w.p) : NULL);
		add(o, "significant", json_object_new_boolean(e->significant));
	}
	return o;
}

int cmp_write_json(const struct cmp_result *r, const char *file)
{
	struct json_object *root = json_object_new_object(), *x, *cells, *order;
	int rc;

	add(root, "kind", jstr("blkload-compare"));
	add(root, "format", json_object_new_int(CMP_FORMAT));
	add(root, "blkload version", jstr(r->version));
	add(root, "started", jstr(r->started));
	add(root, "host", jstr(r->host));
	add(root, "kernel", jstr(r->kernel));
	x = json_object_new_object();
	add(x, "runtime_s", jd(r->runtime_s));
	add(x, "ramp_time_s", jd(r->ramp_s));
	add(x, "repeat", json_object_new_int64(r->repeat));
	add(x, "randseed", json_object_new_uint64(r->randseed));
	add(x, "order_seed", json_object_new_uint64(r->order_seed));
	if (r->start_at_ms) {
		add(x, "start_at_ms", json_object_new_uint64(r->start_at_ms));
		add(x, "slot_ms", json_object_new_uint64(r->slot_ms));
	}
	add(x, "cpus", jstr(r->cpus));
	add(x, "confidence", jd(CMP_LEVEL));
	add(x, "alpha", jd(CMP_ALPHA));
	add(root, "settings", x);
	x = json_object_new_array();
	for (unsigned int i = 0; i < r->ntargets; i++)
		json_object_array_add(x, jstr(r->targets[i]));
	add(root, "targets", x);
	x = json_object_new_array();
	for (unsigned int i = 0; i < r->npaths; i++)
		json_object_array_add(x, jstr(r->paths[i]));
	add(root, "paths", x);
	add(root, "baseline", r->baseline >= 0 ? jstr(r->paths[r->baseline]) : NULL);
	add(root, "incomplete", json_object_new_boolean(r->incomplete));
	cells = json_object_new_array();
	for (unsigned int c = 0; c < r->ncells; c++) {
		struct json_object *co = json_object_new_object(), *po = json_object_new_object();

		add(co, "rw", jstr(r->cells[c].rw));
		add(co, "bs", json_object_new_uint64(r->cells[c].bs));
		add(co, "iodepth", json_object_new_int64(r->cells[c].iodepth));
		for (unsigned int p = 0; p < r->npaths; p++)
			add(po, r->paths[p], entry_json(r, cmp_at(r, c, p), p));
		add(co, "paths", po);
		json_object_array_add(cells, co);
	}
	add(root, "cells", cells);
	x = json_object_new_object();
	for (unsigned int p = 0; p < r->npaths; p++) {
		struct json_object *a;

		if (r->baseline < 0 || (int)p == r->baseline || r->avg_ratio[p] <= 0)
			continue;
		a = json_object_new_object();
		add(a, "geomean_ratio", jd(r->avg_ratio[p]));
		add(a, "cells", json_object_new_int64(r->avg_cells[p]));
		add(x, r->paths[p], a);
	}
	add(root, "average_of_averages_ratio", x);
	order = json_object_new_array();
	for (unsigned int i = 0; i < r->nruns; i++) {
		const struct cmp_run *run = &r->runs[i];
		struct json_object *ro;

		if (run->status < 0)
			continue;
		ro = json_object_new_object();
		add(ro, "seq", json_object_new_int64(i + 1));
		add(ro, "round", json_object_new_int64(run->round + 1));
		add(ro, "rw", jstr(r->cells[run->cell].rw));
		add(ro, "bs", json_object_new_uint64(r->cells[run->cell].bs));
		add(ro, "iodepth", json_object_new_int64(r->cells[run->cell].iodepth));
		add(ro, "path", jstr(r->paths[run->path]));
		add(ro, "iops", jd(run->iops));
		add(ro, "status", json_object_new_int(run->status));
		json_object_array_add(order, ro);
	}
	add(root, "order", order);
	add(root, "same_cell_adjacent", json_object_new_int64(r->same_cell_adjacent));
	/* "-": standard output. */
	if (!strcmp(file, "-"))
		rc = json_object_to_fd(STDOUT_FILENO, root, JSON_C_TO_STRING_PRETTY |
				       JSON_C_TO_STRING_NOSLASHESCAPE);
	else
		rc = json_object_to_file_ext(file, root, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_NOSLASHESCAPE);
	if (rc)
		fprintf(stderr, "blkload: writing %s: %s\n", file, json_util_get_last_err());
	json_object_put(root);
	return rc ? -1 : 0;
}

static char *dup_str(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_string) ?
	       xstrdup(json_object_get_string(v)) : NULL;
}

static char **str_array(struct json_object *a, unsigned int *n)
{
	char **v;

	*n = a && json_object_is_type(a, json_type_array) ?
	     (unsigned int)json_object_array_length(a) : 0;
	v = xcalloc(*n, sizeof(*v));
	for (unsigned int i = 0; i < *n; i++)
		v[i] = xstrdup(json_object_get_string(json_object_array_get_idx(a, i)) ?: "?");
	return v;
}

static size_t d_array(struct json_object *a, double **out)
{
	size_t n = a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;

	*out = xcalloc(n, sizeof(double));
	for (size_t i = 0; i < n; i++)
		(*out)[i] = json_object_get_double(json_object_array_get_idx(a, i));
	return n;
}

static void entry_read(const struct cmp_result *r, struct cmp_entry *e, struct json_object *o)
{
	struct json_object *bins = get(o, "lat_bins"), *pt = get(o, "per_target");
	size_t ncpu;

	free(e->iops);
	free(e->cpu_us);
	e->n = d_array(get(o, "iops"), &e->iops);
	ncpu = d_array(get(o, "cpu_us_per_io"), &e->cpu_us);
	if (ncpu != e->n) {
		/* Not as compare writes it: no CPU figure rather than a made-up one. */
		free(e->cpu_us);
		e->cpu_us = xcalloc(1, sizeof(double));
		ncpu = 0;
	}
	e->ncpu = ncpu;
	for (int i = 0; i < CMP_CPU_NR; i++)
		e->cpu_split[i] = get_d(get(o, "machine_cpu_s"), cmp_cpu_names[i]);
	e->ios = get_d(o, "ios");
	if (bins && json_object_is_type(bins, json_type_object)) {
		json_object_object_foreach(bins, key, val) {
			uint64_t n = (uint64_t)json_object_get_int64(val);

			e->hist[bl_hist_idx(strtoull(key, NULL, 10))] += n;
			e->hist_n += n;
		}
	}
	if (!pt || !json_object_is_type(pt, json_type_array))
		return;
	for (unsigned int t = 0; t < r->ntargets && t < json_object_array_length(pt); t++)
		e->target_iops[t] = get_d(json_object_array_get_idx(pt, t), "iops_mean") *
				    (double)e->n;
}

int cmp_read_json(struct cmp_result *r, const char *file)
{
	struct json_object *root = json_object_from_file(file), *cells, *kind;
	unsigned int n;

	memset(r, 0, sizeof(*r));
	if (!root) {
		fprintf(stderr, "blkload: %s: %s\n", file, json_util_get_last_err() ?: "unreadable");
		return -1;
	}
	kind = get(root, "kind");
	cells = get(root, "cells");
	if (!kind || strcmp(json_object_get_string(kind), "blkload-compare") || !cells ||
	    !json_object_is_type(cells, json_type_array)) {
		fprintf(stderr, "blkload: %s: not a blkload compare result\n", file);
		json_object_put(root);
		return -1;
	}
	r->version = dup_str(root, "blkload version");
	r->started = dup_str(root, "started");
	r->host = dup_str(root, "host");
	r->kernel = dup_str(root, "kernel");
	r->runtime_s = get_d(get(root, "settings"), "runtime_s");
	r->ramp_s = get_d(get(root, "settings"), "ramp_time_s");
	r->repeat = (unsigned int)get_d(get(root, "settings"), "repeat");
	r->cpus = dup_str(get(root, "settings"), "cpus");
	r->randseed = (uint64_t)json_object_get_uint64(get(get(root, "settings"), "randseed"));
	r->order_seed = (uint64_t)json_object_get_uint64(get(get(root, "settings"), "order_seed"));
	r->start_at_ms = (uint64_t)json_object_get_uint64(get(get(root, "settings"), "start_at_ms"));
	r->slot_ms = (uint64_t)json_object_get_uint64(get(get(root, "settings"), "slot_ms"));
	r->targets = str_array(get(root, "targets"), &r->ntargets);
	r->paths = str_array(get(root, "paths"), &r->npaths);
	r->baseline = get(root, "baseline") ?
		      cmp_path_index(r, json_object_get_string(get(root, "baseline"))) : -1;
	r->incomplete = get(root, "incomplete") &&
			json_object_get_boolean(get(root, "incomplete"));
	n = (unsigned int)json_object_array_length(cells);
	r->ncells = n;
	r->cells = xcalloc(n, sizeof(*r->cells));
	for (unsigned int c = 0; c < n; c++) {
		struct json_object *co = json_object_array_get_idx(cells, c);

		if (!json_object_is_type(co, json_type_object)) {
			fprintf(stderr, "blkload: %s: cell %u is not an object\n", file, c);
			json_object_put(root);
			cmp_free(r);
			return -1;
		}
		r->cells[c].rw = dup_str(co, "rw") ?: xstrdup("?");
		r->cells[c].bs = (uint64_t)json_object_get_int64(get(co, "bs"));
		r->cells[c].iodepth = (uint32_t)json_object_get_int64(get(co, "iodepth"));
	}
	cmp_alloc(r);
	for (unsigned int c = 0; c < n; c++) {
		struct json_object *po = get(json_object_array_get_idx(cells, c), "paths");

		for (unsigned int p = 0; p < r->npaths; p++) {
			struct json_object *eo = get(po, r->paths[p]);

			if (eo)
				entry_read(r, cmp_at(r, c, p), eo);
		}
	}
	json_object_put(root);
	cmp_derive(r);
	return 0;
}

/* ---- tables ---- */

static void us(FILE *f, uint64_t ns, const char *sep)
{
	fprintf(f, "%s%.1f", sep, (double)ns / 1000.0);
}

void cmp_write_md(const struct cmp_result *r, FILE *f)
{
	const char *base = r->baseline >= 0 ? r->paths[r->baseline] : NULL;
	bool any = false;

	fprintf(f, "| rw | bs | iodepth | path | IOPS | ±95%% CI | stdev | n | p50 us | p99 us | p99.9 us | CPU us/IO |");
	if (base)
		fprintf(f, " vs %s | p | significant |", base);
	fprintf(f, "\n|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|%s\n",
		base ? "---:|---:|---|" : "");
	for (unsigned int c = 0; c < r->ncells; c++) {
		char *bs = cmp_bs_name(r->cells[c].bs);

		for (unsigned int p = 0; p < r->npaths; p++) {
			const struct cmp_entry *e = cmp_at(r, c, p);

			fprintf(f, "| %s | %s | %u | %s | %.0f | ", r->cells[c].rw, bs,
				r->cells[c].iodepth, r->paths[p], e->s.mean);
			if (e->s.has_ci)
				fprintf(f, "%.0f | %.0f | ", e->s.ci_half, e->s.sd);
			else
				fprintf(f, "- | - | ");
			fprintf(f, "%zu |", e->n);
			us(f, e->p50, " ");
			us(f, e->p99, " | ");
			us(f, e->p999, " | ");
			fprintf(f, " | %.1f |", e->cpu.mean);
			if (base) {
				if ((int)p == r->baseline)
					fprintf(f, e->n ? " 1.00 | | |" : " - | | |");
				else if (!e->has_ratio)
					fprintf(f, " - | - | - |");
				else if (!e->w.valid)
					fprintf(f, " %.2fx | - | n < 2 |", e->ratio);
				else
					fprintf(f, " %.2fx | %.3g | %s |", e->ratio, e->w.p,
						e->significant ? "yes" : "no");
			}
			fputc('\n', f);
		}
		free(bs);
	}
	for (unsigned int p = 0; base && p < r->npaths; p++)
		any |= (int)p != r->baseline && r->avg_ratio[p] > 0;
	if (any) {
		fprintf(f, "\nAverage of averages (geometric mean of the per-cell ratios):");
		for (unsigned int p = 0; p < r->npaths; p++)
			if ((int)p != r->baseline && r->avg_ratio[p] > 0)
				fprintf(f, " %s/%s %.2fx over %u cell%s;", r->paths[p], base,
					r->avg_ratio[p], r->avg_cells[p], r->avg_cells[p] == 1 ? "" : "s");
		fputc('\n', f);
	}
	if (r->incomplete)
		fprintf(f, "\nIncomplete: the matrix stopped early (a run failed, or Ctrl-C); n shows what ran.\n");
}

void cmp_write_csv(const struct cmp_result *r, FILE *f)
{
	fprintf(f, "rw,bs,iodepth,path,n,iops_mean,iops_stdev,iops_ci95_low,iops_ci95_high,"
		"p50_ns,p99_ns,p99.9_ns,cpu_us_per_io,machine_user_s,machine_nice_s,machine_system_s,"
		"machine_irq_s,machine_softirq_s,"
		"ratio,welch_p,significant\n");
	for (unsigned int c = 0; c < r->ncells; c++) {
		for (unsigned int p = 0; p < r->npaths; p++) {
			const struct cmp_entry *e = cmp_at(r, c, p);

			fprintf(f, "%s,%" PRIu64 ",%u,%s,%zu,%.3f,", r->cells[c].rw, r->cells[c].bs,
				r->cells[c].iodepth, r->paths[p], e->n, e->s.mean);
			if (e->s.has_ci)
				fprintf(f, "%.3f,%.3f,%.3f,", e->s.sd, e->s.mean - e->s.ci_half,
					e->s.mean + e->s.ci_half);
			else
				fprintf(f, ",,,");
			fprintf(f, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.3f", e->p50, e->p99, e->p999,
				e->cpu.mean);
			for (int i = 0; i < CMP_CPU_NR; i++)
				fprintf(f, ",%.3f", e->cpu_split[i]);
			if (e->has_ratio && (int)p != r->baseline)
				fprintf(f, ",%.4f,", e->ratio);
			else
				fprintf(f, ",,");
			if (e->has_ratio && (int)p != r->baseline && e->w.valid)
				fprintf(f, "%.6g,%s\n", e->w.p, e->significant ? "yes" : "no");
			else
				fprintf(f, ",\n");
		}
	}
}

/* ---- charts ---- */

static int run_gnuplot(const char *dir, const char *script)
{
	char *argv[] = { "gnuplot", (char *)script, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc, status;

	posix_spawn_file_actions_init(&fa);
	rc = posix_spawn_file_actions_addchdir_np(&fa, dir);
	/* Its warnings (a path with no point in a cell) go to a log, not the user. */
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 2, "charts.log",
						      O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (!rc)
		rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		fprintf(stderr, "blkload: charts: cannot run gnuplot: %s%s\n", strerror(rc),
			rc == ENOENT ? " (install gnuplot-nox; the data and script are kept)" : "");
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "blkload: charts: gnuplot failed on %s/%s; see %s/charts.log\n",
			dir, script, dir);
		return -1;
	}
	return 0;
}

/*
 * One chart over iodepth, a line per path; @offs are the columns plotted
 * (offsets into each path's seven in @dat).
 */
static void chart(FILE *gp, const struct cmp_result *r, const char *name, const char *title,
		  const char *ylabel, const char *dat, const int *offs, int noffs,
		  const char *style, bool logx)
{
	fprintf(gp, "set output '%s.svg'\nset title \"%s\" noenhanced\nset ylabel \"%s\"\n%s\n",
		name, title, ylabel, logx ? "set logscale x 2" : "unset logscale x");
	fprintf(gp, "plot ");
	for (unsigned int p = 0; p < r->npaths; p++) {
		int c = 2 + (int)p * 7;

		fprintf(gp, "%s'%s' using 1", p ? ", \\\n     " : "", dat);
		for (int k = 0; k < noffs; k++)
			fprintf(gp, ":%d", c + offs[k]);
		fprintf(gp, " with %s title '%s' noenhanced", style, r->paths[p]);
	}
	fprintf(gp, "\n");
}

int cmp_write_charts(const struct cmp_result *r, const char *dir)
{
	char *gpname = xasprintf("%s/charts.gp", dir);
	FILE *gp = fopen(gpname, "w");
	bool *done = xcalloc(r->ncells, sizeof(bool));
	int charts = 0;

	if (!gp) {
		fprintf(stderr, "blkload: %s: %s\n", gpname, strerror(errno));
		free(gpname);
		free(done);
		return -1;
	}
	fprintf(gp, "# blkload compare charts: gnuplot charts.gp\n"
		"set terminal svg size 860,520 dynamic enhanced font 'sans,11'\n"
		"set datafile missing '?'\nset key outside right top\nset grid\n"
		"set xlabel 'iodepth'\nset yrange [0:*]\nset offsets graph 0.05, graph 0.05, 0, 0\n");
	/* One group per (rw, bs): its cells over iodepth. */
	for (unsigned int c = 0; c < r->ncells; c++) {
		char *bs, *dat, *datpath, *name, *title;
		unsigned int ndepths = 0;
		FILE *f;

		bool any = false;

		if (done[c])
			continue;
		/* A group with no data at all has nothing to draw. */
		for (unsigned int d = c; d < r->ncells; d++)
			for (unsigned int p = 0; p < r->npaths; p++)
				any |= !strcmp(r->cells[d].rw, r->cells[c].rw) &&
				       r->cells[d].bs == r->cells[c].bs && cmp_at(r, d, p)->n;
		if (!any)
			continue;
		bs = cmp_bs_name(r->cells[c].bs);
		dat = xasprintf("%s-%s.dat", r->cells[c].rw, bs);
		datpath = xasprintf("%s/%s", dir, dat);
		f = fopen(datpath, "w");
		if (!f) {
			fprintf(stderr, "blkload: %s: %s\n", datpath, strerror(errno));
			free(bs);
			free(dat);
			free(datpath);
			continue;
		}
		fprintf(f, "# iodepth, then per path: iops low high p50_us p99_us p99.9_us cpu_us_per_io\n");
		/* Cells of the group by rising iodepth (selection: the matrices are small). */
		for (;;) {
			int next = -1;

			for (unsigned int d = c; d < r->ncells; d++)
				if (!done[d] && !strcmp(r->cells[d].rw, r->cells[c].rw) &&
				    r->cells[d].bs == r->cells[c].bs &&
				    (next < 0 || r->cells[d].iodepth < r->cells[next].iodepth))
					next = (int)d;
			if (next < 0)
				break;
			done[next] = true;
			ndepths++;
			fprintf(f, "%u", r->cells[next].iodepth);
			for (unsigned int p = 0; p < r->npaths; p++) {
				const struct cmp_entry *e = cmp_at(r, (unsigned int)next, p);
				double h = e->s.has_ci ? e->s.ci_half : 0;

				if (!e->n) {
					fprintf(f, " ? ? ? ? ? ? ?");
					continue;
				}
				fprintf(f, " %.3f %.3f %.3f %.3f %.3f %.3f %.3f", e->s.mean,
					e->s.mean - h, e->s.mean + h, (double)e->p50 / 1e3,
					(double)e->p99 / 1e3, (double)e->p999 / 1e3, e->cpu.mean);
			}
			fputc('\n', f);
		}
		fclose(f);
		name = xasprintf("iops-%s-%s", r->cells[c].rw, bs);
		title = xasprintf("%s %s: IOPS (mean, 95%% CI) by iodepth", r->cells[c].rw, bs);
		chart(gp, r, name, title, "IOPS", dat, (const int[]){ 0, 1, 2 }, 3, "yerrorlines",
		      ndepths > 1);
		free(name);
		free(title);
		name = xasprintf("lat-%s-%s", r->cells[c].rw, bs);
		title = xasprintf("%s %s: latency p99 (bars p50 to p99.9) by iodepth",
				  r->cells[c].rw, bs);
		fprintf(gp, "set logscale y\nset yrange [*:*]\n");
		chart(gp, r, name, title, "latency (us)", dat, (const int[]){ 4, 3, 5 }, 3,
		      "yerrorlines", ndepths > 1);
		fprintf(gp, "unset logscale y\nset yrange [0:*]\n");
		free(name);
		free(title);
		name = xasprintf("cpu-%s-%s", r->cells[c].rw, bs);
		title = xasprintf("%s %s: whole-client CPU per IO by iodepth", r->cells[c].rw, bs);
		chart(gp, r, name, title, "CPU us per IO", dat, (const int[]){ 6 }, 1,
		      "linespoints", ndepths > 1);
		free(name);
		free(title);
		charts += 3;
		free(bs);
		free(dat);
		free(datpath);
	}
	free(done);
	if (fclose(gp)) {
		free(gpname);
		return -1;
	}
	free(gpname);
	if (charts && run_gnuplot(dir, "charts.gp"))
		return -1;
	return charts;
}
