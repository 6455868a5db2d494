// SPDX-License-Identifier: GPL-2.0
/*
 * blkload: one worker thread per CPU in use.
 *
 * A worker is made the first time a job asks for its CPU and stopped when
 * the last job with a queue on that CPU is freed, so 128 jobs on 2 CPUs run
 * on 2 threads. It serves every queue handed to it in turn, one pass at a
 * time: each queue is reaped, checked for its end and refilled to its
 * iodepth. It sleeps when a pass found nothing to do, until a completion, a
 * new queue, a stop or the next deadline of a queue (ramp end, runtime end).
 * The control plane never touches a queue the worker holds: it sets flags
 * and wakes the worker.
 *
 * CPU hotplug: when a CPU goes offline, its worker ends the jobs of every
 * queue it holds (reason cpu-offline), submits nothing more, and drains what
 * is in flight wherever the scheduler then runs it; it is no longer the
 * CPU's worker, and a later job on that CPU gets a new one. A queue is
 * never silently moved to another CPU.
 *
 * Suspend: workers are freezable (bl_worker_fn()). S3 and hibernation take
 * the secondary CPUs offline after tasks are frozen: a frozen worker is then
 * neither waited for nor stopped by the hotplug callback (it submits
 * nothing, and would wake only at the thaw); it sees its CPU went offline
 * when it thaws, and ends its jobs then.
 *
 * CPU time: the thread's sum_exec_runtime is exact only when the scheduler
 * updates it (ticks, sleeps, preemption), so the worker splits each
 * increase over its queues in proportion to the time their turns took; its
 * context switches (fio's ctx) in proportion to the CPU time each queue had
 * over its recent splits.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/freezer.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "blkload.h"

/* The worker of each online CPU that has one, and the count of all; bl_jobs_lock. */
static DEFINE_PER_CPU(struct bl_worker *, bl_cpu_worker);
static unsigned int bl_workers_count;

/* Fixed-point bits of a queue's share of context switches. */
#define BL_CTX_FRAC_BITS	20
static int bl_cpuhp_state = -1;

static void bl_worker_take(struct bl_worker *w)
{
	struct llist_node *list = llist_del_all(&w->attach);
	struct bl_queue *q, *tmp;

	/* In the order they were attached. */
	list = llist_reverse_order(list);
	llist_for_each_entry_safe(q, tmp, list, attach_node)
		list_add_tail(&q->node, &w->queues);
}

/*
 * A queue's share of @ctx context switches, @cpu of @all: whole switches,
 * the fraction kept for the next split, so that queues sharing a worker
 * each get theirs even when every split is of one switch. The shares are
 * those of the worker's recent CPU time (fio's ctx is its job thread's, and
 * a job here is as much of the worker as the CPU time it took). Split by
 * the turns (wall time) of the split they came in, the queue whose turn
 * held a switch got it with the time the worker was off its CPU: 2/3 of the
 * switches against 52% of the CPU time, seen under emulation.
 */
static u64 bl_ctx_share(struct bl_queue *q, u64 ctx, u64 cpu, u64 all)
{
	u64 whole;

	q->ctx_frac += mul_u64_u64_div_u64(ctx << BL_CTX_FRAC_BITS, cpu, all);
	whole = q->ctx_frac >> BL_CTX_FRAC_BITS;
	q->ctx_frac &= BIT_ULL(BL_CTX_FRAC_BITS) - 1;
	return whole;
}

/*
 * @q's part of @cpu ns, by its turns of @total. cpu_all, its weight for the
 * switches, is that CPU time over about the last 16 splits (each split
 * keeps 15/16 of it): a queue that joins late gets its share within a few
 * ticks, not only once its whole-life total caught up.
 */
static u64 bl_cpu_share(struct bl_queue *q, u64 cpu, u64 total)
{
	u64 ns = mul_u64_u64_div_u64(cpu, q->turns, total);

	q->cpu_all -= q->cpu_all >> 4;
	q->cpu_all += ns;
	q->turns = 0;
	return ns;
}

/*
 * Splits the CPU time the worker's thread used since the last split over
 * its queues (and @leaving, which just left the list), in proportion to
 * their turns, and its context switches in proportion to the CPU time each
 * had so far. The worker only.
 */
void bl_worker_account(struct bl_worker *w, struct bl_queue *leaving)
{
	u64 rt = current->se.sum_exec_runtime, cpu = rt - w->runtime_seen, total = 0, all = 0;
	unsigned long cs = current->nvcsw + current->nivcsw;
	u64 ctx = cs - w->ctx_seen, lns = 0;
	struct bl_queue *q;

	if (!cpu && !ctx)
		return;
	list_for_each_entry(q, &w->queues, node)
		total += q->turns;
	if (leaving)
		total += leaving->turns;
	w->runtime_seen = rt;
	w->ctx_seen = cs;
	if (!total)
		return;
	list_for_each_entry(q, &w->queues, node) {
		bl_q_add_cpu(&q->q, bl_cpu_share(q, cpu, total), 0);
		all += q->cpu_all;
	}
	if (leaving) {
		lns = bl_cpu_share(leaving, cpu, total);
		all += leaving->cpu_all;
	}
	if (!all)
		return;
	/* Switches since the last split: few, shifted well inside 64 bits. */
	ctx = min_t(u64, ctx, U32_MAX);
	list_for_each_entry(q, &w->queues, node)
		bl_q_add_cpu(&q->q, 0, bl_ctx_share(q, ctx, q->cpu_all, all));
	if (leaving)
		bl_q_add_cpu(&leaving->q, lns, bl_ctx_share(leaving, ctx, leaving->cpu_all, all));
}

/* One pass over every queue; true when anything was done. */
static bool bl_worker_pass(struct bl_worker *w, u64 *deadline, u64 *now)
{
	bool offline = READ_ONCE(w->offline), busy = false;
	struct bl_queue *q, *tmp;
	u64 clk;

	/* A suspend is freezing tasks: nothing new is submitted (bl_queue_service()). */
	w->freezing = freezing(current);

	if (current->se.sum_exec_runtime != w->runtime_seen ||
	    current->nvcsw + current->nivcsw != w->ctx_seen)
		bl_worker_account(w, NULL);

	if (!llist_empty(&w->attach)) {
		bl_worker_take(w);
		busy = true;
	}
	if (offline && !w->offline_seen) {
		/* From here on nothing is submitted: the hotplug may go on. */
		w->offline_seen = true;
		complete(&w->offline_ack);
		busy = true;
	}
	*deadline = U64_MAX;
	*now = ktime_get_ns();
	clk = *now;
	list_for_each_entry_safe(q, tmp, &w->queues, node)
		busy |= bl_queue_service(q, *now, offline, deadline, &clk);
	return busy;
}

/* Whether a queue of the worker has polled IO in flight, which only it completes. */
static bool bl_worker_polling(struct bl_worker *w)
{
	struct bl_queue *q;

	list_for_each_entry(q, &w->queues, node)
		if (bl_queue_polling(q))
			return true;
	return false;
}

/*
 * Freezes, unless its CPU is going offline and the hotplug callback waits
 * for the ack of a pass (bl_cpu_offline()).
 */
static void bl_worker_freeze(struct bl_worker *w)
{
	WRITE_ONCE(w->frozen, true);
	smp_mb();	/* pairs with bl_cpu_offline() */
	if (READ_ONCE(w->offline) && !w->offline_seen) {
		WRITE_ONCE(w->frozen, false);
		return;
	}
	try_to_freeze();
	WRITE_ONCE(w->frozen, false);
}

static bool bl_worker_pending(struct bl_worker *w)
{
	struct bl_queue *q;

	if (!llist_empty(&w->attach) || (READ_ONCE(w->offline) && !w->offline_seen))
		return true;
	list_for_each_entry(q, &w->queues, node)
		if (bl_queue_pending(q))
			return true;
	return false;
}

static int bl_worker_fn(void *data)
{
	struct bl_worker *w = data;
	u64 deadline, now;

	w->runtime_seen = current->se.sum_exec_runtime;
	w->ctx_seen = current->nvcsw + current->nivcsw;
	/*
	 * Frozen for a suspend (and hibernation) before devices suspend: it
	 * stops submitting as soon as the freezer asks, polls what it has in
	 * flight polled to the end, then freezes; interrupt-driven IO still in
	 * flight completes onto its lists meanwhile and is reaped at the thaw.
	 * The frozen time is in the latencies of that IO and in the runtime.
	 */
	set_freezable();
	while (!kthread_should_stop()) {
		bool busy = bl_worker_pass(w, &deadline, &now);

		if (unlikely(w->freezing) && !bl_worker_polling(w)) {
			bl_worker_freeze(w);
			continue;
		}
		if (busy) {
			/* Drivers that complete inline never let the worker sleep. */
			cond_resched();
			continue;
		}
		set_current_state(TASK_INTERRUPTIBLE);
		/* The freezer wakes a sleeping worker after it set freezing. */
		if (!kthread_should_stop() && !freezing(current) && !bl_worker_pending(w)) {
			/*
			 * A deadline (ramp end, runtime end, a sample) on the
			 * monotonic clock ktime_get_ns() reads, to the 50 us
			 * rather than to the jiffy: a 10 ms sample interval
			 * must not be taken up to a tick late.
			 */
			if (deadline != U64_MAX) {
				ktime_t exp = ns_to_ktime(min_t(u64, deadline, KTIME_MAX));

				schedule_hrtimeout_range(&exp, 50 * NSEC_PER_USEC,
							 HRTIMER_MODE_ABS);
			} else {
				schedule();
			}
		}
		__set_current_state(TASK_RUNNING);
	}
	WARN_ON_ONCE(!list_empty(&w->queues) || !llist_empty(&w->attach));
	return 0;
}

/*
 * The worker of @cpu, made if needed, with one more user. Called with
 * bl_jobs_lock held and under cpus_read_lock(), with @cpu online.
 */
struct bl_worker *bl_worker_get(unsigned int cpu)
{
	struct bl_worker *w;

	lockdep_assert_held(&bl_jobs_lock);
	w = per_cpu(bl_cpu_worker, cpu);
	if (w) {
		w->users++;
		return w;
	}
	w = kzalloc_node(sizeof(*w), GFP_KERNEL, cpu_to_node(cpu));
	if (!w)
		return ERR_PTR(-ENOMEM);
	w->cpu = cpu;
	init_llist_head(&w->attach);
	INIT_LIST_HEAD(&w->queues);
	init_completion(&w->offline_ack);
	w->task = kthread_create_on_node(bl_worker_fn, w, cpu_to_node(cpu), "blkload/%u", cpu);
	if (IS_ERR(w->task)) {
		int ret = PTR_ERR(w->task);

		kfree(w);
		return ERR_PTR(ret);
	}
	kthread_bind(w->task, cpu);
	wake_up_process(w->task);
	w->users = 1;
	per_cpu(bl_cpu_worker, cpu) = w;
	bl_workers_count++;
	return w;
}

/*
 * Drops a user, with bl_jobs_lock held. The last one unpublishes the worker
 * and returns it: the caller stops it with bl_worker_stop() once it has
 * unlocked (stopping waits for the thread, which the lock must not).
 */
struct bl_worker *bl_worker_put(struct bl_worker *w)
{
	lockdep_assert_held(&bl_jobs_lock);
	if (!w || --w->users)
		return NULL;
	if (per_cpu(bl_cpu_worker, w->cpu) == w)
		per_cpu(bl_cpu_worker, w->cpu) = NULL;
	bl_workers_count--;
	return w;
}

/* Stops and frees a worker bl_worker_put() returned; without bl_jobs_lock. */
void bl_worker_stop(struct bl_worker *w)
{
	if (!w)
		return;
	/* Without users it holds no queue: it is idle. */
	kthread_stop(w->task);
	kfree(w);
}

/* Hands a started queue to its worker. */
void bl_worker_attach(struct bl_worker *w, struct bl_queue *q)
{
	llist_add(&q->attach_node, &w->attach);
	wake_up_process(w->task);
}

/* Makes the worker look at its queues again (a stop). */
void bl_worker_kick(struct bl_worker *w)
{
	wake_up_process(w->task);
}

unsigned int bl_nr_workers(void)
{
	unsigned int n;

	mutex_lock(&bl_jobs_lock);
	n = bl_workers_count;
	mutex_unlock(&bl_jobs_lock);
	return n;
}

/*
 * @cpu is going offline (this runs on it, in its hotplug thread; tasks that
 * may run elsewhere are already being pushed away): its worker stops
 * submitting and ends its jobs. Waits, a bounded time, until the worker has
 * seen it. If the offline is rolled back, the jobs have ended all the same
 * and the worker stays retired: a new job on the CPU gets a new one.
 */
static int bl_cpu_offline(unsigned int cpu)
{
	struct bl_worker *w;

	mutex_lock(&bl_jobs_lock);
	w = per_cpu(bl_cpu_worker, cpu);
	if (w) {
		per_cpu(bl_cpu_worker, cpu) = NULL;
		WRITE_ONCE(w->offline, true);
		/*
		 * Frozen (a suspend offlines CPUs after the freeze): it submits
		 * nothing and cannot ack before the thaw; its jobs' users stop
		 * it once they end, after the thaw (kthread_stop() would not
		 * wake it before). Pairs with the barrier in bl_worker_freeze():
		 * either it is seen frozen here, or it sees offline and acks.
		 */
		smp_mb();
		if (READ_ONCE(w->frozen)) {
			mutex_unlock(&bl_jobs_lock);
			return 0;
		}
		w->users++;	/* ours, while we wait */
		wake_up_process(w->task);
	}
	mutex_unlock(&bl_jobs_lock);
	if (!w)
		return 0;
	if (!wait_for_completion_timeout(&w->offline_ack, HZ))
		pr_warn("worker of CPU %u still busy in a submission as the CPU goes offline\n",
			cpu);
	mutex_lock(&bl_jobs_lock);
	w = bl_worker_put(w);
	mutex_unlock(&bl_jobs_lock);
	bl_worker_stop(w);
	return 0;
}

int bl_workers_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "block/blkload:online", NULL,
					bl_cpu_offline);
	if (ret < 0)
		return ret;
	bl_cpuhp_state = ret;
	return 0;
}

void bl_workers_exit(void)
{
	if (bl_cpuhp_state >= 0)
		cpuhp_remove_state_nocalls(bl_cpuhp_state);
	WARN_ON(bl_workers_count);
}
