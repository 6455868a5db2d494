/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace engines: the module's workload from userspace, for comparison.
 *
 * The shape is the module's: a job per device, a queue per (job, CPU) with
 * iodepth slots and the shared queue machine (include/blkload/queue.h),
 * which draws every IO from the shared generator, paces, limits, verifies
 * and counts them in the shared histogram layout; one thread per CPU,
 * pinned, serves the queues of every job on that CPU. So one seed gives the
 * same IO sequence and the same decisions through every engine and the
 * kernel path, and histograms merge exactly. An engine only moves IO:
 * engine.c does the rest, once for all of them. fio's engines/ are the
 * model of the ops table.
 */
#ifndef BLKLOAD_ENGINE_H
#define BLKLOAD_ENGINE_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <stdint.h>

#include <blkload/queue.h>

#include "../cpu.h"
#include "../nl.h"
#include "../job.h"
#include "../workload.h"

struct eng_thread;
struct eng_queue;

/* One IO slot: a buffer and the IO the queue machine drew into it. */
struct eng_slot {
	void *buf;
	struct eng_queue *q;
	struct bl_io io;
	int64_t res;		/* bytes done, or a negative errno */
	unsigned int index;	/* the buffer's index within its thread */
	struct eng_slot *next;	/* on an engine's list of completions */
};

/* One job's share of one CPU. */
struct eng_queue {
	struct eng_job *job;
	struct eng_thread *t;
	unsigned int cpu;
	struct eng_slot *slots;
	struct eng_slot **free;
	unsigned int nr_free;
	/* Not taken by a partial submission: they go again first (the machine's held). */
	struct eng_slot **held;
	unsigned int nr_held;
	uint64_t ios_done;	/* completions, to split the thread's CPU time */
	/* Within one reap of its thread (thread_reap()): the group it hands over. */
	uint64_t reap_gen;	/* the thread's reap these are of */
	uint64_t reap_ns;	/* the group's time */
	unsigned int reaped;	/* completions in the group so far */
	bool finished;		/* DONE: published with release, for the main thread */
	struct series ser;	/* its samples */
	struct bl_sample *scratch;	/* the sample being taken */
	int file;		/* the engine's handle of the job's target on this thread */
	struct bl_q q;		/* the queue machine: policy and statistics */
};

/* One target, as the module's job. */
struct eng_job {
	const char *path;
	int fd;			/* O_DIRECT; -1 for engines without a device */
	dev_t claim;		/* the device whose write claim it shares (claimed) */
	bool claimed;
	uint64_t dev_size;
	unsigned int lbs;
	unsigned int nr_queues;
	struct eng_queue *queues;
	struct bl_params p;	/* the workload, checked, with this target's region */
	struct bl_qjob core;	/* what its queues share (queue.h) */
	uint32_t reason;	/* first reason to end the job */
	int error;		/* first IO error, negative errno */
	void *priv;		/* the engine's per-job state (an rbd image) */
	unsigned char *pool;	/* core.pool, owned */
	unsigned int nvrep;	/* verify failures reported so far (atomic; may pass 16) */
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
	uint64_t reap_gen;	/* reaps so far */
	uint64_t cpu_ns;	/* its CPU time after the ramp */
	uint64_t usr_ns;	/* the user part of it */
	uint64_t ctx;		/* its context switches after the ramp */
	int error;		/* set-up failure, negative errno */
	void *priv;		/* the engine's per-thread state (a ring) */
};

struct results;
struct wave_env;

/*
 * A client path: the module (engines/kernel.c) or a userspace engine. The
 * CLI runs every path through this table, waves and options alike; a
 * userspace engine fills the IO-level ops and shares eng_wave().
 */
struct engine_ops {
	const char *name;
	const char *alias;	/* fio's name of it, where it differs (rbd), or NULL */
	const char *help;
	bool images;		/* targets are --rbdname images, not --dev devices */
	uint32_t req;		/* the request flavours it has (BLKLOAD_REQ_*) */
	bool trim;		/* it has trims */
	bool together;		/* the jobs of several workloads run together (a wave) */
	bool live;		/* its samples are read while it runs (--status-interval) */
	bool netlink;		/* it talks to the module */
	/* Its own options, in run's table (workload.c), parsed here; values are getopt's. */
	const struct wopt *opts;
	size_t nr_opts;
	int (*parse_opt)(struct workload *w, int val, const char *name, char *arg);
	/*
	 * One wave: @n workloads (one unless .together), their jobs run and
	 * added to @r with @groupid. Returns 0, 1 (a job failed) or -1
	 * (nothing to report).
	 */
	int (*wave)(const struct wave_env *env, struct workload **ws, const uint32_t *groupid,
		    unsigned int n, struct results *r);
	/* start: every workload's jobs made and started, their ids printed; NULL: none. */
	int (*start)(const struct wave_env *env, struct workload *ws, unsigned int n);
	/* Per run, before threads: open each job's target (fd, dev_size, lbs). */
	int (*job_open)(struct eng_run *run, struct eng_job *job);
	void (*job_close)(struct eng_run *run, struct eng_job *job);
	/* Per thread, on its CPU, after the slots exist (t->queues[]->slots). */
	int (*thread_init)(struct eng_thread *t);
	void (*thread_exit)(struct eng_thread *t);
	/*
	 * Submits @n prepared slots (io.op, io.off, io.len and buf set);
	 * returns how many went (the rest go again later) or a negative errno.
	 */
	int (*submit)(struct eng_thread *t, struct eng_slot **slots, unsigned int n);
	/*
	 * Puts up to @max completed slots (res set) into @done; waits for at
	 * least one up to @timeout_ns when @wait. Returns the count or a
	 * negative errno.
	 */
	int (*reap)(struct eng_thread *t, struct eng_slot **done, unsigned int max, bool wait,
		    uint64_t timeout_ns);
};

struct eng_run {
	const struct engine_ops *ops;
	const struct workload *w;
	const struct bl_params *p;	/* the workload checked: what every job shares */
	struct eng_job *jobs;
	unsigned int nr_jobs;
	struct eng_thread *threads;
	unsigned int nr_threads;
	pthread_barrier_t start;
	uint64_t start_ns;
	volatile sig_atomic_t *interrupted;	/* the CLI's Ctrl-C count */
	void *priv;		/* the engine's per-run state (a cluster connection) */
};

/* The jobs of a run, across its waves, with what the report needs of each. */
struct results {
	struct job *jobs;
	unsigned int n;
	struct cpu_window cw;
	unsigned int waves;
	bool detached;		/* a second Ctrl-C: the jobs left running, no report */
	bool end_all;		/* fio's exit_what=all: no wave after this one */
};

/* @k more jobs at the end of @r, zeroed. */
struct job *results_add(struct results *r, unsigned int k);

/* What a wave runs with. */
struct wave_env {
	struct bl_nl *nl;	/* the module's family (engines with .netlink) */
	struct nl_sock *ev;	/* its job-done events, or NULL */
	bool json;		/* the report is JSON: status lines go to stderr */
	bool pretty;		/* ... indented */
	bool exitall;		/* fio's exitall, set on a job of the run */
};

/*
 * fio's exitall: workload @k of a wave of @n (@ws, their @groupid) ended;
 * marks in @stop the workloads its exit_what names: its reporting group's,
 * or all of the wave's. True when the run ends with it (exit_what=all).
 */
bool exitall_whom(const struct wave_env *env, struct workload **ws, const uint32_t *groupid,
		  unsigned int n, unsigned int k, bool *stop);

/*
 * The checks of a run of @w on @ops that need no device nor module (params.h
 * with the path's limits, the engine's own refusals): 0, or -1 after saying
 * why. fio's --parse-only.
 */
int engine_check(const struct engine_ops *ops, const struct workload *w);
/* An engine by name ("rbd" is fio's name of librbd); NULL: the kernel. */
const struct engine_ops *engine_find(const char *name);
/* Every engine, the kernel first, NULL-terminated. */
const struct engine_ops *const *engine_all(void);
/* The engine that declares option @val, or NULL. */
const struct engine_ops *engine_of_opt(int val);
void engine_list(FILE *f);
/*
 * Says so when the job's region (@j's, in @r) is smaller than @w's size:
 * the device ended it; once per device a run.
 */
void region_note(const struct workload *w, const struct results *r, const struct job *j);

/* Where the jobs of a userspace wave wait for each other before they start. */
struct wave_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int want, got;
};

/* A job's place at the gate. */
struct wave_sync {
	struct wave_gate *gate;	/* NULL: a wave of one */
	bool arrived;
};

/* Once per job: waits until every job of the wave is ready (or failed). */
void wave_sync_arrive(struct wave_sync *s);

/* A userspace engine's wave: one workload through engine_run(). */
int eng_wave(const struct wave_env *env, struct workload **ws, const uint32_t *groupid,
	     unsigned int n, struct results *r);

/*
 * Runs @w through @ops on every device of the workload; fills @jobs (one
 * per device, as job-get would) for the report, and @cw with the client CPU
 * from the ramp's end to the last completion. Returns 0, or -1 after saying
 * why.
 */
int engine_run(const struct engine_ops *ops, const struct workload *w,
	       volatile sig_atomic_t *interrupted, struct job *jobs, struct cpu_window *cw);

uint64_t eng_now_ns(void);

extern const struct engine_ops eng_kernel, eng_io_uring, eng_libaio, eng_librbd;

#endif
