// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the whole-client CPU window (cpu.c) on a made-up /proc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>

#include <json-c/json.h>

#include "kselftest_harness.h"

#include "cpu.h"

static void put(const char *dir, const char *name, const char *text)
{
	char path[1100];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

/* A process's stat line with utime and stime in ticks; its name has a ") (". */
static void proc(const char *root, int pid, const char *comm, unsigned int ut, unsigned int st)
{
	char dir[512], line[512];

	snprintf(dir, sizeof(dir), "%.400s/%d", root, pid);
	mkdir(dir, 0755);
	snprintf(line, sizeof(line), "%s\n", comm);
	put(dir, "comm", line);
	snprintf(line, sizeof(line),
		 "%d (%s) x) S 1 1 1 0 -1 4194560 0 0 0 0 %u %u 0 0 20 0 1 0 1 0 0\n",
		 pid, comm, ut, st);
	put(dir, "stat", line);
}

TEST(window_minus_ceph_daemons)
{
	char root[] = "/tmp/blkload-proc-XXXXXX", self[600];
	struct cpu_exclude ex;
	struct cpu_sample a, b;
	long hz = sysconf(_SC_CLK_TCK);
	double tick = 1.0 / (double)hz;
	char *text = NULL;
	size_t len = 0;
	struct json_object *d, *c, *v;
	FILE *f;
	struct out *o;

	ASSERT_NE(NULL, mkdtemp(root));
	snprintf(self, sizeof(self), "%s/self", root);
	mkdir(self, 0755);
	ASSERT_EQ(0, cpu_exclude_parse(&ex, NULL));
	/* user nice system idle iowait irq softirq steal */
	put(root, "stat", "cpu  100 0 200 5000 0 10 20 0 0 0\ncpu0 1 2 3\ncpu1 4 5 6\n");
	proc(root, 10, "ceph-osd", 50, 50);
	proc(root, 11, "bash", 70, 7);
	put(self, "stat", "1 (blkload) S 1 1 1 0 -1 0 0 0 0 0 5 5 0 0\n");
	ASSERT_EQ(0, cpu_sample_take(root, &ex, &a, 1));
	EXPECT_EQ(0, a.excluded);
	/*
	 * The window: 2 s on 2 CPUs, idle 4000 - 3600 = 400 ticks less than
	 * the whole (2 x 2 s), 150 ticks of it the OSD's, a new monitor's 30.
	 */
	put(root, "stat", "cpu  200 0 450 9000 0 20 60 0 0 0\ncpu0 1\ncpu1 2\n");
	proc(root, 10, "ceph-osd", 100, 150);
	proc(root, 12, "ceph-mon", 20, 10);
	proc(root, 11, "bash", 700, 70);
	put(self, "stat", "1 (blkload) S 1 1 1 0 -1 0 0 0 0 0 15 25 0 0\n");
	ASSERT_EQ(0, cpu_sample_take(root, &ex, &b, 0));
	EXPECT_EQ(2, b.ncpus);
	b.t_ns = a.t_ns + 2000000000ULL;
	/* Idle so that 400 ticks of the 2 x 2 s were busy. */
	b.idle = a.idle + (uint64_t)(4.0e9 - 400 * tick * 1e9);
	EXPECT_EQ((uint64_t)(180 * tick * 1e9 + 0.5), b.excluded);

	f = open_memstream(&text, &len);
	o = out_new(f, true, false);
	cpu_report(o, &a, &b, 1000, &ex);
	out_free(o);
	fclose(f);
	d = json_tokener_parse(text);
	ASSERT_NE(NULL, d);
	ASSERT_TRUE(json_object_object_get_ex(d, "client_cpu", &c));
	ASSERT_TRUE(json_object_object_get_ex(c, "cpu_s", &v));
	EXPECT_LT(fabs(json_object_get_double(v) - 400 * tick), 1e-3);
	ASSERT_TRUE(json_object_object_get_ex(c, "client_s", &v));
	EXPECT_LT(fabs(json_object_get_double(v) - 220 * tick), 1e-3);
	ASSERT_TRUE(json_object_object_get_ex(c, "cpu_us_per_io", &v));
	EXPECT_LT(fabs(json_object_get_double(v) - 220 * tick * 1e6 / 1000), 1e-3);
	ASSERT_TRUE(json_object_object_get_ex(c, "own_s", &v));
	EXPECT_LT(fabs(json_object_get_double(v) - 30 * tick), 1e-3);
	ASSERT_TRUE(json_object_object_get_ex(c, "cores", &v));
	EXPECT_LT(fabs(json_object_get_double(v) - 220 * tick / 2), 1e-3);
	json_object_put(d);
	free(text);
	cpu_exclude_free(&ex);
	EXPECT_EQ(0, system("rm -rf /tmp/blkload-proc-*"));
}

TEST(exclude_lists)
{
	struct cpu_exclude ex;

	ASSERT_EQ(0, cpu_exclude_parse(&ex, "none"));
	EXPECT_EQ(0, ex.nr);
	cpu_exclude_free(&ex);
	ASSERT_EQ(0, cpu_exclude_parse(&ex, "fio,stress-ng"));
	ASSERT_EQ(2, ex.nr);
	EXPECT_STREQ("stress-ng", ex.names[1]);
	cpu_exclude_free(&ex);
	EXPECT_EQ(-1, cpu_exclude_parse(&ex, "a,,b"));
	EXPECT_EQ(-1, cpu_exclude_parse(&ex, "a-name-longer-than-15"));
}

TEST_HARNESS_MAIN
