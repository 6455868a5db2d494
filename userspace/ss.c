// SPDX-License-Identifier: GPL-2.0
/*
 * fio's steady state detection (ss.h), written from fio's documentation
 * and the behaviour of its steadystate.c: a window of ss_dur of values, one
 * an interval after ss_ramp; the criterion is the largest distance from
 * the window's mean, or the least-squares slope over it (per interval), in
 * percent of the mean when the limit has '%'; met when below the limit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "parse.h"
#include "ss.h"
#include "util.h"

void ss_opts_init(struct ss_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->slope = true;
	o->pct = true;
	o->limit = 0.01;
	o->interval_ns = 1000000000ULL;
}

bool ss_opts_same(const struct ss_opts *a, const struct ss_opts *b)
{
	/* Without ss_dur there is no check: the rest does not matter. */
	if (!a->dur_ns && !b->dur_ns)
		return true;
	return a->bw == b->bw && a->slope == b->slope && a->pct == b->pct &&
	       a->limit == b->limit && a->dur_ns == b->dur_ns && a->ramp_ns == b->ramp_ns &&
	       a->interval_ns == b->interval_ns;
}

int ss_parse(const char *s, struct ss_opts *o, const char **why)
{
	const char *colon = strchr(s, ':');
	size_t k = colon ? (size_t)(colon - s) : strlen(s);
	char *end;
	double v;

	*why = "iops, iops_slope, bw or bw_slope, then :LIMIT or :LIMIT% (fio's ss)";
	if (k == 4 && !strncmp(s, "iops", 4)) {
		o->bw = false;
		o->slope = false;
	} else if (k == 10 && !strncmp(s, "iops_slope", 10)) {
		o->bw = false;
		o->slope = true;
	} else if (k == 2 && !strncmp(s, "bw", 2)) {
		o->bw = true;
		o->slope = false;
	} else if (k == 8 && !strncmp(s, "bw_slope", 8)) {
		o->bw = true;
		o->slope = true;
	} else {
		if (!strncmp(s, "lat", 3))
			*why = "iops, iops_slope, bw or bw_slope (fio's lat and lat_slope are not in blkload yet)";
		return -1;
	}
	if (!colon || !colon[1])
		return -1;
	v = strtod(colon + 1, &end);
	o->pct = !strcmp(end, "%");
	if (end == colon + 1 || !(v >= 0) || isinf(v))
		return -1;
	/* An absolute bandwidth may carry fio's size suffixes (bytes a second). */
	if (*end && !o->pct) {
		uint64_t b;

		if (!o->bw || parse_size(colon + 1, &b))
			return -1;
		v = (double)b;
	}
	o->limit = v;
	return 0;
}

void ss_start(struct ss_state *s, const struct ss_opts *o, double t)
{
	ss_free(s);
	s->o = *o;
	s->n = (unsigned int)(o->dur_ns / o->interval_ns);
	if (!s->n)
		s->n = 1;
	s->iops = xcalloc(s->n, sizeof(*s->iops));
	s->bw = xcalloc(s->n, sizeof(*s->bw));
	s->start_t = t;
}

static void ss_take(double *win, unsigned int n, unsigned int have, double v)
{
	if (have >= n) {
		memmove(win, win + 1, (n - 1) * sizeof(*win));
		win[n - 1] = v;
	} else {
		win[have] = v;
	}
}

bool ss_feed(struct ss_state *s, double t, uint64_t ios, uint64_t bytes)
{
	double iv = s->o.interval_ns / 1e9, dt, sx = 0, sy = 0, sxy = 0, sxx = 0, mean;
	const double *win;

	double ramp_end = s->start_t + s->o.ramp_ns / 1e9;

	if (!s->n || s->attained)
		return s->attained;
	/* fio's: the first value an interval after ss_ramp; the totals then are its base. */
	/* Counters that went back (blkload's ramp_time restarts them): a new base. */
	if (t < ramp_end || !s->prev_t || s->prev_t < ramp_end || ios < s->prev_ios ||
	    bytes < s->prev_bytes) {
		s->prev_t = t;
		s->prev_ios = ios;
		s->prev_bytes = bytes;
		return false;
	}
	if (t - s->prev_t < iv * 0.999)
		return false;
	dt = t - s->prev_t;
	ss_take(s->iops, s->n, s->have, (double)(ios - s->prev_ios) / dt);
	ss_take(s->bw, s->n, s->have, (double)(bytes - s->prev_bytes) / dt);
	s->have++;
	s->prev_t = t;
	s->prev_ios = ios;
	s->prev_bytes = bytes;
	if (s->have < s->n)
		return false;
	win = s->o.bw ? s->bw : s->iops;
	for (unsigned int i = 0; i < s->n; i++) {
		sx += i;
		sy += win[i];
		sxy += i * win[i];
		sxx += (double)i * i;
	}
	mean = sy / s->n;
	s->deviation = 0;
	for (unsigned int i = 0; i < s->n; i++)
		s->deviation = fmax(s->deviation, fabs(win[i] - mean));
	s->slope = s->n > 1 ? (sxy - sx * sy / s->n) / (sxx - sx * sx / s->n) : 0;
	s->criterion = s->o.slope ? s->slope : s->deviation;
	if (s->o.pct)
		s->criterion = mean > 0 ? 100.0 * s->criterion / mean : INFINITY;
	s->attained = fabs(s->criterion) < s->o.limit;
	return s->attained;
}

static double ss_mean(const double *w, unsigned int n)
{
	double sum = 0;

	for (unsigned int i = 0; i < n; i++)
		sum += w[i];
	return n ? sum / n : 0;
}

void ss_report(struct out *o, const struct ss_state *s, bool json)
{
	/* fio's: the whole window, zeros where it was not filled, and means over it. */
	unsigned int n = s->n;
	char *kind = xasprintf("%s%s:%f%s", s->o.bw ? "bw" : "iops", s->o.slope ? "_slope" : "",
			       s->o.limit, s->o.pct ? "%" : "");
	char *crit = xasprintf("%f%s", isfinite(s->criterion) ? s->criterion : 0.0,
			       s->o.pct ? "%" : "");

	if (!json) {
		char *bw = fmt_bytes((uint64_t)ss_mean(s->bw, n));

		printf("  steadystate  : attained=%s, bw=%s/s, iops=%.0f, %s%s=%.3f%s\n",
		       s->attained ? "yes" : "no", bw, ss_mean(s->iops, n),
		       s->o.bw ? "bw" : "iops", s->o.slope ? " slope" : " mean dev",
		       isfinite(s->criterion) ? s->criterion : 0.0, s->o.pct ? "%" : "");
		free(bw);
		free(kind);
		free(crit);
		return;
	}
	out_begin_object(o, "steadystate", NULL);
	out_str(o, "ss", NULL, kind);
	out_u64(o, "duration", NULL, s->o.dur_ns / 1000000000ULL, NULL);
	out_u64(o, "attained", NULL, s->attained, NULL);
	out_str(o, "criterion", NULL, crit);
	/* fio's: only the check's own measure; the other 0. */
	out_double(o, "max_deviation", NULL, s->o.slope ? 0 : s->deviation, 6, NULL);
	out_double(o, "slope", NULL, s->o.slope ? s->slope : 0, 6, NULL);
	out_begin_object(o, "data", NULL);
	out_u64(o, "bw_mean", NULL, (uint64_t)ss_mean(s->bw, n), NULL);
	out_u64(o, "iops_mean", NULL, (uint64_t)ss_mean(s->iops, n), NULL);
	out_begin_array(o, "iops", NULL);
	for (unsigned int i = 0; i < n; i++)
		out_u64(o, NULL, NULL, (uint64_t)s->iops[i], NULL);
	out_end_array(o);
	out_begin_array(o, "bw", NULL);
	for (unsigned int i = 0; i < n; i++)
		out_u64(o, NULL, NULL, (uint64_t)s->bw[i], NULL);
	out_end_array(o);
	out_end_object(o);
	out_end_object(o);
	free(kind);
	free(crit);
}

void ss_free(struct ss_state *s)
{
	free(s->iops);
	free(s->bw);
	memset(s, 0, sizeof(*s));
}
