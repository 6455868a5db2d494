// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel engine: the blkload module, driven over generic netlink. A
 * wave's jobs are made (one per device), started together and followed
 * until they end: progress, samples while they run (--status-interval),
 * Ctrl-C to stop and a second to detach; start leaves them running.
 * The module itself runs the queue machine (include/blkload/queue.h) the
 * userspace engines run.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../jobctl.h"
#include "../out.h"
#include "../util.h"
#include "engine.h"

/*
 * The progress line. The jobs count nothing during the ramp: then it shows
 * what the devices' own counters moved (all of their users' IO).
 */
static void progress(const struct job *jobs, unsigned int n, const struct workload *w,
		     double t0, uint64_t *prev_ios, uint64_t *prev_bytes, double *prev_t)
{
	bool ramp = w->p.ramp_ns && now_s() - t0 < (double)w->p.ramp_ns / 1e9;
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
	if ((ramp && *prev_t <= t0) || ramp != (*prev_t < t0 + (double)w->p.ramp_ns / 1e9) ||
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
	if (w->p.runtime_ns)
		fprintf(stderr, ", eta %.0fs",
			(double)(w->p.runtime_ns + w->p.ramp_ns) / 1e9 - el > 0 ?
			(double)(w->p.runtime_ns + w->p.ramp_ns) / 1e9 - el : 0);
	free(bw);
	*prev_ios = ios;
	*prev_bytes = bytes;
	*prev_t = t;
}

static bool job_failed(const struct job *j)
{
	return j->error || job_errors(j) ||
	       j->state != BLKLOAD_STATE_DONE || j->reason == BLKLOAD_REASON_CPU_OFFLINE;
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
 * How long a wave with nothing to show may wait for its jobs' done events
 * before it reads them anyway (ms): half of what the smallest sample ring
 * holds (samples must be read before it wraps), at most 10 s (an event lost:
 * a full socket buffer).
 */
static int quiet_ms(const struct job *jobs, unsigned int n)
{
	double ms = 10000;

	for (unsigned int i = 0; i < n; i++) {
		double ring = (double)jobs[i].p.sample_ring * (double)jobs[i].p.sample_ns / 2e6;

		if (jobs[i].p.sample_ns && jobs[i].state != BLKLOAD_STATE_DONE && ring < ms)
			ms = ring;
	}
	return ms < 20 ? 20 : (int)ms;
}

/*
 * fio's exitall: each workload whose jobs (one a device, @wl: each job's
 * workload) are all seen done for the first time stops the running jobs of
 * the workloads its exit_what names; exit_what=all also ends the run after
 * this wave.
 */
static void exitall_stop(const struct wave_env *env, struct workload **ws,
			 const uint32_t *groupid, unsigned int nws, const uint32_t *ids,
			 const struct job *jobs, unsigned int n, const unsigned int *wl, bool *ended, bool *whom,
			 struct results *r)
{
	bool any = false;

	if (!env->exitall)
		return;
	/* A workload (fio's job) ends with the last of its devices' jobs. */
	for (unsigned int i = 0; i < n; i++) {
		bool all = true;

		if (ended[i] || jobs[i].state != BLKLOAD_STATE_DONE)
			continue;
		for (unsigned int k = 0; k < n && all; k++)
			all = wl[k] != wl[i] || jobs[k].state == BLKLOAD_STATE_DONE;
		if (!all)
			continue;
		for (unsigned int k = 0; k < n; k++)
			ended[k] |= wl[k] == wl[i];
		if (exitall_whom(env, ws, groupid, nws, wl[i], whom))
			r->end_all = true;
		any = true;
	}
	for (unsigned int i = 0; any && i < n; i++) {
		/* Asked once: then stopping; its own end stops whom it names, as in fio. */
		if (!whom[wl[i]] || jobs[i].state != BLKLOAD_STATE_RUNNING)
			continue;
		if (job_simple(env->nl, BLKLOAD_CMD_JOB_STOP, ids[i]))
			bl_nl_perror(env->nl, "stop");
	}
}

/* The workload of the wave that holds @k's steady state check: its group's first under group_reporting. */
static unsigned int ss_holder(struct workload **ws, const uint32_t *groupid, unsigned int k)
{
	if (!ws[k]->group_reporting)
		return k;
	for (unsigned int m = 0; m < k; m++)
		if (ws[m]->group_reporting && groupid[m] == groupid[k])
			return m;
	return k;
}

/*
 * fio's steady state: each job with ss_dur (its devices' jobs added up; a
 * group's jobs under group_reporting, as fio) takes its totals; met, the
 * running jobs it covers are stopped.
 */
static void ss_step(const struct wave_env *env, struct workload **ws, const uint32_t *groupid,
		    unsigned int nws, const uint32_t *ids, const struct job *jobs, unsigned int n,
		    const unsigned int *wl, double t0)
{
	for (unsigned int k = 0; k < nws; k++) {
		uint64_t ios = 0, bytes = 0;

		if (!ws[k]->ss.dur_ns || ss_holder(ws, groupid, k) != k)
			continue;
		if (!ws[k]->ss_run) {
			ws[k]->ss_run = xcalloc(1, sizeof(*ws[k]->ss_run));
			/* fio's epoch: after the startdelay. */
			ss_start(ws[k]->ss_run, &ws[k]->ss, t0 + ws[k]->p.startdelay_ns / 1e9);
		}
		if (ws[k]->ss_run->attained)
			continue;
		for (unsigned int i = 0; i < n; i++)
			if (ss_holder(ws, groupid, wl[i]) == k) {
				ios += job_ios(&jobs[i]);
				bytes += job_bytes(&jobs[i]);
			}
		if (!ss_feed(ws[k]->ss_run, now_s(), ios, bytes))
			continue;
		for (unsigned int i = 0; i < n; i++)
			if (ss_holder(ws, groupid, wl[i]) == k && jobs[i].state == BLKLOAD_STATE_RUNNING &&
			    job_simple(env->nl, BLKLOAD_CMD_JOB_STOP, ids[i]))
				bl_nl_perror(env->nl, "stop");
	}
}

/*
 * A wave of workloads @ws on the module: their jobs made, started together
 * and waited for. With nothing to show while they run (no terminal, no
 * --status-interval), it does not read them every second: it sleeps on
 * their done events (the module multicasts one as each job ends) and reads
 * them when every job still running said it ended, or before a sample ring
 * could fill (quiet_ms()). So the CLI takes next to no CPU from the queues
 * it measures (128 jobs read every second took 8% of 2 CPUs under TCG).
 * Returns 0, 1 (a job failed) or -1 (nothing to report
 * from it). Ctrl-C stops the wave (the run ends after it); a second one
 * detaches its jobs (r->detached).
 */
static int kernel_wave(const struct wave_env *env, struct workload **ws, const uint32_t *groupid,
		       unsigned int nws, struct results *r)
{
	struct bl_nl *nl = env->nl;
	struct nl_sock *ev = env->ev;
	bool tty = isatty(STDERR_FILENO) && !env->json;
	struct workload agg = *ws[0];
	unsigned int n = 0, total = 0, k = 0;
	uint32_t *ids;
	struct job *jobs = NULL;
	double t0, last_shown, prev_t, stop_t = 0;
	uint64_t prev_ios = 0, prev_bytes = 0, start_ms;
	bool stopped = false, read = true;
	unsigned int live = 0;
	int told = 0;	/* done events since the last reading */
	double last_read = 0;
	struct series *ser;
	size_t *shown = NULL;
	unsigned int *wl;	/* each job's workload */
	bool *ended, *whom;	/* exitall: ends seen, workloads to stop */
	bool ss_any = false;	/* a steady state check: the jobs are read often */
	uint64_t ss_ns = 0;	/* ... every tenth of its shortest interval */
	int done, rc = -1;

	/* The wave ends with its longest job: ramp, runtime, drain of the longest. */
	for (unsigned int i = 0; i < nws; i++) {
		total += ws[i]->nr_devs;
		agg.p.ramp_ns = ws[i]->p.ramp_ns > agg.p.ramp_ns ? ws[i]->p.ramp_ns : agg.p.ramp_ns;
		agg.p.runtime_ns = ws[i]->p.runtime_ns > agg.p.runtime_ns ? ws[i]->p.runtime_ns : agg.p.runtime_ns;
		agg.drain_ms = ws[i]->drain_ms > agg.drain_ms ? ws[i]->drain_ms : agg.drain_ms;
		agg.p.startdelay_ns = ws[i]->p.startdelay_ns > agg.p.startdelay_ns ?
				      ws[i]->p.startdelay_ns : agg.p.startdelay_ns;
		ss_any |= ws[i]->ss.dur_ns != 0;
		if (ws[i]->ss.dur_ns && (!ss_ns || ws[i]->ss.interval_ns / 10 < ss_ns))
			ss_ns = ws[i]->ss.interval_ns / 10;
		/* The shortest --status-interval of the wave's workloads. */
		if (ws[i]->status_ns && (!agg.status_ns || ws[i]->status_ns < agg.status_ns))
			agg.status_ns = ws[i]->status_ns;
	}
	ids = xcalloc(total, sizeof(*ids));
	ser = xcalloc(total, sizeof(*ser));
	wl = xcalloc(total, sizeof(*wl));
	ended = xcalloc(total, sizeof(*ended));
	whom = xcalloc(nws, sizeof(*whom));
	for (unsigned int i = 0; i < nws; i++)
		for (unsigned int d = 0; d < ws[i]->nr_devs; d++, n++) {
			bool smp;

			wl[n] = i;
			if (job_new(nl, ws[i], ws[i]->devs[d], &ids[n], &smp)) {
				if (nws > 1)
					fprintf(stderr, "blkload: in job [%s]\n", ws[i]->name);
				goto out_del;
			}
			ser[n].interval = smp ? ws[i]->p.sample_ns : 0;
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
		if (now_s() - t0 >= agg.p.ramp_ns / 1e9)
			cpu_window_start(&r->cw);
		if (read || interrupted) {
			done = jobs_get(nl, ids, n, jobs, false, false);
			if (done < 0)
				goto out_del;
			wave_samples(nl, ids, n, ws, ser, shown, env->json ? stderr : stdout, tty);
			live = n - (unsigned int)done;
			told = 0;
			last_read = now_s();
			exitall_stop(env, ws, groupid, nws, ids, jobs, n, wl, ended, whom, r);
			if (ss_any)
				ss_step(env, ws, groupid, nws, ids, jobs, n, wl, t0);
		}
		read = true;
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
		if (!r->cw.started && agg.p.ramp_ns) {
			double left = agg.p.ramp_ns / 1e9 - (now_s() - t0);

			events_wait(ev, left < 1.0 ? (int)(left * 1000) + 1 : 1000);
		} else {
			/* Samples are read at least every second: rings never overflow. */
			int ms = stopped ? 100 : 1000;

			if (agg.status_ns && agg.status_ns / 1000000 < (uint64_t)ms)
				ms = (int)(agg.status_ns / 1000000);
			/* A steady state value within a tenth of its interval. */
			if (ss_ns && ss_ns / 1000000 < (uint64_t)ms)
				ms = ss_ns / 1000000 > 10 ? (int)(ss_ns / 1000000) : 10;
			/*
			 * Nothing to show, and before the wave's end by its
			 * runtime (after it, every second as before): a reading
			 * when all told their end (a lost event: a receive
			 * error), or for the rings; awake every second for
			 * Ctrl-C.
			 */
			if (ev && !tty && !agg.status_ns && !stopped && !env->exitall && !ss_any &&
			    (!agg.p.runtime_ns || now_s() - t0 < (agg.p.startdelay_ns + agg.p.ramp_ns +
								  agg.p.runtime_ns) / 1e9)) {
				double span = quiet_ms(jobs, n) / 1e3;
				double left = span - (now_s() - last_read);
				int got = left > 0 ? events_wait(ev, left < 1.0 ? (int)(left * 1000) + 1 :
								 1000) : 0;

				told = got < 0 ? (int)n : told + got;
				read = told >= (int)live || now_s() - last_read >= span;
			} else {
				events_wait(ev, ms);
			}
		}
	}
	if (tty && last_shown > t0)
		fputs("\r\033[K", stderr);
	if (jobs_get(nl, ids, n, jobs, true, agg.ro.queues) < 0)
		goto out_del;
	wave_samples(nl, ids, n, ws, ser, shown, env->json ? stderr : stdout, tty);
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
			out[i].group_reporting = ws[k]->group_reporting;
			region_note(ws[k], r, &out[i]);
			job_rate_min_note(&out[i], ws[k]->name);
			out[i].logs = &ws[k]->logs;
			if (ws[k]->ss.dur_ns)
				out[i].ss = ws[ss_holder(ws, groupid, k)]->ss_run;
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
	free(wl);
	free(ended);
	free(whom);
	return rc;
}

/* start: every job made and started, their ids printed; nothing waits. */
static int kernel_start(const struct wave_env *env, struct workload *ws, unsigned int nws)
{
	struct bl_nl *nl = env->nl;
	unsigned int total = 0, n = 0;
	uint32_t *ids;
	const char **dev;
	bool *owned;	/* made owned (--start-at): detached once started */
	int rc = 1;

	for (unsigned int i = 0; i < nws; i++)
		total += ws[i].nr_devs;
	ids = xcalloc(total, sizeof(*ids));
	dev = xcalloc(total, sizeof(*dev));
	owned = xcalloc(total, sizeof(*owned));
	for (unsigned int i = 0; i < nws; i++)
		for (unsigned int d = 0; d < ws[i].nr_devs; d++, n++) {
			dev[n] = ws[i].devs[d];
			owned[n] = ws[i].start_at_ns;
			bool smp;

			if (job_new(nl, &ws[i], dev[n], &ids[n], &smp))
				goto out_del;
		}
	if (ws[0].start_at_ns) {
		catch_signals();
		if (start_at_wait(ws[0].start_at_ns, &interrupted))
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
		struct out *o = out_new(stdout, env->json, env->pretty);

		out_begin_array(o, "jobs", NULL);
		for (unsigned int i = 0; i < n; i++) {
			out_begin_object(o, NULL, NULL);
			out_u64(o, "job_id", NULL, ids[i], NULL);
			out_str(o, "device", NULL, dev[i]);
			out_end_object(o);
			if (!env->json)
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


const struct engine_ops eng_kernel = {
	.name = "kernel",
	.help = "the blkload module: bios from per-CPU kernel threads",
	.req = BLKLOAD_REQ_FUA | BLKLOAD_REQ_PREFLUSH | BLKLOAD_REQ_HIPRI | BLKLOAD_REQ_NOWAIT |
	       BLKLOAD_REQ_WRITE_ZEROES,
	.trim = true,
	.together = true,
	.live = true,
	.netlink = true,
	.wave = kernel_wave,
	.start = kernel_start,
};
