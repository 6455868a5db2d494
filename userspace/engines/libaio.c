// SPDX-License-Identifier: GPL-2.0
/*
 * libaio engine: one AIO context per thread, O_DIRECT reads and writes with
 * io_submit() and io_getevents(), as fio's libaio engine.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libaio.h>
#include <linux/fs.h>

#include "../util.h"
#include "engine.h"

struct aio {
	io_context_t ctx;
	struct iocb *iocbs;	/* one per slot, by slot index */
	struct io_event *events;
};

static int aio_init(struct eng_thread *t)
{
	struct aio *a = xcalloc(1, sizeof(*a));
	unsigned int n = 0;

	t->priv = a;
	a->iocbs = xcalloc(t->depth, sizeof(*a->iocbs));
	a->events = xcalloc(t->depth, sizeof(*a->events));
	for (unsigned int i = 0; i < t->nr_queues; i++)
		for (unsigned int k = 0; k < t->run->p->iodepth; k++)
			t->queues[i]->slots[k].index = n++;
	return io_setup((int)t->depth, &a->ctx);
}

static void aio_exit(struct eng_thread *t)
{
	struct aio *a = t->priv;

	if (!a)
		return;
	if (a->ctx)
		io_destroy(a->ctx);
	free(a->iocbs);
	free(a->events);
	free(a);
	t->priv = NULL;
}

static int aio_submit(struct eng_thread *t, struct eng_slot **slots, unsigned int n)
{
	struct aio *a = t->priv;
	struct iocb *list[64];
	uint32_t req = t->run->p->req;
	int ret;

	if (n > 64)
		n = 64;
	for (unsigned int i = 0; i < n; i++) {
		struct eng_slot *s = slots[i];
		struct iocb *cb = &a->iocbs[s->index];

		if (s->io.op == BL_READ)
			io_prep_pread(cb, s->q->job->fd, s->buf, s->io.len, (long long)s->io.off);
		else
			io_prep_pwrite(cb, s->q->job->fd, s->buf, s->io.len, (long long)s->io.off);
		/* RWF_DSYNC: an O_DIRECT write to a block device then carries REQ_FUA. */
		if (s->io.op != BL_READ && (req & BLKLOAD_REQ_FUA))
			cb->aio_rw_flags |= RWF_DSYNC;
		if (req & BLKLOAD_REQ_NOWAIT)
			cb->aio_rw_flags |= RWF_NOWAIT;
		cb->data = s;
		list[i] = cb;
	}
	ret = io_submit(a->ctx, (long)n, list);
	return ret == -EAGAIN ? 0 : ret;
}

static int aio_reap(struct eng_thread *t, struct eng_slot **done, unsigned int max, bool wait,
		    uint64_t timeout_ns)
{
	struct aio *a = t->priv;
	struct timespec ts = {
		.tv_sec = (time_t)(timeout_ns / 1000000000ULL),
		.tv_nsec = (long)(timeout_ns % 1000000000ULL),
	}, zero = { 0, 0 };
	int ret;

	ret = io_getevents(a->ctx, wait ? 1 : 0, (long)max, a->events, wait ? &ts : &zero);
	if (ret < 0)
		return ret == -EINTR ? 0 : ret;
	for (int i = 0; i < ret; i++) {
		struct eng_slot *s = a->events[i].data;

		s->res = (int64_t)a->events[i].res;
		done[i] = s;
	}
	return ret;
}

const struct engine_ops eng_libaio = {
	.name = "libaio",
	.help = "Linux native AIO (libaio), O_DIRECT",
	.req = BLKLOAD_REQ_FUA | BLKLOAD_REQ_NOWAIT,
	.together = true,
	.wave = eng_wave,
	.thread_init = aio_init,
	.thread_exit = aio_exit,
	.submit = aio_submit,
	.reap = aio_reap,
};
