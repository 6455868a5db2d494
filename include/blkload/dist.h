/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * blkload random access distributions, fio's random_distribution= models:
 * random (uniform), zipf:THETA, pareto:H, normal:DEV, zoned and zoned_abs.
 * Integer arithmetic only, so that the kernel module and userspace turn the
 * same bl_gen_rand() draws into the same block indices, bit for bit. Each
 * bl_dist_next() takes a fixed number of draws from the caller's generator:
 * three for normal, two for zoned (the zone, the block in it), one for the
 * others.
 *
 * zipf: rank r (0 is the hottest) has probability about (r + 1)^-theta /
 * zeta(n, theta), drawn as fio does with the inverse CDF of Gray et al.,
 * "Quickly generating billion-record synthetic databases" (SIGMOD 1994):
 * ranks 0 and 1 exactly, the others by the continuous approximation rank =
 * n * (1 - eta * (1 - u))^(1 / (1 - theta)) (which, as in fio, gives the
 * ranks just past 1 more than their share when theta > 1), evaluated as a
 * power of two of fixed-point logarithms. zeta(n, theta) is the exact sum of
 * its first BL_DIST_ZETA_K - 1 terms plus an Euler-Maclaurin tail (integral,
 * end terms, first and third derivatives); its relative error is below 1e-12
 * (the unit test checks theta 0.001 to 10, n up to 2^40). fio sums at most
 * 10M terms, so above 10M blocks fio's zeta is a little low.
 *
 * pareto: fio's power law, rank = (n - 1) * u^(log(h) / log(1 - h)).
 *
 * zipf and pareto ranks are scattered over the range as fio does, so that the
 * hot blocks are not all at the start: rank r goes to block (hash(r) + off)
 * mod n, where hash is a seeded bijection of [0, n) (xorshift-multiply rounds
 * on the next power of two, cycle-walking the values past n: one round for
 * a power-of-two n, under two on average) and off a seeded rotation. Like
 * fio's multiplicative hash for a power-of-two n, no two ranks share a block.
 *
 * normal: centered on the middle of the range, with a standard deviation of
 * DEV percent of the range, from the sum of twelve uniforms (Irwin-Hall, as
 * fio; tails end at six deviations). Draws beyond the range have their
 * deviation halved until they fit, as fio does. Unlike fio the blocks are not
 * scattered, and the deviation is DEV percent exactly (fio adds its uniform
 * DEV spread to a fixed sum-of-uniforms spread of 1/12 of the range).
 *
 * Fixed point: bl_dist_log2() and bl_dist_exp2() work in Q16.48. bl_dist_log2()
 * is within 2^-48 of log2(x); bl_dist_exp2() is within 2^-50 relative of the
 * true power before it is truncated to an integer. A zipf or pareto rank r
 * is within 1 + r k 2^-47 of fio's formula evaluated exactly, with k the
 * larger of 1 and 1 / |1 - theta| or the pareto exponent (tested up to 2^48
 * blocks). For theta > 1 with (theta - 1) log2(n / 2) past about 30 (theta 2
 * over 2^40 blocks) the coldest ranks, drawn less than once in 10^12, are
 * coarser: up to 1e-3 relative at theta 5. The per-IO path does no division.
 */
#ifndef _BLKLOAD_DIST_H
#define _BLKLOAD_DIST_H

#include "offset.h"

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/math64.h>
#define BL_DIST_DIV64(a, b) div64_u64(a, b)
#else
#define BL_DIST_DIV64(a, b) ((a) / (b))
#endif

enum {
	BL_DIST_RANDOM, BL_DIST_ZIPF, BL_DIST_PARETO, BL_DIST_NORMAL, BL_DIST_ZONED,
	BL_DIST_ZONED_ABS
};

/* A zone of fio's zoned (size in percent) or zoned_abs (bytes) distribution. */
struct bl_dist_zone {
	BL_GEN_U32 access;	/* percent of the IOs */
	BL_GEN_U32 resv;	/* 0 */
	BL_GEN_U64 size;	/* percent of the range (zoned), bytes (zoned_abs) */
};

#define BL_DIST_ZONES_MAX	16

#define BL_DIST_FRAC		48	/* fraction bits of bl_dist_log2(), bl_dist_exp2() */
#define BL_DIST_ONE		((BL_GEN_U64)1 << BL_DIST_FRAC)
#define BL_DIST_ZETA_K		256	/* zeta terms summed one by one */
#define BL_DIST_THETA_MAX	10000	/* zipf theta up to 10.0 */
#define BL_DIST_LN2		0xb17217f7d1cf79acULL	/* ln(2), Q0.64 */
#define BL_DIST_LOG2E		0x5c551d94ae0bf85eULL	/* 1 / ln(2), Q2.62 */

/*
 * The state of one distribution over one range; the caller owns it. Which
 * fields mean what depends on the type; those unused are zero.
 */
struct bl_dist {
	BL_GEN_U64 nblocks;
	BL_GEN_U64 off;		/* zipf, pareto: rotation of the scattered ranks */
	BL_GEN_U64 key;		/* zipf, pareto: key of the scattering bijection */
	BL_GEN_U64 t1;		/* zipf: P(rank 0), Q0.64 */
	BL_GEN_U64 t2;		/* zipf: P(rank 0 or 1), Q0.64 */
	BL_GEN_U64 eta;		/* zipf: Gray's |eta| (scaled, below), Q(64 - shift) */
	BL_GEN_U64 lo;		/* zipf, theta > 1: (n / 2)^(1 - theta), Q0.64 */
	BL_GEN_U64 mul;		/* zipf: 1 / |1 - theta|, Q52; pareto: exponent;
				 * normal: deviation in blocks; both Q(shift)
				 */
	BL_GEN_U64 top;		/* zipf: log2(n); pareto: log2(n - 1); Q48 */
	BL_GEN_U32 type;
	BL_GEN_U32 shift;	/* zipf: integer bits of eta; pareto, normal: see mul */
	BL_GEN_U32 bits;	/* zipf, pareto: width of the scattering bijection */
	bool neg;		/* zipf: theta > 1 */
	/* zoned: the zone of each percent of the IOs, each zone's blocks */
	BL_GEN_U8 zi[100];
	BL_GEN_U64 zstart[BL_DIST_ZONES_MAX];
	BL_GEN_U64 zlen[BL_DIST_ZONES_MAX];
};

/* Position of the most significant set bit, 1 to 64; 0 for 0. */
static inline int bl_dist_fls64(BL_GEN_U64 v)
{
#ifdef __KERNEL__
	return fls64(v);
#else
	return v ? 64 - __builtin_clzll(v) : 0;
#endif
}

/* (@a * @b) >> @s for @s below 128, saturating at ~0. */
static inline BL_GEN_U64 bl_dist_mulshr(BL_GEN_U64 a, BL_GEN_U64 b, unsigned int s)
{
	BL_GEN_U64 hi = bl_gen_mulhi(a, b), lo = a * b;

	if (s >= 64)
		return hi >> (s - 64);
	if (hi >> s)
		return ~0ULL;
	return s ? (hi << (64 - s)) | (lo >> s) : lo;
}

/*
 * floor(@num * 2^@bits / @den) for @den > 0, by long division (setup only);
 * the quotient must fit in 64 bits.
 */
static inline BL_GEN_U64 bl_dist_fdiv(BL_GEN_U64 num, BL_GEN_U64 den, unsigned int bits)
{
	BL_GEN_U64 q = BL_DIST_DIV64(num, den), r = num - q * den;
	bool carry;

	while (bits--) {
		carry = r >> 63;
		r <<= 1;
		q <<= 1;
		if (carry || r >= den) {
			r -= den;
			q |= 1;
		}
	}
	return q;
}

/* floor(@x * @m / @d) for @d > 0 (setup only); the result must fit in 64 bits. */
static inline BL_GEN_U64 bl_dist_muldiv(BL_GEN_U64 x, BL_GEN_U32 m, BL_GEN_U32 d)
{
	BL_GEN_U64 q = BL_DIST_DIV64(x, d);

	return q * m + BL_DIST_DIV64((x - q * d) * m, d);
}

/*
 * log2(@x) in Q16.48, within 2^-48 (one unit); 0 for @x = 0. Reduces x to
 * [1, 2), divides by a table value 1 + j/32 (a multiply by its reciprocal)
 * and takes the series of ln(1 + y) to y^9 for the remaining y < 1/32.
 */
static inline BL_GEN_U64 bl_dist_log2(BL_GEN_U64 x)
{
	/* ceil(2^63 * 32 / (32 + j)), Q1.63 */
	static const BL_GEN_U64 rcp[32] = {
		0x8000000000000000ULL, 0x7c1f07c1f07c1f08ULL, 0x7878787878787879ULL,
		0x7507507507507508ULL, 0x71c71c71c71c71c8ULL, 0x6eb3e45306eb3e46ULL,
		0x6bca1af286bca1b0ULL, 0x6906906906906907ULL, 0x6666666666666667ULL,
		0x63e7063e7063e707ULL, 0x6186186186186187ULL, 0x5f417d05f417d060ULL,
		0x5d1745d1745d1746ULL, 0x5b05b05b05b05b06ULL, 0x590b21642c8590b3ULL,
		0x572620ae4c415c99ULL, 0x5555555555555556ULL, 0x5397829cbc14e5e1ULL,
		0x51eb851eb851eb86ULL, 0x5050505050505051ULL, 0x4ec4ec4ec4ec4ec5ULL,
		0x4d4873ecade304d5ULL, 0x4bda12f684bda130ULL, 0x4a7904a7904a7905ULL,
		0x4924924924924925ULL, 0x47dc11f7047dc120ULL, 0x469ee58469ee5847ULL,
		0x456c797dd49c3412ULL, 0x4444444444444445ULL, 0x4325c53ef368eb05ULL,
		0x4210842108421085ULL, 0x4104104104104105ULL,
	};
	/* -log2(rcp[j] / 2^63), rounded, Q2.62 */
	static const BL_GEN_U64 lg[32] = {
		0x0000000000000000ULL, 0x02d75a6eb1dfb0e6ULL, 0x0598fdbeb244c59fULL,
		0x08462c466d3cf1cbULL, 0x0ae00d1cfdeb43cfULL, 0x0d67af16da7649f7ULL,
		0x0fde0b5c81340511ULL, 0x124407ab0e073982ULL, 0x149a784bcd1b8afeULL,
		0x16e221cd9d0cde57ULL, 0x191bba891f1708b4ULL, 0x1b47ebf73882a0a3ULL,
		0x1d6753e032ea0efeULL, 0x1f7a8568cb06ceceULL, 0x21820a01ac754cb0ULL,
		0x237e623d2ba01bc7ULL, 0x2570068e7ef5a1e7ULL, 0x275767f54042cd99ULL,
		0x2934f0979a3715fcULL, 0x2b09044d313a6786ULL, 0x2cd4011c8f11979aULL,
		0x2e963fac9c0ea78dULL, 0x305013ab7ce0e5b7ULL, 0x3201cc2c000599fcULL,
		0x33abb3faa02166ccULL, 0x354e11eb0029a6f9ULL, 0x36e9291eaa65b496ULL,
		0x387d3945c340aa66ULL, 0x3a0a7eda4c112ce5ULL, 0x3b9133567fead8bcULL,
		0x3d118d66c4d4e553ULL, 0x3e8bc1179e0caa9bULL,
	};
	/* 1/2 to 1/9, Q0.64 */
	static const BL_GEN_U64 inv[8] = {
		0x8000000000000000ULL, 0x5555555555555555ULL, 0x4000000000000000ULL,
		0x3333333333333333ULL, 0x2aaaaaaaaaaaaaabULL, 0x2492492492492492ULL,
		0x2000000000000000ULL, 0x1c71c71c71c71c72ULL,
	};
	BL_GEN_U64 m, y, t;
	int k, j, i;

	if (!x)
		return 0;
	k = bl_dist_fls64(x) - 1;
	m = x << (63 - k);				/* x / 2^k, Q1.63 */
	j = (m >> 58) & 31;
	y = (bl_gen_mulhi(m, rcp[j]) - (1ULL << 62)) << 2;	/* Q0.64, below 1/32 */
	/* ln(1 + y) = y - y^2 (1/2 - y (1/3 - y (1/4 - ...))), every bracket positive */
	t = inv[7];
	for (i = 6; i >= 0; i--)
		t = inv[i] - bl_gen_mulhi(y, t);
	y -= bl_gen_mulhi(y, bl_gen_mulhi(y, t));
	t = lg[j] + bl_gen_mulhi(y, BL_DIST_LOG2E);	/* log2(x / 2^k), Q2.62 */
	return ((BL_GEN_U64)k << BL_DIST_FRAC) + ((t + (1ULL << 13)) >> 14);
}

/*
 * floor(2^(@e / 2^48)) for @e in Q16.48, ~0 from 2^64 up. The power before
 * the floor is within 2^-50 relative: a table value 2^(j/32) times the
 * series of e^y to y^6 for the remaining y < ln(2)/32.
 */
static inline BL_GEN_U64 bl_dist_exp2(BL_GEN_U64 e)
{
	/* 2^(j/32), rounded, Q2.62 */
	static const BL_GEN_U64 pw[32] = {
		0x4000000000000000ULL, 0x4166c34c5615d0ecULL, 0x42d561b3e6243d8aULL,
		0x444c0740496d4294ULL, 0x45cae0f1f545eb73ULL, 0x47521cc5a2e6a9e0ULL,
		0x48e1e9b9d588e19bULL, 0x4a7a77d47f7b84b1ULL, 0x4c1bf828c6dc54b8ULL,
		0x4dc69cdceaa72a9cULL, 0x4f7a993048d088d7ULL, 0x513821818624b40cULL,
		0x52ff6b54d8a89c75ULL, 0x54d0ad5a753e077cULL, 0x56ac1f752150a563ULL,
		0x5891fac0e95612c8ULL, 0x5a827999fcef3242ULL, 0x5c7dd7a3b17dcf75ULL,
		0x5e8451cfac061b5fULL, 0x6096266533384a2bULL, 0x62b39508aa836d6fULL,
		0x64dcdec3371793d1ULL, 0x6712460a8fc24072ULL, 0x69540ec8f895722dULL,
		0x6ba27e656b4eb57aULL, 0x6dfddbcbed791babULL, 0x70666f76154a7089ULL,
		0x72dc8373be41a454ULL, 0x75606373ee921c97ULL, 0x77f25ccdee6d7ae6ULL,
		0x7a92be8a92436616ULL, 0x7d41d96db915019dULL,
	};
	/* 1/2! to 1/6!, Q0.64 */
	static const BL_GEN_U64 fact[5] = {
		0x8000000000000000ULL, 0x2aaaaaaaaaaaaaabULL, 0x0aaaaaaaaaaaaaabULL,
		0x0222222222222222ULL, 0x005b05b05b05b05bULL,
	};
	unsigned int k = e >> BL_DIST_FRAC, j = (e >> 43) & 31;
	BL_GEN_U64 y, s, m;
	int i;

	if (k >= 64)
		return ~0ULL;
	y = bl_gen_mulhi((e & ((1ULL << 43) - 1)) << 16, BL_DIST_LN2);	/* Q0.64 */
	/* e^y - 1 = y + y^2 (1/2 + y (1/6 + y (1/24 + ...))) */
	s = fact[4];
	for (i = 3; i >= 0; i--)
		s = fact[i] + bl_gen_mulhi(y, s);
	s = y + bl_gen_mulhi(y, bl_gen_mulhi(y, s));
	m = pw[j] + bl_gen_mulhi(pw[j], s);		/* 2^(e mod 1), Q2.62 */
	return k >= 62 ? m << (k - 62) : m >> (62 - k);
}

/* 2^@zs * @x^(@milli / 1000), or x^-(milli / 1000) if @neg, floored; @x >= 1. */
static inline BL_GEN_U64 bl_dist_pow(BL_GEN_U64 x, BL_GEN_U32 milli, bool neg, unsigned int zs)
{
	BL_GEN_U64 e = bl_dist_muldiv(bl_dist_log2(x), milli, 1000);
	BL_GEN_U64 z = (BL_GEN_U64)zs << BL_DIST_FRAC;

	if (!neg)
		return bl_dist_exp2(z + e);
	return e > z ? 0 : bl_dist_exp2(z - e);
}

/*
 * The scale, in bits, at which bl_dist_zeta() sums zeta(@n, @theta / 1000)
 * so that it stays below 2^61; negative when it cannot (theta near 0 and n
 * past about 2^59 blocks).
 */
static inline int bl_dist_zeta_shift(BL_GEN_U32 theta, BL_GEN_U64 n)
{
	BL_GEN_U32 adiff = theta < 1000 ? 1000 - theta : theta - 1000;
	BL_GEN_U64 b = 0;

	/* zeta < 1 + n^(1 - theta) / (1 - theta) below 1, 1 + 1 / (theta - 1) above */
	if (theta < 1000)
		b = bl_dist_muldiv(bl_dist_log2(n), adiff, 1000);
	if (adiff < 1000)
		b += bl_dist_log2(1000) - bl_dist_log2(adiff);
	return 59 - (int)(b >> BL_DIST_FRAC);
}

/*
 * zeta(@n, @theta / 1000) = sum of i^-theta for i = 1..n, times 2^@zs (from
 * bl_dist_zeta_shift()); theta > 0, not 1. The first BL_DIST_ZETA_K - 1 terms
 * one by one, the rest by Euler-Maclaurin: the integral, half the end terms,
 * and the B2 and B4 derivative terms. The next term, below 2^-48 of a term
 * at K for theta up to 10, is left out; with the fixed-point terms the
 * relative error stays below 1e-12.
 */
static inline BL_GEN_U64 bl_dist_zeta(BL_GEN_U32 theta, BL_GEN_U64 n, unsigned int zs)
{
	BL_GEN_U32 adiff = theta < 1000 ? 1000 - theta : theta - 1000;
	BL_GEN_U64 k = BL_DIST_ZETA_K, z = 0, i, t;

	for (i = 1; i < k && i <= n; i++)
		z += bl_dist_pow(i, theta, true, zs);
	if (n < k)
		return z;
	/* The integral of x^-theta from K to n */
	if (theta < 1000)
		t = bl_dist_pow(n, adiff, false, zs) - bl_dist_pow(k, adiff, false, zs);
	else
		t = bl_dist_pow(k, adiff, true, zs) - bl_dist_pow(n, adiff, true, zs);
	z += bl_dist_muldiv(t, 1000, adiff);
	/* (f(K) + f(n)) / 2 */
	z += (bl_dist_pow(k, theta, true, zs) + bl_dist_pow(n, theta, true, zs)) / 2;
	/* B2 / 2! (f'(n) - f'(K)) = theta / 12 (K^-(theta + 1) - n^-(theta + 1)) */
	t = bl_dist_pow(k, theta + 1000, true, zs) - bl_dist_pow(n, theta + 1000, true, zs);
	z += bl_dist_muldiv(t, theta, 12000);
	/* B4 / 4! (f'''(n) - f'''(K)) = -theta (theta + 1) (theta + 2) / 720 (...) */
	t = bl_dist_pow(k, theta + 3000, true, zs) - bl_dist_pow(n, theta + 3000, true, zs);
	t = bl_dist_muldiv(t, theta, 1000);
	t = bl_dist_muldiv(t, theta + 1000, 1000);
	return z - bl_dist_muldiv(t, theta + 2000, 720000);
}

/* One round of the scattering bijection of [0, 2^bits). */
static inline BL_GEN_U64 bl_dist_perm(const struct bl_dist *d, BL_GEN_U64 x)
{
	return bl_gen_perm(x, d->key, d->bits);
}

/* The block of rank @r < n: (hash(r) + off) mod n, hash a bijection of [0, n). */
static inline BL_GEN_U64 bl_dist_scatter(const struct bl_dist *d, BL_GEN_U64 r)
{
	if (!d->bits)
		return 0;
	/* Cycle-walking: the cycle of r < n comes back below n. */
	do
		r = bl_dist_perm(d, r);
	while (r >= d->nblocks);
	r += d->off;
	return r >= d->nblocks ? r - d->nblocks : r;
}

static inline bool bl_dist_init_zipf(struct bl_dist *d, BL_GEN_U32 theta)
{
	BL_GEN_U64 n = d->nblocks, z, z2, l;
	BL_GEN_U32 adiff;
	int zs;

	if (!theta || theta == 1000 || theta > BL_DIST_THETA_MAX)
		return false;
	zs = bl_dist_zeta_shift(theta, n);
	if (zs < 0)
		return false;
	z = bl_dist_zeta(theta, n, zs);
	z2 = (1ULL << zs) + bl_dist_pow(2, theta, true, zs);
	d->t1 = n < 2 ? ~0ULL : bl_dist_fdiv(1ULL << zs, z, 64);
	d->t2 = ~0ULL;
	d->neg = theta > 1000;
	d->top = bl_dist_log2(n);
	if (n <= 2 || z <= z2)
		return true;	/* no rank past the second */
	d->t2 = bl_dist_fdiv(z2, z, 64);
	/*
	 * Gray's base 1 - eta (1 - u) runs from (2/n)^(1 - theta) at u = t2 to 1.
	 * With L = |1 - theta| log2(n / 2) and c = (1 - 2^-L) / (1 - t2) (= |eta|
	 * below 1, |eta| 2^-L above), it is 1 - c v below 1 and 2^L (2^-L + c v)
	 * above, for v = 1 - u: both factors in (0, 1], so Q0.64.
	 */
	adiff = d->neg ? theta - 1000 : 1000 - theta;
	l = bl_dist_muldiv(d->top - BL_DIST_ONE, adiff, 1000);
	d->lo = l < 64 * BL_DIST_ONE ? bl_dist_exp2(64 * BL_DIST_ONE - l) : 0;
	/* c = (1 - 2^-L) z / (z - z2), held as c 2^(64 - shift) */
	d->shift = bl_dist_fls64(BL_DIST_DIV64(z, z - z2));
	d->eta = bl_gen_mulhi(bl_dist_fdiv(z, z - z2, 64 - d->shift),
			      d->lo ? 0 - d->lo : ~0ULL);
	d->mul = bl_dist_fdiv(1000, adiff, 52);
	return true;
}

/*
 * Sets up @d: @type is BL_DIST_*, @param is theta (zipf, > 0, not 1, up to
 * 10) or h (pareto, 0 < h < 1) in thousandths (1200 = 1.2), or the normal's
 * deviation in hundredths of a percent of the range (fio's DEV% x 100, below
 * 10000); random takes none. @nblocks >= 1; @seed scatters the hot blocks of
 * zipf and pareto. Returns false on impossible input. Takes about 10 us
 * on a current x86-64 (zipf: BL_DIST_ZETA_K logarithms and powers).
 */
static inline bool bl_dist_init(struct bl_dist *d, int type, BL_GEN_U32 param,
				BL_GEN_U64 nblocks, BL_GEN_U64 seed)
{
	BL_GEN_U64 a, b;

	*d = (struct bl_dist){ .nblocks = nblocks, .type = type };
	if (!nblocks)
		return false;
	switch (type) {
	case BL_DIST_RANDOM:
	case BL_DIST_ZONED:	/* bl_dist_set_zones() next */
	case BL_DIST_ZONED_ABS:
		return true;
	case BL_DIST_NORMAL:
		if (param >= 10000)
			return false;
		/* sigma = n param / 10000 blocks, Q(shift): up to 16 fraction bits */
		d->shift = 64 - bl_dist_fls64(nblocks);
		if (d->shift > 16)
			d->shift = 16;
		d->mul = bl_dist_mulshr(nblocks, bl_dist_fdiv(param, 10000, 64), 64 - d->shift);
		return true;
	case BL_DIST_ZIPF:
	case BL_DIST_PARETO:
		break;
	default:
		return false;
	}
	d->bits = bl_dist_fls64(nblocks - 1);
	d->key = bl_gen_mix(seed + 0x9e3779b97f4a7c15ULL);
	d->off = bl_gen_mulhi(bl_gen_mix(d->key), nblocks);
	if (type == BL_DIST_ZIPF)
		return bl_dist_init_zipf(d, param);
	if (!param || param >= 1000)
		return false;
	/*
	 * p = log(h) / log(1 - h) = log2(1000 / h) / log2(1000 / (1000 - h)),
	 * from 1.4e-4 to 6904, held with 63 significant bits: Q(shift).
	 */
	a = bl_dist_log2(1000) - bl_dist_log2(param);
	b = bl_dist_log2(1000) - bl_dist_log2(1000 - param);
	d->shift = BL_DIST_FRAC + 63 - bl_dist_fls64(bl_dist_fdiv(a, b, BL_DIST_FRAC));
	d->mul = bl_dist_fdiv(a, b, d->shift);
	d->top = nblocks > 1 ? bl_dist_log2(nblocks - 1) : 0;
	return true;
}

/*
 * The zones of a zoned (@d set up with BL_DIST_ZONED) or zoned_abs
 * distribution, from the range's start: @n (1 to BL_DIST_ZONES_MAX) zones
 * whose access percents add up to 100. zoned, as fio: zone i starts at
 * nblocks x (the sizes before it) / 100 and holds nblocks x size / 100
 * blocks, both rounded down, the sizes adding up to at most 100. zoned_abs:
 * sizes in bytes, blocks of @unit bytes, a zone from its start's block to
 * its end's, every zone inside the range. A zone with IOs must hold a block.
 * Returns false on impossible input.
 */
static inline bool bl_dist_set_zones(struct bl_dist *d, const struct bl_dist_zone *z,
				     unsigned int n, BL_GEN_U64 unit)
{
	BL_GEN_U64 at = 0, start, end;
	BL_GEN_U32 cum = 0, v = 0;
	unsigned int i;

	if ((d->type != BL_DIST_ZONED && d->type != BL_DIST_ZONED_ABS) || !n ||
	    n > BL_DIST_ZONES_MAX || !unit)
		return false;
	for (i = 0; i < n; i++) {
		if (z[i].resv || z[i].access > 100 - cum)
			return false;
		if (d->type == BL_DIST_ZONED) {
			if (z[i].size > 100 - at)
				return false;
			start = bl_dist_muldiv(d->nblocks, (BL_GEN_U32)at, 100);
			end = start + bl_dist_muldiv(d->nblocks, (BL_GEN_U32)z[i].size, 100);
			at += z[i].size;
		} else {
			if (z[i].size > d->nblocks * unit - at)
				return false;
			start = BL_DIST_DIV64(at, unit);
			at += z[i].size;
			end = BL_DIST_DIV64(at, unit);
		}
		if (z[i].access && end == start)
			return false;
		d->zstart[i] = start;
		d->zlen[i] = end - start;
		cum += z[i].access;
		while (v < cum)
			d->zi[v++] = (BL_GEN_U8)i;
	}
	return cum == 100;
}

static inline BL_GEN_U64 bl_dist_next_zipf(const struct bl_dist *d, BL_GEN_U64 u)
{
	BL_GEN_U64 cv, b, s, e, r;

	if (u < d->t1)
		return 0;
	if (u < d->t2)
		return 1;
	cv = bl_dist_mulshr(d->eta, 0 - u, 64 - d->shift);	/* c (1 - u), Q0.64 */
	if (d->neg) {
		b = d->lo + cv;
		if (b < cv)
			b = ~0ULL;
		if (!b)
			return d->nblocks - 1;
	} else {
		b = cv ? 0 - cv : ~0ULL;
	}
	/*
	 * rank = 2^E with lambda = -log2(b): E = log2(n) - lambda / (1 - theta)
	 * below 1, 1 + lambda / (theta - 1) above (b is then the base / 2^L).
	 */
	s = bl_dist_mulshr(64 * BL_DIST_ONE - bl_dist_log2(b), d->mul, 52);
	if (d->neg)
		e = s < d->top - BL_DIST_ONE ? BL_DIST_ONE + s : d->top;
	else
		e = s < d->top ? d->top - s : 0;
	r = bl_dist_exp2(e);
	return r < d->nblocks ? r : d->nblocks - 1;
}

static inline BL_GEN_U64 bl_dist_next_pareto(const struct bl_dist *d, BL_GEN_U64 u)
{
	BL_GEN_U64 s, r;

	if (!u)
		return 0;
	/* rank = (n - 1) u^p = 2^(log2(n - 1) - p lambda), lambda = -log2(u) */
	s = bl_dist_mulshr(64 * BL_DIST_ONE - bl_dist_log2(u), d->mul, d->shift);
	if (d->nblocks < 2 || s > d->top)
		return 0;
	r = bl_dist_exp2(d->top - s);
	return r < d->nblocks ? r : d->nblocks - 1;
}

/* Sum of the four 16-bit lanes of @x. */
static inline BL_GEN_U64 bl_dist_lanes(BL_GEN_U64 x)
{
	x = (x & 0x0000ffff0000ffffULL) + ((x >> 16) & 0x0000ffff0000ffffULL);
	return (x & 0xffffffffULL) + (x >> 32);
}

static inline BL_GEN_U64 bl_dist_next_normal(const struct bl_dist *d, struct bl_gen *g)
{
	BL_GEN_U64 n = d->nblocks, c = n / 2, limit = (n & 1) ? c : c - 1, sum, dev, t;
	unsigned int sh = 16 + d->shift;
	bool up;

	/* Twelve 16-bit uniforms: their sum has mean 6 * 65535, deviation 65536. */
	sum = bl_dist_lanes(bl_gen_rand(g));
	sum += bl_dist_lanes(bl_gen_rand(g));
	sum += bl_dist_lanes(bl_gen_rand(g));
	up = sum >= 6 * 65535;
	dev = up ? sum - 6 * 65535 : 6 * 65535 - sum;
	/*
	 * Even n: the middle is between blocks c - 1 and c; a deviation of t
	 * blocks (floored) goes to c + t or c - 1 - t. Odd n: the middle is
	 * block c, t is rounded, to c + t or c - t.
	 */
	for (;; sh++) {
		if (n & 1)
			t = (bl_dist_mulshr(d->mul, dev, sh - 1) + 1) >> 1;
		else
			t = bl_dist_mulshr(d->mul, dev, sh);
		if (t <= limit)
			break;
	}
	if (up)
		return c + t;
	return (n & 1) ? c - t : c - 1 - t;
}

/* A block index in [0, nblocks) drawn with randomness from @g. */
static inline BL_GEN_U64 bl_dist_next(const struct bl_dist *d, struct bl_gen *g)
{
	switch (d->type) {
	case BL_DIST_ZIPF:
		return bl_dist_scatter(d, bl_dist_next_zipf(d, bl_gen_rand(g)));
	case BL_DIST_PARETO:
		return bl_dist_scatter(d, bl_dist_next_pareto(d, bl_gen_rand(g)));
	case BL_DIST_NORMAL:
		return bl_dist_next_normal(d, g);
	case BL_DIST_ZONED:
	case BL_DIST_ZONED_ABS: {
		BL_GEN_U8 z = d->zi[bl_gen_below(g, 100)];

		return d->zstart[z] + bl_gen_below(g, d->zlen[z]);
	}
	default:
		return bl_gen_below(g, d->nblocks);
	}
}

/*
 * bl_gen_op_len() with the first unit of a random stream's IO drawn from @d
 * (set up over the stream's units; an IO that would end past the region is
 * moved back to end at its end); a sequential stream, or a uniform @d, draws
 * as bl_gen_op_len() does, the same values.
 */
static inline int bl_gen_op_dist(struct bl_gen *g, const struct bl_dist *d, BL_GEN_U64 *off,
				 BL_GEN_U32 *len)
{
	int op = bl_gen_draw_op(g);
	BL_GEN_U64 k = bl_gen_units(g, op);

	if (g->random && d->type != BL_DIST_RANDOM)
		*off = g->base + bl_gen_fit(g, bl_dist_next(d, g), k) * g->bs;
	else
		*off = g->base + bl_gen_block(g, k) * g->bs;
	*len = (BL_GEN_U32)(k * g->bs);
	return op;
}

/*
 * An exponential variate of mean @mean (e.g. nanoseconds between arrivals
 * for Poisson pacing), rounded: mean * -ln(u) for u = draw / 2^64 from one
 * draw (a zero draw counts as 1), so at most 44.4 * mean; saturates at ~0.
 */
static inline BL_GEN_U64 bl_dist_exp(struct bl_gen *g, BL_GEN_U64 mean)
{
	BL_GEN_U64 lambda = 64 * BL_DIST_ONE - bl_dist_log2(bl_gen_rand(g)), x;

	/* -ln(u) = lambda ln(2), Q7.57 */
	x = bl_dist_mulshr(mean, bl_gen_mulhi(lambda << 9, BL_DIST_LN2), 56);
	return x == ~0ULL ? x : (x >> 1) + (x & 1);
}

#endif /* _BLKLOAD_DIST_H */
