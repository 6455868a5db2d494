// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for fio's option table (fioopts.c): every option the installed
 * fio documents is known, blkload's own or in the table; lookups by alias
 * and either spelling; the verdicts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "fioopts.h"
#include "workload.h"

#define HOWTO "/usr/share/doc/fio/HOWTO.rst.gz"

/* Each name of each ".. option::" line of fio's HOWTO, aliases included. */
TEST(every_documented_option_is_known)
{
	FILE *f = fopen(HOWTO, "r");
	char *line = NULL;
	size_t cap = 0;
	unsigned int names = 0, missing = 0;

	if (!f)
		SKIP(return, "fio's HOWTO is not installed (" HOWTO ")");
	fclose(f);
	f = popen("zcat " HOWTO, "r");
	ASSERT_NE(NULL, f);
	while (getline(&line, &cap, f) > 0) {
		char *p, *tok, *next;

		if (strncmp(line, ".. option:: ", 12))
			continue;
		p = line + 12;
		/* "readwrite=str, rw=str : [engine]": names apart by ", ", each before '=', ' ' or '['. */
		p[strcspn(p, ":\n")] = 0;
		for (tok = p; tok; tok = next) {
			next = strstr(tok, ", ");
			if (next) {
				*next = 0;
				next += 2;
			}
			while (*tok == '-')
				tok++;
			tok[strcspn(tok, "=[ ")] = 0;
			names++;
			if (workload_option_known(tok) && !fio_opt_find(tok)) {
				missing++;
				TH_LOG("fio's '%s' is neither blkload's nor in fioopts.inc", tok);
			}
		}
	}
	free(line);
	pclose(f);
	/* fio 3.33 documents about 350: a parse that found few is broken. */
	EXPECT_LT(300, names);
	EXPECT_EQ(0, missing);
}

TEST(lookups)
{
	const struct fio_opt *o;

	o = fio_opt_find("timeout");
	ASSERT_NE(NULL, o);
	EXPECT_STREQ("runtime", o->name);
	o = fio_opt_find("ss-dur");
	ASSERT_NE(NULL, o);
	EXPECT_STREQ("steadystate_duration", o->name);
	o = fio_opt_find("busy_poll");
	ASSERT_NE(NULL, o);
	EXPECT_EQ(FIO_ENGINE, o->kind);
	EXPECT_NE(NULL, strstr(o->area, "rbd"));
	EXPECT_EQ(FIO_FILE, fio_opt_find("nrfiles")->kind);
	EXPECT_EQ(FIO_FILE, fio_opt_find("nr_files")->kind);
	EXPECT_EQ(FIO_SAME, fio_opt_find("end_fsync")->kind);
	EXPECT_EQ(NULL, fio_opt_find("bogus_option"));
	EXPECT_EQ(NULL, fio_opt_find("time"));
}

TEST(verdicts)
{
	FILE *saved = stderr, *f;
	char err[2048];

	memset(err, 0, sizeof(err));
	f = fmemopen(err, sizeof(err), "w");
	stderr = f;
	EXPECT_EQ(FIO_TAKE, fio_opt_check(fio_opt_find("end_fsync"), "end_fsync", "0", "x", true));
	EXPECT_EQ(FIO_REFUSE, fio_opt_check(fio_opt_find("end_fsync"), "end_fsync", "1", "x", true));
	EXPECT_EQ(FIO_REFUSE, fio_opt_check(fio_opt_find("end_fsync"), "end_fsync", NULL, "x", true));
	/* A profile's option without profile= is ignored (fio's does nothing); profile= refused. */
	EXPECT_EQ(FIO_IGNORE, fio_opt_check(fio_opt_find("threads"), "threads", "1", "x", true));
	EXPECT_EQ(FIO_REFUSE, fio_opt_check(fio_opt_find("profile"), "profile", "act", "x", true));
	EXPECT_EQ(FIO_TAKE, fio_opt_check(fio_opt_find("disk_util"), "disk_util", NULL, "x", true));
	EXPECT_EQ(FIO_TAKE, fio_opt_check(fio_opt_find("disk_util"), "disk_util", "0", "x", true));
	EXPECT_EQ(FIO_IGNORE, fio_opt_check(fio_opt_find("directory"), "directory", "/a", "x", true));
	EXPECT_EQ(FIO_IGNORE, fio_opt_check(fio_opt_find("directory"), "directory", "/b", "x", true));
	EXPECT_EQ(FIO_REFUSE, fio_opt_check(fio_opt_find("rate_ignore_thinktime"), "rate_ignore_thinktime", "1", "x", true));
	stderr = saved;
	fclose(f);
	/* The file option warned once. */
	ASSERT_NE(NULL, strstr(err, "'directory' ignored"));
	EXPECT_EQ(NULL, strstr(strstr(err, "'directory' ignored") + 1, "'directory' ignored"));
	EXPECT_NE(NULL, strstr(err, "'end_fsync=1': blkload's direct IO leaves nothing to flush; direct=0 writes are flushed once at the end, untimed; blkload takes end_fsync=0 or end_fsync=false"))
		TH_LOG("%s", err);
}

/* fio's --cmdhelp: what blkload does with each option, in words. */
TEST(cmdhelp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	FILE *saved = stderr;

	ASSERT_EQ(0, fio_opt_help(f, "end_fsync", workload_option_known));
	ASSERT_EQ(0, fio_opt_help(f, "timeout", workload_option_known));
	ASSERT_EQ(0, fio_opt_help(f, "nrfiles", workload_option_known));
	ASSERT_EQ(0, fio_opt_help(f, "allow-write", workload_option_known));
	stderr = fopen("/dev/null", "w");
	EXPECT_EQ(-1, fio_opt_help(f, "bogus_option", workload_option_known));
	fclose(stderr);
	stderr = saved;
	fclose(f);
	EXPECT_NE(NULL, strstr(buf, "end_fsync: fio's I/O type option: accepted as 0 false: blkload's direct IO leaves nothing to flush")) TH_LOG("%s", buf);
	EXPECT_NE(NULL, strstr(buf, "blkload's --runtime")) TH_LOG("%s", buf);
	EXPECT_NE(NULL, strstr(buf, "nrfiles (nr_files): fio's file option: a file option")) TH_LOG("%s", buf);
	EXPECT_NE(NULL, strstr(buf, "allow-write: blkload's own option")) TH_LOG("%s", buf);
	free(buf);
	/* Every option of the table, one line each. */
	buf = NULL;
	f = open_memstream(&buf, &len);
	ASSERT_EQ(0, fio_opt_help(f, NULL, workload_option_known));
	fclose(f);
	EXPECT_GT(len, 20000);
	free(buf);
}

TEST_HARNESS_MAIN
