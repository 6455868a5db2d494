/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * blkload workload parameters, shared by the kernel module, every userspace
 * engine and the CLI's planner: one struct, one set of checks and the
 * predicates the checks and the queues use (writes? trims? data?), so that a
 * workload the module refuses is refused by every engine, in the same words.
 *
 * The checks come in two steps: bl_params_check() needs no device and fills
 * the defaults; bl_params_region() checks against the opened device and
 * fills the region and the IO count (fio's: without a time or IO limit, one
 * pass over the region). Each returns 0 or a negative errno, with @why set to
 * a sentence that names the option as the user gave it. The module wraps it
 * in the netlink extack, the CLI prints it.
 *
 * bl_param_attrs[] maps the netlink attributes (include/uapi/linux/blkload.h)
 * to the fields, with their defaults: the module's job-new parser and job-get
 * reply, and the CLI's request builder and reply parser, all walk it.
 */
#ifndef _BLKLOAD_PARAMS_H
#define _BLKLOAD_PARAMS_H

#include "env.h"
#include "dist.h"
#include "offset.h"
#include "verify.h"

/* Hard ceilings; the module's parameters may only lower them. */
#define BL_BS_MAX		(4U << 20)
#define BL_IODEPTH_LIMIT	65536U
/* runtime and ramp_time: at most 365 days. */
#define BL_TIME_MAX_NS		(365ULL * 24 * 3600 * 1000000000ULL)
/* The shortest sample interval, and the samples a queue keeps by default. */
#define BL_SAMPLE_MIN_NS	10000000ULL
#define BL_SAMPLE_RING_DEFAULT	256U
#define BL_SAMPLE_RING_MIN	16U
#define BL_SECTOR		512U

struct bl_params {
	BL_U32 rw;		/* BLKLOAD_RW_* */
	BL_U32 rwmixread;	/* percent of reads in a mix */
	BL_U32 rwmixtrim;	/* percent of trims in a read or write pattern */
	BL_U32 bs;		/* bytes; with a split, its smallest size (the unit) */
	BL_U32 bs_max;		/* the largest IO (bs without a split): slots hold it */
	BL_U32 iodepth;		/* per CPU queue */
	BL_U32 batch;		/* bios a plug, IOs a submission call; 0: 1 */
	BL_U32 batch_complete;	/* most completions a reap takes (iodepth_batch_complete_max) */
	BL_U32 coe;		/* continue-on-error bits (BLKLOAD_COE_*) */
	BL_U32 req;		/* BLKLOAD_REQ_* flags */
	BL_U64 offset, size;	/* the region; size 0: to the device's end */
	BL_U64 runtime_ns;	/* 0: none */
	BL_U64 ramp_ns;
	BL_U64 number_ios;	/* the job's IOs in all (each queue its share); 0: none */
	BL_U64 io_size;		/* bytes, as an IO count of bs */
	BL_U64 randseed;
	BL_U64 sample_ns;	/* time-series interval; 0: none */
	BL_U32 sample_ring;	/* samples each queue keeps (the module); 0: its default */
	BL_U32 rate_iops;	/* the job's IOs a second; 0: no limit */
	BL_U32 rate_process;	/* BLKLOAD_RATE_PROCESS_* */
	BL_U32 dist;		/* BLKLOAD_DIST_*: where random IOs go */
	BL_U32 dist_param;
	BL_U64 think_ns;	/* stall after think_blocks IOs; 0: none */
	BL_U32 think_blocks;
	BL_U32 loops;		/* each queue's share that many times; 0: 1 */
	BL_U64 startdelay_ns;
	BL_U32 buf_compress;	/* percent of each written chunk that is zeros (fill.h) */
	BL_U32 buf_dedupe;	/* percent of written blocks that are copies of one */
	/* Block size split (offset.h), reads [0] and writes with trims [1]. */
	BL_U32 nbs[2];
	struct bl_gen_bs bss[2][BL_GEN_BS_MAX];
	/* A zoned or zoned_abs distribution's zones (dist.h). */
	BL_U32 nzones;
	struct bl_dist_zone zones[BL_DIST_ZONES_MAX];
	BL_U32 verify;		/* BLKLOAD_VERIFY_* */
	bool verify_no_readback;
	bool allow_write;
	bool force;
	bool detached;
	bool no_lat;
	bool zero_buffers;	/* writes carry zeros, unstamped */
	bool pass_ends;		/* a pass ends a job with a runtime (not time_based) */
	bool random_map;	/* fio's random map: each block once a pass (offset.h) */
	BL_U32 blockalign;	/* random IOs' start alignment, bytes (0: bs) */
	BL_U64 rw_hole;		/* sequential: bytes between IOs, two's complement */
	BL_U64 rate_bps;	/* the job's bytes a second (fio's rate); 0: no limit */
	BL_U64 rate_min;	/* fio's rate_min, bytes a second a direction; 0: none */
	BL_U32 rate_iops_min;	/* fio's rate_iops_min, IOs a second a direction; 0: none */
	BL_U64 rate_cycle_ns;	/* fio's ratecycle: the rate_min window; 0: 1 s */
	BL_U32 dedupe_ws;	/* fio's dedupe working set, percent of the region; 0: repeat */
	BL_U64 dedupe_seed;	/* fio's dedupe_global: the write data's seed; 0: randseed */
	BL_U64 zone_range, zone_size, zone_skip;	/* fio's zonemode=strided, bytes; 0: none */
	BL_U64 dedupe_base;	/* fio's dedupe_global: the set's start (with dedupe_seed) */
};

/* dedupe-seed carries a randseed (0 too) xor this: 0 stays "none". */
#define BL_DEDUPE_SEED_KEY	0x676c6f62616c0000ULL	/* "global" */

/* The seed of the job's pool (fill.h): the first dedupe_global job's, or its own. */
static inline BL_U64 bl_params_fill_seed(const struct bl_params *p)
{
	return p->dedupe_seed ? p->dedupe_seed ^ BL_DEDUPE_SEED_KEY : p->randseed;
}

/* Whether the job's IOs are paced: a rate in IOs or in bytes a second. */
static inline bool bl_params_paced(const struct bl_params *p)
{
	return p->rate_iops || p->rate_bps;
}

/* How a parameter travels: a u32, a u64, or a flag (present: true). */
enum bl_param_kind { BL_PK_U32, BL_PK_U64, BL_PK_FLAG };

/* A netlink attribute that is a plain field of struct bl_params, and its default. */
struct bl_param_attr {
	BL_U16 type;		/* BLKLOAD_A_* */
	BL_U8 kind;		/* enum bl_param_kind */
	BL_U16 off;		/* of the field in struct bl_params */
	BL_U64 dflt;		/* its value when the attribute is absent */
};

#define BL_PA(a, k, f, d)	{ (a), (k), offsetof(struct bl_params, f), (d) }

/*
 * The attributes that are plain fields, with their defaults when absent:
 * the module's job-new parser and job-get reply, the CLI's request builder
 * and reply parser all walk this table. The path, the CPUs and the block
 * size splits are not plain fields.
 */
static const struct bl_param_attr bl_param_attrs[] = {
	BL_PA(BLKLOAD_A_RW, BL_PK_U32, rw, BLKLOAD_RW_READ),
	BL_PA(BLKLOAD_A_RWMIXREAD, BL_PK_U32, rwmixread, 50),
	BL_PA(BLKLOAD_A_BS, BL_PK_U32, bs, 4096),
	BL_PA(BLKLOAD_A_IODEPTH, BL_PK_U32, iodepth, 1),
	BL_PA(BLKLOAD_A_BATCH, BL_PK_U32, batch, 0),
	BL_PA(BLKLOAD_A_OFFSET, BL_PK_U64, offset, 0),
	BL_PA(BLKLOAD_A_SIZE, BL_PK_U64, size, 0),
	BL_PA(BLKLOAD_A_RUNTIME, BL_PK_U64, runtime_ns, 0),
	BL_PA(BLKLOAD_A_RAMP_TIME, BL_PK_U64, ramp_ns, 0),
	BL_PA(BLKLOAD_A_NUMBER_IOS, BL_PK_U64, number_ios, 0),
	BL_PA(BLKLOAD_A_IO_SIZE, BL_PK_U64, io_size, 0),
	BL_PA(BLKLOAD_A_RANDSEED, BL_PK_U64, randseed, 0),
	BL_PA(BLKLOAD_A_CONTINUE_ON_ERROR, BL_PK_U32, coe, 0),
	BL_PA(BLKLOAD_A_SAMPLE_INTERVAL, BL_PK_U64, sample_ns, 0),
	BL_PA(BLKLOAD_A_SAMPLE_RING, BL_PK_U32, sample_ring, 0),
	BL_PA(BLKLOAD_A_ALLOW_WRITE, BL_PK_FLAG, allow_write, 0),
	BL_PA(BLKLOAD_A_FORCE, BL_PK_FLAG, force, 0),
	BL_PA(BLKLOAD_A_DETACHED, BL_PK_FLAG, detached, 0),
	BL_PA(BLKLOAD_A_NO_LAT, BL_PK_FLAG, no_lat, 0),
	BL_PA(BLKLOAD_A_RWMIXTRIM, BL_PK_U32, rwmixtrim, 0),
	BL_PA(BLKLOAD_A_REQ_FLAGS, BL_PK_U32, req, 0),
	BL_PA(BLKLOAD_A_RATE_IOPS, BL_PK_U32, rate_iops, 0),
	BL_PA(BLKLOAD_A_RATE_PROCESS, BL_PK_U32, rate_process, BLKLOAD_RATE_PROCESS_LINEAR),
	BL_PA(BLKLOAD_A_RANDOM_DISTRIBUTION, BL_PK_U32, dist, BLKLOAD_DIST_RANDOM),
	BL_PA(BLKLOAD_A_RANDOM_DISTRIBUTION_PARAM, BL_PK_U32, dist_param, 0),
	BL_PA(BLKLOAD_A_THINKTIME, BL_PK_U64, think_ns, 0),
	BL_PA(BLKLOAD_A_THINKTIME_BLOCKS, BL_PK_U32, think_blocks, 1),
	BL_PA(BLKLOAD_A_STARTDELAY, BL_PK_U64, startdelay_ns, 0),
	BL_PA(BLKLOAD_A_LOOPS, BL_PK_U32, loops, 1),
	BL_PA(BLKLOAD_A_BUFFER_COMPRESS_PERCENTAGE, BL_PK_U32, buf_compress, 0),
	BL_PA(BLKLOAD_A_DEDUPE_PERCENTAGE, BL_PK_U32, buf_dedupe, 0),
	BL_PA(BLKLOAD_A_ZERO_BUFFERS, BL_PK_FLAG, zero_buffers, 0),
	BL_PA(BLKLOAD_A_PASS_ENDS, BL_PK_FLAG, pass_ends, 0),
	BL_PA(BLKLOAD_A_RANDOM_MAP, BL_PK_FLAG, random_map, 0),
	BL_PA(BLKLOAD_A_BLOCK_ALIGN, BL_PK_U32, blockalign, 0),
	BL_PA(BLKLOAD_A_RW_HOLE, BL_PK_U64, rw_hole, 0),
	BL_PA(BLKLOAD_A_RATE_BPS, BL_PK_U64, rate_bps, 0),
	BL_PA(BLKLOAD_A_RATE_MIN, BL_PK_U64, rate_min, 0),
	BL_PA(BLKLOAD_A_RATE_IOPS_MIN, BL_PK_U32, rate_iops_min, 0),
	BL_PA(BLKLOAD_A_RATE_CYCLE, BL_PK_U64, rate_cycle_ns, 0),
	BL_PA(BLKLOAD_A_DEDUPE_WORKING_SET, BL_PK_U32, dedupe_ws, 0),
	BL_PA(BLKLOAD_A_DEDUPE_SEED, BL_PK_U64, dedupe_seed, 0),
	BL_PA(BLKLOAD_A_ZONE_RANGE, BL_PK_U64, zone_range, 0),
	BL_PA(BLKLOAD_A_ZONE_SIZE, BL_PK_U64, zone_size, 0),
	BL_PA(BLKLOAD_A_ZONE_SKIP, BL_PK_U64, zone_skip, 0),
	BL_PA(BLKLOAD_A_DEDUPE_BASE, BL_PK_U64, dedupe_base, 0),
	BL_PA(BLKLOAD_A_VERIFY, BL_PK_U32, verify, BLKLOAD_VERIFY_NONE),
	BL_PA(BLKLOAD_A_VERIFY_NO_READBACK, BL_PK_FLAG, verify_no_readback, 0),
	BL_PA(BLKLOAD_A_BATCH_COMPLETE, BL_PK_U32, batch_complete, 0),
};

#define BL_PARAM_ATTRS_NR	BL_ARRAY_SIZE(bl_param_attrs)

/* The value of the field @a names in @p, widened. */
static inline BL_U64 bl_param_get(const struct bl_params *p, const struct bl_param_attr *a)
{
	const char *f = (const char *)p + a->off;

	switch (a->kind) {
	case BL_PK_U32:
		return *(const BL_U32 *)f;
	case BL_PK_U64:
		return *(const BL_U64 *)f;
	default:
		return *(const bool *)f;
	}
}

/* Sets the field @a names in @p to @v. */
static inline void bl_param_set(struct bl_params *p, const struct bl_param_attr *a, BL_U64 v)
{
	char *f = (char *)p + a->off;

	switch (a->kind) {
	case BL_PK_U32:
		*(BL_U32 *)f = (BL_U32)v;
		break;
	case BL_PK_U64:
		*(BL_U64 *)f = v;
		break;
	default:
		*(bool *)f = v != 0;
	}
}

/* The defaults of a job-new without attributes. */
static inline void bl_params_init(struct bl_params *p)
{
	unsigned int i;

	*p = (struct bl_params){ 0 };
	for (i = 0; i < BL_PARAM_ATTRS_NR; i++)
		bl_param_set(p, &bl_param_attrs[i], bl_param_attrs[i].dflt);
}

/* A refusal: @msg into *@why, @err (a negative errno) returned. */
static inline int bl_params_no(const char **why, int err, const char *msg)
{
	*why = msg;
	return err;
}

/* The predicates: what the workload does. */

static inline bool bl_rw_trim_only(BL_U32 rw)
{
	return rw == BLKLOAD_RW_TRIM || rw == BLKLOAD_RW_RANDTRIM;
}

static inline bool bl_rw_sequential(BL_U32 rw)
{
	return rw == BLKLOAD_RW_READ || rw == BLKLOAD_RW_WRITE || rw == BLKLOAD_RW_RW ||
	       rw == BLKLOAD_RW_TRIM;
}

static inline bool bl_rw_random(BL_U32 rw)
{
	return !bl_rw_sequential(rw);
}

/* Percent of reads among reads and writes, as the generator draws them. */
static inline BL_U32 bl_params_mix(const struct bl_params *p)
{
	switch (p->rw) {
	case BLKLOAD_RW_READ:
	case BLKLOAD_RW_RANDREAD:
		return 100;
	case BLKLOAD_RW_RW:
	case BLKLOAD_RW_RANDRW:
		return p->rwmixread;
	default:
		return 0;
	}
}

/* Percent of trims, as the generator draws them. */
static inline BL_U32 bl_params_trim_pct(const struct bl_params *p)
{
	return bl_rw_trim_only(p->rw) ? 100 : p->rwmixtrim;
}

/* Whether the workload has trims. */
static inline bool bl_params_trims(const struct bl_params *p)
{
	return bl_params_trim_pct(p) != 0;
}

/* Whether it changes the device: writes or trims (allow_write, the write guard). */
static inline bool bl_params_changes(const struct bl_params *p)
{
	return (p->rw != BLKLOAD_RW_READ && p->rw != BLKLOAD_RW_RANDREAD) || p->rwmixtrim;
}

/* Whether it has reads or writes (not only trims). */
static inline bool bl_params_has_data(const struct bl_params *p)
{
	return !bl_rw_trim_only(p->rw) && p->rwmixtrim < 100;
}

/* Whether it has writes (not only reads and trims). */
static inline bool bl_params_writes(const struct bl_params *p)
{
	switch (p->rw) {
	case BLKLOAD_RW_WRITE:
	case BLKLOAD_RW_RANDWRITE:
		return p->rwmixtrim < 100;
	case BLKLOAD_RW_RW:
	case BLKLOAD_RW_RANDRW:
		return p->rwmixtrim < 100 && p->rwmixread < 100;
	default:
		return false;
	}
}

/* Whether it has reads. */
static inline bool bl_params_reads(const struct bl_params *p)
{
	return bl_params_has_data(p) && bl_params_mix(p) > 0;
}

/*
 * Whether it has bios without data (trims, write-zeroes): never polled,
 * and sent blocking by the module, since they may be split.
 */
static inline bool bl_params_has_nodata(const struct bl_params *p)
{
	return bl_params_trims(p) ||
	       ((p->req & BLKLOAD_REQ_WRITE_ZEROES) && bl_params_writes(p));
}

/* Whether writes carry data from the job's pool (fill.h). */
static inline bool bl_params_fills(const struct bl_params *p)
{
	return bl_params_writes(p) && !(p->req & BLKLOAD_REQ_WRITE_ZEROES) && !p->zero_buffers;
}

/* Whether a job keeps a verify generation map: one that verifies and writes or trims. */
static inline bool bl_params_vmap(const struct bl_params *p)
{
	return p->verify != BLKLOAD_VERIFY_NONE &&
	       (bl_params_writes(p) || bl_params_trims(p));
}

/* Whether verify reads the written units back once the workload is done. */
static inline bool bl_params_readback(const struct bl_params *p)
{
	return bl_params_vmap(p) && !p->verify_no_readback;
}

/* Units of the region (of bs), once bl_params_region() filled it. */
static inline BL_U64 bl_params_units(const struct bl_params *p)
{
	return BL_DIV64(p->size, p->bs);
}

/*
 * A direction's split as job-new's attribute and fio's bssplit carry it:
 * (smallest, largest, percent) triples, from the table (cumulative percents).
 */
static_assert((int)BL_DIST_NORMAL == (int)BLKLOAD_DIST_NORMAL &&
	      (int)BL_DIST_ZONED_ABS == (int)BLKLOAD_DIST_ZONED_ABS,
	      "dist.h's types are the netlink ABI's");

/*
 * Whether a random queue walks fio's random map (offset.h): asked for, on a
 * uniform random pattern whose IOs are all one unit (no split); as fio, a
 * distribution or a split goes without it.
 */
static inline bool bl_params_map(const struct bl_params *p)
{
	return p->random_map && bl_rw_random(p->rw) && p->dist == BLKLOAD_DIST_RANDOM &&
	       !p->nbs[0] && !p->nbs[1] && p->blockalign <= p->bs && !p->zone_range;
}

/* Whether the distribution is fio's zoned or zoned_abs (its zones in zones[]). */
static inline bool bl_params_zoned(const struct bl_params *p)
{
	return p->dist == BLKLOAD_DIST_ZONED || p->dist == BLKLOAD_DIST_ZONED_ABS;
}

/* The zones as job-new's random-zones carries them: @len bytes of whole entries. */
static inline int bl_params_zones_set(struct bl_params *p, const void *data, unsigned int len,
				      const char **why)
{
	if (!len || len % sizeof(p->zones[0]) || len > sizeof(p->zones))
		return bl_params_no(why, -BL_EINVAL,
				    "random-zones: 1 to 16 entries of a u32 percent, a u32 0 and a u64 size");
	memcpy(p->zones, data, len);
	p->nzones = len / sizeof(p->zones[0]);
	return 0;
}

/*
 * @d set up as the job's distribution over @nblocks units (the region's, or
 * a random stream's), its zones too; the reason in @why when it cannot be.
 */
static inline int bl_params_dist_init(const struct bl_params *p, struct bl_dist *d,
				      BL_U64 nblocks, const char **why)
{
	if (!bl_dist_init(d, (int)p->dist, p->dist_param, nblocks, p->randseed))
		return bl_params_no(why, -BL_EINVAL,
				    "random-distribution-param: zipf theta > 0, not 1, up to 10; pareto 0 < h < 1; normal below 100%");
	if (!bl_params_zoned(p) || bl_dist_set_zones(d, p->zones, p->nzones, p->bs))
		return 0;
	if (p->dist == BLKLOAD_DIST_ZONED)
		return bl_params_no(why, -BL_EINVAL,
				    "zoned: percents of the IOs adding up to 100, sizes up to 100 in all, every zone with IOs holding a block of the region");
	return bl_params_no(why, -BL_EINVAL,
			    "zoned_abs: percents of the IOs adding up to 100, the zones inside the region, every zone with IOs holding a block");
}

static inline unsigned int bl_params_split_get(const struct bl_params *p, unsigned int d,
					       BL_U32 t[][3])
{
	BL_U32 prev = 0;
	unsigned int i;

	for (i = 0; i < p->nbs[d]; i++) {
		t[i][0] = p->bss[d][i].lo;
		t[i][1] = p->bss[d][i].hi;
		t[i][2] = p->bss[d][i].cum - prev;
		prev = p->bss[d][i].cum;
	}
	return p->nbs[d];
}

/*
 * And into the table: @n triples of sizes from 512 B to 4 MiB in sectors,
 * smallest first, with percents adding up to 100. Returns 0 or -EINVAL
 * with @why set; the table is left as it was then.
 */
static inline int bl_params_split_set(struct bl_params *p, unsigned int d, BL_U32 t[][3],
				      unsigned int n, const char **why)
{
	struct bl_gen_bs e[BL_GEN_BS_MAX];
	BL_U32 cum = 0;
	unsigned int i;

	if (!n || n > BL_GEN_BS_MAX)
		return bl_params_no(why, -BL_EINVAL,
				    "bs-split: 1 to 16 entries of three u32 (smallest, largest, percent)");
	for (i = 0; i < n; i++) {
		if (!t[i][0] || t[i][0] > t[i][1] || t[i][0] % BL_SECTOR ||
		    t[i][1] % BL_SECTOR || !t[i][2] || t[i][2] > 100 - cum)
			return bl_params_no(why, -BL_EINVAL,
					    "bs-split: sizes in multiples of 512 B, smallest first, percents adding up to 100");
		cum += t[i][2];
		e[i].lo = t[i][0];
		e[i].hi = t[i][1];
		e[i].cum = cum;
	}
	if (cum != 100)
		return bl_params_no(why, -BL_EINVAL, "bs-split: the percents must add up to 100");
	for (i = 0; i < n; i++)
		p->bss[d][i] = e[i];
	p->nbs[d] = n;
	return 0;
}

/*
 * A block size split: every size a multiple of bs (the CLI makes bs the
 * smallest size, or the sizes' common divisor); fills bs_max.
 */
static inline int bl_params_check_split(struct bl_params *p, const char **why)
{
	BL_U32 hi = 0;
	unsigned int d, i;

	for (d = 0; d < 2; d++) {
		for (i = 0; i < p->nbs[d]; i++) {
			const struct bl_gen_bs *e = &p->bss[d][i];

			hi = e->hi > hi ? e->hi : hi;
			if (e->lo % p->bs || e->hi % p->bs)
				return bl_params_no(why, -BL_EINVAL,
						    "bs-split: sizes must be multiples of bs");
		}
	}
	p->bs_max = p->bs;
	if (hi)
		p->bs_max = hi;
	return 0;
}

/* fio's blockalign and rw=PATTERN:OFFSET: multiples of the unit (bs, a split's smallest size). */
static inline int bl_params_check_align(const struct bl_params *p, const char **why)
{
	BL_U64 h = p->rw_hole >> 63 ? -p->rw_hole : p->rw_hole;

	if (p->blockalign % p->bs)
		return bl_params_no(why, -BL_EINVAL,
				    "blockalign (block-align): a multiple of bs (with a bs-split, of its smallest size)");
	if (p->rw_hole && !bl_rw_sequential(p->rw))
		return bl_params_no(why, -BL_EINVAL,
				    "rw=PATTERN:OFFSET (rw-hole) is for sequential patterns (fio's rw_sequencer for random ones is not in blkload yet)");
	if (h > 0x7fffffffffffffffULL || BL_DIV64_64(h, p->bs) * p->bs != h)
		return bl_params_no(why, -BL_EINVAL,
				    "rw=PATTERN:OFFSET (rw-hole): OFFSET a multiple of bs (with a bs-split, of its smallest size)");
	if (!p->zone_range && (p->zone_size || p->zone_skip))
		return bl_params_no(why, -BL_EINVAL, "zone-size or zone-skip without zone-range");
	if (p->zone_range &&
	    (!p->zone_size || BL_DIV64_64(p->zone_range, p->bs) * p->bs != p->zone_range ||
	     BL_DIV64_64(p->zone_size, p->bs) * p->bs != p->zone_size ||
	     BL_DIV64_64(p->zone_skip, p->bs) * p->bs != p->zone_skip ||
	     (p->zone_range | p->zone_size | p->zone_skip) >> 62))
		return bl_params_no(why, -BL_EINVAL,
				    "zonemode=strided: zone-range, zone-size (not 0) and zone-skip are multiples of bs (with a bs-split, of its smallest size)");
	if (p->zone_range && (p->rw_hole || p->dist != BLKLOAD_DIST_RANDOM))
		return bl_params_no(why, -BL_EINVAL,
				    "zonemode=strided: not with rw=PATTERN:OFFSET or a random-distribution");
	return 0;
}

/*
 * Direction @d's (0 reads, 1 writes and trims) mean IO size in units of
 * bs, times 200 (percent, and halves of a range's ends); 200 without a split.
 */
static inline BL_U64 bl_params_mean200(const struct bl_params *p, unsigned int d)
{
	BL_U64 mean = p->nbs[d] ? 0 : 200;
	unsigned int i;

	for (i = 0; i < p->nbs[d]; i++) {
		const struct bl_gen_bs *e = &p->bss[d][i];
		BL_U32 pct = e->cum - (i ? p->bss[d][i - 1].cum : 0);

		mean += (BL_U64)pct * ((e->lo + e->hi) / p->bs);
	}
	return mean;
}

/*
 * The mean IO size in units of bs, times 20000 (percent, and halves of a
 * range's ends): with a block size split, each direction's mean weighted by
 * its share of the IOs; 20000 without one.
 */
static inline BL_U64 bl_params_mean20k(const struct bl_params *p)
{
	BL_U32 share;

	if (!p->nbs[0] && !p->nbs[1])
		return 20000;
	/* Reads' share of all IOs (trims take the writes' sizes). */
	share = bl_params_mix(p) * (100 - bl_params_trim_pct(p)) / 100;
	return share * bl_params_mean200(p, 0) + (100 - share) * bl_params_mean200(p, 1);
}

/* ceil(@units x 20000 / @step), @step > 0, without overflow for any region. */
static inline BL_U64 bl_params_per20k(BL_U64 units, BL_U64 step, bool up)
{
	if (units > (~(BL_U64)0 >> 16))
		return BL_DIV64_64(units, step) * 20000;
	return BL_DIV64_64(units * 20000 + (up ? step - 1 : step / 2), step);
}

/*
 * The IOs that carry @bytes: bytes / bs, or with a block size split bytes
 * over the split's mean IO size. fio stops a pass on its bytes; here the
 * count is fixed before the run, so with a split the bytes done differ from
 * @bytes by the draw's spread (about the sizes' deviation over the root of
 * the count: under 1% for thousands of IOs of a narrow split, more for a
 * wide one such as 4k/50:1m/50).
 */
static inline BL_U64 bl_params_ios_of(const struct bl_params *p, BL_U64 bytes)
{
	return bl_params_per20k(BL_DIV64(bytes, p->bs), bl_params_mean20k(p), false);
}

/*
 * The IOs of one pass over the region: its bytes' IOs, or with fio's
 * forward hole (rw=write:4k) those until the offset passes the region's
 * end, as fio ends the pass (each IO moves on by its size and the hole).
 */
static inline BL_U64 bl_params_pass_ios(const struct bl_params *p)
{
	BL_U64 units = BL_DIV64(p->size, p->bs);

	if (!p->rw_hole || p->rw_hole >> 63)
		return bl_params_ios_of(p, p->size);
	return bl_params_per20k(units, bl_params_mean20k(p) +
				BL_DIV64_64(p->rw_hole, p->bs) * 20000, true);
}

/* What a path takes at most: the module's limits, or an engine's. */
struct bl_params_limits {
	BL_U32 iodepth_max;	/* the module: its max_iodepth */
	BL_U32 bs_max;		/* the largest IO: the module's slots hold BL_BS_MAX */
	const char *iodepth_no;	/* the refusal of an iodepth over iodepth_max */
};

/* The userspace engines' limits: their buffers are plain memory. */
#define BL_ENGINE_BS_MAX	0x40000000U	/* 1 GiB */

/*
 * The checks that need no device, for a job of @nr_queues CPU queues on a
 * path with limits @lim; fills the defaults (batch, batch_complete, bs_max,
 * sample_ring, loops). Returns 0 or a negative errno, @why set.
 */
static inline int bl_params_check(struct bl_params *p, unsigned int nr_queues,
				  const struct bl_params_limits *lim, const char **why)
{
	if (p->rw > BLKLOAD_RW_MAX)
		return bl_params_no(why, -BL_EINVAL, "unknown rw pattern");
	if (p->rwmixread > 100 || p->rwmixtrim > 100 || p->buf_compress > 100 ||
	    p->buf_dedupe > 100)
		return bl_params_no(why, -BL_EINVAL,
				    "rwmixread, rwmixtrim, buffer_compress_percentage and dedupe_percentage are percents (0-100)");
	if (bl_rw_trim_only(p->rw) && p->rwmixtrim)
		return bl_params_no(why, -BL_EINVAL, "rwmixtrim is for read and write patterns");
	if (bl_params_changes(p) && !p->allow_write)
		return bl_params_no(why, -BL_EPERM,
				    "the workload writes or trims: allow-write is required");
	if ((p->req & (BLKLOAD_REQ_FUA | BLKLOAD_REQ_PREFLUSH | BLKLOAD_REQ_WRITE_ZEROES)) &&
	    !bl_params_writes(p))
		return bl_params_no(why, -BL_EINVAL, "fua, preflush and write-zeroes need writes");
	if ((p->req & BLKLOAD_REQ_WRITE_ZEROES) &&
	    (p->req & (BLKLOAD_REQ_FUA | BLKLOAD_REQ_PREFLUSH)))
		return bl_params_no(why, -BL_EINVAL,
				    "write-zeroes carry no data: not with fua or preflush");
	if (p->verify > BLKLOAD_VERIFY_MAX)
		return bl_params_no(why, -BL_EINVAL, "unknown verify mode");
	if (p->verify && (p->buf_dedupe || (p->req & BLKLOAD_REQ_WRITE_ZEROES)))
		return bl_params_no(why, -BL_EINVAL,
				    "verify writes a header in every unit: not with dedupe-percentage or write-zeroes");
	/* The map counts the writes of a unit in flight in 14 bits (verify.h). */
	if (p->verify && (BL_U64)p->iodepth * nr_queues >= BL_VMAP_WRITERS)
		return bl_params_no(why, -BL_EINVAL,
				    "verify: at most 16382 IOs in flight (iodepth x CPUs)");
	if (p->verify_no_readback && !p->verify)
		return bl_params_no(why, -BL_EINVAL, "verify-no-readback without verify");
	if (p->zero_buffers && (p->buf_compress || p->buf_dedupe))
		return bl_params_no(why, -BL_EINVAL,
				    "zero-buffers writes zeros: not with buffer-compress-percentage or dedupe-percentage");
	if ((p->req & (BLKLOAD_REQ_HIPRI | BLKLOAD_REQ_NOWAIT)) && !bl_params_has_data(p))
		return bl_params_no(why, -BL_EINVAL,
				    "hipri and nowait apply to reads and writes, not trims");
	/* Sent blocking, they could wait for the job's own polled bios (a frozen queue). */
	if ((p->req & BLKLOAD_REQ_HIPRI) && bl_params_has_nodata(p)) {
		return bl_params_no(why, -BL_EINVAL,
				    "hipri with trims or write-zeroes: those are not polled and go blocking, which can wait for the job's own polled IO (a frozen queue); run them in a job of their own, on other CPUs");
	}
	if (!p->bs || p->bs % BL_SECTOR)
		return bl_params_no(why, -BL_EINVAL, "bs must be a multiple of 512");
	if (!p->iodepth || p->iodepth > lim->iodepth_max)
		return bl_params_no(why, -BL_ERANGE, p->iodepth ? lim->iodepth_no :
				    "iodepth 0: at least one IO in flight");
	if (p->runtime_ns > BL_TIME_MAX_NS || p->ramp_ns > BL_TIME_MAX_NS ||
	    p->startdelay_ns > BL_TIME_MAX_NS || p->think_ns > BL_TIME_MAX_NS)
		return bl_params_no(why, -BL_ERANGE,
				    "runtime and ramp_time are at most 365 days (startdelay and thinktime too)");
	if (p->sample_ns && p->sample_ns < BL_SAMPLE_MIN_NS)
		return bl_params_no(why, -BL_ERANGE, "sample-interval is at least 10 ms");
	if (!p->sample_ns && p->sample_ring)
		return bl_params_no(why, -BL_EINVAL, "sample-ring without sample-interval");
	if (p->sample_ns && !p->sample_ring) {
		/* The whole run where it is short, else what a reader drains in time. */
		BL_U64 n = p->runtime_ns ? BL_DIV64_64(p->runtime_ns, p->sample_ns) + 2 :
			   BL_SAMPLE_RING_DEFAULT;

		p->sample_ring = n < BL_SAMPLE_RING_MIN ? BL_SAMPLE_RING_MIN :
				 n > BL_SAMPLE_RING_DEFAULT ? BL_SAMPLE_RING_DEFAULT : (BL_U32)n;
	}
	if (!nr_queues)
		return bl_params_no(why, -BL_EINVAL, "no CPU given");
	if (p->rate_iops && p->rate_bps)
		return bl_params_no(why, -BL_EINVAL,
				    "rate-iops and rate-bps together: a job has one rate");
	if (p->rate_iops && p->rate_iops < nr_queues)
		return bl_params_no(why, -BL_EINVAL,
				    "rate-iops is below one IO a second per CPU queue");
	if (p->rate_bps && p->rate_bps < nr_queues)
		return bl_params_no(why, -BL_EINVAL,
				    "rate-bps is below one byte a second per CPU queue");
	if ((p->rate_min && p->rate_min < nr_queues) ||
	    (p->rate_iops_min && p->rate_iops_min < nr_queues))
		return bl_params_no(why, -BL_EINVAL,
				    "rate-min or rate-iops-min is below one (byte or IO) a second per CPU queue");
	if (p->rate_min && p->rate_iops_min)
		return bl_params_no(why, -BL_EINVAL,
				    "rate-min and rate-iops-min together: one minimum (fio refuses both too)");
	if (p->dedupe_ws && (p->nbs[0] || p->nbs[1] || p->blockalign > p->bs))
		return bl_params_no(why, -BL_EINVAL,
				    "dedupe-working-set: a set of one-unit writes, not with a bs-split or blockalign");
	if (p->dedupe_base && !p->dedupe_seed)
		return bl_params_no(why, -BL_EINVAL, "dedupe-base without dedupe-seed");
	if (p->zone_range && nr_queues > 1)
		return bl_params_no(why, -BL_EINVAL,
				    "zonemode=strided: a job of one CPU queue, as fio's job is one thread (numjobs makes copies)");
	if (p->rate_process && !bl_params_paced(p))
		return bl_params_no(why, -BL_EINVAL, "rate-process without a rate");
	if (p->rate_process > BLKLOAD_RATE_PROCESS_MAX || p->dist > BLKLOAD_DIST_MAX)
		return bl_params_no(why, -BL_EINVAL, "unknown rate_process or random_distribution");
	if (p->dist != BLKLOAD_DIST_RANDOM && bl_rw_sequential(p->rw))
		return bl_params_no(why, -BL_EINVAL, "random-distribution is for random patterns");
	if (bl_params_zoned(p) != !!p->nzones)
		return bl_params_no(why, -BL_EINVAL,
				    "random-zones: given with a zoned or zoned-abs random-distribution, and only then");
	if (p->nbs[0] > BL_GEN_BS_MAX || p->nbs[1] > BL_GEN_BS_MAX)
		return bl_params_no(why, -BL_EINVAL, "bs-split: at most 16 sizes a direction");
	if (bl_params_check_split(p, why) || bl_params_check_align(p, why))
		return -BL_EINVAL;
	if (p->bs_max > lim->bs_max)
		return bl_params_no(why, -BL_EINVAL,
				    "bs (or a bs-split size) is over the largest IO of this path (the module's: 4 MiB)");
	if (!p->batch)
		p->batch = 1;
	if (p->batch > p->iodepth)
		p->batch = p->iodepth;
	/* fio's iodepth_batch_complete_max: by default its min, 1. */
	if (!p->batch_complete)
		p->batch_complete = 1;
	if (p->batch_complete > p->iodepth)
		p->batch_complete = p->iodepth;
	if (!p->think_blocks)
		p->think_blocks = 1;
	if (!p->loops)
		p->loops = 1;
	return 0;
}

/*
 * The checks against the device (@dev_size bytes, @dev_lbs its logical
 * block size) for @nr_queues queues; fills size (the rest of the device when
 * 0) and number_ios (io_size's count, or one pass without a time or IO
 * limit). Distributions are checked by the caller (dist.h needs the blocks).
 */
static inline int bl_params_region(struct bl_params *p, BL_U64 dev_size, BL_U32 dev_lbs,
				   unsigned int nr_queues, const char **why)
{
	BL_U64 blocks, per;

	if (p->bs % dev_lbs)
		return bl_params_no(why, -BL_EINVAL,
				    "bs is not a multiple of the device's logical block size");
	if (p->offset % dev_lbs)
		return bl_params_no(why, -BL_EINVAL,
				    "offset is not a multiple of the device's logical block size");
	if (p->offset >= dev_size)
		return bl_params_no(why, -BL_EINVAL, "offset is past the end of the device");
	/* fio's: no size, or one past the device's end, is the rest of the device. */
	if (!p->size || p->size > dev_size - p->offset)
		p->size = dev_size - p->offset;
	blocks = BL_DIV64(p->size, p->bs);
	if (!blocks || (bl_rw_sequential(p->rw) && blocks < nr_queues))
		return bl_params_no(why, -BL_EINVAL,
				    "the region holds fewer blocks than needed (one per CPU for sequential IO)");
	per = bl_rw_sequential(p->rw) ? BL_DIV64(blocks, nr_queues) : blocks;
	if (per < p->bs_max / p->bs)
		return bl_params_no(why, -BL_EINVAL,
				    "bs-split: the largest size does not fit the region (per CPU for sequential IO)");
	if (p->rw_hole >> 63 && BL_DIV64_64(-p->rw_hole, p->bs) >= per)
		return bl_params_no(why, -BL_EINVAL,
				    "rw=PATTERN:-OFFSET (rw-hole): a backwards OFFSET must be shorter than the region (per CPU)");
	if (p->io_size) {
		BL_U64 n = bl_params_ios_of(p, p->io_size);

		if (!n)
			return bl_params_no(why, -BL_EINVAL, "io_size is smaller than bs");
		if (!p->number_ios || n < p->number_ios)
			p->number_ios = n;
	}
	/*
	 * Like fio: without an IO limit, one pass over the region ends the job
	 * unless a runtime is its length (time_based; a client before
	 * pass_ends: every runtime).
	 */
	if (!p->number_ios && (!p->runtime_ns || p->pass_ends))
		p->number_ios = bl_params_pass_ios(p);
	/* fio's runtime without time_based: number_ios past the pass does not extend it. */
	else if (p->pass_ends && !p->io_size && p->number_ios > bl_params_pass_ios(p))
		p->number_ios = bl_params_pass_ios(p);
	if (!p->number_ios && !p->runtime_ns)
		return bl_params_no(why, -BL_EINVAL,
				    "the region holds less than one IO of the block size split's mean size");
	/* loops: each queue does its share that many times. */
	if (p->number_ios && p->loops > 1 &&
	    p->number_ios > BL_DIV64(~(BL_U64)0, p->loops))
		return bl_params_no(why, -BL_ERANGE, "loops x the IO count is over 2^64");
	/* verify: the map's entries, one a unit (the engines' bound as the module's). */
	if (bl_params_vmap(p) && blocks > 0x1fffffffULL) {
		return bl_params_no(why, -BL_E2BIG,
				    "verify: over 2^29 units in the region; a smaller size or a larger bs");
	}
	return 0;
}

/* Queue @index's share of the job's IO count, its loops included; ~0: no limit. */
static inline BL_U64 bl_params_queue_limit(const struct bl_params *p, unsigned int index,
					   unsigned int nr_queues)
{
	BL_U64 share;
	BL_U32 rem;

	if (!p->number_ios)
		return ~(BL_U64)0;
	/*
	 * A random map's queue takes every nr_queues-th index of each pass
	 * (offset.h): its whole passes' indices, then its indices among the
	 * first ones of the last, partial pass, so the job's passes stay whole.
	 */
	if (bl_params_map(p)) {
		BL_U64 n = bl_params_units(p), all = p->number_ios * (p->loops ? p->loops : 1);
		BL_U64 full = BL_DIV64_64(all, n), r = all - full * n;
		BL_U64 per = BL_DIV64(n, nr_queues), rper = BL_DIV64(r, nr_queues);

		per += index < n - per * nr_queues ? 1 : 0;
		return full * per + rper + (index < r - rper * nr_queues ? 1 : 0);
	}
	share = BL_DIV64(p->number_ios, nr_queues);
	rem = (BL_U32)(p->number_ios - share * nr_queues);
	return (share + (index < rem ? 1 : 0)) * (p->loops ? p->loops : 1);
}

/* Queue @index's share of @v, a job's total over its @nr_queues queues. */
static inline BL_U64 bl_params_share(BL_U64 v, unsigned int index, unsigned int nr_queues)
{
	BL_U64 share = BL_DIV64(v, nr_queues);

	return share + (index < v - share * nr_queues ? 1 : 0);
}

/*
 * Queue @index's share of the job's rate: IOs a second (rate-iops) or
 * bytes a second (rate-bps); 0: none.
 */
static inline BL_U64 bl_params_queue_rate(const struct bl_params *p, unsigned int index,
					  unsigned int nr_queues)
{
	return bl_params_share(p->rate_bps ? p->rate_bps : p->rate_iops, index, nr_queues);
}
#endif /* _BLKLOAD_PARAMS_H */
