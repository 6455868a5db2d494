/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkload: block-device load generator, internal declarations.
 *
 * Prototypes are grouped by the file that defines them.
 */
#ifndef _BLKLOAD_H
#define _BLKLOAD_H

#include <linux/types.h>

#include <uapi/linux/blkload.h>

#define BLKLOAD_VERSION		"0.1.0"

/* Hard ceilings; the module parameters may only lower them. */
#define BLKLOAD_BS_MAX		(4U << 20)
#define BLKLOAD_IODEPTH_LIMIT	65536U
#define BLKLOAD_JOBS_LIMIT	4096U

/* main.c */
extern unsigned int blkload_max_iodepth;
extern unsigned int blkload_max_jobs;
extern unsigned long blkload_mem_budget_mb;

u64 blkload_mem_budget(void);
u64 blkload_mem_used(void);
unsigned int blkload_nr_jobs(void);

/* netlink.c */
int blkload_nl_init(void);
void blkload_nl_exit(void);

#endif /* _BLKLOAD_H */
