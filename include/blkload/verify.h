/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * blkload data verification (--verify=crc32c), shared by the kernel module
 * and every userspace engine: the header each written unit carries, and
 * the per-unit generation map that tells which write a read must find.
 *
 * A unit is bs bytes (the smallest IO; every IO is whole units). With
 * verify, the first 48 bytes of each unit written are, little endian:
 *
 *    0  u64 magic     BLKLOAD_SECTOR_MAGIC (stamp.h: the sector stamp)
 *    8  u64 offset    the unit's byte offset on the device (likewise)
 *   16  u64 seed      the writing job's randseed
 *   24  u32 gen       the unit's write generation in that job (1..131071)
 *   28  u32 len       bs
 *   32  u32 crc       CRC-32C of the whole unit with this field zero
 *   36  u32 vmagic    BL_VERIFY_MAGIC
 *   40  u32 nonce     random per writing job
 *   44  u32 zero
 *
 * Every other sector keeps its stamp; the rest is the job's data (fill.h).
 * CRC-32C is the usual one (iSCSI, ext4; check value 0xe3069283 for
 * "123456789"): the raw register starts at ~0 and the result is inverted.
 *
 * The generation map has one u32 per unit of the region: bits 31..15 the
 * generation of the unit's latest write (0: never written by this job),
 * bit 14 set when its content is unknown (two writes overlapped in time, a
 * write failed, a trim), bits 13..0 the writes and trims in flight. A write
 * takes the next generation when it is prepared (generations are never
 * reused within 2^17 - 1 writes of the unit: no read can see the entry leave
 * and come back) and the last one out settles the content; a read takes a
 * snapshot when prepared and checks the unit at its reap only if the entry
 * is unchanged, known and had no write in flight: otherwise the unit is
 * "skipped" (it raced a write). The header's nonce, random per job, tells
 * a unit this job wrote from one an earlier run wrote with the same seed
 * and generation (a write lost between two runs).
 */
#ifndef _BLKLOAD_VERIFY_H
#define _BLKLOAD_VERIFY_H

#ifdef __KERNEL__
#include <linux/atomic.h>
#include <linux/types.h>
#define BL_V_U64 u64
#define BL_V_U32 u32
/* Acquire: a read's snapshot is taken before its bio goes out. */
#define BL_VMAP_LOAD(p) smp_load_acquire(p)
#define BL_VMAP_CAS(p, oldp, new) try_cmpxchg(p, oldp, new)
#else
#include <stdbool.h>
#include <stdint.h>
#define BL_V_U64 uint64_t
#define BL_V_U32 uint32_t
#define BL_VMAP_LOAD(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define BL_VMAP_CAS(p, oldp, new) \
	__atomic_compare_exchange_n(p, oldp, new, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
#endif

#define BL_VERIFY_MAGIC		0x66564c42U	/* "BLVf" */
#define BL_VERIFY_CRC_AT	32U

#define BL_VMAP_WRITERS		0x3fffU
#define BL_VMAP_UNKNOWN		0x4000U
#define BL_VMAP_GEN_SHIFT	15
#define BL_VMAP_GEN_MAX		0x1ffffU

static inline void bl_v_put(unsigned char *p, BL_V_U64 v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline BL_V_U64 bl_v_get(const unsigned char *p, unsigned int n)
{
	BL_V_U64 v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (BL_V_U64)p[i] << (8 * i);
	return v;
}

/* Writes a unit's header at @p, its crc zero (bl_verify_set_crc() after). */
static inline void bl_verify_hdr(unsigned char *p, BL_V_U64 off, BL_V_U64 seed, BL_V_U32 gen,
				 BL_V_U32 len, BL_V_U32 nonce)
{
	bl_v_put(p, 0x44414f4c4b4c42ULL, 8);	/* BLKLOAD_SECTOR_MAGIC */
	bl_v_put(p + 8, off, 8);
	bl_v_put(p + 16, seed, 8);
	bl_v_put(p + 24, gen, 4);
	bl_v_put(p + 28, len, 4);
	bl_v_put(p + BL_VERIFY_CRC_AT, 0, 4);
	bl_v_put(p + 36, BL_VERIFY_MAGIC, 4);
	bl_v_put(p + 40, nonce, 4);
	bl_v_put(p + 44, 0, 4);
}

static inline void bl_verify_set_crc(unsigned char *p, BL_V_U32 crc)
{
	bl_v_put(p + BL_VERIFY_CRC_AT, crc, 4);
}

/* What a check found wrong: the values of the uAPI's verify-what enum. */
enum {
	BL_VERIFY_OK,
	BL_VERIFY_BAD_MAGIC,	/* no header: magic or vmagic */
	BL_VERIFY_BAD_OFFSET,	/* another unit's data */
	BL_VERIFY_BAD_SEED,	/* another job's data */
	BL_VERIFY_BAD_GEN,	/* an older (or newer) write's data */
	BL_VERIFY_BAD_LEN,
	BL_VERIFY_BAD_CRC,	/* the data changed after it was written */
	BL_VERIFY_BAD_NONCE,	/* another run's data, same seed and generation */
};

/*
 * Checks the header at @p of the unit at @off against what it should hold
 * (@gen 0: any generation and any nonce, for a job that did not write it);
 * the crc is the caller's (it spans pages).
 * Returns BL_VERIFY_*, with the expected and found values.
 */
static inline int bl_verify_check_hdr(const unsigned char *p, BL_V_U64 off, BL_V_U64 seed,
				      BL_V_U32 gen, BL_V_U32 len, BL_V_U32 nonce,
				      BL_V_U64 *want, BL_V_U64 *got)
{
	if (bl_v_get(p, 8) != 0x44414f4c4b4c42ULL || bl_v_get(p + 36, 4) != BL_VERIFY_MAGIC) {
		*want = 0x44414f4c4b4c42ULL;
		*got = bl_v_get(p, 8);
		return BL_VERIFY_BAD_MAGIC;
	}
	*got = bl_v_get(p + 8, 8);
	if (*got != off) {
		*want = off;
		return BL_VERIFY_BAD_OFFSET;
	}
	*got = bl_v_get(p + 16, 8);
	if (*got != seed) {
		*want = seed;
		return BL_VERIFY_BAD_SEED;
	}
	*got = bl_v_get(p + 28, 4);
	if (*got != len) {
		*want = len;
		return BL_VERIFY_BAD_LEN;
	}
	if (!gen)
		return BL_VERIFY_OK;
	*got = bl_v_get(p + 40, 4);
	if (*got != nonce) {
		*want = nonce;
		return BL_VERIFY_BAD_NONCE;
	}
	*got = bl_v_get(p + 24, 4);
	if (*got != gen) {
		*want = gen;
		return BL_VERIFY_BAD_GEN;
	}
	return BL_VERIFY_OK;
}

static inline BL_V_U32 bl_verify_hdr_crc(const unsigned char *p)
{
	return (BL_V_U32)bl_v_get(p + BL_VERIFY_CRC_AT, 4);
}

static inline BL_V_U32 bl_vmap_gen(BL_V_U32 v)
{
	return v >> BL_VMAP_GEN_SHIFT;
}

/* The generation after @g: 1..BL_VMAP_GEN_MAX, round and round (0 is never). */
static inline BL_V_U32 bl_vmap_next(BL_V_U32 g)
{
	return g >= BL_VMAP_GEN_MAX ? 1 : g + 1;
}

/*
 * A write (or trim) of the unit whose entry is @e is prepared: it takes the
 * next generation, which its header carries; alone, it will settle the
 * content, with another in flight the content is unknown.
 */
static inline BL_V_U32 bl_vmap_write_begin(BL_V_U32 *e)
{
	BL_V_U32 old = BL_VMAP_LOAD(e), new, g;

	do {
		g = bl_vmap_next(bl_vmap_gen(old));
		/* No overflow: a job has fewer IOs in flight (bl_check_params()). */
		new = (g << BL_VMAP_GEN_SHIFT) | ((old & BL_VMAP_WRITERS) + 1);
		if (old & BL_VMAP_WRITERS)
			new |= BL_VMAP_UNKNOWN;
	} while (!BL_VMAP_CAS(e, &old, new));
	return g;
}

/* The write is reaped: the content is unknown after an error or a trim (@known false). */
static inline void bl_vmap_write_end(BL_V_U32 *e, bool known)
{
	BL_V_U32 old = BL_VMAP_LOAD(e), new;

	do {
		new = old - 1;
		if (!known)
			new |= BL_VMAP_UNKNOWN;
	} while (!BL_VMAP_CAS(e, &old, new));
}

/* Whether a read whose snapshot was @snap and now is @now may check the unit. */
static inline bool bl_vmap_checkable(BL_V_U32 snap, BL_V_U32 now)
{
	return snap == now && !(snap & (BL_VMAP_WRITERS | BL_VMAP_UNKNOWN)) && bl_vmap_gen(snap);
}

#endif /* _BLKLOAD_VERIFY_H */
