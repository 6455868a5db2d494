// SPDX-License-Identifier: GPL-2.0
/*
 * blkload plot RESULT.json: SVG charts of a run's JSON report, drawn by
 * gnuplot: IOPS and bandwidth over time and clat percentiles over time
 * (from each job's time_series), and the clat CDF (from json+ bins, else
 * from the percentiles). One line per job and direction.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "blkload.h"
#include "util.h"

extern char **environ;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: blkload plot [-o PREFIX] RESULT.json\n"
		"\n"
		"Draws SVG charts of a 'blkload -j run' report with gnuplot:\n"
		"  PREFIX-iops.svg   IOPS over time, per job and direction\n"
		"  PREFIX-bw.svg     bandwidth over time (MiB/s)\n"
		"  PREFIX-lat.svg    clat percentiles over time (50th, 99th, 99.9th; us)\n"
		"  PREFIX-cdf.svg    clat CDF (json+ bins, else the reported percentiles)\n"
		"The first three need the run's time series (--sample-interval, on by\n"
		"default). PREFIX defaults to RESULT without .json.\n"
		"\n"
		"  -o, --output PREFIX   where the charts go\n");
}

struct plot {
	char *dir;		/* data files */
	FILE *gp;		/* the gnuplot script */
	char *ts_lines[3];	/* plot clauses of the three time charts */
	char *cdf_lines;
	unsigned int nts, ncdf;
	char *out[4];		/* the charts written */
	unsigned int nout;
};

/* Appends one plot clause (already formatted) to a comma-separated list. */
static void append(char **s, char *add)
{
	char *n = xasprintf("%s%s%s", *s ? *s : "", *s ? ", " : "", add);

	free(add);
	free(*s);
	*s = n;
}

/*
 * gnuplot's string quoting: single quotes, doubled inside, control
 * characters as spaces (file names with them are refused before).
 */
static char *gp_quote(const char *s)
{
	size_t n = strlen(s), k = 0;
	char *q = xcalloc(2 * n + 3, 1);

	q[k++] = '\'';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\'')
			q[k++] = '\'';
		/* A line break would end the command: no control character gets through. */
		q[k++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
	}
	q[k++] = '\'';
	return q;
}

static double pct_of(struct json_object *pct, const char *key)
{
	struct json_object *v;

	return pct && json_object_object_get_ex(pct, key, &v) ? json_object_get_double(v) : NAN;
}

/*
 * The percentiles to draw: 50, 99 and 99.9 where the report has them, else
 * its lowest, middle and highest; none without percentiles (gtod_reduce).
 */
static unsigned int pick_pcts(struct json_object *samples, const char *dir, char *keys[3])
{
	static const char *const want[] = { "50.000000", "99.000000", "99.900000" };
	struct json_object *pct = NULL, *d;
	unsigned int n = 0, all = 0, i = 0;
	const char **list;

	for (size_t k = 0; !pct && k < json_object_array_length(samples); k++)
		if (json_object_object_get_ex(json_object_array_get_idx(samples, k), dir, &d))
			json_object_object_get_ex(d, "clat_percentile", &pct);
	if (!pct)
		return 0;
	for (unsigned int w = 0; w < 3; w++)
		if (!isnan(pct_of(pct, want[w])))
			keys[n++] = xstrdup(want[w]);
	if (n)
		return n;
	all = (unsigned int)json_object_object_length(pct);
	list = xcalloc(all ? all : 1, sizeof(*list));
	{
		json_object_object_foreach(pct, key, val) {
			(void)val;
			list[i++] = key;
		}
	}
	/* Keys are "%f" of ascending percentiles, as written: all, or three of them. */
	for (unsigned int w = 0; w < all && w < 3; w++)
		keys[n++] = xstrdup(list[all <= 3 ? w : w == 0 ? 0 : w == 1 ? all / 2 : all - 1]);
	free(list);
	return n;
}

/*
 * One job's direction over time: "t iops MiB/s pA pB pC" (us). Returns 1
 * when it has IO (and lines were added), 0 when not, -1 on error.
 */
static int series_data(struct plot *p, struct json_object *samples, double interval,
		       const char *dir, const char *title)
{
	char *path = xasprintf("%s/ts%u.dat", p->dir, p->nts), *keys[3] = { NULL };
	size_t n = json_object_array_length(samples);
	unsigned int npct = pick_pcts(samples, dir, keys);
	uint64_t ios = 0;
	FILE *f = fopen(path, "w");
	char *qp, *qt;
	int bad;

	if (!f) {
		fprintf(stderr, "blkload: plot: %s: %s\n", path, strerror(errno));
		free(path);
		for (unsigned int k = 0; k < npct; k++)
			free(keys[k]);
		return -1;
	}
	p->nts++;		/* the file is removed with the others */
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(samples, i), *d, *v, *pct = NULL;
		double t = 0;

		if (json_object_object_get_ex(s, "time_ns", &v))
			t = (double)json_object_get_int64(v) / 1e9;
		/* A rate over a sliver (a run's last sample after its last interval) is noise. */
		if (json_object_object_get_ex(s, "interval_s", &v) &&
		    json_object_get_double(v) < interval / 2)
			continue;
		if (!json_object_object_get_ex(s, dir, &d))
			continue;
		if (json_object_object_get_ex(d, "ios", &v))
			ios += (uint64_t)json_object_get_int64(v);
		json_object_object_get_ex(d, "clat_percentile", &pct);
		fprintf(f, "%.6f %.3f %.6f", t,
			json_object_object_get_ex(d, "iops", &v) ? json_object_get_double(v) : 0,
			json_object_object_get_ex(d, "bw_bytes", &v) ?
			json_object_get_double(v) / 1048576.0 : 0);
		for (unsigned int k = 0; k < npct; k++)
			fprintf(f, " %.3f", pct_of(pct, keys[k]) / 1e3);
		fprintf(f, "\n");
	}
	bad = ferror(f);
	if (fclose(f) || bad) {
		fprintf(stderr, "blkload: plot: %s: cannot write\n", path);
		free(path);
		for (unsigned int k = 0; k < npct; k++)
			free(keys[k]);
		return -1;
	}
	qp = gp_quote(path);
	qt = gp_quote(title);
	if (ios) {
		append(&p->ts_lines[0], xasprintf("%s using 1:2 with lines title %s", qp, qt));
		append(&p->ts_lines[1], xasprintf("%s using 1:3 with lines title %s", qp, qt));
	}
	for (unsigned int k = 0; ios && k < npct; k++) {
		char *t = xasprintf("%s p%g", title, strtod(keys[k], NULL));
		char *q = gp_quote(t);

		append(&p->ts_lines[2], xasprintf("%s using 1:%u with lines title %s", qp, 4 + k, q));
		free(q);
		free(t);
	}
	for (unsigned int k = 0; k < npct; k++)
		free(keys[k]);
	free(qp);
	free(qt);
	free(path);
	return ios ? 1 : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One job's direction as a CDF: "latency_us fraction". */
static int cdf_data(struct plot *p, struct json_object *clat, const char *title)
{
	struct json_object *bins = NULL, *pct = NULL;
	char *path, *qp, *qt;
	uint64_t *v = NULL, total = 0, sum = 0;
	size_t n = 0;
	FILE *f;
	int bad;

	json_object_object_get_ex(clat, "bins", &bins);
	json_object_object_get_ex(clat, "percentile", &pct);
	if (!bins && !pct)
		return 0;
	path = xasprintf("%s/cdf%u.dat", p->dir, p->ncdf);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "blkload: plot: %s: %s\n", path, strerror(errno));
		free(path);
		return -1;
	}
	if (bins) {
		/* Pairs (value, count), sorted by value. */
		json_object_object_foreach(bins, key, val) {
			v = xrealloc(v, (n + 1) * 2 * sizeof(*v));
			v[2 * n] = strtoull(key, NULL, 10);
			v[2 * n + 1] = (uint64_t)json_object_get_int64(val);
			total += v[2 * n + 1];
			n++;
		}
		qsort(v, n, 2 * sizeof(*v), cmp_u64);
		for (size_t i = 0; i < n && total; i++) {
			sum += v[2 * i + 1];
			fprintf(f, "%.3f %.9f\n", (double)v[2 * i] / 1e3, (double)sum / (double)total);
		}
		free(v);
	} else {
		json_object_object_foreach(pct, key, val)
			fprintf(f, "%.3f %.9f\n", (double)json_object_get_int64(val) / 1e3,
				strtod(key, NULL) / 100.0);
	}
	p->ncdf++;		/* the file is removed with the others */
	bad = ferror(f);
	if (fclose(f) || bad) {
		fprintf(stderr, "blkload: plot: %s: cannot write\n", path);
		free(path);
		return -1;
	}
	qp = gp_quote(path);
	qt = gp_quote(title);
	append(&p->cdf_lines, xasprintf("%s using 1:2 with steps title %s", qp, qt));
	free(qp);
	free(qt);
	free(path);
	return 0;
}

static int run_gnuplot(const char *script)
{
	char *argv[] = { "gnuplot", (char *)script, NULL };
	int st;
	pid_t pid;

	if (posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ)) {
		fprintf(stderr, "blkload: plot: cannot run gnuplot (Debian: apt install gnuplot-nox)\n");
		return -1;
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "blkload: plot: gnuplot failed\n");
		return -1;
	}
	return 0;
}

static void chart(struct plot *p, const char *prefix, const char *name, const char *title,
		  const char *ylabel, bool logy, const char *yrange, const char *lines)
{
	char *out = xasprintf("%s-%s.svg", prefix, name), *qo = gp_quote(out), *qt = gp_quote(title);
	char *qy = gp_quote(ylabel);

	/* The scale before the range: a log scale refuses a range from 0. */
	fprintf(p->gp, "set output %s\nset title %s\nset ylabel %s\n%s\nset yrange %s\nplot %s\n",
		qo, qt, qy, logy ? "set logscale y" : "unset logscale y", yrange, lines);
	/* Named once gnuplot has drawn them all. */
	p->out[p->nout++] = out;
	free(qo);
	free(qt);
	free(qy);
}

/* plot's options */
const struct option plot_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_plot(struct ctx *ctx, int argc, char **argv)
{
	struct json_object *root, *jobs;
	struct plot p = { 0 };
	const char *input, *tmpdir = getenv("TMPDIR");
	char *prefix = NULL, *script = NULL, *tmpl = NULL;
	int c, rc = 1;

	(void)ctx;
	optind = 0;
	while ((c = getopt_long(argc, argv, "o:h", plot_opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			free(prefix);
			prefix = xstrdup(optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	input = argv[optind];
	root = json_object_from_file(input);
	if (!root || !json_object_object_get_ex(root, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array)) {
		fprintf(stderr, "blkload: plot: %s: not a blkload or fio JSON report (%s)\n", input,
			root ? "no jobs" : json_util_get_last_err());
		json_object_put(root);
		free(prefix);
		return 1;
	}
	if (!prefix) {
		size_t n = strlen(input);

		prefix = xstrdup(input);
		if (n > 5 && !strcmp(input + n - 5, ".json"))
			prefix[n - 5] = 0;
	}
	for (const char *q = prefix; *q; q++)
		if ((unsigned char)*q < 0x20 || *q == 0x7f) {
			fprintf(stderr, "blkload: plot: a control character in the output name\n");
			free(prefix);
			json_object_put(root);
			return 2;
		}
	tmpl = xasprintf("%s/blkload-plot.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	p.dir = mkdtemp(tmpl);
	if (!p.dir) {
		fprintf(stderr, "blkload: plot: %s\n", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		struct json_object *j = json_object_array_get_idx(jobs, i), *ts, *smp, *v, *d, *cl;
		const char *name = "job";
		char *title;

		if (json_object_object_get_ex(j, "jobname", &v))
			name = json_object_get_string(v);
		for (int op = 0; op < 2; op++) {
			const char *dir = op ? "write" : "read";
			uint64_t n = 0;
			int ret = 0;

			/* Over time: a direction with IO in its samples (gtod_reduce too). */
			title = xasprintf("%s %zu %s", name, i + 1, dir);
			if (json_object_object_get_ex(j, "time_series", &ts) &&
			    json_object_object_get_ex(ts, "samples", &smp) &&
			    json_object_object_get_ex(ts, "interval_ns", &v))
				ret = series_data(&p, smp, (double)json_object_get_int64(v) / 1e9,
						  dir, title);
			/* The CDF: a direction with latencies. */
			if (ret >= 0 && json_object_object_get_ex(j, dir, &d) &&
			    json_object_object_get_ex(d, "clat_ns", &cl) &&
			    json_object_object_get_ex(cl, "N", &v))
				n = (uint64_t)json_object_get_int64(v);
			if (ret >= 0 && n)
				ret = cdf_data(&p, cl, title);
			free(title);
			if (ret < 0)
				goto out;
		}
	}
	if (!p.ts_lines[0] && !p.cdf_lines) {
		fprintf(stderr, "blkload: plot: %s: no job with IO to draw\n", input);
		goto out;
	}
	script = xasprintf("%s/plot.gp", p.dir);
	p.gp = fopen(script, "w");
	if (!p.gp) {
		fprintf(stderr, "blkload: plot: %s: %s\n", script, strerror(errno));
		goto out;
	}
	fprintf(p.gp, "set terminal svg size 1000,600 dynamic noenhanced background rgb 'white'\n"
		"set grid\nset key outside bottom center horizontal\nset xlabel 'time (s)'\n");
	if (p.ts_lines[0]) {
		chart(&p, prefix, "iops", "IOPS over time", "IOPS", false, "[0:*]", p.ts_lines[0]);
		chart(&p, prefix, "bw", "Bandwidth over time", "MiB/s", false, "[0:*]",
		      p.ts_lines[1]);
	} else {
		fprintf(stderr, "blkload: plot: %s has no time series with IO: the CDF only\n",
			input);
	}
	if (p.ts_lines[2])
		chart(&p, prefix, "lat", "clat percentiles over time", "usec", true, "[*:*]",
		      p.ts_lines[2]);
	fprintf(p.gp, "set xlabel 'clat (usec)'\nset logscale x\n");
	if (p.cdf_lines)
		chart(&p, prefix, "cdf", "clat CDF", "fraction of IOs", false, "[0:1]",
		      p.cdf_lines);
	c = ferror(p.gp);
	if (fclose(p.gp) || c) {
		p.gp = NULL;
		fprintf(stderr, "blkload: plot: %s: cannot write\n", script);
		goto out;
	}
	p.gp = NULL;
	rc = run_gnuplot(script) ? 1 : 0;
	for (unsigned int k = 0; !rc && k < p.nout; k++)
		printf("%s\n", p.out[k]);
out:
	if (p.dir) {
		char *cmd = NULL;

		/* The data files and the script. */
		for (unsigned int i = 0; i < p.nts; i++) {
			cmd = xasprintf("%s/ts%u.dat", p.dir, i);
			unlink(cmd);
			free(cmd);
		}
		for (unsigned int i = 0; i < p.ncdf; i++) {
			cmd = xasprintf("%s/cdf%u.dat", p.dir, i);
			unlink(cmd);
			free(cmd);
		}
		if (script)
			unlink(script);
		rmdir(p.dir);
	}
	for (int k = 0; k < 3; k++)
		free(p.ts_lines[k]);
	for (unsigned int k = 0; k < p.nout; k++)
		free(p.out[k]);
	free(p.cdf_lines);
	free(script);
	free(tmpl);
	free(prefix);
	json_object_put(root);
	return rc;
}
