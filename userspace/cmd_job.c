// SPDX-License-Identifier: GPL-2.0
/*
 * blkload stop | stats | list | monitor: the module's jobs by id, and its
 * events. run and start are in cmd_run.c, the requests in jobctl.c.
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
#include "jobctl.h"
#include "workload.h"
#include "cpu.h"
#include "engines/engine.h"

/* stop's and stats' options (parsing and completion) */
const struct option ids_opts[] = {
	{ "percentile_list", required_argument, NULL, OPT_PERCENTILES },
	{ "per-cpu", no_argument, NULL, OPT_PER_CPU },
	{ "drain-timeout", required_argument, NULL, OPT_DRAIN },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

const struct option stats_opts[] = {
	{ "percentile_list", required_argument, NULL, OPT_PERCENTILES },
	{ "per-cpu", no_argument, NULL, OPT_PER_CPU },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* stop, stats: ID [ID ...] with report options. */
static int ids_cmd(struct ctx *ctx, int argc, char **argv, bool stop)
{
	struct workload w = { 0 };
	const struct option *opts = stop ? ids_opts : stats_opts;
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
		report_all(ctx, jobs, got, &w, NULL, NULL, NULL, 0);
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
			uint64_t ios = job_ios(j);

			if (!ctx->json) {
				char *st = xasprintf("%s%s", state_name(j->state),
						     j->deleted ? "*" : "");

				printf("%-6u %-20s %-9s %-10s %-9s %8u %7u %-8s %9.1fs %12" PRIu64 "\n",
				       j->id, j->path, st, reason_name(j->reason),
				       rw_name(j->p.rw), j->p.bs, j->p.iodepth, j->cpus,
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
			out_str(o, "rw", NULL, rw_name(j->p.rw));
			out_u64(o, "bs", NULL, j->p.bs, NULL);
			out_u64(o, "iodepth", NULL, j->p.iodepth, NULL);
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
		out_s64(o, "error", NULL, -j.error, NULL);
		out_u64(o, "ios", NULL, job_ios(&j), NULL);
		out_u64(o, "elapsed_ns", NULL, j.elapsed, NULL);
		out_free(o);
	} else {
		printf("job %u %s: done (%s)%s%s, %" PRIu64 " IOs in %.3f s\n", j.id, j.path,
		       reason_name(j.reason), j.error ? ", error " : "",
		       j.error ? strerror(-j.error) : "",
		       job_ios(&j), (double)j.elapsed / 1e9);
	}
	fflush(stdout);
	job_clear(&j);
	m->seen++;
	return NL_OK;
}

/* monitor's options */
const struct option monitor_opts[] = {
	{ "count", required_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_monitor(struct ctx *ctx, int argc, char **argv)
{
	struct monitor_ctx m = { .ctx = ctx };
	uint64_t count = 0;
	struct bl_nl nl;
	int c, grp, ret;

	optind = 0;	/* 0: glibc rescans the option string (no "+") */
	while ((c = getopt_long(argc, argv, "c:h", monitor_opts, NULL)) != -1) {
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
		fprintf(stderr,
			"blkload: monitor: cannot join the '%s' group (it needs CAP_SYS_ADMIN; "
			"on a kernel that cannot restrict a group to it the module offers none)\n",
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
