/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * blkload write buffer contents, shared by the kernel module and every
 * userspace engine, so that one seed writes the same bytes by every path
 * (the same data is what a compressing store like BlueStore sees).
 *
 * A job has a pool of BL_FILL_POOL + its largest IO bytes, filled once from
 * its seed: in every 512-byte chunk (fio's compress_chunk), the first
 * (100 - buffer_compress_percentage)% are random, the rest zeros. Each
 * write copies its data out of the pool, from a 512-aligned position drawn
 * from (seed, offset) alone, so that blocks differ from each other and a
 * compressor whose window is an IO or a blob finds no repeats between them
 * (over more than the pool's size the data does repeat, at one of 8192
 * starting points); then each 512-byte sector gets
 * blkload's stamp (stamp.h) over its first 16 bytes. That copy is the cheap
 * refill: no random numbers per IO, one memcpy of the IO's size.
 *
 * dedupe_percentage: that share of the blocks (again chosen by offset, the
 * same on every path) are written as copies of the pool's first unit, in
 * every unit of the IO and unstamped, so that they are identical to each
 * other; with fio's working set, each unit is instead a copy of one of the
 * set's blocks that is written as a unique write of one unit (data and
 * stamps), so the copies dedupe against those blocks. zero_buffers writes zeros,
 * unstamped.
 */
#ifndef _BLKLOAD_FILL_H
#define _BLKLOAD_FILL_H

#ifdef __KERNEL__
#include <linux/types.h>
#define BL_FILL_U64 u64
#define BL_FILL_U32 u32
#define BL_FILL_U8 u8
#else
#include <stdbool.h>
#include <stdint.h>
#define BL_FILL_U64 uint64_t
#define BL_FILL_U32 uint32_t
#define BL_FILL_U8 uint8_t
#endif

/* Positions an IO's data may start at: BL_FILL_POOL / 512 of them. */
#define BL_FILL_POOL		(4U << 20)
#define BL_FILL_CHUNK		512U
#define BL_FILL_POS_BITS	13	/* log2(BL_FILL_POOL / BL_FILL_CHUNK) */

/* Stream constants: the pool, the positions and the dedupe choice differ. */
#define BL_FILL_SALT_POOL	0x706f6f6c00000000ULL	/* "pool" */
#define BL_FILL_SALT_POS	0x706f730000000000ULL	/* "pos" */
#define BL_FILL_SALT_DEDUPE	0x6464757000000000ULL	/* "ddup" */
#define BL_FILL_SALT_SET	0x7773657400000000ULL	/* "wset" */

static inline BL_FILL_U64 bl_fill_mix(BL_FILL_U64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Bytes of a job's pool whose largest IO is @bs_max bytes. */
static inline BL_FILL_U64 bl_fill_pool_size(BL_FILL_U32 bs_max)
{
	return (BL_FILL_U64)BL_FILL_POOL + bs_max;
}

/*
 * Fills @len bytes of the pool, starting @at bytes into it (a multiple of
 * 8; the pool may be filled in pieces, e.g. page by page), from @seed with
 * @compress percent of each chunk zero.
 */
static inline void bl_fill_pool(void *buf, BL_FILL_U64 at, BL_FILL_U32 len, BL_FILL_U64 seed,
				BL_FILL_U32 compress)
{
	BL_FILL_U32 rnd = BL_FILL_CHUNK - BL_FILL_CHUNK * compress / 100;
	BL_FILL_U8 *p = (BL_FILL_U8 *)buf;
	BL_FILL_U32 i;

	for (i = 0; i < len; i += 8) {
		BL_FILL_U64 pos = at + i;
		BL_FILL_U64 v = bl_fill_mix(seed ^ BL_FILL_SALT_POOL ^ (pos >> 3) *
					    0x9e3779b97f4a7c15ULL);
		BL_FILL_U32 in = (BL_FILL_U32)(pos & (BL_FILL_CHUNK - 1)), k;

		/* Bytewise: the same pool on either endianness. */
		for (k = 0; k < 8 && i + k < len; k++, in++)
			p[i + k] = in < rnd ? (BL_FILL_U8)(v >> (8 * k)) : 0;
	}
}

/* Where in the pool the data of a write at @off starts. */
static inline BL_FILL_U32 bl_fill_pos(BL_FILL_U64 seed, BL_FILL_U64 off)
{
	BL_FILL_U64 h = bl_fill_mix(seed ^ BL_FILL_SALT_POS ^ off * 0x9e3779b97f4a7c15ULL);

	return (BL_FILL_U32)(h >> (64 - BL_FILL_POS_BITS)) * BL_FILL_CHUNK;
}

/* Whether the write at @off is one of the dedupe_percentage @pct copies. */
static inline bool bl_fill_dedupe(BL_FILL_U64 seed, BL_FILL_U64 off, BL_FILL_U32 pct)
{
	BL_FILL_U64 h;

	if (!pct)
		return false;
	h = bl_fill_mix(seed ^ BL_FILL_SALT_DEDUPE ^ off * 0x9e3779b97f4a7c15ULL);
	/* h / 2^64 * 100 < pct, without a division */
	return ((h >> 32) * 100 >> 32) < pct;
}

/*
 * fio's dedupe working set: which of its @nset blocks (below 2^32) the
 * dedupe copy written at @off copies, from (seed, offset) alone.
 */
static inline BL_FILL_U32 bl_fill_pick(BL_FILL_U64 seed, BL_FILL_U64 off, BL_FILL_U32 nset)
{
	BL_FILL_U64 h = bl_fill_mix(seed ^ BL_FILL_SALT_SET ^ off * 0x9e3779b97f4a7c15ULL);

	return (BL_FILL_U32)(((h >> 32) * nset) >> 32);
}

/*
 * The block (its offset) of the working set of @nset blocks of @unit bytes
 * from @base that the dedupe copy at @off copies: one written as a unique
 * write (not itself one of the @pct copies), so that the copy dedupes
 * against data on the device; after 8 draws (0.4^8 at 40%) any one.
 */
static inline BL_FILL_U64 bl_fill_set_block(BL_FILL_U64 seed, BL_FILL_U64 off, BL_FILL_U32 nset,
					    BL_FILL_U32 pct, BL_FILL_U32 unit, BL_FILL_U64 base)
{
	BL_FILL_U64 b = base;
	int i;

	for (i = 0; i < 8; i++) {
		b = base + (BL_FILL_U64)unit * bl_fill_pick(seed, off + i, nset);
		if (!bl_fill_dedupe(seed, b, pct))
			break;
	}
	return b;
}

#endif /* _BLKLOAD_FILL_H */
