// SPDX-License-Identifier: GPL-2.0
/*
 * blkload compare: the same workload matrix over several client paths
 * (the module on a block device, io_uring, libaio, librbd), repeated in
 * interleaved rounds, with statistics that say whether a difference is real.
 *
 * Every run is this same program's "run" command in a child process, with
 * its json+ report kept under DIR/runs/: the comparison uses exactly the
 * code, the options and the numbers of a plain run, and the raw reports can
 * be re-analysed later.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include <json-c/json.h>

#include "blkload.h"
#include "cmpres.h"
#include "fioopts.h"
#include "out.h"
#include "parse.h"
#include "util.h"

extern char **environ;

static const char *const all_paths[] = { "kernel", "io_uring", "libaio", "librbd" };

/* A growable argv. */
struct strv {
	char **v;
	size_t n;
};

static void strv_add(struct strv *s, const char *a)
{
	s->v = xrealloc(s->v, (s->n + 2) * sizeof(*s->v));
	s->v[s->n++] = xstrdup(a);
	s->v[s->n] = NULL;
}

static void strv_addf(struct strv *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void strv_addf(struct strv *s, const char *fmt, ...)
{
	va_list ap;
	char *a;

	va_start(ap, fmt);
	if (vasprintf(&a, fmt, ap) < 0)
		a = NULL;
	va_end(ap);
	if (!a) {
		fputs("blkload: out of memory\n", stderr);
		exit(1);
	}
	strv_add(s, a);
	free(a);
}

static void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* Splits "a,b,c" into @s. */
static void strv_split(struct strv *s, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		strv_add(s, t);
	free(copy);
}

/*
 * SIGINT (Ctrl-C): the run in progress is told to stop (one SIGINT
 * forwarded), is not a sample, and the comparison ends. SIGTERM and SIGHUP:
 * the run in progress finishes and counts, then the comparison ends.
 * Children run in process groups of their own, so that a Ctrl-C at the
 * terminal reaches only this process: rbd map/unmap are never cut in half,
 * and a run never sees a second Ctrl-C (which would detach its jobs).
 */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	if (!interrupted || sig == SIGINT)
		interrupted = sig;
}

/*
 * Runs @argv with stdout to @out_fd (or captured into *@capture when
 * non-NULL) and stderr to @err_fd (-1: inherited). With @forward, a SIGINT
 * here is passed on to the child once. Returns the exit status, 128 +
 * signal, or -1 when it could not start.
 */
static int spawn(char *const *argv, int out_fd, int err_fd, char **capture, bool forward)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none;
	int pipefd[2] = { -1, -1 }, rc, status;
	bool forwarded = false;
	pid_t pid;

	if (capture && pipe2(pipefd, O_CLOEXEC)) {
		fprintf(stderr, "blkload: compare: pipe: %s\n", strerror(errno));
		return -1;
	}
	sigemptyset(&none);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	posix_spawn_file_actions_init(&fa);
	if (capture)
		posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	else if (out_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	if (err_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
	rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (capture)
		close(pipefd[1]);
	if (rc) {
		if (capture)
			close(pipefd[0]);
		fprintf(stderr, "blkload: cannot run %s: %s\n", argv[0], strerror(rc));
		return -1;
	}
	if (capture) {
		size_t len = 0, cap = 4096;
		char *buf = xcalloc(1, cap);
		ssize_t n;

		while ((n = read(pipefd[0], buf + len, cap - len - 1)) != 0) {
			if (n < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			len += (size_t)n;
			if (cap - len < 2)
				buf = xrealloc(buf, cap *= 2);
		}
		buf[len] = '\0';
		close(pipefd[0]);
		*capture = buf;
	}
	for (;;) {
		if (forward && interrupted == SIGINT && !forwarded) {
			kill(pid, SIGINT);
			forwarded = true;
		}
		if (waitpid(pid, &status, 0) >= 0)
			break;
		if (errno != EINTR)
			return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Runs a short command (rbd), its output captured; stderr passes through. */
static int command(char **out, const char *first, ...)
{
	struct strv a = { 0 };
	const char *s;
	va_list ap;
	int rc;

	strv_add(&a, first);
	va_start(ap, first);
	while ((s = va_arg(ap, const char *)))
		strv_add(&a, s);
	va_end(ap);
	rc = spawn(a.v, -1, -1, out, false);
	strv_free(&a);
	return rc;
}

struct target {
	char *name;	/* as given */
	char *pool, *image;	/* an RBD image (given, or behind /dev/rbdN) */
	char *dev;	/* the block device, mapped by us or given */
	bool mapped;	/* by us: unmapped at the end */
};

struct compare {
	struct cmp_result r;
	struct target *t;
	struct strv rws, bss, depths, paths;
	uint64_t runtime, ramp, offset, size, randseed, order_seed;
	int64_t start_at;	/* --start-at: run k starts at start_at + k * slot (ns) */
	uint64_t slot;
	uint32_t rwmixread;
	bool have_order_seed, have_size, have_offset, have_rwmixread, have_paths, empty_list, allow_write;
	bool force;
	const char *cpus, *cpu_exclude, *clientname, *map_options, *out_dir, *baseline;
	const char *images;
	uint32_t count;
	char *self, *dir;
};

enum {
	C_PATHS = 300, C_RW, C_BS, C_IODEPTH, C_RUNTIME, C_RAMP, C_REPEAT, C_IMAGES, C_COUNT,
	C_CPUS, C_SEED, C_ORDER_SEED, C_CPU_EXCLUDE, C_ALLOW_WRITE, C_FORCE, C_MAP_OPTS, C_CLIENT,
	C_OUT, C_BASELINE, C_OFFSET, C_SIZE, C_RWMIX, C_START_AT, C_SLOT, C_HELP, C_TIME_BASED,
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: blkload compare TARGET [TARGET ...] [OPTIONS]\n"
		"       blkload compare --images POOL/PREFIX --count N [OPTIONS]\n"
		"\n"
		"Runs a matrix of workloads on several client paths, repeated in\n"
		"interleaved rounds, and reports each path's IOPS with a 95%% confidence\n"
		"interval, latency percentiles from the merged histograms, whole-client CPU\n"
		"per IO, and its ratio to the baseline with Welch's t-test.\n"
		"\n"
		"TARGET is POOL/IMAGE (mapped through krbd for the device paths, unmapped at\n"
		"the end) or a block device (device paths only; librbd too for /dev/rbdN).\n"
		"All targets run at once, each path over all of them (per target and summed).\n"
		"\n"
		"  --paths, --engines LIST kernel,io_uring,libaio,librbd (all that apply)\n"
		"  --rw LIST               randread,randwrite (read write randread randwrite\n"
		"                          rw randrw)\n"
		"  --bs LIST               4k,64k,4m\n"
		"  --iodepth LIST          1,32,128 (per CPU queue, as in run)\n"
		"  --runtime TIME          measured time per run (30s); runs are time based\n"
		"                          (fio's --time_based, which compare takes too)\n"
		"  --ramp_time TIME        unmeasured time before it (5s)\n"
		"  --repeat N              runs of every cell on every path (3)\n"
		"  --images POOL/PREFIX    targets PREFIX0 .. PREFIX<N-1> in POOL ...\n"
		"  --count N               ... this many of them\n"
		"  --cpus LIST             CPUs for the queues/threads of every path\n"
		"  --rwmixread PCT         reads in rw/randrw cells (50)\n"
		"  --offset SIZE, --size SIZE   the region of each target (whole)\n"
		"  --randseed N            seed of the offset sequence, the same on every path (0)\n"
		"  --order-seed N          seed of the run order (from the clock; recorded)\n"
		"  --cpu-exclude NAMES     processes left out of the client CPU (as in run)\n"
		"  --allow-write           required for write cells and for the prefill that\n"
		"                          read cells need on images not fully allocated\n"
		"  --force                 write even to targets the write guard refuses (in\n"
		"                          use, or data on them: see run --force)\n"
		"  --clientname NAME       Ceph client name for rbd and librbd (admin)\n"
		"  --map-options OPTS      rbd device map -o OPTS (noudev added without udev)\n"
		"  --baseline PATH         ratios and tests against this path (librbd if run,\n"
		"                          else the first)\n"
		"  --output DIR            where results go (./blkload-compare-DATE-TIME)\n"
		"  --start-at TIME         many hosts: run k starts at TIME + k x slot on\n"
		"                          every host (run's --start-at; the order seed\n"
		"                          then comes from TIME, the same everywhere)\n"
		"  --slot TIME             (ramp_time + runtime + a quarter, 5s at least)\n"
		"\n"
		"DIR gets results.json, results.csv, results.md, charts (SVG, gnuplot) and\n"
		"runs/ with every run's own json+ report. The table is printed at the end\n"
		"(the JSON instead with -j). Exit status: 0 done, 1 a run failed or was\n"
		"interrupted (what ran is still reported), 2 bad usage.\n");
}

static bool is_path(const char *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(all_paths); i++)
		if (!strcmp(p, all_paths[i]))
			return true;
	return false;
}

/* One line of a sysfs attribute, malloc()ed, without its newline; NULL if none. */
static char *sysfs_line(unsigned int id, const char *attr)
{
	char *f = xasprintf("/sys/bus/rbd/devices/%u/%s", id, attr), *line = file_line(f);

	free(f);
	return line;
}

/*
 * /dev/rbdN: its pool and image from sysfs. A mapped snapshot or an image
 * in a namespace is not what librbd would open by pool and name: then the
 * device keeps no image (device paths only).
 */
static void rbd_sysfs(struct target *t)
{
	char real[PATH_MAX], *snap, *ns;
	unsigned int id;
	int end = 0;

	if (!realpath(t->dev, real) || sscanf(real, "/dev/rbd%u%n", &id, &end) != 1 ||
	    real[end])
		return;
	snap = sysfs_line(id, "current_snap");
	ns = sysfs_line(id, "pool_ns");
	if ((!snap || !strcmp(snap, "-")) && (!ns || !*ns)) {
		t->pool = sysfs_line(id, "pool");
		t->image = sysfs_line(id, "name");
	}
	free(snap);
	free(ns);
	if (!t->pool || !t->image) {
		free(t->pool);
		free(t->image);
		t->pool = t->image = NULL;
	}
}

static char *map_opts(const struct compare *c)
{
	bool udev = access("/run/udev/control", F_OK) == 0;
	const char *o = c->map_options;

	if (udev || (o && strstr(o, "noudev")))
		return o ? xstrdup(o) : NULL;
	return o && *o ? xasprintf("%s,noudev", o) : xstrdup("noudev");
}

static int map_image(const struct compare *c, struct target *t)
{
	char *spec = xasprintf("%s/%s", t->pool, t->image), *opts = map_opts(c), *out = NULL;
	int rc;

	if (opts)
		rc = command(&out, "rbd", "device", "map", "--id", c->clientname ?: "admin",
			     "-o", opts, spec, NULL);
	else
		rc = command(&out, "rbd", "device", "map", "--id", c->clientname ?: "admin",
			     spec, NULL);
	if (!rc && out && !strncmp(out, "/dev/", 5)) {
		out[strcspn(out, "\n")] = '\0';
		t->dev = xstrdup(out);
		t->mapped = true;
	} else {
		fprintf(stderr, "blkload: compare: rbd device map %s failed (status %d)\n", spec,
			rc);
		rc = -1;
	}
	free(out);
	free(opts);
	free(spec);
	return rc ? -1 : 0;
}

static void unmap_all(const struct compare *c)
{
	bool udev = access("/run/udev/control", F_OK) == 0;

	for (unsigned int i = 0; i < c->r.ntargets; i++) {
		struct target *t = &c->t[i];

		if (!t->mapped)
			continue;
		if (udev ? command(NULL, "rbd", "device", "unmap", t->dev, NULL) :
			   command(NULL, "rbd", "device", "unmap", "-o", "noudev", t->dev, NULL))
			fprintf(stderr, "blkload: compare: rbd device unmap %s failed; unmap it by hand\n",
				t->dev);
		t->mapped = false;
	}
}

static struct json_object *rbd_json(const struct compare *c, const char *what,
				    const struct target *t)
{
	char *spec = xasprintf("%s/%s", t->pool, t->image), *out = NULL;
	struct json_object *o = NULL;

	if (!command(&out, "rbd", what, "--id", c->clientname ?: "admin", "--format", "json",
		     spec, NULL) && out)
		o = json_tokener_parse(out);
	free(out);
	free(spec);
	return o;
}

/*
 * How much of the region of @t is allocated (rbd diff), and rbd du's figures
 * for the message. Returns -1 when rbd could not tell.
 */
static int allocation(const struct compare *c, const struct target *t, uint64_t *region,
		      uint64_t *allocated, uint64_t *du_used, uint64_t *du_prov)
{
	struct json_object *du = rbd_json(c, "du", t), *diff, *imgs, *img, *v;
	uint64_t lo = c->offset, hi;

	imgs = du && json_object_object_get_ex(du, "images", &v) &&
	       json_object_is_type(v, json_type_array) ? v : NULL;
	/* The image itself, not one of its snapshots (those carry "snapshot"). */
	img = NULL;
	for (size_t i = 0; imgs && i < json_object_array_length(imgs) && !img; i++) {
		struct json_object *x = json_object_array_get_idx(imgs, i);

		if (json_object_is_type(x, json_type_object) &&
		    !json_object_object_get_ex(x, "snapshot", NULL))
			img = x;
	}
	if (!img || !json_object_object_get_ex(img, "provisioned_size", &v)) {
		json_object_put(du);
		return -1;
	}
	*du_prov = (uint64_t)json_object_get_int64(v);
	*du_used = json_object_object_get_ex(img, "used_size", &v) ?
		   (uint64_t)json_object_get_int64(v) : 0;
	json_object_put(du);
	hi = c->have_size ? lo + c->size : *du_prov;
	if (hi > *du_prov)
		hi = *du_prov;
	*region = hi > lo ? hi - lo : 0;
	*allocated = 0;
	diff = rbd_json(c, "diff", t);
	if (!diff || !json_object_is_type(diff, json_type_array)) {
		json_object_put(diff);
		*allocated = c->have_size || c->have_offset ? 0 : *du_used;
		return 0;
	}
	for (size_t i = 0; i < json_object_array_length(diff); i++) {
		struct json_object *x = json_object_array_get_idx(diff, i), *a, *b;
		uint64_t s, e;

		if (!json_object_object_get_ex(x, "offset", &a) ||
		    !json_object_object_get_ex(x, "length", &b))
			continue;
		s = (uint64_t)json_object_get_int64(a);
		e = s + (uint64_t)json_object_get_int64(b);
		if (s < lo)
			s = lo;
		if (e > hi)
			e = hi;
		if (e > s)
			*allocated += e - s;
	}
	json_object_put(diff);
	return 0;
}

static bool has_reads(const struct compare *c)
{
	for (size_t i = 0; i < c->rws.n; i++)
		if (strstr(c->rws.v[i], "read") || !strcmp(c->rws.v[i], "rw") ||
		    !strcmp(c->rws.v[i], "randrw"))
			return true;
	return false;
}

static void run_args(const struct compare *c, struct strv *a, const char *path, bool json)
{
	strv_add(a, c->self);
	if (json)
		strv_add(a, "--output-format=json+");
	strv_add(a, "run");
	strv_add(a, "--engine");
	strv_add(a, path);
	if (!strcmp(path, "librbd")) {
		strv_add(a, "--pool");
		strv_add(a, c->t[0].pool);
		for (unsigned int i = 0; i < c->r.ntargets; i++) {
			strv_add(a, "--rbdname");
			strv_add(a, c->t[i].image);
		}
		if (c->clientname) {
			strv_add(a, "--clientname");
			strv_add(a, c->clientname);
		}
	} else {
		for (unsigned int i = 0; i < c->r.ntargets; i++) {
			strv_add(a, "--dev");
			strv_add(a, c->t[i].dev);
		}
	}
	if (c->have_offset)
		strv_addf(a, "--offset=%" PRIu64, c->offset);
	if (c->have_size)
		strv_addf(a, "--size=%" PRIu64, c->size);
	if (c->cpus)
		strv_addf(a, "--cpus=%s", c->cpus);
	if (c->cpu_exclude)
		strv_addf(a, "--cpu-exclude=%s", c->cpu_exclude);
	if (c->allow_write)
		strv_add(a, "--allow-write");
	if (c->force)
		strv_add(a, "--force");
}

/* The largest block size from 4m down to 4k that divides @a and @b. */
static uint64_t prefill_bs(uint64_t a, uint64_t b)
{
	uint64_t bs = 4 << 20;

	while (bs > 4096 && (a % bs || b % bs))
		bs >>= 1;
	return bs;
}

/*
 * Whether every target's read region is allocated: 1 yes, 0 not (with a
 * message when @say), -1 rbd could not tell. *@span gets the region size of
 * the last image looked at (they are written alike).
 */
static int all_allocated(const struct compare *c, bool say, uint64_t *span)
{
	int rc = 1;

	for (unsigned int i = 0; i < c->r.ntargets; i++) {
		const struct target *t = &c->t[i];
		uint64_t region, alloc, used, prov;
		char *u, *p, *a, *g;

		if (!t->pool)
			continue;
		if (allocation(c, t, &region, &alloc, &used, &prov)) {
			if (say)
				fprintf(stderr, "blkload: compare: rbd du cannot tell how much of %s/%s is allocated\n",
					t->pool, t->image);
			return -1;
		}
		*span = region;
		if (alloc >= region)
			continue;
		rc = 0;
		if (!say)
			continue;
		u = fmt_bytes(used);
		p = fmt_bytes(prov);
		a = fmt_bytes(alloc);
		g = fmt_bytes(region);
		fprintf(stderr,
			"blkload: compare: %s/%s is not fully allocated (rbd du: %s used of %s provisioned; %s of the %s read region).\n",
			t->pool, t->image, u, p, a, g);
		free(u);
		free(p);
		free(a);
		free(g);
	}
	return rc;
}

/*
 * Makes sure read cells read allocated data: reads of objects never written
 * are answered by the client without the OSDs. Prefills when allowed,
 * else refuses.
 */
static int prefill(struct compare *c)
{
	struct strv a = { 0 };
	uint64_t span = 0, bs;
	char *bsname;
	int rc, null, ok;

	if (!has_reads(c))
		return 0;
	ok = all_allocated(c, true, &span);
	if (ok == 1)
		return 0;
	if (!c->allow_write) {
		fprintf(stderr, "blkload: compare: reads of absent objects are answered without the OSDs and measure nothing of the cluster. Add --allow-write to prefill %s, or compare write cells only.\n",
			c->r.ntargets == 1 ? "it" : "them");
		return -1;
	}
	bs = prefill_bs(c->offset, span);
	bsname = cmp_bs_name(bs);
	fprintf(stderr, "blkload: compare: prefilling %u target%s (sequential %s writes) so that reads hit allocated objects\n",
		c->r.ntargets, c->r.ntargets == 1 ? "" : "s", bsname);
	free(bsname);
	run_args(c, &a, c->paths.v[0], false);
	strv_add(&a, "--rw=write");
	strv_addf(&a, "--bs=%" PRIu64, bs);
	strv_add(&a, "--iodepth=8");
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	rc = spawn(a.v, null, -1, NULL, true);
	if (null >= 0)
		close(null);
	strv_free(&a);
	if (rc || interrupted) {
		fprintf(stderr, "blkload: compare: the prefill %s (status %d)\n",
			interrupted ? "was interrupted" : "failed", rc);
		return -1;
	}
	if (all_allocated(c, true, &span) != 1) {
		fprintf(stderr, "blkload: compare: still not fully allocated after the prefill\n");
		return -1;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fmt_left(char *buf, size_t len, double s)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, len, "%luh%02lum", t / 3600, t / 60 % 60);
	else
		snprintf(buf, len, "%lum%02lus", t / 60, t % 60);
}

/* Executes the planned runs in order; returns 0, or 1 when one failed or a signal. */
static int execute(struct compare *c)
{
	struct cmp_result *r = &c->r;
	bool tty = isatty(2);
	double t0 = now_s();
	int rc = 0;

	for (unsigned int i = 0; i < r->nruns && !interrupted; i++) {
		struct cmp_run *run = &r->runs[i];
		const struct cmp_cell *cell = &r->cells[run->cell];
		const char *path = r->paths[run->path];
		char *bs = cmp_bs_name(cell->bs), *out, *err, left[32];
		struct json_object *doc;
		struct strv a = { 0 };
		double per = i ? (now_s() - t0) / i :
			     (double)(c->runtime + c->ramp) / 1e9 + 1.0;
		int ofd, efd;

		fmt_left(left, sizeof(left), per * (r->nruns - i));
		fprintf(stderr, "%s[%u/%u] round %u/%u  %s %s iodepth %u  %-8s  %s left%s",
			tty ? "\r\033[K" : "", i + 1, r->nruns, run->round + 1, r->repeat,
			cell->rw, bs, cell->iodepth, path, left, tty ? "" : "\n");
		out = xasprintf("%s/runs/%03u-%s-%s-%s-qd%u.json", c->dir, i + 1, path, cell->rw,
				bs, cell->iodepth);
		err = xasprintf("%s/runs/%03u-%s-%s-%s-qd%u.err", c->dir, i + 1, path, cell->rw,
				bs, cell->iodepth);
		free(bs);
		ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		efd = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (ofd < 0 || efd < 0) {
			fprintf(stderr, "\nblkload: compare: %s: %s\n", ofd < 0 ? out : err,
				strerror(errno));
			if (ofd >= 0)
				close(ofd);
			if (efd >= 0)
				close(efd);
			free(out);
			free(err);
			rc = 1;
			break;
		}
		run_args(c, &a, path, true);
		strv_addf(&a, "--rw=%s", cell->rw);
		strv_addf(&a, "--bs=%" PRIu64, cell->bs);
		strv_addf(&a, "--iodepth=%u", cell->iodepth);
		/* A measured time, not a cap on one pass (fio's time_based). */
		strv_addf(&a, "--runtime=%" PRIu64 "ns", c->runtime);
		strv_add(&a, "--time_based");
		strv_addf(&a, "--ramp_time=%" PRIu64 "ns", c->ramp);
		/*
		 * A seed per round, the same on every path within it: every
		 * path replays one sequence, and rounds are independent
		 * samples rather than one sequence with warm caches.
		 */
		strv_addf(&a, "--randseed=%" PRIu64, c->randseed + run->round);
		if (c->have_rwmixread)
			strv_addf(&a, "--rwmixread=%u", c->rwmixread);
		/* Many hosts: run i in its own slot, on every host at once. */
		if (c->start_at) {
			int64_t at = c->start_at + (int64_t)i * (int64_t)c->slot;

			strv_addf(&a, "--start-at=@%" PRId64 ".%09" PRId64, at / 1000000000,
				  at % 1000000000);
		}
		run->status = spawn(a.v, ofd, efd, NULL, true);
		close(ofd);
		close(efd);
		strv_free(&a);
		if (interrupted == SIGINT) {
			/* Cut short by Ctrl-C: not a sample. */
			run->status = 130;
			run->iops = NAN;
			free(out);
			free(err);
			break;
		}
		doc = run->status == 0 ? json_object_from_file(out) : NULL;
		if (!doc || cmp_add_run(r, run->cell, run->path, doc, &run->iops)) {
			char *msg = NULL;

			if (!run->status)
				run->status = 1;
			run->iops = NAN;
			fprintf(stderr, "%sblkload: compare: run %u (%s) failed with status %d; its report: %s\n",
				tty ? "\n" : "", i + 1, path, run->status, err);
			if (!command(&msg, "tail", "-n", "5", err, NULL) && msg)
				fputs(msg, stderr);
			free(msg);
			rc = 1;
		}
		json_object_put(doc);
		free(out);
		free(err);
		if (rc)
			break;
	}
	if (tty)
		fputc('\n', stderr);
	if (interrupted) {
		fprintf(stderr, "blkload: compare: %s; reporting what ran\n",
			interrupted == SIGINT ? "interrupted" : "terminated");
		rc = 1;
	}
	if (rc)
		r->incomplete = true;
	return rc;
}

static int parse_list_u64(const struct strv *s, const char *opt, bool size, uint64_t min,
			  uint64_t max)
{
	for (size_t i = 0; i < s->n; i++) {
		uint64_t v;

		if ((size ? parse_size(s->v[i], &v) : parse_u64(s->v[i], &v)) || v < min ||
		    v > max) {
			fprintf(stderr, "blkload: compare: --%s '%s': a %s from %" PRIu64 " to %" PRIu64 "\n",
				opt, s->v[i], size ? "size" : "number", min, max);
			return -1;
		}
	}
	return 0;
}

/* A list with something in it and nothing twice (4k and 4096 are the same). */
static int check_list(const struct strv *s, const char *opt, bool size)
{
	if (!s->n) {
		fprintf(stderr, "blkload: compare: --%s: an empty list\n", opt);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++)
		for (size_t j = 0; j < i; j++) {
			uint64_t a = 0, b = 0;
			bool same = size ? !parse_size(s->v[i], &a) && !parse_size(s->v[j], &b) &&
					   a == b :
					   !parse_u64(s->v[i], &a) && !parse_u64(s->v[j], &b) ? a == b :
					   !strcmp(s->v[i], s->v[j]);

			if (same) {
				fprintf(stderr, "blkload: compare: --%s: '%s' and '%s' are the same\n",
					opt, s->v[j], s->v[i]);
				return -1;
			}
		}
	return 0;
}

static int setup_targets(struct compare *c, int argc, char **argv)
{
	unsigned int n = c->images ? c->count : (unsigned int)(argc - optind);
	bool images = false, devices = false;

	if (!n) {
		fprintf(stderr, "blkload: compare: no target; name POOL/IMAGE or a block device, or --images POOL/PREFIX --count N\n");
		return -1;
	}
	c->t = xcalloc(n, sizeof(*c->t));
	c->r.ntargets = n;
	c->r.targets = xcalloc(n, sizeof(char *));
	for (unsigned int i = 0; i < n; i++) {
		struct target *t = &c->t[i];
		const char *slash;

		t->name = c->images ? xasprintf("%s%u", c->images, i) : xstrdup(argv[optind + (int)i]);
		c->r.targets[i] = xstrdup(t->name);
		slash = strchr(t->name, '/');
		if (t->name[0] == '/') {
			struct stat st;

			devices = true;
			if (stat(t->name, &st)) {
				fprintf(stderr, "blkload: compare: target '%s': %s\n", t->name,
					strerror(errno));
				return -1;
			}
			if (!S_ISBLK(st.st_mode)) {
				fprintf(stderr, "blkload: compare: target '%s': not a block device\n",
					t->name);
				return -1;
			}
			t->dev = xstrdup(t->name);
			rbd_sysfs(t);
		} else if (slash && slash != t->name && slash[1] && !strchr(slash + 1, '/')) {
			images = true;
			t->pool = xasprintf("%.*s", (int)(slash - t->name), t->name);
			t->image = xstrdup(slash + 1);
		} else {
			fprintf(stderr, "blkload: compare: target '%s': POOL/IMAGE or a block device path\n",
				t->name);
			return -1;
		}
	}
	if (images && devices) {
		fprintf(stderr, "blkload: compare: targets are all images or all block devices\n");
		return -1;
	}
	if (!c->paths.n) {
		for (size_t i = 0; i < ARRAY_SIZE(all_paths); i++)
			if (strcmp(all_paths[i], "librbd") || images)
				strv_add(&c->paths, all_paths[i]);
	}
	for (size_t p = 0; p < c->paths.n; p++) {
		if (!is_path(c->paths.v[p])) {
			fprintf(stderr, "blkload: compare: --paths: '%s' is none of kernel, io_uring, libaio, librbd\n",
				c->paths.v[p]);
			return -1;
		}
		for (size_t q = 0; q < p; q++)
			if (!strcmp(c->paths.v[p], c->paths.v[q])) {
				fprintf(stderr, "blkload: compare: --paths: '%s' twice\n", c->paths.v[p]);
				return -1;
			}
		if (strcmp(c->paths.v[p], "librbd"))
			continue;
		for (unsigned int i = 0; i < n; i++) {
			if (!c->t[i].pool) {
				fprintf(stderr, "blkload: compare: librbd needs RBD images; %s is not one\n",
					c->t[i].name);
				return -1;
			}
			if (strcmp(c->t[i].pool, c->t[0].pool)) {
				fprintf(stderr, "blkload: compare: librbd runs images of one pool; %s and %s differ\n",
					c->t[0].name, c->t[i].name);
				return -1;
			}
		}
	}
	return 0;
}

static bool needs_dev(const struct compare *c)
{
	for (size_t p = 0; p < c->paths.n; p++)
		if (strcmp(c->paths.v[p], "librbd"))
			return true;
	return false;
}

static void fill_result(struct compare *c)
{
	struct cmp_result *r = &c->r;
	struct utsname u;
	char buf[64], host[256] = "";
	time_t now = time(NULL);

	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
	r->started = xstrdup(buf);
	r->version = xstrdup("blkload-" BLKLOAD_CLI_VERSION);
	gethostname(host, sizeof(host) - 1);
	r->host = xstrdup(host);
	r->kernel = xstrdup(uname(&u) ? "" : u.release);
	r->runtime_s = (double)c->runtime / 1e9;
	r->ramp_s = (double)c->ramp / 1e9;
	r->randseed = c->randseed;
	r->cpus = c->cpus ? xstrdup(c->cpus) : NULL;
	r->npaths = (unsigned int)c->paths.n;
	r->paths = xcalloc(r->npaths, sizeof(char *));
	for (unsigned int i = 0; i < r->npaths; i++)
		r->paths[i] = xstrdup(c->paths.v[i]);
	r->baseline = c->baseline ? cmp_path_index(r, c->baseline) : cmp_path_index(r, "librbd");
	if (r->baseline < 0 && !c->baseline)
		r->baseline = 0;
	r->ncells = (unsigned int)(c->rws.n * c->bss.n * c->depths.n);
	r->cells = xcalloc(r->ncells, sizeof(*r->cells));
	for (size_t i = 0, k = 0; i < c->rws.n; i++)
		for (size_t j = 0; j < c->bss.n; j++)
			for (size_t d = 0; d < c->depths.n; d++, k++) {
				uint64_t bs, qd;

				parse_size(c->bss.v[j], &bs);
				parse_u64(c->depths.v[d], &qd);
				r->cells[k].rw = xstrdup(c->rws.v[i]);
				r->cells[k].bs = bs;
				r->cells[k].iodepth = (uint32_t)qd;
			}
	cmp_alloc(r);
}

static int write_outputs(struct compare *c, const struct ctx *ctx)
{
	struct cmp_result *r = &c->r;
	char *f = xasprintf("%s/results.json", c->dir);
	int rc = 0, charts;
	FILE *fp;

	cmp_derive(r);
	if (cmp_write_json(r, f))
		rc = -1;
	free(f);
	f = xasprintf("%s/results.csv", c->dir);
	fp = fopen(f, "w");
	if (fp) {
		cmp_write_csv(r, fp);
		rc |= fclose(fp) ? -1 : 0;
	} else {
		rc = -1;
	}
	free(f);
	f = xasprintf("%s/results.md", c->dir);
	fp = fopen(f, "w");
	if (fp) {
		fprintf(fp, "# blkload compare, %s on %s (%s)\n\n", r->started, r->host, r->kernel);
		cmp_write_md(r, fp);
		rc |= fclose(fp) ? -1 : 0;
	} else {
		rc = -1;
	}
	free(f);
	charts = cmp_write_charts(r, c->dir);
	if (ctx->json) {
		f = xasprintf("%s/results.json", c->dir);
		fp = fopen(f, "r");
		if (fp) {
			char buf[8192];
			size_t n;

			while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
				fwrite(buf, 1, n, stdout);
			fclose(fp);
		}
		free(f);
	} else {
		cmp_write_md(r, stdout);
		printf("\nReports in %s: results.md, results.csv, results.json, %d chart%s, runs/\n",
		       c->dir, charts > 0 ? charts : 0, charts == 1 ? "" : "s");
	}
	return rc;
}

/* compare's options */
const struct option compare_opts[] = {
	{ "paths", required_argument, NULL, C_PATHS },
	{ "engines", required_argument, NULL, C_PATHS },
	{ "rw", required_argument, NULL, C_RW },
	{ "bs", required_argument, NULL, C_BS },
	{ "iodepth", required_argument, NULL, C_IODEPTH },
	{ "runtime", required_argument, NULL, C_RUNTIME },
	{ "ramp_time", required_argument, NULL, C_RAMP },
	{ "repeat", required_argument, NULL, C_REPEAT },
	{ "images", required_argument, NULL, C_IMAGES },
	{ "count", required_argument, NULL, C_COUNT },
	{ "cpus", required_argument, NULL, C_CPUS },
	{ "randseed", required_argument, NULL, C_SEED },
	{ "order-seed", required_argument, NULL, C_ORDER_SEED },
	{ "cpu-exclude", required_argument, NULL, C_CPU_EXCLUDE },
	{ "allow-write", no_argument, NULL, C_ALLOW_WRITE },
	{ "force", no_argument, NULL, C_FORCE },
	{ "map-options", required_argument, NULL, C_MAP_OPTS },
	{ "clientname", required_argument, NULL, C_CLIENT },
	{ "output", required_argument, NULL, C_OUT },
	{ "baseline", required_argument, NULL, C_BASELINE },
	{ "offset", required_argument, NULL, C_OFFSET },
	{ "size", required_argument, NULL, C_SIZE },
	{ "rwmixread", required_argument, NULL, C_RWMIX },
	{ "start-at", required_argument, NULL, C_START_AT },
	{ "slot", required_argument, NULL, C_SLOT },
	{ "help", no_argument, NULL, C_HELP },
	{ "time_based", optional_argument, NULL, C_TIME_BASED },
	{ NULL, 0, NULL, 0 },
};

int cmd_compare(struct ctx *ctx, int argc, char **argv)
{
	struct compare c = { .runtime = 30000000000ULL, .ramp = 5000000000ULL };
	struct sigaction sa = { .sa_handler = on_signal }, ign = { .sa_handler = SIG_IGN };
	struct option *both;
	uint32_t repeat = 3;
	int opt, rc = 2;

	both = opts_both_spellings(compare_opts);
	optind = 0;	/* 0: glibc rescans the option string (no "+") */
	while ((opt = getopt_long(argc, argv, "h", both, NULL)) != -1) {
		switch (opt) {
		case C_PATHS:
			strv_free(&c.paths);
			strv_split(&c.paths, optarg);
			c.have_paths = true;
			break;
		case C_RW:
			strv_free(&c.rws);
			strv_split(&c.rws, optarg);
			if (!*optarg)
				c.empty_list = true;
			break;
		case C_BS:
			strv_free(&c.bss);
			strv_split(&c.bss, optarg);
			if (!*optarg)
				c.empty_list = true;
			break;
		case C_IODEPTH:
			strv_free(&c.depths);
			strv_split(&c.depths, optarg);
			if (!*optarg)
				c.empty_list = true;
			break;
		case C_RUNTIME:
		case C_RAMP:
			if (parse_time_ns(optarg, opt == C_RUNTIME ? &c.runtime : &c.ramp) ||
			    (opt == C_RUNTIME && !c.runtime)) {
				fprintf(stderr, "blkload: compare: --%s '%s': a time (30s, 500ms, 2m)\n",
					opt == C_RUNTIME ? "runtime" : "ramp_time", optarg);
				goto out;
			}
			break;
		case C_REPEAT:
			if (parse_u32_range(optarg, 1, 1000, &repeat)) {
				fprintf(stderr, "blkload: compare: --repeat '%s': 1 to 1000\n", optarg);
				goto out;
			}
			break;
		case C_IMAGES:
			if (!strchr(optarg, '/') || optarg[0] == '/') {
				fprintf(stderr, "blkload: compare: --images '%s': POOL/PREFIX\n", optarg);
				goto out;
			}
			c.images = optarg;
			break;
		case C_COUNT:
			if (parse_u32_range(optarg, 1, 4096, &c.count)) {
				fprintf(stderr, "blkload: compare: --count '%s': 1 to 4096\n", optarg);
				goto out;
			}
			break;
		case C_CPUS:
			c.cpus = optarg;
			break;
		case C_SEED:
		case C_ORDER_SEED:
			if (parse_u64(optarg, opt == C_SEED ? &c.randseed : &c.order_seed)) {
				fprintf(stderr, "blkload: compare: '%s': not a number\n", optarg);
				goto out;
			}
			c.have_order_seed |= opt == C_ORDER_SEED;
			break;
		case C_CPU_EXCLUDE:
			c.cpu_exclude = optarg;
			break;
		case C_ALLOW_WRITE:
			c.allow_write = true;
			break;
		case C_FORCE:
			c.force = true;
			break;
		case C_MAP_OPTS:
			c.map_options = optarg;
			break;
		case C_CLIENT:
			c.clientname = optarg;
			break;
		case C_OUT:
			c.out_dir = optarg;
			break;
		case C_BASELINE:
			c.baseline = optarg;
			break;
		case C_OFFSET:
		case C_SIZE:
			if (parse_size(optarg, opt == C_SIZE ? &c.size : &c.offset)) {
				fprintf(stderr, "blkload: compare: --%s '%s': a size (64m, 1g)\n",
					opt == C_SIZE ? "size" : "offset", optarg);
				goto out;
			}
			c.have_size |= opt == C_SIZE;
			c.have_offset |= opt == C_OFFSET;
			break;
		case C_RWMIX:
			if (parse_u32_range(optarg, 0, 100, &c.rwmixread)) {
				fprintf(stderr, "blkload: compare: --rwmixread '%s': 0 to 100\n", optarg);
				goto out;
			}
			c.have_rwmixread = true;
			break;
		case C_START_AT: {
			struct timespec ts;
			int64_t now;

			clock_gettime(CLOCK_REALTIME, &ts);
			now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
			if (parse_wallclock(optarg, now, &c.start_at) || c.start_at <= now ||
			    c.start_at - now > 86400LL * 1000000000) {
				fprintf(stderr, "blkload: compare: --start-at '%s': a time within the next 24 h (@EPOCH, ISO 8601, HH:MM[:SS])\n",
					optarg);
				goto out;
			}
			break;
		}
		case C_TIME_BASED:
			/* A cell is a measured time: its runs are always time based. */
			if (optarg && fio_bool_value(optarg) != 1) {
				fprintf(stderr, "blkload: compare: --time_based=%s: compare's runs are time based (a run of --runtime each)\n",
					optarg);
				goto out;
			}
			break;
		case C_SLOT:
			if (parse_time_ns(optarg, &c.slot) || !c.slot) {
				fprintf(stderr, "blkload: compare: --slot '%s': a time (40s)\n", optarg);
				goto out;
			}
			break;
		case C_HELP:
		case 'h':
			usage(stdout);
			rc = 0;
			goto out;
		default:
			usage(stderr);
			goto out;
		}
	}
	if (c.empty_list) {
		fprintf(stderr, "blkload: compare: --rw, --bs and --iodepth take a list, not nothing\n");
		goto out;
	}
	opts_free(both, compare_opts);
	both = NULL;
	if (!c.rws.n)
		strv_split(&c.rws, "randread,randwrite");
	if (!c.bss.n)
		strv_split(&c.bss, "4k,64k,4m");
	if (!c.depths.n)
		strv_split(&c.depths, "1,32,128");
	for (size_t i = 0; i < c.rws.n; i++) {
		static const char *const rws[] = { "read", "write", "randread", "randwrite",
						   "rw", "randrw" };
		bool ok = false;

		for (size_t k = 0; k < ARRAY_SIZE(rws); k++)
			ok |= !strcmp(c.rws.v[i], rws[k]);
		if (!ok) {
			fprintf(stderr, "blkload: compare: --rw '%s': read write randread randwrite rw randrw\n",
				c.rws.v[i]);
			goto out;
		}
		if (strcmp(c.rws.v[i], "read") && strcmp(c.rws.v[i], "randread") &&
		    !c.allow_write) {
			fprintf(stderr, "blkload: compare: --rw %s writes to the targets; add --allow-write\n",
				c.rws.v[i]);
			goto out;
		}
	}
	if (parse_list_u64(&c.bss, "bs", true, 512, 64ULL << 20) ||
	    parse_list_u64(&c.depths, "iodepth", false, 1, 65536) ||
	    check_list(&c.rws, "rw", false) || check_list(&c.bss, "bs", true) ||
	    check_list(&c.depths, "iodepth", false) || (c.have_paths && check_list(&c.paths, "paths", false)))
		goto out;
	if (!!c.images != !!c.count) {
		fprintf(stderr, "blkload: compare: --images and --count go together\n");
		goto out;
	}
	if (c.images && optind < argc) {
		fprintf(stderr, "blkload: compare: targets come from --images or the command line, not both\n");
		goto out;
	}
	if (setup_targets(&c, argc, argv))
		goto out;
	if (c.baseline && !is_path(c.baseline)) {
		fprintf(stderr, "blkload: compare: --baseline '%s': a path\n", c.baseline);
		goto out;
	}
	for (size_t p = 0; p < c.paths.n; p++)
		if (!strcmp(c.paths.v[p], "kernel") && access("/sys/module/blkload", F_OK)) {
			fprintf(stderr, "blkload: compare: the kernel path needs the module: modprobe blkload (or leave it out with --paths)\n");
			rc = 1;
			goto out;
		}
	fill_result(&c);
	if (c.baseline && c.r.baseline < 0) {
		fprintf(stderr, "blkload: compare: --baseline %s is not among the paths run\n",
			c.baseline);
		goto out;
	}
	c.r.repeat = repeat;
	if (c.slot && !c.start_at) {
		fprintf(stderr, "blkload: compare: --slot goes with --start-at\n");
		goto out;
	}
	if (c.start_at && !c.slot) {
		uint64_t span = c.runtime + c.ramp;

		/* Room for making the jobs and draining them: a quarter, 5 s at least. */
		c.slot = span + (span / 4 > 5000000000ULL ? span / 4 : 5000000000ULL);
	}
	if (c.slot && c.slot < c.runtime + c.ramp) {
		fprintf(stderr, "blkload: compare: --slot is shorter than ramp_time + runtime\n");
		goto out;
	}
	c.r.start_at_ms = (uint64_t)(c.start_at / 1000000);
	c.r.slot_ms = c.slot / 1000000;
	/* Hosts started together run the same order: seeded by the moment. */
	if (!c.have_order_seed && c.start_at)
		c.order_seed = (uint64_t)(c.start_at / 1000000000);
	else if (!c.have_order_seed)
		c.order_seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	cmp_plan(&c.r, c.order_seed);

	rc = 1;
	c.self = realpath("/proc/self/exe", NULL);
	if (!c.self) {
		fprintf(stderr, "blkload: compare: /proc/self/exe: %s\n", strerror(errno));
		goto out;
	}
	if (c.out_dir) {
		c.dir = xstrdup(c.out_dir);
	} else {
		char buf[64];
		time_t now = time(NULL);

		strftime(buf, sizeof(buf), "blkload-compare-%Y%m%d-%H%M%S", localtime(&now));
		c.dir = xstrdup(buf);
	}
	{
		char *runs = xasprintf("%s/runs", c.dir);

		if (mkdir(c.dir, 0755) && errno != EEXIST) {
			fprintf(stderr, "blkload: compare: cannot make %s: %s\n", c.dir, strerror(errno));
			free(runs);
			goto out;
		}
		/* An earlier comparison's runs must not mix with ours. */
		if (mkdir(runs, 0755)) {
			fprintf(stderr, "blkload: compare: %s: %s; choose another --output\n", runs,
				errno == EEXIST ? "already there" : strerror(errno));
			free(runs);
			goto out;
		}
		free(runs);
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A closed pipe on stdout/stderr must not kill us with images mapped. */
	sigaction(SIGPIPE, &ign, NULL);
	if (needs_dev(&c)) {
		for (unsigned int i = 0; i < c.r.ntargets && !interrupted; i++)
			if (!c.t[i].dev && map_image(&c, &c.t[i]))
				goto unmap;
	}
	if (interrupted || prefill(&c))
		goto unmap;
	fprintf(stderr, "blkload: compare: %u cells x %u paths x %u rounds = %u runs of %.1f s + %.1f s ramp, into %s\n",
		c.r.ncells, c.r.npaths, c.r.repeat, c.r.nruns, c.r.runtime_s, c.r.ramp_s, c.dir);
	rc = execute(&c);
	/* Unmapped before anything else can go wrong. */
	unmap_all(&c);
	if (write_outputs(&c, ctx))
		rc = 1;
	goto out;
unmap:
	unmap_all(&c);
	rc = 1;
out:
	opts_free(both, compare_opts);
	for (unsigned int i = 0; c.t && i < c.r.ntargets; i++) {
		free(c.t[i].name);
		free(c.t[i].pool);
		free(c.t[i].image);
		free(c.t[i].dev);
	}
	free(c.t);
	strv_free(&c.rws);
	strv_free(&c.bss);
	strv_free(&c.depths);
	strv_free(&c.paths);
	cmp_free(&c.r);
	free(c.self);
	free(c.dir);
	return rc;
}
