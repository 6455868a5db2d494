/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace engines: the module's workload from userspace, for comparison.
 *
 * The shape is the module's: a job per device, a queue per (job, CPU) with
 * iodepth slots, its own stream of the shared offset generator
 * (include/blkload/offset.h) and its own statistics in the shared histogram
 * layout (include/blkload/hist.h); one thread per CPU, pinned, serves the
 * queues of every job on that CPU. So one seed gives the same IO sequence
 * through every engine and the kernel path, and histograms merge exactly.
 * An engine only moves IO: engine.c does the rest, once for all of them.
 * fio's engines/ are the model of the ops table.
 */
#ifndef BLKLOAD_ENGINE_H
#define BLKLOAD_ENGINE_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <blkload/dist.h>

#include "../cpu.h"
#include "../job.h"
#include "../workload.h"

struct eng_thread;
struct eng_queue;

/* One IO slot: a buffer and the IO it carries. */
struct eng_slot {
	void *buf;
	struct eng_queue *q;
	uint64_t off;
	uint64_t sched_ns;	/* rate limit: when it was due */
	uint32_t len;		/* bytes of its IO */
	uint64_t submit_ns;	/* before the call that submits it */
	uint64_t sent_ns;	/* after that call returned */
	int64_t res;		/* bytes done, or a negative errno */
	unsigned int index;	/* the buffer's index within its thread */
	int op;			/* OP_READ, OP_WRITE, OP_TRIM (the generator's BL_GEN_*) */
	bool read;		/* op == OP_READ */
	bool counted;		/* issued after the ramp */
	struct eng_slot *next;	/* on an engine's list of completions */
	uint32_t *vsnap;	/* verify: each unit's map entry when a read was prepared */
};

/* One job's share of one CPU. */
struct eng_queue {
	struct eng_job *job;
	struct eng_thread *t;
	unsigned int cpu, index;
	struct bl_gen gen;
	struct bl_dist dist;	/* of a random stream's blocks */
	struct eng_slot *slots;
	struct eng_slot **free;
	unsigned int nr_free, inflight;
	uint64_t limit, issued;
	/* Rate limit, as the module's queues pace (IOs a second, next due, step). */
	uint32_t rate;
	uint64_t sched_next, sched_step, sched_rem, sched_acc;
	/* As the module's: no new IO before hold_until; thinking: draining for thinktime. */
	uint64_t hold_until;
	uint32_t think_count;
	bool thinking;
	struct bl_gen pace;
	uint64_t ramp_end, end, count_start_ns, end_ns, progress_ns, last_done_ns, stall_max;
	uint64_t ios_done;	/* completions, to split the thread's CPU time */
	uint64_t depth_t, depth_ns[BL_DEPTH_NR];	/* time at each in-flight level */
	unsigned int depth_inflight;	/* outstanding at the end of the last pass */
	uint32_t reason;
	bool ramp_done, stopping, finished;
	struct op_stats st[NR_OPS];
	uint64_t vchecked, vskipped, verrors;	/* verify */
	/* Time series (include/blkload/sample.h), as the module's queues take it. */
	struct bl_sampler_op sampler[NR_OPS];
	uint64_t sample_next, sample_last;
	struct series ser;
	struct bl_sample *scratch;	/* the sample being taken */
	int file;		/* the engine's handle of the job's target on this thread */
};

/* One target, as the module's job. */
struct eng_job {
	const char *path;
	int fd;			/* O_DIRECT; -1 for engines without a device */
	uint64_t dev_size;
	unsigned int lbs;
	unsigned int nr_queues;
	struct eng_queue *queues;
	uint32_t reason;	/* first reason to end the job */
	int error;		/* first IO error, negative errno */
	bool stop;
	void *priv;		/* the engine's per-job state (an rbd image) */
	unsigned char *pool;	/* what writes copy their data from (fill.h); NULL: none */
	/* verify (verify.h): the map of a job that writes, its nonce, the first failures */
	uint32_t *vmap;
	uint64_t vunits;
	uint32_t nonce;
	unsigned int nvrep;	/* failures reported so far (atomic; may pass 16) */
	uint64_t vreadback;	/* units the read-back pass read */
	struct { uint64_t off, want, got; uint32_t what; } vrep[16];
};

/* One pinned thread per CPU, serving that CPU's queues of every job. */
struct eng_thread {
	const struct engine_ops *ops;
	struct eng_run *run;
	unsigned int cpu;
	pthread_t tid;
	struct eng_queue **queues;
	unsigned int nr_queues;
	unsigned int depth;	/* slots over all its queues */
	struct eng_slot **done;	/* completions of one reap */
	uint64_t cpu_ns;	/* its CPU time after the ramp */
	uint64_t usr_ns;	/* the user part of it */
	uint64_t ctx;		/* its context switches after the ramp */
	int error;		/* set-up failure, negative errno */
	void *priv;		/* the engine's per-thread state (a ring) */
};

struct engine_ops {
	const char *name;
	const char *help;
	bool images;		/* targets are --rbdname images, not --dev devices */
	uint32_t req;		/* the request flavours it has (BLKLOAD_REQ_*) */
	bool trim;		/* it has trims */
	/* Per run, before threads: open each job's target (fd, dev_size, lbs). */
	int (*job_open)(struct eng_run *run, struct eng_job *job);
	void (*job_close)(struct eng_run *run, struct eng_job *job);
	/* Per thread, on its CPU, after the slots exist (t->queues[]->slots). */
	int (*thread_init)(struct eng_thread *t);
	void (*thread_exit)(struct eng_thread *t);
	/* Submits @n prepared slots (off, read, buf set); returns how many went. */
	int (*submit)(struct eng_thread *t, struct eng_slot **slots, unsigned int n);
	/*
	 * Puts up to @max completed slots (res set) into @done; waits for at
	 * least one up to @timeout_ns when @wait. Returns the count or a
	 * negative errno.
	 */
	int (*reap)(struct eng_thread *t, struct eng_slot **done, unsigned int max, bool wait,
		    uint64_t timeout_ns);
	/*
	 * verify's read-back pass: reads @len bytes at @off into @buf, whole
	 * or a negative errno. NULL: pread() on the job's O_DIRECT fd.
	 */
	int (*read_sync)(struct eng_job *job, uint64_t off, size_t len, void *buf);
};

struct eng_run {
	const struct engine_ops *ops;
	const struct workload *w;
	struct eng_job *jobs;
	unsigned int nr_jobs;
	struct eng_thread *threads;
	unsigned int nr_threads;
	pthread_barrier_t start;
	uint64_t start_ns;
	volatile sig_atomic_t *interrupted;	/* the CLI's Ctrl-C count */
	void *priv;		/* the engine's per-run state (a cluster connection) */
};

const struct engine_ops *engine_find(const char *name);
void engine_list(FILE *f);

/*
 * Runs @w through @ops on every device of the workload; fills @jobs (one
 * per device, as job-get would) for the report, and @cw with the client CPU
 * from the ramp's end to the last completion. Returns 0, or -1 after saying
 * why.
 */
int engine_run(const struct engine_ops *ops, const struct workload *w,
	       volatile sig_atomic_t *interrupted, struct job *jobs, struct cpu_window *cw);

uint64_t eng_now_ns(void);

extern const struct engine_ops eng_io_uring, eng_libaio, eng_librbd;

#endif
