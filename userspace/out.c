// SPDX-License-Identifier: GPL-2.0
/*
 * Text and JSON output through one layer.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "util.h"

struct out_level {
	bool array;
	bool first;
};

struct out {
	FILE *f;
	bool json;
	bool pretty;
	size_t depth;
	size_t cap;
	struct out_level *lv;
};

struct out *out_new(FILE *f, bool json, bool pretty)
{
	struct out *o = xcalloc(1, sizeof(*o));

	o->f = f;
	o->json = json;
	o->pretty = pretty;
	o->cap = 8;
	o->lv = xcalloc(o->cap, sizeof(*o->lv));
	/* Level 0 is the implicit top-level object of a JSON document. */
	o->lv[0].first = true;
	if (json)
		fputc('{', f);
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

/* Separator, newline/indent and key of the next JSON member. */
static void json_member(struct out *o, const char *key)
{
	struct out_level *l = &o->lv[o->depth];

	if (!l->first)
		fputc(',', o->f);
	l->first = false;
	if (o->pretty) {
		fputc('\n', o->f);
		indent(o, o->depth + 1);
	}
	if (!l->array) {
		json_write_string(o->f, key ? key : "");
		fputs(o->pretty ? ": " : ":", o->f);
	}
}

static void push(struct out *o, bool array)
{
	if (++o->depth == o->cap) {
		o->cap *= 2;
		o->lv = xrealloc(o->lv, o->cap * sizeof(*o->lv));
	}
	o->lv[o->depth].array = array;
	o->lv[o->depth].first = true;
}

static void pop(struct out *o, char close)
{
	if (!o->depth)
		return;
	if (o->json) {
		if (o->pretty && !o->lv[o->depth].first) {
			fputc('\n', o->f);
			indent(o, o->depth);
		}
		fputc(close, o->f);
	}
	o->depth--;
}

static void text_label(struct out *o, const char *label)
{
	indent(o, o->depth);
	fprintf(o->f, "%s:", label);
}

void out_begin_object(struct out *o, const char *key, const char *label)
{
	if (o->json) {
		json_member(o, key);
		fputc('{', o->f);
	} else if (label) {
		text_label(o, label);
		fputc('\n', o->f);
	}
	push(o, false);
}

void out_end_object(struct out *o)
{
	pop(o, '}');
}

void out_begin_array(struct out *o, const char *key, const char *label)
{
	if (o->json) {
		json_member(o, key);
		fputc('[', o->f);
	} else if (label) {
		text_label(o, label);
		fputc('\n', o->f);
	}
	push(o, true);
}

void out_end_array(struct out *o)
{
	pop(o, ']');
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
		json_member(o, key);
		fprintf(o->f, "%" PRIu64, v);
	} else if (label) {
		char *l = label_colon(label);

		text_value(o, l, "%" PRIu64 "%s%s", v, unit ? " " : "", unit ? unit : "");
		free(l);
	}
}

void out_s64(struct out *o, const char *key, const char *label, int64_t v, const char *unit)
{
	if (o->json) {
		json_member(o, key);
		fprintf(o->f, "%" PRId64, v);
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
		json_member(o, key);
		/* JSON has no NaN or infinity. */
		if (v != v || v > 1e300 || v < -1e300)
			fputs("null", o->f);
		else
			fprintf(o->f, "%.*f", prec, v);
	} else if (label) {
		char *l = label_colon(label);

		text_value(o, l, "%.*f%s%s", prec, v, unit ? " " : "", unit ? unit : "");
		free(l);
	}
}

void out_str(struct out *o, const char *key, const char *label, const char *s)
{
	if (o->json) {
		json_member(o, key);
		if (s)
			json_write_string(o->f, s);
		else
			fputs("null", o->f);
	} else if (label) {
		char *l = label_colon(label);

		text_value(o, l, "%s", s ? s : "-");
		free(l);
	}
}

void out_bool(struct out *o, const char *key, const char *label, bool v)
{
	if (o->json) {
		json_member(o, key);
		fputs(v ? "true" : "false", o->f);
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
	while (o->depth)
		pop(o, o->lv[o->depth].array ? ']' : '}');
	if (o->json) {
		if (o->pretty && !o->lv[0].first)
			fputc('\n', o->f);
		fputs("}\n", o->f);
	}
	fflush(o->f);
	free(o->lv);
	free(o);
}

void json_write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
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
