/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics of compare and diff: a sample's mean, standard deviation
 * and Student's t confidence interval, and Welch's unequal-variance t-test.
 * Quantiles and tail probabilities of the t distribution come from GSL.
 */
#ifndef BLKLOAD_STATS_H
#define BLKLOAD_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct sample_stats {
	size_t n;
	double mean;
	double sd;	/* sample standard deviation (n - 1); 0 when n < 2 */
	double ci_half;	/* half-width of the confidence interval; 0 when n < 2 */
	bool has_ci;	/* n >= 2 */
};

/* Mean, sd and the two-sided @level (0.95) Student's t interval of @x[0..n). */
void sample_stats(const double *x, size_t n, double level, struct sample_stats *out);

/* The two-sided Student's t quantile: t such that P(|T| <= t) = @level with @df degrees. */
double t_quantile(double level, double df);

struct welch {
	bool valid;	/* both samples have n >= 2 and some variance or a difference */
	double diff;	/* mean(b) - mean(a) */
	double se;	/* standard error of the difference */
	double t;
	double df;	/* Welch-Satterthwaite degrees of freedom */
	double p;	/* two-sided p-value */
	double ci_half;	/* half-width of the @level interval of diff */
};

/* Welch's t-test of mean(b) - mean(a); @level (0.95) for the interval. */
void welch_test(const struct sample_stats *a, const struct sample_stats *b, double level,
		struct welch *out);

#endif
