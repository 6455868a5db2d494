// SPDX-License-Identifier: GPL-2.0
/*
 * librbd engine: Ceph's userspace client, rbd_aio_read()/rbd_aio_write() on
 * pool/image, named with fio's rbd-engine options (--pool, --rbdname,
 * --clientname). One cluster connection for the run by default (fio's rbd
 * engine makes one per job: --rbd_connection job). One image handle per job,
 * shared by its threads: a handle per thread would make exclusive-lock
 * images bounce the lock between them.
 *
 * librbd completes in its own threads: the callback pushes the slot onto
 * its thread's lock-free list and, when the list was empty, wakes the thread
 * through an eventfd. The IO's latency ends at the reap that follows, as
 * with every engine.
 *
 * librados and librbd are loaded when the engine is first used (dlopen):
 * linked in, their 30 libraries cost every blkload invocation 10 ms.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rados/librados.h>
#include <rbd/librbd.h>

#include "../inuse.h"
#include "../util.h"
#include "../workload.h"
#include "engine.h"

/* The librados and librbd calls the engine makes, resolved at first use. */
#define RBD_CALLS(X)								\
	X(rados_create2, int, (rados_t *, const char *, const char *, uint64_t))	\
	X(rados_conf_read_file, int, (rados_t, const char *))			\
	X(rados_conf_parse_env, int, (rados_t, const char *))			\
	X(rados_connect, int, (rados_t))					\
	X(rados_shutdown, void, (rados_t))					\
	X(rados_get_instance_id, uint64_t, (rados_t))				\
	X(rados_ioctx_create, int, (rados_t, const char *, rados_ioctx_t *))	\
	X(rados_ioctx_destroy, void, (rados_ioctx_t))				\
	X(rbd_open, int, (rados_ioctx_t, const char *, rbd_image_t *, const char *)) \
	X(rbd_close, int, (rbd_image_t))					\
	X(rbd_stat, int, (rbd_image_t, rbd_image_info_t *, size_t))		\
	X(rbd_aio_create_completion, int, (void *, rbd_callback_t, rbd_completion_t *)) \
	X(rbd_aio_read, int, (rbd_image_t, uint64_t, size_t, char *, rbd_completion_t)) \
	X(rbd_aio_write, int, (rbd_image_t, uint64_t, size_t, const char *,	\
			       rbd_completion_t))				\
	X(rbd_aio_discard, int, (rbd_image_t, uint64_t, uint64_t, rbd_completion_t)) \
	X(rbd_aio_get_return_value, ssize_t, (rbd_completion_t))		\
	X(rbd_read, ssize_t, (rbd_image_t, uint64_t, size_t, char *))		\
	X(rbd_aio_release, void, (rbd_completion_t))

#define RBD_PTR(name, ret, args) ret (*name) args;
static struct {
	RBD_CALLS(RBD_PTR)
	/* Optional: librbd before Octopus has none (then --write_zeroes is refused). */
	int (*rbd_aio_write_zeroes)(rbd_image_t, uint64_t, size_t, rbd_completion_t, int, int);
	/* Optional: before Mimic the write guard cannot see the image's other users. */
	int (*rbd_watchers_list)(rbd_image_t, rbd_image_watcher_t *, size_t *);
	void (*rbd_watchers_list_cleanup)(rbd_image_watcher_t *, size_t);
} lib;

static int rbd_load(void)
{
	static int loaded;
	void *rados, *rbd;

	if (loaded)
		return loaded > 0 ? 0 : -ENOENT;
	rados = dlopen("librados.so.2", RTLD_NOW | RTLD_GLOBAL);
	rbd = rados ? dlopen("librbd.so.1", RTLD_NOW | RTLD_GLOBAL) : NULL;
	if (!rbd) {
		fprintf(stderr, "blkload: librbd: %s (install librbd1)\n", dlerror());
		loaded = -1;
		return -ENOENT;
	}
#define RBD_SYM(name, ret, args)						\
	*(void **)&lib.name = dlsym(strncmp(#name, "rbd_", 4) ? rados : rbd, #name);	\
	if (!lib.name) {							\
		fprintf(stderr, "blkload: librbd: no %s\n", #name);		\
		loaded = -1;							\
		return -ENOENT;							\
	}
	RBD_CALLS(RBD_SYM)
	*(void **)&lib.rbd_aio_write_zeroes = dlsym(rbd, "rbd_aio_write_zeroes");
	*(void **)&lib.rbd_watchers_list = dlsym(rbd, "rbd_watchers_list");
	*(void **)&lib.rbd_watchers_list_cleanup = dlsym(rbd, "rbd_watchers_list_cleanup");
	if (!lib.rbd_watchers_list_cleanup)
		lib.rbd_watchers_list = NULL;
	loaded = 1;
	return 0;
}

struct rbd_conn {
	rados_t cluster;
	rados_ioctx_t io;
};

struct rbd_job {
	struct rbd_conn own;	/* with --rbd_connection job */
	struct rbd_conn *conn;
	rbd_image_t image;
};

struct rbd_thread {
	int efd;
	struct eng_slot *head;	/* completed, pushed by librbd's threads */
};

static int rbd_connect(const struct workload *w, struct rbd_conn *c, const char *what)
{
	char *name = xasprintf("client.%s", w->clientname ? w->clientname : "admin");
	int ret;

	ret = lib.rados_create2(&c->cluster, "ceph", name, 0);
	free(name);
	if (ret < 0)
		goto err;
	/* CEPH_CONF or the default search path, and CEPH_ARGS, as the rbd tool. */
	lib.rados_conf_read_file(c->cluster, NULL);
	lib.rados_conf_parse_env(c->cluster, NULL);
	ret = lib.rados_connect(c->cluster);
	if (ret < 0) {
		lib.rados_shutdown(c->cluster);
		c->cluster = NULL;
		goto err;
	}
	ret = lib.rados_ioctx_create(c->cluster, w->pool ? w->pool : "rbd", &c->io);
	if (ret < 0) {
		lib.rados_shutdown(c->cluster);
		c->cluster = NULL;
		goto err;
	}
	return 0;
err:
	fprintf(stderr, "blkload: librbd: %s: cannot %s: %s\n", what,
		c->cluster ? "open the pool" : "connect to the cluster", strerror(-ret));
	return ret;
}

static void rbd_disconnect(struct rbd_conn *c)
{
	if (!c->cluster)
		return;
	lib.rados_ioctx_destroy(c->io);
	lib.rados_shutdown(c->cluster);
	c->cluster = NULL;
}

/*
 * The write guard for an image, as inuse.h's for a device: not written,
 * unless --force, while another client uses it or while it carries data.
 * A client that has it open for writing watches its header (a VM through
 * QEMU, rbd-nbd, a krbd mapping, rbd watch); the run's own connections are
 * not others. A krbd mapping on this host is one of those watchers: writing
 * under it is fine while its /dev/rbdN is unused (nothing cached then),
 * and refused, naming the users, while it is not.
 */
#define WATCHERS_NAMED	4
#define IMAGE_END_PROBED	(1U << 20)

static bool own_client(const struct eng_run *run, int64_t id)
{
	const struct rbd_conn *c = run->priv;

	if (c && c->cluster && (int64_t)lib.rados_get_instance_id(c->cluster) == id)
		return true;
	for (unsigned int i = 0; i < run->nr_jobs; i++) {
		const struct rbd_job *rj = run->jobs[i].priv;

		if (rj && rj->own.cluster && (int64_t)lib.rados_get_instance_id(rj->own.cluster) == id)
			return true;
	}
	return false;
}

/* The first line of sysfs file @dir/@name, or NULL. */
static char *sysfs_line(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name), *line = file_line(p);

	free(p);
	return line;
}

static bool sysfs_is(const char *dir, const char *name, const char *want)
{
	char *v = sysfs_line(dir, name);
	bool eq = v && !strcmp(v, want);

	free(v);
	return eq;
}

/* The nonce of a messenger address ("[v2:]IP:PORT/NONCE"): one per client instance. */
static const char *addr_nonce(const char *addr)
{
	const char *slash = addr ? strrchr(addr, '/') : NULL;

	return slash ? slash + 1 : "";
}

/*
 * Whether watcher @w is this host's krbd client mapping @pool/@image (the
 * head, default namespace): its gid, and its address's nonce where the
 * kernel shows it. One client maps an image any number of times: each
 * device in use is a reason, into @f.
 */
static bool krbd_mappings(const rbd_image_watcher_t *w, const char *pool, const char *image,
			  FILE *f, unsigned int *n)
{
	char *client = xasprintf("client%lld", (long long)w->id);
	DIR *d = opendir("/sys/bus/rbd/devices");
	struct dirent *e;
	bool found = false;

	while (d && (e = readdir(d))) {
		char *dir = xasprintf("/sys/bus/rbd/devices/%s", e->d_name);
		char *ns = sysfs_line(dir, "pool_ns"), *addr = sysfs_line(dir, "client_addr");

		if (e->d_name[0] != '.' && sysfs_is(dir, "client_id", client) &&
		    (!addr || !strcmp(addr_nonce(addr), addr_nonce(w->addr))) &&
		    sysfs_is(dir, "pool", pool) && sysfs_is(dir, "name", image) &&
		    (!ns || !*ns) && sysfs_is(dir, "current_snap", "-")) {
			char *dev = xasprintf("/dev/rbd%s", e->d_name), *why = bl_dev_in_use(dev);

			found = true;
			if (why)
				fprintf(f, "%sit is mapped here as %s, and %s", (*n)++ ? "; " : "",
					dev, why);
			free(why);
			free(dev);
		}
		free(addr);
		free(ns);
		free(dir);
	}
	if (d)
		closedir(d);
	free(client);
	return found;
}

/* The image's other users, into @f ("; "-separated after @n reasons). */
static void guard_watchers(const struct eng_run *run, struct rbd_job *rj, const char *pool,
			   const char *image, FILE *f, unsigned int *n)
{
	rbd_image_watcher_t *ws = NULL;
	size_t nr = 8, named = 0, others = 0;
	int ret;

	if (!lib.rbd_watchers_list) {
		fprintf(f, "%sthis librbd cannot list the image's users (no rbd_watchers_list)",
			(*n)++ ? "; " : "");
		return;
	}
	for (;;) {
		size_t cap = nr;

		ws = xrealloc(ws, cap * sizeof(*ws));
		ret = lib.rbd_watchers_list(rj->image, ws, &nr);
		if (ret != -ERANGE)
			break;
		if (nr <= cap)
			nr = 2 * cap;
	}
	if (ret < 0) {
		free(ws);
		fprintf(f, "%sits users could not be listed (%s)", (*n)++ ? "; " : "",
			strerror(-ret));
		return;
	}
	for (size_t i = 0; i < nr; i++) {
		if (own_client(run, ws[i].id) || krbd_mappings(&ws[i], pool, image, f, n))
			continue;
		if (named++ < WATCHERS_NAMED)
			fprintf(f, "%sit is open by client.%lld at %s", (*n)++ ? "; " : "",
				(long long)ws[i].id, ws[i].addr);
		else
			others++;
	}
	if (others)
		fprintf(f, "; and by %zu more client%s", others, others > 1 ? "s" : "");
	/* A client that died keeps its watch until the OSDs time it out. */
	if (named)
		fputs(" (a client that ended without closing the image is listed for 30 s)", f);
	lib.rbd_watchers_list_cleanup(ws, nr);
	free(ws);
}

/*
 * Signatures of data on the image: its first and last MiB, probed in a
 * sparse copy. The reads have no deadline of their own: a cluster that does
 * not answer them would not answer the run's IO either.
 */
static void guard_data(struct rbd_job *rj, uint64_t size, FILE *f, unsigned int *n)
{
	size_t span = size < IMAGE_END_PROBED ? (size_t)size : IMAGE_END_PROBED;
	uint64_t offs[2] = { 0, size - span };
	char *buf = xcalloc(1, span ? span : 1), *why = NULL;
	int fd = memfd_create("blkload-image-ends", MFD_CLOEXEC);

	/* Above the standard streams and the probe's fd 3, whatever the CLI was started with. */
	if (fd >= 0 && fd < 10) {
		int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);

		close(fd);
		fd = moved;
	}
	if (fd < 0 || ftruncate(fd, (off_t)size)) {
		fprintf(f, "%sit could not be looked at for data on it (%s)", (*n)++ ? "; " : "",
			strerror(errno));
		goto out;
	}
	/* An image of at most 1 MiB is read once. */
	for (int i = 0; i < (offs[1] ? 2 : 1) && span; i++) {
		ssize_t got = lib.rbd_read(rj->image, offs[i], span, buf);

		if (got < 0) {
			fprintf(f, "%sit could not be read to look for data on it (%s)",
				(*n)++ ? "; " : "", strerror((int)-got));
			goto out;
		}
		if (pwrite(fd, buf, (size_t)got, (off_t)offs[i]) != got) {
			fprintf(f, "%sit could not be looked at for data on it (%s)",
				(*n)++ ? "; " : "", strerror(errno));
			goto out;
		}
	}
	why = bl_data_on(fd);
	if (why)
		fprintf(f, "%s%s", (*n)++ ? "; " : "", why);
out:
	free(why);
	free(buf);
	if (fd >= 0)
		close(fd);
}

static int rbd_guard(const struct eng_run *run, struct rbd_job *rj, const char *image,
		     uint64_t size)
{
	const char *pool = run->w->pool ? run->w->pool : "rbd";
	unsigned int n = 0;
	char *why = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&why, &len);

	if (!f)
		return -ENOMEM;
	guard_watchers(run, rj, pool, image, f, &n);
	/* In use already says enough; the probe reads only an idle image. */
	if (!n)
		guard_data(rj, size, f, &n);
	fclose(f);
	if (n)
		fprintf(stderr, "blkload: librbd %s/%s: not writing: %s; --force writes anyway\n",
			pool, image, why);
	free(why);
	return n ? -EBUSY : 0;
}

static int rbd_job_open(struct eng_run *run, struct eng_job *job)
{
	const struct workload *w = run->w;
	struct rbd_job *rj = xcalloc(1, sizeof(*rj));
	rbd_image_info_t info;
	int ret;

	ret = rbd_load();
	if (ret) {
		free(rj);
		return ret;
	}
	if ((w->p.req & BLKLOAD_REQ_WRITE_ZEROES) && !lib.rbd_aio_write_zeroes) {
		fprintf(stderr, "blkload: librbd: this librbd has no rbd_aio_write_zeroes\n");
		free(rj);
		return -EOPNOTSUPP;
	}
	job->priv = rj;
	job->fd = -1;
	if (w->rbd_conn_per_job) {
		ret = rbd_connect(w, &rj->own, job->path);
		if (ret)
			return ret;
		rj->conn = &rj->own;
	} else {
		if (!run->priv) {
			struct rbd_conn *c = xcalloc(1, sizeof(*c));

			ret = rbd_connect(w, c, job->path);
			if (ret) {
				free(c);
				return ret;
			}
			run->priv = c;
		}
		rj->conn = run->priv;
	}
	ret = lib.rbd_open(rj->conn->io, job->path, &rj->image, NULL);
	if (ret < 0) {
		fprintf(stderr, "blkload: librbd: cannot open image %s/%s: %s\n",
			w->pool ? w->pool : "rbd", job->path, strerror(-ret));
		rj->image = NULL;
		return ret;
	}
	ret = lib.rbd_stat(rj->image, &info, sizeof(info));
	if (ret < 0)
		return ret;
	job->dev_size = info.size;
	job->lbs = 512;
	return bl_params_changes(&w->p) && !w->p.force ? rbd_guard(run, rj, job->path, info.size) : 0;
}

static void rbd_job_close(struct eng_run *run, struct eng_job *job)
{
	struct rbd_job *rj = job->priv;
	bool last = true;

	if (!rj)
		return;
	if (rj->image)
		lib.rbd_close(rj->image);
	rbd_disconnect(&rj->own);
	free(rj);
	job->priv = NULL;
	/* The run's connection goes with its last job. */
	for (unsigned int i = 0; i < run->nr_jobs; i++)
		last &= !run->jobs[i].priv;
	if (last && run->priv) {
		rbd_disconnect(run->priv);
		free(run->priv);
		run->priv = NULL;
	}
}

static int rbd_thread_init(struct eng_thread *t)
{
	struct rbd_thread *rt = xcalloc(1, sizeof(*rt));

	t->priv = rt;
	rt->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	return rt->efd < 0 ? -errno : 0;
}

static void rbd_thread_exit(struct eng_thread *t)
{
	struct rbd_thread *rt = t->priv;

	if (!rt)
		return;
	if (rt->efd >= 0)
		close(rt->efd);
	free(rt);
	t->priv = NULL;
}

/* In librbd's completion thread. */
static void rbd_done(rbd_completion_t c, void *arg)
{
	struct eng_slot *s = arg;
	struct rbd_thread *rt = s->q->t->priv;
	struct eng_slot *old = __atomic_load_n(&rt->head, __ATOMIC_RELAXED);
	uint64_t one = 1;

	s->res = lib.rbd_aio_get_return_value(c);
	/* A write, trim or write-zeroes that succeeded returns 0 (or its length), a read its length. */
	if (s->io.op != BL_READ && !s->res)
		s->res = s->io.len;
	lib.rbd_aio_release(c);
	do {
		s->next = old;
	} while (!__atomic_compare_exchange_n(&rt->head, &old, s, true, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	/* Only the first onto an empty list wakes the thread. */
	if (!old && write(rt->efd, &one, sizeof(one)) < 0)
		perror("blkload: librbd: eventfd");
}

static int rbd_submit(struct eng_thread *t, struct eng_slot **slots, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct eng_slot *s = slots[i];
		struct rbd_job *rj = s->q->job->priv;
		rbd_completion_t c;
		int ret;

		ret = lib.rbd_aio_create_completion(s, rbd_done, &c);
		if (ret < 0)
			return i ? (int)i : ret;
		if (s->io.op == BL_READ)
			ret = lib.rbd_aio_read(rj->image, s->io.off, s->io.len, s->buf, c);
		else if (s->io.op == BL_TRIM)
			ret = lib.rbd_aio_discard(rj->image, s->io.off, s->io.len, c);
		else if (t->run->p->req & BLKLOAD_REQ_WRITE_ZEROES)
			ret = lib.rbd_aio_write_zeroes(rj->image, s->io.off, s->io.len, c, 0, 0);
		else
			ret = lib.rbd_aio_write(rj->image, s->io.off, s->io.len, s->buf, c);
		if (ret < 0) {
			lib.rbd_aio_release(c);
			return i ? (int)i : ret;
		}
	}
	return (int)i;
}

static int rbd_reap(struct eng_thread *t, struct eng_slot **done, unsigned int max, bool wait,
		    uint64_t timeout_ns)
{
	struct rbd_thread *rt = t->priv;
	struct eng_slot *list, *rev = NULL;
	unsigned int n = 0;
	uint64_t count;

	if (wait && !__atomic_load_n(&rt->head, __ATOMIC_ACQUIRE)) {
		struct pollfd pfd = { .fd = rt->efd, .events = POLLIN };

		poll(&pfd, 1, (int)(timeout_ns / 1000000ULL) + 1);
	}
	/* Cleared before the list is taken: a later push writes it again. */
	if (read(rt->efd, &count, sizeof(count)) < 0 && errno != EAGAIN)
		return -errno;
	list = __atomic_exchange_n(&rt->head, NULL, __ATOMIC_ACQUIRE);
	/* In completion order. */
	while (list) {
		struct eng_slot *next = list->next;

		list->next = rev;
		rev = list;
		list = next;
	}
	for (; rev && n < max; rev = rev->next)
		done[n++] = rev;
	return (int)n;
}

/* librbd's own options (fio's rbd engine's names). */
static const struct wopt rbd_opts[] = {
	{ "pool", required_argument, OPT_POOL, "P", "the images' pool (rbd)" },
	{ "rbdname", required_argument, OPT_RBDNAME, "IMG", "image IMG (repeat for more jobs)" },
	{ "clientname", required_argument, OPT_CLIENTNAME, "NAME", "Ceph client name (admin)" },
	{ "rbd_connection", required_argument, OPT_RBD_CONN, "run|job",
	  "one cluster connection per run (default) or per job" },
};

static int rbd_parse_opt(struct workload *w, int val, const char *name, char *arg)
{
	switch (val) {
	case OPT_POOL:
		w->pool = arg;
		break;
	case OPT_RBDNAME:
		w->images = xrealloc(w->images, (w->nr_images + 1) * sizeof(*w->images));
		w->images[w->nr_images++] = arg;
		break;
	case OPT_CLIENTNAME:
		w->clientname = arg;
		break;
	case OPT_RBD_CONN:
		if (strcmp(arg, "run") && strcmp(arg, "job")) {
			fprintf(stderr, "blkload: --%s '%s': run or job\n", name, arg);
			return -1;
		}
		w->rbd_conn_per_job = !strcmp(arg, "job");
		break;
	}
	return 0;
}

const struct engine_ops eng_librbd = {
	.name = "librbd",
	.alias = "rbd",
	.help = "Ceph librbd, rbd_aio_* on --pool/--rbdname (fio's rbd engine)",
	.images = true,
	.req = BLKLOAD_REQ_WRITE_ZEROES,
	.trim = true,
	.opts = rbd_opts,
	.nr_opts = sizeof(rbd_opts) / sizeof(rbd_opts[0]),
	.parse_opt = rbd_parse_opt,
	.wave = eng_wave,
	.job_open = rbd_job_open,
	.job_close = rbd_job_close,
	.thread_init = rbd_thread_init,
	.thread_exit = rbd_thread_exit,
	.submit = rbd_submit,
	.reap = rbd_reap,
};
