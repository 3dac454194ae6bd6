/*
 * test_report_charts.c — the report's own SVG charts (svg.c) and the zh-CN
 * caveats (i18n.c): points joined in x order, point labels placed apart
 * from each other, from the markers and, where they can, from the lines, one marker shape per series, SLO
 * lines kept on the chart, horizontal bars with wrapped labels, a legend
 * only where colours mean something, the site's timelines (chart and
 * sparkline) and the Chinese caveat frames. The
 * coordinates are worked out in the comments (svg.c: plot x 70..700,
 * y 360..40).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/model.h"
#include "render/i18n.h"
#include "render/svg.h"

static const double xs[] = {3, 1, 2}, ys[] = {30, 10, 20};
static const char *const point_labels[] = {"c=3", "c=1", "c=2"};

/* x axis 0..4 (step 1, 3 * 1.05 rounded up), y axis 0..40: x 1, 2, 3 ->
 * 227.5, 385, 542.5 (rounded half away from zero); y 10, 20, 30 -> 280,
 * 200, 120. */
static void test_joined_in_x_order(void **state)
{
	struct pl_svg_series se = {.name = "A", .x = xs, .y = ys, .label = point_labels, .n = 3};
	struct pl_svg_xy c = {.title = "t", .xlabel = "x", .ylabel = "y", .lines = 1, .sort_x = 1,
	                      .series = &se, .nseries = 1};
	char *svg = pl_svg_xy_chart(&c);

	(void)state;
	assert_non_null(svg);
	assert_non_null(strstr(svg, "points=\"228,280 385,200 543,120\""));
	/* c=3 right of and above its point, (x + 8, y - 7): its box x 551..570.8
	 * (3 columns * 0.6 * 11 px), y 104.2..115.2 is clear of the line, which
	 * ends at x 543 */
	assert_non_null(strstr(svg, "<text x=\"551\" y=\"113\" text-anchor=\"start\" font-size=\"11\" "
	                            "fill=\"#1f77b4\">c=3</text>"));
	/* c=1 there, box x 236..255.8, y 264.2..275.2, would cross the line
	 * rising from (228, 280) towards (385, 200), which is at y 275.2 at x
	 * 237.4: the label goes right and below, (x + 8, y + 15), clear of it */
	assert_non_null(strstr(svg, "<text x=\"236\" y=\"295\" text-anchor=\"start\" font-size=\"11\" "
	                            "fill=\"#1f77b4\">c=1</text>"));
	/* c=2 likewise: right and above, x 393..412.8, y 184.2..195.2, crosses the
	 * line to (543, 120) (y 195.2 at x 394.4); right and below is clear */
	assert_non_null(strstr(svg, "<text x=\"393\" y=\"215\" text-anchor=\"start\" font-size=\"11\" "
	                            "fill=\"#1f77b4\">c=2</text>"));
	free(svg);
	c.sort_x = 0; /* in the given order: the zigzag the Pareto chart used to draw */
	svg = pl_svg_xy_chart(&c);
	assert_non_null(strstr(svg, "points=\"543,120 228,280 385,200\""));
	free(svg);
}

/* Two offers measured at the same point: both markers drawn hollow in
 * their own shape (circle, square), the second label below the first.
 * x axis 0..1.2, y axis 0..15: (1, 10) -> (595, 146.67 -> 147). */
static void test_same_point_two_series(void **state)
{
	static const double x[] = {1}, y[] = {10};
	static const char *const la[] = {"a"}, *const lb[] = {"b"};
	struct pl_svg_series se[2] = {{.name = "A", .x = x, .y = y, .label = la, .n = 1},
	                              {.name = "B", .x = x, .y = y, .label = lb, .n = 1}};
	struct pl_svg_xy c = {.title = "t", .xlabel = "x", .ylabel = "y", .lines = 1, .series = se,
	                      .nseries = 2};
	char *svg = pl_svg_xy_chart(&c);

	(void)state;
	assert_non_null(svg);
	assert_non_null(strstr(svg, "<circle cx=\"595\" cy=\"147\" r=\"5\" fill=\"#fff\" "
	                            "stroke=\"#1f77b4\" stroke-width=\"2\"/>"));
	assert_non_null(strstr(svg, "<rect x=\"591\" y=\"143\" width=\"9\" height=\"9\" fill=\"#fff\" "
	                            "stroke=\"#d62728\" stroke-width=\"2\"/>"));
	assert_non_null(strstr(svg, "<text x=\"603\" y=\"140\" text-anchor=\"start\" font-size=\"11\" "
	                            "fill=\"#1f77b4\">a</text>"));
	/* (603, 140) is taken: the next place, (x + 8, y + 15) */
	assert_non_null(strstr(svg, "<text x=\"603\" y=\"162\" text-anchor=\"start\" font-size=\"11\" "
	                            "fill=\"#d62728\">b</text>"));
	free(svg);
}

/* An SLO limit above every point stays on the chart: y axis up to
 * 50 * 1.1 -> 60, the line at 360 - 50 / 60 * 320 = 93.3 -> 93. */
static void test_slo_line(void **state)
{
	static const double x[] = {1, 2}, y[] = {5, 10};
	struct pl_svg_series se = {.name = "A", .x = x, .y = y, .n = 2};
	struct pl_svg_hline hl = {50, "SLO: TTFT p95 <= 50 s"};
	struct pl_svg_xy c = {.title = "t", .xlabel = "x", .ylabel = "y", .lines = 1, .hlines = &hl,
	                      .nhlines = 1, .series = &se, .nseries = 1};
	char *svg = pl_svg_xy_chart(&c);

	(void)state;
	assert_non_null(svg);
	assert_non_null(strstr(svg, "<line x1=\"70\" y1=\"93\" x2=\"700\" y2=\"93\" stroke=\"#444\" "
	                            "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>"));
	assert_non_null(strstr(svg, "<text x=\"696\" y=\"89\" text-anchor=\"end\" font-size=\"12\" "
	                            "fill=\"#444\">SLO: TTFT p95 &lt;= 50 s</text>"));
	free(svg);
}

/* Horizontal bars: a long label wrapped at spaces into lines of at most
 * PL_SVG_LABEL_COLS columns, a note where a category has no value, a
 * legend only with two series. */
static void test_bars(void **state)
{
	static const char *const labels[] = {"ExampleCloud serverless API / cloud-api / examplecloud",
	                                     "1x AMD MI300X 192G"};
	static const char *const one[] = {"cost"}, *const two[] = {"ttft_p50", "ttft_p95"};
	static const char *const notes[] = {"no price", "-"};
	double v1[] = {NAN, 1.852}, v2[] = {0.1, 0.2, 0.3, 0.4};
	struct pl_svg_bars c = {"Cost", "cost", labels, 2, one, 1, v1, notes, NULL, NULL};
	char *svg = pl_svg_bars(&c);

	(void)state;
	assert_non_null(svg);
	assert_non_null(strstr(svg, ">ExampleCloud serverless API /</text>"));
	assert_non_null(strstr(svg, ">cloud-api / examplecloud</text>"));
	assert_non_null(strstr(svg, "fill=\"#666\">no price</text>"));
	assert_non_null(strstr(svg, ">1.852</text>"));
	assert_null(strstr(svg, "y=\"38\" width=\"12\"")); /* no legend: one colour */
	free(svg);
	c.series = two;
	c.nseries = 2;
	c.values = v2;
	c.notes = NULL;
	svg = pl_svg_bars(&c);
	assert_non_null(svg);
	/* a value printed as the tables print it, trailing zeros kept: 0.1000,
	 * not 0.1 beside a table that says 0.1000 */
	assert_non_null(strstr(svg, "font-size=\"11\">0.1000</text>"));
	assert_null(strstr(svg, "font-size=\"11\">0.1</text>"));
	/* the legend left-aligned with the plot (29 columns * 7.2 px + 16 =
	 * 225), under the title; an entry is 16 + 8 px a column + 24 wide */
	assert_non_null(strstr(svg, "<rect x=\"225\" y=\"38\" width=\"12\" height=\"12\" "
	                            "fill=\"#1f77b4\"/><text x=\"241\" y=\"49\">ttft_p50</text>"));
	assert_non_null(strstr(svg, "<rect x=\"329\" y=\"38\" width=\"12\" height=\"12\" "
	                            "fill=\"#d62728\"/><text x=\"345\" y=\"49\">ttft_p95</text>"));
	free(svg);
}

/* m worded in en and zh-CN is want_en and want_zh; m is released. */
static void check_caveat(struct pl_msg *m, const char *want_en, const char *want_zh)
{
	char *en = pl_i18n_msg(m, "en"), *zh = pl_i18n_msg(m, "zh-CN");

	assert_non_null(en);
	assert_non_null(zh);
	assert_string_equal(en, want_en);
	assert_string_equal(zh, want_zh);
	free(en);
	free(zh);
	pl_msg_release(m);
}

/* A reference-only caveat: row label, a of n runs, the checklist bits. */
static void ref_only(struct pl_msg *m, const char *label, int a, int n, const int *bits, size_t nb)
{
	struct pl_msg items[PL_CHK_COUNT];

	for (size_t k = 0; k < nb; k++)
		pl_msg_init(&items[k], (enum pl_msg_code)(PL_MSG_W_CHK_WEIGHTS_SOURCE + bits[k]));
	pl_msg_init(m, PL_MSG_CAV_REFERENCE_ONLY);
	pl_msg_text(m, label);
	pl_msg_int(m, a);
	pl_msg_int(m, n);
	pl_msg_msgs(m, items, nb);
	pl_msg_int(m, 0);
}

/* The caveats' codes in both languages: the zh-CN frames the English-text
 * matching this table replaced gave, byte for byte. */
static void test_caveats_zh(void **state)
{
	struct pl_msg m;
	static const int engine_warmup[] = {1, 6}, driver_ttft[] = {3, 7};
	const char *const vals[] = {"550.54", "560.1"};

	(void)state;
	ref_only(&m, "2x A100 / 16", 1, 3, engine_warmup, 2);
	check_caveat(&m, "2x A100 / 16: 1 of 3 runs are reference-only (missing: engine version, warm-up)",
	             "2x A100 / 16：3 次运行中有 1 次仅供参考（缺少：引擎版本、预热）");
	/* a row label with ": " in it is a label like any other */
	ref_only(&m, "a: b", 1, 1, driver_ttft, 2);
	check_caveat(&m, "a: b: 1 of 1 run is reference-only (missing: driver and CUDA versions, TTFT)",
	             "a: b：1 次运行中有 1 次仅供参考（缺少：驱动与 CUDA 版本、TTFT）");
	pl_msg_init(&m, PL_MSG_CAV_DIFFER_ALLOWED);
	pl_msg_field(&m, "driver_version");
	pl_msg_list(&m, vals, 2);
	check_caveat(&m, "conditions differ in driver_version: 550.54 vs 560.1 (allowed by --allow-mismatch)",
	             "条件不同：driver_version: 550.54 vs 560.1（经 --allow-mismatch 允许）");
	pl_msg_init(&m, PL_MSG_CAV_WORKLOAD_ALLOWED);
	pl_msg_int(&m, 7);
	pl_msg_field(&m, "input_tokens");
	pl_msg_text(&m, "512");
	pl_msg_num(&m, 300);
	pl_msg_code_arg(&m, PL_MSG_W_MEASURED_MEAN);
	check_caveat(&m,
	             "run 7 did not run the requested workload: input_tokens 512 requested vs 300 "
	             "measured mean (run 7) (more than 10% apart; allowed by --allow-mismatch)",
	             "运行 7 未按要求的负载运行：input_tokens 512 要求，实际 300 实测均值 (运行 7)"
	             "（相差超过 10%；经 --allow-mismatch 允许）");
	assert_string_equal(pl_i18n_checklist_item(1, "zh-CN"), "引擎版本");
	assert_string_equal(pl_i18n_checklist_item(1, "en"), "engine version");
	assert_string_equal(pl_i18n_checklist_item(99, "zh-CN"), "?");
	/* the English checklist words are the core's, one for one */
	for (int k = 0; k < PL_CHK_COUNT; k++)
		assert_string_equal(pl_i18n_checklist_item(k, "en"), pl_checklist_item(k));
}

/* One colour and marker per offer: the first 32 styles are 32 distinct
 * (colour, shape) pairs, the first 8 as a series' index draws them
 * (circle, square, triangle, diamond in turn), and a series' style
 * overrides its index. */
static void test_offer_styles(void **state)
{
	char *marks[32];
	(void)state;
	for (size_t s = 0; s < 32; s++) {
		marks[s] = pl_svg_offer_mark(s);
		assert_non_null(marks[s]);
		for (size_t t = 0; t < s; t++)
			assert_string_not_equal(marks[s], marks[t]);
	}
	assert_non_null(strstr(marks[0], "<circle cx=\"0\" cy=\"0\" r=\"5\" fill=\"#fff\" stroke=\"#1f77b4\""));
	assert_non_null(strstr(marks[1], "<rect x=\"-4\" y=\"-4\" width=\"9\" height=\"9\" fill=\"#fff\" stroke=\"#d62728\""));
	assert_non_null(strstr(marks[4], "<circle") );
	assert_non_null(strstr(marks[4], "#ff7f0e"));
	/* style 8: the first colour again, with the next shape (a square) */
	assert_non_null(strstr(marks[8], "<rect"));
	assert_non_null(strstr(marks[8], "#1f77b4"));
	for (size_t s = 0; s < 32; s++)
		free(marks[s]);
	{ /* a series of style 2 (index 1) drawn first is a red square */
		double x[1] = {10}, y[1] = {5};
		struct pl_svg_series se = {.name = "Q", .x = x, .y = y, .n = 1, .style = 2};
		struct pl_svg_xy c = {.title = "t", .xlabel = "x", .ylabel = "y", .series = &se, .nseries = 1};
		char *svg = pl_svg_xy_chart(&c);
		assert_non_null(svg);
		assert_non_null(strstr(svg, "fill=\"#fff\" stroke=\"#d62728\""));
		assert_null(strstr(svg, "#1f77b4"));
		free(svg);
	}
}

/* The site's timelines: a chart and a sparkline of two points (10 and 20 s,
 * intervals 9..11 and 19..21) and a failed-only third. Chart: y range
 * 8.4..21.6 (9..21 with 5% margin), plot x 70..704, y 226..16, so x 0, 1
 * -> 70.0, 704.0 and y 10, 20 -> 200.5, 41.5; the step at 0.5 -> 387.0,
 * its label right of it in the first row (y 28). Sparkline: y range
 * 9.5..20.5, x 2..118, y 26..2: 10, 20 -> 24.9, 3.1. Input text escaped. */
static void test_timeline(void **state)
{
	struct pl_svg_tpoint pt[3] = {
		{.x = 0, .y = 10, .lo = 9, .hi = 11, .ci = 1, .level = 10, .n = 3, .label = NULL},
		{.x = 1, .y = 20, .lo = 19, .hi = 21, .ci = 1, .level = 20, .n = 3, .label = "<b>",
		 .commit = "a&b"},
		{.x = 1, .y = NAN, .level = NAN, .nfailed = 2, .label = "late"}};
	struct pl_svg_step st = {.x = 0.5, .label = "+100.0% worse", .commit = "c<1>",
	                         .kind = PL_SVG_STEP_FAILING};
	struct pl_svg_tick tk[2] = {{0, "2026-11-01"}, {1, "2026-11-02"}};
	struct pl_svg_timeline t = {.name = "ttft_p50", .unit = "s", .points = pt, .npoints = 3,
	                            .steps = &st, .nsteps = 1, .ticks = tk, .nticks = 2};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(pl_svg_timeline(f, &t), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "aria-label=\"ttft_p50 over time\""));
	assert_non_null(strstr(buf, "points=\"70.0,200.5 704.0,41.5\""));
	assert_non_null(strstr(buf, "<g><title>: 10.00 s, n 3</title>"));
	assert_non_null(strstr(buf, "<g><title>&lt;b&gt;: 20.00 s, n 3, commit a&amp;b</title>"));
	assert_non_null(strstr(buf, "<line x1=\"387.0\" y1=\"16\" x2=\"387.0\" y2=\"226\" "
	                            "stroke=\"#c62828\""));
	assert_non_null(strstr(buf, "<text x=\"390.0\" y=\"28\" font-size=\"11\" "
	                            "fill=\"#c62828\">+100.0% worse at c&lt;1&gt;</text>"));
	assert_non_null(strstr(buf, "text-anchor=\"end\">2026-11-02</text>"));
	assert_non_null(strstr(buf, "<title>2 failed runs (no request completed)</title>"));
	assert_null(strstr(buf, "prediction band")); /* no band asked for */
	assert_non_null(strstr(buf, "</svg>\n"));
	free(buf);

	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(pl_svg_sparkline(f, &t), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "points=\"2.0,24.9 118.0,3.1\"/>"));
	assert_non_null(strstr(buf, "<path d=\"M116.0 27 l4 -4 m-4 0 l4 4\""));
	assert_non_null(strstr(buf, "stroke=\"#c62828\" stroke-dasharray=\"2,2\"/></svg>"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_joined_in_x_order),
		cmocka_unit_test(test_same_point_two_series),
		cmocka_unit_test(test_slo_line),
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_caveats_zh),
		cmocka_unit_test(test_offer_styles),
		cmocka_unit_test(test_timeline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
