/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * blkload time series, shared by the kernel module and every userspace
 * engine: one sample per interval per queue, taken by the thread that keeps
 * the queue's statistics, as the difference of its counters since the last
 * sample. A sample holds what completed in the interval: IOs, bytes, the
 * sums of lat, clat and slat (for means), and a coarse clat histogram (for
 * percentiles; fio's write_hist_log is of clat too).
 *
 * The coarse histogram merges 2^BL_SHIST_SHIFT neighbouring buckets of
 * hist.h: 16 buckets per power of two, so a bucket's midpoint is within
 * 1/32 (3.1%) of every value in it; fio's log_hist_coarseness=2 is the
 * same layout. Samples of the queues of a job add up bucket by bucket.
 */
#ifndef _BLKLOAD_SAMPLE_H
#define _BLKLOAD_SAMPLE_H

#include "hist.h"

#ifdef __KERNEL__
#define BL_SAMPLE_U32 u32
#else
#define BL_SAMPLE_U32 uint32_t
#endif

#define BL_SHIST_SHIFT	2
#define BL_SHIST_NR	(BL_HIST_NR >> BL_SHIST_SHIFT)
#define BL_SAMPLE_OPS	3	/* read, write, trim */

/* One operation in one interval (latency sums in ns, their low 64 bits). */
struct bl_sample_op {
	BL_HIST_U64 ios, bytes, lat, clat, slat;
};

struct bl_sample {
	BL_HIST_U64 t;		/* ns from the end of the ramp to this sample */
	struct bl_sample_op op[BL_SAMPLE_OPS];
	BL_SAMPLE_U32 chist[BL_SAMPLE_OPS][BL_SHIST_NR];
};

/* Where the last sample left one operation's counters. */
struct bl_sampler_op {
	struct bl_sample_op prev;
	BL_HIST_U64 chist[BL_SHIST_NR];
};

/*
 * The interval's part of one operation: @cum its counters now, @chist its
 * clat histogram now (BL_HIST_NR buckets, @stride apart); @sp moves on to
 * them.
 */
static inline void bl_sample_op_take(struct bl_sample_op *out, BL_SAMPLE_U32 *ochist,
				     struct bl_sampler_op *sp, const struct bl_sample_op *cum,
				     const BL_HIST_U64 *chist, unsigned int stride)
{
	unsigned int j, i;

	out->ios = cum->ios - sp->prev.ios;
	out->bytes = cum->bytes - sp->prev.bytes;
	out->lat = cum->lat - sp->prev.lat;
	out->clat = cum->clat - sp->prev.clat;
	out->slat = cum->slat - sp->prev.slat;
	sp->prev = *cum;
	for (j = 0; j < BL_SHIST_NR; j++) {
		BL_HIST_U64 c = 0, d;

		for (i = 0; i < (1U << BL_SHIST_SHIFT); i++)
			c += chist[((j << BL_SHIST_SHIFT) + i) * stride];
		d = c - sp->chist[j];
		ochist[j] = d > 0xffffffffU ? 0xffffffffU : (BL_SAMPLE_U32)d;
		sp->chist[j] = c;
	}
}

/* Lowest value of coarse bucket @j, and its midpoint. */
static inline BL_HIST_U64 bl_shist_lo(unsigned int j)
{
	return bl_hist_lo(j << BL_SHIST_SHIFT);
}

static inline BL_HIST_U64 bl_shist_mid(unsigned int j)
{
	unsigned int last = (j << BL_SHIST_SHIFT) + (1U << BL_SHIST_SHIFT) - 1;
	BL_HIST_U64 lo = bl_shist_lo(j), hi = bl_hist_lo(last);

	/* The last fine bucket's own width: 1 below 128, else 2^(group-1). */
	hi += last < 2 * BL_HIST_VAL ? 1 : (BL_HIST_U64)1 << ((last >> BL_HIST_BITS) - 1);
	return lo + (hi - lo) / 2;
}

#endif /* _BLKLOAD_SAMPLE_H */
