// SPDX-License-Identifier: GPL-2.0
/*
 * blkload prefill: write a device (or a region of it) once, front to back,
 * so that every block is allocated before a measurement (a thin RBD image
 * answers reads of never-written objects without touching an OSD). One
 * module job: one CPU queue, so the written part is always a prefix. A
 * progress bar while it runs, the rate at the end; Ctrl-C stops it after
 * the IO in flight has completed and prints the --offset that resumes it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/socket.h>

#include "blkload.h"
#include "jobctl.h"
#include "nl.h"
#include "out.h"
#include "parse.h"
#include "util.h"
#include "workload.h"

enum { PF_DEV = 256, PF_BS, PF_IODEPTH, PF_OFFSET, PF_SIZE, PF_CPU, PF_FORCE, PF_QUIET };

const struct option prefill_opts[] = {
	{ "dev", required_argument, NULL, PF_DEV },
	{ "bs", required_argument, NULL, PF_BS },
	{ "iodepth", required_argument, NULL, PF_IODEPTH },
	{ "offset", required_argument, NULL, PF_OFFSET },
	{ "size", required_argument, NULL, PF_SIZE },
	{ "cpu", required_argument, NULL, PF_CPU },
	{ "force", no_argument, NULL, PF_FORCE },
	{ "quiet", no_argument, NULL, PF_QUIET },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void prefill_usage(FILE *f)
{
	fputs("usage: blkload [-j] prefill --dev DEV [--bs SIZE] [--iodepth N] [--offset SIZE]\n"
	      "                          [--size SIZE] [--cpu N] [--force] [--quiet]\n"
	      "Write DEV once, front to back, so every block is allocated before a test.\n"
	      "  --dev DEV      the device (required); it is overwritten\n"
	      "  --bs SIZE      write size (1m)\n"
	      "  --iodepth N    writes in flight (8)\n"
	      "  --offset SIZE  where to start: resumes an interrupted prefill (0)\n"
	      "  --size SIZE    how much to write (to the end of the device)\n"
	      "  --cpu N        the CPU of the one queue (the first online)\n"
	      "  --force        write even to a mounted or claimed device\n"
	      "  --quiet        no progress bar\n"
	      "Ctrl-C stops once the writes in flight are done and prints the --offset to resume\n"
	      "from: every block before it was written (it is up to iodepth x bs before the\n"
	      "end of what was written, as a refused write may leave a hole there).\n"
	      "The data is random, each sector stamped (as every blkload write's).\n",
	      f);
}

/* The progress bar: a line redrawn in place on a terminal, one per 10% elsewhere. */
static void bar(bool tty, uint64_t done, uint64_t total, double el, int *last_tenth)
{
	double frac = total ? (double)done / (double)total : 1, rate = el > 0 ? done / el : 0;
	char *d = fmt_num((double)done, true, "B"), *t = fmt_num((double)total, true, "B");
	char *r = fmt_num(rate, true, "B/s");
	int width = 30, fill = (int)(frac * width);

	if (tty) {
		fprintf(stderr, "\r\033[Kprefill [%.*s%*s] %5.1f%% %s/%s %s", fill,
			"##############################", width - fill, "", 100 * frac, d, t, r);
		if (rate > 0 && done < total)
			fprintf(stderr, " eta %.0fs", (double)(total - done) / rate);
	} else if ((int)(frac * 10) > *last_tenth) {
		*last_tenth = (int)(frac * 10);
		fprintf(stderr, "prefill: %.0f%% %s/%s %s\n", 100 * frac, d, t, r);
	}
	free(d);
	free(t);
	free(r);
}

struct pass {
	uint64_t written, errors, size, offset;
	int error;
	char *path;
	bool stopped;
};

/*
 * One job over @w's region (one pass of the module's default); the bar
 * counts @before already written of @total. Returns 0 or -1 (said why).
 */
static int prefill_pass(struct bl_nl *nl, struct nl_sock *ev, const struct workload *w,
			bool tty, bool quiet, uint64_t before, uint64_t total, double t0,
			int *last_tenth, struct pass *p)
{
	struct job job = { 0 };
	uint32_t id = 0;
	int done, rc = -1;
	bool smp;

	if (job_new(nl, w, w->devs[0], &id, &smp))
		return -1;
	if (jobs_start(nl, &id, 1)) {
		bl_nl_perror(nl, "prefill");
		goto out;
	}
	for (;;) {
		job_clear(&job);
		done = jobs_get(nl, &id, 1, &job, false, false);
		if (done < 0)
			goto out;
		if (done == 1)
			break;
		if (interrupted && !p->stopped) {
			if (job_simple(nl, BLKLOAD_CMD_JOB_STOP, id))
				bl_nl_perror(nl, "stop");
			p->stopped = true;
		}
		if (!quiet)
			bar(tty, before + job.op[OP_WRITE].bytes, total ? total : job.p.size,
			    now_s() - t0, last_tenth);
		events_wait(ev, p->stopped ? 100 : 500);
	}
	p->written = job.op[OP_WRITE].bytes;
	p->errors = job.op[OP_WRITE].errors;
	p->size = job.p.size;
	p->offset = job.p.offset;
	p->error = job.error;
	if (!p->path)
		p->path = xstrdup(job.path);
	rc = 0;
out:
	jobs_del(nl, &id, 1);
	job_clear(&job);
	return rc;
}

int cmd_prefill(struct ctx *ctx, int argc, char **argv)
{
	struct workload w = { 0 };
	bool quiet = false, tty;
	struct pass p = { 0 }, tail = { 0 };
	int c, rc = 1, last_tenth = 0;
	uint64_t written, next, size, start, window;
	struct nl_sock *ev = NULL;
	struct bl_nl nl;
	uint32_t cpu;
	double t0, el;
	struct out *o;

	w.p.rw = BLKLOAD_RW_WRITE;
	w.p.bs = 1 << 20;
	w.p.iodepth = 8;
	w.p.allow_write = true;	/* the command says so */
	w.drain_ms = 60000;
	optind = 0;	/* 0: glibc rescans the option string (no "+") */
	while ((c = getopt_long(argc, argv, "h", prefill_opts, NULL)) != -1) {
		uint64_t v;

		switch (c) {
		case PF_DEV:
			w.devs = xrealloc(w.devs, sizeof(*w.devs));
			w.devs[0] = optarg;
			w.nr_devs = 1;
			break;
		case PF_BS:
			if (parse_size(optarg, &v) || !v || v > UINT32_MAX) {
				fprintf(stderr, "blkload: prefill: --bs %s: a size such as 1m\n", optarg);
				goto out;
			}
			w.p.bs = (uint32_t)v;
			break;
		case PF_IODEPTH:
			if (parse_u32_range(optarg, 1, 65536, &w.p.iodepth)) {
				fprintf(stderr, "blkload: prefill: --iodepth %s: 1 to 65536\n", optarg);
				goto out;
			}
			break;
		case PF_OFFSET:
		case PF_SIZE:
			if (parse_size(optarg, c == PF_OFFSET ? &w.p.offset : &w.p.size)) {
				fprintf(stderr, "blkload: prefill: %s: a size\n", optarg);
				goto out;
			}
			break;
		case PF_CPU:
			if (parse_u32_range(optarg, 0, 65535, &cpu)) {
				fprintf(stderr, "blkload: prefill: --cpu %s: a CPU number\n", optarg);
				goto out;
			}
			cpuset_set(&w.cpus, cpu);
			w.have_cpus = true;
			break;
		case PF_FORCE:
			w.p.force = true;
			break;
		case PF_QUIET:
			quiet = true;
			break;
		case 'h':
			prefill_usage(stdout);
			rc = 0;
			goto out;
		default:
			rc = 2;
			goto out;
		}
	}
	if (optind < argc || !w.nr_devs) {
		if (optind < argc)
			fprintf(stderr, "blkload: prefill: unexpected argument '%s'\n", argv[optind]);
		else
			fputs("blkload: prefill: --dev DEV is required\n", stderr);
		rc = 2;
		goto out;
	}
	if (bl_nl_open(&nl))
		goto out;
	ev = events_open();
	catch_signals();
	tty = isatty(STDERR_FILENO) && !quiet;
	t0 = now_s();
	start = w.p.offset;
	if (prefill_pass(&nl, ev, &w, tty, quiet, 0, 0, t0, &last_tenth, &p))
		goto out_close;
	size = p.size;
	written = p.written;
	window = (uint64_t)w.p.iodepth * w.p.bs;
	/* The region's last part shorter than bs (the module writes whole blocks). */
	if (!p.stopped && !p.error && written == size / w.p.bs * w.p.bs && size % w.p.bs) {
		w.p.offset = p.offset + written;
		w.p.size = size % w.p.bs;
		w.p.bs = (uint32_t)w.p.size;
		w.p.iodepth = 1;
		if (prefill_pass(&nl, ev, &w, tty, quiet, written, size, t0, &last_tenth, &tail))
			goto out_close;
		written += tail.written;
		p.errors += tail.errors;
		p.error = p.error ? p.error : tail.error;
		p.stopped |= tail.stopped;
	}
	el = now_s() - t0;
	if (tty)
		fputs("\r\033[K", stderr);
	else if (!quiet)
		bar(false, written, size, el, &last_tenth);	/* where it ended */
	/*
	 * The prefix certainly written. Blocks go in order with iodepth in
	 * flight, so every block one window before the last issued was done. A
	 * stop drains the IO in flight, but a bio the device refused for now
	 * (REQ_NOWAIT, to be sent again) is dropped: a hole inside the last
	 * window. After an error, two windows.
	 */
	next = start + written;
	if (p.error || p.errors)
		next = start + (written > 2 * window ? written - 2 * window : 0);
	else if (written != size)
		next = start + (written > window ? written - window : 0);
	o = out_new(stdout, ctx->json, ctx->pretty);
	out_str(o, "device", "device", p.path);
	out_u64(o, "offset", "from offset", start, NULL);
	out_u64(o, "size", "region", size, NULL);
	out_u64(o, "written", "written", written, NULL);
	out_double(o, "seconds", "seconds", el, 3, NULL);
	out_double(o, "bw_bytes", "bytes/s", el > 0 ? (double)written / el : 0, 0, NULL);
	out_u64(o, "errors", "errors", p.errors, NULL);
	out_u64(o, "next_offset", "resume with --offset", next, NULL);
	out_bool(o, "complete", "complete", written == size && !p.error && !p.errors);
	out_free(o);
	if (written != size || p.error || p.errors) {
		if (p.error)
			fprintf(stderr, "blkload: prefill: %s\n", strerror(-p.error));
		fprintf(stderr, "blkload: prefill: not complete; resume with --offset %" PRIu64 "\n",
			next);
	} else {
		rc = 0;
	}
out_close:
	if (ev)
		nl_socket_free(ev);
	bl_nl_close(&nl);
out:
	free(p.path);
	free(tail.path);
	cpuset_free(&w.cpus);
	free(w.devs);
	return rc;
}
