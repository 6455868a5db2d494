// SPDX-License-Identifier: GPL-2.0
/*
 * blkload: command-line interface to the blkload kernel module.
 *
 * Usage text is generated from the command table.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/blkload.h>

#include "blkload.h"
#include "util.h"

static int cmd_help(struct ctx *ctx, int argc, char **argv);

static const struct cmd cmds[] = {
	{ "info", "", "module version, ABI version, kernel release and limits", cmd_info },
	{ "run", "--dev DEV [OPTIONS]", "run a workload and report, like fio", cmd_run },
	{ "start", "--dev DEV [OPTIONS]", "start a detached workload; print its job ids", cmd_start },
	{ "stop", "ID [ID ...]", "stop detached jobs, report and delete them", cmd_stop },
	{ "stats", "ID [ID ...]", "report jobs' statistics so far", cmd_stats },
	{ "list", "", "list every job", cmd_list },
	{ "monitor", "[--count N]", "print job-done events as they happen", cmd_monitor },
	{ "compare", "TARGET... [OPTIONS]", "client paths side by side, repeated, with intervals",
	  cmd_compare },
	{ "diff", "A.json B.json", "two compare results: change, interval, verdict", cmd_diff },
	{ "help", "[COMMAND]", "this text, or a command's own help", cmd_help },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: blkload [OPTIONS] COMMAND [ARGS]\n"
		"\n"
		"Generate block-device load from the blkload kernel module.\n"
		"\n"
		"Options:\n"
		"  -j, --json                    JSON output (same as --output-format=json)\n"
		"                                (global options go before or after the command)\n"
		"  -p, --pretty                  indent JSON output\n"
		"      --output-format=FORMAT    normal, json, or json+ (with histogram bins)\n"
		"  -V, --version                 print the CLI version and exit\n"
		"  -h, --help                    this text\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		char *head = xasprintf("%s %s", cmds[i].name, cmds[i].args);

		fprintf(f, "  %-28s  %s\n", head, cmds[i].help);
		free(head);
	}
	fprintf(f, "\n'blkload COMMAND --help' describes a command's options.\n");
}

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

static int cmd_help(struct ctx *ctx, int argc, char **argv)
{
	const struct cmd *c;
	char *sub[] = { NULL, "--help", NULL };

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	c = find_cmd(argv[1]);
	if (!c || c->fn == cmd_help) {
		if (!c)
			fprintf(stderr, "blkload: unknown command '%s'\n", argv[1]);
		usage(c ? stdout : stderr);
		return c ? 0 : 2;
	}
	sub[0] = argv[1];
	return c->fn(ctx, 2, sub);
}

static int set_format(struct ctx *ctx, const char *f)
{
	if (!strcmp(f, "json")) {
		ctx->json = true;
	} else if (!strcmp(f, "json+")) {
		ctx->json = true;
		ctx->json_plus = true;
	} else if (!strcmp(f, "normal")) {
		ctx->json = false;
	} else {
		fprintf(stderr, "blkload: unknown output format '%s' (normal, json, json+)\n", f);
		return -1;
	}
	return 0;
}

/*
 * Global options after the command (blkload run ... --output-format=json),
 * as fio users write them: taken out of the command's arguments (up to a
 * "--"). @argv is the command's; *@total the whole argc, shrunk to match.
 * A value that is itself "-j" or "-p" must be attached (--name=-p).
 */
static int take_globals(struct ctx *ctx, int argc, char **argv, int *total)
{
	int out = 1;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		if (a[0] == '-' && a[1] && strspn(a + 1, "jp") == strlen(a + 1)) {
			/* -j, -p, -jp, -pj */
			ctx->json |= strchr(a, 'j') != NULL;
			ctx->pretty |= strchr(a, 'p') != NULL;
		} else if (!strcmp(a, "--json")) {
			ctx->json = true;
		} else if (!strcmp(a, "--pretty")) {
			ctx->pretty = true;
		} else if (!strncmp(a, "--output-format=", 16) || !strncmp(a, "--output_format=", 16)) {
			if (set_format(ctx, a + 16))
				return -1;
		} else if (!strcmp(a, "--output-format") || !strcmp(a, "--output_format")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "blkload: %s needs a format (normal, json, json+)\n", a);
				return -1;
			}
			if (set_format(ctx, argv[++i]))
				return -1;
		} else {
			argv[out++] = argv[i];
		}
	}
	*total -= argc - out;
	argv[out] = NULL;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "output-format", required_argument, NULL, 'O' },
		{ "output_format", required_argument, NULL, 'O' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ctx ctx = { 0 };
	const struct cmd *c;
	int opt;

	/* "+": options after the command belong to the command. */
	while ((opt = getopt_long(argc, argv, "+jpVh", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			ctx.json = true;
			break;
		case 'p':
			ctx.pretty = true;
			break;
		case 'O':
			if (set_format(&ctx, optarg))
				return 2;
			break;
		case 'V':
			printf("blkload %s (netlink ABI %d)\n", BLKLOAD_CLI_VERSION,
			       BLKLOAD_ABI_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	c = find_cmd(argv[optind]);
	if (c && take_globals(&ctx, argc - optind, argv + optind, &argc))
		return 2;
	if (!c) {
		fprintf(stderr, "blkload: unknown command '%s'; try 'blkload --help'\n",
			argv[optind]);
		return 2;
	}
	return c->fn(&ctx, argc - optind, argv + optind);
}
