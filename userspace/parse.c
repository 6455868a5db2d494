// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "parse.h"
#include "util.h"

#define CPU_LIMIT	(1U << 20)

static unsigned int kb_base = 1024;

int parse_set_kb_base(unsigned int base)
{
	if (base != 1000 && base != 1024)
		return -EINVAL;
	kb_base = base;
	return 0;
}

/*
 * The number at the start of @s by fio's rules: hexadecimal after "0x",
 * else decimal (a leading zero is not octal). *@end gets what follows.
 */
static int parse_num(const char *s, uint64_t *out, const char **end)
{
	unsigned long long v;
	int base = 10;
	char *e;

	if (!s || !*s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		if (!isxdigit((unsigned char)s[2]))
			return -EINVAL;
	} else if (!isdigit((unsigned char)*s)) {
		return -EINVAL;
	}
	errno = 0;
	v = strtoull(s, &e, base);
	if (errno == ERANGE)
		return -ERANGE;
	*out = v;
	*end = e;
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int ret = parse_num(s, &v, &end);

	if (ret)
		return ret;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_u32_range(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	int ret = parse_u64(s, &v);

	if (ret)
		return ret;
	if (v < min || v > max)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}

static int mul(uint64_t v, uint64_t m, uint64_t *out)
{
	if (m && v > UINT64_MAX / m)
		return -ERANGE;
	*out = v * m;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	/* Powers of kb_base; the "iB" forms use the other base, as fio does. */
	static const char *const si[] = { "b", "k", "m", "g", "t", "p" };
	static const char *const iec[] = { NULL, "kib", "mib", "gib", "tib", "pib" };
	const char *end;
	uint64_t v, m = 1;
	unsigned int other = kb_base == 1024 ? 1000 : 1024;
	int ret = parse_num(s, &v, &end);

	if (ret)
		return ret;
	if (!*end) {
		*out = v;
		return 0;
	}
	for (unsigned int pow = 0; pow < ARRAY_SIZE(si); pow++) {
		char kb[4];

		snprintf(kb, sizeof(kb), "%sb", si[pow]);
		if (!strcasecmp(end, si[pow]) || (pow && !strcasecmp(end, kb))) {
			for (unsigned int i = 0; i < pow; i++)
				m *= kb_base;
			return mul(v, m, out);
		}
		if (iec[pow] && !strcasecmp(end, iec[pow])) {
			for (unsigned int i = 0; i < pow; i++)
				m *= other;
			return mul(v, m, out);
		}
	}
	return -EINVAL;
}

int parse_time_ns(const char *s, uint64_t *out)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "nsec", 1 }, { "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 }, { "s", 1000000000ULL },
		{ "m", 60000000000ULL }, { "h", 3600000000000ULL }, { "d", 86400000000000ULL },
	};
	const char *end;
	uint64_t v;
	int ret = parse_num(s, &v, &end);

	if (ret)
		return ret;
	if (!*end)	/* seconds, as fio's runtime and ramp_time */
		return mul(v, 1000000000ULL, out);
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcasecmp(end, units[i].name))
			return mul(v, units[i].ns, out);
	return -EINVAL;
}

/* ".FRAC" (up to 9 digits) at @s into ns; the rest of @s in *@end. */
static int parse_frac(const char *s, int64_t *ns, const char **end)
{
	int64_t v = 0, scale = 100000000;

	*ns = 0;
	*end = s;
	if (*s != '.')
		return 0;
	s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++) {
		if (!scale)
			return -EINVAL;
		v += (*s - '0') * scale;
		scale /= 10;
	}
	*ns = v;
	*end = s;
	return 0;
}

/* "Z", "+HH:MM", "-HHMM" after a time of day: its offset from UTC in seconds. */
static int parse_utc_offset(const char *s, long *off)
{
	unsigned int h, m;
	int n = 0;

	if (!strcmp(s, "Z") || !strcmp(s, "z")) {
		*off = 0;
		return 0;
	}
	if ((*s != '+' && *s != '-') ||
	    (sscanf(s + 1, "%2u:%2u%n", &h, &m, &n) != 2 &&
	     sscanf(s + 1, "%2u%2u%n", &h, &m, &n) != 2) ||
	    s[1 + n] || h > 23 || m > 59)
		return -EINVAL;
	*off = (long)(h * 3600 + m * 60) * (*s == '-' ? -1 : 1);
	return 0;
}

int parse_wallclock(const char *s, int64_t now_ns, int64_t *out)
{
	unsigned int Y, M, D, h, m, sec = 0;
	struct tm tm = { 0 };
	const char *rest;
	int64_t frac;
	time_t t;
	int n = 0;

	if (*s == '@') {
		uint64_t v;
		char *ip = xstrdup(s + 1), *dot = strchr(ip, '.');
		int ret;

		if (dot)
			*dot = 0;
		ret = parse_u64(ip, &v);
		if (!ret)
			ret = parse_frac(s + 1 + strlen(ip), &frac, &rest);
		free(ip);
		if (ret || *rest || !isdigit((unsigned char)s[1]) || v > INT64_MAX / 1000000000)
			return -EINVAL;
		*out = (int64_t)v * 1000000000 + frac;
		return 0;
	}
	if (sscanf(s, "%4u-%2u-%2u%n", &Y, &M, &D, &n) == 3 && n == 10 &&
	    (s[10] == 'T' || s[10] == ' ')) {
		s += 11;
	} else {
		/* A time of day alone: today's date, in local time. */
		time_t now = (time_t)(now_ns / 1000000000);
		struct tm lt;

		if (!localtime_r(&now, &lt))
			return -EINVAL;
		Y = (unsigned int)lt.tm_year + 1900;
		M = (unsigned int)lt.tm_mon + 1;
		D = (unsigned int)lt.tm_mday;
	}
	n = 0;
	if (sscanf(s, "%2u:%2u%n", &h, &m, &n) != 2 || n != 5)
		return -EINVAL;
	s += 5;
	if (*s == ':') {
		n = 0;
		if (sscanf(s + 1, "%2u%n", &sec, &n) != 1 || n != 2)
			return -EINVAL;
		s += 3;
	}
	if (parse_frac(s, &frac, &rest))
		return -EINVAL;
	if (Y < 1970 || M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec > 60)
		return -EINVAL;
	tm.tm_year = (int)Y - 1900;
	tm.tm_mon = (int)M - 1;
	tm.tm_mday = (int)D;
	tm.tm_hour = (int)h;
	tm.tm_min = (int)m;
	tm.tm_sec = (int)sec;
	if (*rest) {
		long off;

		if (parse_utc_offset(rest, &off))
			return -EINVAL;
		t = timegm(&tm);
		if (t == (time_t)-1)
			return -EINVAL;
		t -= off;
	} else {
		tm.tm_isdst = -1;
		t = mktime(&tm);
		if (t == (time_t)-1)
			return -EINVAL;
	}
	/* mktime()/timegm() normalize: 31 February is not a date. */
	if (tm.tm_mday != (int)D)
		return -EINVAL;
	*out = (int64_t)t * 1000000000 + frac;
	return 0;
}

void cpuset_set(struct cpuset *set, unsigned int cpu)
{
	size_t w = cpu / 64;

	if (w >= set->nwords) {
		size_t n = w + 1;

		set->bits = xrealloc(set->bits, n * sizeof(*set->bits));
		memset(set->bits + set->nwords, 0, (n - set->nwords) * sizeof(*set->bits));
		set->nwords = n;
	}
	set->bits[w] |= 1ULL << (cpu % 64);
}

void cpuset_clear(struct cpuset *set, unsigned int cpu)
{
	if (cpu / 64 < set->nwords)
		set->bits[cpu / 64] &= ~(1ULL << (cpu % 64));
}

bool cpuset_test(const struct cpuset *set, unsigned int cpu)
{
	size_t w = cpu / 64;

	return w < set->nwords && (set->bits[w] >> (cpu % 64)) & 1;
}

unsigned int cpuset_count(const struct cpuset *set)
{
	unsigned int n = 0;

	for (size_t i = 0; i < set->nwords; i++)
		n += (unsigned int)__builtin_popcountll(set->bits[i]);
	return n;
}

unsigned int cpuset_limit(const struct cpuset *set)
{
	for (size_t i = set->nwords; i > 0; i--)
		if (set->bits[i - 1])
			return (unsigned int)((i - 1) * 64 + 64 - __builtin_clzll(set->bits[i - 1]));
	return 0;
}

void cpuset_free(struct cpuset *set)
{
	free(set->bits);
	set->bits = NULL;
	set->nwords = 0;
}

static int parse_cpu(const char **p, unsigned int *cpu)
{
	unsigned long v;
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	v = strtoul(*p, &end, 10);
	if (errno == ERANGE || v >= CPU_LIMIT)
		return -ERANGE;
	*p = end;
	*cpu = (unsigned int)v;
	return 0;
}

int parse_cpulist(const char *s, struct cpuset *out)
{
	struct cpuset set = { 0 };
	const char *p = s;
	int ret;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		unsigned int lo, hi;

		ret = parse_cpu(&p, &lo);
		if (ret)
			goto err;
		hi = lo;
		if (*p == '-') {
			p++;
			ret = parse_cpu(&p, &hi);
			if (ret)
				goto err;
			if (hi < lo) {
				ret = -EINVAL;
				goto err;
			}
		}
		for (unsigned int c = lo; c <= hi; c++)
			cpuset_set(&set, c);
		if (!*p)
			break;
		if (*p != ',') {
			ret = -EINVAL;
			goto err;
		}
		p++;
	}
	cpuset_free(out);
	*out = set;
	return 0;
err:
	cpuset_free(&set);
	return ret;
}

char *cpuset_format(const struct cpuset *set)
{
	unsigned int limit = cpuset_limit(set);
	char *s = xstrdup("");

	for (unsigned int c = 0; c < limit; c++) {
		unsigned int e = c;
		char *n;

		if (!cpuset_test(set, c))
			continue;
		while (e + 1 < limit && cpuset_test(set, e + 1))
			e++;
		if (e == c)
			n = xasprintf("%s%s%u", s, *s ? "," : "", c);
		else
			n = xasprintf("%s%s%u-%u", s, *s ? "," : "", c, e);
		free(s);
		s = n;
		c = e;
	}
	return s;
}
