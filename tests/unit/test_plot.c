/*
 * test_plot.c — gnuplot charts: the exact .dat and .gp files, hostile labels
 * kept out of the script, real SVG/PNG output, and a missing or failing
 * gnuplot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/plot.h"

#include "render_fixture.h"

#define PLOT_DIR PL_TEST_TMP "/plot"

static const char golden_ttft_dat[] =
	"# perfledger chart data: label\tttft_p50 (s)\tttft_p95 (s)\n"
	"\"2x NVIDIA A100 80G\"\t0.32\t0.41\n"
	"\"1x NVIDIA H100 80G\"\t0.25\tNaN\n"
	"\"evil'`system('rm')` |<script>=1+1\"\t0.5\t0.75\n";

static const char golden_ttft_gp[] =
	"# perfledger chart: TTFT p50 / p95 (s)\n"
	"# re-plot with: gnuplot ttft.gp (reads ttft.dat, writes ttft.svg and ttft.png)\n"
	"set encoding utf8\n"
	"set terminal svg size 900,500 noenhanced font \"sans,10\" background rgb \"white\"\n"
	"set termoption noenhanced\n"
	"set output 'ttft.svg'\n"
	"set datafile separator \"\\t\"\n"
	"set datafile missing \"NaN\"\n"
	"set style data histogram\n"
	"set style histogram clustered gap 1\n"
	"set style fill solid 0.85 border -1\n"
	"set grid ytics\n"
	"set key outside top center horizontal\n"
	"set yrange [0:*]\n"
	"set xtics rotate by 20 right\n"
	"set title \"TTFT p50 / p95 (s)\"\n"
	"set ylabel \"seconds\"\n"
	"plot 'ttft.dat' using 2:xtic(1) title \"ttft_p50\", '' using 3 title \"ttft_p95\"\n"
	"set terminal pngcairo size 900,500 noenhanced font \"sans,10\" background rgb \"white\"\n"
	"set termoption noenhanced\n"
	"set output 'ttft.png'\n"
	"replot\n"
	"set output\n";

/* More than 6 rows: horizontal bars, the first row at the top, the labels
 * level at their bars' left (read as data through ytic(1)); 7 rows of two
 * metrics at 20 px a bar take 400 px, so the canvas keeps its 500. */
static const char golden_rows_gp[] =
	"# perfledger chart: TTFT p50 / p95 (s)\n"
	"# re-plot with: gnuplot ttft.gp (reads ttft.dat, writes ttft.svg and ttft.png)\n"
	"set encoding utf8\n"
	"set terminal svg size 900,500 noenhanced font \"sans,10\" background rgb \"white\"\n"
	"set termoption noenhanced\n"
	"set output 'ttft.svg'\n"
	"set datafile separator \"\\t\"\n"
	"set datafile missing \"NaN\"\n"
	"set style fill solid 0.85 border -1\n"
	"set grid xtics\n"
	"set key outside top center horizontal\n"
	"set xrange [0:*]\n"
	"set yrange [6.5:-0.5]\n"
	"set ytics scale 0\n"
	"set title \"TTFT p50 / p95 (s)\"\n"
	"set xlabel \"seconds\"\n"
	"plot 'ttft.dat' using (column(2)/2):($0-0.20):(column(2)/2):(0.20):ytic(1) with boxxyerror "
	"title \"ttft_p50\", 'ttft.dat' using (column(3)/2):($0+0.20):(column(3)/2):(0.20) with "
	"boxxyerror title \"ttft_p95\"\n"
	"set terminal pngcairo size 900,500 noenhanced font \"sans,10\" background rgb \"white\"\n"
	"set termoption noenhanced\n"
	"set output 'ttft.png'\n"
	"replot\n"
	"set output\n";

static char *read_in(const char *dir, const char *name)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fx_slurp(path);
}

static long size_in(const char *dir, const char *name)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fx_file_size(path);
}

static int setup(void **state)
{
	(void)state;
	unsetenv("PERFLEDGER_GNUPLOT");
	fx_fresh_dir(PLOT_DIR);
	return 0;
}

/* Seven rows (the fixture's three repeated): the script of horizontal
 * bars, and the tpot chart's one metric a bar of 0.8 rows. Before, seven
 * rows were columns with their labels turned 45 degrees (90 past 12), which
 * took the chart's height when the labels were long. */
static void test_many_rows_horizontal(void **state)
{
	static struct pl_compare_row rows[7];
	struct pl_comparison cmp;
	struct pl_chart *charts = NULL;
	size_t n = 0;
	struct pl_error err;
	char *s;

	(void)state;
	pl_error_init(&err);
	fixture_comparison(&cmp);
	for (size_t i = 0; i < 7; i++)
		rows[i] = cmp.rows[i % 3];
	cmp.rows = rows;
	cmp.nrows = 7;
	assert_int_equal(pl_plot_comparison(PLOT_DIR, &cmp, &charts, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(charts[0].rendered, 1);
	free(charts);
	s = read_in(PLOT_DIR, "ttft.gp");
	assert_non_null(s);
	assert_string_equal(s, golden_rows_gp);
	free(s);
	s = read_in(PLOT_DIR, "tpot.gp");
	assert_non_null(s);
	assert_non_null(strstr(s, "set key off\n"));
	assert_non_null(strstr(s, "plot 'tpot.dat' using (column(2)/2):($0+0.00):(column(2)/2):(0.40)"
	                          ":ytic(1) with boxxyerror title \"tpot_p50\"\n"));
	free(s);
	s = read_in(PLOT_DIR, "ttft.svg");
	assert_non_null(s);
	assert_non_null(strstr(s, "<svg"));
	free(s);
}

static void test_charts_rendered(void **state)
{
	static const char *const names[] = {"ttft", "tpot", "throughput"};
	struct pl_comparison cmp;
	struct pl_chart *charts = NULL;
	size_t n = 0;
	struct pl_error err;
	char *s;

	(void)state;
	pl_error_init(&err);
	fixture_comparison(&cmp);
	assert_int_equal(pl_plot_comparison(PLOT_DIR, &cmp, &charts, &n, &err), 0);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++) {
		char file[64];
		assert_string_equal(charts[i].name, names[i]);
		assert_int_equal(charts[i].rendered, 1);
		snprintf(file, sizeof(file), "%s.svg", names[i]);
		s = read_in(PLOT_DIR, file);
		assert_non_null(s);
		assert_non_null(strstr(s, "<svg"));
		free(s);
		snprintf(file, sizeof(file), "%s.png", names[i]);
		s = read_in(PLOT_DIR, file);
		assert_non_null(s);
		assert_true(size_in(PLOT_DIR, file) > 8);
		assert_memory_equal(s, "\x89PNG\r\n\x1a\n", 8);
		free(s);
	}
	/* titles name only the metrics drawn: the fixture has no TPOT p95 */
	assert_string_equal(charts[0].title, "TTFT p50 / p95 (s)");
	assert_string_equal(charts[1].title, "TPOT p50 (s)");
	assert_string_equal(charts[2].title, "Output throughput (tok/s)");
	free(charts);

	s = read_in(PLOT_DIR, "ttft.dat");
	assert_non_null(s);
	assert_string_equal(s, golden_ttft_dat);
	free(s);
	s = read_in(PLOT_DIR, "ttft.gp");
	assert_non_null(s);
	assert_string_equal(s, golden_ttft_gp);
	free(s);
	s = read_in(PLOT_DIR, "tpot.dat");
	assert_non_null(s);
	assert_string_equal(s, "# perfledger chart data: label\ttpot_p50 (s)\n"
	                       "\"2x NVIDIA A100 80G\"\t0.021\n"
	                       "\"1x NVIDIA H100 80G\"\t0.018\n"
	                       "\"evil'`system('rm')` |<script>=1+1\"\tNaN\n");
	free(s);

	/* No label text in any script; the SVG shows it as inert text. */
	for (size_t i = 0; i < 3; i++) {
		char file[64];
		snprintf(file, sizeof(file), "%s.gp", names[i]);
		s = read_in(PLOT_DIR, file);
		assert_non_null(s);
		assert_null(strstr(s, "evil"));
		assert_null(strstr(s, "system"));
		assert_null(strstr(s, "script"));
		assert_null(strstr(s, "NVIDIA"));
		free(s);
	}
	s = read_in(PLOT_DIR, "ttft.svg");
	assert_non_null(strstr(s, "<text>evil'`system('rm')` |&lt;script>=1+1</text>"));
	assert_non_null(strstr(s, "<text>ttft_p50</text>"));
	free(s);
	/* Nothing left under a temporary name. */
	assert_int_equal(size_in(PLOT_DIR, "ttft.gp.tmp"), -1);
	assert_int_equal(size_in(PLOT_DIR, "ttft.dat.tmp"), -1);
}

static void test_label_escaping(void **state)
{
	static struct pl_compare_row rows[1];
	static long long ids[] = {7};
	struct pl_comparison cmp;
	struct pl_error err;
	char *s;

	(void)state;
	memset(&cmp, 0, sizeof(cmp));
	memset(rows, 0, sizeof(rows));
	cmp.axis[0] = PL_C_ENGINE_VERSION;
	cmp.naxis = 1;
	fx_set(&rows[0].axis[PL_C_ENGINE_VERSION], "a\\b\"c\td\re\x1b[2Jf\xff@^_{x}中", 0);
	rows[0].n = 1;
	rows[0].run_ids = ids;
	fx_metric(&rows[0], PL_M_OUTPUT_THROUGHPUT, 12.5);
	cmp.rows = rows;
	cmp.nrows = 1;
	pl_error_init(&err);
	assert_int_equal(pl_plot_comparison(PLOT_DIR, &cmp, NULL, NULL, &err), 0);
	s = read_in(PLOT_DIR, "throughput.dat");
	assert_non_null(s);
	assert_string_equal(s, "# perfledger chart data: label\toutput_throughput (tok/s)\n"
	                       "\"a\\\\b'c d e [2Jf @^_{x}中\"\t12.5\n");
	free(s);
	s = read_in(PLOT_DIR, "throughput.svg");
	assert_non_null(s);
	assert_non_null(strstr(s, "<text>a\\b'c d e [2Jf @^_{x}中</text>"));
	free(s);
	/* Only a throughput chart: no TTFT/TPOT data at all. */
	assert_int_equal(size_in(PLOT_DIR, "ttft.gp"), -1);
	assert_int_equal(size_in(PLOT_DIR, "tpot.gp"), -1);
}

static void test_itl_fallback_and_empty(void **state)
{
	static struct pl_compare_row rows[1];
	static long long ids[] = {1};
	struct pl_comparison cmp;
	struct pl_chart *charts = NULL;
	size_t n = 0;
	struct pl_error err;
	char *s;

	(void)state;
	memset(&cmp, 0, sizeof(cmp));
	memset(rows, 0, sizeof(rows));
	cmp.axis[0] = PL_C_HARDWARE;
	cmp.naxis = 1;
	fx_set(&rows[0].axis[PL_C_HARDWARE], "x", 0);
	rows[0].n = 1;
	rows[0].run_ids = ids;
	cmp.rows = rows;
	cmp.nrows = 1;
	pl_error_init(&err);
	assert_int_equal(pl_plot_comparison(PLOT_DIR, &cmp, &charts, &n, &err), 0);
	assert_int_equal(n, 0);
	free(charts);

	fx_metric(&rows[0], PL_M_ITL_P50, 0.02);
	assert_int_equal(pl_plot_comparison(PLOT_DIR, &cmp, &charts, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(charts[0].name, "tpot");
	assert_string_equal(charts[0].title, "ITL p50 (s)");
	free(charts);
	s = read_in(PLOT_DIR, "tpot.gp");
	assert_non_null(strstr(s, "plot 'tpot.dat' using 2:xtic(1) title \"itl_p50\"\n"));
	free(s);
	/* the TTFT chart of an earlier render into the same directory is gone */
	fx_fresh_dir(PLOT_DIR);
	fx_metric(&rows[0], PL_M_TTFT_P50, 0.3);
	assert_int_equal(pl_plot_comparison(PLOT_DIR, &cmp, &charts, &n, &err), 0);
	free(charts);
	assert_true(size_in(PLOT_DIR, "ttft.gp") > 0);
	assert_true(size_in(PLOT_DIR, "ttft.png") > 0);
	rows[0].n_metric[PL_M_TTFT_P50] = 0;
	assert_int_equal(pl_plot_comparison(PLOT_DIR, &cmp, &charts, &n, &err), 0);
	assert_int_equal(n, 1);
	free(charts);
	assert_true(size_in(PLOT_DIR, "ttft.gp") < 0);
	assert_true(size_in(PLOT_DIR, "ttft.dat") < 0);
	assert_true(size_in(PLOT_DIR, "ttft.svg") < 0);
	assert_true(size_in(PLOT_DIR, "ttft.png") < 0);
	assert_true(size_in(PLOT_DIR, "tpot.png") > 0);
}

static void test_gnuplot_missing(void **state)
{
	struct pl_comparison cmp;
	struct pl_chart *charts = NULL;
	size_t n = 0;
	struct pl_error err;

	(void)state;
	pl_error_init(&err);
	fixture_comparison(&cmp);
	setenv("PERFLEDGER_GNUPLOT", "/nonexistent/gnuplot", 1);
	assert_int_equal(pl_plot_comparison(PLOT_DIR, &cmp, &charts, &n, &err), PL_ETOOL);
	unsetenv("PERFLEDGER_GNUPLOT");
	assert_int_equal(err.code, PL_ETOOL);
	assert_string_equal(err.message, "gnuplot not found; install it with 'apt-get install "
	                                 "gnuplot-nox' (the .gp and .dat files are written)");
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(charts[i].rendered, 0);
	free(charts);
	assert_true(size_in(PLOT_DIR, "ttft.gp") > 0);
	assert_true(size_in(PLOT_DIR, "ttft.dat") > 0);
	assert_true(size_in(PLOT_DIR, "throughput.gp") > 0);
	assert_int_equal(size_in(PLOT_DIR, "ttft.svg"), -1);
	assert_int_equal(size_in(PLOT_DIR, "ttft.png"), -1);
}

static void test_gnuplot_fails(void **state)
{
	struct pl_comparison cmp;
	struct pl_error err;

	(void)state;
	pl_error_init(&err);
	fixture_comparison(&cmp);
	setenv("PERFLEDGER_GNUPLOT", "false", 1);
	assert_int_equal(pl_plot_comparison(PLOT_DIR, &cmp, NULL, NULL, &err), PL_ETOOL);
	unsetenv("PERFLEDGER_GNUPLOT");
	assert_string_equal(err.message, "gnuplot failed on 'ttft.gp' (exit status 1)");
	/* A "gnuplot" that exits 0 but writes nothing is a failure too. */
	setenv("PERFLEDGER_GNUPLOT", "true", 1);
	assert_int_equal(pl_plot_comparison(PLOT_DIR, &cmp, NULL, NULL, &err), PL_ETOOL);
	unsetenv("PERFLEDGER_GNUPLOT");
	assert_string_equal(err.message,
	                    "gnuplot did not write 'ttft.svg' and 'ttft.png' in '" PLOT_DIR "'");
}

static void test_bad_dir(void **state)
{
	struct pl_comparison cmp;
	struct pl_error err;

	(void)state;
	pl_error_init(&err);
	fixture_comparison(&cmp);
	assert_int_equal(pl_plot_comparison(PLOT_DIR "/no/such/dir", &cmp, NULL, NULL, &err), PL_EIO);
	assert_string_equal(err.message, "cannot write '" PLOT_DIR
	                                 "/no/such/dir/ttft.dat.tmp': No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_charts_rendered, setup),
		cmocka_unit_test_setup(test_many_rows_horizontal, setup),
		cmocka_unit_test_setup(test_label_escaping, setup),
		cmocka_unit_test_setup(test_itl_fallback_and_empty, setup),
		cmocka_unit_test_setup(test_gnuplot_missing, setup),
		cmocka_unit_test_setup(test_gnuplot_fails, setup),
		cmocka_unit_test_setup(test_bad_dir, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
