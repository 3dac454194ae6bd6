/*
 * plot.c — bar charts of a comparison through the external gnuplot.
 *
 * For each chart we write NAME.dat (one line per comparison row: the row
 * label as a gnuplot double-quoted string, then tab-separated values, "NaN"
 * for missing) and NAME.gp (a script built only from our own strings:
 * metric names, units, file names). Input text reaches gnuplot only as data
 * read through xtic(1) or ytic(1) with enhanced text off, so it is never
 * parsed as script or markup. Up to PLOT_COLUMN_ROWS rows are columns
 * with their labels turned a little below them; more are horizontal bars,
 * one per row top down, each label level at its bar's left. gnuplot is started by util's spawner (util/spawn.h:
 * fork/execv from an argv vector, never a shell; the program found in the
 * absolute PATH entries before the child enters the output directory) in
 * the output directory, with -d so no user init file changes the result,
 * and killed when it runs longer than PERFLEDGER_CHILD_TIMEOUT seconds
 * (default 120), which ends the render; its output is captured for the
 * error message.
 */
#include "render/plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/model.h"
#include "core/ranges.h"
#include "render/render_impl.h"
#include "render/words.h"
#include "util/spawn.h"


#define GNUPLOT_MISSING_MSG \
	"gnuplot not found; install it with 'apt-get install gnuplot-nox' (the .gp and .dat files are written)"

/* One chart: which metrics, what it is called. The title names only the
 * metrics drawn: "TTFT p50 / p95 (s)" with both, "TTFT p50 (s)" with one. */
struct chart_def {
	const char *name;      /* base file name */
	enum pl_msg_code family; /* title start, a word ("TTFT") */
	int seconds;           /* 1: seconds, 0: tokens/s */
	int metrics[2];        /* candidate metrics, PL_M_NONE for none */
};

static const struct chart_def chart_defs[] = {
	{"ttft", PL_MSG_W_PLOT_TTFT, 1, {PL_M_TTFT_P50, PL_M_TTFT_P95}},
	{"tpot", PL_MSG_W_PLOT_TPOT, 1, {PL_M_TPOT_P50, PL_M_TPOT_P95}},
	{"throughput", PL_MSG_W_PLOT_THROUGHPUT, 0, {PL_M_OUTPUT_THROUGHPUT, PL_M_NONE}},
};

/* The ITL fallback of the "tpot" chart when no row has a TPOT. */
static const struct chart_def itl_def = {"tpot", PL_MSG_W_PLOT_ITL, 1, {PL_M_ITL_P50, PL_M_ITL_P95}};

/* A chart being written: its definition and the metrics present. */
struct chart_job {
	const struct pl_comparison *cmp; /* the comparison */
	const struct chart_def *def;     /* what to draw */
	int metrics[2];                  /* metrics present in some row */
	size_t nmetrics;                 /* 1 or 2 */
	int zh;                          /* Chinese title and axis label */
	char title[128];                 /* what is drawn */
};

/* job->title from the metrics present: family, then the statistic of each
 * latency metric ("p50 / p95"), then the unit. */
static void job_title(struct chart_job *job)
{
	char stats[64] = "";
	size_t len = 0;

	for (size_t i = 0; job->def->seconds && i < job->nmetrics; i++) {
		const char *name = pl_metric_info[job->metrics[i]].name, *us = strrchr(name, '_');
		int k = snprintf(stats + len, sizeof(stats) - len, "%s%s", i ? " / " : " ",
		                 us ? us + 1 : name);
		if (k > 0 && (size_t)k < sizeof(stats) - len)
			len += (size_t)k;
	}
	{
		enum pl_lang l = job->zh ? PL_LANG_ZH : PL_LANG_EN;
		char head[96];
		struct pl_msg m;
		char *t;

		snprintf(head, sizeof(head), "%s%s", pl_word(job->def->family, l), stats);
		pl_msg_init(&m, PL_MSG_PLOT_TITLE);
		pl_msg_text(&m, head);
		pl_msg_code_arg(&m, job->def->seconds ? PL_MSG_W_PLOT_UNIT_S : PL_MSG_W_PLOT_UNIT_TOKS);
		t = pl_words_msg(&m, l);
		snprintf(job->title, sizeof(job->title), "%s", t ? t : head);
		free(t);
		pl_msg_release(&m);
	}
}

static int metric_present(const struct pl_comparison *cmp, int m)
{
	if (m < 0 || m >= PL_METRIC_COUNT)
		return 0;
	for (size_t r = 0; r < cmp->nrows; r++)
		if (cmp->rows[r].n_metric[m])
			return 1;
	return 0;
}

static size_t present_metrics(const struct pl_comparison *cmp, const struct chart_def *def,
                              int out[2])
{
	size_t n = 0;

	for (int i = 0; i < 2; i++)
		if (metric_present(cmp, def->metrics[i]))
			out[n++] = def->metrics[i];
	return n;
}

/* A label as a gnuplot data string: backslashes doubled; '"' becomes '\''
 * because gnuplot's data reader ends a string at any '"' (\" does not
 * escape it); control characters, bidi overrides and invalid UTF-8
 * become spaces. */
static void write_dat_label(FILE *fp, const char *s)
{
	size_t n = strlen(s);

	fputc('"', fp);
	while (n > 0) {
		unsigned long cp;
		size_t k = pl_utf8_decode(s, n, &cp);
		if (k == 0) {
			fputc(' ', fp);
			k = 1;
		} else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
		           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
			fputc(' ', fp);
		} else if (cp == '\\') {
			fputs("\\\\", fp);
		} else if (cp == '"') {
			fputc('\'', fp);
		} else {
			fwrite(s, 1, k, fp);
		}
		s += k;
		n -= k;
	}
	fputc('"', fp);
}

static int write_dat(FILE *fp, void *ctx, struct pl_error *err)
{
	const struct chart_job *job = ctx;
	const struct pl_comparison *cmp = job->cmp;
	char label[1024], num[40];

	(void)err;
	fputs("# perfledger chart data: label", fp);
	for (size_t i = 0; i < job->nmetrics; i++)
		fprintf(fp, "\t%s (%s)", pl_metric_info[job->metrics[i]].name,
		        pl_unit_label(pl_metric_info[job->metrics[i]].unit));
	fputc('\n', fp);
	for (size_t r = 0; r < cmp->nrows; r++) {
		write_dat_label(fp, pl_render_row_label(cmp, r, label, sizeof(label)));
		for (size_t i = 0; i < job->nmetrics; i++) {
			int m = job->metrics[i];
			fputc('\t', fp);
			if (cmp->rows[r].n_metric[m] && pl_range_holds(m, cmp->rows[r].metric[m]))
				fputs(pl_fmt_num(num, sizeof(num), cmp->rows[r].metric[m]), fp);
			else
				fputs("NaN", fp);
		}
		fputc('\n', fp);
	}
	/* a value outside its plausible range (a ledger edited outside
	 * perfledger: import and merge refuse one) is left out, not drawn: one
	 * 1e308 bar would flatten every other and overflow the axis */
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 0; i < job->nmetrics; i++) {
			int m = job->metrics[i];
			if (cmp->rows[r].n_metric[m] && !pl_range_holds(m, cmp->rows[r].metric[m]))
				fprintf(fp, "# row %zu: %s left out, outside its plausible range "
				            "(schema/ranges.tsv)\n",
				        r + 1, pl_metric_info[m].name);
		}
	return ferror(fp) ? PL_EIO : 0;
}

#define PLOT_COLUMN_ROWS 6 /* more rows: horizontal bars */

/* The script's last lines: the same chart as PNG. */
static void write_gp_png(FILE *fp, const char *name, int height)
{
	fprintf(fp,
	        "\n"
	        "set terminal pngcairo size 900,%d noenhanced font \"sans,10\" background rgb \"white\"\n"
	        "set termoption noenhanced\n"
	        "set output '%s.png'\n"
	        "replot\n"
	        "set output\n",
	        height, name);
}

/* The script of a chart of more than PLOT_COLUMN_ROWS rows: horizontal
 * bars (boxxyerror from 0 to the value), the first row at the top, each
 * row's label level at its left (ytic(1)), one band of 0.8 per row shared
 * by its one or two metrics. 20 px a bar, 500 px at least: turned 45 or
 * 90 degrees below columns, 16 labels of 60 characters took the chart's
 * height and piled the value axis's numbers on each other. */
static int write_gp_rows(FILE *fp, const struct chart_job *job, const char *ylabel)
{
	const char *name = job->def->name;
	size_t n = job->cmp->nrows;
	double half = 0.4 / (double)job->nmetrics; /* half a bar's thickness, in rows */
	int height = 120 + (int)(n * job->nmetrics) * 20;

	height = height < 500 ? 500 : height;
	fprintf(fp,
	        "# perfledger chart: %s\n"
	        "# re-plot with: gnuplot %s.gp (reads %s.dat, writes %s.svg and %s.png)\n"
	        "set encoding utf8\n"
	        "set terminal svg size 900,%d noenhanced font \"sans,10\" background rgb \"white\"\n"
	        "set termoption noenhanced\n"
	        "set output '%s.svg'\n"
	        "set datafile separator \"\\t\"\n"
	        "set datafile missing \"NaN\"\n"
	        "set style fill solid 0.85 border -1\n"
	        "set grid xtics\n"
	        "%s"
	        "set xrange [0:*]\n"
	        "set yrange [%zu.5:-0.5]\n"
	        "set ytics scale 0\n"
	        "set title \"%s\"\n"
	        "set xlabel \"%s\"\n",
	        job->title, name, name, name, name, height, name,
	        job->nmetrics > 1 ? "set key outside top center horizontal\n" : "set key off\n",
	        n - 1, job->title, ylabel);
	for (size_t i = 0; i < job->nmetrics; i++)
		fprintf(fp, "%s'%s.dat' using (column(%zu)/2):($0%+.2f):(column(%zu)/2):(%.2f)%s "
		            "with boxxyerror title \"%s\"",
		        i ? ", " : "plot ", name, i + 2, (2.0 * (double)i + 1.0) * half - 0.4, i + 2, half,
		        i ? "" : ":ytic(1)", pl_metric_info[job->metrics[i]].name);
	write_gp_png(fp, name, height);
	return ferror(fp) ? PL_EIO : 0;
}

/* The script: only our strings (chart names, titles, metric names). */
static int write_gp(FILE *fp, void *ctx, struct pl_error *err)
{
	const struct chart_job *job = ctx;
	const char *name = job->def->name;
	const char *ylabel = pl_word(job->def->seconds ? PL_MSG_W_PLOT_AXIS_S : PL_MSG_W_PLOT_AXIS_TOKS,
	                             job->zh ? PL_LANG_ZH : PL_LANG_EN);
	/* tick labels turned 20 degrees (more rows are horizontal bars).
	 * Turned counter-clockwise and right-aligned, a label ends at its tic
	 * and runs down and to the left, below the axis: turned clockwise and
	 * right-aligned it ran up into the bars, cut to its last characters */
	int rot = 20;

	(void)err;
	if (job->cmp->nrows > PLOT_COLUMN_ROWS)
		return write_gp_rows(fp, job, ylabel);
	fprintf(fp,
	        "# perfledger chart: %s\n"
	        "# re-plot with: gnuplot %s.gp (reads %s.dat, writes %s.svg and %s.png)\n"
	        "set encoding utf8\n"
	        "set terminal svg size 900,500 noenhanced font \"sans,10\" background rgb \"white\"\n"
	        "set termoption noenhanced\n"
	        "set output '%s.svg'\n"
	        "set datafile separator \"\\t\"\n"
	        "set datafile missing \"NaN\"\n"
	        "set style data histogram\n"
	        "set style histogram clustered gap 1\n"
	        "set style fill solid 0.85 border -1\n"
	        "set grid ytics\n"
	        "%s"
	        "set yrange [0:*]\n"
	        "set xtics rotate by %d%s\n"
	        "set title \"%s\"\n"
	        "set ylabel \"%s\"\n"
	        "plot '%s.dat' using 2:xtic(1) title \"%s\"",
	        job->title, name, name, name, name, name,
	        /* a legend only where the colours mean something: two metrics */
	        job->nmetrics > 1 ? "set key outside top center horizontal\n" : "set key off\n", rot, " right",
	        job->title, ylabel, name, pl_metric_info[job->metrics[0]].name);
	for (size_t i = 1; i < job->nmetrics; i++)
		fprintf(fp, ", '' using %zu title \"%s\"", i + 2, pl_metric_info[job->metrics[i]].name);
	write_gp_png(fp, name, 500);
	return ferror(fp) ? PL_EIO : 0;
}

/* Outcome of one gnuplot run. */
enum run_result { RUN_OK, RUN_NOT_FOUND, RUN_FAILED, RUN_TIMED_OUT };

/* The program to run: $PERFLEDGER_GNUPLOT or "gnuplot". A relative path
 * with a '/' is made absolute, because the child changes directory. */
static char *gnuplot_program(void)
{
	const char *env = getenv("PERFLEDGER_GNUPLOT");
	char cwd[4096];

	if (!env || !*env)
		return strdup("gnuplot");
	if (env[0] != '/' && strchr(env, '/') && getcwd(cwd, sizeof(cwd)))
		return pl_fs_path(cwd, env);
	return strdup(env);
}

/* Runs `prog arg1 arg2` in dir through util's spawner (no shell, stdin
 * from /dev/null, prog found in PATH's absolute entries before the child
 * enters dir, killed after pl_spawn_timeout_setting() seconds). The first bytes of its
 * output (stdout and stderr) go to capture (size capn; may be NULL). On
 * failure writes a short reason to msg. */
static enum run_result run_prog(const char *prog, const char *dir, const char *arg1,
                                const char *arg2, char *capture, size_t capn, char *msg,
                                size_t msgn)
{
	const char *script = arg2 ? arg2 : arg1; /* named in messages */
	const char *argv[4] = {prog, arg1, arg2, NULL};
	struct pl_spawn_opts o = {0};
	struct pl_buf out;
	struct pl_error err;
	enum pl_spawn_end end;
	int detail = 0, status;

	msg[0] = '\0';
	pl_buf_init(&out);
	pl_error_init(&err);
	if (pl_spawn_timeout_setting(&o.timeout_s, &err) != 0) {
		snprintf(msg, msgn, "%s", err.message);
		return RUN_FAILED;
	}
	o.argv = argv;
	o.dir = dir;
	o.out = &out;
	o.errout = &out;
	o.max_capture = 511;
	status = pl_spawn_run(&o, &end, &detail, &err);
	if (capture && capn) {
		size_t keep = out.len < capn - 1 ? out.len : capn - 1;
		memcpy(capture, out.data, keep);
		capture[keep] = '\0';
	}
	if (status == 0) {
		pl_buf_release(&out);
		return RUN_OK;
	}
	if (status < 0 && end == PL_SPAWN_NOT_FOUND) {
		pl_buf_release(&out);
		return RUN_NOT_FOUND;
	}
	if (status > 0) {
		/* First line of gnuplot's complaint, made terminal-safe. */
		char *nl, *safe;
		const char *first = out.data;
		while (*first == '\n' || *first == ' ')
			first++;
		nl = strchr(first, '\n');
		if (nl)
			*nl = '\0';
		safe = pl_text_sanitize(first);
		snprintf(msg, msgn, "gnuplot failed on '%s' (exit status %d)%s%s", script, status,
		         safe && *safe ? ": " : "", safe ? safe : "");
		free(safe);
	} else if (end == PL_SPAWN_SIGNALED) {
		snprintf(msg, msgn, "gnuplot failed on '%s' (signal %d)", script, detail);
	} else if (end == PL_SPAWN_TIMED_OUT) {
		snprintf(msg, msgn,
		         "gnuplot was killed after %d s on '%s' (PERFLEDGER_CHILD_TIMEOUT sets the limit)",
		         detail, script);
		pl_buf_release(&out);
		return RUN_TIMED_OUT;
	} else if (msgn) { /* util's message, cut to fit */
		size_t k = strlen(err.message);
		k = k < msgn - 1 ? k : msgn - 1;
		memcpy(msg, err.message, k);
		msg[k] = '\0';
	}
	pl_buf_release(&out);
	return RUN_FAILED;
}

/* Runs `prog -d script` in dir. On failure writes a short reason to msg. */
static enum run_result run_gnuplot(const char *prog, const char *dir, const char *script, char *msg,
                                   size_t msgn)
{
	return run_prog(prog, dir, "-d", script, NULL, 0, msg, msgn);
}

int pl_plot_gnuplot_version(char *buf, size_t n)
{
	char *prog = gnuplot_program(), msg[256], out[256];
	enum run_result r;
	size_t len;

	if (n)
		buf[0] = '\0';
	if (!prog)
		return -1;
	r = run_prog(prog, ".", "--version", NULL, out, sizeof(out), msg, sizeof(msg));
	free(prog);
	if (r != RUN_OK)
		return -1;
	len = strcspn(out, "\r\n");
	out[len] = '\0';
	while (len > 0 && out[len - 1] == ' ')
		out[--len] = '\0';
	for (size_t i = 0; i < len; i++) /* printable ASCII only: it goes into JSON and a terminal */
		if ((unsigned char)out[i] < 0x20 || (unsigned char)out[i] > 0x7e)
			out[i] = '?';
	if (len == 0)
		return -1;
	snprintf(buf, n, "%s", out);
	return 0;
}

static int nonempty_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* Writes "<dir>/<name><ext>" through fn. */
static int write_chart_file(const char *dir, const char *name, const char *ext,
                            int (*fn)(FILE *, void *, struct pl_error *), struct chart_job *job,
                            struct pl_error *err)
{
	char file[96];
	char *path;
	int rc;

	snprintf(file, sizeof(file), "%s%s", name, ext);
	path = pl_fs_path(dir, file);
	if (!path)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	rc = pl_fs_write_atomic(path, fn, job, err);
	free(path);
	return rc;
}

/* Removes "<dir>/<name><ext>" if it exists; 1 if it is then a non-empty
 * file (check mode: remove == 0). */
static int chart_output(const char *dir, const char *name, const char *ext, int remove_it)
{
	char file[96];
	char *path;
	int ok = 0;

	snprintf(file, sizeof(file), "%s%s", name, ext);
	path = pl_fs_path(dir, file);
	if (!path)
		return 0;
	if (remove_it)
		remove(path);
	else
		ok = nonempty_file(path);
	free(path);
	return ok;
}

int pl_plot_comparison(const char *dir, const struct pl_comparison *cmp, struct pl_chart **charts,
                       size_t *ncharts, struct pl_error *err)
{
	return pl_plot_comparison_lang(dir, cmp, "en", charts, ncharts, err);
}

int pl_plot_comparison_lang(const char *dir, const struct pl_comparison *cmp, const char *lang,
                            struct pl_chart **charts, size_t *ncharts, struct pl_error *err)
{
	size_t ndefs = sizeof(chart_defs) / sizeof(chart_defs[0]);
	struct chart_job jobs[sizeof(chart_defs) / sizeof(chart_defs[0])];
	struct pl_chart *out;
	size_t njobs = 0;
	char *prog = NULL;
	int rc = 0, missing = 0;

	if (charts)
		*charts = NULL;
	if (ncharts)
		*ncharts = 0;
	for (size_t i = 0; i < ndefs; i++) {
		struct chart_job *job = &jobs[njobs];
		job->cmp = cmp;
		job->def = &chart_defs[i];
		job->nmetrics = present_metrics(cmp, job->def, job->metrics);
		if (job->nmetrics == 0 && strcmp(job->def->name, "tpot") == 0) {
			job->def = &itl_def;
			job->nmetrics = present_metrics(cmp, job->def, job->metrics);
		}
		if (job->nmetrics > 0) {
			job->zh = lang && strcmp(lang, "zh-CN") == 0;
			job_title(job);
			njobs++;
		} else {
			/* not drawn this time: a chart left by an earlier render into the
			 * same directory would otherwise pass for this one's */
			static const char *const exts[] = {".gp", ".dat", ".svg", ".png"};
			for (size_t e = 0; e < 4; e++)
				chart_output(dir, chart_defs[i].name, exts[e], 1);
		}
	}
	/* every drawn chart's old images go before gnuplot runs, so a failed or
	 * missing gnuplot never leaves a stale picture beside new data */
	for (size_t i = 0; i < njobs; i++) {
		chart_output(dir, jobs[i].def->name, ".svg", 1);
		chart_output(dir, jobs[i].def->name, ".png", 1);
	}
	out = calloc(njobs ? njobs : 1, sizeof(*out));
	if (!out)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	for (size_t i = 0; i < njobs; i++) {
		snprintf(out[i].name, sizeof(out[i].name), "%s", jobs[i].def->name);
		snprintf(out[i].title, sizeof(out[i].title), "%s", jobs[i].title);
		rc = write_chart_file(dir, jobs[i].def->name, ".dat", write_dat, &jobs[i], err);
		if (rc == 0)
			rc = write_chart_file(dir, jobs[i].def->name, ".gp", write_gp, &jobs[i], err);
		if (rc != 0) {
			free(out);
			return rc;
		}
	}
	if (njobs > 0) {
		prog = gnuplot_program();
		if (!prog) {
			free(out);
			return pl_error_set(err, PL_ENOMEM, "out of memory");
		}
	}
	for (size_t i = 0; i < njobs && !missing; i++) {
		const char *name = jobs[i].def->name;
		char script[96], msg[400];
		enum run_result res;

		snprintf(script, sizeof(script), "%s.gp", name);
		res = run_gnuplot(prog, dir, script, msg, sizeof(msg));
		if (res == RUN_NOT_FOUND) {
			missing = 1;
			rc = pl_error_set(err, PL_ETOOL, "%s", GNUPLOT_MISSING_MSG);
		} else if (res == RUN_FAILED || res == RUN_TIMED_OUT) {
			if (rc == 0)
				rc = pl_error_set(err, PL_ETOOL, "%s", msg);
			if (res == RUN_TIMED_OUT)
				missing = 1; /* one hang is enough: the next chart would hang too */
		} else if (!chart_output(dir, name, ".svg", 0) || !chart_output(dir, name, ".png", 0)) {
			if (rc == 0)
				rc = pl_error_set(err, PL_ETOOL,
				                  "gnuplot did not write '%s.svg' and '%s.png' in '%s'", name,
				                  name, dir);
		} else {
			out[i].rendered = 1;
		}
	}
	free(prog);
	if (charts)
		*charts = out;
	else
		free(out);
	if (ncharts)
		*ncharts = njobs;
	return rc;
}

/* Runs gnuplot on "<dir>/<name>.gp" (which must write <name>.svg and
 * <name>.png) with the same program, argv, directory and checks as the
 * comparison charts. For other chart writers (history_plot.c); declared in
 * render_impl.h. */
int pl_plot_run_script(const char *dir, const char *name, struct pl_error *err)
{
	char *prog = gnuplot_program();
	char script[96], msg[400];
	enum run_result res;

	if (!prog)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	snprintf(script, sizeof(script), "%s.gp", name);
	chart_output(dir, name, ".svg", 1);
	chart_output(dir, name, ".png", 1);
	res = run_gnuplot(prog, dir, script, msg, sizeof(msg));
	free(prog);
	if (res == RUN_NOT_FOUND)
		return pl_error_set(err, PL_ETOOL, "%s", GNUPLOT_MISSING_MSG);
	if (res == RUN_FAILED || res == RUN_TIMED_OUT)
		return pl_error_set(err, PL_ETOOL, "%s", msg);
	if (!chart_output(dir, name, ".svg", 0) || !chart_output(dir, name, ".png", 0))
		return pl_error_set(err, PL_ETOOL, "gnuplot did not write '%s.svg' and '%s.png' in '%s'",
		                    name, name, dir);
	return 0;
}
