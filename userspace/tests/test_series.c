// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the time series (series.c over include/blkload/sample.h):
 * what a sample takes from cumulative counters, compact storage, merging,
 * spans after lost samples, statistics over full intervals, log windows,
 * percentiles, and the fold of a last sample that is not later than the
 * one before it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include <blkload/queue.h>

#include "job.h"
#include "series.h"
#include "util.h"

#define MS 1000000ULL

/* A sample at @t_ms with @ios reads of 4 KiB, each @lat_ns of clat. */
static void mk(struct bl_sample *s, uint64_t t_ms, uint64_t ios, uint64_t lat_ns)
{
	memset(s, 0, sizeof(*s));
	s->t = t_ms * MS;
	s->op[0].ios = ios;
	s->op[0].bytes = ios * 4096;
	s->op[0].clat = ios * lat_ns;
	s->op[0].lat = ios * lat_ns;
	s->chist[0][bl_hist_idx(lat_ns) >> BL_SHIST_SHIFT] = (uint32_t)ios;
}

TEST(take_is_the_difference_of_counters)
{
	uint64_t *hist = calloc(BL_HIST_NR, sizeof(*hist));
	struct bl_sampler_op sp = { 0 };
	struct bl_sample_op cum = { 0 }, out;
	uint32_t *coarse = calloc(BL_SHIST_NR, sizeof(*coarse));

	cum.ios = 10;
	cum.bytes = 40960;
	cum.clat = 1000;
	hist[bl_hist_idx(100)] = 10;
	bl_sample_op_take(&out, coarse, &sp, &cum, hist, 1);
	EXPECT_EQ(10, out.ios);
	EXPECT_EQ(10, coarse[bl_hist_idx(100) >> BL_SHIST_SHIFT]);
	cum.ios = 15;
	cum.bytes = 61440;
	cum.clat = 1500;
	hist[bl_hist_idx(100)] = 12;
	hist[bl_hist_idx(100000)] = 3;
	bl_sample_op_take(&out, coarse, &sp, &cum, hist, 1);
	EXPECT_EQ(5, out.ios);
	EXPECT_EQ(20480, out.bytes);
	EXPECT_EQ(500, out.clat);
	EXPECT_EQ(2, coarse[bl_hist_idx(100) >> BL_SHIST_SHIFT]);
	EXPECT_EQ(3, coarse[bl_hist_idx(100000) >> BL_SHIST_SHIFT]);
	/* A coarse bucket's midpoint is within 1/32 of the values it holds. */
	for (unsigned int j = 32; j < BL_SHIST_NR - 1; j++) {
		double lo = (double)bl_shist_lo(j), hi = (double)bl_shist_lo(j + 1);
		double mid = (double)bl_shist_mid(j);

		ASSERT_TRUE(mid >= lo && mid < hi);
		ASSERT_TRUE((hi - lo) / 2 <= mid / 31.0);
	}
	free(hist);
	free(coarse);
}

/*
 * A queue's live histograms, interleaved: read apart, the lat one and the
 * clat one each get their own buckets, and a sample takes the clat one.
 */
TEST(live_histograms_read_apart)
{
	struct bl_op_live *st = calloc(1, sizeof(*st));
	struct bl_op_stats *out = calloc(1, sizeof(*out));
	struct bl_sampler_op sp = { 0 };
	struct bl_sample_op cum = { .ios = 7 }, one;
	uint32_t *coarse = calloc(BL_SHIST_NR, sizeof(*coarse));
	unsigned int lat = bl_hist_idx(2000000), clat = bl_hist_idx(50000);

	ASSERT_TRUE(st && out && coarse);
	st->ios = 7;
	st->devlat_n = 3;
	st->h[lat][0] = 7;
	st->h[clat][1] = 7;
	st->h[BL_HIST_NR - 1][1] = 1;
	bl_op_live_read(st, out, true);
	EXPECT_EQ(7, out->ios);
	EXPECT_EQ(3, out->devlat_n);
	EXPECT_EQ(7, out->hist[lat]);
	EXPECT_EQ(0, out->hist[clat]);
	EXPECT_EQ(7, out->chist[clat]);
	EXPECT_EQ(0, out->chist[lat]);
	EXPECT_EQ(1, out->chist[BL_HIST_NR - 1]);
	bl_sample_op_take(&one, coarse, &sp, &cum, (const uint64_t *)st->h + 1, 2);
	EXPECT_EQ(7, coarse[clat >> BL_SHIST_SHIFT]);
	EXPECT_EQ(0, coarse[lat >> BL_SHIST_SHIFT]);
	EXPECT_EQ(1, coarse[BL_SHIST_NR - 1]);
	free(st);
	free(out);
	free(coarse);
}

TEST(compact_storage_round_trips_and_merges)
{
	struct series se = { .interval = 100 * MS }, other = { .interval = 100 * MS };
	struct bl_sample *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));

	mk(a, 100, 50, 80000);
	a->chist[0][7] = 1;			/* a run with a hole */
	series_add(&se, 0, a);
	series_get(&se, 0, b);
	EXPECT_EQ(0, memcmp(a, b, sizeof(*a)));
	/* Kept: the run from bucket 7 to the last non-empty one only. */
	EXPECT_EQ(7, se.e[0].first[0]);
	EXPECT_EQ(0, se.e[0].len[1]);
	/* Another queue's sample 0 adds up; its time is the latest. */
	mk(b, 101, 30, 80000);
	series_add(&se, 0, b);
	series_get(&se, 0, b);
	EXPECT_EQ(80, b->op[0].ios);
	EXPECT_EQ(101 * MS, b->t);
	EXPECT_EQ(80, b->chist[0][bl_hist_idx(80000) >> BL_SHIST_SHIFT]);
	/* Out of order: kept sorted. */
	mk(a, 300, 5, 1000);
	series_add(&se, 2, a);
	mk(a, 200, 5, 1000);
	series_add(&other, 1, a);
	series_merge(&se, &other);
	ASSERT_EQ(3, se.nr);
	EXPECT_EQ(0, se.idx[0]);
	EXPECT_EQ(1, se.idx[1]);
	EXPECT_EQ(2, se.idx[2]);
	series_free(&se);
	series_free(&other);
	free(a);
	free(b);
}

TEST(spans_after_lost_samples_and_stats_over_full_intervals)
{
	struct series se = { .interval = 100 * MS };
	struct bl_sample *s = calloc(1, sizeof(*s));
	struct series_stat st;

	/* 1000 IOPS steady; samples 2 and 3 lost; a last sliver of 50 us. */
	for (uint64_t i = 0; i < 6; i++) {
		if (i == 2 || i == 3)
			continue;
		mk(s, (i + 1) * 100, 100, 50000);
		series_add(&se, i, s);
	}
	mk(s, 600, 1, 50000);
	s->t += 50000;
	series_add(&se, 6, s);
	/* Sample 4 spans from where its interval began, not from sample 1. */
	EXPECT_EQ(0.1, series_dt(&se, 2));
	EXPECT_FALSE(series_full(&se, 4));
	series_rate_stat(&se, 0, false, &st);
	EXPECT_EQ(4, st.n);
	EXPECT_EQ(1000.0, st.min);
	EXPECT_EQ(1000.0, st.max);
	EXPECT_EQ(0.0, st.dev);
	series_rate_stat(&se, 0, true, &st);
	EXPECT_EQ(4096000.0, st.mean);
	series_free(&se);
	free(s);
}

TEST(a_last_sample_not_later_folds_into_the_one_before)
{
	struct series se = { .interval = 100 * MS };
	struct bl_sample *s = calloc(1, sizeof(*s));

	mk(s, 3000, 600, 50000);
	s->t += 200000;			/* another queue's boundary sample, late */
	series_add(&se, 29, s);
	mk(s, 3000, 2, 50000);
	s->t += 60000;			/* a queue's last, before it */
	series_add(&se, 30, s);
	ASSERT_EQ(1, se.nr);
	EXPECT_EQ(602, se.e[0].op[0].ios);
	EXPECT_EQ(3000 * MS + 200000, se.e[0].t);
	mk(s, 3001, 2, 50000);		/* a later last sample stays its own */
	series_add(&se, 30, s);
	EXPECT_EQ(2, se.nr);
	series_free(&se);
	free(s);
}

TEST(percentiles_from_the_buckets)
{
	uint32_t *h = calloc(BL_SHIST_NR, sizeof(*h));

	/* No latency counted (gtod_reduce): no percentile, not the last bucket. */
	EXPECT_EQ(0, series_percentile(h, 50));
	h[bl_hist_idx(100000) >> BL_SHIST_SHIFT] = 99;
	h[bl_hist_idx(10000000) >> BL_SHIST_SHIFT] = 1;
	EXPECT_EQ(bl_shist_mid(bl_hist_idx(100000) >> BL_SHIST_SHIFT), series_percentile(h, 99));
	EXPECT_EQ(bl_shist_mid(bl_hist_idx(10000000) >> BL_SHIST_SHIFT),
		  series_percentile(h, 99.5));
	free(h);
}

TEST(fio_logs_windows_and_columns)
{
	struct series se = { .interval = 100 * MS };
	struct series_logs lg = { .avg_ns = 200 * MS, .hist_ns = 200 * MS, .coarseness = 3 };
	struct bl_sample *s = calloc(1, sizeof(*s));
	char dir[] = "/tmp/blkload-series.XXXXXX", *prefix, *path, line[8192];
	unsigned int lines = 0, cols = 0;
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	prefix = xasprintf("%s/t", dir);
	lg.iops = lg.hist = prefix;
	/* Four intervals of 100 IOs, sample 2 lost, then a sliver of 1 IO. */
	for (uint64_t i = 0; i < 4; i++) {
		if (i == 2)
			continue;
		mk(s, (i + 1) * 100, 100, 50000);
		series_add(&se, i, s);
	}
	mk(s, 400, 1, 50000);
	s->t += 10000;
	series_add(&se, 4, s);
	ASSERT_EQ(0, series_write_logs(&lg, &se, 4096, 1));
	path = xasprintf("%s_iops.1.log", prefix);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	/* 200 IOs over 0.2 s; then 100 IOs (sample 3) + the sliver over 0.1 s. */
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	EXPECT_STREQ("200, 1000, 0, 0, 0\n", line);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	EXPECT_STREQ("400, 1010, 0, 0, 0\n", line);
	EXPECT_EQ(NULL, fgets(line, sizeof(line), f));
	fclose(f);
	unlink(path);
	free(path);
	path = xasprintf("%s_clat_hist.1.log", prefix);
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		unsigned int c = 1;

		for (char *p = line; *p; p++)
			c += *p == ',';
		cols = c;
		lines++;
	}
	fclose(f);
	unlink(path);
	free(path);
	/* fio's layout at log_hist_coarseness=3: time, ddir, bs, 1856 / 8 buckets. */
	EXPECT_EQ(2, lines);
	EXPECT_EQ(3 + BL_HIST_NR / 8, cols);
	rmdir(dir);
	free(prefix);
	series_free(&se);
	free(s);
}

TEST_HARNESS_MAIN
