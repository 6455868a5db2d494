/* SPDX-License-Identifier: GPL-2.0 */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/blkload.yaml */
/* YNL-GEN kernel header (scripts/nlgen.py) */

#ifndef _BLKLOAD_NL_GEN_H
#define _BLKLOAD_NL_GEN_H

#include <net/netlink.h>

#include <uapi/linux/blkload.h>

extern const struct nla_policy blkload_sample_nl_policy[BLKLOAD_A_SAMPLE_MAX + 1];
extern const struct nla_policy blkload_sample_op_nl_policy[BLKLOAD_A_SAMPLE_OP_MAX + 1];
extern const struct nla_policy blkload_stats_nl_policy[BLKLOAD_A_STATS_MAX + 1];
extern const struct nla_policy blkload_queue_stats_nl_policy[BLKLOAD_A_QUEUE_STATS_MAX + 1];
extern const struct nla_policy blkload_op_stats_nl_policy[BLKLOAD_A_OP_STATS_MAX + 1];
extern const struct nla_policy blkload_sched_stats_nl_policy[BLKLOAD_A_SCHED_STATS_MAX + 1];
extern const struct nla_policy blkload_lat_stats_nl_policy[BLKLOAD_A_LAT_STATS_MAX + 1];
extern const struct nla_policy blkload_verify_stats_nl_policy[BLKLOAD_A_VERIFY_STATS_MAX + 1];
extern const struct nla_policy blkload_verify_report_nl_policy[BLKLOAD_A_VERIFY_REPORT_MAX + 1];
extern const struct nla_policy blkload_nl_policy[BLKLOAD_A_MAX + 1];

#endif /* _BLKLOAD_NL_GEN_H */
