// SPDX-License-Identifier: GPL-2.0
/*
 * Text and JSON output through one layer.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "out.h"
#include "util.h"

struct out {
	FILE *f;
	bool json;
	bool pretty;
	size_t depth;		/* text: indentation; JSON: the open containers */
	size_t cap;
	struct json_object **stack;	/* JSON: stack[0] is the document */
};

/*
 * @s with every byte sequence that is not UTF-8 (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF) replaced by U+FFFD, so that
 * a device or image name cannot make the document invalid. malloc()ed.
 */
char *utf8_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), o = 0;
	char *out = xcalloc(3 * len + 1, 1);

	while (*p) {
		unsigned char c = *p;
		size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 :
			   c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
		bool ok = n > 0;

		for (size_t k = 1; ok && k < n; k++)
			ok = (p[k] & 0xc0) == 0x80;
		if (ok && n == 3)
			ok = !(c == 0xe0 && p[1] < 0xa0) && !(c == 0xed && p[1] > 0x9f);
		if (ok && n == 4)
			ok = !(c == 0xf0 && p[1] < 0x90) && !(c == 0xf4 && p[1] > 0x8f);
		if (!ok) {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			p++;
			continue;
		}
		memcpy(out + o, p, n);
		o += n;
		p += n;
	}
	out[o] = '\0';
	return out;
}

static struct json_object *jstring(const char *s)
{
	char *clean;
	struct json_object *v;

	if (!s)
		return NULL;
	clean = utf8_clean(s);
	v = json_object_new_string(clean);
	free(clean);
	return v;
}

struct out *out_new(FILE *f, bool json, bool pretty)
{
	struct out *o = xcalloc(1, sizeof(*o));

	o->f = f;
	o->json = json;
	o->pretty = pretty;
	o->cap = 8;
	o->stack = xcalloc(o->cap, sizeof(*o->stack));
	if (json)
		o->stack[0] = json_object_new_object();
	return o;
}

bool out_is_json(const struct out *o)
{
	return o->json;
}

static void indent(struct out *o, size_t depth)
{
	for (size_t i = 0; i < depth; i++)
		fputs("  ", o->f);
}

/* Adds @v to the open container: under @key in an object, at the end of an array. */
static void json_add(struct out *o, const char *key, struct json_object *v)
{
	struct json_object *top = o->stack[o->depth];

	if (json_object_is_type(top, json_type_array)) {
		json_object_array_add(top, v);
	} else {
		char *k = utf8_clean(key ? key : "");

		json_object_object_add(top, k, v);
		free(k);
	}
}

static void push(struct out *o, struct json_object *v)
{
	if (++o->depth == o->cap) {
		o->cap *= 2;
		o->stack = xrealloc(o->stack, o->cap * sizeof(*o->stack));
	}
	o->stack[o->depth] = v;
}

static void pop(struct out *o)
{
	if (o->depth)
		o->depth--;
}

static void text_label(struct out *o, const char *label)
{
	indent(o, o->depth);
	fprintf(o->f, "%s:", label);
}

static void begin(struct out *o, const char *key, const char *label, bool array)
{
	struct json_object *v = NULL;

	if (o->json) {
		v = array ? json_object_new_array() : json_object_new_object();
		json_add(o, key, v);
	} else if (label) {
		text_label(o, label);
		fputc('\n', o->f);
	}
	push(o, v);
}

void out_begin_object(struct out *o, const char *key, const char *label)
{
	begin(o, key, label, false);
}

void out_end_object(struct out *o)
{
	pop(o);
}

void out_begin_array(struct out *o, const char *key, const char *label)
{
	begin(o, key, label, true);
}

void out_end_array(struct out *o)
{
	pop(o);
}

static void text_value(struct out *o, const char *label, const char *fmt, ...)
{
	va_list ap;
	int pad;

	indent(o, o->depth);
	pad = 24 - (int)(2 * o->depth);
	fprintf(o->f, "%-*s ", pad > 0 ? pad : 0, label);
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
	fputc('\n', o->f);
}

static char *label_colon(const char *label)
{
	return xasprintf("%s:", label);
}

void out_u64(struct out *o, const char *key, const char *label, uint64_t v, const char *unit)
{
	if (o->json) {
		json_add(o, key, json_object_new_uint64(v));
	} else if (label) {
		char *l = label_colon(label);

		text_value(o, l, "%" PRIu64 "%s%s", v, unit ? " " : "", unit ? unit : "");
		free(l);
	}
}

void out_s64(struct out *o, const char *key, const char *label, int64_t v, const char *unit)
{
	if (o->json) {
		json_add(o, key, json_object_new_int64(v));
	} else if (label) {
		char *l = label_colon(label);

		text_value(o, l, "%" PRId64 "%s%s", v, unit ? " " : "", unit ? unit : "");
		free(l);
	}
}

void out_double(struct out *o, const char *key, const char *label, double v, int prec,
		const char *unit)
{
	if (o->json) {
		char buf[400];

		/* JSON has no NaN or infinity; the precision asked is kept. */
		if (v != v || v > 1e300 || v < -1e300) {
			json_add(o, key, NULL);
		} else {
			snprintf(buf, sizeof(buf), "%.*f", prec, v);
			json_add(o, key, json_object_new_double_s(v, buf));
		}
	} else if (label) {
		char *l = label_colon(label);

		text_value(o, l, "%.*f%s%s", prec, v, unit ? " " : "", unit ? unit : "");
		free(l);
	}
}

void out_str(struct out *o, const char *key, const char *label, const char *s)
{
	if (o->json) {
		json_add(o, key, jstring(s));
	} else if (label) {
		char *l = label_colon(label);

		text_value(o, l, "%s", s ? s : "-");
		free(l);
	}
}

void out_bool(struct out *o, const char *key, const char *label, bool v)
{
	if (o->json) {
		json_add(o, key, json_object_new_boolean(v));
	} else if (label) {
		char *l = label_colon(label);

		text_value(o, l, "%s", v ? "yes" : "no");
		free(l);
	}
}

void out_bytes(struct out *o, const char *key, const char *label, uint64_t v)
{
	if (o->json) {
		out_u64(o, key, label, v, NULL);
	} else if (label) {
		char *l = label_colon(label), *b = fmt_bytes(v);

		text_value(o, l, "%s (%" PRIu64 ")", b, v);
		free(b);
		free(l);
	}
}

void out_free(struct out *o)
{
	if (!o)
		return;
	if (o->json) {
		int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
			    (o->pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
					 JSON_C_TO_STRING_PLAIN);

		fputs(json_object_to_json_string_ext(o->stack[0], flags), o->f);
		fputc('\n', o->f);
		json_object_put(o->stack[0]);
	}
	fflush(o->f);
	free(o->stack);
	free(o);
}

char *fmt_bytes(uint64_t v)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double d = (double)v;
	size_t u = 0;

	if (v < 1024)
		return xasprintf("%" PRIu64 " B", v);
	while (d >= 1024.0 && u < sizeof(units) / sizeof(units[0]) - 1) {
		d /= 1024.0;
		u++;
	}
	return xasprintf("%.2f %s", d, units[u]);
}
