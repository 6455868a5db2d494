/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One output layer for text and JSON, so the two cannot drift: every value
 * is printed once, with a JSON key and a human label. JSON is built with
 * json-c and written by out_free(); strings are made valid UTF-8 first.
 */
#ifndef BLKLOAD_OUT_H
#define BLKLOAD_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct out;

struct out *out_new(FILE *f, bool json, bool pretty);
/* Finishes the document (closes what is open) and frees the writer. */
void out_free(struct out *o);
bool out_is_json(const struct out *o);

/*
 * Containers. @key names the member in JSON (ignored inside arrays); @label
 * is the text heading, or NULL for no heading line in text mode.
 */
void out_begin_object(struct out *o, const char *key, const char *label);
void out_end_object(struct out *o);
void out_begin_array(struct out *o, const char *key, const char *label);
void out_end_array(struct out *o);

/*
 * Scalars. In text mode "label: value[ unit]" is printed indented by depth;
 * a NULL label hides the value from text output (JSON only).
 */
void out_u64(struct out *o, const char *key, const char *label, uint64_t v, const char *unit);
void out_s64(struct out *o, const char *key, const char *label, int64_t v, const char *unit);
void out_double(struct out *o, const char *key, const char *label, double v, int prec,
		const char *unit);
void out_str(struct out *o, const char *key, const char *label, const char *s);
void out_bool(struct out *o, const char *key, const char *label, bool v);
/* A byte count: exact in JSON, "4.00 MiB (4194304)" in text. */
void out_bytes(struct out *o, const char *key, const char *label, uint64_t v);

/* @s with what is not UTF-8 replaced by U+FFFD; malloc()ed. */
char *utf8_clean(const char *s);
/* Formats @v as "1.50 GiB" into a malloc()ed string (caller frees). */
char *fmt_bytes(uint64_t v);

#endif
