// SPDX-License-Identifier: GPL-2.0
/*
 * blkload merge A.json B.json ...: the reports of one workload run on many
 * hosts at once (--start-at), as one result. Counts and bytes are summed
 * exactly; latency histograms are summed bucket by bucket and percentiles
 * recomputed from the sum, never averaged; IOPS and bandwidth are each
 * host's rate over the window all hosts were measuring together (from its
 * time series), summed. Compare results (results.json of many hosts) merge
 * run by run: the IOPS of each repetition summed over the hosts, histograms
 * summed, intervals and ratios derived again from the sums.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <blkload/hist.h>

#include "blkload.h"
#include "cmpres.h"
#include "jsonget.h"
#include "out.h"
#include "util.h"
#include "workload.h"

enum { M_READ, M_WRITE, M_TRIM, M_NR };
static const char *const m_ops[M_NR] = { "read", "write", "trim" };
enum { M_LAT, M_CLAT, M_NLAT };
static const char *const m_lats[M_NLAT] = { "lat_ns", "clat_ns" };

const struct option merge_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "percentile_list", required_argument, NULL, 'P' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: blkload [-j] merge [-o FILE] [--percentile_list P:P] A.json B.json ...\n"
		"\n"
		"One result from the reports of a workload run on many hosts together\n"
		"('blkload --output-format=json+ run ... --start-at TIME' on each), or from\n"
		"their 'blkload compare' results. Per host a row, then the sum:\n"
		"  - IOs, bytes and errors summed exactly;\n"
		"  - IOPS and bandwidth: each host's rate over the window every host was\n"
		"    measuring in (from its time series; its whole run if it has none\n"
		"    there), summed;\n"
		"  - latency: the hosts' histograms (json+ bins) summed bucket by bucket;\n"
		"    percentiles recomputed from the sum, never averaged.\n"
		"Compare results need the same cells, paths and repetitions: each\n"
		"repetition's IOPS are summed over the hosts, histograms merged, and the\n"
		"intervals and ratios computed again; -o writes the merged results.json.\n"
		"\n"
		"  -o, --output FILE         write the merged result (JSON) to FILE too\n"
		"  --percentile_list P:P     percentiles to report (fio's default list)\n"
		"\n"
		"Exit status: 0, 1 when an input cannot be merged (said why), 2 bad usage.\n");
}

/* One latency of one direction, merged over the hosts. */
struct mlat {
	uint64_t n, min, max;
	double sum, ss;		/* sum and sum of squared deviations (n - 1 form) */
	uint64_t *hist;
};

struct mop {
	uint64_t ios, bytes, errors;	/* total_ios (errors included), io_bytes, errors */
	double iops, bw;		/* own rates: over the host's own run */
	double wiops, wbw;		/* over the common window */
	struct mlat lat[M_NLAT];
};

struct mhost {
	const char *file;
	char *name;
	struct json_object *root;
	bool timed;			/* every job has job_start */
	uint64_t start_ms, end_ms;	/* measured span, after the ramp */
	uint64_t job_start;
	bool windowed;			/* rates from samples inside the window */
	struct mop op[M_NR];
};

static void mlat_init(struct mlat *l)
{
	memset(l, 0, sizeof(*l));
	l->hist = xcalloc(BL_HIST_NR, sizeof(uint64_t));
}

/* Adds @lat (fio's {"min","max","mean","stddev","N","bins"}) to @m; -1 without bins. */
static int mlat_add(struct mlat *m, struct json_object *lat)
{
	uint64_t n = get_u(lat, "N");
	double mean = get_d(lat, "mean"), sd = get_d(lat, "stddev");
	struct json_object *bins = get(lat, "bins");
	uint64_t nb = 0;

	if (!n)
		return 0;
	if (!bins || !json_object_is_type(bins, json_type_object))
		return -1;
	json_object_object_foreach(bins, key, val) {
		uint64_t c = (uint64_t)json_object_get_int64(val);

		m->hist[bl_hist_idx(strtoull(key, NULL, 10))] += c;
		nb += c;
	}
	if (nb != n)
		return -1;
	/* Chan et al.: the combined sum of squared deviations from both parts'. */
	if (m->n) {
		double d = mean - m->sum / (double)m->n;

		m->ss += (double)(n - 1) * sd * sd +
			 d * d * (double)m->n * (double)n / (double)(m->n + n);
	} else {
		m->ss = (double)(n - 1) * sd * sd;
	}
	if (!m->n || get_u(lat, "min") < m->min)
		m->min = get_u(lat, "min");
	if (get_u(lat, "max") > m->max)
		m->max = get_u(lat, "max");
	m->n += n;
	m->sum += mean * (double)n;
	return 0;
}

static void mlat_out(struct out *o, const char *key, const struct mlat *m,
		     const struct report_opts *ro, bool bins)
{
	out_begin_object(o, key, NULL);
	out_u64(o, "min", NULL, m->min, NULL);
	out_u64(o, "max", NULL, m->max, NULL);
	out_double(o, "mean", NULL, m->n ? m->sum / (double)m->n : 0, 6, NULL);
	out_double(o, "stddev", NULL, m->n > 1 ? sqrt(m->ss / (double)(m->n - 1)) : 0, 6, NULL);
	out_u64(o, "N", NULL, m->n, NULL);
	if (m->n) {
		out_begin_object(o, "percentile", NULL);
		for (unsigned int i = 0; i < ro->nr_percentiles; i++) {
			char *k = xasprintf("%f", ro->percentiles[i]);

			out_u64(o, k, NULL,
				bl_hist_percentile(m->hist, BL_HIST_NR, m->n, ro->percentiles[i]),
				NULL);
			free(k);
		}
		out_end_object(o);
	}
	if (m->n && bins) {
		out_begin_object(o, "bins", NULL);
		for (unsigned int i = 0; i < BL_HIST_NR; i++) {
			char *k;

			if (!m->hist[i])
				continue;
			k = xasprintf("%" PRIu64, (uint64_t)bl_hist_mid(i));
			out_u64(o, k, NULL, m->hist[i], NULL);
			free(k);
		}
		out_end_object(o);
	}
	out_end_object(o);
}

/* When job @j's measured time begins, ms wall clock: start, startdelay, ramp. */
static double job_measure_start(struct json_object *j)
{
	return (double)get_u(j, "job_start") +
	       (double)(get_u(j, "startdelay_ns") + get_u(j, "ramp_time_ns")) / 1e6;
}

/* The host's measured span: from its first job's measured start to its last end. */
static void host_span(struct mhost *h)
{
	struct json_object *jobs = get(h->root, "jobs");
	size_t n = json_object_array_length(jobs);

	h->timed = n > 0;
	for (size_t i = 0; i < n; i++) {
		struct json_object *j = json_object_array_get_idx(jobs, i);
		uint64_t js = get_u(j, "job_start"), s, e;

		if (!js) {
			h->timed = false;
			return;
		}
		s = (uint64_t)(job_measure_start(j) + 0.5);
		e = s + (get_u(j, "elapsed_ns") + 500000) / 1000000;
		if (!i || s < h->start_ms)
			h->start_ms = s;
		if (e > h->end_ms)
			h->end_ms = e;
		if (!i || js < h->job_start)
			h->job_start = js;
	}
}

static double overlap(double a0, double a1, double b0, double b1)
{
	double lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

/*
 * The host's rates over [@ws, @we] (ms): the IOs each of its jobs did inside
 * the window, over the window's length. A sample counts with the share of
 * it that lies inside (IOs spread evenly over a sample); a job whose
 * samples do not cover at least 90% of its own time inside the window
 * counts with its whole-run rate over that time instead (windowed false).
 * Jobs that ran one after another (waves) each add what they did inside.
 */
static void host_window(struct mhost *h, uint64_t ws, uint64_t we)
{
	struct json_object *jobs = get(h->root, "jobs");
	double wlen = (double)(we - ws) / 1e3;

	h->windowed = true;
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		struct json_object *j = json_object_array_get_idx(jobs, i);
		struct json_object *smp = get(get(j, "time_series"), "samples");
		double base = job_measure_start(j);
		double jend = base + (double)get_u(j, "elapsed_ns") / 1e6;
		double inside = overlap(base, jend, (double)ws, (double)we);	/* ms */
		double covered = 0, ios[M_NR] = { 0 }, bytes[M_NR] = { 0 };

		if (inside <= 0)
			continue;
		if (!json_object_is_type(smp, json_type_array))
			smp = NULL;
		for (size_t k = 0; smp && k < json_object_array_length(smp); k++) {
			struct json_object *s = json_object_array_get_idx(smp, k);
			double end = base + (double)get_u(s, "time_ns") / 1e6;
			double len = get_d(s, "interval_s") * 1e3, part;

			if (len <= 0)
				continue;
			part = overlap(end - len, end, (double)ws, (double)we) / len;
			if (part <= 0)
				continue;
			covered += part * len;
			for (int op = 0; op < M_NR; op++) {
				ios[op] += part * get_d(get(s, m_ops[op]), "ios");
				bytes[op] += part * get_d(get(s, m_ops[op]), "bytes");
			}
		}
		for (int op = 0; op < M_NR; op++) {
			struct json_object *o = get(j, m_ops[op]);

			if (covered >= 0.9 * inside) {
				/* Scaled to the job's whole time inside, if a sample is missing. */
				h->op[op].wiops += ios[op] * inside / covered / wlen;
				h->op[op].wbw += bytes[op] * inside / covered / wlen;
			} else {
				h->op[op].wiops += get_d(o, "iops") * inside / 1e3 / wlen;
				h->op[op].wbw += get_d(o, "bw_bytes") * inside / 1e3 / wlen;
			}
		}
		if (covered < 0.9 * inside)
			h->windowed = false;
	}
}

/* Whether two reports' first jobs are one: the same id on the same device. */
static bool same_first_job(const struct mhost *a, const struct mhost *b)
{
	struct json_object *ja = json_object_array_get_idx(get(a->root, "jobs"), 0);
	struct json_object *jb = json_object_array_get_idx(get(b->root, "jobs"), 0);
	const char *da = json_object_get_string(get(ja, "device"));
	const char *db = json_object_get_string(get(jb, "device"));

	return get_u(ja, "job_id") == get_u(jb, "job_id") &&
	       !strcmp(da ? da : "", db ? db : "");
}

static int host_read(struct mhost *h, struct mop *sum)
{
	struct json_object *all = get(h->root, "all_jobs"), *jobs = get(h->root, "jobs");
	const char *host = json_object_get_string(get(h->root, "hostname"));

	if (!all || !jobs || !json_object_is_type(jobs, json_type_array) ||
	    !json_object_array_length(jobs)) {
		fprintf(stderr, "blkload: merge: %s: not a 'blkload -j run' report (no jobs, all_jobs)\n",
			h->file);
		return -1;
	}
	h->name = xstrdup(host && *host ? host : h->file);
	for (int op = 0; op < M_NR; op++) {
		struct json_object *o = get(all, m_ops[op]);
		struct mop *m = &h->op[op];

		m->ios = get_u(o, "total_ios");
		m->bytes = get_u(o, "io_bytes");
		m->errors = get_u(o, "errors");
		m->iops = get_d(o, "iops");
		m->bw = get_d(o, "bw_bytes");
		sum[op].ios += m->ios;
		sum[op].bytes += m->bytes;
		sum[op].errors += m->errors;
		sum[op].iops += m->iops;
		sum[op].bw += m->bw;
		for (int l = 0; l < M_NLAT; l++) {
			if (mlat_add(&sum[op].lat[l], get(o, m_lats[l]))) {
				fprintf(stderr, "blkload: merge: %s: %s %s has no histogram bins for its %" PRIu64 " samples: run with --output-format=json+\n",
					h->file, m_ops[op], m_lats[l], get_u(get(o, m_lats[l]), "N"));
				return -1;
			}
		}
	}
	host_span(h);
	return 0;
}

static void op_text(const char *who, const struct mop *m, bool merged,
		    const struct report_opts *ro)
{
	(void)ro;
	for (int op = 0; op < M_NR; op++) {
		const struct mlat *l = &m[op].lat[M_CLAT];

		if (!m[op].ios)
			continue;
		printf("  %-20s %-5s IOPS=%.0f BW=%.1fMiB/s IOs=%" PRIu64 " errors=%" PRIu64, who,
		       m_ops[op], m[op].wiops, m[op].wbw / 1048576.0, m[op].ios, m[op].errors);
		if (merged && l->n)
			printf(" clat p50=%.1fus p99=%.1fus p99.9=%.1fus",
			       (double)bl_hist_percentile(l->hist, BL_HIST_NR, l->n, 50) / 1e3,
			       (double)bl_hist_percentile(l->hist, BL_HIST_NR, l->n, 99) / 1e3,
			       (double)bl_hist_percentile(l->hist, BL_HIST_NR, l->n, 99.9) / 1e3);
		putchar('\n');
	}
}

static void op_json(struct out *o, const struct mop *m, const struct report_opts *ro,
		    bool lat)
{
	for (int op = 0; op < M_NR; op++) {
		out_begin_object(o, m_ops[op], NULL);
		out_u64(o, "total_ios", NULL, m[op].ios, NULL);
		out_u64(o, "io_bytes", NULL, m[op].bytes, NULL);
		out_u64(o, "errors", NULL, m[op].errors, NULL);
		/* fio's names: the rates over the common window. */
		out_double(o, "iops", NULL, m[op].wiops, 6, NULL);
		out_u64(o, "bw_bytes", NULL, (uint64_t)m[op].wbw, NULL);
		out_u64(o, "bw", NULL, (uint64_t)(m[op].wbw / 1024), NULL);
		/* Over each host's own run, for comparison. */
		out_double(o, "iops_own_runs", NULL, m[op].iops, 6, NULL);
		out_u64(o, "bw_bytes_own_runs", NULL, (uint64_t)m[op].bw, NULL);
		if (lat)
			for (int l = 0; l < M_NLAT; l++)
				mlat_out(o, m_lats[l], &m[op].lat[l], ro, true);
		out_end_object(o);
	}
}

static int merge_runs(struct ctx *ctx, struct mhost *h, unsigned int n, const char *output,
		      const struct report_opts *ro)
{
	struct mop sum[M_NR] = { 0 };
	uint64_t ws = 0, we = UINT64_MAX, longest = 0;
	bool timed = true, windowed = true;
	struct out *o;
	FILE *f = NULL;
	int rc = 1;

	for (int op = 0; op < M_NR; op++)
		for (int l = 0; l < M_NLAT; l++)
			mlat_init(&sum[op].lat[l]);
	for (unsigned int i = 0; i < n; i++) {
		if (host_read(&h[i], sum))
			goto out;
		timed &= h[i].timed;
		/*
		 * One report given twice would be counted twice: the same host,
		 * start and first job (two runs of one host started together
		 * have jobs of their own).
		 */
		for (unsigned int k = 0; k < i; k++)
			if (h[k].timed && h[i].timed && h[k].job_start == h[i].job_start &&
			    !strcmp(h[k].name, h[i].name) && same_first_job(&h[k], &h[i])) {
				fprintf(stderr, "blkload: merge: %s and %s are the same run (host %s, job_start %" PRIu64 ")\n",
					h[k].file, h[i].file, h[i].name, h[i].job_start);
				goto out;
			}
	}
	/* A host run with gtod_reduce has IOs but no latency: say whose latency it is. */
	for (int op = 0; op < M_NR; op++)
		if (sum[op].lat[M_LAT].n && sum[op].lat[M_LAT].n + sum[op].errors < sum[op].ios)
			fprintf(stderr, "blkload: merge: %s latency is of %" PRIu64 " of %" PRIu64 " IOs: a host ran without per-IO times (gtod_reduce)\n",
				m_ops[op], sum[op].lat[M_LAT].n, sum[op].ios);
	if (timed) {
		for (unsigned int i = 0; i < n; i++) {
			ws = h[i].start_ms > ws ? h[i].start_ms : ws;
			we = h[i].end_ms < we ? h[i].end_ms : we;
			if (h[i].end_ms - h[i].start_ms > longest)
				longest = h[i].end_ms - h[i].start_ms;
		}
		if (we <= ws) {
			fprintf(stderr, "blkload: merge: the runs were never measuring together (the last began after the first ended): summed rates would describe no moment; start them with --start-at\n");
			goto out;
		}
		for (unsigned int i = 0; i < n; i++) {
			host_window(&h[i], ws, we);
			windowed &= h[i].windowed;
		}
	} else {
		fprintf(stderr, "blkload: merge: a report has no job_start (an older blkload): rates are each host's own, summed; no common window\n");
		for (unsigned int i = 0; i < n; i++)
			for (int op = 0; op < M_NR; op++) {
				h[i].op[op].wiops = h[i].op[op].iops;
				h[i].op[op].wbw = h[i].op[op].bw;
			}
		windowed = false;
	}
	for (unsigned int i = 0; i < n; i++)
		for (int op = 0; op < M_NR; op++) {
			sum[op].wiops += h[i].op[op].wiops;
			sum[op].wbw += h[i].op[op].wbw;
		}
	if (output) {
		f = fopen(output, "w");
		if (!f) {
			perror(output);
			goto out;
		}
	}
	for (int pass = 0; pass < 2; pass++) {
		FILE *to = pass ? f : stdout;
		bool json = pass || ctx->json;

		if (!to)
			continue;
		if (!json) {
			printf("merged %u reports", n);
			if (timed)
				printf("; common window %.3f s (%.1f%% of the longest run)%s\n",
				       (double)(we - ws) / 1e3,
				       longest ? 100.0 * (double)(we - ws) / (double)longest : 0,
				       windowed ? "" : "; rates of some hosts over their whole run");
			else
				printf("; no common window\n");
			for (unsigned int i = 0; i < n; i++)
				op_text(h[i].name, h[i].op, false, ro);
			op_text("all hosts", sum, true, ro);
			continue;
		}
		o = out_new(to, true, ctx->pretty || pass);
		out_str(o, "blkload version", NULL, "blkload-" BLKLOAD_CLI_VERSION);
		out_begin_object(o, "merge", NULL);
		out_u64(o, "inputs", NULL, n, NULL);
		if (timed) {
			out_u64(o, "window_start_ms", NULL, ws, NULL);
			out_u64(o, "window_end_ms", NULL, we, NULL);
			out_double(o, "window_s", NULL, (double)(we - ws) / 1e3, 3, NULL);
			out_double(o, "overlap", NULL,
				   longest ? (double)(we - ws) / (double)longest : 0, 6, NULL);
		}
		out_str(o, "rate_basis", NULL, windowed ? "window" : timed ? "mixed" : "own runs");
		out_end_object(o);
		out_begin_array(o, "hosts", NULL);
		for (unsigned int i = 0; i < n; i++) {
			out_begin_object(o, NULL, NULL);
			out_str(o, "host", NULL, h[i].name);
			out_str(o, "file", NULL, h[i].file);
			if (h[i].timed) {
				out_u64(o, "job_start", NULL, h[i].job_start, NULL);
				out_u64(o, "measured_start_ms", NULL, h[i].start_ms, NULL);
				out_u64(o, "measured_end_ms", NULL, h[i].end_ms, NULL);
			}
			out_str(o, "rate_basis", NULL, h[i].windowed ? "window" : "own run");
			op_json(o, h[i].op, ro, false);
			out_end_object(o);
		}
		out_end_array(o);
		out_begin_object(o, "all_hosts", NULL);
		op_json(o, sum, ro, true);
		out_end_object(o);
		out_free(o);
	}
	rc = 0;
	if (f && fclose(f)) {
		perror(output);
		rc = 1;
	}
out:
	for (int op = 0; op < M_NR; op++)
		for (int l = 0; l < M_NLAT; l++)
			free(sum[op].lat[l].hist);
	return rc;
}

/* Compare results: the same matrix on every host; each repetition summed. */
static int merge_compares(struct ctx *ctx, char **files, unsigned int n, const char *output)
{
	struct cmp_result *r = xcalloc(n, sizeof(*r)), m = { 0 };
	int rc = 1;

	for (unsigned int i = 0; i < n; i++)
		if (cmp_read_json(&r[i], files[i]))
			goto out;
	for (unsigned int i = 1; i < n; i++) {
		bool same = r[i].ncells == r[0].ncells && r[i].npaths == r[0].npaths &&
			    r[i].repeat == r[0].repeat;

		for (unsigned int c = 0; same && c < r[0].ncells; c++)
			same = !strcmp(r[i].cells[c].rw, r[0].cells[c].rw) &&
			       r[i].cells[c].bs == r[0].cells[c].bs &&
			       r[i].cells[c].iodepth == r[0].cells[c].iodepth;
		for (unsigned int p = 0; same && p < r[0].npaths; p++)
			same = !strcmp(r[i].paths[p], r[0].paths[p]);
		same = same && r[i].runtime_s == r[0].runtime_s && r[i].ramp_s == r[0].ramp_s &&
		       r[i].randseed == r[0].randseed;
		if (!same) {
			fprintf(stderr, "blkload: merge: %s and %s are not the same matrix (cells, paths, repeat, runtime, ramp_time, randseed)\n",
				files[0], files[i]);
			goto out;
		}
		/* Summed rounds must have run at one time: the same slots. */
		if (r[i].start_at_ms != r[0].start_at_ms || r[i].slot_ms != r[0].slot_ms ||
		    r[i].order_seed != r[0].order_seed) {
			fprintf(stderr, "blkload: merge: %s and %s did not run their rounds together (compare --start-at TIME, the same on every host)\n",
				files[0], files[i]);
			goto out;
		}
	}
	if (!r[0].start_at_ms)
		fprintf(stderr, "blkload: merge: the results have no --start-at: nothing says their rounds ran at one time\n");
	m.version = xstrdup(r[0].version ? r[0].version : "");
	m.started = xstrdup(r[0].started ? r[0].started : "");
	m.host = xstrdup("merged");
	m.kernel = xstrdup(r[0].kernel ? r[0].kernel : "");
	m.runtime_s = r[0].runtime_s;
	m.ramp_s = r[0].ramp_s;
	m.repeat = r[0].repeat;
	m.randseed = r[0].randseed;
	m.order_seed = r[0].order_seed;
	m.start_at_ms = r[0].start_at_ms;
	m.slot_ms = r[0].slot_ms;
	for (unsigned int i = 0; i < n; i++)
		m.incomplete |= r[i].incomplete;
	m.cpus = r[0].cpus ? xstrdup(r[0].cpus) : NULL;
	m.baseline = r[0].baseline;
	m.ncells = r[0].ncells;
	m.cells = xcalloc(m.ncells, sizeof(*m.cells));
	for (unsigned int c = 0; c < m.ncells; c++) {
		m.cells[c] = r[0].cells[c];
		m.cells[c].rw = xstrdup(r[0].cells[c].rw);
	}
	m.npaths = r[0].npaths;
	m.paths = xcalloc(m.npaths, sizeof(*m.paths));
	for (unsigned int p = 0; p < m.npaths; p++)
		m.paths[p] = xstrdup(r[0].paths[p]);
	/* Targets: every host's, named host:target. */
	for (unsigned int i = 0; i < n; i++)
		m.ntargets += r[i].ntargets;
	m.targets = xcalloc(m.ntargets, sizeof(*m.targets));
	for (unsigned int i = 0, t = 0; i < n; i++)
		for (unsigned int k = 0; k < r[i].ntargets; k++)
			m.targets[t++] = xasprintf("%s:%s", r[i].host ? r[i].host : files[i],
						   r[i].targets[k]);
	cmp_alloc(&m);
	for (unsigned int c = 0; c < m.ncells; c++)
		for (unsigned int p = 0; p < m.npaths; p++) {
			struct cmp_entry *e = cmp_at(&m, c, p);
			size_t reps = SIZE_MAX;
			bool cpu = true;

			/* Repetitions every host has; the rest had no partner. */
			for (unsigned int i = 0; i < n; i++) {
				struct cmp_entry *x = cmp_at(&r[i], c, p);

				reps = x->n < reps ? x->n : reps;
				cpu &= x->ncpu == x->n;
			}
			/* A repetition a host lacks: the sum of that round is not whole. */
			for (unsigned int i = 0; i < n; i++)
				m.incomplete |= cmp_at(&r[i], c, p)->n != reps;
			e->n = reps;
			e->iops = xcalloc(reps ? reps : 1, sizeof(double));
			e->cpu_us = xcalloc(reps ? reps : 1, sizeof(double));
			e->ncpu = cpu ? reps : 0;
			for (size_t k = 0; k < reps; k++) {
				double w = 0;

				/* CPU per IO of the sum: each host's weighted by its IOs. */
				for (unsigned int i = 0; i < n; i++) {
					struct cmp_entry *x = cmp_at(&r[i], c, p);

					e->iops[k] += x->iops[k];
					if (cpu) {
						e->cpu_us[k] += x->cpu_us[k] * x->iops[k];
						w += x->iops[k];
					}
				}
				if (cpu)
					e->cpu_us[k] = w > 0 ? e->cpu_us[k] / w : 0;
			}
			for (unsigned int i = 0, t = 0; i < n; i++) {
				struct cmp_entry *x = cmp_at(&r[i], c, p);

				for (unsigned int k = 0; k < r[i].ntargets; k++)
					e->target_iops[t++] = x->target_iops[k];
				for (int s = 0; s < CMP_CPU_NR; s++)
					e->cpu_split[s] += x->cpu_split[s];
				e->ios += x->ios;
				for (unsigned int b = 0; b < BL_HIST_NR; b++)
					e->hist[b] += x->hist[b];
				e->hist_n += x->hist_n;
			}
		}
	cmp_derive(&m);
	for (unsigned int i = 0; i < n; i++)
		cmp_derive(&r[i]);
	if (ctx->json) {
		/* The merged result as compare writes it, to stdout. */
		if (cmp_write_json(&m, "-"))
			goto out;
	} else {
		for (unsigned int i = 0; i < n; i++) {
			printf("## %s (%s)\n\n", r[i].host ? r[i].host : "?", files[i]);
			cmp_write_md(&r[i], stdout);
			putchar('\n');
		}
		printf("## all %u hosts\n\n", n);
		cmp_write_md(&m, stdout);
	}
	if (output && cmp_write_json(&m, output))
		goto out;
	rc = 0;
out:
	for (unsigned int i = 0; i < n; i++)
		cmp_free(&r[i]);
	free(r);
	cmp_free(&m);
	return rc;
}

static bool is_compare(struct json_object *root)
{
	const char *k = json_object_get_string(get(root, "kind"));

	return k && !strcmp(k, "blkload-compare");
}

int cmd_merge(struct ctx *ctx, int argc, char **argv)
{
	struct report_opts ro = { 0 };
	const char *output = NULL;
	struct mhost *h = NULL;
	unsigned int n = 0, ncmp = 0;
	int c, rc = 2;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:h", merge_opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'P':
			if (parse_percentiles(optarg, &ro))
				goto out;
			break;
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		default:
			fprintf(stderr, "blkload: 'merge --help' describes the options\n");
			goto out;
		}
	}
	if (argc - optind < 1) {
		usage(stderr);
		goto out;
	}
	if (!ro.percentiles) {
		ro.nr_percentiles = ARRAY_SIZE(default_percentiles);
		ro.percentiles = xcalloc(ro.nr_percentiles, sizeof(double));
		memcpy(ro.percentiles, default_percentiles, sizeof(default_percentiles));
	}
	n = (unsigned int)(argc - optind);
	h = xcalloc(n, sizeof(*h));
	rc = 1;
	for (unsigned int i = 0; i < n; i++) {
		h[i].file = argv[optind + i];
		h[i].root = json_object_from_file(h[i].file);
		if (!h[i].root) {
			fprintf(stderr, "blkload: merge: %s: %s\n", h[i].file,
				json_util_get_last_err() ? json_util_get_last_err() : "unreadable");
			goto out;
		}
		ncmp += is_compare(h[i].root);
	}
	if (ncmp && ncmp != n) {
		fprintf(stderr, "blkload: merge: run reports and compare results cannot be merged together\n");
		goto out;
	}
	rc = ncmp ? merge_compares(ctx, argv + optind, n, output) :
		    merge_runs(ctx, h, n, output, &ro);
out:
	for (unsigned int i = 0; i < n; i++) {
		json_object_put(h[i].root);
		free(h[i].name);
	}
	free(h);
	free(ro.percentiles);
	return rc;
}
