// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the write buffer contents (include/blkload/fill.h): the
 * pool's zero share per chunk, its independence from how it is filled in
 * pieces, where writes start in it, the dedupe share, and golden values so
 * that a change of the bytes (which the module writes too) is noticed.
 */
#include <stdlib.h>
#include <string.h>

/* The harness's handlers and TEST() wrappers leave parameters unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

#include <blkload/fill.h>

#define GOLDEN_POOL	0x9586bae7U	/* bytes 4096..4099 of seed 11's pool, little endian */
#define GOLDEN_POS	2623488U	/* where seed 11's write at 1 MiB starts */

/* Each 512-byte chunk: the first (100 - P)% random (few zeros), the rest zeros. */
TEST(pool_chunks_have_the_asked_zero_share)
{
	static unsigned char pool[1 << 20];
	unsigned int pct[] = { 0, 25, 50, 80, 100 };

	for (unsigned int k = 0; k < sizeof(pct) / sizeof(pct[0]); k++) {
		unsigned int rnd = 512 - 512 * pct[k] / 100, zeros_in_rnd = 0;

		bl_fill_pool(pool, 0, sizeof(pool), 7, pct[k]);
		for (unsigned int c = 0; c < sizeof(pool); c += 512) {
			for (unsigned int i = 0; i < 512; i++) {
				if (i >= rnd) {
					ASSERT_EQ(0, pool[c + i]);
				} else {
					zeros_in_rnd += !pool[c + i];
				}
			}
		}
		/* Random bytes: one in 256 is zero, give or take. */
		if (rnd) {
			ASSERT_LT(zeros_in_rnd, 2 * (sizeof(pool) / 512) * rnd / 256);
		}
	}
}

/* Filled in pieces (as the module does, 64 KiB at a time) or at once: the same. */
TEST(pool_pieces_equal_whole)
{
	unsigned int size = (1 << 18) + 4096;
	unsigned char *a = malloc(size), *b = malloc(size);

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	bl_fill_pool(a, 0, size, 99, 30);
	for (unsigned int at = 0; at < size; at += 65536)
		bl_fill_pool(b + at, at, size - at < 65536 ? size - at : 65536, 99, 30);
	ASSERT_EQ(0, memcmp(a, b, size));
	/* Another seed, other bytes. */
	bl_fill_pool(b, 0, size, 100, 30);
	ASSERT_NE(0, memcmp(a, b, size));
	free(a);
	free(b);
}

/* Start positions: 512-aligned, inside the pool, spread over all of it. */
TEST(positions_aligned_and_spread)
{
	static unsigned int hits[BL_FILL_POOL / BL_FILL_CHUNK];
	unsigned int used = 0;

	for (uint64_t off = 0; off < 65536ULL * 4096; off += 4096) {
		uint32_t pos = bl_fill_pos(5, off);

		ASSERT_EQ(0U, pos % BL_FILL_CHUNK);
		ASSERT_LT(pos, BL_FILL_POOL);
		used += !hits[pos / BL_FILL_CHUNK]++;
	}
	/* 65536 draws over 8192 positions leave about e^-8 of them unused. */
	ASSERT_GT(used, 8150U);
}

/* dedupe_percentage P: P% of the offsets, within half a point over 200000. */
TEST(dedupe_share)
{
	unsigned int pct[] = { 0, 1, 40, 99, 100 };

	for (unsigned int k = 0; k < sizeof(pct) / sizeof(pct[0]); k++) {
		unsigned int n = 0;

		for (uint64_t off = 0; off < 200000ULL * 4096; off += 4096)
			n += bl_fill_dedupe(3, off, pct[k]);
		TH_LOG("dedupe %u%%: %.2f%%", pct[k], n / 2000.0);
		ASSERT_LE(abs((int)n - (int)(2000 * pct[k])), 1000);
		if (pct[k] == 0) {
			ASSERT_EQ(0U, n);
		}
		if (pct[k] == 100) {
			ASSERT_EQ(200000U, n);
		}
	}
}

/* Golden values: the module writes these bytes too; a change must be seen. */
/* fio's dedupe working set: picks inside the set, each member about as often. */
TEST(working_set_picks)
{
	static unsigned int seen[100];
	unsigned int lo = ~0U, hi = 0;

	for (uint64_t off = 0; off < 100000 * 4096ULL; off += 4096) {
		uint32_t j = bl_fill_pick(11, off, 100);

		ASSERT_LT(j, 100);
		seen[j]++;
	}
	for (int j = 0; j < 100; j++) {
		lo = seen[j] < lo ? seen[j] : lo;
		hi = seen[j] > hi ? seen[j] : hi;
	}
	/* 1000 each on average: a binomial's spread, no hole, no hot member. */
	EXPECT_GT(lo, 850);
	EXPECT_LT(hi, 1150);
	EXPECT_EQ(bl_fill_pick(11, 4096, 100), bl_fill_pick(11, 4096, 100));
	EXPECT_EQ(0, bl_fill_pick(11, 4096, 1));
}

TEST(golden)
{
	unsigned char p[16];

	bl_fill_pool(p, 4096, sizeof(p), 11, 0);
	TH_LOG("pool[4096..]: %02x%02x%02x%02x pos %u", p[0], p[1], p[2], p[3],
	       bl_fill_pos(11, 1 << 20));
	ASSERT_EQ(GOLDEN_POOL, (unsigned int)(p[0] | p[1] << 8 | p[2] << 16 | (unsigned int)p[3] << 24));
	ASSERT_EQ(GOLDEN_POS, bl_fill_pos(11, 1 << 20));
	/* The working set's pick: the module and every engine, every version. */
	ASSERT_EQ(766, bl_fill_pick(11, 1 << 20, 1000));
}

TEST_HARNESS_MAIN
