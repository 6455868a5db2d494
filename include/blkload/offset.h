/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * blkload offset and operation generator, shared by the kernel module and
 * every userspace engine: the same (seed, stream, workload) gives the same
 * sequence of (operation, offset) pairs on both sides.
 *
 * A job is split into streams, one per CPU queue. Sequential streams walk
 * disjoint sub-regions of the job's region in block-size steps and wrap
 * within their own sub-region (together they cover every block: the first
 * (blocks mod streams) of them take one block more); random streams draw
 * block-aligned offsets uniformly over the whole region. The operation of
 * each IO is drawn from the stream's own generator: first a trim, rwmixtrim
 * percent of the time (every time for a trim pattern, never without trims),
 * else a read, rwmixread percent of the time. Without trims the sequence is
 * the one it was before trims existed.
 *
 * Block sizes (bl_gen_set_bs()): without a split every IO is bs bytes. With
 * one (fio's bssplit and bsrange, per direction: reads, and writes with
 * trims), bs is the unit every size is a multiple of and every offset is
 * aligned to (fio's blockalign), and each IO draws its size after its
 * operation: an entry by its percentage, then a multiple of bs within the
 * entry's range. A random IO of k units starts at a uniform unit among
 * those where it fits; with a dist.h distribution, at the drawn unit moved
 * back to end inside the region (fio shrinks such an IO instead: here the
 * last k - 1 units' share goes to the unit k before the end);
 * a sequential stream goes on from where its last IO ended and wraps to its
 * start when the next one would not fit.
 */
#ifndef _BLKLOAD_OFFSET_H
#define _BLKLOAD_OFFSET_H

#ifdef __KERNEL__
#include <linux/math64.h>
#include <linux/types.h>
#define BL_GEN_U64 u64
#define BL_GEN_U32 u32
#define BL_GEN_U8 u8
/* u64 by u32: no 64-bit division instruction on 32-bit kernels (libgcc is not linked). */
#define BL_GEN_DIV(a, b) div_u64(a, b)
#define BL_GEN_MOD(a, b) ({ u32 __rem; div_u64_rem(a, b, &__rem); __rem; })
#else
#include <stdbool.h>
#include <stdint.h>
#define BL_GEN_U64 uint64_t
#define BL_GEN_U32 uint32_t
#define BL_GEN_U8 uint8_t
#define BL_GEN_DIV(a, b) ((a) / (b))
#define BL_GEN_MOD(a, b) ((a) % (b))
#endif

/* Most entries of a block size split, per direction. */
#define BL_GEN_BS_MAX	16

/*
 * One entry of a split: sizes lo..hi (multiples of the unit), to cumulative
 * percent cum. bl_gen_set_bs() takes bytes and keeps units, so that an IO's
 * size needs no division.
 */
struct bl_gen_bs {
	BL_GEN_U32 lo, hi, cum;
};

struct bl_gen {
	BL_GEN_U64 rng;		/* splitmix64 state */
	BL_GEN_U64 base;	/* first byte of this stream's region */
	BL_GEN_U64 nblocks;	/* blocks in this stream's region */
	BL_GEN_U64 next;	/* next block of a sequential stream */
	BL_GEN_U32 bs;
	BL_GEN_U32 rwmixread;	/* percent of reads, 0..100 */
	BL_GEN_U32 rwmixtrim;	/* percent of trims, 0..100 (bl_gen_set_trim()) */
	BL_GEN_U32 nbs[2];	/* split entries: [0] reads, [1] writes and trims */
	struct bl_gen_bs bss[2][BL_GEN_BS_MAX];	/* in units of bs */
	/* Random map (bl_gen_set_map()): pass index mi, key of the pass's order. */
	BL_GEN_U64 mi, mkey, mseed;
	BL_GEN_U32 mstride, mstream, mbits, mpass;
	BL_GEN_U32 align;	/* random IOs start at multiples of it (units; 0, 1: any) */
	BL_GEN_U64 hole;	/* sequential: units added after each IO (two's complement) */
	/* fio's zonemode=strided, units: a zone's size, what it gets, the skip after it. */
	BL_GEN_U64 zrange, zsize, zskip;
	BL_GEN_U64 zstart, zdone;	/* the zone's first unit, the units it got */
	bool random;
	bool map;
};

/* The operations bl_gen_op() draws. */
enum { BL_GEN_READ, BL_GEN_WRITE, BL_GEN_TRIM };

/* The splitmix64 finalizer: a bijection of 64-bit values that mixes every bit. */
static inline BL_GEN_U64 bl_gen_mix(BL_GEN_U64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* splitmix64: a full-period 64-bit generator, cheap and well mixed. */
static inline BL_GEN_U64 bl_gen_rand(struct bl_gen *g)
{
	return bl_gen_mix(g->rng += 0x9e3779b97f4a7c15ULL);
}

/* The high 64 bits of the 128-bit product @a * @b, from 32-bit halves. */
static inline BL_GEN_U64 bl_gen_mulhi32(BL_GEN_U64 a, BL_GEN_U64 b)
{
	BL_GEN_U64 alo = a & 0xffffffffULL, ahi = a >> 32;
	BL_GEN_U64 blo = b & 0xffffffffULL, bhi = b >> 32;
	BL_GEN_U64 lo = alo * blo, m1 = ahi * blo, m2 = alo * bhi, hi = ahi * bhi;
	BL_GEN_U64 mid = (lo >> 32) + (m1 & 0xffffffffULL) + (m2 & 0xffffffffULL);

	return hi + (m1 >> 32) + (m2 >> 32) + (mid >> 32);
}

/*
 * The high 64 bits of @a * @b: with the compiler's 128-bit type where it has
 * one (64-bit builds), from 32-bit halves elsewhere; the bits are the same
 * (a unit test compares them). Not mul_u64_u64_shr(a, b, 64): x86's shrd
 * takes its count modulo 64.
 */
static inline BL_GEN_U64 bl_gen_mulhi(BL_GEN_U64 a, BL_GEN_U64 b)
{
#ifdef __SIZEOF_INT128__
	return (BL_GEN_U64)(((__uint128_t)a * b) >> 64);
#else
	return bl_gen_mulhi32(a, b);
#endif
}

/*
 * A seeded bijection of [0, 2^@bits), @bits 1 to 64: xorshift-multiply
 * rounds on the masked value (dist.h scatters its ranks with it too).
 */
static inline BL_GEN_U64 bl_gen_perm(BL_GEN_U64 x, BL_GEN_U64 key, unsigned int bits)
{
	BL_GEN_U64 mask = ~0ULL >> (64 - bits);
	unsigned int s = (bits + 1) / 2;

	x = ((x ^ key) * 0x9e3779b97f4a7c15ULL) & mask;
	x ^= x >> s;
	x = (x * 0xbf58476d1ce4e5b9ULL) & mask;
	x ^= x >> s;
	x = (x * 0x94d049bb133111ebULL) & mask;
	return x ^ (x >> s);
}

/* Uniform in [0, n) without modulo bias worth speaking of (Lemire's method). */
static inline BL_GEN_U64 bl_gen_below(struct bl_gen *g, BL_GEN_U64 n)
{
	return bl_gen_mulhi(bl_gen_rand(g), n);
}

/*
 * Sets up stream @stream of @nstreams over [@offset, @offset + @size) with
 * block size @bs. Sequential streams get disjoint sub-regions that cover the
 * region's whole blocks, sized within one block of each other, so that
 * stream k's share of a one-pass IO count is exactly its sub-region;
 * @size / @bs must then be at least @nstreams. Random streams need one
 * block. Returns false on impossible input.
 */
static inline bool bl_gen_init(struct bl_gen *g, BL_GEN_U64 seed, BL_GEN_U32 stream,
			       BL_GEN_U32 nstreams, bool random, BL_GEN_U32 rwmixread,
			       BL_GEN_U64 offset, BL_GEN_U64 size, BL_GEN_U32 bs)
{
	BL_GEN_U64 blocks, share, rem;

	if (!bs || !nstreams || stream >= nstreams || rwmixread > 100)
		return false;
	blocks = BL_GEN_DIV(size, bs);
	if (!blocks || (!random && blocks < nstreams))
		return false;
	g->bs = bs;
	g->rwmixread = rwmixread;
	g->rwmixtrim = 0;
	g->nbs[0] = 0;
	g->nbs[1] = 0;
	g->random = random;
	g->map = false;
	g->align = 1;
	g->hole = 0;
	g->zrange = 0;
	g->next = 0;
	/* Streams of one seed are independent: each starts from a mixed seed. */
	g->rng = seed ^ ((BL_GEN_U64)(stream + 1) * 0xd1b54a32d192ed03ULL);
	bl_gen_rand(g);
	if (random) {
		g->base = offset;
		g->nblocks = blocks;
	} else {
		share = BL_GEN_DIV(blocks, nstreams);
		rem = BL_GEN_MOD(blocks, nstreams);
		g->nblocks = share + (stream < rem ? 1 : 0);
		g->base = offset +
			  ((BL_GEN_U64)stream * share + (stream < rem ? stream : rem)) * bs;
	}
	return true;
}

/*
 * fio's random map for random stream @stream of @nstreams (after
 * bl_gen_init(), with every IO one unit): each pass over the region visits
 * every block once, in an order of its own. The job's blocks are the pass's
 * indices 0..n-1 in a seeded order (bl_gen_perm(), cycle-walked below n);
 * stream k takes the indices k, k + nstreams, ..., exactly its share of a
 * pass's IO count (bl_params_queue_limit()), so the streams of a job
 * together visit each block once a pass, without memory or shared state.
 * A stream that is past the pass's last index starts the next pass, keyed
 * by @seed and the pass. False (and no map) when there are fewer blocks
 * than streams.
 */
static inline bool bl_gen_set_map(struct bl_gen *g, BL_GEN_U64 seed, BL_GEN_U32 stream,
				  BL_GEN_U32 nstreams)
{
	if (!g->random || !nstreams || stream >= g->nblocks || g->nbs[0] || g->nbs[1])
		return false;
	g->map = true;
	g->mseed = seed;
	g->mstream = stream;
	g->mstride = nstreams;
	g->mi = stream;
	g->mpass = 0;
	g->mkey = bl_gen_mix(seed ^ 0x72616e646d617000ULL);
	g->mbits = 0;
	while (g->mbits < 64 && (g->nblocks - 1) >> g->mbits)
		g->mbits++;
	return true;
}

/* The random map's next block (bl_gen_set_map()). */
static inline BL_GEN_U64 bl_gen_map_next(struct bl_gen *g)
{
	BL_GEN_U64 i = g->mi, r;

	if (i >= g->nblocks) {
		g->mpass++;
		g->mkey = bl_gen_mix(g->mseed ^ 0x72616e646d617000ULL ^
				     ((BL_GEN_U64)g->mpass * 0x9e3779b97f4a7c15ULL));
		i = g->mstream;
	}
	g->mi = i + g->mstride;
	if (!g->mbits)
		return 0;
	/* Cycle-walking: the cycle of i < n comes back below n (under two rounds on average). */
	r = i;
	do
		r = bl_gen_perm(r, g->mkey, g->mbits);
	while (r >= g->nblocks);
	return r;
}

/*
 * fio's blockalign: a random stream's IOs start at multiples of @units units
 * (after bl_gen_init() and the splits; not with a random map). False when
 * the region holds no aligned start for its largest IO.
 */
static inline bool bl_gen_set_align(struct bl_gen *g, BL_GEN_U32 units)
{
	BL_GEN_U32 k = 1;
	unsigned int d, i;

	if (!units || g->map)
		return false;
	for (d = 0; d < 2; d++)
		for (i = 0; i < g->nbs[d]; i++)
			k = g->bss[d][i].hi > k ? g->bss[d][i].hi : k;
	if (k > g->nblocks)
		return false;
	g->align = units;
	return true;
}

/*
 * fio's rw=PATTERN:OFFSET for a sequential stream: @units (negative:
 * backwards, as a two's complement) added to each IO's start after the
 * first's. False when a backwards hole is not shorter than the stream.
 */
static inline bool bl_gen_set_hole(struct bl_gen *g, BL_GEN_U64 units)
{
	if (g->random || (units >> 63 && -units >= g->nblocks))
		return false;
	g->hole = units;
	return true;
}

/*
 * The next start of a sequential stream with a hole, as fio: the end of the
 * IO before plus the hole (none for the first, or after coming back to the
 * stream's start); past either end, the start again (a forward hole) or the
 * end plus the (negative) hole.
 */
static inline BL_GEN_U64 bl_gen_seq_hole(struct bl_gen *g, BL_GEN_U64 k)
{
	BL_GEN_U64 b = g->next;

	if (b) {
		b += g->hole;
		if (b >= g->nblocks || b + k > g->nblocks)
			b = g->hole >> 63 ? g->nblocks + g->hole : 0;
		if (b + k > g->nblocks)
			b = g->nblocks - k;
	}
	g->next = b + k;
	return b;
}

/*
 * fio's zonemode=strided (after bl_gen_init()): zones of @range units, each
 * getting @size units of IO before the next one, @skip units further.
 */
static inline void bl_gen_set_zones(struct bl_gen *g, BL_GEN_U64 range, BL_GEN_U64 size,
				    BL_GEN_U64 skip)
{
	g->zrange = range;
	g->zsize = size;
	g->zskip = skip;
	g->zstart = 0;
	g->zdone = 0;
	g->next = 0;
}

/*
 * The first unit of the next IO, of @k units, of a strided stream, as fio's
 * setup_strided_zone_mode(): a zone that got its size gives way to the one
 * range + skip further (the region's start past its end); a sequential IO
 * goes on where the last ended, at the zone's start again past its end; a
 * random one is drawn inside the zone.
 */
static inline BL_GEN_U64 bl_gen_zone_block(struct bl_gen *g, BL_GEN_U64 k)
{
	BL_GEN_U64 r, b;

	if (g->zdone >= g->zsize) {
		g->zdone = 0;
		g->zstart += g->zrange + g->zskip;
		if (g->zstart >= g->nblocks)
			g->zstart = 0;
		g->next = g->zstart;
	}
	r = g->nblocks - g->zstart < g->zrange ? g->nblocks - g->zstart : g->zrange;
	if (g->random) {
		b = g->zstart + (k < r ? bl_gen_below(g, r - k + 1) : 0);
	} else {
		if (g->next < g->zstart || g->next >= g->zstart + r)
			g->next = g->zstart;
		b = g->next;
		g->next += k;
	}
	if (b + k > g->nblocks)
		b = g->nblocks - k;
	g->zdone += k;
	return b;
}

/* Makes @pct percent of the stream's IOs trims (after bl_gen_init()). */
static inline bool bl_gen_set_trim(struct bl_gen *g, BL_GEN_U32 pct)
{
	if (pct > 100)
		return false;
	g->rwmixtrim = pct;
	return true;
}

/* The next operation (BL_GEN_READ, _WRITE, _TRIM); its offset is drawn next. */
static inline int bl_gen_draw_op(struct bl_gen *g)
{
	int op;

	if (g->rwmixtrim == 100 ||
	    (g->rwmixtrim && bl_gen_below(g, 100) < g->rwmixtrim))
		op = BL_GEN_TRIM;
	else if (g->rwmixread == 100)
		op = BL_GEN_READ;
	else if (!g->rwmixread)
		op = BL_GEN_WRITE;
	else
		op = bl_gen_below(g, 100) < g->rwmixread ? BL_GEN_READ : BL_GEN_WRITE;
	return op;
}

/*
 * Sets the block size split of direction @dir (0: reads, 1: writes and
 * trims), after bl_gen_init(), whose bs is then the unit: @n entries (at
 * most BL_GEN_BS_MAX) of sizes lo..hi, multiples of the unit, with
 * cumulative percentages rising to 100. Every size must fit the stream's
 * region. Returns false on impossible input. @n 0: every IO is bs bytes.
 */
static inline bool bl_gen_set_bs(struct bl_gen *g, unsigned int dir, const struct bl_gen_bs *t,
				 unsigned int n)
{
	BL_GEN_U32 prev = 0;
	unsigned int i;

	if (dir > 1 || n > BL_GEN_BS_MAX)
		return false;
	/* The whole table checked before any of it is taken. */
	for (i = 0; i < n; i++) {
		if (!t[i].lo || t[i].lo > t[i].hi || t[i].lo % g->bs || t[i].hi % g->bs ||
		    t[i].cum <= prev || t[i].cum > 100 || t[i].hi / g->bs > g->nblocks)
			return false;
		prev = t[i].cum;
	}
	if (n && prev != 100)
		return false;
	for (i = 0; i < n; i++)
		g->bss[dir][i] = (struct bl_gen_bs){ .lo = t[i].lo / g->bs, .hi = t[i].hi / g->bs,
						     .cum = t[i].cum };
	g->nbs[dir] = n;
	return true;
}

/* The size of the next IO of operation @op, in units of bs. */
static inline BL_GEN_U64 bl_gen_units(struct bl_gen *g, int op)
{
	unsigned int dir = op != BL_GEN_READ, n = g->nbs[dir], i = 0;
	const struct bl_gen_bs *e = g->bss[dir];
	BL_GEN_U32 u;

	if (!n)
		return 1;
	if (n > 1) {
		u = (BL_GEN_U32)bl_gen_below(g, 100);
		while (u >= e[i].cum)
			i++;
	}
	if (e[i].lo == e[i].hi)
		return e[i].lo;
	return e[i].lo + bl_gen_below(g, e[i].hi - e[i].lo + 1);
}

/* Where a random IO of @k units starting at unit @b goes: inside the region. */
static inline BL_GEN_U64 bl_gen_fit(const struct bl_gen *g, BL_GEN_U64 b, BL_GEN_U64 k)
{
	b = b + k > g->nblocks ? g->nblocks - k : b;
	/* fio's blockalign: down to an aligned start (0 is one: it fits). */
	return g->align > 1 ? b - BL_GEN_MOD(b, g->align) : b;
}

/* The first unit of the next IO, of @k units, of a sequential or uniform random stream. */
static inline BL_GEN_U64 bl_gen_block(struct bl_gen *g, BL_GEN_U64 k)
{
	BL_GEN_U64 b;

	if (g->zrange)
		return bl_gen_zone_block(g, k);
	if (g->random) {
		if (g->map)
			return bl_gen_map_next(g);
		/* fio's blockalign: one of the aligned starts that fit the IO. */
		if (g->align > 1)
			return bl_gen_below(g, BL_GEN_DIV(g->nblocks - k, g->align) + 1) * g->align;
		return k == 1 ? bl_gen_below(g, g->nblocks) :
				bl_gen_below(g, g->nblocks - k + 1);
	}
	if (g->hole)
		return bl_gen_seq_hole(g, k);
	if (g->next + k > g->nblocks)
		g->next = 0;
	b = g->next;
	g->next += k;
	if (g->next == g->nblocks)
		g->next = 0;
	return b;
}

/*
 * Next operation (BL_GEN_READ, _WRITE, _TRIM); then its byte offset in *@off
 * and its length in *@len. Random streams draw uniformly; dist.h's
 * bl_gen_op_dist() draws the block from another distribution.
 */
static inline int bl_gen_op_len(struct bl_gen *g, BL_GEN_U64 *off, BL_GEN_U32 *len)
{
	int op = bl_gen_draw_op(g);
	BL_GEN_U64 k = bl_gen_units(g, op);

	*off = g->base + bl_gen_block(g, k) * g->bs;
	*len = (BL_GEN_U32)(k * g->bs);
	return op;
}

/* bl_gen_op_len() of a stream without a split: every IO is bs bytes. */
static inline int bl_gen_op(struct bl_gen *g, BL_GEN_U64 *off)
{
	BL_GEN_U32 len;

	return bl_gen_op_len(g, off, &len);
}

/* Next operation: true for a read (a trim is not); its byte offset in *@off. */
static inline bool bl_gen_next(struct bl_gen *g, BL_GEN_U64 *off)
{
	return bl_gen_op(g, off) == BL_GEN_READ;
}

#endif /* _BLKLOAD_OFFSET_H */
