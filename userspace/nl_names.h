/* SPDX-License-Identifier: GPL-2.0 */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/blkload.yaml */
/* YNL-GEN user names (scripts/nlgen.py) */

#ifndef BLKLOAD_NL_NAMES_H
#define BLKLOAD_NL_NAMES_H

#include <linux/blkload.h>

/* Top-level attribute names, for the kernel's "bad attribute" reports. */
static const char *const blkload_attr_names[] = {
	[BLKLOAD_A_VERSION] = "version",
	[BLKLOAD_A_ABI_VERSION] = "abi-version",
	[BLKLOAD_A_KERNEL_RELEASE] = "kernel-release",
	[BLKLOAD_A_MAX_IODEPTH] = "max-iodepth",
	[BLKLOAD_A_MAX_BS] = "max-bs",
	[BLKLOAD_A_MAX_JOBS] = "max-jobs",
	[BLKLOAD_A_MEM_BUDGET] = "mem-budget",
	[BLKLOAD_A_MEM_USED] = "mem-used",
	[BLKLOAD_A_NR_JOBS] = "nr-jobs",
	[BLKLOAD_A_JOB_ID] = "job-id",
	[BLKLOAD_A_PATH] = "path",
	[BLKLOAD_A_RW] = "rw",
	[BLKLOAD_A_RWMIXREAD] = "rwmixread",
	[BLKLOAD_A_BS] = "bs",
	[BLKLOAD_A_IODEPTH] = "iodepth",
	[BLKLOAD_A_CPUMASK] = "cpumask",
	[BLKLOAD_A_OFFSET] = "offset",
	[BLKLOAD_A_SIZE] = "size",
	[BLKLOAD_A_RUNTIME] = "runtime",
	[BLKLOAD_A_RAMP_TIME] = "ramp-time",
	[BLKLOAD_A_NUMBER_IOS] = "number-ios",
	[BLKLOAD_A_IO_SIZE] = "io-size",
	[BLKLOAD_A_RANDSEED] = "randseed",
	[BLKLOAD_A_ALLOW_WRITE] = "allow-write",
	[BLKLOAD_A_FORCE] = "force",
	[BLKLOAD_A_DETACHED] = "detached",
	[BLKLOAD_A_NO_LAT] = "no-lat",
	[BLKLOAD_A_BATCH] = "batch",
	[BLKLOAD_A_STATE] = "state",
	[BLKLOAD_A_REASON] = "reason",
	[BLKLOAD_A_ERROR] = "error",
	[BLKLOAD_A_DEV_SIZE] = "dev-size",
	[BLKLOAD_A_DEV_LBS] = "dev-lbs",
	[BLKLOAD_A_MEM_PINNED] = "mem-pinned",
	[BLKLOAD_A_STATS] = "stats",
	[BLKLOAD_A_WANT_HIST] = "want-hist",
	[BLKLOAD_A_WANT_QUEUES] = "want-queues",
	[BLKLOAD_A_DRAIN_TIMEOUT] = "drain-timeout",
	[BLKLOAD_A_OWNER] = "owner",
	[BLKLOAD_A_INFLIGHT] = "inflight",
	[BLKLOAD_A_DELETED] = "deleted",
	[BLKLOAD_A_NR_WORKERS] = "nr-workers",
	[BLKLOAD_A_CONTINUE_ON_ERROR] = "continue-on-error",
	[BLKLOAD_A_SAMPLE_INTERVAL] = "sample-interval",
	[BLKLOAD_A_SAMPLE_RING] = "sample-ring",
	[BLKLOAD_A_SAMPLE_FROM] = "sample-from",
	[BLKLOAD_A_SAMPLE] = "sample",
	[BLKLOAD_A_SAMPLE_NEXT] = "sample-next",
	[BLKLOAD_A_SAMPLE_LOST] = "sample-lost",
	[BLKLOAD_A_RWMIXTRIM] = "rwmixtrim",
	[BLKLOAD_A_REQ_FLAGS] = "req-flags",
	[BLKLOAD_A_STATS_TRIM] = "stats-trim",
	[BLKLOAD_A_RATE_IOPS] = "rate-iops",
	[BLKLOAD_A_RATE_PROCESS] = "rate-process",
	[BLKLOAD_A_STATS_SCHED] = "stats-sched",
	[BLKLOAD_A_RANDOM_DISTRIBUTION] = "random-distribution",
	[BLKLOAD_A_RANDOM_DISTRIBUTION_PARAM] = "random-distribution-param",
	[BLKLOAD_A_BS_SPLIT] = "bs-split",
	[BLKLOAD_A_BS_SPLIT_WRITE] = "bs-split-write",
	[BLKLOAD_A_THINKTIME] = "thinktime",
	[BLKLOAD_A_THINKTIME_BLOCKS] = "thinktime-blocks",
	[BLKLOAD_A_STARTDELAY] = "startdelay",
	[BLKLOAD_A_LOOPS] = "loops",
};

#endif /* BLKLOAD_NL_NAMES_H */
