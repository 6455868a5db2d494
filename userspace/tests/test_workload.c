// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the workload options of run/start (workload.c): fio's
 * spellings and numbers, its options mapped or refused in one line.
 */
#include <stdarg.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "parse.h"
#include "workload.h"

/* Parses a NULL-terminated list of arguments after "run". */
static int parse(struct workload *w, const char *first, ...)
{
	char *argv[64] = { "run" };
	int argc = 1, ret;
	const char *a;
	va_list ap;

	va_start(ap, first);
	for (a = first; a && argc < 63; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	ret = workload_parse(w, argc, argv, "run");
	return ret;
}

TEST(fio_numbers)
{
	struct workload w;

	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--bs", "0x1000", "--iodepth", "08",
			   "--number_ios", "010", "--ramp_time", "250msec", "--runtime", "2",
			   NULL));
	EXPECT_EQ(4096, w.p.bs);
	EXPECT_EQ(8, w.p.iodepth);
	EXPECT_EQ(10, w.p.number_ios);
	EXPECT_EQ(250000000ULL, w.p.ramp_ns);
	EXPECT_EQ(2000000000ULL, w.p.runtime_ns);
	workload_free(&w);
	/* kb_base=1000 counts wherever it stands. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--size", "1m", "--kb_base=1000", NULL));
	EXPECT_EQ(1000000, w.p.size);
	workload_free(&w);
	/* Each parse starts from fio's default again; abbreviations count. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--size", "1m", NULL));
	EXPECT_EQ(1048576, w.p.size);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--size", "1m", "--kb=1000", NULL));
	EXPECT_EQ(1000000, w.p.size);
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--kb_base", "1001", NULL));
	workload_free(&w);
	/* Drain timeouts with units round up; a zero result is not "do not wait". */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--drain-timeout", "1500us", NULL));
	EXPECT_EQ(2, w.drain_ms);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--drain_timeout", "5s", NULL));
	EXPECT_EQ(5000, w.drain_ms);
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--drain-timeout", "2h", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--percentile_list", "50:50", NULL));
	workload_free(&w);
}

TEST(both_spellings_and_help)
{
	struct workload w;

	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--ramp-time", "1", "--io-size", "1m",
			   "--drain_timeout", "10", "--per_cpu", "--allow_write",
			   "--rw", "write", NULL));
	EXPECT_EQ(1000000000ULL, w.p.ramp_ns);
	EXPECT_EQ(1048576, w.p.io_size);
	EXPECT_EQ(10, w.drain_ms);
	EXPECT_TRUE(w.ro.queues);
	EXPECT_TRUE(w.p.allow_write);
	workload_free(&w);
	EXPECT_EQ(1, parse(&w, "-h", NULL));
	workload_free(&w);
}

TEST(fio_options_mapped)
{
	struct workload w;
	char *s;

	/* The last CPU this process may use and the one before (or itself). */
	cpu_set_t may;
	unsigned int last = 0, before = 0;
	char list[32];

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(may), &may));
	for (unsigned int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &may)) {
			before = CPU_COUNT(&may) > 1 && last != c ? last : c;
			last = c;
		}
	if (CPU_COUNT(&may) == 1)
		before = last;
	snprintf(list, sizeof(list), "%u,%u", before, last);
	ASSERT_EQ(0, parse(&w, "--filename=/dev/a:/dev/b\\:c", "--direct=1", "--name=job1",
			   "--time_based", "--group_reporting", "--norandommap", "--ioengine=libaio",
			   "--numjobs=2", "--cpus_allowed_policy=split", "--cpus_allowed", list,
			   "--output=/tmp/x.json", NULL));
	ASSERT_EQ(2, w.nr_devs);
	EXPECT_STREQ("/dev/a", w.devs[0]);
	EXPECT_STREQ("/dev/b:c", w.devs[1]);
	EXPECT_STREQ("job1", w.name);
	EXPECT_STREQ("libaio", w.engine);
	EXPECT_STREQ("/tmp/x.json", w.output);
	/* fio's numjobs: copies; cpus_allowed, the CPUs they are placed on, one each. */
	EXPECT_EQ(2, w.numjobs);
	EXPECT_TRUE(w.have_allowed);
	EXPECT_FALSE(w.have_cpus);
	EXPECT_TRUE(w.group_reporting);
	EXPECT_FALSE(w.buffered);
	workload_place(&w, 0);
	EXPECT_TRUE(cpuset_test(&w.cpus, before));
	EXPECT_EQ(1, cpuset_count(&w.cpus));
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--numjobs=2", "--cpus_allowed", list,
			   "--randseed=7", NULL));
	workload_place(&w, 3);
	EXPECT_TRUE(cpuset_test(&w.cpus, last));
	EXPECT_EQ(1, cpuset_count(&w.cpus));
	/* Each copy its own seed (fio's jobs are seeded apart). */
	EXPECT_NE(7, w.p.randseed);
	workload_free(&w);
	/* A CPU that does not exist: refused, as fio does. */
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--cpus_allowed=100000", NULL));
	workload_free(&w);
	/* One outside this process's affinity is taken (taskset -c 0 blkload ...). */
	if (CPU_COUNT(&may) > 1) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(before, &one);
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(one), &one));
		snprintf(list, sizeof(list), "%u", last);
		EXPECT_EQ(0, parse(&w, "--dev", "/dev/x", "--cpus_allowed", list, NULL));
		workload_free(&w);
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(may), &may));
	}
	/* numjobs alone: the CPUs this process may use, in turn; one copy each. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--numjobs", "4096", NULL));
	workload_place(&w, 1);
	EXPECT_EQ(1, cpuset_count(&w.cpus));
	workload_free(&w);
	/* --cpus (one job, a queue per CPU) is kept as given by every copy. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--numjobs", "4", "--cpus", "0", NULL));
	workload_place(&w, 2);
	s = cpuset_format(&w.cpus);
	EXPECT_STREQ("0", s);
	free(s);
	workload_free(&w);
	/* fio's direct=0 and buffered=1: the page cache, on libaio when no engine is named. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--direct=0", NULL));
	EXPECT_TRUE(w.buffered);
	EXPECT_STREQ("libaio", w.engine);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--buffered=1", "--direct=1", "--ioengine=io_uring",
			   NULL));
	EXPECT_FALSE(w.buffered);
	EXPECT_STREQ("io_uring", w.engine);
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--numjobs", "4097", NULL));
	workload_free(&w);
	/* fio's psync & co: one IO at a time, on the libaio engine. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--ioengine=psync", "--iodepth=8", NULL));
	EXPECT_STREQ("libaio", w.engine);
	EXPECT_EQ(1, w.p.iodepth);
	EXPECT_TRUE(w.sync_engine);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--ioengine=posixaio", "--iodepth=8", NULL));
	EXPECT_STREQ("libaio", w.engine);
	EXPECT_EQ(8, w.p.iodepth);
	workload_free(&w);
	/* fio's io_submit_mode=offload: taken as inline, with a warning. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--io_submit_mode=offload", "--rate_iops=100",
			   NULL));
	workload_free(&w);
	/* --filename twice: every name stays valid (they point into copies). */
	ASSERT_EQ(0, parse(&w, "--filename=/dev/a:/dev/b", "--filename", "/dev/c:/dev/d", NULL));
	ASSERT_EQ(4, w.nr_devs);
	EXPECT_STREQ("/dev/a", w.devs[0]);
	EXPECT_STREQ("/dev/d", w.devs[3]);
	workload_free(&w);
	/* --dev is taken as it is: by-path names have colons. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/disk/by-path/pci-0000:00:1f.2-ata-1", NULL));
	ASSERT_EQ(1, w.nr_devs);
	workload_free(&w);
	/* fio's =1 form of flags; a second --name is refused. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--time_based=1", "--group_reporting=1",
			   "--gtod_reduce=1", "--norandommap", NULL));
	EXPECT_TRUE(w.p.no_lat);
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--name=a", "--name=b", NULL));
	workload_free(&w);
}

/* fio's random_distribution, in the module's units; nonsense refused. */
TEST(random_distribution)
{
	static const struct {
		const char *s;
		int ok;
		uint32_t dist, param;
	} c[] = {
		{ "zipf:1.2", 0, BLKLOAD_DIST_ZIPF, 1200 }, { "pareto:0.3", 0, BLKLOAD_DIST_PARETO, 300 },
		{ "normal:5", 0, BLKLOAD_DIST_NORMAL, 500 }, { "random", 0, BLKLOAD_DIST_RANDOM, 0 },
		{ "zipf:1", -1, 0, 0 }, { "zipf:0", -1, 0, 0 }, { "zipf:11", -1, 0, 0 },
		{ "pareto:1", -1, 0, 0 },
		{ "normal:100", -1, 0, 0 }, { "zipf", -1, 0, 0 }, { "zipf:x", -1, 0, 0 },
		{ "gauss:3", -1, 0, 0 },
		{ "zipf:1.2:0", -1, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint32_t d = 99, p = 99;

		EXPECT_EQ(c[i].ok, dist_parse(c[i].s, &d, &p)) TH_LOG("%s", c[i].s);
		if (!c[i].ok) {
			EXPECT_EQ(c[i].dist, d);
			EXPECT_EQ(c[i].param, p);
		}
	}
}

/* The options of request flavours, trims and rates land in the workload. */
TEST(flavours_and_rates)
{
	struct workload w;

	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--fua", "--hipri=1", "--nowait", "--nowait=0",
			   "--rwmixtrim=20", "--rate_iops=500", "--rate_process=poisson", NULL));
	EXPECT_EQ(BLKLOAD_REQ_FUA | BLKLOAD_REQ_HIPRI, w.p.req);
	EXPECT_EQ(20, w.p.rwmixtrim);
	EXPECT_EQ(500, w.p.rate_iops);
	EXPECT_EQ(BLKLOAD_RATE_PROCESS_POISSON, w.p.rate_process);
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--fua=2", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--rwmixtrim=101", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--rate_iops=0", NULL));
	workload_free(&w);
}

/* fio's bssplit and bsrange forms; bs becomes the smallest size. */
TEST(bssplit)
{
	struct workload w;

	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--bssplit=4k/50:64k/40:1m/10", NULL));
	EXPECT_EQ(3, w.p.nbs[0]);
	EXPECT_EQ(3, w.p.nbs[1]);
	EXPECT_EQ(4096, w.p.bs);
	EXPECT_EQ(1 << 20, w.p.bs_max);
	EXPECT_EQ(65536, w.p.bss[1][1].lo);
	EXPECT_EQ(90, w.p.bss[1][1].cum);
	workload_free(&w);
	/* Writes apart; an entry without a percent takes what is left, split evenly. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--bssplit=8k/50:16k:32k,64k", NULL));
	EXPECT_EQ(3, w.p.nbs[0]);
	EXPECT_EQ(75, w.p.bss[0][1].cum);
	EXPECT_EQ(100, w.p.bss[0][2].cum);
	EXPECT_EQ(1, w.p.nbs[1]);
	EXPECT_EQ(100, w.p.bss[1][0].cum);
	EXPECT_EQ(8192, w.p.bs);
	EXPECT_EQ(65536, w.p.bs_max);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--bsrange=4k-64k", NULL));
	EXPECT_EQ(4096, w.p.bss[0][0].lo);
	EXPECT_EQ(65536, w.p.bss[0][0].hi);
	EXPECT_EQ(100, w.p.bss[0][0].cum);
	workload_free(&w);
	static const char *const bad[] = {
		"4k/50:64k/40", "4k/50:64k/60", "x/100", "4k/101", "4k/50:8k/50:16k",
		"4k/5:4k/5:4k/5:4k/5:4k/5:4k/5:4k/5:4k/5:4k/5:4k/5:4k/5:4k/5:4k/5:4k/5:4k/5:4k/5:4k/20",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--bssplit", bad[i], NULL))
			TH_LOG("accepted %s", bad[i]);
		workload_free(&w);
	}
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--bsrange=64k-4k", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--bsrange=4k-8k:16k-32k", NULL));
	workload_free(&w);
}

/*
 * fio's rate: bytes a second, as IOs of bs when exact (rate-iops), else as
 * bytes (rate-bps: fractions of an IO, splits); a mix when its directions'
 * rates keep its shares, paced at their sum; the last of rate and rate_iops
 * wins; 0 is no limit; refused over two devices, with a fourth field, on a
 * mix whose rates do not keep its shares or leave a direction free.
 */
TEST(rate_as_rate_iops)
{
	static const struct {
		const char *a[5];
		int ret;
		uint32_t iops;
		uint64_t bps;
	} cases[] = {
		{ { "--rw=randread", "--rate=1m" }, 0, 256, 0 },
		{ { "--rw=write", "--bs=8k", "--rate=,8m", "--allow-write" }, 0, 1024, 0 },
		{ { "--rw=write", "--rate=1m," }, 0, 0, 0 },	/* only reads limited */
		{ { "--rate=1m", "--rate_iops=5" }, 0, 5, 0 },
		{ { "--rate_iops=5", "--rate=1m" }, 0, 256, 0 },
		{ { "--rate=0" }, 0, 0, 0 },
		/* 1250 KiB/s of 4k reads is 312.5 IOs a second. */
		{ { "--rate=1250k" }, 0, 0, 1280000 },
		{ { "--rate=6000" }, 0, 0, 6000 },
		/* Each direction 1m at 50/50: 2m in all, 512 IOs a second. */
		{ { "--rw=randrw", "--rate=1m" }, 0, 512, 0 },
		/* fio's exitwhat: 300 B/s each way of a 50/50 mix. */
		{ { "--rw=randrw", "--rate=300,300,300" }, 0, 0, 600 },
		{ { "--rw=randrw", "--rwmixread=70", "--rate=7m,3m" }, 0, 2560, 0 },
		{ { "--rw=randrw", "--bssplit=4k/100,16k/100", "--rate=1m,4m", "--allow-write" },
		  0, 0, 5 << 20 },
		{ { "--rw=randrw", "--rwmixread=70", "--rate=1m" }, -1, 0, 0 },
		{ { "--rw=randrw", "--rate=1m," }, -1, 0, 0 },
		{ { "--rw=randread", "--bssplit=4k/50:8k/50", "--rate=6m" }, 0, 0, 6 << 20 },
		{ { "--rate=1m,2m,3m,4m" }, -1, 0, 0 },
		/* fio's rule: the last value given is the next directions' too. */
		{ { "--rw=trim", "--rate=1m,2m", "--allow-write" }, 0, 512, 0 },
		/* One IO a second on two queues: kept as bytes (rate-iops would be refused). */
		{ { "--rate=4k", "--cpus=0-1" }, 0, 0, 4096 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct workload w;

		EXPECT_EQ(cases[i].ret, parse(&w, "--dev", "/dev/x", cases[i].a[0], cases[i].a[1],
					      cases[i].a[2], cases[i].a[3], cases[i].a[4], NULL))
			TH_LOG("case %zu", i);
		if (!cases[i].ret) {
			EXPECT_EQ(cases[i].iops, w.p.rate_iops) TH_LOG("case %zu", i);
			EXPECT_EQ(cases[i].bps, w.p.rate_bps) TH_LOG("case %zu", i);
		}
		workload_free(&w);
	}
	{
		struct workload w;

		EXPECT_EQ(-1, parse(&w, "--filename=/dev/x:/dev/y", "--rate=1m", NULL));
		workload_free(&w);
	}
}

/*
 * fio's rate_min and rate_iops_min: one value over the job's directions
 * (fio's form, a value for each, when they agree), rate_min wins; ratecycle
 * in ms; exitall and exit_what.
 */
TEST(rate_min_and_exitall)
{
	struct workload w;

	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--ratemin=1024", "--rate=4k",
			   "--ratecycle=500", "--exitall", "--exit_what=stonewall", NULL));
	EXPECT_EQ(1024, w.p.rate_min);
	EXPECT_EQ(0, w.p.rate_iops_min);
	EXPECT_EQ(500000000ULL, w.p.rate_cycle_ns);
	EXPECT_TRUE(w.exitall);
	EXPECT_EQ(EXIT_STONEWALL, w.exit_what);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--rw=randrw", "--rate_iops_min=5,5", NULL));
	EXPECT_EQ(5, w.p.rate_iops_min);
	EXPECT_EQ(0, w.p.rate_cycle_ns);
	EXPECT_FALSE(w.exitall);
	EXPECT_EQ(EXIT_GROUP, w.exit_what);
	workload_free(&w);
	/* Only reads: the writes' value is not the job's. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--rate_min=1m,2m", NULL));
	EXPECT_EQ(1 << 20, w.p.rate_min);
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--rw=randrw", "--rate_min=1m,2m", NULL));
	workload_free(&w);
	/* fio's refusals: both minimums; a minimum above the rate. */
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--ratemin=1m", "--rate_iops_min=5", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--ratemin=2m", "--rate=1m", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--rate_iops_min=20", "--rate_iops=10", NULL));
	workload_free(&w);
	/* fio's zonemode=strided: zonesize alone means it; zonerange its size; size the IO. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--zonesize=256k", "--zoneskip=2g", "--size=1g",
			   NULL));
	EXPECT_EQ(256 << 10, w.p.zone_range);
	EXPECT_EQ(2ULL << 30, w.p.zone_skip);
	EXPECT_EQ(0, w.p.size);
	EXPECT_EQ(1ULL << 30, w.p.io_size);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--zonemode=none", NULL));
	EXPECT_EQ(0, w.p.zone_range);
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--zonemode=none", "--zonesize=1m", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--zonemode=strided", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--zonemode=zbd", NULL));
	workload_free(&w);
	/* fio's dedupe working set: only for copies; its default 5%; 0% a set of 1%. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--dedupe_mode=working_set",
			   "--dedupe_percentage=40", "--dedupe_global", NULL));
	EXPECT_EQ(5, w.p.dedupe_ws);
	EXPECT_TRUE(w.dedupe_global);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--dedupe_mode=working_set",
			   "--dedupe_working_set_percentage=0", "--dedupe_percentage=40", NULL));
	EXPECT_EQ(1, w.p.dedupe_ws);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--dedupe_mode=working_set", NULL));
	EXPECT_EQ(0, w.p.dedupe_ws);
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--dedupe_mode=some", NULL));
	workload_free(&w);
	/* A steady state window of one value: refused. */
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--ss_dur=1s", NULL));
	workload_free(&w);
	EXPECT_EQ(0, parse(&w, "--dev", "/dev/x", "--ss_dur=2s", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--exit_what=some", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--ratecycle=0", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--filename=/dev/x:/dev/y", "--ratemin=1m", NULL));
	workload_free(&w);
}

/*
 * fio's runtime: a cap on one pass over the region unless time_based; the
 * pass of a block size split is the region's bytes over the split's mean.
 */
TEST(runtime_caps_a_pass)
{
	static const struct {
		const char *a[4];
		bool pass_ends;
		uint64_t ios;	/* on a 1 MiB device, 0: none */
	} cases[] = {
		{ { "--runtime=2", NULL }, true, 256 },
		{ { "--runtime=2", "--time_based", NULL }, false, 0 },
		{ { "--time_based=1", "--runtime=2", NULL }, false, 0 },
		{ { "--time_based=0", "--runtime=2", NULL }, true, 256 },
		{ { "--time_based", "--runtime=2", "--time_based=0", NULL }, true, 256 },
		{ { "--time_based", NULL }, false, 256 },
		{ { "--runtime=2", "--io_size=64k", NULL }, true, 16 },
		{ { "--time_based", "--runtime=2", "--number_ios=9", NULL }, false, 9 },
		/* Mean 16k: 64 IOs; reads 4k and writes 28k: 50% 64, 75% (10k) 102. */
		{ { "--bssplit=4k/50:28k/50", "--rw=randread", NULL }, false, 64 },
		{ { "--bssplit=4k,28k", "--rw=randrw", NULL }, false, 64 },
		{ { "--bssplit=4k,28k", "--rw=randrw", "--rwmixread=75", NULL }, false, 102 },
		{ { "--bsrange=4k-12k", "--rw=randread", "--io_size=128k", NULL }, false, 16 },
		/* fio: number_ios past the pass does not extend it; io_size does. */
		{ { "--runtime=2", "--number_ios=1000", NULL }, true, 256 },
		{ { "--runtime=2", "--number_ios=100", NULL }, true, 100 },
		{ { "--runtime=2", "--io_size=2m", NULL }, true, 512 },
		/* fio's forward hole: the pass ends where the offset passes the end. */
		{ { "--rw=write:4k", "--allow-write", NULL }, false, 128 },
		{ { "--rw=write:8k", "--allow-write", NULL }, false, 86 },
		{ { "--rw=read:-8k", NULL }, false, 256 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = NULL;
		struct workload w;

		ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", cases[i].a[0], cases[i].a[1],
				   cases[i].a[2], cases[i].a[3], NULL)) TH_LOG("case %zu", i);
		EXPECT_EQ(cases[i].pass_ends, w.p.pass_ends) TH_LOG("case %zu", i);
		ASSERT_EQ(0, bl_params_region(&w.p, 1 << 20, 512, 1, &why)) TH_LOG("%s", why);
		EXPECT_EQ(cases[i].ios, w.p.number_ios) TH_LOG("case %zu", i);
		workload_free(&w);
	}
}

/* fio's numa_cpu_nodes: node 0's CPUs (sysfs), with cpus_allowed the CPUs in both. */
TEST(numa_cpu_nodes)
{
	struct cpuset node0 = { 0 };
	char list[4096] = "";
	struct workload w;
	unsigned int c;
	FILE *f;

	f = fopen("/sys/devices/system/node/node0/cpulist", "r");
	if (!f || !fgets(list, sizeof(list), f))
		SKIP(return, "no NUMA node 0 in sysfs");
	fclose(f);
	list[strcspn(list, "\n")] = 0;
	ASSERT_EQ(0, parse_cpulist(list, &node0));
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--numa_cpu_nodes=0", "--numjobs=2",
			   "--numa_mem_policy=interleave:0", NULL));
	ASSERT_TRUE(w.have_allowed);
	EXPECT_EQ(cpuset_count(&node0), cpuset_count(&w.allowed));
	for (c = 0; c < cpuset_limit(&node0); c++)
		EXPECT_EQ(cpuset_test(&node0, c), cpuset_test(&w.allowed, c)) TH_LOG("CPU %u", c);
	workload_free(&w);
	/* As in fio, the nodes' CPUs replace cpus_allowed's. */
	{
		unsigned int first = 0;
		char one[32];

		while (!cpuset_test(&node0, first))
			first++;
		snprintf(one, sizeof(one), "--cpus_allowed=%u", first);
		ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", one, "--numa_cpu_nodes=0", NULL));
		EXPECT_EQ(cpuset_count(&node0), cpuset_count(&w.allowed));
		workload_free(&w);
	}
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--numa_cpu_nodes=4095", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--numa_cpu_nodes=0", "--cpus", "0", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--numa_mem_policy=spread", NULL));
	workload_free(&w);
	cpuset_free(&node0);
}

/* fio's zoned and zoned_abs, as fio's rand-zones example and HOWTO write them. */
TEST(zoned_distributions)
{
	static const char *const bad[] = {
		"zoned:50/5:30/15:10/",		/* 90% of the IOs */
		"zoned:50/60:50/60",		/* 120% of the region */
		"zoned:50/5,50/5:50/95",	/* per direction */
		"zoned:/5:100/95",		/* no access percent */
		"zoned_abs:50/1g:50/",		/* zoned_abs needs sizes */
		"zoned:10/1:10/1:10/1:10/1:10/1:10/1:10/1:10/1:10/1:5/1:5/1:1/1:1/1:1/1:1/1:1/1:1/1",
	};
	struct workload w;

	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--rw=randread",
			   "--random_distribution=zoned:50/5:30/15:20/", NULL));
	EXPECT_EQ(BLKLOAD_DIST_ZONED, w.p.dist);
	ASSERT_EQ(3, w.p.nzones);
	EXPECT_EQ(50, w.p.zones[0].access);
	EXPECT_EQ(5, w.p.zones[0].size);
	EXPECT_EQ(15, w.p.zones[1].size);
	EXPECT_EQ(20, w.p.zones[2].access);
	EXPECT_EQ(80, w.p.zones[2].size);	/* what the others leave */
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--rw=randread",
			   "--random_distribution=zoned_abs:60/20G:30/100G:10/500g", NULL));
	EXPECT_EQ(BLKLOAD_DIST_ZONED_ABS, w.p.dist);
	ASSERT_EQ(3, w.p.nzones);
	EXPECT_EQ(20ULL << 30, w.p.zones[0].size);
	EXPECT_EQ(500ULL << 30, w.p.zones[2].size);
	workload_free(&w);
	/* A later random_distribution replaces the zones. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--rw=randread",
			   "--random_distribution=zoned:100/10", "--random_distribution=zipf:1.2",
			   NULL));
	EXPECT_EQ(0, w.p.nzones);
	EXPECT_EQ(BLKLOAD_DIST_ZIPF, w.p.dist);
	workload_free(&w);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char opt[256];

		snprintf(opt, sizeof(opt), "--random_distribution=%s", bad[i]);
		EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--rw=randread", opt, NULL))
			TH_LOG("accepted %s", bad[i]);
		workload_free(&w);
	}
}

/*
 * A random map's IOs past one pass (io_size 2.5 regions): each queue its
 * indices of the whole passes and its share of the partial one's first.
 */
TEST(random_map_queue_limits)
{
	static const uint64_t want[3] = { 2 * 86 + 43, 2 * 85 + 43, 2 * 85 + 42 };
	const char *why = NULL;
	struct workload w;
	uint64_t sum = 0;

	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--rw=randread", "--io_size=2560k", NULL));
	ASSERT_TRUE(w.p.random_map);
	ASSERT_EQ(0, bl_params_region(&w.p, 1 << 20, 512, 3, &why)) TH_LOG("%s", why);
	ASSERT_TRUE(bl_params_map(&w.p));
	for (unsigned int q = 0; q < 3; q++) {
		EXPECT_EQ(want[q], bl_params_queue_limit(&w.p, q, 3)) TH_LOG("queue %u", q);
		sum += bl_params_queue_limit(&w.p, q, 3);
	}
	EXPECT_EQ(640, sum);
	workload_free(&w);
	/* fio's lfsr never repeats a block: the map stays, norandommap or not. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--rw=randread", "--norandommap",
			   "--random_generator=lfsr", NULL));
	EXPECT_TRUE(w.p.random_map);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--rw=randread", "--norandommap",
			   "--random_generator=tausworthe64", NULL));
	EXPECT_FALSE(w.p.random_map);
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--random_generator=mt", NULL));
	workload_free(&w);
	/* norandommap: the even split of before. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--rw=randread", "--io_size=2560k",
			   "--norandommap", NULL));
	ASSERT_EQ(0, bl_params_region(&w.p, 1 << 20, 512, 3, &why));
	EXPECT_FALSE(bl_params_map(&w.p));
	EXPECT_EQ(214, bl_params_queue_limit(&w.p, 0, 3));
	workload_free(&w);
}

/* fio's sizes that are not multiples of the smallest: their common divisor, fio's blockalign. */
TEST(split_unit_as_fio)
{
	static const struct {
		const char *opt, *unaligned;
		uint32_t bs, bs_max, align;
	} cases[] = {
		/* fio rounds 6k down to 4k without bs_unaligned. */
		{ "--bssplit=4k/50:6k/50", NULL, 4096, 4096, 0 },
		{ "--bssplit=4k/50:6k/50", "--bs_unaligned", 2048, 6144, 4096 },
		{ "--bssplit=4k/50:64k/50", NULL, 4096, 65536, 0 },
		{ "--bsrange=4k-6k", NULL, 4096, 6144, 0 },
		{ "--bssplit=6k/50:9k/50", "--blocksize_unaligned=1", 3072, 9216, 6144 },
		{ "--bssplit=6k/50:9k/50", NULL, 6144, 6144, 0 },
	};
	const char *why = NULL;
	struct workload w;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--rw=randread", cases[i].opt,
				   cases[i].unaligned, NULL));
		EXPECT_EQ(cases[i].bs, w.p.bs) TH_LOG("%s", cases[i].opt);
		EXPECT_EQ(cases[i].bs_max, w.p.bs_max) TH_LOG("%s", cases[i].opt);
		EXPECT_EQ(cases[i].align, w.p.blockalign) TH_LOG("%s", cases[i].opt);
		workload_free(&w);
	}
	/* A pass of 4k/50:6k/50 over 1 MiB: 1 MiB over the 5k mean, 205 IOs. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--rw=randread", "--bssplit=4k/50:6k/50",
			   "--bs_unaligned", NULL));
	ASSERT_EQ(0, bl_params_region(&w.p, 1 << 20, 512, 1, &why)) TH_LOG("%s", why);
	EXPECT_EQ(205, w.p.number_ios);
	workload_free(&w);
}

TEST(fio_options_refused)
{
	static const char *const bad[][3] = {
		{ "--direct=2", NULL }, { "--verify=md5", NULL }, { "--cpus_allowed=0-1", NULL },
		{ "--cpus_allowed=x", NULL }, { "--numjobs=0", NULL },
		{ "--cpus_allowed_policy=other", NULL },
		{ "--filename=/dev/a::/dev/b", NULL }, { "--bogus", NULL }, { "--rate_ignore_thinktime=1", NULL },
		{ "--verify", NULL }, { "--time_based=2", NULL }, { "--norandommap=2", NULL },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct workload w;
		int ret;

		/* cpus_allowed with blkload's --cpus: not both. */
		if (i == 2)
			ret = parse(&w, "--dev", "/dev/x", bad[i][0], "--cpus", "0", NULL);
		else
			ret = parse(&w, "--dev", "/dev/x", bad[i][0], NULL);
		EXPECT_EQ(-1, ret) TH_LOG("accepted %s", bad[i][0]);
		workload_free(&w);
	}
}

/* Parses @argv (NULL-terminated, after "run") with stderr into @err. */
static int parse_err(struct workload *w, char **argv, char *err, size_t len)
{
	FILE *saved = stderr, *f = fmemopen(err, len, "w");
	int argc = 0, ret;

	while (argv[argc])
		argc++;
	memset(err, 0, len);
	stderr = f;
	ret = workload_parse_args(w, argc, argv, "run", true);
	stderr = saved;
	fclose(f);
	return ret;
}

/*
 * Command lines as fio's users write them: one dash, a bool's value apart,
 * fio's options that blkload behaves like, a file option, an alias.
 */
TEST(fio_command_lines)
{
	char *ceph[] = { "run", "--filename=/dev/x", "--cpus_allowed_policy", "split",
			 "--randrepeat", "0", "--disk_util", "0", "--time_based", "--runtime", "20",
			 "--ramp_time", "10", "--numjobs", "1", "--buffered", "0", NULL };
	char *dash[] = { "run", "-ioengine=libaio", "-filename=/dev/x", "-bs=8k", "-rw=write",
			 "-direct=1", "-end_fsync=0", "-timeout=7", NULL };
	char *file[] = { "run", "--dev", "/dev/x", "--directory", "/mnt", "--nrfiles=2",
			 "--group_reporting", "1", "job.fio", NULL };
	char err[1024];
	struct workload w;
	uint64_t seed;

	ASSERT_EQ(0, parse_err(&w, ceph, err, sizeof(err))) TH_LOG("%s", err);
	/* "0" after --randrepeat and --disk_util is their value, not a job file. */
	EXPECT_EQ(0, w.nr_jobfiles);
	EXPECT_EQ(20000000000ULL, w.p.runtime_ns);
	EXPECT_EQ(10000000000ULL, w.p.ramp_ns);
	EXPECT_STREQ("", err);
	/* fio's randrepeat=0: a seed of its own each run. */
	seed = w.p.randseed;
	EXPECT_NE(0, seed);
	workload_free(&w);
	ASSERT_EQ(0, parse_err(&w, ceph, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_NE(seed, w.p.randseed);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--randrepeat=0", "--randseed=5", NULL));
	EXPECT_EQ(5, w.p.randseed);
	workload_free(&w);
	/* The last randrepeat wins (the command line's over a job file's). */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--randrepeat=off", "--randrepeat=1", NULL));
	EXPECT_EQ(0, w.p.randseed);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--randrepeat=no", NULL));
	EXPECT_NE(0, w.p.randseed);
	workload_free(&w);
	/* A value given apart to an option fio gives a value to; bare flags take none. */
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--iodepth_batch_complete", "1", "--overwrite",
			   "--fixedbufs", "--write_bw_log", "bw", NULL));
	EXPECT_EQ(0, w.nr_jobfiles);
	EXPECT_STREQ("bw", w.logs.bw);
	workload_free(&w);

	ASSERT_EQ(0, parse_err(&w, dash, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_STREQ("libaio", w.engine);
	EXPECT_EQ(8192, w.p.bs);
	EXPECT_EQ(7000000000ULL, w.p.runtime_ns);
	ASSERT_EQ(1, w.nr_devs);
	EXPECT_STREQ("/dev/x", w.devs[0]);
	workload_free(&w);

	/* The file options go with one warning each; the job file stays an argument. */
	ASSERT_EQ(0, parse_err(&w, file, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(1, w.nr_jobfiles);
	EXPECT_STREQ("job.fio", w.jobfiles[0]);
	EXPECT_NE(NULL, strstr(err, "'directory' ignored")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "'nrfiles' ignored")) TH_LOG("%s", err);
	workload_free(&w);
}

/* fio's filesize on a device: the region ends there (size = filesize - offset); size wins. */
TEST(filesize_on_a_device)
{
	struct workload w;

	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--filesize=1m", "--offset=256k", NULL));
	EXPECT_EQ(768 * 1024, w.p.size);
	EXPECT_EQ(256 * 1024, w.p.offset);
	workload_free(&w);
	ASSERT_EQ(0, parse(&w, "--dev", "/dev/x", "--filesize=1m", "--size=64k", NULL));
	EXPECT_EQ(64 * 1024, w.p.size);
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--filesize=1m-2m", NULL));
	workload_free(&w);
	EXPECT_EQ(-1, parse(&w, "--dev", "/dev/x", "--filesize=1m", "--offset=1m", NULL));
	workload_free(&w);
}

/* Every refusal of a fio option says what it is, never "unknown". */
TEST(fio_refusals_say_why)
{
	static const char *const cases[][2] = {
		{ "--rate_ignore_thinktime", "'rate_ignore_thinktime' is a fio I/O rate option that blkload does not have yet" },
		{ "--buffered=x", "--buffered 'x': a bool" },
		{ "-cmd_type=nvme", "'cmd_type' is an option of fio's io_uring_cmd" },
		{ "--latency_target=10ms", "'latency_target' is a fio latency target option" },
		{ "--verify_backlog=1", "'verify_backlog' is a fio verification option" },
		{ "--max_open_zones=2", "'max_open_zones' is a fio zoned device option" },
		{ "-sqthread_poll=1", "'sqthread_poll=1': blkload's io_uring engine submits from its own thread" },
		{ "--profile=act", "'profile' names one of fio's predefined workloads" },
		{ "--end_fsync=1", "'end_fsync=1': blkload's direct IO leaves nothing to flush" },
		{ "--exitall_on_error", "'exitall_on_error': an error ends only the job that had it" },
		{ "--refill_buffers", "'refill_buffers' is a fio buffer option that blkload does not have yet" },
		{ "--create_only=1", "'create_only=1': blkload does the job's IO" },
		{ "--randrepeat=maybe", "--randrepeat 'maybe': a bool" },
	};
	char err[1024];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[] = { "run", "--dev", "/dev/x", (char *)cases[i][0], NULL };
		struct workload w;

		EXPECT_EQ(-1, parse_err(&w, argv, err, sizeof(err))) TH_LOG("accepted %s", cases[i][0]);
		EXPECT_NE(NULL, strstr(err, cases[i][1])) TH_LOG("%s: %s", cases[i][0], err);
		workload_free(&w);
	}
}

TEST_HARNESS_MAIN
