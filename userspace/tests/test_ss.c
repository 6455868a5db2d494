// SPDX-License-Identifier: GPL-2.0
/* fio's steady state (ss.c): its forms, its window, its two criteria. */
#include <math.h>
#include <string.h>

#include "ss.h"
#include "kselftest_harness.h"

TEST(forms)
{
	struct ss_opts o;
	const char *why;

	ss_opts_init(&o);
	EXPECT_TRUE(o.slope && o.pct && !o.bw);
	EXPECT_EQ(0, ss_parse("iops:10%", &o, &why));
	EXPECT_TRUE(!o.slope && o.pct && !o.bw && o.limit == 10);
	EXPECT_EQ(0, ss_parse("bw_slope:1%", &o, &why));
	EXPECT_TRUE(o.slope && o.pct && o.bw && o.limit == 1);
	EXPECT_EQ(0, ss_parse("bw:10m", &o, &why));
	EXPECT_TRUE(!o.pct && o.limit == 10 << 20);
	EXPECT_EQ(0, ss_parse("iops_slope:0.5", &o, &why));
	EXPECT_TRUE(o.slope && !o.pct && o.limit == 0.5);
	EXPECT_EQ(-1, ss_parse("iops", &o, &why));
	EXPECT_EQ(-1, ss_parse("iops:", &o, &why));
	EXPECT_EQ(-1, ss_parse("iops:x", &o, &why));
	EXPECT_EQ(-1, ss_parse("iops:-1%", &o, &why));
	EXPECT_EQ(-1, ss_parse("iops:10m", &o, &why));
	EXPECT_EQ(-1, ss_parse("lat:10%", &o, &why));
	EXPECT_NE(NULL, strstr(why, "lat"));
}

/* Totals at each second: @rate(i) IOs of 4k in second i. */
static int feed(struct ss_state *s, double (*rate)(int), int secs)
{
	uint64_t ios = 0;

	for (int i = 0; i <= secs; i++) {
		if (i)
			ios += (uint64_t)rate(i);
		if (ss_feed(s, 100.0 + i, ios, ios * 4096))
			return i;
	}
	return -1;
}

static double steady(int i)
{
	return 1000 + (i % 2 ? 20 : -20);
}

static double rising(int i)
{
	return 1000 + 100.0 * i;
}

TEST(deviation_and_slope)
{
	struct ss_opts o;
	struct ss_state s = { 0 };
	const char *why;

	ss_opts_init(&o);
	o.dur_ns = 4000000000ULL;
	ASSERT_EQ(0, ss_parse("iops:10%", &o, &why));
	/* 2% off the mean each second: met once the window of 4 is full. */
	ss_start(&s, &o, 100.0);
	EXPECT_EQ(4, feed(&s, steady, 30));
	EXPECT_TRUE(s.attained);
	EXPECT_TRUE(fabs((s.criterion) - (2.0)) < 0.01);
	/* A 2% limit is not met by values 2% off. */
	ASSERT_EQ(0, ss_parse("iops:1.9%", &o, &why));
	ss_start(&s, &o, 100.0);
	EXPECT_EQ(-1, feed(&s, steady, 30));
	EXPECT_FALSE(s.attained);
	/* Rising 100 a second: the slope is 100, never under 1% of ~3000. */
	ASSERT_EQ(0, ss_parse("iops_slope:1%", &o, &why));
	ss_start(&s, &o, 100.0);
	EXPECT_EQ(-1, feed(&s, rising, 20));
	EXPECT_TRUE(fabs((s.slope) - (100.0)) < 0.01);
	/* Bandwidth: the same values times 4096. */
	ASSERT_EQ(0, ss_parse("bw:10%", &o, &why));
	ss_start(&s, &o, 100.0);
	EXPECT_EQ(4, feed(&s, steady, 30));
	EXPECT_TRUE(fabs((s.criterion) - (2.0)) < 0.01);
	/* ss_ramp: no value before it, the first an interval after it. */
	o.ramp_ns = 3000000000ULL;
	ss_start(&s, &o, 100.0);
	EXPECT_EQ(7, feed(&s, steady, 30));
	ss_free(&s);
}

TEST_HARNESS_MAIN
