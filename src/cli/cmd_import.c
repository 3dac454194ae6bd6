/*
 * cmd_import.c — `perfledger import`: files in, runs stored, each bad file
 * named with its reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/ci_env.h"
#include "core/msg.h"
#include "render/words.h"
#include "import/import.h"
#include "render/render.h"
#include "util/alloc.h"
#include "util/buf.h"

static const char usage_text[] =
	"usage: perfledger import [--set FIELD=VALUE]... [--from-ci-env] [--format NAME]\n"
	"                         [--strict] [--dry-run [--list-format text|json|csv|markdown]]\n"
	"                         PATH...\n"
	"\n"
	"Imports benchmark result files into the database. PATH is a file, a directory\n"
	"(walked recursively for *.json, *.jsonl, *.yaml, *.yml, *.csv and *.txt;\n"
	"hidden files and *.conditions.json sidecars skipped), or - for standard input.\n"
	"Formats are detected from content: the perfledger descriptor and the result\n"
	"files of every benchmark tool 'perfledger formats' lists (with the versions\n"
	"read and the field mapping of each); --format NAME forces one.\n"
	"\n"
	"Conditions a file does not record are supplied, never guessed: by a sidecar\n"
	"file NAME.conditions.json next to NAME.json, or by --set (which wins over\n"
	"the sidecar, which wins over the file; a value it replaces is named in a\n"
	"warning).\n"
	"\n"
	"Build identity (provenance, not a condition: runs differing only in it pool\n"
	"together): commit, branch, build_id, ci_run_url, from the descriptor, a\n"
	"sidecar, --set, or --from-ci-env, which reads the standard variables of\n"
	"GitHub Actions, GitLab CI, Buildkite or Jenkins (--set wins over it).\n"
	"\n";

static const char usage_tail[] =
	"\n"
	"The same bytes are stored once: re-importing a file is a no-op (with other\n"
	"conditions it is refused: a stored run is never rewritten). A run that lacks\n"
	"items of the publication checklist is stored as reference-only.\n"
	"\n"
	"A file of several records (JSON array, JSONL, sweep CSV, multi-benchmark\n"
	"report) stores its good records and names each bad one (exit 4); a record\n"
	"stored already from other bytes (the file fixed and imported again) is not\n"
	"stored twice. A run where no request completed is stored as a failed run.\n"
	"\n"
	"--dry-run prints the runs that would be stored, as 'perfledger list' prints\n"
	"them (id 0: not stored), with the warnings, errors, summary and exit code of\n"
	"the real import on standard error; nothing is written, and a missing\n"
	"database is not created.\n";

/* Reference-only notes name at most this many files; the rest are summed up
 * in one line at the end, so a bulk import does not print a line a file. */
#define REFONLY_NOTES_MAX 3

/* Files refused one after another for the same database error (the files
 * of a batch rolled back by a full disk, up to thousands) are named up to
 * this many times; the rest are counted in one line. */
#define SAME_DB_ERROR_MAX 3

struct import_ctx {
	int strict;     /* --strict given */
	struct pl_run_list preview; /* --dry-run: the runs that would be stored */
	int preview_oom;            /* a copy failed */
	int dry;                    /* --dry-run: notes say "would be stored" */
	size_t refonly_files; /* files stored with reference-only runs */
	size_t refonly_runs;  /* reference-only runs stored */
	int printed_io; /* an I/O error was already printed by on_file */
	char last_error[2048]; /* the last error on_file printed, formatted */
	int progress;   /* a progress line may be on the terminal: clear it first */
	char db_error[1024]; /* message of the last file refused for a database error */
	size_t db_same;      /* files refused in a row for it */
	size_t db_hidden;    /* of them, not named */
	int summary_json;    /* --summary json: keep each file's outcome */
	struct file_outcome *outcomes; /* in input order (records before their file) */
	size_t noutcomes, outcomes_cap;
	int outcomes_oom;    /* a copy failed: the summary says so */
};

/* One entry of the JSON summary: a file's outcome, or one bad record. */
struct file_outcome {
	char *path;
	enum pl_import_status status;
	size_t runs, reference_only;
	char *warnings; /* '\n'-separated, or NULL */
	char *error;    /* the formatted error, or NULL */
};

/* --summary json: keeps a copy of one outcome. */
static void keep_outcome(struct import_ctx *ctx, const char *path, enum pl_import_status status,
                         size_t runs, size_t reference_only, const char *warnings,
                         const struct pl_error *err)
{
	struct file_outcome *o;
	char buf[2048];

	if (PL_ALLOC_GROW(ctx->outcomes, ctx->noutcomes + 1, ctx->outcomes_cap)) {
		ctx->outcomes_oom = 1;
		return;
	}
	o = &ctx->outcomes[ctx->noutcomes];
	memset(o, 0, sizeof(*o));
	o->status = status;
	o->runs = runs;
	o->reference_only = reference_only;
	o->path = strdup(path);
	if (warnings && *warnings)
		o->warnings = strdup(warnings);
	if (err) {
		pl_error_format(err, buf, sizeof(buf));
		o->error = strdup(buf);
	}
	if (!o->path || (warnings && *warnings && !o->warnings) || (err && !o->error)) {
		free(o->path);
		free(o->warnings);
		free(o->error);
		ctx->outcomes_oom = 1;
		return;
	}
	ctx->noutcomes++;
}

static void free_outcomes(struct import_ctx *ctx)
{
	for (size_t i = 0; i < ctx->noutcomes; i++) {
		free(ctx->outcomes[i].path);
		free(ctx->outcomes[i].warnings);
		free(ctx->outcomes[i].error);
	}
	free(ctx->outcomes);
}

/* "... and N more": the files refused for the same database error and not
 * named, when there are any. */
static void say_hidden(struct import_ctx *ctx)
{
	if (ctx->db_hidden)
		pl_cli_errorf("import", "%zu more file%s not stored for the same reason",
		              ctx->db_hidden, ctx->db_hidden == 1 ? "" : "s");
	ctx->db_hidden = 0;
}

/* Prints "perfledger: note: " and message code with the one TEXT argument
 * arg, in English (the CLI's language). */
static void note_text(enum pl_msg_code code, const char *arg)
{
	struct pl_msg m;
	char *t;

	pl_msg_init(&m, code);
	pl_msg_text(&m, arg);
	t = m.oom ? NULL : pl_words_msg(&m, PL_LANG_EN);
	pl_msg_release(&m);
	if (t)
		pl_cli_errorf(NULL, "note: %s", t);
	else
		pl_cli_errorf("import", "out of memory");
	free(t);
}

/* A directory walked or files given and none found: say so, naming the
 * paths ("imported 0 runs from 0 files" alone reads as success). */
static void note_no_files(char *const *paths, size_t n)
{
	struct pl_buf b;

	pl_buf_init(&b);
	for (size_t i = 0; i < n; i++)
		pl_buf_addf(&b, "%s'%s'", i ? ", " : "", paths[i]);
	note_text(PL_MSG_IMPORT_NO_FILES, b.oom ? "?" : b.data);
	pl_buf_release(&b);
}

static void on_file(void *vctx, const char *path, enum pl_import_status status, size_t runs,
                    size_t reference_only, const char *warnings, const struct pl_error *err)
{
	struct import_ctx *ctx = vctx;

	int note = status == PL_IMPORT_STORED && reference_only &&
	           ctx->refonly_files < REFONLY_NOTES_MAX;

	if (ctx->summary_json)
		keep_outcome(ctx, path, status, runs, reference_only, warnings, err);

	if (status == PL_IMPORT_STORED && reference_only) {
		ctx->refonly_files++;
		ctx->refonly_runs += reference_only;
	}
	if (ctx->progress && (status == PL_IMPORT_REJECTED || note || warnings))
		fputs("\r\033[K", stderr);
	for (const char *w = warnings; w && *w;) {
		int len = (int)strcspn(w, "\n");
		pl_cli_errorf(NULL, "warning: '%s': %.*s", path, len, w);
		w += len + (w[len] == '\n');
	}
	if (status == PL_IMPORT_RECORD_REJECTED && err) {
		/* one bad record; the file's others are reported with the file */
		if (ctx->progress)
			fputs("\r\033[K", stderr);
		pl_cli_print_error(err);
		return;
	}
	if (status == PL_IMPORT_REJECTED && err) {
		if (err->code == PL_EDB && strcmp(err->message, ctx->db_error) == 0) {
			if (++ctx->db_same >= SAME_DB_ERROR_MAX) {
				ctx->db_hidden++;
				return;
			}
		} else {
			say_hidden(ctx);
			ctx->db_same = 0;
			snprintf(ctx->db_error, sizeof(ctx->db_error), "%s",
			         err->code == PL_EDB ? err->message : "");
		}
		pl_cli_print_error(err);
		pl_error_format(err, ctx->last_error, sizeof(ctx->last_error));
		if (err->code == PL_EIO)
			ctx->printed_io = 1;
		return;
	}
	if (status == PL_IMPORT_STORED && runs == 0) {
		/* no record at all (a file of bad records is rejected instead) */
		if (ctx->progress)
			fputs("\r\033[K", stderr);
		note_text(PL_MSG_IMPORT_NO_RUNS, path);
		return;
	}
	if (note)
		pl_cli_errorf(NULL,
		              "note: '%s': %zu of %zu run%s %s as reference-only "
		              "(publication checklist incomplete; 'perfledger list --format json' shows "
		              "which items)",
		              path, reference_only, runs, runs == 1 ? "" : "s",
		              ctx->dry ? "would be stored" : "stored");
}

/* --dry-run: keeps a copy of a run that would be stored. */
static void on_preview(void *vctx, const struct pl_run *run)
{
	struct import_ctx *ctx = vctx;
	struct pl_run *r = pl_run_list_push(&ctx->preview);

	if (!r || pl_run_copy(r, run)) {
		if (r)
			ctx->preview.n--;
		ctx->preview_oom = 1;
	}
}

/* --dry-run: the database to check against, never written: the existing
 * file read-only, or an empty one in memory when there is none (nothing is
 * created on disk). NULL after printing why. */
static struct pl_store *open_dry(const struct pl_cli *cli)
{
	struct pl_store *st = NULL;
	struct pl_error err;
	struct stat sb;

	if (stat(cli->db_path, &sb) == 0 && sb.st_size > 0)
		return pl_cli_open_store(cli, PL_CLI_STORE_READ);
	pl_error_init(&err);
	if (pl_store_open(":memory:", &st, &err)) {
		pl_cli_print_error(&err);
		return NULL;
	}
	return st;
}

/* Progress on a terminal: one line rewritten in place, cleared at the end. */
static void on_progress(void *vctx, const struct pl_import_stats *so_far, double seconds)
{
	(void)vctx;
	fprintf(stderr, "\r\033[Kimporting: %zu files, %zu runs, %.0f files/s, %zu rejected",
	        so_far->files, so_far->runs, seconds > 0 ? (double)so_far->files / seconds : 0.0,
	        so_far->rejected);
	fflush(stderr);
}

/* The --set values given so far: FIELD=VALUE split into set[] (the
 * FIELD copied into owned[], the VALUE pointing into argv). */
struct set_list {
	struct pl_kv *set; /* one per --set, room for argc */
	char **owned;      /* their FIELD copies */
	size_t n;
};

/* --set FIELD=VALUE, appended to the struct set_list. */
static int opt_set(void *vl, const char *arg, const char *cmd)
{
	struct set_list *l = vl;
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg) {
		pl_cli_errorf(cmd, "bad --set '%s': expected FIELD=VALUE", arg);
		return PL_EXIT_USAGE;
	}
	l->owned[l->n] = strndup(arg, (size_t)(eq - arg));
	if (!l->owned[l->n]) {
		pl_cli_errorf(cmd, "out of memory");
		return PL_EXIT_USAGE;
	}
	l->set[l->n].key = l->owned[l->n];
	l->set[l->n].value = eq + 1;
	l->n++;
	return 0;
}

static const char *env_get(void *ctx, const char *name)
{
	(void)ctx;
	return getenv(name);
}

/* --from-ci-env: the build fields the CI gives and no --set names, appended
 * to sets (values into vals, freed by the caller). Returns 0 or an exit code. */
static int add_ci_env(struct set_list *sets, char *vals[PL_BUILD_COUNT])
{
	struct pl_error err;
	enum pl_ci ci;

	pl_error_init(&err);
	if (pl_ci_env_build(env_get, NULL, &ci, vals, &err)) {
		pl_cli_errorf("import", "%s", err.message);
		return PL_EXIT_USAGE;
	}
	if (ci == PL_CI_NONE) {
		pl_cli_errorf("import", "--from-ci-env: no CI detected (none of GITHUB_ACTIONS=true, "
		                        "GITLAB_CI=true, BUILDKITE=true, JENKINS_URL is set)");
		return PL_EXIT_USAGE;
	}
	{
		const char *missing[8];
		size_t nm = pl_ci_env_missing(env_get, NULL, ci, missing, 8);
		if (nm) {
			struct pl_msg m;
			char *t;
			pl_msg_init(&m, PL_MSG_CI_ENV_MISSING);
			pl_msg_text(&m, pl_ci_name(ci));
			pl_msg_list(&m, missing, nm < 8 ? nm : 8);
			t = m.oom ? NULL : pl_words_msg(&m, PL_LANG_EN);
			pl_msg_release(&m);
			if (!t) {
				pl_cli_errorf("import", "out of memory");
				return PL_EXIT_USAGE;
			}
			pl_cli_errorf(NULL, "warning: %s", t);
			free(t);
		}
	}
	for (int f = 0; f < PL_BUILD_COUNT; f++) {
		int given = 0;
		for (size_t k = 0; k < sets->n; k++)
			given |= strcmp(sets->set[k].key, pl_build_name(f)) == 0;
		if (given || !vals[f])
			continue;
		sets->set[sets->n].key = pl_build_name(f);
		sets->set[sets->n].value = vals[f];
		sets->owned[sets->n] = NULL;
		sets->n++;
	}
	return 0;
}

static const char *status_name(enum pl_import_status s)
{
	switch (s) {
	case PL_IMPORT_STORED: return "stored";
	case PL_IMPORT_DUPLICATE: return "duplicate";
	case PL_IMPORT_REJECTED: return "rejected";
	case PL_IMPORT_RECORD_REJECTED: return "record_rejected";
	}
	return "?";
}

/* --summary json: one object (docs/import.md "JSON summary"). Returns 0, or
 * nonzero after saying why (a copy failed, a write failed). */
static int write_summary(FILE *f, const struct import_ctx *ctx, const struct pl_import_stats *s,
                         const struct pl_import_opts *o)
{
	int all = o->strict && (s->rejected || s->records_rejected); /* --strict rolled back */

	if (ctx->outcomes_oom) {
		pl_cli_errorf("import", "out of memory writing the summary");
		return 1;
	}
	fprintf(f, "{\"command\": \"import\", \"dry_run\": %s, \"strict\": %s, \"committed\": %s, ",
	        o->dry_run ? "true" : "false", o->strict ? "true" : "false",
	        all || o->dry_run ? "false" : "true");
	fprintf(f, "\"files\": %zu, \"files_stored\": %zu, \"duplicates\": %zu, \"rejected\": %zu, ",
	        s->files, all ? 0 : s->stored, s->duplicates, s->rejected);
	fprintf(f, "\"runs\": %zu, \"records_rejected\": %zu, \"records_stored_already\": %zu, ",
	        all ? 0 : s->runs, s->records_rejected, s->records_present);
	fputs("\"outcomes\": [", f);
	for (size_t i = 0; i < ctx->noutcomes; i++) {
		const struct file_outcome *e = &ctx->outcomes[i];
		fputs(i ? ", {\"path\": " : "{\"path\": ", f);
		pl_json_write_string(f, e->path);
		fprintf(f, ", \"status\": \"%s\"", status_name(e->status));
		if (e->status == PL_IMPORT_STORED)
			fprintf(f, ", \"runs\": %zu, \"reference_only\": %zu", e->runs, e->reference_only);
		if (e->error) {
			fputs(", \"reason\": ", f);
			pl_json_write_string(f, e->error);
		}
		if (e->warnings) {
			const char *w = e->warnings;
			fputs(", \"warnings\": [", f);
			for (int first = 1; *w; first = 0) {
				size_t len = strcspn(w, "\n");
				char *one = strndup(w, len);
				if (!one) {
					pl_cli_errorf("import", "out of memory writing the summary");
					return 1;
				}
				if (!first)
					fputs(", ", f);
				pl_json_write_string(f, one);
				free(one);
				w += len + (w[len] == '\n');
			}
			fputc(']', f);
		}
		fputc('}', f);
	}
	fputs("]}\n", f);
	if (fflush(f) != 0 || ferror(f)) {
		pl_cli_errorf("import", "cannot write the summary");
		return 1;
	}
	return 0;
}

/* The import stopped on irc (err), neither a rejection nor an I/O error
 * already named: says why and what is kept. Returns the exit code. */
static int say_stopped(int irc, const struct pl_error *err, const struct import_ctx *ctx,
                       const struct pl_import_stats *stats)
{
	if (irc == PL_EUSAGE) { /* refused before reading anything (--format) */
		pl_cli_errorf("import", "%s", err->message);
		return PL_EXIT_USAGE;
	}
	{
		/* a database error that stopped the import was also the reason
		 * given for the file it happened on: once is enough */
		char now[2048];
		pl_error_format(err, now, sizeof(now));
		if (strcmp(now, ctx->last_error) != 0 &&
		    !(err->code == PL_EDB && strcmp(err->message, ctx->db_error) == 0))
			pl_cli_print_error(err);
	}
	/* the import stopped (disk full, database error): say what is kept */
	pl_cli_errorf("import",
	              "stopped: %zu run%s from %zu file%s stored before the error, the files "
	              "after it not read; run the same import again to store the rest (stored "
	              "files are skipped)",
	              stats->runs, stats->runs == 1 ? "" : "s", stats->stored,
	              stats->stored == 1 ? "" : "s");
	return PL_EXIT_USAGE;
}

/* The summary line of a finished import (or dry run) into sum. */
static void say_summary(FILE *sum, struct pl_store *st, const struct pl_import_stats *stats,
                        const struct pl_import_opts *opts)
{
	if (opts->strict && (stats->rejected || stats->records_rejected)) {
		fprintf(sum, "rejected %zu of %zu file%s", stats->rejected + stats->partial, stats->files,
		        stats->files == 1 ? "" : "s");
		if (stats->records_rejected)
			fprintf(sum, " (%zu bad record%s)", stats->records_rejected,
			        stats->records_rejected == 1 ? "" : "s");
		fprintf(sum, "; nothing %s (--strict)\n", opts->dry_run ? "would be stored" : "stored");
		return;
	}
	fprintf(sum, "%s %zu run%s from %zu file%s (%zu duplicate%s, %zu rejected",
	        opts->dry_run ? "would import" : "imported", stats->runs,
	        stats->runs == 1 ? "" : "s", stats->stored, stats->stored == 1 ? "" : "s",
	        stats->duplicates, stats->duplicates == 1 ? "" : "s", stats->rejected);
	/* the records of multi-record files: said only when there are some */
	if (stats->records_rejected)
		fprintf(sum, "; %zu record%s rejected", stats->records_rejected,
		        stats->records_rejected == 1 ? "" : "s");
	if (stats->records_present)
		fprintf(sum, "; %zu record%s stored already", stats->records_present,
		        stats->records_present == 1 ? "" : "s");
	if (pl_store_trail_added(st) > 0) /* a ledger record's trail, later than here */
		fprintf(sum, "; %lld trail entr%s added to stored runs", pl_store_trail_added(st),
		        pl_store_trail_added(st) == 1 ? "y" : "ies");
	fprintf(sum, ")%s\n", opts->dry_run ? "; nothing stored" : "");
}

/* What a finished import did: a dry run's list of runs (stdout), then the
 * summary (stdout; stderr in a dry run) and the reference-only note.
 * Returns 0, or -1 with the error printed. */
static int say_outcome(struct pl_store *st, struct import_ctx *ctx,
                       const struct pl_import_stats *stats, const struct pl_import_opts *opts,
                       enum pl_table_format lfmt, struct pl_error *err)
{
	FILE *sum = opts->dry_run ? stderr : stdout;

	if (opts->dry_run) {
		/* the runs that would be stored, as `list` prints them; none when
		 * --strict would roll the batch back */
		if (opts->strict && (stats->rejected || stats->records_rejected))
			pl_run_list_release(&ctx->preview);
		if (ctx->preview_oom) {
			pl_cli_errorf("import", "out of memory");
			return -1;
		}
		if (pl_render_runs(stdout, &ctx->preview, lfmt, err)) {
			pl_cli_print_error(err);
			return -1;
		}
		if (!ctx->summary_json)
			fputs("dry run: ", sum);
	}
	if (ctx->summary_json) {
		if (write_summary(sum, ctx, stats, opts))
			return -1;
	} else {
		say_summary(sum, st, stats, opts);
	}
	if (ctx->refonly_files > REFONLY_NOTES_MAX)
		fprintf(stderr,
		        "perfledger: note: %zu runs in all %s as reference-only, from %zu files "
		        "(%zu not named above)\n",
		        ctx->refonly_runs, ctx->dry ? "would be stored" : "stored", ctx->refonly_files,
		        ctx->refonly_files - REFONLY_NOTES_MAX);
	return 0;
}

int cmd_import(const struct pl_cli *cli, int argc, char **argv)
{
	struct set_list sets = {calloc((size_t)argc + PL_BUILD_COUNT, sizeof(*sets.set)),
	                        calloc((size_t)argc + PL_BUILD_COUNT, sizeof(*sets.owned)), 0};
	char *ci_vals[PL_BUILD_COUNT] = {0};
	int from_ci = 0;
	struct pl_import_opts opts = {0};
	struct pl_import_stats stats = {0};
	struct import_ctx ctx = {0};
	struct pl_error err;
	struct pl_store *st = NULL;
	enum pl_table_format lfmt = PL_FMT_TEXT;
	int argi, rc = PL_EXIT_USAGE;
	const struct pl_option options[] = {
		PL_OPT_CALLBACK_ENTRY("set", 0, "FIELD=VALUE", &sets, opt_set,
		                      "set a condition or build field (commit, branch,\n"
		                      "build_id, ci_run_url) on every imported run (repeatable)"),
		PL_OPT_FLAG_ENTRY("from-ci-env", 0, &from_ci,
		                  "build identity from the CI's variables (GitHub Actions,\n"
		                  "GitLab CI, Buildkite, Jenkins)"),
		PL_OPT_STRING_ENTRY("format", 0, "NAME", &opts.format,
		                    "force the input format (see 'perfledger formats')"),
		PL_OPT_FLAG_ENTRY("strict", 0, &opts.strict, "store nothing if any file or record is rejected"),
		PL_OPT_FLAG_ENTRY("dry-run", 0, &opts.dry_run,
		                  "store nothing: print what would be stored (see below)"),
		PL_OPT_CALLBACK_ENTRY("list-format", 0, "F", &lfmt, pl_cli_opt_format,
		                      "--dry-run's list: text, json, csv or markdown"),
		PL_OPT_CALLBACK_ENTRY("summary", 0, "F", &ctx.summary_json, pl_cli_opt_summary,
		                      "the summary as text (default) or json: totals and\n"
		                      "every file's outcome with its reasons"),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "import",
		.head = usage_text,
		.options = options,
		.width = 19,
		.tail = usage_tail,
	};

	pl_error_init(&err);
	if (!sets.set || !sets.owned) {
		pl_cli_errorf("import", "out of memory");
		goto out;
	}
	rc = pl_options_parse(&usage, argc, argv, &argi);
	opts.nset = sets.n;
	if (rc != PL_OPTIONS_CONTINUE)
		goto out;
	if (from_ci && (rc = add_ci_env(&sets, ci_vals)))
		goto out;
	opts.nset = sets.n;
	rc = PL_EXIT_USAGE;
	if (argi >= argc) {
		pl_cli_errorf("import", "no PATH given");
		pl_options_usage(&usage, stderr);
		goto out;
	}
	if (pl_import_check_set(sets.set, opts.nset, &err)) {
		pl_cli_errorf("import", "%s", err.message);
		goto out;
	}
	opts.set = sets.set;
	ctx.strict = opts.strict;
	pl_run_list_init(&ctx.preview);
	if (isatty(STDERR_FILENO) && !opts.dry_run) {
		opts.progress = on_progress;
		ctx.progress = 1;
	}
	if (opts.dry_run) {
		opts.preview = on_preview;
		opts.preview_ctx = &ctx;
		ctx.dry = 1;
	}
	st = opts.dry_run ? open_dry(cli) : pl_cli_open_store(cli, PL_CLI_STORE_CREATE);
	if (!st)
		goto out;
	int irc = pl_import_paths(st, (const char *const *)argv + argi, (size_t)(argc - argi),
	                          &opts, on_file, &ctx, &stats, &err);
	if (opts.progress)
		fputs("\r\033[K", stderr);
	say_hidden(&ctx);
	if (irc == 0 && stats.files == 0 && stats.rejected == 0)
		note_no_files(argv + argi, (size_t)(argc - argi));
	if (stats.indexes_pending[0])
		pl_cli_errorf(NULL,
		              "warning: %s; the runs are stored and queries work, more slowly, until "
		              "the next import builds the selection indexes",
		              stats.indexes_pending);
	if (irc && irc != PL_EINVALID && !(irc == PL_EIO && ctx.printed_io)) {
		rc = say_stopped(irc, &err, &ctx, &stats);
		goto out;
	}
	if (say_outcome(st, &ctx, &stats, &opts, lfmt, &err)) {
		rc = PL_EXIT_USAGE;
		goto out;
	}
	/* an unreadable path is an I/O error (2); a bad file is a rejection (4) */
	rc = irc == PL_EIO ? PL_EXIT_USAGE
	     : stats.rejected || stats.records_rejected ? PL_EXIT_REJECTED
	                                                : PL_EXIT_OK;
out:
	pl_store_close(st);
	pl_run_list_release(&ctx.preview);
	free_outcomes(&ctx);
	if (sets.owned)
		for (size_t i = 0; i < sets.n; i++)
			free(sets.owned[i]);
	free(sets.owned);
	free(sets.set);
	for (int f = 0; f < PL_BUILD_COUNT; f++)
		free(ci_vals[f]);
	return rc;
}
