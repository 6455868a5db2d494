// SPDX-License-Identifier: GPL-2.0
/*
 * blkload: block-device load generator.
 *
 * Module parameters, init and exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>

#include "blkload.h"
#include "compat.h"

unsigned int blkload_max_iodepth = 1024;
unsigned int blkload_max_jobs = 1024;
unsigned long blkload_mem_budget_mb = 1024;

static int blkload_param_set_iodepth(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, BL_IODEPTH_LIMIT);
}

static int blkload_param_set_jobs(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, BLKLOAD_JOBS_LIMIT);
}

static const struct kernel_param_ops blkload_iodepth_ops = {
	.set	= blkload_param_set_iodepth,
	.get	= param_get_uint,
};

static const struct kernel_param_ops blkload_jobs_ops = {
	.set	= blkload_param_set_jobs,
	.get	= param_get_uint,
};

module_param_cb(max_iodepth, &blkload_iodepth_ops, &blkload_max_iodepth, 0644);
MODULE_PARM_DESC(max_iodepth, "Largest iodepth per CPU queue (1-65536). Default: 1024");
module_param_cb(max_jobs, &blkload_jobs_ops, &blkload_max_jobs, 0644);
MODULE_PARM_DESC(max_jobs, "Largest number of jobs at once (1-4096). Default: 1024");
module_param_named(mem_budget_mb, blkload_mem_budget_mb, ulong, 0644);
MODULE_PARM_DESC(mem_budget_mb, "MiB of data pages all jobs together may pin. Default: 1024");
/* A test knob: the row split a host with hundreds of CPUs needs, on a guest with two. */
unsigned int blkload_max_queue_rows;
module_param_named(max_queue_rows, blkload_max_queue_rows, uint, 0644);
MODULE_PARM_DESC(max_queue_rows,
		 "Queue rows in one job-get reply at most (0: as many as fit in 64 KiB). Default: 0");

/*
 * A test knob: the byte budget a reply's stats nest adds queue rows within,
 * in place of its 64 KiB, so that the byte test that splits the rows on a
 * host with hundreds of CPUs runs on a guest with two. The first row always
 * goes, and the 64 KiB limit of the nest stays; a budget below one row and
 * the room kept for the totals means one row a reply.
 */
unsigned int blkload_max_stats_bytes;
module_param_named(max_stats_bytes, blkload_max_stats_bytes, uint, 0644);
MODULE_PARM_DESC(max_stats_bytes,
		 "Test knob: bytes of a job-get reply's stats nest within which queue rows are added (0 or above 65535: 65535). Default: 0");

/*
 * A test knob (selftests/test_late_01.sh): the next completion in a
 * preemptible task (a kworker's) that is not its worker's own spins this
 * many milliseconds past its wakeup, in the module's text, as one preempted
 * there would; unload must wait for it. Off, the completion path's cost is a
 * patched-out jump; once set, one read of the knob per completion off the
 * worker, until it is set to 0 again (that patches the jump out). Setting
 * it taints the kernel as a test would (TAINT_TEST): a spin of seconds in a
 * kworker is no state for a production host. Refused where unload could not
 * wait for such a spin (BL_LATE_CAN_SPIN).
 */
unsigned int blkload_late_end_io_ms;
DEFINE_STATIC_KEY_FALSE(blkload_late_end_io);

static int blkload_param_set_late(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int ret = kstrtouint(val, 0, &ms);

	if (ret)
		return ret;
	if (ms > BLKLOAD_LATE_END_IO_MAX_MS)
		return -EINVAL;
	if (ms && !BL_LATE_CAN_SPIN)
		return -EOPNOTSUPP;
	if (ms) {
		pr_warn("test knob late_end_io_ms set: the next kworker completion spins %u ms\n",
			ms);
		add_taint(TAINT_TEST, LOCKDEP_STILL_OK);
	}
	/*
	 * Completions take it with xchg(); this store only keeps the compiler
	 * from tearing it. Writes of the knob are serialized by the caller.
	 */
	WRITE_ONCE(blkload_late_end_io_ms, ms);
	if (ms)
		static_branch_enable(&blkload_late_end_io);
	else
		static_branch_disable(&blkload_late_end_io);
	return 0;
}

static const struct kernel_param_ops blkload_late_ops = {
	.set	= blkload_param_set_late,
	.get	= param_get_uint,
};

module_param_cb(late_end_io_ms, &blkload_late_ops, &blkload_late_end_io_ms, 0644);
MODULE_PARM_DESC(late_end_io_ms,
		 "Test knob, taints the kernel: the next completion in a kworker spins this long past its wakeup (0-"
		 __stringify(BLKLOAD_LATE_END_IO_MAX_MS) " ms, once; 0 turns it off). Default: 0");

/*
 * What this build of the module can do on this kernel, for tests to probe
 * (null_blk's features attribute is the model): "unload" where rmmod can
 * wait for every completion (not BL_PERMANENT), "late_end_io" where the
 * late_end_io_ms knob spins (BL_LATE_CAN_SPIN).
 */
static int blkload_param_get_features(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s%s\n", BL_PERMANENT ? "" : "unload ",
			  BL_LATE_CAN_SPIN ? "late_end_io" : "");
}

static const struct kernel_param_ops blkload_features_ops = {
	.get	= blkload_param_get_features,
};

module_param_cb(features, &blkload_features_ops, NULL, 0444);
MODULE_PARM_DESC(features, "What this build can do here (read-only): unload, late_end_io");

u64 blkload_mem_budget(void)
{
	return (u64)READ_ONCE(blkload_mem_budget_mb) << 20;
}

static int __init blkload_init(void)
{
	int ret;

	ret = bl_jobs_init();
	if (ret)
		return ret;
	ret = bl_workers_init();
	if (ret) {
		pr_err("cannot register the CPU hotplug callback (%d)\n", ret);
		goto err_jobs;
	}
	ret = blkload_nl_init();
	if (ret) {
		pr_err("cannot register the generic netlink family (%d)\n", ret);
		goto err_workers;
	}
	if (BL_PERMANENT)
		pr_info("version %s loaded; it cannot be unloaded on this kernel (preemptible, without Tasks RCU)\n",
			BLKLOAD_VERSION);
	else
		pr_info("version %s loaded\n", BLKLOAD_VERSION);
	return 0;

err_workers:
	bl_workers_exit();
err_jobs:
	bl_jobs_exit();
	return ret;
}

#if !BL_PERMANENT
static void __exit blkload_exit(void)
{
	pr_info("unloading\n");
	/*
	 * No request runs once the family is gone; no job runs either, since
	 * a run holds the module. What is left (made, or done) is freed, and
	 * with the last job the last worker stops.
	 */
	blkload_nl_exit();
	bl_jobs_exit();
	bl_workers_exit();
	/*
	 * A completion may still be on its way out of bl_end_io(). One in
	 * hard or soft interrupt context is inside the grace period the job's
	 * end waited for; one in a task (a kworker's: dm-crypt, krbd's
	 * messenger; a threaded handler) may be preempted past its wakeup for
	 * long. With Tasks RCU every task preempted in this module's text has
	 * left it once each task has switched voluntarily. Without it this is
	 * synchronize_rcu(), and this code is built only where a task cannot
	 * be preempted in the kernel (BL_PERMANENT), so that its grace period
	 * waits for such a task too.
	 */
	synchronize_rcu_tasks();
	pr_info("unloaded\n");
}
module_exit(blkload_exit);
#endif

module_init(blkload_init);

MODULE_AUTHOR("The blkload developers");
MODULE_DESCRIPTION("Block-device load generator with per-CPU bio queues");
MODULE_LICENSE("GPL");
MODULE_VERSION(BLKLOAD_VERSION);
