/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * blkload written data, shared by the kernel module and every userspace
 * engine: each 512-byte sector a job writes begins with this magic and the
 * sector's byte offset on the device, both little endian, so that a read
 * back tells what was written where by any path.
 */
#ifndef _BLKLOAD_STAMP_H
#define _BLKLOAD_STAMP_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <asm/byteorder.h>
#define BL_STAMP_LE64(v) cpu_to_le64(v)
#define BL_STAMP_LE64_T __le64
#define BL_STAMP_U64 u64
#else
#include <endian.h>
#include <stdint.h>
#define BL_STAMP_LE64(v) htole64(v)
#define BL_STAMP_LE64_T uint64_t
#define BL_STAMP_U64 uint64_t
#endif

#define BLKLOAD_SECTOR_MAGIC	0x44414f4c4b4c42ULL	/* "BLKLOAD" */
#define BLKLOAD_SECTOR		512U

/* Stamps the sector at @sector, which is at byte offset @off on the device. */
static inline void bl_stamp_sector(void *sector, BL_STAMP_U64 off)
{
	BL_STAMP_LE64_T *h = (BL_STAMP_LE64_T *)sector;

	h[0] = BL_STAMP_LE64(BLKLOAD_SECTOR_MAGIC);
	h[1] = BL_STAMP_LE64(off);
}

#endif /* _BLKLOAD_STAMP_H */
