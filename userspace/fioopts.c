// SPDX-License-Identifier: GPL-2.0
/*
 * fio's option table (fioopts.inc) and the verdict on each option blkload
 * does not implement: see fioopts.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fioopts.h"
#include "util.h"

static const struct fio_opt fio_opts[] = {
#define FIO_OPT(n, a, k, v, ar, o, w) { n, a, k, v, ar, o, w },
#include "fioopts.inc"
#undef FIO_OPT
};

/* The next word of space-separated @*p (advanced past it): its start, @*len; NULL at the end. */
static const char *next_word(const char **p, size_t *len)
{
	const char *w;

	while (**p == ' ')
		(*p)++;
	if (!**p)
		return NULL;
	w = *p;
	*len = strcspn(w, " ");
	*p += *len;
	return w;
}

/* @a (@alen bytes) and @b equal, '-' and '_' alike. */
static bool same_name(const char *a, size_t alen, const char *b)
{
	size_t i;

	for (i = 0; i < alen && b[i]; i++)
		if (a[i] != b[i] && !((a[i] == '-' || a[i] == '_') && (b[i] == '-' || b[i] == '_')))
			return false;
	return i == alen && !b[i];
}

static bool in_list(const char *list, const char *name)
{
	const char *w;
	size_t len;

	while ((w = next_word(&list, &len)))
		if (same_name(w, len, name))
			return true;
	return false;
}

const struct fio_opt *fio_opt_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(fio_opts); i++)
		if (same_name(fio_opts[i].name, strlen(fio_opts[i].name), name) ||
		    in_list(fio_opts[i].aliases, name))
			return &fio_opts[i];
	return NULL;
}

char *fio_opt_ours(const struct fio_opt *o, int (*known)(const char *name))
{
	const char *p = o->aliases, *w;
	size_t len;

	if (!known(o->name))
		return xstrdup(o->name);
	while ((w = next_word(&p, &len))) {
		char *a = strndup(w, len);

		if (!known(a))
			return a;
		free(a);
	}
	return NULL;
}

int fio_bool_value(const char *s)
{
	static const char *const w[] = { "0", "false", "no", "off", "1", "true", "yes", "on" };

	for (size_t i = 0; i < ARRAY_SIZE(w); i++)
		if (!strcmp(s, w[i]))
			return i >= 4;
	return -1;
}

bool fio_bool_word(const char *s)
{
	return fio_bool_value(s) >= 0;
}

/* Whether @val is among FIO_SAME's values: "*" any (the bare form too), a trailing space the bare form. */
static bool value_ok(const struct fio_opt *o, const char *val)
{
	size_t n = strlen(o->ok);

	if (!strcmp(o->ok, "*") || !strncmp(o->ok, "* ", 2))
		return true;
	if (!val)
		return n && o->ok[n - 1] == ' ';
	return in_list(o->ok, val);
}

/* The values a FIO_SAME option takes, for a refusal: "buffered=0". */
static void print_values(const struct fio_opt *o, const char *name)
{
	const char *p = o->ok, *w;
	bool first = true;
	size_t len;

	while ((w = next_word(&p, &len))) {
		fprintf(stderr, "%s%s=%.*s", first ? "" : " or ", name, (int)len, w);
		first = false;
	}
	if (o->ok[0] && o->ok[strlen(o->ok) - 1] == ' ')
		fprintf(stderr, "%s%s alone", first ? "" : " or ", name);
}

bool fio_opts_verbose;

static const char *kind_text(const struct fio_opt *o)
{
	switch (o->kind) {
	case FIO_SAME:
		return "accepted for the values blkload behaves as (others refused)";
	case FIO_FILE:
		return "a file option: ignored on a block device, with one warning";
	case FIO_ENGINE:
		return "an option of fio's engines that blkload's do not have: refused";
	case FIO_CLI:
		return "one of fio's command-line options that blkload does not have: refused";
	case FIO_PROFILE:
		return "fio's predefined workloads: profile= refused, a profile's options ignored";
	case FIO_LATER:
	default:
		return "not in blkload yet: refused";
	}
}

/* fio's options blkload's parsers take apart from the workload's, and how. */
static const struct {
	const char *name, *what;
} parsed[] = {
	{ "stonewall", "a new wave (and group): in a job file and after a --name" },
	{ "wait_for_previous", "a new wave (and group): in a job file and after a --name" },
	{ "new_group", "a new reporting group: in a job file and after a --name" },
	{ "wait_for", "the job starts in the wave after the named job's: in a job file and after a --name" },
	{ "description", "a job file's text for the reader" },
	{ "include", "a job file's include FILE" },
	{ "output-format", "blkload's --output-format (json, json+, normal, and several)" },
	{ "output", "blkload's --output FILE" },
	{ "parse-only", "blkload's --parse-only" },
	{ "showcmd", "blkload's --showcmd FILE" },
	{ "cmdhelp", "blkload's --cmdhelp[=OPT]" },
	{ "version", "blkload's --version (blkload's, not a fio version)" },
	{ "help", "blkload's --help" },
};

static void help_one(FILE *f, const struct fio_opt *o, int (*known)(const char *name))
{
	char *ours;

	for (size_t i = 0; i < sizeof(parsed) / sizeof(parsed[0]); i++) {
		if (fio_opt_find(parsed[i].name) == o) {
			fprintf(f, "%s: fio's %s option: blkload takes it: %s\n", o->name, o->area,
				parsed[i].what);
			return;
		}
	}
	ours = fio_opt_ours(o, known);

	fprintf(f, "%s", o->name);
	if (o->aliases[0])
		fprintf(f, " (%s)", o->aliases);
	fprintf(f, ": fio's %s option: ", o->area);
	if (ours)
		fprintf(f, "blkload's --%s ('blkload run --help')\n", ours);
	else if (o->kind == FIO_SAME)
		fprintf(f, "accepted as %s%s: %s; other values refused\n",
			strcmp(o->ok, "*") ? "" : "any value", strcmp(o->ok, "*") ? o->ok : "",
			o->why);
	else
		fprintf(f, "%s\n", kind_text(o));
	free(ours);
}

int fio_opt_help(FILE *f, const char *name, int (*known)(const char *name))
{
	const struct fio_opt *o;


	if (!name || !strcmp(name, "all")) {
		for (size_t i = 0; i < sizeof(fio_opts) / sizeof(fio_opts[0]); i++)
			help_one(f, &fio_opts[i], known);
		return 0;
	}
	o = fio_opt_find(name);
	if (o) {
		help_one(f, o, known);
		return 0;
	}
	if (!known(name)) {
		fprintf(f, "%s: blkload's own option ('blkload run --help')\n", name);
		return 0;
	}
	fprintf(stderr, "blkload: --cmdhelp %s: not an option fio or blkload knows\n", name);
	return -1;
}

/* File options already warned about in this run: each once. */
static const struct fio_opt **warned;
static size_t nr_warned;

/* Whether @o was warned about in this run; it is from now on. */
static bool warned_before(const struct fio_opt *o)
{
	for (size_t i = 0; i < nr_warned; i++)
		if (warned[i] == o)
			return true;
	warned = xrealloc(warned, (nr_warned + 1) * sizeof(*warned));
	warned[nr_warned++] = o;
	return false;
}

enum fio_verdict fio_opt_check(const struct fio_opt *o, const char *name, const char *val,
			       const char *where, bool in_file)
{
	switch (o->kind) {
	case FIO_SAME:
		if (value_ok(o, val)) {
			if (fio_opts_verbose && !warned_before(o))
				fprintf(stderr, "blkload: %s: '%s%s%s' accepted: %s\n", where, name,
					val ? "=" : "", val ? val : "", o->why);
			return FIO_TAKE;
		}
		/*
		 * fio's offload keeps a rate when a submission blocks and times
		 * IOs from when they were due; blkload submits inline and, with
		 * rate_iops, reports latency from each IO's due time too.
		 */
		if (!strcmp(o->name, "io_submit_mode") && val && !strcmp(val, "offload")) {
			if (warned_before(o))
				return FIO_IGNORE;
			fprintf(stderr, "blkload: %s: 'io_submit_mode=offload' taken as inline: blkload submits from the thread that reaps, and with rate_iops reports latency from each IO's due time as well\n",
				where);
			return FIO_IGNORE;
		}
		fprintf(stderr, "blkload: %s: '%s%s%s': %s; blkload takes ", where, name,
			val ? "=" : "", val ? val : "", o->why);
		print_values(o, name);
		fputc('\n', stderr);
		return FIO_REFUSE;
	case FIO_FILE:
		if (warned_before(o))
			return FIO_IGNORE;
		fprintf(stderr, "blkload: %s: '%s' ignored: fio's option for files in a filesystem; blkload drives the block devices named by filename (--dev)\n",
			where, name);
		return FIO_IGNORE;
	case FIO_ENGINE:
		fprintf(stderr, "blkload: %s: '%s' is an option of fio's %s engine%s, which blkload's engines (kernel, io_uring, libaio, librbd) do not have\n",
			where, name, o->area, strchr(o->area, ' ') ? "s" : "");
		return FIO_REFUSE;
	case FIO_CLI:
		if (in_file)
			fprintf(stderr, "blkload: %s: '%s' is one of fio's command-line options, not a job option\n",
				where, name);
		else
			fprintf(stderr, "blkload: %s: '--%s' is one of fio's command-line options that blkload does not have\n",
				where, name);
		return FIO_REFUSE;
	case FIO_PROFILE:
		/*
		 * A profile's own options do nothing without fio's profile=
		 * (which blkload refuses): fio takes them and ignores them.
		 */
		if (strcmp(o->name, "profile")) {
			if (warned_before(o))
				return FIO_IGNORE;
			fprintf(stderr, "blkload: %s: '%s' ignored: an option of fio's %s, which does nothing without profile=\n",
				where, name, o->area);
			return FIO_IGNORE;
		}
		fprintf(stderr, "blkload: %s: '%s' names one of fio's predefined workloads, which blkload does not have\n",
			where, name);
		return FIO_REFUSE;
	case FIO_LATER:
	default:
		fprintf(stderr, "blkload: %s: '%s' is a fio %s option that blkload does not have yet\n",
			where, name, o->area);
		return FIO_REFUSE;
	}
}
