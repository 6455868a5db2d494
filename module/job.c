// SPDX-License-Identifier: GPL-2.0
/*
 * blkload: jobs, their table and their lifetime.
 *
 * The table and the memory and job-count budgets are guarded by
 * bl_jobs_lock, which only the control plane takes. A job is referenced by
 * the table and by each control operation working on it; the last reference
 * frees it, which is only ever dropped once no IO of the job is in flight.
 * A job whose device does not answer stays in the table as "stopping" until
 * its IO completes, watched by a work item (which also frees it when it was
 * deleted or its owner went away); while such a work item waits, the module
 * holds a reference to itself so that rmmod fails with EBUSY instead of
 * waiting on a hung device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "blkload.h"

/* The job table, the job count and the pinned-memory total; control plane only. */
DEFINE_MUTEX(bl_jobs_lock);
static DEFINE_XARRAY_ALLOC1(bl_jobs);
static u32 bl_jobs_next;
static unsigned int bl_jobs_count;
static u64 bl_mem_used_bytes;
static struct workqueue_struct *bl_wq;

u64 bl_mem_used(void)
{
	u64 v;

	mutex_lock(&bl_jobs_lock);
	v = bl_mem_used_bytes;
	mutex_unlock(&bl_jobs_lock);
	return v;
}

unsigned int bl_nr_jobs(void)
{
	unsigned int n;

	mutex_lock(&bl_jobs_lock);
	n = bl_jobs_count;
	mutex_unlock(&bl_jobs_lock);
	return n;
}

static bool bl_writes(u32 rw)
{
	return rw != BLKLOAD_RW_READ && rw != BLKLOAD_RW_RANDREAD;
}

static bool bl_sequential(u32 rw)
{
	return rw == BLKLOAD_RW_READ || rw == BLKLOAD_RW_WRITE || rw == BLKLOAD_RW_RW;
}

/* Bytes of data pages a job with these parameters pins. */
static u64 bl_job_pins(const struct bl_params *p, unsigned int ncpus)
{
	return (u64)DIV_ROUND_UP(p->bs, PAGE_SIZE) * PAGE_SIZE * p->iodepth * ncpus;
}

static void bl_job_free(struct bl_job *job)
{
	unsigned int i;

	if (job->queues) {
		for (i = 0; i < job->nr_queues; i++)
			bl_queue_free(job->queues[i]);
		kfree(job->queues);
	}
	if (job->bdev.bdev)
		bl_bdev_close(&job->bdev);
	if (job->mem_pinned) {
		mutex_lock(&bl_jobs_lock);
		bl_mem_used_bytes -= job->mem_pinned;
		bl_jobs_count--;
		mutex_unlock(&bl_jobs_lock);
	}
	free_cpumask_var(job->cpus);
	kfree(job->path);
	kfree(job);
}

void bl_job_put(struct bl_job *job)
{
	if (refcount_dec_and_test(&job->ref))
		bl_job_free(job);
}

struct bl_job *bl_job_get(u32 id)
{
	struct bl_job *job;

	mutex_lock(&bl_jobs_lock);
	job = xa_load(&bl_jobs, id);
	if (job && !refcount_inc_not_zero(&job->ref))
		job = NULL;
	mutex_unlock(&bl_jobs_lock);
	return job;
}

/* The id of the first job after @after, or 0; for dumps. */
u32 bl_job_next_id(u32 after)
{
	unsigned long index = (unsigned long)after + 1;
	struct bl_job *job;

	mutex_lock(&bl_jobs_lock);
	job = xa_find(&bl_jobs, &index, U32_MAX, XA_PRESENT);
	mutex_unlock(&bl_jobs_lock);
	return job ? (u32)index : 0;
}

static int bl_open_error(int err, struct netlink_ext_ack *extack)
{
	switch (err) {
	case -ENOENT:
		NL_SET_ERR_MSG(extack, "device path does not exist");
		break;
	case -ENOTBLK:
		NL_SET_ERR_MSG(extack, "not a block device");
		break;
	case -EBUSY:
		NL_SET_ERR_MSG(extack,
			       "device is mounted or claimed by another holder; force writes anyway with force");
		break;
	case -EACCES:
	case -EROFS:
		NL_SET_ERR_MSG(extack, "device is read-only");
		break;
	case -ENXIO:
	case -ENODEV:
		NL_SET_ERR_MSG(extack, "no such device");
		break;
	default:
		NL_SET_ERR_MSG(extack, "cannot open the device");
	}
	return err;
}

/* Checks that need no device; fills defaults. */
static int bl_check_params(struct bl_params *p, const struct cpumask *cpus,
			   struct netlink_ext_ack *extack)
{
	if (bl_writes(p->rw) && !p->allow_write) {
		NL_SET_ERR_MSG(extack, "the workload writes: allow-write is required");
		return -EPERM;
	}
	if (p->bs % SECTOR_SIZE || p->bs > BLKLOAD_BS_MAX) {
		NL_SET_ERR_MSG(extack, "bs must be a multiple of 512 and at most 4 MiB");
		return -EINVAL;
	}
	if (p->iodepth > READ_ONCE(blkload_max_iodepth)) {
		NL_SET_ERR_MSG(extack, "iodepth is over the module's limit (max_iodepth)");
		return -ERANGE;
	}
	if (cpumask_empty(cpus)) {
		NL_SET_ERR_MSG(extack, "no CPU given");
		return -EINVAL;
	}
	if (!cpumask_subset(cpus, cpu_online_mask)) {
		NL_SET_ERR_MSG(extack, "a requested CPU is offline or does not exist");
		return -EINVAL;
	}
	if (!p->batch)
		p->batch = min(p->iodepth, BLKLOAD_BATCH_DEFAULT);
	p->batch = min(p->batch, p->iodepth);
	return 0;
}

/* Checks against the opened device; fills the region and the IO limit. */
static int bl_check_region(struct bl_job *job, struct netlink_ext_ack *extack)
{
	struct bl_params *p = &job->p;
	u64 blocks;

	if (p->bs % job->dev_lbs) {
		NL_SET_ERR_MSG(extack, "bs is not a multiple of the device's logical block size");
		return -EINVAL;
	}
	if (p->offset % job->dev_lbs) {
		NL_SET_ERR_MSG(extack,
			       "offset is not a multiple of the device's logical block size");
		return -EINVAL;
	}
	if (p->offset >= job->dev_size) {
		NL_SET_ERR_MSG(extack, "offset is past the end of the device");
		return -EINVAL;
	}
	if (!p->size)
		p->size = job->dev_size - p->offset;
	if (p->size > job->dev_size - p->offset) {
		NL_SET_ERR_MSG(extack, "the region (offset + size) is past the end of the device");
		return -EINVAL;
	}
	blocks = div_u64(p->size, p->bs);
	if (!blocks || (bl_sequential(p->rw) && blocks < job->nr_queues)) {
		NL_SET_ERR_MSG(extack,
			       "the region holds fewer blocks than needed (one per CPU for sequential IO)");
		return -EINVAL;
	}
	if (p->io_size) {
		u64 n = div_u64(p->io_size, p->bs);

		if (!n) {
			NL_SET_ERR_MSG(extack, "io_size is smaller than bs");
			return -EINVAL;
		}
		if (!p->number_ios || n < p->number_ios)
			p->number_ios = n;
	}
	/* Like fio: without a time or IO limit, one pass over the region. */
	if (!p->number_ios && !p->runtime_ns)
		p->number_ios = blocks;
	return 0;
}

struct bl_job *bl_job_create(const char *path, const struct bl_params *params,
			     const struct cpumask *cpus, u32 owner,
			     struct netlink_ext_ack *extack)
{
	struct bl_job *job;
	unsigned int i, cpu;
	u64 pins;
	int ret;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return ERR_PTR(-ENOMEM);
	refcount_set(&job->ref, 1);
	job->p = *params;
	init_waitqueue_head(&job->wq);
	atomic_set(&job->reason, BLKLOAD_REASON_NONE);
	job->state = BLKLOAD_STATE_CREATED;
	job->owner = params->detached ? 0 : owner;

	if (!zalloc_cpumask_var(&job->cpus, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto err_free;
	}
	cpumask_copy(job->cpus, cpus);
	job->nr_queues = cpumask_weight(cpus);
	ret = bl_check_params(&job->p, cpus, extack);
	if (ret)
		goto err_free;

	job->path = kstrdup(path, GFP_KERNEL);
	if (!job->path) {
		ret = -ENOMEM;
		goto err_free;
	}

	/* Writes claim the device unless forced; reads never do. */
	ret = bl_bdev_open(&job->bdev, path, bl_writes(job->p.rw),
			   bl_writes(job->p.rw) && !job->p.force ? job : NULL);
	if (ret) {
		job->bdev.bdev = NULL;
		bl_open_error(ret, extack);
		goto err_free;
	}
	job->dev_size = (u64)bl_bdev_nr_sectors(job->bdev.bdev) << SECTOR_SHIFT;
	job->dev_lbs = bdev_logical_block_size(job->bdev.bdev);
	ret = bl_check_region(job, extack);
	if (ret)
		goto err_free;

	/* Budgets: the job count and the pinned memory. */
	pins = bl_job_pins(&job->p, job->nr_queues);
	mutex_lock(&bl_jobs_lock);
	if (bl_jobs_count >= READ_ONCE(blkload_max_jobs)) {
		mutex_unlock(&bl_jobs_lock);
		NL_SET_ERR_MSG(extack, "too many jobs (max_jobs)");
		ret = -ENOSPC;
		goto err_free;
	}
	if (bl_mem_used_bytes + pins > blkload_mem_budget()) {
		mutex_unlock(&bl_jobs_lock);
		NL_SET_ERR_MSG(extack,
			       "iodepth x bs x CPUs would pin more memory than the module's budget (mem_budget_mb) allows");
		ret = -ENOMEM;
		goto err_free;
	}
	bl_mem_used_bytes += pins;
	bl_jobs_count++;
	job->mem_pinned = pins;
	ret = xa_alloc_cyclic(&bl_jobs, &job->id, NULL, xa_limit_32b, &bl_jobs_next, GFP_KERNEL);
	mutex_unlock(&bl_jobs_lock);
	if (ret < 0)
		goto err_free;

	job->queues = kcalloc(job->nr_queues, sizeof(*job->queues), GFP_KERNEL);
	if (!job->queues) {
		ret = -ENOMEM;
		goto err_erase;
	}
	i = 0;
	for_each_cpu(cpu, job->cpus) {
		ret = bl_queue_alloc(job, i++, cpu);
		if (ret) {
			if (ret == -ENOMEM)
				NL_SET_ERR_MSG(extack, "out of memory for the IO slots");
			goto err_erase;
		}
	}

	/* Visible to lookups only now that it is complete. */
	mutex_lock(&bl_jobs_lock);
	refcount_inc(&job->ref);	/* the table's */
	xa_store(&bl_jobs, job->id, job, GFP_KERNEL);
	mutex_unlock(&bl_jobs_lock);
	return job;

err_erase:
	mutex_lock(&bl_jobs_lock);
	xa_erase(&bl_jobs, job->id);
	mutex_unlock(&bl_jobs_lock);
err_free:
	bl_job_free(job);
	return ERR_PTR(ret);
}

int bl_job_start(struct bl_job **jobs, unsigned int n, struct netlink_ext_ack *extack)
{
	unsigned int i, j;
	u64 now;

	mutex_lock(&bl_jobs_lock);
	for (i = 0; i < n; i++) {
		if (jobs[i]->state != BLKLOAD_STATE_CREATED || jobs[i]->freeing) {
			mutex_unlock(&bl_jobs_lock);
			NL_SET_ERR_MSG(extack, "job already started");
			return -EALREADY;
		}
	}
	/* One start time for all: they report over the same interval. */
	now = ktime_get_ns();
	for (i = 0; i < n; i++) {
		struct bl_job *job = jobs[i];

		job->start_ns = now;
		atomic_set(&job->running, job->nr_queues);
		WRITE_ONCE(job->state, BLKLOAD_STATE_RUNNING);
		smp_wmb();	/* start_ns and running before started */
		WRITE_ONCE(job->started, true);
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < jobs[i]->nr_queues; j++)
			wake_up_process(jobs[i]->queues[j]->task);
	mutex_unlock(&bl_jobs_lock);
	return 0;
}

/* Called by the last queue thread to finish. */
void bl_job_finished(struct bl_job *job)
{
	xchg(&job->state, BLKLOAD_STATE_DONE);
	bl_nl_notify_done(job);
}

static void bl_job_signal_stop(struct bl_job *job, u32 reason)
{
	unsigned int i;

	atomic_cmpxchg(&job->reason, BLKLOAD_REASON_NONE, reason);
	WRITE_ONCE(job->stop, true);
	cmpxchg(&job->state, BLKLOAD_STATE_RUNNING, BLKLOAD_STATE_STOPPING);
	for (i = 0; i < job->nr_queues; i++)
		wake_up_process(job->queues[i]->task);
}

static unsigned long bl_job_inflight(struct bl_job *job)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < job->nr_queues; i++)
		n += bl_queue_inflight(job->queues[i]);
	return n;
}

static bool bl_job_drained(struct bl_job *job)
{
	return !atomic_read(&job->running);
}

static void bl_job_unlink(struct bl_job *job)
{
	mutex_lock(&bl_jobs_lock);
	xa_erase(&bl_jobs, job->id);
	mutex_unlock(&bl_jobs_lock);
	bl_job_put(job);	/* the table's */
}

/* Waits, however long it takes, for a stopped job's IO; frees it if asked. */
static void bl_job_watch_work(struct work_struct *work)
{
	struct bl_job *job = container_of(work, struct bl_job, watch_work);
	bool unlink;

	while (!wait_event_timeout(job->wq, bl_job_drained(job), 10 * HZ))
		pr_warn("job %u: still waiting for %lu IOs on %s\n", job->id,
			bl_job_inflight(job), job->path);
	mutex_lock(&bl_jobs_lock);
	unlink = job->freeing;
	mutex_unlock(&bl_jobs_lock);
	if (unlink)
		bl_job_unlink(job);
	bl_job_put(job);	/* the work's */
	module_put(THIS_MODULE);
}

/*
 * A stopped job whose IO is still out: a work item waits for it and, when
 * @free, frees the job then. Until then the module holds a reference to
 * itself, so that rmmod fails with EBUSY instead of waiting on the device.
 */
static void bl_job_watch(struct bl_job *job, bool free)
{
	bool queue;

	mutex_lock(&bl_jobs_lock);
	if (free)
		job->freeing = true;
	queue = !job->watched;
	job->watched = true;
	mutex_unlock(&bl_jobs_lock);
	if (!queue)
		return;
	refcount_inc(&job->ref);	/* the work's */
	__module_get(THIS_MODULE);
	INIT_WORK(&job->watch_work, bl_job_watch_work);
	queue_work(bl_wq, &job->watch_work);
}

int bl_job_stop(struct bl_job *job, unsigned int timeout_ms, struct netlink_ext_ack *extack)
{
	bl_job_signal_stop(job, BLKLOAD_REASON_STOPPED);
	if (!wait_event_timeout(job->wq, bl_job_drained(job), msecs_to_jiffies(timeout_ms))) {
		pr_warn("job %u: %lu IOs still in flight on %s after %u ms\n", job->id,
			bl_job_inflight(job), job->path, timeout_ms);
		NL_SET_ERR_MSG(extack,
			       "the device did not complete the job's in-flight IO in time; the job stays until it does");
		bl_job_watch(job, false);
		return -ETIMEDOUT;
	}
	return 0;
}

int bl_job_del(struct bl_job *job, unsigned int timeout_ms, struct netlink_ext_ack *extack)
{
	bool mine;
	int ret;

	ret = bl_job_stop(job, timeout_ms, extack);
	if (ret) {
		bl_job_watch(job, true);
		return ret;
	}
	mutex_lock(&bl_jobs_lock);
	mine = !job->freeing;
	job->freeing = true;
	mutex_unlock(&bl_jobs_lock);
	if (mine)
		bl_job_unlink(job);
	return 0;
}

/* The netlink socket @portid closed: stop and free the jobs it owned. */
void bl_jobs_owner_gone(u32 portid)
{
	struct bl_job *job, *batch[16];
	unsigned long index;
	unsigned int n, i;

	do {
		n = 0;
		mutex_lock(&bl_jobs_lock);
		xa_for_each(&bl_jobs, index, job) {
			if (job->owner != portid || job->freeing)
				continue;
			if (!refcount_inc_not_zero(&job->ref))
				continue;
			job->owner = 0;
			batch[n++] = job;
			if (n == ARRAY_SIZE(batch))
				break;
		}
		mutex_unlock(&bl_jobs_lock);
		for (i = 0; i < n; i++) {
			bl_job_signal_stop(batch[i], BLKLOAD_REASON_OWNER_GONE);
			bl_job_watch(batch[i], true);
			bl_job_put(batch[i]);
		}
	} while (n == ARRAY_SIZE(batch));
}

int bl_jobs_init(void)
{
	bl_wq = alloc_workqueue("blkload", WQ_UNBOUND, 0);
	return bl_wq ? 0 : -ENOMEM;
}

/* Module exit: every job stops, drains and is freed. */
void bl_jobs_exit(void)
{
	struct bl_job *job;
	unsigned long index;

	/* Watch works hold module references: none can be left. */
	destroy_workqueue(bl_wq);
	mutex_lock(&bl_jobs_lock);
	xa_for_each(&bl_jobs, index, job)
		bl_job_signal_stop(job, BLKLOAD_REASON_STOPPED);
	mutex_unlock(&bl_jobs_lock);
	for (;;) {
		index = 0;
		mutex_lock(&bl_jobs_lock);
		job = xa_find(&bl_jobs, &index, U32_MAX, XA_PRESENT);
		mutex_unlock(&bl_jobs_lock);
		if (!job)
			break;
		while (!wait_event_timeout(job->wq, bl_job_drained(job), 10 * HZ))
			pr_warn("unloading: job %u still waits for %lu IOs on %s\n", job->id,
				bl_job_inflight(job), job->path);
		bl_job_unlink(job);
	}
	xa_destroy(&bl_jobs);
}
