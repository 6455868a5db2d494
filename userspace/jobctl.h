/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's jobs from the CLI (jobctl.c): requests, events, Ctrl-C, and
 * the report of a set of jobs.
 */
#ifndef BLKLOAD_JOBCTL_H
#define BLKLOAD_JOBCTL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "blkload.h"
#include "cpu.h"
#include "job.h"
#include "nl.h"
#include "workload.h"

/* Ctrl-C (or SIGTERM) count: the first stops, the second detaches. */
extern volatile sig_atomic_t interrupted;
/* Without SA_RESTART, so that a blocking receive returns on Ctrl-C. */
void catch_signals(void);
double now_s(void);

/* The kernel says memory; say how much this job would have pinned. */
void explain_budget(const struct workload *w);
/* *@samples: whether the job takes the workload's samples (an older module cannot). */
int job_new(struct bl_nl *nl, const struct workload *w, const char *dev, uint32_t *id,
	    bool *samples);
/* job-stop, job-del, job-detach: the kernel answers at once, never waits. */
int job_simple(struct bl_nl *nl, uint8_t cmd, uint32_t id);
int jobs_start(struct bl_nl *nl, const uint32_t *ids, unsigned int n);
/* The jobs of a job-get reply (one, or a dump's). */
struct get_ctx {
	struct job *jobs;
	unsigned int n;
};

int get_parse(struct nlattr **tb, void *arg);
int job_get(struct bl_nl *nl, uint32_t id, bool hist, bool queues, struct job *out);
/* The jobs' state now; the number of them done, or -1 on error. */
int jobs_get(struct bl_nl *nl, const uint32_t *ids, unsigned int n, struct job *jobs,
	     bool hist, bool queues);
/* Deletes what was made (freed once drained), reporting, not failing on, errors. */
void jobs_del(struct bl_nl *nl, const uint32_t *ids, unsigned int n);
void report_undrained(const struct job *jobs, unsigned int n, uint32_t drain_ms);
void jobs_detach(struct bl_nl *nl, const struct job *jobs, unsigned int n);
/* The job's samples from se->next on that are complete, added to @se. */
int series_fetch(struct bl_nl *nl, uint32_t id, struct series *se);

struct nl_sock;
struct nl_sock *events_open(void);
/* Up to @ms for any job event (the caller then reads the jobs' state). */
int events_wait(struct nl_sock *ev, int ms);

/*
 * The report of @n jobs (text or JSON), their sum, the client CPU, the
 * devices; @w for the report options, each job's name and options from the
 * job (else @w's), @global a job file's [global] (or NULL).
 */
void report_all(struct ctx *ctx, struct job *jobs, unsigned int n,
		const struct workload *w, const struct cpu_window *cw,
		const struct optlist *global, const struct disk_util *du, unsigned int nr_du);

#endif
