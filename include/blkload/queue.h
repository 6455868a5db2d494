/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * blkload's queue machine, shared by the kernel module and every userspace
 * engine: one CPU queue's workload policy, written once. An engine (bios,
 * io_uring SQEs, AIO, rbd_aio) keeps only its IO mechanics: slots, how an
 * IO goes out and comes back. Everything that decides what goes when, and
 * what a completion counts for, is here: the phases, the ramp, pacing,
 * limits, think time, deadlines, the verify read-back pass, statistics and
 * samples. Same parameters, same decisions, same numbers on every path.
 *
 * Phases (bl_q_tick() moves between them; each queue alone, by its thread):
 *
 *   HOLD    nothing new goes before hold_until (startdelay; thinktime's stall)
 *   RUN     IO goes: drawn from the generator, paced by a rate
 *   THINK   thinktime: think_blocks IOs went; waits for them to complete,
 *           then HOLD for think_ns
 *   DRAIN   the workload ended (stop, runtime, limit): nothing new goes,
 *           what is in flight completes
 *   VWAIT   verify: the workload is done; waits until every queue of the
 *           job is (its units are then all written)
 *   VERIFY  verify: reads back the units the job wrote, its share of them
 *   VDRAIN  the read-back pass ended (or was stopped): its reads complete
 *   DONE    finished: nothing in flight; end_ns is set
 *
 * The ramp is not a phase of issuing but of counting: IO goes as in RUN,
 * and only what is issued once it ended counts ("counting", published with
 * release so that readers see the reset statistics first).
 *
 * One timing definition on every path (fio's): an IO's latency runs from a
 * clock read just before the call that submits it (submit_ns) to the clock
 * read of the reap that hands it back to its submitter (bl_q_reaped()'s
 * @now), never to the device's own completion, which may come earlier on
 * another CPU; slat ends when the submission call returned (sent_ns), clat
 * is the rest. An IO that completed inside its submission call still has a
 * clat: the time until its submitter reaped it.
 *
 * The reap is fio's too (bl_q_reap_max()): a reap hands the machine at most
 * iodepth_batch_complete_max completions (fio's default: 1), oldest first,
 * and the queue is refilled before the next reap. However an engine learns
 * of its completions (a done list, a ring, one system call for many), it
 * hands them over that way, each group timed by the clock read that follows
 * the submissions before it. So on a device faster than its client, an IO's
 * clat holds its wait behind the resubmission of those that completed
 * before it, as fio's does (about iodepth IOs in flight by Little's law at
 * a full queue, where taking every ready completion at one clock read keeps
 * about half).
 *
 * The machine reads no clock and allocates nothing: times come in, and the
 * environment (env.h) gives types and atomics. Statistics are written by
 * the queue's thread alone, between BL_Q_WRITE_BEGIN/END (u64_stats_sync in
 * the kernel, for readers on 32-bit; nothing in userspace, whose readers
 * wait for DONE).
 */
#ifndef _BLKLOAD_QUEUE_H
#define _BLKLOAD_QUEUE_H

#include "env.h"
#include "params.h"
#include "dist.h"
#include "fill.h"
#include "hist.h"
#include "lat.h"
#include "offset.h"
#include "sample.h"
#include "stamp.h"
#include "verify.h"

#ifdef __KERNEL__
#include <linux/crc32c.h>
#include <linux/string.h>
#include <linux/u64_stats_sync.h>
#define BL_Q_WRITE_BEGIN(q)	u64_stats_update_begin(&(q)->sync)
#define BL_Q_WRITE_END(q)	u64_stats_update_end(&(q)->sync)
#else
#include <stddef.h>
#include <string.h>
/* Readers of a userspace queue wait for its end: nothing to order. */
#define BL_Q_WRITE_BEGIN(q)	((void)(q))
#define BL_Q_WRITE_END(q)	((void)(q))
/* The CRC-32C of the userspace engines (userspace/crc32c.c). */
BL_U32 crc32c(BL_U32 crc, const void *buf, size_t len);
#endif

/* The operations, as the generator draws them and the statistics count them. */
enum bl_op { BL_READ = BL_GEN_READ, BL_WRITE = BL_GEN_WRITE, BL_TRIM = BL_GEN_TRIM, BL_NR_OPS };

enum bl_phase {
	BL_PH_HOLD,
	BL_PH_RUN,
	BL_PH_THINK,
	BL_PH_DRAIN,
	BL_PH_VWAIT,
	BL_PH_VERIFY,
	BL_PH_VDRAIN,
	BL_PH_DONE,
};

/*
 * One operation's statistics (fio's names: slat until the submission call
 * returned, clat from there to the reap, lat the two together).
 */
struct bl_op_stats {
	BL_U64 ios;		/* completed without error */
	BL_U64 bytes;
	BL_U64 errors;
	struct bl_lat lat, clat, slat;
	/* Device side, where the engine knows it (the module's bi_end_io): submit to completion. */
	struct bl_lat devlat;
	BL_U64 devlat_n;		/* IOs in devlat */
	BL_U64 hist[BL_HIST_NR];	/* of lat */
	BL_U64 chist[BL_HIST_NR];	/* of clat */
};

/*
 * One operation's statistics as a queue keeps them while it runs: those of
 * bl_op_stats, with its two histograms interleaved, h[i][0] of lat and
 * h[i][1] of clat. An IO's two buckets are close (lat = slat + clat), on
 * one page mostly where two arrays put them on two: with many queues a CPU
 * the pages an IO touches are much of its cost. Read with bl_op_live_read().
 */
struct bl_op_live {
	/* bl_op_stats' counters, in its order (checked below). */
	BL_U64 ios;
	BL_U64 bytes;
	BL_U64 errors;
	struct bl_lat lat, clat, slat;
	struct bl_lat devlat;
	BL_U64 devlat_n;
	BL_U64 h[BL_HIST_NR][2];	/* [0] of lat, [1] of clat */
};

/* Latencies from the scheduled time of a rate-limited queue's IOs. */
struct bl_sched_stats {
	struct bl_lat lat[BL_NR_OPS];
	BL_U64 hist[BL_NR_OPS][BL_HIST_NR];
};

/* A queue's statistics: what job-get, the report and the samples read. */
struct bl_qstats {
	/* Each turn writes these: first, on the page of the queue's own state. */
	BL_U64 depth_ns[BL_DEPTH_NR];	/* time at each in-flight level */
	BL_U64 cpu_time;	/* ns of its thread's CPU time, its share, after the ramp */
	BL_U64 ctx;		/* its thread's context switches, its share */
	BL_U64 stall_max;	/* the longest time with IO in flight and no reap */
	BL_U64 vchecked, vskipped, verrors, vreadback;	/* verify's units */
	struct bl_op_live st[BL_NR_OPS];
};

/* An IO as the machine hands it out and takes it back. */
struct bl_io {
	BL_U64 off;		/* byte offset on the device */
	BL_U64 sched_ns;	/* rate limit: when it was due */
	BL_U64 submit_ns;	/* before the call that first submitted it */
	BL_U64 sent_ns;		/* after the call that sent it returned */
	BL_U64 dev_ns;		/* the device's completion, where the engine knows it; 0: not */
	BL_U32 len;		/* bytes */
	BL_U8 op;		/* enum bl_op */
	bool counted;		/* issued after the ramp: into the statistics */
	bool readback;		/* a read of verify's read-back pass */
	BL_U32 *vsnap;		/* verify: each unit's map entry when a read was prepared */
};

/* The IO's data, for write data and verify: map byte @at, @contig bytes from there. */
struct bl_buf_ops {
	BL_U8 *(*map)(void *ctx, BL_U32 at, BL_U32 *contig);
	void (*unmap)(void *ctx, BL_U8 *p);
};

struct bl_qjob;

/* What a job does for its queues: rare events, any queue's thread. */
struct bl_qjob_ops {
	/* Ends the job for @reason (the first wins): every queue sees stop. */
	void (*end)(struct bl_qjob *j, BL_U32 reason);
	/* Keeps the job's first error (a negative errno). */
	void (*error)(struct bl_qjob *j, int err);
	/* A verify failure at @off: kept among the first, or counted. */
	void (*vfail)(struct bl_qjob *j, BL_U64 off, int what, BL_U64 want, BL_U64 got);
	/* Every queue's thread looks again: the read-back pass may begin. */
	void (*kick)(struct bl_qjob *j);
};

/* The job's part every queue shares. */
struct bl_qjob {
	const struct bl_params *p;	/* checked, the region filled */
	const struct bl_qjob_ops *ops;
	unsigned int nr_queues;
	const BL_U8 *pool;	/* what writes copy their data from (fill.h); NULL: none */
	BL_U32 *vmap;		/* verify: a generation a unit, for a job that writes */
	BL_U64 vunits;
	BL_U32 vnonce;		/* in the headers it writes: tells its units from another run's */
	bl_atomic_t vpending;	/* queues whose workload is not done: the pass waits for all */
	bool stop;		/* set by end(): every queue drains */
};

struct bl_q;

/* Where a queue's samples go: the slot of the next one, and its publication. */
struct bl_q_sink {
	struct bl_sample *(*slot)(struct bl_q *q);
	void (*publish)(struct bl_q *q);
};

struct bl_q {
	/* Set up by bl_q_init(), read-only once the queue runs. */
	struct bl_qjob *job;
	const struct bl_params *p;
	const struct bl_q_sink *sink;	/* NULL: no samples */
	unsigned int index;		/* stream number within the job */
	BL_U64 limit;			/* IOs it issues after the ramp; ~0: no limit */
	BL_U64 rate;			/* its share of the job's rate, IOs or bytes a s */
	BL_U32 sched_len;		/* rate units an IO: 1 (IOs), bs (bytes), 0: its length */
	BL_U64 sched_step, sched_rem;	/* the step between two due times: ns, and 1/rate ns */

	/* Written by the queue's thread alone. */
	struct bl_gen gen;
	struct bl_gen pace;		/* poisson pacing's own stream */
	struct bl_dist dist;
	BL_U8 phase;			/* enum bl_phase; DONE published with release */
	bool counting;			/* the ramp ended: published with release */
	bool work_done;			/* VWAIT reached: work_end_ns set, published with release */
	bool vdone;			/* the read-back pass has drawn its last read */
	bool vmore;			/* the pass stopped for its look-ahead budget: come back */
	BL_U32 reason;			/* runtime or limit, when it ended on its own */
	BL_U32 think_count;
	unsigned int inflight;		/* sent, not reaped; read racily */
	unsigned int held;		/* refused by the device, to go again (the engine's) */
	unsigned int vbudget;		/* map entries the pass may look at this turn */
	BL_U64 issued;			/* IOs issued after the ramp */
	BL_U64 sched_next, sched_acc;
	BL_U64 hold_until, ramp_end, end;	/* ns; end 0: no runtime */
	BL_U64 count_start_ns;		/* the ramp's actual end: counting starts */
	BL_U64 progress_ns;		/* the last reap, or IO sent after idleness */
	BL_U64 last_done_ns;		/* the last reap of an IO */
	BL_U64 time_end_ns;		/* ended by time (runtime, a stop): then; else 0 */
	BL_U64 work_end_ns;		/* the workload's end, before a read-back pass */
	BL_U64 end_ns;			/* its end, once DONE */
	BL_U64 depth_t;			/* the last time its in-flight level was counted */
	BL_U64 vcur;			/* the next unit the pass looks at */
	BL_U64 sample_next, sample_last;	/* ns: the next interval's end, the last sample */
	struct bl_sched_stats *sched;	/* rate-limited queues only (the caller's memory) */
	BL_U64 rmin_bps;		/* its share of fio's rate_min; 0: none */
	BL_U32 rmin_iops;		/* ... of rate_iops_min */
	BL_U64 rmin_t;			/* the last rate_min check, 0: none yet */
	BL_U64 rmin_bytes[BL_NR_OPS], rmin_ios[BL_NR_OPS];	/* the counts then */
	BL_U32 dedupe_set;		/* fio's dedupe working set: its blocks; 0: none */
	BL_U64 dedupe_base;		/* ... from this offset */

#ifdef __KERNEL__
	struct u64_stats_sync sync;	/* the statistics, for readers on 32-bit */
#endif
	/*
	 * The statistics right after the state an IO touches, their counters
	 * and an operation's sums first: a read's reap then touches the
	 * queue's first page and, mostly, one page of its interleaved
	 * histograms (with 64 queues a CPU the pages an IO touches are much of
	 * what it costs, under emulation most).
	 */
	struct bl_qstats s;
	/* Where the last sample left each operation: at a sample only. */
	struct bl_sampler_op sampler[BL_NR_OPS];
};

/* What bl_q_tick() asks of the engine. */
#define BL_Q_DROP_HELD	1U	/* drop the refused IOs it holds (bl_q_dropped() each) */
#define BL_Q_FINISHED	2U	/* DONE: release the queue; it may be freed */

static inline void bl_op_stats_init(struct bl_op_stats *st)
{
	bl_lat_init(&st->lat);
	bl_lat_init(&st->clat);
	bl_lat_init(&st->slat);
	bl_lat_init(&st->devlat);
}

static inline void bl_op_live_init(struct bl_op_live *st)
{
	bl_lat_init(&st->lat);
	bl_lat_init(&st->clat);
	bl_lat_init(&st->slat);
	bl_lat_init(&st->devlat);
}

/*
 * bl_op_live holds bl_op_stats' counters in the same places, before the
 * histograms: a field added to one and not the other fails the build.
 */
static_assert(offsetof(struct bl_op_live, h) == offsetof(struct bl_op_stats, hist) &&
	      offsetof(struct bl_op_live, devlat_n) == offsetof(struct bl_op_stats, devlat_n),
	      "bl_op_live's counters are not bl_op_stats'");

/* A copy of a queue's statistics of one operation; its histograms with @hist. */
static inline void bl_op_live_read(const struct bl_op_live *st, struct bl_op_stats *out,
				   bool hist)
{
	unsigned int i;

	memcpy(out, st, offsetof(struct bl_op_live, h));
	for (i = 0; hist && i < BL_HIST_NR; i++) {
		out->hist[i] = st->h[i][0];
		out->chist[i] = st->h[i][1];
	}
}

static inline void bl_sched_stats_init(struct bl_sched_stats *s)
{
	unsigned int op;

	for (op = 0; op < BL_NR_OPS; op++)
		bl_lat_init(&s->lat[op]);
}

static inline void bl_op_stats_merge(struct bl_op_stats *sum, const struct bl_op_stats *st,
				     bool hist)
{
	unsigned int i;

	sum->ios += st->ios;
	sum->bytes += st->bytes;
	sum->errors += st->errors;
	bl_lat_merge(&sum->lat, &st->lat);
	bl_lat_merge(&sum->clat, &st->clat);
	bl_lat_merge(&sum->slat, &st->slat);
	bl_lat_merge(&sum->devlat, &st->devlat);
	sum->devlat_n += st->devlat_n;
	for (i = 0; hist && i < BL_HIST_NR; i++) {
		sum->hist[i] += st->hist[i];
		sum->chist[i] += st->chist[i];
	}
}

/*
 * Sets up queue @index of @job (whose parameters are checked and region
 * filled); @sched: room for a rate-limited queue's statistics, else NULL;
 * @sink: where samples go, NULL without them. False when the generator
 * cannot split the region over the queues.
 */
static inline bool bl_q_init(struct bl_q *q, struct bl_qjob *job, unsigned int index,
			     struct bl_sched_stats *sched, const struct bl_q_sink *sink)
{
	const struct bl_params *p = job->p;
	bool random = bl_rw_random(p->rw);
	const char *why = NULL;
	unsigned int op;

	memset(q, 0, sizeof(*q));
	q->job = job;
	q->p = p;
	q->index = index;
	q->sink = p->sample_ns ? sink : NULL;
	q->sched = sched;
	q->phase = BL_PH_HOLD;
#ifdef __KERNEL__
	u64_stats_init(&q->sync);
#endif
	for (op = 0; op < BL_NR_OPS; op++)
		bl_op_live_init(&q->s.st[op]);
	if (!bl_gen_init(&q->gen, p->randseed, index, job->nr_queues, random, bl_params_mix(p),
			 p->offset, p->size, p->bs) ||
	    !bl_gen_set_trim(&q->gen, bl_params_trim_pct(p)) ||
	    !bl_gen_set_bs(&q->gen, 0, p->bss[0], p->nbs[0]) ||
	    !bl_gen_set_bs(&q->gen, 1, p->bss[1], p->nbs[1]) ||
	    /* One seed for all queues: the same hot blocks. */
	    (random ? bl_params_dist_init(p, &q->dist, q->gen.nblocks, &why) :
	     !bl_dist_init(&q->dist, BLKLOAD_DIST_RANDOM, 0, q->gen.nblocks, 0)))
		return false;
	/* fio's random map; a region of fewer blocks than queues goes without. */
	if (bl_params_map(p))
		bl_gen_set_map(&q->gen, p->randseed, index, job->nr_queues);
	/* fio's rw=PATTERN:OFFSET, for sequential ones. */
	if (p->rw_hole && !bl_gen_set_hole(&q->gen, p->rw_hole >> 63 ?
					   -BL_DIV64_64(-p->rw_hole, p->bs) :
					   BL_DIV64_64(p->rw_hole, p->bs)))
		return false;
	/* fio's zonemode=strided, in units of bs. */
	if (p->zone_range)
		bl_gen_set_zones(&q->gen, BL_DIV64_64(p->zone_range, p->bs),
				 BL_DIV64_64(p->zone_size, p->bs),
				 BL_DIV64_64(p->zone_skip, p->bs));
	/* fio's blockalign, for random patterns (the region checks fitted the splits). */
	if (random && p->blockalign > p->bs && !bl_gen_set_align(&q->gen, p->blockalign / p->bs))
		return false;
	q->limit = bl_params_queue_limit(p, index, job->nr_queues);
	/* fio's dedupe working set: a share of the region's blocks (of the device's, global). */
	if (p->buf_dedupe && p->dedupe_ws) {
		BL_U64 set = BL_DIV64(BL_DIV64_64(p->size, p->bs) * p->dedupe_ws, 100);

		q->dedupe_set = !set ? 1 : set > 0xffffffffULL ? 0xffffffffU : (BL_U32)set;
		q->dedupe_base = p->dedupe_seed ? p->dedupe_base : p->offset;
	}
	q->rmin_bps = p->rate_min ? bl_params_share(p->rate_min, index, job->nr_queues) : 0;
	q->rmin_iops = p->rate_iops_min ?
		       (BL_U32)bl_params_share(p->rate_iops_min, index, job->nr_queues) : 0;
	q->rate = bl_params_queue_rate(p, index, job->nr_queues);
	if (q->rate) {
		/* A bs-split paced by bytes steps by each IO's own length (bl_q_pace()). */
		q->sched_len = !p->rate_bps ? 1 : p->nbs[0] || p->nbs[1] ? 0 : p->bs;
		q->sched_step = BL_DIV64_64(1000000000ULL * q->sched_len, q->rate);
		q->sched_rem = 1000000000ULL * q->sched_len - q->sched_step * q->rate;
		/* Its own stream: the offsets are those of the same job without a rate. */
		bl_gen_init(&q->pace, p->randseed ^ 0x7061636500000000ULL, index, job->nr_queues,
			    true, 0, 0, 1, 1);
		if (q->sched)
			bl_sched_stats_init(q->sched);
	}
	return true;
}

/* The job starts at @start_ns; before the queue is handed to its thread. */
static inline void bl_q_start(struct bl_q *q, BL_U64 start_ns)
{
	const struct bl_params *p = q->p;
	/* startdelay: nothing before it; the ramp and the runtime start then. */
	BL_U64 start = start_ns + p->startdelay_ns;

	q->hold_until = start;
	q->ramp_end = start + p->ramp_ns;
	q->end = p->runtime_ns ? q->ramp_end + p->runtime_ns : 0;
	q->count_start_ns = start;
	q->progress_ns = start;
	q->sched_next = start;
	q->sample_next = q->ramp_end + p->sample_ns;
	q->sample_last = q->ramp_end;
	/* The above before counting, for readers. */
	BL_STORE_RELEASE(&q->counting, !p->ramp_ns && !p->startdelay_ns);
}

/* Whether the queue's IOs may go now (not in a hold, not draining). */
static inline bool bl_q_working(const struct bl_q *q)
{
	return q->phase <= BL_PH_THINK;
}

/*
 * Whether the engine may send IO now: new IO while working or in the
 * read-back pass, and held (refused) IOs that must still go: those of a
 * limit's drain (they count) and of a pass not stopped. A stop drops them.
 */
static inline bool bl_q_sends(const struct bl_q *q)
{
	return bl_q_working(q) || q->phase == BL_PH_VERIFY ||
	       ((q->phase == BL_PH_DRAIN || q->phase == BL_PH_VDRAIN) && q->held);
}

/* The ramp ended at @now: statistics from zero (errors are never forgotten). */
static inline void bl_q_ramp_end(struct bl_q *q, BL_U64 now)
{
	unsigned int op;

	BL_Q_WRITE_BEGIN(q);
	for (op = 0; op < BL_NR_OPS; op++) {
		BL_U64 errors = q->s.st[op].errors;

		memset(&q->s.st[op], 0, sizeof(q->s.st[op]));
		bl_op_live_init(&q->s.st[op]);
		q->s.st[op].errors = errors;
	}
	q->s.cpu_time = 0;
	q->s.ctx = 0;
	q->s.stall_max = 0;
	memset(q->s.depth_ns, 0, sizeof(q->s.depth_ns));
	if (q->sched) {
		memset(q->sched, 0, sizeof(*q->sched));
		bl_sched_stats_init(q->sched);
	}
	BL_Q_WRITE_END(q);
	q->count_start_ns = now;
	BL_WRITE_ONCE(q->progress_ns, now);
	/* The reset and count_start_ns before counting, for readers. */
	BL_STORE_RELEASE(&q->counting, true);
}

/*
 * Writes the queue's next sample, of what completed since the last one
 * (nothing when !@take), time-stamped @t, and publishes it.
 */
static inline void bl_q_sample(struct bl_q *q, BL_U64 t, bool take)
{
	struct bl_sample *s = q->sink->slot(q);
	unsigned int op;

	s->t = t - q->ramp_end;
	for (op = 0; op < BL_NR_OPS; op++) {
		const struct bl_op_live *st = &q->s.st[op];
		struct bl_sample_op cum = {
			.ios = st->ios, .bytes = st->bytes, .lat = st->lat.sum,
			.clat = st->clat.sum, .slat = st->slat.sum,
		};

		if (take) {
			bl_sample_op_take(&s->op[op], s->chist[op], &q->sampler[op], &cum,
					  (const BL_U64 *)st->h + 1, 2);
		} else {
			memset(&s->op[op], 0, sizeof(s->op[op]));
			memset(s->chist[op], 0, sizeof(s->chist[op]));
		}
	}
	q->sample_last = t;
	q->sink->publish(q);
}

/*
 * The samples due at @now: one per interval end passed. Ends the thread
 * did not see in time get empty samples; what it reaped since goes into the
 * last, as fio counts an IO when reaped.
 */
static inline void bl_q_take_samples(struct bl_q *q, BL_U64 now)
{
	BL_U64 iv = q->p->sample_ns;

	while (now - q->sample_next >= iv) {
		bl_q_sample(q, q->sample_next, false);
		q->sample_next += iv;
	}
	bl_q_sample(q, now, true);
	q->sample_next += iv;
}

/* Whether the queue reaped IOs since its last sample took them. */
static inline bool bl_q_unsampled(const struct bl_q *q)
{
	unsigned int op;

	for (op = 0; op < BL_NR_OPS; op++)
		if (q->s.st[op].ios != q->sampler[op].prev.ios)
			return true;
	return false;
}

/*
 * The last sample, at the end of the queue's time: none when one was taken
 * at @now and nothing was reaped since. Reaps of the same turn after a
 * sample at the turn's time (fio's reap: several a turn, and without a
 * submission between them no new clock read) go into one a nanosecond
 * later: every counted IO is in a sample, and their times still increase.
 */
static inline void bl_q_last_sample(struct bl_q *q, BL_U64 now)
{
	if (!q->sink || !q->counting)
		return;
	if (now > q->sample_last)
		bl_q_sample(q, now, true);
	else if (bl_q_unsampled(q))
		bl_q_sample(q, q->sample_last + 1, true);
}

/*
 * The start of a turn, before its reaps: counts the time since the last one
 * at the in-flight level the queue had (fio's IO depth distribution), and
 * gives verify's read-back pass its look-ahead for the turn (bl_q_vnext()),
 * however many reaps and refills the turn has.
 */
static inline void bl_q_depth(struct bl_q *q, BL_U64 now)
{
	q->vbudget = 4096;
	q->vmore = false;
	if (q->counting && q->phase < BL_PH_VWAIT && q->depth_t && now > q->depth_t) {
		BL_Q_WRITE_BEGIN(q);
		q->s.depth_ns[bl_depth_idx(q->inflight)] += now - q->depth_t;
		BL_Q_WRITE_END(q);
	}
	q->depth_t = now;
}

/* Adds the queue's share of its thread's CPU time and context switches. */
static inline void bl_q_add_cpu(struct bl_q *q, BL_U64 ns, BL_U64 ctx)
{
	/* Verify's read-back pass is not the workload's: its time is not counted. */
	if (!q->counting || q->work_done || (!ns && !ctx))
		return;
	BL_Q_WRITE_BEGIN(q);
	q->s.cpu_time += ns;
	q->s.ctx += ctx;
	BL_Q_WRITE_END(q);
}

/*
 * A rate-limited queue's next IO is due one step (or an exponential draw)
 * after the one of @len bytes just drawn: 1/rate s, or with a rate in bytes
 * @len/rate s (one division an IO only for a bs-split).
 */
static inline void bl_q_pace(struct bl_q *q, BL_U32 len)
{
	BL_U64 step = q->sched_step, rem = q->sched_rem;

	if (!q->sched_len) {
		BL_U64 n = (BL_U64)len * 1000000000ULL;

		step = BL_DIV64_64(n, q->rate);
		rem = n - step * q->rate;
	}
	if (q->p->rate_process == BLKLOAD_RATE_PROCESS_POISSON) {
		q->sched_next += bl_dist_exp(&q->pace, step);
		return;
	}
	q->sched_next += step;
	q->sched_acc += rem;
	if (q->sched_acc >= q->rate) {
		q->sched_acc -= q->rate;
		q->sched_next++;
	}
}

/* The workload ended on its own or was stopped: nothing new goes. */
static inline unsigned int bl_q_drain(struct bl_q *q, BL_U32 reason)
{
	bool limit = reason == BLKLOAD_REASON_LIMIT;

	q->phase = BL_PH_DRAIN;
	if (reason)
		q->reason = reason;
	/* Refused IOs go again for a limit (they count); on a stop they are dropped. */
	return limit || !q->held ? 0 : BL_Q_DROP_HELD;
}

/* The time the queue's own work ended: its last reap, or @now. */
static inline BL_U64 bl_q_work_end(const struct bl_q *q, BL_U64 now)
{
	BL_U64 end = q->p->no_lat || !q->last_done_ns ? now : q->last_done_ns;

	/*
	 * Ended by time, the time it waited counts too (a paced or thinking
	 * queue idle at its runtime's end, or at a stop), as fio's runtime.
	 */
	return q->time_end_ns > end ? q->time_end_ns : end;
}

/* DONE: the end time and the last sample before it is published. */
static inline unsigned int bl_q_finish(struct bl_q *q, BL_U64 now)
{
	if (q->work_done) {
		/* The read-back pass is not in the queue's time: it ended before. */
		q->end_ns = q->work_end_ns;
	} else {
		q->end_ns = bl_q_work_end(q, now);
		bl_q_last_sample(q, now);
	}
	/* end_ns and the statistics before DONE, for readers. */
	BL_STORE_RELEASE(&q->phase, (BL_U8)BL_PH_DONE);
	return BL_Q_FINISHED;
}

/*
 * verify: the queue's workload is done (runtime or limit): its time ends
 * here, as if it finished (end time, last sample), and it waits for the
 * job's other queues: the read-back pass begins once every queue's
 * workload is done (the last one kicks the others), so it reads what they
 * all wrote and loads nobody's measurement.
 */
static inline void bl_q_vwait(struct bl_q *q, BL_U64 now)
{
	q->work_end_ns = bl_q_work_end(q, now);
	bl_q_last_sample(q, now);
	q->phase = BL_PH_VWAIT;
	q->vcur = q->index;
	/* Pairs with the readers: the job's elapsed time ends here. */
	BL_STORE_RELEASE(&q->work_done, true);
	if (BL_ATOMIC_DEC_AND_TEST(&q->job->vpending))
		q->job->ops->kick(q->job);
}

/*
 * One turn's transitions at @now, after the turn's reaps and before its
 * submissions: the ramp's end, samples, the end of the workload (@stop: the
 * job, or the CPU, ends it), holds and think time, verify's phases.
 * Returns BL_Q_* flags: what the engine must do now.
 */
static inline unsigned int bl_q_tick(struct bl_q *q, BL_U64 now, bool stop)
{
	const struct bl_params *p = q->p;
	unsigned int act = 0;

	if (!q->counting && now >= q->ramp_end && q->phase < BL_PH_VWAIT)
		bl_q_ramp_end(q, now);
	if (q->sink && q->counting && q->phase < BL_PH_VWAIT && now >= q->sample_next)
		bl_q_take_samples(q, now);

	switch (q->phase) {
	case BL_PH_HOLD:
	case BL_PH_RUN:
	case BL_PH_THINK:
		if (stop) {
			q->time_end_ns = now;
			act |= bl_q_drain(q, 0);
			break;
		}
		if (q->end && now >= q->end) {
			q->time_end_ns = q->end;
			act |= bl_q_drain(q, BLKLOAD_REASON_RUNTIME);
			break;
		}
		/* The limit ends the queue once every IO of it, refused ones too, went. */
		if (q->counting && q->issued >= q->limit && !q->held) {
			act |= bl_q_drain(q, BLKLOAD_REASON_LIMIT);
			break;
		}
		if (q->phase == BL_PH_HOLD && now >= q->hold_until)
			q->phase = BL_PH_RUN;
		/* thinktime: its IOs done, the stall begins. */
		if (q->phase == BL_PH_THINK && !q->inflight && !q->held) {
			q->think_count = 0;
			q->hold_until = now + p->think_ns;
			q->phase = BL_PH_HOLD;
		}
		break;
	case BL_PH_VERIFY:
		if (stop || (q->vdone && !q->held)) {
			q->phase = BL_PH_VDRAIN;
			if (stop && q->held)
				act |= BL_Q_DROP_HELD;
		}
		break;
	case BL_PH_VWAIT:
		if (stop) {
			act |= bl_q_finish(q, now);
			return act;
		}
		if (!BL_ATOMIC_READ(&q->job->vpending)) {
			q->phase = BL_PH_VERIFY;
			q->vdone = false;
		}
		return act;
	default:
		/*
		 * A refusal reaped after the drain began: a stop, or a
		 * workload that ended for its runtime, drops it; a limit's
		 * and a pass's go again (bl_q_sends()).
		 */
		if (q->held && (stop || (q->phase == BL_PH_DRAIN &&
					 q->reason != BLKLOAD_REASON_LIMIT)))
			act |= BL_Q_DROP_HELD;
		break;
	}
	if ((q->phase == BL_PH_DRAIN || q->phase == BL_PH_VDRAIN) && !q->inflight && !q->held) {
		/*
		 * verify: a queue of a job that writes, done with its workload
		 * on its own (runtime or limit, not a stop), reads its units back.
		 */
		if (q->phase == BL_PH_DRAIN && bl_params_readback(p) && !stop &&
		    (q->reason == BLKLOAD_REASON_RUNTIME || q->reason == BLKLOAD_REASON_LIMIT)) {
			bl_q_vwait(q, now);
			return act;
		}
		act |= bl_q_finish(q, now);
	}
	return act;
}

/*
 * The most completions one reap hands over (fio's iodepth_batch_complete_max,
 * by default 1); the engine refills the queue (bl_q_room(), bl_q_draw())
 * before it hands over more, and times them by the clock read after those
 * submissions (or the reap's own when none went).
 */
static inline unsigned int bl_q_reap_max(const struct bl_q *q)
{
	return q->p->batch_complete ? q->p->batch_complete : 1;
}

/*
 * Whether bl_q_tick() at @now would change nothing: the queue runs, with no
 * stop, before its runtime's end, its limit, the ramp's end and its next
 * sample. The common case between two reaps of one turn (bl_q_reap_max()):
 * the engine then refills without a tick. Keep it the negation of every
 * transition bl_q_tick() makes from RUN.
 */
static inline bool bl_q_tick_idle(const struct bl_q *q, BL_U64 now, bool stop)
{
	return q->phase == BL_PH_RUN && !stop && (!q->end || now < q->end) &&
	       (q->counting ? q->issued < q->limit || q->held : now < q->ramp_end) &&
	       (!q->sink || !q->counting || now < q->sample_next);
}

/* Whether a turn of the queue has anything to do (besides reaps): before sleeping. */
static inline bool bl_q_wants_turn(const struct bl_q *q)
{
	bool stop = BL_READ_ONCE(q->job->stop);

	if (bl_q_working(q) || q->phase == BL_PH_VERIFY)
		return stop;
	return q->phase == BL_PH_VWAIT && (stop || !BL_ATOMIC_READ(&q->job->vpending));
}

/*
 * How many new IOs the queue may draw now with @free idle slots (its held
 * IOs go first, whatever this says); the rate and holds are checked IO by
 * IO (bl_q_draw()).
 */
static inline unsigned int bl_q_room(struct bl_q *q, unsigned int free)
{
	if (q->phase == BL_PH_VERIFY)
		return q->vdone ? 0 : free;
	if (q->phase != BL_PH_RUN)
		return 0;
	if (q->counting && q->limit - q->issued < free)
		free = (unsigned int)(q->limit - q->issued);
	return free;
}

/*
 * The read-back pass: the next written unit of this queue's share (units
 * index, index + queues, ...), as a read of one unit; looks at no more than
 * 4096 entries a turn (vbudget). False when none was found: vdone once the
 * region is done, else vmore.
 */
static inline bool bl_q_vnext(struct bl_q *q, struct bl_io *io)
{
	struct bl_qjob *job = q->job;

	for (; q->vbudget && q->vcur < job->vunits; q->vbudget--) {
		BL_U64 u = q->vcur;
		BL_U32 v = BL_VMAP_LOAD(&job->vmap[u]);

		q->vcur += job->nr_queues;
		/* Never written, or its content unknown: nothing to check. */
		if (!bl_vmap_checkable(v, v))
			continue;
		io->op = BL_READ;
		io->off = q->p->offset + u * q->p->bs;
		io->len = q->p->bs;
		io->counted = false;
		io->readback = true;
		return true;
	}
	if (q->vcur >= job->vunits)
		q->vdone = true;
	else
		q->vmore = true;
	return false;
}

/*
 * The next new IO into @io at @now: its operation, offset and length, when
 * it was due, whether it counts. False when none may go now: not due yet
 * (a rate), a hold or think time began, or the read-back pass has none.
 */
static inline bool bl_q_draw(struct bl_q *q, BL_U64 now, struct bl_io *io)
{
	const struct bl_params *p = q->p;

	if (q->phase == BL_PH_VERIFY)
		return bl_q_vnext(q, io);
	if (q->phase != BL_PH_RUN || (q->rate && q->sched_next > now))
		return false;
	io->op = (BL_U8)bl_gen_op_dist(&q->gen, &q->dist, &io->off, &io->len);
	if (q->rate) {
		io->sched_ns = q->sched_next;
		bl_q_pace(q, io->len);
	}
	io->readback = false;
	/* Counted at its first attempt only, after the ramp. */
	io->counted = q->counting;
	if (io->counted)
		q->issued++;
	/* thinktime: after think_blocks IOs, drain, then stall. */
	if (p->think_ns && ++q->think_count >= p->think_blocks)
		q->phase = BL_PH_THINK;
	return true;
}

/* An IO went to the device (first time or again): a stall counts from now if it was idle. */
static inline void bl_q_sent(struct bl_q *q, BL_U64 now)
{
	if (!q->inflight)
		BL_WRITE_ONCE(q->progress_ns, now);
	BL_WRITE_ONCE(q->inflight, q->inflight + 1);
}

/* The device refused an IO for now (REQ_NOWAIT): the engine holds it to send again. */
static inline void bl_q_refused(struct bl_q *q)
{
	BL_WRITE_ONCE(q->inflight, q->inflight - 1);
	q->held++;
}

/* A held IO goes again. */
static inline void bl_q_resent(struct bl_q *q, BL_U64 now)
{
	q->held--;
	bl_q_sent(q, now);
}

/* CRC-32C of @len bytes of the IO's data from byte @at (verify.h). */
static inline BL_U32 bl_q_crc(const struct bl_buf_ops *b, void *ctx, BL_U32 at, BL_U32 len)
{
	BL_U32 crc = ~0U;

	while (len) {
		BL_U32 n;
		BL_U8 *d = b->map(ctx, at, &n);

		n = n < len ? n : len;
		crc = crc32c(crc, d, n);
		b->unmap(ctx, d);
		at += n;
		len -= n;
	}
	return ~crc;
}

/* The map entry of the unit at byte @off of the device. */
static inline BL_U32 *bl_q_vmap_entry(const struct bl_q *q, BL_U64 off)
{
	return &q->job->vmap[BL_DIV64(off - q->p->offset, q->p->bs)];
}

/*
 * A write's data (fill.h): copied out of the job's pool from the position
 * its offset names, each sector then stamped with what was written where;
 * or, for a dedupe block, every unit a copy of the pool's first, unstamped.
 * Zeros without a pool (zero_buffers), written again where reads of a mix
 * share the buffer.
 */
static inline void bl_q_write_data(struct bl_q *q, struct bl_io *io, const struct bl_buf_ops *b,
				   void *ctx)
{
	const struct bl_params *p = q->p;
	const BL_U8 *pool = q->job->pool, *src, *wsrc = NULL;
	BL_U64 seed = p->randseed, sseed = bl_params_fill_seed(p), off = io->off, woff = 0;
	bool dedupe;
	BL_U32 at = 0, unit = p->bs, in_unit = 0;

	if (!pool) {
		if (p->rw != BLKLOAD_RW_RW && p->rw != BLKLOAD_RW_RANDRW)
			return;
		while (at < io->len) {
			BL_U32 n;
			BL_U8 *d = b->map(ctx, at, &n);

			n = n < io->len - at ? n : io->len - at;
			memset(d, 0, n);
			b->unmap(ctx, d);
			at += n;
		}
		return;
	}
	dedupe = bl_fill_dedupe(seed, off, p->buf_dedupe);
	src = pool + (dedupe ? 0 : bl_fill_pos(seed, off));
	while (at < io->len) {
		BL_U32 n, s, done, k;
		BL_U8 *d = b->map(ctx, at, &n);

		n = n < io->len - at ? n : io->len - at;
		if (!dedupe) {
			memcpy(d, src, n);
			src += n;
			for (s = 0; s < n; s += BL_SECTOR, off += BL_SECTOR)
				bl_stamp_sector(d + s, off);
		} else if (q->dedupe_set) {
			/* A unit of the working set's: its block's data and stamps. */
			for (done = 0; done < n; done += k) {
				if (!in_unit) {
					woff = bl_fill_set_block(sseed, io->off + at + done,
								 q->dedupe_set, p->buf_dedupe,
								 unit, q->dedupe_base);
					wsrc = pool + bl_fill_pos(sseed, woff);
				}
				k = n - done < unit - in_unit ? n - done : unit - in_unit;
				memcpy(d + done, wsrc + in_unit, k);
				for (s = 0; s < k; s += BL_SECTOR)
					bl_stamp_sector(d + done + s, woff + in_unit + s);
				in_unit += k;
				if (in_unit == unit)
					in_unit = 0;
			}
		} else {
			/* The unit may be smaller or larger than what is mapped. */
			for (done = 0; done < n; done += k) {
				k = n - done < unit - in_unit ? n - done : unit - in_unit;
				memcpy(d + done, pool + in_unit, k);
				in_unit += k;
				if (in_unit == unit)
					in_unit = 0;
			}
		}
		b->unmap(ctx, d);
		at += n;
	}
}

/*
 * verify, when an IO is prepared (not again): a write's units get their
 * header (generation from the map of a job that has one) and CRC; a trim
 * marks its units written; a read takes the map's snapshot of its units.
 */
static inline void bl_q_verify_prep(struct bl_q *q, struct bl_io *io, const struct bl_buf_ops *b,
				    void *ctx)
{
	const struct bl_params *p = q->p;
	BL_U32 bs = p->bs, at, k, n;
	BL_U32 *e = q->job->vmap ? bl_q_vmap_entry(q, io->off) : NULL;

	for (at = 0, k = 0; at < io->len; at += bs, k++) {
		if (io->op == BL_READ) {
			if (e)
				io->vsnap[k] = BL_VMAP_LOAD(&e[k]);
		} else if (io->op == BL_TRIM) {
			if (e)
				bl_vmap_write_begin(&e[k]);
		} else {
			BL_U32 gen = e ? bl_vmap_write_begin(&e[k]) : 1, crc;
			/* The header is inside the unit's first sector: mapped whole. */
			BL_U8 *d = b->map(ctx, at, &n);

			bl_verify_hdr(d, io->off + at, p->randseed, gen, bs, q->job->vnonce);
			b->unmap(ctx, d);
			crc = bl_q_crc(b, ctx, at, bs);
			d = b->map(ctx, at, &n);
			bl_verify_set_crc(d, crc);
			b->unmap(ctx, d);
		}
	}
}

/* A verify failure: counted, reported to the job, the job's error EILSEQ. */
static inline void bl_q_verify_fail(struct bl_q *q, BL_U64 off, int what, BL_U64 want,
				    BL_U64 got)
{
	BL_Q_WRITE_BEGIN(q);
	q->s.verrors++;
	BL_Q_WRITE_END(q);
	q->job->ops->error(q->job, -EILSEQ);
	q->job->ops->vfail(q->job, off, what, want, got);
}

/*
 * verify, when an IO is reaped (@err its error, 0 when whole): a write's or
 * trim's units get their new generation (unknown after an error or for a
 * trim); a read's units are checked against their header, and against the
 * map where the job has one and no write raced the read.
 */
static inline void bl_q_verify_reap(struct bl_q *q, struct bl_io *io, int err,
				    const struct bl_buf_ops *b, void *ctx)
{
	const struct bl_params *p = q->p;
	BL_U32 bs = p->bs, at, k, n;
	BL_U32 *e = q->job->vmap ? bl_q_vmap_entry(q, io->off) : NULL;
	BL_U64 checked = 0, skipped = 0;

	for (at = 0, k = 0; at < io->len; at += bs, k++) {
		BL_U64 off = io->off + at, want, got;
		BL_U32 gen = 0, crc;
		BL_U8 *d;
		int what;

		if (io->op != BL_READ) {
			if (e)
				bl_vmap_write_end(&e[k], io->op == BL_WRITE && !err);
			continue;
		}
		if (err)
			continue;
		if (e) {
			if (!bl_vmap_checkable(io->vsnap[k], BL_VMAP_LOAD(&e[k]))) {
				skipped++;
				continue;
			}
			gen = bl_vmap_gen(io->vsnap[k]);
		}
		checked++;
		d = b->map(ctx, at, &n);
		what = bl_verify_check_hdr(d, off, p->randseed, gen, bs, q->job->vnonce, &want,
					   &got);
		crc = bl_verify_hdr_crc(d);
		/* The CRC is of the unit with its own field zero: this is our buffer. */
		bl_verify_set_crc(d, 0);
		b->unmap(ctx, d);
		if (what == BL_VERIFY_OK) {
			/* Expected: what the header says; found: what the data gives. */
			want = crc;
			got = bl_q_crc(b, ctx, at, bs);
			if (want != got)
				what = BL_VERIFY_BAD_CRC;
		}
		if (what != BL_VERIFY_OK)
			bl_q_verify_fail(q, off, what, want, got);
	}
	if (io->op == BL_READ && (checked || skipped || io->readback)) {
		BL_Q_WRITE_BEGIN(q);
		q->s.vchecked += checked;
		q->s.vskipped += skipped;
		if (io->readback && !err)
			q->s.vreadback += io->len / bs;
		BL_Q_WRITE_END(q);
	}
}

/* Prepares a new IO's data: a write's (unless write-zeroes), and verify's part. */
static inline void bl_q_prep(struct bl_q *q, struct bl_io *io, const struct bl_buf_ops *b,
			     void *ctx)
{
	if (io->op == BL_WRITE && !(q->p->req & BLKLOAD_REQ_WRITE_ZEROES))
		bl_q_write_data(q, io, b, ctx);
	if (q->p->verify)
		bl_q_verify_prep(q, io, b, ctx);
}

/* A held IO that will not go again (a stop): verify forgets what it would have written. */
static inline void bl_q_dropped(struct bl_q *q, struct bl_io *io, const struct bl_buf_ops *b,
				void *ctx)
{
	q->held--;
	if (q->p->verify)
		bl_q_verify_reap(q, io, -EIO, b, ctx);
}

/*
 * fio's rate_min and rate_iops_min, as its check_min_rate() does them, on
 * the queue's share: from two seconds after the ramp, every rate cycle,
 * each direction that did IO must have done at least that many bytes (IOs)
 * a second in the cycle, counted in milliseconds as fio counts. True: too
 * slow, the job ends.
 */
static inline bool bl_q_rate_low(struct bl_q *q, BL_U64 now)
{
	BL_U64 cycle = q->p->rate_cycle_ns ? q->p->rate_cycle_ns : 1000000000ULL;
	BL_U32 spent_ms;
	unsigned int op;
	bool low = false;

	if (now < q->count_start_ns + 2000000000ULL ||
	    (q->rmin_t && now < q->rmin_t + cycle))
		return false;
	spent_ms = (BL_U32)BL_DIV64(now - q->rmin_t, 1000000);
	for (op = 0; op < BL_NR_OPS; op++) {
		BL_U64 b = q->s.st[op].bytes, n = q->s.st[op].ios;

		if (!b)
			continue;
		if (q->rmin_t && spent_ms && (q->rmin_bytes[op] || q->rmin_ios[op]))
			low |= q->rmin_bps ?
			       BL_DIV64((b - q->rmin_bytes[op]) * 1000, spent_ms) < q->rmin_bps :
			       BL_DIV64((n - q->rmin_ios[op]) * 1000, spent_ms) < q->rmin_iops;
		q->rmin_bytes[op] = b;
		q->rmin_ios[op] = n;
	}
	q->rmin_t = now;
	return low;
}

/*
 * An IO reaped by its submitter at @now with @err (0: done whole, else a
 * negative errno): verify, its statistics, the stall it ended.
 */
static inline void bl_q_reaped(struct bl_q *q, struct bl_io *io, int err, BL_U64 now,
			       const struct bl_buf_ops *b, void *ctx)
{
	const struct bl_params *p = q->p;
	struct bl_op_live *st = &q->s.st[io->op];
	BL_U64 gap;

	BL_WRITE_ONCE(q->inflight, q->inflight - 1);
	if (p->verify)
		bl_q_verify_reap(q, io, err, b, ctx);
	/* A stall: IO in flight and no reap from progress_ns to now. */
	gap = now > q->progress_ns ? now - q->progress_ns : 0;
	BL_WRITE_ONCE(q->progress_ns, now);
	q->last_done_ns = now;
	if (q->counting && q->phase < BL_PH_VWAIT && gap > q->s.stall_max) {
		BL_Q_WRITE_BEGIN(q);
		q->s.stall_max = gap;
		BL_Q_WRITE_END(q);
	}
	if (err) {
		/* A trim changes the device: its errors go with the writes'. */
		BL_U32 coe = io->op == BL_READ ? BLKLOAD_COE_READ : BLKLOAD_COE_WRITE;

		q->job->ops->error(q->job, err);
		if (!(p->coe & coe))
			q->job->ops->end(q->job, BLKLOAD_REASON_ERROR);
		BL_Q_WRITE_BEGIN(q);
		st->errors++;
		BL_Q_WRITE_END(q);
		return;
	}
	if (!io->counted)
		return;
	BL_Q_WRITE_BEGIN(q);
	st->ios++;
	st->bytes += io->len;
	if (!p->no_lat) {
		/* Clocks of two CPUs are never trusted to be ordered. */
		BL_U64 done = now > io->sent_ns ? now : io->sent_ns;
		BL_U64 lat = done > io->submit_ns ? done - io->submit_ns : 0;
		BL_U64 slat = io->sent_ns > io->submit_ns ? io->sent_ns - io->submit_ns : 0;

		bl_lat_add(&st->lat, lat);
		bl_lat_add(&st->slat, slat);
		bl_lat_add(&st->clat, lat - slat);
		st->h[bl_hist_idx(lat)][0]++;
		st->h[bl_hist_idx(lat - slat)][1]++;
		if (io->dev_ns) {
			bl_lat_add(&st->devlat, io->dev_ns > io->submit_ns ?
				   io->dev_ns - io->submit_ns : 0);
			st->devlat_n++;
		}
		if (q->sched) {
			/* From when it was due: it went no earlier. */
			BL_U64 sl = done > io->sched_ns ? done - io->sched_ns : 0;

			bl_lat_add(&q->sched->lat[io->op], sl);
			q->sched->hist[io->op][bl_hist_idx(sl)]++;
		}
	}
	BL_Q_WRITE_END(q);
	/* Only while it works, as fio checks inside its IO loop: never a drain's tail. */
	if ((q->rmin_bps || q->rmin_iops) && bl_q_working(q) && bl_q_rate_low(q, now)) {
		q->job->ops->error(q->job, -EIO);
		q->job->ops->end(q->job, BLKLOAD_REASON_RATE_MIN);
	}
}

/*
 * The next time the queue needs a turn without a reap or a kick, if
 * earlier than @deadline; @free: its idle slots.
 */
static inline BL_U64 bl_q_deadline(const struct bl_q *q, unsigned int free, BL_U64 deadline)
{
	BL_U64 next;

	if (q->phase >= BL_PH_VWAIT)
		return deadline;
	/* A stalled device still gets its (empty) samples on time, draining too. */
	if (q->sink && q->counting && q->sample_next < deadline)
		deadline = q->sample_next;
	if (!bl_q_working(q))
		return deadline;
	next = !q->counting ? q->ramp_end : q->end;
	if (next && next < deadline)
		deadline = next;
	if (!free || (q->counting && q->issued >= q->limit))
		return deadline;
	/* The end of a hold (startdelay, thinktime). */
	if (q->phase == BL_PH_HOLD && q->hold_until < deadline)
		deadline = q->hold_until;
	/* A rate-limited queue's next IO (else a reap wakes the thread). */
	if (q->phase == BL_PH_RUN && q->rate && q->sched_next < deadline)
		deadline = q->sched_next;
	return deadline;
}

#endif /* _BLKLOAD_QUEUE_H */
