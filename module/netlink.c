// SPDX-License-Identifier: GPL-2.0
/*
 * blkload: the generic netlink family.
 *
 * The ops table is written by hand so that it builds on kernels without
 * genl_split_ops (6.1); the policy comes from the spec (nl_gen.c). Every
 * rejection carries an extack message for the CLI to print.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include <net/genetlink.h>

#include "blkload.h"
#include "nl_gen.h"

static struct genl_family blkload_nl_family;

static int blkload_nl_info_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	unsigned int nr_jobs, nr_workers;
	struct sk_buff *msg;
	u64 mem_used;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	hdr = genlmsg_put_reply(msg, info, &blkload_nl_family, 0, info->genlhdr->cmd);
	if (!hdr)
		goto err_free_msg;

	bl_jobs_info(&mem_used, &nr_jobs, &nr_workers);
	if (nla_put_string(msg, BLKLOAD_A_VERSION, BLKLOAD_VERSION) ||
	    nla_put_u32(msg, BLKLOAD_A_ABI_VERSION, BLKLOAD_ABI_VERSION) ||
	    nla_put_string(msg, BLKLOAD_A_KERNEL_RELEASE, utsname()->release) ||
	    nla_put_u32(msg, BLKLOAD_A_MAX_IODEPTH, READ_ONCE(blkload_max_iodepth)) ||
	    nla_put_u32(msg, BLKLOAD_A_MAX_BS, BLKLOAD_BS_MAX) ||
	    nla_put_u32(msg, BLKLOAD_A_MAX_JOBS, READ_ONCE(blkload_max_jobs)) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_MEM_BUDGET, blkload_mem_budget(), 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_MEM_USED, mem_used, 0) ||
	    nla_put_u32(msg, BLKLOAD_A_NR_JOBS, nr_jobs) ||
	    nla_put_u32(msg, BLKLOAD_A_NR_WORKERS, nr_workers))
		goto err_cancel;

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_cancel:
	genlmsg_cancel(msg, hdr);
err_free_msg:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* Named apart from bl_nla_u32() and friends, which 6.13 adds. */
static u32 bl_nla_u32(const struct nlattr *a, u32 dflt)
{
	return a ? nla_get_u32(a) : dflt;
}

static u64 bl_nla_u64(const struct nlattr *a, u64 dflt)
{
	return a ? nla_get_u64(a) : dflt;
}

/*
 * Jobs read and write block devices: on top of genl's admin-perm
 * (CAP_NET_ADMIN), every job command needs CAP_SYS_ADMIN, of both the
 * socket's opener and the sender.
 */
static int bl_nl_admin(struct sk_buff *skb, struct genl_info *info)
{
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return 0;
	NL_SET_ERR_MSG(info->extack, "blkload jobs need CAP_SYS_ADMIN");
	return -EPERM;
}

/* The cpumask attribute: host-order u64 words, bit n is CPU n. */
static int bl_nl_parse_cpus(struct genl_info *info, struct cpumask *cpus)
{
	struct nlattr *a = info->attrs[BLKLOAD_A_CPUMASK];
	unsigned int words, w, b;
	const u8 *data;

	cpumask_clear(cpus);
	if (!a) {
		cpumask_set_cpu(cpumask_first(cpu_online_mask), cpus);
		return 0;
	}
	if (nla_len(a) % sizeof(u64)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a, "cpumask must be whole u64 words");
		return -EINVAL;
	}
	data = nla_data(a);
	words = nla_len(a) / sizeof(u64);
	for (w = 0; w < words; w++) {
		u64 word;

		memcpy(&word, data + w * sizeof(u64), sizeof(word));
		for (b = 0; b < 64; b++) {
			unsigned int cpu = w * 64 + b;

			if (!(word & (1ULL << b)))
				continue;
			if (cpu >= nr_cpu_ids) {
				NL_SET_ERR_MSG_ATTR(info->extack, a,
						    "a requested CPU is offline or does not exist");
				return -EINVAL;
			}
			cpumask_set_cpu(cpu, cpus);
		}
	}
	return 0;
}

/* bs-split: u32 triples (smallest, largest, percent) into cumulative entries. */
static int bl_nl_parse_bs(struct genl_info *info, int type, struct bl_params *p, unsigned int dir)
{
	struct nlattr *a = info->attrs[type];
	unsigned int i, n;
	u32 t[3], cum = 0;

	if (!a)
		return 0;
	if (!nla_len(a) || nla_len(a) % sizeof(t)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "bs-split: entries of three u32 (smallest, largest, percent)");
		return -EINVAL;
	}
	n = nla_len(a) / sizeof(t);
	for (i = 0; i < n; i++) {
		memcpy(t, (u8 *)nla_data(a) + i * sizeof(t), sizeof(t));
		if (!t[0] || t[0] > t[1] || t[1] > BLKLOAD_BS_MAX || t[0] % SECTOR_SIZE ||
		    t[1] % SECTOR_SIZE || !t[2] || t[2] > 100 - cum) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "bs-split: sizes of 512 B to 4 MiB, smallest first, percents adding up to 100");
			return -EINVAL;
		}
		cum += t[2];
		p->bss[dir][i] = (struct bl_gen_bs){ .lo = t[0], .hi = t[1], .cum = cum };
	}
	if (cum != 100) {
		NL_SET_ERR_MSG_ATTR(info->extack, a, "bs-split: the percents must add up to 100");
		return -EINVAL;
	}
	p->nbs[dir] = n;
	return 0;
}

static int blkload_nl_job_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct bl_owner owner = {
		.net = genl_info_net(info),
		.portid = info->snd_portid,
		.sk = NETLINK_CB(skb).sk,
	};
	struct bl_params p = {};
	cpumask_var_t cpus;
	struct bl_job *job;
	struct sk_buff *msg;
	void *hdr;
	int ret;

	ret = bl_nl_admin(skb, info);
	if (ret)
		return ret;
	if (GENL_REQ_ATTR_CHECK(info, BLKLOAD_A_PATH) || nla_len(tb[BLKLOAD_A_PATH]) <= 1) {
		NL_SET_ERR_MSG(info->extack, "a device path is required");
		return -EINVAL;
	}
	p.rw = bl_nla_u32(tb[BLKLOAD_A_RW], BLKLOAD_RW_READ);
	p.rwmixread = bl_nla_u32(tb[BLKLOAD_A_RWMIXREAD], 50);
	p.bs = bl_nla_u32(tb[BLKLOAD_A_BS], 4096);
	p.iodepth = bl_nla_u32(tb[BLKLOAD_A_IODEPTH], 1);
	p.batch = bl_nla_u32(tb[BLKLOAD_A_BATCH], 0);
	p.offset = bl_nla_u64(tb[BLKLOAD_A_OFFSET], 0);
	p.size = bl_nla_u64(tb[BLKLOAD_A_SIZE], 0);
	p.runtime_ns = bl_nla_u64(tb[BLKLOAD_A_RUNTIME], 0);
	p.ramp_ns = bl_nla_u64(tb[BLKLOAD_A_RAMP_TIME], 0);
	p.number_ios = bl_nla_u64(tb[BLKLOAD_A_NUMBER_IOS], 0);
	p.io_size = bl_nla_u64(tb[BLKLOAD_A_IO_SIZE], 0);
	p.randseed = bl_nla_u64(tb[BLKLOAD_A_RANDSEED], 0);
	p.coe = bl_nla_u32(tb[BLKLOAD_A_CONTINUE_ON_ERROR], 0);
	p.sample_ns = bl_nla_u64(tb[BLKLOAD_A_SAMPLE_INTERVAL], 0);
	p.sample_ring = bl_nla_u32(tb[BLKLOAD_A_SAMPLE_RING], 0);
	p.allow_write = nla_get_flag(tb[BLKLOAD_A_ALLOW_WRITE]);
	p.force = nla_get_flag(tb[BLKLOAD_A_FORCE]);
	p.detached = nla_get_flag(tb[BLKLOAD_A_DETACHED]);
	p.no_lat = nla_get_flag(tb[BLKLOAD_A_NO_LAT]);
	p.rwmixtrim = bl_nla_u32(tb[BLKLOAD_A_RWMIXTRIM], 0);
	p.req = bl_nla_u32(tb[BLKLOAD_A_REQ_FLAGS], 0);
	p.rate_iops = bl_nla_u32(tb[BLKLOAD_A_RATE_IOPS], 0);
	p.rate_process = bl_nla_u32(tb[BLKLOAD_A_RATE_PROCESS], BLKLOAD_RATE_PROCESS_LINEAR);
	p.dist = bl_nla_u32(tb[BLKLOAD_A_RANDOM_DISTRIBUTION], BLKLOAD_DIST_RANDOM);
	p.dist_param = bl_nla_u32(tb[BLKLOAD_A_RANDOM_DISTRIBUTION_PARAM], 0);
	p.think_ns = bl_nla_u64(tb[BLKLOAD_A_THINKTIME], 0);
	p.think_blocks = bl_nla_u32(tb[BLKLOAD_A_THINKTIME_BLOCKS], 1);
	p.startdelay_ns = bl_nla_u64(tb[BLKLOAD_A_STARTDELAY], 0);
	p.loops = bl_nla_u32(tb[BLKLOAD_A_LOOPS], 1);
	p.buf_compress = bl_nla_u32(tb[BLKLOAD_A_BUFFER_COMPRESS_PERCENTAGE], 0);
	p.buf_dedupe = bl_nla_u32(tb[BLKLOAD_A_DEDUPE_PERCENTAGE], 0);
	p.zero_buffers = nla_get_flag(tb[BLKLOAD_A_ZERO_BUFFERS]);
	p.verify = bl_nla_u32(tb[BLKLOAD_A_VERIFY], BLKLOAD_VERIFY_NONE);
	p.verify_no_readback = nla_get_flag(tb[BLKLOAD_A_VERIFY_NO_READBACK]);

	ret = bl_nl_parse_bs(info, BLKLOAD_A_BS_SPLIT, &p, 0);
	if (!ret)
		ret = bl_nl_parse_bs(info, BLKLOAD_A_BS_SPLIT_WRITE, &p, 1);
	if (ret)
		return ret;
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	ret = bl_nl_parse_cpus(info, cpus);
	if (ret)
		goto out_free_cpus;

	job = bl_job_create(nla_data(tb[BLKLOAD_A_PATH]), &p, cpus, &owner, info->extack);
	if (IS_ERR(job)) {
		ret = PTR_ERR(job);
		goto out_free_cpus;
	}

	ret = -ENOMEM;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		goto out_del;
	hdr = genlmsg_put_reply(msg, info, &blkload_nl_family, 0, info->genlhdr->cmd);
	if (!hdr || nla_put_u32(msg, BLKLOAD_A_JOB_ID, job->id)) {
		nlmsg_free(msg);
		goto out_del;
	}
	genlmsg_end(msg, hdr);
	bl_job_put(job);
	free_cpumask_var(cpus);
	return genlmsg_reply(msg, info);

out_del:
	bl_job_del(job);
	bl_job_put(job);
out_free_cpus:
	free_cpumask_var(cpus);
	return ret;
}

/* Looks up the job named by BLKLOAD_A_JOB_ID; the caller puts it. */
static struct bl_job *bl_nl_job(struct genl_info *info)
{
	struct bl_job *job;

	if (GENL_REQ_ATTR_CHECK(info, BLKLOAD_A_JOB_ID)) {
		NL_SET_ERR_MSG(info->extack, "a job id is required");
		return ERR_PTR(-EINVAL);
	}
	job = bl_job_get(nla_get_u32(info->attrs[BLKLOAD_A_JOB_ID]));
	if (!job) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[BLKLOAD_A_JOB_ID], "no such job");
		return ERR_PTR(-ENOENT);
	}
	return job;
}

static int blkload_nl_job_start_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct bl_job **jobs;
	unsigned int n = 0, i;
	struct nlattr *a;
	int rem, ret;

	ret = bl_nl_admin(skb, info);
	if (ret)
		return ret;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem)
		if (nla_type(a) == BLKLOAD_A_JOB_ID)
			n++;
	if (!n) {
		NL_SET_ERR_MSG(info->extack, "a job id is required");
		return -EINVAL;
	}
	jobs = kcalloc(n, sizeof(*jobs), GFP_KERNEL);
	if (!jobs)
		return -ENOMEM;
	i = 0;
	ret = 0;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != BLKLOAD_A_JOB_ID)
			continue;
		jobs[i] = bl_job_get(nla_get_u32(a));
		if (!jobs[i]) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, "no such job");
			ret = -ENOENT;
			break;
		}
		i++;
	}
	if (!ret)
		ret = bl_job_start(jobs, n, info->extack);
	while (i--)
		bl_job_put(jobs[i]);
	kfree(jobs);
	return ret;
}

/* job-stop, job-del, job-detach: never wait (drain-timeout is ignored). */
static int blkload_nl_job_ctl(struct sk_buff *skb, struct genl_info *info,
			      void (*op)(struct bl_job *job))
{
	struct bl_job *job;
	int ret;

	ret = bl_nl_admin(skb, info);
	if (ret)
		return ret;
	job = bl_nl_job(info);
	if (IS_ERR(job))
		return PTR_ERR(job);
	op(job);
	bl_job_put(job);
	return 0;
}

static int blkload_nl_job_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	return blkload_nl_job_ctl(skb, info, bl_job_stop);
}

static int blkload_nl_job_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return blkload_nl_job_ctl(skb, info, bl_job_del);
}

static int blkload_nl_job_detach_doit(struct sk_buff *skb, struct genl_info *info)
{
	return blkload_nl_job_ctl(skb, info, bl_job_detach);
}

static int bl_nl_put_lat(struct sk_buff *msg, int type, const struct bl_lat *l,
			 const u64 *hist)
{
	struct nlattr *nest = nla_nest_start(msg, type);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, BLKLOAD_A_LAT_STATS_LAT_MIN,
			      l->min == U64_MAX ? 0 : l->min, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_LAT_STATS_LAT_MAX, l->max, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_LAT_STATS_LAT_SUM, l->sum, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_LAT_STATS_LAT_SUM_HI, l->sum_hi, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_LAT_STATS_LAT_SQ, l->sq, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_LAT_STATS_LAT_SQ_HI, l->sq_hi, 0) ||
	    (hist && nla_put(msg, BLKLOAD_A_LAT_STATS_LAT_HIST, sizeof(u64) * BL_HIST_NR, hist))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * One operation's statistics; @split adds the sum of squares and the slat
 * and clat nests (left out of per-queue rows, which share one 64 KiB nest).
 */
static int bl_nl_put_op(struct sk_buff *msg, int type, const struct bl_op_stats *st, bool hist,
			bool split)
{
	struct nlattr *nest = nla_nest_start(msg, type);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, BLKLOAD_A_OP_STATS_IOS, st->ios, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_OP_STATS_BYTES, st->bytes, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_OP_STATS_ERRORS, st->errors, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_OP_STATS_LAT_MIN,
			      st->lat.min == U64_MAX ? 0 : st->lat.min, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_OP_STATS_LAT_MAX, st->lat.max, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_OP_STATS_LAT_SUM, st->lat.sum, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_OP_STATS_LAT_SUM_HI, st->lat.sum_hi, 0) ||
	    (hist && nla_put(msg, BLKLOAD_A_OP_STATS_HIST, sizeof(st->hist), st->hist)) ||
	    (split &&
	     (nla_put_u64_64bit(msg, BLKLOAD_A_OP_STATS_LAT_SQ, st->lat.sq, 0) ||
	      nla_put_u64_64bit(msg, BLKLOAD_A_OP_STATS_LAT_SQ_HI, st->lat.sq_hi, 0) ||
	      bl_nl_put_lat(msg, BLKLOAD_A_OP_STATS_CLAT, &st->clat, hist ? st->chist : NULL) ||
	      bl_nl_put_lat(msg, BLKLOAD_A_OP_STATS_SLAT, &st->slat, NULL)))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static void bl_sum_op(struct bl_op_stats *sum, const struct bl_op_stats *st, bool hist)
{
	unsigned int i;

	sum->ios += st->ios;
	sum->bytes += st->bytes;
	sum->errors += st->errors;
	bl_lat_merge(&sum->lat, &st->lat);
	bl_lat_merge(&sum->clat, &st->clat);
	bl_lat_merge(&sum->slat, &st->slat);
	if (hist) {
		for (i = 0; i < BL_HIST_NR; i++) {
			sum->hist[i] += st->hist[i];
			sum->chist[i] += st->chist[i];
		}
	}
}

/* Statistics as of now; buffers for the copies come from the caller. */
static int bl_nl_put_stats(struct sk_buff *msg, struct bl_job *job, bool hist, bool queues,
			   s64 qfirst, struct bl_op_stats *sum, struct bl_op_stats *st)
{
	/* Room kept in the nest for the totals after the rows. */
	size_t room = SZ_8K + (hist ? 4 * nla_total_size(sizeof(u64) * BL_HIST_NR) : 0);
	u32 rows_max = READ_ONCE(blkload_max_queue_rows), rows = 0, next = 0;
	u32 nest_max = READ_ONCE(blkload_max_stats_bytes);
	size_t used;
	u64 cpu = 0, ctx = 0, inflight = 0, last = 0, now = ktime_get_ns(), first, stall = 0;
	u64 depth[BL_DEPTH_NR] = { 0 };
	bool started = READ_ONCE(job->state) != BLKLOAD_STATE_CREATED;
	bool ramp_done = true;
	struct nlattr *nest, *qn;
	unsigned int i, op, d;

	if (!nest_max || nest_max > U16_MAX)
		nest_max = U16_MAX;
	/* Pairs with the smp_wmb() in bl_job_start(): start_ns is set. */
	smp_rmb();
	memset(sum, 0, sizeof(*sum) * BL_NR_OPS);
	for (op = 0; op < BL_NR_OPS; op++)
		bl_op_stats_init(&sum[op]);

	nest = nla_nest_start(msg, BLKLOAD_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	first = U64_MAX;
	for (i = 0; i < job->nr_queues; i++) {
		struct bl_queue *q = job->queues[i];
		u64 qcpu, qctx, qstall, qdepth[BL_DEPTH_NR];
		bool finished, qramp, work_done;

		/* Pairs with bl_queue_service(), before the copy: end_ns is set. */
		finished = smp_load_acquire(&q->finished);
		/* Likewise: the ramp's reset is done and count_start_ns is set. */
		qramp = started && smp_load_acquire(&q->ramp_done);
		bl_queue_read_stats(q, st, hist, &qcpu, &qctx, &qstall, qdepth);
		for (d = 0; d < BL_DEPTH_NR; d++)
			depth[d] += qdepth[d];
		/* Pairs with bl_vpass_start(): verify's read-back is not the job's time. */
		work_done = smp_load_acquire(&q->work_done);
		if (qramp && !work_done)
			qstall = max(qstall, bl_queue_stall_now(q, now));
		for (op = 0; op < BL_NR_OPS; op++)
			bl_sum_op(&sum[op], &st[op], hist);
		cpu += qcpu;
		ctx += qctx;
		stall = max(stall, qstall);
		inflight += bl_queue_inflight(q);
		if (!qramp)
			ramp_done = false;
		else
			first = min(first, q->count_start_ns);
		last = max(last, finished ? q->end_ns : work_done ? q->work_end_ns : now);
		if (!queues || i < qfirst || next)
			continue;
		/*
		 * Asked with queue-first (qfirst >= 0), a row (under 1 KiB) must
		 * leave room for the totals; those that do not fit are asked for
		 * again from queues-next (the max_stats_bytes test knob lowers
		 * the 64 KiB). The first row always goes: a reply
		 * without one would be asked forever. Asked without it (a client
		 * before it), every row or EMSGSIZE, as before.
		 */
		used = skb_tail_pointer(msg) - (unsigned char *)nest;
		if (qfirst >= 0 && rows &&
		    ((rows_max && rows >= rows_max) || used + SZ_1K + room > nest_max)) {
			next = i;
			continue;
		}
		rows++;
		qn = nla_nest_start(msg, BLKLOAD_A_STATS_QUEUE);
		if (!qn ||
		    nla_put_u32(msg, BLKLOAD_A_QUEUE_STATS_CPU, q->cpu) ||
		    nla_put_u64_64bit(msg, BLKLOAD_A_QUEUE_STATS_CPU_TIME, qcpu, 0) ||
		    nla_put_u64_64bit(msg, BLKLOAD_A_QUEUE_STATS_INFLIGHT,
				      bl_queue_inflight(q), 0) ||
		    bl_nl_put_op(msg, BLKLOAD_A_QUEUE_STATS_READ, &st[BL_READ], false, false) ||
		    bl_nl_put_op(msg, BLKLOAD_A_QUEUE_STATS_WRITE, &st[BL_WRITE], false, false) ||
		    (job->trims &&
		     bl_nl_put_op(msg, BLKLOAD_A_QUEUE_STATS_TRIM, &st[BL_TRIM], false, false)) ||
		    nla_put_u64_64bit(msg, BLKLOAD_A_QUEUE_STATS_STALL_MAX, qstall, 0) ||
		    nla_put(msg, BLKLOAD_A_QUEUE_STATS_DEPTH_TIME, sizeof(qdepth), qdepth) ||
		    nla_put_u64_64bit(msg, BLKLOAD_A_QUEUE_STATS_CTX, qctx, 0))
			goto err_cancel;
		nla_nest_end(msg, qn);
	}
	if (nla_put_u64_64bit(msg, BLKLOAD_A_STATS_ELAPSED,
			      ramp_done && last > first ? last - first : 0, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_STATS_CPU_TIME, cpu, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_STATS_INFLIGHT, inflight, 0) ||
	    (ramp_done && nla_put_flag(msg, BLKLOAD_A_STATS_RAMP_DONE)) ||
	    bl_nl_put_op(msg, BLKLOAD_A_STATS_READ, &sum[BL_READ], hist, true) ||
	    bl_nl_put_op(msg, BLKLOAD_A_STATS_WRITE, &sum[BL_WRITE], hist, true) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_STATS_STALL_MAX, stall, 0) ||
	    nla_put(msg, BLKLOAD_A_STATS_DEPTH_TIME, sizeof(depth), depth) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_STATS_CTX, ctx, 0) ||
	    (next && nla_put_u32(msg, BLKLOAD_A_STATS_QUEUES_NEXT, next)))
		goto err_cancel;
	/* A nest's length is 16 bits: histograms and many queue rows do not fit one. */
	if (skb_tail_pointer(msg) - (unsigned char *)nest > U16_MAX)
		goto err_cancel;
	nla_nest_end(msg, nest);
	return 0;

err_cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/* A block size split as job-new takes it: (smallest, largest, percent) triples. */
static int bl_nl_put_bs(struct sk_buff *msg, int type, const struct bl_params *p,
			unsigned int dir)
{
	unsigned int i, n = p->nbs[dir];
	struct nlattr *a;
	u32 prev = 0, *t;

	if (!n)
		return 0;
	a = nla_reserve(msg, type, n * 3 * sizeof(u32));
	if (!a)
		return -EMSGSIZE;
	t = nla_data(a);
	for (i = 0; i < n; i++, t += 3) {
		t[0] = p->bss[dir][i].lo;
		t[1] = p->bss[dir][i].hi;
		t[2] = p->bss[dir][i].cum - prev;
		prev = p->bss[dir][i].cum;
	}
	return 0;
}

/* A verifying job's counters, summed over its queues, and its first failures. */
static int bl_nl_put_verify(struct sk_buff *msg, struct bl_job *job)
{
	struct bl_vreport rep[BL_VREPORTS];
	u64 sum[4] = {}, one[4];
	struct nlattr *nest, *r;
	unsigned int i, k, nrep;

	for (i = 0; i < job->nr_queues; i++) {
		bl_queue_read_verify(job->queues[i], one);
		for (k = 0; k < 4; k++)
			sum[k] += one[k];
	}
	spin_lock(&job->vlock);
	nrep = job->nvrep;
	memcpy(rep, job->vrep, nrep * sizeof(rep[0]));
	spin_unlock(&job->vlock);

	nest = nla_nest_start(msg, BLKLOAD_A_VERIFY_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, BLKLOAD_A_VERIFY_STATS_CHECKED, sum[0], 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_VERIFY_STATS_SKIPPED, sum[1], 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_VERIFY_STATS_ERRORS, sum[2], 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_VERIFY_STATS_READBACK, sum[3], 0))
		goto cancel;
	for (k = 0; k < nrep; k++) {
		r = nla_nest_start(msg, BLKLOAD_A_VERIFY_STATS_REPORT);
		if (!r ||
		    nla_put_u64_64bit(msg, BLKLOAD_A_VERIFY_REPORT_OFFSET, rep[k].off, 0) ||
		    nla_put_u32(msg, BLKLOAD_A_VERIFY_REPORT_WHAT, rep[k].what) ||
		    nla_put_u64_64bit(msg, BLKLOAD_A_VERIFY_REPORT_EXPECTED, rep[k].want, 0) ||
		    nla_put_u64_64bit(msg, BLKLOAD_A_VERIFY_REPORT_FOUND, rep[k].got, 0))
			goto cancel;
		nla_nest_end(msg, r);
	}
	nla_nest_end(msg, nest);
	return 0;
cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/* A rate-limited job's latencies from the scheduled time, its queues' added up. */
static int bl_nl_put_sched(struct sk_buff *msg, struct bl_job *job, bool hist)
{
	static const int type[BL_NR_OPS] = {
		[BL_READ] = BLKLOAD_A_SCHED_STATS_READ,
		[BL_WRITE] = BLKLOAD_A_SCHED_STATS_WRITE,
		[BL_TRIM] = BLKLOAD_A_SCHED_STATS_TRIM,
	};
	bool started = READ_ONCE(job->state) != BLKLOAD_STATE_CREATED;
	struct bl_sched_stats *sum, *one;
	struct nlattr *nest;
	unsigned int i, op, b;
	int ret = -ENOMEM;

	sum = kvzalloc(2 * sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return ret;
	one = sum + 1;
	bl_sched_stats_init(sum);
	for (i = 0; i < job->nr_queues; i++) {
		struct bl_queue *q = job->queues[i];

		/* Pairs with bl_queue_service() (ramp_done): the ramp's reset is done. */
		if (!started || !smp_load_acquire(&q->ramp_done))
			continue;
		bl_queue_read_sched(q, one, hist);
		for (op = 0; op < BL_NR_OPS; op++) {
			bl_lat_merge(&sum->lat[op], &one->lat[op]);
			for (b = 0; hist && b < BL_HIST_NR; b++)
				sum->hist[op][b] += one->hist[op][b];
		}
	}
	ret = -EMSGSIZE;
	nest = nla_nest_start(msg, BLKLOAD_A_STATS_SCHED);
	if (!nest)
		goto out;
	for (op = 0; op < BL_NR_OPS; op++) {
		if (op == BL_TRIM && !job->trims)
			continue;
		if (bl_nl_put_lat(msg, type[op], &sum->lat[op], hist ? sum->hist[op] : NULL)) {
			nla_nest_cancel(msg, nest);
			goto out;
		}
	}
	nla_nest_end(msg, nest);
	ret = 0;
out:
	kvfree(sum);
	return ret;
}

static int bl_nl_fill_job(struct sk_buff *msg, struct bl_job *job, u32 portid, u32 seq,
			  int flags, u8 cmd, bool hist, bool queues, s64 qfirst)
{
	struct bl_op_stats *buf;
	void *hdr;
	int ret = -EMSGSIZE;

	/* Two sums and two per-queue copies, histograms included. */
	buf = kvmalloc_array(2 * BL_NR_OPS, sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	hdr = genlmsg_put(msg, portid, seq, &blkload_nl_family, flags, cmd);
	if (!hdr)
		goto out;
	if (nla_put_u32(msg, BLKLOAD_A_JOB_ID, job->id) ||
	    nla_put_string(msg, BLKLOAD_A_PATH, job->path) ||
	    nla_put_u32(msg, BLKLOAD_A_RW, job->p.rw) ||
	    nla_put_u32(msg, BLKLOAD_A_RWMIXREAD, job->p.rwmixread) ||
	    nla_put_u32(msg, BLKLOAD_A_BS, job->p.bs) ||
	    nla_put_u32(msg, BLKLOAD_A_IODEPTH, job->p.iodepth) ||
	    nla_put_u32(msg, BLKLOAD_A_BATCH, job->p.batch) ||
	    nla_put(msg, BLKLOAD_A_CPUMASK, cpumask_size(), cpumask_bits(job->cpus)) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_OFFSET, job->p.offset, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_SIZE, job->p.size, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_RUNTIME, job->p.runtime_ns, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_RAMP_TIME, job->p.ramp_ns, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_NUMBER_IOS, job->p.number_ios, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_RANDSEED, job->p.randseed, 0) ||
	    (job->p.no_lat && nla_put_flag(msg, BLKLOAD_A_NO_LAT)) ||
	    nla_put_u32(msg, BLKLOAD_A_STATE, READ_ONCE(job->state)) ||
	    nla_put_u32(msg, BLKLOAD_A_REASON, atomic_read(&job->reason)) ||
	    nla_put_s32(msg, BLKLOAD_A_ERROR, atomic_read(&job->error)) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_DEV_SIZE, job->dev_size, 0) ||
	    nla_put_u32(msg, BLKLOAD_A_DEV_LBS, job->dev_lbs) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_MEM_PINNED, job->mem_pinned, 0) ||
	    nla_put_u32(msg, BLKLOAD_A_OWNER, bl_job_owner_portid(job)) ||
	    nla_put_u32(msg, BLKLOAD_A_CONTINUE_ON_ERROR, job->p.coe) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_SAMPLE_INTERVAL, job->p.sample_ns, 0) ||
	    nla_put_u32(msg, BLKLOAD_A_SAMPLE_RING, job->p.sample_ring) ||
	    nla_put_u32(msg, BLKLOAD_A_RWMIXTRIM, job->p.rwmixtrim) ||
	    nla_put_u32(msg, BLKLOAD_A_REQ_FLAGS, job->p.req) ||
	    nla_put_u32(msg, BLKLOAD_A_RATE_IOPS, job->p.rate_iops) ||
	    nla_put_u32(msg, BLKLOAD_A_RATE_PROCESS, job->p.rate_process) ||
	    nla_put_u32(msg, BLKLOAD_A_RANDOM_DISTRIBUTION, job->p.dist) ||
	    nla_put_u32(msg, BLKLOAD_A_RANDOM_DISTRIBUTION_PARAM, job->p.dist_param) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_THINKTIME, job->p.think_ns, 0) ||
	    nla_put_u32(msg, BLKLOAD_A_THINKTIME_BLOCKS, job->p.think_blocks) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_STARTDELAY, job->p.startdelay_ns, 0) ||
	    nla_put_u32(msg, BLKLOAD_A_LOOPS, job->p.loops) ||
	    nla_put_u32(msg, BLKLOAD_A_BUFFER_COMPRESS_PERCENTAGE, job->p.buf_compress) ||
	    nla_put_u32(msg, BLKLOAD_A_DEDUPE_PERCENTAGE, job->p.buf_dedupe) ||
	    (job->p.zero_buffers && nla_put_flag(msg, BLKLOAD_A_ZERO_BUFFERS)) ||
	    nla_put_u32(msg, BLKLOAD_A_VERIFY, job->p.verify) ||
	    (job->p.verify_no_readback && nla_put_flag(msg, BLKLOAD_A_VERIFY_NO_READBACK)) ||
	    (job->p.verify && bl_nl_put_verify(msg, job)) ||
	    bl_nl_put_bs(msg, BLKLOAD_A_BS_SPLIT, &job->p, 0) ||
	    bl_nl_put_bs(msg, BLKLOAD_A_BS_SPLIT_WRITE, &job->p, 1) ||
	    (bl_job_is_deleted(job) && nla_put_flag(msg, BLKLOAD_A_DELETED)) ||
	    bl_nl_put_stats(msg, job, hist, queues, qfirst, buf, buf + BL_NR_OPS) ||
	    /* The sums bl_nl_put_stats() left in buf. */
	    (job->trims &&
	     bl_nl_put_op(msg, BLKLOAD_A_STATS_TRIM, &buf[BL_TRIM], hist, true)) ||
	    (job->p.rate_iops && bl_nl_put_sched(msg, job, hist))) {
		genlmsg_cancel(msg, hdr);
		goto out;
	}
	genlmsg_end(msg, hdr);
	ret = 0;
out:
	kvfree(buf);
	return ret;
}

/* A message big enough for a job with histograms and per-queue rows. */
static size_t bl_nl_job_size(struct bl_job *job, bool hist, bool queues)
{
	size_t sz = NLMSG_GOODSIZE + nla_total_size(strlen(job->path) + 1) +
		    nla_total_size(cpumask_size()) +
		    2 * nla_total_size(sizeof(u32) * 3 * BL_GEN_BS_MAX) +
		    nla_total_size(5 * nla_total_size_64bit(8) +
				   BL_VREPORTS * nla_total_size(4 * nla_total_size_64bit(8)));

	if (hist)
		sz += ((job->trims ? 6 : 4) + (job->p.rate_iops ? 3 : 0)) *
		      nla_total_size(sizeof(u64) * BL_HIST_NR);
	/* Rows stop at the stats nest's 64 KiB (queues-next says where). */
	if (queues)
		sz += min_t(size_t, job->nr_queues * SZ_1K, U16_MAX);
	return sz;
}

static int blkload_nl_job_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	bool hist = nla_get_flag(info->attrs[BLKLOAD_A_WANT_HIST]);
	bool queues = nla_get_flag(info->attrs[BLKLOAD_A_WANT_QUEUES]);
	/* -1: asked without queue-first (not u32 arithmetic: -1 stays -1). */
	s64 qfirst = info->attrs[BLKLOAD_A_QUEUE_FIRST] ?
		     (s64)nla_get_u32(info->attrs[BLKLOAD_A_QUEUE_FIRST]) : -1;
	struct bl_job *job;
	struct sk_buff *msg;
	int ret;

	ret = bl_nl_admin(skb, info);
	if (ret)
		return ret;
	job = bl_nl_job(info);
	if (IS_ERR(job))
		return PTR_ERR(job);
	msg = genlmsg_new(bl_nl_job_size(job, hist, queues), GFP_KERNEL);
	if (!msg) {
		bl_job_put(job);
		return -ENOMEM;
	}
	ret = bl_nl_fill_job(msg, job, info->snd_portid, info->snd_seq, 0,
			     info->genlhdr->cmd, hist, queues, qfirst);
	bl_job_put(job);
	if (ret) {
		nlmsg_free(msg);
		if (ret == -EMSGSIZE)
			GENL_SET_ERR_MSG(info, "statistics over 64 KiB: ask for queues apart");
		return ret;
	}
	return genlmsg_reply(msg, info);
}

/* Dumps keep the last job id sent in cb->args[0]. */
static int blkload_nl_job_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	u32 id = (u32)cb->args[0];
	struct bl_job *job;
	int ret;

	if (!netlink_capable(cb->skb, CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(cb->extack, "blkload jobs need CAP_SYS_ADMIN");
		return -EPERM;
	}
	while ((id = bl_job_next_id(id))) {
		job = bl_job_get(id);
		if (!job)
			continue;
		ret = bl_nl_fill_job(skb, job, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				     NLM_F_MULTI, BLKLOAD_CMD_JOB_GET, false, false, -1);
		bl_job_put(job);
		if (ret)
			return ret == -EMSGSIZE && skb->len ? skb->len : ret;
		cb->args[0] = id;
	}
	return skb->len;
}

static int bl_nl_put_sample_op(struct sk_buff *msg, int type, const struct bl_sample_op *op,
			       const u32 *chist)
{
	unsigned int first = 0, end = BL_SHIST_NR;
	struct nlattr *nest;

	while (first < end && !chist[first])
		first++;
	while (end > first && !chist[end - 1])
		end--;
	nest = nla_nest_start(msg, type);
	if (!nest ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_SAMPLE_OP_IOS, op->ios, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_SAMPLE_OP_BYTES, op->bytes, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_SAMPLE_OP_LAT_SUM, op->lat, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_SAMPLE_OP_CLAT_SUM, op->clat, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_SAMPLE_OP_SLAT_SUM, op->slat, 0) ||
	    (end > first &&
	     (nla_put_u32(msg, BLKLOAD_A_SAMPLE_OP_CLAT_HIST_FIRST, first) ||
	      nla_put(msg, BLKLOAD_A_SAMPLE_OP_CLAT_HIST, (end - first) * sizeof(u32),
		      chist + first))))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * Sample @i of the job, its queues' added up, into @sum (@one is scratch).
 * Returns how many queues took it, 0 when none, -1 when a queue has
 * written over it. @n holds each queue's sample count as read before.
 */
static int bl_nl_sample_merge(struct bl_job *job, const u64 *n, u64 i, struct bl_sample *sum,
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

/* The size of a sample-get reply: samples are added while they fit. */
#define BL_SAMPLE_MSG_SIZE	(32 * 1024)

/*
 * A sample is complete once every queue that still runs has taken it; a
 * finished queue takes no more. Queues are read without stopping them: a
 * sample a queue overwrites meanwhile is reported lost.
 */
static int bl_nl_fill_samples(struct sk_buff *msg, struct bl_job *job, u64 from,
			      u64 *n, struct bl_sample *buf)
{
	u64 end = U64_MAX, all = 0, oldest = 0, lost = 0, i;
	bool started = READ_ONCE(job->state) != BLKLOAD_STATE_CREATED;
	struct nlattr *nest, *a_next, *a_lost;
	unsigned int k;
	int queues;

	/* Pairs with the smp_wmb() in bl_job_start(): the queues were started. */
	smp_rmb();
	for (k = 0; k < job->nr_queues; k++) {
		struct bl_queue *q = job->queues[k];
		/* Pairs with bl_queue_service(): its last sample is counted. */
		bool finished = started && smp_load_acquire(&q->finished);

		n[k] = started ? bl_queue_samples(q) : 0;
		all = max(all, n[k]);
		if (!finished)
			end = min(end, n[k]);
		if (n[k] > q->ring_nr)
			oldest = max(oldest, n[k] - q->ring_nr);
	}
	if (end == U64_MAX)
		end = all;
	if (from < oldest) {
		lost = oldest - from;
		from = oldest;
	}
	/* Room for the two answers first: the samples take what is left. */
	a_next = nla_reserve_64bit(msg, BLKLOAD_A_SAMPLE_NEXT, sizeof(u64), 0);
	a_lost = nla_reserve_64bit(msg, BLKLOAD_A_SAMPLE_LOST, sizeof(u64), 0);
	if (!a_next || !a_lost)
		return -EMSGSIZE;
	for (i = from; i < end; i++) {
		cond_resched();
		queues = bl_nl_sample_merge(job, n, i, &buf[0], &buf[1]);
		if (queues < 0) {
			lost++;
			continue;
		}
		nest = nla_nest_start(msg, BLKLOAD_A_SAMPLE);
		if (!nest ||
		    nla_put_u64_64bit(msg, BLKLOAD_A_SAMPLE_INDEX, i, 0) ||
		    nla_put_u64_64bit(msg, BLKLOAD_A_SAMPLE_TIME, buf[0].t, 0) ||
		    nla_put_u32(msg, BLKLOAD_A_SAMPLE_QUEUES, queues) ||
		    bl_nl_put_sample_op(msg, BLKLOAD_A_SAMPLE_READ, &buf[0].op[BL_READ],
					buf[0].chist[BL_READ]) ||
		    bl_nl_put_sample_op(msg, BLKLOAD_A_SAMPLE_WRITE, &buf[0].op[BL_WRITE],
					buf[0].chist[BL_WRITE]) ||
		    (job->trims &&
		     bl_nl_put_sample_op(msg, BLKLOAD_A_SAMPLE_TRIM, &buf[0].op[BL_TRIM],
					 buf[0].chist[BL_TRIM]))) {
			/* Full: this one and the rest in the next reply. */
			if (nest)
				nla_nest_cancel(msg, nest);
			break;
		}
		nla_nest_end(msg, nest);
	}
	memcpy(nla_data(a_next), &i, sizeof(i));
	memcpy(nla_data(a_lost), &lost, sizeof(lost));
	return 0;
}

static int blkload_nl_sample_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	u64 from = bl_nla_u64(info->attrs[BLKLOAD_A_SAMPLE_FROM], 0);
	struct bl_sample *buf = NULL;
	struct sk_buff *msg = NULL;
	struct bl_job *job;
	u64 *n = NULL;
	void *hdr;
	int ret;

	ret = bl_nl_admin(skb, info);
	if (ret)
		return ret;
	job = bl_nl_job(info);
	if (IS_ERR(job))
		return PTR_ERR(job);
	if (!job->p.sample_ns) {
		NL_SET_ERR_MSG(info->extack, "the job takes no samples (sample-interval)");
		ret = -EINVAL;
		goto out;
	}
	ret = -ENOMEM;
	buf = kvmalloc_array(2, sizeof(*buf), GFP_KERNEL);
	n = kcalloc(job->nr_queues, sizeof(*n), GFP_KERNEL);
	msg = genlmsg_new(BL_SAMPLE_MSG_SIZE, GFP_KERNEL);
	if (!buf || !n || !msg)
		goto out;
	ret = -EMSGSIZE;
	hdr = genlmsg_put_reply(msg, info, &blkload_nl_family, 0, info->genlhdr->cmd);
	if (!hdr || nla_put_u32(msg, BLKLOAD_A_JOB_ID, job->id))
		goto out;
	ret = bl_nl_fill_samples(msg, job, from, n, buf);
	if (ret)
		goto out;
	genlmsg_end(msg, hdr);
	ret = genlmsg_reply(msg, info);
	msg = NULL;
out:
	nlmsg_free(msg);
	kfree(n);
	kvfree(buf);
	bl_job_put(job);
	return ret;
}

/*
 * Multicasts the job-done event. Only from a netlink handler, the netlink
 * release notifier or a run's done work: all are over before the family is
 * unregistered at module exit.
 */
void bl_nl_notify_done(struct bl_job *job)
{
	struct sk_buff *msg;

	/* No group on a kernel that cannot restrict it (compat.h): nobody to tell. */
	if (!BL_HAVE_EVENTS || !genl_has_listeners(&blkload_nl_family, &init_net, 0))
		return;
	msg = genlmsg_new(bl_nl_job_size(job, false, false), GFP_KERNEL);
	if (!msg)
		return;
	if (bl_nl_fill_job(msg, job, 0, 0, 0, BLKLOAD_CMD_JOB_DONE_NTF, false, false, -1)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_multicast(&blkload_nl_family, msg, 0, 0, GFP_KERNEL);
}

static const struct genl_small_ops blkload_nl_ops[] = {
	{
		/* Reading what the module is and allows needs no privilege. */
		.cmd	= BLKLOAD_CMD_INFO_GET,
		.doit	= blkload_nl_info_get_doit,
	},
	{
		.cmd	= BLKLOAD_CMD_JOB_NEW,
		.doit	= blkload_nl_job_new_doit,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= BLKLOAD_CMD_JOB_START,
		.doit	= blkload_nl_job_start_doit,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= BLKLOAD_CMD_JOB_STOP,
		.doit	= blkload_nl_job_stop_doit,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= BLKLOAD_CMD_JOB_DEL,
		.doit	= blkload_nl_job_del_doit,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= BLKLOAD_CMD_JOB_GET,
		.doit	= blkload_nl_job_get_doit,
		.dumpit	= blkload_nl_job_get_dumpit,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= BLKLOAD_CMD_JOB_DETACH,
		.doit	= blkload_nl_job_detach_doit,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= BLKLOAD_CMD_SAMPLE_GET,
		.doit	= blkload_nl_sample_get_doit,
		.flags	= GENL_ADMIN_PERM,
	},
};

/*
 * Events carry devices and statistics, which job-get gives only to
 * CAP_SYS_ADMIN: so does joining the group (Debian's 6.1 has the flag
 * backported; without it there is no group, see compat.h). Events go to
 * the initial network namespace only.
 */
#if BL_HAVE_EVENTS
static const struct genl_multicast_group blkload_nl_mcgrps[] = {
	{ .name = BLKLOAD_MCGRP_EVENTS, .flags = GENL_MCAST_CAP_SYS_ADMIN, },
};
#endif

static struct genl_family blkload_nl_family __ro_after_init = {
	.name		= BLKLOAD_FAMILY_NAME,
	.version	= BLKLOAD_FAMILY_VERSION,
	.maxattr	= BLKLOAD_A_MAX,
	.policy		= blkload_nl_policy,
	.netnsok	= false,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.small_ops	= blkload_nl_ops,
	.n_small_ops	= ARRAY_SIZE(blkload_nl_ops),
#if BL_HAVE_EVENTS
	.mcgrps		= blkload_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(blkload_nl_mcgrps),
#endif
};

/*
 * A socket that owns jobs went away (closed, or its process died). Port ids
 * are per network namespace: the owner is the pair. (genl's per-socket
 * private data would name the socket itself, but genl_sk_priv_get() is not
 * exported to modules, 6.12 included.)
 */
static int bl_nl_notify(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct netlink_notify *n = ptr;
	struct bl_owner owner;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC || !n->portid)
		return NOTIFY_DONE;
	owner.net = n->net;
	owner.portid = n->portid;
	bl_jobs_owner_gone(&owner);
	return NOTIFY_DONE;
}

static struct notifier_block bl_nl_notifier = {
	.notifier_call = bl_nl_notify,
};

int __init blkload_nl_init(void)
{
	int ret;

	ret = netlink_register_notifier(&bl_nl_notifier);
	if (ret)
		return ret;
	ret = genl_register_family(&blkload_nl_family);
	if (ret) {
		netlink_unregister_notifier(&bl_nl_notifier);
		return ret;
	}
	return 0;
}

/*
 * The notifier first (it may multicast), then the family, which waits for
 * every running handler: none runs once this returns.
 */
void blkload_nl_exit(void)
{
	netlink_unregister_notifier(&bl_nl_notifier);
	genl_unregister_family(&blkload_nl_family);
}
