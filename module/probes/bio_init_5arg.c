// SPDX-License-Identifier: GPL-2.0
/* 5.18+: bio_init() and bio_reset() take the bdev and the op. */
#include <linux/bio.h>

void probe(struct bio *bio, struct block_device *b, struct bio_vec *v);
void probe(struct bio *bio, struct block_device *b, struct bio_vec *v)
{
	bio_init(bio, b, v, 1, REQ_OP_READ);
	bio_reset(bio, b, REQ_OP_READ);
}
