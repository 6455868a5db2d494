// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of blkload's queue machine (include/blkload/queue.h): the
 * scripted traces of include/blkload/qsim.h, the host's unit tests' own
 * (userspace/tests/test_queue.c), against the same header compiled into
 * the kernel. Built only where the kernel has KUnit (the debug lane's).
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include <blkload/qsim.h>

static struct bl_sim *bl_test_sim(struct kunit *test)
{
	struct bl_sim *s = kvzalloc(sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	return s;
}

/* One trace: NULL, or the sentence saying what the machine got wrong. */
#define BL_TRACE(test, call)						\
	do {								\
		struct kunit *t_ = (test);				\
		struct bl_sim *s = bl_test_sim(t_);			\
		const char *why = (call);				\
									\
		KUNIT_EXPECT_TRUE_MSG(t_, !why, "%s", why ? why : "");	\
		kvfree(s);						\
	} while (0)

static void bl_queue_test_ramp(struct kunit *test)
{
	BL_TRACE(test, bl_sim_trace_ramp(s));
}

static void bl_queue_test_limit(struct kunit *test)
{
	BL_TRACE(test, bl_sim_trace_limit(s, 0, 0));
	BL_TRACE(test, bl_sim_trace_limit(s, 0, 3));
	BL_TRACE(test, bl_sim_trace_limit(s, 2000000, 3));
	BL_TRACE(test, bl_sim_trace_limit(s, 2000000, 2));
	BL_TRACE(test, (s->async_refuse = true, bl_sim_trace_limit(s, 0, 3)));
}

static void bl_queue_test_reap_batch(struct kunit *test)
{
	BL_TRACE(test, bl_sim_trace_reap_batch(s));
}

static void bl_queue_test_stop_samples(struct kunit *test)
{
	BL_TRACE(test, bl_sim_trace_stop_samples(s));
}

static void bl_queue_test_think(struct kunit *test)
{
	BL_TRACE(test, bl_sim_trace_think(s));
}

static void bl_queue_test_rate(struct kunit *test)
{
	BL_TRACE(test, bl_sim_trace_rate(s));
	BL_TRACE(test, bl_sim_trace_rate_bytes(s));
	BL_TRACE(test, bl_sim_trace_rate_min(s));
}

static void bl_queue_test_verify(struct kunit *test)
{
	BL_TRACE(test, bl_sim_trace_verify(s, false));
	BL_TRACE(test, bl_sim_trace_verify(s, true));
}

static void bl_queue_test_stop(struct kunit *test)
{
	static const unsigned int phases[] = {
		BL_PH_HOLD, BL_PH_RUN, BL_PH_THINK, BL_PH_DRAIN, BL_PH_VWAIT, BL_PH_VERIFY,
		BL_PH_VDRAIN,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(phases); i++) {
		BL_TRACE(test, bl_sim_trace_stop_in(s, phases[i], false));
		BL_TRACE(test, bl_sim_trace_stop_in(s, phases[i], true));
	}
}

static void bl_queue_test_runtime_verify(struct kunit *test)
{
	BL_TRACE(test, bl_sim_trace_runtime_verify(s, false));
	BL_TRACE(test, bl_sim_trace_runtime_verify(s, true));
}

static struct kunit_case bl_queue_test_cases[] = {
	KUNIT_CASE(bl_queue_test_ramp),
	KUNIT_CASE(bl_queue_test_limit),
	KUNIT_CASE(bl_queue_test_reap_batch),
	KUNIT_CASE(bl_queue_test_stop_samples),
	KUNIT_CASE(bl_queue_test_think),
	KUNIT_CASE(bl_queue_test_rate),
	KUNIT_CASE(bl_queue_test_verify),
	KUNIT_CASE(bl_queue_test_stop),
	KUNIT_CASE(bl_queue_test_runtime_verify),
	{}
};

static struct kunit_suite bl_queue_test_suite = {
	.name = "blkload_queue",
	.test_cases = bl_queue_test_cases,
};

kunit_test_suite(bl_queue_test_suite);

MODULE_DESCRIPTION("KUnit tests of blkload's queue machine");
MODULE_LICENSE("GPL");
