// SPDX-License-Identifier: GPL-2.0
/*
 * blkload: a queue's memory, made when its job is made.
 *
 * A queue is one job's share of one CPU: iodepth slots, each a bio with its
 * data pages, and the rest the hot path needs, allocated here on the CPU's
 * node, charged to the caller's memory cgroup, so that nothing on the IO
 * path allocates. Its queue machine (queue.h) is set up here too, and
 * started when the job starts.
 */
#include <linux/slab.h>

#include "blkload.h"

static void bl_slot_free(struct bl_slot *slot)
{
	unsigned int i;

	if (!slot)
		return;
	bio_uninit(&slot->bio);
	kvfree(slot->io.vsnap);
	for (i = 0; i < slot->nr_pages; i++)
		if (slot->bvecs[i].bv_page)
			__free_page(slot->bvecs[i].bv_page);
	kfree(slot);
}

/* Pages of a slot: none where every IO is a trim. */
static unsigned int bl_slot_pages(const struct bl_params *p)
{
	if (!bl_params_has_data(p))
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
	       (bl_params_paced(p) ? sizeof(struct bl_sched_stats) : 0);
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
	if (job->core.vmap) {
		slot->io.vsnap = kvzalloc_node(array_size(job->p.bs_max / job->p.bs, sizeof(u32)),
					       GFP_KERNEL_ACCOUNT, node);
		if (!slot->io.vsnap) {
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
 * bl_queue_free(); -EINVAL when the region cannot be split over the queues.
 */
int bl_queue_alloc(struct bl_job *job, unsigned int index, unsigned int cpu)
{
	int node = cpu_to_node(cpu);
	struct bl_sched_stats *sched = NULL;
	struct bl_queue *q;
	unsigned int i;

	q = kvzalloc_node(sizeof(*q), GFP_KERNEL_ACCOUNT, node);
	if (!q)
		return -ENOMEM;
	job->queues[index] = q;
	q->job = job;
	q->cpu = cpu;
	q->nowait = job->nowait;
	q->polled = job->p.req & BLKLOAD_REQ_HIPRI;
	init_llist_head(&q->done);
	INIT_LIST_HEAD(&q->node);
	if (bl_params_paced(&job->p)) {
		sched = kvzalloc_node(sizeof(*sched), GFP_KERNEL_ACCOUNT, node);
		if (!sched)
			return -ENOMEM;
	}
	/* On failure sched is the queue machine's, freed with the queue. */
	if (!bl_q_init(&q->q, &job->core, index, sched, &bl_queue_sink))
		return -EINVAL;
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
	kvfree(q->q.sched);
	kvfree(q);
}

/* Before the queue is handed to its worker; job->start_ns is set. */
void bl_queue_start(struct bl_queue *q)
{
	bl_q_start(&q->q, q->job->start_ns);
}
