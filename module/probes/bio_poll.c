// SPDX-License-Identifier: GPL-2.0
/* 5.16+: polled bios are REQ_POLLED and reaped with bio_poll(). */
#include <linux/bio.h>
#include <linux/blkdev.h>

int probe(struct bio *bio);
int probe(struct bio *bio)
{
	bio->bi_opf |= REQ_POLLED;
	return bio_poll(bio, NULL, 0);
}
