/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * A simulated engine for the queue machine (queue.h), and the scripted
 * traces that test it: a virtual clock, a device that takes a fixed service
 * time for every IO and can refuse some (as REQ_NOWAIT does), a region held
 * in memory for verify. Test support only, shared by the host's unit tests
 * (userspace/tests/test_queue.c) and the KUnit suite run in the guest
 * (module/kunit/queue_test.c): the same traces against the same header on
 * both sides. Nothing here is built into the module or the CLI.
 *
 * Each trace returns NULL when the machine did what it must, else the first
 * thing it got wrong, as a sentence.
 */
#ifndef _BLKLOAD_QSIM_H
#define _BLKLOAD_QSIM_H

#include "queue.h"

#define BL_SIM_QUEUES	2
#define BL_SIM_SLOTS	16
#define BL_SIM_BS	512U
#define BL_SIM_UNITS	64U
#define BL_SIM_SAMPLES	8

struct bl_sim_slot {
	struct bl_io io;
	BL_U64 done_at;		/* when the device completes it */
	int state;		/* BL_SIM_FREE, _FLIGHT, _HELD */
	bool refuse;		/* comes back refused (async_refuse) */
	bool taken;		/* completed, taken by this turn, not yet reaped */
	BL_U8 buf[BL_SIM_BS];
	BL_U32 vsnap[1];
};

enum { BL_SIM_FREE, BL_SIM_FLIGHT, BL_SIM_HELD };

struct bl_sim_q {
	struct bl_q q;
	struct bl_sim_slot slot[BL_SIM_SLOTS];
	unsigned int depth;	/* slots in use: the workload's iodepth */
	struct bl_sample samples[BL_SIM_SAMPLES];
	unsigned int nsamples;
	bool done;
};

struct bl_sim {
	struct bl_params p;
	struct bl_qjob job;
	struct bl_sim_q qs[BL_SIM_QUEUES];
	unsigned int nq;
	BL_U64 now;		/* the virtual clock, ns */
	BL_U64 service_ns;	/* every IO takes this long on the device */
	BL_U64 slat_ns;		/* every submission call takes this long (0: none) */
	unsigned int refuse_every;	/* the device refuses every Nth submission (0: none) */
	unsigned int submits;
	unsigned int after_stop;	/* IOs sent once the job was stopped */
	BL_U64 stop_at;		/* the job is stopped then (0: never) */
	BL_U32 reason;		/* the job's end, as the ops record it */
	int error;
	unsigned int vfails;
	bool kicked;
	/* What the trace saw. */
	BL_U64 draws[BL_SIM_QUEUES];	/* new IOs drawn */
	BL_U64 counted[BL_SIM_QUEUES];	/* of them, after the ramp */
	BL_U64 first_draw, last_draw;	/* ns */
	BL_U64 max_idle;	/* the longest time with nothing in flight while working */
	BL_U64 idle_since;
	bool idle;
	unsigned int stop_in;	/* stop as soon as queue 0 is in phase stop_in - 1 (0: no) */
	unsigned int reap_most;	/* the most completions one reap handed over */
	unsigned int taken_most;	/* the most completions one turn took */
	BL_U64 offsets;		/* a digest of the offsets drawn, in order */
	bool async_refuse;	/* refusals come back at completion, not at submission */
	BL_U8 disk[BL_SIM_UNITS * BL_SIM_BS];
	BL_U32 vmap[BL_SIM_UNITS];
};

static inline struct bl_sim *bl_sim_of(struct bl_qjob *j)
{
	return (struct bl_sim *)((char *)j - offsetof(struct bl_sim, job));
}

static inline void bl_sim_end(struct bl_qjob *j, BL_U32 reason)
{
	struct bl_sim *s = bl_sim_of(j);

	if (!s->reason)
		s->reason = reason;
	j->stop = true;
}

static inline void bl_sim_error(struct bl_qjob *j, int err)
{
	struct bl_sim *s = bl_sim_of(j);

	if (!s->error)
		s->error = err;
}

static inline void bl_sim_vfail(struct bl_qjob *j, BL_U64 off, int what, BL_U64 want, BL_U64 got)
{
	bl_sim_of(j)->vfails++;
}

static inline void bl_sim_kick(struct bl_qjob *j)
{
	bl_sim_of(j)->kicked = true;
}

static const struct bl_qjob_ops bl_sim_job_ops = {
	.end = bl_sim_end,
	.error = bl_sim_error,
	.vfail = bl_sim_vfail,
	.kick = bl_sim_kick,
};

static inline struct bl_sim_q *bl_sim_q_of(struct bl_q *q)
{
	return (struct bl_sim_q *)((char *)q - offsetof(struct bl_sim_q, q));
}

static inline struct bl_sample *bl_sim_sample_slot(struct bl_q *q)
{
	struct bl_sim_q *sq = bl_sim_q_of(q);

	return &sq->samples[sq->nsamples < BL_SIM_SAMPLES ? sq->nsamples : BL_SIM_SAMPLES - 1];
}

static inline void bl_sim_sample_publish(struct bl_q *q)
{
	struct bl_sim_q *sq = bl_sim_q_of(q);

	if (sq->nsamples < BL_SIM_SAMPLES)
		sq->nsamples++;
}

static const struct bl_q_sink bl_sim_sink = {
	.slot = bl_sim_sample_slot,
	.publish = bl_sim_sample_publish,
};

static inline BL_U8 *bl_sim_map(void *ctx, BL_U32 at, BL_U32 *contig)
{
	struct bl_sim_slot *sl = ctx;

	*contig = BL_SIM_BS - at;
	return sl->buf + at;
}

static inline void bl_sim_unmap(void *ctx, BL_U8 *p)
{
}

static const struct bl_buf_ops bl_sim_buf_ops = {
	.map = bl_sim_map,
	.unmap = bl_sim_unmap,
};

/*
 * A workload for the simulator: 512-byte IOs over BL_SIM_UNITS units,
 * @nq queues of @iodepth, zero buffers (no 4 MiB pool), writes allowed.
 */
static inline void bl_sim_params(struct bl_sim *s, BL_U32 rw, unsigned int nq, BL_U32 iodepth)
{
	bl_params_init(&s->p);
	s->p.rw = rw;
	s->p.bs = BL_SIM_BS;
	s->p.iodepth = iodepth;
	s->p.allow_write = true;
	s->p.zero_buffers = true;
	s->p.randseed = 42;
	s->p.sample_ns = 0;
	s->nq = nq;
	s->service_ns = 100000;
}

/* Checks the parameters, sets up the job and its queues and starts them at 1 s. */
static inline const char *bl_sim_start(struct bl_sim *s)
{
	static const struct bl_params_limits lim = {
		.iodepth_max = BL_SIM_SLOTS,
		.bs_max = BL_SIM_BS,
		.iodepth_no = "iodepth is over the simulator's slots",
	};
	const char *why = "";
	unsigned int i, k;

	if (bl_params_check(&s->p, s->nq, &lim, &why) ||
	    bl_params_region(&s->p, BL_SIM_UNITS * BL_SIM_BS, 512, s->nq, &why))
		return why;
	s->job.p = &s->p;
	s->job.ops = &bl_sim_job_ops;
	s->job.nr_queues = s->nq;
	if (bl_params_vmap(&s->p)) {
		s->job.vmap = s->vmap;
		s->job.vunits = bl_params_units(&s->p);
	}
	s->job.vnonce = 7;
	BL_ATOMIC_SET(&s->job.vpending, (int)s->nq);
	s->now = 1000000000ULL;
	s->idle_since = s->now;
	s->idle = true;
	for (i = 0; i < s->nq; i++) {
		struct bl_sim_q *sq = &s->qs[i];

		if (!bl_q_init(&sq->q, &s->job, i, NULL, &bl_sim_sink))
			return "bl_q_init refused the workload";
		sq->depth = s->p.iodepth;
		for (k = 0; k < sq->depth; k++) {
			sq->slot[k].state = BL_SIM_FREE;
			sq->slot[k].io.vsnap = sq->slot[k].vsnap;
		}
		bl_q_start(&sq->q, s->now);
	}
	return NULL;
}

/* The device does the IO in @sl: a write lands on the disk, a read takes from it. */
static inline void bl_sim_device(struct bl_sim *s, struct bl_sim_slot *sl)
{
	BL_U64 at = sl->io.off - s->p.offset;

	if (at + sl->io.len > sizeof(s->disk))
		return;
	if (sl->io.op == BL_WRITE)
		memcpy(s->disk + at, sl->buf, sl->io.len);
	else if (sl->io.op == BL_READ)
		memcpy(sl->buf, s->disk + at, sl->io.len);
	else
		memset(s->disk + at, 0, sl->io.len);
}

/* Submits @sl now: refused (held) every refuse_every-th time, else in flight. */
static inline void bl_sim_submit(struct bl_sim *s, struct bl_sim_q *sq, struct bl_sim_slot *sl)
{
	sl->refuse = false;
	if (s->job.stop)
		s->after_stop++;
	if (s->refuse_every && ++s->submits % s->refuse_every == 0) {
		if (!s->async_refuse) {
			bl_q_refused(&sq->q);
			sl->state = BL_SIM_HELD;
			return;
		}
		sl->refuse = true;
	}
	sl->state = BL_SIM_FLIGHT;
	sl->io.sent_ns = s->now + s->slat_ns;
	sl->done_at = sl->io.sent_ns + s->service_ns;
}

/*
 * One reap of queue @sq: up to bl_q_reap_max() of the completions its turn
 * took (refusals are none of them). Returns whether any taken one is left.
 */
static inline bool bl_sim_reap(struct bl_sim *s, struct bl_sim_q *sq)
{
	struct bl_q *q = &sq->q;
	unsigned int k, got = 0, max = bl_q_reap_max(q);

	for (k = 0; k < sq->depth; k++) {
		struct bl_sim_slot *sl = &sq->slot[k];

		if (!sl->taken)
			continue;
		if (got == max)
			return true;
		sl->taken = false;
		if (sl->refuse) {
			/* Refused at its completion, as a stacked driver may. */
			bl_q_refused(q);
			sl->state = BL_SIM_HELD;
			continue;
		}
		bl_sim_device(s, sl);
		bl_q_reaped(q, &sl->io, 0, s->now, &bl_sim_buf_ops, sl);
		sl->state = BL_SIM_FREE;
		if (++got > s->reap_most)
			s->reap_most = got;
	}
	return false;
}

/* Submits what queue @i may: its held IOs first, then what the machine draws. */
static inline void bl_sim_refill(struct bl_sim *s, unsigned int i)
{
	struct bl_sim_q *sq = &s->qs[i];
	struct bl_q *q = &sq->q;
	unsigned int k, nfree = 0, room;

	/* The held ones go again first. */
	for (k = 0; k < sq->depth; k++) {
		if (sq->slot[k].state != BL_SIM_HELD)
			continue;
		bl_q_resent(q, s->now);
		bl_sim_submit(s, sq, &sq->slot[k]);
	}
	for (k = 0; k < sq->depth; k++)
		nfree += sq->slot[k].state == BL_SIM_FREE;
	room = bl_q_room(q, nfree);
	for (k = 0; k < sq->depth && room; k++) {
		struct bl_sim_slot *sl = &sq->slot[k];

		if (sl->state != BL_SIM_FREE)
			continue;
		if (!bl_q_draw(q, s->now, &sl->io))
			break;
		room--;
		if (!sl->io.readback) {
			s->offsets = s->offsets * 1000003 + sl->io.off;
			s->draws[i]++;
			s->counted[i] += sl->io.counted;
			if (!s->first_draw)
				s->first_draw = s->now;
			s->last_draw = s->now;
		}
		bl_q_prep(q, &sl->io, &bl_sim_buf_ops, sl);
		sl->io.submit_ns = s->now;
		bl_q_sent(q, s->now);
		bl_sim_submit(s, sq, sl);
	}
}

/*
 * One turn of queue @i at the clock's now: it takes what completed, then
 * reaps it fio's way, bl_q_reap_max() at a time, each reap followed by the
 * machine's tick (where bl_q_tick_idle() says it has anything to do) and
 * the queue's refill; the next deadline.
 */
static inline BL_U64 bl_sim_turn(struct bl_sim *s, unsigned int i)
{
	struct bl_sim_q *sq = &s->qs[i];
	struct bl_q *q = &sq->q;
	BL_U64 deadline = ~0ULL;
	unsigned int k, act, nfree = 0;
	bool more;

	if (sq->done)
		return deadline;
	bl_q_depth(q, s->now);
	for (k = 0, nfree = 0; k < sq->depth; k++) {
		sq->slot[k].taken = sq->slot[k].state == BL_SIM_FLIGHT &&
				    sq->slot[k].done_at <= s->now;
		nfree += sq->slot[k].taken;
	}
	if (nfree > s->taken_most)
		s->taken_most = nfree;
	nfree = 0;
	do {
		more = bl_sim_reap(s, sq);
		/* As the engines: no tick where it would change nothing. */
		act = bl_q_tick_idle(q, s->now, s->job.stop) ? 0 :
		      bl_q_tick(q, s->now, s->job.stop);
		/* A stop as soon as queue 0 is in the phase to stop in, within the turn. */
		if (s->stop_in && i == 0 && q->phase == s->stop_in - 1 && !s->job.stop) {
			bl_sim_end(&s->job, BLKLOAD_REASON_STOPPED);
			act |= bl_q_tick(q, s->now, true);
		}
		if (act & BL_Q_DROP_HELD) {
			for (k = 0; k < sq->depth; k++) {
				if (sq->slot[k].state != BL_SIM_HELD)
					continue;
				bl_q_dropped(q, &sq->slot[k].io, &bl_sim_buf_ops, &sq->slot[k]);
				sq->slot[k].state = BL_SIM_FREE;
			}
			act = bl_q_tick(q, s->now, s->job.stop);
		}
		if (act & BL_Q_FINISHED) {
			sq->done = true;
			return deadline;
		}
		if (bl_q_sends(q))
			bl_sim_refill(s, i);
	} while (more);
	for (k = 0; k < sq->depth; k++) {
		nfree += sq->slot[k].state == BL_SIM_FREE;
		if (sq->slot[k].state == BL_SIM_FLIGHT && sq->slot[k].done_at < deadline)
			deadline = sq->slot[k].done_at;
	}
	/* Held IOs and a read-back pass that has more go at the next step. */
	if (q->held || q->vmore || (q->phase == BL_PH_VERIFY && q->vdone) ||
	    (q->phase == BL_PH_VWAIT && s->kicked))
		deadline = s->now + 1000;
	return bl_q_deadline(q, nfree, deadline);
}

/*
 * Runs the job until every queue is DONE or @max_steps clock steps passed;
 * the clock jumps from deadline to deadline. Returns NULL, or what went
 * wrong.
 */
static inline const char *bl_sim_run(struct bl_sim *s, unsigned int max_steps)
{
	unsigned int step, i;

	for (step = 0; step < max_steps; step++) {
		BL_U64 next = ~0ULL, d;
		bool all = true, busy = false;

		if (s->stop_at && s->now >= s->stop_at && !s->job.stop)
			bl_sim_end(&s->job, BLKLOAD_REASON_STOPPED);
		for (i = 0; i < s->nq; i++) {
			d = bl_sim_turn(s, i);
			next = d < next ? d : next;
			all &= s->qs[i].done;
			busy |= s->qs[i].q.inflight || s->qs[i].q.held;
		}
		/* Idle from the step that left nothing in flight to the one that sent again. */
		if (busy && s->idle && bl_q_working(&s->qs[0].q)) {
			if (s->now - s->idle_since > s->max_idle)
				s->max_idle = s->now - s->idle_since;
		}
		if (!busy && !s->idle)
			s->idle_since = s->now;
		s->idle = !busy;
		s->kicked = false;
		if (all)
			return NULL;
		if (s->stop_at && s->stop_at > s->now && s->stop_at < next)
			next = s->stop_at;
		if (next == ~0ULL)
			return "no queue has anything to wait for, and not all are done (a hang)";
		s->now = next > s->now ? next : s->now + 1;
	}
	return "the job did not end within the steps allowed";
}

/* What every finished job must be: DONE, nothing in flight or held. */
static inline const char *bl_sim_ended_clean(const struct bl_sim *s)
{
	unsigned int i;

	for (i = 0; i < s->nq; i++) {
		const struct bl_q *q = &s->qs[i].q;

		if (q->phase != BL_PH_DONE)
			return "a queue is not DONE";
		if (q->inflight || q->held)
			return "a DONE queue has IO in flight or held";
		if (q->end_ns < q->count_start_ns && q->counting)
			return "a queue ended before it started counting";
	}
	return NULL;
}

/* Starts the job, runs it (bl_sim_run()) and checks it ended clean: NULL, or what went wrong. */
static inline const char *bl_sim_go(struct bl_sim *s, unsigned int max_steps)
{
	const char *why = bl_sim_start(s);

	if (!why)
		why = bl_sim_run(s, max_steps);
	if (!why)
		why = bl_sim_ended_clean(s);
	return why;
}

/* The limit, split over the queues, with the device refusing: exact counts. */
static inline const char *bl_sim_trace_limit(struct bl_sim *s, BL_U64 ramp_ns, unsigned int refuse)
{
	const char *why;
	BL_U64 ios = 0;
	unsigned int i;

	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 2, 8);
	s->p.number_ios = 1001;
	s->p.ramp_ns = ramp_ns;
	s->refuse_every = refuse;
	why = bl_sim_go(s, 1000000);
	if (why)
		return why;
	for (i = 0; i < s->nq; i++) {
		const struct bl_q *q = &s->qs[i].q;

		ios += q->s.st[BL_READ].ios;
		if (q->reason != BLKLOAD_REASON_LIMIT)
			return "a queue that reached its limit does not say so";
		if (s->counted[i] != q->limit || q->s.st[BL_READ].ios != q->limit)
			return "a queue did not do exactly its share of number_ios";
	}
	if (ios != 1001)
		return "the job did not do exactly number_ios";
	return NULL;
}

/*
 * fio's reap: one turn takes every completion, but a reap hands over at
 * most iodepth_batch_complete_max of them (1 by default), the queue refilled
 * between; the IOs drawn, their order and the counts are the same whatever
 * the batch.
 */
static inline const char *bl_sim_trace_reap_batch(struct bl_sim *s)
{
	static const BL_U32 batches[] = { 0, 1, 3, 8 };
	BL_U64 offsets = 0, draws = 0, lat = 0, clat = 0;
	const char *why;
	unsigned int b, k;

	for (b = 0; b < BL_ARRAY_SIZE(batches); b++) {
		memset(s, 0, sizeof(*s));
		bl_sim_params(s, BLKLOAD_RW_RANDREAD, 1, 8);
		s->p.number_ios = 1000;
		s->p.batch_complete = batches[b];
		why = bl_sim_go(s, 1000000);
		if (why)
			return why;
		if (s->qs[0].q.s.st[BL_READ].ios != 1000)
			return "a reap batch changed the count";
		if (s->taken_most != 8)
			return "a turn did not take every completion ready";
		if (s->reap_most != (batches[b] ? batches[b] : 1))
			return "a reap handed over more or fewer than iodepth_batch_complete_max";
		if (b && (s->offsets != offsets || s->draws[0] != draws))
			return "a reap batch changed the IOs drawn or their order";
		offsets = s->offsets;
		draws = s->draws[0];
	}
	/*
	 * A reap times each IO fio's way, its lat and its clat each in its own
	 * histogram: with 1 ms submission calls and a 100 us device, every lat
	 * at or over 1 ms, every clat under it, in the samples' clat too.
	 */
	memset(s, 0, sizeof(*s));
	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 1, 8);
	s->p.number_ios = 1000;
	s->p.sample_ns = 10000000;
	s->slat_ns = 1000000;
	why = bl_sim_go(s, 1000000);
	if (why)
		return why;
	for (k = 0; k < s->qs[0].nsamples; k++) {
		for (b = 0; b < BL_SHIST_NR; b++) {
			BL_U32 n = s->qs[0].samples[k].chist[BL_READ][b];

			clat += n;
			if (n && bl_shist_lo(b) >= s->slat_ns)
				return "a sample's clat histogram holds lat";
		}
	}
	if (!clat)
		return "no sample's clat histogram holds an IO";
	clat = 0;
	for (b = 0; b < BL_HIST_NR; b++) {
		const BL_U64 *h = s->qs[0].q.s.st[BL_READ].h[b];

		lat += h[0];
		clat += h[1];
		if ((h[0] && bl_hist_lo(b + 1) <= s->slat_ns) ||
		    (h[1] && bl_hist_lo(b) >= s->slat_ns))
			return "a latency in the other's histogram";
	}
	if (lat != 1000 || clat != 1000)
		return "an IO not in both histograms";
	return NULL;
}

/*
 * A running queue between two reaps of a turn skips the machine's tick
 * only where it would change nothing (bl_q_tick_idle()): a stop during the
 * run ends it at once (nothing drawn after it), and samples are taken on
 * time, with the IOs of their interval.
 */
static inline const char *bl_sim_trace_stop_samples(struct bl_sim *s)
{
	const struct bl_sim_q *sq = &s->qs[0];
	const char *why;
	unsigned int k;
	BL_U64 ios;

	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 1, 8);
	s->p.runtime_ns = 100000000;
	s->p.sample_ns = 10000000;
	why = bl_sim_start(s);
	if (why)
		return why;
	s->stop_at = s->now + 25050000;
	why = bl_sim_run(s, 1000000);
	if (!why)
		why = bl_sim_ended_clean(s);
	if (why)
		return why;
	if (s->reason != BLKLOAD_REASON_STOPPED || s->last_draw >= s->stop_at)
		return "a stop during the run did not end it at once";
	if (sq->nsamples != 3)
		return "not one sample per interval and a last one at the stop";
	for (k = 0; k < 2; k++)
		if (sq->samples[k].t != (k + 1) * 10000000ULL || !sq->samples[k].op[BL_READ].ios)
			return "a sample not taken at its interval's end, or without its IOs";
	/*
	 * The runtime ends on a sample's time, with IOs completing then: the
	 * turn samples, drains and finishes at one time; the IOs reaped
	 * after its sample are in the last one, a nanosecond later.
	 */
	memset(s, 0, sizeof(*s));
	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 1, 8);
	s->p.runtime_ns = 30000000;
	s->p.sample_ns = 10000000;
	why = bl_sim_go(s, 1000000);
	if (why)
		return why;
	ios = 0;
	for (k = 0; k < sq->nsamples; k++) {
		ios += sq->samples[k].op[BL_READ].ios;
		if (k && sq->samples[k].t <= sq->samples[k - 1].t)
			return "sample times do not increase";
	}
	if (ios != sq->q.s.st[BL_READ].ios || sq->nsamples < 3)
		return "IOs reaped after a sample at the queue's end are in no sample";
	return NULL;
}

/* The ramp: what completes before its end is not counted; counting restarts at it. */
static inline const char *bl_sim_trace_ramp(struct bl_sim *s)
{
	const struct bl_q *q;
	const char *why;

	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 1, 4);
	s->p.ramp_ns = 10000000;
	s->p.runtime_ns = 20000000;
	why = bl_sim_go(s, 1000000);
	if (why)
		return why;
	q = &s->qs[0].q;
	if (q->reason != BLKLOAD_REASON_RUNTIME)
		return "a runtime job does not end for runtime";
	if (q->count_start_ns != q->ramp_end)
		return "counting did not start at the ramp's end";
	/* 4 IOs every 100 us for 20 ms: 800, less those still out at the ramp's end. */
	if (q->s.st[BL_READ].ios + 4 < 800 || q->s.st[BL_READ].ios > 800)
		return "the runtime's count is not iodepth x runtime / service time";
	if (s->draws[0] - s->counted[0] < 400)
		return "the ramp's IOs were counted";
	if (q->end_ns - q->count_start_ns < 20000000 || q->end_ns - q->count_start_ns > 20100000)
		return "elapsed is not the runtime";
	if (q->s.st[BL_READ].lat.min < 100000 || q->s.st[BL_READ].clat.min == 0)
		return "a latency under the device's service time, or a clat of 0";
	return NULL;
}

/* thinktime: think_blocks IOs, then they drain, then a stall of think_ns. */
static inline const char *bl_sim_trace_think(struct bl_sim *s)
{
	const char *why;

	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 1, 4);
	s->p.number_ios = 40;
	s->p.think_ns = 1000000;
	s->p.think_blocks = 10;
	why = bl_sim_go(s, 100000);
	if (why)
		return why;
	/* 40 IOs in blocks of 10: 3 stalls of 1 ms between them, each after a drain. */
	if (s->max_idle != 1000000)
		return "a think stall is not think_ns with nothing in flight";
	if (s->last_draw - s->first_draw < 3 * 1000000)
		return "fewer think stalls than the IO count needs";
	return NULL;
}

/* A linear rate: IOs due exactly 1 s / rate apart, none before its time. */
static inline const char *bl_sim_trace_rate(struct bl_sim *s)
{
	const char *why;
	const struct bl_q *q;

	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 1, 8);
	s->p.number_ios = 100;
	s->p.rate_iops = 1000;
	why = bl_sim_go(s, 100000);
	if (why)
		return why;
	q = &s->qs[0].q;
	/* The 100th IO is due 99 ms after the first. */
	if (s->last_draw - s->first_draw != 99000000)
		return "a linear rate of 1000 IOPS did not space 100 IOs 99 ms apart";
	if (q->sched_next - q->sched_step != s->last_draw)
		return "an IO went at another time than its due time";
	return NULL;
}

/*
 * A rate in bytes (fio's rate): an IO of bs due bs/rate s after the one
 * before, the remainder carried: 3000 B/s of 512-byte IOs is 170.67 ms
 * apart, so 4 IOs span exactly 512 ms; two queues each take half the rate.
 */
static inline const char *bl_sim_trace_rate_bytes(struct bl_sim *s)
{
	const char *why;

	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 1, 8);
	s->p.number_ios = 4;
	s->p.rate_bps = 3000;
	why = bl_sim_go(s, 100000);
	if (why)
		return why;
	if (s->last_draw - s->first_draw != 512000000)
		return "a rate of 3000 B/s did not space four 512-byte IOs 512 ms apart";
	memset(s, 0, sizeof(*s));
	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 2, 8);
	s->p.number_ios = 8;
	s->p.rate_bps = 6000;
	why = bl_sim_go(s, 100000);
	if (why)
		return why;
	if (s->last_draw - s->first_draw != 512000000)
		return "6000 B/s over two queues did not give each 3000 B/s";
	/* A bs-split steps by each IO's own length: the same spacing, carried per IO. */
	memset(s, 0, sizeof(*s));
	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 1, 8);
	s->p.number_ios = 4;
	s->p.rate_bps = 3000;
	s->p.nbs[0] = 1;
	s->p.bss[0][0].lo = BL_SIM_BS;
	s->p.bss[0][0].hi = BL_SIM_BS;
	s->p.bss[0][0].cum = 100;
	why = bl_sim_go(s, 100000);
	if (why)
		return why;
	if (s->qs[0].q.sched_len || s->last_draw - s->first_draw != 512000000)
		return "a bs-split's rate in bytes did not step by each IO's length";
	return NULL;
}

/*
 * fio's rate_min: a device of 1 ms an IO at depth 1 does 512 KB/s of
 * 512-byte IOs; a minimum of 1 MB/s ends the job after the two seconds of
 * settling and one cycle (3 s, ~3000 IOs, not the 10000 asked); 256 KB/s
 * does not.
 */
static inline const char *bl_sim_trace_rate_min(struct bl_sim *s)
{
	const char *why;

	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 1, 1);
	s->service_ns = 1000000;
	s->p.number_ios = 10000;
	s->p.rate_min = 1000000;
	why = bl_sim_go(s, 100000);
	if (why)
		return why;
	if (s->reason != BLKLOAD_REASON_RATE_MIN)
		return "a job below its rate_min did not end for it";
	if (s->counted[0] < 2900 || s->counted[0] > 3100)
		return "rate_min did not end the job after its settling and one cycle";
	memset(s, 0, sizeof(*s));
	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 1, 1);
	s->service_ns = 1000000;
	s->p.number_ios = 5000;
	s->p.rate_min = 256000;
	why = bl_sim_go(s, 100000);
	if (why)
		return why;
	if (s->reason || s->counted[0] != 5000)
		return "a job above its rate_min did not run to its limit";
	return NULL;
}

/*
 * verify: two queues write every unit once, wait for each other, read
 * their units back and check them; a unit corrupted on the disk between
 * the writes and the read-back fails exactly once.
 */
static inline const char *bl_sim_trace_verify(struct bl_sim *s, bool corrupt)
{
	BL_U64 checked = 0, readback = 0, errors = 0;
	const char *why;
	unsigned int i;

	bl_sim_params(s, BLKLOAD_RW_WRITE, 2, 4);
	s->p.verify = BLKLOAD_VERIFY_CRC32C;
	why = bl_sim_start(s);
	if (why)
		return why;
	/* Up to the read-back pass: both queues waiting, nothing read yet. */
	for (i = 0; i < 100000 && !why; i++) {
		if (s->qs[0].q.phase == BL_PH_VWAIT && s->qs[1].q.phase >= BL_PH_VWAIT)
			break;
		why = bl_sim_run(s, 1);
		if (why && s->qs[0].q.phase != BL_PH_DONE)
			why = NULL;
	}
	if (why)
		return why;
	if (corrupt)
		s->disk[5 * BL_SIM_BS + 100] ^= 1;
	why = bl_sim_run(s, 100000);
	if (!why)
		why = bl_sim_ended_clean(s);
	if (why)
		return why;
	for (i = 0; i < s->nq; i++) {
		checked += s->qs[i].q.s.vchecked;
		readback += s->qs[i].q.s.vreadback;
		errors += s->qs[i].q.s.verrors;
		if (!s->qs[i].q.work_done || s->qs[i].q.end_ns != s->qs[i].q.work_end_ns)
			return "the read-back pass is in a queue's time";
	}
	if (readback != BL_SIM_UNITS || checked != BL_SIM_UNITS)
		return "the read-back pass did not read and check every written unit once";
	if (errors != (corrupt ? 1U : 0U) || s->vfails != errors)
		return corrupt ? "a corrupted unit was not found exactly once" :
				 "a unit failed verify that was written whole";
	return NULL;
}

/*
 * verify after a runtime with a device that refuses (at submission, or
 * @async at completion): the refused writes held when the runtime ends are
 * dropped (their units unknown), every queue reads back what it knows
 * written, none waits forever for another, and nothing fails.
 */
static inline const char *bl_sim_trace_runtime_verify(struct bl_sim *s, bool async)
{
	const char *why;
	unsigned int i;

	bl_sim_params(s, BLKLOAD_RW_RANDWRITE, 2, 8);
	s->p.runtime_ns = 5000000;
	s->p.verify = BLKLOAD_VERIFY_CRC32C;
	s->refuse_every = 3;
	s->async_refuse = async;
	why = bl_sim_go(s, 200000);
	if (why)
		return why;
	for (i = 0; i < s->nq; i++) {
		const struct bl_q *q = &s->qs[i].q;

		if (q->reason != BLKLOAD_REASON_RUNTIME || !q->work_done)
			return "a queue did not end for its runtime and then read back";
		if (!q->s.vreadback || q->s.verrors)
			return "the read-back pass read nothing, or found a unit bad";
	}
	return NULL;
}

/*
 * A stop in phase @phase (within the turn queue 0 reaches it), the device
 * refusing every fifth IO at submission or, @async, at completion: every
 * queue ends DONE, nothing left in flight or held, the read-back pass not
 * begun after the stop.
 */
static inline const char *bl_sim_trace_stop_in(struct bl_sim *s, unsigned int phase, bool async)
{
	const char *why;
	bool verify = phase >= BL_PH_DRAIN;

	bl_sim_params(s, verify ? BLKLOAD_RW_RANDWRITE : BLKLOAD_RW_RANDREAD, 2, 8);
	/*
	 * A limit's drain can pass within one turn (the last IO reaped as the
	 * limit is reached): DRAIN is held by a runtime's end, IO in flight.
	 */
	s->p.number_ios = verify && phase != BL_PH_DRAIN ? 64 : 0;
	s->p.runtime_ns = !verify ? 100000000 : phase == BL_PH_DRAIN ? 2000000 : 0;
	s->p.think_ns = phase == BL_PH_THINK || phase == BL_PH_HOLD ? 1000000 : 0;
	s->p.think_blocks = 5;
	s->p.startdelay_ns = phase == BL_PH_HOLD ? 5000000 : 0;
	s->p.verify = verify ? BLKLOAD_VERIFY_CRC32C : 0;
	s->refuse_every = 5;
	s->async_refuse = async;
	s->stop_in = phase + 1;
	why = bl_sim_start(s);
	if (why)
		return why;
	why = bl_sim_run(s, 100000);
	if (!why)
		why = bl_sim_ended_clean(s);
	if (why)
		return why;
	if (!s->job.stop || s->reason != BLKLOAD_REASON_STOPPED)
		return "the trace never reached the phase to stop in";
	if (s->after_stop)
		return "IO was sent after the stop (a held IO sent again, or a new one)";
	if (phase < BL_PH_VWAIT && (s->qs[0].q.s.vreadback || s->qs[1].q.s.vreadback))
		return "the read-back pass ran after a stop";
	return NULL;
}

#endif /* _BLKLOAD_QSIM_H */
