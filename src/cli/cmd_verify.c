/*
 * cmd_verify.c — `perfledger verify DIR`: re-renders a report bundle from
 * the database and reports every file that differs.
 *
 * The bundle carries what a re-render needs: definition.json (the report
 * definition, byte for byte) and, in manifest.json, the language and the
 * SOURCE_DATE_EPOCH it was rendered with. The fresh render goes to a
 * temporary directory, which is removed afterwards.
 */
#include <dirent.h>
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
	"Exit 0 when the bundle is reproduced exactly, 1 when any file differs.\n";

static void on_diff(void *ctx, const char *name, const char *what)
{
	(void)ctx;
	printf("%s: %s\n", what, name);
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
		struct stat sb;
		if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode) || stat(manifest, &sb) != 0) {
			pl_cli_errorf("verify",
			              "'%s' is not a report bundle (no %s; bundles are written by "
			              "'perfledger report --spec reports/NAME.json --out DIR')",
			              dir, stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)
			                       ? "such directory"
			                       : "manifest.json");
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
	fresh = mkdtemp(tmpl);
	if (!fresh) {
		pl_cli_errorf("verify", "cannot create a temporary directory in '%s'",
		              tmp && *tmp ? tmp : "/tmp");
		free(manifest);
		free(spec);
		return PL_EXIT_USAGE;
	}
	rc = pl_cli_render_bundle(cli, spec, lang, epoch, fresh);
	if (rc == PL_EXIT_OK) {
		if (pl_bundle_compare(dir, fresh, on_diff, NULL, &ndiff, &err)) {
			pl_cli_print_error(&err);
			rc = PL_EXIT_USAGE;
		} else if (ndiff > 0) {
			char was[128], now[128], *fm = malloc(strlen(fresh) + 32);
			printf("bundle '%s' differs from a re-render: %zu file%s\n", dir, ndiff,
			       ndiff == 1 ? "" : "s");
			if (fm) {
				snprintf(fm, strlen(fresh) + 32, "%s/manifest.json", fresh);
				if (pl_manifest_gnuplot(manifest, was, sizeof(was)) &&
				    pl_manifest_gnuplot(fm, now, sizeof(now)) && strcmp(was, now) != 0)
					printf("note: the bundle's charts were drawn by '%s', this machine has "
					       "'%s': gnuplot's .svg/.png (and so manifest.json) can differ "
					       "for that alone\n",
					       was, now);
				free(fm);
			}
			rc = PL_EXIT_REGRESSION;
		} else {
			printf("bundle '%s' verified: every file re-renders byte for byte\n", dir);
		}
	}
	remove_tree(fresh);
	free(manifest);
	free(spec);
	return rc;
}
