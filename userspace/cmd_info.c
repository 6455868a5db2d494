// SPDX-License-Identifier: GPL-2.0
/*
 * blkload info: what the module is and what it allows.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "blkload.h"
#include "nl.h"
#include "out.h"

struct info {
	const char *version;
	const char *kernel;
	uint32_t abi, max_iodepth, max_bs, max_jobs, nr_jobs, nr_workers;
	uint64_t mem_budget, mem_used;
	struct out *o;
};

static int info_parse(struct nlattr **tb, void *arg)
{
	struct info *in = arg;
	struct out *o = in->o;

	in->version = nla_get_str_checked(tb[BLKLOAD_A_VERSION]);
	in->kernel = nla_get_str_checked(tb[BLKLOAD_A_KERNEL_RELEASE]);
	if (!in->version || !in->kernel ||
	    !nla_get_u32_checked(tb[BLKLOAD_A_ABI_VERSION], &in->abi) ||
	    !nla_get_u32_checked(tb[BLKLOAD_A_MAX_IODEPTH], &in->max_iodepth) ||
	    !nla_get_u32_checked(tb[BLKLOAD_A_MAX_BS], &in->max_bs) ||
	    !nla_get_u32_checked(tb[BLKLOAD_A_MAX_JOBS], &in->max_jobs) ||
	    !nla_get_u64_checked(tb[BLKLOAD_A_MEM_BUDGET], &in->mem_budget)) {
		fputs("blkload: info: the kernel's reply lacks a required attribute\n", stderr);
		return -1;
	}
	/* Newer attributes are optional so an older module still answers. */
	in->mem_used = 0;
	in->nr_jobs = 0;
	nla_get_u64_checked(tb[BLKLOAD_A_MEM_USED], &in->mem_used);
	nla_get_u32_checked(tb[BLKLOAD_A_NR_JOBS], &in->nr_jobs);
	in->nr_workers = 0;
	nla_get_u32_checked(tb[BLKLOAD_A_NR_WORKERS], &in->nr_workers);
	if (in->abi != BLKLOAD_ABI_VERSION)
		fprintf(stderr,
			"blkload: the module speaks netlink ABI %u, this CLI ABI %d: load the module that came with this CLI\n",
			in->abi, BLKLOAD_ABI_VERSION);

	out_str(o, "version", "module version", in->version);
	out_u64(o, "abi_version", "ABI version", in->abi, NULL);
	out_str(o, "kernel_release", "kernel", in->kernel);
	out_str(o, "cli_version", "CLI version", BLKLOAD_CLI_VERSION);
	out_u64(o, "cli_abi_version", NULL, BLKLOAD_ABI_VERSION, NULL);
	out_begin_object(o, "limits", "limits");
	out_u64(o, "max_iodepth", "iodepth per CPU", in->max_iodepth, NULL);
	out_bytes(o, "max_bs", "block size", in->max_bs);
	out_u64(o, "max_jobs", "jobs", in->max_jobs, NULL);
	out_bytes(o, "mem_budget", "memory budget", in->mem_budget);
	out_end_object(o);
	out_u64(o, "nr_jobs", "jobs now", in->nr_jobs, NULL);
	out_bytes(o, "mem_used", "memory pinned now", in->mem_used);
	out_u64(o, "nr_workers", "worker threads now", in->nr_workers, NULL);
	return 0;
}

/* info's options */
const struct option info_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_info(struct ctx *ctx, int argc, char **argv)
{
	struct info in = { 0 };
	struct bl_nl nl;
	struct nl_msg *msg;
	int c, ret;

	optind = 0;	/* 0: glibc rescans the option string (no "+") */
	while ((c = getopt_long(argc, argv, "h", info_opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			puts("usage: blkload [-j] info\n"
			     "Print the module's version, ABI version, kernel release and limits.");
			return 0;
		default:
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "blkload: info: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}

	if (bl_nl_open(&nl))
		return 1;
	msg = bl_nl_msg(&nl, BLKLOAD_CMD_INFO_GET, 0);
	if (!msg) {
		bl_nl_close(&nl);
		fputs("blkload: out of memory\n", stderr);
		return 1;
	}
	in.o = out_new(stdout, ctx->json, ctx->pretty);
	ret = bl_nl_talk(&nl, msg, info_parse, &in);
	if (ret < 0 && nl.error)
		bl_nl_perror(&nl, "info");
	out_free(in.o);
	bl_nl_close(&nl);
	return ret ? 1 : 0;
}
