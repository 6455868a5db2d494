// SPDX-License-Identifier: GPL-2.0
/*
 * The write guard (inuse.h). What the kernel's exclusive open refuses (a
 * mount, a holder) is named here too, so that the user reads who it is;
 * what it lets through is the point: a process holding the device open
 * (a BlueStore OSD opens its block device O_DIRECT with a flock, QEMU a raw
 * disk, a database its raw device) and data left on a device nobody has
 * open right now (an OSD that is down, an unmounted filesystem, an LVM2 PV
 * of a deactivated volume group). The module checks the open count again
 * when it makes the job (a raw netlink user gets that part); kernel openers
 * without a holder (an nvmet namespace, a loop device over it) are seen by
 * that count only. Signatures are libblkid's, through blkid -p (util-linux,
 * on every Debian system): a process of its own, so that a device that does
 * not answer costs a timeout, not the CLI.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "inuse.h"
#include "jobctl.h"
#include "util.h"

extern char **environ;

/* How long the signature probe may read: a device that does not answer is not written blind. */
#define PROBE_TIMEOUT_MS	10000
/* Processes named in a refusal; the rest are counted. */
#define OPENERS_NAMED		4

struct guard {
	dev_t dev;		/* the target */
	dev_t whole;		/* its disk (itself when it is one) */
	FILE *why;		/* the reasons, "; "-separated */
	char *buf;
	size_t len;
	unsigned int reasons;
};

static void reason(struct guard *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reason(struct guard *g, const char *fmt, ...)
{
	va_list ap;

	if (g->reasons++)
		fputs("; ", g->why);
	va_start(ap, fmt);
	vfprintf(g->why, fmt, ap);
	va_end(ap);
}

/* The whole disk of block device @d (itself when it is one), from sysfs. */
static dev_t whole_of(dev_t d)
{
	char *p = xasprintf("/sys/dev/block/%u:%u/partition", major(d), minor(d));
	unsigned int ma, mi;
	dev_t w = d;
	FILE *f;

	if (access(p, F_OK) == 0) {
		free(p);
		p = xasprintf("/sys/dev/block/%u:%u/../dev", major(d), minor(d));
		f = fopen(p, "r");
		if (f && fscanf(f, "%u:%u", &ma, &mi) == 2)
			w = makedev(ma, mi);
		if (f)
			fclose(f);
	}
	free(p);
	return w;
}

/*
 * Whether a use of block device @d touches the target: the device itself;
 * for a whole disk also its partitions; for a partition also its disk
 * opened whole (other partitions are other ranges).
 */
static bool touches(const struct guard *g, dev_t d)
{
	if (d == g->dev || (g->whole != g->dev && d == g->whole))
		return true;
	return g->whole == g->dev && major(d) && whole_of(d) == g->dev;
}

static char *comm_of(const char *pid)
{
	char *p = xasprintf("/proc/%s/comm", pid), *line = file_line(p);

	free(p);
	return line ? line : xstrdup("?");
}

/*
 * Whether process @pid has a file open on the target. Only files under
 * /dev are looked at: following any other link could hang on a dead
 * network filesystem.
 */
static bool proc_opens(const struct guard *g, const char *pid)
{
	char *p = xasprintf("/proc/%s/fd", pid), link[16];
	DIR *fds = opendir(p);
	struct dirent *e;
	bool found = false;
	struct stat st;

	free(p);
	if (!fds)
		return false;	/* gone, or a kernel thread */
	while (!found && (e = readdir(fds))) {
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		n = readlinkat(dirfd(fds), e->d_name, link, sizeof(link));
		if (n < 5 || memcmp(link, "/dev/", 5))
			continue;
		/* Follows the link: the open file's own node. */
		if (fstatat(dirfd(fds), e->d_name, &st, 0) == 0 && S_ISBLK(st.st_mode) &&
		    touches(g, st.st_rdev))
			found = true;
	}
	closedir(fds);
	return found;
}

/* udev reads a device for a moment after each writer closed it. */
static bool is_udev(const char *comm)
{
	return !strcmp(comm, "systemd-udevd") || !strcmp(comm, "(udev-worker)") ||
	       !strcmp(comm, "udevd");
}

/* Who has the target open (said when @say): 0 nobody, 1 only udev, 2 others. */
static int scan_openers(struct guard *g, bool say)
{
	unsigned int n = 0, others = 0;
	DIR *proc = opendir("/proc");
	char self[24], *names = NULL;
	size_t len = 0;
	struct dirent *e;
	FILE *f;

	if (!proc)
		return 0;
	f = open_memstream(&names, &len);
	if (!f) {
		closedir(proc);
		return 0;
	}
	snprintf(self, sizeof(self), "%d", (int)getpid());
	while ((e = readdir(proc))) {
		if (!isdigit((unsigned char)e->d_name[0]) || !strcmp(e->d_name, self))
			continue;
		if (!proc_opens(g, e->d_name))
			continue;
		char *c = comm_of(e->d_name);

		others += !is_udev(c);
		if (n < OPENERS_NAMED)
			fprintf(f, "%s%s (pid %s)", n ? ", " : "", c, e->d_name);
		free(c);
		n++;
	}
	closedir(proc);
	if (n > OPENERS_NAMED)
		fprintf(f, " and %u more", n - OPENERS_NAMED);
	fclose(f);
	if (n && say)
		reason(g, "it is open by %s", names);
	free(names);
	return others ? 2 : n ? 1 : 0;
}

/* Processes holding it open; udev's passing opens are waited for, up to 3 s. */
static void check_openers(struct guard *g)
{
	for (int i = 0; i < 30 && scan_openers(g, false) == 1; i++)
		usleep(100000);
	scan_openers(g, true);
}

/* Holders (device-mapper, MD, bcache) of the target, and of its partitions when it is a disk. */
static void holders_of(struct guard *g, const char *dir)
{
	char *p = xasprintf("%s/holders", dir);
	DIR *d = opendir(p);
	struct dirent *e;

	free(p);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			reason(g, "%s holds it", e->d_name);
	closedir(d);
}

static void check_holders(struct guard *g)
{
	char *dir = xasprintf("/sys/dev/block/%u:%u", major(g->dev), minor(g->dev));
	DIR *d;
	struct dirent *e;

	holders_of(g, dir);
	/* A disk's partitions are its subdirectories that have a "partition" file. */
	d = g->whole == g->dev ? opendir(dir) : NULL;
	while (d && (e = readdir(d))) {
		char *sub = xasprintf("%s/%s/partition", dir, e->d_name);

		if (e->d_name[0] != '.' && access(sub, F_OK) == 0) {
			char *pd = xasprintf("%s/%s", dir, e->d_name);

			holders_of(g, pd);
			free(pd);
		}
		free(sub);
	}
	if (d)
		closedir(d);
	free(dir);
}

static void check_mounts(struct guard *g)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t cap = 0;

	while (f && getline(&line, &cap, f) > 0) {
		unsigned int ma, mi;
		char *mnt = NULL;

		if (sscanf(line, "%*d %*d %u:%u %*s %ms", &ma, &mi, &mnt) == 3 &&
		    touches(g, makedev(ma, mi)))
			reason(g, "it is mounted on %s", mnt);
		free(mnt);
	}
	free(line);
	if (f)
		fclose(f);
	f = fopen("/proc/swaps", "r");
	line = NULL;
	cap = 0;
	while (f && getline(&line, &cap, f) > 0) {
		char *path = NULL;
		struct stat st;

		if (sscanf(line, "%ms", &path) == 1 && path[0] == '/' && stat(path, &st) == 0 &&
		    S_ISBLK(st.st_mode) && touches(g, st.st_rdev))
			reason(g, "it is swap (%s)", path);
		free(path);
	}
	free(line);
	if (f)
		fclose(f);
}

/* What a blkid TYPE means to the user. */
static const char *what_type(const char *type)
{
	static const struct { const char *type, *what; } names[] = {
		{ "ceph_bluestore", "a Ceph BlueStore OSD label" },
		{ "LVM2_member", "an LVM2 physical volume" },
		{ "crypto_LUKS", "a LUKS header" },
		{ "linux_raid_member", "an MD RAID member" },
		{ "swap", "a swap signature" },
		{ "zfs_member", "a ZFS pool member" },
		{ "bcache", "a bcache superblock" },
		{ "drbd", "DRBD metadata" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(type, names[i].type))
			return names[i].what;
	return NULL;
}

/* The value of KEY= in blkid's export output, or NULL. */
static char *export_value(const char *out, const char *key)
{
	size_t kl = strlen(key);

	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, key, kl) && l[kl] == '=') {
			const char *v = l + kl + 1;

			return strndup(v, strcspn(v, "\n"));
		}
	}
	return NULL;
}

/* What blkid found on @path (NULL: on a copy), in the user's terms. */
static void say_found(struct guard *g, const char *out, const char *path)
{
	char *type = export_value(out, "TYPE"), *label = export_value(out, "LABEL");
	char *pt = export_value(out, "PTTYPE"), *usage = export_value(out, "USAGE");
	const char *what = type ? what_type(type) : NULL;

	if (type && what)
		reason(g, "it carries %s%s%s%s", what, label ? " labelled '" : "", label ? label : "",
		       label ? "'" : "");
	else if (type)
		reason(g, "it carries a%s (%s)%s%s%s",
		       usage && !strcmp(usage, "filesystem") ? " filesystem" : " signature of data",
		       type, label ? " labelled '" : "", label ? label : "", label ? "'" : "");
	else if (pt)
		reason(g, "it carries a partition table (%s)", pt);
	else if (path)
		reason(g, "it carries a signature of data (blkid -p %s says which)", path);
	else
		reason(g, "it carries a signature of data");
	free(type);
	free(label);
	free(pt);
	free(usage);
}

/*
 * The signature probe: blkid's low-level probe (libblkid, the -p mode: no
 * cache, the device itself), read-only, in its own process with a deadline:
 * a device that does not answer reads (dm-delay, a dead path) must not hang
 * the CLI. A child stuck in the kernel after the kill is left behind.
 */
static void check_signatures(struct guard *g, const char *path, int fd)
{
	/* -D: a partition's own table entry is not data on it. */
	char *argv[] = { "blkid", "-p", "-D", "-o", "export", "--",
			 fd >= 0 ? "/proc/self/fd/3" : (char *)path, NULL };
	double until = now_s() + PROBE_TIMEOUT_MS / 1000.0;
	posix_spawn_file_actions_t fa;
	int p[2], status = 0, rc;
	bool timed_out = false, reaped = false;
	char *out = NULL;
	size_t len = 0;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC)) {
		reason(g, "it could not be looked at for data on it (%s)", strerror(errno));
		return;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	/* A copy of what is probed (an image's ends), as the child's fd 3. */
	if (fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, fd, 3);
	rc = posix_spawnp(&pid, "blkid", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (rc) {
		reason(g, "it could not be looked at for data on it (blkid: %s)", strerror(rc));
		close(p[0]);
		return;
	}
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		double now = now_s();
		char chunk[256];
		ssize_t n;

		if (now >= until) {
			timed_out = true;
			break;
		}
		if (poll(&pfd, 1, (int)((until - now) * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!pfd.revents)
			continue;
		n = read(p[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		out = xrealloc(out, len + (size_t)n + 1);
		memcpy(out + len, chunk, (size_t)n);
		len += (size_t)n;
		out[len] = 0;
	}
	close(p[0]);
	if (timed_out)
		kill(pid, SIGKILL);
	/* Reaped within a second; one stuck in the kernel after the kill is left. */
	for (double end = now_s() + 1;; usleep(10000)) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid) {
			reaped = true;
			break;
		}
		if ((r < 0 && errno != EINTR) || now_s() >= end)
			break;
	}
	rc = reaped && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (timed_out)
		reason(g, "it did not answer the reads that look for data on it within %d s",
		       PROBE_TIMEOUT_MS / 1000);
	else if (rc == 0 && out)
		say_found(g, out, fd >= 0 ? NULL : path);
	else if (rc == 8 && fd < 0)
		reason(g, "it carries more than one signature of data (blkid -p %s says which)", path);
	else if (rc == 8)
		reason(g, "it carries more than one signature of data");
	else if (rc != 2)
		reason(g, "it could not be looked at for data on it (blkid -p exited %d)", rc);
	free(out);
}

static int guard_begin(struct guard *g, dev_t dev)
{
	*g = (struct guard){ .dev = dev };
	if (major(dev))
		g->whole = whole_of(dev);
	g->why = open_memstream(&g->buf, &g->len);
	return g->why ? 0 : -ENOMEM;
}

/* The reasons found (NULL: none; the caller frees them). */
static char *guard_end(struct guard *g)
{
	fclose(g->why);
	if (g->reasons)
		return g->buf;
	free(g->buf);
	return NULL;
}

int bl_write_guard(const char *path)
{
	struct guard g;
	struct stat st;
	char *why;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return 0;
	if (guard_begin(&g, st.st_rdev))
		return -ENOMEM;
	check_mounts(&g);
	check_holders(&g);
	check_openers(&g);
	/* In use already says enough; the probe reads only an idle device. */
	if (!g.reasons)
		check_signatures(&g, path, -1);
	why = guard_end(&g);
	if (!why)
		return 0;
	fprintf(stderr, "blkload: %s: not writing: %s; --force writes anyway\n", path, why);
	free(why);
	return -EBUSY;
}

char *bl_dev_in_use(const char *path)
{
	struct guard g;
	struct stat st;
	int fd;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return xasprintf("%s is not there to be looked at", path);
	if (guard_begin(&g, st.st_rdev))
		return xstrdup("its use could not be looked at (out of memory)");
	check_mounts(&g);
	check_holders(&g);
	check_openers(&g);
	/*
	 * A kernel user with no holder link (a blkload write job) shows in an
	 * exclusive open only; one that just ended may hold its claim for a
	 * moment (released at a deferred close on some kernels): up to 3 s.
	 */
	for (int i = 0; !g.reasons && i < 30; i++) {
		fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0) {
			close(fd);
			break;
		}
		if (errno != EBUSY)
			break;
		if (i == 29)
			reason(&g, "the kernel has it claimed (a blkload write job, or a holder)");
		else
			usleep(100000);
	}
	return guard_end(&g);
}

char *bl_data_on(int fd)
{
	struct guard g;

	if (guard_begin(&g, 0))
		return xstrdup("it could not be looked at for data on it (out of memory)");
	check_signatures(&g, NULL, fd);
	return guard_end(&g);
}
