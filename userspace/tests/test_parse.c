// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for fio-style size, time and CPU-list parsing.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "kselftest_harness.h"

#include "parse.h"

TEST(size_suffixes)
{
	uint64_t v = 0;

	ASSERT_EQ(0, parse_size("4096", &v));
	EXPECT_EQ(4096, v);
	ASSERT_EQ(0, parse_size("4k", &v));
	EXPECT_EQ(4096, v);
	ASSERT_EQ(0, parse_size("4K", &v));
	EXPECT_EQ(4096, v);
	/* fio's default kb_base 1024: the IEC forms are powers of 1000. */
	ASSERT_EQ(0, parse_size("4KiB", &v));
	EXPECT_EQ(4000, v);
	ASSERT_EQ(0, parse_size("4kb", &v));
	EXPECT_EQ(4096, v);
	ASSERT_EQ(0, parse_size("2MiB", &v));
	EXPECT_EQ(2000000, v);
	ASSERT_EQ(0, parse_size("1m", &v));
	EXPECT_EQ(1048576, v);
	ASSERT_EQ(0, parse_size("2G", &v));
	EXPECT_EQ(2ULL << 30, v);
	ASSERT_EQ(0, parse_size("512b", &v));
	EXPECT_EQ(512, v);
	ASSERT_EQ(0, parse_size("1t", &v));
	EXPECT_EQ(1ULL << 40, v);
}

TEST(kb_base_and_bases)
{
	uint64_t v = 0;

	ASSERT_EQ(0, parse_set_kb_base(1000));
	ASSERT_EQ(0, parse_size("4k", &v));
	EXPECT_EQ(4000, v);
	ASSERT_EQ(0, parse_size("4KiB", &v));
	EXPECT_EQ(4096, v);
	ASSERT_EQ(0, parse_size("1g", &v));
	EXPECT_EQ(1000000000ULL, v);
	EXPECT_EQ(-EINVAL, parse_set_kb_base(1023));
	ASSERT_EQ(0, parse_set_kb_base(1024));
	/* Hexadecimal after 0x, with or without a suffix; no octal. */
	ASSERT_EQ(0, parse_size("0x1000", &v));
	EXPECT_EQ(4096, v);
	ASSERT_EQ(0, parse_size("0x10k", &v));
	EXPECT_EQ(16384, v);
	ASSERT_EQ(0, parse_u64("010", &v));
	EXPECT_EQ(10, v);
	ASSERT_EQ(0, parse_u64("08", &v));
	EXPECT_EQ(8, v);
	ASSERT_EQ(0, parse_u64("0X1f", &v));
	EXPECT_EQ(31, v);
	EXPECT_EQ(-EINVAL, parse_u64("0x", &v));
	EXPECT_EQ(-EINVAL, parse_u64("1.5", &v));
}

TEST(size_rejects)
{
	uint64_t v = 77;

	EXPECT_EQ(-EINVAL, parse_size("", &v));
	EXPECT_EQ(-EINVAL, parse_size("k", &v));
	EXPECT_EQ(-EINVAL, parse_size("-4k", &v));
	EXPECT_EQ(-EINVAL, parse_size("4x", &v));
	EXPECT_EQ(-EINVAL, parse_size("4 k", &v));
	EXPECT_EQ(-EINVAL, parse_size(NULL, &v));
	EXPECT_EQ(-ERANGE, parse_size("99999999999999999999", &v));
	EXPECT_EQ(-ERANGE, parse_size("16777216p", &v));
	/* Failed parses leave the output alone. */
	EXPECT_EQ(77, v);
}

TEST(time_units)
{
	uint64_t v = 0;

	ASSERT_EQ(0, parse_time_ns("10", &v));
	EXPECT_EQ(10000000000ULL, v);
	ASSERT_EQ(0, parse_time_ns("10s", &v));
	EXPECT_EQ(10000000000ULL, v);
	ASSERT_EQ(0, parse_time_ns("250ms", &v));
	EXPECT_EQ(250000000ULL, v);
	ASSERT_EQ(0, parse_time_ns("250msec", &v));
	EXPECT_EQ(250000000ULL, v);
	ASSERT_EQ(0, parse_time_ns("7usec", &v));
	EXPECT_EQ(7000ULL, v);
	EXPECT_EQ(-EINVAL, parse_time_ns("7sec", &v));
	ASSERT_EQ(0, parse_time_ns("7us", &v));
	EXPECT_EQ(7000, v);
	ASSERT_EQ(0, parse_time_ns("2m", &v));
	EXPECT_EQ(120000000000ULL, v);
	ASSERT_EQ(0, parse_time_ns("1h", &v));
	EXPECT_EQ(3600000000000ULL, v);
	EXPECT_EQ(-EINVAL, parse_time_ns("1y", &v));
	EXPECT_EQ(-ERANGE, parse_time_ns("999999999999d", &v));
}

TEST(u32_range)
{
	uint32_t v = 5;

	ASSERT_EQ(0, parse_u32_range("32", 1, 64, &v));
	EXPECT_EQ(32, v);
	ASSERT_EQ(0, parse_u32_range("0x10", 1, 64, &v));
	EXPECT_EQ(16, v);
	EXPECT_EQ(-ERANGE, parse_u32_range("0", 1, 64, &v));
	EXPECT_EQ(-ERANGE, parse_u32_range("65", 1, 64, &v));
	EXPECT_EQ(-EINVAL, parse_u32_range("3.5", 1, 64, &v));
	EXPECT_EQ(-EINVAL, parse_u32_range("-1", 0, 64, &v));
	EXPECT_EQ(16, v);
}

TEST(cpulist)
{
	struct cpuset s = { 0 };
	char *f;

	ASSERT_EQ(0, parse_cpulist("0-3,8,10-11", &s));
	EXPECT_EQ(7, cpuset_count(&s));
	EXPECT_TRUE(cpuset_test(&s, 0));
	EXPECT_TRUE(cpuset_test(&s, 3));
	EXPECT_FALSE(cpuset_test(&s, 4));
	EXPECT_TRUE(cpuset_test(&s, 8));
	EXPECT_FALSE(cpuset_test(&s, 9));
	EXPECT_TRUE(cpuset_test(&s, 11));
	EXPECT_FALSE(cpuset_test(&s, 1000));
	EXPECT_EQ(12, cpuset_limit(&s));
	f = cpuset_format(&s);
	EXPECT_STREQ("0-3,8,10-11", f);
	free(f);
	cpuset_free(&s);
}

TEST(cpulist_large_and_bad)
{
	struct cpuset s = { 0 };
	char *f;

	ASSERT_EQ(0, parse_cpulist("200,63-65", &s));
	EXPECT_EQ(4, cpuset_count(&s));
	EXPECT_EQ(201, cpuset_limit(&s));
	f = cpuset_format(&s);
	EXPECT_STREQ("63-65,200", f);
	free(f);
	EXPECT_EQ(-EINVAL, parse_cpulist("", &s));
	EXPECT_EQ(-EINVAL, parse_cpulist("3-1", &s));
	EXPECT_EQ(-EINVAL, parse_cpulist("1,,2", &s));
	EXPECT_EQ(-EINVAL, parse_cpulist("a", &s));
	EXPECT_EQ(-EINVAL, parse_cpulist("1-", &s));
	EXPECT_EQ(-ERANGE, parse_cpulist("99999999", &s));
	/* The earlier set survives failed parses. */
	EXPECT_EQ(4, cpuset_count(&s));
	cpuset_free(&s);
}

/* --start-at: epoch, ISO 8601 with or without an offset, a time of day. */
TEST(wallclock)
{
	/* 2026-12-01 07:00:00 UTC */
	const int64_t now = 1796108400LL * 1000000000;
	int64_t t = 42;

	setenv("TZ", "UTC", 1);
	tzset();
	ASSERT_EQ(0, parse_wallclock("@1796108400", now, &t));
	EXPECT_EQ(now, t);
	ASSERT_EQ(0, parse_wallclock("@1796108400.25", now, &t));
	EXPECT_EQ(now + 250000000, t);
	ASSERT_EQ(0, parse_wallclock("2026-12-01T07:30:00Z", now, &t));
	EXPECT_EQ(now + 1800LL * 1000000000, t);
	ASSERT_EQ(0, parse_wallclock("2026-12-01T08:30:00+01:00", now, &t));
	EXPECT_EQ(now + 1800LL * 1000000000, t);
	ASSERT_EQ(0, parse_wallclock("2026-12-01T06:30:00.5-0100", now, &t));
	EXPECT_EQ(now + 1800LL * 1000000000 + 500000000, t);
	ASSERT_EQ(0, parse_wallclock("2026-12-01 07:30", now, &t));
	EXPECT_EQ(now + 1800LL * 1000000000, t);
	/* A time of day is today's, in the local zone. */
	ASSERT_EQ(0, parse_wallclock("07:00:10", now, &t));
	EXPECT_EQ(now + 10LL * 1000000000, t);
	setenv("TZ", "UTC-2", 1);	/* POSIX: two hours east of UTC */
	tzset();
	ASSERT_EQ(0, parse_wallclock("09:00:10", now, &t));
	EXPECT_EQ(now + 10LL * 1000000000, t);
	ASSERT_EQ(0, parse_wallclock("2026-12-01T09:30:00", now, &t));
	EXPECT_EQ(now + 1800LL * 1000000000, t);
	setenv("TZ", "UTC", 1);
	tzset();
	t = 42;
	EXPECT_EQ(-EINVAL, parse_wallclock("", now, &t));
	EXPECT_EQ(-EINVAL, parse_wallclock("@", now, &t));
	EXPECT_EQ(-EINVAL, parse_wallclock("@12x", now, &t));
	EXPECT_EQ(-EINVAL, parse_wallclock("@1.", now, &t));
	EXPECT_EQ(-EINVAL, parse_wallclock("@1.1234567891", now, &t));
	EXPECT_EQ(-EINVAL, parse_wallclock("7:30", now, &t));
	EXPECT_EQ(-EINVAL, parse_wallclock("25:00", now, &t));
	EXPECT_EQ(-EINVAL, parse_wallclock("2026-02-31T07:00:00Z", now, &t));
	EXPECT_EQ(-EINVAL, parse_wallclock("2026-12-01T07:00:00Q", now, &t));
	EXPECT_EQ(-EINVAL, parse_wallclock("2026-12-01T07:00:00+25:00", now, &t));
	EXPECT_EQ(-EINVAL, parse_wallclock("2026-12-01", now, &t));
	EXPECT_EQ(-EINVAL, parse_wallclock("tomorrow", now, &t));
	EXPECT_EQ(42, t);
}

TEST_HARNESS_MAIN
