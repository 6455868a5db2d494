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
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <net/genetlink.h>

#include "kcompat.h"

#ifndef HAVE_BLK_OPF_T
#define blk_opf_t unsigned int
#endif

#ifndef HAVE_GENL_REQ_ATTR_CHECK
#define GENL_REQ_ATTR_CHECK(info, attr)	(!(info)->attrs[(attr)])
#endif

#endif /* _BLKLOAD_COMPAT_H */
