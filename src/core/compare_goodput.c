/*
 * compare_goodput.c — goodput compares only with its SLO (compare.h): the
 * SLO each run's goodput was counted against, and the caveat or refusal
 * when runs lack one or differ in it.
 */
#include "core/compare_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/msg.h"
#include "util/alloc.h"

/* The SLO run i's goodput was counted against, as text ("ttft 0.2 s,
 * tpot 0.05 s", limits in table order), "" when it records none. */
static void slo_text(const struct pl_run_columns *runs, size_t i, char *buf, size_t n)
{
	static const int slo[] = {PL_M_GOODPUT_SLO_TTFT, PL_M_GOODPUT_SLO_TPOT, PL_M_GOODPUT_SLO_E2EL};
	static const char *const what[] = {"ttft", "tpot", "e2el"};

	buf[0] = '\0';
	for (size_t k = 0; k < sizeof(slo) / sizeof(slo[0]); k++) {
		const double *col = runs->metric[slo[k]];
		char num[32];
		size_t len = strlen(buf);

		if (col && !isnan(col[i]))
			snprintf(buf + len, n - len, "%s%s %s s", len ? ", " : "", what[k],
			         pl_fmt_num(num, sizeof(num), col[i]));
	}
}

/* Goodput is a number only with its SLO: two goodput values compare when
 * every run that has one records the SLO it was counted against and the
 * SLOs are equal. Otherwise goodput is shown n/a (its medians cleared)
 * with a caveat naming the runs without an SLO (GOODPUT_SLO_MISSING) and
 * the SLOs that differ (GOODPUT_SLO_DIFFERS); when goodput is the only
 * metric asked for, the comparison is refused (PL_EMISMATCH with no
 * mismatched condition, err naming the SLOs). Other metrics are untouched:
 * the SLO did not change how the run was measured. */
int pl_compare_check_goodput_slo(const struct pl_run_columns *runs, struct pl_comparison *cmp,
                                 struct pl_error *err)
{
	const double *gp = runs->metric[PL_M_GOODPUT];
	char text[200], **slos = NULL;
	long long *bare = NULL;
	size_t nbare = 0, nslos = 0, capslos = 0;
	int shown = 0, rc = 0;

	for (size_t k = 0; k < cmp->nmetrics; k++)
		shown |= cmp->metrics[k] == PL_M_GOODPUT;
	if (!shown || !gp)
		return 0;
	if (!(bare = malloc(runs->n * sizeof(*bare))))
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t i = 0; i < runs->n; i++) {
		size_t k;
		if (isnan(gp[i]))
			continue;
		slo_text(runs, i, text, sizeof(text));
		if (!text[0]) {
			bare[nbare++] = runs->id[i];
			continue;
		}
		for (k = 0; k < nslos && strcmp(slos[k], text) != 0; k++)
			;
		if (k < nslos)
			continue;
		if (PL_ALLOC_GROW(slos, nslos + 1, capslos) || !(slos[nslos] = strdup(text))) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto out;
		}
		nslos++;
	}
	if (nbare == 0 && nslos <= 1)
		goto out; /* one SLO for every goodput value (or no goodput at all) */
	for (size_t r = 0; r < cmp->nrows; r++) {
		cmp->rows[r].n_metric[PL_M_GOODPUT] = 0;
		cmp->rows[r].metric[PL_M_GOODPUT] = NAN;
	}
	if (nbare) {
		struct pl_msg m;
		pl_msg_init(&m, PL_MSG_GOODPUT_SLO_MISSING);
		pl_msg_runs(&m, bare, nbare);
		pl_msg_list(&m, (const char *const *)slos, nslos);
		if (pl_msgs_push(&cmp->caveats, &m)) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto out;
		}
	} else {
		struct pl_msg m;
		pl_msg_init(&m, PL_MSG_GOODPUT_SLO_DIFFERS);
		pl_msg_list(&m, (const char *const *)slos, nslos);
		if (pl_msgs_push(&cmp->caveats, &m)) {
			rc = pl_error_set(err, PL_ENOMEM, "out of memory");
			goto out;
		}
	}
	if (cmp->nmetrics == 1) {
		char list[600] = "";
		for (size_t k = 0; k < nslos; k++) {
			pl_compare_append(list, sizeof(list), k ? "' vs '" : "'");
			pl_compare_append(list, sizeof(list), slos[k]);
		}
		if (nslos)
			pl_compare_append(list, sizeof(list), "'");
		if (!nbare)
			rc = pl_error_set(err, PL_EMISMATCH,
			                  "comparison refused: goodput compares only when counted against "
			                  "one SLO, and the SLOs differ: %s",
			                  list);
		else if (nslos)
			rc = pl_error_set(err, PL_EMISMATCH,
			                  "comparison refused: goodput compares only when counted against "
			                  "one SLO; %zu run%s record%s none, the others %s",
			                  nbare, nbare > 1 ? "s" : "", nbare > 1 ? "" : "s", list);
		else
			rc = pl_error_set(err, PL_EMISMATCH,
			                  "comparison refused: goodput compares only when counted against "
			                  "one SLO, and no run records the SLO its goodput was counted against");
	}
out:
	for (size_t k = 0; k < nslos; k++)
		free(slos[k]);
	free(slos);
	free(bare);
	return rc;
}
