/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CRC-32C (Castagnoli) for the userspace engines' verify: the same
 * convention as the kernel's crc32c(): the raw register, not inverted,
 * chained across buffers; callers start at ~0 and invert the result.
 */
#ifndef BLKLOAD_CRC32C_H
#define BLKLOAD_CRC32C_H

#include <stddef.h>
#include <stdint.h>

uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

#endif
