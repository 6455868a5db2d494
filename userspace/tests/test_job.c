// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for summing jobs and reporting them (job.c).
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "job.h"
#include "util.h"

static void fill(struct job *j, const char *path, uint64_t lat_ns, uint64_t ios, uint64_t elapsed)
{
	memset(j, 0, sizeof(*j));
	j->path = path ? xstrdup(path) : NULL;
	j->cpus = xstrdup("0");
	j->nr_cpus = 1;
	j->bs = 4096;
	j->elapsed = elapsed;
	j->cpu_time = elapsed / 2;
	j->op[OP_READ].ios = ios;
	j->op[OP_READ].bytes = ios * 4096;
	j->op[OP_READ].lat_min = lat_ns;
	j->op[OP_READ].lat_max = lat_ns;
	j->op[OP_READ].lat_sum = lat_ns * ios;
	j->op[OP_READ].hist = xcalloc(BL_HIST_NR, sizeof(uint64_t));
	j->op[OP_READ].hist[bl_hist_idx(lat_ns)] = ios;
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
	EXPECT_EQ(1000, sum.op[OP_READ].lat_min);
	EXPECT_EQ(100000, sum.op[OP_READ].lat_max);
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
	EXPECT_EQ(-1, rw_parse("trim", &rw));
	EXPECT_STREQ("owner-gone", reason_name(BLKLOAD_REASON_OWNER_GONE));
	EXPECT_STREQ("?", state_name(77));
}

/* Latency sums are 128 bits: two sums near 2^64 carry into the high word. */
TEST(sum_carries_latency_sum)
{
	struct job a, b, sum = { 0 };

	fill(&a, "/dev/a", 1000, 10, 1000);
	fill(&b, "/dev/b", 1000, 10, 1000);
	a.op[OP_READ].lat_sum = UINT64_MAX - 5;
	b.op[OP_READ].lat_sum = 10;
	b.op[OP_READ].lat_sum_hi = 2;
	job_sum(&sum, &a);
	job_sum(&sum, &b);
	EXPECT_EQ(4, sum.op[OP_READ].lat_sum);
	EXPECT_EQ(3, sum.op[OP_READ].lat_sum_hi);
	job_clear(&a);
	job_clear(&b);
	job_clear(&sum);
}

TEST_HARNESS_MAIN
