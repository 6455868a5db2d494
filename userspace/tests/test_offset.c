// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the shared offset generator (include/blkload/offset.h).
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include <blkload/offset.h>

TEST(same_seed_same_sequence)
{
	struct bl_gen a, b, c;
	uint64_t oa, ob, oc;
	int differ = 0;

	ASSERT_TRUE(bl_gen_init(&a, 42, 0, 2, true, 70, 0, 1 << 30, 4096));
	ASSERT_TRUE(bl_gen_init(&b, 42, 0, 2, true, 70, 0, 1 << 30, 4096));
	ASSERT_TRUE(bl_gen_init(&c, 42, 1, 2, true, 70, 0, 1 << 30, 4096));
	for (int i = 0; i < 10000; i++) {
		bool ra = bl_gen_next(&a, &oa), rb = bl_gen_next(&b, &ob);

		bl_gen_next(&c, &oc);
		ASSERT_EQ(ra, rb);
		ASSERT_EQ(oa, ob);
		differ += oa != oc;
	}
	/* Another stream of the same seed is a different sequence. */
	EXPECT_GT(differ, 9990);
}

TEST(random_is_aligned_uniform_in_region)
{
	enum { N = 64, DRAWS = 640000 };
	uint64_t off, region = N * 8192ULL, base = 1 << 20;
	unsigned int count[N] = { 0 };
	struct bl_gen g;

	ASSERT_TRUE(bl_gen_init(&g, 7, 0, 1, true, 100, base, region, 8192));
	for (int i = 0; i < DRAWS; i++) {
		ASSERT_TRUE(bl_gen_next(&g, &off));
		ASSERT_GE(off, base);
		ASSERT_LT(off, base + region);
		ASSERT_EQ(0, (off - base) % 8192);
		count[(off - base) / 8192]++;
	}
	/* Each block expects 10000 draws; 5 sigma is 500. */
	for (int i = 0; i < N; i++) {
		EXPECT_GT(count[i], 9500);
		EXPECT_LT(count[i], 10500);
	}
}

TEST(sequential_streams_are_disjoint_and_wrap)
{
	struct bl_gen g[3];
	uint64_t off;

	/* 10 blocks over 3 streams: blocks 0-3, 4-6 and 7-9; each wraps in its own. */
	static const unsigned int first[] = { 0, 4, 7 }, len[] = { 4, 3, 3 };

	for (unsigned int s = 0; s < 3; s++)
		ASSERT_TRUE(bl_gen_init(&g[s], 1, s, 3, false, 100, 4096, 10 * 512, 512));
	for (unsigned int s = 0; s < 3; s++) {
		for (unsigned int i = 0; i < 9; i++) {
			bl_gen_next(&g[s], &off);
			EXPECT_EQ(4096 + (first[s] + i % len[s]) * 512ULL, off);
		}
	}
}

TEST(rwmixread_ratio)
{
	struct bl_gen g;
	uint64_t off;
	int reads = 0;

	ASSERT_TRUE(bl_gen_init(&g, 3, 0, 1, true, 30, 0, 1 << 20, 4096));
	for (int i = 0; i < 100000; i++)
		reads += bl_gen_next(&g, &off);
	EXPECT_GT(reads, 29500);
	EXPECT_LT(reads, 30500);
	ASSERT_TRUE(bl_gen_init(&g, 3, 0, 1, true, 0, 0, 1 << 20, 4096));
	EXPECT_FALSE(bl_gen_next(&g, &off));
}

/* rwmixtrim of the IOs are trims, rwmixread of the rest reads; 0 changes nothing. */
TEST(rwmixtrim_ratio)
{
	struct bl_gen g, plain, zero;
	uint64_t off, o1, o2;
	int n[3] = { 0 };

	ASSERT_TRUE(bl_gen_init(&g, 5, 0, 1, true, 50, 0, 1 << 20, 4096));
	ASSERT_TRUE(bl_gen_set_trim(&g, 20));
	for (int i = 0; i < 100000; i++)
		n[bl_gen_op(&g, &off)]++;
	EXPECT_GT(n[BL_GEN_TRIM], 19500);
	EXPECT_LT(n[BL_GEN_TRIM], 20500);
	EXPECT_GT(n[BL_GEN_READ], 39500);
	EXPECT_LT(n[BL_GEN_READ], 40500);
	/* All trims: no draw for the operation, the offsets of a pure pattern. */
	ASSERT_TRUE(bl_gen_init(&g, 5, 0, 1, true, 0, 0, 1 << 20, 4096));
	ASSERT_TRUE(bl_gen_set_trim(&g, 100));
	ASSERT_TRUE(bl_gen_init(&plain, 5, 0, 1, true, 0, 0, 1 << 20, 4096));
	ASSERT_TRUE(bl_gen_init(&zero, 5, 0, 1, true, 0, 0, 1 << 20, 4096));
	ASSERT_TRUE(bl_gen_set_trim(&zero, 0));
	for (int i = 0; i < 1000; i++) {
		ASSERT_EQ(BL_GEN_TRIM, bl_gen_op(&g, &off));
		ASSERT_EQ(BL_GEN_WRITE, bl_gen_op(&plain, &o1));
		ASSERT_EQ(BL_GEN_WRITE, bl_gen_op(&zero, &o2));
		ASSERT_EQ(off, o1);
		ASSERT_EQ(o1, o2);
	}
	EXPECT_FALSE(bl_gen_set_trim(&g, 101));
}

/* bssplit: sizes by percent, offsets aligned to the unit and inside the region. */
TEST(bs_split)
{
	static const struct bl_gen_bs t[] = {
		{ 4096, 4096, 50 }, { 65536, 65536, 90 }, { 1 << 20, 1 << 20, 100 },
	};
	const uint64_t base = 1 << 20, size = 64 << 20;
	struct bl_gen g;
	uint64_t off, n4 = 0, n64 = 0, n1m = 0;
	uint32_t len;

	ASSERT_TRUE(bl_gen_init(&g, 9, 0, 1, true, 100, base, size, 4096));
	ASSERT_TRUE(bl_gen_set_bs(&g, 0, t, 3));
	for (int i = 0; i < 100000; i++) {
		bl_gen_op_len(&g, &off, &len);
		ASSERT_EQ(0, off % 4096);
		ASSERT_GE(off, base);
		ASSERT_LE(off + len, base + size);
		n4 += len == 4096;
		n64 += len == 65536;
		n1m += len == 1 << 20;
	}
	EXPECT_EQ(100000, n4 + n64 + n1m);
	EXPECT_GT(n4, 49300);
	EXPECT_LT(n4, 50700);
	EXPECT_GT(n1m, 9600);
	EXPECT_LT(n1m, 10400);
	/* Writes take their own table; without one every write is the unit. */
	ASSERT_TRUE(bl_gen_init(&g, 9, 0, 1, true, 0, base, size, 4096));
	ASSERT_TRUE(bl_gen_set_bs(&g, 0, t, 3));
	for (int i = 0; i < 1000; i++) {
		bl_gen_op_len(&g, &off, &len);
		ASSERT_EQ(4096, len);
	}
	/* Impossible tables. */
	EXPECT_FALSE(bl_gen_set_bs(&g, 0, (struct bl_gen_bs[]){ { 6144, 6144, 100 } }, 1));
	EXPECT_FALSE(bl_gen_set_bs(&g, 0, (struct bl_gen_bs[]){ { 4096, 4096, 99 } }, 1));
	EXPECT_FALSE(bl_gen_set_bs(&g, 0, (struct bl_gen_bs[]){ { 8192, 4096, 100 } }, 1));
	EXPECT_FALSE(bl_gen_set_bs(&g, 2, t, 3));
	EXPECT_FALSE(bl_gen_set_bs(&g, 0, (struct bl_gen_bs[]){ { 128 << 20, 128 << 20, 100 } },
				   1));
}

/* bsrange: every multiple of the unit from lo to hi, about equally often. */
TEST(bs_range)
{
	const struct bl_gen_bs r = { 4096, 65536, 100 };
	uint64_t count[17] = { 0 }, off;
	struct bl_gen g;
	uint32_t len;

	ASSERT_TRUE(bl_gen_init(&g, 4, 0, 1, true, 100, 0, 1 << 30, 4096));
	ASSERT_TRUE(bl_gen_set_bs(&g, 0, &r, 1));
	for (int i = 0; i < 160000; i++) {
		bl_gen_op_len(&g, &off, &len);
		ASSERT_EQ(0, len % 4096);
		ASSERT_GE(len, 4096);
		ASSERT_LE(len, 65536);
		count[len / 4096]++;
	}
	for (int k = 1; k <= 16; k++) {
		EXPECT_GT(count[k], 9500);
		EXPECT_LT(count[k], 10500);
	}
}

/* A sequential stream goes on from where its last IO ended, wrapping at the end. */
TEST(bs_split_sequential)
{
	static const struct bl_gen_bs t[] = { { 4096, 4096, 50 }, { 12288, 12288, 100 } };
	struct bl_gen g;
	uint64_t off, expect = 0;
	uint32_t len;
	int wraps = 0;

	ASSERT_TRUE(bl_gen_init(&g, 2, 0, 1, false, 100, 0, 1 << 20, 4096));
	ASSERT_TRUE(bl_gen_set_bs(&g, 0, t, 2));
	for (int i = 0; i < 10000; i++) {
		bl_gen_op_len(&g, &off, &len);
		if (off != expect) {
			/* Only a wrap: the next would not fit before the end. */
			ASSERT_EQ(0, off);
			ASSERT_GT(expect + len, 1 << 20);
			wraps++;
		}
		expect = off + len == 1 << 20 ? 0 : off + len;
		if (!expect)
			wraps++;
	}
	EXPECT_GT(wraps, 10);
}

TEST(rejects_impossible)
{
	struct bl_gen g;

	EXPECT_FALSE(bl_gen_init(&g, 0, 0, 1, true, 50, 0, 4096, 0));
	EXPECT_FALSE(bl_gen_init(&g, 0, 0, 2, false, 50, 0, 4096, 4096));
	EXPECT_FALSE(bl_gen_init(&g, 0, 2, 2, false, 50, 0, 1 << 20, 4096));
	EXPECT_FALSE(bl_gen_init(&g, 0, 0, 1, false, 101, 0, 1 << 20, 4096));
	EXPECT_FALSE(bl_gen_init(&g, 0, 0, 2, true, 50, 0, 4095, 4096));
	/* Random streams need one block, not one per stream. */
	EXPECT_TRUE(bl_gen_init(&g, 0, 1, 4, true, 50, 0, 4096, 4096));
}

/*
 * One pass with blocks not a multiple of the streams: each stream's share
 * of the IO count (as the module splits number_ios) covers its sub-region
 * exactly, and together they write every block of the region once.
 */
TEST(sequential_one_pass_covers_every_block)
{
	enum { BLOCKS = 103, STREAMS = 4 };
	unsigned char seen[BLOCKS] = { 0 };
	uint64_t off, base = 8192;

	for (unsigned int s = 0; s < STREAMS; s++) {
		uint64_t share = BLOCKS / STREAMS + (s < BLOCKS % STREAMS ? 1 : 0);
		struct bl_gen g;

		ASSERT_TRUE(bl_gen_init(&g, 1, s, STREAMS, false, 100, base,
					BLOCKS * 4096ULL + 100, 4096));
		for (uint64_t i = 0; i < share; i++) {
			bl_gen_next(&g, &off);
			ASSERT_GE(off, base);
			ASSERT_LT(off, base + BLOCKS * 4096ULL);
			seen[(off - base) / 4096]++;
		}
	}
	for (unsigned int b = 0; b < BLOCKS; b++)
		ASSERT_EQ(1, seen[b]);
}

/* The 32-bit path of the high multiply gives the 128-bit type's bits. */
/*
 * fio's random map: the streams of a job, each its share of a pass (the
 * module's per-queue limit), visit every block once; the next pass again,
 * in another order; no map with a split or fewer blocks than streams.
 */
TEST(random_map_visits_each_block_once_a_pass)
{
	static const uint64_t sizes[] = { 1, 2, 7, 1000, 4096, 100003 };
	static const unsigned int streams[] = { 1, 2, 3, 8 };

	for (unsigned int a = 0; a < sizeof(sizes) / sizeof(sizes[0]); a++) {
		for (unsigned int b = 0; b < sizeof(streams) / sizeof(streams[0]); b++) {
			uint64_t n = sizes[a], first = 0, off;
			unsigned int ns = streams[b];
			unsigned char *seen = calloc(n, 1);
			bool differs = false;

			ASSERT_NE(NULL, seen);
			if (n < ns) {
				struct bl_gen g;

				ASSERT_TRUE(bl_gen_init(&g, 9, ns - 1, ns, true, 100, 0, n * 512, 512));
				EXPECT_FALSE(bl_gen_set_map(&g, 9, ns - 1, ns));
				free(seen);
				continue;
			}
			for (int pass = 0; pass < 2; pass++) {
				memset(seen, 0, n);
				for (unsigned int k = 0; k < ns; k++) {
					struct bl_gen g;
					uint64_t share = n / ns + (k < n % ns ? 1 : 0);

					ASSERT_TRUE(bl_gen_init(&g, 9, k, ns, true, 100, 4096, n * 512,
								512));
					ASSERT_TRUE(bl_gen_set_map(&g, 9, k, ns));
					/* Pass 1 is drawn after pass 0 from the same stream. */
					for (uint64_t i = 0; i < share * (uint64_t)(pass + 1); i++) {
						bl_gen_op(&g, &off);
						if (i < share * (uint64_t)pass)
							continue;
						ASSERT_GE(off, 4096);
						ASSERT_LT(off, 4096 + n * 512);
						ASSERT_EQ(0, (off - 4096) % 512);
						ASSERT_EQ(0, seen[(off - 4096) / 512]++)
							TH_LOG("n %lu streams %u pass %d: block %lu twice",
							       (unsigned long)n, ns, pass,
							       (unsigned long)((off - 4096) / 512));
						if (k == 0 && i == share * (uint64_t)pass) {
							if (pass == 0)
								first = off;
							else
								differs = off != first;
						}
					}
				}
				for (uint64_t i = 0; i < n; i++)
					ASSERT_EQ(1, seen[i]);
			}
			/* Another order each pass (the first block moves, for enough blocks). */
			if (n >= 1000)
				EXPECT_TRUE(differs) TH_LOG("n %lu streams %u", (unsigned long)n, ns);
			free(seen);
		}
	}
	{
		static const struct bl_gen_bs split[] = { { 512, 512, 50 }, { 1024, 1024, 100 } };
		struct bl_gen g;

		ASSERT_TRUE(bl_gen_init(&g, 9, 0, 1, true, 100, 0, 1 << 20, 512));
		ASSERT_TRUE(bl_gen_set_bs(&g, 0, split, 2));
		EXPECT_FALSE(bl_gen_set_map(&g, 9, 0, 1));
		ASSERT_TRUE(bl_gen_init(&g, 9, 0, 1, false, 100, 0, 1 << 20, 512));
		EXPECT_FALSE(bl_gen_set_map(&g, 9, 0, 1));
	}
}

/* fio's blockalign: random IOs of a 512-byte split start at 4 KiB multiples, and fit. */
TEST(blockalign)
{
	static const struct bl_gen_bs split[] = { { 512, 512, 50 }, { 1024, 8192, 100 } };
	unsigned int starts[8] = { 0 };
	struct bl_gen g;
	uint64_t off;
	uint32_t len;
	int e;

	/* 1 MiB less 512 bytes: the last aligned start must leave room for 8 KiB. */
	ASSERT_TRUE(bl_gen_init(&g, 3, 0, 1, true, 100, 0, (1 << 20) - 512, 512));
	ASSERT_TRUE(bl_gen_set_bs(&g, 0, split, 2));
	ASSERT_FALSE(bl_gen_set_align(&g, 0));
	ASSERT_TRUE(bl_gen_set_align(&g, 8));
	for (int i = 0; i < 200000; i++) {
		bl_gen_op_len(&g, &off, &len);
		ASSERT_EQ(0, off % 4096);
		ASSERT_LE(off + len, (1 << 20) - 512);
		starts[(off / 4096) % 8]++;
		/* The fit of another distribution's block is aligned too. */
		ASSERT_EQ(0, bl_gen_fit(&g, (uint64_t)i % 2047, 16) % 8);
		ASSERT_LE(bl_gen_fit(&g, (uint64_t)i % 2047, 16) + 16, 2047);
	}
	/* Uniform over the aligned starts: each eighth within 2% of its share. */
	for (e = 0; e < 8; e++) {
		int got = (int)starts[e];

		EXPECT_LT(abs(got - 25000), 500) TH_LOG("eighth %d: %d", e, got);
	}
	/* A map has its own order: no alignment on top of it. */
	ASSERT_TRUE(bl_gen_init(&g, 3, 0, 1, true, 100, 0, 1 << 20, 512));
	ASSERT_TRUE(bl_gen_set_map(&g, 3, 0, 1));
	EXPECT_FALSE(bl_gen_set_align(&g, 8));
}

/* fio's rw=read:-8k and rw=write:4k (bs 4k): backwards, and every other block, wrapping as fio. */
TEST(sequential_holes_as_fio)
{
	static const uint64_t back[] = { 0, 8, 7, 6, 5, 4, 3, 2, 1, 0, 8, 7 };
	static const uint64_t fwd[] = { 0, 2, 4, 6, 8, 0, 2, 4 };
	struct bl_gen g;
	uint64_t off;

	ASSERT_TRUE(bl_gen_init(&g, 1, 0, 1, false, 100, 4096, 10 * 4096, 4096));
	ASSERT_TRUE(bl_gen_set_hole(&g, -2ULL));
	for (unsigned int i = 0; i < sizeof(back) / sizeof(back[0]); i++) {
		bl_gen_op(&g, &off);
		EXPECT_EQ(4096 + back[i] * 4096, off) TH_LOG("IO %u", i);
	}
	ASSERT_TRUE(bl_gen_init(&g, 1, 0, 1, false, 100, 0, 10 * 4096, 4096));
	ASSERT_TRUE(bl_gen_set_hole(&g, 1));
	for (unsigned int i = 0; i < sizeof(fwd) / sizeof(fwd[0]); i++) {
		bl_gen_op(&g, &off);
		EXPECT_EQ(fwd[i] * 4096, off) TH_LOG("IO %u", i);
	}
	/* A backwards hole as long as the stream, or a random stream: refused. */
	ASSERT_TRUE(bl_gen_init(&g, 1, 0, 1, false, 100, 0, 10 * 4096, 4096));
	EXPECT_FALSE(bl_gen_set_hole(&g, -10ULL));
	ASSERT_TRUE(bl_gen_init(&g, 1, 0, 1, true, 100, 0, 10 * 4096, 4096));
	EXPECT_FALSE(bl_gen_set_hole(&g, 1));
}

/*
 * fio's zonemode=strided: zones of 4 units getting 6 (the zone again from
 * its start: fio's "zone_size > zone_range"), 2 skipped after each, back to
 * the start past the end (20 units); random IOs stay in their zone.
 */
TEST(strided_zones_as_fio)
{
	static const uint64_t seq[] = { 0, 1, 2, 3, 0, 1, 6, 7, 8, 9, 6, 7, 12, 13, 14, 15, 12, 13,
					18, 19, 18, 19, 18, 19, 0, 1 };
	struct bl_gen g;
	uint64_t off;

	ASSERT_TRUE(bl_gen_init(&g, 1, 0, 1, false, 100, 4096, 20 * 4096, 4096));
	bl_gen_set_zones(&g, 4, 6, 2);
	for (unsigned int i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		bl_gen_op(&g, &off);
		EXPECT_EQ(4096 + seq[i] * 4096, off) TH_LOG("IO %u", i);
	}
	ASSERT_TRUE(bl_gen_init(&g, 1, 0, 1, true, 100, 0, 20 * 4096, 4096));
	bl_gen_set_zones(&g, 4, 4, 2);
	for (unsigned int i = 0; i < 400; i++) {
		uint64_t zone = i / 4 % 4 * 6;	/* 0, 6, 12, 18 (its last two units), 0, ... */

		bl_gen_op(&g, &off);
		EXPECT_TRUE(off / 4096 >= zone && off / 4096 < zone + 4 && off / 4096 < 20)
			TH_LOG("IO %u at unit %llu, zone %llu", i, (unsigned long long)(off / 4096),
			       (unsigned long long)zone);
	}
}

TEST(mulhi_32bit_path_matches_int128)
{
	struct bl_gen g = { .rng = 99 };
	static const uint64_t edge[] = { 0, 1, 0xffffffffULL, 0x100000000ULL, UINT64_MAX,
					 UINT64_MAX - 1, 0x8000000000000000ULL };

	for (unsigned int i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		for (unsigned int j = 0; j < sizeof(edge) / sizeof(edge[0]); j++)
			ASSERT_EQ((uint64_t)(((unsigned __int128)edge[i] * edge[j]) >> 64),
				  bl_gen_mulhi32(edge[i], edge[j]));
	for (int i = 0; i < 1000000; i++) {
		uint64_t a = bl_gen_rand(&g), b = bl_gen_rand(&g);

		ASSERT_EQ((uint64_t)(((unsigned __int128)a * b) >> 64), bl_gen_mulhi32(a, b));
	}
	ASSERT_EQ(UINT64_MAX - 1, bl_gen_mulhi32(UINT64_MAX, UINT64_MAX));
}

TEST_HARNESS_MAIN
