// SPDX-License-Identifier: GPL-2.0
/*
 * The part of every userspace engine that is not moving IO: jobs, queues,
 * pinned threads, and the shared queue machine (include/blkload/queue.h)
 * that decides what goes when and what a completion counts for; and the
 * jobs as the report wants them. See engine.h.
 *
 * Timing is the machine's, as in the module and in fio: an IO's latency
 * runs from a clock read just before its submission call to the clock read
 * that follows the reap returning it. The reap is fio's (bl_q_reap_max()):
 * what one system call returns is handed to each queue
 * iodepth_batch_complete_max completions at a time (1 by default), oldest
 * first, the queue refilled between them; the first group is timed by a
 * clock read after the call, each later one by the clock read that followed
 * the submission before it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include "../inuse.h"
#include "../jobctl.h"
#include "../util.h"
#include "engine.h"

static const struct engine_ops *const engines[] = {
	&eng_kernel,
	&eng_io_uring,
	&eng_libaio,
	&eng_librbd,
	NULL,
};

const struct engine_ops *const *engine_all(void)
{
	return engines;
}

const struct engine_ops *engine_find(const char *name)
{
	if (!name)
		return &eng_kernel;
	for (const struct engine_ops *const *e = engines; *e; e++)
		if (!strcmp(name, (*e)->name) || ((*e)->alias && !strcmp(name, (*e)->alias)))
			return *e;
	return NULL;
}

const struct engine_ops *engine_of_opt(int val)
{
	for (const struct engine_ops *const *e = engines; *e; e++)
		for (size_t i = 0; i < (*e)->nr_opts; i++)
			if ((*e)->opts[i].val == val)
				return *e;
	return NULL;
}

void engine_list(FILE *f)
{
	for (const struct engine_ops *const *e = engines; *e; e++)
		fprintf(f, "  %-10s %s%s%s%s\n", (*e)->name, (*e)->help,
			*e == &eng_kernel ? " (default)" : "", (*e)->alias ? "; also " : "",
			(*e)->alias ? (*e)->alias : "");
}

struct job *results_add(struct results *r, unsigned int k)
{
	r->jobs = xrealloc(r->jobs, (r->n + k) * sizeof(*r->jobs));
	memset(r->jobs + r->n, 0, k * sizeof(*r->jobs));
	r->n += k;
	return r->jobs + r->n - k;
}

bool exitall_whom(const struct wave_env *env, struct workload **ws, const uint32_t *groupid,
		  unsigned int n, unsigned int k, bool *stop)
{
	if (!env->exitall)
		return false;
	for (unsigned int i = 0; i < n; i++)
		if (i != k && (ws[k]->exit_what != EXIT_GROUP || groupid[i] == groupid[k]))
			stop[i] = true;
	return ws[k]->exit_what == EXIT_ALL;
}

/* One workload of a wave, run by its own thread when several run together. */
struct wave_run {
	const struct engine_ops *ops;
	struct workload w;
	struct cpu_window *cw;
	struct job *jobs;
	unsigned int n;
	int ret;
	bool done;		/* engine_run() returned (atomic) */
	volatile sig_atomic_t *stop;	/* its own (exitall stops some), or Ctrl-C's */
	volatile sig_atomic_t *stops;	/* every workload's of the wave */
	unsigned int nws;
	struct wave_sync sync;
	pthread_t tid;
};

static void *wave_thread(void *arg)
{
	struct wave_run *wr = arg;

	wr->ret = engine_run(wr->ops, &wr->w, wr->stop, wr->jobs, wr->cw);
	/*
	 * One that failed before its start ends the others (before they pass
	 * the gate: the gate's lock orders the stop before their look at it).
	 */
	if (wr->ret && wr->sync.gate)
		for (unsigned int k = 0; k < wr->nws; k++)
			__atomic_store_n(&wr->stops[k], 1, __ATOMIC_RELEASE);
	wave_sync_arrive(&wr->sync);
	__atomic_store_n(&wr->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* Counts @n arrivals at @g, and waits for the rest when @wait. */
static void gate_arrive(struct wave_gate *g, unsigned int n, bool wait)
{
	pthread_mutex_lock(&g->lock);
	g->got += n;
	if (g->got >= g->want)
		pthread_cond_broadcast(&g->cond);
	while (wait && g->got < g->want)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void wave_sync_arrive(struct wave_sync *s)
{
	if (s && s->gate && !s->arrived) {
		s->arrived = true;
		gate_arrive(s->gate, 1, true);
	}
}

/*
 * A wave on the userspace engines: 0, 1 (IO errors) or -1. Several
 * workloads (fio's jobs of one wave, numjobs copies) run together, as fio's
 * threads do, each engine_run() in a thread of its own with its own pinned
 * threads, all started at one moment once every one is ready; one that
 * fails ends the others, and so does Ctrl-C. The wave's client CPU window
 * is then not taken (the jobs' ramps and ends differ), each job's thread
 * CPU is.
 */
int eng_wave(const struct wave_env *env, struct workload **ws, const uint32_t *groupid,
	     unsigned int nws, struct results *r)
{
	struct wave_run *wr = xcalloc(nws, sizeof(*wr));
	volatile sig_atomic_t *stops = xcalloc(nws, sizeof(*stops));
	bool *whom = xcalloc(nws, sizeof(*whom)), *seen = xcalloc(nws, sizeof(*seen));
	struct wave_gate gate = {
		.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER, .want = nws,
	};
	unsigned int started = 0;
	int rc = 0;

	for (unsigned int k = 0; k < nws; k++) {
		const struct workload *w = ws[k];

		wr[k].ops = engine_find(w->engine);
		wr[k].n = wr[k].ops->images ? w->nr_images : w->nr_devs;
		wr[k].jobs = xcalloc(wr[k].n ? wr[k].n : 1, sizeof(*wr[k].jobs));
		wr[k].w = *w;
		wr[k].cw = nws == 1 ? &r->cw : NULL;
		wr[k].stop = nws == 1 ? &interrupted : &stops[k];
		wr[k].stops = stops;
		wr[k].nws = nws;
		if (nws > 1) {
			wr[k].sync.gate = &gate;
			wr[k].w.sync = &wr[k].sync;
		}
		/* --start-at is the first wave's: the waves after it follow on. */
		if (r->waves)
			wr[k].w.start_at_ns = 0;
	}
	if (nws == 1) {
		wave_thread(&wr[0]);
		if (!wr[0].ret && exitall_whom(env, ws, groupid, 1, 0, whom))
			r->end_all = true;
	} else {
		for (; started < nws; started++)
			if (pthread_create(&wr[started].tid, NULL, wave_thread, &wr[started]))
				break;
		if (started < nws) {
			/* Those that started go through the gate and end at once. */
			fprintf(stderr, "blkload: cannot start a thread for job %u of the wave\n",
				started + 1);
			for (unsigned int k = 0; k < nws; k++)
				stops[k] = 1;
			for (unsigned int k = started; k < nws; k++) {
				wr[k].ret = -1;
				wr[k].done = true;
			}
			gate_arrive(&gate, nws - started, false);
		}
		for (bool all = false; !all;) {
			struct timespec ts = { 0, 20000000 };

			bool stop_all = interrupted;

			all = true;
			for (unsigned int k = 0; k < nws; k++) {
				bool done = __atomic_load_n(&wr[k].done, __ATOMIC_ACQUIRE);

				all &= done;
				if (done && wr[k].ret)
					stop_all = true;
				/* fio's exitall: an end stops those its exit_what names. */
				if (done && !seen[k]) {
					seen[k] = true;
					if (!wr[k].ret && exitall_whom(env, ws, groupid, nws, k, whom))
						r->end_all = true;
				}
			}
			for (unsigned int k = 0; k < nws; k++)
				if (stop_all || whom[k])
					__atomic_store_n(&stops[k], 1, __ATOMIC_RELEASE);
			if (!all)
				nanosleep(&ts, NULL);
		}
		for (unsigned int k = 0; k < started; k++)
			pthread_join(wr[k].tid, NULL);
	}
	for (unsigned int k = 0; k < nws; k++) {
		struct workload *w = ws[k];
		struct job *out;

		if (wr[k].ret) {
			for (unsigned int i = 0; i < wr[k].n; i++)
				job_clear(&wr[k].jobs[i]);
			rc = -1;
			continue;
		}
		out = results_add(r, wr[k].n);
		for (unsigned int i = 0; i < wr[k].n; i++) {
			out[i] = wr[k].jobs[i];
			out[i].groupid = groupid[k];
			out[i].opts = &w->opts;
			out[i].name = w->name;
			out[i].logs = &w->logs;
			out[i].group_reporting = w->group_reporting;
			region_note(w, r, &out[i]);
			job_rate_min_note(&out[i], w->name);
			if ((out[i].error || job_errors(&out[i])) && rc >= 0)
				rc = 1;
		}
	}
	for (unsigned int k = 0; k < nws; k++)
		free(wr[k].jobs);
	free(wr);
	free((void *)stops);
	free(whom);
	free(seen);
	return rc;
}

/*
 * Writes claim a device (O_EXCL) for the process: the jobs of one run that
 * write to the same device at once (fio's numjobs copies, jobs of a wave)
 * share the claim, which the first holds open until the last is done.
 */
struct claim {
	dev_t rdev;
	int fd;
	unsigned int users;
};

static pthread_mutex_t claims_lock = PTHREAD_MUTEX_INITIALIZER;
static struct claim *claims;
static unsigned int nr_claims;

static int claim_get(const char *path, dev_t *rdev)
{
	struct stat st;
	int ret = 0, fd;

	pthread_mutex_lock(&claims_lock);
	/* Already claimed by this process: shared (the job's fd is checked against it). */
	if (!stat(path, &st) && S_ISBLK(st.st_mode)) {
		for (unsigned int i = 0; i < nr_claims; i++)
			if (claims[i].rdev == st.st_rdev) {
				claims[i].users++;
				*rdev = st.st_rdev;
				goto out;
			}
	}
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	/* The key is the device the claim holds, not what the name meant a moment ago. */
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode)) {
		close(fd);
		ret = -ENOTBLK;
		goto out;
	}
	claims = xrealloc(claims, (nr_claims + 1) * sizeof(*claims));
	claims[nr_claims++] = (struct claim){ .rdev = st.st_rdev, .fd = fd, .users = 1 };
	*rdev = st.st_rdev;
out:
	pthread_mutex_unlock(&claims_lock);
	return ret;
}

static void claim_put(dev_t rdev)
{
	pthread_mutex_lock(&claims_lock);
	for (unsigned int i = 0; i < nr_claims; i++) {
		if (claims[i].rdev != rdev || --claims[i].users)
			continue;
		close(claims[i].fd);
		claims[i] = claims[--nr_claims];
		if (!nr_claims) {
			free(claims);
			claims = NULL;
		}
		break;
	}
	pthread_mutex_unlock(&claims_lock);
}

void region_note(const struct workload *w, const struct results *r, const struct job *j)
{
	if (w->clone || !w->p.size || !j->p.size || j->p.size >= w->p.size)
		return;
	/* Each device once a run: not when a job before it was cut there already. */
	for (const struct job *b = r->jobs; b < j; b++)
		if (b->path && !strcmp(b->path, j->path) && b->p.size == j->p.size &&
		    b->p.offset == j->p.offset)
			return;
	fprintf(stderr, "blkload: %s: size %" PRIu64 " from offset %" PRIu64 " is past the device's end: the region ends there (%" PRIu64 " bytes), as in fio\n",
		j->path, w->p.size, w->p.offset, j->p.size);
}

uint64_t eng_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The thread's user and system time (tick-sampled) and context switches. */
static void thread_rusage(uint64_t *usr, uint64_t *sys, uint64_t *ctx)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru)) {
		*usr = *sys = *ctx = 0;
		return;
	}
	*usr = (uint64_t)ru.ru_utime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_utime.tv_usec * 1000;
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_stime.tv_usec * 1000;
	*ctx = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

/* A slot's buffer for the queue machine (write data, verify): one piece. */
static uint8_t *slot_map(void *ctx, uint32_t at, uint32_t *contig)
{
	struct eng_slot *s = ctx;

	*contig = s->io.len > at ? s->io.len - at : 0;
	return (uint8_t *)s->buf + at;
}

static void slot_unmap(void *ctx, uint8_t *p)
{
	(void)ctx;
	(void)p;
}

static const struct bl_buf_ops slot_buf_ops = {
	.map = slot_map,
	.unmap = slot_unmap,
};

/* Ends a job for @reason (the first one wins); any thread. */
static void job_end(struct eng_job *job, uint32_t reason)
{
	uint32_t none = 0;

	__atomic_compare_exchange_n(&job->reason, &none, reason, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	__atomic_store_n(&job->core.stop, true, __ATOMIC_RELEASE);
}

/* Keeps the job's first error; any thread. */
static void job_error(struct eng_job *job, int err)
{
	int none = 0;

	__atomic_compare_exchange_n(&job->error, &none, err, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
}

/* What the queue machine asks of a job (queue.h). */
static void core_end(struct bl_qjob *core, uint32_t reason)
{
	job_end((struct eng_job *)((char *)core - offsetof(struct eng_job, core)), reason);
}

static void core_error(struct bl_qjob *core, int err)
{
	job_error((struct eng_job *)((char *)core - offsetof(struct eng_job, core)), err);
}

/* A verify failure: the first 16 kept (the index only while they are: no wrap). */
static void core_vfail(struct bl_qjob *core, uint64_t off, int what, uint64_t want, uint64_t got)
{
	struct eng_job *job = (struct eng_job *)((char *)core - offsetof(struct eng_job, core));
	unsigned int i, max = sizeof(job->vrep) / sizeof(job->vrep[0]);

	if (__atomic_load_n(&job->nvrep, __ATOMIC_RELAXED) >= max)
		return;
	i = __atomic_fetch_add(&job->nvrep, 1, __ATOMIC_RELAXED);
	if (i < max) {
		job->vrep[i].off = off;
		job->vrep[i].what = (uint32_t)what;
		job->vrep[i].want = want;
		job->vrep[i].got = got;
	}
}

/* The threads look at their queues at least every 50 ms: nothing to wake. */
static void core_kick(struct bl_qjob *core)
{
	(void)core;
}

static const struct bl_qjob_ops core_ops = {
	.end = core_end,
	.error = core_error,
	.vfail = core_vfail,
	.kick = core_kick,
};

/* Samples go into the queue's series, without allocating as far as its room goes. */
static struct bl_sample *sample_slot(struct bl_q *mq)
{
	struct eng_queue *q = (struct eng_queue *)((char *)mq - offsetof(struct eng_queue, q));

	return q->scratch;
}

static void sample_publish(struct bl_q *mq)
{
	struct eng_queue *q = (struct eng_queue *)((char *)mq - offsetof(struct eng_queue, q));

	series_add(&q->ser, q->ser.nr, q->scratch);
}

static const struct bl_q_sink sample_sink = {
	.slot = sample_slot,
	.publish = sample_publish,
};

static int queue_init(struct eng_run *run, struct eng_job *job, struct eng_queue *q,
		      unsigned int index, unsigned int cpu)
{
	const struct bl_params *p = &job->p;
	size_t align = job->lbs > 4096 ? job->lbs : 4096;

	q->job = job;
	q->cpu = cpu;
	if (!bl_q_init(&q->q, &job->core, index,
		       bl_params_paced(p) ? xcalloc(1, sizeof(struct bl_sched_stats)) : NULL,
		       &sample_sink))
		return -1;
	q->slots = xcalloc(p->iodepth, sizeof(*q->slots));
	q->free = xcalloc(p->iodepth, sizeof(*q->free));
	q->held = xcalloc(p->iodepth, sizeof(*q->held));
	for (unsigned int i = 0; i < p->iodepth; i++) {
		struct eng_slot *s = &q->slots[i];

		if (posix_memalign(&s->buf, align, p->bs_max))
			return -1;
		memset(s->buf, 0, p->bs_max);
		if (p->verify)
			s->io.vsnap = xcalloc(p->bs_max / p->bs, sizeof(uint32_t));
		s->q = q;
		q->free[q->nr_free++] = s;
	}
	if (p->sample_ns) {
		/* The whole run and its drain where its length is known, else 256 to start. */
		size_t n = p->runtime_ns ? (size_t)((p->runtime_ns +
						     (uint64_t)run->w->drain_ms * 1000000) /
						    p->sample_ns) + 4 : 256;

		q->scratch = xcalloc(1, sizeof(*q->scratch));
		q->ser.interval = p->sample_ns;
		/* And 128 buckets kept each: what a spread of 8 powers of two takes. */
		series_reserve(&q->ser, n, n * 128);
	}
	return 0;
}

/*
 * Submits what the queue may: its held IOs first, then what the machine
 * draws, in batches of one submission call. The clock read after the last
 * call goes into *@clock (with per-IO timing). Returns true when anything
 * went.
 */
static bool queue_submit(struct eng_thread *t, struct eng_queue *q, uint64_t now,
			 uint64_t *clock)
{
	const struct bl_params *p = &q->job->p;
	unsigned int n = q->nr_held + bl_q_room(&q->q, q->nr_free), batch = p->batch;
	struct eng_slot *slots[64];
	bool any = false;

	while (n) {
		unsigned int b = n < batch ? n : batch, i, held = 0;
		int sent;

		if (b > sizeof(slots) / sizeof(slots[0]))
			b = sizeof(slots) / sizeof(slots[0]);
		for (i = 0; i < b; i++) {
			struct eng_slot *s;

			if (q->nr_held) {
				/* The same IO as before: its data is prepared. */
				slots[i] = q->held[--q->nr_held];
				held++;
				continue;
			}
			s = q->free[q->nr_free - 1];
			/* Not due yet, a hold, think time, the pass paused: later. */
			if (!bl_q_draw(&q->q, now, &s->io)) {
				b = i;
				n = i;
				break;
			}
			q->nr_free--;
			bl_q_prep(&q->q, &s->io, &slot_buf_ops, s);
			slots[i] = s;
		}
		if (!b)
			break;
		/* Each new IO from just before the call that submits it. */
		for (i = held; i < b; i++)
			slots[i]->io.submit_ns = p->no_lat ? 0 : eng_now_ns();
		for (i = 0; i < b; i++) {
			if (i < held)
				bl_q_resent(&q->q, now);
			else
				bl_q_sent(&q->q, now);
		}
		sent = t->ops->submit(t, slots, b);
		if (!p->no_lat && sent > 0) {
			uint64_t ns = eng_now_ns();

			for (i = 0; i < (unsigned int)sent; i++)
				slots[i]->io.sent_ns = ns;
			*clock = ns;
		}
		if (sent < 0) {
			job_error(q->job, sent);
			job_end(q->job, BLKLOAD_REASON_ERROR);
			sent = 0;
		}
		/* What did not go now goes again first, counted as it was (a limit counts it). */
		for (i = b; i-- > (unsigned int)sent;) {
			bl_q_refused(&q->q);
			q->held[q->nr_held++] = slots[i];
		}
		any |= sent > 0;
		if ((unsigned int)sent < b)
			break;
		n -= b;
	}
	return any;
}

/* A stop drops the held IOs: they will not go again. */
static void queue_drop_held(struct eng_queue *q)
{
	while (q->nr_held) {
		struct eng_slot *s = q->held[--q->nr_held];

		bl_q_dropped(&q->q, &s->io, &slot_buf_ops, s);
		q->free[q->nr_free++] = s;
	}
}

/*
 * One turn over a queue at @now (@turn false: a refill between two reaps,
 * within the thread's turn): the machine's phases, then submissions (the
 * clock read after them into *@clock); the next deadline into *@next.
 * Returns true when it did anything that needs another turn at once.
 */
static bool queue_service(struct eng_thread *t, struct eng_queue *q, uint64_t now,
			  uint64_t *next, uint64_t *clock, bool turn)
{
	bool stop = __atomic_load_n(&q->job->core.stop, __ATOMIC_ACQUIRE), busy = false;
	uint8_t phase = q->q.phase;
	unsigned int act;

	/* Since the last turn the thread had q->q.inflight IOs outstanding. */
	if (turn)
		bl_q_depth(&q->q, now);
	act = bl_q_tick(&q->q, now, stop);
	if (act & BL_Q_DROP_HELD) {
		queue_drop_held(q);
		act = bl_q_tick(&q->q, now, stop);
	}
	if (act & BL_Q_FINISHED) {
		/* end_ns and the statistics before finished, for the main thread. */
		__atomic_store_n(&q->finished, true, __ATOMIC_RELEASE);
		return true;
	}
	busy = q->q.phase != phase;
	if (bl_q_sends(&q->q) && (q->nr_free || q->nr_held)) {
		busy |= queue_submit(t, q, now, clock);
		/* A read-back pass that used up its look-ahead, or ended: at once. */
		busy |= q->q.vmore || (q->q.vdone && !q->q.inflight && !q->nr_held);
	}
	/* Held IOs go first: nothing new is due before they went (a rate would spin). */
	*next = bl_q_deadline(&q->q, q->nr_held ? 0 : q->nr_free, *next);
	return busy;
}

static void thread_reap(struct eng_thread *t, bool wait, uint64_t timeout)
{
	int n = t->ops->reap(t, t->done, t->depth, wait, timeout);
	uint64_t now;

	if (n <= 0) {
		if (n < 0 && n != -EINTR && n != -ETIME && n != -EAGAIN)
			for (unsigned int i = 0; i < t->nr_queues; i++) {
				job_error(t->queues[i]->job, n);
				job_end(t->queues[i]->job, BLKLOAD_REASON_ERROR);
			}
		return;
	}
	/* A clock read after the call: every IO it returned completed by then. */
	now = eng_now_ns();
	t->reap_gen++;
	for (int i = 0; i < n; i++) {
		struct eng_slot *s = t->done[i];
		struct eng_queue *q = s->q;
		int err = s->res == (int64_t)s->io.len ? 0 : s->res < 0 ? (int)s->res : -EIO;

		if (q->reap_gen != t->reap_gen) {
			q->reap_gen = t->reap_gen;
			q->reap_ns = now;
			q->reaped = 0;
		} else if (q->reaped == bl_q_reap_max(&q->q)) {
			/*
			 * fio's reap: the queue is refilled before its next
			 * group, timed by the clock read after that submission;
			 * a whole turn only where the machine's tick has
			 * something to do.
			 */
			uint64_t next = UINT64_MAX;
			bool stop = __atomic_load_n(&q->job->core.stop, __ATOMIC_ACQUIRE);

			if (!bl_q_tick_idle(&q->q, q->reap_ns, stop))
				queue_service(t, q, q->reap_ns, &next, &q->reap_ns, false);
			else if (q->nr_free || q->nr_held)
				queue_submit(t, q, q->reap_ns, &q->reap_ns);
			q->reaped = 0;
		}
		q->reaped++;
		/* The thread's CPU is the workload's: split by its counted IOs. */
		q->ios_done += s->io.counted;
		bl_q_reaped(&q->q, &s->io, err, q->reap_ns, &slot_buf_ops, s);
		q->free[q->nr_free++] = s;
	}
}

/* Whether every queue of the thread is done with its workload (verify's read-back pass aside). */
static bool thread_work_done(const struct eng_thread *t)
{
	for (unsigned int i = 0; i < t->nr_queues; i++)
		if (!__atomic_load_n(&t->queues[i]->finished, __ATOMIC_ACQUIRE) &&
		    !__atomic_load_n(&t->queues[i]->q.work_done, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/* The thread's CPU time and context switches since the ramp's end (@cpu0, @usr0, ...). */
static void thread_cpu_end(struct eng_thread *t, uint64_t cpu0, uint64_t usr0, uint64_t sys0,
			   uint64_t ctx0)
{
	uint64_t usr, sys, ctx;

	t->cpu_ns = thread_cpu_ns() - cpu0;
	thread_rusage(&usr, &sys, &ctx);
	/* The exact CPU time, split as the sampled user and system times are. */
	usr -= usr0;
	sys -= sys0;
	t->usr_ns = usr + sys ? (uint64_t)((double)t->cpu_ns * (double)usr / (double)(usr + sys)) : 0;
	t->ctx = ctx - ctx0;
}

static void *thread_fn(void *arg)
{
	struct eng_thread *t = arg;
	struct eng_run *run = t->run;
	const struct bl_params *p = run->p;
	uint64_t ramp_end, cpu0 = 0, usr0 = 0, sys0 = 0, ctx0 = 0;
	bool ramp_done = !p->ramp_ns && !p->startdelay_ns, cpu_done = false;

	t->error = t->ops->thread_init ? t->ops->thread_init(t) : 0;
	pthread_barrier_wait(&run->start);	/* everyone ready */
	pthread_barrier_wait(&run->start);	/* run->start_ns is set */
	/* startdelay: nothing before it; the ramp and the runtime start then. */
	ramp_end = run->start_ns + p->startdelay_ns + p->ramp_ns;
	for (unsigned int i = 0; i < t->nr_queues; i++) {
		struct eng_queue *q = t->queues[i];

		bl_q_start(&q->q, run->start_ns);
		if (t->error) {
			job_error(q->job, t->error);
			job_end(q->job, BLKLOAD_REASON_ERROR);
		}
	}
	if (ramp_done) {
		cpu0 = thread_cpu_ns();
		thread_rusage(&usr0, &sys0, &ctx0);
	}
	for (;;) {
		uint64_t now = eng_now_ns(), next = UINT64_MAX, clock = 0;
		unsigned int live = 0, inflight = 0;
		bool busy = false;

		if (!ramp_done && now >= ramp_end) {
			ramp_done = true;
			cpu0 = thread_cpu_ns();
			thread_rusage(&usr0, &sys0, &ctx0);
		}
		for (unsigned int i = 0; i < t->nr_queues; i++) {
			struct eng_queue *q = t->queues[i];

			if (q->finished)
				continue;
			busy |= queue_service(t, q, now, &next, &clock, true);
			if (q->finished)
				continue;
			live++;
			inflight += q->q.inflight;
		}
		/* The client CPU of the workload, not of verify's read-back pass after it. */
		if (!cpu_done && ramp_done && thread_work_done(t)) {
			thread_cpu_end(t, cpu0, usr0, sys0, ctx0);
			cpu_done = true;
		}
		if (!live)
			break;
		if (busy && !inflight)
			continue;
		if (!inflight) {
			/* Only a deadline (an IO due) or a stop to wait for: up to 1 ms. */
			struct timespec ts = { 0, 1000000 };

			if (next > now && next - now < 1000000)
				ts.tv_nsec = (long)(next - now);
			if (next > now)
				nanosleep(&ts, NULL);
			continue;
		}
		/* Wake for deadlines and for stops (Ctrl-C) at least every 50 ms. */
		next = next > now ? next - now : 0;
		thread_reap(t, !busy, next < 50000000ULL ? next : 50000000ULL);
	}
	if (!cpu_done && ramp_done)
		thread_cpu_end(t, cpu0, usr0, sys0, ctx0);
	if (t->ops->thread_exit)
		t->ops->thread_exit(t);
	return NULL;
}

/* The CPUs of the workload, or the first one this process may use. */
static unsigned int run_cpus(const struct workload *w, unsigned int **out)
{
	unsigned int n = 0, *cpus = NULL;

	if (w->have_cpus) {
		for (unsigned int c = 0; c < cpuset_limit(&w->cpus); c++) {
			if (!cpuset_test(&w->cpus, c))
				continue;
			cpus = xrealloc(cpus, (n + 1) * sizeof(*cpus));
			cpus[n++] = c;
		}
	} else {
		cpu_set_t set;

		cpus = xcalloc(1, sizeof(*cpus));
		CPU_ZERO(&set);
		sched_getaffinity(0, sizeof(set), &set);
		for (unsigned int c = 0; c < CPU_SETSIZE; c++) {
			if (CPU_ISSET(c, &set)) {
				cpus[n++] = c;
				break;
			}
		}
	}
	*out = cpus;
	return n;
}

/*
 * A queue machine's statistics of one operation as the report's; with
 * @hist (scratch room for them), its histograms, valid until the next call.
 */
static struct op_stats op_view(const struct bl_q *q, int op, struct bl_op_stats *hist)
{
	const struct bl_op_live *st = &q->s.st[op];
	struct op_stats v = {
		.ios = st->ios, .bytes = st->bytes, .errors = st->errors,
		.lat = st->lat, .clat = st->clat, .slat = st->slat, .split = true,
	};

	if (hist) {
		bl_op_live_read(st, hist, true);
		v.hist = hist->hist;
		v.chist = hist->chist;
	}
	if (q->sched) {
		v.has_sched = true;
		v.sched = q->sched->lat[op];
		v.sched_n = st->ios;
		v.shist = hist ? (uint64_t *)q->sched->hist[op] : NULL;
	}
	return v;
}

/* A job's statistics as the module's job-get gives them. */
static void job_fill(struct eng_run *run, unsigned int idx, const unsigned int *cpus,
		     unsigned int ncpus, struct job *j)
{
	struct eng_job *job = &run->jobs[idx];
	const struct bl_params *p = &job->p;
	uint64_t first = UINT64_MAX, last = 0;
	struct cpuset set = { 0 };
	/* Room for one queue's histograms of one operation, read apart. */
	struct bl_op_stats *hist = xcalloc(1, sizeof(*hist));

	memset(j, 0, sizeof(*j));
	j->id = idx + 1;
	j->path = xstrdup(job->path);
	j->p = *p;
	j->has_verify = p->verify;
	j->nvrep = job->nvrep < 16 ? job->nvrep : 16;
	for (unsigned int i = 0; i < j->nvrep; i++) {
		j->vrep[i].off = job->vrep[i].off;
		j->vrep[i].want = job->vrep[i].want;
		j->vrep[i].got = job->vrep[i].got;
		j->vrep[i].what = job->vrep[i].what;
	}
	if (p->nbs[0]) {
		uint32_t r[BL_GEN_BS_MAX][3], w[BL_GEN_BS_MAX][3];
		unsigned int nr = bl_params_split_get(p, 0, r), nw = bl_params_split_get(p, 1, w);

		j->bssplit = bs_format(r, (int)(nr * sizeof(r[0])), w, (int)(nw * sizeof(w[0])));
	}
	j->state = BLKLOAD_STATE_DONE;
	j->error = job->error;
	j->dev_size = job->dev_size;
	j->dev_lbs = job->lbs;
	for (unsigned int i = 0; i < ncpus; i++)
		cpuset_set(&set, cpus[i]);
	j->cpus = cpuset_format(&set);
	j->nr_cpus = ncpus;
	cpuset_free(&set);
	j->queues = xcalloc(job->nr_queues, sizeof(*j->queues));
	j->nr_queues = job->nr_queues;
	for (unsigned int i = 0; i < job->nr_queues; i++) {
		struct eng_queue *q = &job->queues[i];
		const struct bl_qstats *s = &q->q.s;
		struct queue_stats *qs = &j->queues[i];
		struct eng_thread *t = q->t;
		uint64_t tios = 0, share;

		/* The thread's CPU time, split over its queues by completions. */
		for (unsigned int k = 0; k < t->nr_queues; k++)
			tios += t->queues[k]->ios_done;
		share = tios ? (uint64_t)((double)t->cpu_ns * (double)q->ios_done / (double)tios) : 0;
		j->usr_ns += tios ? (uint64_t)((double)t->usr_ns * (double)q->ios_done /
					       (double)tios) : 0;
		j->ctx += tios ? (uint64_t)((double)t->ctx * (double)q->ios_done /
					    (double)tios + 0.5) : 0;
		qs->cpu = q->cpu;
		qs->cpu_time = share;
		qs->stall_max = s->stall_max;
		j->cpu_time += share;
		if (s->stall_max > j->stall_max)
			j->stall_max = s->stall_max;
		j->vchecked += s->vchecked;
		j->vskipped += s->vskipped;
		j->verrors += s->verrors;
		j->vreadback += s->vreadback;
		for (int op = 0; op < NR_OPS; op++) {
			struct op_stats v = op_view(&q->q, op, hist);

			op_sum(&j->op[op], &v);
			qs->op[op] = op_view(&q->q, op, NULL);
		}
		for (int k = 0; k < BL_DEPTH_NR; k++) {
			qs->depth_ns[k] = s->depth_ns[k];
			j->depth_ns[k] += s->depth_ns[k];
		}
		j->ser.interval = q->ser.interval;
		series_merge(&j->ser, &q->ser);
		if (q->q.count_start_ns < first)
			first = q->q.count_start_ns;
		if (q->q.end_ns > last)
			last = q->q.end_ns;
		if (!j->reason)
			j->reason = q->q.reason;
		else if (q->q.reason == BLKLOAD_REASON_RUNTIME)
			j->reason = q->q.reason;
	}
	if (job->reason)
		j->reason = job->reason;
	j->elapsed = last > first ? last - first : 0;
	j->ramp_done = true;
	free(hist);
}

/* Size and logical block size of the block device open at @fd. */
static int ioctl_block_size(int fd, uint64_t *size, unsigned int *lbs)
{
	int ssz;

	if (ioctl(fd, BLKGETSIZE64, size) || ioctl(fd, BLKSSZGET, &ssz))
		return -1;
	*lbs = (unsigned int)ssz;
	return 0;
}

static int job_open(struct eng_run *run, struct eng_job *job)
{
	const struct workload *w = run->w;
	bool changes = bl_params_changes(run->p);
	int flags = (w->buffered ? 0 : O_DIRECT) | (changes ? O_RDWR : O_RDONLY), err;

	/*
	 * Writes claim the device unless forced, as the module's do, once the
	 * guard found nobody using it and no data on it (inuse.h).
	 */
	if (changes && !run->p->force) {
		if (!w->guarded && bl_write_guard(job->path))
			return -EBUSY;
		err = claim_get(job->path, &job->claim);
		if (err)
			goto fail;
		job->claimed = true;
	}
	job->fd = open(job->path, flags | O_CLOEXEC);
	if (job->fd < 0) {
		err = -errno;
		goto fail;
	}
	/* A writer writes the device its claim holds, whatever the name points at now. */
	if (job->claimed) {
		struct stat st;

		if (fstat(job->fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != job->claim) {
			close(job->fd);
			job->fd = -1;
			err = -EBUSY;
			goto fail;
		}
	}
	return 0;
fail:
	fprintf(stderr, "blkload: %s: %s%s\n", job->path, strerror(-err),
		err == -EBUSY ? " (mounted or claimed; --force writes anyway)" : "");
	return err;
}

/*
 * The workload checked as the module checks it (params.h), and what the
 * engine cannot do of it, said; true when it cannot run it.
 */
static bool engine_refuses(const struct engine_ops *ops, struct bl_params *p,
			   unsigned int nr_queues)
{
	uint32_t no = p->req & ~ops->req;
	const char *why = NULL;

	static const struct bl_params_limits lim = {
		.iodepth_max = BL_IODEPTH_LIMIT,
		.bs_max = BL_ENGINE_BS_MAX,
		.iodepth_no = "iodepth is over the engines' limit (65536)",
	};

	if (bl_params_check(p, nr_queues, &lim, &why)) {
		fprintf(stderr, "blkload: %s\n", why);
		return true;
	}
	if (bl_params_trims(p) && !ops->trim) {
		fprintf(stderr, "blkload: --engine %s has no trims (the module and librbd have)\n",
			ops->name);
		return true;
	}
	for (unsigned int b = 0; b < 32; b++) {
		if (no >> b & 1) {
			fprintf(stderr, "blkload: --engine %s has no --%s\n", ops->name,
				req_name(1U << b));
			return true;
		}
	}
	return false;
}

int engine_check(const struct engine_ops *ops, const struct workload *w)
{
	/* The module's own checks (job.c) are params.h's, with its limits. */
	static const struct bl_params_limits module_lim = {
		.iodepth_max = BL_IODEPTH_LIMIT,
		.bs_max = BL_BS_MAX,
		.iodepth_no = "iodepth is over the module's largest max_iodepth (65536)",
	};
	struct bl_params p = w->p;
	unsigned int *cpus, ncpus = run_cpus(w, &cpus);
	const char *why = NULL;

	free(cpus);
	if (!ncpus) {
		fprintf(stderr, "blkload: no CPU to run on\n");
		return -1;
	}
	if (!ops->netlink)
		return engine_refuses(ops, &p, ncpus) ? -1 : 0;
	if (!bl_params_check(&p, ncpus, &module_lim, &why))
		return 0;
	fprintf(stderr, "blkload: %s\n", why);
	return -1;
}

/* The job's parameters with its region, its pool, its verify map. */
static int job_setup(struct eng_run *run, struct eng_job *job)
{
	struct bl_params *p = &job->p;
	const char *why = NULL;
	struct bl_dist d;

	*p = *run->p;
	if (bl_params_region(p, job->dev_size, job->lbs, job->nr_queues, &why)) {
		fprintf(stderr, "blkload: %s: %s\n", job->path, why);
		return -1;
	}
	if (p->dist != BLKLOAD_DIST_RANDOM && bl_params_dist_init(p, &d, bl_params_units(p), &why)) {
		fprintf(stderr, "blkload: %s: %s\n", job->path, why);
		return -1;
	}
	job->core.p = p;
	job->core.ops = &core_ops;
	job->core.nr_queues = job->nr_queues;
	BL_ATOMIC_SET(&job->core.vpending, (int)job->nr_queues);
	if (bl_params_fills(p)) {
		uint64_t psize = bl_fill_pool_size(p->bs_max);

		job->pool = xcalloc(1, psize);
		bl_fill_pool(job->pool, 0, (uint32_t)psize, bl_params_fill_seed(p), p->buf_compress);
		job->core.pool = job->pool;
	}
	if (bl_params_vmap(p)) {
		job->core.vunits = bl_params_units(p);
		job->core.vmap = xcalloc(job->core.vunits, sizeof(uint32_t));
	}
	if (p->verify && getentropy(&job->core.vnonce, sizeof(job->core.vnonce)))
		job->core.vnonce = (uint32_t)eng_now_ns();
	return 0;
}

int engine_run(const struct engine_ops *ops, const struct workload *w,
	       volatile sig_atomic_t *intr, struct job *jobs, struct cpu_window *cw)
{
	struct bl_params p = w->p;
	struct eng_run run = { .ops = ops, .w = w, .p = &p, .interrupted = intr };
	unsigned int *cpus, ncpus = run_cpus(w, &cpus);
	uint64_t start_ms = 0;
	int ret = -1, late = 0;

	if (!ncpus) {
		fprintf(stderr, "blkload: no CPU to run on\n");
		free(cpus);
		return -1;
	}
	if (engine_refuses(ops, &p, ncpus)) {
		free(cpus);
		return -1;
	}
	run.nr_jobs = ops->images ? w->nr_images : w->nr_devs;
	if (!run.nr_jobs) {
		fprintf(stderr, "blkload: --engine %s needs %s\n", ops->name,
			ops->images ? "--rbdname IMAGE (and --pool)" : "--dev DEVICE");
		free(cpus);
		return -1;
	}
	run.jobs = xcalloc(run.nr_jobs, sizeof(*run.jobs));
	for (unsigned int i = 0; i < run.nr_jobs; i++) {
		run.jobs[i].path = ops->images ? w->images[i] : w->devs[i];
		run.jobs[i].fd = -1;
		run.jobs[i].nr_queues = ncpus;
	}
	for (unsigned int i = 0; i < run.nr_jobs; i++) {
		struct eng_job *job = &run.jobs[i];

		if ((ops->job_open ? ops->job_open : job_open)(&run, job))
			goto out;
		if (job->fd >= 0 && !job->dev_size) {
			if (ioctl_block_size(job->fd, &job->dev_size, &job->lbs)) {
				fprintf(stderr, "blkload: %s: not a block device\n", job->path);
				goto out;
			}
		}
		if (job_setup(&run, job))
			goto out;
		job->queues = xcalloc(ncpus, sizeof(*job->queues));
		for (unsigned int c = 0; c < ncpus; c++) {
			if (queue_init(&run, job, &job->queues[c], c, cpus[c])) {
				fprintf(stderr, "blkload: %s: out of memory for the IO buffers, or the region cannot be split over the CPUs\n",
					job->path);
				goto out;
			}
		}
	}
	run.nr_threads = ncpus;
	run.threads = xcalloc(ncpus, sizeof(*run.threads));
	for (unsigned int c = 0; c < ncpus; c++) {
		struct eng_thread *t = &run.threads[c];

		t->ops = ops;
		t->run = &run;
		t->cpu = cpus[c];
		t->queues = xcalloc(run.nr_jobs, sizeof(*t->queues));
		for (unsigned int i = 0; i < run.nr_jobs; i++) {
			t->queues[t->nr_queues++] = &run.jobs[i].queues[c];
			run.jobs[i].queues[c].t = t;
		}
		t->depth = p.iodepth * run.nr_jobs;
		t->done = xcalloc(t->depth, sizeof(*t->done));
	}
	pthread_barrier_init(&run.start, NULL, ncpus + 1);
	for (unsigned int c = 0; c < ncpus; c++) {
		struct eng_thread *t = &run.threads[c];
		pthread_attr_t attr;
		cpu_set_t set;

		pthread_attr_init(&attr);
		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (pthread_create(&t->tid, &attr, thread_fn, t)) {
			/* The barrier would never fill: nothing can go on. */
			fprintf(stderr, "blkload: cannot start a thread on CPU %u\n", t->cpu);
			abort();
		}
		pthread_attr_destroy(&attr);
	}
	pthread_barrier_wait(&run.start);
	/* The jobs of a wave start at one moment, once every one is ready; or none, stopped. */
	wave_sync_arrive(w->sync);
	if (w->sync && __atomic_load_n(intr, __ATOMIC_ACQUIRE))
		for (unsigned int i = 0; i < run.nr_jobs; i++)
			job_end(&run.jobs[i], BLKLOAD_REASON_STOPPED);
	/* --start-at: every thread ready; a late or interrupted start ends the jobs at once. */
	if (w->start_at_ns) {
		late = start_at_wait(w->start_at_ns, intr);
		if (late)
			for (unsigned int i = 0; i < run.nr_jobs; i++)
				job_end(&run.jobs[i], BLKLOAD_REASON_STOPPED);
	}
	start_ms = wall_ms();
	run.start_ns = eng_now_ns();
	pthread_barrier_wait(&run.start);
	/*
	 * Ctrl-C ends every job; the threads see it within 50 ms. The client
	 * CPU window ends with the workload (verify's read-back pass aside).
	 */
	for (bool all = false; !all;) {
		struct timespec ts = { 0, 20000000 };

		if (eng_now_ns() >= run.start_ns + p.startdelay_ns + p.ramp_ns)
			cpu_window_start(cw);
		if (*intr)
			for (unsigned int i = 0; i < run.nr_jobs; i++)
				job_end(&run.jobs[i], BLKLOAD_REASON_STOPPED);
		nanosleep(&ts, NULL);
		all = true;
		for (unsigned int c = 0; c < ncpus && all; c++)
			all = thread_work_done(&run.threads[c]);
		if (all)
			cpu_window_end(cw);
		for (unsigned int i = 0; i < run.nr_jobs && all; i++)
			for (unsigned int c = 0; c < ncpus && all; c++)
				all = __atomic_load_n(&run.jobs[i].queues[c].finished, __ATOMIC_ACQUIRE);
	}
	cpu_window_end(cw);
	for (unsigned int c = 0; c < ncpus; c++)
		pthread_join(run.threads[c].tid, NULL);
	pthread_barrier_destroy(&run.start);
	for (unsigned int i = 0; i < run.nr_jobs; i++) {
		job_fill(&run, i, cpus, ncpus, &jobs[i]);
		jobs[i].start_ms = start_ms;
	}
	if (late) {
		for (unsigned int i = 0; i < run.nr_jobs; i++)
			job_clear(&jobs[i]);
		goto out;
	}
	for (unsigned int c = 0; c < ncpus; c++)
		if (run.threads[c].error)
			fprintf(stderr, "blkload: %s on CPU %u: %s\n", ops->name, run.threads[c].cpu,
				strerror(-run.threads[c].error));
	ret = 0;
out:
	for (unsigned int c = 0; run.threads && c < run.nr_threads; c++) {
		free(run.threads[c].queues);
		free(run.threads[c].done);
	}
	free(run.threads);
	for (unsigned int i = 0; i < run.nr_jobs; i++) {
		struct eng_job *job = &run.jobs[i];

		for (unsigned int c = 0; job->queues && c < ncpus; c++) {
			struct eng_queue *q = &job->queues[c];

			for (unsigned int s = 0; q->slots && s < p.iodepth; s++) {
				free(q->slots[s].buf);
				free(q->slots[s].io.vsnap);
			}
			free(q->slots);
			free(q->free);
			free(q->held);
			free(q->q.sched);
			series_free(&q->ser);
			free(q->scratch);
		}
		free(job->queues);
		free(job->pool);
		free(job->core.vmap);
		if (ops->job_close)
			ops->job_close(&run, job);
		/* Buffered writes reach the device before the claim goes (untimed); a failure is the job's. */
		if (job->fd >= 0 && w->buffered && bl_params_changes(&p) && fsync(job->fd)) {
			int err = errno;

			fprintf(stderr, "blkload: %s: fsync of the buffered writes: %s\n", job->path,
				strerror(err));
			if (!ret) {
				jobs[i].error = -err;
				jobs[i].reason = BLKLOAD_REASON_ERROR;
			}
		}
		if (job->fd >= 0)
			close(job->fd);
		if (job->claimed)
			claim_put(job->claim);
	}
	free(run.jobs);
	free(cpus);
	return ret;
}
