/*
 * cmd_accept.c — `perfledger accept`: mark a step of a metric as expected.
 *
 * A separate command, not a `history --accept` option, because history and
 * check only read the database; writing a judgement is its own act, with
 * its own reason, and scripts can grep for it. The step is named by the
 * first run after it (printed by history and listed by check) and the
 * metric. `accept --list` shows what has been accepted.
 *
 * Issue 14: an acceptance names its author (--by, else $USER); a run is
 * accepted only if it starts a change (core/check.h,
 * pl_check_run_starts_change: the first point after a step, or a regression
 * against the points before it), unless --force; several metrics are
 * accepted, or revoked (--revoke: the row stays, marked), in one
 * transaction.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "core/check.h"
#include "core/history.h"
#include "core/msg.h"
#include "render/words.h"
#include "core/condkey.h"
#include "util/alloc.h"
#include "store/db.h"

static const char usage_text[] =
	"usage: perfledger accept --run ID --metric NAME[,NAME]... --reason TEXT [--by NAME]\n"
	"       perfledger accept --commit SHA [--metric NAME[,NAME]...] --reason TEXT [--by NAME]\n"
	"                         [--group-by G] [--allow-mismatch FIELD]... [--force]\n"
	"       perfledger accept --revoke --run ID --metric NAME[,NAME]... [--by NAME]\n"
	"       perfledger accept --list [--metric NAME]\n"
	"\n"
	"Marks the step of metric NAME whose first run is ID as expected, with a reason\n"
	"and its author (--by, else $USER), stored in the table accepted_steps with the\n"
	"time; accepting the same run and metric again replaces the reason. An accepted\n"
	"step stays on the history chart, annotated, and no longer fails 'history\n"
	"--fail-on-step'; 'check' does not fail on a regression of that metric when the\n"
	"accepted run is one of the candidate's runs.\n"
	"Only a run that starts a change can be accepted: in the series of its\n"
	"condition key, grouped by --group-by (default run, then engine_version; a\n"
	"version group takes the runs that differ from it only in that version), its\n"
	"point must be the first after a detected step, or a regression against the 20\n"
	"points before it or against the point before it. --force accepts anyway.\n"
	"--revoke withdraws an acceptance: the row stays, with who revoked it and when.\n"
	"--commit SHA accepts, in every series and metric (--metric, else the headline\n"
	"metrics), each change whose first point holds a run of that commit (points by\n"
	"--group-by, default commit), and lists what it accepted.\n"
	"\n";

/* --run ID: a run id, a whole number > 0, into the long long *id. */
static int opt_run(void *id, const char *arg, const char *cmd)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (!*arg || *end || errno == ERANGE || v <= 0) {
		pl_cli_errorf(cmd, "bad --run '%s': expected a run id (a whole number)", arg);
		return PL_EXIT_USAGE;
	}
	*(long long *)id = v;
	return 0;
}

/* The metrics named by --metric. */
struct metric_list {
	int m[PL_METRIC_COUNT];
	size_t n;
};

/* --metric NAME[,NAME]..., appended to the struct metric_list (duplicates
 * once). */
static int opt_metric(void *vl, const char *arg, const char *cmd)
{
	struct metric_list *l = vl;
	const char *p = arg;

	do {
		size_t len = strcspn(p, ",");
		char name[64];
		int m, dup = 0;

		snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), p);
		if ((m = pl_metric_lookup(name)) == PL_M_NONE || len >= 63) {
			char dym[96];
			pl_cli_errorf(cmd, "unknown metric '%.*s'%s (see 'perfledger compare --help')",
			              (int)len, p, pl_did_you_mean(dym, sizeof(dym), pl_metric_suggest(name)));
			return PL_EXIT_USAGE;
		}
		for (size_t k = 0; k < l->n; k++)
			dup |= l->m[k] == m;
		if (!dup)
			l->m[l->n++] = m;
		p += len;
	} while (*p++ == ',');
	return 0;
}

/* --group-by G, into the int *group. */
static int opt_group(void *group, const char *arg, const char *cmd)
{
	int g = pl_group_lookup(arg);

	if (g < 0) {
		pl_cli_errorf(cmd, "bad --group-by '%s': expected run, day, build, commit, "
		                   "engine_version or driver_version", arg);
		return PL_EXIT_USAGE;
	}
	*(int *)group = g;
	return 0;
}

/* The series run_id may start a change in: the runs of its condition key,
 * or for a version group those that differ from it only in that version
 * (every other key condition as filter). Returns 0 or an exit code. */
static int load_series(struct pl_store *st, long long run_id, int group,
                       struct pl_run_list *runs)
{
	struct pl_error err;
	struct pl_filter f[PL_COND_COUNT];
	const struct pl_run *run = NULL;
	size_t nf = 0;
	int axis = pl_group_axis(group);

	pl_error_init(&err);
	if (pl_store_query_key_of(st, run_id, runs, &err)) {
		if (err.code == PL_EEMPTY)
			pl_cli_errorf("accept", "%s", err.message);
		else
			pl_cli_print_error(&err);
		return PL_EXIT_USAGE;
	}
	if (pl_group_is_time(group))
		return 0;
	for (size_t i = 0; i < runs->n; i++)
		if (runs->v[i].id == run_id)
			run = &runs->v[i];
	for (int c = 0; run && c < PL_COND_COUNT; c++) {
		if (c == axis || pl_cond_per_run(c) || !(pl_cond_info[c].flags & PL_CF_KEY))
			continue;
		f[nf].cond = c;
		f[nf].extra = NULL;
		f[nf].value = pl_cond_key_has(run, c) ? run->cond[c].text : NULL;
		nf++;
	}
	{
		struct pl_run_list all;
		int rc;
		pl_run_list_init(&all);
		rc = pl_store_query(st, f, nf, &all, &err);
		if (rc) {
			pl_cli_print_error(&err);
			pl_run_list_release(&all);
			return PL_EXIT_USAGE;
		}
		pl_run_list_release(runs);
		*runs = all;
	}
	return 0;
}

static const char *change_name(enum pl_change_kind k)
{
	switch (k) {
	case PL_CHANGE_STEP:
		return "the first point after a step";
	case PL_CHANGE_WINDOW:
		return "a regression against the points before it";
	case PL_CHANGE_PREVIOUS:
		return "a regression against the point before it";
	case PL_CHANGE_NONE:
		break;
	}
	return "no change";
}

static int list_accepted(struct pl_store *st, int metric)
{
	struct pl_accepted_list acc = {0};
	struct pl_error err;

	pl_error_init(&err);
	if (pl_store_accepted_steps(st, metric, &acc, &err)) {
		pl_cli_print_error(&err);
		pl_accepted_list_release(&acc);
		return PL_EXIT_USAGE;
	}
	for (size_t i = 0; i < acc.n; i++) {
		printf("run %lld  %s  ", acc.v[i].run_id, pl_metric_info[acc.v[i].metric].name);
		pl_cli_put_inert(stdout, acc.v[i].accepted_at); /* texts of the database: the one rule */
		fputs("  ", stdout);
		if (acc.v[i].accepted_by[0]) {
			fputs("by ", stdout);
			pl_cli_put_inert(stdout, acc.v[i].accepted_by);
			fputs("  ", stdout);
		}
		pl_cli_put_inert(stdout, acc.v[i].reason);
		putchar('\n');
	}
	if (acc.n == 0)
		printf("no accepted steps\n");
	pl_accepted_list_release(&acc);
	return PL_EXIT_OK;
}

/* 1 if runs a and b have one condition key (one series). */
static int same_key(const struct pl_run *a, const struct pl_run *b)
{
	struct pl_cond_key ka, kb;
	int same;

	if (pl_cond_key_make(a, &ka))
		return 0;
	if (pl_cond_key_make(b, &kb)) {
		pl_cond_key_release(&ka);
		return 0;
	}
	same = strcmp(ka.text, kb.text) == 0;
	pl_cond_key_release(&ka);
	pl_cond_key_release(&kb);
	return same;
}

/* 1 if run r was built from commit sha (the whole text, or a prefix of 7
 * characters or more, as git abbreviates). */
static int run_of_commit(const struct pl_run *r, const char *sha)
{
	const char *c = r->build[PL_B_COMMIT];
	size_t n = strlen(sha);

	if (!c)
		return 0;
	return strcmp(c, sha) == 0 || (n >= 7 && strncmp(c, sha, n) == 0);
}

/* A step found a night late: the commit's point (index point of metric's
 * series) starts no change, but the point after it is the first after a
 * detected step. *late gets that point's first run, else 0. Returns 0 or
 * the codes of pl_history_build_grouped(). */
static int late_step(const struct pl_run_list *series, int group, int metric,
                     const struct pl_compare_opts *allow, size_t point, long long *late,
                     struct pl_error *err)
{
	struct pl_history h;
	int rc;

	*late = 0;
	if ((rc = pl_history_build_grouped(series, group, metric, allow, NULL, &h, err)))
		goto done;
	for (size_t k = 0; k < h.nsteps; k++)
		if (h.steps[k].index == point + 1 && h.points[point + 1].n > 0)
			*late = h.points[point + 1].run_ids[0];
done:
	pl_history_release(&h);
	return rc;
}

/* accept --commit: every change a run of commit sha starts, in every series
 * (one run per condition key: the earliest of the commit's) and metric of
 * ml (else the headline metrics), accepted in one transaction and listed. */
static int accept_commit(struct pl_store *st, const char *sha, const struct metric_list *ml,
                         int group, const struct pl_selection *sel, const char *reason,
                         const char *by)
{
	struct pl_error err;
	struct pl_run_list all, series;
	long long *ids = NULL;
	int *mets = NULL, *lates = NULL;
	size_t n = 0, cap = 0, capm = 0, capl = 0, nmetrics;
	const int *metrics;
	int rc = PL_EXIT_USAGE;

	pl_error_init(&err);
	pl_run_list_init(&all);
	pl_run_list_init(&series);
	if (ml->n) {
		metrics = ml->m;
		nmetrics = ml->n;
	} else {
		metrics = pl_compare_default_metrics(&nmetrics);
	}
	if (pl_store_query(st, NULL, 0, &all, &err)) {
		pl_cli_print_error(&err);
		goto out;
	}
	for (size_t i = 0; i < all.n; i++) {
		const struct pl_run *r = &all.v[i];
		int first = 1;
		if (!run_of_commit(r, sha))
			continue;
		/* the earliest run of the commit in its series (runs are in id order) */
		for (size_t j = 0; j < i && first; j++)
			if (run_of_commit(&all.v[j], sha) && same_key(&all.v[j], r))
				first = 0;
		if (!first)
			continue;
		pl_run_list_release(&series);
		if ((rc = load_series(st, r->id, group, &series)))
			goto out;
		rc = PL_EXIT_USAGE;
		for (size_t k = 0; k < nmetrics; k++) {
			enum pl_change_kind kind = PL_CHANGE_NONE;
			size_t point = 0;
			long long at = r->id, late = 0;
			int e = pl_check_run_starts_change(&series, group, metrics[k], &sel->opts,
			                                   PL_CHECK_THRESHOLD_DEFAULT, r->id, &kind, &point,
			                                   &err);
			if (e == 0 && kind == PL_CHANGE_NONE &&
			    (e = late_step(&series, group, metrics[k], &sel->opts, point, &late, &err)) == 0 &&
			    late > 0)
				at = late; /* the step was found a night late: accept that step */
			if (e == PL_EEMPTY || e == PL_EMISMATCH || (kind == PL_CHANGE_NONE && late == 0))
				continue;
			if (e) {
				pl_cli_print_error(&err);
				goto out;
			}
			if (PL_ALLOC_GROW(ids, n + 1, cap) || PL_ALLOC_GROW(mets, n + 1, capm) ||
			    PL_ALLOC_GROW(lates, n + 1, capl)) {
				pl_cli_errorf("accept", "out of memory");
				goto out;
			}
			lates[n] = late > 0;
			ids[n] = at;
			mets[n++] = metrics[k];
		}
	}
	if (n == 0) {
		pl_cli_errorf("accept", "no run of commit '%s' starts a step or a regression; nothing "
		                        "to accept", sha);
		goto out;
	}
	if (pl_store_begin(st, &err)) {
		pl_cli_print_error(&err);
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		int replaced = 0;
		if (pl_store_accept_step(st, ids[k], mets[k], reason, by, &replaced, &err)) {
			pl_store_rollback(st, NULL);
			pl_cli_print_error(&err);
			goto out;
		}
	}
	if (pl_store_commit(st, &err)) {
		pl_cli_print_error(&err);
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		struct pl_msg m;
		char *t;
		if (!lates[k]) {
			printf("accepted step of %s at run %lld (commit %s)\n", pl_metric_info[mets[k]].name,
			       ids[k], sha);
			continue;
		}
		pl_msg_init(&m, PL_MSG_ACCEPT_STEP_LATE);
		pl_msg_field(&m, pl_metric_info[mets[k]].name);
		pl_msg_int(&m, ids[k]);
		pl_msg_text(&m, sha);
		t = m.oom ? NULL : pl_words_msg(&m, PL_LANG_EN);
		pl_msg_release(&m);
		if (t)
			pl_cli_put_inert(stdout, t);
		putchar('\n');
		free(t);
	}
	rc = PL_EXIT_OK;
out:
	free(ids);
	free(mets);
	free(lates);
	pl_run_list_release(&all);
	pl_run_list_release(&series);
	return rc;
}

/* *by, or $USER when it is not given. Returns 0, or -1 printed when
 * neither names anyone. */
static int who_accepts(const char **by)
{
	if (!*by || !**by)
		*by = getenv("USER");
	if (!*by || !**by) {
		pl_cli_errorf("accept", "who accepts? give --by NAME ($USER is not set)");
		return -1;
	}
	return 0;
}

/* Whether run_id starts a change of metric in its series: without
 * --group-by (group_given 0) by run, then by engine_version (the ways
 * history and check find a change by default). Returns 0 with a note
 * printed naming the change, or the exit code with the error printed. */
static int check_change(struct pl_store *st, long long run_id, int metric, int group,
                        int group_given, const struct pl_selection *sel)
{
	struct pl_run_list runs;
	struct pl_error err;
	enum pl_change_kind kind = PL_CHANGE_NONE;
	size_t point = 0;
	int groups[2] = {group, PL_G_ENGINE_VERSION}, ng = group_given ? 1 : 2, used = group;
	int rc = 0;

	pl_run_list_init(&runs);
	pl_error_init(&err);
	for (int gi = 0; gi < ng && kind == PL_CHANGE_NONE; gi++) {
		int r;
		pl_run_list_release(&runs);
		if ((rc = load_series(st, run_id, groups[gi], &runs)))
			goto out;
		rc = PL_EXIT_USAGE;
		r = pl_check_run_starts_change(&runs, groups[gi], metric, &sel->opts,
		                               PL_CHECK_THRESHOLD_DEFAULT, run_id, &kind, &point, &err);
		used = groups[gi];
		if (r == PL_EMISMATCH) {
			pl_cli_errorf("accept", "the series of run %lld by %s is not one condition key; "
			                        "name the fields that may differ with --allow-mismatch",
			              run_id, pl_group_name(groups[gi]));
			goto out;
		}
		if (r == PL_EEMPTY && gi + 1 < ng)
			continue;
		if (r) {
			pl_cli_errorf("accept", "%s", err.message);
			goto out;
		}
	}
	if (kind == PL_CHANGE_NONE) {
		pl_cli_errorf("accept", "run %lld starts no step and no regression of %s in its "
		                        "series by %s; nothing to accept (--force accepts anyway)",
		              run_id, pl_metric_info[metric].name,
		              group_given ? pl_group_name(group) : "run or engine_version");
		rc = PL_EXIT_USAGE;
		goto out;
	}
	fprintf(stderr, "perfledger: note: run %lld is %s of %s (point %zu of its series by %s)\n",
	        run_id, change_name(kind), pl_metric_info[metric].name, point, pl_group_name(used));
	rc = 0;
out:
	pl_run_list_release(&runs);
	return rc;
}

/* Accepts the step of each metric of ml at run_id (revoke: withdraws
 * the acceptance), all or none, and says so. Returns the exit code. */
static int store_steps(struct pl_store *st, long long run_id, const struct metric_list *ml,
                       const char *reason, const char *by, int revoke)
{
	struct pl_error err;
	int replaced[PL_METRIC_COUNT] = {0};

	pl_error_init(&err);
	/* all the metrics or none: one transaction around them */
	if (pl_store_begin(st, &err)) {
		pl_cli_print_error(&err);
		return PL_EXIT_USAGE;
	}
	for (size_t k = 0; k < ml->n; k++) {
		if (revoke ? pl_store_revoke_step(st, run_id, ml->m[k], by, &err)
		           : pl_store_accept_step(st, run_id, ml->m[k], reason, by, &replaced[k], &err)) {
			pl_store_rollback(st, NULL);
			if (err.code == PL_EEMPTY || (revoke && err.code == PL_EUSAGE))
				pl_cli_errorf("accept", "%s", err.message);
			else
				pl_cli_print_error(&err);
			return PL_EXIT_USAGE;
		}
	}
	if (pl_store_commit(st, &err)) {
		pl_cli_print_error(&err);
		return PL_EXIT_USAGE;
	}
	for (size_t k = 0; k < ml->n; k++)
		if (revoke)
			printf("revoked the acceptance of %s at run %lld\n",
			       pl_metric_info[ml->m[k]].name, run_id);
		else
			printf("%s step of %s at run %lld\n", replaced[k] ? "re-accepted" : "accepted",
			       pl_metric_info[ml->m[k]].name, run_id);
	return PL_EXIT_OK;
}

int cmd_accept(const struct pl_cli *cli, int argc, char **argv)
{
	struct pl_store *st = NULL;
	struct pl_selection sel;
	struct metric_list ml = {{0}, 0};
	const char *reason = NULL, *by = NULL, *commit = NULL;
	long long run_id = 0;
	int argi, rc, list = 0, revoke = 0, force = 0, group = -1, group_given;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("run", 0, "ID", &run_id, opt_run,
		                      "the first run after the step (history prints it)"),
		PL_OPT_STRING_ENTRY("commit", 0, "SHA", &commit,
		                    "accept every change a run of this commit starts"),
		PL_OPT_CALLBACK_ENTRY("metric", 0, "NAME", &ml, opt_metric,
		                      "the metrics whose step it is (NAME,NAME or repeated)"),
		PL_OPT_STRING_ENTRY("reason", 0, "TEXT", &reason,
		                    "why the change is expected (required)"),
		PL_OPT_STRING_ENTRY("by", 0, "NAME", &by, "who accepts (default: $USER)"),
		PL_OPT_CALLBACK_ENTRY("group-by", 0, "G", &group, opt_group,
		                      "points of the series (as history; default: run,\n"
		                      "then engine_version)"),
		PL_OPT_CALLBACK_ENTRY("allow-mismatch", 0, "FIELD", &sel, pl_sel_opt_allow,
		                      "let FIELD differ in the series"),
		PL_OPT_FLAG_ENTRY("force", 0, &force,
		                  "accept even if the run starts no step or regression"),
		PL_OPT_FLAG_ENTRY("revoke", 0, &revoke, "withdraw the acceptance"),
		PL_OPT_FLAG_ENTRY("list", 0, &list, "list the accepted steps (of --metric, else all)"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "accept",
		.head = usage_text,
		.options = options,
		.width = 18,
		.no_operands = 1,
	};

	memset(&sel, 0, sizeof(sel));
	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	rc = PL_EXIT_USAGE;
	group_given = group >= 0;
	if (!group_given)
		group = PL_G_RUN;
	if (list) {
		if (ml.n > 1) {
			pl_cli_errorf("accept", "--list takes at most one --metric");
			goto out;
		}
		if (!(st = pl_cli_open_store(cli, PL_CLI_STORE_READ)))
			goto out;
		rc = list_accepted(st, ml.n ? ml.m[0] : PL_M_NONE);
		goto out;
	}
	if (commit && !revoke) {
		if (!*commit || run_id > 0 || !reason || !*reason) {
			pl_cli_errorf("accept", "--commit SHA needs --reason TEXT and no --run");
			goto out;
		}
		if (who_accepts(&by))
			goto out;
		if (!(st = pl_cli_open_store(cli, PL_CLI_STORE_WRITE)))
			goto out;
		rc = accept_commit(st, commit, &ml, group_given ? group : PL_G_COMMIT, &sel, reason, by);
		goto out;
	}
	if (run_id <= 0 || ml.n == 0 || (!revoke && (!reason || !*reason))) {
		pl_cli_errorf("accept", revoke ? "--revoke needs --run ID and --metric NAME"
		                               : "--run ID, --metric NAME and --reason TEXT are required");
		goto out;
	}
	if (who_accepts(&by))
		goto out;
	if (!(st = pl_cli_open_store(cli, PL_CLI_STORE_WRITE)))
		goto out;
	/* every metric is checked before anything is stored */
	for (size_t k = 0; !revoke && !force && k < ml.n; k++)
		if ((rc = check_change(st, run_id, ml.m[k], group, group_given, &sel)) != 0)
			goto out;
	rc = store_steps(st, run_id, &ml, reason, by, revoke);
out:
	pl_store_close(st);
	pl_selection_release(&sel);
	return rc;
}
