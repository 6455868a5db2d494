// SPDX-License-Identifier: GPL-2.0
/*
 * Sample statistics and Welch's t-test on GSL's t distribution.
 */
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"

double t_quantile(double level, double df)
{
	return gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, df);
}

void sample_stats(const double *x, size_t n, double level, struct sample_stats *out)
{
	*out = (struct sample_stats){ .n = n };
	if (!n)
		return;
	out->mean = gsl_stats_mean(x, 1, n);
	if (n < 2)
		return;
	out->sd = gsl_stats_sd_m(x, 1, n, out->mean);
	out->ci_half = t_quantile(level, (double)(n - 1)) * out->sd / sqrt((double)n);
	out->has_ci = true;
}

void welch_test(const struct sample_stats *a, const struct sample_stats *b, double level,
		struct welch *out)
{
	double va, vb, se2;

	*out = (struct welch){ .diff = b->mean - a->mean };
	if (a->n < 2 || b->n < 2)
		return;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se2 = va + vb;
	if (se2 <= 0) {
		/*
		 * No variance at all: the means are either equal (nothing to
		 * tell apart) or differ with certainty.
		 */
		out->valid = true;
		out->p = out->diff == 0 ? 1.0 : 0.0;
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->df = (double)(a->n + b->n - 2);
		return;
	}
	out->valid = true;
	out->se = sqrt(se2);
	out->t = out->diff / out->se;
	out->df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	out->p = 2.0 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	if (out->p > 1.0)
		out->p = 1.0;
	out->ci_half = t_quantile(level, out->df) * out->se;
}
