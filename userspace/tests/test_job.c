// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for summing jobs and reporting them (job.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "kselftest_harness.h"

#include "job.h"
#include "util.h"

/* @ios reads of @lat_ns each, a tenth of it in slat. */
static void fill(struct job *j, const char *path, uint64_t lat_ns, uint64_t ios, uint64_t elapsed)
{
	struct op_stats *op = &j->op[OP_READ];

	memset(j, 0, sizeof(*j));
	j->path = path ? xstrdup(path) : NULL;
	j->cpus = xstrdup("0");
	j->nr_cpus = 1;
	j->p.bs = 4096;
	j->elapsed = elapsed;
	j->cpu_time = elapsed / 2;
	op->ios = ios;
	op->bytes = ios * 4096;
	op->split = true;
	bl_lat_init(&op->lat);
	bl_lat_init(&op->clat);
	bl_lat_init(&op->slat);
	op->hist = xcalloc(BL_HIST_NR, sizeof(uint64_t));
	op->chist = xcalloc(BL_HIST_NR, sizeof(uint64_t));
	for (uint64_t i = 0; i < ios; i++) {
		bl_lat_add(&op->lat, lat_ns);
		bl_lat_add(&op->slat, lat_ns / 10);
		bl_lat_add(&op->clat, lat_ns - lat_ns / 10);
	}
	op->hist[bl_hist_idx(lat_ns)] = ios;
	op->chist[bl_hist_idx(lat_ns - lat_ns / 10)] = ios;
}

TEST(sum_merges_histograms)
{
	struct job a, b, sum = { 0 };

	fill(&a, "/dev/a", 1000, 900, 1000000000);
	fill(&b, "/dev/b", 100000, 100, 2000000000);
	job_sum(&sum, &a);
	job_sum(&sum, &b);
	EXPECT_EQ(1000, sum.op[OP_READ].ios);
	EXPECT_EQ(1000 * 4096, sum.op[OP_READ].bytes);
	EXPECT_EQ(1000, sum.op[OP_READ].lat.min);
	EXPECT_EQ(100000, sum.op[OP_READ].lat.max);
	EXPECT_EQ(900, sum.op[OP_READ].clat.min);
	EXPECT_EQ(10000, sum.op[OP_READ].slat.max);
	EXPECT_TRUE(sum.op[OP_READ].split);
	EXPECT_EQ(2000000000, sum.elapsed);
	EXPECT_EQ(2, sum.nr_cpus);
	/* p50 from the merged histogram is the fast device's, p95 the slow one's. */
	EXPECT_EQ(bl_hist_mid(bl_hist_idx(1000)),
		  bl_hist_percentile(sum.op[OP_READ].hist, BL_HIST_NR, 1000, 50));
	EXPECT_EQ(bl_hist_mid(bl_hist_idx(100000)),
		  bl_hist_percentile(sum.op[OP_READ].hist, BL_HIST_NR, 1000, 95));
	job_clear(&a);
	job_clear(&b);
	job_clear(&sum);
}

TEST(report_json_fio_names)
{
	double pct[] = { 50, 99.9 };
	struct report_opts ro = { .percentiles = pct, .nr_percentiles = 2, .bins = true };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out *o = out_new(f, true, false);
	struct job j;

	fill(&j, "/dev/rbd0", 250000, 4000, 2000000000);
	report_job(o, "job", &j, j.path, &ro);
	out_free(o);
	fclose(f);
	EXPECT_TRUE(strstr(buf, "\"jobname\":\"/dev/rbd0\"") != NULL);
	EXPECT_TRUE(strstr(buf, "\"iops\":2000.000000") != NULL);
	EXPECT_TRUE(strstr(buf, "\"total_ios\":4000") != NULL);
	EXPECT_TRUE(strstr(buf, "\"bw\":8000") != NULL);
	EXPECT_TRUE(strstr(buf, "\"50.000000\":") != NULL);
	EXPECT_TRUE(strstr(buf, "\"99.900000\":") != NULL);
	EXPECT_TRUE(strstr(buf, "\"mean\":250000.000000") != NULL);
	EXPECT_TRUE(strstr(buf, "\"cpu_ns_per_io\":250000.00") != NULL);
	EXPECT_TRUE(strstr(buf, "\"bins\":{\"") != NULL);
	free(buf);
	job_clear(&j);
}

TEST(names)
{
	uint32_t rw = 99;

	EXPECT_EQ(0, rw_parse("randrw", &rw));
	EXPECT_EQ(BLKLOAD_RW_RANDRW, rw);
	EXPECT_EQ(0, rw_parse("readwrite", &rw));
	EXPECT_EQ(BLKLOAD_RW_RW, rw);
	EXPECT_EQ(0, rw_parse("randtrim", &rw));
	EXPECT_EQ(BLKLOAD_RW_RANDTRIM, rw);
	EXPECT_EQ(-1, rw_parse("trimwrite", &rw));
	EXPECT_STREQ("hipri", req_name(BLKLOAD_REQ_HIPRI));
	char *req = req_names(BLKLOAD_REQ_FUA | BLKLOAD_REQ_NOWAIT);

	EXPECT_STREQ("fua nowait", req);
	free(req);
	EXPECT_STREQ("owner-gone", reason_name(BLKLOAD_REASON_OWNER_GONE));
	EXPECT_STREQ("?", state_name(77));
}

/* A sum of a rate-limited job and one without: scheduled latencies of the first only. */
TEST(sum_sched_of_rate_limited_jobs_only)
{
	struct job a, b, sum = { 0 };
	struct op_stats *op = &a.op[OP_READ];

	fill(&a, "/dev/a", 1000, 10, 1000);
	fill(&b, "/dev/b", 1000, 30, 1000);
	op->has_sched = true;
	bl_lat_init(&op->sched);
	for (int i = 0; i < 10; i++)
		bl_lat_add(&op->sched, 5000);
	op->sched_n = 10;
	op->shist = xcalloc(BL_HIST_NR, sizeof(uint64_t));
	op->shist[bl_hist_idx(5000)] = 10;
	job_sum(&sum, &b);
	job_sum(&sum, &a);
	EXPECT_TRUE(sum.op[OP_READ].has_sched);
	EXPECT_EQ(10, sum.op[OP_READ].sched_n);
	EXPECT_EQ(40, sum.op[OP_READ].ios);
	EXPECT_EQ(5000, bl_lat_min(&sum.op[OP_READ].sched));
	EXPECT_EQ(5000, (uint64_t)bl_lat_mean(&sum.op[OP_READ].sched, sum.op[OP_READ].sched_n));
	job_clear(&a);
	job_clear(&b);
	job_clear(&sum);
}

/* Latency sums are 128 bits: two sums near 2^64 carry into the high word. */
TEST(sum_carries_latency_sum)
{
	struct job a, b, sum = { 0 };

	fill(&a, "/dev/a", 1000, 10, 1000);
	fill(&b, "/dev/b", 1000, 10, 1000);
	a.op[OP_READ].lat.sum = UINT64_MAX - 5;
	b.op[OP_READ].lat.sum = 10;
	b.op[OP_READ].lat.sum_hi = 2;
	job_sum(&sum, &a);
	job_sum(&sum, &b);
	EXPECT_EQ(4, sum.op[OP_READ].lat.sum);
	EXPECT_EQ(3, sum.op[OP_READ].lat.sum_hi);
	job_clear(&a);
	job_clear(&b);
	job_clear(&sum);
}

/* The squares are exact in 128 bits, whatever the size of the value. */
TEST(lat_square_is_exact)
{
	uint64_t v[] = { 0, 1, 0xffffffffULL, 0x100000000ULL, 0x123456789abcdefULL,
			 UINT64_MAX, 1ULL << 63, 3000000000ULL };

	for (unsigned int i = 0; i < ARRAY_SIZE(v); i++) {
		unsigned __int128 want = (unsigned __int128)v[i] * v[i];
		uint64_t lo, hi;

		bl_lat_square(v[i], &lo, &hi);
		EXPECT_EQ((uint64_t)want, lo);
		EXPECT_EQ((uint64_t)(want >> 64), hi);
	}
}

/* mean and stddev as fio's (sample, n - 1), from sums that pass 2^64. */
TEST(lat_mean_stddev)
{
	struct bl_lat l, m;

	bl_lat_init(&l);
	EXPECT_EQ(0, bl_lat_min(&l));
	EXPECT_EQ(0, bl_lat_stddev(&l, 0));
	bl_lat_add(&l, 1000);
	bl_lat_add(&l, 3000);
	EXPECT_EQ(1000, l.min);
	EXPECT_EQ(3000, l.max);
	EXPECT_EQ(2000, bl_lat_mean(&l, 2));
	EXPECT_TRUE(fabs(bl_lat_stddev(&l, 2) - 1414.2135623) < 1e-6);
	/* 5 s samples: each square is 2.5e19 > 2^64. */
	bl_lat_init(&m);
	for (int i = 0; i < 1000; i++)
		bl_lat_add(&m, i % 2 ? 5000000000ULL : 5000001000ULL);
	EXPECT_NE(0, m.sq_hi);
	EXPECT_TRUE(fabs(bl_lat_mean(&m, 1000) - 5000000500.0) < 1e-3);
	/*
	 * Half at +-500 around the mean: sqrt(1000 * 500^2 / 999). The sums are
	 * exact; the long double division leaves ~1e-5 of a spread this narrow
	 * (1e-7 of the mean), far below a nanosecond.
	 */
	EXPECT_TRUE(fabs(bl_lat_stddev(&m, 1000) - 500.25018764) < 0.05);
	bl_lat_merge(&l, &m);
	EXPECT_EQ(1000, l.min);
	EXPECT_EQ(5000001000ULL, l.max);
}

TEST(depth_levels)
{
	EXPECT_EQ(0, bl_depth_idx(0));
	EXPECT_EQ(0, bl_depth_idx(1));
	EXPECT_EQ(1, bl_depth_idx(2));
	EXPECT_EQ(1, bl_depth_idx(3));
	EXPECT_EQ(2, bl_depth_idx(4));
	EXPECT_EQ(5, bl_depth_idx(63));
	EXPECT_EQ(6, bl_depth_idx(64));
	EXPECT_EQ(6, bl_depth_idx(100000));
}

static char *report(struct job *j, bool json, const struct report_opts *ro)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len), *saved = stdout;
	struct out *o;

	stdout = f;
	o = out_new(f, json, false);
	report_job(o, json ? "job" : NULL, j, j->path, ro);
	out_free(o);
	stdout = saved;
	fclose(f);
	return buf;
}

/* fio's keys, where fio's consumers look for them. */
TEST(report_json_fio_objects)
{
	double pct[] = { 50, 99 };
	struct report_opts ro = { .percentiles = pct, .nr_percentiles = 2, .bins = true };
	struct optlist opts = { 0 };
	struct json_object *root, *d, *r, *v;
	struct job j;
	char *buf;

	fill(&j, "/dev/nullb0", 250000, 4000, 2600000000ULL);
	j.depth_ns[5] = 3000;
	j.depth_ns[0] = 1000;
	optlist_set(&opts, "rw", "randread");
	optlist_set(&opts, "iodepth", "32");
	j.opts = &opts;
	buf = report(&j, true, &ro);
	root = json_tokener_parse(buf);
	ASSERT_NE(NULL, root);
	ASSERT_TRUE(json_object_object_get_ex(root, "job", &d));
	EXPECT_EQ(3, json_object_get_int(json_object_object_get(d, "elapsed")));
	EXPECT_EQ(2600, json_object_get_int(json_object_object_get(d, "job_runtime")));
	v = json_object_object_get(d, "job options");
	EXPECT_STREQ("32", json_object_get_string(json_object_object_get(v, "iodepth")));
	r = json_object_object_get(d, "read");
	v = json_object_object_get(r, "clat_ns");
	EXPECT_EQ(225000, json_object_get_int(json_object_object_get(v, "min")));
	EXPECT_EQ(4000, json_object_get_int(json_object_object_get(v, "N")));
	EXPECT_EQ(0, json_object_get_double(json_object_object_get(v, "stddev")));
	EXPECT_NE(NULL, json_object_object_get(json_object_object_get(v, "percentile"), "99.000000"));
	EXPECT_NE(NULL, json_object_object_get(v, "bins"));
	v = json_object_object_get(r, "slat_ns");
	EXPECT_EQ(25000, json_object_get_int(json_object_object_get(v, "max")));
	v = json_object_object_get(r, "lat_ns");
	EXPECT_EQ(250000, json_object_get_double(json_object_object_get(v, "mean")));
	EXPECT_NE(NULL, json_object_object_get(v, "bins"));
	v = json_object_object_get(json_object_object_get(d, "trim"), "clat_ns");
	EXPECT_EQ(0, json_object_get_int(json_object_object_get(v, "N")));
	v = json_object_object_get(json_object_object_get(d, "sync"), "lat_ns");
	EXPECT_NE(NULL, v);
	v = json_object_object_get(d, "iodepth_level");
	EXPECT_EQ(75, json_object_get_double(json_object_object_get(v, "32")));
	EXPECT_EQ(25, json_object_get_double(json_object_object_get(v, "1")));
	EXPECT_EQ(0, json_object_get_double(json_object_object_get(v, ">=64")));
	/* fio's shares are of clat (225 us): its "250" bucket, [100, 250) us. */
	v = json_object_object_get(d, "latency_us");
	EXPECT_EQ(100, json_object_get_double(json_object_object_get(v, "250")));
	EXPECT_EQ(0, json_object_get_double(json_object_object_get(v, "500")));
	EXPECT_NE(NULL, json_object_object_get(json_object_object_get(d, "latency_ms"),
					       ">=2000"));
	json_object_put(root);
	free(buf);
	optlist_free(&opts);
	job_clear(&j);
}

/* The text report, line by line, as fio lays it out. */
TEST(report_text_like_fio)
{
	double pct[] = { 1, 50, 99, 99.9, 99.99 };
	struct report_opts ro = { .percentiles = pct, .nr_percentiles = 5 };
	struct job j;
	char *buf, *line, *save = NULL;
	const char *want[] = {
		"/dev/nullb0: (groupid=0, jobs=1): err= 0: job 7 on /dev/nullb0, rw=randread, bs=4096, iodepth=32, cpus=0: done (runtime)",
		"  read: IOPS=20.0k, BW=78.1MiB/s (81.9MB/s)(156MiB/2000msec)",
		"    slat (nsec): min=5000, max=5000, avg=5000.00, stdev=0.00",
		"    clat (usec): min=45, max=45, avg=45.00, stdev=0.00",
		"     lat (usec): min=50, max=50, avg=50.00, stdev=0.00",
		"    clat percentiles (usec):",
		"     |  1.00th=[45], 50.00th=[45], 99.00th=[45], 99.90th=[45],",
		"     | 99.99th=[45]",
		"     lat percentiles (usec):",
		"     |  1.00th=[50], 50.00th=[50], 99.00th=[50], 99.90th=[50],",
		"     | 99.99th=[50]",
		/* Of clat, 45 us: fio's "50" bucket, [20, 50) us. */
		"  lat (usec)   : 50=100.00%",
		"  cpu          : usr=0.00%, sys=50.00%, ctx=0, 25000 ns/IO on 1 queues",
		"  IO depths    : 1=0.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=100.0%, >=64=0.0%",
		"     issued rwts: total=40000,0,0,0 short=0,0,0,0 dropped=0,0,0,0",
	};
	unsigned int i = 0;

	fill(&j, "/dev/nullb0", 50000, 40000, 2000000000ULL);
	j.id = 7;
	j.p.iodepth = 32;
	j.p.rw = BLKLOAD_RW_RANDREAD;
	j.state = BLKLOAD_STATE_DONE;
	j.reason = BLKLOAD_REASON_RUNTIME;
	j.depth_ns[5] = 1;
	buf = report(&j, false, &ro);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		ASSERT_LT(i, ARRAY_SIZE(want));
		EXPECT_STREQ(want[i], line);
		i++;
	}
	EXPECT_EQ(ARRAY_SIZE(want), i);
	free(buf);
	job_clear(&j);
}

TEST_HARNESS_MAIN
