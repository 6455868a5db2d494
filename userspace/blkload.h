/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkload CLI: shared state and the command table.
 */
#ifndef BLKLOAD_CLI_H
#define BLKLOAD_CLI_H

#include <stdbool.h>

#define BLKLOAD_CLI_VERSION "0.1.0"

struct ctx {
	bool json;
	bool pretty;
};

struct cmd {
	const char *name;
	const char *args;
	const char *help;
	/* Returns the process exit status; argv[0] is the command name. */
	int (*fn)(struct ctx *ctx, int argc, char **argv);
};

/* cmd_info.c */
int cmd_info(struct ctx *ctx, int argc, char **argv);

#endif
