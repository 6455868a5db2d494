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

/* File options already warned about in this run: each once. */
static const struct fio_opt **warned;
static size_t nr_warned;

enum fio_verdict fio_opt_check(const struct fio_opt *o, const char *name, const char *val,
			       const char *where, bool in_file)
{
	switch (o->kind) {
	case FIO_SAME:
		if (value_ok(o, val))
			return FIO_TAKE;
		fprintf(stderr, "blkload: %s: '%s%s%s': %s; blkload takes ", where, name,
			val ? "=" : "", val ? val : "", o->why);
		print_values(o, name);
		fputc('\n', stderr);
		return FIO_REFUSE;
	case FIO_FILE:
		for (size_t i = 0; i < nr_warned; i++)
			if (warned[i] == o)
				return FIO_IGNORE;
		warned = xrealloc(warned, (nr_warned + 1) * sizeof(*warned));
		warned[nr_warned++] = o;
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
