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
#include "inuse.h"
#include "job.h"
#include "jobctl.h"
#include "nl.h"
#include "out.h"
#include "parse.h"
#include "util.h"
#include "workload.h"
#include "engines/engine.h"
#include "jobfile.h"

/*
 * The progress line. The jobs count nothing during the ramp: then it shows
 * what the devices' own counters moved (all of their users' IO).
 */
static void progress(const struct job *jobs, unsigned int n, const struct workload *w,
		     double t0, uint64_t *prev_ios, uint64_t *prev_bytes, double *prev_t)
{
	bool ramp = w->ramp && now_s() - t0 < (double)w->ramp / 1e9;
	uint64_t ios = 0, bytes = 0;
	double t = now_s(), el = t - t0, dt = t - *prev_t;
	struct disk_util d;
	char *bw;

	for (unsigned int i = 0; i < n; i++) {
		bool seen = false;

		if (!ramp) {
			ios += job_ios(&jobs[i]);
			bytes += job_bytes(&jobs[i]);
			continue;
		}
		/* Each device once, however many jobs it has. */
		for (unsigned int k = 0; k < i && !seen; k++)
			seen = jobs[k].path && jobs[i].path && !strcmp(jobs[k].path, jobs[i].path);
		if (!seen && !disk_sample(jobs[i].path, &d)) {
			ios += d.ios[0] + d.ios[1];
			bytes += (d.sectors[0] + d.sectors[1]) * 512;
			disk_util_free(&d);
		}
	}
	/* A first reading, or counters switching at the ramp's end: no rate yet. */
	if ((ramp && *prev_t <= t0) || ramp != (*prev_t < t0 + (double)w->ramp / 1e9) ||
	    ios < *prev_ios) {
		*prev_ios = ios;
		*prev_bytes = bytes;
		*prev_t = t;
		return;
	}
	if (dt <= 0)
		return;
	bw = fmt_bytes((uint64_t)((double)(bytes - *prev_bytes) / dt));
	fprintf(stderr, "\r\033[K[%s] %u job%s: %.0f IOPS, %s/s, elapsed %.0fs",
		ramp ? "ramp, devices" : "run", n, n == 1 ? "" : "s",
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

/*
 * What one run does: the workloads (one from the command line, or one per
 * job of fio job files), each with its wave (jobs of a wave start together,
 * the waves one after the other: fio's stonewall) and reporting group.
 */
struct plan {
	struct workload *w;
	uint32_t *wave, *groupid;
	unsigned int nw;
	struct jobfile jf;
	bool from_file;
};

static void plan_free(struct plan *p)
{
	for (unsigned int i = 0; i < p->nw; i++)
		workload_free(&p->w[i]);
	free(p->w);
	free(p->wave);
	free(p->groupid);
	jobfile_free(&p->jf);
	memset(p, 0, sizeof(*p));
}

/*
 * Each job of the files: [global]'s options, then its section's, then the
 * command line's (which apply to every job and win, as documented).
 */
static int plan_files(struct plan *p, const struct workload *cl, int argc, char **argv,
		      const char *cmd)
{
	for (unsigned int f = 0; f < cl->nr_jobfiles; f++)
		if (jobfile_read(&p->jf, cl->jobfiles[f], workload_option_known))
			return -1;
	p->from_file = true;
	p->w = xcalloc(p->jf.nr, sizeof(*p->w));
	p->wave = xcalloc(p->jf.nr, sizeof(*p->wave));
	p->groupid = xcalloc(p->jf.nr, sizeof(*p->groupid));
	for (unsigned int j = 0; j < p->jf.nr; j++) {
		const struct jobfile_job *jj = &p->jf.jobs[j];
		char **args = xcalloc(jj->argc + (unsigned int)argc + 1, sizeof(*args));
		int n = 0, ret;

		args[n++] = argv[0];
		for (unsigned int a = 0; a < jj->argc; a++) {
			const char *o = jj->argv[a];

			/* Devices and a name on the command line replace the file's. */
			if ((cl->nr_devs && (!strncmp(o, "--filename=", 11) ||
					     !strncmp(o, "--dev=", 6))) ||
			    (cl->name && !strncmp(o, "--name=", 7)))
				continue;
			args[n++] = jj->argv[a];
		}
		for (int a = 1; a < argc; a++) {
			bool file = false;

			for (unsigned int f = 0; f < cl->nr_jobfiles; f++)
				file |= argv[a] == cl->jobfiles[f];
			if (!file)
				args[n++] = argv[a];
		}
		ret = workload_parse(&p->w[j], n, args, cmd);
		free(args);
		p->nw++;
		if (ret) {
			fprintf(stderr, "blkload: %s: in job [%s]\n", cmd, jj->name);
			return -1;
		}
		p->wave[j] = jj->wave;
		p->groupid[j] = jj->groupid;
	}
	return 0;
}

static bool job_failed(const struct job *j)
{
	return j->error || job_errors(j) ||
	       j->state != BLKLOAD_STATE_DONE || j->reason == BLKLOAD_REASON_CPU_OFFLINE;
}

/* The jobs of a run, across its waves, with what the report needs of each. */
struct results {
	struct job *jobs;
	unsigned int n;
	struct cpu_window cw;
	unsigned int waves;
	bool detached;		/* a second Ctrl-C: the jobs left running, no report */
};

static struct job *results_add(struct results *r, unsigned int k)
{
	r->jobs = xrealloc(r->jobs, (r->n + k) * sizeof(*r->jobs));
	memset(r->jobs + r->n, 0, k * sizeof(*r->jobs));
	r->n += k;
	return r->jobs + r->n - k;
}

/* A wave of one workload on a userspace engine: 0, 1 (IO errors) or -1. */
static int engine_wave(struct workload *w, struct results *r, uint32_t groupid)
{
	const struct engine_ops *ops = engine_find(w->engine);
	unsigned int n = ops->images ? w->nr_images : w->nr_devs;
	struct job *jobs = xcalloc(n ? n : 1, sizeof(*jobs)), *out;
	struct workload first = *w;
	int rc = -1;

	/* --start-at is the first wave's: the waves after it follow on. */
	if (r->waves)
		first.start_at_ns = 0;
	if (!engine_run(ops, &first, &interrupted, jobs, &r->cw)) {
		rc = 0;
		out = results_add(r, n);
		for (unsigned int i = 0; i < n; i++) {
			out[i] = jobs[i];
			out[i].groupid = groupid;
			out[i].opts = &w->opts;
			out[i].name = w->name;
			out[i].logs = &w->logs;
			if (out[i].error || job_errors(&out[i]))
				rc = 1;
		}
	} else {
		for (unsigned int i = 0; i < n; i++)
			job_clear(&jobs[i]);
	}
	free(jobs);
	return rc;
}

/*
 * The new samples of each job of a wave; with --status-interval, the
 * windows they complete, one line each (stdout, or stderr under JSON).
 */
static void wave_samples(struct bl_nl *nl, const uint32_t *ids, unsigned int n,
			 struct workload **ws, struct series *ser, size_t *shown, FILE *sf, bool tty)
{
	for (unsigned int i = 0, k = 0, d = 0; i < n; i++, d++) {
		const struct workload *w;

		while (d >= ws[k]->nr_devs) {
			k++;
			d = 0;
		}
		w = ws[k];
		if (!ser[i].interval || ser[i].failed)
			continue;
		/* Not fatal: the run goes on, the report says what is missing. */
		if (series_fetch(nl, ids[i], &ser[i])) {
			char *what = xasprintf("job %u: samples (no more are read)", ids[i]);

			bl_nl_perror(nl, what);
			free(what);
			ser[i].failed = true;
			continue;
		}
		if (w->status_ns)
			shown[i] = series_status(sf, &ser[i], shown[i], w->status_ns, ids[i], tty);
	}
}

/*
 * A wave of workloads @ws on the module: their jobs made, started together
 * and waited for. Returns 0, 1 (a job failed) or -1 (nothing to report
 * from it). Ctrl-C stops the wave (the run ends after it); a second one
 * detaches its jobs (r->detached).
 */
static int kernel_wave(struct ctx *ctx, struct bl_nl *nl, struct nl_sock *ev,
		       struct workload **ws, const uint32_t *groupid, unsigned int nws,
		       struct results *r)
{
	bool tty = isatty(STDERR_FILENO) && !ctx->json;
	struct workload agg = *ws[0];
	unsigned int n = 0, total = 0, k = 0;
	uint32_t *ids;
	struct job *jobs = NULL;
	double t0, last_shown, prev_t, stop_t = 0;
	uint64_t prev_ios = 0, prev_bytes = 0, start_ms;
	bool stopped = false;
	struct series *ser;
	size_t *shown = NULL;
	int done, rc = -1;

	/* The wave ends with its longest job: ramp, runtime, drain of the longest. */
	for (unsigned int i = 0; i < nws; i++) {
		total += ws[i]->nr_devs;
		agg.ramp = ws[i]->ramp > agg.ramp ? ws[i]->ramp : agg.ramp;
		agg.runtime = ws[i]->runtime > agg.runtime ? ws[i]->runtime : agg.runtime;
		agg.drain_ms = ws[i]->drain_ms > agg.drain_ms ? ws[i]->drain_ms : agg.drain_ms;
	}
	ids = xcalloc(total, sizeof(*ids));
	ser = xcalloc(total, sizeof(*ser));
	for (unsigned int i = 0; i < nws; i++)
		for (unsigned int d = 0; d < ws[i]->nr_devs; d++, n++) {
			bool smp;

			if (job_new(nl, ws[i], ws[i]->devs[d], &ids[n], &smp)) {
				if (nws > 1)
					fprintf(stderr, "blkload: in job [%s]\n", ws[i]->name);
				goto out_del;
			}
			ser[n].interval = smp ? ws[i]->sample_ns : 0;
		}
	/* --start-at: the first wave, everything made, starts at that moment. */
	if (!r->waves && agg.start_at_ns && start_at_wait(agg.start_at_ns, &interrupted))
		goto out_del;
	start_ms = wall_ms();
	if (jobs_start(nl, ids, n)) {
		bl_nl_perror(nl, "start");
		goto out_del;
	}
	jobs = xcalloc(n, sizeof(*jobs));
	shown = xcalloc(n, sizeof(*shown));
	t0 = now_s();
	last_shown = t0;
	prev_t = t0;
	for (;;) {
		/* The client CPU window is the ramp's end to the last job's. */
		if (now_s() - t0 >= agg.ramp / 1e9)
			cpu_window_start(&r->cw);
		done = jobs_get(nl, ids, n, jobs, false, false);
		if (done < 0)
			goto out_del;
		wave_samples(nl, ids, n, ws, ser, shown, ctx->json ? stderr : stdout, tty);
		if ((unsigned int)done == n) {
			cpu_window_end(&r->cw);
			break;
		}
		if (interrupted > 1) {
			if (tty)
				fputs("\r\033[K", stderr);
			jobs_detach(nl, jobs, n);
			r->detached = true;
			goto out;
		}
		if (interrupted && !stopped) {
			for (unsigned int i = 0; i < n; i++)
				if (job_simple(nl, BLKLOAD_CMD_JOB_STOP, ids[i]))
					bl_nl_perror(nl, "stop");
			stopped = true;
			stop_t = now_s();
			if (isatty(STDERR_FILENO))
				fputs("\r\033[Kblkload: stopping; Ctrl-C again detaches the jobs\n",
				      stderr);
			continue;
		}
		if (stopped && now_s() - stop_t >= agg.drain_ms / 1e3) {
			if (tty)
				fputs("\r\033[K", stderr);
			report_undrained(jobs, n, agg.drain_ms);
			break;
		}
		if (tty && now_s() - last_shown >= 1.0) {
			progress(jobs, n, &agg, t0, &prev_ios, &prev_bytes, &prev_t);
			last_shown = now_s();
		}
		if (!r->cw.started && agg.ramp) {
			double left = agg.ramp / 1e9 - (now_s() - t0);

			events_wait(ev, left < 1.0 ? (int)(left * 1000) + 1 : 1000);
		} else {
			/* Samples are read at least every second: rings never overflow. */
			int ms = stopped ? 100 : 1000;

			if (agg.status_ns && agg.status_ns / 1000000 < (uint64_t)ms)
				ms = (int)(agg.status_ns / 1000000);
			events_wait(ev, ms);
		}
	}
	if (tty && last_shown > t0)
		fputs("\r\033[K", stderr);
	if (jobs_get(nl, ids, n, jobs, true, agg.ro.queues) < 0)
		goto out_del;
	wave_samples(nl, ids, n, ws, ser, shown, ctx->json ? stderr : stdout, tty);
	rc = 0;
	{
		struct job *out = results_add(r, n);

		for (unsigned int i = 0, d = 0; i < n; i++, d++) {
			while (d >= ws[k]->nr_devs) {
				k++;
				d = 0;
			}
			out[i] = jobs[i];
			out[i].ser = ser[i];
			out[i].start_ms = start_ms;
			ser[i] = (struct series){ 0 };
			out[i].groupid = groupid[k];
			out[i].opts = &ws[k]->opts;
			out[i].name = ws[k]->name;
			out[i].logs = &ws[k]->logs;
			if (job_failed(&out[i]) && rc == 0)
				rc = 1;
		}
		free(jobs);
		jobs = NULL;
	}
out_del:
	jobs_del(nl, ids, n);
out:
	if (jobs)
		for (unsigned int i = 0; i < n; i++)
			job_clear(&jobs[i]);
	free(jobs);
	for (unsigned int i = 0; i < total; i++)
		series_free(&ser[i]);
	free(ser);
	free(shown);
	free(ids);
	return rc;
}

/* start: every job made and started, their ids printed; nothing waits. */
static int start_all(struct ctx *ctx, struct bl_nl *nl, struct plan *p)
{
	unsigned int total = 0, n = 0;
	uint32_t *ids;
	const char **dev;
	bool *owned;	/* made owned (--start-at): detached once started */
	int rc = 1;

	for (unsigned int i = 0; i < p->nw; i++)
		total += p->w[i].nr_devs;
	ids = xcalloc(total, sizeof(*ids));
	dev = xcalloc(total, sizeof(*dev));
	owned = xcalloc(total, sizeof(*owned));
	for (unsigned int i = 0; i < p->nw; i++)
		for (unsigned int d = 0; d < p->w[i].nr_devs; d++, n++) {
			dev[n] = p->w[i].devs[d];
			owned[n] = p->w[i].start_at_ns;
			bool smp;

			if (job_new(nl, &p->w[i], dev[n], &ids[n], &smp))
				goto out_del;
		}
	if (p->w[0].start_at_ns) {
		catch_signals();
		if (start_at_wait(p->w[0].start_at_ns, &interrupted))
			goto out_del;
	}
	if (jobs_start(nl, ids, n)) {
		bl_nl_perror(nl, "start");
		goto out_del;
	}
	for (unsigned int i = 0; i < n; i++) {
		if (owned[i] && job_simple(nl, BLKLOAD_CMD_JOB_DETACH, ids[i])) {
			bl_nl_perror(nl, "detach");
			goto out_del;
		}
	}
	{
		struct out *o = out_new(stdout, ctx->json, ctx->pretty);

		out_begin_array(o, "jobs", NULL);
		for (unsigned int i = 0; i < n; i++) {
			out_begin_object(o, NULL, NULL);
			out_u64(o, "job_id", NULL, ids[i], NULL);
			out_str(o, "device", NULL, dev[i]);
			out_end_object(o);
			if (!ctx->json)
				printf("job %u: %s\n", ids[i], dev[i]);
		}
		out_end_array(o);
		out_free(o);
	}
	rc = 0;
	goto out;
out_del:
	jobs_del(nl, ids, n);
out:
	free(ids);
	free(dev);
	free(owned);
	return rc;
}

/* The time series as CSV (--samples-csv) and fio's log files, job by job (N from 1). */
static int write_series(const struct job *jobs, unsigned int n, const struct workload *w0)
{
	int rc = 0;

	if (w0->samples_csv) {
		FILE *f = fopen(w0->samples_csv, "w");

		if (!f) {
			fprintf(stderr, "blkload: --samples-csv %s: %s\n", w0->samples_csv,
				strerror(errno));
			return -1;
		}
		series_csv(f, jobs, n, w0->ro.percentiles, w0->ro.nr_percentiles);
		if (fclose(f)) {
			fprintf(stderr, "blkload: --samples-csv %s: %s\n", w0->samples_csv,
				strerror(errno));
			rc = -1;
		}
	}
	for (unsigned int i = 0; i < n; i++) {
		const struct series_logs *lg = jobs[i].logs;

		if (!lg || !(lg->iops || lg->bw || lg->lat || lg->hist))
			continue;
		if (jobs[i].ser.lost)
			fprintf(stderr, "blkload: job %u: %" PRIu64 " samples were lost (read too late): the logs have gaps\n",
				jobs[i].id, jobs[i].ser.lost);
		if (series_write_logs(lg, &jobs[i].ser, jobs[i].bs, i + 1))
			rc = -1;
	}
	return rc;
}

static int run_or_start(struct ctx *ctx, int argc, char **argv, bool detached)
{
	const char *cmd = detached ? "start" : "run";
	struct workload cl;
	struct plan p = { 0 };
	struct results r = { 0 };
	struct disks dk = { 0 };
	struct nl_sock *ev = NULL;
	struct bl_nl nl = { 0 };
	struct workload *w0;
	bool kernel = false, nl_open = false;
	uint32_t nwaves = 0;
	char **devs = NULL;
	unsigned int ndevs = 0;
	int ret, rc = 2;

	ret = workload_parse_args(&cl, argc, argv, cmd, true);
	if (ret) {
		workload_free(&cl);
		return ret > 0 ? 0 : 2;
	}
	if (cl.nr_jobfiles) {
		if (plan_files(&p, &cl, argc, argv, cmd))
			goto out;
		workload_free(&cl);
	} else {
		p.w = xcalloc(1, sizeof(*p.w));
		p.w[0] = cl;
		p.wave = xcalloc(1, sizeof(*p.wave));
		p.groupid = xcalloc(1, sizeof(*p.groupid));
		p.nw = 1;
	}
	memset(&cl, 0, sizeof(cl));
	w0 = &p.w[0];
	for (unsigned int i = 0; i < p.nw; i++) {
		struct workload *w = &p.w[i];
		unsigned int in_wave = 0;

		w->bins |= ctx->json_plus;
		w->detached = detached;
		/* Nobody reads a detached job's samples unless they were asked for. */
		if (detached && !w->sample_given)
			w->sample_ns = 0;
		kernel |= !w->engine;
		nwaves = p.wave[i] + 1 > nwaves ? p.wave[i] + 1 : nwaves;
		for (unsigned int k = 0; k < p.nw; k++)
			in_wave += p.wave[k] == p.wave[i];
		if (w->engine && !engine_find(w->engine)) {
			fprintf(stderr, "blkload: --ioengine '%s': no such engine; there are:\n",
				w->engine);
			engine_list(stderr);
			goto out;
		}
		if (w->engine && in_wave > 1) {
			fprintf(stderr, "blkload: %s: job [%s]: jobs that run together run on the module: --ioengine=kernel on the command line puts every job there, or 'stonewall' runs the %s jobs one at a time\n",
				cmd, w->name, w->engine);
			goto out;
		}
		if (w->engine && detached) {
			fprintf(stderr, "blkload: start: only the kernel engine runs detached\n");
			goto out;
		}
		/* The devices whose counters the report shows (not librbd's images). */
		if (w->engine && engine_find(w->engine)->images)
			continue;
		devs = xrealloc(devs, (ndevs + w->nr_devs) * sizeof(*devs));
		memcpy(devs + ndevs, w->devs, w->nr_devs * sizeof(*devs));
		ndevs += w->nr_devs;
	}
	for (unsigned int i = 1; i < p.nw; i++)
		if (p.w[i].start_at_ns != w0->start_at_ns) {
			fprintf(stderr, "blkload: %s: job [%s]: --start-at differs from the first job's: one moment starts the run\n",
				cmd, p.w[i].name ? p.w[i].name : "?");
			goto out;
		}
	if (detached && (w0->output || nwaves > 1)) {
		fprintf(stderr, "blkload: start: %s\n", w0->output ?
			"--output is for run (start prints the job ids)" :
			"every job starts at once; 'stonewall' needs run");
		goto out;
	}
	if (cpu_exclude_parse(&r.cw.ex, w0->cpu_exclude)) {
		fprintf(stderr, "blkload: --cpu-exclude '%s': command names, comma-separated\n",
			w0->cpu_exclude);
		goto out;
	}
	rc = 1;
	if (kernel) {
		if (bl_nl_open(&nl))
			goto out;
		nl_open = true;
	}
	if (detached) {
		rc = start_all(ctx, &nl, &p);
		goto out;
	}
	/*
	 * The write guard before anything is made or counted: its probe reads
	 * the device, and those reads are not the run's (disks_begin()).
	 */
	for (unsigned int i = 0; i < p.nw; i++) {
		struct workload *w = &p.w[i];

		if (!workload_changes(w) || w->force || (w->engine && engine_find(w->engine)->images))
			continue;
		for (unsigned int d = 0; d < w->nr_devs; d++)
			if (bl_write_guard(w->devs[d]))
				goto out;
		w->guarded = true;
	}
	rc = 2;
	if (open_output(w0))
		goto out;
	/* Joined before the start, so that no job-done event can be missed. */
	if (kernel)
		ev = events_open();
	catch_signals();
	disks_begin(&dk, devs, ndevs);
	rc = 0;
	for (uint32_t wave = 0; wave < nwaves; wave++) {
		struct workload **ws = xcalloc(p.nw, sizeof(*ws));
		uint32_t *gid = xcalloc(p.nw, sizeof(*gid));
		unsigned int k = 0, before;
		int wrc;

		for (unsigned int i = 0; i < p.nw; i++) {
			if (p.wave[i] != wave)
				continue;
			gid[k] = p.groupid[i];
			ws[k++] = &p.w[i];
		}
		before = r.n;
		if (ws[0]->engine)
			wrc = engine_wave(ws[0], &r, gid[0]);
		else
			wrc = kernel_wave(ctx, &nl, ev, ws, gid, k, &r);
		for (unsigned int i = before; i < r.n; i++)
			r.jobs[i].wave = wave;
		free(ws);
		free(gid);
		r.waves++;
		if (wrc)
			rc = 1;
		if (wrc < 0 || interrupted || r.detached)
			break;
	}
	disks_end(&dk);
	if (r.detached)
		rc = 1;
	else if (r.n)
		report_all(ctx, r.jobs, r.n, w0, r.waves == 1 ? &r.cw : NULL,
			   p.from_file ? &p.jf.global : NULL, dk.b, dk.nb);
	if (!r.detached && r.n && write_series(r.jobs, r.n, w0))
		rc = rc ? rc : 1;
out:
	for (unsigned int i = 0; i < r.n; i++)
		job_clear(&r.jobs[i]);
	free(r.jobs);
	free(devs);
	disks_free(&dk);
	if (ev)
		nl_socket_free(ev);
	if (nl_open)
		bl_nl_close(&nl);
	cpu_exclude_free(&r.cw.ex);
	workload_free(&cl);
	plan_free(&p);
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
