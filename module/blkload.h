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
#include <blkload/sample.h>
#include <blkload/stamp.h>
#include <blkload/verify.h>
#include <blkload/version.h>

#include "compat.h"

/* Hard ceilings; the module parameters may only lower them. */
#define BLKLOAD_BS_MAX		(4U << 20)
#define BLKLOAD_IODEPTH_LIMIT	65536U
#define BLKLOAD_JOBS_LIMIT	4096U

/* Time series: the shortest interval, and the samples a queue keeps by default. */
#define BL_SAMPLE_MIN_NS	(10 * NSEC_PER_MSEC)
#define BL_SAMPLE_RING_DEFAULT	256U

/* The operations, as the generator draws them (BL_GEN_*) and stats count them. */
enum bl_op { BL_READ = BL_GEN_READ, BL_WRITE = BL_GEN_WRITE, BL_TRIM = BL_GEN_TRIM, BL_NR_OPS };

/*
 * Latencies as fio names them: slat from just before submit_bio() to its
 * return, clat from there to bi_end_io(), lat the two together. A bio that
 * completes inside submit_bio() has all of it in slat and a clat of 0.
 */
struct bl_op_stats {
	u64 ios;		/* completed without error */
	u64 bytes;
	u64 errors;
	struct bl_lat lat, clat, slat;
	u64 hist[BL_HIST_NR];	/* of lat */
	u64 chist[BL_HIST_NR];	/* of clat */
};

static inline void bl_op_stats_init(struct bl_op_stats *st)
{
	bl_lat_init(&st->lat);
	bl_lat_init(&st->clat);
	bl_lat_init(&st->slat);
}

/* The verify failures a job keeps (the rest are counted). */
#define BL_VREPORTS	16

struct bl_vreport {
	u64 off, want, got;
	u32 what;		/* BL_VERIFY_* */
};

/* Latencies from the scheduled time of a rate-limited queue's IOs. */
struct bl_sched_stats {
	struct bl_lat lat[BL_NR_OPS];
	u64 hist[BL_NR_OPS][BL_HIST_NR];
};

struct bl_queue;

struct bl_slot {
	struct bio bio;
	struct bl_queue *q;
	struct llist_node node;	/* on bl_queue.done once completed */
	/* The bios of one plug, or of one poll's batch, to stamp once after it. */
	struct bl_slot *batch_next;
	u64 off;		/* byte offset of its IO */
	u64 sched_ns;		/* rate limit: when it was due */
	u64 submit_ns;		/* before its first submit_bio() */
	u64 sent_ns;		/* after its last submit_bio() returned */
	u64 done_ns;
	blk_status_t status;
	u32 len;		/* bytes of its IO */
	u8 op;			/* enum bl_op */
	bool busy;		/* submitted and not yet reaped: polled queues poll it */
	bool counted;		/* issued after the ramp: goes into the stats */
	bool nowait;		/* submitted with REQ_NOWAIT */
	u8 refused;		/* BLK_STS_AGAIN in a row (saturates); see bl_prep() */
	bool readback;		/* a read of the verify read-back pass */
	unsigned short nr_pages;
	u32 *vsnap;		/* verify: each unit's map entry when a read was prepared */
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
	/* worker only: a poll's batch being ended, its bios (bl_queue_poll()) */
	bool poll_batch;
	struct bl_slot *poll_batch_slots;
	struct list_head stop_node;	/* on a local list, to stop after unlocking */
};

struct bl_queue {
	/* Set up by the control plane, read-only once the job starts. */
	struct bl_job *job;
	struct bl_worker *worker;
	unsigned int cpu;
	unsigned int index;	/* stream number within the job */
	struct llist_node attach_node;
	struct bl_slot **slots;	/* all iodepth slots */

	/* Written by completions (any context), drained by the worker. */
	struct llist_head done ____cacheline_aligned_in_smp;

	/* Everything below is written by the worker alone. */
	struct list_head node ____cacheline_aligned_in_smp;
	struct bl_slot **free;	/* stack of idle slots */
	unsigned int nr_free;
	struct bl_slot **retry;	/* refused (BLK_STS_AGAIN), to submit again as they were */
	unsigned int nr_retry;
	unsigned long inflight;	/* read racily by job-get */
	struct bl_gen gen;
	struct bl_dist dist;	/* of a random stream's blocks */
	u64 limit;		/* IOs this queue issues after the ramp; U64_MAX: no limit */
	u64 issued;		/* IOs issued after the ramp */
	u64 ramp_end;		/* ns */
	u64 end;		/* ns; 0: no runtime */
	u64 count_start_ns;	/* the ramp's actual end: counting starts */
	u64 progress_ns;	/* last completion, or when IO went out after idleness */
	u64 last_done_ns;	/* the last completion's time stamp */
	u64 end_ns;		/* the queue's last completion, once finished */
	u64 turns;		/* local_clock() ns of its turns not yet charged CPU time */
	u64 depth_t;		/* last time its in-flight level was counted */
	unsigned int window;	/* after a refusal: most bios in flight; 0: iodepth */
	u32 reason;		/* runtime or limit, when the queue ended on its own */
	bool nowait;		/* submit with REQ_NOWAIT */
	bool polled;		/* hipri: REQ_POLLED, reaped with bio_poll() */
	unsigned int poll_pos;	/* where the search for a bio to poll starts */
	bool block_next;	/* the next bio goes blocking (a refusal, nothing in flight) */
	u64 retry_at;		/* refused with nothing in flight, not to block: retry then */
	/*
	 * Rate limit: this queue's share of the job's IOPS, the time the next
	 * IO is due, the step between two (whole ns, and a remainder counted
	 * in 1/rate ns) or, for poisson, the pacing generator's mean.
	 */
	u32 rate;
	/*
	 * No new IO before hold_until (startdelay, thinktime); thinking: the
	 * queue issued think_blocks IOs and waits for them to complete.
	 */
	u64 hold_until;
	u32 think_count;
	bool thinking;
	u64 sched_next;
	u64 sched_step, sched_rem, sched_acc;
	struct bl_gen pace;
	bool stopping;
	bool ramp_done;		/* published with release: stats reset, count_start_ns set */
	bool finished;		/* published with release: end_ns set */

	struct u64_stats_sync sync;
	u64 cpu_time;		/* ns of worker CPU time on this queue after the ramp */
	u64 ctx;		/* the worker's context switches, its share, after the ramp */
	u64 ctx_frac;		/* worker only: the share's fraction not yet whole, 2^-20 */
	u64 cpu_all;		/* worker only: its recent CPU time (decayed), for that share */
	u64 stall_max;
	u64 depth_ns[BL_DEPTH_NR];	/* time at each in-flight level, after the ramp */
	struct bl_op_stats st[BL_NR_OPS];
	struct bl_sched_stats *sched;	/* rate-limited queues only */
	/* Verify: units checked, skipped, failed, read back (under sync). */
	u64 vchecked, vskipped, verrors, vreadback;
	bool vwait;		/* worker only: workload done, the pass waits for the job's */
	bool vpass;		/* worker only: in the read-back pass */
	bool vdone;		/* worker only: the pass has issued its last read */
	bool vmore;		/* worker only: the pass used up its look-ahead */
	unsigned int vbudget;	/* worker only: entries it may still look at this pass */
	u64 vcur;		/* worker only: the next unit the pass looks at */
	u64 work_end_ns;	/* the workload's end, before the pass */
	bool work_done;		/* published with release: work_end_ns set */

	/*
	 * Time series (sample.h): the worker writes sample nsamples into
	 * ring[ring_pos] and then publishes nsamples + 1 (release); readers
	 * copy a sample and check that nsamples did not pass it meanwhile.
	 * Sample i covers the interval that ends at ramp_end + (i + 1) *
	 * sample-interval, the queue's last one its end.
	 */
	struct bl_sample *ring;
	u32 ring_nr;
	u32 ring_pos;		/* worker only */
	unsigned long nsamples;	/* long: published with release on 32-bit too */
	u64 sample_next;	/* worker only: ns, the next interval's end */
	u64 sample_last;	/* worker only: ns, the last sample's time */
	struct bl_sampler_op sampler[BL_NR_OPS];	/* worker only */
};

struct bl_params {
	u32 rw;
	u32 rwmixread;
	u32 bs;
	u32 iodepth;
	u32 batch;
	u32 coe;		/* continue-on-error bits */
	u64 offset;
	u64 size;
	u64 runtime_ns;
	u64 ramp_ns;
	u64 number_ios;
	u64 io_size;
	u64 randseed;
	u64 sample_ns;		/* time-series interval; 0: none */
	u32 sample_ring;	/* samples each queue keeps */
	u32 rwmixtrim;		/* percent of trims */
	u32 req;		/* BLKLOAD_REQ_* flags */
	u32 rate_iops;		/* 0: no limit */
	u32 rate_process;	/* BLKLOAD_RATE_PROCESS_* */
	u32 dist;		/* BLKLOAD_DIST_*: where random IOs go */
	u32 dist_param;
	/* Block size split (offset.h), reads and writes: bs is then the unit. */
	u32 bs_max;		/* the largest IO: slots hold it */
	u64 think_ns;		/* stall after think_blocks IOs; 0: none */
	u32 think_blocks;
	u32 loops;
	u64 startdelay_ns;
	u32 buf_compress;	/* percent of each written chunk that is zeros (fill.h) */
	u32 buf_dedupe;		/* percent of written blocks that are copies of one */
	u32 nbs[2];
	struct bl_gen_bs bss[2][BL_GEN_BS_MAX];
	bool allow_write;
	bool force;
	bool detached;
	bool no_lat;
	bool zero_buffers;	/* writes carry zeros, unstamped */
	u32 verify;		/* BLKLOAD_VERIFY_* */
	bool verify_no_readback;
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
	/* What writes copy their data from (fill.h); NULL: no data is written. */
	u8 *pool;
	/*
	 * Verify (verify.h): the generation map of a job that writes, one
	 * entry per unit of the region (NULL for one that only reads), and
	 * the first failures, under vlock (taken only on a failure).
	 */
	u32 *vmap;
	u64 vunits;
	atomic_t vpending;	/* queues whose workload is not done: the pass waits for all */
	u32 vnonce;		/* in the headers it writes: tells its units from another run's */
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
	s64 open_seq;		/* its open's ticket (bl_job_others_open()) */
	bool counted;		/* in the job count and memory budget */
	bool released;		/* done: slots, workers and device given back */
	bool nowait;		/* the device takes REQ_NOWAIT and no bio needs a split */
	bool trims;		/* the workload has trims: their stats are reported */

	/* Shared with the workers. */
	bool stop;
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

/* engine.c */
int bl_queue_alloc(struct bl_job *job, unsigned int index, unsigned int cpu);
void bl_queue_release(struct bl_queue *q);
void bl_queue_free(struct bl_queue *q);
u64 bl_queue_mem(const struct bl_params *p);
u64 bl_queue_keep(const struct bl_params *p);
void bl_queue_start(struct bl_queue *q);
bool bl_queue_service(struct bl_queue *q, u64 now, bool offline, u64 *deadline, u64 *clk);
bool bl_queue_pending(struct bl_queue *q);
void bl_queue_add_cpu(struct bl_queue *q, u64 ns, u64 ctx);
void bl_queue_read_stats(struct bl_queue *q, struct bl_op_stats *st, bool hist,
			 u64 *cpu_time, u64 *ctx, u64 *stall_max, u64 *depth_ns);
void bl_queue_read_sched(struct bl_queue *q, struct bl_sched_stats *s, bool hist);
void bl_sched_stats_init(struct bl_sched_stats *s);
void bl_queue_read_verify(struct bl_queue *q, u64 *v);
u64 bl_queue_stall_now(const struct bl_queue *q, u64 now);
unsigned long bl_queue_inflight(const struct bl_queue *q);
u64 bl_queue_samples(const struct bl_queue *q);
bool bl_queue_sample_copy(const struct bl_queue *q, u64 i, struct bl_sample *s);

/* netlink.c */
int blkload_nl_init(void);
void blkload_nl_exit(void);
void bl_nl_notify_done(struct bl_job *job);

#endif /* _BLKLOAD_H */
