// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse.h"
#include "util.h"

#define CPU_LIMIT	(1U << 20)

int parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
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

/* Multiplies a number parsed from @s by a unit; rejects overflow. */
static int scaled(const char *s, const char *const units[], const uint64_t mult[],
		  size_t nunits, uint64_t dflt, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (!*end) {
		if (dflt && v > UINT64_MAX / dflt)
			return -ERANGE;
		*out = v * dflt;
		return 0;
	}
	for (size_t i = 0; i < nunits; i++) {
		if (strcasecmp(end, units[i]))
			continue;
		if (v > UINT64_MAX / mult[i])
			return -ERANGE;
		*out = v * mult[i];
		return 0;
	}
	return -EINVAL;
}

int parse_size(const char *s, uint64_t *out)
{
	static const char *const units[] = {
		"b", "k", "kb", "kib", "m", "mb", "mib", "g", "gb", "gib",
		"t", "tb", "tib", "p", "pb", "pib",
	};
	static const uint64_t mult[] = {
		1, 1ULL << 10, 1ULL << 10, 1ULL << 10, 1ULL << 20, 1ULL << 20, 1ULL << 20,
		1ULL << 30, 1ULL << 30, 1ULL << 30, 1ULL << 40, 1ULL << 40, 1ULL << 40,
		1ULL << 50, 1ULL << 50, 1ULL << 50,
	};

	return scaled(s, units, mult, ARRAY_SIZE(units), 1, out);
}

int parse_time_ns(const char *s, uint64_t *out)
{
	static const char *const units[] = { "ns", "us", "ms", "s", "m", "h", "d" };
	static const uint64_t mult[] = {
		1, 1000, 1000000, 1000000000ULL, 60000000000ULL, 3600000000000ULL,
		86400000000000ULL,
	};

	return scaled(s, units, mult, ARRAY_SIZE(units), 1000000000ULL, out);
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
