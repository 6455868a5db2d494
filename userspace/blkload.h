/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkload CLI: shared state and the command table.
 */
#ifndef BLKLOAD_CLI_H
#define BLKLOAD_CLI_H

#include <stdbool.h>

#include <blkload/version.h>

/* The CLI and the module are one version (include/blkload/version.h). */
#define BLKLOAD_CLI_VERSION BLKLOAD_VERSION

struct ctx {
	bool json;
	bool json_plus;	/* json+: histogram bins too */
	bool normal_too;	/* json,normal: the text report after the JSON, as fio */
	bool pretty;
};

struct option;

struct cmd {
	const char *name;
	const char *args;
	const char *help;
	/* Returns the process exit status; argv[0] is the command name. */
	int (*fn)(struct ctx *ctx, int argc, char **argv);
	/* Its getopt table, for the completion (run and start: workload.c's). */
	const struct option *opts;
};

/* The commands' option tables: each parses its command and feeds the completion. */
extern const struct option ids_opts[], stats_opts[], monitor_opts[], compare_opts[], diff_opts[],
	info_opts[], plot_opts[], prefill_opts[], merge_opts[];

/* cmd_info.c */
int cmd_info(struct ctx *ctx, int argc, char **argv);

/* cmd_job.c */
int cmd_run(struct ctx *ctx, int argc, char **argv);
int cmd_start(struct ctx *ctx, int argc, char **argv);
int cmd_stop(struct ctx *ctx, int argc, char **argv);
int cmd_stats(struct ctx *ctx, int argc, char **argv);
int cmd_list(struct ctx *ctx, int argc, char **argv);
int cmd_monitor(struct ctx *ctx, int argc, char **argv);

/* cmd_compare.c, cmd_diff.c */
int cmd_compare(struct ctx *ctx, int argc, char **argv);
int cmd_diff(struct ctx *ctx, int argc, char **argv);
/* cmd_plot.c */
int cmd_plot(struct ctx *ctx, int argc, char **argv);
/* cmd_merge.c */
int cmd_merge(struct ctx *ctx, int argc, char **argv);
/* cmd_prefill.c */
int cmd_prefill(struct ctx *ctx, int argc, char **argv);

#endif
