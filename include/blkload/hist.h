/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * blkload latency histogram, shared by the kernel module and every userspace
 * engine so that results are comparable by construction.
 *
 * Log-linear buckets with fio's layout: values below 2^BL_HIST_BITS (64) are
 * exact; above, each power of two is split into 64 buckets, so a bucket's
 * width is at most 1/64 of its lower bound and its midpoint is within
 * 1/128 (0.78%) of every value in it. 29 groups of 64 buckets cover up to
 * 2^34 ns (about 17 s) accurately; larger values land in the last bucket.
 * A bucket index means the same nanosecond range on both sides.
 */
#ifndef _BLKLOAD_HIST_H
#define _BLKLOAD_HIST_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/types.h>
#define BL_HIST_U64 u64
#define bl_hist_fls64(v) fls64(v)
#else
#include <stddef.h>
#include <stdint.h>
#define BL_HIST_U64 uint64_t
#define bl_hist_fls64(v) ((v) ? 64 - __builtin_clzll(v) : 0)
#endif

#define BL_HIST_BITS	6
#define BL_HIST_VAL	64U	/* 2^BL_HIST_BITS */
#define BL_HIST_GROUPS	29
#define BL_HIST_NR	(BL_HIST_GROUPS * BL_HIST_VAL)

/* The bucket that counts the value @v (nanoseconds). */
static inline unsigned int bl_hist_idx(BL_HIST_U64 v)
{
	unsigned int msb, shift, idx;

	if (v < BL_HIST_VAL)
		return (unsigned int)v;
	msb = (unsigned int)bl_hist_fls64(v) - 1;
	shift = msb - BL_HIST_BITS;
	idx = ((shift + 1) << BL_HIST_BITS) + (unsigned int)((v >> shift) & (BL_HIST_VAL - 1));
	return idx < BL_HIST_NR ? idx : BL_HIST_NR - 1;
}

/* Lowest value counted by bucket @idx. */
static inline BL_HIST_U64 bl_hist_lo(unsigned int idx)
{
	unsigned int shift;

	if (idx < 2 * BL_HIST_VAL)
		return idx;
	shift = (idx >> BL_HIST_BITS) - 1;
	return ((BL_HIST_U64)BL_HIST_VAL << shift) +
	       ((BL_HIST_U64)(idx & (BL_HIST_VAL - 1)) << shift);
}

/* Representative value of bucket @idx: its midpoint (the value itself when exact). */
static inline BL_HIST_U64 bl_hist_mid(unsigned int idx)
{
	unsigned int shift;

	if (idx < 2 * BL_HIST_VAL)
		return idx;
	shift = (idx >> BL_HIST_BITS) - 1;
	return bl_hist_lo(idx) + ((BL_HIST_U64)1 << (shift - 1));
}

#ifndef __KERNEL__
/*
 * Percentile @p (0 < p <= 100) of the @nr buckets in @hist holding @total
 * samples, as fio computes it: the first bucket where the running count
 * reaches p% of the total; 0 when empty.
 */
static inline BL_HIST_U64 bl_hist_percentile(const BL_HIST_U64 *hist, size_t nr,
					     BL_HIST_U64 total, double p)
{
	double want = p / 100.0 * (double)total;
	BL_HIST_U64 sum = 0;

	if (!total)
		return 0;
	if (want < 1.0)
		want = 1.0;
	for (size_t i = 0; i < nr; i++) {
		sum += hist[i];
		if ((double)sum >= want)
			return bl_hist_mid((unsigned int)i);
	}
	return bl_hist_mid((unsigned int)(nr - 1));
}
#endif

#endif /* _BLKLOAD_HIST_H */
