// SPDX-License-Identifier: GPL-2.0
/*
 * blkload run | start | stop | list | stats | monitor: jobs from the command
 * line. One job is made per --dev, all with the same workload (workload.c),
 * and all start together; "run --engine NAME" runs a userspace engine
 * (engines/) instead of the module.
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

#include "blkload.h"
#include "job.h"
#include "nl.h"
#include "out.h"
#include "parse.h"
#include "util.h"
#include "workload.h"
#include "cpu.h"
#include "engines/engine.h"

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

/* The kernel says memory; say how much this job would have pinned. */
static void explain_budget(const struct workload *w)
{
	unsigned int ncpu = w->have_cpus ? cpuset_count(&w->cpus) : 1;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t pins = (w->bs + page - 1) / page * page * w->iodepth * ncpu;
	char *s = fmt_bytes(pins);

	fprintf(stderr, "blkload: this job would pin %s of data pages (%" PRIu64 " bytes: iodepth %u x bs %u x %u CPUs) and its slots; see 'blkload info' for the budget\n",
		s, pins, w->iodepth, w->bs, ncpu);
	free(s);
}

static int job_new(struct bl_nl *nl, const struct workload *w, const char *dev, uint32_t *id)
{
	struct nl_msg *msg = bl_nl_msg(nl, BLKLOAD_CMD_JOB_NEW, 0);
	struct id_reply r = { 0 };
	int ret;

	if (!msg)
		return -ENOMEM;
	nla_put_string(msg, BLKLOAD_A_PATH, dev);
	nla_put_u32(msg, BLKLOAD_A_RW, w->rw);
	nla_put_u32(msg, BLKLOAD_A_RWMIXREAD, w->rwmixread);
	nla_put_u32(msg, BLKLOAD_A_BS, w->bs);
	nla_put_u32(msg, BLKLOAD_A_IODEPTH, w->iodepth);
	if (w->have_batch)
		nla_put_u32(msg, BLKLOAD_A_BATCH, w->batch);
	if (w->have_cpus)
		put_cpus(msg, &w->cpus);
	nla_put_u64(msg, BLKLOAD_A_OFFSET, w->offset);
	if (w->size)
		nla_put_u64(msg, BLKLOAD_A_SIZE, w->size);
	if (w->runtime)
		nla_put_u64(msg, BLKLOAD_A_RUNTIME, w->runtime);
	if (w->ramp)
		nla_put_u64(msg, BLKLOAD_A_RAMP_TIME, w->ramp);
	if (w->number_ios)
		nla_put_u64(msg, BLKLOAD_A_NUMBER_IOS, w->number_ios);
	if (w->io_size)
		nla_put_u64(msg, BLKLOAD_A_IO_SIZE, w->io_size);
	nla_put_u64(msg, BLKLOAD_A_RANDSEED, w->randseed);
	if (w->allow_write)
		nla_put_flag(msg, BLKLOAD_A_ALLOW_WRITE);
	if (w->force)
		nla_put_flag(msg, BLKLOAD_A_FORCE);
	if (w->detached)
		nla_put_flag(msg, BLKLOAD_A_DETACHED);
	if (w->no_lat)
		nla_put_flag(msg, BLKLOAD_A_NO_LAT);
	if (w->coe)
		nla_put_u32(msg, BLKLOAD_A_CONTINUE_ON_ERROR, w->coe);
	ret = bl_nl_talk(nl, msg, id_parse, &r);
	if (ret) {
		char *what = xasprintf("%s", dev);

		bl_nl_perror(nl, what);
		free(what);
		if (ret == -ENOMEM && nl->extack && strstr(nl->extack, "mem_budget"))
			explain_budget(w);
		return ret;
	}
	*id = r.id;
	return 0;
}

/* job-stop, job-del, job-detach: the kernel answers at once, never waits. */
static int job_simple(struct bl_nl *nl, uint8_t cmd, uint32_t id)
{
	struct nl_msg *msg = bl_nl_msg(nl, cmd, 0);

	if (!msg)
		return -ENOMEM;
	nla_put_u32(msg, BLKLOAD_A_JOB_ID, id);
	return bl_nl_talk(nl, msg, NULL, NULL);
}

static int jobs_start(struct bl_nl *nl, const uint32_t *ids, unsigned int n)
{
	struct nl_msg *msg = bl_nl_msg(nl, BLKLOAD_CMD_JOB_START, 0);

	if (!msg)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++)
		nla_put_u32(msg, BLKLOAD_A_JOB_ID, ids[i]);
	return bl_nl_talk(nl, msg, NULL, NULL);
}

struct get_ctx {
	struct job *jobs;
	unsigned int n;
};

static int get_parse(struct nlattr **tb, void *arg)
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

static int job_get(struct bl_nl *nl, uint32_t id, bool hist, bool queues, struct job *out)
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
	ret = bl_nl_talk(nl, msg, get_parse, &g);
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

/* Ctrl-C (or SIGTERM) count: the first stops, the second detaches. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	if (interrupted < 2)
		interrupted++;
}

/* Without SA_RESTART, so that a blocking receive returns on Ctrl-C. */
static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress(const struct job *jobs, unsigned int n, const struct workload *w,
		     double t0, uint64_t *prev_ios, uint64_t *prev_bytes, double *prev_t)
{
	uint64_t ios = 0, bytes = 0;
	double t = now_s(), el = t - t0, dt = t - *prev_t;
	char *bw;

	for (unsigned int i = 0; i < n; i++) {
		ios += jobs[i].op[OP_READ].ios + jobs[i].op[OP_WRITE].ios;
		bytes += jobs[i].op[OP_READ].bytes + jobs[i].op[OP_WRITE].bytes;
	}
	if (dt <= 0)
		return;
	bw = fmt_bytes((uint64_t)((double)(bytes - *prev_bytes) / dt));
	fprintf(stderr, "\r\033[K[%s] %u job%s: %.0f IOPS, %s/s, elapsed %.0fs",
		w->ramp && el < (double)w->ramp / 1e9 ? "ramp" : "run", n, n == 1 ? "" : "s",
		(double)(ios - *prev_ios) / dt, bw, el);
	if (w->runtime)
		fprintf(stderr, ", eta %.0fs",
			(double)(w->runtime + w->ramp) / 1e9 - el > 0 ?
			(double)(w->runtime + w->ramp) / 1e9 - el : 0);
	free(bw);
	*prev_ios = ios;
	*prev_bytes = bytes;
	*prev_t = t;
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
static struct nl_sock *events_open(void)
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

/* Up to @ms for any job event (the caller then reads the jobs' state). */
static void events_wait(struct nl_sock *ev, int ms)
{
	struct pollfd pfd;

	if (!ev) {
		usleep(50000);
		return;
	}
	pfd.fd = nl_socket_get_fd(ev);
	pfd.events = POLLIN;
	if (poll(&pfd, 1, ms) > 0 && (pfd.revents & POLLIN))
		nl_recvmsgs_default(ev);
}

/* The jobs' state now; the number of them done, or -1 on error. */
static int jobs_get(struct bl_nl *nl, const uint32_t *ids, unsigned int n, struct job *jobs,
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
static void report_undrained(const struct job *jobs, unsigned int n, uint32_t drain_ms)
{
	for (unsigned int i = 0; i < n; i++)
		if (jobs[i].state != BLKLOAD_STATE_DONE)
			fprintf(stderr,
				"blkload: job %u: %" PRIu64 " IOs still in flight on %s after %u ms; the module frees the job when they complete\n",
				jobs[i].id, jobs[i].inflight, jobs[i].path, drain_ms);
}

/* The second Ctrl-C: the jobs outlive this process; say how to end them. */
static void jobs_detach(struct bl_nl *nl, const struct job *jobs, unsigned int n)
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

static void report_all(struct ctx *ctx, struct job *jobs, unsigned int n,
		       const struct workload *w, const struct cpu_window *cw,
		       const struct disk_util *du, unsigned int nr_du)
{
	struct out *o = out_new(stdout, ctx->json, ctx->pretty);
	struct report_opts ro = w->ro;
	struct job sum = { 0 };

	ro.bins = w->bins;
	if (ctx->json) {
		struct timespec ts;
		char buf[64];

		clock_gettime(CLOCK_REALTIME, &ts);
		strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", localtime(&ts.tv_sec));
		out_str(o, "blkload version", NULL, "blkload-" BLKLOAD_CLI_VERSION);
		/* Read by fio's consumers; it names what wrote the file. */
		out_str(o, "fio version", NULL, "blkload-" BLKLOAD_CLI_VERSION);
		out_u64(o, "timestamp", NULL, (uint64_t)ts.tv_sec, NULL);
		out_u64(o, "timestamp_ms", NULL,
			(uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000, NULL);
		out_str(o, "time", NULL, buf);
		out_begin_object(o, "global options", NULL);
		out_end_object(o);
		out_begin_array(o, "jobs", NULL);
	}
	for (unsigned int i = 0; i < n; i++) {
		char *name = NULL;

		jobs[i].opts = &w->opts;
		/* --name: the JSON jobname; in text both, so devices stay apart. */
		if (w->name && !ctx->json)
			name = xasprintf("%s (%s)", w->name, jobs[i].path);
		report_job(o, NULL, &jobs[i], name ? name : w->name ? w->name : jobs[i].path, &ro);
		free(name);
		job_sum(&sum, &jobs[i]);
		sum.no_lat = jobs[i].no_lat;
	}
	if (ctx->json)
		out_end_array(o);
	if (n > 1 || ctx->json)
		report_job(o, "all_jobs", &sum, "All jobs", &ro);
	if (cw && cw->ended)
		cpu_report(o, &cw->a, &cw->b, sum.op[OP_READ].ios + sum.op[OP_WRITE].ios, &cw->ex);
	if (!ctx->json && du)
		report_group(jobs, n, 0);
	if (du)
		report_disks(o, du, nr_du);
	out_free(o);
	job_clear(&sum);
}

/*
 * The devices' own counters around a run (fio's disk_util), each device
 * once; those without counters (an image of the librbd engine) are left out.
 */
struct disks {
	struct disk_util *a, *b;
	const char **path;
	unsigned int na, nb;
	double t0;
};

static void disks_begin(struct disks *d, char **paths, unsigned int n)
{
	memset(d, 0, sizeof(*d));
	d->a = xcalloc(n ? n : 1, sizeof(*d->a));
	d->b = xcalloc(n ? n : 1, sizeof(*d->b));
	d->path = xcalloc(n ? n : 1, sizeof(*d->path));
	for (unsigned int i = 0; i < n; i++) {
		struct disk_util x;
		bool seen = false;

		if (disk_sample(paths[i], &x))
			continue;
		for (unsigned int k = 0; k < d->na; k++)
			seen |= !strcmp(d->a[k].name, x.name);
		if (seen) {
			disk_util_free(&x);
			continue;
		}
		d->path[d->na] = paths[i];
		d->a[d->na++] = x;
	}
	d->t0 = now_s();
}

static void disks_end(struct disks *d)
{
	uint64_t wall = (uint64_t)((now_s() - d->t0) * 1e9);

	for (unsigned int i = 0; i < d->na; i++) {
		struct disk_util x;

		/* The same device still (not another one at that path now). */
		if (disk_sample(d->path[i], &x))
			continue;
		if (strcmp(x.name, d->a[i].name)) {
			disk_util_free(&x);
			continue;
		}
		disk_delta(&d->a[i], &x, wall);
		d->b[d->nb++] = x;
	}
}

static void disks_free(struct disks *d)
{
	for (unsigned int i = 0; i < d->na; i++)
		disk_util_free(&d->a[i]);
	for (unsigned int i = 0; i < d->nb; i++)
		disk_util_free(&d->b[i]);
	free(d->a);
	free(d->b);
	free(d->path);
	memset(d, 0, sizeof(*d));
}

/* Deletes what was made (freed once drained), reporting, not failing on, errors. */
static void jobs_del(struct bl_nl *nl, const uint32_t *ids, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (job_simple(nl, BLKLOAD_CMD_JOB_DEL, ids[i]) && nl->error != -ENOENT)
			bl_nl_perror(nl, "delete job");
}

/*
 * fio's --output: the report (not the progress line) goes to a file, opened
 * once the run is known to go ahead.
 */
static int open_output(const struct workload *w)
{
	if (w->output && !freopen(w->output, "w", stdout)) {
		fprintf(stderr, "blkload: --output '%s': %s\n", w->output, strerror(errno));
		return -1;
	}
	return 0;
}

/* run --engine NAME: a userspace engine instead of the module. */
static int run_engine(struct ctx *ctx, struct workload *w, bool detached)
{
	const struct engine_ops *ops = engine_find(w->engine);
	struct cpu_window cw = { 0 };
	struct disks dk = { 0 };
	unsigned int n;
	struct job *jobs;
	int rc = 1;

	if (!ops) {
		fprintf(stderr, "blkload: --engine '%s': no such engine; there are:\n", w->engine);
		engine_list(stderr);
		workload_free(w);
		return 2;
	}
	if (detached) {
		fprintf(stderr, "blkload: start: only the kernel engine runs detached\n");
		workload_free(w);
		return 2;
	}
	if (cpu_exclude_parse(&cw.ex, w->cpu_exclude)) {
		fprintf(stderr, "blkload: --cpu-exclude '%s': command names, comma-separated\n",
			w->cpu_exclude);
		workload_free(w);
		return 2;
	}
	if (open_output(w)) {
		cpu_exclude_free(&cw.ex);
		workload_free(w);
		return 2;
	}
	catch_signals();
	n = ops->images ? w->nr_images : w->nr_devs;
	jobs = xcalloc(n ? n : 1, sizeof(*jobs));
	disks_begin(&dk, ops->images ? NULL : w->devs, ops->images ? 0 : w->nr_devs);
	if (!engine_run(ops, w, &interrupted, jobs, &cw)) {
		disks_end(&dk);
		report_all(ctx, jobs, n, w, &cw, dk.b, dk.nb);
		rc = 0;
		for (unsigned int i = 0; i < n; i++)
			if (jobs[i].error || jobs[i].op[OP_READ].errors ||
			    jobs[i].op[OP_WRITE].errors)
				rc = 1;
	}
	for (unsigned int i = 0; i < n; i++)
		job_clear(&jobs[i]);
	free(jobs);
	disks_free(&dk);
	cpu_exclude_free(&cw.ex);
	workload_free(w);
	return rc;
}

static int run_or_start(struct ctx *ctx, int argc, char **argv, bool detached)
{
	const char *cmd = detached ? "start" : "run";
	struct workload w;
	struct bl_nl nl;
	uint32_t *ids = NULL;
	struct job *jobs = NULL;
	struct nl_sock *ev = NULL;
	struct cpu_window cw = { 0 };
	struct disks dk = { 0 };
	unsigned int n = 0;
	int ret, rc = 1;

	ret = workload_parse(&w, argc, argv, cmd);
	if (ret) {
		workload_free(&w);
		return ret > 0 ? 0 : 2;
	}
	if (ctx->json_plus)
		w.bins = true;
	w.detached = detached;
	if (w.output && detached) {
		fprintf(stderr, "blkload: start: --output is for run (start prints the job ids)\n");
		workload_free(&w);
		return 2;
	}
	if (w.engine)
		return run_engine(ctx, &w, detached);
	if (cpu_exclude_parse(&cw.ex, w.cpu_exclude)) {
		fprintf(stderr, "blkload: --cpu-exclude '%s': command names, comma-separated\n",
			w.cpu_exclude);
		workload_free(&w);
		return 2;
	}
	if (bl_nl_open(&nl)) {
		cpu_exclude_free(&cw.ex);
		workload_free(&w);
		return 1;
	}
	if (open_output(&w)) {
		bl_nl_close(&nl);
		cpu_exclude_free(&cw.ex);
		workload_free(&w);
		return 2;
	}
	ids = xcalloc(w.nr_devs, sizeof(*ids));
	for (n = 0; n < w.nr_devs; n++)
		if (job_new(&nl, &w, w.devs[n], &ids[n]))
			goto out_del;
	/* Joined before the start, so that no job-done event can be missed. */
	if (!detached)
		ev = events_open();
	if (!detached)
		disks_begin(&dk, w.devs, w.nr_devs);
	if (jobs_start(&nl, ids, n)) {
		bl_nl_perror(&nl, "start");
		goto out_del;
	}
	if (detached) {
		struct out *o = out_new(stdout, ctx->json, ctx->pretty);

		out_begin_array(o, "jobs", NULL);
		for (unsigned int i = 0; i < n; i++) {
			out_begin_object(o, NULL, NULL);
			out_u64(o, "job_id", NULL, ids[i], NULL);
			out_str(o, "device", NULL, w.devs[i]);
			out_end_object(o);
			if (!ctx->json)
				printf("job %u: %s\n", ids[i], w.devs[i]);
		}
		out_end_array(o);
		out_free(o);
		rc = 0;
		goto out;
	}

	catch_signals();
	jobs = xcalloc(n, sizeof(*jobs));
	{
		bool tty = isatty(STDERR_FILENO) && !ctx->json;
		double t0 = now_s(), last_shown = t0, prev_t = t0, stop_t = 0;
		uint64_t prev_ios = 0, prev_bytes = 0;
		bool stopped = false;
		int done;

		for (;;) {
			/* The client CPU window is the ramp's end to the last job's. */
			if (now_s() - t0 >= w.ramp / 1e9)
				cpu_window_start(&cw);
			done = jobs_get(&nl, ids, n, jobs, false, false);
			if (done < 0)
				goto out_del;
			if ((unsigned int)done == n) {
				cpu_window_end(&cw);
				break;
			}
			if (interrupted > 1) {
				if (tty)
					fputs("\r\033[K", stderr);
				jobs_detach(&nl, jobs, n);
				goto out;
			}
			if (interrupted && !stopped) {
				for (unsigned int i = 0; i < n; i++)
					if (job_simple(&nl, BLKLOAD_CMD_JOB_STOP, ids[i]))
						bl_nl_perror(&nl, "stop");
				stopped = true;
				stop_t = now_s();
				if (isatty(STDERR_FILENO))
					fputs("\r\033[Kblkload: stopping; Ctrl-C again detaches the jobs\n",
					      stderr);
				continue;
			}
			if (stopped && now_s() - stop_t >= w.drain_ms / 1e3) {
				if (tty)
					fputs("\r\033[K", stderr);
				report_undrained(jobs, n, w.drain_ms);
				break;
			}
			if (tty && now_s() - last_shown >= 1.0) {
				progress(jobs, n, &w, t0, &prev_ios, &prev_bytes, &prev_t);
				last_shown = now_s();
			}
			if (!cw.started && w.ramp) {
				double left = w.ramp / 1e9 - (now_s() - t0);

				events_wait(ev, left < 1.0 ? (int)(left * 1000) + 1 : 1000);
			} else {
				events_wait(ev, stopped ? 100 : 1000);
			}
		}
		if (tty && last_shown > t0)
			fputs("\r\033[K", stderr);
	}
	disks_end(&dk);
	if (jobs_get(&nl, ids, n, jobs, true, w.ro.queues) < 0)
		goto out_del;
	report_all(ctx, jobs, n, &w, &cw, dk.b, dk.nb);
	rc = 0;
	for (unsigned int i = 0; i < n; i++)
		if (jobs[i].error || jobs[i].op[OP_READ].errors || jobs[i].op[OP_WRITE].errors ||
		    jobs[i].state != BLKLOAD_STATE_DONE ||
		    jobs[i].reason == BLKLOAD_REASON_CPU_OFFLINE)
			rc = 1;
out_del:
	jobs_del(&nl, ids, n);
out:
	if (jobs)
		for (unsigned int i = 0; i < n; i++)
			job_clear(&jobs[i]);
	free(jobs);
	free(ids);
	disks_free(&dk);
	if (ev)
		nl_socket_free(ev);
	bl_nl_close(&nl);
	cpu_exclude_free(&cw.ex);
	workload_free(&w);
	return rc;
}

int cmd_run(struct ctx *ctx, int argc, char **argv)
{
	return run_or_start(ctx, argc, argv, false);
}

int cmd_start(struct ctx *ctx, int argc, char **argv)
{
	return run_or_start(ctx, argc, argv, true);
}

/* stop, stats: ID [ID ...] with report options. */
static int ids_cmd(struct ctx *ctx, int argc, char **argv, bool stop)
{
	static const struct option opts[] = {
		{ "percentile_list", required_argument, NULL, OPT_PERCENTILES },
		{ "per-cpu", no_argument, NULL, OPT_PER_CPU },
		{ "drain-timeout", required_argument, NULL, OPT_DRAIN },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	struct workload w = { 0 };
	struct option *both;
	unsigned int n, i, got = 0;
	struct job *jobs;
	uint32_t *ids;
	struct bl_nl nl;
	int c, rc = 0;

	w.drain_ms = 5000;
	w.ro.nr_percentiles = ARRAY_SIZE(default_percentiles);
	w.ro.percentiles = xcalloc(w.ro.nr_percentiles, sizeof(double));
	memcpy(w.ro.percentiles, default_percentiles, sizeof(default_percentiles));
	both = opts_both_spellings(opts);
	optind = 0;	/* 0: glibc rescans the option string (no "+") */
	while ((c = getopt_long(argc, argv, "h", both, NULL)) != -1) {
		switch (c) {
		case OPT_PERCENTILES:
			if (parse_percentiles(optarg, &w.ro))
				goto usage;
			break;
		case OPT_PER_CPU:
			w.ro.queues = true;
			break;
		case OPT_DRAIN:
			if (!parse_drain_ms(optarg, &w.drain_ms))
				break;
			fprintf(stderr, "blkload: %s: --drain-timeout '%s': milliseconds, or a time such as 5s, up to 1h\n",
				argv[0], optarg);
			goto usage;
		case OPT_HELP:
		case 'h':
			printf("usage: blkload [-j] %s ID [ID ...] [--per-cpu] [--percentile_list P:P]%s\n",
			       argv[0], stop ? " [--drain-timeout MS]" : "");
			workload_free(&w);
			opts_free(both, opts);
			return 0;
		default:
			goto usage;
		}
	}
	opts_free(both, opts);
	both = NULL;
	n = (unsigned int)(argc - optind);
	if (!n) {
		fprintf(stderr, "blkload: %s: a job id is required (see 'blkload list')\n", argv[0]);
		goto usage;
	}
	ids = xcalloc(n, sizeof(*ids));
	for (i = 0; i < n; i++) {
		if (parse_u32_range(argv[optind + (int)i], 1, UINT32_MAX, &ids[i])) {
			fprintf(stderr, "blkload: '%s' is not a job id\n", argv[optind + (int)i]);
			free(ids);
			goto usage;
		}
	}
	if (bl_nl_open(&nl)) {
		free(ids);
		workload_free(&w);
		return 1;
	}
	jobs = xcalloc(n, sizeof(*jobs));
	w.bins = ctx->json_plus;
	if (stop) {
		/* Joined before the stops, so that no job-done event can be missed. */
		struct nl_sock *ev = events_open();
		double t0 = now_s();

		for (i = 0; i < n; i++) {
			if (job_simple(&nl, BLKLOAD_CMD_JOB_STOP, ids[i])) {
				char *what = xasprintf("stop job %u", ids[i]);

				bl_nl_perror(&nl, what);
				free(what);
				rc = 1;
				ids[i] = 0;	/* nothing to wait for, report or delete */
			}
		}
		/* Wait for each job to drain, up to the drain timeout in all. */
		for (;;) {
			unsigned int pending = 0;

			for (i = 0; i < n; i++) {
				if (!ids[i])
					continue;
				job_clear(&jobs[0]);
				if (job_get(&nl, ids[i], false, false, &jobs[0]))
					continue;	/* reported below */
				pending += jobs[0].state != BLKLOAD_STATE_DONE;
			}
			job_clear(&jobs[0]);
			if (!pending || now_s() - t0 >= w.drain_ms / 1e3)
				break;
			events_wait(ev, 100);
		}
		if (ev)
			nl_socket_free(ev);
	}
	for (i = 0; i < n; i++) {
		if (!ids[i])
			continue;
		if (job_get(&nl, ids[i], true, w.ro.queues, &jobs[got])) {
			char *what = xasprintf("job %u", ids[i]);

			bl_nl_perror(&nl, what);
			free(what);
			rc = 1;
			continue;
		}
		got++;
	}
	if (got)
		report_all(ctx, jobs, got, &w, NULL, NULL, 0);
	if (stop) {
		report_undrained(jobs, got, w.drain_ms);
		for (i = 0; i < got; i++)
			if (jobs[i].state != BLKLOAD_STATE_DONE)
				rc = 1;
		/* A job still draining is deleted now and freed by the module later. */
		for (i = 0; i < n; i++)
			if (ids[i] && job_simple(&nl, BLKLOAD_CMD_JOB_DEL, ids[i]) &&
			    nl.error != -ENOENT)
				bl_nl_perror(&nl, "delete job");
	}
	for (i = 0; i < got; i++)
		job_clear(&jobs[i]);
	free(jobs);
	free(ids);
	bl_nl_close(&nl);
	workload_free(&w);
	return rc;
usage:
	opts_free(both, opts);
	workload_free(&w);
	return 2;
}

int cmd_stop(struct ctx *ctx, int argc, char **argv)
{
	return ids_cmd(ctx, argc, argv, true);
}

int cmd_stats(struct ctx *ctx, int argc, char **argv)
{
	return ids_cmd(ctx, argc, argv, false);
}

int cmd_list(struct ctx *ctx, int argc, char **argv)
{
	struct get_ctx g = { 0 };
	bool deleted = false;
	struct nl_msg *msg;
	struct bl_nl nl;
	struct out *o;
	int ret;

	if (argc > 1) {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
			puts("usage: blkload [-j] list\nList every job: id, device, state, workload.");
			return 0;
		}
		fprintf(stderr, "blkload: list: unexpected argument '%s'\n", argv[1]);
		return 2;
	}
	if (bl_nl_open(&nl))
		return 1;
	msg = bl_nl_msg(&nl, BLKLOAD_CMD_JOB_GET, NLM_F_DUMP);
	if (!msg) {
		bl_nl_close(&nl);
		return 1;
	}
	ret = bl_nl_talk(&nl, msg, get_parse, &g);
	if (ret) {
		bl_nl_perror(&nl, "list");
	} else {
		o = out_new(stdout, ctx->json, ctx->pretty);
		if (!ctx->json)
			printf("%-6s %-20s %-9s %-10s %-9s %8s %7s %-8s %10s %12s\n", "ID", "DEVICE",
			       "STATE", "REASON", "RW", "BS", "IODEPTH", "CPUS", "ELAPSED", "IOS");
		out_begin_array(o, "jobs", NULL);
		for (unsigned int i = 0; i < g.n; i++) {
			const struct job *j = &g.jobs[i];
			uint64_t ios = j->op[OP_READ].ios + j->op[OP_WRITE].ios;

			if (!ctx->json) {
				char *st = xasprintf("%s%s", state_name(j->state),
						     j->deleted ? "*" : "");

				printf("%-6u %-20s %-9s %-10s %-9s %8u %7u %-8s %9.1fs %12" PRIu64 "\n",
				       j->id, j->path, st, reason_name(j->reason),
				       rw_name(j->rw), j->bs, j->iodepth, j->cpus,
				       (double)j->elapsed / 1e9, ios);
				free(st);
				deleted |= j->deleted;
				continue;
			}
			out_begin_object(o, NULL, NULL);
			out_u64(o, "job_id", NULL, j->id, NULL);
			out_str(o, "device", NULL, j->path);
			out_str(o, "state", NULL, state_name(j->state));
			out_str(o, "done_reason", NULL, reason_name(j->reason));
			out_str(o, "rw", NULL, rw_name(j->rw));
			out_u64(o, "bs", NULL, j->bs, NULL);
			out_u64(o, "iodepth", NULL, j->iodepth, NULL);
			out_str(o, "cpus", NULL, j->cpus);
			out_bool(o, "detached", NULL, !j->owner);
			out_bool(o, "deleted", NULL, j->deleted);
			out_u64(o, "elapsed_ns", NULL, j->elapsed, NULL);
			out_u64(o, "ios", NULL, ios, NULL);
			out_u64(o, "inflight", NULL, j->inflight, NULL);
			out_end_object(o);
		}
		out_end_array(o);
		out_free(o);
		if (deleted)
			puts("* deleted: freed by the module once its in-flight IO completes");
	}
	for (unsigned int i = 0; i < g.n; i++)
		job_clear(&g.jobs[i]);
	free(g.jobs);
	bl_nl_close(&nl);
	return ret ? 1 : 0;
}

struct monitor_ctx {
	struct ctx *ctx;
	unsigned long seen;
};

static int monitor_event(struct nl_msg *msg, void *arg)
{
	struct monitor_ctx *m = arg;
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[BLKLOAD_A_MAX + 1];
	struct job j;
	struct out *o;

	if (gh->cmd != BLKLOAD_CMD_JOB_DONE_NTF)
		return NL_OK;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, BLKLOAD_A_MAX, NULL) < 0 || job_parse(tb, &j)) {
		fputs("blkload: malformed event\n", stderr);
		return NL_OK;
	}
	if (m->ctx->json) {
		o = out_new(stdout, true, false);
		out_str(o, "event", NULL, "job-done");
		out_u64(o, "job_id", NULL, j.id, NULL);
		out_str(o, "device", NULL, j.path);
		out_str(o, "done_reason", NULL, reason_name(j.reason));
		out_s64(o, "error", NULL, j.error, NULL);
		out_u64(o, "ios", NULL, j.op[OP_READ].ios + j.op[OP_WRITE].ios, NULL);
		out_u64(o, "elapsed_ns", NULL, j.elapsed, NULL);
		out_free(o);
	} else {
		printf("job %u %s: done (%s)%s%s, %" PRIu64 " IOs in %.3f s\n", j.id, j.path,
		       reason_name(j.reason), j.error ? ", error " : "",
		       j.error ? strerror(-j.error) : "",
		       j.op[OP_READ].ios + j.op[OP_WRITE].ios, (double)j.elapsed / 1e9);
	}
	fflush(stdout);
	job_clear(&j);
	m->seen++;
	return NL_OK;
}

int cmd_monitor(struct ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct monitor_ctx m = { .ctx = ctx };
	uint64_t count = 0;
	struct bl_nl nl;
	int c, grp, ret;

	optind = 0;	/* 0: glibc rescans the option string (no "+") */
	while ((c = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (parse_u64(optarg, &count)) {
				fprintf(stderr, "blkload: monitor: --count '%s': a number\n", optarg);
				return 2;
			}
			break;
		case 'h':
			puts("usage: blkload [-j] monitor [--count N]\n"
			     "Print an event line each time a job finishes (group 'events');\n"
			     "stop after N events, or on Ctrl-C.");
			return 0;
		default:
			return 2;
		}
	}
	if (bl_nl_open(&nl))
		return 1;
	grp = genl_ctrl_resolve_grp(nl.sk, BLKLOAD_FAMILY_NAME, BLKLOAD_MCGRP_EVENTS);
	if (grp < 0 || nl_socket_add_membership(nl.sk, grp) < 0) {
		fprintf(stderr, "blkload: monitor: cannot join the '%s' group\n",
			BLKLOAD_MCGRP_EVENTS);
		bl_nl_close(&nl);
		return 1;
	}
	nl_socket_disable_seq_check(nl.sk);
	nl_socket_modify_cb(nl.sk, NL_CB_VALID, NL_CB_CUSTOM, monitor_event, &m);
	/* On stderr, so a waiting script knows events will now be seen. */
	fprintf(stderr, "blkload: monitoring job events\n");
	catch_signals();
	while (!interrupted && (!count || m.seen < count)) {
		ret = nl_recvmsgs_default(nl.sk);
		if (ret < 0 && ret != -NLE_INTR && ret != -NLE_AGAIN) {
			fprintf(stderr, "blkload: monitor: %s\n", nl_geterror(ret));
			break;
		}
	}
	bl_nl_close(&nl);
	return 0;
}
