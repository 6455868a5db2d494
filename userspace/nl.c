// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>

#include "nl.h"
#include "nl_names.h"
#include "util.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

int bl_nl_open(struct bl_nl *nl)
{
	int one = 1, ret;

	memset(nl, 0, sizeof(*nl));
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		fputs("blkload: cannot allocate a netlink socket\n", stderr);
		return -1;
	}
	ret = genl_connect(nl->sk);
	if (ret < 0) {
		fprintf(stderr, "blkload: cannot connect to generic netlink: %s\n", nl_geterror(ret));
		goto err_free;
	}
	/*
	 * libnl's 32 KiB receive buffer holds a job with its histograms (four
	 * of 14.5 KiB) but not the ACK after it: the kernel drops the ACK and
	 * the next read fails with ENOBUFS. As much as rmem_max allows.
	 */
	nl_socket_set_buffer_size(nl->sk, 4 << 20, 0);
	{
		/* Past rmem_max where allowed (CAP_NET_ADMIN): many per-queue rows. */
		int force = 4 << 20;

		setsockopt(nl_socket_get_fd(nl->sk), SOL_SOCKET, SO_RCVBUFFORCE, &force,
			   sizeof(force));
	}
	/* Ask for the kernel's reasons and do not echo our request back. */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));

	nl->family = genl_ctrl_resolve(nl->sk, BLKLOAD_FAMILY_NAME);
	if (nl->family < 0) {
		if (nl->family == -NLE_OBJ_NOTFOUND)
			fprintf(stderr,
				"blkload: generic netlink family '%s' not found: is the module loaded? try: modprobe blkload (from a blkload tree: scripts/load-module.sh)\n",
				BLKLOAD_FAMILY_NAME);
		else
			fprintf(stderr, "blkload: cannot resolve generic netlink family '%s': %s\n",
				BLKLOAD_FAMILY_NAME, nl_geterror(nl->family));
		goto err_free;
	}
	return 0;

err_free:
	nl_socket_free(nl->sk);
	nl->sk = NULL;
	return -1;
}

void bl_nl_close(struct bl_nl *nl)
{
	if (nl->sk)
		nl_socket_free(nl->sk);
	nl->sk = NULL;
	free(nl->extack);
	nl->extack = NULL;
	free(nl->extack_value);
	nl->extack_value = NULL;
}

struct nl_msg *bl_nl_msg(struct bl_nl *nl, uint8_t cmd, int flags)
{
	return bl_nl_msg_size(nl, cmd, flags, 0);
}

struct nl_msg *bl_nl_msg_size(struct bl_nl *nl, uint8_t cmd, int flags, size_t payload)
{
	/* libnl's default is a page; a request with more attributes asks for more. */
	struct nl_msg *msg = payload ? nlmsg_alloc_size(NLMSG_HDRLEN + GENL_HDRLEN + payload + 64) :
				       nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags, cmd,
			 BLKLOAD_FAMILY_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct talk {
	struct bl_nl *nl;
	bl_nl_parse_fn parse;
	void *arg;
	int done;
	int cb_ret;
};

/* The unit a number attribute is in, or "" (a count, bytes); NULL: not a number. */
static const char *attr_unit(int type)
{
	switch (type) {
	case BLKLOAD_A_RUNTIME:
	case BLKLOAD_A_RAMP_TIME:
	case BLKLOAD_A_SAMPLE_INTERVAL:
		return " ns";
	case BLKLOAD_A_DRAIN_TIMEOUT:
		return " ms";
	case BLKLOAD_A_RW:
	case BLKLOAD_A_RWMIXREAD:
	case BLKLOAD_A_BS:
	case BLKLOAD_A_IODEPTH:
	case BLKLOAD_A_OFFSET:
	case BLKLOAD_A_SIZE:
	case BLKLOAD_A_NUMBER_IOS:
	case BLKLOAD_A_IO_SIZE:
	case BLKLOAD_A_RANDSEED:
	case BLKLOAD_A_BATCH:
	case BLKLOAD_A_BATCH_COMPLETE:
	case BLKLOAD_A_CONTINUE_ON_ERROR:
	case BLKLOAD_A_JOB_ID:
	case BLKLOAD_A_SAMPLE_RING:
	case BLKLOAD_A_SAMPLE_FROM:
	case BLKLOAD_A_RWMIXTRIM:
	case BLKLOAD_A_REQ_FLAGS:
	case BLKLOAD_A_RATE_IOPS:
	case BLKLOAD_A_RATE_PROCESS:
	case BLKLOAD_A_RANDOM_DISTRIBUTION:
	case BLKLOAD_A_RANDOM_DISTRIBUTION_PARAM:
	case BLKLOAD_A_THINKTIME_BLOCKS:
	case BLKLOAD_A_LOOPS:
	case BLKLOAD_A_BUFFER_COMPRESS_PERCENTAGE:
	case BLKLOAD_A_DEDUPE_PERCENTAGE:
	case BLKLOAD_A_VERIFY:
	case BLKLOAD_A_BLOCK_ALIGN:
		return "";
	case BLKLOAD_A_THINKTIME:
	case BLKLOAD_A_STARTDELAY:
		return " ns";
	default:
		return NULL;
	}
}

/* The value of a number attribute we sent, to say it back; NULL for others. */
static char *attr_value(const struct nlattr *a)
{
	const char *unit = attr_unit(nla_type(a));

	if (!unit)
		return NULL;
	if (nla_len(a) == 4)
		return xasprintf("%u%s", nla_get_u32((struct nlattr *)a), unit);
	if (nla_len(a) == 8)
		return xasprintf("%" PRIu64 "%s", nla_get_u64((struct nlattr *)a), unit);
	return NULL;
}

/* The extended ACK: TLVs after the error header (and the capped request). */
static void parse_extack(struct bl_nl *nl, struct nlmsghdr *nlh)
{
	struct nlmsgerr *err = nlmsg_data(nlh);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off = sizeof(*err);
	struct nlattr *attrs;
	int len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	len = (int)nlmsg_datalen(nlh) - (int)off;
	if (len <= 0)
		return;
	attrs = (struct nlattr *)((char *)err + off);
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, attrs, len, NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG]) {
		const char *m = nla_get_str_checked(tb[NLMSGERR_ATTR_MSG]);

		if (m) {
			free(nl->extack);
			nl->extack = xstrdup(m);
		}
	}
	if (tb[NLMSGERR_ATTR_OFFS] && nl->last) {
		uint32_t offs;

		/* An offset into our request: find the top-level attribute there. */
		if (nla_get_u32_checked(tb[NLMSGERR_ATTR_OFFS], &offs)) {
			struct nlmsghdr *req = nlmsg_hdr(nl->last);
			struct nlattr *a;
			int rem;

			nlmsg_for_each_attr(a, req, GENL_HDRLEN, rem) {
				size_t start = (size_t)((char *)a - (char *)req);

				if (offs >= start && offs < start + nla_total_size(nla_len(a))) {
					nl->extack_attr = nla_type(a);
					nl->extack_value = attr_value(a);
					break;
				}
			}
		}
	}
	/* The policy of the rejected attribute: its range, from the kernel itself. */
	if (tb[NLMSGERR_ATTR_POLICY]) {
		struct nlattr *pol[NL_POLICY_TYPE_ATTR_MAX + 1];

		if (nla_parse_nested(pol, NL_POLICY_TYPE_ATTR_MAX, tb[NLMSGERR_ATTR_POLICY],
				     NULL) >= 0) {
			if (nla_get_u64_checked(pol[NL_POLICY_TYPE_ATTR_MIN_VALUE_U],
						&nl->extack_min_u) &&
			    nla_get_u64_checked(pol[NL_POLICY_TYPE_ATTR_MAX_VALUE_U],
						&nl->extack_max_u)) {
				nl->extack_range = true;
			} else if (nla_get_u64_checked(pol[NL_POLICY_TYPE_ATTR_MIN_VALUE_S],
						       (uint64_t *)&nl->extack_min_s) &&
				   nla_get_u64_checked(pol[NL_POLICY_TYPE_ATTR_MAX_VALUE_S],
						       (uint64_t *)&nl->extack_max_s)) {
				nl->extack_range = true;
				nl->extack_signed = true;
			}
		}
	}
	if (tb[NLMSGERR_ATTR_MISS_TYPE]) {
		uint32_t t;

		if (nla_get_u32_checked(tb[NLMSGERR_ATTR_MISS_TYPE], &t))
			nl->extack_missing = (int)t;
	}
}

static int talk_err(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct talk *t = arg;
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)err - NLMSG_HDRLEN);

	(void)nla;
	t->nl->error = err->error;
	parse_extack(t->nl, nlh);
	t->done = 1;
	return NL_STOP;
}

static int talk_finish(struct nl_msg *msg, void *arg)
{
	struct talk *t = arg;

	(void)msg;
	t->done = 1;
	return NL_STOP;
}

static int talk_ack(struct nl_msg *msg, void *arg)
{
	struct talk *t = arg;

	(void)msg;
	t->done = 1;
	return NL_STOP;
}

static int talk_valid(struct nl_msg *msg, void *arg)
{
	struct talk *t = arg;
	struct nlattr *tb[BLKLOAD_A_MAX + 1];
	int ret;

	ret = genlmsg_parse(nlmsg_hdr(msg), 0, tb, BLKLOAD_A_MAX, NULL);
	if (ret < 0) {
		fprintf(stderr, "blkload: malformed reply from the kernel: %s\n", nl_geterror(ret));
		t->cb_ret = -EPROTO;
		return NL_STOP;
	}
	if (t->parse) {
		t->nl->cur = nlmsg_hdr(msg);
		ret = t->parse(tb, t->arg);
		t->nl->cur = NULL;
		if (ret) {
			t->cb_ret = ret;
			return NL_STOP;
		}
	}
	return NL_OK;
}

int bl_nl_talk(struct bl_nl *nl, struct nl_msg *msg, bl_nl_parse_fn parse, void *arg)
{
	struct talk t = { .nl = nl, .parse = parse, .arg = arg };
	struct nl_cb *cb;
	int ret;

	free(nl->extack);
	nl->extack = NULL;
	nl->extack_missing = 0;
	nl->extack_attr = 0;
	free(nl->extack_value);
	nl->extack_value = NULL;
	nl->extack_range = false;
	nl->extack_signed = false;
	nl->error = 0;

	cb = nl_cb_alloc(NL_CB_CUSTOM);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	/* A dump ends with NLMSG_DONE; an ACK after it would be read by the next request. */
	if ((nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP) != NLM_F_DUMP)
		nlmsg_hdr(msg)->nlmsg_flags |= NLM_F_ACK;
	nl_cb_err(cb, NL_CB_CUSTOM, talk_err, &t);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, talk_finish, &t);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, talk_ack, &t);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, talk_valid, &t);

	ret = nl_send_auto(nl->sk, msg);
	if (ret < 0) {
		nlmsg_free(msg);
		nl_cb_put(cb);
		nl->error = -EIO;
		fprintf(stderr, "blkload: cannot send to the kernel: %s\n", nl_geterror(ret));
		return nl->error;
	}
	nl->last = msg;
	while (!t.done && !t.cb_ret) {
		ret = nl_recvmsgs(nl->sk, cb);
		if (ret < 0 && !t.done) {
			/* libnl reports a kernel error it has already handed to talk_err. */
			if (!nl->error)
				nl->error = -EIO;
			break;
		}
	}
	nl->last = NULL;
	nlmsg_free(msg);
	nl_cb_put(cb);
	if (t.cb_ret)
		return t.cb_ret;
	return nl->error;
}

const char *bl_attr_option(int type)
{
	static const char *const opts[] = {
		[BLKLOAD_A_PATH] = "--dev",
		[BLKLOAD_A_RW] = "--rw",
		[BLKLOAD_A_RWMIXREAD] = "--rwmixread",
		[BLKLOAD_A_BS] = "--bs",
		[BLKLOAD_A_IODEPTH] = "--iodepth",
		[BLKLOAD_A_CPUMASK] = "--cpus",
		[BLKLOAD_A_OFFSET] = "--offset",
		[BLKLOAD_A_SIZE] = "--size",
		[BLKLOAD_A_RUNTIME] = "--runtime",
		[BLKLOAD_A_RAMP_TIME] = "--ramp_time",
		[BLKLOAD_A_NUMBER_IOS] = "--number_ios",
		[BLKLOAD_A_IO_SIZE] = "--io_size",
		[BLKLOAD_A_RANDSEED] = "--randseed",
		[BLKLOAD_A_ALLOW_WRITE] = "--allow-write",
		[BLKLOAD_A_FORCE] = "--force",
		[BLKLOAD_A_BATCH] = "--iodepth_batch_submit",
		[BLKLOAD_A_BATCH_COMPLETE] = "--iodepth_batch_complete_max",
		[BLKLOAD_A_DRAIN_TIMEOUT] = "--drain-timeout",
		[BLKLOAD_A_CONTINUE_ON_ERROR] = "--continue_on_error",
		[BLKLOAD_A_SAMPLE_INTERVAL] = "--sample-interval",
		[BLKLOAD_A_SAMPLE_RING] = "--sample-ring",
		[BLKLOAD_A_RWMIXTRIM] = "--rwmixtrim",
		[BLKLOAD_A_RATE_IOPS] = "--rate_iops",
		[BLKLOAD_A_RATE_PROCESS] = "--rate_process",
		[BLKLOAD_A_RANDOM_DISTRIBUTION] = "--random_distribution",
		[BLKLOAD_A_RANDOM_DISTRIBUTION_PARAM] = "--random_distribution",
		[BLKLOAD_A_BS_SPLIT] = "--bssplit/--bsrange",
		[BLKLOAD_A_THINKTIME] = "--thinktime",
		[BLKLOAD_A_THINKTIME_BLOCKS] = "--thinktime_blocks",
		[BLKLOAD_A_STARTDELAY] = "--startdelay",
		[BLKLOAD_A_LOOPS] = "--loops",
		[BLKLOAD_A_BUFFER_COMPRESS_PERCENTAGE] = "--buffer_compress_percentage",
		[BLKLOAD_A_DEDUPE_PERCENTAGE] = "--dedupe_percentage",
		[BLKLOAD_A_ZERO_BUFFERS] = "--zero_buffers",
		[BLKLOAD_A_VERIFY] = "--verify",
		[BLKLOAD_A_VERIFY_NO_READBACK] = "--do_verify=0",
		[BLKLOAD_A_BS_SPLIT_WRITE] = "--bssplit/--bsrange (writes)",
		[BLKLOAD_A_REQ_FLAGS] = "--fua/--preflush/--hipri/--nowait/--write_zeroes",
		[BLKLOAD_A_JOB_ID] = "job id",
		[BLKLOAD_A_PASS_ENDS] = "--runtime without --time_based",
		[BLKLOAD_A_RANDOM_ZONES] = "--random_distribution (zoned, zoned_abs)",
		[BLKLOAD_A_RANDOM_MAP] = "the random map (--norandommap turns it off)",
		[BLKLOAD_A_BLOCK_ALIGN] = "--blockalign",
		[BLKLOAD_A_RW_HOLE] = "--rw=PATTERN:OFFSET",
		[BLKLOAD_A_RATE_BPS] = "--rate",
		[BLKLOAD_A_RATE_MIN] = "--rate_min",
		[BLKLOAD_A_RATE_IOPS_MIN] = "--rate_iops_min",
		[BLKLOAD_A_RATE_CYCLE] = "--ratecycle",
		[BLKLOAD_A_DEDUPE_WORKING_SET] = "--dedupe_mode=working_set",
		[BLKLOAD_A_DEDUPE_SEED] = "--dedupe_global",
		[BLKLOAD_A_ZONE_RANGE] = "--zonerange (zonemode=strided)",
		[BLKLOAD_A_ZONE_SIZE] = "--zonesize",
		[BLKLOAD_A_ZONE_SKIP] = "--zoneskip",
		[BLKLOAD_A_DEDUPE_BASE] = "--dedupe_global",
	};

	return type > 0 && type < (int)ARRAY_SIZE(opts) ? opts[type] : NULL;
}

/*
 * "what: --iodepth 100000: integer out of range (allowed 1..65536)
 * (Numerical result out of range)": the option as the user knows it, the
 * value sent, the kernel's reason and the policy's range.
 */
void bl_nl_perror(const struct bl_nl *nl, const char *what)
{
	int e = nl->error < 0 ? -nl->error : nl->error;
	const char *opt = bl_attr_option(nl->extack_attr);
	const char *attr = nl->extack_attr > 0 &&
			   nl->extack_attr < (int)ARRAY_SIZE(blkload_attr_names) ?
			   blkload_attr_names[nl->extack_attr] : NULL;
	const char *unit = attr_unit(nl->extack_attr);
	char *who = NULL, *range = NULL;

	if (opt || attr)
		who = nl->extack_value && opt ? xasprintf("%s %s: ", opt, nl->extack_value) :
			xasprintf("%s: ", opt ? opt : attr);
	if (!unit)
		unit = "";
	if (nl->extack_range && nl->extack_signed)
		range = xasprintf(" (allowed %" PRId64 "..%" PRId64 "%s)", nl->extack_min_s,
				  nl->extack_max_s, unit);
	else if (nl->extack_range)
		range = xasprintf(" (allowed %" PRIu64 "..%" PRIu64 "%s)", nl->extack_min_u,
				  nl->extack_max_u, unit);
	if (nl->extack)
		fprintf(stderr, "blkload: %s: %s%s%s (%s)\n", what, who ? who : "", nl->extack,
			range ? range : "", strerror(e));
	else if (who)
		fprintf(stderr, "blkload: %s: %srejected%s (%s)\n", what, who,
			range ? range : "", strerror(e));
	else if (nl->extack_missing)
		fprintf(stderr, "blkload: %s: the kernel wants %s (%s)\n", what,
			bl_attr_option(nl->extack_missing) ? bl_attr_option(nl->extack_missing) :
			nl->extack_missing < (int)ARRAY_SIZE(blkload_attr_names) &&
			blkload_attr_names[nl->extack_missing] ?
			blkload_attr_names[nl->extack_missing] : "an attribute it did not get",
			strerror(e));
	else if (e == EPERM)
		fprintf(stderr, "blkload: %s: %s (CAP_SYS_ADMIN is required)\n", what, strerror(e));
	else
		fprintf(stderr, "blkload: %s: %s\n", what, strerror(e));
	free(who);
	free(range);
}

bool nla_get_u32_checked(const struct nlattr *a, uint32_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(uint32_t))
		return false;
	*v = nla_get_u32((struct nlattr *)a);
	return true;
}

bool nla_get_u64_checked(const struct nlattr *a, uint64_t *v)
{
	if (!a || nla_len(a) < (int)sizeof(uint64_t))
		return false;
	*v = nla_get_u64((struct nlattr *)a);
	return true;
}

const char *nla_get_str_checked(const struct nlattr *a)
{
	const char *s;
	int len;

	if (!a)
		return NULL;
	len = nla_len(a);
	s = nla_data(a);
	if (len <= 0 || s[len - 1] != '\0')
		return NULL;
	return s;
}
