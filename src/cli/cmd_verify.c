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

static const char usage_text[] =
	"usage: perfledger verify DIR\n"
	"\n"
	"Re-renders the report bundle in DIR (written by 'perfledger report --spec')\n"
	"from the database, with the definition, language and SOURCE_DATE_EPOCH\n"
	"recorded in the bundle, and compares every file byte for byte. Prints one\n"
	"line per file that differs, is missing or is unexpected, and names both\n"
	"gnuplot versions when the bundle's charts were drawn by another gnuplot.\n"
	"Exit 0 when the bundle is reproduced exactly, 1 when any file differs, 3\n"
	"when the re-render is refused (runs amended since no longer match; they are\n"
	"named), 2 on a usage or I/O error.\n";

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

static const struct pl_manifest_run *find_run(const struct pl_manifest_run *v, size_t n,
                                              long long id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].id == id)
			return &v[i];
	return NULL;
}

/* Names the runs that changed since the bundle was rendered, from the
 * "runs" (id, revision) of its manifest and the database: amended,
 * retracted or purged since, left the selection, or new to it (the last
 * two from the fresh render's manifest; fresh NULL when the render failed,
 * e.g. refused because an amend made the conditions differ). A bundle
 * written before revisions existed has no "runs": nothing is said. */
static void name_changed_runs(const struct pl_cli *cli, const char *manifest, const char *fresh)
{
	struct pl_manifest_run *was = NULL, *now = NULL;
	size_t nwas = 0, nnow = 0;
	struct pl_store *st = NULL;
	struct pl_error err;
	char *fm = fresh ? malloc(strlen(fresh) + 32) : NULL;
	int found_was = 0, found_now = 0;

	pl_error_init(&err);
	if (fresh && !fm)
		return;
	if (fm)
		snprintf(fm, strlen(fresh) + 32, "%s/manifest.json", fresh);
	if (pl_manifest_runs(manifest, &was, &nwas, &found_was, &err) || !found_was ||
	    (fm && (pl_manifest_runs(fm, &now, &nnow, &found_now, &err) || !found_now)) ||
	    !(st = pl_cli_open_store(cli, PL_CLI_STORE_READ)))
		goto out;
	for (size_t i = 0; i < nwas; i++) {
		const struct pl_manifest_run *r = find_run(now, nnow, was[i].id);
		struct pl_run run;
		int found = 0;

		pl_run_init(&run);
		if (pl_store_get_run(st, was[i].id, &run, &found, &err) == 0) {
			if (!found)
				printf("run %lld was purged after this bundle\n", was[i].id);
			else if (run.retracted)
				printf("run %lld was retracted after this bundle\n", was[i].id);
			else if (run.revision != was[i].revision)
				printf("run %lld was amended after this bundle: revision %d -> %d%s\n", was[i].id,
				       was[i].revision, run.revision,
				       fm && !r ? "; it has left the bundle's selection" : "");
			else if (fm && !r)
				printf("run %lld has left the bundle's selection\n", was[i].id);
		}
		pl_run_release(&run);
	}
	for (size_t i = 0; i < nnow; i++)
		if (!find_run(was, nwas, now[i].id))
			printf("run %lld is new to the bundle's selection (imported, restored or amended "
			       "since)\n", now[i].id);
out:
	pl_store_close(st);
	free(was);
	free(now);
	free(fm);
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

int cmd_verify(const struct pl_cli *cli, int argc, char **argv)
{
	char lang[16], tmpl[4096], *fresh, *manifest, *spec;
	struct sigaction old[3];
	const char *dir, *tmp = getenv("TMPDIR");
	long long epoch;
	size_t ndiff = 0;
	struct pl_error err;
	int rc;

	int argi;
	/* no options but --help; DIR is the one operand */
	const struct pl_option options[] = {PL_OPT_END_ENTRY};
	const struct pl_usage usage = {
		.cmd = "verify",
		.head = usage_text,
		.options = options,
		.on_error = PL_USAGE_FULL, /* and no message */
	};

	rc = pl_options_parse(&usage, argc, argv, &argi);
	if (rc != PL_OPTIONS_CONTINUE)
		return rc;
	if (argc - argi != 1 || argv[argi][0] == '-') {
		pl_options_usage(&usage, stderr);
		return PL_EXIT_USAGE;
	}
	dir = argv[argi];
	pl_error_init(&err);
	manifest = malloc(strlen(dir) + 32);
	spec = malloc(strlen(dir) + 32);
	if (!manifest || !spec) {
		free(manifest);
		free(spec);
		pl_cli_errorf("verify", "out of memory");
		return PL_EXIT_USAGE;
	}
	snprintf(manifest, strlen(dir) + 32, "%s/manifest.json", dir);
	snprintf(spec, strlen(dir) + 32, "%s/definition.json", dir);
	{
		/* lstat: a symlink is there, and refused by the reader */
		struct stat sb;
		const char *no = NULL;
		if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
			no = "such directory";
		else if (lstat(manifest, &sb) != 0)
			no = "manifest.json";
		else if (lstat(spec, &sb) != 0)
			no = "definition.json: an --axis report cannot be verified";
		if (no) {
			pl_cli_errorf("verify",
			              "'%s' is not a report bundle (no %s; bundles are written by "
			              "'perfledger report --spec reports/NAME.json --out DIR')",
			              dir, no);
			free(manifest);
			free(spec);
			return PL_EXIT_USAGE;
		}
	}
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
	rc = pl_cli_render_bundle(cli, spec, lang, epoch, fresh, 1);
	if (rc == PL_EXIT_REFUSED && !got_signal)
		name_changed_runs(cli, manifest, NULL); /* an amend may be why */
	if (rc == PL_EXIT_OK && !got_signal) {
		if (pl_bundle_compare(dir, fresh, on_diff, NULL, &ndiff, &err)) {
			pl_cli_print_error(&err);
			rc = PL_EXIT_USAGE;
		} else if (ndiff > 0) {
			char was[128], now[128], *fm = malloc(strlen(fresh) + 32);
			fputs("bundle '", stdout);
			pl_cli_put_inert(stdout, dir);
			printf("' differs from a re-render: %zu file%s\n", ndiff, ndiff == 1 ? "" : "s");
			name_changed_runs(cli, manifest, fresh);
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
			rc = PL_EXIT_REGRESSION;
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
