// SPDX-License-Identifier: GPL-2.0
/*
 * blkload diff A.json B.json: two compare results (two Ceph releases, two
 * kernels, two settings) cell by cell: the change of IOPS in percent with
 * its 95% confidence interval (Welch), its significance, and a verdict.
 * Exit status 3 when a significant regression beyond --threshold is found.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "blkload.h"
#include "cmpres.h"
#include "parse.h"
#include "util.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: blkload [-j] diff A.json B.json [--threshold PCT]\n"
		"\n"
		"Compares two 'blkload compare' results (results.json) cell by cell and path\n"
		"by path: IOPS change from A to B in %%, its 95%% confidence interval (Welch's\n"
		"t), p-value and a verdict. A regression (improvement) is a change that is\n"
		"significant (Holm-adjusted p < 0.05 over all rows compared) and at least\n"
		"PCT %% down (up); the rest is no change, or unknown with fewer than two\n"
		"runs on a side. The interval is of the difference of means (Welch), in %%\n"
		"of A's mean.\n"
		"\n"
		"  --threshold PCT     smallest change that counts (5)\n"
		"\n"
		"Exit status: 0 no regression, 3 a significant regression, 1 unreadable\n"
		"input, 2 bad usage.\n");
}

static int find_cell(const struct cmp_result *r, const struct cmp_cell *x)
{
	for (unsigned int c = 0; c < r->ncells; c++)
		if (!strcmp(r->cells[c].rw, x->rw) && r->cells[c].bs == x->bs &&
		    r->cells[c].iodepth == x->iodepth)
			return (int)c;
	return -1;
}

struct row {
	unsigned int ca, pa;
	const struct cmp_entry *ea, *eb;
	struct cmp_change ch;
};

/* Settings that make two results incomparable when they differ: warned. */
static void warn_settings(const struct cmp_result *a, const struct cmp_result *b,
			  const char *fa, const char *fb)
{
	if (a->runtime_s != b->runtime_s || a->ramp_s != b->ramp_s)
		fprintf(stderr, "blkload: diff: warning: runtime/ramp differ (%g+%g s against %g+%g s)\n",
			a->runtime_s, a->ramp_s, b->runtime_s, b->ramp_s);
	if (a->ntargets != b->ntargets)
		fprintf(stderr, "blkload: diff: warning: %u target(s) against %u\n", a->ntargets,
			b->ntargets);
	if ((a->cpus || b->cpus) && (!a->cpus || !b->cpus || strcmp(a->cpus, b->cpus)))
		fprintf(stderr, "blkload: diff: warning: CPUs differ (%s against %s)\n",
			a->cpus ?: "default", b->cpus ?: "default");
	if (a->incomplete)
		fprintf(stderr, "blkload: diff: warning: %s is incomplete\n", fa);
	if (b->incomplete)
		fprintf(stderr, "blkload: diff: warning: %s is incomplete\n", fb);
}

/* diff's options */
const struct option diff_opts[] = {
	{ "threshold", required_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_diff(struct ctx *ctx, int argc, char **argv)
{
	struct cmp_result a = { 0 }, b = { 0 };
	struct json_object *root = NULL, *rows = NULL;
	unsigned int regress = 0, improve = 0, same = 0, unknown = 0, missing = 0;
	struct row *row = NULL;
	double threshold = 5, *pv = NULL;
	size_t nrow = 0, ntest = 0;
	int opt, rc = 2;

	optind = 0;	/* 0: glibc rescans the option string (no "+") */
	while ((opt = getopt_long(argc, argv, "h", diff_opts, NULL)) != -1) {
		char *end;

		switch (opt) {
		case 't':
			threshold = strtod(optarg, &end);
			if (end == optarg || *end || !isfinite(threshold) || threshold < 0 ||
			    threshold > 1000) {
				fprintf(stderr, "blkload: diff: --threshold '%s': a percentage, 0 to 1000\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 2) {
		usage(stderr);
		return 2;
	}
	rc = 1;
	if (cmp_read_json(&a, argv[optind]) || cmp_read_json(&b, argv[optind + 1]))
		goto out;
	warn_settings(&a, &b, argv[optind], argv[optind + 1]);
	/* Pass 1: the rows A and B share, each tested. */
	row = xcalloc((size_t)a.ncells * a.npaths, sizeof(*row));
	pv = xcalloc((size_t)a.ncells * a.npaths, sizeof(*pv));
	for (unsigned int c = 0; c < a.ncells; c++) {
		int cb = find_cell(&b, &a.cells[c]);

		for (unsigned int p = 0; p < a.npaths; p++) {
			int pb = cb < 0 ? -1 : cmp_path_index(&b, a.paths[p]);
			struct row *x = &row[nrow];

			if (!cmp_at(&a, c, p)->n)
				continue;
			if (pb < 0 || !cmp_at(&b, (unsigned int)cb, (unsigned int)pb)->n) {
				missing++;
				continue;
			}
			x->ca = c;
			x->pa = p;
			x->ea = cmp_at(&a, c, p);
			x->eb = cmp_at(&b, (unsigned int)cb, (unsigned int)pb);
			cmp_change(x->ea, x->eb, threshold, &x->ch);
			if (x->ch.valid)
				pv[ntest++] = x->ch.p;
			nrow++;
		}
	}
	if (!nrow) {
		fprintf(stderr, "blkload: diff: no cell and path in common between %s and %s\n",
			argv[optind], argv[optind + 1]);
		goto out;
	}
	if (missing)
		fprintf(stderr, "blkload: diff: warning: %u cell/path(s) of %s are not in %s\n",
			missing, argv[optind], argv[optind + 1]);
	/*
	 * Pass 2: many cells tested at once would flag some by chance; Holm's
	 * adjustment keeps the chance of any false verdict under alpha.
	 */
	holm_adjust(pv, ntest);
	for (size_t i = 0, k = 0; i < nrow; i++) {
		struct cmp_change *ch = &row[i].ch;

		if (ch->valid)
			cmp_change_judge(ch, pv[k++], threshold);
		regress += ch->verdict == CMP_REGRESSION;
		improve += ch->verdict == CMP_IMPROVEMENT;
		same += ch->verdict == CMP_NO_CHANGE;
		unknown += ch->verdict == CMP_UNKNOWN;
	}
	if (ctx->json) {
		root = json_object_new_object();
		rows = json_object_new_array();
		json_object_object_add(root, "a", json_object_new_string(argv[optind]));
		json_object_object_add(root, "b", json_object_new_string(argv[optind + 1]));
		json_object_object_add(root, "threshold_pct", json_object_new_double(threshold));
		json_object_object_add(root, "p_adjustment", json_object_new_string("holm"));
	} else {
		printf("A: %s (%s, %s)\nB: %s (%s, %s)\n\n", argv[optind], a.host ?: "?",
		       a.kernel ?: "?", argv[optind + 1], b.host ?: "?", b.kernel ?: "?");
		printf("| rw | bs | iodepth | path | IOPS A | IOPS B | change | ±95%% CI | p (Holm) | p99 A us | p99 B us | verdict |\n");
		printf("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
	}
	for (size_t i = 0; i < nrow; i++) {
		const struct row *x = &row[i];
		const struct cmp_cell *cell = &a.cells[x->ca];
		const struct cmp_change *ch = &x->ch;
		char *bs = cmp_bs_name(cell->bs);

		if (rows) {
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "rw", json_object_new_string(cell->rw));
			json_object_object_add(o, "bs", json_object_new_uint64(cell->bs));
			json_object_object_add(o, "iodepth", json_object_new_int64(cell->iodepth));
			json_object_object_add(o, "path", json_object_new_string(a.paths[x->pa]));
			json_object_object_add(o, "iops_a", json_object_new_double(x->ea->s.mean));
			json_object_object_add(o, "iops_b", json_object_new_double(x->eb->s.mean));
			json_object_object_add(o, "change_pct", json_object_new_double(ch->pct));
			json_object_object_add(o, "ci95_pct", ch->valid ?
					       json_object_new_double(ch->ci_pct) : NULL);
			json_object_object_add(o, "p", ch->valid ? json_object_new_double(ch->p) : NULL);
			json_object_object_add(o, "p_holm", ch->valid ?
					       json_object_new_double(ch->p_adj) : NULL);
			json_object_object_add(o, "significant",
					       json_object_new_boolean(ch->significant));
			json_object_object_add(o, "p99_ns_a", json_object_new_uint64(x->ea->p99));
			json_object_object_add(o, "p99_ns_b", json_object_new_uint64(x->eb->p99));
			json_object_object_add(o, "verdict",
					       json_object_new_string(cmp_verdict_names[ch->verdict]));
			json_object_array_add(rows, o);
		} else {
			printf("| %s | %s | %u | %s | %.0f | %.0f | %+.1f%% | ", cell->rw, bs,
			       cell->iodepth, a.paths[x->pa], x->ea->s.mean, x->eb->s.mean, ch->pct);
			if (ch->valid)
				printf("±%.1f%% | %.3g |", ch->ci_pct, ch->p_adj);
			else
				printf("- | - |");
			printf(" %.1f | %.1f | %s%s |\n", (double)x->ea->p99 / 1e3,
			       (double)x->eb->p99 / 1e3, cmp_verdict_names[ch->verdict],
			       ch->valid ? "" : " (n < 2)");
		}
		free(bs);
	}
	if (root) {
		json_object_object_add(root, "rows", rows);
		rows = NULL;
		json_object_object_add(root, "regressions", json_object_new_int64(regress));
		json_object_object_add(root, "improvements", json_object_new_int64(improve));
		json_object_object_add(root, "no_change", json_object_new_int64(same));
		json_object_object_add(root, "unknown", json_object_new_int64(unknown));
		json_object_object_add(root, "missing", json_object_new_int64(missing));
		puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_NOSLASHESCAPE));
	} else {
		printf("\n%u regression%s, %u improvement%s, %u no change, %u unknown, %u missing (threshold %.1f%%, Holm-adjusted p < %.2f)\n",
		       regress, regress == 1 ? "" : "s", improve, improve == 1 ? "" : "s", same,
		       unknown, missing, threshold, CMP_ALPHA);
	}
	rc = regress ? 3 : 0;
out:
	free(row);
	free(pv);
	json_object_put(rows);
	json_object_put(root);
	cmp_free(&a);
	cmp_free(&b);
	return rc;
}
