// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for compare and diff: the t / Welch / interval arithmetic
 * against values computed independently (numerical integration of the t
 * density, not GSL), the run order's rules, the collection of run reports,
 * the JSON round trip, the tables, and diff's verdicts on fixed inputs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "kselftest_harness.h"

#include <blkload/hist.h>

#include "cmpres.h"
#include "stats.h"
#include "util.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

TEST(t_quantiles)
{
	/* Textbook two-sided 95% quantiles. */
	EXPECT_TRUE(NEAR(t_quantile(0.95, 1), 12.7062047, 1e-6));
	EXPECT_TRUE(NEAR(t_quantile(0.95, 2), 4.3026527, 1e-6));
	EXPECT_TRUE(NEAR(t_quantile(0.95, 4), 2.7764451, 1e-6));
	EXPECT_TRUE(NEAR(t_quantile(0.95, 10), 2.2281389, 1e-6));
	EXPECT_TRUE(NEAR(t_quantile(0.95, 1e9), 1.9599640, 1e-6));
	/* A fractional df (Welch's) by integration: 2.380366 at 6.778671. */
	EXPECT_TRUE(NEAR(t_quantile(0.95, 6.778671052538062), 2.3803658, 1e-5));
}

TEST(sample_interval)
{
	const double a[] = { 20.1, 22.3, 19.8, 21.5, 20.9 };
	const double one[] = { 7 };
	struct sample_stats s;

	sample_stats(a, 5, 0.95, &s);
	EXPECT_EQ(5, s.n);
	EXPECT_TRUE(NEAR(s.mean, 20.92, 1e-9));
	EXPECT_TRUE(NEAR(s.sd, 1.0207840124139873, 1e-9));
	EXPECT_TRUE(NEAR(s.ci_half, 1.267470758, 1e-6));
	EXPECT_TRUE(s.has_ci);
	sample_stats(one, 1, 0.95, &s);
	EXPECT_EQ(7, s.mean);
	EXPECT_FALSE(s.has_ci);
	EXPECT_EQ(0, s.sd);
	sample_stats(NULL, 0, 0.95, &s);
	EXPECT_EQ(0, s.n);
}

TEST(welch_known)
{
	const double a[] = { 20.1, 22.3, 19.8, 21.5, 20.9 }, b[] = { 23.4, 24.1, 22.8, 25.0 };
	const double c[] = { 5, 5, 5 }, d[] = { 6, 6, 6 };
	struct sample_stats sa, sb, sc, sd;
	struct welch w;

	sample_stats(a, 5, 0.95, &sa);
	sample_stats(b, 4, 0.95, &sb);
	welch_test(&sa, &sb, 0.95, &w);
	ASSERT_TRUE(w.valid);
	EXPECT_TRUE(NEAR(w.diff, 2.905, 1e-9));
	EXPECT_TRUE(NEAR(w.t, 4.417984823899638, 1e-9));
	EXPECT_TRUE(NEAR(w.df, 6.778671052538062, 1e-9));
	/* p by integrating the t density: 0.00333893. */
	EXPECT_TRUE(NEAR(w.p, 0.0033389284601578, 1e-8));
	EXPECT_TRUE(NEAR(w.ci_half, 2.3803658610 * w.se, 1e-5));
	/* Symmetric: the other way round, the same p and the opposite t. */
	welch_test(&sb, &sa, 0.95, &w);
	EXPECT_TRUE(NEAR(w.t, -4.417984823899638, 1e-9));
	EXPECT_TRUE(NEAR(w.p, 0.0033389284601578, 1e-8));
	/* No variance: certain when the means differ, nothing when equal. */
	sample_stats(c, 3, 0.95, &sc);
	sample_stats(d, 3, 0.95, &sd);
	welch_test(&sc, &sd, 0.95, &w);
	EXPECT_TRUE(w.valid);
	EXPECT_EQ(0, w.p);
	welch_test(&sc, &sc, 0.95, &w);
	EXPECT_EQ(1, w.p);
	/* One run: no test. */
	sample_stats(a, 1, 0.95, &sa);
	welch_test(&sa, &sb, 0.95, &w);
	EXPECT_FALSE(w.valid);
}

static void matrix(struct cmp_result *r, unsigned int ncells, unsigned int npaths,
		   unsigned int repeat)
{
	static const char *const names[] = { "kernel", "io_uring", "libaio", "librbd" };

	memset(r, 0, sizeof(*r));
	r->ncells = ncells;
	r->cells = xcalloc(ncells, sizeof(*r->cells));
	for (unsigned int c = 0; c < ncells; c++) {
		r->cells[c].rw = xstrdup(c % 2 ? "randwrite" : "randread");
		r->cells[c].bs = 4096;
		r->cells[c].iodepth = 1U << (c / 2);
	}
	r->npaths = npaths;
	r->paths = xcalloc(npaths, sizeof(char *));
	for (unsigned int p = 0; p < npaths; p++)
		r->paths[p] = xstrdup(names[p]);
	r->baseline = (int)npaths - 1;
	r->ntargets = 2;
	r->targets = xcalloc(2, sizeof(char *));
	r->targets[0] = xstrdup("rbd/img0");
	r->targets[1] = xstrdup("rbd/img1");
	r->repeat = repeat;
	cmp_alloc(r);
}

/* Every rule of the order, on several matrix shapes and seeds. */
TEST(order_rules)
{
	static const unsigned int shapes[][3] = {
		{ 1, 4, 3 }, { 2, 4, 2 }, { 3, 4, 5 }, { 18, 4, 3 }, { 2, 1, 4 }, { 1, 1, 3 },
	};

	for (size_t s = 0; s < ARRAY_SIZE(shapes); s++) {
		for (uint64_t seed = 1; seed < 6; seed++) {
			struct cmp_result r;
			unsigned int units = shapes[s][0] * shapes[s][1], first_diff = 0;

			matrix(&r, shapes[s][0], shapes[s][1], shapes[s][2]);
			cmp_plan(&r, seed);
			ASSERT_EQ(units * shapes[s][2], r.nruns);
			for (unsigned int round = 0; round < r.repeat; round++) {
				unsigned int *seen = xcalloc(units, sizeof(*seen));

				for (unsigned int i = 0; i < units; i++) {
					const struct cmp_run *x = &r.runs[round * units + i];

					EXPECT_EQ(round, x->round);
					seen[x->cell * r.npaths + x->path]++;
					if (round && r.runs[i].cell * r.npaths + r.runs[i].path !=
					    x->cell * r.npaths + x->path)
						first_diff++;
				}
				/* Every (cell, path) exactly once per round. */
				for (unsigned int u = 0; u < units; u++)
					EXPECT_EQ(1, seen[u]);
				free(seen);
			}
			for (unsigned int i = 1; i < r.nruns; i++) {
				const struct cmp_run *a = &r.runs[i - 1], *b = &r.runs[i];

				/* Never the same run twice in a row (when there are two). */
				if (units > 1)
					EXPECT_FALSE(a->cell == b->cell && a->path == b->path);
				/* Never the same cell twice in a row when two or more. */
				if (r.ncells > 1)
					EXPECT_NE(a->cell, b->cell);
			}
			if (r.ncells > 1)
				EXPECT_EQ(0, r.same_cell_adjacent);
			/* A fresh order each round (for more than one unit). */
			if (units > 2 && r.repeat > 1)
				EXPECT_GT(first_diff, 0);
			cmp_free(&r);
		}
	}
}

TEST(order_reproducible)
{
	struct cmp_result a, b, c;
	bool differ = false;

	matrix(&a, 6, 4, 3);
	matrix(&b, 6, 4, 3);
	matrix(&c, 6, 4, 3);
	cmp_plan(&a, 42);
	cmp_plan(&b, 42);
	cmp_plan(&c, 43);
	for (unsigned int i = 0; i < a.nruns; i++) {
		EXPECT_EQ(a.runs[i].cell, b.runs[i].cell);
		EXPECT_EQ(a.runs[i].path, b.runs[i].path);
		differ |= a.runs[i].cell != c.runs[i].cell || a.runs[i].path != c.runs[i].path;
	}
	EXPECT_TRUE(differ);
	cmp_free(&a);
	cmp_free(&b);
	cmp_free(&c);
}

/* A run report as "blkload --output-format=json+ run" prints it, reduced. */
static struct json_object *report_why(double iops0, double iops1, uint64_t lat_ns, uint64_t n,
				      double cpu_us, const char *why)
{
	char *s = xasprintf(
		"{\"jobs\":[{\"done_reason\":\"runtime\",\"read\":{\"iops\":%f},\"write\":{\"iops\":0}},"
		"{\"done_reason\":\"%s\",\"read\":{\"iops\":%f},\"write\":{\"iops\":0}}],"
		"\"all_jobs\":{\"read\":{\"iops\":%f,\"total_ios\":%llu,\"lat_ns\":{\"bins\":{\"%llu\":%llu}}},"
		"\"write\":{\"iops\":0,\"total_ios\":0}},"
		"\"client_cpu\":{\"cpu_us_per_io\":%f,\"user\":0.5,\"nice\":0,\"system\":1.5,\"irq\":0.1,\"softirq\":0.2}}",
		iops0, why, iops1, iops0 + iops1, (unsigned long long)n, (unsigned long long)lat_ns,
		(unsigned long long)n, cpu_us);
	struct json_object *o = json_tokener_parse(s);

	free(s);
	return o;
}

static struct json_object *report(double iops0, double iops1, uint64_t lat_ns, uint64_t n,
				  double cpu_us)
{
	return report_why(iops0, iops1, lat_ns, n, cpu_us, "runtime");
}

static void fill(struct cmp_result *r, double scale)
{
	for (unsigned int c = 0; c < r->ncells; c++)
		for (unsigned int p = 0; p < r->npaths; p++)
			for (unsigned int k = 0; k < 3; k++) {
				struct json_object *o;
				double iops;

				/* Path p at (p + 1) x 1000 IOPS +- 10, latency (p+1) x 100 us. */
				o = report(scale * (500 * (p + 1) + 5 * k), 500 * (p + 1) + 5 * k,
					   (p + 1) * 100000, 1000, 10 + p);
				cmp_add_run(r, c, p, o, &iops);
				json_object_put(o);
			}
}

TEST(collect_and_derive)
{
	struct cmp_result r;
	const struct cmp_entry *e, *base;
	double iops;
	struct json_object *bad = json_tokener_parse("{\"jobs\":1}");

	matrix(&r, 2, 4, 3);
	fill(&r, 1.0);
	EXPECT_EQ(-1, cmp_add_run(&r, 0, 0, bad, &iops));
	json_object_put(bad);
	/* A run one of whose jobs was stopped, not ended by its runtime: refused. */
	bad = report_why(100, 100, 1000, 10, 1, "stopped");
	EXPECT_EQ(-1, cmp_add_run(&r, 0, 0, bad, &iops));
	json_object_put(bad);
	/* One job for two targets; no client CPU: refused. */
	bad = json_tokener_parse("{\"jobs\":[{\"done_reason\":\"runtime\"}],\"all_jobs\":{},\"client_cpu\":{}}");
	EXPECT_EQ(-1, cmp_add_run(&r, 0, 0, bad, &iops));
	json_object_put(bad);
	bad = json_tokener_parse("{\"jobs\":[{\"done_reason\":\"runtime\"},{\"done_reason\":\"runtime\"}],\"all_jobs\":{}}");
	EXPECT_EQ(-1, cmp_add_run(&r, 0, 0, bad, &iops));
	json_object_put(bad);
	cmp_derive(&r);
	e = cmp_at(&r, 1, 0);
	base = cmp_at(&r, 1, 3);
	EXPECT_EQ(3, e->n);
	EXPECT_TRUE(NEAR(e->s.mean, 1010, 1e-9));	/* 2 x (500 + 5) */
	EXPECT_TRUE(NEAR(e->s.sd, 10, 1e-9));
	EXPECT_TRUE(NEAR(e->s.ci_half, 4.3026527 * 10 / sqrt(3), 1e-5));
	/* Per target: the mean over repetitions. */
	EXPECT_TRUE(NEAR(e->target_iops[0] / 3, 505, 1e-9));
	/* Percentiles from the merged histogram: all in one bucket. */
	EXPECT_EQ(3000, e->hist_n);
	EXPECT_EQ(bl_hist_mid(bl_hist_idx(100000)), e->p50);
	EXPECT_EQ(bl_hist_mid(bl_hist_idx(100000)), e->p999);
	EXPECT_TRUE(NEAR(e->cpu.mean, 10, 1e-9));
	EXPECT_TRUE(NEAR(e->cpu_split[2], 4.5, 1e-9));
	/* kernel at ~1010 against librbd at ~4010: ratio, significant. */
	EXPECT_TRUE(NEAR(base->s.mean, 4010, 1e-9));
	EXPECT_TRUE(e->has_ratio);
	EXPECT_TRUE(NEAR(e->ratio, 1010.0 / 4010.0, 1e-9));
	EXPECT_TRUE(e->significant);
	EXPECT_FALSE(base->significant);
	/* Geometric mean over the two cells (equal ratios here). */
	EXPECT_TRUE(NEAR(r.avg_ratio[0], 1010.0 / 4010.0, 1e-9));
	EXPECT_EQ(2, r.avg_cells[0]);
	cmp_free(&r);
}

TEST(json_round_trip_and_tables)
{
	char dir[] = "/tmp/blkload-cmp-XXXXXX", *file, *buf = NULL;
	struct cmp_result r, back;
	size_t len = 0;
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	file = xasprintf("%s/results.json", dir);
	matrix(&r, 2, 4, 3);
	r.version = xstrdup("blkload-test");
	r.host = xstrdup("h");
	fill(&r, 1.0);
	cmp_plan(&r, 7);
	for (unsigned int i = 0; i < r.nruns; i++)
		r.runs[i].status = 0;
	cmp_derive(&r);
	ASSERT_EQ(0, cmp_write_json(&r, file));
	ASSERT_EQ(0, cmp_read_json(&back, file));
	ASSERT_EQ(r.ncells, back.ncells);
	ASSERT_EQ(r.npaths, back.npaths);
	EXPECT_EQ(r.baseline, back.baseline);
	EXPECT_EQ(2, back.ntargets);
	for (unsigned int c = 0; c < r.ncells; c++)
		for (unsigned int p = 0; p < r.npaths; p++) {
			const struct cmp_entry *x = cmp_at(&r, c, p), *y = cmp_at(&back, c, p);

			EXPECT_EQ(x->n, y->n);
			EXPECT_TRUE(NEAR(x->s.mean, y->s.mean, 1e-6));
			EXPECT_TRUE(NEAR(x->s.ci_half, y->s.ci_half, 1e-6));
			EXPECT_EQ(x->hist_n, y->hist_n);
			EXPECT_EQ(x->p99, y->p99);
			EXPECT_EQ(x->significant, y->significant);
			EXPECT_TRUE(NEAR(x->target_iops[1], y->target_iops[1], 1e-6));
		}
	/* The order is in the file, every run. */
	{
		struct json_object *root = json_object_from_file(file), *order;

		ASSERT_TRUE(json_object_object_get_ex(root, "order", &order));
		EXPECT_EQ(r.nruns, json_object_array_length(order));
		json_object_put(root);
	}
	/* Markdown: a header, a separator, a row per cell and path, the summary. */
	f = open_memstream(&buf, &len);
	cmp_write_md(&r, f);
	fclose(f);
	EXPECT_NE(NULL, strstr(buf, "| randwrite | 4k | 1 | kernel | 1010 | 25 | 10 | 3 |"));
	EXPECT_NE(NULL, strstr(buf, "vs librbd"));
	EXPECT_NE(NULL, strstr(buf, "kernel/librbd 0.25x over 2 cells"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	cmp_write_csv(&r, f);
	fclose(f);
	{
		int lines = 0;

		for (char *p = buf; *p; p++)
			lines += *p == '\n';
		EXPECT_EQ(1 + 2 * 4, lines);
	}
	EXPECT_NE(NULL, strstr(buf, "randread,4096,1,kernel,3,1010.000,10.000,"));
	free(buf);
	/* Not a compare result: refused. */
	f = fopen(file, "w");
	fputs("{\"jobs\":[]}", f);
	fclose(f);
	{
		struct cmp_result junk;

		EXPECT_EQ(-1, cmp_read_json(&junk, file));
		cmp_free(&junk);
	}
	unlink(file);
	free(file);
	cmp_free(&back);
	cmp_free(&r);
	rmdir(dir);
}

static void entry(struct cmp_entry *e, const double *v, size_t n)
{
	memset(e, 0, sizeof(*e));
	e->n = n;
	e->iops = (double *)v;
	sample_stats(v, n, CMP_LEVEL, &e->s);
}

TEST(diff_verdicts)
{
	const double a[] = { 1000, 1010, 990, 1005 };
	const double down[] = { 900, 905, 895, 910 };	/* -9.7%, significant */
	const double up[] = { 1100, 1110, 1090, 1105 };
	const double slight[] = { 990, 1000, 985, 995 };	/* -1%, small */
	const double noisy[] = { 500, 1500, 800, 1000 };	/* -5%, not significant */
	struct cmp_entry ea, eb;
	struct cmp_change ch;

	entry(&ea, a, 4);
	entry(&eb, down, 4);
	cmp_change(&ea, &eb, 5, &ch);
	EXPECT_EQ(CMP_REGRESSION, ch.verdict);
	EXPECT_TRUE(NEAR(ch.pct, (902.5 / 1001.25 - 1) * 100, 1e-9));
	EXPECT_TRUE(ch.significant);
	EXPECT_GT(ch.ci_pct, 0);
	/* Beyond a threshold of 10%: not counted. */
	cmp_change(&ea, &eb, 10, &ch);
	EXPECT_EQ(CMP_NO_CHANGE, ch.verdict);
	entry(&eb, up, 4);
	cmp_change(&ea, &eb, 5, &ch);
	EXPECT_EQ(CMP_IMPROVEMENT, ch.verdict);
	entry(&eb, slight, 4);
	cmp_change(&ea, &eb, 5, &ch);
	EXPECT_EQ(CMP_NO_CHANGE, ch.verdict);
	entry(&eb, noisy, 4);
	cmp_change(&ea, &eb, 1, &ch);
	EXPECT_FALSE(ch.significant);
	EXPECT_EQ(CMP_NO_CHANGE, ch.verdict);
	entry(&eb, down, 1);
	cmp_change(&ea, &eb, 5, &ch);
	EXPECT_EQ(CMP_UNKNOWN, ch.verdict);
}

/* Holm's adjustment against values worked by hand. */
TEST(holm)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005 };

	holm_adjust(p, 4);
	/* Sorted 0.005 0.01 0.03 0.04 -> x4 x3 x2 x1, running max. */
	EXPECT_TRUE(NEAR(p[3], 0.02, 1e-12));
	EXPECT_TRUE(NEAR(p[0], 0.03, 1e-12));
	EXPECT_TRUE(NEAR(p[2], 0.06, 1e-12));
	EXPECT_TRUE(NEAR(p[1], 0.06, 1e-12));
	holm_adjust(p, 0);
}

/* Damaged result files are refused or read without a crash. */
TEST(malformed_results)
{
	static const char *const docs[] = {
		"[]",
		"{\"kind\":\"blkload-compare\"}",
		"{\"kind\":\"blkload-compare\",\"cells\":[1]}",
		"{\"kind\":\"blkload-compare\",\"paths\":[\"kernel\"],\"targets\":[\"a\"],"
		"\"cells\":[{\"rw\":\"randread\",\"bs\":4096,\"iodepth\":1,\"paths\":{\"kernel\":"
		"{\"iops\":[1,2],\"lat_bins\":[1,2],\"per_target\":{},\"cpu_us_per_io\":[1]}}}]}",
		"{\"kind\":\"blkload-compare\",\"paths\":{},\"targets\":7,\"cells\":[{\"paths\":[]}]}",
	};
	static const int ok[] = { -1, -1, -1, 0, 0 };
	char name[] = "/tmp/blkload-bad-XXXXXX";
	int fd = mkstemp(name);

	ASSERT_GE(fd, 0);
	close(fd);
	for (size_t i = 0; i < ARRAY_SIZE(docs); i++) {
		struct cmp_result r;
		FILE *f = fopen(name, "w");

		fputs(docs[i], f);
		fclose(f);
		EXPECT_EQ(ok[i], cmp_read_json(&r, name));
		if (!ok[i] && r.ncells && r.npaths) {
			/* The runs are read; the bad CPU array is dropped, not padded. */
			EXPECT_EQ(2, cmp_at(&r, 0, 0)->n);
			EXPECT_EQ(0, cmp_at(&r, 0, 0)->ncpu);
		}
		cmp_free(&r);
	}
	unlink(name);
}

TEST(bs_names)
{
	char *s;

	s = cmp_bs_name(4096);
	EXPECT_STREQ("4k", s);
	free(s);
	s = cmp_bs_name(4 << 20);
	EXPECT_STREQ("4m", s);
	free(s);
	s = cmp_bs_name(65536);
	EXPECT_STREQ("64k", s);
	free(s);
	s = cmp_bs_name(512);
	EXPECT_STREQ("512", s);
	free(s);
}

TEST_HARNESS_MAIN
