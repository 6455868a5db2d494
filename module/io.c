// SPDX-License-Identifier: GPL-2.0
/*
 * blkload: the IO path of one queue, top to bottom.
 *
 * The CPU's worker (worker.c) gives each of its queues a turn
 * (bl_queue_service()): it polls (--hipri), reaps the queue's done list,
 * lets the queue machine (include/blkload/queue.h) move through its phases,
 * and submits what the machine draws into idle slots. bi_end_io, in
 * whatever context the driver completes in, only notes the status and
 * pushes the slot onto the queue's lock-free done list. Nothing on this
 * path allocates or takes a lock shared with other queues.
 *
 * Timing is the machine's, one definition for every path: from a clock read
 * just before an IO's own submit_bio() to the clock read of the reap that
 * hands it back to this worker, as fio times an IO from its submission to
 * the getevents that returns it. The reap is fio's: a turn takes the done
 * list whole, oldest first, and hands it to the machine
 * iodepth_batch_complete_max completions at a time (1 by default),
 * refilling the queue between them; the first group is timed by a clock
 * read after the list was taken, each later one by the clock read that
 * followed the submissions before it (bl_q_reap_max()). With the default
 * batch of 1 each bio is submitted on its own, without a plug, so every
 * counted IO reaches the driver as its own request. A larger batch submits
 * up to that many bios under one plug: they wait for the plug's flush
 * (inside their latency) and may merge there (polled bios do not: each
 * needs its own request to be polled).
 *
 * Writes carry REQ_SYNC | REQ_IDLE, as O_DIRECT writes do, so that writeback
 * throttling does not treat them as background writeback.
 *
 * A worker serves every job on its CPU, so it must not sleep in
 * submit_bio() waiting for a tag of one device while other queues wait. Where
 * the device takes REQ_NOWAIT and no bio of the job needs splitting (a
 * REQ_NOWAIT bio that must be split always fails), bios are submitted with
 * it. One the device cannot take now completes at once with BLK_STS_AGAIN;
 * it stays counted as it was at its first attempt (a limit caps new IO
 * only) and goes again, with the same operation, offset and data, as a
 * later submission: its latency still runs from its first attempt, as
 * fio's does from before a blocking io_submit(). The queue then keeps no
 * more bios in flight than the device took (a window that grows by one per
 * reap with completions, back to iodepth), so refusals do not storm. A
 * refusal with nothing of the queue in flight (another user holds the tags,
 * the queue is frozen, the device is runtime-suspended), or a bio refused
 * four times, goes again blocking, once: that waits for the device as a
 * plain submission would, and wakes it.
 *
 * Polled bios never go blocking: the tags such a bio would wait for may be
 * held by polled bios only this worker completes. One refused with nothing
 * of the queue in flight tries again 20 us later; one refused
 * BL_POLL_REFUSED_MAX times in a row goes unpolled, to the device's
 * interrupt-driven queues (whose tags interrupts free), blocking once (which
 * also wakes a runtime-suspended device). No bio goes blocking, polled or
 * not, while polled bios of its worker are in flight on its device: a
 * frozen queue waits for those, and only this worker could complete them
 * (bl_polls_device()); it goes with REQ_NOWAIT and again 20 us later.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include "blkload.h"

/* Refusals of one bio after which it goes blocking. */
#define BL_REFUSED_MAX	4
/*
 * A refused bio that may not go blocking (polled, or next to its worker's
 * polled bios) with nothing of its queue in flight tries again this much
 * later: the tags are another's, who frees them.
 */
#define BL_POLL_RETRY_NS	(20 * NSEC_PER_USEC)
#define BL_POLL_REFUSED_MAX	64

/*
 * The test knob's late completion (main.c): once, past the wakeup, in this
 * module's text, in a task that may be preempted (a kworker's): never in
 * an interrupt, with preemption or interrupts off, under a bottom-half
 * lock (PREEMPT_RT's threaded handlers) or an RCU read side, where a spin
 * of seconds would stall the CPU or trip the lockup watchdogs. A completion
 * that is none of those leaves the knob armed for the next. Off the worker,
 * so the job may end and be freed meanwhile; it lets itself be preempted,
 * as a task there may be, and Tasks RCU tracks that (BL_LATE_CAN_SPIN).
 */
static noinline void bl_end_io_late(void)
{
	unsigned int ms;
	u64 end;

	if (!BL_LATE_CAN_SPIN || !READ_ONCE(blkload_late_end_io_ms) || !in_task() ||
	    !preemptible() || softirq_count() || rcu_preempt_depth())
		return;
	ms = xchg(&blkload_late_end_io_ms, 0);
	if (!ms)
		return;
	pr_info("late completion: spinning %u ms past its wakeup, CPU %d, task %s\n", ms,
		raw_smp_processor_id(), current->comm);
	end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;
	while (ktime_get_ns() < end) {
		cond_resched();
		cpu_relax();
	}
	pr_info("late completion: returns\n");
}

/*
 * A bio of ours completed, in any context. Its time is taken when the
 * worker reaps it (bl_queue_reap()); the clock read here is only the
 * device-side figure (devlat), reported apart. A bio completed inside the
 * worker's own submission (null_blk irqmode=0, brd, dm over them) reads no
 * clock: its devlat ends with the submission call it completed in (sent_ns),
 * a clock read the IO has anyway.
 */
static void bl_end_io(struct bio *bio)
{
	struct bl_slot *slot = bio->bi_private;
	struct bl_queue *q = slot->q;
	struct task_struct *task = q->worker->task;

	slot->status = bio->bi_status;
	if (slot->in_call && task == current && in_task())
		slot->inline_done = true;
	else if (!q->job->p.no_lat)
		slot->io.dev_ns = ktime_get_ns();
	/*
	 * Once the slot is on the list the queue may drain, finish and be
	 * freed, and its worker stopped: only @task is used after
	 * llist_add(), and the RCU read side keeps its task_struct from being
	 * freed until the wakeup is done. The first completion onto an empty
	 * list wakes the worker, unless it completes inline in the worker's
	 * own submission or poll (bio_poll() ends polled bios in the caller's
	 * context; the worker reaps them in the same turn). An interrupt that
	 * lands on the worker must still wake it: it may be about to sleep.
	 */
	if (task == current && in_task()) {
		/* The worker itself: nothing to wake, its task cannot go away. */
		llist_add(&slot->node, &q->done);
		return;
	}
	rcu_read_lock();
	if (llist_add(&slot->node, &q->done))
		wake_up_process(task);
	rcu_read_unlock();
	if (static_branch_unlikely(&blkload_late_end_io))
		bl_end_io_late();
}

/* A slot's data for the queue machine (write data, verify): a page at a time. */
static u8 *bl_slot_map(void *ctx, u32 at, u32 *contig)
{
	struct bl_slot *slot = ctx;

	*contig = PAGE_SIZE - offset_in_page(at);
	return (u8 *)kmap_local_page(slot->bvecs[at >> PAGE_SHIFT].bv_page) + offset_in_page(at);
}

static void bl_slot_unmap(void *ctx, u8 *p)
{
	kunmap_local(p);
}

const struct bl_buf_ops bl_slot_buf_ops = {
	.map	= bl_slot_map,
	.unmap	= bl_slot_unmap,
};

/*
 * Polled bios of @q's worker are in flight on @q's device (or on one that
 * may be stacked on it or under it: bl_queues_meet()). A bio that went
 * blocking there could wait for them (a frozen queue waits for all of its
 * requests), and nothing else polls them: it goes with REQ_NOWAIT, and
 * again later if refused. Bios that cannot carry REQ_NOWAIT (trims,
 * write-zeroes, a split) are kept off such a worker by bl_job_start().
 * Worker only; rare (a refusal).
 */
static bool bl_polls_device(struct bl_queue *q)
{
	struct request_queue *rq = bdev_get_queue(q->job->bdev.bdev);
	struct bl_queue *o;

	list_for_each_entry(o, &q->worker->queues, node)
		if (o->polled && o->q.inflight &&
		    bl_queues_meet(bdev_get_queue(o->job->bdev.bdev), rq))
			return true;
	return false;
}

/*
 * Fills the slot's bio for its IO (slot->io: operation, offset, length);
 * its data was prepared when it was drawn. Trims and write-zeroes carry no
 * data: only a size. Reads and writes are polled on a hipri job; with the
 * job's own nowait they carry REQ_NOWAIT, and a refusal is the bio's error
 * (bl_queue_reap()).
 */
static void bl_prep(struct bl_queue *q, struct bl_slot *slot)
{
	struct bl_job *job = q->job;
	struct bio *bio = &slot->bio;
	u32 req = job->p.req;
	bool data = true, poll;
	blk_opf_t opf;
	unsigned int i;

	/* Whatever the last attempt of this slot was (a refusal is inline too). */
	slot->inline_done = false;
	switch (slot->io.op) {
	case BL_READ:
		opf = REQ_OP_READ;
		break;
	case BL_WRITE:
		if (req & BLKLOAD_REQ_WRITE_ZEROES) {
			opf = REQ_OP_WRITE_ZEROES;
			data = false;
			break;
		}
		opf = REQ_OP_WRITE | REQ_SYNC | REQ_IDLE;
		if (req & BLKLOAD_REQ_FUA)
			opf |= REQ_FUA;
		if (req & BLKLOAD_REQ_PREFLUSH)
			opf |= REQ_PREFLUSH;
		break;
	default:
		opf = REQ_OP_DISCARD;
		data = false;
	}
	/*
	 * Polled: each bio its own request. Only a request's first bio gets
	 * the poll cookie: a polled bio merged into another request could not
	 * be polled by its own cookie. So polled bios never merge (a
	 * sequential --hipri job with batch > 1 sends one request per bio,
	 * where fio's io_uring may merge).
	 */
	poll = data && q->polled && slot->refused < BL_POLL_REFUSED_MAX;
	if (poll)
		opf |= BL_REQ_POLLED | REQ_NOMERGE;
	/*
	 * Blocking: after a refusal with nothing in flight, or too many
	 * refusals, unless polled bios of this worker are in flight on the
	 * device; trims and write-zeroes may be split, which REQ_NOWAIT does
	 * not allow.
	 */
	if (req & BLKLOAD_REQ_NOWAIT)
		slot->nowait = data;
	else if (poll)
		slot->nowait = true;	/* never blocks its own poller (bl_check_device()) */
	else if (data && q->polled)
		slot->nowait = bl_polls_device(q);	/* unpolled: interrupts free its tag */
	else
		slot->nowait = data && q->nowait &&
			       ((!q->block_next && slot->refused < BL_REFUSED_MAX) ||
				bl_polls_device(q));
	q->block_next = false;
	if (slot->nowait)
		opf |= REQ_NOWAIT;
	/* bio_reset() keeps bi_io_vec and bi_max_vecs; the pages are re-added. */
	bl_bio_reset(bio, job->bdev.bdev, opf);
	/* Polled before it reaches a queue (plugged, dispatched): a no-op, not hctx 0. */
	bl_bio_no_cookie(bio);
	bio->bi_iter.bi_sector = slot->io.off >> SECTOR_SHIFT;
	if (data) {
		unsigned int left = slot->io.len, len;

		for (i = 0; i < slot->nr_pages && left; i++) {
			/*
			 * Whole pages, not bv_len: the bvecs are the bio's
			 * io_vec, so bv_len is what the last IO put there (a
			 * 1k IO of a split left 1024 in the first).
			 */
			len = min_t(unsigned int, left, PAGE_SIZE);
			__bio_add_page(bio, slot->bvecs[i].bv_page, len, 0);
			left -= len;
		}
	} else {
		bio->bi_iter.bi_size = slot->io.len;
	}
	bio->bi_end_io = bl_end_io;
	bio->bi_private = slot;
}

/*
 * One reap: up to bl_q_reap_max() completions, oldest first, from what the
 * turn took off the done list (taken here when nothing is left of it). Their
 * time is *@clock: the clock read after the submissions since the last
 * reap of the turn, or, at the turn's first, one read here once the list
 * was taken (@now, the pass's time, without per-IO timing). A bio the
 * device could not take now (REQ_NOWAIT) is held to go again, counted as it
 * was, and is not one of the reap's completions; the window of a device
 * that refuses bios follows.
 */
static void bl_queue_reap(struct bl_queue *q, u64 now, u64 *clock)
{
	/* The job's own nowait: a refusal is the IO's error, as fio's nowait. */
	bool retry = !(q->job->p.req & BLKLOAD_REQ_NOWAIT);
	unsigned int refused = 0, got = 0, max = bl_q_reap_max(&q->q);
	struct bl_slot *slot;

	if (!q->ready) {
		struct llist_node *l = llist_del_all(&q->done), *next;

		/* Oldest first, and counted: they are done, not on the device. */
		while (l) {
			next = l->next;
			l->next = q->ready;
			q->ready = l;
			l = next;
			q->nr_ready++;
		}
	}
	if (!q->job->p.no_lat) {
		if (!*clock)
			*clock = ktime_get_ns();
		now = *clock;
	}
	while (q->ready && got < max) {
		slot = llist_entry(q->ready, struct bl_slot, node);
		q->ready = q->ready->next;
		q->nr_ready--;
		slot->busy = false;
		if (unlikely(slot->status == BLK_STS_NOTSUPP &&
			     (slot->bio.bi_opf & BL_REQ_POLLED))) {
			/*
			 * Its poll queues went away (6.12 fails such bios; 6.1
			 * drops the flag), or it takes REQ_NOWAIT no more (a dm
			 * reload), without which a polled bio could block its
			 * poller: end the job, saying why, rather than spin.
			 */
			q->job->core.ops->error(&q->job->core, -EOPNOTSUPP);
			bl_job_end(q->job, BLKLOAD_REASON_ERROR);
		}
		if (unlikely(slot->nowait && retry &&
			     (slot->status == BLK_STS_AGAIN ||
			      (slot->status == BLK_STS_NOTSUPP &&
			       !(slot->bio.bi_opf & BL_REQ_POLLED))))) {
			/* A device that no longer takes REQ_NOWAIT (a dm reload). */
			if (slot->status == BLK_STS_NOTSUPP)
				q->nowait = false;
			if (slot->refused < U8_MAX)
				slot->refused++;
			bl_q_refused(&q->q);
			q->retry[q->nr_retry++] = slot;
			refused++;
			continue;
		}
		slot->refused = 0;
		if (slot->inline_done) {
			slot->io.dev_ns = slot->io.sent_ns;
			slot->inline_done = false;
		}
		bl_q_reaped(&q->q, &slot->io,
			    unlikely(slot->status) ? blk_status_to_errno(slot->status) : 0, now,
			    &bl_slot_buf_ops, slot);
		q->free[q->nr_free++] = slot;
		got++;
	}
	if (refused) {
		/* On the device: in flight and not yet on the turn's ready list. */
		unsigned int dev = q->q.inflight - q->nr_ready;

		/* Keep in flight what the device took; none: block once, or later (bl_prep()). */
		q->window = max_t(unsigned int, dev, 1);
		q->turn_refused = true;
		if (!dev && (q->polled || (q->nowait && bl_polls_device(q))))
			q->retry_at = now + BL_POLL_RETRY_NS;
		else if (!dev)
			q->block_next = true;
	}
	q->turn_got |= got != 0;
	if (q->ready)
		return;
	/* The turn's last reap. It took them all: probe with one more, up to iodepth. */
	if (q->window && q->turn_got && !q->turn_refused && ++q->window >= q->job->p.iodepth)
		q->window = 0;
	q->turn_got = false;
	q->turn_refused = false;
}

/*
 * Polls the device for the queue's polled bios: one bio_poll() on a bio in
 * flight polls the hardware queue every bio of this CPU went to; what it
 * ends goes onto the done list, reaped in the same turn. The bio is the
 * queue's own and only its worker reuses it, so it stays valid through the
 * call even when it completes meanwhile. Returns true when it polled.
 */
static bool bl_queue_poll(struct bl_queue *q)
{
	unsigned int n = q->job->p.iodepth, i;

	for (i = 0; i < n; i++) {
		struct bl_slot *slot = q->slots[q->poll_pos];

		if (++q->poll_pos == n)
			q->poll_pos = 0;
		if (slot->busy && (slot->bio.bi_opf & BL_REQ_POLLED)) {
			bl_bio_poll(&slot->bio);
			return true;
		}
	}
	return false;
}

/* Bios the queue may send now, its held ones included: all, or the window's room. */
static unsigned int bl_queue_window_room(const struct bl_queue *q)
{
	if (!q->window)
		return UINT_MAX;
	return q->window > q->q.inflight ? q->window - q->q.inflight : 0;
}

/*
 * Submits what the queue may now: its held bios first, then what the
 * machine draws. The clock read after the last submission goes into
 * *@clock: the time of the next reap of the turn. Returns whether anything
 * went.
 */
static bool bl_queue_submit(struct bl_queue *q, u64 now, const bool *offline, u64 *clock)
{
	struct bl_job *job = q->job;
	unsigned int n, batch = job->p.batch, i;
	bool no_lat = job->p.no_lat, any = false;
	struct blk_plug plug;

	/* A polled queue refused with nothing in flight: not before its retry time. */
	if (q->retry_at) {
		if (now < q->retry_at)
			return false;
		q->retry_at = 0;
	}
	n = min(q->nr_retry + bl_q_room(&q->q, q->nr_free), bl_queue_window_room(q));
	while (n) {
		unsigned int b = min(n, batch);
		struct bl_slot *plugged = NULL;
		/* A plug started is finished, whatever b becomes (a rate may cut it). */
		bool plugging = b > 1;

		if (plugging)
			blk_start_plug(&plug);
		for (i = 0; i < b; i++) {
			struct bl_slot *slot;

			if (q->nr_retry) {
				/* The same operation, offset and data as the refused bio. */
				slot = q->retry[--q->nr_retry];
				bl_prep(q, slot);
				bl_q_resent(&q->q, now);
			} else {
				slot = q->free[q->nr_free - 1];
				/* Not due yet, a hold, think time, the pass paused: later. */
				if (!bl_q_draw(&q->q, now, &slot->io)) {
					b = i;
					n = i;
					break;
				}
				q->nr_free--;
				bl_q_prep(&q->q, &slot->io, &bl_slot_buf_ops, slot);
				bl_prep(q, slot);
				bl_q_sent(&q->q, now);
				/* From its first attempt: a refusal is in its latency. */
				if (!no_lat)
					slot->io.submit_ns = ktime_get_ns();
			}
			slot->busy = true;
			/* A completion in this call (or the plug's flush) is inline. */
			slot->in_call = !no_lat;
			submit_bio(&slot->bio);
			/*
			 * Ours until reaped by this worker, completed or not. A
			 * plugged bio is sent when the plug is flushed: stamped then.
			 */
			if (no_lat)
				continue;
			if (plugging) {
				slot->batch_next = plugged;
				plugged = slot;
			} else {
				slot->io.sent_ns = ktime_get_ns();
				slot->in_call = false;
				*clock = slot->io.sent_ns;
			}
		}
		if (plugging) {
			u64 sent;

			blk_finish_plug(&plug);
			sent = no_lat ? 0 : ktime_get_ns();
			for (; plugged; plugged = plugged->batch_next) {
				plugged->io.sent_ns = sent;
				plugged->in_call = false;
			}
			if (!no_lat)
				*clock = sent;
		}
		any |= b;
		n -= b;
		/* The CPU is going away: nothing more from this worker. */
		if (unlikely(READ_ONCE(*offline)))
			break;
	}
	return any;
}

/* A stop drops the held bios: they will not go again. */
static void bl_queue_drop_held(struct bl_queue *q)
{
	while (q->nr_retry) {
		struct bl_slot *slot = q->retry[--q->nr_retry];

		bl_q_dropped(&q->q, &slot->io, &bl_slot_buf_ops, slot);
		q->free[q->nr_free++] = slot;
	}
	q->retry_at = 0;
}

/*
 * One turn of the worker over queue @q at time @now: poll, reap, move
 * through the machine's phases, submit. Returns true when it did anything
 * (the worker then passes again before sleeping). The turn's length goes
 * into q->turns, the worker's key to split its CPU time: it runs from
 * *@clk (the end of the previous turn) to the clock read after the turn's
 * last submission when that was its last step (ktime_get_ns()), else to
 * one read for it; that becomes the next turn's start.
 * When the queue has finished it leaves the worker's list and may be freed
 * as soon as this returns. The next time the queue needs a turn without a
 * completion or a kick goes into *@deadline (when earlier), after a turn
 * that did nothing: after a busy one the worker passes again at once.
 */
bool bl_queue_service(struct bl_queue *q, u64 now, bool offline, u64 *deadline, u64 *clk)
{
	struct bl_job *job = q->job;
	u8 phase = q->q.phase;
	unsigned int act;
	bool busy = false, stop;
	u64 t0 = *clk, clock = 0, reaped = 0;

	/* Since the last turn the worker saw q->q.inflight IOs outstanding. */
	bl_q_depth(&q->q, now);
	/* Polled IO in flight keeps the worker busy: it polls instead of sleeping. */
	if (q->polled && q->q.inflight && bl_queue_poll(q))
		busy = true;
	if (q->ready || !llist_empty(&q->done)) {
		bl_queue_reap(q, now, &clock);
		reaped = clock;
		busy = true;
	}
	if (offline)
		bl_job_end(job, BLKLOAD_REASON_CPU_OFFLINE);
	/*
	 * fio's reap: after each, the machine's tick (skipped when it would
	 * change nothing) and the queue's refill, until what the turn took is
	 * reaped; later ticks at the turn's latest clock read.
	 */
	for (;;) {
		u64 t = clock > now ? clock : now;

		stop = offline || READ_ONCE(job->core.stop);
		if (!bl_q_tick_idle(&q->q, t, stop)) {
			act = bl_q_tick(&q->q, t, stop);
			if (act & BL_Q_DROP_HELD) {
				bl_queue_drop_held(q);
				act = bl_q_tick(&q->q, t, stop);
			}
			busy |= q->q.phase != phase;
			if (act & BL_Q_FINISHED) {
				list_del_init(&q->node);
				*clk = ktime_get_ns();
				q->turns += *clk - t0;
				/* Its worker's CPU time not yet split goes with its turns. */
				bl_worker_account(q->worker, q);
				/* After this the queue and its job may be freed at any time. */
				bl_job_queue_finished(job, q->q.reason);
				return true;
			}
		}
		if (bl_q_sends(&q->q) && (q->nr_free || q->nr_retry) && !q->worker->freezing) {
			busy |= bl_queue_submit(q, t, &q->worker->offline, &clock);
			/*
			 * A read-back pass that used up its look-ahead, or
			 * reached its end with nothing in flight (it finishes
			 * at the next turn), comes back at once; else a
			 * completion wakes the worker.
			 */
			busy |= q->q.vmore || (q->q.vdone && !q->q.inflight && !q->nr_retry);
		}
		if (!q->ready)
			break;
		bl_queue_reap(q, now, &clock);
		reaped = clock;
	}
	/* A busy turn makes the worker pass again at once: no deadline needed. */
	if (!busy) {
		*deadline = bl_q_deadline(&q->q, min(q->nr_free, bl_queue_window_room(q)),
					  *deadline);
		if (q->retry_at && q->nr_retry && q->retry_at < *deadline)
			*deadline = q->retry_at;
	}
	/* The turn ends at its last submission's clock read, or at one read now. */
	*clk = clock > t0 && clock != reaped ? clock : ktime_get_ns();
	q->turns += *clk - t0;
	return busy;
}

/* Whether a turn of @q has anything to do; the worker checks before sleeping. */
bool bl_queue_pending(struct bl_queue *q)
{
	return q->ready || !llist_empty(&q->done) || bl_q_wants_turn(&q->q);
}

/* Whether @q has polled IO in flight, which only its worker completes. */
bool bl_queue_polling(const struct bl_queue *q)
{
	return q->polled && q->q.inflight;
}
