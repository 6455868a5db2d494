/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio job files: the INI format fio reads, turned into one option vector per
 * job, for workload_parse().
 */
#ifndef BLKLOAD_JOBFILE_H
#define BLKLOAD_JOBFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "job.h"

struct jobfile_job {
	char *name;		/* the section's name */
	char **argv;		/* "--key=value" strings, [global]'s first */
	unsigned int argc;
	uint32_t groupid;	/* fio's reporting group: new_group and stonewall */
	uint32_t wave;		/* jobs of one wave run together; stonewall starts the next */
};

struct jobfile {
	struct jobfile_job *jobs;
	unsigned int nr;
	struct optlist global;	/* the first [global]'s options, for the report */
};

/*
 * Reads @path and appends its jobs to @jf (several files: one after the
 * other, each file's first job waiting for the jobs before it, as in fio). @known(name) is 0 when
 * blkload takes the option; the others go by fio's option table (fioopts.h).
 * Returns 0, or -1 after printing "path:line: ..." for the first problem.
 */
int jobfile_read(struct jobfile *jf, const char *path, int (*known)(const char *name));
void jobfile_free(struct jobfile *jf);

#endif
