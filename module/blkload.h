/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkload: block-device load generator, internal declarations.
 *
 * A job is one target block device, one workload and a set of CPUs. For each
 * CPU the job has a queue: a kthread bound to that CPU with iodepth slots,
 * each slot a preallocated bio with its data pages. The queue thread is the
 * only writer of its slots and statistics; completions hand slots back to it
 * through a lock-free list. Prototypes are grouped by the defining file.
 */
#ifndef _BLKLOAD_H
#define _BLKLOAD_H

#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <uapi/linux/blkload.h>
#include <blkload/hist.h>
#include <blkload/offset.h>

#include "compat.h"

#define BLKLOAD_VERSION		"0.2.0"

/* Hard ceilings; the module parameters may only lower them. */
#define BLKLOAD_BS_MAX		(4U << 20)
#define BLKLOAD_IODEPTH_LIMIT	65536U
#define BLKLOAD_JOBS_LIMIT	4096U
#define BLKLOAD_BATCH_DEFAULT	16U
#define BLKLOAD_DRAIN_DEFAULT_MS	5000U

/* Each written 512-byte sector starts with this magic and its byte offset. */
#define BLKLOAD_SECTOR_MAGIC	0x44414f4c4b4c42ULL	/* "BLKLOAD" */

enum bl_op { BL_READ, BL_WRITE, BL_NR_OPS };

struct bl_op_stats {
	u64 ios;		/* completed without error */
	u64 bytes;
	u64 errors;
	u64 lat_min;		/* ns; U64_MAX until the first sample */
	u64 lat_max;
	u64 lat_sum;
	u64 hist[BL_HIST_NR];
};

struct bl_queue;

struct bl_slot {
	struct bio bio;
	struct bl_queue *q;
	struct llist_node node;	/* on bl_queue.done once completed */
	u64 submit_ns;
	u64 done_ns;
	blk_status_t status;
	bool read;
	bool counted;		/* issued after the ramp: goes into the stats */
	unsigned short nr_pages;
	struct bio_vec bvecs[];
};

struct bl_queue {
	struct bl_job *job;
	unsigned int cpu;
	unsigned int index;	/* stream number within the job */
	struct task_struct *task;

	/* Written by completions (any context), drained by the thread. */
	struct llist_head done;

	/* Everything below is written by the queue thread alone. */
	struct bl_slot **slots;	/* all iodepth slots */
	struct bl_slot **free;	/* stack of idle slots */
	unsigned int nr_free;
	unsigned long inflight;	/* read racily by job-get */
	struct bl_gen gen;
	u64 limit;		/* IOs this queue issues after the ramp; U64_MAX: no limit */
	u64 issued;		/* IOs issued after the ramp */
	u64 cpu_start;		/* sum_exec_runtime at the end of the ramp */
	u64 cpu_end;
	u64 end_ns;		/* last completion, once finished */
	bool ramp_done;
	bool finished;

	struct u64_stats_sync sync;
	struct bl_op_stats st[BL_NR_OPS];
};

struct bl_params {
	u32 rw;
	u32 rwmixread;
	u32 bs;
	u32 iodepth;
	u32 batch;
	u64 offset;
	u64 size;
	u64 runtime_ns;
	u64 ramp_ns;
	u64 number_ios;
	u64 io_size;
	u64 randseed;
	bool allow_write;
	bool force;
	bool detached;
	bool no_lat;
};

struct bl_job {
	u32 id;
	refcount_t ref;		/* the table holds one; lookups take one */
	struct list_head owner_node;
	u32 owner;		/* netlink port id, 0 when detached */
	char *path;
	struct bl_params p;
	cpumask_var_t cpus;

	struct bl_bdev bdev;
	u64 dev_size;
	u32 dev_lbs;
	u64 mem_pinned;

	unsigned int nr_queues;
	struct bl_queue **queues;

	/* Control state, under bl_jobs_lock. */
	u32 state;		/* enum blkload_state */
	bool freeing;		/* deleted: freed once drained */
	bool watched;		/* a watch work waits for the drain */

	/* Shared with the queue threads. */
	bool started;
	bool stop;
	atomic_t running;	/* queues not yet finished */
	atomic_t reason;	/* first reason to finish wins */
	atomic_t error;		/* first IO error, negative errno */
	u64 start_ns;		/* set before started */
	wait_queue_head_t wq;	/* queue finished */
	struct work_struct watch_work;
};

/* main.c */
extern unsigned int blkload_max_iodepth;
extern unsigned int blkload_max_jobs;
extern unsigned long blkload_mem_budget_mb;

u64 blkload_mem_budget(void);

/* job.c */
extern struct mutex bl_jobs_lock;

u64 bl_mem_used(void);
unsigned int bl_nr_jobs(void);
struct bl_job *bl_job_create(const char *path, const struct bl_params *p,
			     const struct cpumask *cpus, u32 owner,
			     struct netlink_ext_ack *extack);
struct bl_job *bl_job_get(u32 id);
void bl_job_put(struct bl_job *job);
int bl_job_start(struct bl_job **jobs, unsigned int n, struct netlink_ext_ack *extack);
int bl_job_stop(struct bl_job *job, unsigned int timeout_ms, struct netlink_ext_ack *extack);
int bl_job_del(struct bl_job *job, unsigned int timeout_ms, struct netlink_ext_ack *extack);
u32 bl_job_next_id(u32 after);
void bl_jobs_owner_gone(u32 portid);
void bl_jobs_exit(void);
int bl_jobs_init(void);

/* engine.c */
int bl_queue_alloc(struct bl_job *job, unsigned int index, unsigned int cpu);
void bl_queue_free(struct bl_queue *q);
void bl_queue_read_stats(struct bl_queue *q, struct bl_op_stats *st, bool hist);
unsigned long bl_queue_inflight(const struct bl_queue *q);
u64 bl_queue_cpu_time(const struct bl_queue *q);
void bl_job_finished(struct bl_job *job);

/* netlink.c */
int blkload_nl_init(void);
void blkload_nl_exit(void);
void bl_nl_notify_done(struct bl_job *job);

#endif /* _BLKLOAD_H */
