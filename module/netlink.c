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
	    nla_put_u32(msg, BLKLOAD_A_MAX_BS, BL_BS_MAX) ||
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

/* Named apart from nla_get_u64_default() and friends, which 6.13 adds. */
static u64 bl_nla_u64(const struct nlattr *a, u64 dflt)
{
	return a ? nla_get_u64(a) : dflt;
}

/* The plain parameters of a job-new (params.h's table), their defaults where absent. */
static void bl_nl_parse_params(struct nlattr **tb, struct bl_params *p)
{
	unsigned int i;

	for (i = 0; i < BL_PARAM_ATTRS_NR; i++) {
		const struct bl_param_attr *a = &bl_param_attrs[i];
		const struct nlattr *v = tb[a->type];

		if (!v)
			bl_param_set(p, a, a->dflt);
		else if (a->kind == BL_PK_U32)
			bl_param_set(p, a, nla_get_u32(v));
		else if (a->kind == BL_PK_U64)
			bl_param_set(p, a, nla_get_u64(v));
		else
			bl_param_set(p, a, 1);
	}
}

/* The job's parameters, every plain one (params.h's table). */
static int bl_nl_put_params(struct sk_buff *msg, const struct bl_params *p)
{
	unsigned int i;

	for (i = 0; i < BL_PARAM_ATTRS_NR; i++) {
		const struct bl_param_attr *a = &bl_param_attrs[i];
		u64 v = bl_param_get(p, a);
		int ret;

		if (a->kind == BL_PK_U32)
			ret = nla_put_u32(msg, a->type, v);
		else if (a->kind == BL_PK_U64)
			ret = nla_put_u64_64bit(msg, a->type, v, 0);
		else
			ret = v ? nla_put_flag(msg, a->type) : 0;
		if (ret)
			return ret;
	}
	return 0;
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

/* bs-split: u32 triples (smallest, largest, percent) into the split's table. */
static int bl_nl_parse_bs(struct genl_info *info, int type, struct bl_params *p, unsigned int dir)
{
	struct nlattr *a = info->attrs[type];
	u32 t[BL_GEN_BS_MAX][3];
	const char *why = NULL;
	unsigned int n;

	if (!a)
		return 0;
	/* Whole triples, at most BL_GEN_BS_MAX; else n 0 and params.h says why. */
	n = nla_len(a) % sizeof(t[0]) ? 0 : nla_len(a) / sizeof(t[0]);
	if (n <= BL_GEN_BS_MAX)
		memcpy(t, nla_data(a), n * sizeof(t[0]));
	if (bl_params_split_set(p, dir, t, n, &why)) {
		NL_SET_BAD_ATTR(info->extack, a);
		return bl_extack_why(info->extack, -EINVAL, why);
	}
	return 0;
}

/* A zoned distribution's zones (params.h checks the entries' shape). */
static int bl_nl_parse_zones(struct genl_info *info, struct bl_params *p)
{
	struct nlattr *a = info->attrs[BLKLOAD_A_RANDOM_ZONES];
	const char *why = NULL;
	int ret;

	if (!a)
		return 0;
	ret = bl_params_zones_set(p, nla_data(a), nla_len(a), &why);
	if (ret) {
		NL_SET_BAD_ATTR(info->extack, a);
		return bl_extack_why(info->extack, ret, why);
	}
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
	struct bl_params *p;
	cpumask_var_t cpus;
	struct bl_job *job;
	struct sk_buff *msg;
	void *hdr;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, BLKLOAD_A_PATH) || nla_len(tb[BLKLOAD_A_PATH]) <= 1) {
		NL_SET_ERR_MSG(info->extack, "a device path is required");
		return -EINVAL;
	}
	/* Off the stack: the splits and zones make it most of a kilobyte. */
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	bl_nl_parse_params(tb, p);

	ret = bl_nl_parse_bs(info, BLKLOAD_A_BS_SPLIT, p, 0);
	if (!ret)
		ret = bl_nl_parse_bs(info, BLKLOAD_A_BS_SPLIT_WRITE, p, 1);
	if (!ret)
		ret = bl_nl_parse_zones(info, p);
	if (ret)
		goto out_free_p;
	ret = -ENOMEM;
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL))
		goto out_free_p;
	ret = bl_nl_parse_cpus(info, cpus);
	if (ret)
		goto out_free_cpus;

	job = bl_job_create(nla_data(tb[BLKLOAD_A_PATH]), p, cpus, &owner, info->extack);
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
	/*
	 * A reply that does not reach the caller (its socket's buffer full)
	 * leaves a job nobody knows the id of, a detached one owned by no
	 * socket: it goes, with its claim. The reply is freed either way.
	 */
	ret = genlmsg_reply(msg, info);
	if (ret)
		goto out_del;
	bl_job_put(job);
	free_cpumask_var(cpus);
	kfree(p);
	return 0;

out_del:
	bl_job_del(job);
	bl_job_put(job);
out_free_cpus:
	free_cpumask_var(cpus);
out_free_p:
	kfree(p);
	return ret;
}

/*
 * Before every command but info-get: the privilege (bl_nl_admin()) and, for
 * those that name one job, its lookup: the job, held, is info->user_ptr[0]
 * until post_doit puts it.
 */
static int bl_nl_pre_doit(const struct bl_genl_op *ops, struct sk_buff *skb,
			  struct genl_info *info)
{
	struct bl_job *job;
	int ret;

	info->user_ptr[0] = NULL;
	switch (info->genlhdr->cmd) {
	case BLKLOAD_CMD_INFO_GET:
		return 0;
	case BLKLOAD_CMD_JOB_NEW:
	case BLKLOAD_CMD_JOB_START:
		return bl_nl_admin(skb, info);
	}
	ret = bl_nl_admin(skb, info);
	if (ret)
		return ret;
	if (GENL_REQ_ATTR_CHECK(info, BLKLOAD_A_JOB_ID)) {
		NL_SET_ERR_MSG(info->extack, "a job id is required");
		return -EINVAL;
	}
	job = bl_job_get(nla_get_u32(info->attrs[BLKLOAD_A_JOB_ID]));
	if (!job) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[BLKLOAD_A_JOB_ID], "no such job");
		return -ENOENT;
	}
	info->user_ptr[0] = job;
	return 0;
}

static void bl_nl_post_doit(const struct bl_genl_op *ops, struct sk_buff *skb,
			    struct genl_info *info)
{
	if (info->user_ptr[0])
		bl_job_put(info->user_ptr[0]);
}

static int blkload_nl_job_start_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct bl_job **jobs;
	unsigned int n = 0, i;
	struct nlattr *a;
	int rem, ret;

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
static int blkload_nl_job_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	bl_job_stop(info->user_ptr[0]);
	return 0;
}

static int blkload_nl_job_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	bl_job_del(info->user_ptr[0]);
	return 0;
}

static int blkload_nl_job_detach_doit(struct sk_buff *skb, struct genl_info *info)
{
	bl_job_detach(info->user_ptr[0]);
	return 0;
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
	      bl_nl_put_lat(msg, BLKLOAD_A_OP_STATS_SLAT, &st->slat, NULL) ||
	      (st->devlat_n &&
	       bl_nl_put_lat(msg, BLKLOAD_A_OP_STATS_DEVLAT, &st->devlat, NULL))))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* Where the rows of a job-get reply go, and how many fit. */
struct bl_nl_rows {
	struct sk_buff *msg;
	struct nlattr *nest;
	struct bl_job *job;
	s64 qfirst;
	size_t room, nest_max;
	u32 rows_max, rows, next;
};

/*
 * One queue's row (bl_job_snapshot()'s callback). Asked with queue-first
 * (qfirst >= 0), a row (under 1 KiB) must leave room for the totals; those
 * that do not fit are asked for again from queues-next (the
 * max_stats_bytes test knob lowers the 64 KiB). The first row always goes:
 * a reply without one would be asked forever. Asked without it (a client
 * before it), every row or EMSGSIZE, as before. Non-zero stops the rows.
 */
static int bl_nl_put_row(void *ctx, unsigned int i, const struct bl_queue_snap *row)
{
	struct bl_nl_rows *r = ctx;
	struct sk_buff *msg = r->msg;
	struct nlattr *qn;
	size_t used;

	if (i < r->qfirst)
		return 0;
	used = skb_tail_pointer(msg) - (unsigned char *)r->nest;
	if (r->qfirst >= 0 && r->rows &&
	    ((r->rows_max && r->rows >= r->rows_max) || used + SZ_1K + r->room > r->nest_max)) {
		r->next = i;
		return 1;
	}
	r->rows++;
	qn = nla_nest_start(msg, BLKLOAD_A_STATS_QUEUE);
	if (!qn ||
	    nla_put_u32(msg, BLKLOAD_A_QUEUE_STATS_CPU, row->cpu) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_QUEUE_STATS_CPU_TIME, row->cpu_time, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_QUEUE_STATS_INFLIGHT, row->inflight, 0) ||
	    bl_nl_put_op(msg, BLKLOAD_A_QUEUE_STATS_READ, &row->st[BL_READ], false, false) ||
	    bl_nl_put_op(msg, BLKLOAD_A_QUEUE_STATS_WRITE, &row->st[BL_WRITE], false, false) ||
	    (r->job->trims &&
	     bl_nl_put_op(msg, BLKLOAD_A_QUEUE_STATS_TRIM, &row->st[BL_TRIM], false, false)) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_QUEUE_STATS_STALL_MAX, row->stall_max, 0) ||
	    nla_put(msg, BLKLOAD_A_QUEUE_STATS_DEPTH_TIME, sizeof(row->depth_ns), row->depth_ns) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_QUEUE_STATS_CTX, row->ctx, 0))
		return -EMSGSIZE;
	nla_nest_end(msg, qn);
	return 0;
}

/*
 * Statistics as of now (stats.c reads them): the sums, and the queue rows
 * when asked. @snap and @row are the caller's buffers; the trims' sum,
 * outside this nest, is left in @snap.
 */
static int bl_nl_put_stats(struct sk_buff *msg, struct bl_job *job, bool hist, bool queues,
			   s64 qfirst, struct bl_job_snap *snap, struct bl_queue_snap *row)
{
	struct bl_nl_rows r = {
		.msg = msg, .job = job, .qfirst = qfirst,
		/* Room kept in the nest for the totals after the rows. */
		.room = SZ_8K + (hist ? 4 * nla_total_size(sizeof(u64) * BL_HIST_NR) : 0),
		.rows_max = READ_ONCE(blkload_max_queue_rows),
		.nest_max = READ_ONCE(blkload_max_stats_bytes),
	};

	if (!r.nest_max || r.nest_max > U16_MAX)
		r.nest_max = U16_MAX;
	r.nest = nla_nest_start(msg, BLKLOAD_A_STATS);
	if (!r.nest)
		return -EMSGSIZE;
	if (bl_job_snapshot(job, hist, snap, row, queues ? bl_nl_put_row : NULL, &r) < 0)
		goto err_cancel;
	if (nla_put_u64_64bit(msg, BLKLOAD_A_STATS_ELAPSED, snap->elapsed, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_STATS_CPU_TIME, snap->cpu_time, 0) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_STATS_INFLIGHT, snap->inflight, 0) ||
	    (snap->counting && nla_put_flag(msg, BLKLOAD_A_STATS_RAMP_DONE)) ||
	    bl_nl_put_op(msg, BLKLOAD_A_STATS_READ, &snap->sum[BL_READ], hist, true) ||
	    bl_nl_put_op(msg, BLKLOAD_A_STATS_WRITE, &snap->sum[BL_WRITE], hist, true) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_STATS_STALL_MAX, snap->stall_max, 0) ||
	    nla_put(msg, BLKLOAD_A_STATS_DEPTH_TIME, sizeof(snap->depth_ns), snap->depth_ns) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_STATS_CTX, snap->ctx, 0) ||
	    (r.next && nla_put_u32(msg, BLKLOAD_A_STATS_QUEUES_NEXT, r.next)))
		goto err_cancel;
	/* A nest's length is 16 bits: histograms and many queue rows do not fit one. */
	if (skb_tail_pointer(msg) - (unsigned char *)r.nest > U16_MAX)
		goto err_cancel;
	nla_nest_end(msg, r.nest);
	return 0;

err_cancel:
	nla_nest_cancel(msg, r.nest);
	return -EMSGSIZE;
}

/* A block size split as job-new takes it: (smallest, largest, percent) triples. */
static int bl_nl_put_bs(struct sk_buff *msg, int type, const struct bl_params *p,
			unsigned int dir)
{
	u32 t[BL_GEN_BS_MAX][3];
	unsigned int n = bl_params_split_get(p, dir, t);

	return n ? nla_put(msg, type, n * sizeof(t[0]), t) : 0;
}

/* A verifying job's counters, summed over its queues, and its first failures. */
static int bl_nl_put_verify(struct sk_buff *msg, struct bl_job *job)
{
	struct bl_vreport rep[BL_VREPORTS];
	struct nlattr *nest, *r;
	unsigned int k, nrep;
	u64 sum[4];

	bl_job_verify_sum(job, sum);
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
	struct bl_sched_stats *sum;
	struct nlattr *nest;
	unsigned int op;
	int ret = -ENOMEM;

	sum = kvzalloc(2 * sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return ret;
	bl_job_sched_sum(job, sum, sum + 1, hist);
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
	struct bl_queue_snap *row;
	struct bl_job_snap *snap;
	void *hdr;
	int ret = -EMSGSIZE;

	/* The sums with their histograms, and one queue's row at a time. */
	snap = kvmalloc(sizeof(*snap), GFP_KERNEL);
	row = kvmalloc(sizeof(*row), GFP_KERNEL);
	if (!snap || !row) {
		ret = -ENOMEM;
		goto out;
	}
	hdr = genlmsg_put(msg, portid, seq, &blkload_nl_family, flags, cmd);
	if (!hdr)
		goto out;
	if (nla_put_u32(msg, BLKLOAD_A_JOB_ID, job->id) ||
	    nla_put_string(msg, BLKLOAD_A_PATH, job->path) ||
	    bl_nl_put_params(msg, &job->p) ||
	    nla_put(msg, BLKLOAD_A_CPUMASK, cpumask_size(), cpumask_bits(job->cpus)) ||
	    nla_put_u32(msg, BLKLOAD_A_STATE, READ_ONCE(job->state)) ||
	    nla_put_u32(msg, BLKLOAD_A_REASON, atomic_read(&job->reason)) ||
	    nla_put_s32(msg, BLKLOAD_A_ERROR, atomic_read(&job->error)) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_DEV_SIZE, job->dev_size, 0) ||
	    nla_put_u32(msg, BLKLOAD_A_DEV_LBS, job->dev_lbs) ||
	    nla_put_u64_64bit(msg, BLKLOAD_A_MEM_PINNED, job->mem_pinned, 0) ||
	    nla_put_u32(msg, BLKLOAD_A_OWNER, bl_job_owner_portid(job)) ||
	    (job->p.verify && bl_nl_put_verify(msg, job)) ||
	    bl_nl_put_bs(msg, BLKLOAD_A_BS_SPLIT, &job->p, 0) ||
	    bl_nl_put_bs(msg, BLKLOAD_A_BS_SPLIT_WRITE, &job->p, 1) ||
	    (job->p.nzones && nla_put(msg, BLKLOAD_A_RANDOM_ZONES,
				      job->p.nzones * sizeof(job->p.zones[0]), job->p.zones)) ||
	    (bl_job_is_deleted(job) && nla_put_flag(msg, BLKLOAD_A_DELETED)) ||
	    bl_nl_put_stats(msg, job, hist, queues, qfirst, snap, row) ||
	    /* The sum bl_nl_put_stats() left in snap. */
	    (job->trims &&
	     bl_nl_put_op(msg, BLKLOAD_A_STATS_TRIM, &snap->sum[BL_TRIM], hist, true)) ||
	    (bl_params_paced(&job->p) && bl_nl_put_sched(msg, job, hist))) {
		genlmsg_cancel(msg, hdr);
		goto out;
	}
	genlmsg_end(msg, hdr);
	ret = 0;
out:
	kvfree(row);
	kvfree(snap);
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
		sz += ((job->trims ? 6 : 4) + (bl_params_paced(&job->p) ? 3 : 0)) *
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
	struct bl_job *job = info->user_ptr[0];
	struct sk_buff *msg;
	int ret;

	msg = genlmsg_new(bl_nl_job_size(job, hist, queues), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	ret = bl_nl_fill_job(msg, job, info->snd_portid, info->snd_seq, 0,
			     info->genlhdr->cmd, hist, queues, qfirst);
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
	struct nlattr *nest, *a_next, *a_lost;
	u64 end, lost, i;
	int queues;

	end = bl_job_samples(job, from, n, &lost);
	from += lost;
	/* Room for the two answers first: the samples take what is left. */
	a_next = nla_reserve_64bit(msg, BLKLOAD_A_SAMPLE_NEXT, sizeof(u64), 0);
	a_lost = nla_reserve_64bit(msg, BLKLOAD_A_SAMPLE_LOST, sizeof(u64), 0);
	if (!a_next || !a_lost)
		return -EMSGSIZE;
	for (i = from; i < end; i++) {
		cond_resched();
		queues = bl_job_sample(job, n, i, &buf[0], &buf[1]);
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
	struct bl_job *job = info->user_ptr[0];
	struct bl_sample *buf = NULL;
	struct sk_buff *msg = NULL;
	u64 *n = NULL;
	void *hdr;
	int ret;

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
	.pre_doit	= bl_nl_pre_doit,
	.post_doit	= bl_nl_post_doit,
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
