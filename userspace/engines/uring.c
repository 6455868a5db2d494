// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring engine: one ring per thread, the jobs' devices as registered
 * files and every slot's buffer as a registered buffer (fio's fixedbufs and
 * registerfiles), O_DIRECT reads and writes. No SQ thread: a submission is
 * an io_uring_enter() of the thread, as fio's default. --hipri makes the ring
 * IORING_SETUP_IOPOLL (fio's hipri): completions are polled for in the
 * waiting enter; --fua and --nowait are RWF_DSYNC (an O_DIRECT write to a
 * block device then carries REQ_FUA) and RWF_NOWAIT on each IO.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <linux/fs.h>

#include <liburing.h>

#include "../util.h"
#include "engine.h"

struct uring {
	struct io_uring ring;
	bool registered;
};

static int uring_init(struct eng_thread *t)
{
	struct uring *u = xcalloc(1, sizeof(*u));
	struct iovec *iov;
	int *fds, ret;
	unsigned int n = 0;

	t->priv = u;
	ret = io_uring_queue_init(t->depth, &u->ring,
				  t->run->p->req & BLKLOAD_REQ_HIPRI ? IORING_SETUP_IOPOLL : 0);
	if (ret < 0)
		return ret;
	/*
	 * A polled ring's waits take no timeout SQE: before 5.11 (no
	 * EXT_ARG) every timed wait would fail. With it, the kernel polls
	 * until a completion, so a deadline waits for the next one.
	 */
#ifndef IORING_FEAT_EXT_ARG
#define IORING_FEAT_EXT_ARG	(1U << 8)
#endif
	if ((t->run->p->req & BLKLOAD_REQ_HIPRI) && !(u->ring.features & IORING_FEAT_EXT_ARG)) {
		fputs("blkload: io_uring --hipri needs a kernel with IORING_FEAT_EXT_ARG (5.11)\n",
		      stderr);
		return -EOPNOTSUPP;
	}
	fds = xcalloc(t->nr_queues, sizeof(*fds));
	iov = xcalloc(t->depth, sizeof(*iov));
	for (unsigned int i = 0; i < t->nr_queues; i++) {
		struct eng_queue *q = t->queues[i];

		fds[i] = q->job->fd;
		q->file = (int)i;
		for (unsigned int k = 0; k < t->run->p->iodepth; k++) {
			q->slots[k].index = n;
			iov[n].iov_base = q->slots[k].buf;
			iov[n++].iov_len = t->run->p->bs_max;
		}
	}
	ret = io_uring_register_files(&u->ring, fds, t->nr_queues);
	if (!ret)
		ret = io_uring_register_buffers(&u->ring, iov, n);
	u->registered = !ret;
	free(fds);
	free(iov);
	return ret;
}

static void uring_exit(struct eng_thread *t)
{
	struct uring *u = t->priv;

	if (!u)
		return;
	if (u->ring.ring_fd > 0)
		io_uring_queue_exit(&u->ring);
	free(u);
	t->priv = NULL;
}

static int uring_submit(struct eng_thread *t, struct eng_slot **slots, unsigned int n)
{
	struct uring *u = t->priv;
	uint32_t req = t->run->p->req;
	int ret;

	for (unsigned int i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
		struct eng_slot *s = slots[i];

		if (!sqe)
			return -EBUSY;	/* the ring is sized for every slot: never */
		if (s->io.op == BL_READ) {
			io_uring_prep_read_fixed(sqe, s->q->file, s->buf, s->io.len, s->io.off,
						 (int)s->index);
		} else {
			io_uring_prep_write_fixed(sqe, s->q->file, s->buf, s->io.len, s->io.off,
						  (int)s->index);
			if (req & BLKLOAD_REQ_FUA)
				sqe->rw_flags |= RWF_DSYNC;
		}
		if (req & BLKLOAD_REQ_NOWAIT)
			sqe->rw_flags |= RWF_NOWAIT;
		sqe->flags |= IOSQE_FIXED_FILE;
		io_uring_sqe_set_data(sqe, s);
	}
	/*
	 * What io_uring_submit() did not take now stays in the ring and goes
	 * with the next enter: those slots are in flight either way.
	 */
	ret = io_uring_submit(&u->ring);
	return ret < 0 && ret != -EAGAIN && ret != -EBUSY ? ret : (int)n;
}

static int uring_reap(struct eng_thread *t, struct eng_slot **done, unsigned int max, bool wait,
		      uint64_t timeout_ns)
{
	struct uring *u = t->priv;
	struct io_uring_cqe *cqe;
	unsigned int n = 0;
	int ret;

	if (wait) {
		struct __kernel_timespec ts = {
			.tv_sec = (long long)(timeout_ns / 1000000000ULL),
			.tv_nsec = (long long)(timeout_ns % 1000000000ULL),
		};

		ret = io_uring_wait_cqe_timeout(&u->ring, &cqe, &ts);
		if (ret < 0)
			return ret == -ETIME || ret == -EINTR ? 0 : ret;
	}
	while (n < max && !io_uring_peek_cqe(&u->ring, &cqe)) {
		struct eng_slot *s = io_uring_cqe_get_data(cqe);

		s->res = cqe->res;
		done[n++] = s;
		io_uring_cqe_seen(&u->ring, cqe);
	}
	return (int)n;
}

const struct engine_ops eng_io_uring = {
	.name = "io_uring",
	.help = "io_uring (liburing), O_DIRECT, registered buffers and files",
	.req = BLKLOAD_REQ_FUA | BLKLOAD_REQ_NOWAIT | BLKLOAD_REQ_HIPRI,
	.together = true,
	.wave = eng_wave,
	.thread_init = uring_init,
	.thread_exit = uring_exit,
	.submit = uring_submit,
	.reap = uring_reap,
};
