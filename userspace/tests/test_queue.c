// SPDX-License-Identifier: GPL-2.0
/*
 * The queue machine (include/blkload/queue.h) driven by scripted traces on
 * the host (include/blkload/qsim.h): a virtual clock and a device with a
 * fixed service time that can refuse IOs. The same traces run in the guest
 * as a KUnit suite against the same header (module/kunit/queue_test.c).
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include <blkload/qsim.h>

static struct bl_sim *sim(void)
{
	struct bl_sim *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	return s;
}

#define TRACE(call)						\
	do {							\
		struct bl_sim *s = sim();			\
		const char *why = (call);			\
								\
		EXPECT_EQ(NULL, why) TH_LOG("%s", why);		\
		free(s);					\
	} while (0)

TEST(ramp_counts_from_its_end)
{
	TRACE(bl_sim_trace_ramp(s));
}

TEST(limit_exact_over_queues)
{
	TRACE(bl_sim_trace_limit(s, 0, 0));
}

/* Issue 17's hang: refused IOs during the ramp, a limit after it. */
TEST(limit_exact_with_refusals_and_a_ramp)
{
	TRACE(bl_sim_trace_limit(s, 0, 3));
	TRACE(bl_sim_trace_limit(s, 2000000, 3));
	TRACE(bl_sim_trace_limit(s, 2000000, 2));
}

TEST(reap_batch_as_fio)
{
	TRACE(bl_sim_trace_reap_batch(s));
}

TEST(stop_and_samples_between_reaps)
{
	TRACE(bl_sim_trace_stop_samples(s));
}

TEST(think_stalls)
{
	TRACE(bl_sim_trace_think(s));
}

TEST(rate_spaces_ios)
{
	TRACE(bl_sim_trace_rate(s));
}

TEST(rate_in_bytes)
{
	TRACE(bl_sim_trace_rate_bytes(s));
}

TEST(rate_min_ends_a_slow_job)
{
	TRACE(bl_sim_trace_rate_min(s));
}

/* Refusals reaped after a limit's drain began go again: exact counts still. */
TEST(limit_exact_with_refusals_at_completion)
{
	TRACE((s->async_refuse = true, bl_sim_trace_limit(s, 0, 3)));
	TRACE((s->async_refuse = true, bl_sim_trace_limit(s, 2000000, 2)));
}

TEST(verify_reads_back)
{
	TRACE(bl_sim_trace_verify(s, false));
	TRACE(bl_sim_trace_verify(s, true));
}

TEST(stop_in_every_phase)
{
	static const unsigned int phases[] = {
		BL_PH_HOLD, BL_PH_RUN, BL_PH_THINK, BL_PH_DRAIN, BL_PH_VWAIT, BL_PH_VERIFY,
		BL_PH_VDRAIN,
	};

	for (size_t i = 0; i < 2 * sizeof(phases) / sizeof(phases[0]); i++) {
		struct bl_sim *s = sim();
		size_t k = i % (sizeof(phases) / sizeof(phases[0]));
		bool async = i >= sizeof(phases) / sizeof(phases[0]);
		const char *why = bl_sim_trace_stop_in(s, phases[k], async);

		EXPECT_EQ(NULL, why) TH_LOG("stop in phase %u%s: %s", phases[k],
					     async ? " (refusals at completion)" : "", why);
		free(s);
	}
}

/* A runtime's end with refused writes held, then verify's pass: no queue waits forever. */
TEST(runtime_then_verify_with_refusals)
{
	TRACE(bl_sim_trace_runtime_verify(s, false));
	TRACE(bl_sim_trace_runtime_verify(s, true));
}

/* The traces can fail: a machine that counts a refused IO twice is caught. */
TEST(a_trace_fails_on_a_wrong_count)
{
	struct bl_sim *s = sim();
	const char *why;

	bl_sim_params(s, BLKLOAD_RW_RANDREAD, 1, 4);
	s->p.number_ios = 100;
	ASSERT_EQ(NULL, bl_sim_start(s));
	/* One IO counted that never was: the limit ends the queue one short. */
	s->qs[0].q.issued++;
	why = bl_sim_run(s, 100000);
	ASSERT_EQ(NULL, why);
	EXPECT_NE(s->qs[0].q.limit, s->qs[0].q.s.st[BL_READ].ios);
	free(s);
}

TEST_HARNESS_MAIN
