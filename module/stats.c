// SPDX-License-Identifier: GPL-2.0
/*
 * blkload: reading a job's statistics and samples while its queues run.
 *
 * Each queue's machine (queue.h) is written by its worker alone; these
 * readers copy it without stopping it. Every field they copy is exact;
 * while a queue runs, fields may be from slightly different moments (on
 * 64-bit, u64_stats_sync orders nothing). The queue's phase, counting and
 * work_done flags are read with acquire first: what they publish (the
 * ramp's reset, the end times) is then seen. netlink.c only serializes
 * what is read here.
 */
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "blkload.h"

/* The sample slot the worker writes next (queue.h's sink). */
static struct bl_sample *bl_queue_sample_slot(struct bl_q *mq)
{
	struct bl_queue *q = container_of(mq, struct bl_queue, q);

	/*
	 * Pairs with the smp_rmb() in bl_queue_sample_copy(): the count that
	 * made the slot's old sample stale is seen before the slot changes.
	 */
	smp_wmb();
	return &q->ring[q->ring_pos];
}

/* The slot is written: one more sample. */
static void bl_queue_sample_publish(struct bl_q *mq)
{
	struct bl_queue *q = container_of(mq, struct bl_queue, q);

	if (++q->ring_pos == q->ring_nr)
		q->ring_pos = 0;
	/* The sample before its count, for bl_queue_sample_copy(). */
	smp_store_release(&q->nsamples, q->nsamples + 1);
}

const struct bl_q_sink bl_queue_sink = {
	.slot		= bl_queue_sample_slot,
	.publish	= bl_queue_sample_publish,
};

/*
 * Copies sample @i (< the count read before) of @q into @s; false when the
 * worker has written over it, before or during the copy.
 */
static bool bl_queue_sample_copy(const struct bl_queue *q, u64 i, struct bl_sample *s)
{
	u32 pos;

	div_u64_rem(i, q->ring_nr, &pos);
	/* The worker may be writing it: the check below tells. */
	data_race(memcpy(s, &q->ring[pos], sizeof(*s)));
	/* The copy before the check: sample i + ring_nr is written before its count. */
	smp_rmb();
	return READ_ONCE(q->nsamples) - i < q->ring_nr;
}

/* A copy of one queue's statistics, histograms only with @hist. */
static void bl_queue_read(struct bl_queue *q, bool hist, struct bl_queue_snap *r)
{
	const struct bl_qstats *s = &q->q.s;
	unsigned int start, op;

	do {
		start = u64_stats_fetch_begin(&q->q.sync);
		for (op = 0; op < BL_NR_OPS; op++)
			bl_op_live_read(&s->st[op], &r->st[op], hist);
		r->cpu_time = s->cpu_time;
		r->ctx = s->ctx;
		r->stall_max = s->stall_max;
		memcpy(r->depth_ns, s->depth_ns, sizeof(r->depth_ns));
	} while (u64_stats_fetch_retry(&q->q.sync, start));
}

/* The stall going on now: IO in flight and no reap since progress_ns. */
static u64 bl_queue_stall_now(const struct bl_queue *q, u64 now)
{
	u64 since = READ_ONCE(q->q.progress_ns);

	if (!READ_ONCE(q->q.inflight) || !since || now <= since)
		return 0;
	return now - since;
}

/*
 * The job's statistics now: each queue read once, into @row, handed to
 * @each (with its index; a non-zero return stops the rows, not the sums),
 * and added into @snap (histograms with @hist). @row is the caller's
 * scratch. Returns @each's first non-zero return, else 0.
 */
int bl_job_snapshot(struct bl_job *job, bool hist, struct bl_job_snap *snap,
		    struct bl_queue_snap *row,
		    int (*each)(void *ctx, unsigned int i, const struct bl_queue_snap *row),
		    void *ctx)
{
	bool started = READ_ONCE(job->state) != BLKLOAD_STATE_CREATED;
	u64 now = ktime_get_ns(), first = U64_MAX, last = 0;
	unsigned int i, op, d;
	int ret = 0;

	memset(snap, 0, sizeof(*snap));
	for (op = 0; op < BL_NR_OPS; op++)
		bl_op_stats_init(&snap->sum[op]);
	snap->counting = true;
	/* Pairs with the smp_wmb() in bl_job_start(): start_ns is set. */
	smp_rmb();
	for (i = 0; i < job->nr_queues; i++) {
		struct bl_queue *q = job->queues[i];
		/* Pairs with bl_q_finish(), before the copy: end_ns is set. */
		bool done = smp_load_acquire(&q->q.phase) == BL_PH_DONE;
		/* Likewise: the ramp's reset is done and count_start_ns is set. */
		bool counting = started && smp_load_acquire(&q->q.counting);
		/* And the workload's end, before verify's read-back pass. */
		bool work_done = smp_load_acquire(&q->q.work_done);

		bl_queue_read(q, hist, row);
		row->cpu = q->cpu;
		row->inflight = READ_ONCE(q->q.inflight);
		if (counting && !work_done)
			row->stall_max = max(row->stall_max, bl_queue_stall_now(q, now));
		for (op = 0; op < BL_NR_OPS; op++)
			bl_op_stats_merge(&snap->sum[op], &row->st[op], hist);
		for (d = 0; d < BL_DEPTH_NR; d++)
			snap->depth_ns[d] += row->depth_ns[d];
		snap->cpu_time += row->cpu_time;
		snap->ctx += row->ctx;
		snap->stall_max = max(snap->stall_max, row->stall_max);
		snap->inflight += row->inflight;
		if (!counting)
			snap->counting = false;
		else
			first = min(first, q->q.count_start_ns);
		last = max(last, done ? q->q.end_ns : work_done ? q->q.work_end_ns : now);
		if (each && !ret)
			ret = each(ctx, i, row);
	}
	snap->elapsed = snap->counting && last > first ? last - first : 0;
	return ret;
}

/* A verifying job's counters, its queues' added up: checked, skipped, errors, read back. */
void bl_job_verify_sum(struct bl_job *job, u64 *v)
{
	unsigned int i, start;

	memset(v, 0, 4 * sizeof(*v));
	for (i = 0; i < job->nr_queues; i++) {
		struct bl_q *q = &job->queues[i]->q;
		u64 one[4];

		do {
			start = u64_stats_fetch_begin(&q->sync);
			one[0] = q->s.vchecked;
			one[1] = q->s.vskipped;
			one[2] = q->s.verrors;
			one[3] = q->s.vreadback;
		} while (u64_stats_fetch_retry(&q->sync, start));
		v[0] += one[0];
		v[1] += one[1];
		v[2] += one[2];
		v[3] += one[3];
	}
}

/*
 * A rate-limited job's latencies from the scheduled time, its queues' added
 * up into @sum (histograms with @hist); @one is scratch.
 */
void bl_job_sched_sum(struct bl_job *job, struct bl_sched_stats *sum, struct bl_sched_stats *one,
		      bool hist)
{
	bool started = READ_ONCE(job->state) != BLKLOAD_STATE_CREATED;
	unsigned int i, op, b, start;

	memset(sum, 0, sizeof(*sum));
	bl_sched_stats_init(sum);
	for (i = 0; i < job->nr_queues; i++) {
		struct bl_q *q = &job->queues[i]->q;

		/* Pairs with bl_q_ramp_end(): the ramp's reset is done. */
		if (!started || !smp_load_acquire(&q->counting))
			continue;
		do {
			start = u64_stats_fetch_begin(&q->sync);
			for (op = 0; op < BL_NR_OPS; op++) {
				one->lat[op] = q->sched->lat[op];
				if (hist)
					memcpy(one->hist[op], q->sched->hist[op],
					       sizeof(one->hist[op]));
			}
		} while (u64_stats_fetch_retry(&q->sync, start));
		for (op = 0; op < BL_NR_OPS; op++) {
			bl_lat_merge(&sum->lat[op], &one->lat[op]);
			for (b = 0; hist && b < BL_HIST_NR; b++)
				sum->hist[op][b] += one->hist[op][b];
		}
	}
}

/*
 * The samples of the job that can be read from @from: each queue's count
 * into @n (read once, for bl_job_sample()); returns the end of the range
 * (a sample is complete once every queue that still runs has taken it; a
 * finished queue takes no more), and in @lost those before it that the
 * rings no longer hold (@from is then moved past them by the caller).
 */
u64 bl_job_samples(struct bl_job *job, u64 from, u64 *n, u64 *lost)
{
	bool started = READ_ONCE(job->state) != BLKLOAD_STATE_CREATED;
	u64 end = U64_MAX, all = 0, oldest = 0;
	unsigned int k;

	/* Pairs with the smp_wmb() in bl_job_start(): the queues were started. */
	smp_rmb();
	for (k = 0; k < job->nr_queues; k++) {
		struct bl_queue *q = job->queues[k];
		/* Pairs with bl_q_finish(): its last sample is counted. */
		bool done = started && smp_load_acquire(&q->q.phase) == BL_PH_DONE;

		/* Pairs with bl_queue_sample_publish(): the samples before the count. */
		n[k] = started ? smp_load_acquire(&q->nsamples) : 0;
		all = max(all, n[k]);
		if (!done)
			end = min(end, n[k]);
		if (n[k] > q->ring_nr)
			oldest = max(oldest, n[k] - q->ring_nr);
	}
	*lost = from < oldest ? oldest - from : 0;
	return end == U64_MAX ? all : end;
}

/*
 * Sample @i of the job, its queues' added up, into @sum (@one is scratch).
 * Returns how many queues took it, 0 when none, -1 when a queue has
 * written over it. @n holds each queue's sample count (bl_job_samples()).
 */
int bl_job_sample(struct bl_job *job, const u64 *n, u64 i, struct bl_sample *sum,
		  struct bl_sample *one)
{
	unsigned int k, op, b;
	int queues = 0;

	memset(sum, 0, sizeof(*sum));
	for (k = 0; k < job->nr_queues; k++) {
		if (i >= n[k])
			continue;
		if (!bl_queue_sample_copy(job->queues[k], i, one))
			return -1;
		queues++;
		sum->t = max(sum->t, one->t);
		for (op = 0; op < BL_NR_OPS; op++) {
			sum->op[op].ios += one->op[op].ios;
			sum->op[op].bytes += one->op[op].bytes;
			sum->op[op].lat += one->op[op].lat;
			sum->op[op].clat += one->op[op].clat;
			sum->op[op].slat += one->op[op].slat;
			for (b = 0; b < BL_SHIST_NR; b++)
				sum->chist[op][b] = min_t(u64, (u64)sum->chist[op][b] +
							  one->chist[op][b], U32_MAX);
		}
	}
	return queues;
}
