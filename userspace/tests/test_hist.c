// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the shared latency histogram (include/blkload/hist.h).
 */
#include <stdlib.h>

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

TEST_HARNESS_MAIN
