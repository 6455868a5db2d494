// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the shared latency histogram (include/blkload/hist.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "kselftest_harness.h"

#include <blkload/hist.h>

TEST(layout_matches_fio)
{
	EXPECT_EQ(1856, BL_HIST_NR);
	/* Exact below 128. */
	for (uint64_t v = 0; v < 128; v++) {
		EXPECT_EQ(v, bl_hist_idx(v));
		EXPECT_EQ(v, bl_hist_mid((unsigned int)v));
	}
	/* fio: idx = (error_bits + 1) * 64 + ((v >> error_bits) & 63). */
	EXPECT_EQ(128, bl_hist_idx(128));
	EXPECT_EQ(128, bl_hist_idx(129));
	EXPECT_EQ(129, bl_hist_idx(130));
	EXPECT_EQ(192, bl_hist_idx(256));
	EXPECT_EQ(BL_HIST_NR - 1, bl_hist_idx(UINT64_MAX));
	EXPECT_EQ(BL_HIST_NR - 1, bl_hist_idx(1ULL << 40));
}

TEST(buckets_tile_and_bound_error)
{
	/* Every bucket starts where the previous one ended, and holds its midpoint. */
	for (unsigned int i = 1; i < BL_HIST_NR; i++) {
		uint64_t lo = bl_hist_lo(i), mid = bl_hist_mid(i);

		ASSERT_EQ(i, bl_hist_idx(lo));
		ASSERT_EQ(i - 1, bl_hist_idx(lo - 1));
		ASSERT_EQ(i, bl_hist_idx(mid));
	}
	/* Relative error of the midpoint is at most 1/128 over the tracked range. */
	for (uint64_t v = 1; v < (1ULL << 34); v = v * 3 / 2 + 1) {
		uint64_t m = bl_hist_mid(bl_hist_idx(v));
		double err = (double)(m > v ? m - v : v - m) / (double)v;

		ASSERT_LE(err, 1.0 / 128 + 1e-12);
	}
}

TEST(percentiles)
{
	uint64_t *h = calloc(BL_HIST_NR, sizeof(*h));

	ASSERT_NE(NULL, h);
	EXPECT_EQ(0, bl_hist_percentile(h, BL_HIST_NR, 0, 50));
	/* 100 samples: 1..100 us. */
	for (uint64_t us = 1; us <= 100; us++)
		h[bl_hist_idx(us * 1000)]++;
	EXPECT_EQ(bl_hist_mid(bl_hist_idx(50000)), bl_hist_percentile(h, BL_HIST_NR, 100, 50));
	EXPECT_EQ(bl_hist_mid(bl_hist_idx(99000)), bl_hist_percentile(h, BL_HIST_NR, 100, 99));
	EXPECT_EQ(bl_hist_mid(bl_hist_idx(100000)), bl_hist_percentile(h, BL_HIST_NR, 100, 100));
	EXPECT_EQ(bl_hist_mid(bl_hist_idx(1000)), bl_hist_percentile(h, BL_HIST_NR, 100, 0.001));
	free(h);
}

/*
 * Against fio itself: every bucket fio's json+ reports is keyed by fio's own
 * value of that bucket (plat_idx_to_val), which must be our midpoint of the
 * bucket the value falls in, for every key fio printed.
 */
TEST(buckets_match_real_fio)
{
	char path[] = "/tmp/blkload-hist-XXXXXX", *cmd;
	struct json_object *d, *jobs, *read, *clat, *bins;
	int fd = mkstemp(path), keys = 0;
	char buf[1 << 16];
	size_t len = 0, n;
	FILE *p;

	ASSERT_LE(0, fd);
	close(fd);
	if (system("command -v fio >/dev/null 2>&1")) {
		unlink(path);
		SKIP(return, "fio is not installed");
	}
	ASSERT_LT(0, asprintf(&cmd, "fio --name=h --filename=%s --size=8m --rw=randread "
			      "--ioengine=psync --number_ios=20000 --output-format=json+ "
			      "2>/dev/null", path));
	p = popen(cmd, "r");
	free(cmd);
	ASSERT_NE(NULL, p);
	char *out = NULL;

	while ((n = fread(buf, 1, sizeof(buf), p)) > 0) {
		out = realloc(out, len + n + 1);
		ASSERT_NE(NULL, out);
		memcpy(out + len, buf, n);
		len += n;
		out[len] = 0;
	}
	pclose(p);
	unlink(path);
	ASSERT_NE(NULL, out);
	d = json_tokener_parse(strchr(out, '{'));
	ASSERT_NE(NULL, d);
	ASSERT_TRUE(json_object_object_get_ex(d, "jobs", &jobs));
	ASSERT_TRUE(json_object_object_get_ex(json_object_array_get_idx(jobs, 0), "read", &read));
	ASSERT_TRUE(json_object_object_get_ex(read, "clat_ns", &clat));
	ASSERT_TRUE(json_object_object_get_ex(clat, "bins", &bins));
	json_object_object_foreach(bins, key, val) {
		uint64_t v = strtoull(key, NULL, 10);

		(void)val;
		ASSERT_EQ(v, bl_hist_mid(bl_hist_idx(v)));
		keys++;
	}
	/* A real spread: many buckets, several groups. */
	EXPECT_GT(keys, 20);
	json_object_put(d);
	free(out);
}

TEST_HARNESS_MAIN
