// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for include/blkload/verify.h: the generation map's states
 * (one write, overlapping writes, a failed write or a trim, the wrap) and
 * which reads may check, and the header's checks, one field at a time.
 */
#include <string.h>

/* The harness's handlers and TEST() wrappers leave parameters unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

#include <blkload/verify.h>

#include "crc32c.h"

TEST(one_write_sets_the_next_generation)
{
	uint32_t e = 0, snap;

	ASSERT_EQ(1U, bl_vmap_write_begin(&e));
	/* In flight: a read prepared now must not check. */
	snap = e;
	ASSERT_FALSE(bl_vmap_checkable(snap, snap));
	bl_vmap_write_end(&e, true);
	ASSERT_EQ(1U, bl_vmap_gen(e));
	ASSERT_EQ(0U, e & (BL_VMAP_WRITERS | BL_VMAP_UNKNOWN));
	ASSERT_TRUE(bl_vmap_checkable(e, e));
	ASSERT_EQ(2U, bl_vmap_write_begin(&e));
	bl_vmap_write_end(&e, true);
	ASSERT_EQ(2U, bl_vmap_gen(e));
}

TEST(overlap_failure_and_trim_make_it_unknown)
{
	uint32_t e = 0;

	ASSERT_EQ(1U, bl_vmap_write_begin(&e));
	ASSERT_EQ(2U, bl_vmap_write_begin(&e));
	bl_vmap_write_end(&e, true);
	/* One still in flight, the content unknown. */
	ASSERT_EQ(1U, e & BL_VMAP_WRITERS);
	ASSERT_TRUE(e & BL_VMAP_UNKNOWN);
	bl_vmap_write_end(&e, true);
	ASSERT_TRUE(e & BL_VMAP_UNKNOWN);
	ASSERT_FALSE(bl_vmap_checkable(e, e));
	/* A write alone after it settles the content: known again. */
	ASSERT_EQ(3U, bl_vmap_write_begin(&e));
	bl_vmap_write_end(&e, true);
	ASSERT_TRUE(bl_vmap_checkable(e, e));
	ASSERT_EQ(3U, bl_vmap_gen(e));
	/* A failed write or a trim: unknown. */
	bl_vmap_write_begin(&e);
	bl_vmap_write_end(&e, false);
	ASSERT_FALSE(bl_vmap_checkable(e, e));
}

/*
 * ABA: a read's snapshot, then a trim (or overlapping writes) and a clean
 * write: the entry must not come back to the snapshot, else the read would
 * be checked against data it may not have read.
 */
TEST(no_aba_after_unknown)
{
	uint32_t e = 0, snap;

	bl_vmap_write_begin(&e);
	bl_vmap_write_end(&e, true);
	snap = e;
	bl_vmap_write_begin(&e);	/* a trim */
	bl_vmap_write_end(&e, false);
	bl_vmap_write_begin(&e);	/* a clean write */
	bl_vmap_write_end(&e, true);
	ASSERT_TRUE(bl_vmap_checkable(e, e));
	ASSERT_FALSE(bl_vmap_checkable(snap, e));
	/* Overlapping writes, then a clean one, likewise. */
	snap = e;
	bl_vmap_write_begin(&e);
	bl_vmap_write_begin(&e);
	bl_vmap_write_end(&e, true);
	bl_vmap_write_end(&e, true);
	bl_vmap_write_begin(&e);
	bl_vmap_write_end(&e, true);
	ASSERT_FALSE(bl_vmap_checkable(snap, e));
}

TEST(never_written_and_raced_reads_do_not_check)
{
	uint32_t e = 0, snap;

	ASSERT_FALSE(bl_vmap_checkable(e, e));
	bl_vmap_write_begin(&e);
	bl_vmap_write_end(&e, true);
	snap = e;
	bl_vmap_write_begin(&e);
	ASSERT_FALSE(bl_vmap_checkable(snap, e));
	bl_vmap_write_end(&e, true);
	ASSERT_FALSE(bl_vmap_checkable(snap, e));
}

TEST(generation_wraps_past_zero)
{
	uint32_t e = (BL_VMAP_GEN_MAX - 1) << BL_VMAP_GEN_SHIFT;

	ASSERT_EQ(BL_VMAP_GEN_MAX, bl_vmap_next(BL_VMAP_GEN_MAX - 1));
	ASSERT_EQ(1U, bl_vmap_next(BL_VMAP_GEN_MAX));
	ASSERT_EQ(BL_VMAP_GEN_MAX, bl_vmap_write_begin(&e));
	bl_vmap_write_end(&e, true);
	ASSERT_EQ(1U, bl_vmap_write_begin(&e));
	bl_vmap_write_end(&e, true);
	ASSERT_EQ(1U, bl_vmap_gen(e));
}

TEST(header_checks_each_field)
{
	uint8_t p[512] = { 0 };
	uint64_t want, got;

	bl_verify_hdr(p, 8192, 7, 3, 4096, 99);
	bl_verify_set_crc(p, 0xdeadbeef);
	ASSERT_EQ(0xdeadbeefU, bl_verify_hdr_crc(p));
	ASSERT_EQ(BL_VERIFY_OK, bl_verify_check_hdr(p, 8192, 7, 3, 4096, 99, &want, &got));
	/* Without a known generation, any generation and nonce. */
	ASSERT_EQ(BL_VERIFY_OK, bl_verify_check_hdr(p, 8192, 7, 0, 4096, 5, &want, &got));
	ASSERT_EQ(BL_VERIFY_BAD_OFFSET,
		  bl_verify_check_hdr(p, 4096, 7, 3, 4096, 99, &want, &got));
	ASSERT_EQ(4096U, want);
	ASSERT_EQ(8192U, got);
	ASSERT_EQ(BL_VERIFY_BAD_SEED, bl_verify_check_hdr(p, 8192, 8, 3, 4096, 99, &want, &got));
	ASSERT_EQ(BL_VERIFY_BAD_NONCE, bl_verify_check_hdr(p, 8192, 7, 3, 4096, 98, &want, &got));
	ASSERT_EQ(BL_VERIFY_BAD_GEN, bl_verify_check_hdr(p, 8192, 7, 4, 4096, 99, &want, &got));
	ASSERT_EQ(4U, want);
	ASSERT_EQ(3U, got);
	ASSERT_EQ(BL_VERIFY_BAD_LEN, bl_verify_check_hdr(p, 8192, 7, 3, 512, 99, &want, &got));
	p[37] ^= 1;
	ASSERT_EQ(BL_VERIFY_BAD_MAGIC, bl_verify_check_hdr(p, 8192, 7, 3, 4096, 99, &want, &got));
	memset(p, 0, sizeof(p));
	ASSERT_EQ(BL_VERIFY_BAD_MAGIC, bl_verify_check_hdr(p, 8192, 7, 3, 4096, 99, &want, &got));
	/* The sector stamp is the header's first 16 bytes. */
	bl_verify_hdr(p, 8192, 7, 3, 4096, 99);
	ASSERT_EQ(0x42U, p[0]);
	ASSERT_EQ(0x20U, p[9]);
}

/* The engines' CRC-32C is the standard one: the check value, and chaining. */
TEST(crc32c_check_value)
{
	const char *s = "123456789";

	ASSERT_EQ(0xe3069283U, ~crc32c(~0U, s, 9));
	ASSERT_EQ(0xe3069283U, ~crc32c(crc32c(~0U, s, 4), s + 4, 5));
	ASSERT_EQ(0U, ~crc32c(~0U, s, 0));
}

TEST_HARNESS_MAIN
