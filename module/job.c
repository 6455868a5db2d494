// SPDX-License-Identifier: GPL-2.0
/*
 * blkload: jobs, their table and their lifetime.
 *
 * The table, the job count, the memory budget, each job's control state and
 * the workers' table are guarded by bl_jobs_lock, which only the control
 * plane takes (never a worker, never the IO path). No control operation
 * waits for IO: stop and delete set flags, kick the workers and return.
 *
 * A job's life: created (queues allocated, workers named) -> running (its
 * queues are with their workers) -> stopping (asked to end, IO draining) ->
 * done (every queue finished). The last queue to finish queues the job's
 * done work, which marks it done, sends the job-done event, and frees it if
 * it was deleted meanwhile. A job leaves the table in exactly one place,
 * bl_job_unlink_locked(), once it is deleted and not running.
 *
 * References: the table holds one while the job is linked, each control
 * operation holds one while it works on the job, and the run holds one (and
 * a module reference) from the start until the done work ends. So a job is
 * only freed when no IO of it is in flight, and rmmod is refused while any
 * of our bios may still complete.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>

#include <net/sock.h>

#include "blkload.h"

/* The control plane's one lock: see the top of this file. */
DEFINE_MUTEX(bl_jobs_lock);
static DEFINE_XARRAY_ALLOC1(bl_jobs);
static u32 bl_jobs_next;
static unsigned int bl_jobs_count;
static u64 bl_mem_used_bytes;
static struct workqueue_struct *bl_wq;

void bl_jobs_info(u64 *mem_used, unsigned int *nr_jobs, unsigned int *nr_workers)
{
	mutex_lock(&bl_jobs_lock);
	*mem_used = bl_mem_used_bytes;
	*nr_jobs = bl_jobs_count;
	mutex_unlock(&bl_jobs_lock);
	*nr_workers = bl_nr_workers();
}

static u64 bl_pool_size(const struct bl_params *p)
{
	return bl_params_fills(p) ? bl_fill_pool_size(p->bs_max) : 0;
}

/*
 * Makes and fills the job's pool, a piece at a time: under emulation the
 * 4 MiB take a while, and the caller may be asked to reschedule.
 */
static int bl_pool_alloc(struct bl_job *job)
{
	u64 size = bl_pool_size(&job->p), at, piece = 64 << 10;

	if (!size)
		return 0;
	job->pool = __vmalloc(size, GFP_KERNEL_ACCOUNT);
	if (!job->pool)
		return -ENOMEM;
	job->core.pool = job->pool;
	for (at = 0; at < size; at += piece) {
		bl_fill_pool(job->pool + at, at, min(piece, size - at),
			     bl_params_fill_seed(&job->p), job->p.buf_compress);
		cond_resched();
	}
	return 0;
}

/* Drops the job's workers, with bl_jobs_lock held; those to stop go on @stop. */
static void bl_job_put_workers(struct bl_job *job, struct list_head *stop)
{
	struct bl_worker *w;
	unsigned int i;

	for (i = 0; job->queues && i < job->nr_queues; i++) {
		if (!job->queues[i])
			continue;
		w = bl_worker_put(job->queues[i]->worker);
		job->queues[i]->worker = NULL;
		if (w)
			list_add(&w->stop_node, stop);
	}
}

/* Stops the workers that bl_job_put_workers() listed, once unlocked. */
static void bl_workers_stop(struct list_head *stop)
{
	struct bl_worker *w, *tmp;

	list_for_each_entry_safe(w, tmp, stop, stop_node)
		bl_worker_stop(w);
}

/*
 * Closes the job's device, and gives up its share of the write claim after,
 * under bl_jobs_lock: until then a job of the same owner may still join it
 * (bl_job_claim()), so that the next wave's job on the device gets the
 * claim this one may still hold.
 */
static void bl_job_close_bdev(struct bl_job *job)
{
	struct bl_claim *claim;
	bool last = false;

	if (job->bdev.bdev)
		bl_bdev_close(&job->bdev);
	mutex_lock(&bl_jobs_lock);
	claim = job->claim;
	job->claim = NULL;
	if (claim)
		last = refcount_dec_and_test(&claim->ref);
	mutex_unlock(&bl_jobs_lock);
	if (last)
		kfree(claim);
}

/*
 * The holder for a writing job's claim on @path: that of a job the same
 * socket made on the same path whose claim is not given up yet (fio's jobs
 * on one file are one user's load; a closing one's may still hold the
 * device), or a new one. Only jobs with an owner share; another process's
 * jobs stay kept out by the claim.
 */
static int bl_job_claim(struct bl_job *job, const char *path)
{
	struct bl_claim *fresh = kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
	unsigned long idx;
	struct bl_job *j;

	if (!fresh)
		return -ENOMEM;
	refcount_set(&fresh->ref, 1);
	mutex_lock(&bl_jobs_lock);
	xa_for_each(&bl_jobs, idx, j) {
		if (!job->owner.sk || j == job || !j->claim || j->owner.sk != job->owner.sk ||
		    strcmp(j->path, path))
			continue;
		refcount_inc(&j->claim->ref);
		job->claim = j->claim;
		break;
	}
	mutex_unlock(&bl_jobs_lock);
	if (job->claim)
		kfree(fresh);
	else
		job->claim = fresh;
	return 0;
}

/* Only without bl_jobs_lock, and only once no IO of the job is in flight. */
static void bl_job_free(struct bl_job *job)
{
	LIST_HEAD(stop);
	unsigned int i;

	mutex_lock(&bl_jobs_lock);
	job->bdev_gone = true;	/* bl_job_others_open() counts it no more */
	bl_job_put_workers(job, &stop);
	if (job->counted) {
		bl_mem_used_bytes -= job->mem_pinned;
		bl_jobs_count--;
	}
	mutex_unlock(&bl_jobs_lock);
	bl_workers_stop(&stop);
	/* The pages go without the lock: a job may hold a lot of them. */
	for (i = 0; job->queues && i < job->nr_queues; i++)
		bl_queue_free(job->queues[i]);
	kfree(job->queues);
	vfree(job->pool);
	kvfree(job->core.vmap);
	bl_job_close_bdev(job);
	if (job->owner.sk)
		sock_put(job->owner.sk);
	free_cpumask_var(job->cpus);
	kfree(job->path);
	kfree(job);
}

/*
 * A job that is done gives back what only a run needs: its slots and their
 * pages, its workers and the device (a write claim included). Its
 * statistics stay for job-get until it is deleted.
 */
static void bl_job_release(struct bl_job *job)
{
	u64 keep = (u64)job->nr_queues * bl_queue_keep(&job->p) + sizeof(*job);
	LIST_HEAD(stop);
	unsigned int i;

	mutex_lock(&bl_jobs_lock);
	if (job->released) {
		mutex_unlock(&bl_jobs_lock);
		return;
	}
	job->released = true;
	job->bdev_gone = true;
	bl_job_put_workers(job, &stop);
	if (job->counted && job->mem_pinned > keep) {
		bl_mem_used_bytes -= job->mem_pinned - keep;
		job->mem_pinned = keep;
	}
	mutex_unlock(&bl_jobs_lock);
	bl_workers_stop(&stop);
	for (i = 0; i < job->nr_queues; i++)
		bl_queue_release(job->queues[i]);
	job->core.pool = NULL;
	vfree(job->pool);
	job->pool = NULL;
	kvfree(job->core.vmap);
	job->core.vmap = NULL;
	bl_job_close_bdev(job);
}

/* Never with bl_jobs_lock held: the last reference frees the job. */
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

	if (after == U32_MAX)
		return 0;
	mutex_lock(&bl_jobs_lock);
	job = xa_find(&bl_jobs, &index, U32_MAX, XA_PRESENT);
	mutex_unlock(&bl_jobs_lock);
	return job ? (u32)index : 0;
}

static bool bl_job_active(const struct bl_job *job)
{
	return job->state == BLKLOAD_STATE_RUNNING || job->state == BLKLOAD_STATE_STOPPING;
}

/*
 * The one place a job leaves the table: once it is deleted and no IO of it
 * can be in flight. Returns true when the caller must drop the table's
 * reference (after unlocking).
 */
static bool bl_job_unlink_locked(struct bl_job *job)
{
	lockdep_assert_held(&bl_jobs_lock);
	if (!job->linked || !job->deleted || bl_job_active(job))
		return false;
	xa_erase(&bl_jobs, job->id);
	job->linked = false;
	return true;
}

/* Tickets of device opens and open counts, in order (bl_job_others_open()). */
static atomic64_t bl_open_seq = ATOMIC64_INIT(0);

/*
 * Whether anyone but blkload has the job's device open (compat.h): its
 * other jobs on the same device are the user's own load, as fio's jobs on
 * one file are. The device's count is taken without bl_jobs_lock (the
 * hotplug lock nests outside that one, and a driver's open may take it
 * under open_mutex). Subtracted are only the jobs that opened before the
 * count began (an earlier ticket) and had not begun to close when the table
 * was read (bdev_gone is set under bl_jobs_lock before a job closes): each
 * of them is in the device's count. Any other order counts a blkload job
 * as a stranger (a refusal, which the CLI retries), never a stranger as a
 * job.
 */
static bool bl_job_others_open(struct bl_job *job)
{
	struct block_device *b = job->bdev.bdev;
	s64 ticket = atomic64_inc_return(&bl_open_seq);
	unsigned long idx;
	struct bl_job *j;
	int others;

	others = bl_bdev_other_openers(b);
	mutex_lock(&bl_jobs_lock);
	xa_for_each(&bl_jobs, idx, j)
		if (j != job && !j->bdev_gone && j->open_seq && j->open_seq < ticket &&
		    j->bdev.bdev == b)
			others--;
	mutex_unlock(&bl_jobs_lock);
	return others > 0;
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

/* Checks that need no device (params.h, and the CPUs); fills defaults. */
static int bl_check_params(struct bl_params *p, const struct cpumask *cpus,
			   struct netlink_ext_ack *extack)
{
	struct bl_params_limits lim = {
		.iodepth_max = READ_ONCE(blkload_max_iodepth),
		.bs_max = BL_BS_MAX,
		.iodepth_no = "iodepth is over the module's limit (max_iodepth)",
	};
	const char *why = NULL;
	int ret;

	ret = bl_params_check(p, cpumask_weight(cpus), &lim, &why);
	if (ret)
		return bl_extack_why(extack, ret, why);
	/* Early, before allocating on their nodes; bl_job_link() checks again. */
	if (!cpumask_subset(cpus, cpu_online_mask)) {
		NL_SET_ERR_MSG(extack, "a requested CPU is offline or does not exist");
		return -EINVAL;
	}
	return 0;
}

/* Checks against the opened device; fills the region and the IO limit. */
static int bl_check_region(struct bl_job *job, struct netlink_ext_ack *extack)
{
	struct bl_params *p = &job->p;
	const char *why = NULL;
	struct bl_dist *d;
	int ret;

	ret = bl_params_region(p, job->dev_size, job->dev_lbs, job->nr_queues, &why);
	if (ret)
		return bl_extack_why(extack, ret, why);
	if (p->dist == BLKLOAD_DIST_RANDOM)
		return 0;
	d = kmalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	ret = bl_params_dist_init(p, d, bl_params_units(p), &why);
	kfree(d);
	return ret ? bl_extack_why(extack, ret, why) : 0;
}

/*
 * Whether the job's bios go with REQ_NOWAIT: the device must take it, and
 * no bio may need a split (a REQ_NOWAIT bio that needs one always fails).
 */
static bool bl_job_nowait(struct bl_job *job)
{
	struct block_device *bdev = job->bdev.bdev;
	struct request_queue *rq = bdev_get_queue(bdev);
	u64 abs = ((u64)get_start_sect(bdev) << SECTOR_SHIFT) + job->p.offset;
	u32 bs = job->p.bs, pbs = bdev_physical_block_size(bdev), big = job->p.bs_max;
	u32 max = queue_max_sectors(rq) << SECTOR_SHIFT;
	u32 chunk = rq->limits.chunk_sectors << SECTOR_SHIFT;

	if (!bdev_nowait(bdev))
		return false;
	/* Sizes of a split differ: any may cross a chunk boundary. */
	if (chunk && big != bs)
		return false;
	/*
	 * The size limit ends on a physical block boundary counted from the
	 * bio's start: aligned bios may fill it, others must stay a physical
	 * block short of it.
	 */
	if (!(abs % pbs) && !(bs % pbs) ? big > rounddown(max, pbs) : (u64)big + pbs > max)
		return false;
	if (DIV_ROUND_UP(big, PAGE_SIZE) > queue_max_segments(rq) ||
	    (big > PAGE_SIZE && queue_max_segment_size(rq) < PAGE_SIZE))
		return false;
	/* Offsets are bs-aligned from the region's start: none may cross a chunk. */
	if (chunk && (chunk % bs || do_div(abs, chunk) % bs))
		return false;
	return true;
}

/* The request flavours and trims the device must take. */
static int bl_check_device(struct bl_job *job, struct netlink_ext_ack *extack)
{
	struct block_device *bdev = job->bdev.bdev;
	u32 req = job->p.req;

	if (bl_params_trims(&job->p) && !bl_bdev_can_discard(bdev)) {
		NL_SET_ERR_MSG(extack, "the device does not support discard (trim)");
		return -EOPNOTSUPP;
	}
	if ((req & (BLKLOAD_REQ_FUA | BLKLOAD_REQ_PREFLUSH)) && !bl_bdev_write_cache(bdev)) {
		NL_SET_ERR_MSG(extack,
			       "fua, preflush: the device has no volatile write cache, they would be stripped");
		return -EOPNOTSUPP;
	}
	if ((req & BLKLOAD_REQ_WRITE_ZEROES) && !bdev_write_zeroes_sectors(bdev)) {
		NL_SET_ERR_MSG(extack, "the device does not support write-zeroes");
		return -EOPNOTSUPP;
	}
	if ((req & BLKLOAD_REQ_HIPRI) && !bl_bdev_can_poll(bdev)) {
		NL_SET_ERR_MSG(extack,
			       "hipri: the device has no poll queues (queue/io_poll is 0), or the kernel cannot poll");
		return -EOPNOTSUPP;
	}
	/* A polled bio that blocks waits for tags only its own poller could free. */
	if ((req & BLKLOAD_REQ_HIPRI) && !job->nowait) {
		NL_SET_ERR_MSG(extack,
			       "hipri: the device does not take REQ_NOWAIT, or bs needs a split (a split bio is not polled); polled IO must never block its poller");
		return -EOPNOTSUPP;
	}
	/*
	 * The flush before a polled write is a request of its own, on the poll
	 * queue, with no poll cookie: nothing polls it, and the write waits
	 * for the driver's timeout (if the driver has one).
	 */
	if ((req & BLKLOAD_REQ_HIPRI) && (req & BLKLOAD_REQ_PREFLUSH)) {
		NL_SET_ERR_MSG(extack,
			       "hipri with preflush: the flush before each write is not polled by the kernel (it has no poll cookie) and would wait for the driver's timeout; use one or the other");
		return -EOPNOTSUPP;
	}
	if ((req & BLKLOAD_REQ_NOWAIT) && !job->nowait) {
		NL_SET_ERR_MSG(extack,
			       "nowait: the device does not take REQ_NOWAIT, or bs needs a split");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Reserves the job's share of the job count and the memory budget. */
static int bl_job_reserve(struct bl_job *job, struct netlink_ext_ack *extack)
{
	u64 pins = (u64)job->nr_queues * bl_queue_mem(&job->p) + sizeof(*job) +
		   bl_pool_size(&job->p) +
		   (bl_params_vmap(&job->p) ? bl_params_units(&job->p) * sizeof(u32) : 0);
	int ret = 0;

	mutex_lock(&bl_jobs_lock);
	if (bl_jobs_count >= READ_ONCE(blkload_max_jobs)) {
		NL_SET_ERR_MSG(extack, "too many jobs (max_jobs)");
		ret = -ENOSPC;
	} else if (bl_mem_used_bytes + pins > blkload_mem_budget()) {
		NL_SET_ERR_MSG(extack,
			       "iodepth x bs x CPUs, with the write-data pool and the verify map, would pin more memory than the module's budget (mem_budget_mb) allows");
		ret = -ENOMEM;
	} else {
		bl_mem_used_bytes += pins;
		bl_jobs_count++;
		job->mem_pinned = pins;
		job->counted = true;
	}
	mutex_unlock(&bl_jobs_lock);
	return ret;
}

/*
 * Names each queue's worker (made if needed) and links the job into the
 * table, with its CPUs checked online under the hotplug lock: a CPU that
 * goes offline later is seen by its worker.
 */
static int bl_job_link(struct bl_job *job, struct netlink_ext_ack *extack)
{
	unsigned int i;
	int ret = 0;

	cpus_read_lock();
	mutex_lock(&bl_jobs_lock);
	if (!cpumask_subset(job->cpus, cpu_online_mask)) {
		NL_SET_ERR_MSG(extack, "a requested CPU is offline or does not exist");
		ret = -EINVAL;
		goto out;
	}
	for (i = 0; i < job->nr_queues; i++) {
		struct bl_queue *q = job->queues[i];

		q->worker = bl_worker_get(q->cpu);
		if (IS_ERR(q->worker)) {
			ret = PTR_ERR(q->worker);
			q->worker = NULL;
			NL_SET_ERR_MSG(extack, "cannot start a worker thread");
			goto out;
		}
	}
	ret = xa_alloc_cyclic(&bl_jobs, &job->id, job, xa_limit_32b, &bl_jobs_next, GFP_KERNEL);
	if (ret < 0)
		goto out;
	ret = 0;
	refcount_inc(&job->ref);	/* the table's */
	job->linked = true;
out:
	mutex_unlock(&bl_jobs_lock);
	cpus_read_unlock();
	return ret;
}

/* What the queues of a job ask of it (queue.h); any worker, any context they run in. */
static void bl_qjob_end(struct bl_qjob *core, u32 reason)
{
	bl_job_end(container_of(core, struct bl_job, core), reason);
}

static void bl_qjob_error(struct bl_qjob *core, int err)
{
	struct bl_job *job = container_of(core, struct bl_job, core);

	if (!atomic_read(&job->error))
		atomic_cmpxchg(&job->error, 0, err);
}

/* A verify failure: the first BL_VREPORTS are kept, the lock only while they are. */
static void bl_qjob_vfail(struct bl_qjob *core, u64 off, int what, u64 want, u64 got)
{
	struct bl_job *job = container_of(core, struct bl_job, core);

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

/* Every queue's worker looks again (the read-back pass may begin); a running job. */
static void bl_qjob_kick(struct bl_qjob *core)
{
	struct bl_job *job = container_of(core, struct bl_job, core);
	unsigned int i;

	for (i = 0; i < job->nr_queues; i++)
		bl_worker_kick(job->queues[i]->worker);
}

static const struct bl_qjob_ops bl_qjob_ops = {
	.end	= bl_qjob_end,
	.error	= bl_qjob_error,
	.vfail	= bl_qjob_vfail,
	.kick	= bl_qjob_kick,
};

struct bl_job *bl_job_create(const char *path, const struct bl_params *params,
			     const struct cpumask *cpus, const struct bl_owner *owner,
			     struct netlink_ext_ack *extack)
{
	struct bl_job *job;
	unsigned int i, cpu;
	int ret;

	job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!job)
		return ERR_PTR(-ENOMEM);
	refcount_set(&job->ref, 1);
	job->p = *params;
	job->core.p = &job->p;
	job->core.ops = &bl_qjob_ops;
	spin_lock_init(&job->vlock);
	job->core.vnonce = get_random_u32();
	atomic_set(&job->reason, BLKLOAD_REASON_NONE);
	job->state = BLKLOAD_STATE_CREATED;
	if (!params->detached && owner->sk) {
		job->owner = *owner;
		sock_hold(owner->sk);
	}

	if (!zalloc_cpumask_var(&job->cpus, GFP_KERNEL_ACCOUNT)) {
		ret = -ENOMEM;
		goto err_free;
	}
	cpumask_copy(job->cpus, cpus);
	job->nr_queues = cpumask_weight(cpus);
	job->core.nr_queues = job->nr_queues;
	ret = bl_check_params(&job->p, cpus, extack);
	if (ret)
		goto err_free;

	job->path = kstrdup(path, GFP_KERNEL_ACCOUNT);
	if (!job->path) {
		ret = -ENOMEM;
		goto err_free;
	}

	/* Writes claim the device unless forced; reads never do. */
	if (bl_params_changes(&job->p) && !job->p.force) {
		ret = bl_job_claim(job, job->path);
		if (ret)
			goto err_free;
	}
	ret = bl_bdev_open(&job->bdev, path, bl_params_changes(&job->p), job->claim);
	if (ret) {
		job->bdev.bdev = NULL;
		bl_open_error(ret, extack);
		goto err_free;
	}
	job->open_seq = atomic64_inc_return(&bl_open_seq);
	/*
	 * The claim keeps out mounts and holders; a process that has it open
	 * (a BlueStore OSD, QEMU, a database) holds no claim: count it.
	 */
	if (bl_params_changes(&job->p) && !job->p.force && bl_job_others_open(job)) {
		NL_SET_ERR_MSG(extack,
			       "device is open by another user (a process, a VM, an OSD, a target); force writes anyway with force");
		ret = -EBUSY;
		goto err_free;
	}
	job->dev_size = (u64)bl_bdev_nr_sectors(job->bdev.bdev) << SECTOR_SHIFT;
	job->dev_lbs = bdev_logical_block_size(job->bdev.bdev);
	ret = bl_check_region(job, extack);
	if (ret)
		goto err_free;
	job->nowait = bl_job_nowait(job);
	ret = bl_check_device(job, extack);
	if (ret)
		goto err_free;
	job->trims = bl_params_trims(&job->p);
	ret = bl_job_reserve(job, extack);
	if (ret)
		goto err_free;

	ret = bl_pool_alloc(job);
	if (ret) {
		NL_SET_ERR_MSG(extack, "out of memory for the write data");
		goto err_free;
	}
	if (bl_params_vmap(&job->p)) {
		/* Within what kvcalloc() takes: bl_params_region() bounds it. */
		job->core.vunits = bl_params_units(&job->p);
		job->core.vmap = kvcalloc(job->core.vunits, sizeof(u32), GFP_KERNEL_ACCOUNT);
		if (!job->core.vmap) {
			NL_SET_ERR_MSG(extack, "out of memory for the verify map");
			ret = -ENOMEM;
			goto err_free;
		}
	}
	job->queues = kcalloc(job->nr_queues, sizeof(*job->queues), GFP_KERNEL_ACCOUNT);
	if (!job->queues) {
		ret = -ENOMEM;
		goto err_free;
	}
	i = 0;
	for_each_cpu(cpu, job->cpus) {
		ret = bl_queue_alloc(job, i++, cpu);
		if (ret) {
			if (ret == -ENOMEM)
				NL_SET_ERR_MSG(extack, "out of memory for the IO slots");
			else
				NL_SET_ERR_MSG(extack, "the region cannot be split over the CPUs");
			goto err_free;
		}
	}
	ret = bl_job_link(job, extack);
	if (ret)
		goto err_free;
	return job;

err_free:
	bl_job_free(job);
	return ERR_PTR(ret);
}

/*
 * Asks a running job to end for @reason (the first reason wins); any
 * context, the workers included. Its queues stop submitting and drain.
 */
void bl_job_end(struct bl_job *job, u32 reason)
{
	unsigned int i;

	atomic_cmpxchg(&job->reason, BLKLOAD_REASON_NONE, reason);
	if (READ_ONCE(job->core.stop))
		return;
	WRITE_ONCE(job->core.stop, true);
	cmpxchg(&job->state, BLKLOAD_STATE_RUNNING, BLKLOAD_STATE_STOPPING);
	/* Only a running job gets here: its queues still name their workers. */
	for (i = 0; i < job->nr_queues; i++)
		if (job->queues[i]->worker)
			bl_worker_kick(job->queues[i]->worker);
}

static void bl_job_done_work(struct work_struct *work)
{
	struct bl_job *job = container_of(work, struct bl_job, done_work);
	bool unlink;

	mutex_lock(&bl_jobs_lock);
	/* Ended by its queues alone: runtime if one ran out of time, else limit. */
	atomic_cmpxchg(&job->reason, BLKLOAD_REASON_NONE, atomic_read(&job->qreason));
	xchg(&job->state, BLKLOAD_STATE_DONE);
	mutex_unlock(&bl_jobs_lock);
	bl_job_release(job);
	bl_nl_notify_done(job);
	mutex_lock(&bl_jobs_lock);
	unlink = bl_job_unlink_locked(job);
	mutex_unlock(&bl_jobs_lock);
	if (unlink)
		bl_job_put(job);	/* the table's */
	bl_job_put(job);		/* the run's */
	/*
	 * The last bl_end_io() of the run may still be between its wakeup and
	 * its return: a grace period covers its RCU read side. Our workqueue
	 * is flushed at exit, so this may be the last reference.
	 */
	synchronize_rcu();
	module_put(THIS_MODULE);
}

/*
 * A worker's queue of @job has finished, on its own for @reason (runtime,
 * limit) or 0 when asked: the last one ends the run.
 */
void bl_job_queue_finished(struct bl_job *job, u32 reason)
{
	if (reason == BLKLOAD_REASON_RUNTIME)
		atomic_set(&job->qreason, reason);
	else if (reason)
		atomic_cmpxchg(&job->qreason, BLKLOAD_REASON_NONE, reason);
	if (atomic_dec_and_test(&job->running))
		queue_work(bl_wq, &job->done_work);
}

/* Bios of @job that go blocking whatever the device says (bl_prep()). */
static bool bl_job_blocks(const struct bl_job *job)
{
	u32 req = job->p.req;

	return !(req & BLKLOAD_REQ_NOWAIT) && (!job->nowait || bl_params_has_nodata(&job->p));
}

/*
 * A --hipri job and one whose bios go blocking, on a CPU and a device they
 * share (or may share: a bio-based device stacked on the other,
 * bl_queues_meet()): the blocking bio would sleep in the worker that alone
 * polls the other's bios, and a frozen queue waits for those.
 */
static bool bl_jobs_clash(const struct bl_job *a, const struct bl_job *b)
{
	bool ah = a->p.req & BLKLOAD_REQ_HIPRI, bh = b->p.req & BLKLOAD_REQ_HIPRI;

	return ((ah && bl_job_blocks(b)) || (bh && bl_job_blocks(a))) &&
	       bl_queues_meet(bdev_get_queue(a->bdev.bdev), bdev_get_queue(b->bdev.bdev)) &&
	       cpumask_intersects(a->cpus, b->cpus);
}

static int bl_job_check_clash(struct bl_job **jobs, unsigned int i,
			      struct netlink_ext_ack *extack)
{
	struct bl_job *job = jobs[i], *o;
	unsigned long idx;
	unsigned int k;
	bool clash = false;

	lockdep_assert_held(&bl_jobs_lock);
	for (k = 0; k < i && !clash; k++)
		clash = bl_jobs_clash(job, jobs[k]);
	xa_for_each(&bl_jobs, idx, o) {
		if (clash)
			break;
		if (o != job && !o->bdev_gone && (o->state == BLKLOAD_STATE_RUNNING ||
						  o->state == BLKLOAD_STATE_STOPPING))
			clash = bl_jobs_clash(job, o);
	}
	if (!clash)
		return 0;
	NL_SET_ERR_MSG(extack,
		       "a hipri job and one that submits blocking (trims, write-zeroes, bs needing a split, a device without nowait) on the same CPU and device (or a device-mapper/MD device that may sit on it): the blocked submission could wait for polled IO only that CPU's worker polls; give them different CPUs");
	return -EBUSY;
}

int bl_job_start(struct bl_job **jobs, unsigned int n, struct netlink_ext_ack *extack)
{
	unsigned int i, j;
	int ret = 0;
	u64 now;

	mutex_lock(&bl_jobs_lock);
	for (i = 0; i < n && !ret; i++) {
		for (j = 0; j < i && !ret; j++) {
			if (jobs[j] == jobs[i]) {
				NL_SET_ERR_MSG(extack, "a job is named twice");
				ret = -EINVAL;
			}
		}
		if (ret)
			break;
		if (jobs[i]->state != BLKLOAD_STATE_CREATED || jobs[i]->deleted) {
			NL_SET_ERR_MSG(extack, "job already started, stopped or deleted");
			ret = -EALREADY;
		}
		for (j = 0; j < jobs[i]->nr_queues && !ret; j++)
			if (READ_ONCE(jobs[i]->queues[j]->worker->offline))
				ret = -ENODEV;
		if (ret == -ENODEV)
			NL_SET_ERR_MSG(extack, "a CPU of the job went offline since it was made");
		if (!ret)
			ret = bl_job_check_clash(jobs, i, extack);
	}
	/* Each run holds the module until its IO has drained. */
	for (i = 0; i < n && !ret; i++) {
		if (!try_module_get(THIS_MODULE)) {
			while (i--)
				module_put(THIS_MODULE);
			NL_SET_ERR_MSG(extack, "the module is being unloaded");
			ret = -ENODEV;
		}
	}
	if (ret)
		goto out;

	/* One start time for all: they report over the same interval. */
	now = ktime_get_ns();
	for (i = 0; i < n; i++) {
		struct bl_job *job = jobs[i];

		refcount_inc(&job->ref);	/* the run's */
		INIT_WORK(&job->done_work, bl_job_done_work);
		job->start_ns = now;
		atomic_set(&job->running, job->nr_queues);
		BL_ATOMIC_SET(&job->core.vpending, job->nr_queues);
		/* start_ns before the state, for job-get readers (bl_nl_put_stats()). */
		smp_wmb();
		WRITE_ONCE(job->state, BLKLOAD_STATE_RUNNING);
		/* The attach publishes start_ns and the queue set-up to the worker. */
		for (j = 0; j < job->nr_queues; j++) {
			bl_queue_start(job->queues[j]);
			bl_worker_attach(job->queues[j]->worker, job->queues[j]);
		}
	}
out:
	mutex_unlock(&bl_jobs_lock);
	return ret;
}

/*
 * Ends a job that never started (done at once) or asks a running one to
 * stop. Returns true when the job became done here.
 */
static bool bl_job_stop_locked(struct bl_job *job)
{
	lockdep_assert_held(&bl_jobs_lock);
	if (job->state == BLKLOAD_STATE_CREATED) {
		atomic_cmpxchg(&job->reason, BLKLOAD_REASON_NONE, BLKLOAD_REASON_STOPPED);
		WRITE_ONCE(job->state, BLKLOAD_STATE_DONE);
		return true;
	}
	if (bl_job_active(job))
		bl_job_end(job, BLKLOAD_REASON_STOPPED);
	return false;
}

/* Never waits: the end is reported by the job-done event and job-get. */
void bl_job_stop(struct bl_job *job)
{
	bool done;

	mutex_lock(&bl_jobs_lock);
	done = bl_job_stop_locked(job);
	mutex_unlock(&bl_jobs_lock);
	if (done) {
		bl_job_release(job);
		bl_nl_notify_done(job);
	}
}

/* Stops the job and frees it: now when nothing is in flight, else once drained. */
void bl_job_del(struct bl_job *job)
{
	bool unlink, done;

	mutex_lock(&bl_jobs_lock);
	job->deleted = true;
	done = bl_job_stop_locked(job);
	unlink = bl_job_unlink_locked(job);
	mutex_unlock(&bl_jobs_lock);
	if (done)
		bl_nl_notify_done(job);
	if (unlink)
		bl_job_put(job);	/* the table's */
}

void bl_job_detach(struct bl_job *job)
{
	struct sock *sk;

	mutex_lock(&bl_jobs_lock);
	sk = job->owner.sk;
	job->owner.net = NULL;
	job->owner.portid = 0;
	job->owner.sk = NULL;
	mutex_unlock(&bl_jobs_lock);
	if (sk)
		sock_put(sk);
}

bool bl_job_is_deleted(struct bl_job *job)
{
	return READ_ONCE(job->deleted);
}

u32 bl_job_owner_portid(struct bl_job *job)
{
	return READ_ONCE(job->owner.portid);
}

/*
 * A socket of @owner's namespace and port id closed: stop and delete the jobs
 * it owned. The port id alone is not enough: it is per network namespace,
 * and once a socket is unhashed a new one may take it before this runs; the
 * job's own socket is the one that is dead.
 */
void bl_jobs_owner_gone(const struct bl_owner *owner)
{
	struct bl_job *job;
	unsigned long index;
	LIST_HEAD(gone);

	if (!owner->portid)
		return;
	mutex_lock(&bl_jobs_lock);
	xa_for_each(&bl_jobs, index, job) {
		if (job->owner.portid != owner->portid || job->owner.net != owner->net ||
		    !job->owner.sk || !sock_flag(job->owner.sk, SOCK_DEAD) || job->deleted)
			continue;
		job->owner.net = NULL;
		job->owner.portid = 0;
		job->gc_sk = job->owner.sk;
		job->owner.sk = NULL;
		job->deleted = true;
		job->gc_notify = false;
		if (bl_job_active(job))
			bl_job_end(job, BLKLOAD_REASON_OWNER_GONE);
		else if (job->state == BLKLOAD_STATE_CREATED)
			job->gc_notify = bl_job_stop_locked(job);
		job->gc_unlink = bl_job_unlink_locked(job);
		refcount_inc(&job->ref);	/* ours, until the work below is done */
		list_add(&job->gc, &gone);
	}
	mutex_unlock(&bl_jobs_lock);
	while (!list_empty(&gone)) {
		job = list_first_entry(&gone, struct bl_job, gc);
		list_del(&job->gc);
		sock_put(job->gc_sk);
		if (job->gc_notify)
			bl_nl_notify_done(job);
		if (job->gc_unlink)
			bl_job_put(job);	/* the table's */
		bl_job_put(job);
	}
}

int bl_jobs_init(void)
{
	bl_wq = alloc_workqueue("blkload", WQ_UNBOUND, 0);
	return bl_wq ? 0 : -ENOMEM;
}

/*
 * Module exit, after the netlink family is gone: no job can be running (a
 * run holds the module), so every job left is freed at once.
 */
void bl_jobs_exit(void)
{
	struct bl_job *job;
	unsigned long index;
	LIST_HEAD(gone);

	/* Done works may still be between their module_put() and their return. */
	destroy_workqueue(bl_wq);
	mutex_lock(&bl_jobs_lock);
	xa_for_each(&bl_jobs, index, job) {
		WARN_ON(bl_job_active(job));
		job->deleted = true;
		if (job->state == BLKLOAD_STATE_CREATED)
			bl_job_stop_locked(job);
		if (bl_job_unlink_locked(job))
			list_add(&job->gc, &gone);
	}
	mutex_unlock(&bl_jobs_lock);
	while (!list_empty(&gone)) {
		job = list_first_entry(&gone, struct bl_job, gc);
		list_del(&job->gc);
		bl_job_put(job);
	}
	xa_destroy(&bl_jobs);
}
