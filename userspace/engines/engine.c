// SPDX-License-Identifier: GPL-2.0
/*
 * The part of every userspace engine that is not moving IO: jobs, queues,
 * pinned threads, the shared generator and histogram, ramp, limits, stops,
 * statistics, and the jobs as the report wants them. See engine.h.
 *
 * Timing is fio's: an IO's latency runs from a clock read just before its
 * submission call to the clock read that follows the reap returning it (one
 * read per reap, as fio takes one per batch of events).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include <blkload/dist.h>
#include <blkload/fill.h>
#include <blkload/hist.h>
#include <blkload/stamp.h>
#include <blkload/verify.h>

#include "../crc32c.h"
#include "../inuse.h"
#include "../util.h"
#include "engine.h"

static const struct engine_ops *const engines[] = {
	&eng_io_uring,
	&eng_libaio,
	&eng_librbd,
};

const struct engine_ops *engine_find(const char *name)
{
	/* fio's name of the librbd engine */
	if (!strcmp(name, "rbd"))
		name = "librbd";
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++)
		if (!strcmp(name, engines[i]->name))
			return engines[i];
	return NULL;
}

void engine_list(FILE *f)
{
	fprintf(f, "  kernel     the blkload module: bios from per-CPU kernel threads (default)\n");
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++)
		fprintf(f, "  %-10s %s\n", engines[i]->name, engines[i]->help);
}

uint64_t eng_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The thread's user and system time (tick-sampled) and context switches. */
static void thread_rusage(uint64_t *usr, uint64_t *sys, uint64_t *ctx)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru)) {
		*usr = *sys = *ctx = 0;
		return;
	}
	*usr = (uint64_t)ru.ru_utime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_utime.tv_usec * 1000;
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_stime.tv_usec * 1000;
	*ctx = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

static bool writes(uint32_t rw)
{
	return rw != BLKLOAD_RW_READ && rw != BLKLOAD_RW_RANDREAD;
}

/*
 * A write's data, as the module makes it (fill.h): copied out of the pool
 * from the position its offset names, each sector stamped; a dedupe
 * block's units copies of the pool's first, unstamped; zeros for
 * zero_buffers (again each time where reads of a mix share the buffer).
 */
static void write_data(const struct workload *w, const struct eng_job *job, struct eng_slot *s)
{
	unsigned char *p = s->buf;

	if (!job->pool) {
		if (w->rw == BLKLOAD_RW_RW || w->rw == BLKLOAD_RW_RANDRW)
			memset(p, 0, s->len);
		return;
	}
	if (bl_fill_dedupe(w->randseed, s->off, w->buf_dedupe)) {
		for (uint32_t o = 0; o < s->len; o += w->bs)
			memcpy(p + o, job->pool, s->len - o < w->bs ? s->len - o : w->bs);
		return;
	}
	memcpy(p, job->pool + bl_fill_pos(w->randseed, s->off), s->len);
	for (uint32_t o = 0; o < s->len; o += BLKLOAD_SECTOR)
		bl_stamp_sector(p + o, s->off + o);
}

static void job_error(struct eng_job *job, int err);
static void job_end(struct eng_job *job, uint32_t reason);

/*
 * verify, as the module does it (include/blkload/verify.h): when an IO is
 * prepared, a write's units get their header and CRC (the generation from
 * the map of a job that has one), a trim's units are marked, a read takes
 * the map's snapshot of its units.
 */
static void verify_prep(const struct workload *w, struct eng_job *job, struct eng_slot *s)
{
	uint32_t *e = job->vmap ? &job->vmap[(s->off - w->offset) / w->bs] : NULL;
	unsigned char *p = s->buf;

	for (uint32_t at = 0, k = 0; at < s->len; at += w->bs, k++) {
		if (s->op == OP_READ) {
			if (e)
				s->vsnap[k] = BL_VMAP_LOAD(&e[k]);
		} else if (s->op == OP_TRIM) {
			if (e)
				bl_vmap_write_begin(&e[k]);
		} else {
			uint32_t gen = e ? bl_vmap_write_begin(&e[k]) : 1;

			bl_verify_hdr(p + at, s->off + at, w->randseed, gen, w->bs, job->nonce);
			bl_verify_set_crc(p + at, ~crc32c(~0U, p + at, w->bs));
		}
	}
}

static void verify_fail(struct eng_queue *q, uint64_t off, int what, uint64_t want, uint64_t got)
{
	struct eng_job *job = q->job;
	unsigned int i, max = sizeof(job->vrep) / sizeof(job->vrep[0]);

	q->verrors++;
	job_error(job, -EILSEQ);
	/* Every unit may fail: the index only while reports are kept (no wrap). */
	if (__atomic_load_n(&job->nvrep, __ATOMIC_RELAXED) >= max)
		return;
	i = __atomic_fetch_add(&job->nvrep, 1, __ATOMIC_RELAXED);
	if (i < max) {
		job->vrep[i].off = off;
		job->vrep[i].what = (uint32_t)what;
		job->vrep[i].want = want;
		job->vrep[i].got = got;
	}
}

/* verify, when an IO is reaped (@ok: it completed whole): as bl_verify_reap() in the module. */
static void verify_reap(const struct workload *w, struct eng_queue *q, struct eng_slot *s, bool ok)
{
	struct eng_job *job = q->job;
	uint32_t *e = job->vmap ? &job->vmap[(s->off - w->offset) / w->bs] : NULL;
	unsigned char *p = s->buf;

	for (uint32_t at = 0, k = 0; at < s->len; at += w->bs, k++) {
		uint64_t want, got;
		uint32_t gen = 0, crc;
		int what;

		if (s->op != OP_READ) {
			if (e)
				bl_vmap_write_end(&e[k], s->op == OP_WRITE && ok);
			continue;
		}
		if (!ok)
			continue;
		if (e) {
			if (!bl_vmap_checkable(s->vsnap[k], BL_VMAP_LOAD(&e[k]))) {
				q->vskipped++;
				continue;
			}
			gen = bl_vmap_gen(s->vsnap[k]);
		}
		q->vchecked++;
		what = bl_verify_check_hdr(p + at, s->off + at, w->randseed, gen, w->bs, job->nonce,
					   &want, &got);
		crc = bl_verify_hdr_crc(p + at);
		bl_verify_set_crc(p + at, 0);
		if (what == BL_VERIFY_OK) {
			want = crc;
			got = ~crc32c(~0U, p + at, w->bs);
			if (want != got)
				what = BL_VERIFY_BAD_CRC;
		}
		if (what != BL_VERIFY_OK)
			verify_fail(q, s->off + at, what, want, got);
	}
}

/*
 * verify's read-back pass, as the module's: once every queue of the run has
 * finished its workload on its own (runtime or IO count; not a stop or an
 * error), every unit the map knows written is read back and checked. It
 * runs after the threads, outside the statistics, the elapsed time and the
 * client CPU window; its reads go through the job's O_DIRECT fd (librbd:
 * rbd_read), runs of up to 1 MiB of units, one at a time, checked unit by
 * unit. Units in the map's "unknown" state (a write refused or failed) are
 * not read. Ctrl-C stops it (the job then ends as stopped); a read error
 * is the job's error and a read error counted, and ends the pass unless
 * continue_on_error covers reads (then that run is skipped).
 */
static void readback(const struct eng_run *run, struct eng_job *job)
{
	const struct workload *w = run->w;
	uint64_t chunk = (1 << 20) / w->bs ? (1 << 20) / w->bs : 1, u = 0, n;
	size_t align = job->lbs > 4096 ? job->lbs : 4096;
	struct eng_queue *q = &job->queues[0];
	unsigned char *buf;
	ssize_t nread;
	int ret;

	if (posix_memalign((void **)&buf, align, chunk * w->bs)) {
		job_error(job, -ENOMEM);
		return;
	}
	while (u < job->vunits) {
		/* A run of units that were written and are known. */
		while (u < job->vunits && !bl_vmap_checkable(job->vmap[u], job->vmap[u]))
			u++;
		for (n = 0; u + n < job->vunits && n < chunk &&
		     bl_vmap_checkable(job->vmap[u + n], job->vmap[u + n]); n++)
			;
		if (!n)
			break;
		if (*run->interrupted) {
			job_end(job, BLKLOAD_REASON_STOPPED);
			break;
		}
		if (run->ops->read_sync) {
			ret = run->ops->read_sync(job, w->offset + u * w->bs, n * w->bs, buf);
		} else {
			nread = pread(job->fd, buf, n * w->bs, (off_t)(w->offset + u * w->bs));
			ret = nread < 0 ? -errno : nread != (ssize_t)(n * w->bs) ? -EIO : 0;
		}
		if (ret) {
			job_error(job, ret);
			q->st[OP_READ].errors++;
			if (!(w->coe & BLKLOAD_COE_READ)) {
				job_end(job, BLKLOAD_REASON_ERROR);
				break;
			}
			u += n;
			continue;
		}
		for (uint64_t k = 0; k < n; k++) {
			unsigned char *p = buf + k * w->bs;
			uint64_t off = w->offset + (u + k) * w->bs, want, got;
			uint32_t crc;
			int what;

			q->vchecked++;
			what = bl_verify_check_hdr(p, off, w->randseed, bl_vmap_gen(job->vmap[u + k]),
						   w->bs, job->nonce, &want, &got);
			crc = bl_verify_hdr_crc(p);
			bl_verify_set_crc(p, 0);
			if (what == BL_VERIFY_OK) {
				want = crc;
				got = ~crc32c(~0U, p, w->bs);
				if (want != got)
					what = BL_VERIFY_BAD_CRC;
			}
			if (what != BL_VERIFY_OK)
				verify_fail(q, off, what, want, got);
		}
		job->vreadback += n;
		u += n;
	}
	free(buf);
}

static bool sequential(uint32_t rw)
{
	return rw == BLKLOAD_RW_READ || rw == BLKLOAD_RW_WRITE || rw == BLKLOAD_RW_RW ||
	       rw == BLKLOAD_RW_TRIM;
}

static bool random_rw(uint32_t rw)
{
	return rw == BLKLOAD_RW_RANDREAD || rw == BLKLOAD_RW_RANDWRITE ||
	       rw == BLKLOAD_RW_RANDRW || rw == BLKLOAD_RW_RANDTRIM;
}

static bool trim_only(uint32_t rw)
{
	return rw == BLKLOAD_RW_TRIM || rw == BLKLOAD_RW_RANDTRIM;
}

static uint32_t mix(const struct workload *w)
{
	switch (w->rw) {
	case BLKLOAD_RW_READ:
	case BLKLOAD_RW_RANDREAD:
		return 100;
	case BLKLOAD_RW_WRITE:
	case BLKLOAD_RW_RANDWRITE:
	case BLKLOAD_RW_TRIM:
	case BLKLOAD_RW_RANDTRIM:
		return 0;
	default:
		return w->rwmixread;
	}
}

/* The region and the IO count, as the module decides them (job.c). */
static int job_region(const struct workload *w, struct eng_job *job, uint64_t *size,
		      uint64_t *number_ios)
{
	uint64_t blocks;

	if (w->bs % job->lbs || w->offset % job->lbs) {
		fprintf(stderr, "blkload: %s: bs and offset must be multiples of its %u-byte blocks\n",
			job->path, job->lbs);
		return -1;
	}
	if (w->offset >= job->dev_size) {
		fprintf(stderr, "blkload: %s: offset is past the end of the device\n", job->path);
		return -1;
	}
	*size = w->size ? w->size : job->dev_size - w->offset;
	if (*size > job->dev_size - w->offset) {
		fprintf(stderr, "blkload: %s: the region (offset + size) is past the end\n",
			job->path);
		return -1;
	}
	blocks = *size / w->bs;
	if (!blocks || (sequential(w->rw) && blocks < job->nr_queues)) {
		fprintf(stderr, "blkload: %s: the region holds fewer blocks than needed\n",
			job->path);
		return -1;
	}
	if (w->bs_max != w->bs) {
		if (w->io_size || (!w->runtime && !w->number_ios)) {
			fprintf(stderr, "blkload: bssplit: give runtime or number_ios (not io_size)\n");
			return -1;
		}
		if ((sequential(w->rw) ? blocks / job->nr_queues : blocks) < w->bs_max / w->bs) {
			fprintf(stderr, "blkload: %s: the largest bssplit size does not fit the region\n",
				job->path);
			return -1;
		}
	}
	*number_ios = w->number_ios;
	if (w->io_size) {
		uint64_t n = w->io_size / w->bs;

		if (!n) {
			fprintf(stderr, "blkload: io_size is smaller than bs\n");
			return -1;
		}
		if (!*number_ios || n < *number_ios)
			*number_ios = n;
	}
	if (!*number_ios && !w->runtime)
		*number_ios = blocks;
	/* loops: each queue does its share that many times (queue_init()). */
	if (*number_ios && w->loops > 1 && *number_ios > UINT64_MAX / w->loops) {
		fprintf(stderr, "blkload: --loops x the IO count is over 2^64\n");
		return -1;
	}
	return 0;
}

static void op_reset(struct op_stats *st, bool keep_errors)
{
	uint64_t *hist = st->hist, *chist = st->chist, *shist = st->shist, errors = st->errors;

	memset(st, 0, sizeof(*st));
	st->hist = hist;
	st->chist = chist;
	st->shist = shist;
	st->has_sched = shist;
	if (hist)
		memset(hist, 0, BL_HIST_NR * sizeof(*hist));
	if (chist)
		memset(chist, 0, BL_HIST_NR * sizeof(*chist));
	if (shist)
		memset(shist, 0, BL_HIST_NR * sizeof(*shist));
	bl_lat_init(&st->sched);
	if (keep_errors)
		st->errors = errors;
	bl_lat_init(&st->lat);
	bl_lat_init(&st->clat);
	bl_lat_init(&st->slat);
	st->split = true;
}

/* The workload's block size split, as the module's job-new takes it (offset.h's form). */
static bool set_split(struct bl_gen *g, const struct workload *w)
{
	for (unsigned int d = 0; d < 2; d++) {
		struct bl_gen_bs t[BL_GEN_BS_MAX];
		uint32_t cum = 0;

		for (uint32_t i = 0; i < w->nbs[d]; i++) {
			cum += w->bss[d][i][2];
			t[i] = (struct bl_gen_bs){ .lo = w->bss[d][i][0], .hi = w->bss[d][i][1],
						   .cum = cum };
		}
		if (!bl_gen_set_bs(g, d, t, w->nbs[d]))
			return false;
	}
	return true;
}

static int queue_init(const struct workload *w, struct eng_job *job, struct eng_queue *q,
		      unsigned int index, unsigned int cpu, uint64_t size, uint64_t number_ios)
{
	size_t align = job->lbs > 4096 ? job->lbs : 4096;

	q->job = job;
	q->cpu = cpu;
	q->index = index;
	if (!bl_gen_init(&q->gen, w->randseed, index, job->nr_queues, random_rw(w->rw), mix(w),
			 w->offset, size, w->bs) ||
	    !bl_gen_set_trim(&q->gen, trim_only(w->rw) ? 100 : w->rwmixtrim) ||
	    !set_split(&q->gen, w) ||
	    !bl_dist_init(&q->dist, random_rw(w->rw) ? w->dist : BLKLOAD_DIST_RANDOM,
			  w->dist_param, q->gen.nblocks, w->randseed))
		return -1;
	if (w->rate_iops) {
		q->rate = w->rate_iops / job->nr_queues + (index < w->rate_iops % job->nr_queues);
		q->sched_step = 1000000000ULL / q->rate;
		q->sched_rem = 1000000000ULL % q->rate;
		bl_gen_init(&q->pace, w->randseed ^ 0x7061636500000000ULL, index, job->nr_queues,
			    true, 0, 0, 1, 1);
	}
	q->limit = UINT64_MAX;
	if (number_ios)
		q->limit = (number_ios / job->nr_queues + (index < number_ios % job->nr_queues)) *
			   (w->loops ? w->loops : 1);
	q->slots = xcalloc(w->iodepth, sizeof(*q->slots));
	q->free = xcalloc(w->iodepth, sizeof(*q->free));
	for (unsigned int i = 0; i < w->iodepth; i++) {
		struct eng_slot *s = &q->slots[i];

		if (posix_memalign(&s->buf, align, w->bs_max))
			return -1;
		memset(s->buf, 0, w->bs_max);
		if (w->verify)
			s->vsnap = xcalloc(w->bs_max / w->bs, sizeof(uint32_t));
		s->q = q;
		q->free[q->nr_free++] = s;
	}
	for (int op = 0; op < NR_OPS; op++) {
		q->st[op].hist = xcalloc(BL_HIST_NR, sizeof(uint64_t));
		q->st[op].chist = xcalloc(BL_HIST_NR, sizeof(uint64_t));
		if (w->rate_iops)
			q->st[op].shist = xcalloc(BL_HIST_NR, sizeof(uint64_t));
		op_reset(&q->st[op], false);
	}
	if (w->sample_ns) {
		/* The whole run and its drain where its length is known, else 256 to start. */
		q->scratch = xcalloc(1, sizeof(*q->scratch));
		size_t n = w->runtime ? (size_t)((w->runtime + (uint64_t)w->drain_ms * 1000000) /
						  w->sample_ns) + 4 : 256;

		/* And 128 buckets kept each: what a spread of 8 powers of two takes. */
		series_reserve(&q->ser, n, n * 128);
	}
	return 0;
}

/* Ends a job for @reason (the first one wins); any thread. */
static void job_end(struct eng_job *job, uint32_t reason)
{
	uint32_t none = 0;

	__atomic_compare_exchange_n(&job->reason, &none, reason, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	__atomic_store_n(&job->stop, true, __ATOMIC_RELEASE);
}

/* Keeps the job's first error; any thread. */
static void job_error(struct eng_job *job, int err)
{
	int none = 0;

	__atomic_compare_exchange_n(&job->error, &none, err, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
}

static void account(struct eng_queue *q, struct eng_slot *s, uint64_t now)
{
	const struct workload *w = q->t->run->w;
	struct op_stats *st = &q->st[s->op];
	uint64_t lat, slat;

	if (s->res != (int64_t)s->len) {
		int err = s->res < 0 ? (int)s->res : -EIO;

		job_error(q->job, err);
		/* A trim changes the device: its errors go with the writes'. */
		if (!(w->coe & (s->read ? BLKLOAD_COE_READ : BLKLOAD_COE_WRITE)))
			job_end(q->job, BLKLOAD_REASON_ERROR);
		st->errors++;
		return;
	}
	if (!s->counted)
		return;
	st->ios++;
	st->bytes += s->len;
	if (w->no_lat)
		return;
	/* As the module: a completion seen inside the submit call is all slat. */
	if (now < s->sent_ns)
		now = s->sent_ns;
	lat = now > s->submit_ns ? now - s->submit_ns : 0;
	slat = s->sent_ns > s->submit_ns ? s->sent_ns - s->submit_ns : 0;
	bl_lat_add(&st->lat, lat);
	bl_lat_add(&st->slat, slat);
	bl_lat_add(&st->clat, lat - slat);
	st->hist[bl_hist_idx(lat)]++;
	st->chist[bl_hist_idx(lat - slat)]++;
	if (st->has_sched) {
		uint64_t sl = now > s->sched_ns ? now - s->sched_ns : 0;

		bl_lat_add(&st->sched, sl);
		st->shist[bl_hist_idx(sl)]++;
		st->sched_n++;
	}
}

/* A rate-limited queue's next IO is due one step (or an exponential draw) later. */
static void queue_pace(struct eng_queue *q, const struct workload *w)
{
	if (w->rate_process == BLKLOAD_RATE_PROCESS_POISSON) {
		q->sched_next += bl_dist_exp(&q->pace, q->sched_step);
		return;
	}
	q->sched_next += q->sched_step;
	q->sched_acc += q->sched_rem;
	if (q->sched_acc >= q->rate) {
		q->sched_acc -= q->rate;
		q->sched_next++;
	}
}

/* Submits what the queue may: returns true when anything went. */
static bool queue_submit(struct eng_thread *t, struct eng_queue *q)
{
	const struct workload *w = t->run->w;
	unsigned int n = q->nr_free, batch = w->batch ? w->batch : 1;
	uint64_t now = eng_now_ns();
	struct eng_slot *slots[64];
	bool any = false;

	if (q->ramp_done && q->limit - q->issued < n)
		n = (unsigned int)(q->limit - q->issued);
	/* Rate limit: only the IOs due by now (checked one by one below); holds. */
	if ((q->rate && q->sched_next > now) || q->thinking || q->hold_until > now)
		n = 0;
	if (n && !q->inflight)
		q->progress_ns = now;
	while (n) {
		unsigned int b = n < batch ? n : batch, i;
		int sent;

		if (b > ARRAY_SIZE(slots))
			b = ARRAY_SIZE(slots);
		for (i = 0; i < b; i++) {
			struct eng_slot *s;

			if (q->rate && q->sched_next > now) {
				b = i;
				n = i;
				break;
			}
			s = q->free[--q->nr_free];

			s->op = bl_gen_op_dist(&q->gen, &q->dist, &s->off, &s->len);
			s->read = s->op == OP_READ;
			if (q->rate) {
				s->sched_ns = q->sched_next;
				queue_pace(q, w);
			}
			if (s->op == OP_WRITE && !(w->req & BLKLOAD_REQ_WRITE_ZEROES))
				write_data(w, q->job, s);
			if (w->verify)
				verify_prep(w, q->job, s);
			s->counted = q->ramp_done;
			slots[i] = s;
			/* thinktime: the last IO before the queue drains and stalls. */
			if (w->think_ns && ++q->think_count >= (w->think_blocks ? w->think_blocks : 1)) {
				q->thinking = true;
				b = i + 1;
				n = b;
				break;
			}
		}
		if (!b)
			break;
		/* Each IO from just before the call that submits it. */
		for (i = 0; i < b; i++)
			slots[i]->submit_ns = w->no_lat ? 0 : eng_now_ns();
		sent = t->ops->submit(t, slots, b);
		if (!w->no_lat && sent > 0) {
			uint64_t ns = eng_now_ns();

			for (i = 0; i < (unsigned int)sent; i++)
				slots[i]->sent_ns = ns;
		}
		if (sent < 0) {
			job_error(q->job, sent);
			job_end(q->job, BLKLOAD_REASON_ERROR);
			sent = 0;
		}
		for (i = 0; i < (unsigned int)sent; i++) {
			if (slots[i]->counted)
				q->issued++;
			q->inflight++;
		}
		/*
		 * What did not go goes back; the generator has moved on (a rare
		 * error). verify: its writes' units were marked: now unknown.
		 */
		for (i = (unsigned int)sent; i < b; i++) {
			if (w->verify)
				verify_reap(w, q, slots[i], false);
			q->free[q->nr_free++] = slots[i];
		}
		any |= sent > 0;
		if ((unsigned int)sent < b)
			break;
		n -= b;
	}
	return any;
}

/* One pass over a queue at @now; returns true when it submitted. */
/* The queue's next sample, of what completed since the last (nothing when !@take). */
static void queue_sample(struct eng_queue *q, uint64_t t, bool take)
{
	struct bl_sample *s = q->scratch;

	memset(s, 0, sizeof(*s));
	s->t = t - q->ramp_end;
	for (int op = 0; op < NR_OPS && take; op++) {
		const struct op_stats *st = &q->st[op];
		struct bl_sample_op cum = {
			.ios = st->ios, .bytes = st->bytes, .lat = st->lat.sum,
			.clat = st->clat.sum, .slat = st->slat.sum,
		};

		bl_sample_op_take(&s->op[op], s->chist[op], &q->sampler[op], &cum, st->chist);
	}
	q->sample_last = t;
	/* Without allocating while the run is measured, as far as the room reserved goes. */
	series_add(&q->ser, q->ser.nr, s);
}

/* The samples due at @now, as the module takes them (bl_queue_take_samples()). */
static void queue_take_samples(struct eng_queue *q, uint64_t now)
{
	uint64_t iv = q->ser.interval;

	while (now - q->sample_next >= iv) {
		queue_sample(q, q->sample_next, false);
		q->sample_next += iv;
	}
	queue_sample(q, now, true);
	q->sample_next += iv;
}

static bool queue_service(struct eng_thread *t, struct eng_queue *q, uint64_t now)
{
	bool limit;

	/* Since the last pass (none yet: 0) the thread had q->depth_inflight IOs outstanding. */
	if (q->ramp_done && q->depth_t && now > q->depth_t)
		q->depth_ns[bl_depth_idx(q->depth_inflight)] += now - q->depth_t;
	q->depth_t = now;
	if (!q->ramp_done && now >= q->ramp_end) {
		for (int op = 0; op < NR_OPS; op++)
			op_reset(&q->st[op], true);
		memset(q->depth_ns, 0, sizeof(q->depth_ns));
		q->stall_max = 0;
		q->count_start_ns = now;
		q->progress_ns = now;
		q->ramp_done = true;
	}
	if (q->ser.interval && q->ramp_done && now >= q->sample_next)
		queue_take_samples(q, now);
	if (!q->stopping) {
		if (__atomic_load_n(&q->job->stop, __ATOMIC_ACQUIRE)) {
			q->stopping = true;
		} else if (q->end && now >= q->end) {
			q->stopping = true;
			q->reason = BLKLOAD_REASON_RUNTIME;
		}
	}
	/* thinktime: its IOs done, the stall begins. */
	if (q->thinking && !q->inflight) {
		q->thinking = false;
		q->think_count = 0;
		q->hold_until = now + t->run->w->think_ns;
	}
	limit = q->ramp_done && q->issued >= q->limit;
	if (!q->stopping && !limit && q->nr_free)
		return queue_submit(t, q);
	if ((q->stopping || limit) && !q->inflight) {
		if (!q->stopping)
			q->reason = BLKLOAD_REASON_LIMIT;
		q->end_ns = q->last_done_ns ? q->last_done_ns : now;
		/* The last sample, as the module's: at the reap, none when that was this pass. */
		if (q->ser.interval && q->ramp_done && now > q->sample_last)
			queue_sample(q, now, true);
		/* end_ns and the statistics before finished, for the main thread. */
		__atomic_store_n(&q->finished, true, __ATOMIC_RELEASE);
	}
	return false;
}

static void thread_reap(struct eng_thread *t, bool wait, uint64_t timeout)
{
	int n = t->ops->reap(t, t->done, t->depth, wait, timeout);
	uint64_t now;

	if (n <= 0) {
		if (n < 0 && n != -EINTR && n != -ETIME && n != -EAGAIN)
			for (unsigned int i = 0; i < t->nr_queues; i++) {
				job_error(t->queues[i]->job, n);
				job_end(t->queues[i]->job, BLKLOAD_REASON_ERROR);
			}
		return;
	}
	now = eng_now_ns();
	for (int i = 0; i < n; i++) {
		struct eng_slot *s = t->done[i];
		struct eng_queue *q = s->q;
		/* A stall: IO in flight and no completion from progress_ns on. */
		if (q->ramp_done && now > q->progress_ns && now - q->progress_ns > q->stall_max)
			q->stall_max = now - q->progress_ns;
		q->progress_ns = now;
		q->last_done_ns = now;
		if (t->run->w->verify)
			verify_reap(t->run->w, q, s, s->res == (int64_t)s->len);
		account(q, s, now);
		q->free[q->nr_free++] = s;
		q->inflight--;
		q->ios_done++;
	}
}

static void *thread_fn(void *arg)
{
	struct eng_thread *t = arg;
	struct eng_run *run = t->run;
	const struct workload *w = run->w;
	uint64_t start, ramp_end, cpu0 = 0, usr0 = 0, sys0 = 0, ctx0 = 0, usr, sys, ctx;
	bool ramp_done = !w->ramp && !w->startdelay_ns;

	t->error = t->ops->thread_init ? t->ops->thread_init(t) : 0;
	pthread_barrier_wait(&run->start);	/* everyone ready */
	pthread_barrier_wait(&run->start);	/* run->start_ns is set */
	/* startdelay: nothing before it; the ramp and the runtime start then. */
	start = run->start_ns + w->startdelay_ns;
	ramp_end = start + w->ramp;
	for (unsigned int i = 0; i < t->nr_queues; i++) {
		struct eng_queue *q = t->queues[i];

		q->ramp_end = ramp_end;
		q->end = w->runtime ? ramp_end + w->runtime : 0;
		q->ser.interval = w->sample_ns;
		q->sample_next = ramp_end + w->sample_ns;
		q->sample_last = ramp_end;
		q->count_start_ns = start;
		q->progress_ns = start;
		q->sched_next = start;
		q->hold_until = start;
		q->ramp_done = ramp_done;
		if (t->error) {
			job_error(q->job, t->error);
			job_end(q->job, BLKLOAD_REASON_ERROR);
		}
	}
	if (ramp_done) {
		cpu0 = thread_cpu_ns();
		thread_rusage(&usr0, &sys0, &ctx0);
	}
	for (;;) {
		uint64_t now = eng_now_ns(), next = UINT64_MAX;
		unsigned int live = 0, inflight = 0;
		bool sent = false;

		if (!ramp_done && now >= ramp_end) {
			ramp_done = true;
			cpu0 = thread_cpu_ns();
			thread_rusage(&usr0, &sys0, &ctx0);
		}
		for (unsigned int i = 0; i < t->nr_queues; i++) {
			struct eng_queue *q = t->queues[i];

			if (q->finished)
				continue;
			sent |= queue_service(t, q, now);
			/* Outstanding until the next pass (reaps come before it, as in the module). */
			q->depth_inflight = q->inflight;
			if (q->finished)
				continue;
			live++;
			inflight += q->inflight;
			if (!q->ramp_done && q->ramp_end < next)
				next = q->ramp_end;
			else if (q->end && q->end < next)
				next = q->end;
			if (q->ser.interval && q->ramp_done && q->sample_next < next)
				next = q->sample_next;
			if (!q->stopping && q->nr_free && q->hold_until > now && !q->thinking &&
			    q->hold_until < next && !(q->ramp_done && q->issued >= q->limit))
				next = q->hold_until;
			/* The next IO due, when it could go (else a completion wakes). */
			if (q->rate && !q->stopping && q->nr_free && q->sched_next < next &&
			    !q->thinking && q->hold_until <= now &&
			    !(q->ramp_done && q->issued >= q->limit))
				next = q->sched_next;
		}
		if (!live)
			break;
		if (!inflight) {
			/* Only a deadline (an IO due) or a stop to wait for: up to 1 ms. */
			struct timespec ts = { 0, 1000000 };

			if (next > now && next - now < 1000000)
				ts.tv_nsec = (long)(next - now);
			if (next > now)
				nanosleep(&ts, NULL);
			continue;
		}
		/* Wake for deadlines and for stops (Ctrl-C) at least every 50 ms. */
		next = next > now ? next - now : 0;
		thread_reap(t, !sent, next < 50000000ULL ? next : 50000000ULL);
	}
	t->cpu_ns = ramp_done ? thread_cpu_ns() - cpu0 : 0;
	thread_rusage(&usr, &sys, &ctx);
	if (ramp_done) {
		/* The exact CPU time, split as the sampled user and system times are. */
		usr -= usr0;
		sys -= sys0;
		t->usr_ns = usr + sys ? (uint64_t)((double)t->cpu_ns * (double)usr /
						   (double)(usr + sys)) : 0;
		t->ctx = ctx - ctx0;
	}
	if (t->ops->thread_exit)
		t->ops->thread_exit(t);
	return NULL;
}

/* The CPUs of the workload, or the first one this process may use. */
static unsigned int run_cpus(const struct workload *w, unsigned int **out)
{
	unsigned int n = 0, *cpus = NULL;

	if (w->have_cpus) {
		for (unsigned int c = 0; c < cpuset_limit(&w->cpus); c++) {
			if (!cpuset_test(&w->cpus, c))
				continue;
			cpus = xrealloc(cpus, (n + 1) * sizeof(*cpus));
			cpus[n++] = c;
		}
	} else {
		cpu_set_t set;

		cpus = xcalloc(1, sizeof(*cpus));
		CPU_ZERO(&set);
		sched_getaffinity(0, sizeof(set), &set);
		for (unsigned int c = 0; c < CPU_SETSIZE; c++) {
			if (CPU_ISSET(c, &set)) {
				cpus[n++] = c;
				break;
			}
		}
	}
	*out = cpus;
	return n;
}

/* A job's statistics as the module's job-get gives them. */
static void job_fill(struct eng_run *run, unsigned int idx, const unsigned int *cpus,
		     unsigned int ncpus, struct job *j)
{
	const struct workload *w = run->w;
	struct eng_job *job = &run->jobs[idx];
	uint64_t first = UINT64_MAX, last = 0;
	struct cpuset set = { 0 };

	memset(j, 0, sizeof(*j));
	j->id = idx + 1;
	j->path = xstrdup(job->path);
	j->rw = w->rw;
	j->rwmixread = w->rwmixread;
	j->rwmixtrim = w->rwmixtrim;
	j->dist = w->dist;
	j->think_ns = w->think_ns;
	j->think_blocks = w->think_blocks;
	j->startdelay_ns = w->startdelay_ns;
	j->loops = w->loops;
	j->buf_compress = w->buf_compress;
	j->verify = w->verify;
	j->has_verify = w->verify;
	j->verify_no_readback = w->no_readback;
	j->nvrep = job->nvrep < 16 ? job->nvrep : 16;
	for (unsigned int i = 0; i < j->nvrep; i++) {
		j->vrep[i].off = job->vrep[i].off;
		j->vrep[i].want = job->vrep[i].want;
		j->vrep[i].got = job->vrep[i].got;
		j->vrep[i].what = job->vrep[i].what;
	}
	j->buf_dedupe = w->buf_dedupe;
	j->zero_buffers = w->zero_buffers;
	j->dist_param = w->dist_param;
	j->req = w->req;
	j->bs = w->bs;
	if (w->nbs[0])
		j->bssplit = bs_format(w->bss[0], (int)(w->nbs[0] * 12), w->bss[1],
				       (int)(w->nbs[1] * 12));
	j->iodepth = w->iodepth;
	j->batch = w->batch ? w->batch : 1;
	j->state = BLKLOAD_STATE_DONE;
	j->error = job->error;
	j->offset = w->offset;
	j->runtime = w->runtime;
	j->ramp = w->ramp;
	j->randseed = w->randseed;
	j->dev_size = job->dev_size;
	j->dev_lbs = job->lbs;
	j->no_lat = w->no_lat;
	j->coe = w->coe;
	for (unsigned int i = 0; i < ncpus; i++)
		cpuset_set(&set, cpus[i]);
	j->cpus = cpuset_format(&set);
	j->nr_cpus = ncpus;
	cpuset_free(&set);
	j->queues = xcalloc(job->nr_queues, sizeof(*j->queues));
	j->nr_queues = job->nr_queues;
	for (unsigned int i = 0; i < job->nr_queues; i++) {
		struct eng_queue *q = &job->queues[i];
		struct queue_stats *qs = &j->queues[i];
		struct eng_thread *t = q->t;
		uint64_t tios = 0, share;

		/* The thread's CPU time, split over its queues by completions. */
		for (unsigned int k = 0; k < t->nr_queues; k++)
			tios += t->queues[k]->ios_done;
		share = tios ? (uint64_t)((double)t->cpu_ns * (double)q->ios_done / (double)tios) : 0;
		j->usr_ns += tios ? (uint64_t)((double)t->usr_ns * (double)q->ios_done /
					       (double)tios) : 0;
		j->ctx += tios ? (uint64_t)((double)t->ctx * (double)q->ios_done /
					    (double)tios + 0.5) : 0;
		qs->cpu = q->cpu;
		qs->cpu_time = share;
		qs->stall_max = q->stall_max;
		j->cpu_time += share;
		if (q->stall_max > j->stall_max)
			j->stall_max = q->stall_max;
		j->vchecked += q->vchecked;
		j->vskipped += q->vskipped;
		j->verrors += q->verrors;
		for (int op = 0; op < NR_OPS; op++) {
			op_sum(&j->op[op], &q->st[op]);
			qs->op[op] = q->st[op];
			qs->op[op].hist = NULL;
			qs->op[op].chist = NULL;
			qs->op[op].shist = NULL;
		}
		for (int k = 0; k < BL_DEPTH_NR; k++) {
			qs->depth_ns[k] = q->depth_ns[k];
			j->depth_ns[k] += q->depth_ns[k];
		}
		j->ser.interval = q->ser.interval;
		series_merge(&j->ser, &q->ser);
		if (q->count_start_ns < first)
			first = q->count_start_ns;
		if (q->end_ns > last)
			last = q->end_ns;
		if (!j->reason)
			j->reason = q->reason;
		else if (q->reason == BLKLOAD_REASON_RUNTIME)
			j->reason = q->reason;
	}
	if (job->reason)
		j->reason = job->reason;
	j->vreadback = job->vreadback;
	j->elapsed = last > first ? last - first : 0;
	j->ramp_done = true;
}

/* Size and logical block size of the block device open at @fd. */
static int ioctl_block_size(int fd, uint64_t *size, unsigned int *lbs)
{
	int ssz;

	if (ioctl(fd, BLKGETSIZE64, size) || ioctl(fd, BLKSSZGET, &ssz))
		return -1;
	*lbs = (unsigned int)ssz;
	return 0;
}

static int job_open(struct eng_run *run, struct eng_job *job)
{
	const struct workload *w = run->w;
	int flags = O_DIRECT | (writes(w->rw) ? O_RDWR : O_RDONLY);

	/*
	 * Writes claim the device unless forced, as the module's do, once the
	 * guard found nobody using it and no data on it (inuse.h).
	 */
	if (writes(w->rw) && !w->force) {
		if (!w->guarded && bl_write_guard(job->path))
			return -EBUSY;
		flags |= O_EXCL;
	}
	job->fd = open(job->path, flags);
	if (job->fd < 0) {
		int err = -errno;

		fprintf(stderr, "blkload: %s: %s%s\n", job->path, strerror(-err),
			err == -EBUSY ? " (mounted or claimed; --force writes anyway)" : "");
		return err;
	}
	return 0;
}

/* What the engine cannot do of the workload, said; true when it cannot run it. */
static bool engine_refuses(const struct engine_ops *ops, const struct workload *w,
			   unsigned int nr_queues)
{
	uint32_t no = w->req & ~ops->req;

	if ((trim_only(w->rw) || w->rwmixtrim) && !ops->trim) {
		fprintf(stderr, "blkload: --engine %s has no trims (the module and librbd have)\n",
			ops->name);
		return true;
	}
	if (w->rate_iops && w->rate_iops < nr_queues) {
		fprintf(stderr, "blkload: --rate_iops is below one IO a second per CPU queue\n");
		return true;
	}
	/* What the module refuses of verify, and what the engines lack. */
	if (w->verify && (w->buf_dedupe || (w->req & BLKLOAD_REQ_WRITE_ZEROES))) {
		fprintf(stderr, "blkload: --verify writes a header in every unit: not with --dedupe_percentage or --write_zeroes\n");
		return true;
	}
	if (w->verify && (uint64_t)w->iodepth * nr_queues >= BL_VMAP_WRITERS) {
		fprintf(stderr, "blkload: --verify: at most 16382 IOs in flight (iodepth x CPUs)\n");
		return true;
	}
	if (w->zero_buffers && (w->buf_compress || w->buf_dedupe)) {
		fprintf(stderr, "blkload: --zero_buffers writes zeros: not with --buffer_compress_percentage or --dedupe_percentage\n");
		return true;
	}
	if (w->rate_process && !w->rate_iops) {
		fprintf(stderr, "blkload: --rate_process without --rate_iops\n");
		return true;
	}
	if (w->dist && !random_rw(w->rw)) {
		fprintf(stderr, "blkload: --random_distribution is for random patterns\n");
		return true;
	}
	if (trim_only(w->rw) && w->rwmixtrim) {
		fprintf(stderr, "blkload: --rwmixtrim is for read and write patterns\n");
		return true;
	}
	for (unsigned int b = 0; b < 32; b++) {
		if (no >> b & 1) {
			fprintf(stderr, "blkload: --engine %s has no --%s\n", ops->name,
				req_name(1U << b));
			return true;
		}
	}
	return false;
}

int engine_run(const struct engine_ops *ops, const struct workload *w,
	       volatile sig_atomic_t *interrupted, struct job *jobs, struct cpu_window *cw)
{
	struct eng_run run = { .ops = ops, .w = w, .interrupted = interrupted };
	unsigned int *cpus, ncpus = run_cpus(w, &cpus);
	uint64_t start_ms = 0;
	int ret = -1, late = 0;

	if (!ncpus) {
		fprintf(stderr, "blkload: no CPU to run on\n");
		free(cpus);
		return -1;
	}
	if ((writes(w->rw) || w->rwmixtrim) && !w->allow_write) {
		fprintf(stderr, "blkload: the workload writes or trims: --allow-write is required\n");
		free(cpus);
		return -1;
	}
	if (engine_refuses(ops, w, ncpus)) {
		free(cpus);
		return -1;
	}
	run.nr_jobs = ops->images ? w->nr_images : w->nr_devs;
	if (!run.nr_jobs) {
		fprintf(stderr, "blkload: --engine %s needs %s\n", ops->name,
			ops->images ? "--rbdname IMAGE (and --pool)" : "--dev DEVICE");
		free(cpus);
		return -1;
	}
	run.jobs = xcalloc(run.nr_jobs, sizeof(*run.jobs));
	for (unsigned int i = 0; i < run.nr_jobs; i++) {
		run.jobs[i].path = ops->images ? w->images[i] : w->devs[i];
		run.jobs[i].fd = -1;
		run.jobs[i].nr_queues = ncpus;
	}
	for (unsigned int i = 0; i < run.nr_jobs; i++) {
		struct eng_job *job = &run.jobs[i];
		uint64_t size, number_ios;

		if ((ops->job_open ? ops->job_open : job_open)(&run, job))
			goto out;
		if (job->fd >= 0 && !job->dev_size) {
			if (ioctl_block_size(job->fd, &job->dev_size, &job->lbs)) {
				fprintf(stderr, "blkload: %s: not a block device\n", job->path);
				goto out;
			}
		}
		if (job_region(w, job, &size, &number_ios))
			goto out;
		if (workload_fills(w)) {
			uint64_t psize = bl_fill_pool_size(w->bs_max);

			job->pool = xcalloc(1, psize);
			bl_fill_pool(job->pool, 0, (uint32_t)psize, w->randseed, w->buf_compress);
		}
		/* verify: the map of a job that writes or trims, as the module's. */
		if (w->verify && (workload_writes(w) || w->rwmixtrim || trim_only(w->rw))) {
			job->vunits = size / w->bs;
			/* The module's bound (bl_job_create()). */
			if (job->vunits > INT32_MAX / sizeof(uint32_t)) {
				fprintf(stderr, "blkload: %s: verify: over 2^29 units in the region; a smaller --size or a larger --bs\n",
					job->path);
				goto out;
			}
			job->vmap = xcalloc(job->vunits, sizeof(uint32_t));
		}
		if (w->verify && getentropy(&job->nonce, sizeof(job->nonce)))
			job->nonce = (uint32_t)eng_now_ns();
		job->queues = xcalloc(ncpus, sizeof(*job->queues));
		for (unsigned int c = 0; c < ncpus; c++) {
			if (queue_init(w, job, &job->queues[c], c, cpus[c], size, number_ios)) {
				fprintf(stderr, "blkload: %s: out of memory for the IO buffers\n",
					job->path);
				goto out;
			}
		}
	}
	run.nr_threads = ncpus;
	run.threads = xcalloc(ncpus, sizeof(*run.threads));
	for (unsigned int c = 0; c < ncpus; c++) {
		struct eng_thread *t = &run.threads[c];

		t->ops = ops;
		t->run = &run;
		t->cpu = cpus[c];
		t->queues = xcalloc(run.nr_jobs, sizeof(*t->queues));
		for (unsigned int i = 0; i < run.nr_jobs; i++) {
			t->queues[t->nr_queues++] = &run.jobs[i].queues[c];
			run.jobs[i].queues[c].t = t;
		}
		t->depth = w->iodepth * run.nr_jobs;
		t->done = xcalloc(t->depth, sizeof(*t->done));
	}
	pthread_barrier_init(&run.start, NULL, ncpus + 1);
	for (unsigned int c = 0; c < ncpus; c++) {
		struct eng_thread *t = &run.threads[c];
		pthread_attr_t attr;
		cpu_set_t set;

		pthread_attr_init(&attr);
		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (pthread_create(&t->tid, &attr, thread_fn, t)) {
			/* The barrier would never fill: nothing can go on. */
			fprintf(stderr, "blkload: cannot start a thread on CPU %u\n", t->cpu);
			abort();
		}
		pthread_attr_destroy(&attr);
	}
	pthread_barrier_wait(&run.start);
	/* --start-at: every thread ready; a late or interrupted start ends the jobs at once. */
	if (w->start_at_ns) {
		late = start_at_wait(w->start_at_ns, interrupted);
		if (late)
			for (unsigned int i = 0; i < run.nr_jobs; i++)
				job_end(&run.jobs[i], BLKLOAD_REASON_STOPPED);
	}
	start_ms = wall_ms();
	run.start_ns = eng_now_ns();
	pthread_barrier_wait(&run.start);
	/* Ctrl-C ends every job; the threads see it within 50 ms. */
	for (bool all = false; !all;) {
		struct timespec ts = { 0, 20000000 };

		if (eng_now_ns() >= run.start_ns + w->ramp)
			cpu_window_start(cw);
		if (*interrupted)
			for (unsigned int i = 0; i < run.nr_jobs; i++)
				job_end(&run.jobs[i], BLKLOAD_REASON_STOPPED);
		nanosleep(&ts, NULL);
		all = true;
		for (unsigned int i = 0; i < run.nr_jobs && all; i++)
			for (unsigned int c = 0; c < ncpus && all; c++)
				all = __atomic_load_n(&run.jobs[i].queues[c].finished, __ATOMIC_ACQUIRE);
	}
	cpu_window_end(cw);
	for (unsigned int c = 0; c < ncpus; c++)
		pthread_join(run.threads[c].tid, NULL);
	pthread_barrier_destroy(&run.start);
	/* verify: the jobs that ended on their own read their units back. */
	for (unsigned int i = 0; i < run.nr_jobs; i++) {
		struct eng_job *job = &run.jobs[i];

		if (w->verify && !w->no_readback && job->vmap && !job->reason && !late &&
		    !*interrupted)
			readback(&run, job);
	}
	for (unsigned int i = 0; i < run.nr_jobs; i++) {
		job_fill(&run, i, cpus, ncpus, &jobs[i]);
		jobs[i].start_ms = start_ms;
	}
	if (late) {
		for (unsigned int i = 0; i < run.nr_jobs; i++)
			job_clear(&jobs[i]);
		goto out;
	}
	for (unsigned int c = 0; c < ncpus; c++)
		if (run.threads[c].error)
			fprintf(stderr, "blkload: %s on CPU %u: %s\n", ops->name, run.threads[c].cpu,
				strerror(-run.threads[c].error));
	ret = 0;
out:
	for (unsigned int c = 0; run.threads && c < run.nr_threads; c++) {
		free(run.threads[c].queues);
		free(run.threads[c].done);
	}
	free(run.threads);
	for (unsigned int i = 0; i < run.nr_jobs; i++) {
		struct eng_job *job = &run.jobs[i];

		for (unsigned int c = 0; job->queues && c < ncpus; c++) {
			struct eng_queue *q = &job->queues[c];

			for (unsigned int s = 0; q->slots && s < w->iodepth; s++)
			{
				free(q->slots[s].buf);
				free(q->slots[s].vsnap);
			}
			free(q->slots);
			free(q->free);
			for (int op = 0; op < NR_OPS; op++) {
				free(q->st[op].hist);
				free(q->st[op].chist);
			}
			series_free(&q->ser);
			free(q->scratch);
		}
		free(job->queues);
		free(job->pool);
		free(job->vmap);
		if (ops->job_close)
			ops->job_close(&run, job);
		if (job->fd >= 0)
			close(job->fd);
	}
	free(run.jobs);
	free(cpus);
	return ret;
}
