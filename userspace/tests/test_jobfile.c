// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for fio job files (jobfile.c): sections, [global], stonewall
 * and new_group, environment expansion, and errors naming their line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "jobfile.h"
#include "workload.h"

static char *write_file(const char *text)
{
	char *path = strdup("/tmp/blkload-jobfile-XXXXXX");
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		abort();
	close(fd);
	return path;
}

/* jobfile_read() of @path with stderr into @err. */
static int read_path(struct jobfile *jf, const char *path, char *err, size_t errlen)
{
	FILE *saved = stderr, *f = fmemopen(err, errlen, "w");
	int ret;

	memset(err, 0, errlen);
	stderr = f;
	ret = jobfile_read(jf, path, workload_option_known);
	stderr = saved;
	fclose(f);
	return ret;
}

static int read_text(struct jobfile *jf, const char *text, char *err, size_t errlen)
{
	char *path = write_file(text);
	int ret = read_path(jf, path, err, errlen);

	unlink(path);
	free(path);
	return ret;
}

static const char *arg(const struct jobfile_job *j, const char *prefix)
{
	for (unsigned int i = 0; i < j->argc; i++)
		if (!strncmp(j->argv[i], prefix, strlen(prefix)))
			return j->argv[i];
	return NULL;
}

TEST(global_sections_waves_groups)
{
	struct jobfile jf = { 0 };
	char err[512];

	setenv("BL_TEST_DEV", "/dev/nullb0", 1);
	ASSERT_EQ(0, read_text(&jf,
		"; a comment\n"
		"# another\n"
		"[global]\n"
		"ioengine=libaio\n"
		"direct = 1\n"
		"bs=4k\n"
		"filename=${BL_TEST_DEV}\n"
		"\n"
		"[reads]\n"
		"rw=randread\n"
		"iodepth=$ncpus\n"
		"[writes]\n"
		"rw=randwrite\n"
		"allow_write\n"
		"bs=64k\n"
		"filename=/dev/other\n"
		"name=ignored\n"
		"[later]\n"
		"stonewall\n"
		"rw=read\n"
		"[apart]\n"
		"new_group\n"
		"rw=read\n", err, sizeof(err)));
	EXPECT_STREQ("", err);
	ASSERT_EQ(4, jf.nr);
	EXPECT_STREQ("reads", jf.jobs[0].name);
	EXPECT_STREQ("--name=reads", jf.jobs[0].argv[0]);
	EXPECT_STREQ("--filename=/dev/nullb0", arg(&jf.jobs[0], "--filename"));
	EXPECT_STREQ("--ioengine=libaio", arg(&jf.jobs[0], "--ioengine"));
	EXPECT_NE(NULL, arg(&jf.jobs[0], "--iodepth="));
	EXPECT_NE(0, strcmp("--iodepth=$ncpus", arg(&jf.jobs[0], "--iodepth=")));
	/* A section's option replaces [global]'s: one --bs, one --filename. */
	EXPECT_STREQ("--bs=64k", arg(&jf.jobs[1], "--bs"));
	for (unsigned int i = 0, n = 0; i < jf.jobs[1].argc; i++)
		ASSERT_GT(2, n += !strncmp(jf.jobs[1].argv[i], "--bs", 4));
	EXPECT_STREQ("--allow_write", arg(&jf.jobs[1], "--allow"));
	EXPECT_EQ(NULL, arg(&jf.jobs[1], "--name=ignored"));
	EXPECT_STREQ("--filename=/dev/other", arg(&jf.jobs[1], "--filename"));
	EXPECT_EQ(0, jf.jobs[0].wave);
	EXPECT_EQ(0, jf.jobs[1].wave);
	EXPECT_EQ(1, jf.jobs[2].wave);
	EXPECT_EQ(1, jf.jobs[3].wave);
	EXPECT_EQ(0, jf.jobs[1].groupid);
	EXPECT_EQ(1, jf.jobs[2].groupid);
	EXPECT_EQ(2, jf.jobs[3].groupid);
	EXPECT_EQ(NULL, arg(&jf.jobs[2], "--stonewall"));
	ASSERT_EQ(4, jf.global.nr);
	EXPECT_STREQ("filename", jf.global.key[3]);
	EXPECT_STREQ("/dev/nullb0", jf.global.val[3]);
	jobfile_free(&jf);
}

/* Each refusal names the file's line and the option. */
TEST(errors_name_the_line)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "[a]\nrw=read\nrate_ignore_thinktime=1\n", ":3: 'rate_ignore_thinktime' is a fio I/O rate option that blkload does not have yet" },
		{ "[a]\nsqthread_poll_cpu=1\n", ":2: 'sqthread_poll_cpu' is an option of fio's io_uring" },
		{ "[a]\nparse-only\n", ":2: 'parse_only' is one of fio's command-line options" },
		{ "[a]\nprofile=tiobench\n", ":2: 'profile' names one of fio's predefined workloads" },
		{ "[a]\nrw=read\n[b]\nwait_for=c\n", "job [b]: wait_for=c: no job of that name before it" },
		{ "[a]\nmax_open_zones=4\n", ":2: 'max_open_zones' is a fio zoned device option" },
		{ "[a]\nbogus=1\n", ":2: 'bogus' is not an option fio or blkload knows" },
		{ "rw=read\n[a]\n", ":1: an option before any [section]" },
		{ "[a]\nfilename=${BL_TEST_UNSET_VAR}\n", ":2: ${BL_TEST_UNSET_VAR} is not set" },
		{ "[a\n", ":1: a section is \"[name]\"" },
		{ "[global]\nrw=read\n", "no job in the file" },
		{ "", "no job in the file" },
		{ "[a]\ninclude blkload-no-such.fio\n", ":2: include /tmp/blkload-no-such.fio: No such file" },
		{ "[ ]\nrw=read\n", ":1: a section without a name" },
		{ "[global]\nhelp\n[a]\n", ":2: 'help' is one of fio's command-line options, not a job option" },
	};
	char err[512];

	unsetenv("BL_TEST_UNSET_VAR");
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		struct jobfile jf = { 0 };

		EXPECT_EQ(-1, read_text(&jf, cases[i].text, err, sizeof(err)));
		EXPECT_NE(NULL, strstr(err, cases[i].want)) {
			TH_LOG("case %u: %s", i, err);
		}
		jobfile_free(&jf);
	}
}

/* "key=" is "--key=" (a bare "--key" would eat the next option); "[ global ]" is [global]. */
TEST(empty_values_and_spaces)
{
	struct jobfile jf = { 0 };
	char err[512];

	setenv("BL_TEST_EMPTY", "", 1);
	ASSERT_EQ(0, read_text(&jf, "[ global ]\nrw=read\n[ a ]\nclientname=${BL_TEST_EMPTY}\n"
			       "time_based\n", err, sizeof(err)));
	ASSERT_EQ(1, jf.nr);
	EXPECT_STREQ("a", jf.jobs[0].name);
	EXPECT_STREQ("--clientname=", arg(&jf.jobs[0], "--clientname"));
	EXPECT_STREQ("--time_based", arg(&jf.jobs[0], "--time_based"));
	EXPECT_STREQ("--rw=read", arg(&jf.jobs[0], "--rw"));
	jobfile_free(&jf);
}

/*
 * fio's own parsing: a ';' or '#' anywhere starts a comment; fio's options
 * blkload behaves like are taken out, a file option is ignored with one
 * warning, an alias of one of blkload's options becomes blkload's name.
 */
TEST(fio_comments_and_options)
{
	struct jobfile jf = { 0 };
	char err[2048];

	ASSERT_EQ(0, read_text(&jf, "[global] ; defaults\n"
			       "numjobs=4 ; four copies\n"
			       "rw=randread\t# random\n"
			       "buffered=0\n"
			       "disk_util=0\n"
			       "end_fsync=0\n"
			       "thread\n"
			       "directory=/mnt ; ignored\n"
			       "filesize=1g\n"
			       "nrfiles=4\n"
			       "[a]\n"
			       "timeout=30\n"
			       "directory=/other\n"
			       "filename=/dev/x ; or use a full disk\n", err, sizeof(err)));
	ASSERT_EQ(1, jf.nr);
	EXPECT_STREQ("--numjobs=4", arg(&jf.jobs[0], "--numjobs"));
	EXPECT_STREQ("--rw=randread", arg(&jf.jobs[0], "--rw"));
	EXPECT_STREQ("--filename=/dev/x", arg(&jf.jobs[0], "--filename"));
	EXPECT_STREQ("--runtime=30", arg(&jf.jobs[0], "--runtime"));
	EXPECT_EQ(NULL, arg(&jf.jobs[0], "--timeout"));
	EXPECT_STREQ("--buffered=0", arg(&jf.jobs[0], "--buffered"));
	EXPECT_EQ(NULL, arg(&jf.jobs[0], "--disk_util"));
	EXPECT_EQ(NULL, arg(&jf.jobs[0], "--end_fsync"));
	EXPECT_EQ(NULL, arg(&jf.jobs[0], "--directory"));
	EXPECT_EQ(NULL, arg(&jf.jobs[0], "--nrfiles"));
	/* fio's filesize on a device is where the region ends: blkload's own. */
	EXPECT_STREQ("--filesize=1g", arg(&jf.jobs[0], "--filesize"));
	/* Each file option once, where it first stands. */
	EXPECT_NE(NULL, strstr(err, ":8: 'directory' ignored: fio's option for files")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, ":10: 'nrfiles' ignored")) TH_LOG("%s", err);
	EXPECT_EQ(NULL, strstr(err, ":13:")) TH_LOG("%s", err);
	jobfile_free(&jf);
}

/* A second file waits for the first (fio's implied stonewall), once. */
/*
 * fio's wait_for=NAME: the job starts in the wave after that job's (and the
 * jobs after it with it); a profile's option without profile= is ignored.
 */
TEST(wait_for_and_profile_options)
{
	struct jobfile jf = { 0 };
	char err[1024];

	ASSERT_EQ(0, read_text(&jf, "[global]\nthreads=1\n[w]\nrw=read\n[x]\nrw=read\n"
			       "[r]\nwait_for=w\n[s]\nrw=read\n[t]\nwait_for=w\n",
			       err, sizeof(err)));
	ASSERT_EQ(5, jf.nr);
	EXPECT_EQ(0, jf.jobs[0].wave);
	EXPECT_EQ(0, jf.jobs[1].wave);
	EXPECT_EQ(1, jf.jobs[2].wave);
	/* Not a new group: fio's wait_for is not one. */
	EXPECT_EQ(0, jf.jobs[2].groupid);
	EXPECT_EQ(1, jf.jobs[3].wave);
	/* w is in an earlier wave already: t starts with the wave it is in. */
	EXPECT_EQ(1, jf.jobs[4].wave);
	EXPECT_EQ(NULL, arg(&jf.jobs[2], "--wait_for"));
	EXPECT_EQ(NULL, arg(&jf.jobs[0], "--threads"));
	EXPECT_NE(NULL, strstr(err, ":2: 'threads' ignored: an option of fio's tiobench profile"));
	jobfile_free(&jf);
}

/*
 * fio's include: the lines of another file where it stands (in [global] for
 * every job, in a section for that job), the name found beside the file
 * that includes it; nested; an included file holds no section.
 */
TEST(include_files)
{
	char dir[] = "/tmp/blkload-inc-XXXXXX", *main_path, *nested, *glob, *bad;
	struct jobfile jf = { 0 };
	char err[1024];
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	glob = malloc(strlen(dir) + 32);
	nested = malloc(strlen(dir) + 32);
	bad = malloc(strlen(dir) + 32);
	main_path = malloc(strlen(dir) + 32);
	sprintf(glob, "%s/glob-include.fio", dir);
	sprintf(nested, "%s/test-include.fio", dir);
	sprintf(bad, "%s/bad.fio", dir);
	sprintf(main_path, "%s/including.fio", dir);
	f = fopen(glob, "w");
	fputs("thread=1\ngroup_reporting=1 ; from the include\ninclude test-include.fio\n", f);
	fclose(f);
	f = fopen(nested, "w");
	fputs("iodepth=4\n", f);
	fclose(f);
	f = fopen(bad, "w");
	fputs("[x]\n", f);
	fclose(f);
	f = fopen(main_path, "w");
	fputs("[global]\nfilename=/dev/x\ninclude glob-include.fio\n[test]\nrw=randread\n"
	      "include test-include.fio\nbs=8k\n", f);
	fclose(f);
	EXPECT_EQ(0, read_path(&jf, main_path, err, sizeof(err)));
	ASSERT_EQ(1, jf.nr) TH_LOG("%s", err);
	EXPECT_STREQ("--group_reporting=1", arg(&jf.jobs[0], "--group_reporting"));
	EXPECT_STREQ("--iodepth=4", arg(&jf.jobs[0], "--iodepth"));
	EXPECT_STREQ("--bs=8k", arg(&jf.jobs[0], "--bs"));
	EXPECT_STREQ("--filename=/dev/x", arg(&jf.jobs[0], "--filename"));
	jobfile_free(&jf);
	/* A section in an included file: refused with its file and line. */
	f = fopen(main_path, "w");
	fputs("[a]\ninclude bad.fio\n", f);
	fclose(f);
	EXPECT_EQ(-1, read_path(&jf, main_path, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "bad.fio:1: an included file holds no [section]")) TH_LOG("%s", err);
	jobfile_free(&jf);
	/* A file that includes itself: stopped at the depth limit. */
	f = fopen(main_path, "w");
	fputs("[a]\ninclude glob-include.fio\n", f);
	fclose(f);
	f = fopen(glob, "w");
	fputs("include glob-include.fio\n", f);
	fclose(f);
	EXPECT_EQ(-1, read_path(&jf, main_path, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "include nested deeper than 16 files")) TH_LOG("%s", err);
	jobfile_free(&jf);
	unlink(glob);
	unlink(nested);
	unlink(bad);
	unlink(main_path);
	rmdir(dir);
	free(glob);
	free(nested);
	free(bad);
	free(main_path);
}

TEST(second_file_waits)
{
	struct jobfile jf = { 0 };
	char err[512];

	ASSERT_EQ(0, read_text(&jf, "[a]\nrw=read\n[b]\nrw=read\n", err, sizeof(err)));
	ASSERT_EQ(0, read_text(&jf, "[c]\nrw=read\n[d]\nrw=read\n", err, sizeof(err)));
	ASSERT_EQ(0, read_text(&jf, "[e]\nstonewall\n", err, sizeof(err)));
	ASSERT_EQ(0, read_text(&jf, "[f]\nnew_group\n[g]\n", err, sizeof(err)));
	ASSERT_EQ(7, jf.nr);
	EXPECT_EQ(3, jf.jobs[5].wave);
	EXPECT_EQ(3, jf.jobs[5].groupid);
	EXPECT_EQ(3, jf.jobs[6].groupid);
	EXPECT_EQ(0, jf.jobs[1].wave);
	EXPECT_EQ(1, jf.jobs[2].wave);
	EXPECT_EQ(1, jf.jobs[3].wave);
	EXPECT_EQ(1, jf.jobs[3].groupid);
	EXPECT_EQ(2, jf.jobs[4].wave);
	EXPECT_EQ(2, jf.jobs[4].groupid);
	jobfile_free(&jf);
}

TEST(missing_file)
{
	struct jobfile jf = { 0 };
	char err[512];
	FILE *saved = stderr, *f = fmemopen(err, sizeof(err), "w");

	memset(err, 0, sizeof(err));
	stderr = f;
	EXPECT_EQ(-1, jobfile_read(&jf, "/nonexistent/x.fio", workload_option_known));
	stderr = saved;
	fclose(f);
	EXPECT_NE(NULL, strstr(err, "/nonexistent/x.fio: No such file"));
	jobfile_free(&jf);
}

TEST_HARNESS_MAIN
