// SPDX-License-Identifier: GPL-2.0
/*
 * blkload: the IO engine of one queue.
 *
 * A queue is one job's share of one CPU: iodepth slots, each a bio with its
 * data pages, allocated when the job is made. The CPU's worker (worker.c)
 * services it: it pops idle slots, fills their bios from the shared offset
 * generator and submits them; bi_end_io, in whatever context the driver
 * completes in, only stamps the slot and pushes it onto the queue's
 * lock-free done list. The worker reaps that list, records statistics (it is
 * their only writer) and resubmits. Nothing on this path allocates or takes
 * a lock shared with other queues.
 *
 * Latency of an IO runs from a clock read just before its own submit_bio()
 * to its bi_end_io(), as fio times an IO from its own submission. With the
 * default batch of 1 each bio is submitted on its own, without a plug, so
 * every counted IO reaches the driver as its own request. A larger batch
 * submits up to that many bios under one plug: they wait for the plug's
 * flush (inside their latency) and may merge there (polled bios do not:
 * each needs its own request to be polled). A polled batch's completions
 * are stamped once, after the poll ended the whole batch.
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
 * only) and goes again, with the same operation, offset and
 * data, as a later submission: its latency still runs from its first
 * attempt, as fio's does from before a blocking io_submit(). The queue then
 * keeps no more bios in flight than the device took (a window that grows by
 * one per reap with completions, back to iodepth), so refusals do not storm. A refusal
 * with nothing of the queue in flight (another user holds the tags, the
 * queue is frozen, the device is runtime-suspended), or a bio refused four
 * times, goes again blocking, once: that waits for the device as a plain
 * submission would, and wakes it.
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

#include <linux/crc32c.h>
#include <linux/highmem.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
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
 * Polled bios of @q's worker are in flight on @q's device. A bio that went
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
		if (o->polled && o->inflight && bdev_get_queue(o->job->bdev.bdev) == rq)
			return true;
	return false;
}

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

static void bl_end_io(struct bio *bio)
{
	struct bl_slot *slot = bio->bi_private;
	struct bl_queue *q = slot->q;
	struct task_struct *task = q->worker->task;

	/*
	 * A batch the worker's poll found done and is ending now: stamped once,
	 * when the whole batch has been ended (bl_queue_poll()), as a reap.
	 */
	if (!q->job->p.no_lat) {
		if (task == current && in_task() && q->worker->poll_batch) {
			slot->batch_next = q->worker->poll_batch_slots;
			q->worker->poll_batch_slots = slot;
		} else {
			slot->done_ns = ktime_get_ns();
		}
	}
	slot->status = bio->bi_status;
	/*
	 * Once the slot is on the list the queue may drain, finish and be
	 * freed, and its worker stopped: only @task is used after
	 * llist_add(), and the RCU read side keeps its task_struct from being
	 * freed until the wakeup is done. The first completion onto an empty
	 * list wakes the worker, unless it completes inline in the worker's
	 * own submission or poll (bio_poll() ends polled bios in the caller's
	 * context; the worker reaps them in the same pass). An interrupt that
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

static void bl_slot_free(struct bl_slot *slot)
{
	unsigned int i;

	if (!slot)
		return;
	bio_uninit(&slot->bio);
	kvfree(slot->vsnap);
	for (i = 0; i < slot->nr_pages; i++)
		if (slot->bvecs[i].bv_page)
			__free_page(slot->bvecs[i].bv_page);
	kfree(slot);
}

/* Pages of a slot: none where every IO is a trim. */
static unsigned int bl_slot_pages(const struct bl_params *p)
{
	if (p->rw == BLKLOAD_RW_TRIM || p->rw == BLKLOAD_RW_RANDTRIM)
		return 0;
	return DIV_ROUND_UP(p->bs_max, PAGE_SIZE);
}

static size_t bl_slot_size(const struct bl_params *p)
{
	return struct_size_t(struct bl_slot, bvecs, bl_slot_pages(p));
}

/* Bytes one queue of a job with these parameters pins: slots, pages, arrays. */
u64 bl_queue_mem(const struct bl_params *p)
{
	u64 pages = (u64)bl_slot_pages(p) * PAGE_SIZE;
	/* verify: each slot's snapshot of its units (bl_slot_alloc()). */
	u64 vsnap = p->verify ? (u64)(p->bs_max / p->bs) * sizeof(u32) : 0;

	return bl_queue_keep(p) +
	       (u64)p->iodepth * (bl_slot_size(p) + pages + vsnap + 3 * sizeof(void *));
}

/* Bytes of a queue that stay after its run: the statistics and the samples. */
u64 bl_queue_keep(const struct bl_params *p)
{
	return sizeof(struct bl_queue) + (u64)p->sample_ring * sizeof(struct bl_sample) +
	       (p->rate_iops ? sizeof(struct bl_sched_stats) : 0);
}

void bl_sched_stats_init(struct bl_sched_stats *s)
{
	unsigned int op;

	for (op = 0; op < BL_NR_OPS; op++)
		bl_lat_init(&s->lat[op]);
}

static struct bl_slot *bl_slot_alloc(struct bl_queue *q, int node)
{
	struct bl_job *job = q->job;
	unsigned int nr = bl_slot_pages(&job->p), i, left = job->p.bs_max;
	struct bl_slot *slot;

	slot = kzalloc_node(bl_slot_size(&job->p), GFP_KERNEL_ACCOUNT, node);
	if (!slot)
		return NULL;
	slot->q = q;
	if (job->vmap) {
		slot->vsnap = kvzalloc_node(array_size(job->p.bs_max / job->p.bs, sizeof(u32)),
					    GFP_KERNEL_ACCOUNT, node);
		if (!slot->vsnap) {
			kfree(slot);
			return NULL;
		}
	}
	for (i = 0; i < nr; i++) {
		struct page *page = alloc_pages_node(node, GFP_KERNEL_ACCOUNT | __GFP_ZERO, 0);

		if (!page) {
			slot->nr_pages = i;
			bl_slot_free(slot);
			return NULL;
		}
		slot->bvecs[i].bv_page = page;
		slot->bvecs[i].bv_len = min_t(unsigned int, left, PAGE_SIZE);
		slot->bvecs[i].bv_offset = 0;
		left -= slot->bvecs[i].bv_len;
	}
	slot->nr_pages = nr;
	bl_bio_init(&slot->bio, job->bdev.bdev, slot->bvecs, nr, REQ_OP_READ);
	return slot;
}

/*
 * Allocates queue @index of @job, for @cpu (its worker is named later, by
 * bl_job_link()). On failure the partial queue is left in job->queues[] for
 * bl_queue_free().
 */
int bl_queue_alloc(struct bl_job *job, unsigned int index, unsigned int cpu)
{
	int node = cpu_to_node(cpu);
	bool random = job->p.rw == BLKLOAD_RW_RANDREAD || job->p.rw == BLKLOAD_RW_RANDWRITE ||
		      job->p.rw == BLKLOAD_RW_RANDRW || job->p.rw == BLKLOAD_RW_RANDTRIM;
	u32 mix, trim = job->p.rwmixtrim;
	struct bl_queue *q;
	unsigned int i;

	switch (job->p.rw) {
	case BLKLOAD_RW_READ:
	case BLKLOAD_RW_RANDREAD:
		mix = 100;
		break;
	case BLKLOAD_RW_WRITE:
	case BLKLOAD_RW_RANDWRITE:
		mix = 0;
		break;
	case BLKLOAD_RW_TRIM:
	case BLKLOAD_RW_RANDTRIM:
		mix = 0;
		trim = 100;
		break;
	default:
		mix = job->p.rwmixread;
	}

	q = kvzalloc_node(sizeof(*q), GFP_KERNEL_ACCOUNT, node);
	if (!q)
		return -ENOMEM;
	job->queues[index] = q;
	q->job = job;
	q->cpu = cpu;
	q->index = index;
	q->nowait = job->nowait;
	q->polled = job->p.req & BLKLOAD_REQ_HIPRI;
	init_llist_head(&q->done);
	INIT_LIST_HEAD(&q->node);
	u64_stats_init(&q->sync);
	for (i = 0; i < BL_NR_OPS; i++)
		bl_op_stats_init(&q->st[i]);
	if (!bl_gen_init(&q->gen, job->p.randseed, index, job->nr_queues, random, mix,
			 job->p.offset, job->p.size, job->p.bs) ||
	    !bl_gen_set_trim(&q->gen, trim) ||
	    !bl_gen_set_bs(&q->gen, 0, job->p.bss[0], job->p.nbs[0]) ||
	    !bl_gen_set_bs(&q->gen, 1, job->p.bss[1], job->p.nbs[1]) ||
	    /* One seed for all queues: the same hot blocks (bl_check_region() tried it). */
	    !bl_dist_init(&q->dist, random ? job->p.dist : BLKLOAD_DIST_RANDOM,
			  job->p.dist_param, q->gen.nblocks, job->p.randseed))
		return -EINVAL;
	if (job->p.rate_iops) {
		/* An exact share: the job issues rate_iops a second in all. */
		q->rate = job->p.rate_iops / job->nr_queues +
			  (index < job->p.rate_iops % job->nr_queues ? 1 : 0);
		q->sched_step = div_u64_rem(NSEC_PER_SEC, q->rate, &mix);
		q->sched_rem = mix;
		/* Its own stream: the offsets are those of the same job without a rate. */
		bl_gen_init(&q->pace, job->p.randseed ^ 0x7061636500000000ULL, index,
			    job->nr_queues, true, 0, 0, 1, 1);
		q->sched = kvzalloc_node(sizeof(*q->sched), GFP_KERNEL_ACCOUNT, node);
		if (!q->sched)
			return -ENOMEM;
		bl_sched_stats_init(q->sched);
	}
	q->limit = U64_MAX;
	if (job->p.number_ios) {
		/* An exact share: the job issues number_ios in all. */
		u64 share = job->p.number_ios;
		u32 rem = do_div(share, job->nr_queues);

		/* loops: each queue's own share that many times (its region, when a pass). */
		q->limit = (share + (index < rem ? 1 : 0)) * job->p.loops;
	}

	if (job->p.sample_ns) {
		q->ring = kvzalloc_node(array_size(job->p.sample_ring, sizeof(*q->ring)),
					GFP_KERNEL_ACCOUNT, node);
		if (!q->ring)
			return -ENOMEM;
		q->ring_nr = job->p.sample_ring;
	}
	q->slots = kcalloc_node(job->p.iodepth, sizeof(*q->slots), GFP_KERNEL_ACCOUNT, node);
	q->free = kcalloc_node(job->p.iodepth, sizeof(*q->free), GFP_KERNEL_ACCOUNT, node);
	q->retry = kcalloc_node(job->p.iodepth, sizeof(*q->retry), GFP_KERNEL_ACCOUNT, node);
	if (!q->slots || !q->free || !q->retry)
		return -ENOMEM;
	for (i = 0; i < job->p.iodepth; i++) {
		q->slots[i] = bl_slot_alloc(q, node);
		if (!q->slots[i])
			return -ENOMEM;
		q->free[q->nr_free++] = q->slots[i];
	}
	return 0;
}

/*
 * Frees the slots and their pages, once no IO of the queue is in flight:
 * at the end of its run (the statistics stay) or with the job.
 */
void bl_queue_release(struct bl_queue *q)
{
	unsigned int i;

	if (!q)
		return;
	for (i = 0; q->slots && i < q->job->p.iodepth; i++)
		bl_slot_free(q->slots[i]);
	kfree(q->slots);
	kfree(q->free);
	kfree(q->retry);
	q->slots = NULL;
	q->free = NULL;
	q->retry = NULL;
}

/* The rest, with the job; its worker reference was dropped by the caller. */
void bl_queue_free(struct bl_queue *q)
{
	if (!q)
		return;
	bl_queue_release(q);
	kvfree(q->ring);
	kvfree(q->sched);
	kvfree(q);
}

/* Before the queue is handed to its worker; job->start_ns is set. */
void bl_queue_start(struct bl_queue *q)
{
	struct bl_job *job = q->job;

	/* startdelay: nothing before it; the ramp and the runtime start then. */
	u64 start = job->start_ns + job->p.startdelay_ns;

	q->hold_until = start;
	q->ramp_end = start + job->p.ramp_ns;
	q->end = job->p.runtime_ns ? q->ramp_end + job->p.runtime_ns : 0;
	q->count_start_ns = start;
	q->progress_ns = start;
	q->sample_next = q->ramp_end + job->p.sample_ns;
	q->sched_next = start;
	q->sample_last = q->ramp_end;
	/* The above before ramp_done, for job-get readers. */
	smp_store_release(&q->ramp_done, !job->p.ramp_ns && !job->p.startdelay_ns);
}

static void bl_queue_reset_stats(struct bl_queue *q)
{
	unsigned int i;

	u64_stats_update_begin(&q->sync);
	for (i = 0; i < BL_NR_OPS; i++) {
		u64 errors = q->st[i].errors;

		memset(&q->st[i], 0, sizeof(q->st[i]));
		bl_op_stats_init(&q->st[i]);
		/* Errors are never forgotten, not even those of the ramp. */
		q->st[i].errors = errors;
	}
	q->cpu_time = 0;
	q->ctx = 0;
	if (q->sched) {
		memset(q->sched, 0, sizeof(*q->sched));
		bl_sched_stats_init(q->sched);
	}
	q->stall_max = 0;
	memset(q->depth_ns, 0, sizeof(q->depth_ns));
	u64_stats_update_end(&q->sync);
}

static void bl_account(struct bl_queue *q, struct bl_slot *slot)
{
	struct bl_op_stats *st = &q->st[slot->op];
	struct bl_job *job = q->job;

	if (unlikely(slot->status)) {
		/* A trim changes the device: its errors go with the writes'. */
		u32 coe = slot->op == BL_READ ? BLKLOAD_COE_READ : BLKLOAD_COE_WRITE;

		atomic_cmpxchg(&job->error, 0, blk_status_to_errno(slot->status));
		if (!(job->p.coe & coe))
			bl_job_end(job, BLKLOAD_REASON_ERROR);
		u64_stats_update_begin(&q->sync);
		st->errors++;
		u64_stats_update_end(&q->sync);
		return;
	}
	if (!slot->counted)
		return;

	u64_stats_update_begin(&q->sync);
	st->ios++;
	st->bytes += slot->len;
	if (!job->p.no_lat) {
		/*
		 * Clocks of two CPUs are never trusted to be ordered; a bio
		 * done inside submit_bio() has its whole time in slat.
		 */
		u64 done = max(slot->done_ns, slot->sent_ns);
		u64 lat = done > slot->submit_ns ? done - slot->submit_ns : 0;
		u64 slat = slot->sent_ns > slot->submit_ns ? slot->sent_ns - slot->submit_ns : 0;

		bl_lat_add(&st->lat, lat);
		bl_lat_add(&st->slat, slat);
		bl_lat_add(&st->clat, lat - slat);
		st->hist[bl_hist_idx(lat)]++;
		st->chist[bl_hist_idx(lat - slat)]++;
		if (q->sched) {
			/* From when it was due: it went no earlier. */
			u64 sl = done > slot->sched_ns ? done - slot->sched_ns : 0;

			bl_lat_add(&q->sched->lat[slot->op], sl);
			q->sched->hist[slot->op][bl_hist_idx(sl)]++;
		}
	}
	u64_stats_update_end(&q->sync);
}

/*
 * A write's data (fill.h): copied out of the job's pool from the position
 * its offset names, each sector then stamped with what was written where;
 * or, for a dedupe block, every unit a copy of the pool's first, unstamped.
 * For zero-buffers the pages stay zero from their allocation, unless reads
 * of a mix use them too.
 */
static void bl_write_data(struct bl_job *job, struct bl_slot *slot)
{
	u64 off = slot->off;
	bool dedupe = bl_fill_dedupe(job->p.randseed, off, job->p.buf_dedupe);
	unsigned int i, s, left = slot->len, unit = job->p.bs, in_unit = 0;
	const u8 *src;

	if (!job->pool) {
		/* Only what this write sends: a read may have filled it. */
		if (job->p.rw == BLKLOAD_RW_RW || job->p.rw == BLKLOAD_RW_RANDRW)
			for (i = 0; i < slot->nr_pages && left; i++, left -= s) {
				s = min_t(unsigned int, left, PAGE_SIZE);
				memzero_page(slot->bvecs[i].bv_page, 0, s);
			}
		return;
	}
	src = job->pool + (dedupe ? 0 : bl_fill_pos(job->p.randseed, off));
	for (i = 0; i < slot->nr_pages && left; i++) {
		struct bio_vec *bv = &slot->bvecs[i];
		unsigned int len = min_t(unsigned int, left, PAGE_SIZE), done, n;
		u8 *p = kmap_local_page(bv->bv_page);

		if (!dedupe) {
			memcpy(p, src, len);
			src += len;
			for (s = 0; s < len; s += SECTOR_SIZE, off += SECTOR_SIZE)
				bl_stamp_sector(p + s, off);
		} else {
			/* The unit may be smaller or larger than a page. */
			for (done = 0; done < len; done += n) {
				n = min(len - done, unit - in_unit);
				memcpy(p + done, job->pool + in_unit, n);
				in_unit += n;
				if (in_unit == unit)
					in_unit = 0;
			}
		}
		kunmap_local(p);
		left -= len;
	}
}

/* CRC-32C of @len bytes of the slot's data from byte @at (verify.h). */
static u32 bl_slot_crc(struct bl_slot *slot, unsigned int at, unsigned int len)
{
	u32 crc = ~0U;

	while (len) {
		unsigned int o = offset_in_page(at), n = min_t(unsigned int, len, PAGE_SIZE - o);
		u8 *p = kmap_local_page(slot->bvecs[at >> PAGE_SHIFT].bv_page);

		crc = crc32c(crc, p + o, n);
		kunmap_local(p);
		at += n;
		len -= n;
	}
	return ~crc;
}

/* The map entry of the unit at byte @off of the device. */
static u32 *bl_vmap_entry(struct bl_job *job, u64 off)
{
	return &job->vmap[div_u64(off - job->p.offset, job->p.bs)];
}

/*
 * Verify, when an IO is prepared (not again): a write's units get their
 * header (generation from the map of a job that has one) and CRC; a trim
 * marks its units written; a read takes the map's snapshot of its units.
 */
static void bl_verify_prep(struct bl_job *job, struct bl_slot *slot)
{
	unsigned int bs = job->p.bs, at, k;
	u32 *e = job->vmap ? bl_vmap_entry(job, slot->off) : NULL;

	for (at = 0, k = 0; at < slot->len; at += bs, k++) {
		if (slot->op == BL_READ) {
			if (e)
				slot->vsnap[k] = BL_VMAP_LOAD(&e[k]);
		} else if (slot->op == BL_TRIM) {
			if (e)
				bl_vmap_write_begin(&e[k]);
		} else {
			u32 gen = e ? bl_vmap_write_begin(&e[k]) : 1;
			struct page *pg = slot->bvecs[at >> PAGE_SHIFT].bv_page;
			u8 *p = kmap_local_page(pg);

			bl_verify_hdr(p + offset_in_page(at), slot->off + at, job->p.randseed, gen,
				      bs, job->vnonce);
			kunmap_local(p);
			p = kmap_local_page(pg);
			bl_verify_set_crc(p + offset_in_page(at), bl_slot_crc(slot, at, bs));
			kunmap_local(p);
		}
	}
}

/* A verify failure: counted, the first BL_VREPORTS kept, the job's error EILSEQ. */
static void bl_verify_fail(struct bl_queue *q, u64 off, int what, u64 want, u64 got)
{
	struct bl_job *job = q->job;

	u64_stats_update_begin(&q->sync);
	q->verrors++;
	u64_stats_update_end(&q->sync);
	if (!atomic_read(&job->error))
		atomic_cmpxchg(&job->error, 0, -EILSEQ);
	/* Every unit may fail (another seed): the lock only while reports are kept. */
	if (READ_ONCE(job->nvrep) >= BL_VREPORTS)
		return;
	spin_lock(&job->vlock);
	if (job->nvrep < BL_VREPORTS) {
		struct bl_vreport *r = &job->vrep[job->nvrep];

		r->off = off;
		r->what = what;
		r->want = want;
		r->got = got;
		WRITE_ONCE(job->nvrep, job->nvrep + 1);
	}
	spin_unlock(&job->vlock);
}

/*
 * Verify, when an IO is reaped: a write's or trim's units get their new
 * generation (unknown after an error or for a trim); a read's units are
 * checked against their header, and against the map where the job has
 * one and no write raced the read.
 */
static void bl_verify_reap(struct bl_queue *q, struct bl_slot *slot)
{
	struct bl_job *job = q->job;
	unsigned int bs = job->p.bs, at, k;
	u32 *e = job->vmap ? bl_vmap_entry(job, slot->off) : NULL;
	u64 checked = 0, skipped = 0;

	for (at = 0, k = 0; at < slot->len; at += bs, k++) {
		u64 off = slot->off + at, want, got;
		u32 gen = 0, crc;
		int what;
		u8 *p;

		if (slot->op != BL_READ) {
			if (e)
				bl_vmap_write_end(&e[k], slot->op == BL_WRITE && !slot->status);
			continue;
		}
		if (slot->status)
			continue;
		if (e) {
			if (!bl_vmap_checkable(slot->vsnap[k], BL_VMAP_LOAD(&e[k]))) {
				skipped++;
				continue;
			}
			gen = bl_vmap_gen(slot->vsnap[k]);
		}
		checked++;
		p = kmap_local_page(slot->bvecs[at >> PAGE_SHIFT].bv_page) + offset_in_page(at);
		what = bl_verify_check_hdr(p, off, job->p.randseed, gen, bs, job->vnonce, &want,
					   &got);
		crc = bl_verify_hdr_crc(p);
		/* The CRC is of the unit with its own field zero: this is our buffer. */
		bl_verify_set_crc(p, 0);
		kunmap_local(p);
		if (what == BL_VERIFY_OK) {
			/* Expected: what the header says; found: what the data gives. */
			want = crc;
			got = bl_slot_crc(slot, at, bs);
			if (want != got)
				what = BL_VERIFY_BAD_CRC;
		}
		if (what != BL_VERIFY_OK)
			bl_verify_fail(q, off, what, want, got);
	}
	if (slot->op == BL_READ && (checked || skipped || slot->readback)) {
		u64_stats_update_begin(&q->sync);
		q->vchecked += checked;
		q->vskipped += skipped;
		if (slot->readback && !slot->status)
			q->vreadback += slot->len / bs;
		u64_stats_update_end(&q->sync);
	}
}

/*
 * Fills the slot's bio for its operation and offset (slot->op, slot->off);
 * a write's data is stamped unless the slot goes again after a refusal.
 * Trims and write-zeroes carry no data: only a size. Reads and writes are
 * polled on a hipri job (a bio that must be split loses REQ_POLLED there
 * and completes by interrupt); with the job's own nowait they carry
 * REQ_NOWAIT, and a refusal is the bio's error (bl_queue_reap()).
 */
static void bl_prep(struct bl_queue *q, struct bl_slot *slot, bool again)
{
	struct bl_job *job = q->job;
	struct bio *bio = &slot->bio;
	u32 req = job->p.req;
	bool data = true, poll;
	blk_opf_t opf;
	unsigned int i;

	switch (slot->op) {
	case BL_READ:
		opf = REQ_OP_READ;
		break;
	case BL_WRITE:
		if (req & BLKLOAD_REQ_WRITE_ZEROES) {
			opf = REQ_OP_WRITE_ZEROES;
			data = false;
			break;
		}
		if (!again)
			bl_write_data(job, slot);
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
	if (job->p.verify && !again)
		bl_verify_prep(job, slot);
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
	bio->bi_iter.bi_sector = slot->off >> SECTOR_SHIFT;
	if (data) {
		unsigned int left = slot->len, len;

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
		bio->bi_iter.bi_size = slot->len;
	}
	bio->bi_end_io = bl_end_io;
	bio->bi_private = slot;
}

/*
 * Reaps the done list at time @now: statistics, idle slots, stalls, the
 * window of a device that refuses bios. A bio the device could not take now
 * (REQ_NOWAIT) goes back to be submitted again, counted as it was.
 */
static void bl_queue_reap(struct bl_queue *q, u64 now)
{
	struct llist_node *done = llist_del_all(&q->done);
	u64 first = U64_MAX, last = 0, gap;
	bool no_lat = q->job->p.no_lat;
	/* The job's own nowait: a refusal is the IO's error, as fio's nowait. */
	bool retry = !(q->job->p.req & BLKLOAD_REQ_NOWAIT);
	unsigned int refused = 0, got = 0;
	struct bl_slot *slot, *tmp;

	llist_for_each_entry_safe(slot, tmp, done, node) {
		WRITE_ONCE(q->inflight, q->inflight - 1);
		slot->busy = false;
		if (unlikely(slot->status == BLK_STS_NOTSUPP &&
			     (slot->bio.bi_opf & BL_REQ_POLLED))) {
			/*
			 * Its poll queues went away (6.12 fails such bios; 6.1
			 * drops the flag), or it takes REQ_NOWAIT no more (a dm
			 * reload), without which a polled bio could block its
			 * poller: end the job, saying why, rather than spin.
			 */
			atomic_cmpxchg(&q->job->error, 0, -EOPNOTSUPP);
			bl_job_end(q->job, BLKLOAD_REASON_ERROR);
		}
		if (unlikely(slot->nowait && retry &&
			     (slot->status == BLK_STS_AGAIN ||
			      (slot->status == BLK_STS_NOTSUPP &&
			       !(slot->bio.bi_opf & BL_REQ_POLLED))))) {
			/* A device that no longer takes REQ_NOWAIT (a dm reload). */
			if (slot->status == BLK_STS_NOTSUPP)
				q->nowait = false;
			/*
			 * It stays counted as it was issued (issued keeps it): a
			 * limit caps only new IO, and the retry goes whatever
			 * the limit (bl_queue_submit()).
			 */
			if (slot->refused < U8_MAX)
				slot->refused++;
			q->retry[q->nr_retry++] = slot;
			refused++;
			continue;
		}
		slot->refused = 0;
		if (q->job->p.verify)
			bl_verify_reap(q, slot);
		bl_account(q, slot);
		q->free[q->nr_free++] = slot;
		got++;
		if (!no_lat) {
			first = min(first, slot->done_ns);
			last = max(last, slot->done_ns);
		}
	}
	if (refused) {
		/* Keep in flight what the device took; none: block once, or later (bl_prep()). */
		q->window = max_t(unsigned int, q->inflight, 1);
		if (!q->inflight && (q->polled || (q->nowait && bl_polls_device(q))))
			q->retry_at = now + BL_POLL_RETRY_NS;
		else if (!q->inflight)
			q->block_next = true;
	} else if (q->window && got) {
		/* It took them all: probe with one more, up to iodepth (no window). */
		if (++q->window >= q->job->p.iodepth)
			q->window = 0;
	}
	if (!got)
		return;
	if (no_lat) {
		first = now;
		last = now;
	}
	/* A stall: IO in flight and no completion from progress_ns to first. */
	gap = first > q->progress_ns ? first - q->progress_ns : 0;
	if (q->ramp_done && !q->vwait && gap > q->stall_max) {
		u64_stats_update_begin(&q->sync);
		q->stall_max = gap;
		u64_stats_update_end(&q->sync);
	}
	WRITE_ONCE(q->progress_ns, max(last, q->progress_ns));
	q->last_done_ns = max(last, q->last_done_ns);
}

/* A rate-limited queue's next IO is due one step (or an exponential draw) later. */
static void bl_queue_pace(struct bl_queue *q)
{
	if (q->job->p.rate_process == BLKLOAD_RATE_PROCESS_POISSON) {
		q->sched_next += bl_dist_exp(&q->pace, q->sched_step);
		return;
	}
	q->sched_next += q->sched_step;
	q->sched_acc += q->sched_rem;
	if (q->sched_acc >= q->rate) {
		q->sched_acc -= q->rate;
		q->sched_next++;
	}
}

/*
 * The read-back pass: the next written unit of this queue's share (units
 * index, index + queues, ...), as a read of one unit into @slot; looks at
 * no more than 4096 entries a submission pass (q->vbudget). False when none
 * was found: q->vdone once the region is done, else q->vmore.
 */
static bool bl_vpass_next(struct bl_queue *q, struct bl_slot *slot)
{
	struct bl_job *job = q->job;

	for (; q->vbudget && q->vcur < job->vunits; q->vbudget--) {
		u64 u = q->vcur;
		u32 v = BL_VMAP_LOAD(&job->vmap[u]);

		q->vcur += job->nr_queues;
		/* Never written, or its content unknown: nothing to check. */
		if (!bl_vmap_checkable(v, v))
			continue;
		slot->op = BL_READ;
		slot->off = job->p.offset + u * job->p.bs;
		slot->len = job->p.bs;
		return true;
	}
	if (q->vcur >= job->vunits)
		q->vdone = true;
	else
		q->vmore = true;
	return false;
}

/* Submits what the queue may now; returns whether anything went. */
static bool bl_queue_submit(struct bl_queue *q, u64 now, const bool *offline)
{
	bool any = false;

	struct bl_job *job = q->job;
	unsigned int n = q->nr_free, batch = job->p.batch, i;
	bool no_lat = job->p.no_lat;
	struct blk_plug plug;

	/* A polled queue refused with nothing in flight: not before its retry time. */
	if (q->retry_at) {
		if (now < q->retry_at)
			return false;
		q->retry_at = 0;
	}
	/* The limit caps new IO; refused bios go again whatever it is. */
	if (q->ramp_done && !q->vpass)
		n = min_t(u64, n, q->limit - q->issued);
	n += q->nr_retry;
	q->vbudget = 4096;
	q->vmore = false;
	if (q->window)
		n = min_t(unsigned long, n, q->window > q->inflight ? q->window - q->inflight : 0);
	/* IO in flight from now on: a stall would be counted from here. */
	if (n && !q->inflight &&
	    (q->nr_retry || ((!q->rate || q->sched_next <= now) && q->hold_until <= now &&
			     !q->thinking)))
		WRITE_ONCE(q->progress_ns, now);
	while (n) {
		unsigned int b = min(n, batch);
		struct bl_slot *plugged = NULL;
		/* A plug started is finished, whatever b becomes (a rate may cut it). */
		bool plugging = b > 1;

		if (plugging)
			blk_start_plug(&plug);
		for (i = 0; i < b; i++) {
			struct bl_slot *slot;
			bool again = q->nr_retry;

			/*
			 * Not due yet, held (startdelay, thinktime) or thinking:
			 * the worker comes back then (bl_queue_deadline()), or at
			 * a completion.
			 */
			if (!again && !q->vpass &&
			    ((q->rate && q->sched_next > now) || q->hold_until > now ||
			     q->thinking)) {
				b = i;
				n = i;
				break;
			}
			if (again) {
				/* The same operation, offset and data as the refused bio. */
				slot = q->retry[--q->nr_retry];
			} else if (q->vpass) {
				slot = q->free[q->nr_free - 1];
				if (!bl_vpass_next(q, slot)) {
					b = i;
					n = i;
					break;
				}
				q->nr_free--;
			} else {
				slot = q->free[--q->nr_free];
				slot->op = bl_gen_op_dist(&q->gen, &q->dist, &slot->off,
							  &slot->len);
				if (q->rate) {
					slot->sched_ns = q->sched_next;
					bl_queue_pace(q);
				}
				/* thinktime: after think_blocks IOs, drain, then stall. */
				if (job->p.think_ns && ++q->think_count >= job->p.think_blocks)
					q->thinking = true;
			}
			if (!again)
				slot->readback = q->vpass;
			bl_prep(q, slot, again);
			/*
			 * Counted at its first attempt only, after the ramp; the
			 * read-back pass is verify's, not the workload's.
			 */
			if (!again) {
				slot->counted = q->ramp_done && !slot->readback;
				if (slot->counted)
					q->issued++;
			}
			WRITE_ONCE(q->inflight, q->inflight + 1);
			slot->busy = true;
			/* From its first attempt: a refused bio's wait is in its latency. */
			if (!no_lat && !again)
				slot->submit_ns = ktime_get_ns();
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
				slot->sent_ns = ktime_get_ns();
			}
		}
		if (plugging) {
			u64 sent;

			blk_finish_plug(&plug);
			sent = no_lat ? 0 : ktime_get_ns();
			for (; plugged; plugged = plugged->batch_next)
				plugged->sent_ns = sent;
		}
		any |= b;
		n -= b;
		/* The CPU is going away: nothing more from this worker. */
		if (unlikely(READ_ONCE(*offline)))
			break;
	}
	return any;
}

/*
 * Adds @ns of the worker's CPU time and @ctx of its context switches to
 * the queue (after the ramp). The
 * worker splits what its thread used over its queues in proportion to the
 * time each one's turns took (bl_worker_account()).
 */
void bl_queue_add_cpu(struct bl_queue *q, u64 ns, u64 ctx)
{
	if (!q->ramp_done || q->vwait || (!ns && !ctx))
		return;
	u64_stats_update_begin(&q->sync);
	q->cpu_time += ns;
	q->ctx += ctx;
	u64_stats_update_end(&q->sync);
}

/*
 * Writes the queue's next sample, of what completed since the last one
 * (nothing when !@take), time-stamped @t, and publishes it.
 */
static void bl_queue_sample(struct bl_queue *q, u64 t, bool take)
{
	struct bl_sample *s = &q->ring[q->ring_pos];
	unsigned int op;

	/*
	 * Pairs with the smp_rmb() in bl_queue_sample_copy(): the count that
	 * made the slot's old sample stale is seen before the slot changes.
	 */
	smp_wmb();
	s->t = t - q->ramp_end;
	for (op = 0; op < BL_NR_OPS; op++) {
		const struct bl_op_stats *st = &q->st[op];
		struct bl_sample_op cum = {
			.ios = st->ios, .bytes = st->bytes, .lat = st->lat.sum,
			.clat = st->clat.sum, .slat = st->slat.sum,
		};

		if (take) {
			bl_sample_op_take(&s->op[op], s->chist[op], &q->sampler[op], &cum,
					  st->chist);
		} else {
			memset(&s->op[op], 0, sizeof(s->op[op]));
			memset(s->chist[op], 0, sizeof(s->chist[op]));
		}
	}
	q->sample_last = t;
	if (++q->ring_pos == q->ring_nr)
		q->ring_pos = 0;
	/* The sample before its count, for bl_queue_sample_copy(). */
	smp_store_release(&q->nsamples, q->nsamples + 1);
}

/*
 * The samples due at @now: one per interval end passed. Ends the worker
 * did not see in time (it was held up in a submission) get empty samples:
 * what it reaps now goes into the last, as fio counts an IO when reaped.
 */
static void bl_queue_take_samples(struct bl_queue *q, u64 now)
{
	u64 iv = q->job->p.sample_ns;

	while (now - q->sample_next >= iv) {
		bl_queue_sample(q, q->sample_next, false);
		q->sample_next += iv;
	}
	bl_queue_sample(q, now, true);
	q->sample_next += iv;
}

/* The next time @q needs a turn without a completion or a kick, into *@deadline. */
static void bl_queue_deadline(const struct bl_queue *q, u64 *deadline)
{
	u64 next = q->stopping ? 0 : !q->ramp_done ? q->ramp_end : q->end;

	if (next && next < *deadline)
		*deadline = next;
	/*
	 * A rate-limited queue's next IO, when it could go then: a slot free,
	 * its limit not reached, the window of a refusing device open. Else a
	 * completion wakes the worker (armed anyway, the worker would spin).
	 */
	if (q->retry_at && q->nr_retry && !q->stopping && q->retry_at < *deadline)
		*deadline = q->retry_at;
	if (q->vwait)
		return;
	if (q->rate && !q->stopping && q->nr_free && q->sched_next < *deadline &&
	    !q->thinking && !q->hold_until && !(q->ramp_done && q->issued >= q->limit) &&
	    !(q->window && q->inflight >= q->window))
		*deadline = q->sched_next;
	/* The end of a hold (startdelay, thinktime), likewise. */
	if (!q->stopping && q->nr_free && q->hold_until && q->hold_until < *deadline &&
	    !q->thinking &&
	    !(q->ramp_done && q->issued >= q->limit))
		*deadline = q->hold_until;
	/* A stalled device still gets its (empty) samples on time. */
	if (q->ring && q->ramp_done && q->sample_next < *deadline)
		*deadline = q->sample_next;
}

/*
 * Polls the device for the queue's polled bios: one bio_poll() on a bio in
 * flight polls the hardware queue every bio of this CPU went to. The bio is
 * the queue's own and only its worker reuses it, so it stays valid through
 * the call even when it completes meanwhile. Returns true when it polled.
 */
static bool bl_queue_poll(struct bl_queue *q)
{
	unsigned int n = q->job->p.iodepth, i;

	for (i = 0; i < n; i++) {
		struct bl_slot *slot = q->slots[q->poll_pos];

		if (++q->poll_pos == n)
			q->poll_pos = 0;
		if (slot->busy && (slot->bio.bi_opf & BL_REQ_POLLED)) {
			struct bl_worker *w = q->worker;
			struct bl_slot *s;
			u64 now;

			/*
			 * The batch's completions are timed once, after the
			 * batch was ended (tags freed, bios ended), as a reap
			 * of io_uring's is: one clock read for all of them.
			 */
			w->poll_batch = true;
			w->poll_batch_slots = NULL;
			bl_bio_poll(&slot->bio);
			w->poll_batch = false;
			s = w->poll_batch_slots;
			if (s) {
				now = ktime_get_ns();
				for (; s; s = s->batch_next)
					s->done_ns = now;
			}
			return true;
		}
	}
	return false;
}

/*
 * verify: the queue's workload is done (runtime or limit): its time ends
 * here, as if it finished (end time, last sample), and it waits for the
 * job's other queues: the read-back pass begins once every queue's
 * workload is done (the last one kicks the others), so it reads what they
 * all wrote and loads nobody's measurement. Writes refused at a runtime
 * stop are dropped: their units are unknown. Nothing of the pass goes into
 * the queue's statistics.
 */
static void bl_vpass_start(struct bl_queue *q, u64 now)
{
	struct bl_job *job = q->job;
	unsigned int i;

	while (q->nr_retry) {
		struct bl_slot *slot = q->retry[--q->nr_retry];

		/* Its workload's count no longer matters: the pass has none. */
		slot->status = BLK_STS_IOERR;
		bl_verify_reap(q, slot);
		q->free[q->nr_free++] = slot;
	}
	q->retry_at = 0;
	if (!q->stopping)
		q->reason = BLKLOAD_REASON_LIMIT;
	q->work_end_ns = job->p.no_lat || !q->last_done_ns ? now : q->last_done_ns;
	if (q->ring && q->ramp_done && now > q->sample_last)
		bl_queue_sample(q, now, true);
	/* Pairs with bl_nl_put_stats(): the running job's elapsed ends here. */
	smp_store_release(&q->work_done, true);
	q->vwait = true;
	q->vcur = q->index;
	q->stopping = false;
	q->end = 0;
	q->hold_until = 0;
	q->thinking = false;
	if (atomic_dec_and_test(&job->vpending))
		for (i = 0; i < job->nr_queues; i++)
			bl_worker_kick(job->queues[i]->worker);
}

/*
 * One pass of the worker over queue @q at time @now: reap, move through the
 * ramp and the end conditions, submit. Returns true when it did anything
 * (the worker then passes again before sleeping). The turn's length goes
 * into q->turns, the worker's key to split its CPU time: it runs from
 * *@clk (local_clock(), the end of the previous turn) to the clock read
 * here, which becomes the next turn's start.
 * When the queue has finished (nothing in flight after it stopped or
 * reached its limit), it leaves the worker's list and may be freed as soon
 * as this returns. The next time the queue needs a pass without a
 * completion or a kick goes into *@deadline (when earlier).
 */
bool bl_queue_service(struct bl_queue *q, u64 now, bool offline, u64 *deadline, u64 *clk)
{
	u64 t0 = *clk;
	struct bl_job *job = q->job;
	bool busy = false, limit;

	/* Since the last turn (none yet: 0) the worker saw q->inflight IOs outstanding. */
	if (q->ramp_done && !q->vwait && q->depth_t && now > q->depth_t) {
		u64_stats_update_begin(&q->sync);
		q->depth_ns[bl_depth_idx(q->inflight)] += now - q->depth_t;
		u64_stats_update_end(&q->sync);
	}
	q->depth_t = now;
	/* Polled IO in flight keeps the worker busy: it polls instead of sleeping. */
	if (q->polled && q->inflight && bl_queue_poll(q))
		busy = true;
	if (!llist_empty(&q->done)) {
		bl_queue_reap(q, now);
		busy = true;
	}
	if (!q->ramp_done && now >= q->ramp_end) {
		bl_queue_reset_stats(q);
		q->count_start_ns = now;
		WRITE_ONCE(q->progress_ns, now);
		/* The reset and count_start_ns before ramp_done, for job-get readers. */
		smp_store_release(&q->ramp_done, true);
	}
	if (q->ring && q->ramp_done && !q->vwait && now >= q->sample_next)
		bl_queue_take_samples(q, now);
	if (!q->stopping) {
		if (offline) {
			bl_job_end(job, BLKLOAD_REASON_CPU_OFFLINE);
			q->stopping = true;
		} else if (READ_ONCE(job->stop)) {
			q->stopping = true;
		} else if (q->end && now >= q->end) {
			q->stopping = true;
			q->reason = BLKLOAD_REASON_RUNTIME;
		}
		busy |= q->stopping;
	}
	/* A hold (startdelay, thinktime) that has passed. */
	if (q->hold_until && q->hold_until <= now)
		q->hold_until = 0;
	/* thinktime: its IOs done, the stall begins. */
	if (q->thinking && !q->inflight && !q->nr_retry) {
		q->thinking = false;
		q->think_count = 0;
		q->hold_until = now + job->p.think_ns;
	}
	/* The limit ends the queue once every bio of it, refused ones too, is done. */
	limit = q->vpass ? q->vdone && !q->nr_retry :
		q->ramp_done && q->issued >= q->limit && !q->nr_retry;
	/*
	 * verify: a queue of a job that writes, done with its workload on its
	 * own (runtime or limit, not a stop), reads its written units back.
	 */
	if (!q->vwait && job->vmap && !job->p.verify_no_readback && !q->inflight &&
	    !offline && !READ_ONCE(job->stop) &&
	    (limit || (q->stopping && q->reason == BLKLOAD_REASON_RUNTIME))) {
		bl_vpass_start(q, now);
		limit = false;
		busy = true;
	}
	/*
	 * The pass waits until every queue's workload is done (a kick then);
	 * it begins with nothing issued, its limit is its scan's end.
	 */
	if (q->vwait && !q->vpass && !q->stopping && !atomic_read(&job->vpending)) {
		q->vpass = true;
		limit = false;
	}
	if (q->vwait && !q->vpass) {
		if (q->stopping && !q->inflight)
			limit = true;	/* stopped while waiting: finish below */
		else
			limit = false;
	}
	if (!q->stopping && !limit && (q->vpass || !q->vwait) && (q->nr_free || q->nr_retry) &&
	    !q->worker->freezing) {
		/* A rate-limited queue may have nothing due: then it waits. */
		busy |= bl_queue_submit(q, now, &q->worker->offline);
		/*
		 * A read-back pass that used up its look-ahead, or reached its
		 * end with nothing in flight (it finishes at the next turn),
		 * comes back at once; else a completion wakes the worker.
		 */
		busy |= q->vmore || (q->vdone && !q->inflight);
	} else if ((q->stopping || limit) && !q->inflight) {
		if (!q->stopping && !q->vwait)
			q->reason = BLKLOAD_REASON_LIMIT;
		list_del_init(&q->node);
		/* The read-back pass is not in the queue's time: it ended before. */
		if (q->vwait)
			q->end_ns = q->work_end_ns;
		else
			q->end_ns = job->p.no_lat || !q->last_done_ns ? now : q->last_done_ns;
		/*
		 * The last sample: what was reaped since the one before, at the
		 * time it was reaped (as every sample); none when that was this
		 * very turn (or the read-back pass took it when it began).
		 */
		if (q->ring && q->ramp_done && !q->vwait && now > q->sample_last)
			bl_queue_sample(q, now, true);
		*clk = local_clock();
		q->turns += *clk - t0;
		/* The worker's CPU time not yet split goes with the queue's turns. */
		bl_worker_account(q->worker, q);
		/* end_ns and the statistics before finished, for job-get readers. */
		smp_store_release(&q->finished, true);
		/* After this the queue and its job may be freed at any time. */
		bl_job_queue_finished(job, q->reason);
		return true;
	}
	bl_queue_deadline(q, deadline);
	*clk = local_clock();
	q->turns += *clk - t0;
	return busy;
}

/* Whether a pass over @q has anything to do; the worker checks before sleeping. */
bool bl_queue_pending(struct bl_queue *q)
{
	return !llist_empty(&q->done) || (!q->stopping && READ_ONCE(q->job->stop)) ||
	       (q->vwait && !q->vpass && !atomic_read(&q->job->vpending));
}

/*
 * A copy of one queue's statistics (without histograms unless @hist). Each
 * field is exact; while the queue runs, fields may be from slightly
 * different moments (on 64-bit, u64_stats_sync orders nothing). The caller
 * reads q->finished and q->ramp_done (acquire) first.
 */
void bl_queue_read_stats(struct bl_queue *q, struct bl_op_stats *st, bool hist,
			 u64 *cpu_time, u64 *ctx, u64 *stall_max, u64 *depth_ns)
{
	unsigned int start, i;

	do {
		start = u64_stats_fetch_begin(&q->sync);
		for (i = 0; i < BL_NR_OPS; i++) {
			st[i].ios = q->st[i].ios;
			st[i].bytes = q->st[i].bytes;
			st[i].errors = q->st[i].errors;
			st[i].lat = q->st[i].lat;
			st[i].clat = q->st[i].clat;
			st[i].slat = q->st[i].slat;
			if (hist) {
				memcpy(st[i].hist, q->st[i].hist, sizeof(st[i].hist));
				memcpy(st[i].chist, q->st[i].chist, sizeof(st[i].chist));
			}
		}
		*cpu_time = q->cpu_time;
		*ctx = q->ctx;
		*stall_max = q->stall_max;
		memcpy(depth_ns, q->depth_ns, sizeof(q->depth_ns));
	} while (u64_stats_fetch_retry(&q->sync, start));
}

/* A copy of a queue's verify counters: checked, skipped, errors, read back. */
void bl_queue_read_verify(struct bl_queue *q, u64 *v)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&q->sync);
		v[0] = q->vchecked;
		v[1] = q->vskipped;
		v[2] = q->verrors;
		v[3] = q->vreadback;
	} while (u64_stats_fetch_retry(&q->sync, start));
}

/* A copy of a rate-limited queue's latencies from the scheduled time. */
void bl_queue_read_sched(struct bl_queue *q, struct bl_sched_stats *s, bool hist)
{
	unsigned int start, op;

	do {
		start = u64_stats_fetch_begin(&q->sync);
		for (op = 0; op < BL_NR_OPS; op++) {
			s->lat[op] = q->sched->lat[op];
			if (hist)
				memcpy(s->hist[op], q->sched->hist[op], sizeof(s->hist[op]));
		}
	} while (u64_stats_fetch_retry(&q->sync, start));
}

/* The stall going on now: IO in flight and no completion since progress_ns. */
u64 bl_queue_stall_now(const struct bl_queue *q, u64 now)
{
	u64 since = READ_ONCE(q->progress_ns);

	if (!READ_ONCE(q->inflight) || !since || now <= since)
		return 0;
	return now - since;
}

unsigned long bl_queue_inflight(const struct bl_queue *q)
{
	return READ_ONCE(q->inflight);
}

/* Samples the queue has written; the first is gone once it passes ring_nr. */
u64 bl_queue_samples(const struct bl_queue *q)
{
	/* Pairs with bl_queue_sample(): the samples before the count. */
	return smp_load_acquire(&q->nsamples);
}

/*
 * Copies sample @i (< bl_queue_samples()) into @s; false when the worker
 * has written over it, before or during the copy.
 */
bool bl_queue_sample_copy(const struct bl_queue *q, u64 i, struct bl_sample *s)
{
	u32 pos;

	div_u64_rem(i, q->ring_nr, &pos);
	/* The worker may be writing it: the check below tells. */
	data_race(memcpy(s, &q->ring[pos], sizeof(*s)));
	/* The copy before the check: sample i + ring_nr is written before its count. */
	smp_rmb();
	return READ_ONCE(q->nsamples) - i < q->ring_nr;
}
