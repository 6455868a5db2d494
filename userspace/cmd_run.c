// SPDX-License-Identifier: GPL-2.0
/*
 * blkload run | start: a workload from the command line, or fio job files.
 * One job is made per --dev (per --filename device); the jobs of a job
 * file's wave start together, the waves (stonewall) one after the other;
 * "--ioengine NAME" picks the client path (engines/): the module (kernel,
 * the default) or a userspace engine.
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
 * One job of the plan from its options, in wave @wave and group @gid, and
 * as fio's numjobs=N says, N copies of it: each a job of its own (its seed
 * apart, its CPU placed, workload_place()), reported apart unless
 * group_reporting sums the group. Each copy is parsed from the same options.
 */
static int plan_add(struct plan *p, int argc, char **argv, const char *cmd, uint32_t wave,
		    uint32_t gid, bool jobfiles)
{
	unsigned int copies = 1;

	for (unsigned int k = 0; k < copies; k++) {
		struct workload *w;
		int ret;

		p->w = xrealloc(p->w, (p->nw + 1) * sizeof(*p->w));
		p->wave = xrealloc(p->wave, (p->nw + 1) * sizeof(*p->wave));
		p->groupid = xrealloc(p->groupid, (p->nw + 1) * sizeof(*p->groupid));
		w = &p->w[p->nw];
		memset(w, 0, sizeof(*w));
		p->wave[p->nw] = wave;
		p->groupid[p->nw] = gid;
		ret = jobfiles ? workload_parse_args(w, argc, argv, cmd, true) :
				 workload_parse(w, argc, argv, cmd);
		p->nw++;
		if (ret)
			return ret;
		if (!k && w->numjobs > 1)
			copies = w->numjobs;
		workload_place(w, k);
	}
	return 0;
}

/* fio's --name (or -name): 1 with its value joined ("--name=x"), 2 with it next, 0 not. */
static int name_opt(const char *a)
{
	if (a[0] != '-' || !a[1])
		return 0;
	a += a[1] == '-' ? 2 : 1;
	if (!strcmp(a, "name"))
		return 2;
	return !strncmp(a, "name=", 5);
}

/* The value of the --name option at argv[@i] ("--name=x" or "--name x"). */
static const char *name_value(int argc, char **argv, int i)
{
	const char *eq = strchr(argv[i], '=');

	if (eq)
		return eq + 1;
	return i + 1 < argc ? argv[i + 1] : "";
}

/* Where fio's --name options stand in @argv (up to "--"): their count, indexes in @at. */
static unsigned int name_args(int argc, char **argv, int *at)
{
	unsigned int n = 0;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		int k = name_opt(argv[i]);

		if (!k)
			continue;
		if (at)
			at[n] = i;
		n++;
		i += k == 2;
	}
	return n;
}

/*
 * fio's several jobs on one command line: each --name starts one, with the
 * options after it up to the next --name; those before the first apply to
 * every job (fio's global options). They run together, one reporting group,
 * as fio runs them; --stonewall (--wait_for_previous) and --new_group in a
 * job's options start a wave and a group, as in a job file.
 */
static int plan_cmdline(struct plan *p, int argc, char **argv, const char *cmd)
{
	int *at = xcalloc((size_t)argc, sizeof(*at));
	unsigned int nj = name_args(argc, argv, at);
	int end = argc, ret = 0;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			end = i;
			break;
		}
	uint32_t *waves = xcalloc(nj ? nj : 1, sizeof(*waves));

	for (unsigned int j = 0, wave = 0, gid = 0; j < nj && !ret; j++) {
		char **args = xcalloc((size_t)argc + 1, sizeof(*args));
		int to = j + 1 < nj ? at[j + 1] : end, n = 0;
		bool stonewall = false, new_group = false, wait = false;

		args[n++] = argv[0];
		for (int i = 1; i < at[0]; i++)
			args[n++] = argv[i];
		for (int i = at[j]; i < to; i++) {
			/* fio's stonewall and new_group, as in a job file (no value: the bare form). */
			const char *o = argv[i] + (argv[i][0] == '-') + (argv[i][1] == '-');

			if (argv[i][0] == '-' && (!strcmp(o, "stonewall") || !strcmp(o, "wait_for_previous"))) {
				stonewall = true;
				continue;
			}
			if (argv[i][0] == '-' && !strcmp(o, "new_group")) {
				new_group = true;
				continue;
			}
			/* fio's wait_for=NAME: the wave after the named job's, as in a job file. */
			if (argv[i][0] == '-' && (!strncmp(o, "wait_for=", 9) ||
						  (!strcmp(o, "wait_for") && i + 1 < to))) {
				const char *want = o[8] == '=' ? o + 9 : argv[++i];
				int found = -1;

				for (unsigned int k = 0; k < j; k++)
					if (!strcmp(name_value(argc, argv, at[k]), want))
						found = (int)k;
				if (found < 0) {
					fprintf(stderr, "blkload: %s: job %u of the command line: wait_for=%s: no job of that name before it\n",
						cmd, j + 1, want);
					ret = -2;
					break;
				}
				wait |= waves[found] == wave;
				continue;
			}
			args[n++] = argv[i];
		}
		if (ret) {
			free(args);
			break;
		}
		if (j) {
			wave += stonewall || wait;
			gid += stonewall || new_group;
		}
		waves[j] = wave;
		ret = plan_add(p, n, args, cmd, wave, gid, false);
		free(args);
		if (ret < 0)
			fprintf(stderr, "blkload: %s: in job %u of the command line (%s)\n", cmd, j + 1,
				argv[at[j]]);
	}
	free(waves);
	free(at);
	/* 1: --help or --cmdhelp answered. */
	return ret > 0 ? 1 : ret ? -1 : 0;
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
		ret = plan_add(p, n, args, cmd, jj->wave, jj->groupid, false);
		free(args);
		if (ret) {
			fprintf(stderr, "blkload: %s: in job [%s]\n", cmd, jj->name);
			return -1;
		}
	}
	return 0;
}

/* Whether @name is one of fio's engines (fio --enghelp, fio 3.33 and later ones). */
static bool fio_engine(const char *name)
{
	static const char *const fio_engines[] = {
		"cpuio", "mmap", "null", "net", "netsplice", "ftruncate", "filecreate", "filestat",
		"filedelete", "dircreate", "dirstat", "dirdelete", "exec", "falloc", "e4defrag",
		"splice", "gfapi", "gfapi_async", "mtd", "sg", "io_uring_cmd", "nbd", "rdma", "rados",
		"pmemblk", "dev-dax", "libpmem", "libhdfs", "libiscsi", "libzbc", "http", "nfs",
		"windowsaio", "solarisaio", "binject", "guasi", "librpma_apm_client",
		"librpma_apm_server", "librpma_gpspm_client", "librpma_gpspm_server", "xnvme",
		"libblkio", "libcufile", "ime_psync", "ime_psyncv", "ime_aio", "cpp_null",
		"external", "spdk",
	};

	for (size_t i = 0; i < sizeof(fio_engines) / sizeof(fio_engines[0]); i++)
		if (!strcmp(name, fio_engines[i]))
			return true;
	return !strncmp(name, "external:", 9);
}

/* @s for a shell: as it is when it holds nothing a shell reads, else in single quotes. */
static void shell_word(const char *s)
{
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,+%@-") ==
		  strlen(s)) {
		fputs(s, stdout);
		return;
	}
	putchar('\'');
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*s);
	putchar('\'');
}

/*
 * fio's --showcmd: the job files as one command line that runs the same
 * jobs (blkload's and fio's names, [global] folded into each job; a new
 * wave is --stonewall, a new group --new_group, as the command line reads
 * them).
 */
static int showcmd(const struct workload *cl, int argc, char **argv)
{
	struct jobfile jf = { 0 };
	int rc = 2;

	for (unsigned int f = 0; f < cl->nr_jobfiles; f++)
		if (jobfile_read(&jf, cl->jobfiles[f], workload_option_known))
			goto out;
	fputs("blkload fio", stdout);
	for (unsigned int j = 0; j < jf.nr; j++) {
		const struct jobfile_job *jj = &jf.jobs[j];

		for (unsigned int a = 0; a < jj->argc; a++) {
			const char *o = jj->argv[a];

			/* As a run takes them: the command line's devices and name replace the file's. */
			if (a && ((cl->nr_devs && (!strncmp(o, "--filename=", 11) ||
						   !strncmp(o, "--dev=", 6))) ||
				  (cl->name && !strncmp(o, "--name=", 7))))
				continue;
			putchar(' ');
			shell_word(o);
			/* After its --name: where a job's own options begin. */
			if (!a && j && jj->wave != jf.jobs[j - 1].wave) {
				fputs(" --stonewall", stdout);
				if (jj->groupid == jf.jobs[j - 1].groupid)
					fprintf(stderr, "blkload: --showcmd: job [%s]: its wait_for is --stonewall on a command line, which also starts a reporting group\n",
						jj->name);
			}
			else if (!a && j && jj->groupid != jf.jobs[j - 1].groupid)
				fputs(" --new_group", stdout);
		}
		/* Then the command line's options, which apply to every job and win. */
		for (int a = 1; a < argc; a++) {
			bool skip = !strcmp(argv[a], "--showcmd") || !strcmp(argv[a], "-showcmd");

			for (unsigned int f = 0; f < cl->nr_jobfiles; f++)
				skip |= argv[a] == cl->jobfiles[f];
			if (skip)
				continue;
			putchar(' ');
			shell_word(argv[a]);
		}
	}
	putchar('\n');
	rc = 0;
out:
	jobfile_free(&jf);
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
		if (series_write_logs(lg, &jobs[i].ser, jobs[i].p.bs, i + 1))
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
	bool netlink = false, nl_open = false, parse_only = false;
	struct wave_env env = { .nl = &nl, .json = ctx->json, .pretty = ctx->pretty };
	uint32_t nwaves = 0;
	unsigned int wave_first = 0;
	char **devs = NULL;
	unsigned int ndevs = 0;
	int ret, rc = 2;

	memset(&cl, 0, sizeof(cl));
	if (name_args(argc, argv, NULL) > 1) {
		/* fio's jobs on the command line, one per --name. */
		ret = plan_cmdline(&p, argc, argv, cmd);
		if (ret) {
			rc = ret > 0 ? 0 : 2;
			goto out;
		}
		/* --showcmd prints job files; jobs on the command line are not run instead. */
		for (unsigned int i = 0; i < p.nw; i++)
			if (p.w[i].showcmd) {
				fprintf(stderr, "blkload: %s: --showcmd turns job files into a command line: give one\n",
					cmd);
				goto out;
			}
	} else if ((ret = workload_parse_args(&cl, argc, argv, cmd, true))) {
		workload_free(&cl);
		return ret > 0 ? 0 : 2;
	} else if (cl.showcmd) {
		if (!cl.nr_jobfiles)
			fprintf(stderr, "blkload: %s: --showcmd turns job files into a command line: give one\n",
				cmd);
		else
			rc = showcmd(&cl, argc, argv);
		goto out;
	} else if (cl.nr_jobfiles) {
		if (plan_files(&p, &cl, argc, argv, cmd))
			goto out;
		workload_free(&cl);
	} else {
		workload_free(&cl);
		memset(&cl, 0, sizeof(cl));
		/* Parsed again in plan_add(), once per numjobs copy. */
		if (plan_add(&p, argc, argv, cmd, 0, 0, true))
			goto out;
	}
	memset(&cl, 0, sizeof(cl));
	w0 = &p.w[0];
	for (unsigned int i = 0; i < p.nw; i++) {
		struct workload *w = &p.w[i];
		const struct engine_ops *ops;
		unsigned int in_wave = 0;

		w->bins |= ctx->json_plus;
		w->p.detached = detached;
		/* Nobody reads a detached job's samples unless they were asked for. */
		if (detached && !w->sample_given)
			w->p.sample_ns = 0;
		ops = engine_find(w->engine);
		if (!ops && fio_engine(w->engine)) {
			fprintf(stderr, "blkload: %s: --ioengine=%s: fio's %s engine is not a block-device path blkload drives (its engines: kernel, io_uring, libaio, librbd; fio's psync, sync, pvsync, pvsync2, vsync and posixaio run on libaio)\n",
				cmd, w->engine, w->engine);
			goto out;
		}
		if (!ops) {
			fprintf(stderr, "blkload: --ioengine '%s': no such engine; there are:\n",
				w->engine);
			engine_list(stderr);
			goto out;
		}
		/* fio's direct=0: the page cache, which the module's bios do not go through. */
		if (w->buffered && ops->netlink) {
			fprintf(stderr, "blkload: %s: %s%s%sdirect=0 (buffered IO through the page cache): the module's bios do not go through it; --ioengine=libaio or io_uring does it, as fio does\n",
				cmd, w->name ? "job [" : "", w->name ? w->name : "",
				w->name ? "]: " : "");
			goto out;
		}
		/* What a request through the page cache is not: polled, FUA, nowait, zeroes. */
		if (w->buffered && !ops->images &&
		    (w->p.req & (BLKLOAD_REQ_HIPRI | BLKLOAD_REQ_FUA | BLKLOAD_REQ_NOWAIT |
				 BLKLOAD_REQ_PREFLUSH | BLKLOAD_REQ_WRITE_ZEROES))) {
			char *names = req_names(w->p.req & (BLKLOAD_REQ_HIPRI | BLKLOAD_REQ_FUA |
							    BLKLOAD_REQ_NOWAIT |
							    BLKLOAD_REQ_PREFLUSH |
							    BLKLOAD_REQ_WRITE_ZEROES));

			fprintf(stderr, "blkload: %s: direct=0 (buffered IO) with %s: those are the device's requests, which the page cache does not pass on; direct=1 has them\n",
				cmd, names);
			free(names);
			goto out;
		}
		if (w->buffered && w->p.verify && !w->clone)
			fprintf(stderr, "blkload: %s: direct=0 with verify: the reads back come from the page cache, not the device (as fio's)\n",
				cmd);
		if (w->buffered && ops->images) {
			fprintf(stderr, "blkload: %s: %s%s%sdirect=0 ignored on librbd, as fio's rbd engine does: its cache is rbd_cache (ceph.conf)\n",
				cmd, w->name ? "job [" : "", w->name ? w->name : "",
				w->name ? "]: " : "");
			w->buffered = false;
		}
		netlink |= ops->netlink;
		nwaves = p.wave[i] + 1 > nwaves ? p.wave[i] + 1 : nwaves;
		/* A wave's jobs stand together in the plan, in order. */
		if (!i || p.wave[i] != p.wave[i - 1])
			wave_first = i;
		in_wave = i > wave_first || (i + 1 < p.nw && p.wave[i + 1] == p.wave[i]) ? 2 : 1;
		/* The module's jobs and the userspace engines' are run apart. */
		if (engine_find(p.w[wave_first].engine)->netlink != ops->netlink) {
			fprintf(stderr, "blkload: %s: job [%s]: jobs that run together run on the module or on userspace engines, not both: 'stonewall' runs them one after the other, or --ioengine on the command line puts every job on one\n",
				cmd, w->name ? w->name : "?");
			goto out;
		}
		if (!ops->together && in_wave > 1) {
			fprintf(stderr, "blkload: %s: job [%s]: the %s engine runs one job at a time: 'stonewall' runs them one after the other\n",
				cmd, w->name ? w->name : "?", w->engine);
			goto out;
		}
		/* fio's rule: one steady state check a reporting group, the same options. */
		for (unsigned int k = 0; k < i && w->group_reporting; k++)
			if (p.w[k].group_reporting && p.groupid[k] == p.groupid[i] &&
			    !ss_opts_same(&p.w[k].ss, &w->ss)) {
				fprintf(stderr, "blkload: %s: job [%s]: the steady state options of a reporting group must be the same for its jobs (fio's rule)\n",
					cmd, w->name ? w->name : "?");
				goto out;
			}
		if (w->ss.dur_ns && !ops->netlink) {
			fprintf(stderr, "blkload: %s: job [%s]: fio's steady state (ss, ss_dur) is taken on the module's jobs only yet, not on the %s engine\n",
				cmd, w->name ? w->name : w->nr_devs ? w->devs[0] : "?", ops->name);
			goto out;
		}
		if (w->ss.dur_ns && detached) {
			fprintf(stderr, "blkload: start: fio's steady state (ss_dur) needs run: start leaves its jobs with nobody to check them\n");
			goto out;
		}
		if (detached && !ops->start) {
			fprintf(stderr, "blkload: start: the %s engine does not run detached (the kernel does)\n",
				ops->name);
			goto out;
		}
		/* The devices whose counters the report shows (not librbd's images). */
		if (ops->images)
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
	/* Detached jobs have no run to share a write claim: each claims the device. */
	for (unsigned int i = 0; detached && i < p.nw; i++)
		if (p.w[i].numjobs > 1 && bl_params_changes(&p.w[i].p) && !p.w[i].p.force &&
		    !w0->start_at_ns) {
			fprintf(stderr, "blkload: start: numjobs copies that write one device need run (or --start-at): detached jobs each claim the device\n");
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
	/*
	 * fio's --parse-only (given to any job): everything above, and each
	 * job's checks that need no device nor module, then exit.
	 */
	for (unsigned int i = 0; i < p.nw; i++)
		parse_only |= p.w[i].parse_only;
	if (parse_only) {
		for (unsigned int i = 0; i < p.nw; i++)
			if (engine_check(engine_find(p.w[i].engine), &p.w[i])) {
				/* Which job, when there is more than one or it has a name. */
				if (p.w[i].name || p.nw > 1)
					fprintf(stderr, "blkload: %s: in job [%s]\n", cmd,
						p.w[i].name ? p.w[i].name : "(no name)");
				goto out;
			}
		rc = 0;
		goto out;
	}
	rc = 1;
	if (netlink) {
		if (bl_nl_open(&nl))
			goto out;
		nl_open = true;
	}
	/*
	 * fio's dedupe_global: the jobs with it fill their pools as the first
	 * of them does and copy its set blocks (from its offset), so their
	 * copies dedupe against its writes; their unique writes stay their own.
	 */
	for (unsigned int i = 0, g = p.nw; i < p.nw; i++) {
		if (!p.w[i].dedupe_global)
			continue;
		if (g == p.nw)
			g = i;
		p.w[i].p.dedupe_seed = p.w[g].p.randseed ^ BL_DEDUPE_SEED_KEY;
		p.w[i].p.dedupe_base = p.w[i].p.dedupe_seed ? p.w[g].p.offset : 0;
	}
	if (detached) {
		for (unsigned int i = 0; i < p.nw; i++)
			if (p.w[i].exitall) {
				fprintf(stderr, "blkload: %s: exitall: start leaves its jobs running with nobody to stop the others when one ends; use run\n",
					cmd);
				goto out;
			}
		/* Every workload on one engine (checked above: the kernel alone starts). */
		rc = engine_find(w0->engine)->start(&env, p.w, p.nw);
		goto out;
	}
	/*
	 * The write guard before anything is made or counted: its probe reads
	 * the device, and those reads are not the run's (disks_begin()).
	 */
	for (unsigned int i = 0; i < p.nw; i++) {
		struct workload *w = &p.w[i];

		if (!bl_params_changes(&w->p) || w->p.force || engine_find(w->engine)->images)
			continue;
		for (unsigned int d = 0; d < w->nr_devs; d++) {
			/* Each device once (numjobs copies name the same ones). */
			bool seen = false;

			for (unsigned int k = 0; k < i && !seen; k++)
				for (unsigned int e = 0; p.w[k].guarded && e < p.w[k].nr_devs; e++)
					seen |= !strcmp(p.w[k].devs[e], w->devs[d]);
			if (!seen && bl_write_guard(w->devs[d]))
				goto out;
		}
		w->guarded = true;
	}
	rc = 2;
	if (open_output(w0))
		goto out;
	/* Joined before the start, so that no job-done event can be missed. */
	if (netlink)
		ev = events_open();
	env.ev = ev;
	/* fio's exitall is the run's once a job sets it; each end stops whom its exit_what names. */
	for (unsigned int i = 0; i < p.nw; i++)
		env.exitall |= p.w[i].exitall;
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
		wrc = engine_find(ws[0]->engine)->wave(&env, ws, gid, k, &r);
		for (unsigned int i = before; i < r.n; i++)
			r.jobs[i].wave = wave;
		free(ws);
		free(gid);
		r.waves++;
		if (wrc)
			rc = 1;
		if (wrc < 0 || interrupted || r.detached || r.end_all)
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
