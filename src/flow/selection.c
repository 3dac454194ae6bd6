/*
 * selection.c — parsing a selection (--where, --metric, --allow-mismatch or
 * a report definition's entries) into struct pl_selection, with messages
 * that name the option or the definition's entry and the closest names.
 */
#include "flow/selection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "core/normalize.h"
#include "core/series_label.h"
#include "util/suggest.h"

int pl_selection_add_where(struct pl_selection *sel, const char *arg, struct pl_error *err)
{
	const char *spec = sel->spec, *eq = strchr(arg, '=');
	char name[128];
	int id;
	char *norm;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(name)) {
		if (spec)
			return pl_error_set(err, PL_EUSAGE,
			                    "%s: the definition's 'where' entry '%s' is bad: expected FIELD=VALUE",
			                    spec, arg);
		return pl_error_set(err, PL_EUSAGE, "bad --where '%s': expected FIELD=VALUE", arg);
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	id = pl_cond_lookup(name);
	if (id == PL_C_NONE && !(strchr(name, '.') && name[0] != '.')) {
		char dym[96];
		pl_did_you_mean(dym, sizeof(dym), pl_cond_suggest(name));
		if (spec)
			return pl_error_set(err, PL_EUSAGE,
			                    "%s: unknown condition '%s' in the definition's 'where' entry '%s'%s "
			                    "(see 'perfledger list --help')",
			                    spec, name, arg, dym);
		return pl_error_set(err, PL_EUSAGE,
		                    "unknown condition '%s' in --where%s (see 'perfledger list --help')",
		                    name, dym);
	}
	if (sel->nfilters >= sizeof(sel->filters) / sizeof(sel->filters[0])) {
		if (spec)
			return pl_error_set(err, PL_EUSAGE,
			                    "%s: too many entries in the definition's 'where' (at most 64)",
			                    spec);
		return pl_error_set(err, PL_EUSAGE, "too many --where options (at most 64)");
	}
	sel->filters[sel->nfilters].extra = NULL;
	if (id == PL_C_NONE) {
		/* an extra condition a file recorded ("vllm-serving.label"):
		 * matched as stored, without normalization */
		memcpy(sel->where_extra[sel->nfilters], name, strlen(name) + 1);
		sel->filters[sel->nfilters].extra = sel->where_extra[sel->nfilters];
	}
	if (eq[strspn(eq + 1, " \t") + 1] == '\0') {
		/* FIELD= (or only blanks): the runs where FIELD is missing (no
		 * stored value is empty: import refuses empty values) */
		sel->filters[sel->nfilters].cond = id;
		sel->filters[sel->nfilters].value = NULL;
		sel->values[sel->nfilters] = NULL;
		sel->where_text[sel->nfilters] = arg;
		sel->nfilters++;
		return 0;
	}
	if (id != PL_C_NONE &&
	    (pl_cond_info[id].type == PL_CT_INT || pl_cond_info[id].type == PL_CT_REAL)) {
		double d;
		if (pl_parse_num(eq + 1, 1, &d)) {
			if (spec)
				return pl_error_set(err, PL_EUSAGE,
				                    "%s: the definition's 'where' entry '%s': '%s' must be a "
				                    "number or inf",
				                    spec, arg, name);
			return pl_error_set(err, PL_EUSAGE, "bad --where '%s': '%s' must be a number or inf",
			                    arg, name);
		}
	}
	norm = id == PL_C_NONE ? strdup(eq + 1) : pl_normalize_value(id, eq + 1);
	if (!norm)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	sel->values[sel->nfilters] = norm;
	sel->filters[sel->nfilters].cond = id;
	sel->filters[sel->nfilters].value = norm;
	sel->where_text[sel->nfilters] = arg;
	sel->nfilters++;
	return 0;
}

/* One name of a list, added to sel (add_metric, add_allow). */
typedef int (*add_fn)(struct pl_selection *sel, const char *cmd, const char *name,
                      struct pl_error *err);

/* Calls add(sel, cmd, name, err) for each name of a comma list "a,b,c"
 * given to option opt; an empty or over-long name is a usage error.
 * Returns 0 or the first error. */
static int each_name(struct pl_selection *sel, const char *cmd, const char *opt, const char *arg,
                     add_fn add, struct pl_error *err)
{
	for (const char *p = arg; *p;) {
		size_t len = strcspn(p, ",");
		char name[128];
		int rc;

		if (len == 0 || len >= sizeof(name)) {
			if (sel->spec)
				return pl_error_set(err, PL_EUSAGE, "%s: the definition's '%s' entry '%s' is bad",
				                    sel->spec,
				                    strcmp(opt, "--metric") == 0 ? "metrics" : "allow_mismatch",
				                    arg);
			return pl_error_set(err, PL_EUSAGE, "bad %s '%s'", opt, arg);
		}
		memcpy(name, p, len);
		name[len] = '\0';
		if ((rc = add(sel, cmd, name, err)))
			return rc;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int add_metric(struct pl_selection *sel, const char *cmd, const char *name,
                      struct pl_error *err)
{
	int id = pl_metric_lookup(name);

	if (id == PL_M_NONE) {
		char dym[96];
		pl_did_you_mean(dym, sizeof(dym), pl_metric_suggest(name));
		if (sel->spec)
			return pl_error_set(err, PL_EUSAGE,
			                    "%s: the definition's 'metrics' entry '%s' is not a metric%s (see "
			                    "'perfledger %s --help')",
			                    sel->spec, name, dym, cmd);
		return pl_error_set(err, PL_EUSAGE, "unknown metric '%s'%s (see 'perfledger %s --help')",
		                    name, dym, cmd);
	}
	for (size_t k = 0; k < sel->opts.nmetrics; k++)
		if (sel->opts.metrics[k] == id)
			return 0; /* named twice: shown once */
	if (sel->opts.nmetrics < PL_METRIC_COUNT)
		sel->opts.metrics[sel->opts.nmetrics++] = id;
	return 0;
}

static int add_allow(struct pl_selection *sel, const char *cmd, const char *name,
                     struct pl_error *err)
{
	int id = pl_cond_lookup(name);

	(void)cmd;
	if (id == PL_C_NONE && strcmp(name, "error_rate") == 0) {
		sel->opts.allow_errors = 1; /* the errors rule (not a condition) */
		return 0;
	}
	if (id == PL_C_NONE && strchr(name, '.') && name[0] != '.') {
		/* an extra condition a file recorded ("vllm-serving.label") */
		if (sel->opts.nallow_extra == PL_ALLOW_EXTRA_MAX)
			return pl_error_set(err, PL_EUSAGE, "%s%stoo many extra conditions in %s (at most %d)",
			                    sel->spec ? sel->spec : "", sel->spec ? ": " : "",
			                    sel->spec ? "the definition's 'allow_mismatch'"
			                              : "--allow-mismatch",
			                    PL_ALLOW_EXTRA_MAX);
		snprintf(sel->allow_extra[sel->opts.nallow_extra], sizeof(sel->allow_extra[0]), "%s",
		         name); /* each_name() keeps names under 128 bytes */
		sel->opts.allow_extra[sel->opts.nallow_extra] = sel->allow_extra[sel->opts.nallow_extra];
		sel->opts.nallow_extra++;
		return 0;
	}
	if (id == PL_C_NONE) {
		char dym[96];
		pl_did_you_mean(dym, sizeof(dym), pl_cond_suggest(name));
		if (sel->spec)
			return pl_error_set(err, PL_EUSAGE,
			                    "%s: unknown condition '%s' in the definition's 'allow_mismatch'%s",
			                    sel->spec, name, dym);
		return pl_error_set(err, PL_EUSAGE, "unknown condition '%s' in --allow-mismatch%s", name,
		                    dym);
	}
	sel->opts.allow_mismatch[id] = 1;
	return 0;
}

int pl_selection_add_metric(struct pl_selection *sel, const char *cmd, const char *arg,
                            struct pl_error *err)
{
	return each_name(sel, cmd, "--metric", arg, add_metric, err);
}

int pl_selection_add_allow(struct pl_selection *sel, const char *arg, struct pl_error *err)
{
	return each_name(sel, NULL, "--allow-mismatch", arg, add_allow, err);
}

char *pl_selection_where_join(const struct pl_selection *sel, const char *sep, char *buf, size_t n)
{
	buf[0] = '\0';
	for (size_t i = 0; i < sel->nfilters; i++) {
		size_t used = strlen(buf);
		snprintf(buf + used, n - used, "%s%s", i ? sep : "", sel->where_text[i]);
	}
	return buf;
}

void pl_selection_named(const struct pl_selection *sel, unsigned char named[PL_COND_COUNT],
                        int *extras)
{
	memset(named, 0, PL_COND_COUNT);
	*extras = 0;
	for (size_t i = 0; i < sel->nfilters; i++) {
		int c = sel->filters[i].cond;
		if (c == PL_C_NONE)
			*extras = 1;
		else if (c >= 0 && c < PL_COND_COUNT && (pl_cond_info[c].flags & PL_CF_KEY) &&
		         !pl_series_label_identity(c))
			named[c] = 1;
	}
}

void pl_selection_release(struct pl_selection *sel)
{
	for (size_t i = 0; i < sel->nfilters; i++)
		free(sel->values[i]);
	sel->nfilters = 0;
}
