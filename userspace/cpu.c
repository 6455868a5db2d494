// SPDX-License-Identifier: GPL-2.0
/*
 * Whole-client CPU (cpu.h). /proc/stat counts in USER_HZ ticks: over a
 * window of seconds that is a resolution of 10 ms across all CPUs.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu.h"
#include "util.h"

static const char *const ceph_daemons[] = {
	"ceph-osd", "ceph-mon", "ceph-mgr", "ceph-mds", "radosgw",
};

int cpu_exclude_parse(struct cpu_exclude *ex, const char *list)
{
	char *copy, *rest, *tok;

	memset(ex, 0, sizeof(*ex));
	if (!list || !strcmp(list, "auto")) {
		for (size_t i = 0; i < ARRAY_SIZE(ceph_daemons); i++) {
			ex->names = xrealloc(ex->names, (ex->nr + 1) * sizeof(*ex->names));
			ex->names[ex->nr++] = xstrdup(ceph_daemons[i]);
		}
		return 0;
	}
	if (!strcmp(list, "none"))
		return 0;
	copy = xstrdup(list);
	rest = copy;
	while ((tok = strsep(&rest, ","))) {
		/* comm holds at most 15 characters */
		if (!*tok || strlen(tok) > 15) {
			free(copy);
			cpu_exclude_free(ex);
			return -1;
		}
		ex->names = xrealloc(ex->names, (ex->nr + 1) * sizeof(*ex->names));
		ex->names[ex->nr++] = xstrdup(tok);
	}
	free(copy);
	return 0;
}

void cpu_exclude_free(struct cpu_exclude *ex)
{
	for (unsigned int i = 0; i < ex->nr; i++)
		free(ex->names[i]);
	free(ex->names);
	free(ex->procs);
	memset(ex, 0, sizeof(*ex));
}

static uint64_t tick_ns(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return 1000000000ULL / (uint64_t)(hz > 0 ? hz : 100);
}

/* utime + stime of /proc/.../stat at @path, in ns; 0 when unreadable. */
static uint64_t proc_time(const char *path)
{
	unsigned long long ut = 0, st = 0;
	char buf[1024], *p;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* The name may hold spaces and parentheses: fields follow the last ')'. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return 0;
	return (uint64_t)(ut + st) * tick_ns();
}

static int excluded_name(const struct cpu_exclude *ex, const char *comm)
{
	for (unsigned int i = 0; i < ex->nr; i++)
		if (!strcmp(ex->names[i], comm))
			return 1;
	return 0;
}

/* The left-out processes' time since the first sample. */
static uint64_t excluded_time(const char *proc, struct cpu_exclude *ex, int first)
{
	struct dirent *de;
	uint64_t sum = 0;
	DIR *d;

	if (!ex->nr || !(d = opendir(proc)))
		return 0;
	if (first)
		ex->nr_procs = 0;
	while ((de = readdir(d))) {
		char path[512], comm[64] = "";
		uint64_t ns;
		int pid;
		FILE *f;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = atoi(de->d_name);
		snprintf(path, sizeof(path), "%s/%d/comm", proc, pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = 0;
		fclose(f);
		comm[strcspn(comm, "\n")] = 0;
		if (!excluded_name(ex, comm))
			continue;
		snprintf(path, sizeof(path), "%s/%d/stat", proc, pid);
		ns = proc_time(path);
		if (first) {
			ex->procs = xrealloc(ex->procs, (ex->nr_procs + 1) * sizeof(*ex->procs));
			ex->procs[ex->nr_procs].pid = pid;
			ex->procs[ex->nr_procs++].ns = ns;
			continue;
		}
		/* A process started in the window counts whole. */
		for (unsigned int i = 0; i < ex->nr_procs; i++) {
			if (ex->procs[i].pid == pid) {
				ns = ns > ex->procs[i].ns ? ns - ex->procs[i].ns : 0;
				break;
			}
		}
		sum += ns;
	}
	closedir(d);
	return sum;
}

int cpu_sample_take(const char *proc, struct cpu_exclude *ex, struct cpu_sample *s, int first)
{
	unsigned long long v[8] = { 0 };
	char path[512], line[512];
	struct timespec ts;
	FILE *f;

	memset(s, 0, sizeof(*s));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->t_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	snprintf(path, sizeof(path), "%s/stat", proc);
	f = fopen(path, "r");
	if (!f)
		return -1;
	/* cpu user nice system idle iowait irq softirq steal ... */
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) != 8) {
		fclose(f);
		return -1;
	}
	/* One "cpuN" line per online CPU. */
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "cpu", 3) && isdigit((unsigned char)line[3]))
			s->ncpus++;
	fclose(f);
	s->idle = (v[3] + v[4]) * tick_ns();
	s->busy[CPU_USER] = v[0] * tick_ns();
	s->busy[CPU_NICE] = v[1] * tick_ns();
	s->busy[CPU_SYSTEM] = v[2] * tick_ns();
	s->busy[CPU_IRQ] = v[5] * tick_ns();
	s->busy[CPU_SOFTIRQ] = v[6] * tick_ns();
	s->excluded = excluded_time(proc, ex, first);
	snprintf(path, sizeof(path), "%s/self/stat", proc);
	s->own = proc_time(path);
	return 0;
}

void cpu_report(struct out *o, const struct cpu_sample *a, const struct cpu_sample *b,
		uint64_t ios, const struct cpu_exclude *ex)
{
	static const char *const names[CPU_NR] = { "user", "nice", "system", "irq", "softirq" };
	double window = (double)(b->t_ns - a->t_ns) / 1e9, busy, client;

	busy = window * (b->ncpus ? b->ncpus : 1) - (double)(b->idle - a->idle) / 1e9;
	if (busy < 0)
		busy = 0;
	client = busy - (double)b->excluded / 1e9;
	if (client < 0)
		client = 0;
	out_begin_object(o, "client_cpu", "client CPU");
	out_double(o, "window_s", "window", window, 3, "s");
	out_u64(o, "cpus", "online CPUs", b->ncpus, NULL);
	out_double(o, "cpu_s", "busy, all CPUs", busy, 3, "s");
	for (int i = 0; i < CPU_NR; i++)
		out_double(o, names[i], NULL, (double)(b->busy[i] - a->busy[i]) / 1e9, 3, NULL);
	out_double(o, "excluded_s", "left out", (double)b->excluded / 1e9, 3, "s");
	out_double(o, "client_s", "client", client, 3, "s");
	out_double(o, "own_s", "blkload process", (double)(b->own - a->own) / 1e9, 3, "s");
	out_double(o, "cores", "cores busy", window > 0 ? client / window : 0, 3, NULL);
	out_double(o, "cpu_us_per_io", "CPU per IO", ios ? client * 1e6 / (double)ios : 0, 3,
		   "us");
	out_double(o, "iops_per_core", "IOPS per core",
		   client > 0 && window > 0 ? (double)ios / client : 0, 1, NULL);
	if (ex->nr) {
		out_begin_array(o, "excluded", NULL);
		for (unsigned int i = 0; i < ex->nr; i++)
			out_str(o, NULL, NULL, ex->names[i]);
		out_end_array(o);
	}
	out_end_object(o);
}

void cpu_window_start(struct cpu_window *cw)
{
	if (cw && !cw->started)
		cw->started = !cpu_sample_take("/proc", &cw->ex, &cw->a, 1);
}

void cpu_window_end(struct cpu_window *cw)
{
	if (cw && cw->started && !cw->ended)
		cw->ended = !cpu_sample_take("/proc", &cw->ex, &cw->b, 0);
}
