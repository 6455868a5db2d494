// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the text/JSON output layer.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "kselftest_harness.h"

#include "out.h"

/* Runs @fn against a memory stream and returns what it printed. */
static char *capture(void (*fn)(struct out *o), bool json, bool pretty)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out *o = out_new(f, json, pretty);

	fn(o);
	out_free(o);
	fclose(f);
	return buf;
}

static void doc(struct out *o)
{
	out_str(o, "name", "name", "rbd\"0\"\n\\");
	out_u64(o, "iops", "IOPS", 1234, NULL);
	out_begin_object(o, "lat", "latency");
	out_double(o, "mean", "mean", 1.5, 2, "us");
	out_bool(o, "ok", "ok", true);
	out_end_object(o);
	out_begin_array(o, "devs", "devices");
	out_begin_object(o, NULL, NULL);
	out_s64(o, "n", "n", -3, NULL);
	out_end_object(o);
	out_u64(o, NULL, NULL, 7, NULL);
	out_end_array(o);
	out_bytes(o, "bs", "block size", 4096);
	out_u64(o, "hidden", NULL, 1, NULL);
}

TEST(json_compact)
{
	char *s = capture(doc, true, false);

	EXPECT_STREQ("{\"name\":\"rbd\\\"0\\\"\\n\\\\\",\"iops\":1234,"
		     "\"lat\":{\"mean\":1.50,\"ok\":true},\"devs\":[{\"n\":-3},7],"
		     "\"bs\":4096,\"hidden\":1}\n", s);
	free(s);
}

/* Both forms parse as JSON (json-c) into the same document, value by value. */
static void same_doc(struct __test_metadata *_metadata, const char *text)
{
	struct json_object *d = json_tokener_parse(text), *v, *lat, *devs;

	ASSERT_NE(NULL, d);
	ASSERT_TRUE(json_object_object_get_ex(d, "name", &v));
	EXPECT_STREQ("rbd\"0\"\n\\", json_object_get_string(v));
	ASSERT_TRUE(json_object_object_get_ex(d, "iops", &v));
	EXPECT_EQ(1234, json_object_get_int64(v));
	ASSERT_TRUE(json_object_object_get_ex(d, "lat", &lat));
	ASSERT_TRUE(json_object_object_get_ex(lat, "mean", &v));
	EXPECT_EQ(1.5, json_object_get_double(v));
	ASSERT_TRUE(json_object_object_get_ex(lat, "ok", &v));
	EXPECT_TRUE(json_object_get_boolean(v));
	ASSERT_TRUE(json_object_object_get_ex(d, "devs", &devs));
	ASSERT_EQ(2, json_object_array_length(devs));
	ASSERT_TRUE(json_object_object_get_ex(json_object_array_get_idx(devs, 0), "n", &v));
	EXPECT_EQ(-3, json_object_get_int64(v));
	EXPECT_EQ(7, json_object_get_int64(json_object_array_get_idx(devs, 1)));
	ASSERT_TRUE(json_object_object_get_ex(d, "bs", &v));
	EXPECT_EQ(4096, json_object_get_int64(v));
	EXPECT_EQ(6, json_object_object_length(d));
	json_object_put(d);
}

TEST(json_parses)
{
	char *s = capture(doc, true, false);

	same_doc(_metadata, s);
	free(s);
	s = capture(doc, true, true);
	same_doc(_metadata, s);
	EXPECT_TRUE(strstr(s, "\n  \"iops\": 1234") != NULL);
	free(s);
}

/* The checker itself: a missing comma or a cut document does not parse. */
TEST(json_checker_rejects_broken)
{
	EXPECT_EQ(NULL, json_tokener_parse("{\"a\":1 \"b\":2}"));
	EXPECT_EQ(NULL, json_tokener_parse("{\"a\":[1,2}"));
	EXPECT_EQ(NULL, json_tokener_parse(""));
}

TEST(text)
{
	char *s = capture(doc, false, false);

	EXPECT_TRUE(strstr(s, "IOPS:") != NULL);
	EXPECT_TRUE(strstr(s, "1234\n") != NULL);
	EXPECT_TRUE(strstr(s, "latency:\n") != NULL);
	EXPECT_TRUE(strstr(s, "1.50 us\n") != NULL);
	EXPECT_TRUE(strstr(s, "4.00 KiB (4096)\n") != NULL);
	EXPECT_TRUE(strstr(s, "hidden") == NULL);
	free(s);
}

/* Not UTF-8 in a name (a device path is any bytes): replaced, the rest kept. */
TEST(json_invalid_utf8)
{
	char *c = utf8_clean("a\xff\xc0\x80" "b\xe2\x82\xac\xed\xa0\x80\xf4\x90\x80\x80z\xe2\x82");

	EXPECT_STREQ("a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "b\xe2\x82\xac"
		     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		     "z\xef\xbf\xbd\xef\xbf\xbd", c);
	free(c);
	c = utf8_clean("caf\xc3\xa9 \xf0\x9f\x92\xbe");
	EXPECT_STREQ("caf\xc3\xa9 \xf0\x9f\x92\xbe", c);
	free(c);
}

static void ctl(struct out *o)
{
	out_str(o, "s", NULL, "a\x01\tb");
}

TEST(json_control_chars)
{
	char *s = capture(ctl, true, false);

	EXPECT_STREQ("{\"s\":\"a\\u0001\\tb\"}\n", s);
	free(s);
}

TEST(bytes_format)
{
	char *s;

	s = fmt_bytes(0);
	EXPECT_STREQ("0 B", s);
	free(s);
	s = fmt_bytes(1536);
	EXPECT_STREQ("1.50 KiB", s);
	free(s);
	s = fmt_bytes(1ULL << 30);
	EXPECT_STREQ("1.00 GiB", s);
	free(s);
}

TEST_HARNESS_MAIN
