// SPDX-License-Identifier: GPL-2.0
/*
 * Jobs of the module from the CLI: the netlink requests that make, start,
 * stop, read and delete them, the events socket run waits on, Ctrl-C, and
 * the report of a set of jobs. Shared by run/start (cmd_run.c) and
 * stop/stats/list (cmd_job.c).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <netlink/genl/ctrl.h>

#include <blkload/fill.h>

#include "blkload.h"
#include "cpu.h"
#include "inuse.h"
#include "job.h"
#include "jobctl.h"
#include "nl.h"
#include "out.h"
#include "parse.h"
#include "util.h"
#include "workload.h"

struct id_reply {
	uint32_t id;
};

static int id_parse(struct nlattr **tb, void *arg)
{
	struct id_reply *r = arg;

	return nla_get_u32_checked(tb[BLKLOAD_A_JOB_ID], &r->id) ? 0 : -EPROTO;
}

static void put_cpus(struct nl_msg *msg, const struct cpuset *set)
{
	size_t words = (cpuset_limit(set) + 63) / 64;
	uint64_t *w = xcalloc(words, sizeof(*w));

	for (unsigned int c = 0; c < cpuset_limit(set); c++)
		if (cpuset_test(set, c))
			w[c / 64] |= 1ULL << (c % 64);
	nla_put(msg, BLKLOAD_A_CPUMASK, (int)(words * sizeof(*w)), w);
	free(w);
}

/*
 * The samples each queue keeps. A run reads them at least every second:
 * 4 s of them (the whole run where that is shorter). A detached job's: the
 * module's default (the whole run, 16 to 256).
 */
static uint32_t job_ring(const struct workload *w)
{
	uint64_t ring = 4000000000ULL / w->p.sample_ns + 4;

	if (w->p.sample_ring)
		return w->p.sample_ring;
	if (w->p.detached) {
		ring = w->p.runtime_ns ? w->p.runtime_ns / w->p.sample_ns + 2 : 256;
		return (uint32_t)(ring < 16 ? 16 : ring > 256 ? 256 : ring);
	}
	if (w->p.runtime_ns && w->p.runtime_ns / w->p.sample_ns + 2 < ring)
		ring = w->p.runtime_ns / w->p.sample_ns + 2;
	return (uint32_t)(ring < 16 ? 16 : ring > 65536 ? 65536 : ring);
}

/* The kernel says memory; say how much this job would have pinned. */
void explain_budget(const struct workload *w)
{
	unsigned int ncpu = w->have_cpus ? cpuset_count(&w->cpus) : 1;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t pins = (w->p.bs + page - 1) / page * page * w->p.iodepth * ncpu;
	char *s = fmt_bytes(pins);

	fprintf(stderr, "blkload: this job would pin %s of data pages (%" PRIu64 " bytes: iodepth %u x bs %u x %u CPUs) and its slots; see 'blkload info' for the budget\n",
		s, pins, w->p.iodepth, w->p.bs, ncpu);
	free(s);
	if (bl_params_fills(&w->p)) {
		s = fmt_bytes(bl_fill_pool_size(w->p.bs_max));
		fprintf(stderr, "blkload: and %s of write-data pool (--zero_buffers has none)\n", s);
		free(s);
	}
	if (w->p.sample_ns) {
		uint64_t ring = job_ring(w);

		s = fmt_bytes(ring * sizeof(struct bl_sample) * ncpu);
		fprintf(stderr, "blkload: and up to %s of samples (%" PRIu64 " per CPU queue, --sample-ring)\n",
			s, ring);
		free(s);
	}
}

static int job_new_once(struct bl_nl *nl, const struct workload *w, const char *dev,
			bool samples, uint32_t *id)
{
	struct nl_msg *msg = bl_nl_msg(nl, BLKLOAD_CMD_JOB_NEW, 0);
	struct id_reply r = { 0 };
	struct bl_params p = w->p;
	int ret;

	if (!msg)
		return -ENOMEM;
	/*
	 * Only what differs from the module's default goes: a module before an
	 * attribute refuses what it does not know. 0 means the default for
	 * batch, thinktime_blocks and loops here.
	 */
	if (!w->have_batch)
		p.batch = 0;
	if (!p.think_blocks)
		p.think_blocks = 1;
	if (!p.loops)
		p.loops = 1;
	/* The random map only where it applies: a module before it then takes the rest. */
	p.random_map = bl_params_map(&p);
	/*
	 * With --start-at, start owns its jobs until they started (a killed
	 * wait leaves none behind), then detaches them.
	 */
	if (w->start_at_ns)
		p.detached = false;
	if (!samples)
		p.sample_ns = 0;
	p.sample_ring = p.sample_ns && (w->p.sample_ring || !w->p.detached) ? job_ring(w) : 0;
	nla_put_string(msg, BLKLOAD_A_PATH, dev);
	for (size_t i = 0; i < BL_PARAM_ATTRS_NR; i++) {
		const struct bl_param_attr *a = &bl_param_attrs[i];
		uint64_t v = bl_param_get(&p, a);

		if (v == a->dflt)
			continue;
		if (a->kind == BL_PK_U32)
			nla_put_u32(msg, a->type, (uint32_t)v);
		else if (a->kind == BL_PK_U64)
			nla_put_u64(msg, a->type, v);
		else
			nla_put_flag(msg, a->type);
	}
	if (w->have_cpus)
		put_cpus(msg, &w->cpus);
	/* Both directions: a module without them refuses the attribute, not half of it. */
	if (p.nbs[0]) {
		uint32_t t[BL_GEN_BS_MAX][3];
		unsigned int n = bl_params_split_get(&p, 0, t);

		nla_put(msg, BLKLOAD_A_BS_SPLIT, (int)(n * sizeof(t[0])), t);
		n = bl_params_split_get(&p, 1, t);
		nla_put(msg, BLKLOAD_A_BS_SPLIT_WRITE, (int)(n * sizeof(t[0])), t);
	}
	if (p.nzones)
		nla_put(msg, BLKLOAD_A_RANDOM_ZONES, (int)(p.nzones * sizeof(p.zones[0])), p.zones);
	ret = bl_nl_talk(nl, msg, id_parse, &r);
	*id = r.id;
	return ret;
}

/*
 * A module older than the time series refuses its attributes as unknown:
 * the job is then made without samples (*@samples false), with a note.
 */
int job_new(struct bl_nl *nl, const struct workload *w, const char *dev, uint32_t *id,
	    bool *samples)
{
	bool guard = bl_params_changes(&w->p) && !w->p.force;
	unsigned int tries = 0;
	int ret;

	/* Who uses the device, and what is on it, in the user's terms (inuse.h). */
	if (guard && !w->guarded && bl_write_guard(dev))
		return -EBUSY;
	ret = job_new_once(nl, w, dev, w->p.sample_ns != 0, id);
	/*
	 * The module counts every opener, a passing one too: udev reads a
	 * device for a moment each time a writer closes it (fio, an engine
	 * run just before). Such an open is gone within a second or two.
	 */
	while (guard && ret == -EBUSY && nl->extack && strstr(nl->extack, "open by another") &&
	       ++tries <= 30) {
		usleep(100000);
		ret = job_new_once(nl, w, dev, w->p.sample_ns != 0, id);
	}

	*samples = w->p.sample_ns != 0;
	if (ret == -EINVAL && *samples && nl->extack && strstr(nl->extack, "nknown attribute") &&
	    (nl->extack_attr == BLKLOAD_A_SAMPLE_INTERVAL || nl->extack_attr == BLKLOAD_A_SAMPLE_RING)) {
		fprintf(stderr, "blkload: %s: the module predates time series: no samples\n", dev);
		*samples = false;
		ret = job_new_once(nl, w, dev, false, id);
	}
	if (ret) {
		char *what = xasprintf("%s", dev);

		bl_nl_perror(nl, what);
		free(what);
		if (ret == -ENOMEM && nl->extack && strstr(nl->extack, "mem_budget"))
			explain_budget(w);
		return ret;
	}
	return 0;
}

/* job-stop, job-del, job-detach: the kernel answers at once, never waits. */
int job_simple(struct bl_nl *nl, uint8_t cmd, uint32_t id)
{
	struct nl_msg *msg = bl_nl_msg(nl, cmd, 0);

	if (!msg)
		return -ENOMEM;
	nla_put_u32(msg, BLKLOAD_A_JOB_ID, id);
	return bl_nl_talk(nl, msg, NULL, NULL);
}

int jobs_start(struct bl_nl *nl, const uint32_t *ids, unsigned int n)
{
	/* One request for the wave, sized for every id (a page holds ~500). */
	struct nl_msg *msg = bl_nl_msg_size(nl, BLKLOAD_CMD_JOB_START, 0,
					    (size_t)n * (size_t)nla_total_size(4));

	if (!msg)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++) {
		if (nla_put_u32(msg, BLKLOAD_A_JOB_ID, ids[i])) {
			nlmsg_free(msg);
			fputs("blkload: job-start: the request does not hold every job\n", stderr);
			return -EMSGSIZE;
		}
	}
	return bl_nl_talk(nl, msg, NULL, NULL);
}

int get_parse(struct nlattr **tb, void *arg)
{
	struct get_ctx *g = arg;

	g->jobs = xrealloc(g->jobs, (g->n + 1) * sizeof(*g->jobs));
	if (job_parse(tb, &g->jobs[g->n])) {
		job_clear(&g->jobs[g->n]);
		fputs("blkload: malformed job in the kernel's reply\n", stderr);
		return -EPROTO;
	}
	g->n++;
	return 0;
}

static int job_get_from(struct bl_nl *nl, uint32_t id, bool hist, bool queues, uint32_t qfirst,
			struct job *out)
{
	struct nl_msg *msg = bl_nl_msg(nl, BLKLOAD_CMD_JOB_GET, 0);
	struct get_ctx g = { 0 };
	int ret;

	if (!msg)
		return -ENOMEM;
	nla_put_u32(msg, BLKLOAD_A_JOB_ID, id);
	if (hist)
		nla_put_flag(msg, BLKLOAD_A_WANT_HIST);
	if (queues)
		nla_put_flag(msg, BLKLOAD_A_WANT_QUEUES);
	/* With rows: paged (a module before it refuses the attribute: asked without). */
	if (queues && !nl->no_queue_first)
		nla_put_u32(msg, BLKLOAD_A_QUEUE_FIRST, qfirst);
	ret = bl_nl_talk(nl, msg, get_parse, &g);
	if (ret == -EINVAL && queues && !qfirst && !nl->no_queue_first && nl->extack &&
	    strstr(nl->extack, "nknown attribute") && nl->extack_attr == BLKLOAD_A_QUEUE_FIRST) {
		for (unsigned int i = 0; i < g.n; i++)
			job_clear(&g.jobs[i]);
		free(g.jobs);
		nl->no_queue_first = true;
		return job_get_from(nl, id, hist, queues, 0, out);
	}
	if (!ret && g.n != 1)
		ret = -EPROTO;
	if (!ret)
		*out = g.jobs[0];
	else
		for (unsigned int i = 0; i < g.n; i++)
			job_clear(&g.jobs[i]);
	free(g.jobs);
	return ret;
}

/*
 * The queue rows that did not fit one reply (a nest has a 16-bit length:
 * about 200 rows) come in more replies, from where the last one stopped.
 */
static int job_get_one(struct bl_nl *nl, uint32_t id, bool hist, bool queues, struct job *out)
{
	int ret = job_get_from(nl, id, hist, queues, 0, out);

	while (!ret && queues && out->queues_next) {
		uint32_t from = out->queues_next;
		struct job more;

		if (from != out->nr_queues) {
			job_clear(out);
			return -EPROTO;
		}
		ret = job_get_from(nl, id, false, true, from, &more);
		if (ret) {
			job_clear(out);
			return ret;
		}
		if (more.queues_next && more.queues_next <= from) {
			job_clear(&more);
			job_clear(out);
			return -EPROTO;
		}
		out->queues = xrealloc(out->queues,
				       (out->nr_queues + more.nr_queues) * sizeof(*out->queues));
		memcpy(out->queues + out->nr_queues, more.queues,
		       more.nr_queues * sizeof(*more.queues));
		out->nr_queues += more.nr_queues;
		out->queues_next = more.queues_next;
		free(more.queues);
		more.queues = NULL;
		more.nr_queues = 0;
		job_clear(&more);
	}
	return ret;
}

/*
 * Histograms and per-queue rows in two requests: together they pass the
 * 64 KiB of one attribute nest from about nine queues on. The rows are
 * then from a moment just after the totals (the same, once a job is done).
 */
int job_get(struct bl_nl *nl, uint32_t id, bool hist, bool queues, struct job *out)
{
	struct job rows;
	int ret;

	if (!hist || !queues)
		return job_get_one(nl, id, hist, queues, out);
	ret = job_get_one(nl, id, true, false, out);
	if (ret)
		return ret;
	ret = job_get_one(nl, id, false, true, &rows);
	if (ret) {
		job_clear(out);
		return ret;
	}
	out->queues = rows.queues;
	out->nr_queues = rows.nr_queues;
	rows.queues = NULL;
	rows.nr_queues = 0;
	job_clear(&rows);
	return 0;
}

struct fetch_ctx {
	struct bl_nl *nl;
	struct series *se;
	uint64_t from;
	bool bad;
};

static int op_parse(struct nlattr *nest, struct bl_sample_op *o, uint32_t *chist)
{
	struct nlattr *tb[BLKLOAD_A_SAMPLE_OP_MAX + 1];
	uint32_t first = 0;

	if (nla_parse_nested(tb, BLKLOAD_A_SAMPLE_OP_MAX, nest, NULL) < 0 ||
	    !nla_get_u64_checked(tb[BLKLOAD_A_SAMPLE_OP_IOS], &o->ios) ||
	    !nla_get_u64_checked(tb[BLKLOAD_A_SAMPLE_OP_BYTES], &o->bytes))
		return -1;
	nla_get_u64_checked(tb[BLKLOAD_A_SAMPLE_OP_LAT_SUM], &o->lat);
	nla_get_u64_checked(tb[BLKLOAD_A_SAMPLE_OP_CLAT_SUM], &o->clat);
	nla_get_u64_checked(tb[BLKLOAD_A_SAMPLE_OP_SLAT_SUM], &o->slat);
	if (tb[BLKLOAD_A_SAMPLE_OP_CLAT_HIST]) {
		size_t len = (size_t)nla_len(tb[BLKLOAD_A_SAMPLE_OP_CLAT_HIST]);

		if (!nla_get_u32_checked(tb[BLKLOAD_A_SAMPLE_OP_CLAT_HIST_FIRST], &first) ||
		    len % sizeof(uint32_t) || first > BL_SHIST_NR ||
		    len / sizeof(uint32_t) > BL_SHIST_NR - first)
			return -1;
		memcpy(chist + first, nla_data(tb[BLKLOAD_A_SAMPLE_OP_CLAT_HIST]), len);
	}
	return 0;
}

static int samples_parse(struct nlattr **tb, void *arg)
{
	struct fetch_ctx *c = arg;
	struct bl_sample *smp = xcalloc(1, sizeof(*smp));
	struct nlattr *a;
	uint64_t lost = 0;
	int rem;

	/* The index to ask next; no sample of this reply is at or past it. */
	if (!nla_get_u64_checked(tb[BLKLOAD_A_SAMPLE_NEXT], &c->se->next) ||
	    c->se->next < c->from)
		c->bad = true;
	if (nla_get_u64_checked(tb[BLKLOAD_A_SAMPLE_LOST], &lost))
		c->se->lost += lost;
	nlmsg_for_each_attr(a, c->nl->cur, GENL_HDRLEN, rem) {
		struct nlattr *st[BLKLOAD_A_SAMPLE_MAX + 1];
		uint64_t idx;

		if (nla_type(a) != BLKLOAD_A_SAMPLE)
			continue;
		memset(smp, 0, sizeof(*smp));
		if (nla_parse_nested(st, BLKLOAD_A_SAMPLE_MAX, a, NULL) < 0 ||
		    !nla_get_u64_checked(st[BLKLOAD_A_SAMPLE_INDEX], &idx) ||
		    !nla_get_u64_checked(st[BLKLOAD_A_SAMPLE_TIME], &smp->t) ||
		    !st[BLKLOAD_A_SAMPLE_READ] || !st[BLKLOAD_A_SAMPLE_WRITE] ||
		    op_parse(st[BLKLOAD_A_SAMPLE_READ], &smp->op[OP_READ], smp->chist[OP_READ]) ||
		    op_parse(st[BLKLOAD_A_SAMPLE_WRITE], &smp->op[OP_WRITE],
			     smp->chist[OP_WRITE]) ||
		    (st[BLKLOAD_A_SAMPLE_TRIM] &&
		     op_parse(st[BLKLOAD_A_SAMPLE_TRIM], &smp->op[OP_TRIM], smp->chist[OP_TRIM])) ||
		    idx < c->from || idx >= c->se->next) {
			c->bad = true;
			continue;
		}
		series_add(c->se, idx, smp);
	}
	free(smp);
	return 0;
}

int series_fetch(struct bl_nl *nl, uint32_t id, struct series *se)
{
	struct fetch_ctx c = { .nl = nl, .se = se };

	for (;;) {
		uint64_t from = se->next;
		struct nl_msg *msg = bl_nl_msg(nl, BLKLOAD_CMD_SAMPLE_GET, 0);
		int ret;

		if (!msg)
			return -ENOMEM;
		c.from = from;
		nla_put_u32(msg, BLKLOAD_A_JOB_ID, id);
		nla_put_u64(msg, BLKLOAD_A_SAMPLE_FROM, from);
		ret = bl_nl_talk(nl, msg, samples_parse, &c);
		if (ret)
			return ret;
		if (c.bad) {
			fprintf(stderr, "blkload: job %u: malformed samples from the module\n", id);
			return -EPROTO;
		}
		/* Until a reply brings nothing new: the rest is not complete yet. */
		if (se->next <= from)
			return 0;
	}
}

/* Ctrl-C (or SIGTERM) count: the first stops, the second detaches. */
volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	if (interrupted < 2)
		interrupted++;
}

/* Without SA_RESTART, so that a blocking receive returns on Ctrl-C. */
void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int events_ignore(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

/*
 * A socket on the "events" group: run waits on it instead of polling, so
 * that the CLI takes no CPU from the queues it measures. NULL when it cannot
 * be had; then run polls.
 */
struct nl_sock *events_open(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	int grp;

	if (!sk)
		return NULL;
	if (genl_connect(sk) < 0)
		goto err;
	grp = genl_ctrl_resolve_grp(sk, BLKLOAD_FAMILY_NAME, BLKLOAD_MCGRP_EVENTS);
	if (grp < 0 || nl_socket_add_membership(sk, grp) < 0)
		goto err;
	nl_socket_disable_seq_check(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, events_ignore, NULL);
	return sk;
err:
	nl_socket_free(sk);
	return NULL;
}

/* Counts the job-done notifications of one receive. */
static int events_count(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));

	if (gh->cmd == BLKLOAD_CMD_JOB_DONE_NTF)
		(*(int *)arg)++;
	return NL_OK;
}

/*
 * Up to @ms for any job event (the caller then reads the jobs' state).
 * Returns the job-done notifications received (0 on a timeout, or without
 * the events socket), -1 when a receive failed (events may be lost: a full
 * socket buffer).
 */
int events_wait(struct nl_sock *ev, int ms)
{
	struct pollfd pfd;
	int done = 0;

	if (!ev) {
		usleep(50000);
		return 0;
	}
	pfd.fd = nl_socket_get_fd(ev);
	pfd.events = POLLIN;
	if (poll(&pfd, 1, ms) > 0 && (pfd.revents & POLLIN)) {
		nl_socket_modify_cb(ev, NL_CB_VALID, NL_CB_CUSTOM, events_count, &done);
		if (nl_recvmsgs_default(ev) < 0)
			done = -1;
		nl_socket_modify_cb(ev, NL_CB_VALID, NL_CB_CUSTOM, events_ignore, NULL);
	}
	return done;
}

/* The jobs' state now; the number of them done, or -1 on error. */
int jobs_get(struct bl_nl *nl, const uint32_t *ids, unsigned int n, struct job *jobs,
		    bool hist, bool queues)
{
	int done = 0;

	for (unsigned int i = 0; i < n; i++) {
		job_clear(&jobs[i]);
		if (job_get(nl, ids[i], hist, queues, &jobs[i])) {
			char *what = xasprintf("job %u", ids[i]);

			bl_nl_perror(nl, what);
			free(what);
			return -1;
		}
		done += jobs[i].state == BLKLOAD_STATE_DONE;
	}
	return done;
}

/* Names the jobs that did not drain in time; they are freed when they do. */
void report_undrained(const struct job *jobs, unsigned int n, uint32_t drain_ms)
{
	for (unsigned int i = 0; i < n; i++)
		if (jobs[i].state != BLKLOAD_STATE_DONE)
			fprintf(stderr,
				"blkload: job %u: %" PRIu64 " IOs still in flight on %s after %u ms; the module frees the job when they complete\n",
				jobs[i].id, jobs[i].inflight, jobs[i].path, drain_ms);
}

/* The second Ctrl-C: the jobs outlive this process; say how to end them. */
void jobs_detach(struct bl_nl *nl, const struct job *jobs, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		if (jobs[i].state == BLKLOAD_STATE_DONE)
			continue;
		if (job_simple(nl, BLKLOAD_CMD_JOB_DETACH, jobs[i].id)) {
			bl_nl_perror(nl, "detach");
			continue;
		}
		fprintf(stderr,
			"blkload: job %u on %s detached (%s, %" PRIu64 " IOs in flight); 'blkload stop %u' ends and removes it\n",
			jobs[i].id, jobs[i].path, state_name(jobs[i].state), jobs[i].inflight,
			jobs[i].id);
	}
}

/*
 * fio's group_reporting: the jobs of a group that asked for it are one
 * entry, summed (the first one's name, device and options, fio's "jobs=N",
 * its job_runtime and CPU shares over the jobs' times added up); the other
 * jobs as they are. Returns the entries (@own[i]:
 * made here, to be cleared) and their count.
 */
static struct job *report_groups(struct job *jobs, unsigned int n, bool **own,
				 unsigned int *nr)
{
	struct job *shown = xcalloc(n ? n : 1, sizeof(*shown));
	unsigned int k = 0;

	*own = xcalloc(n ? n : 1, sizeof(**own));
	for (unsigned int i = 0; i < n; i++) {
		bool first = true;
		struct job *g;

		/* fio's: the jobs of a group that asked for it are one entry; the others apart. */
		if (!jobs[i].group_reporting) {
			shown[k++] = jobs[i];
			continue;
		}
		for (unsigned int m = 0; m < i; m++)
			first &= !(jobs[m].groupid == jobs[i].groupid && jobs[m].group_reporting);
		if (!first)
			continue;
		g = &shown[k];
		(*own)[k++] = true;
		g->id = jobs[i].id;
		g->path = xstrdup(jobs[i].path ? jobs[i].path : "");
		g->p = jobs[i].p;
		g->state = jobs[i].state;
		g->reason = jobs[i].reason;
		g->dev_lbs = jobs[i].dev_lbs;
		g->dev_size = jobs[i].dev_size;
		g->bssplit = jobs[i].bssplit ? xstrdup(jobs[i].bssplit) : NULL;
		g->cpus = jobs[i].cpus ? xstrdup(jobs[i].cpus) : NULL;
		g->has_verify = jobs[i].has_verify;
		g->groupid = jobs[i].groupid;
		g->opts = jobs[i].opts;
		g->name = jobs[i].name;
		g->logs = jobs[i].logs;
		g->ss = jobs[i].ss;
		g->ramp_done = jobs[i].ramp_done;
		g->group_reporting = true;
		for (unsigned int m = i; m < n; m++) {
			if (jobs[m].groupid != jobs[i].groupid || !jobs[m].group_reporting)
				continue;
			job_sum(g, &jobs[m]);
			g->runtime_sum += jobs[m].elapsed;
			for (unsigned int v = 0; v < jobs[m].nvrep && g->nvrep < 16; v++)
				g->vrep[g->nvrep++] = jobs[m].vrep[v];
			g->vchecked += jobs[m].vchecked;
			g->vskipped += jobs[m].vskipped;
			g->verrors += jobs[m].verrors;
			g->vreadback += jobs[m].vreadback;
			if (jobs[m].reason == BLKLOAD_REASON_ERROR)
				g->reason = jobs[m].reason;
		}
	}
	*nr = k;
	return shown;
}

void report_all(struct ctx *ctx, struct job *jobs, unsigned int n,
		const struct workload *w, const struct cpu_window *cw,
		const struct optlist *global, const struct disk_util *du, unsigned int nr_du)
{
	struct out *o = out_new(stdout, ctx->json, ctx->pretty);
	struct report_opts ro = w->ro;
	struct job sum = { 0 }, *shown;
	unsigned int nshown;
	bool *own;

	ro.bins = w->bins;
	if (ctx->json) {
		char buf[64], host[256] = "";
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", localtime(&ts.tv_sec));
		out_str(o, "blkload version", NULL, "blkload-" BLKLOAD_CLI_VERSION);
		/* Read by fio's consumers; it names what wrote the file. */
		out_str(o, "fio version", NULL, "blkload-" BLKLOAD_CLI_VERSION);
		out_u64(o, "timestamp", NULL, (uint64_t)ts.tv_sec, NULL);
		out_u64(o, "timestamp_ms", NULL,
			(uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000, NULL);
		out_str(o, "time", NULL, buf);
		/* Which host: "blkload merge" names its rows by it. */
		if (!gethostname(host, sizeof(host) - 1))
			out_str(o, "hostname", NULL, host);
		if (w->start_at_ns)
			out_u64(o, "start_at_ms", NULL, (uint64_t)(w->start_at_ns / 1000000), NULL);
		out_begin_object(o, "global options", NULL);
		for (unsigned int i = 0; global && i < global->nr; i++)
			out_str(o, global->key[i], NULL, global->val[i] ? global->val[i] : "");
		out_end_object(o);
		out_begin_array(o, "jobs", NULL);
	}
	shown = report_groups(jobs, n, &own, &nshown);
	for (unsigned int i = 0; i < nshown; i++) {
		const char *jobname = shown[i].name ? shown[i].name : w->name;
		char *name = NULL;

		if (!shown[i].opts)
			shown[i].opts = &w->opts;
		/* --name: the JSON jobname; in text both, so devices stay apart. */
		if (jobname && !ctx->json)
			name = xasprintf("%s (%s)", jobname, shown[i].path);
		report_job(o, NULL, &shown[i], name ? name : jobname ? jobname : shown[i].path,
			   &ro);
		free(name);
	}
	for (unsigned int i = 0; i < nshown; i++)
		if (own[i])
			job_clear(&shown[i]);
	free(shown);
	free(own);
	for (unsigned int i = 0; i < n; i++) {
		job_sum(&sum, &jobs[i]);
		sum.p.no_lat = jobs[i].p.no_lat;
		/* CPU shares over the jobs' times added up, as a group's. */
		sum.runtime_sum += jobs[i].elapsed;
	}
	/* Waves ran one after the other: the sum's time is theirs added up. */
	if (n && jobs[n - 1].wave) {
		sum.elapsed = 0;
		for (uint32_t wv = 0; wv <= jobs[n - 1].wave; wv++) {
			uint64_t longest = 0;

			for (unsigned int i = 0; i < n; i++)
				if (jobs[i].wave == wv && jobs[i].elapsed > longest)
					longest = jobs[i].elapsed;
			sum.elapsed += longest;
		}
	}
	if (ctx->json)
		out_end_array(o);
	if (n > 1 || ctx->json)
		report_job(o, "all_jobs", &sum, "All jobs", &ro);
	if (cw && cw->ended)
		cpu_report(o, &cw->a, &cw->b, job_ios(&sum), &cw->ex);
	/* fio's "Run status group" lines, each group once, in order. */
	for (unsigned int i = 0; !ctx->json && du && i < n; i++) {
		bool first = true;

		for (unsigned int k = 0; k < i; k++)
			first &= jobs[k].groupid != jobs[i].groupid;
		if (first)
			report_group(jobs, n, jobs[i].groupid);
	}
	if (du)
		report_disks(o, du, nr_du);
	out_free(o);
	job_clear(&sum);
	/* fio's --output-format=json,normal: the JSON document, then the text. */
	if (ctx->json && ctx->normal_too) {
		struct ctx text = *ctx;

		text.json = false;
		text.normal_too = false;
		fflush(stdout);
		report_all(&text, jobs, n, w, cw, global, du, nr_du);
	}
}

/* Deletes what was made (freed once drained), reporting, not failing on, errors. */
void jobs_del(struct bl_nl *nl, const uint32_t *ids, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (job_simple(nl, BLKLOAD_CMD_JOB_DEL, ids[i]) && nl->error != -ENOENT)
			bl_nl_perror(nl, "delete job");
}
