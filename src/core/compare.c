/*
 * compare.c — builds a comparison, or refuses one, from selected runs.
 *
 * The rules are in compare.h. The order of work: check that every key
 * condition off the axis has one value across the runs (else refuse, listing
 * every field), then group runs by their axis values, take medians and
 * deltas against the first row, and collect caveats.
 */
#include "core/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/normalize.h"

static const int default_metrics[] = {
	PL_M_TTFT_P50, PL_M_TTFT_P95,          PL_M_TPOT_P50,         PL_M_TPOT_P95,
	PL_M_ITL_P50,  PL_M_E2EL_P50,          PL_M_OUTPUT_THROUGHPUT, PL_M_TPS_P50,
	PL_M_REQUEST_THROUGHPUT, PL_M_ERROR_RATE,
};

const int *pl_compare_default_metrics(size_t *count)
{
	*count = sizeof(default_metrics) / sizeof(default_metrics[0]);
	return default_metrics;
}

int pl_compare_parse_axis(struct pl_compare_opts *opts, const char *list, struct pl_error *err)
{
	const char *p = list;

	opts->naxis = 0;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char name[128];
		int id;

		if (len == 0 || len >= sizeof(name))
			return pl_error_set(err, PL_EUSAGE, "bad --axis '%s': expected FIELD[,FIELD...]",
			                    list);
		memcpy(name, p, len);
		name[len] = '\0';
		id = pl_cond_lookup(name);
		if (id == PL_C_NONE)
			return pl_error_set(err, PL_EUSAGE,
			                    "unknown condition '%s' in --axis (see 'perfledger list --help')",
			                    name);
		for (size_t i = 0; i < opts->naxis; i++)
			if (opts->axis[i] == id)
				return pl_error_set(err, PL_EUSAGE, "'%s' named twice in --axis", name);
		opts->axis[opts->naxis++] = id;
		p += len;
		if (*p == ',')
			p++;
	}
	if (opts->naxis == 0)
		return pl_error_set(err, PL_EUSAGE, "--axis needs at least one field");
	return 0;
}

static int value_copy(struct pl_value *dst, const struct pl_value *src)
{
	dst->set = src->set;
	dst->num = src->num;
	dst->text = NULL;
	return pl_strset(&dst->text, src->text);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y ? 1 : 0;
}

double pl_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	if (n % 2)
		return v[n / 2];
	/* The midpoint of two decimal inputs, (0.08 + 0.09) / 2, is 0.084999...
	 * in binary; round it to DBL_DIG (15) significant digits, which is all
	 * the precision any input carried, so it prints as 0.085. */
	return pl_round_sig((v[n / 2 - 1] + v[n / 2]) / 2.0, 15);
}

/* Sorting runs by their varying fields needs context, which qsort cannot
 * pass; a small merge sort over an index array takes it as an argument. */
struct sort_ctx {
	const struct pl_run_list *runs;
	const struct pl_comparison *cmp;
};

static int row_cmp(const struct sort_ctx *ctx, size_t i, size_t j)
{
	const struct pl_run *a = &ctx->runs->v[i], *b = &ctx->runs->v[j];

	/* axis fields first, in the order named, then the travelling fields */
	for (size_t k = 0; k < ctx->cmp->naxis; k++) {
		int id = ctx->cmp->axis[k];
		int c = pl_value_cmp(id, &a->cond[id], &b->cond[id]);
		if (c)
			return c;
	}
	for (int id = 0; id < PL_COND_COUNT; id++) {
		if (!ctx->cmp->varies[id])
			continue;
		int c = pl_value_cmp(id, &a->cond[id], &b->cond[id]);
		if (c)
			return c;
	}
	return 0;
}

/* Stable merge sort of idx[0..n) by row_cmp, ties by run id. */
static void sort_indices(const struct sort_ctx *ctx, size_t *idx, size_t *tmp, size_t n)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	sort_indices(ctx, idx, tmp, h);
	sort_indices(ctx, idx + h, tmp, n - h);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n) {
		int c = row_cmp(ctx, idx[i], idx[j]);
		if (c == 0)
			c = ctx->runs->v[idx[i]].id < ctx->runs->v[idx[j]].id ? -1 : 1;
		tmp[k++] = c <= 0 ? idx[i++] : idx[j++];
	}
	while (i < h)
		tmp[k++] = idx[i++];
	while (j < n)
		tmp[k++] = idx[j++];
	memcpy(idx, tmp, n * sizeof(*idx));
}

static int add_caveat(struct pl_comparison *cmp, const char *text)
{
	char **v = realloc(cmp->caveats, (cmp->ncaveats + 1) * sizeof(*v));
	if (!v)
		return PL_ENOMEM;
	cmp->caveats = v;
	v[cmp->ncaveats] = strdup(text);
	if (!v[cmp->ncaveats])
		return PL_ENOMEM;
	cmp->ncaveats++;
	return 0;
}

/* Collects the distinct values of field id over runs, sorted, as text. */
static int distinct_values(const struct pl_run_list *runs, int id, char ***out, size_t *nout)
{
	size_t *idx = malloc(runs->n * sizeof(*idx));
	char **vals = calloc(runs->n, sizeof(*vals));
	size_t n = 0;

	if (!idx || !vals) {
		free(idx);
		free(vals);
		return PL_ENOMEM;
	}
	for (size_t i = 0; i < runs->n; i++) {
		const struct pl_value *v = &runs->v[i].cond[id];
		size_t k;
		for (k = 0; k < n; k++)
			if (pl_value_equal(&runs->v[idx[k]].cond[id], v))
				break;
		if (k == n)
			idx[n++] = i;
	}
	/* sort the representatives by value order (n is small) */
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && pl_value_cmp(id, &runs->v[idx[b - 1]].cond[id],
		                                         &runs->v[idx[b]].cond[id]) > 0;
		     b--) {
			size_t t = idx[b];
			idx[b] = idx[b - 1];
			idx[b - 1] = t;
		}
	for (size_t k = 0; k < n; k++) {
		const struct pl_value *v = &runs->v[idx[k]].cond[id];
		vals[k] = strdup(v->set ? v->text : "(missing)");
		if (!vals[k]) {
			for (size_t j = 0; j < k; j++)
				free(vals[j]);
			free(vals);
			free(idx);
			return PL_ENOMEM;
		}
	}
	free(idx);
	*out = vals;
	*nout = n;
	return 0;
}

static void append(char *buf, size_t n, const char *s)
{
	size_t len = strlen(buf);
	if (len + 1 < n)
		snprintf(buf + len, n - len, "%s", s);
}

/* The workload that ran against the one requested (the MLPerf rule): a
 * run whose measured mean input (output) tokens per request differ from
 * input_tokens (max_output_tokens) by more than 10% did not run the workload
 * its conditions name. Such a run refuses the comparison, naming the field
 * with the requested and measured values, unless the field is allowed to
 * differ (then a caveat). Returns 0 or PL_ENOMEM. */
static int check_workload(const struct pl_run_list *runs, const struct pl_compare_opts *opts,
                          struct pl_comparison *cmp, char *msg, size_t msgsize)
{
	static const int conds[2] = {PL_C_INPUT_TOKENS, PL_C_MAX_OUTPUT_TOKENS};
	static const int means[2] = {PL_M_INPUT_TOKENS_MEAN, PL_M_OUTPUT_TOKENS_MEAN};

	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < runs->n; i++) {
			const struct pl_run *r = &runs->v[i];
			const struct pl_value *c = &r->cond[conds[k]];
			double want, got;
			char a[40], b[40], line[300];

			if (!c->set || !r->has_metric[means[k]])
				continue;
			want = c->num;
			got = r->metric[means[k]];
			if (!(want > 0) || fabs(got - want) <= 0.1 * want)
				continue;
			snprintf(a, sizeof(a), "%s requested", c->text);
			snprintf(line, sizeof(line), "%s measured mean (run %lld)",
			         pl_fmt_num(b, sizeof(b), pl_round_sig(got, 6)), r->id);
			if (opts->allow_mismatch[conds[k]]) {
				char cav[500];
				snprintf(cav, sizeof(cav),
				         "run %lld did not run the requested workload: %s %s vs %s "
				         "(more than 10%% apart; allowed by --allow-mismatch)",
				         r->id, pl_cond_info[conds[k]].name, a, line);
				if (add_caveat(cmp, cav))
					return PL_ENOMEM;
				continue;
			}
			struct pl_mismatch *m = realloc(cmp->mismatches, (cmp->nmismatches + 1) * sizeof(*m));
			if (!m)
				return PL_ENOMEM;
			cmp->mismatches = m;
			m += cmp->nmismatches;
			m->cond = conds[k];
			m->nvalues = 2;
			m->values = calloc(2, sizeof(char *));
			if (!m->values)
				return PL_ENOMEM;
			cmp->nmismatches++;
			m->values[0] = strdup(a);
			m->values[1] = strdup(line);
			if (!m->values[0] || !m->values[1])
				return PL_ENOMEM;
			append(msg, msgsize, cmp->nmismatches > 1 ? "; " : "");
			{
				char full[400];
				snprintf(full, sizeof(full), "%s: %s vs %s", pl_cond_info[conds[k]].name, a,
				         m->values[1]);
				append(msg, msgsize, full);
			}
		}
	}
	return 0;
}

/* Adds a mismatch (values are taken over) and its text to msg. */
static int push_mismatch(struct pl_comparison *cmp, int cond, char **values, size_t nvalues)
{
	struct pl_mismatch *m = realloc(cmp->mismatches, (cmp->nmismatches + 1) * sizeof(*m));

	if (!m)
		return PL_ENOMEM;
	cmp->mismatches = m;
	m[cmp->nmismatches].cond = cond;
	m[cmp->nmismatches].values = values;
	m[cmp->nmismatches].nvalues = nvalues;
	cmp->nmismatches++;
	return 0;
}

/* Appends to buf the run ids of runs whose error rate is value (missing
 * when !has), as ranges: "run 3", "runs 1-109", "runs 1-3, 7, 9-12"; a long
 * list ends in ", ...". */
static void id_ranges(const struct pl_run_list *runs, int has, double value, char *buf, size_t n,
                      size_t count)
{
	long long start = -1, prev = -1;
	size_t ranges = 0;

	append(buf, n, count == 1 ? "run " : "runs ");
	for (size_t i = 0; i <= runs->n; i++) {
		int match = 0;
		long long id = 0;
		if (i < runs->n) {
			const struct pl_run *r = &runs->v[i];
			match = has ? (r->has_metric[PL_M_ERROR_RATE] &&
			               r->metric[PL_M_ERROR_RATE] == value)
			            : !r->has_metric[PL_M_ERROR_RATE];
			id = r->id;
		}
		if (match && start >= 0 && id == prev + 1) {
			prev = id;
			continue;
		}
		if (start >= 0) { /* close the range start..prev */
			char part[64];
			if (ranges == 8) {
				append(buf, n, ", ...");
				return;
			}
			if (start == prev)
				snprintf(part, sizeof(part), "%s%lld", ranges ? ", " : "", start);
			else
				snprintf(part, sizeof(part), "%s%lld-%lld", ranges ? ", " : "", start, prev);
			append(buf, n, part);
			ranges++;
			start = -1;
		}
		if (match)
			start = prev = id;
	}
}

/* The distinct error rates of runs (ascending, missing last), each with the
 * runs that have it: "0 (runs 1-109)", "0.005 (runs 110-111)",
 * "(missing) (run 112)". Caller frees each string and the array. */
static int group_error_rates(const struct pl_run_list *runs, char ***out, size_t *nout)
{
	double *v = malloc((runs->n + 1) * sizeof(*v));
	char **vals = calloc(runs->n + 1, sizeof(*vals));
	size_t nv = 0, nmissing = 0;

	if (!v || !vals) {
		free(v);
		free(vals);
		return PL_ENOMEM;
	}
	for (size_t i = 0; i < runs->n; i++) {
		const struct pl_run *r = &runs->v[i];
		size_t k;
		if (!r->has_metric[PL_M_ERROR_RATE]) {
			nmissing++;
			continue;
		}
		for (k = 0; k < nv && v[k] != r->metric[PL_M_ERROR_RATE]; k++)
			;
		if (k == nv)
			v[nv++] = r->metric[PL_M_ERROR_RATE];
	}
	for (size_t a = 1; a < nv; a++) /* few distinct values: insertion sort */
		for (size_t b = a; b > 0 && v[b - 1] > v[b]; b--) {
			double t = v[b];
			v[b] = v[b - 1];
			v[b - 1] = t;
		}
	for (size_t k = 0; k <= nv; k++) {
		char line[400] = "", num[40];
		size_t count = 0;
		if (k == nv && nmissing == 0)
			break;
		for (size_t i = 0; i < runs->n; i++) {
			const struct pl_run *r = &runs->v[i];
			count += k < nv ? (r->has_metric[PL_M_ERROR_RATE] &&
			                   r->metric[PL_M_ERROR_RATE] == v[k])
			                : !r->has_metric[PL_M_ERROR_RATE];
		}
		append(line, sizeof(line), k < nv ? pl_fmt_num(num, sizeof(num), v[k]) : "(missing)");
		append(line, sizeof(line), " (");
		id_ranges(runs, k < nv, k < nv ? v[k] : 0, line, sizeof(line), count);
		append(line, sizeof(line), ")");
		if (!(vals[k] = strdup(line))) {
			for (size_t j = 0; j < k; j++)
				free(vals[j]);
			free(vals);
			free(v);
			return PL_ENOMEM;
		}
	}
	*nout = nv + (nmissing > 0);
	*out = vals;
	free(v);
	return 0;
}

/* The errors rule: a run with errors (error_rate > 0) is never compared
 * with one without (error_rate 0), and a run whose error rate is unknown
 * (missing) is neither: missing is not 0. Unless opts->allow_errors, mixed
 * runs refuse the comparison with each error rate and its runs
 * ("0.65 (run 3)"); when allowed, the same list becomes a caveat. Returns 0 or PL_ENOMEM. */
static int check_errors(const struct pl_run_list *runs, const struct pl_compare_opts *opts,
                        struct pl_comparison *cmp, char *msg, size_t msgsize)
{
	int seen[3] = {0, 0, 0}; /* unknown, none, some */
	char **vals;
	size_t nvals;
	int rc;

	for (size_t i = 0; i < runs->n; i++) {
		const struct pl_run *r = &runs->v[i];
		seen[!r->has_metric[PL_M_ERROR_RATE] ? 0 : r->metric[PL_M_ERROR_RATE] > 0 ? 2 : 1] = 1;
	}
	if (seen[0] + seen[1] + seen[2] < 2)
		return 0;
	if ((rc = group_error_rates(runs, &vals, &nvals)))
		return rc;
	if (opts->allow_errors) {
		char cav[900] = "runs with and without errors compared (allowed by --allow-mismatch "
		                "error_rate): error_rate";
		for (size_t i = 0; i < nvals; i++) {
			append(cav, sizeof(cav), i ? ", " : " ");
			append(cav, sizeof(cav), vals[i]);
			free(vals[i]);
		}
		free(vals);
		return add_caveat(cmp, cav);
	}
	if (push_mismatch(cmp, PL_C_NONE, vals, nvals)) {
		for (size_t i = 0; i < nvals; i++)
			free(vals[i]);
		free(vals);
		return PL_ENOMEM;
	}
	append(msg, msgsize, cmp->nmismatches > 1 ? "; " : "");
	append(msg, msgsize, "error_rate (runs with errors vs runs without or unknown):");
	for (size_t i = 0; i < nvals; i++) {
		append(msg, msgsize, i ? " vs " : " ");
		append(msg, msgsize, vals[i]);
	}
	return 0;
}

/* Open loop (request_rate known, concurrency missing) against closed loop
 * (concurrency known): the "(missing)" concurrency of a refusal says why. */
static int explain_loops(const struct pl_run_list *runs, struct pl_comparison *cmp)
{
	int open = 0, closed = 0;

	for (size_t i = 0; i < runs->n; i++) {
		const struct pl_run *r = &runs->v[i];
		if (!r->cond[PL_C_CONCURRENCY].set && r->cond[PL_C_REQUEST_RATE].set)
			open = 1;
		else if (r->cond[PL_C_CONCURRENCY].set)
			closed = 1;
	}
	if (!open || !closed)
		return 0;
	for (size_t i = 0; i < cmp->nmismatches; i++) {
		struct pl_mismatch *m = &cmp->mismatches[i];
		if (m->cond != PL_C_CONCURRENCY)
			continue;
		for (size_t k = 0; k < m->nvalues; k++)
			if (strcmp(m->values[k], "(missing)") == 0) {
				char *t = strdup("(missing: an open-loop run at a request_rate; open- and "
				                 "closed-loop runs do not compare)");
				if (!t)
					return PL_ENOMEM;
				free(m->values[k]);
				m->values[k] = t;
			}
	}
	return 0;
}

/* Checks the key conditions; fills shared[], mismatches and caveats. */
static int check_conditions(const struct pl_run_list *runs, const struct pl_compare_opts *opts,
                            struct pl_comparison *cmp, struct pl_error *err)
{
	char msg[sizeof(err->message)] = "";

	for (int id = 0; id < PL_COND_COUNT; id++) {
		int all_equal = 1;
		for (size_t i = 1; i < runs->n && all_equal; i++)
			all_equal = pl_value_equal(&runs->v[0].cond[id], &runs->v[i].cond[id]);
		if (all_equal) {
			if (value_copy(&cmp->shared[id], &runs->v[0].cond[id]))
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			continue;
		}
		if (cmp->varies[id] || !(pl_cond_info[id].flags & PL_CF_KEY))
			continue;

		char **vals;
		size_t nvals;
		if (distinct_values(runs, id, &vals, &nvals))
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		char line[600];
		snprintf(line, sizeof(line), "%s:", pl_cond_info[id].name);
		for (size_t k = 0; k < nvals; k++) {
			append(line, sizeof(line), k ? " vs " : " ");
			append(line, sizeof(line), vals[k]);
		}
		if (opts->allow_mismatch[id]) {
			char cav[700];
			snprintf(cav, sizeof(cav), "conditions differ in %s (allowed by --allow-mismatch)",
			         line);
			for (size_t k = 0; k < nvals; k++)
				free(vals[k]);
			free(vals);
			if (add_caveat(cmp, cav))
				return pl_error_set(err, PL_ENOMEM, "out of memory");
			continue;
		}
		struct pl_mismatch *m =
			realloc(cmp->mismatches, (cmp->nmismatches + 1) * sizeof(*m));
		if (!m) {
			for (size_t k = 0; k < nvals; k++)
				free(vals[k]);
			free(vals);
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
		cmp->mismatches = m;
		m[cmp->nmismatches].cond = id;
		m[cmp->nmismatches].values = vals;
		m[cmp->nmismatches].nvalues = nvals;
		cmp->nmismatches++;
		append(msg, sizeof(msg), cmp->nmismatches > 1 ? "; " : "");
		append(msg, sizeof(msg), line);
	}
	if (check_workload(runs, opts, cmp, msg, sizeof(msg)) ||
	    check_errors(runs, opts, cmp, msg, sizeof(msg)) || explain_loops(runs, cmp))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	if (cmp->nmismatches) {
		char axis[256] = "";
		for (size_t k = 0; k < cmp->naxis; k++) {
			append(axis, sizeof(axis), k ? "," : "");
			append(axis, sizeof(axis), pl_cond_info[cmp->axis[k]].name);
		}
		return pl_error_set(err, PL_EMISMATCH,
		                    "comparison refused: %zu condition%s differ off the axis '%s': %s",
		                    cmp->nmismatches, cmp->nmismatches > 1 ? "s" : "", axis, msg);
	}
	return 0;
}

static void row_label(const struct pl_comparison *cmp, const struct pl_compare_row *row,
                      char *buf, size_t n)
{
	buf[0] = '\0';
	for (size_t k = 0; k < cmp->naxis; k++) {
		const struct pl_value *v = &row->axis[cmp->axis[k]];
		append(buf, n, k ? " / " : "");
		append(buf, n, v->set ? v->text : "(missing)");
	}
}

static int build_row(const struct pl_run_list *runs, const size_t *idx, size_t n,
                     struct pl_comparison *cmp, struct pl_compare_row *row)
{
	double *vals = malloc(n * sizeof(*vals));
	unsigned missing = 0;

	memset(row, 0, sizeof(*row));
	row->run_ids = malloc(n * sizeof(*row->run_ids));
	if (!vals || !row->run_ids) {
		free(vals);
		return PL_ENOMEM;
	}
	row->n = n;
	for (int id = 0; id < PL_COND_COUNT; id++)
		if (cmp->varies[id] && value_copy(&row->axis[id], &runs->v[idx[0]].cond[id])) {
			free(vals);
			return PL_ENOMEM;
		}
	for (size_t i = 0; i < n; i++) {
		const struct pl_run *r = &runs->v[idx[i]];
		row->run_ids[i] = r->id;
		if (r->checklist_missing) {
			row->reference_only++;
			missing |= r->checklist_missing;
		}
	}
	/* ids ascending (idx is sorted by id within a row already, but be sure) */
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && row->run_ids[b - 1] > row->run_ids[b]; b--) {
			long long t = row->run_ids[b];
			row->run_ids[b] = row->run_ids[b - 1];
			row->run_ids[b - 1] = t;
		}
	for (int m = 0; m < PL_METRIC_COUNT; m++) {
		size_t k = 0;
		for (size_t i = 0; i < n; i++)
			if (runs->v[idx[i]].has_metric[m])
				vals[k++] = runs->v[idx[i]].metric[m];
		if (k) {
			row->metric[m] = pl_median(vals, k);
			row->n_metric[m] = k > 255 ? 255 : (unsigned char)k;
		}
	}
	free(vals);
	if (row->reference_only) {
		char label[512], cav[1024], items[400] = "";
		for (int i = 0; i < PL_CHK_COUNT; i++)
			if (missing & (1u << i)) {
				append(items, sizeof(items), items[0] ? ", " : "");
				append(items, sizeof(items), pl_checklist_item(i));
			}
		row_label(cmp, row, label, sizeof(label));
		snprintf(cav, sizeof(cav),
		         "%s: %zu of %zu run%s reference-only (missing: %s)", label,
		         row->reference_only, n, n > 1 ? "s are" : " is", items);
		if (add_caveat(cmp, cav))
			return PL_ENOMEM;
	}
	return 0;
}

int pl_compare_build(const struct pl_run_list *runs, const struct pl_compare_opts *opts,
                     struct pl_comparison *out, struct pl_error *err)
{
	struct pl_comparison *cmp = out;
	size_t *idx = NULL, *tmp = NULL;
	int rc;

	memset(cmp, 0, sizeof(*cmp));
	memcpy(cmp->axis, opts->axis, sizeof(cmp->axis));
	cmp->naxis = opts->naxis;
	if (opts->nmetrics) {
		memcpy(cmp->metrics, opts->metrics, opts->nmetrics * sizeof(int));
		cmp->nmetrics = opts->nmetrics;
	} else {
		size_t n;
		const int *d = pl_compare_default_metrics(&n);
		memcpy(cmp->metrics, d, n * sizeof(int));
		cmp->nmetrics = n;
	}
	for (size_t k = 0; k < opts->naxis; k++)
		cmp->varies[opts->axis[k]] = 1;
	for (int id = 0; id < PL_COND_COUNT; id++) {
		int tw = pl_cond_info[id].travels_with;
		if (tw != PL_C_NONE && cmp->varies[tw])
			cmp->varies[id] = 1;
	}
	cmp->nruns = runs->n;
	if (runs->n == 0)
		return pl_error_set(err, PL_EEMPTY, "no runs match the selection");

	rc = check_conditions(runs, opts, cmp, err);
	if (rc)
		return rc;

	idx = malloc(runs->n * sizeof(*idx));
	tmp = malloc(runs->n * sizeof(*tmp));
	cmp->rows = calloc(runs->n, sizeof(*cmp->rows));
	if (!idx || !tmp || !cmp->rows) {
		rc = pl_error_set(err, PL_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < runs->n; i++)
		idx[i] = i;
	struct sort_ctx ctx = {runs, cmp};
	sort_indices(&ctx, idx, tmp, runs->n);

	for (size_t start = 0; start < runs->n;) {
		size_t end = start + 1;
		while (end < runs->n && row_cmp(&ctx, idx[start], idx[end]) == 0)
			end++;
		rc = build_row(runs, idx + start, end - start, cmp, &cmp->rows[cmp->nrows]);
		cmp->nrows++; /* counted even on failure so release frees it */
		if (rc) {
			rc = pl_error_set(err, rc, "out of memory");
			goto done;
		}
		start = end;
	}

	const struct pl_compare_row *base = &cmp->rows[0];
	for (size_t r = 0; r < cmp->nrows; r++) {
		struct pl_compare_row *row = &cmp->rows[r];
		for (int m = 0; m < PL_METRIC_COUNT; m++) {
			if (row->n_metric[m] && base->n_metric[m] && base->metric[m] != 0) {
				row->delta_pct[m] = 100.0 * (row->metric[m] / base->metric[m] - 1.0);
				row->has_delta[m] = 1;
			}
		}
	}
	rc = 0;
done:
	free(idx);
	free(tmp);
	return rc;
}

void pl_comparison_release(struct pl_comparison *cmp)
{
	if (!cmp)
		return;
	for (int id = 0; id < PL_COND_COUNT; id++)
		free(cmp->shared[id].text);
	for (size_t r = 0; r < cmp->nrows; r++) {
		for (int id = 0; id < PL_COND_COUNT; id++)
			free(cmp->rows[r].axis[id].text);
		free(cmp->rows[r].run_ids);
	}
	free(cmp->rows);
	for (size_t i = 0; i < cmp->ncaveats; i++)
		free(cmp->caveats[i]);
	free(cmp->caveats);
	for (size_t i = 0; i < cmp->nmismatches; i++) {
		for (size_t k = 0; k < cmp->mismatches[i].nvalues; k++)
			free(cmp->mismatches[i].values[k]);
		free(cmp->mismatches[i].values);
	}
	free(cmp->mismatches);
	memset(cmp, 0, sizeof(*cmp));
}

char *pl_compare_row_label(const struct pl_comparison *cmp, size_t row, char *buf, size_t n)
{
	if (n == 0)
		return buf;
	buf[0] = '\0';
	if (row < cmp->nrows)
		row_label(cmp, &cmp->rows[row], buf, n);
	return buf;
}
