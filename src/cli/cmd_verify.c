/*
 * cmd_verify.c — `perfledger verify DIR`: re-renders a report bundle from
 * the database and reports every file that differs.
 *
 * The bundle carries what a re-render needs: definition.json (the report
 * definition, byte for byte) and, in manifest.json, the language and the
 * SOURCE_DATE_EPOCH it was rendered with. The fresh render goes to a
 * temporary directory ($TMPDIR/perfledger-verify-XXXXXX), which is removed
 * afterwards, also on SIGINT, SIGTERM and SIGHUP: their handler only sets
 * a flag; the render and the comparison (bounded: every read is capped,
 * every child has a timeout) run to their end, then the directory is
 * removed and the signal raised again with its default action. (SIGKILL
 * cannot be caught; such a directory is left for the system's tmp cleaner.)
 *
 * Nothing read from the bundle is trusted: file names and the manifest's
 * gnuplot line are printed through pl_cli_put_inert.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "render/bundle.h"
#include "render/spec.h"
#include "render/words.h"

static const char usage_text[] =
	"usage: perfledger verify DIR\n"
	"       perfledger verify --offline DIR [--id ID]\n"
	"\n"
	"Re-renders the report bundle in DIR (written by 'perfledger report --spec')\n"
	"from the database, with the definition, language and SOURCE_DATE_EPOCH\n"
	"recorded in the bundle, and compares every file byte for byte. Prints one\n"
	"line per file that differs, is missing or is unexpected, and names both\n"
	"gnuplot versions when the bundle's charts were drawn by another gnuplot.\n"
	"Runs are found by content (source sha256 and record) in any ledger that\n"
	"holds them, and named by their id here and by content.\n"
	"Exit 0 when the bundle is reproduced exactly, 1 when any file differs, 6\n"
	"(superseded) when runs of the bundle were amended, retracted or purged\n"
	"since (they are named; 'report --as-of TIME' renders them as they stood),\n"
	"3 when the re-render is refused, 2 on a usage or I/O error.\n"
	"\n"
	"With --offline no database is read: every file is checked against\n"
	"manifest.json (one line per changed, missing or added file) and the bundle\n"
	"id is recomputed from the runs the bundle ships (runs.jsonl) and its\n"
	"definition; --id ID checks that it is the id a reader was given (a paper\n"
	"cites the id: the bundle alone cannot vouch for itself). Exit 0 intact,\n"
	"1 otherwise.\n";

static void on_diff(void *ctx, const char *name, const char *what)
{
	(void)ctx;
	printf("%s: ", what);
	pl_cli_put_inert(stdout, name);
	putchar('\n');
}

static volatile sig_atomic_t got_signal; /* the signal that asked us to stop, or 0 */

static void on_signal(int sig)
{
	got_signal = sig;
}

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};

/* Installs on_signal for the stop signals (saving the old actions in old)
 * or, with restore, puts the old actions back. */
static void trap_signals(struct sigaction *old, int restore)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		if (restore)
			sigaction(stop_signals[i], &old[i], NULL);
		else
			sigaction(stop_signals[i], &sa, &old[i]);
	}
}

/* Prints m worded in English as one line (made inert: it may carry names
 * read from the bundle). */
static void say(struct pl_msg *m)
{
	pl_cli_put_msgs(stdout, "", m, 1);
	pl_msg_release(m);
}

/* The entry of v (n) naming the same run as w: by content, or by id in a
 * manifest written before runs were named by content. */
static const struct pl_manifest_run *find_run(const struct pl_manifest_run *v, size_t n,
                                              const struct pl_manifest_run *w)
{
	for (size_t i = 0; i < n; i++)
		if (w->sha256[0] ? strcmp(v[i].sha256, w->sha256) == 0 && v[i].record == w->record
		                 : v[i].id == w->id)
			return &v[i];
	return NULL;
}

/* The run of this ledger a manifest entry names, read whole into run
 * (*found 0 when there is none). */
static int lookup(struct pl_store *st, const struct pl_manifest_run *w, struct pl_run *run,
                  int *found, struct pl_error *err)
{
	struct pl_run_list l;
	int rc;

	*found = 0;
	if (!w->sha256[0])
		return pl_store_get_run(st, w->id, run, found, err);
	pl_run_list_init(&l);
	rc = pl_store_query_source(st, w->sha256, &l, err);
	for (size_t i = 0; rc == 0 && i < l.n && !*found; i++)
		if (l.v[i].record == w->record) /* read whole: its revision, retracted or not */
			rc = pl_store_get_run(st, l.v[i].id, run, found, err);
	pl_run_list_release(&l);
	return rc;
}

/* Names the runs that changed since the bundle was rendered, from the
 * "runs" of its manifest (content identity and revision) and this ledger:
 * by their id here and by content. Amended, retracted or purged since are
 * corrections (the return value counts them); a run at an older revision
 * here (an older copy of the ledger), one that left the selection or is
 * new to it (the last two from the fresh render's manifest; fresh NULL
 * when the render failed) are named too. A bundle written before
 * revisions existed has no "runs": nothing is said. */
static size_t name_changed_runs(const struct pl_cli *cli, const char *manifest, const char *fresh)
{
	struct pl_manifest_run *was = NULL, *now = NULL;
	size_t nwas = 0, nnow = 0, corrected = 0;
	struct pl_store *st = NULL;
	struct pl_error err;
	char *fm = fresh ? malloc(strlen(fresh) + 32) : NULL;
	int found_was = 0, found_now = 0;

	pl_error_init(&err);
	if (fresh && !fm)
		return 0;
	if (fm)
		snprintf(fm, strlen(fresh) + 32, "%s/manifest.json", fresh);
	if (pl_manifest_runs(manifest, &was, &nwas, &found_was, &err) || !found_was ||
	    (fm && (pl_manifest_runs(fm, &now, &nnow, &found_now, &err) || !found_now)) ||
	    !(st = pl_cli_open_store(cli, PL_CLI_STORE_READ)))
		goto out;
	for (size_t i = 0; i < nwas; i++) {
		const struct pl_manifest_run *r = find_run(now, nnow, &was[i]);
		struct pl_run run;
		struct pl_msg m;
		char ident[96];
		int found = 0;

		if (was[i].sha256[0])
			pl_bundle_run_short(was[i].sha256, was[i].record, ident, sizeof(ident));
		else
			snprintf(ident, sizeof(ident), "run %lld of the bundle's ledger", was[i].id);
		pl_run_init(&run);
		if (lookup(st, &was[i], &run, &found, &err) == 0) {
			if (!found) {
				pl_msg_init(&m, PL_MSG_VERIFY_RUN_ABSENT);
				pl_msg_text(&m, ident);
				say(&m);
				corrected++;
			} else if (run.retracted) {
				pl_msg_init(&m, PL_MSG_VERIFY_RUN_RETRACTED);
				pl_msg_int(&m, run.id);
				pl_msg_text(&m, ident);
				say(&m);
				corrected++;
			} else if (run.revision > was[i].revision) {
				pl_msg_init(&m, PL_MSG_VERIFY_RUN_AMENDED);
				pl_msg_int(&m, run.id);
				pl_msg_text(&m, ident);
				pl_msg_int(&m, was[i].revision);
				pl_msg_int(&m, run.revision);
				say(&m);
				corrected++;
			} else if (run.revision < was[i].revision) {
				/* not a correction since: this ledger is behind the bundle's */
				pl_msg_init(&m, PL_MSG_VERIFY_RUN_OLDER);
				pl_msg_int(&m, run.id);
				pl_msg_text(&m, ident);
				pl_msg_int(&m, was[i].revision);
				pl_msg_int(&m, run.revision);
				say(&m);
			}
			if (found && !run.retracted && fm && !r) {
				pl_msg_init(&m, PL_MSG_VERIFY_RUN_LEFT);
				pl_msg_int(&m, run.id);
				pl_msg_text(&m, ident);
				say(&m);
			}
		}
		pl_run_release(&run);
	}
	for (size_t i = 0; i < nnow; i++) {
		struct pl_run run;
		struct pl_msg m;
		char ident[96];
		int found = 0;

		if (find_run(was, nwas, &now[i]))
			continue;
		pl_bundle_run_short(now[i].sha256, now[i].record, ident, sizeof(ident));
		pl_run_init(&run);
		if (lookup(st, &now[i], &run, &found, &err) == 0 && found) {
			pl_msg_init(&m, PL_MSG_VERIFY_RUN_NEW);
			pl_msg_int(&m, run.id);
			pl_msg_text(&m, ident);
			say(&m);
		}
		pl_run_release(&run);
	}
out:
	pl_store_close(st);
	free(was);
	free(now);
	free(fm);
	return corrected;
}

static void on_offline(void *ctx, const char *name, const char *what)
{
	struct pl_msg m;

	(void)ctx;
	pl_msg_init(&m, strcmp(what, "missing") == 0   ? PL_MSG_VERIFY_FILE_MISSING
	                : strcmp(what, "differs") == 0 ? PL_MSG_VERIFY_FILE_CHANGED
	                                               : PL_MSG_VERIFY_FILE_ADDED);
	pl_msg_text(&m, name);
	say(&m);
}

/* verify --offline DIR [--id ID]: the bundle against its manifest, and its
 * id recomputed from what it ships, with no ledger. */
static int verify_offline(const char *dir, const char *want_id)
{
	char id[PL_BUNDLE_ID_SIZE], listed[PL_BUNDLE_ID_SIZE];
	struct pl_error err;
	struct pl_msg m;
	size_t ndiff = 0;
	int rc = PL_EXIT_OK;

	pl_error_init(&err);
	if (pl_bundle_offline(dir, on_offline, NULL, &ndiff, id, listed, &err)) {
		pl_cli_print_error(&err);
		return PL_EXIT_USAGE;
	}
	if (!id[0]) {
		pl_cli_errorf("verify", "'%s' ships no runs.jsonl or definition.json: its bundle id "
		                        "cannot be recomputed", dir);
		return PL_EXIT_USAGE;
	}
	if (ndiff) {
		pl_msg_init(&m, PL_MSG_VERIFY_OFFLINE_BAD);
		pl_msg_text(&m, dir);
		pl_msg_int(&m, (long long)ndiff);
		say(&m);
		rc = PL_EXIT_REGRESSION;
	}
	if (strcmp(id, listed) != 0) {
		pl_msg_init(&m, PL_MSG_VERIFY_ID_MANIFEST);
		pl_msg_text(&m, id);
		pl_msg_text(&m, listed[0] ? listed : "-");
		say(&m);
		rc = PL_EXIT_REGRESSION;
	}
	if (want_id && strcmp(id, want_id) != 0) {
		pl_msg_init(&m, PL_MSG_VERIFY_ID_GIVEN);
		pl_msg_text(&m, id);
		pl_msg_text(&m, want_id);
		say(&m);
		rc = PL_EXIT_REGRESSION;
	}
	if (rc == PL_EXIT_OK) {
		pl_msg_init(&m, PL_MSG_VERIFY_OFFLINE_OK);
		pl_msg_text(&m, dir);
		pl_msg_text(&m, id);
		say(&m);
		if (want_id) {
			pl_msg_init(&m, PL_MSG_VERIFY_ID_OK);
			pl_msg_text(&m, want_id);
			say(&m);
		}
	}
	return rc;
}

/* Removes the regular files of dir and then dir (it holds no subdirectories). */
static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)) != NULL) {
		char path[4096];
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static void count_diff(void *ctx, const char *name, const char *what)
{
	(void)name;
	(void)what;
	(*(size_t *)ctx)++;
}

/* A superseded bundle re-rendered with the runs as they stood at its
 * as-of time (manifest "as_of"): when every file is the same, says so
 * (the bundle is what the ledger held then). Quiet otherwise. */
static void as_of_check(const struct pl_cli *cli, const char *dir, const char *spec,
                        const char *lang, long long epoch, const char *manifest, const char *tmp)
{
	char at[32], tmpl[4096], *again;
	size_t ndiff = 0, counted = 0;
	struct pl_error err;

	pl_error_init(&err);
	if (!pl_manifest_string(manifest, "as_of", at, sizeof(at)) || !pl_spec_time_ok(at))
		return;
	snprintf(tmpl, sizeof(tmpl), "%s/perfledger-verify-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!(again = mkdtemp(tmpl)))
		return;
	if (pl_cli_render_bundle(cli, spec, lang, epoch, again, 1, NULL, NULL, at) == PL_EXIT_OK &&
	    !got_signal && pl_bundle_compare(dir, again, count_diff, &counted, &ndiff, &err) == 0 &&
	    ndiff == 0) {
		struct pl_msg m;
		pl_msg_init(&m, PL_MSG_VERIFY_AS_OF_SAME);
		pl_msg_text(&m, at);
		say(&m);
	}
	remove_tree(again);
}

static const char two_dirs = 0; /* a second operand: a usage error */

/* The one operand, DIR: a second one marks *v as two_dirs. */
static int take_dir(void *v, const char *arg, const char *cmd)
{
	const char **dir = v;

	(void)cmd;
	*dir = *dir ? &two_dirs : arg;
	return 0;
}

/* The manifest.json and definition.json paths of bundle DIR into
 * *manifest and *spec (caller frees both), after checking they are there
 * (lstat: a symlink is there, and refused by the reader). Prints why DIR
 * is not a bundle and returns -1 (nothing to free) otherwise. */
static int bundle_files(const char *dir, char **manifest, char **spec)
{
	struct stat sb;
	const char *no = NULL;
	size_t n = strlen(dir) + 32;

	*manifest = malloc(n);
	*spec = malloc(n);
	if (!*manifest || !*spec) {
		free(*manifest);
		free(*spec);
		pl_cli_errorf("verify", "out of memory");
		return -1;
	}
	snprintf(*manifest, n, "%s/manifest.json", dir);
	snprintf(*spec, n, "%s/definition.json", dir);
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		no = "such directory";
	else if (lstat(*manifest, &sb) != 0)
		no = "manifest.json";
	else if (lstat(*spec, &sb) != 0)
		no = "definition.json: an --axis report cannot be verified";
	if (no) {
		pl_cli_errorf("verify",
		              "'%s' is not a report bundle (no %s; bundles are written by "
		              "'perfledger report --spec reports/NAME.json --out DIR')",
		              dir, no);
		free(*manifest);
		free(*spec);
		return -1;
	}
	return 0;
}

/* Bundle DIR differs from its re-render FRESH in ndiff files: says so,
 * notes a different gnuplot, and tells a superseded bundle (runs amended
 * since: checked against its own as-of time) from a changed one. Returns
 * PL_EXIT_SUPERSEDED or PL_EXIT_REGRESSION. */
static int report_diff(const struct pl_cli *cli, const char *dir, const char *fresh,
                       const char *manifest, const char *spec, const char *lang,
                       long long epoch, const char *tmp, size_t ndiff)
{
	char was[128], now[128], *fm = malloc(strlen(fresh) + 32);
	size_t corrected;

	fputs("bundle '", stdout);
	pl_cli_put_inert(stdout, dir);
	printf("' differs from a re-render: %zu file%s\n", ndiff, ndiff == 1 ? "" : "s");
	corrected = name_changed_runs(cli, manifest, fresh);
	if (fm) {
		snprintf(fm, strlen(fresh) + 32, "%s/manifest.json", fresh);
		if (pl_manifest_gnuplot(manifest, was, sizeof(was)) &&
		    pl_manifest_gnuplot(fm, now, sizeof(now)) && strcmp(was, now) != 0) {
			fputs("note: the bundle's charts were drawn by '", stdout);
			pl_cli_put_inert(stdout, was);
			fputs("', this machine has '", stdout);
			pl_cli_put_inert(stdout, now);
			fputs("': gnuplot's .svg/.png (and so manifest.json) can differ for "
			      "that alone\n", stdout);
		}
		free(fm);
	}
	if (corrected) {
		struct pl_msg m;
		if (!got_signal)
			as_of_check(cli, dir, spec, lang, epoch, manifest, tmp);
		pl_msg_init(&m, PL_MSG_VERIFY_SUPERSEDED);
		say(&m);
		return PL_EXIT_SUPERSEDED;
	}
	return PL_EXIT_REGRESSION;
}

int cmd_verify(const struct pl_cli *cli, int argc, char **argv)
{
	char lang[16], tmpl[4096], *fresh, *manifest, *spec;
	struct sigaction old[3];
	const char *dir, *tmp = getenv("TMPDIR");
	long long epoch;
	size_t ndiff = 0;
	struct pl_error err;
	int rc;

	int argi, offline = 0;
	const char *want_id = NULL, *dir_arg = NULL;
	/* DIR is the one operand */
	const struct pl_option options[] = {
		PL_OPT_FLAG_ENTRY("offline", 0, &offline, NULL),
		PL_OPT_STRING_ENTRY("id", 0, "ID", &want_id, NULL),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "verify",
		.head = usage_text,
		.options = options,
		.operand = take_dir,        /* options may follow DIR (--offline DIR --id ID) */
		.operand_data = &dir_arg,
	};

	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		return rc;
	(void)argi;
	if (!dir_arg || dir_arg == &two_dirs || dir_arg[0] == '-') {
		pl_options_usage(&usage, stderr);
		return PL_EXIT_USAGE;
	}
	dir = dir_arg;
	if (want_id && !offline) {
		pl_cli_errorf("verify", "--id goes with --offline");
		return PL_EXIT_USAGE;
	}
	if (offline) {
		struct stat sb;
		if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			pl_cli_errorf("verify", "'%s' is not a report bundle (no such directory)", dir);
			return PL_EXIT_USAGE;
		}
		return verify_offline(dir, want_id);
	}
	pl_error_init(&err);
	if (bundle_files(dir, &manifest, &spec))
		return PL_EXIT_USAGE;
	if (pl_manifest_read(manifest, lang, sizeof(lang), &epoch, &err)) {
		pl_cli_print_error(&err);
		free(manifest);
		free(spec);
		return PL_EXIT_USAGE;
	}
	snprintf(tmpl, sizeof(tmpl), "%s/perfledger-verify-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	got_signal = 0;
	trap_signals(old, 0);
	fresh = mkdtemp(tmpl);
	if (!fresh) {
		trap_signals(old, 1);
		pl_cli_errorf("verify", "cannot create a temporary directory in '%s'",
		              tmp && *tmp ? tmp : "/tmp");
		free(manifest);
		free(spec);
		return PL_EXIT_USAGE;
	}
	rc = pl_cli_render_bundle(cli, spec, lang, epoch, fresh, 1, NULL, NULL, NULL);
	if (rc == PL_EXIT_REFUSED && !got_signal && name_changed_runs(cli, manifest, NULL)) {
		/* an amend is why: the bundle is superseded, not refused */
		struct pl_msg m;
		pl_msg_init(&m, PL_MSG_VERIFY_SUPERSEDED);
		say(&m);
		rc = PL_EXIT_SUPERSEDED;
	}
	if (rc == PL_EXIT_OK && !got_signal) {
		if (pl_bundle_compare(dir, fresh, on_diff, NULL, &ndiff, &err)) {
			pl_cli_print_error(&err);
			rc = PL_EXIT_USAGE;
		} else if (ndiff > 0) {
			rc = report_diff(cli, dir, fresh, manifest, spec, lang, epoch, tmp, ndiff);
		} else {
			fputs("bundle '", stdout);
			pl_cli_put_inert(stdout, dir);
			fputs("' verified: every file re-renders byte for byte\n", stdout);
		}
	}
	remove_tree(fresh);
	trap_signals(old, 1);
	if (got_signal) {
		fflush(stdout);
		free(manifest);
		free(spec);
		raise(got_signal); /* the default action now: the status says which signal */
		return PL_EXIT_USAGE;
	}
	free(manifest);
	free(spec);
	return rc;
}
