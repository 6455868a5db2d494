/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/blkload.yaml */
/* YNL-GEN uapi header (scripts/nlgen.py) */

#ifndef _UAPI_LINUX_BLKLOAD_H
#define _UAPI_LINUX_BLKLOAD_H

#define BLKLOAD_FAMILY_NAME	"blkload"
#define BLKLOAD_FAMILY_VERSION	1

#define BLKLOAD_ABI_VERSION	1

enum {
	BLKLOAD_A_VERSION = 1,
	BLKLOAD_A_ABI_VERSION,
	BLKLOAD_A_KERNEL_RELEASE,
	BLKLOAD_A_MAX_IODEPTH,
	BLKLOAD_A_MAX_BS,
	BLKLOAD_A_MAX_JOBS,
	BLKLOAD_A_MEM_BUDGET,
	BLKLOAD_A_MEM_USED,
	BLKLOAD_A_NR_JOBS,

	__BLKLOAD_A_MAX,
	BLKLOAD_A_MAX = (__BLKLOAD_A_MAX - 1)
};

enum {
	BLKLOAD_CMD_INFO_GET = 1,

	__BLKLOAD_CMD_MAX,
	BLKLOAD_CMD_MAX = (__BLKLOAD_CMD_MAX - 1)
};

#define BLKLOAD_MCGRP_EVENTS	"events"

#endif /* _UAPI_LINUX_BLKLOAD_H */
