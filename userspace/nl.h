/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One libnl-genl round trip for every command: build, send, parse replies,
 * and turn the kernel's extended ACK into a sentence for the user.
 */
#ifndef BLKLOAD_NL_H
#define BLKLOAD_NL_H

#include <stdbool.h>
#include <stdint.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <linux/blkload.h>

struct bl_nl {
	struct nl_sock *sk;
	int family;
	int error;		/* negative errno of the last request, or 0 */
	char *extack;		/* the kernel's message for it, or NULL */
	bool no_queue_first;	/* the module predates job-get's queue-first */
	int extack_missing;	/* attribute type the kernel reported missing, or 0 */
	int extack_attr;	/* top-level attribute the kernel pointed at, or 0 */
	char *extack_value;	/* that attribute's value in our request, as text, or NULL */
	bool extack_range;	/* the kernel sent the policy's range: */
	bool extack_signed;
	int64_t extack_min_s, extack_max_s;
	uint64_t extack_min_u, extack_max_u;
	struct nl_msg *last;	/* the request in flight, to resolve that pointer */
	struct nlmsghdr *cur;	/* while a parse callback runs: its reply (repeated attributes) */
};

/* The CLI option that sets attribute @type of a job ("--iodepth"), or NULL. */
const char *bl_attr_option(int type);

/* Prints the reason and returns -1 when the family cannot be reached. */
int bl_nl_open(struct bl_nl *nl);
void bl_nl_close(struct bl_nl *nl);

/* A request for @cmd with @flags (NLM_F_DUMP, ...); NULL on failure. */
struct nl_msg *bl_nl_msg(struct bl_nl *nl, uint8_t cmd, int flags);
/* The same, with room for @payload bytes of attributes (0: libnl's default, a page). */
struct nl_msg *bl_nl_msg_size(struct bl_nl *nl, uint8_t cmd, int flags, size_t payload);

/*
 * Sends @msg (always consumed) and waits for the reply. @parse runs once per
 * reply message with its top-level attributes; a non-zero return from it
 * stops the exchange and is returned. Returns 0, or a negative errno from the
 * kernel, with nl->extack set when the kernel said why.
 */
typedef int (*bl_nl_parse_fn)(struct nlattr **tb, void *arg);
int bl_nl_talk(struct bl_nl *nl, struct nl_msg *msg, bl_nl_parse_fn parse, void *arg);

/* "what: the kernel's sentence (strerror)" on stderr, for the last error. */
void bl_nl_perror(const struct bl_nl *nl, const char *what);

/* Typed reads that check the payload length; return false when absent or bad. */
bool nla_get_u32_checked(const struct nlattr *a, uint32_t *v);
bool nla_get_u64_checked(const struct nlattr *a, uint64_t *v);
const char *nla_get_str_checked(const struct nlattr *a);

#endif
