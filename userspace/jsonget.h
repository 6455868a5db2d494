/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading reports back with json-c: a member or NULL (a NULL object has
 * none), and numbers that are 0 when missing.
 */
#ifndef BLKLOAD_JSONGET_H
#define BLKLOAD_JSONGET_H

#include <stdint.h>

#include <json-c/json.h>

static inline struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static inline double get_d(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v ? json_object_get_double(v) : 0;
}

static inline uint64_t get_u(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v ? (uint64_t)json_object_get_int64(v) : 0;
}

#endif
