// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the engine core (engines/engine.c) with an engine of the
 * test's own that completes every IO at once: exact counts split over CPUs,
 * the shared generator's sequence per stream, written data stamped, the
 * histogram summing to the count, errors and continue_on_error.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include <blkload/stamp.h>

#include "engines/engine.h"

/* What the test engine saw, per thread (no locking: one writer each). */
struct seen {
	uint64_t *offs;
	unsigned int n, cap;
	unsigned int stamped_bad;
	struct eng_slot **pending;
	unsigned int nr_pending;
};

static int fail_every;	/* every Nth IO of a thread fails with -EIO; 0: none */

static int t_job_open(struct eng_run *run, struct eng_job *job)
{
	(void)run;
	job->fd = -1;
	job->dev_size = 64ULL << 20;
	job->lbs = 512;
	return 0;
}

static int t_init(struct eng_thread *t)
{
	struct seen *s = calloc(1, sizeof(*s));

	s->pending = calloc(t->depth, sizeof(*s->pending));
	t->priv = s;
	return 0;
}

static unsigned int seq_bad, stamp_bad;

/* Each thread's offsets are its stream of the shared generator, in order. */
static void t_exit(struct eng_thread *t)
{
	const struct workload *w = t->run->w;
	struct seen *s = t->priv;
	struct eng_queue *q = t->queues[0];
	struct bl_gen g = { 0 };
	uint64_t off;

	bl_gen_init(&g, w->p.randseed, q->q.index, q->job->nr_queues, bl_rw_random(w->p.rw),
		    bl_params_mix(&w->p), w->p.offset, q->job->dev_size - w->p.offset, w->p.bs);
	for (unsigned int i = 0; i < s->n; i++) {
		bl_gen_next(&g, &off);
		if (off != s->offs[i])
			__atomic_add_fetch(&seq_bad, 1, __ATOMIC_RELAXED);
	}
	__atomic_add_fetch(&stamp_bad, s->stamped_bad, __ATOMIC_RELAXED);
	free(s->offs);
	free(s->pending);
	free(s);
	t->priv = NULL;
}

static int t_submit(struct eng_thread *t, struct eng_slot **slots, unsigned int n)
{
	struct seen *s = t->priv;

	for (unsigned int i = 0; i < n; i++) {
		struct eng_slot *sl = slots[i];
		uint64_t *h = sl->buf;

		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 1024;
			s->offs = realloc(s->offs, s->cap * sizeof(*s->offs));
		}
		s->offs[s->n++] = sl->io.off;
		if (sl->io.op != BL_READ &&
		    (le64toh(h[0]) != BLKLOAD_SECTOR_MAGIC || le64toh(h[1]) != sl->io.off))
			s->stamped_bad++;
		sl->res = fail_every && s->n % fail_every == 0 ? -EIO : (int64_t)t->run->w->p.bs;
		s->pending[s->nr_pending++] = sl;
	}
	return (int)n;
}

static int t_reap(struct eng_thread *t, struct eng_slot **done, unsigned int max, bool wait,
		  uint64_t timeout_ns)
{
	struct seen *s = t->priv;
	unsigned int n = 0;

	(void)wait;
	(void)timeout_ns;
	while (s->nr_pending && n < max)
		done[n++] = s->pending[--s->nr_pending];
	return (int)n;
}

static const struct engine_ops test_ops = {
	.name = "test",
	.help = "completes at once",
	.job_open = t_job_open,
	.thread_init = t_init,
	.thread_exit = t_exit,
	.submit = t_submit,
	.reap = t_reap,
};

static void workload(struct workload *w, uint32_t rw, uint64_t number_ios)
{
	static char dev[] = "test0";
	static char *devs[] = { dev };

	memset(w, 0, sizeof(*w));
	w->devs = devs;
	w->nr_devs = 1;
	w->p.rw = rw;
	w->p.rwmixread = 50;
	w->p.bs = 4096;
	w->p.bs_max = 4096;
	w->p.iodepth = 8;
	w->p.number_ios = number_ios;
	w->p.randseed = 5;
	w->p.allow_write = true;
	w->have_cpus = true;
	if (parse_cpulist("0-1", &w->cpus))
		abort();
}

TEST(exact_counts_and_histogram)
{
	volatile sig_atomic_t stop = 0;
	struct workload w;
	struct job j;
	uint64_t sum = 0;

	workload(&w, BLKLOAD_RW_RANDRW, 10001);
	ASSERT_EQ(0, engine_run(&test_ops, &w, &stop, &j, NULL));
	EXPECT_EQ(10001, j.op[OP_READ].ios + j.op[OP_WRITE].ios);
	EXPECT_EQ(10001 * 4096ULL, j.op[OP_READ].bytes + j.op[OP_WRITE].bytes);
	EXPECT_EQ(BLKLOAD_REASON_LIMIT, j.reason);
	EXPECT_EQ(2, j.nr_queues);
	/* One queue per CPU: 5001 and 5000. */
	EXPECT_EQ(5001, j.queues[0].op[OP_READ].ios + j.queues[0].op[OP_WRITE].ios);
	EXPECT_EQ(5000, j.queues[1].op[OP_READ].ios + j.queues[1].op[OP_WRITE].ios);
	for (unsigned int i = 0; i < BL_HIST_NR; i++)
		sum += j.op[OP_READ].hist[i] + j.op[OP_WRITE].hist[i];
	EXPECT_EQ(10001, sum);
	/* rwmixread 50 of 10001 */
	EXPECT_GT(j.op[OP_READ].ios, 4700);
	EXPECT_LT(j.op[OP_READ].ios, 5300);
	/* The generator's sequence, and every write stamped with its offset. */
	EXPECT_EQ(0, seq_bad);
	EXPECT_EQ(0, stamp_bad);
	job_clear(&j);
	cpuset_free(&w.cpus);
}

TEST(errors_end_the_job_unless_continued)
{
	volatile sig_atomic_t stop = 0;
	struct workload w;
	struct job j;

	fail_every = 10;
	workload(&w, BLKLOAD_RW_RANDREAD, 1000);
	ASSERT_EQ(0, engine_run(&test_ops, &w, &stop, &j, NULL));
	EXPECT_EQ(BLKLOAD_REASON_ERROR, j.reason);
	EXPECT_EQ(-EIO, j.error);
	EXPECT_LT(j.op[OP_READ].ios, 1000);
	job_clear(&j);

	w.p.coe = BLKLOAD_COE_READ;
	ASSERT_EQ(0, engine_run(&test_ops, &w, &stop, &j, NULL));
	EXPECT_EQ(BLKLOAD_REASON_LIMIT, j.reason);
	EXPECT_EQ(1000, j.op[OP_READ].ios + j.op[OP_READ].errors);
	EXPECT_EQ(100, j.op[OP_READ].errors);
	fail_every = 0;
	job_clear(&j);
	cpuset_free(&w.cpus);
}

TEST(refuses_writes_without_allow_write)
{
	volatile sig_atomic_t stop = 0;
	struct workload w;
	struct job j;

	workload(&w, BLKLOAD_RW_RANDWRITE, 10);
	w.p.allow_write = false;
	EXPECT_EQ(-1, engine_run(&test_ops, &w, &stop, &j, NULL));
	cpuset_free(&w.cpus);
}

TEST_HARNESS_MAIN
