/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * blkload latency accumulator, shared by the kernel module and every
 * userspace engine: one way to count a latency sample, so that min, max,
 * mean and standard deviation mean the same on every path.
 *
 * The sum and the sum of squares are kept in 128 bits (a low and a high
 * u64): a long run at a high queue depth passes 2^64 ns in its sum, and
 * 2^64 ns^2 in its squares after a few million IOs of 4 ms. The standard
 * deviation is then exact up to the final floating-point division, which
 * only userspace does. Also here: the in-flight levels of fio's IO depth
 * distribution.
 */
#ifndef _BLKLOAD_LAT_H
#define _BLKLOAD_LAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#define BL_LAT_U64 u64
#else
#include <math.h>
#include <stdint.h>
#define BL_LAT_U64 uint64_t
#endif

struct bl_lat {
	BL_LAT_U64 min;		/* ~0 until the first sample */
	BL_LAT_U64 max;
	BL_LAT_U64 sum, sum_hi;
	BL_LAT_U64 sq, sq_hi;
};

static inline void bl_lat_init(struct bl_lat *l)
{
	*l = (struct bl_lat){ .min = ~(BL_LAT_U64)0 };
}

/* @v * @v as 128 bits, from 32-bit halves (no compiler 128-bit type needed). */
static inline void bl_lat_square(BL_LAT_U64 v, BL_LAT_U64 *lo, BL_LAT_U64 *hi)
{
	BL_LAT_U64 a = v >> 32, b = v & 0xffffffffU, mid, low;

	if (!a) {
		*lo = b * b;
		*hi = 0;
		return;
	}
	/* v^2 = a^2 2^64 + 2ab 2^32 + b^2; 2ab may carry out of 64 bits. */
	mid = a * b;
	low = b * b;
	*hi = a * a + (mid >> 31);
	*lo = low + (mid << 33);
	*hi += *lo < low;
}

static inline void bl_lat_add128(BL_LAT_U64 *lo, BL_LAT_U64 *hi, BL_LAT_U64 vlo, BL_LAT_U64 vhi)
{
	*lo += vlo;
	*hi += vhi + (*lo < vlo);
}

/* Counts one sample of @v ns. */
static inline void bl_lat_add(struct bl_lat *l, BL_LAT_U64 v)
{
	BL_LAT_U64 lo, hi;

	if (v < l->min)
		l->min = v;
	if (v > l->max)
		l->max = v;
	bl_lat_add128(&l->sum, &l->sum_hi, v, 0);
	bl_lat_square(v, &lo, &hi);
	bl_lat_add128(&l->sq, &l->sq_hi, lo, hi);
}

/* Adds the samples of @b to @a. */
static inline void bl_lat_merge(struct bl_lat *a, const struct bl_lat *b)
{
	if (b->min < a->min)
		a->min = b->min;
	if (b->max > a->max)
		a->max = b->max;
	bl_lat_add128(&a->sum, &a->sum_hi, b->sum, b->sum_hi);
	bl_lat_add128(&a->sq, &a->sq_hi, b->sq, b->sq_hi);
}

/*
 * fio's IO depth levels: 1 (0 and 1 in flight), 2, 4, 8, 16, 32, >=64. A
 * level counts the time its queue had that many IOs outstanding.
 */
#define BL_DEPTH_NR	7

static inline unsigned int bl_depth_idx(unsigned long inflight)
{
	unsigned int i = 0;

	while (i + 1 < BL_DEPTH_NR && inflight >= (2UL << i))
		i++;
	return i;
}

#ifndef __KERNEL__
static inline long double bl_lat_u128(BL_LAT_U64 lo, BL_LAT_U64 hi)
{
	return (long double)hi * 18446744073709551616.0L + (long double)lo;
}

static inline double bl_lat_mean(const struct bl_lat *l, BL_LAT_U64 n)
{
	return n ? (double)(bl_lat_u128(l->sum, l->sum_hi) / (long double)n) : 0;
}

/* The sample standard deviation (n - 1), as fio reports it; 0 below 2 samples. */
static inline double bl_lat_stddev(const struct bl_lat *l, BL_LAT_U64 n)
{
	long double s, q, var;

	if (n < 2)
		return 0;
	s = bl_lat_u128(l->sum, l->sum_hi);
	q = bl_lat_u128(l->sq, l->sq_hi);
	var = (q - s * s / (long double)n) / (long double)(n - 1);
	return var > 0 ? (double)sqrtl(var) : 0;
}

/* The smallest sample, 0 when there is none. */
static inline BL_LAT_U64 bl_lat_min(const struct bl_lat *l)
{
	return l->min == ~(BL_LAT_U64)0 ? 0 : l->min;
}
#endif

#endif /* _BLKLOAD_LAT_H */
