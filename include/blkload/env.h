/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * What the shared core (params.h, queue.h) needs of its environment, for
 * the kernel and for userspace alike: fixed-width types, 64-bit division
 * (a 32-bit kernel links no libgcc), errno values, and the few memory
 * ordering primitives the queue's readers pair with.
 */
#ifndef _BLKLOAD_ENV_H
#define _BLKLOAD_ENV_H

#ifdef __KERNEL__
#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <uapi/linux/blkload.h>

#define BL_U8 u8
#define BL_U16 u16
#define BL_U32 u32
#define BL_U64 u64
/* u64 by u32, and by u64. */
#define BL_ARRAY_SIZE(a) ARRAY_SIZE(a)
#define BL_DIV64(a, b) div_u64(a, b)
#define BL_DIV64_64(a, b) div64_u64(a, b)
#define BL_READ_ONCE(x) READ_ONCE(x)
#define BL_WRITE_ONCE(x, v) WRITE_ONCE(x, v)
/* Publication to readers on other CPUs: queue.h names what each one pairs with. */
#define BL_STORE_RELEASE(p, v) smp_store_release(p, v)
/* The reader's side of BL_STORE_RELEASE(). */
#define BL_LOAD_ACQUIRE(p) smp_load_acquire(p)
#define bl_atomic_t atomic_t
#define BL_ATOMIC_READ(a) atomic_read(a)
#define BL_ATOMIC_SET(a, v) atomic_set(a, v)
#define BL_ATOMIC_DEC_AND_TEST(a) atomic_dec_and_test(a)
#else
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/blkload.h>

#define BL_U8 uint8_t
#define BL_U16 uint16_t
#define BL_U32 uint32_t
#define BL_U64 uint64_t
#define BL_ARRAY_SIZE(a) (sizeof(a) / sizeof(*(a)))
#define BL_DIV64(a, b) ((BL_U64)(a) / (BL_U32)(b))
#define BL_DIV64_64(a, b) ((BL_U64)(a) / (BL_U64)(b))
#define BL_READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define BL_WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define BL_STORE_RELEASE(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define BL_LOAD_ACQUIRE(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
struct bl_atomic_u {
	int v;
};

#define bl_atomic_t struct bl_atomic_u
#define BL_ATOMIC_READ(a) __atomic_load_n(&(a)->v, __ATOMIC_ACQUIRE)
#define BL_ATOMIC_SET(a, n) __atomic_store_n(&(a)->v, (n), __ATOMIC_RELEASE)
#define BL_ATOMIC_DEC_AND_TEST(a) (__atomic_sub_fetch(&(a)->v, 1, __ATOMIC_ACQ_REL) == 0)
#endif

#define BL_EINVAL EINVAL
#define BL_EPERM EPERM
#define BL_ERANGE ERANGE
#define BL_E2BIG E2BIG

#endif /* _BLKLOAD_ENV_H */
