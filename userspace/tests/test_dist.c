// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the access distributions (include/blkload/dist.h): the
 * fixed-point helpers against libm, the shapes against fio-genzipf's tables,
 * and golden sequences so that a change of the draws does not go unnoticed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The harness's handlers and TEST() wrappers leave parameters unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

#include <blkload/dist.h>

#define GIB_BLOCKS	262144	/* 1 GiB of 4 KiB blocks */

/* log2() is within one unit (2^-48) of libm's long double log2l(). */
TEST(log2_within_one_unit)
{
	struct bl_gen g = { .rng = 11 };
	long double worst = 0, err;
	uint64_t x;

	for (int i = 0; i < 3000000; i++) {
		if (i < 1000000)
			x = i + 1;
		else if (i < 1000000 + 64 * 3)
			x = (1ULL << ((i - 1000000) / 3)) + (i % 3) - 1;
		else
			x = bl_gen_rand(&g) >> (bl_gen_rand(&g) % 64);
		if (!x)
			continue;
		err = fabsl((long double)bl_dist_log2(x) - log2l(x) * 0x1p48L);
		if (err > worst)
			worst = err;
	}
	TH_LOG("log2: worst error %.3Lf units of 2^-48", worst);
	ASSERT_LE(worst, 1.0L);
	ASSERT_EQ(0ULL, bl_dist_log2(0));
	ASSERT_EQ(0ULL, bl_dist_log2(1));
	ASSERT_EQ(63 * BL_DIST_ONE, bl_dist_log2(1ULL << 63));
}

/* exp2() is within 2^-50 relative of exp2l() before its floor. */
TEST(exp2_within_2_pow_minus_50)
{
	struct bl_gen g = { .rng = 12 };
	long double worst = 0, ref, err;
	uint64_t e, r;

	for (int i = 0; i < 3000000; i++) {
		if (i < 64 * 1024)
			e = (uint64_t)(i / 1024) * BL_DIST_ONE + (i % 1024) * (BL_DIST_ONE / 1024);
		else
			e = bl_gen_below(&g, 64 * BL_DIST_ONE);
		ref = exp2l(e / 0x1p48L);
		r = bl_dist_exp2(e);
		/* floor(ref (1 + err)) with |err| <= 2^-50 */
		ASSERT_LE((long double)r, ref * (1 + 0x1p-50L));
		ASSERT_GT((long double)r + 1, ref * (1 - 0x1p-50L));
		if (ref >= 0x1p56L) {
			err = fabsl(r - ref) / ref;
			if (err > worst)
				worst = err;
		}
	}
	TH_LOG("exp2: worst relative error 2^%.2Lf", log2l(worst));
	ASSERT_EQ(1ULL, bl_dist_exp2(0));
	ASSERT_EQ(1ULL << 40, bl_dist_exp2(40 * BL_DIST_ONE));
	ASSERT_EQ(UINT64_MAX, bl_dist_exp2(64 * BL_DIST_ONE));
}

/* The integer helpers against the compiler's 128-bit arithmetic. */
TEST(mulshr_fdiv_muldiv)
{
	struct bl_gen g = { .rng = 13 };

	for (int i = 0; i < 1000000; i++) {
		uint64_t a = bl_gen_rand(&g), b = bl_gen_rand(&g) >> (i % 64);
		unsigned int s = bl_gen_below(&g, 128), bits = bl_gen_below(&g, 65);
		unsigned __int128 p = (unsigned __int128)a * b, q;
		uint32_t m = bl_gen_rand(&g), d = bl_gen_rand(&g) | 1;

		q = p >> s;
		ASSERT_EQ(q >> 64 ? UINT64_MAX : (uint64_t)q, bl_dist_mulshr(a, b, s));
		if (b) {
			/* keep the quotient within 64 bits */
			uint64_t num = a >> (i % 64);

			q = ((unsigned __int128)num << bits) / b;
			if (!(q >> 64))
				ASSERT_EQ((uint64_t)q, bl_dist_fdiv(num, b, bits));
		}
		q = (unsigned __int128)(a >> 32) * m / d;
		ASSERT_EQ((uint64_t)q, bl_dist_muldiv(a >> 32, m, d));
	}
}

/* zeta(n, theta) in long double: direct to 100000 terms, Euler-Maclaurin above. */
static long double zeta_ref(double theta, uint64_t n)
{
	const uint64_t m = 100000;
	long double z = 0, t = theta, a = 1 - t;

	for (uint64_t i = n < m ? n : m; i >= 1; i--)
		z += powl(i, -t);
	if (n <= m)
		return z;
	z -= powl(m, -t);
	z += (powl(n, a) - powl(m, a)) / a + (powl(m, -t) + powl(n, -t)) / 2;
	z += t / 12 * (powl(m, -t - 1) - powl(n, -t - 1));
	return z;
}

/* The fixed-point zeta against the reference, for many theta and n. */
TEST(zeta_precision)
{
	static const uint32_t theta[] = { 1, 100, 500, 800, 999, 1001, 1200, 2000, 10000 };
	static const uint64_t n[] = { 1, 2, 3, 255, 256, 257, 1000, GIB_BLOCKS,
				      10000000, 1ULL << 40 };
	long double worst = 0;

	for (unsigned int i = 0; i < sizeof(theta) / sizeof(theta[0]); i++) {
		for (unsigned int j = 0; j < sizeof(n) / sizeof(n[0]); j++) {
			int zs = bl_dist_zeta_shift(theta[i], n[j]);
			long double ref = zeta_ref(theta[i] / 1000.0, n[j]), z, err;

			ASSERT_GE(zs, 0);
			z = ldexpl(bl_dist_zeta(theta[i], n[j], zs), -zs);
			err = fabsl(z - ref) / ref;
			if (err > worst)
				worst = err;
			EXPECT_LT(err, 1e-12L)
				TH_LOG("theta %u n %llu: %.12Lf vs %.12Lf", theta[i],
				       (unsigned long long)n[j], z, ref);
		}
	}
	TH_LOG("zeta: worst relative error %.2Le", worst);
}

/*
 * Ranks against fio's formulas in long double, over uniform draws: within
 * 1 + r k 2^-47 (k = 1 / |1 - theta| for zipf, the exponent for pareto, at
 * least 1), as dist.h documents.
 */
TEST(ranks_match_fio_formulas)
{
	static const uint32_t theta[] = { 100, 500, 800, 990, 999, 1001, 1010, 1200, 2000, 5000 };
	static const uint32_t h[] = { 1, 10, 100, 300, 500, 900, 990, 999 };
	static const uint64_t n[] = { 3, 1000, GIB_BLOCKS, 1ULL << 30, 1ULL << 40, 1ULL << 48 };
	struct bl_gen g = { .rng = 41 };
	struct bl_dist d;

	for (unsigned int j = 0; j < sizeof(n) / sizeof(n[0]); j++) {
		for (unsigned int i = 0; i < sizeof(theta) / sizeof(theta[0]); i++) {
			long double t = theta[i] / 1000.0L, z = zeta_ref(t, n[j]);
			long double z2 = 1 + powl(2, -t), a = 1 - t, k = fmaxl(1, 1 / fabsl(a));
			long double eta = (1 - powl(2.0L / n[j], a)) / (1 - z2 / z), r;

			ASSERT_TRUE(bl_dist_init(&d, BL_DIST_ZIPF, theta[i], n[j], 1));
			for (int x = 0; x < 20000; x++) {
				uint64_t u = bl_gen_rand(&g);
				long double lu = u / 0x1p64L;

				if (lu * z < 1)
					r = 0;
				else if (lu * z < z2)
					r = 1;
				else
					r = fminl(floorl(n[j] * powl(1 - eta * (1 - lu), 1 / a)),
						  n[j] - 1);
				ASSERT_LE(fabsl(bl_dist_next_zipf(&d, u) - r), 1 + r * k * 0x1p-47L)
					TH_LOG("zipf %u n %llu u %#llx", theta[i],
					       (unsigned long long)n[j], (unsigned long long)u);
			}
		}
		for (unsigned int i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
			long double p = logl(h[i] / 1000.0L) / logl(1 - h[i] / 1000.0L);

			ASSERT_TRUE(bl_dist_init(&d, BL_DIST_PARETO, h[i], n[j], 1));
			for (int x = 0; x < 20000; x++) {
				uint64_t u = bl_gen_rand(&g);
				long double r = floorl((n[j] - 1) * powl(u / 0x1p64L, p));

				ASSERT_LE(fabsl(bl_dist_next_pareto(&d, u) - r),
					  1 + r * fmaxl(1, p) * 0x1p-47L)
					TH_LOG("pareto %u n %llu u %#llx", h[i],
					       (unsigned long long)n[j], (unsigned long long)u);
			}
		}
	}
}

/* Every rank gets its own block: the scattering is a bijection of [0, n). */
TEST(scatter_is_a_bijection)
{
	static const uint64_t n[] = { 1, 2, 3, 7, 1000, 4096, 100003, GIB_BLOCKS };
	unsigned char *seen = calloc(GIB_BLOCKS, 1);
	struct bl_dist d;

	ASSERT_NE(NULL, seen);
	for (unsigned int i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		ASSERT_TRUE(bl_dist_init(&d, BL_DIST_ZIPF, 1200, n[i], 77 + i));
		memset(seen, 0, n[i]);
		for (uint64_t r = 0; r < n[i]; r++) {
			uint64_t b = bl_dist_scatter(&d, r);

			ASSERT_LT(b, n[i]);
			ASSERT_EQ(0, seen[b]);
			seen[b] = 1;
		}
	}
	free(seen);
}

/*
 * fio-genzipf's "Sum %" of the top 10%, 20% and 50% rows, run on this
 * machine (fio 3.33 from Debian), e.g. for the first:
 *	fio-genzipf -t zipf -i 1.2 -g 1 -b 4096 -o 10
 * It draws as many samples as there are blocks (262144), ranks the blocks
 * hit at least once by their hits and cuts that list into ten rows.
 */
static const struct fio_ref {
	int type;
	uint32_t param;
	double sum[3];
} fio_ref[] = {
	{ BL_DIST_ZIPF, 1200, { 88.76, 91.58, 95.29 } },
	{ BL_DIST_ZIPF, 800, { 51.54, 62.07, 80.28 } },
	{ BL_DIST_ZIPF, 500, { 28.89, 43.48, 72.13 } },
	{ BL_DIST_ZIPF, 2000, { 99.24, 99.63, 99.88 } },
	{ BL_DIST_PARETO, 300, { 43.35, 55.46, 77.26 } },
	{ BL_DIST_PARETO, 500, { 21.33, 35.67, 68.40 } },
	{ BL_DIST_PARETO, 900, { 31.84, 52.96, 85.89 } },
};

static int hits_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* fio-genzipf's table from our draws: the share of hits in the top 10/20/50%. */
static bool hot_shares(int type, uint32_t param, uint64_t seed, double sum[3])
{
	static const unsigned int rows[3] = { 1, 2, 5 };
	uint32_t *hits = calloc(GIB_BLOCKS, sizeof(*hits));
	struct bl_gen g = { .rng = seed };
	uint64_t nodes = 0, step, acc;
	struct bl_dist d;

	if (!hits || !bl_dist_init(&d, type, param, GIB_BLOCKS, seed)) {
		free(hits);
		return false;
	}
	for (int i = 0; i < GIB_BLOCKS; i++)
		hits[bl_dist_next(&d, &g)]++;
	for (int i = 0; i < GIB_BLOCKS; i++)
		if (hits[i])
			hits[nodes++] = hits[i];
	qsort(hits, nodes, sizeof(*hits), hits_desc);
	step = (nodes - 1) / 10 + 1;
	for (int r = 0; r < 3; r++) {
		acc = 0;
		for (uint64_t k = 0; k < rows[r] * step && k < nodes; k++)
			acc += hits[k];
		sum[r] = 100.0 * acc / GIB_BLOCKS;
	}
	free(hits);
	return true;
}

/* Within 2 percentage points of fio-genzipf, for three seeds each. */
TEST(hot_shares_match_fio_genzipf)
{
	double sum[3];

	for (unsigned int i = 0; i < sizeof(fio_ref) / sizeof(fio_ref[0]); i++) {
		const struct fio_ref *f = &fio_ref[i];

		for (uint64_t seed = 1; seed <= 3; seed++) {
			ASSERT_TRUE(hot_shares(f->type, f->param, seed, sum));
			TH_LOG("%s %u seed %llu: %.2f %.2f %.2f (fio %.2f %.2f %.2f)",
			       f->type == BL_DIST_ZIPF ? "zipf" : "pareto", f->param,
			       (unsigned long long)seed, sum[0], sum[1], sum[2],
			       f->sum[0], f->sum[1], f->sum[2]);
			for (int r = 0; r < 3; r++)
				EXPECT_LE(fabs(sum[r] - f->sum[r]), 2.0);
		}
	}
}

/* The comparison can fail: theta 1.2 is not theta 0.8, pareto 0.3 is not 0.9. */
TEST(hot_shares_tell_parameters_apart)
{
	double sum[3];

	ASSERT_TRUE(hot_shares(BL_DIST_ZIPF, 1200, 1, sum));
	for (int r = 0; r < 3; r++)
		EXPECT_GT(fabs(sum[r] - fio_ref[1].sum[r]), 2.0);
	ASSERT_TRUE(hot_shares(BL_DIST_ZIPF, 800, 1, sum));
	for (int r = 0; r < 3; r++)
		EXPECT_GT(fabs(sum[r] - fio_ref[0].sum[r]), 2.0);
	ASSERT_TRUE(hot_shares(BL_DIST_PARETO, 300, 1, sum));
	for (int r = 0; r < 3; r++)
		EXPECT_GT(fabs(sum[r] - fio_ref[6].sum[r]), 2.0);
}

/*
 * Zipf rank frequencies are those of fio's (Gray's) formula: (r + 1)^-theta /
 * zeta for ranks 0 and 1, then |(r / n)^(1 - theta) - ((r + 1) / n)^(1 - theta)|
 * / |eta|, which is close to (r + 1)^-theta / zeta only far from the head.
 */
TEST(zipf_ranks_follow_gray)
{
	static const uint32_t theta[] = { 500, 1200 };
	uint32_t *hits = calloc(GIB_BLOCKS, sizeof(*hits));
	struct bl_gen g = { .rng = 5 };
	const double n = GIB_BLOCKS;
	struct bl_dist d;

	ASSERT_NE(NULL, hits);
	for (unsigned int i = 0; i < 2; i++) {
		double t = theta[i] / 1000.0, z = (double)zeta_ref(t, GIB_BLOCKS);
		double eta = (1 - pow(2 / n, 1 - t)) / (1 - (1 + pow(2, -t)) / z);

		memset(hits, 0, GIB_BLOCKS * sizeof(*hits));
		ASSERT_TRUE(bl_dist_init(&d, BL_DIST_ZIPF, theta[i], GIB_BLOCKS, 9));
		for (int k = 0; k < 4000000; k++)
			hits[bl_dist_next(&d, &g)]++;
		for (uint64_t r = 0; r < 100000; r = r < 3 ? r + 1 : r * 10) {
			double p = r < 2 ? pow(r + 1, -t) / z :
				   fabs(pow(r / n, 1 - t) - pow((r + 1) / n, 1 - t)) / eta;
			double want = 4e6 * fabs(p), got = hits[bl_dist_scatter(&d, r)];

			EXPECT_LT(fabs(got - want), 5 * sqrt(want) + 1)
				TH_LOG("theta %.1f rank %llu: %.0f hits, want %.0f", t,
				       (unsigned long long)r, got, want);
		}
	}
	free(hits);
}

static void normal_moments(struct __test_metadata *_metadata, uint64_t n, uint32_t dev,
			   double *mean, double *sd)
{
	struct bl_gen g = { .rng = 21 };
	double s = 0, s2 = 0;
	struct bl_dist d;

	ASSERT_TRUE(bl_dist_init(&d, BL_DIST_NORMAL, dev, n, 0));
	for (int i = 0; i < 1000000; i++) {
		uint64_t b = bl_dist_next(&d, &g);

		ASSERT_LT(b, n);
		s += b;
		s2 += (double)b * b;
	}
	*mean = s / 1e6;
	*sd = sqrt(s2 / 1e6 - *mean * *mean);
}

/* Centered on the middle block, deviation DEV% of the range. */
TEST(normal_mean_and_deviation)
{
	static const uint64_t n[] = { GIB_BLOCKS, 1000001, 1ULL << 40 };
	static const uint32_t dev[] = { 100, 1000, 1500 };
	double mean, sd, want;

	for (unsigned int i = 0; i < 3; i++) {
		for (unsigned int j = 0; j < 3; j++) {
			normal_moments(_metadata, n[i], dev[j], &mean, &sd);
			want = (double)n[i] * dev[j] / 10000;
			TH_LOG("normal n %llu dev %u: mean %.5f n, sd %.5f n (want %.5f)",
			       (unsigned long long)n[i], dev[j], mean / n[i], sd / n[i],
			       want / n[i]);
			EXPECT_LT(fabs(mean - (n[i] - 1) / 2.0), 0.001 * n[i]);
			EXPECT_LT(fabs(sd / want - 1), 0.02);
		}
	}
	/* A deviation of 0 is the middle; a wide one stays in the range. */
	normal_moments(_metadata, 1001, 0, &mean, &sd);
	EXPECT_EQ(500, mean);
	normal_moments(_metadata, 1000, 9999, &mean, &sd);
	EXPECT_LT(fabs(mean - 499.5), 5);
}

/* Poisson pacing: mean within 0.5%, variance within 2% of mean^2. */
TEST(exponential_moments)
{
	static const uint64_t mean[] = { 1000, 1000000, 1ULL << 40 };
	struct bl_gen g = { .rng = 31 };

	for (unsigned int i = 0; i < 3; i++) {
		double s = 0, s2 = 0, m, v, x;

		for (int k = 0; k < 1000000; k++) {
			x = bl_dist_exp(&g, mean[i]);
			s += x;
			s2 += x * x;
		}
		m = s / 1e6;
		v = s2 / 1e6 - m * m;
		TH_LOG("exp mean %llu: mean %+.3f%%, variance %+.3f%%",
		       (unsigned long long)mean[i], 100 * (m / mean[i] - 1),
		       100 * (v / ((double)mean[i] * mean[i]) - 1));
		EXPECT_LT(fabs(m / mean[i] - 1), 0.005);
		EXPECT_LT(fabs(v / ((double)mean[i] * mean[i]) - 1), 0.02);
	}
	EXPECT_EQ(0ULL, bl_dist_exp(&g, 0));
}

/* In range for every type and size, from one draw (three for normal). */
TEST(in_range_and_draw_count)
{
	static const uint64_t n[] = { 1, 2, 3, 5, 1000, GIB_BLOCKS, 1ULL << 40,
				      (1ULL << 59) + 12345 };
	static const struct { int type; uint32_t param, draws; } t[] = {
		{ BL_DIST_RANDOM, 0, 1 }, { BL_DIST_ZIPF, 1, 1 }, { BL_DIST_ZIPF, 999, 1 },
		{ BL_DIST_ZIPF, 1001, 1 }, { BL_DIST_ZIPF, 10000, 1 },
		{ BL_DIST_PARETO, 1, 1 }, { BL_DIST_PARETO, 999, 1 },
		{ BL_DIST_NORMAL, 0, 3 }, { BL_DIST_NORMAL, 9999, 3 },
	};
	struct bl_dist d;

	for (unsigned int i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		for (unsigned int j = 0; j < sizeof(t) / sizeof(t[0]); j++) {
			struct bl_gen g = { .rng = i * 100 + j }, h = g;

			if (!bl_dist_init(&d, t[j].type, t[j].param, n[i], 3)) {
				/* only zipf theta < 1 past 2^59 blocks is refused */
				EXPECT_EQ(BL_DIST_ZIPF, t[j].type);
				EXPECT_GT(n[i], 1ULL << 59);
				continue;
			}
			for (int k = 0; k < 20000; k++) {
				ASSERT_LT(bl_dist_next(&d, &g), n[i]);
				for (unsigned int x = 0; x < t[j].draws; x++)
					bl_gen_rand(&h);
				ASSERT_EQ(h.rng, g.rng);
			}
		}
	}
	/* The zoned tables make most of it: 100 zone indices, 16 starts and lengths. */
	EXPECT_LE(sizeof(struct bl_dist), 512UL);
}

TEST(rejects_impossible)
{
	struct bl_dist d;

	EXPECT_FALSE(bl_dist_init(&d, BL_DIST_RANDOM, 0, 0, 1));
	EXPECT_FALSE(bl_dist_init(&d, BL_DIST_ZIPF, 0, 100, 1));
	EXPECT_FALSE(bl_dist_init(&d, BL_DIST_ZIPF, 1000, 100, 1));
	EXPECT_FALSE(bl_dist_init(&d, BL_DIST_ZIPF, 10001, 100, 1));
	EXPECT_FALSE(bl_dist_init(&d, BL_DIST_ZIPF, 1, 1ULL << 62, 1));
	EXPECT_FALSE(bl_dist_init(&d, BL_DIST_PARETO, 0, 100, 1));
	EXPECT_FALSE(bl_dist_init(&d, BL_DIST_PARETO, 1000, 100, 1));
	EXPECT_FALSE(bl_dist_init(&d, BL_DIST_NORMAL, 10000, 100, 1));
	EXPECT_FALSE(bl_dist_init(&d, 6, 0, 100, 1));
	EXPECT_FALSE(bl_dist_init(&d, -1, 0, 100, 1));
	EXPECT_TRUE(bl_dist_init(&d, BL_DIST_ZIPF, 1200, UINT64_MAX, 1));
}

/* fio's zoned and zoned_abs: each zone's blocks as fio computes them, its share of the draws. */
TEST(zones_as_fio)
{
	static const struct bl_dist_zone doc[] = {
		{ 60, 0, 10 }, { 30, 0, 20 }, { 8, 0, 30 }, { 2, 0, 40 },
	};
	/* Sizes adding up to 50: the second half of the range gets nothing. */
	static const struct bl_dist_zone half[] = { { 70, 0, 10 }, { 30, 0, 40 } };
	static const struct bl_dist_zone abs[] = { { 70, 0, 65536 }, { 30, 0, 196608 } };
	/* 1003 blocks: fio rounds each start and length down (block 600 is in no zone). */
	static const uint64_t doc_start[] = { 0, 100, 300, 601 }, doc_len[] = { 100, 200, 300, 401 };
	const int draws = 1000000;
	unsigned int hits[4] = { 0 };
	struct bl_gen g = { .rng = 5 }, h;
	struct bl_dist d;
	uint64_t b;

	ASSERT_TRUE(bl_dist_init(&d, BL_DIST_ZONED, 0, 1003, 1));
	ASSERT_TRUE(bl_dist_set_zones(&d, doc, 4, 4096));
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(doc_start[i], d.zstart[i]);
		EXPECT_EQ(doc_len[i], d.zlen[i]);
	}
	for (int k = 0; k < draws; k++) {
		h = g;
		b = bl_dist_next(&d, &g);
		ASSERT_LT(b, 1002ULL);
		ASSERT_NE(600ULL, b);
		hits[b < 100 ? 0 : b < 300 ? 1 : b < 600 ? 2 : 3]++;
		/* Two draws an IO: the zone, the block. */
		bl_gen_rand(&h);
		bl_gen_rand(&h);
		ASSERT_EQ(h.rng, g.rng);
	}
	for (int i = 0; i < 4; i++) {
		TH_LOG("zone %d: %u of %d draws, %u%% asked", i, hits[i], draws,
		       doc[i].access);
		EXPECT_LT(fabs(100.0 * hits[i] / draws - doc[i].access), 0.3);
	}
	ASSERT_TRUE(bl_dist_init(&d, BL_DIST_ZONED, 0, 1000, 1));
	ASSERT_TRUE(bl_dist_set_zones(&d, half, 2, 4096));
	for (int k = 0; k < draws; k++)
		ASSERT_LT(bl_dist_next(&d, &g), 500ULL);
	/* zoned_abs in bytes: 64 KiB and 192 KiB of 4 KiB blocks. */
	ASSERT_TRUE(bl_dist_init(&d, BL_DIST_ZONED_ABS, 0, 1000, 1));
	ASSERT_TRUE(bl_dist_set_zones(&d, abs, 2, 4096));
	EXPECT_EQ(0, d.zstart[0]);
	EXPECT_EQ(16, d.zlen[0]);
	EXPECT_EQ(16, d.zstart[1]);
	EXPECT_EQ(48, d.zlen[1]);
	for (int k = 0; k < draws; k++)
		ASSERT_LT(bl_dist_next(&d, &g), 64ULL);
}

TEST(zones_rejected)
{
	static const struct { int type; struct bl_dist_zone z[3]; unsigned int n; } bad[] = {
		{ BL_DIST_ZONED, { { 50, 0, 10 }, { 40, 0, 10 } }, 2 },	/* 90% of the IOs */
		{ BL_DIST_ZONED, { { 50, 0, 60 }, { 50, 0, 60 } }, 2 },	/* 120% of the range */
		{ BL_DIST_ZONED, { { 50, 0, 0 }, { 50, 0, 100 } }, 2 },	/* IOs, no blocks */
		{ BL_DIST_ZONED, { { 100, 1, 100 } }, 1 },			/* resv */
		{ BL_DIST_ZONED, { { 100, 0, 100 } }, 0 },
		{ BL_DIST_ZONED_ABS, { { 50, 0, 4096 }, { 50, 0, 1000 * 4096 } }, 2 },	/* past */
		{ BL_DIST_ZONED_ABS, { { 50, 0, 2048 }, { 50, 0, 4096 } }, 2 },	/* no block */
		{ BL_DIST_RANDOM, { { 100, 0, 100 } }, 1 },
	};
	struct bl_dist d;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_TRUE(bl_dist_init(&d, bad[i].type, 0, 1000, 1));
		EXPECT_FALSE(bl_dist_set_zones(&d, bad[i].z, bad[i].n, 4096)) TH_LOG("case %u", i);
	}
	/* A zone of no IOs may hold nothing. */
	{
		static const struct bl_dist_zone ok[] = { { 0, 0, 0 }, { 100, 0, 100 } };

		ASSERT_TRUE(bl_dist_init(&d, BL_DIST_ZONED, 0, 1000, 1));
		EXPECT_TRUE(bl_dist_set_zones(&d, ok, 2, 4096));
	}
}

/*
 * Golden values: the first draws of each type for generator state 42 and
 * seed 7 over 1 GiB of 4 KiB blocks. A change here changes every job's
 * sequence; make it on purpose only.
 */
TEST(golden_sequences)
{
	static const struct { int type; uint32_t param; uint64_t v[6]; } gold[] = {
		{ BL_DIST_RANDOM, 0, { 194396, 41919, 73033, 90227, 9969, 227600 } },
		{ BL_DIST_ZIPF, 1200, { 235926, 113024, 168015, 30927, 113024, 22550 } },
		{ BL_DIST_ZIPF, 800, { 206025, 123323, 236326, 161854, 30927, 259032 } },
		{ BL_DIST_PARETO, 300, { 249688, 2755, 219780, 191052, 62427, 49785 } },
		{ BL_DIST_NORMAL, 1000, { 121148, 104660, 97825, 102878, 135217, 124050 } },
	};
	static const uint64_t exp_gold[6] = { 299, 1833, 1278, 1067, 3269, 141 };
	struct bl_gen g;
	struct bl_dist d;

	for (unsigned int i = 0; i < sizeof(gold) / sizeof(gold[0]); i++) {
		g = (struct bl_gen){ .rng = 42 };
		ASSERT_TRUE(bl_dist_init(&d, gold[i].type, gold[i].param, GIB_BLOCKS, 7));
		for (int k = 0; k < 6; k++) {
			uint64_t v = bl_dist_next(&d, &g);

			EXPECT_EQ(gold[i].v[k], v);
		}
	}
	g = (struct bl_gen){ .rng = 42 };
	for (int k = 0; k < 6; k++) {
		uint64_t v = bl_dist_exp(&g, 1000);

		EXPECT_EQ(exp_gold[k], v);
	}
}

TEST_HARNESS_MAIN
