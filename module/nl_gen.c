// SPDX-License-Identifier: GPL-2.0
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/blkload.yaml */
/* YNL-GEN kernel source (scripts/nlgen.py) */

#include "nl_gen.h"

static struct netlink_range_validation blkload_bs_range = {
	.min = 512,
	.max = 4194304,
};

static struct netlink_range_validation blkload_iodepth_range = {
	.min = 1,
	.max = 65536,
};

static struct netlink_range_validation blkload_runtime_range = {
	.min = 0,
	.max = 31536000000000000,
};

static struct netlink_range_validation blkload_ramp_time_range = {
	.min = 0,
	.max = 31536000000000000,
};

static struct netlink_range_validation blkload_batch_range = {
	.min = 1,
	.max = 65536,
};

static struct netlink_range_validation blkload_drain_timeout_range = {
	.min = 0,
	.max = 3600000,
};

static struct netlink_range_validation blkload_sample_interval_range = {
	.min = 0,
	.max = 3600000000000,
};

static struct netlink_range_validation blkload_sample_ring_range = {
	.min = 2,
	.max = 65536,
};

static struct netlink_range_validation blkload_thinktime_range = {
	.min = 0,
	.max = 3600000000000,
};

static struct netlink_range_validation blkload_startdelay_range = {
	.min = 0,
	.max = 3600000000000,
};

static struct netlink_range_validation blkload_batch_complete_range = {
	.min = 0,
	.max = 65536,
};

static struct netlink_range_validation blkload_rate_cycle_range = {
	.min = 1000000,
	.max = 3600000000000,
};

const struct nla_policy blkload_sample_nl_policy[BLKLOAD_A_SAMPLE_MAX + 1] = {
	[BLKLOAD_A_SAMPLE_INDEX] = { .type = NLA_U64, },
	[BLKLOAD_A_SAMPLE_TIME] = { .type = NLA_U64, },
	[BLKLOAD_A_SAMPLE_READ] = NLA_POLICY_NESTED(blkload_sample_op_nl_policy),
	[BLKLOAD_A_SAMPLE_WRITE] = NLA_POLICY_NESTED(blkload_sample_op_nl_policy),
	[BLKLOAD_A_SAMPLE_QUEUES] = { .type = NLA_U32, },
	[BLKLOAD_A_SAMPLE_TRIM] = NLA_POLICY_NESTED(blkload_sample_op_nl_policy),
};

const struct nla_policy blkload_sample_op_nl_policy[BLKLOAD_A_SAMPLE_OP_MAX + 1] = {
	[BLKLOAD_A_SAMPLE_OP_IOS] = { .type = NLA_U64, },
	[BLKLOAD_A_SAMPLE_OP_BYTES] = { .type = NLA_U64, },
	[BLKLOAD_A_SAMPLE_OP_LAT_SUM] = { .type = NLA_U64, },
	[BLKLOAD_A_SAMPLE_OP_CLAT_SUM] = { .type = NLA_U64, },
	[BLKLOAD_A_SAMPLE_OP_SLAT_SUM] = { .type = NLA_U64, },
	[BLKLOAD_A_SAMPLE_OP_CLAT_HIST_FIRST] = { .type = NLA_U32, },
	[BLKLOAD_A_SAMPLE_OP_CLAT_HIST] = { .type = NLA_BINARY, },
};

const struct nla_policy blkload_stats_nl_policy[BLKLOAD_A_STATS_MAX + 1] = {
	[BLKLOAD_A_STATS_ELAPSED] = { .type = NLA_U64, },
	[BLKLOAD_A_STATS_CPU_TIME] = { .type = NLA_U64, },
	[BLKLOAD_A_STATS_INFLIGHT] = { .type = NLA_U64, },
	[BLKLOAD_A_STATS_READ] = NLA_POLICY_NESTED(blkload_op_stats_nl_policy),
	[BLKLOAD_A_STATS_WRITE] = NLA_POLICY_NESTED(blkload_op_stats_nl_policy),
	[BLKLOAD_A_STATS_QUEUE] = NLA_POLICY_NESTED(blkload_queue_stats_nl_policy),
	[BLKLOAD_A_STATS_RAMP_DONE] = { .type = NLA_FLAG, },
	[BLKLOAD_A_STATS_STALL_MAX] = { .type = NLA_U64, },
	[BLKLOAD_A_STATS_DEPTH_TIME] = { .type = NLA_BINARY, },
	[BLKLOAD_A_STATS_CTX] = { .type = NLA_U64, },
	[BLKLOAD_A_STATS_QUEUES_NEXT] = { .type = NLA_U32, },
};

const struct nla_policy blkload_queue_stats_nl_policy[BLKLOAD_A_QUEUE_STATS_MAX + 1] = {
	[BLKLOAD_A_QUEUE_STATS_CPU] = { .type = NLA_U32, },
	[BLKLOAD_A_QUEUE_STATS_CPU_TIME] = { .type = NLA_U64, },
	[BLKLOAD_A_QUEUE_STATS_INFLIGHT] = { .type = NLA_U64, },
	[BLKLOAD_A_QUEUE_STATS_READ] = NLA_POLICY_NESTED(blkload_op_stats_nl_policy),
	[BLKLOAD_A_QUEUE_STATS_WRITE] = NLA_POLICY_NESTED(blkload_op_stats_nl_policy),
	[BLKLOAD_A_QUEUE_STATS_STALL_MAX] = { .type = NLA_U64, },
	[BLKLOAD_A_QUEUE_STATS_DEPTH_TIME] = { .type = NLA_BINARY, },
	[BLKLOAD_A_QUEUE_STATS_CTX] = { .type = NLA_U64, },
	[BLKLOAD_A_QUEUE_STATS_TRIM] = NLA_POLICY_NESTED(blkload_op_stats_nl_policy),
};

const struct nla_policy blkload_op_stats_nl_policy[BLKLOAD_A_OP_STATS_MAX + 1] = {
	[BLKLOAD_A_OP_STATS_IOS] = { .type = NLA_U64, },
	[BLKLOAD_A_OP_STATS_BYTES] = { .type = NLA_U64, },
	[BLKLOAD_A_OP_STATS_ERRORS] = { .type = NLA_U64, },
	[BLKLOAD_A_OP_STATS_LAT_MIN] = { .type = NLA_U64, },
	[BLKLOAD_A_OP_STATS_LAT_MAX] = { .type = NLA_U64, },
	[BLKLOAD_A_OP_STATS_LAT_SUM] = { .type = NLA_U64, },
	[BLKLOAD_A_OP_STATS_HIST] = { .type = NLA_BINARY, },
	[BLKLOAD_A_OP_STATS_LAT_SUM_HI] = { .type = NLA_U64, },
	[BLKLOAD_A_OP_STATS_LAT_SQ] = { .type = NLA_U64, },
	[BLKLOAD_A_OP_STATS_LAT_SQ_HI] = { .type = NLA_U64, },
	[BLKLOAD_A_OP_STATS_CLAT] = NLA_POLICY_NESTED(blkload_lat_stats_nl_policy),
	[BLKLOAD_A_OP_STATS_SLAT] = NLA_POLICY_NESTED(blkload_lat_stats_nl_policy),
	[BLKLOAD_A_OP_STATS_DEVLAT] = NLA_POLICY_NESTED(blkload_lat_stats_nl_policy),
};

const struct nla_policy blkload_sched_stats_nl_policy[BLKLOAD_A_SCHED_STATS_MAX + 1] = {
	[BLKLOAD_A_SCHED_STATS_READ] = NLA_POLICY_NESTED(blkload_lat_stats_nl_policy),
	[BLKLOAD_A_SCHED_STATS_WRITE] = NLA_POLICY_NESTED(blkload_lat_stats_nl_policy),
	[BLKLOAD_A_SCHED_STATS_TRIM] = NLA_POLICY_NESTED(blkload_lat_stats_nl_policy),
};

const struct nla_policy blkload_lat_stats_nl_policy[BLKLOAD_A_LAT_STATS_MAX + 1] = {
	[BLKLOAD_A_LAT_STATS_LAT_MIN] = { .type = NLA_U64, },
	[BLKLOAD_A_LAT_STATS_LAT_MAX] = { .type = NLA_U64, },
	[BLKLOAD_A_LAT_STATS_LAT_SUM] = { .type = NLA_U64, },
	[BLKLOAD_A_LAT_STATS_LAT_SUM_HI] = { .type = NLA_U64, },
	[BLKLOAD_A_LAT_STATS_LAT_SQ] = { .type = NLA_U64, },
	[BLKLOAD_A_LAT_STATS_LAT_SQ_HI] = { .type = NLA_U64, },
	[BLKLOAD_A_LAT_STATS_LAT_HIST] = { .type = NLA_BINARY, },
};

const struct nla_policy blkload_verify_stats_nl_policy[BLKLOAD_A_VERIFY_STATS_MAX + 1] = {
	[BLKLOAD_A_VERIFY_STATS_CHECKED] = { .type = NLA_U64, },
	[BLKLOAD_A_VERIFY_STATS_SKIPPED] = { .type = NLA_U64, },
	[BLKLOAD_A_VERIFY_STATS_ERRORS] = { .type = NLA_U64, },
	[BLKLOAD_A_VERIFY_STATS_READBACK] = { .type = NLA_U64, },
	[BLKLOAD_A_VERIFY_STATS_REPORT] = NLA_POLICY_NESTED(blkload_verify_report_nl_policy),
};

const struct nla_policy blkload_verify_report_nl_policy[BLKLOAD_A_VERIFY_REPORT_MAX + 1] = {
	[BLKLOAD_A_VERIFY_REPORT_OFFSET] = { .type = NLA_U64, },
	[BLKLOAD_A_VERIFY_REPORT_WHAT] = { .type = NLA_U32, },
	[BLKLOAD_A_VERIFY_REPORT_EXPECTED] = { .type = NLA_U64, },
	[BLKLOAD_A_VERIFY_REPORT_FOUND] = { .type = NLA_U64, },
};

const struct nla_policy blkload_nl_policy[BLKLOAD_A_MAX + 1] = {
	[BLKLOAD_A_VERSION] = { .type = NLA_NUL_STRING, .len = 64, },
	[BLKLOAD_A_ABI_VERSION] = { .type = NLA_U32, },
	[BLKLOAD_A_KERNEL_RELEASE] = { .type = NLA_NUL_STRING, .len = 64, },
	[BLKLOAD_A_MAX_IODEPTH] = { .type = NLA_U32, },
	[BLKLOAD_A_MAX_BS] = { .type = NLA_U32, },
	[BLKLOAD_A_MAX_JOBS] = { .type = NLA_U32, },
	[BLKLOAD_A_MEM_BUDGET] = { .type = NLA_U64, },
	[BLKLOAD_A_MEM_USED] = { .type = NLA_U64, },
	[BLKLOAD_A_NR_JOBS] = { .type = NLA_U32, },
	[BLKLOAD_A_JOB_ID] = { .type = NLA_U32, },
	[BLKLOAD_A_PATH] = { .type = NLA_NUL_STRING, .len = 4096, },
	[BLKLOAD_A_RW] = NLA_POLICY_MAX(NLA_U32, 7),
	[BLKLOAD_A_RWMIXREAD] = NLA_POLICY_MAX(NLA_U32, 100),
	[BLKLOAD_A_BS] = NLA_POLICY_FULL_RANGE(NLA_U32, &blkload_bs_range),
	[BLKLOAD_A_IODEPTH] = NLA_POLICY_FULL_RANGE(NLA_U32, &blkload_iodepth_range),
	[BLKLOAD_A_CPUMASK] = { .type = NLA_BINARY, .len = 1024, },
	[BLKLOAD_A_OFFSET] = { .type = NLA_U64, },
	[BLKLOAD_A_SIZE] = { .type = NLA_U64, },
	[BLKLOAD_A_RUNTIME] = NLA_POLICY_FULL_RANGE(NLA_U64, &blkload_runtime_range),
	[BLKLOAD_A_RAMP_TIME] = NLA_POLICY_FULL_RANGE(NLA_U64, &blkload_ramp_time_range),
	[BLKLOAD_A_NUMBER_IOS] = { .type = NLA_U64, },
	[BLKLOAD_A_IO_SIZE] = { .type = NLA_U64, },
	[BLKLOAD_A_RANDSEED] = { .type = NLA_U64, },
	[BLKLOAD_A_ALLOW_WRITE] = { .type = NLA_FLAG, },
	[BLKLOAD_A_FORCE] = { .type = NLA_FLAG, },
	[BLKLOAD_A_DETACHED] = { .type = NLA_FLAG, },
	[BLKLOAD_A_NO_LAT] = { .type = NLA_FLAG, },
	[BLKLOAD_A_BATCH] = NLA_POLICY_FULL_RANGE(NLA_U32, &blkload_batch_range),
	[BLKLOAD_A_STATE] = { .type = NLA_U32, },
	[BLKLOAD_A_REASON] = { .type = NLA_U32, },
	[BLKLOAD_A_ERROR] = { .type = NLA_S32, },
	[BLKLOAD_A_DEV_SIZE] = { .type = NLA_U64, },
	[BLKLOAD_A_DEV_LBS] = { .type = NLA_U32, },
	[BLKLOAD_A_MEM_PINNED] = { .type = NLA_U64, },
	[BLKLOAD_A_STATS] = NLA_POLICY_NESTED(blkload_stats_nl_policy),
	[BLKLOAD_A_WANT_HIST] = { .type = NLA_FLAG, },
	[BLKLOAD_A_WANT_QUEUES] = { .type = NLA_FLAG, },
	[BLKLOAD_A_DRAIN_TIMEOUT] = NLA_POLICY_FULL_RANGE(NLA_U32, &blkload_drain_timeout_range),
	[BLKLOAD_A_OWNER] = { .type = NLA_U32, },
	[BLKLOAD_A_INFLIGHT] = { .type = NLA_U64, },
	[BLKLOAD_A_DELETED] = { .type = NLA_FLAG, },
	[BLKLOAD_A_NR_WORKERS] = { .type = NLA_U32, },
	[BLKLOAD_A_CONTINUE_ON_ERROR] = NLA_POLICY_MAX(NLA_U32, 3),
	[BLKLOAD_A_SAMPLE_INTERVAL] = NLA_POLICY_FULL_RANGE(NLA_U64,
							    &blkload_sample_interval_range),
	[BLKLOAD_A_SAMPLE_RING] = NLA_POLICY_FULL_RANGE(NLA_U32, &blkload_sample_ring_range),
	[BLKLOAD_A_SAMPLE_FROM] = { .type = NLA_U64, },
	[BLKLOAD_A_SAMPLE] = NLA_POLICY_NESTED(blkload_sample_nl_policy),
	[BLKLOAD_A_SAMPLE_NEXT] = { .type = NLA_U64, },
	[BLKLOAD_A_SAMPLE_LOST] = { .type = NLA_U64, },
	[BLKLOAD_A_RWMIXTRIM] = NLA_POLICY_MAX(NLA_U32, 100),
	[BLKLOAD_A_REQ_FLAGS] = NLA_POLICY_MAX(NLA_U32, 31),
	[BLKLOAD_A_STATS_TRIM] = NLA_POLICY_NESTED(blkload_op_stats_nl_policy),
	[BLKLOAD_A_RATE_IOPS] = { .type = NLA_U32, },
	[BLKLOAD_A_RATE_PROCESS] = NLA_POLICY_MAX(NLA_U32, 1),
	[BLKLOAD_A_STATS_SCHED] = NLA_POLICY_NESTED(blkload_sched_stats_nl_policy),
	[BLKLOAD_A_RANDOM_DISTRIBUTION] = NLA_POLICY_MAX(NLA_U32, 5),
	[BLKLOAD_A_RANDOM_DISTRIBUTION_PARAM] = { .type = NLA_U32, },
	[BLKLOAD_A_BS_SPLIT] = { .type = NLA_BINARY, .len = 192, },
	[BLKLOAD_A_BS_SPLIT_WRITE] = { .type = NLA_BINARY, .len = 192, },
	[BLKLOAD_A_THINKTIME] = NLA_POLICY_FULL_RANGE(NLA_U64, &blkload_thinktime_range),
	[BLKLOAD_A_THINKTIME_BLOCKS] = NLA_POLICY_MIN(NLA_U32, 1),
	[BLKLOAD_A_STARTDELAY] = NLA_POLICY_FULL_RANGE(NLA_U64, &blkload_startdelay_range),
	[BLKLOAD_A_LOOPS] = NLA_POLICY_MIN(NLA_U32, 1),
	[BLKLOAD_A_BUFFER_COMPRESS_PERCENTAGE] = NLA_POLICY_MAX(NLA_U32, 100),
	[BLKLOAD_A_DEDUPE_PERCENTAGE] = NLA_POLICY_MAX(NLA_U32, 100),
	[BLKLOAD_A_ZERO_BUFFERS] = { .type = NLA_FLAG, },
	[BLKLOAD_A_VERIFY] = NLA_POLICY_MAX(NLA_U32, 1),
	[BLKLOAD_A_VERIFY_NO_READBACK] = { .type = NLA_FLAG, },
	[BLKLOAD_A_VERIFY_STATS] = NLA_POLICY_NESTED(blkload_verify_stats_nl_policy),
	[BLKLOAD_A_QUEUE_FIRST] = { .type = NLA_U32, },
	[BLKLOAD_A_BATCH_COMPLETE] = NLA_POLICY_FULL_RANGE(NLA_U32, &blkload_batch_complete_range),
	[BLKLOAD_A_PASS_ENDS] = { .type = NLA_FLAG, },
	[BLKLOAD_A_RANDOM_ZONES] = { .type = NLA_BINARY, .len = 256, },
	[BLKLOAD_A_RANDOM_MAP] = { .type = NLA_FLAG, },
	[BLKLOAD_A_BLOCK_ALIGN] = { .type = NLA_U32, },
	[BLKLOAD_A_RW_HOLE] = { .type = NLA_S64, },
	[BLKLOAD_A_RATE_BPS] = { .type = NLA_U64, },
	[BLKLOAD_A_RATE_MIN] = { .type = NLA_U64, },
	[BLKLOAD_A_RATE_IOPS_MIN] = { .type = NLA_U32, },
	[BLKLOAD_A_RATE_CYCLE] = NLA_POLICY_FULL_RANGE(NLA_U64, &blkload_rate_cycle_range),
	[BLKLOAD_A_DEDUPE_WORKING_SET] = NLA_POLICY_MAX(NLA_U32, 100),
	[BLKLOAD_A_DEDUPE_SEED] = { .type = NLA_U64, },
	[BLKLOAD_A_DEDUPE_BASE] = { .type = NLA_U64, },
	[BLKLOAD_A_ZONE_RANGE] = { .type = NLA_U64, },
	[BLKLOAD_A_ZONE_SIZE] = { .type = NLA_U64, },
	[BLKLOAD_A_ZONE_SKIP] = { .type = NLA_U64, },
};
