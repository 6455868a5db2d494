// SPDX-License-Identifier: GPL-2.0
/*
 * blkload: the per-CPU IO engine.
 *
 * One kthread per (job, CPU) owns iodepth slots. It pops idle slots, fills
 * their bios from the shared offset generator and submits them in batches
 * under a plug; bi_end_io, in whatever context the driver completes in, only
 * stamps the slot and pushes it onto the queue's lock-free done list. The
 * thread reaps that list, records statistics (it is their only writer) and
 * resubmits. Nothing on this path allocates, takes a lock shared with other
 * queues, or sleeps other than waiting for completions.
 *
 * Latency of an IO runs from the start of its batch (one clock read just
 * before the first submit_bio() of the batch) to its bi_end_io(). Bios of
 * one batch wait in the plug until the batch is flushed, so the preparation
 * and submission of up to batch - 1 other bios are inside every IO's
 * latency; the batch is bounded by the "batch" parameter (default
 * min(iodepth, 16)) and the documentation says so. With batch 1 the start
 * is just before the IO's own submit_bio().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#include "blkload.h"

static void bl_end_io(struct bio *bio)
{
	struct bl_slot *slot = bio->bi_private;
	struct bl_queue *q = slot->q;
	struct task_struct *task = q->task;

	if (!q->job->p.no_lat)
		slot->done_ns = ktime_get_ns();
	slot->status = bio->bi_status;
	/*
	 * Once the slot is on the list the queue may drain, finish and be
	 * freed: only @task is used after llist_add(), and the RCU read side
	 * keeps its task_struct from being freed until the wakeup is done.
	 * The first completion onto an empty list wakes the queue thread,
	 * unless it completes inline in that thread's own submission (an
	 * interrupt that happens to land on it must still wake it: it may be
	 * about to sleep).
	 */
	rcu_read_lock();
	if (llist_add(&slot->node, &q->done) && (task != current || !in_task()))
		wake_up_process(task);
	rcu_read_unlock();
}

static void bl_slot_free(struct bl_slot *slot)
{
	unsigned int i;

	if (!slot)
		return;
	bio_uninit(&slot->bio);
	for (i = 0; i < slot->nr_pages; i++)
		if (slot->bvecs[i].bv_page)
			__free_page(slot->bvecs[i].bv_page);
	kfree(slot);
}

static struct bl_slot *bl_slot_alloc(struct bl_queue *q, int node)
{
	struct bl_job *job = q->job;
	unsigned int nr = DIV_ROUND_UP(job->p.bs, PAGE_SIZE), i, left = job->p.bs;
	struct bl_slot *slot;

	slot = kzalloc_node(struct_size(slot, bvecs, nr), GFP_KERNEL, node);
	if (!slot)
		return NULL;
	slot->q = q;
	for (i = 0; i < nr; i++) {
		struct page *page = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO, 0);

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

static int bl_queue_fn(void *data);

int bl_queue_alloc(struct bl_job *job, unsigned int index, unsigned int cpu)
{
	int node = cpu_to_node(cpu);
	bool random = job->p.rw == BLKLOAD_RW_RANDREAD || job->p.rw == BLKLOAD_RW_RANDWRITE ||
		      job->p.rw == BLKLOAD_RW_RANDRW;
	u32 mix;
	struct bl_queue *q;
	unsigned int i;
	int ret = -ENOMEM;

	switch (job->p.rw) {
	case BLKLOAD_RW_READ:
	case BLKLOAD_RW_RANDREAD:
		mix = 100;
		break;
	case BLKLOAD_RW_WRITE:
	case BLKLOAD_RW_RANDWRITE:
		mix = 0;
		break;
	default:
		mix = job->p.rwmixread;
	}

	q = kzalloc_node(sizeof(*q), GFP_KERNEL, node);
	if (!q)
		return -ENOMEM;
	job->queues[index] = q;
	q->job = job;
	q->cpu = cpu;
	q->index = index;
	init_llist_head(&q->done);
	u64_stats_init(&q->sync);
	for (i = 0; i < BL_NR_OPS; i++)
		q->st[i].lat_min = U64_MAX;
	if (!bl_gen_init(&q->gen, job->p.randseed, index, job->nr_queues, random, mix,
			 job->p.offset, job->p.size, job->p.bs))
		return -EINVAL;
	q->limit = U64_MAX;
	if (job->p.number_ios) {
		/* An exact share: the job issues number_ios in all. */
		u64 share = job->p.number_ios;
		u32 rem = do_div(share, job->nr_queues);

		q->limit = share + (index < rem ? 1 : 0);
	}

	q->slots = kcalloc_node(job->p.iodepth, sizeof(*q->slots), GFP_KERNEL, node);
	q->free = kcalloc_node(job->p.iodepth, sizeof(*q->free), GFP_KERNEL, node);
	if (!q->slots || !q->free)
		return -ENOMEM;
	for (i = 0; i < job->p.iodepth; i++) {
		q->slots[i] = bl_slot_alloc(q, node);
		if (!q->slots[i])
			return -ENOMEM;
		q->free[q->nr_free++] = q->slots[i];
	}

	q->task = kthread_create_on_node(bl_queue_fn, q, node, "blkload/%u:%u", job->id, cpu);
	if (IS_ERR(q->task)) {
		ret = PTR_ERR(q->task);
		q->task = NULL;
		return ret;
	}
	kthread_bind(q->task, cpu);
	wake_up_process(q->task);	/* it waits for the start */
	return 0;
}

/* Only after the thread is stopped and nothing is in flight. */
void bl_queue_free(struct bl_queue *q)
{
	unsigned int i;

	if (!q)
		return;
	if (q->task)
		kthread_stop(q->task);
	if (q->slots)
		for (i = 0; i < q->job->p.iodepth; i++)
			bl_slot_free(q->slots[i]);
	kfree(q->slots);
	kfree(q->free);
	kfree(q);
}

static void bl_queue_reset_stats(struct bl_queue *q)
{
	unsigned int i;

	u64_stats_update_begin(&q->sync);
	for (i = 0; i < BL_NR_OPS; i++) {
		memset(&q->st[i], 0, sizeof(q->st[i]));
		q->st[i].lat_min = U64_MAX;
	}
	u64_stats_update_end(&q->sync);
}

static void bl_account(struct bl_queue *q, struct bl_slot *slot)
{
	struct bl_op_stats *st = &q->st[slot->read ? BL_READ : BL_WRITE];
	struct bl_job *job = q->job;

	if (slot->status) {
		int err = blk_status_to_errno(slot->status);

		atomic_cmpxchg(&job->error, 0, err);
		atomic_cmpxchg(&job->reason, BLKLOAD_REASON_NONE, BLKLOAD_REASON_ERROR);
		WRITE_ONCE(job->stop, true);
	}
	if (!slot->counted)
		return;

	u64_stats_update_begin(&q->sync);
	if (slot->status) {
		st->errors++;
	} else {
		st->ios++;
		st->bytes += job->p.bs;
		if (!job->p.no_lat) {
			/* Clocks of two CPUs are never trusted to be ordered. */
			u64 lat = slot->done_ns > slot->submit_ns ?
				  slot->done_ns - slot->submit_ns : 0;

			if (lat < st->lat_min)
				st->lat_min = lat;
			if (lat > st->lat_max)
				st->lat_max = lat;
			st->lat_sum += lat;
			st->hist[bl_hist_idx(lat)]++;
		}
	}
	u64_stats_update_end(&q->sync);
}

/* Each written sector carries a header naming what was written where. */
static void bl_stamp(struct bl_slot *slot, u64 off)
{
	unsigned int i, s;

	for (i = 0; i < slot->nr_pages; i++) {
		struct bio_vec *bv = &slot->bvecs[i];
		u8 *p = kmap_local_page(bv->bv_page);

		for (s = 0; s < bv->bv_len; s += SECTOR_SIZE, off += SECTOR_SIZE) {
			__le64 *h = (__le64 *)(p + s);

			h[0] = cpu_to_le64(BLKLOAD_SECTOR_MAGIC);
			h[1] = cpu_to_le64(off);
		}
		kunmap_local(p);
	}
}

static void bl_prep(struct bl_queue *q, struct bl_slot *slot)
{
	struct bl_job *job = q->job;
	struct bio *bio = &slot->bio;
	u64 off;
	unsigned int i;

	slot->read = bl_gen_next(&q->gen, &off);
	if (!slot->read)
		bl_stamp(slot, off);
	/* bio_reset() keeps bi_io_vec and bi_max_vecs; the pages are re-added. */
	bl_bio_reset(bio, job->bdev.bdev, slot->read ? REQ_OP_READ : REQ_OP_WRITE);
	bio->bi_iter.bi_sector = off >> SECTOR_SHIFT;
	for (i = 0; i < slot->nr_pages; i++)
		__bio_add_page(bio, slot->bvecs[i].bv_page, slot->bvecs[i].bv_len, 0);
	bio->bi_end_io = bl_end_io;
	bio->bi_private = slot;
}

static void bl_finish(struct bl_queue *q, u32 reason)
{
	atomic_cmpxchg(&q->job->reason, BLKLOAD_REASON_NONE, reason);
}

static void bl_queue_run(struct bl_queue *q)
{
	struct bl_job *job = q->job;
	u64 ramp_end = job->start_ns + job->p.ramp_ns;
	u64 end = job->p.runtime_ns ? ramp_end + job->p.runtime_ns : 0;
	bool stopping = false;
	struct blk_plug plug;

	q->ramp_done = !job->p.ramp_ns;
	q->cpu_start = current->se.sum_exec_runtime;

	for (;;) {
		struct llist_node *done = llist_del_all(&q->done);
		struct bl_slot *slot, *tmp;
		u64 now;

		llist_for_each_entry_safe(slot, tmp, done, node) {
			bl_account(q, slot);
			q->inflight--;
			q->free[q->nr_free++] = slot;
		}

		now = ktime_get_ns();
		if (!q->ramp_done && now >= ramp_end) {
			bl_queue_reset_stats(q);
			q->cpu_start = current->se.sum_exec_runtime;
			WRITE_ONCE(q->ramp_done, true);
		}
		if (!stopping) {
			if (READ_ONCE(job->stop)) {
				stopping = true;
				bl_finish(q, BLKLOAD_REASON_STOPPED);
			} else if (end && now >= end) {
				stopping = true;
				bl_finish(q, BLKLOAD_REASON_RUNTIME);
			} else if (q->issued >= q->limit && q->ramp_done) {
				stopping = true;
				bl_finish(q, BLKLOAD_REASON_LIMIT);
			}
		}

		if (!stopping && q->nr_free) {
			unsigned int n = min(q->nr_free, job->p.batch);
			u64 t;

			if (q->ramp_done)
				n = min_t(u64, n, q->limit - q->issued);
			/* One start time for the batch: see the top of this file. */
			t = job->p.no_lat ? 0 : ktime_get_ns();
			bl_start_plug(&plug, n);
			while (n--) {
				slot = q->free[--q->nr_free];
				bl_prep(q, slot);
				slot->counted = q->ramp_done;
				if (slot->counted)
					q->issued++;
				q->inflight++;
				slot->submit_ns = t;
				submit_bio(&slot->bio);
			}
			blk_finish_plug(&plug);
			/* Drivers that complete inline never let this thread sleep. */
			cond_resched();
			continue;
		}

		if (stopping && !q->inflight)
			break;

		set_current_state(TASK_INTERRUPTIBLE);
		if (llist_empty(&q->done) && !(READ_ONCE(job->stop) && !stopping)) {
			long timeout = MAX_SCHEDULE_TIMEOUT;
			u64 next = !q->ramp_done ? ramp_end : end;

			if (!stopping && next) {
				now = ktime_get_ns();
				timeout = next > now ? nsecs_to_jiffies(next - now) + 1 : 0;
			}
			schedule_timeout(timeout);
		}
		__set_current_state(TASK_RUNNING);
	}

	q->cpu_end = current->se.sum_exec_runtime;
	q->end_ns = ktime_get_ns();
}

static int bl_queue_fn(void *data)
{
	struct bl_queue *q = data;
	struct bl_job *job = q->job;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (READ_ONCE(job->started) || kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);

	if (READ_ONCE(job->started)) {
		bl_queue_run(q);
		/* end_ns and cpu_end before finished, for job-get readers. */
		smp_store_release(&q->finished, true);
		if (atomic_dec_and_test(&job->running))
			bl_job_finished(job);
		wake_up_all(&job->wq);
	}

	/* The thread lives until the job is freed (kthread_stop). */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* A consistent copy of one queue's statistics (without histograms unless @hist). */
void bl_queue_read_stats(struct bl_queue *q, struct bl_op_stats *st, bool hist)
{
	unsigned int start, i;

	do {
		start = u64_stats_fetch_begin(&q->sync);
		for (i = 0; i < BL_NR_OPS; i++) {
			st[i].ios = q->st[i].ios;
			st[i].bytes = q->st[i].bytes;
			st[i].errors = q->st[i].errors;
			st[i].lat_min = q->st[i].lat_min;
			st[i].lat_max = q->st[i].lat_max;
			st[i].lat_sum = q->st[i].lat_sum;
			if (hist)
				memcpy(st[i].hist, q->st[i].hist, sizeof(st[i].hist));
		}
	} while (u64_stats_fetch_retry(&q->sync, start));
}

unsigned long bl_queue_inflight(const struct bl_queue *q)
{
	return READ_ONCE(q->inflight);
}

u64 bl_queue_cpu_time(const struct bl_queue *q)
{
	u64 end;

	if (!READ_ONCE(q->ramp_done))
		return 0;
	/* Pairs with the release in bl_queue_fn(): cpu_end is set. */
	end = smp_load_acquire(&q->finished) ? q->cpu_end :
	      READ_ONCE(q->task->se.sum_exec_runtime);
	return end - READ_ONCE(q->cpu_start);
}
