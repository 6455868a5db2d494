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

#ifndef HAVE_GENL_REQ_ATTR_CHECK
#define GENL_REQ_ATTR_CHECK(info, attr)	(!(info)->attrs[(attr)])
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

#endif /* _BLKLOAD_COMPAT_H */
