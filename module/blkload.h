/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkload: block-device load generator, internal declarations.
 *
 * A job is one target block device, one workload and a set of CPUs. For each
 * CPU the job has a queue: iodepth slots, each a preallocated bio with its
 * data pages, and the queue's own generator, limits and statistics. Each CPU
 * in use has one worker thread, bound to it, that serves the queues of every
 * job on that CPU; it is the only writer of those queues' slots and
 * statistics. Completions hand slots back to it through a lock-free list.
 *
 * Lifetimes: a job is referenced by the table (until it is unlinked), by
 * each control operation working on it, and by its run (from the start
 * until its IO has drained, when the done work drops it). A started job also
 * holds a module reference until drained, so that rmmod is refused while any
 * bio of ours may still complete. Prototypes are grouped by the defining file.
 */
#ifndef _BLKLOAD_H
#define _BLKLOAD_H

#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>

#include <uapi/linux/blkload.h>
#include <blkload/dist.h>
#include <blkload/fill.h>
#include <blkload/hist.h>
#include <blkload/lat.h>
#include <blkload/offset.h>
#include <blkload/params.h>
#include <blkload/queue.h>
#include <blkload/sample.h>
#include <blkload/stamp.h>
#include <blkload/verify.h>
#include <blkload/version.h>

#include "compat.h"

/* Hard ceilings (params.h for bs and iodepth); the module parameters may only lower them. */
#define BLKLOAD_JOBS_LIMIT	4096U

/* The verify failures a job keeps (the rest are counted). */
#define BL_VREPORTS	16

struct bl_vreport {
	u64 off, want, got;
	u32 what;		/* BL_VERIFY_* */
};

struct bl_queue;

/*
 * One IO slot: a bio with its data pages, and the IO the queue machine
 * drew into it (queue.h).
 */
struct bl_slot {
	struct bio bio;
	struct bl_queue *q;
	struct llist_node node;	/* on bl_queue.done once completed */
	struct bl_slot *batch_next;	/* the bios of one plug, to stamp once after it */
	struct bl_io io;
	blk_status_t status;
	bool busy;		/* submitted and not yet reaped: polled queues poll it */
	bool nowait;		/* submitted with REQ_NOWAIT */
	bool in_call;		/* its own submit_bio() (or plug flush) is running */
	bool inline_done;	/* completed in that call: devlat ends at its return */
	u8 refused;		/* BLK_STS_AGAIN in a row (saturates); see bl_prep() */
	unsigned short nr_pages;
	struct bio_vec bvecs[];
};

/*
 * One worker thread per CPU in use. The control plane hands it queues
 * through @attach; @queues is its own. @users counts the queues of existing
 * jobs that name this worker, under bl_jobs_lock; the thread stops when it
 * drops to zero. @offline is set when the CPU goes offline: the worker then
 * ends its queues' jobs (reason cpu-offline), drains them wherever the
 * scheduler moves it, and no new job uses it.
 */
struct bl_worker {
	unsigned int cpu;
	struct task_struct *task;
	struct llist_head attach;
	struct list_head queues;	/* worker only */
	unsigned int users;		/* bl_jobs_lock */
	bool offline;			/* set under bl_jobs_lock, read by the worker */
	bool offline_seen;		/* worker only */
	bool freezing;			/* worker only: a suspend freezes tasks */
	bool frozen;			/* in (or going into) the refrigerator */
	struct completion offline_ack;
	u64 runtime_seen;		/* sum_exec_runtime already split over queues */
	unsigned long ctx_seen;		/* context switches (nvcsw + nivcsw) likewise */
	struct list_head stop_node;	/* on a local list, to stop after unlocking */
};

/*
 * One job's share of one CPU: its slots and how they go out (io.c), and its
 * queue machine (include/blkload/queue.h), the policy and the statistics.
 */
struct bl_queue {
	/* Set up by the control plane, read-only once the job starts. */
	struct bl_job *job;
	struct bl_worker *worker;
	unsigned int cpu;
	struct llist_node attach_node;
	struct bl_slot **slots;	/* all iodepth slots */
	struct bl_sample *ring;	/* time series: ring_nr samples */
	u32 ring_nr;

	/* Written by completions (any context), drained by the worker. */
	struct llist_head done ____cacheline_aligned_in_smp;

	/* Everything below is written by the worker alone. */
	struct list_head node ____cacheline_aligned_in_smp;
	struct llist_node *ready;	/* taken from done, oldest first, not yet reaped */
	unsigned int nr_ready;		/* on ready: done, still counted in flight */
	bool turn_got, turn_refused;	/* this turn's reaps so far: completions, refusals */
	struct bl_slot **free;	/* stack of idle slots */
	unsigned int nr_free;
	struct bl_slot **retry;	/* refused (BLK_STS_AGAIN), to submit again as they were */
	unsigned int nr_retry;
	unsigned int window;	/* after a refusal: most bios in flight; 0: iodepth */
	bool nowait;		/* submit with REQ_NOWAIT */
	bool polled;		/* hipri: REQ_POLLED, reaped with bio_poll() */
	bool block_next;	/* the next bio goes blocking (a refusal, nothing in flight) */
	unsigned int poll_pos;	/* where the search for a bio to poll starts */
	u64 retry_at;		/* refused with nothing in flight, not to block: retry then */
	u64 turns;		/* ns of its turns (ktime_get_ns()) not yet charged CPU time */
	u64 ctx_frac;		/* the share of context switches not yet whole, 2^-20 */
	u64 cpu_all;		/* its recent CPU time (decayed), for that share */
	u32 ring_pos;
	/* Samples written: published with release (long: on 32-bit too). */
	unsigned long nsamples;

	struct bl_q q;
};

/*
 * The socket a job belongs to: its network namespace and port id (port ids
 * are per namespace), and the socket itself, held, to tell it from a newer
 * socket that took the same port id after it closed.
 */
struct bl_owner {
	struct net *net;	/* compared, never dereferenced */
	u32 portid;		/* 0: detached */
	struct sock *sk;	/* held by the job until it is freed */
};

/* A write claim's identity (the holder of bdev's claim), shared. */
struct bl_claim {
	refcount_t ref;
};

struct bl_job {
	u32 id;
	refcount_t ref;
	char *path;
	struct bl_params p;
	cpumask_var_t cpus;

	struct bl_bdev bdev;
	u64 dev_size;
	u32 dev_lbs;
	u64 mem_pinned;
	/*
	 * What its queues share (queue.h): the write-data pool, the verify
	 * generation map, the stop flag. Verify's first failures are kept
	 * under vlock (taken only on a failure).
	 */
	struct bl_qjob core;
	u8 *pool;		/* core.pool, writable */
	spinlock_t vlock;	/* vrep, nvrep */
	struct bl_vreport vrep[BL_VREPORTS];
	u32 nvrep;

	unsigned int nr_queues;
	struct bl_queue **queues;

	/* Control state, under bl_jobs_lock. */
	struct bl_owner owner;
	u32 state;		/* enum blkload_state; READ_ONCE outside the lock */
	bool deleted;		/* freed once not running */
	bool linked;		/* in the table */
	bool bdev_gone;		/* its device closed or closing (bl_jobs_lock) */
	/*
	 * Its write claim's holder, shared by the writing jobs one socket made
	 * on the same device (fio's numjobs copies); NULL: no claim.
	 */
	struct bl_claim *claim;
	s64 open_seq;		/* its open's ticket (bl_job_others_open()) */
	bool counted;		/* in the job count and memory budget */
	bool released;		/* done: slots, workers and device given back */
	bool nowait;		/* the device takes REQ_NOWAIT and no bio needs a split */
	bool trims;		/* the workload has trims: their stats are reported */

	/* Shared with the workers (and core.stop). */
	atomic_t running;	/* queues not yet finished */
	atomic_t reason;	/* first reason to end the job wins */
	atomic_t qreason;	/* runtime or limit, when queues ended on their own */
	atomic_t error;		/* first IO error, negative errno */
	u64 start_ns;		/* set before the queues are attached */
	struct work_struct done_work;
	struct list_head gc;	/* on a local list, to be put after unlocking */
	bool gc_notify, gc_unlink;	/* what to do with it there */
	struct sock *gc_sk;		/* the owner's socket, to put there */
};

/*
 * A check's reason from the shared core (params.h) as the extack message: a
 * string of the module's text, kept as long as the module. Returns @ret.
 */
static inline int bl_extack_why(struct netlink_ext_ack *extack, int ret, const char *why)
{
	if (ret && extack)
		extack->_msg = why;
	return ret;
}

/*
 * Whether IO to request queues @a and @b may meet in one queue below: the
 * same queue, or a bio-based one (device-mapper, MD, ...) on either side,
 * which may be stacked on the other (a polled dm-linear bio is polled on
 * the NVMe queue under it). Conservative: a bio-based device is taken as
 * stacked on every device.
 */
static inline bool bl_queues_meet(struct request_queue *a, struct request_queue *b)
{
	return a == b || !queue_is_mq(a) || !queue_is_mq(b);
}

/* main.c */
extern unsigned int blkload_max_iodepth;
extern unsigned int blkload_max_jobs;
extern unsigned long blkload_mem_budget_mb;
extern unsigned int blkload_max_queue_rows;
extern unsigned int blkload_max_stats_bytes;
extern unsigned int blkload_late_end_io_ms;
DECLARE_STATIC_KEY_FALSE(blkload_late_end_io);
#define BLKLOAD_LATE_END_IO_MAX_MS	10000

u64 blkload_mem_budget(void);

/* job.c */
extern struct mutex bl_jobs_lock;

void bl_jobs_info(u64 *mem_used, unsigned int *nr_jobs, unsigned int *nr_workers);
struct bl_job *bl_job_create(const char *path, const struct bl_params *p,
			     const struct cpumask *cpus, const struct bl_owner *owner,
			     struct netlink_ext_ack *extack);
struct bl_job *bl_job_get(u32 id);
void bl_job_put(struct bl_job *job);
int bl_job_start(struct bl_job **jobs, unsigned int n, struct netlink_ext_ack *extack);
void bl_job_stop(struct bl_job *job);
void bl_job_del(struct bl_job *job);
void bl_job_detach(struct bl_job *job);
bool bl_job_is_deleted(struct bl_job *job);
u32 bl_job_owner_portid(struct bl_job *job);
u32 bl_job_next_id(u32 after);
void bl_jobs_owner_gone(const struct bl_owner *owner);
void bl_job_end(struct bl_job *job, u32 reason);
void bl_job_queue_finished(struct bl_job *job, u32 reason);
void bl_jobs_exit(void);
int bl_jobs_init(void);

/* worker.c */
struct bl_worker *bl_worker_get(unsigned int cpu);
struct bl_worker *bl_worker_put(struct bl_worker *w);
void bl_worker_stop(struct bl_worker *w);
void bl_worker_account(struct bl_worker *w, struct bl_queue *leaving);
void bl_worker_attach(struct bl_worker *w, struct bl_queue *q);
void bl_worker_kick(struct bl_worker *w);
unsigned int bl_nr_workers(void);
int bl_workers_init(void);
void bl_workers_exit(void);

/* queue.c */
int bl_queue_alloc(struct bl_job *job, unsigned int index, unsigned int cpu);
void bl_queue_release(struct bl_queue *q);
void bl_queue_free(struct bl_queue *q);
u64 bl_queue_mem(const struct bl_params *p);
u64 bl_queue_keep(const struct bl_params *p);
void bl_queue_start(struct bl_queue *q);

/* io.c */
extern const struct bl_buf_ops bl_slot_buf_ops;
bool bl_queue_service(struct bl_queue *q, u64 now, bool offline, u64 *deadline, u64 *clk);
bool bl_queue_pending(struct bl_queue *q);
bool bl_queue_polling(const struct bl_queue *q);

/* stats.c */
extern const struct bl_q_sink bl_queue_sink;

/* A job's statistics at one moment, its queues' added up. */
struct bl_job_snap {
	struct bl_op_stats sum[BL_NR_OPS];
	u64 elapsed, cpu_time, ctx, inflight, stall_max;
	u64 depth_ns[BL_DEPTH_NR];
	bool counting;		/* every queue is past its ramp */
};

/* One queue's row of it (without histograms). */
struct bl_queue_snap {
	unsigned int cpu;
	struct bl_op_stats st[BL_NR_OPS];
	u64 cpu_time, ctx, inflight, stall_max;
	u64 depth_ns[BL_DEPTH_NR];
};

int bl_job_snapshot(struct bl_job *job, bool hist, struct bl_job_snap *snap,
		    struct bl_queue_snap *row,
		    int (*each)(void *ctx, unsigned int i, const struct bl_queue_snap *row),
		    void *ctx);
void bl_job_verify_sum(struct bl_job *job, u64 *v);
void bl_job_sched_sum(struct bl_job *job, struct bl_sched_stats *sum, struct bl_sched_stats *one,
		      bool hist);
u64 bl_job_samples(struct bl_job *job, u64 from, u64 *n, u64 *lost);
int bl_job_sample(struct bl_job *job, const u64 *n, u64 i, struct bl_sample *sum,
		  struct bl_sample *one);

/* netlink.c */
int blkload_nl_init(void);
void blkload_nl_exit(void);
void bl_nl_notify_done(struct bl_job *job);

#endif /* _BLKLOAD_H */
