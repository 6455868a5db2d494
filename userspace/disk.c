// SPDX-License-Identifier: GPL-2.0
/*
 * A block device's own counters (/sys/class/block/NAME/stat) around a run:
 * fio's disk_util, and the check that counted IOs reached the device.
 */
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "job.h"
#include "util.h"

int disk_sample(const char *path, struct disk_util *d)
{
	uint64_t v[11] = { 0 };
	struct stat st;
	char *sys, *real, *name;
	FILE *f;
	int n;

	memset(d, 0, sizeof(*d));
	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return -1;
	/* The kernel's name of the device (dm-0 for /dev/mapper/x), by its number. */
	sys = xasprintf("/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	real = realpath(sys, NULL);
	free(sys);
	if (!real)
		return -1;
	name = basename(real);
	sys = xasprintf("/sys/class/block/%s/stat", name);
	d->name = xstrdup(name);
	free(real);
	f = fopen(sys, "r");
	free(sys);
	if (!f) {
		disk_util_free(d);
		return -1;
	}
	n = fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
	fclose(f);
	if (n != 11) {
		disk_util_free(d);
		return -1;
	}
	d->ios[0] = v[0];
	d->merges[0] = v[1];
	d->sectors[0] = v[2];
	d->ticks[0] = v[3];
	d->ios[1] = v[4];
	d->merges[1] = v[5];
	d->sectors[1] = v[6];
	d->ticks[1] = v[7];
	d->io_ticks = v[9];
	d->in_queue = v[10];
	return 0;
}

void disk_delta(const struct disk_util *a, struct disk_util *b, uint64_t wall_ns)
{
	for (int i = 0; i < 2; i++) {
		b->ios[i] -= a->ios[i];
		b->merges[i] -= a->merges[i];
		b->sectors[i] -= a->sectors[i];
		b->ticks[i] -= a->ticks[i];
	}
	b->io_ticks -= a->io_ticks;
	b->in_queue -= a->in_queue;
	b->util = wall_ns ? 100.0 * (double)b->io_ticks * 1e6 / (double)wall_ns : 0;
	if (b->util > 100.0)
		b->util = 100.0;
}

void disk_util_free(struct disk_util *d)
{
	free(d->name);
	d->name = NULL;
}
