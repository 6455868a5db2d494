// SPDX-License-Identifier: GPL-2.0
/*
 * fio job files (fio's HOWTO, "Job file format"): "[name]" sections, each a
 * job, "[global]" giving defaults to the jobs after it in its file; one
 * "key=value" or "key" per line; a ';' or '#' anywhere starts a comment
 * to the end of the line, as fio reads them (a value cannot hold one);
 * "${VAR}" in a value is the environment variable VAR, and $ncpus,
 * $pagesize and $mb_memory are fio's. "stonewall" (and its alias
 * "wait_for_previous") makes a job wait for every job before it and starts a
 * new reporting group; "new_group" starts a new reporting group only.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fioopts.h"
#include "jobfile.h"
#include "util.h"

struct section {
	char *name;
	struct optlist opts;
};

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* ${VAR} and fio's $ncpus, $pagesize, $mb_memory in @v; NULL (after a message) if unset. */
static char *expand(const char *v, const char *path, unsigned int line)
{
	size_t cap = strlen(v) + 1, len = 0;
	char *out = xcalloc(1, cap);

	while (*v) {
		const char *val = NULL, *end = NULL;
		char *name = NULL, num[32];
		size_t n;

		if (v[0] == '$' && v[1] == '{' && (end = strchr(v + 2, '}'))) {
			name = strndup(v + 2, (size_t)(end - v - 2));
			val = getenv(name);
			end++;
		} else if (v[0] == '$') {
			static const char *const fio_vars[] = { "ncpus", "pagesize", "mb_memory" };

			for (unsigned int i = 0; i < ARRAY_SIZE(fio_vars) && !val; i++) {
				size_t l = strlen(fio_vars[i]);
				long x;

				if (strncmp(v + 1, fio_vars[i], l) || isalnum((unsigned char)v[1 + l]) ||
				    v[1 + l] == '_')
					continue;
				if (i == 0)
					x = sysconf(_SC_NPROCESSORS_ONLN);
				else if (i == 1)
					x = sysconf(_SC_PAGESIZE);
				else
					x = (long)((double)sysconf(_SC_PHYS_PAGES) *
						   (double)sysconf(_SC_PAGESIZE) / (1 << 20));
				snprintf(num, sizeof(num), "%ld", x);
				val = num;
				end = v + 1 + l;
			}
			if (!val) {
				/* Not fio's either: kept as it is. */
				end = v + 1;
				val = "$";
			}
		}
		if (end) {
			if (!val) {
				fprintf(stderr, "blkload: %s:%u: ${%s} is not set in the environment\n",
					path, line, name);
				free(name);
				free(out);
				return NULL;
			}
			free(name);
			n = strlen(val);
			v = end;
		} else {
			val = v;
			n = 1;
			v++;
		}
		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			out = xrealloc(out, cap);
		}
		memcpy(out + len, val, n);
		len += n;
		out[len] = 0;
	}
	return out;
}

static void section_clear(struct section *s)
{
	free(s->name);
	optlist_free(&s->opts);
	memset(s, 0, sizeof(*s));
}

static bool flag_set(const struct optlist *l, const char *key)
{
	for (unsigned int i = 0; i < l->nr; i++)
		if (!strcmp(l->key[i], key))
			return !l->val[i] || strcmp(l->val[i], "0") != 0;
	return false;
}

static bool own_option(const char *k)
{
	return !strcmp(k, "stonewall") || !strcmp(k, "wait_for_previous") ||
	       !strcmp(k, "new_group") || !strcmp(k, "description") || !strcmp(k, "wait_for");
}

/*
 * One job from [global] and its section: the section's options replace
 * [global]'s of the same name (a job's filename is its own, not a second
 * one), then the option vector and the job's wave and group.
 */
static int add_job(struct jobfile *jf, const struct section *g, const struct section *s)
{
	struct optlist all = { 0 };
	struct jobfile_job *j;
	bool stonewall, new_group;
	int after = -1;

	for (unsigned int i = 0; i < g->opts.nr; i++)
		optlist_set(&all, g->opts.key[i], g->opts.val[i]);
	for (unsigned int i = 0; i < s->opts.nr; i++)
		optlist_set(&all, s->opts.key[i], s->opts.val[i]);
	stonewall = flag_set(&all, "stonewall") || flag_set(&all, "wait_for_previous");
	new_group = flag_set(&all, "new_group");
	/*
	 * fio's wait_for=NAME: the job starts once that one is done. blkload's
	 * jobs start in waves: it starts in the wave after that job's, so it
	 * also waits for the jobs that ran beside that one.
	 */
	for (unsigned int i = 0; i < all.nr; i++) {
		if (strcmp(all.key[i], "wait_for"))
			continue;
		for (unsigned int k = 0; k < jf->nr && all.val[i]; k++)
			if (!strcmp(jf->jobs[k].name, all.val[i]))
				after = (int)k;
		if (after < 0) {
			fprintf(stderr, "blkload: job [%s]: wait_for=%s: no job of that name before it\n",
				s->name, all.val[i] ? all.val[i] : "");
			optlist_free(&all);
			return -1;
		}
	}
	jf->jobs = xrealloc(jf->jobs, (jf->nr + 1) * sizeof(*jf->jobs));
	j = &jf->jobs[jf->nr];
	memset(j, 0, sizeof(*j));
	j->name = xstrdup(s->name);
	j->argv = xcalloc(all.nr + 2, sizeof(*j->argv));
	j->argv[j->argc++] = xasprintf("--name=%s", s->name);
	for (unsigned int i = 0; i < all.nr; i++) {
		/* The section's name is the job's name (fio's name= is the same). */
		if (own_option(all.key[i]) || !strcmp(all.key[i], "name"))
			continue;
		/* "key=" stays "--key=": a bare "--key" would take the next option as its value. */
		j->argv[j->argc++] = all.val[i] ? xasprintf("--%s=%s", all.key[i], all.val[i]) :
						  xasprintf("--%s", all.key[i]);
	}
	optlist_free(&all);
	if (jf->nr) {
		/* wait_for: a wave after that job's; not a new group (fio's is not one either). */
		bool wait = after >= 0 && jf->jobs[after].wave == jf->jobs[jf->nr - 1].wave;

		j->wave = jf->jobs[jf->nr - 1].wave + (stonewall || wait);
		j->groupid = jf->jobs[jf->nr - 1].groupid + (stonewall || new_group);
	}
	jf->nr++;
	return 0;
}

/* The first job of a further file waits for the jobs before it, as in fio. */
static void file_stonewall(struct jobfile *jf, unsigned int first)
{
	if (!first || first >= jf->nr)
		return;
	for (unsigned int i = first; i < jf->nr; i++) {
		jf->jobs[i].wave++;
		jf->jobs[i].groupid++;
	}
	/* A stonewall or new_group of its own there is the same step: taken once. */
	if (jf->jobs[first].wave > jf->jobs[first - 1].wave + 1)
		for (unsigned int i = first; i < jf->nr; i++)
			jf->jobs[i].wave--;
	if (jf->jobs[first].groupid > jf->jobs[first - 1].groupid + 1)
		for (unsigned int i = first; i < jf->nr; i++)
			jf->jobs[i].groupid--;
}

/*
 * Each option checked where it stands, so the message names its line:
 * blkload's own (1: kept), a fio alias of one (2: now *@k, blkload's name,
 * malloc()ed), or by fio's table (fioopts.h): accepted as blkload does it
 * anyway or a file option ignored (0: dropped), or refused (-1, after the
 * reason).
 */
static int check_option(char **k, const char *v, const char *path, unsigned int line,
			int (*known)(const char *name))
{
	const struct fio_opt *o;
	char *where, *ours;
	enum fio_verdict verdict;

	if (own_option(*k) || !known(*k))
		return 1;
	o = fio_opt_find(*k);
	/* An alias of an option blkload has (fio's timeout: runtime). */
	ours = o ? fio_opt_ours(o, known) : NULL;
	if (ours) {
		*k = ours;
		return 2;
	}
	if (!o) {
		fprintf(stderr, "blkload: %s:%u: '%s' is not an option fio or blkload knows\n",
			path, line, *k);
		return -1;
	}
	where = xasprintf("%s:%u", path, line);
	verdict = fio_opt_check(o, *k, v, where, true);
	free(where);
	return verdict == FIO_REFUSE ? -1 : 0;
}

/* A file being read: the job file, or one it includes (fio's include). */
struct src {
	FILE *f;
	char *path;
	unsigned int line;
};

#define INCLUDE_DEPTH	16

/*
 * fio's "include FILE": the name as given when it exists, else beside the
 * file that includes it, as fio looks for it; pushed on @srcs.
 */
static int src_push(struct src *srcs, unsigned int *n, const char *name)
{
	const struct src *from = *n ? &srcs[*n - 1] : NULL;
	const char *slash = from ? strrchr(from->path, '/') : NULL;
	struct stat st;
	char *path;
	FILE *f;

	if (*n == INCLUDE_DEPTH) {
		fprintf(stderr, "blkload: %s:%u: include nested deeper than %d files\n",
			from->path, from->line, INCLUDE_DEPTH);
		return -1;
	}
	if (from && access(name, F_OK) && errno == ENOENT && slash)
		path = xasprintf("%.*s%s", (int)(slash - from->path + 1), from->path, name);
	else
		path = xstrdup(name);
	f = fopen(path, "r");
	if (!f) {
		if (from)
			fprintf(stderr, "blkload: %s:%u: include %s: %s\n", from->path, from->line,
				path, strerror(errno));
		else
			fprintf(stderr, "blkload: %s: %s\n", path, strerror(errno));
		free(path);
		return -1;
	}
	/* A directory opens and reads as nothing: say so instead. */
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "blkload: %s: not a job file (a regular file)\n", path);
		fclose(f);
		free(path);
		return -1;
	}
	srcs[*n] = (struct src){ .f = f, .path = path };
	(*n)++;
	return 0;
}

int jobfile_read(struct jobfile *jf, const char *file, int (*known)(const char *name))
{
	struct section global = { 0 }, cur = { 0 };
	bool in_global = false, any = false, first_global = jf->nr == 0;
	unsigned int first = jf->nr, nsrc = 0;
	struct src srcs[INCLUDE_DEPTH];
	char *buf = NULL;
	size_t cap = 0;
	int ret = -1;

	if (src_push(srcs, &nsrc, file))
		return -1;
	global.name = xstrdup("global");
	for (;;) {
		struct src *top = &srcs[nsrc - 1];
		const char *path = top->path;
		char *s, *eq, *key, *val, *name;
		unsigned int line;
		int kind;

		if (getline(&buf, &cap, top->f) < 0) {
			if (nsrc == 1)
				break;
			fclose(top->f);
			free(top->path);
			nsrc--;
			continue;
		}
		line = ++top->line;
		s = trim(buf);
		/* fio's comments: from the first ';' or '#' anywhere on the line, values included. */
		s[strcspn(s, ";#")] = 0;
		s = trim(s);
		if (!*s)
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (nsrc > 1) {
				fprintf(stderr, "blkload: %s:%u: an included file holds no [section] (fio's rule)\n",
					path, line);
				goto out;
			}

			if (!end || end == s + 1 || *trim(end + 1)) {
				fprintf(stderr, "blkload: %s:%u: a section is \"[name]\"\n", path, line);
				goto out;
			}
			*end = 0;
			name = trim(s + 1);
			if (!*name) {
				fprintf(stderr, "blkload: %s:%u: a section without a name\n", path, line);
				goto out;
			}
			/* The section before ends here: a job, or the new defaults. */
			if (cur.name) {
				if (add_job(jf, &global, &cur))
					goto out;
				section_clear(&cur);
			}
			in_global = !strcmp(name, "global");
			if (!in_global)
				cur.name = xstrdup(name);
			any = true;
			continue;
		}
		if (!any) {
			fprintf(stderr, "blkload: %s:%u: an option before any [section]\n", path, line);
			goto out;
		}
		/* fio's include: its lines read here, in this section. */
		if (!strncmp(s, "include", 7) && (s[7] == ' ' || s[7] == '\t' || s[7] == '=')) {
			if (src_push(srcs, &nsrc, trim(s + 8)))
				goto out;
			continue;
		}
		eq = strchr(s, '=');
		if (eq)
			*eq = 0;
		key = trim(s);
		val = NULL;
		if (eq) {
			val = expand(trim(eq + 1), path, line);
			if (!val)
				goto out;
		}
		if (!*key) {
			fprintf(stderr, "blkload: %s:%u: an option without a name\n", path, line);
			free(val);
			goto out;
		}
		for (char *p = key; *p; p++)
			if (*p == '-')
				*p = '_';
		kind = check_option(&key, val, path, line, known);
		if (kind <= 0) {
			free(val);
			if (kind < 0)
				goto out;
			continue;
		}
		optlist_set(in_global ? &global.opts : &cur.opts, key, val);
		if (in_global && first_global)
			optlist_set(&jf->global, key, val);
		if (kind == 2)
			free(key);
		free(val);
	}
	if (cur.name && add_job(jf, &global, &cur))
		goto out;
	if (jf->nr == first) {
		fprintf(stderr, "blkload: %s: no job in the file (a [name] section other than [global])\n",
			file);
		goto out;
	}
	file_stonewall(jf, first);
	ret = 0;
out:
	free(buf);
	while (nsrc) {
		nsrc--;
		fclose(srcs[nsrc].f);
		free(srcs[nsrc].path);
	}
	section_clear(&global);
	section_clear(&cur);
	return ret;
}

void jobfile_free(struct jobfile *jf)
{
	for (unsigned int i = 0; i < jf->nr; i++) {
		for (unsigned int k = 0; k < jf->jobs[i].argc; k++)
			free(jf->jobs[i].argv[k]);
		free(jf->jobs[i].argv);
		free(jf->jobs[i].name);
	}
	free(jf->jobs);
	optlist_free(&jf->global);
	memset(jf, 0, sizeof(*jf));
}
