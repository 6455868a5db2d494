// SPDX-License-Identifier: GPL-2.0
/*
 * blkload run | start: a workload from the command line, or fio job files.
 * One job is made per --dev (per --filename device); the jobs of a job
 * file's wave start together, the waves (stonewall) one after the other;
 * "--ioengine NAME" runs a userspace engine (engines/) instead of the module.
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
#include "cpu.h"
#include "job.h"
#include "jobctl.h"
#include "nl.h"
#include "out.h"
#include "parse.h"
#include "util.h"
#include "workload.h"
#include "engines/engine.h"

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
