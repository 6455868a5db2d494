/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkload: the one place where kernel API differences live.
 *
 * kcompat.h is generated at build time by scripts/kcompat.sh from compile
 * probes (module/probes/); nothing here tests a version number.
 */
#ifndef _BLKLOAD_COMPAT_H
#define _BLKLOAD_COMPAT_H

#include <linux/bio.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <net/genetlink.h>

#include "kcompat.h"

#ifndef HAVE_BLK_OPF_T
#define blk_opf_t unsigned int
#endif

#ifndef HAVE_STRUCT_SIZE_T
/* What 6.5's struct_size_t() is: struct_size() of a type (early 6.1.y lacks it). */
#define struct_size_t(type, member, count)	struct_size((type *)NULL, member, count)
#endif

/*
 * Joining the events group needs CAP_SYS_ADMIN (6.7; Debian's 6.1 has it
 * backported). A kernel that cannot restrict the group gets none: its
 * events would carry devices and statistics to any user. The CLI then polls.
 */
#ifdef HAVE_GENL_MCAST_CAP_SYS_ADMIN
#define BL_HAVE_EVENTS	1
#else
#define BL_HAVE_EVENTS	0
#endif

#ifndef HAVE_GENL_REQ_ATTR_CHECK
#define GENL_REQ_ATTR_CHECK(info, attr)	(!(info)->attrs[(attr)])
#endif

/* A family's pre_doit and post_doit take the split op (6.2), or the genl_ops before. */
#ifdef HAVE_GENL_SPLIT_OPS
#define bl_genl_op	genl_split_ops
#else
#define bl_genl_op	genl_ops
#endif

/* An opened block device, whatever the running kernel's open API is. */
struct bl_bdev {
	struct block_device *bdev;
#if defined(HAVE_BDEV_FILE_OPEN_BY_PATH)
	struct file *file;
#elif defined(HAVE_BDEV_OPEN_BY_PATH)
	struct bdev_handle *handle;
#elif defined(HAVE_BLKDEV_GET_BY_PATH_4ARG)
	void *holder;
#else
	fmode_t mode;
#endif
};

/*
 * Opens @path for reading, and writing when @write. A non-NULL @holder makes
 * the open exclusive: it fails with -EBUSY while the device is mounted or
 * claimed by another holder.
 */
static inline int bl_bdev_open(struct bl_bdev *d, const char *path, bool write, void *holder)
{
#if defined(HAVE_BDEV_FILE_OPEN_BY_PATH) || defined(HAVE_BDEV_OPEN_BY_PATH) || \
	defined(HAVE_BLKDEV_GET_BY_PATH_4ARG)
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
#endif
#if defined(HAVE_BDEV_FILE_OPEN_BY_PATH)
	struct file *f = bdev_file_open_by_path(path, mode, holder, NULL);

	if (IS_ERR(f))
		return PTR_ERR(f);
	d->file = f;
	d->bdev = file_bdev(f);
#elif defined(HAVE_BDEV_OPEN_BY_PATH)
	struct bdev_handle *h = bdev_open_by_path(path, mode, holder, NULL);

	if (IS_ERR(h))
		return PTR_ERR(h);
	d->handle = h;
	d->bdev = h->bdev;
#elif defined(HAVE_BLKDEV_GET_BY_PATH_4ARG)
	struct block_device *b = blkdev_get_by_path(path, mode, holder, NULL);

	if (IS_ERR(b))
		return PTR_ERR(b);
	d->holder = holder;
	d->bdev = b;
#else
	fmode_t mode = FMODE_READ | (write ? FMODE_WRITE : 0) | (holder ? FMODE_EXCL : 0);
	struct block_device *b = blkdev_get_by_path(path, mode, holder);

	if (IS_ERR(b))
		return PTR_ERR(b);
	d->mode = mode;
	d->bdev = b;
#endif
	return 0;
}

static inline void bl_bdev_close(struct bl_bdev *d)
{
#if defined(HAVE_BDEV_FILE_OPEN_BY_PATH)
#ifdef HAVE_BDEV_FPUT
	bdev_fput(d->file);	/* gives up the claim now, not at a deferred fput */
#else
	fput(d->file);
#endif
#elif defined(HAVE_BDEV_OPEN_BY_PATH)
	bdev_release(d->handle);
#elif defined(HAVE_BLKDEV_GET_BY_PATH_4ARG)
	blkdev_put(d->bdev, d->holder);
#else
	blkdev_put(d->bdev, d->mode);
#endif
	d->bdev = NULL;
}

/*
 * Opens of @b by anyone but the caller's own one open: of @b itself; for a
 * whole disk also every open of its partitions; for a partition also its
 * disk opened whole (other partitions are other ranges). Userspace openers
 * (an OSD's O_DIRECT open with a flock, QEMU, a database) and kernel ones
 * without a holder (an nvmet namespace, a loop device over it) alike; no API
 * tells readers from writers on every supported kernel. Under the disk's
 * open_mutex, so that the counts agree with each other.
 *
 * What a partition's open holds of its disk changed in 6.5, with the
 * blk_mode_t open API: before, its first open opened the disk once; since,
 * each of its opens does. The 3-argument blkdev_get_by_path() is the API
 * before that change (no holder ops), and so tells the two apart.
 */
static inline int bl_bdev_other_openers(struct block_device *b)
{
	struct gendisk *disk = b->bd_disk;
	struct block_device *whole = bdev_whole(b), *part;
	int n, parts = 0, in_parts = 0, held;
	unsigned long idx;

	mutex_lock(&disk->open_mutex);
	n = atomic_read(&b->bd_openers) - 1;
	/* Partitions come and go under open_mutex. */
	xa_for_each_start(&disk->part_tbl, idx, part, 1) {
		int o = atomic_read(&part->bd_openers);

		parts += o > 0;
		in_parts += o;
	}
#ifdef HAVE_BLKDEV_GET_BY_PATH_3ARG
	held = parts;
#else
	held = in_parts;
#endif
	/* The disk's count is its own opens and what its partitions' hold of it. */
	if (bdev_is_partition(b))
		n += atomic_read(&whole->bd_openers) - held;
	else
		n += in_parts - held;
	mutex_unlock(&disk->open_mutex);
	return max(n, 0);
}

static inline sector_t bl_bdev_nr_sectors(struct block_device *b)
{
#ifdef HAVE_BDEV_NR_SECTORS
	return bdev_nr_sectors(b);
#else
	return i_size_read(b->bd_inode) >> SECTOR_SHIFT;
#endif
}

/* (Re)initialises a slot's bio for one IO; pairs with bio_uninit() at free. */
static inline void bl_bio_init(struct bio *bio, struct block_device *b, struct bio_vec *vecs,
			       unsigned short nr, blk_opf_t opf)
{
#ifdef HAVE_BIO_INIT_5ARG
	bio_init(bio, b, vecs, nr, opf);
#else
	bio_init(bio, vecs, nr);
	bio_set_dev(bio, b);
	bio->bi_opf = opf;
#endif
}

static inline void bl_bio_reset(struct bio *bio, struct block_device *b, blk_opf_t opf)
{
#ifdef HAVE_BIO_INIT_5ARG
	bio_reset(bio, b, opf);
#else
	bio_reset(bio);
	bio_set_dev(bio, b);
	bio->bi_opf = opf;
#endif
}

/* Whether the device has a volatile write cache (else FUA and flushes are stripped). */
static inline bool bl_bdev_write_cache(struct block_device *b)
{
#ifdef HAVE_BDEV_WRITE_CACHE
	return bdev_write_cache(b);
#else
	return test_bit(QUEUE_FLAG_WC, &bdev_get_queue(b)->queue_flags);
#endif
}

/* Whether the device takes discards (trims). */
static inline bool bl_bdev_can_discard(struct block_device *b)
{
#ifdef HAVE_BDEV_MAX_DISCARD_SECTORS
	return bdev_max_discard_sectors(b);
#else
	return blk_queue_discard(bdev_get_queue(b));
#endif
}

/*
 * Whether a REQ_POLLED bio to the device is polled: the kernel has bio
 * polling and the device poll queues (what /sys/block/X/queue/io_poll says).
 */
static inline bool bl_bdev_can_poll(struct block_device *b)
{
#ifdef HAVE_BIO_POLL
	struct request_queue *q = bdev_get_queue(b);
#if defined(BLK_FEAT_POLL)
	if (!(q->limits.features & BLK_FEAT_POLL))
		return false;
	return !queue_is_mq(q) || q->tag_set->map[HCTX_TYPE_POLL].nr_queues;
#else
	return test_bit(QUEUE_FLAG_POLL, &q->queue_flags);
#endif
#else
	return false;
#endif
}

#ifdef HAVE_BIO_POLL
#define BL_REQ_POLLED	REQ_POLLED
static inline void bl_bio_no_cookie(struct bio *bio)
{
	bio->bi_cookie = BLK_QC_T_NONE;
}

/*
 * Polls for @bio's hardware queue; what it completes is ended as one batch
 * (tags and accounting together), as io_uring's polling does.
 */
static inline int bl_bio_poll(struct bio *bio)
{
	DEFINE_IO_COMP_BATCH(iob);
	int ret = bio_poll(bio, &iob, 0);

	if (iob.complete)
		iob.complete(&iob);
	return ret;
}
#else
#define BL_REQ_POLLED	0
static inline void bl_bio_no_cookie(struct bio *bio)
{
}

static inline int bl_bio_poll(struct bio *bio)
{
	return 0;
}
#endif

/*
 * Unload outwaits a completion preempted in the module's text past its
 * wakeup (bl_end_io()) with Tasks RCU. A preemptible kernel without it has
 * no way to: there the module has no exit and stays loaded until reboot.
 * BLKLOAD_TEST_NO_TASKS_RCU builds that case on any kernel (the matrix).
 */
#if IS_ENABLED(CONFIG_PREEMPTION) && \
	(!IS_ENABLED(CONFIG_TASKS_RCU) || defined(BLKLOAD_TEST_NO_TASKS_RCU))
#define BL_PERMANENT	1
#else
#define BL_PERMANENT	0
#endif

/*
 * The late_end_io_ms test knob spins only where unload waits for the spin
 * (Tasks RCU) and where the kernel can tell that the spin may be preempted
 * (a preempt count): never with preemption or interrupts off.
 */
#define BL_LATE_CAN_SPIN	(IS_ENABLED(CONFIG_TASKS_RCU) && \
				 IS_ENABLED(CONFIG_PREEMPT_COUNT) && !BL_PERMANENT)

#endif /* _BLKLOAD_COMPAT_H */
