/*
 * test_xlsx.c — the workbook read back: unzip the XML and check cell types
 * (numbers numeric, input text as shared strings, never a formula), the
 * sheets, frozen headers, reproducible creation time; then open it with
 * openpyxl as a spreadsheet program would. The bundle's workbook: its
 * native chart parts and their series references, and the Runs sheet's
 * hyperlinks back to each source (percent-encoded file: URLs; relative
 * paths as plain text).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "render/xlsx.h"

#include "render_fixture.h"

#define EPOCH 1700000000LL /* 2023-11-14T22:13:20Z */

#define XLSX_DIR PL_TEST_TMP "/xlsx"
#define XLSX_PATH XLSX_DIR "/cmp.xlsx"

static char *unzip_member(const char *member)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "unzip -p '%s' '%s'", XLSX_PATH, member);
	return fx_popen_read(cmd);
}

/* The shared strings, in order, as they appear inside <t>...</t>. */
struct sst {
	char *xml;      /* the whole sharedStrings.xml */
	char *item[256];/* pointers into xml, NUL-terminated in place */
	size_t n;
};

static void sst_load(struct sst *s)
{
	char *p;

	memset(s, 0, sizeof(*s));
	s->xml = unzip_member("xl/sharedStrings.xml");
	assert_non_null(s->xml);
	p = s->xml;
	while ((p = strstr(p, "<si><t")) != NULL && s->n < 256) {
		char *start = strchr(p, '>');
		char *end;
		start = strchr(start + 1, '>') + 1; /* past <si><t ...> */
		end = strstr(start, "</t></si>");
		assert_non_null(end);
		*end = '\0';
		s->item[s->n++] = start;
		p = end + 1;
	}
}

/* The XML of cell ref ("E2") in sheet xml: "<c r="E2" ...>...</c>", or "" if
 * there is no such cell. Caller frees. */
static char *cell(const char *xml, const char *ref)
{
	char key[32];
	const char *p, *end;
	char *out;

	snprintf(key, sizeof(key), "<c r=\"%s\"", ref);
	p = strstr(xml, key);
	if (!p)
		return strdup("");
	end = strstr(p, "</c>");
	if (!end || (strstr(p, "/>") && strstr(p, "/>") < end))
		end = strstr(p, "/>");
	out = strndup(p, (size_t)(end - p) + (end[1] == '/' ? 4 : 2));
	assert_non_null(out);
	return out;
}

/* Asserts that ref is a shared-string cell holding text (XML-escaped). */
static void assert_string_cell(const char *xml, const struct sst *s, const char *ref,
                               const char *text)
{
	char *c = cell(xml, ref);
	const char *v;
	long idx;

	assert_non_null(strstr(c, " t=\"s\""));
	v = strstr(c, "<v>");
	assert_non_null(v);
	idx = strtol(v + 3, NULL, 10);
	assert_true(idx >= 0 && (size_t)idx < s->n);
	assert_string_equal(s->item[idx], text);
	free(c);
}

static void assert_number_cell(const char *xml, const char *ref, const char *expected)
{
	char *c = cell(xml, ref);

	assert_string_equal(c, expected);
	free(c);
}

static int setup(void **state)
{
	struct pl_comparison cmp;
	struct pl_run_list runs;
	struct pl_error err;

	(void)state;
	fx_fresh_dir(XLSX_DIR);
	pl_error_init(&err);
	fixture_comparison(&cmp);
	fixture_runs(&runs);
	assert_int_equal(pl_xlsx_write(XLSX_PATH, &cmp, &runs, EPOCH, &err), 0);
	pl_run_list_release(&runs);
	return 0;
}

static void test_sheets(void **state)
{
	char *wb = unzip_member("xl/workbook.xml");
	char *core = unzip_member("docProps/core.xml");
	char *list = fx_popen_read("unzip -Z1 '" XLSX_PATH "'");

	(void)state;
	assert_non_null(strstr(wb, "<sheets><sheet name=\"Comparison\" sheetId=\"1\" r:id=\"rId1\"/>"
	                           "<sheet name=\"Runs\" sheetId=\"2\" r:id=\"rId2\"/>"
	                           "<sheet name=\"Conditions\" sheetId=\"3\" r:id=\"rId3\"/>"
	                           "<sheet name=\"Caveats\" sheetId=\"4\" r:id=\"rId4\"/></sheets>"));
	/* the wide sheets print at 73% (8 pt text) with the first column and
	 * the header row on every page; the narrow ones fit the page width */
	assert_non_null(strstr(wb, "<definedName name=\"_xlnm.Print_Titles\" localSheetId=\"0\">"
	                           "Comparison!$A:$A,Comparison!$1:$1</definedName>"));
	assert_non_null(strstr(wb, "<definedName name=\"_xlnm.Print_Titles\" localSheetId=\"2\">"
	                           "Conditions!$1:$1</definedName>"));
	assert_non_null(strstr(wb, "<definedName name=\"_xlnm._FilterDatabase\" localSheetId=\"0\" "
	                           "hidden=\"1\">Comparison!$A$1:$X$4</definedName>"));
	assert_non_null(strstr(core, "<dcterms:created xsi:type=\"dcterms:W3CDTF\">"
	                             "2023-11-14T22:13:20Z</dcterms:created>"));
	/* no formulas, no macros, no external links anywhere */
	assert_null(strstr(list, "calcChain"));
	assert_null(strstr(list, "vbaProject"));
	assert_null(strstr(list, "externalLink"));
	for (int i = 1; i <= 4; i++) {
		char member[64], *xml;
		snprintf(member, sizeof(member), "xl/worksheets/sheet%d.xml", i);
		xml = unzip_member(member);
		assert_true(strlen(xml) > 0);
		assert_null(strstr(xml, "<f>"));
		assert_null(strstr(xml, "<f "));
		/* header row and first column frozen; printed A4 landscape at
		 * 73% (11 pt text stays above 8 pt) split across pages, or
		 * fitted to the page width when that shrinks it less */
		assert_non_null(strstr(xml, "<pane xSplit=\"1\" ySplit=\"1\" topLeftCell=\"B2\" "
		                            "activePane=\"bottomRight\" state=\"frozen\"/>"));
		assert_true(strstr(xml, "<pageSetup paperSize=\"9\" scale=\"73\" "
		                        "orientation=\"landscape\"/>") ||
		            (strstr(xml, "<pageSetUpPr fitToPage=\"1\"/>") &&
		             strstr(xml, "<pageSetup paperSize=\"9\" fitToHeight=\"0\" "
		                         "orientation=\"landscape\"/>")));
		assert_non_null(strstr(xml, "<cols><col min=\"1\" max=\"1\" width="));
		free(xml);
	}
	free(wb);
	free(core);
	free(list);
}

static void test_comparison_sheet(void **state)
{
	char *xml = unzip_member("xl/worksheets/sheet1.xml");
	struct sst s;
	char *styles = unzip_member("xl/styles.xml");

	(void)state;
	sst_load(&s);
	/* 14 columns as before, then min and max of the 5 metrics: row 1
	 * pools three runs */
	assert_non_null(strstr(xml, "<dimension ref=\"A1:X4\"/>"));
	assert_string_cell(xml, &s, "A1", "hardware");
	assert_string_cell(xml, &s, "B1", "accelerator_count");
	assert_string_cell(xml, &s, "C1", "n");
	assert_string_cell(xml, &s, "D1", "reference-only runs");
	assert_string_cell(xml, &s, "E1", "ttft_p50 (s)");
	assert_string_cell(xml, &s, "H1", "output_throughput (tok/s)");
	assert_string_cell(xml, &s, "I1", "error_rate (fraction)");
	assert_string_cell(xml, &s, "J1", "ttft_p50 delta (%)");
	assert_string_cell(xml, &s, "N1", "error_rate delta (%)");
	assert_string_cell(xml, &s, "O1", "ttft_p50 min (s)");
	assert_string_cell(xml, &s, "P1", "ttft_p50 max (s)");
	assert_string_cell(xml, &s, "U1", "output_throughput min (tok/s)");
	assert_string_cell(xml, &s, "V1", "output_throughput max (tok/s)");
	assert_string_cell(xml, &s, "X1", "error_rate max (fraction)");
	assert_string_cell(xml, &s, "A2", "2x NVIDIA A100 80G");
	assert_string_cell(xml, &s, "A3", "1x NVIDIA H100 80G");
	/* the hostile label is a text cell: its "=1+1" is data */
	assert_string_cell(xml, &s, "A4", "evil\"`system('rm')`\n|&lt;script&gt;=1+1");

	assert_number_cell(xml, "B2", "<c r=\"B2\"><v>2</v></c>");
	assert_number_cell(xml, "C2", "<c r=\"C2\"><v>3</v></c>");
	assert_number_cell(xml, "E2", "<c r=\"E2\" s=\"3\"><v>0.32</v></c>");
	assert_number_cell(xml, "H2", "<c r=\"H2\" s=\"4\"><v>1234.5</v></c>");
	assert_number_cell(xml, "I2", "<c r=\"I2\" s=\"3\"><v>0</v></c>");
	assert_number_cell(xml, "D3", "<c r=\"D3\"><v>1</v></c>");
	assert_number_cell(xml, "J3", "<c r=\"J3\" s=\"5\"><v>-21.875</v></c>");
	assert_number_cell(xml, "E4", "<c r=\"E4\" s=\"3\"><v>0.5</v></c>");
	/* the spread as numbers in the metric's format: A100 ttft_p50 0.30-0.35,
	 * output_throughput 1200-1250.5; one run: min = max = its value */
	assert_number_cell(xml, "O2", "<c r=\"O2\" s=\"3\"><v>0.3</v></c>");
	assert_number_cell(xml, "P2", "<c r=\"P2\" s=\"3\"><v>0.35</v></c>");
	assert_number_cell(xml, "U2", "<c r=\"U2\" s=\"4\"><v>1200</v></c>");
	assert_number_cell(xml, "V2", "<c r=\"V2\" s=\"4\"><v>1250.5</v></c>");
	assert_number_cell(xml, "O3", "<c r=\"O3\" s=\"3\"><v>0.25</v></c>");
	assert_number_cell(xml, "P3", "<c r=\"P3\" s=\"3\"><v>0.25</v></c>");
	assert_number_cell(xml, "Q3", ""); /* H100 has no ttft_p95 */
	/* missing values are blank: no cell at all */
	assert_number_cell(xml, "F3", "");
	assert_number_cell(xml, "B4", "");
	assert_number_cell(xml, "J2", "");
	/* number formats by unit */
	assert_non_null(strstr(styles, "formatCode=\"0.0000\""));
	assert_non_null(strstr(styles, "formatCode=\"0.00\""));
	assert_non_null(strstr(styles, "formatCode=\"+0.0;-0.0;0.0\""));
	free(styles);
	free(s.xml);
	free(xml);
}

static void test_runs_sheet(void **state)
{
	char *xml = unzip_member("xl/worksheets/sheet2.xml");
	char *styles = unzip_member("xl/styles.xml"), *c;
	struct sst s;

	(void)state;
	sst_load(&s);
	assert_string_cell(xml, &s, "A1", "id");
	assert_string_cell(xml, &s, "B1", "source");
	assert_string_cell(xml, &s, "C1", "sha256");
	assert_string_cell(xml, &s, "F1", "reference_only");
	assert_string_cell(xml, &s, "H1", "model");
	assert_string_cell(xml, &s, "U1", "ttft_p50 (s)");
	assert_string_cell(xml, &s, "X1", "output_throughput (tok/s)");
	assert_number_cell(xml, "A2", "<c r=\"A2\"><v>1</v></c>");
	assert_string_cell(xml, &s, "B2", "a100-1.json");
	/* printed, a text never touches the number left of it ("1" and
	 * "a100-1.json" read "1a100-1.json"): text cells are indented (style 2) */
	c = cell(xml, "B2");
	assert_non_null(strstr(c, " s=\"2\""));
	free(c);
	assert_non_null(strstr(styles, "<cellXfs count=\"6\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" "
	                               "borderId=\"0\" xfId=\"0\"/><xf numFmtId=\"0\" fontId=\"1\" fillId=\"0\" "
	                               "borderId=\"0\" xfId=\"0\" applyFont=\"1\" applyAlignment=\"1\">"
	                               "<alignment vertical=\"top\" wrapText=\"1\"/></xf><xf numFmtId=\"0\" "
	                               "fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\" applyAlignment=\"1\">"
	                               "<alignment horizontal=\"left\" indent=\"1\"/></xf>"));
	assert_number_cell(xml, "F2", "<c r=\"F2\" t=\"b\"><v>0</v></c>");
	assert_number_cell(xml, "Q2", "<c r=\"Q2\"><v>512</v></c>");
	assert_number_cell(xml, "U2", "<c r=\"U2\" s=\"3\"><v>0.31</v></c>");
	assert_number_cell(xml, "F5", "<c r=\"F5\" t=\"b\"><v>1</v></c>");
	assert_string_cell(xml, &s, "G5", "weights source, warm-up");
	/* a formula-looking source path stays text */
	assert_string_cell(xml, &s, "B6", "=cmd|' /C calc'!A0.json");
	/* run 99 is not in the comparison */
	assert_number_cell(xml, "A7", "");
	for (size_t i = 0; i < s.n; i++)
		assert_string_not_equal(s.item[i], "other.json");
	free(styles);
	free(s.xml);
	free(xml);
}

/* Extra conditions every run shares are rows of the Conditions sheet, as
 * text cells (input text: never a formula); without pooled rows there are
 * no min/max columns. */
static void test_shared_extras_and_no_spread(void **state)
{
	static struct pl_extra extras[] = {
		{(char *)"descriptor.x_pool", (char *)"=1+1"},
	};
	struct pl_comparison cmp;
	struct pl_run_list runs;
	struct pl_error err;
	char *xml, *cond;
	struct sst s;

	(void)state;
	pl_error_init(&err);
	fixture_comparison(&cmp);
	fixture_runs(&runs);
	cmp.shared_extra = extras;
	cmp.nshared_extra = 1;
	cmp.rows[0].n = 1; /* no row pools runs any more */
	for (int m = 0; m < PL_METRIC_COUNT; m++)
		if (cmp.rows[0].n_metric[m])
			cmp.rows[0].n_metric[m] = 1;
	assert_int_equal(pl_xlsx_write(XLSX_PATH, &cmp, &runs, EPOCH, &err), 0);
	pl_run_list_release(&runs);
	xml = unzip_member("xl/worksheets/sheet1.xml");
	cond = unzip_member("xl/worksheets/sheet3.xml");
	sst_load(&s);
	assert_non_null(strstr(xml, "<dimension ref=\"A1:N4\"/>"));
	/* after the 12 shared and varying fields of test_conditions_and_caveats */
	assert_string_cell(cond, &s, "A14", "descriptor.x_pool");
	assert_string_cell(cond, &s, "B14", "=1+1");
	assert_string_cell(cond, &s, "C14", "shared (extra)");
	assert_null(strstr(cond, "<f>"));
	free(s.xml);
	free(xml);
	free(cond);
	setup(NULL); /* the other tests read the fixture workbook */
}

/* Text longer than a cell holds is cut to Excel's 32767 and marked with
 * an ellipsis, so the reader knows the cell is not the whole value. */
static void test_long_text_marked(void **state)
{
	struct pl_comparison cmp;
	struct pl_run_list runs;
	struct pl_error err;
	char *long_args = malloc(40001), *xml;
	struct sst s;
	int found = 0;

	(void)state;
	assert_non_null(long_args);
	memset(long_args, 'a', 40000);
	long_args[40000] = '\0';
	pl_error_init(&err);
	fixture_comparison(&cmp);
	fixture_runs(&runs);
	assert_int_equal(pl_run_set_cond(&runs.v[0], PL_C_MODEL, long_args, &err), 0);
	assert_int_equal(pl_xlsx_write(XLSX_PATH, &cmp, &runs, EPOCH, &err), 0);
	pl_run_list_release(&runs);
	xml = unzip_member("xl/worksheets/sheet2.xml");
	sst_load(&s);
	for (size_t i = 0; i < s.n; i++) {
		size_t len = strlen(s.item[i]);
		if (len < 30000)
			continue;
		assert_int_equal(len, 32767);
		assert_memory_equal(s.item[i] + len - 3, "\xE2\x80\xA6", 3); /* U+2026 */
		assert_memory_equal(s.item[i], long_args, len - 3);
		found = 1;
	}
	free(s.xml);
	free(xml);
	free(long_args);
	assert_true(found);
	setup(NULL); /* the other tests read the fixture workbook */
}


static void test_conditions_and_caveats(void **state)
{
	char *xml = unzip_member("xl/worksheets/sheet3.xml");
	char *cav = unzip_member("xl/worksheets/sheet4.xml");
	struct sst s;

	(void)state;
	sst_load(&s);
	assert_string_cell(xml, &s, "A1", "field");
	assert_string_cell(xml, &s, "B1", "value");
	assert_string_cell(xml, &s, "C1", "status");
	assert_string_cell(xml, &s, "A2", "model");
	assert_string_cell(xml, &s, "B2", "gemma-4-31b");
	assert_string_cell(xml, &s, "C2", "shared");
	assert_string_cell(xml, &s, "A6", "hardware");
	assert_string_cell(xml, &s, "B6",
	                   "2x NVIDIA A100 80G; 1x NVIDIA H100 80G; evil\"`system('rm')`\n|&lt;script&gt;=1+1");
	assert_string_cell(xml, &s, "C6", "varies with axis");
	assert_string_cell(xml, &s, "A7", "accelerator_count");
	assert_string_cell(xml, &s, "B7", "2; 1; (missing)");
	assert_string_cell(xml, &s, "A8", "driver_version");
	assert_string_cell(xml, &s, "C8", "shared");
	assert_number_cell(xml, "B9", "<c r=\"B9\"><v>512</v></c>");
	assert_string_cell(xml, &s, "A12", "request_rate");
	assert_string_cell(xml, &s, "B12", "inf");
	assert_number_cell(xml, "B13", "<c r=\"B13\" t=\"b\"><v>1</v></c>");
	assert_number_cell(xml, "A14", "");
	assert_string_cell(cav, &s, "A1", "caveat");
	assert_string_cell(cav, &s, "A2", "1x NVIDIA H100 80G: 1 of 1 runs is reference-only");
	assert_string_cell(cav, &s, "A3", "driver_version differs _x001B_[31m(allowed)");
	free(s.xml);
	free(xml);
	free(cav);
}

/* openpyxl (as a spreadsheet program) sees text as text and numbers as numbers. */
static void test_openpyxl(void **state)
{
	char *out;

	(void)state;
	if (fx_file_size("/usr/bin/python3") < 0)
		skip();
	out = fx_popen_read(
		"/usr/bin/python3 -c \"import openpyxl,sys\n"
		"wb = openpyxl.load_workbook(sys.argv[1])\n"
		"print(wb.sheetnames)\n"
		"ws = wb['Comparison']\n"
		"for ref in ('A4', 'E2', 'H2', 'J3', 'F3'):\n"
		"    c = ws[ref]; print(ref, c.data_type, repr(c.value), c.number_format)\n"
		"print(ws.freeze_panes)\n"
		"\" '" XLSX_PATH "' 2>&1");
	assert_string_equal(out, "['Comparison', 'Runs', 'Conditions', 'Caveats']\n"
	                         "A4 s 'evil\"`system(\\'rm\\')`\\n|<script>=1+1' General\n"
	                         "E2 n 0.32 0.0000\n"
	                         "H2 n 1234.5 0.00\n"
	                         "J3 n -21.875 +0.0;-0.0;0.0\n"
	                         "F3 n None General\n"
	                         "B2\n");
	free(out);
}

/* The same comparison and SOURCE_DATE_EPOCH give the same bytes. */
static void test_reproducible(void **state)
{
	struct pl_comparison cmp;
	struct pl_run_list runs;
	struct pl_error err;
	char *a, *b;
	long na, nb;

	(void)state;
	pl_error_init(&err);
	fixture_comparison(&cmp);
	fixture_runs(&runs);
	assert_int_equal(pl_xlsx_write(XLSX_DIR "/again.xlsx", &cmp, &runs, EPOCH, &err), 0);
	pl_run_list_release(&runs);
	na = fx_file_size(XLSX_PATH);
	nb = fx_file_size(XLSX_DIR "/again.xlsx");
	assert_int_equal(na, nb);
	a = fx_slurp(XLSX_PATH);
	b = fx_slurp(XLSX_DIR "/again.xlsx");
	assert_memory_equal(a, b, (size_t)na);
	free(a);
	free(b);
}

/* Epoch 0 is a valid SOURCE_DATE_EPOCH (1970-01-01T00:00:00Z), not "unset":
 * libxlsxwriter stamps the current time for 0, so a bundle rendered with
 * SOURCE_DATE_EPOCH=0 was not reproducible and `verify` failed on it. */
static void test_epoch_zero(void **state)
{
	const char *a = XLSX_DIR "/epoch0a.xlsx", *b = XLSX_DIR "/epoch0b.xlsx";
	struct pl_comparison cmp;
	struct pl_run_list runs;
	struct pl_error err;
	char *core, *x, *y;
	long nx;

	(void)state;
	pl_error_init(&err);
	fixture_comparison(&cmp);
	fixture_runs(&runs);
	assert_int_equal(pl_xlsx_write(a, &cmp, &runs, 0, &err), 0);
	sleep(1);
	assert_int_equal(pl_xlsx_write(b, &cmp, &runs, 0, &err), 0);
	pl_run_list_release(&runs);
	core = fx_popen_read("unzip -p '" XLSX_DIR "/epoch0a.xlsx' docProps/core.xml");
	assert_non_null(strstr(core, "<dcterms:created xsi:type=\"dcterms:W3CDTF\">"
	                             "1970-01-01T00:00:00Z</dcterms:created>"));
	assert_non_null(strstr(core, "<dcterms:modified xsi:type=\"dcterms:W3CDTF\">"
	                             "1970-01-01T00:00:00Z</dcterms:modified>"));
	free(core);
	/* the rewritten zip is whole: every member reads back */
	core = fx_popen_read("unzip -tq '" XLSX_DIR "/epoch0a.xlsx' 2>&1");
	assert_non_null(strstr(core, "No errors detected"));
	free(core);
	nx = fx_file_size(a);
	assert_int_equal(nx, fx_file_size(b));
	x = fx_slurp(a);
	y = fx_slurp(b);
	assert_memory_equal(x, y, (size_t)nx);
	free(x);
	free(y);
}

static void test_no_caveats_and_bad_path(void **state)
{
	struct pl_comparison cmp;
	struct pl_error err;
	char *list;

	(void)state;
	pl_error_init(&err);
	fixture_comparison(&cmp);
	cmp.caveats.n = 0;
	assert_int_equal(pl_xlsx_write(XLSX_DIR "/nocav.xlsx", &cmp, NULL, EPOCH, &err), 0);
	list = fx_popen_read("unzip -Z1 '" XLSX_DIR "/nocav.xlsx'");
	assert_non_null(strstr(list, "xl/worksheets/sheet3.xml"));
	assert_null(strstr(list, "xl/worksheets/sheet4.xml"));
	free(list);

	assert_int_equal(pl_xlsx_write(XLSX_DIR "/no/such/dir/x.xlsx", &cmp, NULL, EPOCH, &err),
	                 PL_EIO);
	assert_int_equal(err.code, PL_EIO);
	assert_string_equal(err.message, "cannot write '" XLSX_DIR
	                                 "/no/such/dir/x.xlsx.tmp': No such file or directory");
	assert_int_equal(fx_file_size(XLSX_DIR "/no/such/dir/x.xlsx"), -1);
}

/* The bundle workbook: native chart parts with the expected series, and
 * sources linked with every awkward byte percent-encoded. */
static void test_bundle_links_and_charts(void **state)
{
	const char *path = XLSX_DIR "/bundle.xlsx";
	struct pl_comparison cmp;
	struct pl_run_list runs;
	struct pl_error err;
	char cmd[512], *list, *chart, *sheet, *rels, *strings, *c;

	(void)state;
	pl_error_init(&err);
	fixture_comparison(&cmp);
	fixture_runs(&runs);
	/* a space, a quote, '#', '%' and a UTF-8 byte; a formula-looking
	 * absolute path; run 3 keeps its relative path */
	pl_strset(&runs.v[0].source, "/data/bench runs/a\"b#1%\xc3\xa9.json");
	pl_strset(&runs.v[1].source, "/tmp/=HYPERLINK(\"http://x\")&'.json");
	assert_int_equal(pl_xlsx_write_bundle(path, &cmp, &runs, NULL, NULL, 0, "en", EPOCH, &err), 0);

	snprintf(cmd, sizeof(cmd), "unzip -Z1 '%s'", path);
	list = fx_popen_read(cmd);
	assert_non_null(strstr(list, "xl/charts/chart1.xml"));
	assert_non_null(strstr(list, "xl/drawings/drawing1.xml"));
	snprintf(cmd, sizeof(cmd), "unzip -p '%s' xl/charts/chart1.xml", path);
	chart = fx_popen_read(cmd);
	/* output throughput of the three comparison rows: column H of the
	 * Comparison sheet (hardware, accelerator_count, n, reference-only
	 * runs, ttft_p50, ttft_p95, tpot_p50, output_throughput), the row
	 * labels in column A, the series name from the header */
	assert_non_null(strstr(chart, "<c:cat><c:strRef><c:f>Comparison!$A$2:$A$4</c:f>"));
	assert_non_null(strstr(chart, "<c:val><c:numRef><c:f>Comparison!$H$2:$H$4</c:f>"));
	assert_non_null(strstr(chart, "<c:tx><c:strRef><c:f>Comparison!$H$1</c:f>"));
	/* horizontal bars, the rows top down as in the table (the category
	 * axis reversed, the value axis crossing at its far end: below), every
	 * label shown; the chart on a page of its own below the table, 460.8
	 * x 288 px (three rows: the 288 px minimum, 1.6 times as wide), 8 px
	 * below the break: columns of 16 row labels turned 45 degrees squashed
	 * the plot into a strip */
	assert_non_null(strstr(chart, "<c:barDir val=\"bar\"/>"));
	assert_non_null(strstr(chart, "<c:catAx><c:axId val=\"50010001\"/><c:scaling>"
	                              "<c:orientation val=\"maxMin\"/></c:scaling>"));
	assert_non_null(strstr(chart, "<c:crosses val=\"max\"/>"));
	assert_non_null(strstr(chart, "<c:tickLblSkip val=\"1\"/>"));
	snprintf(cmd, sizeof(cmd), "unzip -p '%s' xl/drawings/drawing1.xml", path);
	c = fx_popen_read(cmd);
	assert_non_null(strstr(c, "<xdr:from><xdr:col>0</xdr:col><xdr:colOff>0</xdr:colOff>"
	                          "<xdr:row>5</xdr:row><xdr:rowOff>76200</xdr:rowOff></xdr:from>"
	                          "<xdr:to><xdr:col>3</xdr:col><xdr:colOff>445770</xdr:colOff>"
	                          "<xdr:row>19</xdr:row><xdr:rowOff>152400</xdr:rowOff></xdr:to>"));
	free(c);
	snprintf(cmd, sizeof(cmd), "unzip -p '%s' xl/worksheets/sheet1.xml", path);
	c = fx_popen_read(cmd);
	assert_non_null(strstr(c, "<rowBreaks count=\"1\" manualBreakCount=\"1\">"
	                          "<brk id=\"5\" max=\"16383\" man=\"1\"/></rowBreaks>"));
	free(c);

	snprintf(cmd, sizeof(cmd), "unzip -p '%s' xl/worksheets/sheet2.xml", path);
	sheet = fx_popen_read(cmd);
	snprintf(cmd, sizeof(cmd), "unzip -p '%s' xl/worksheets/_rels/sheet2.xml.rels", path);
	rels = fx_popen_read(cmd);
	assert_non_null(strstr(sheet, "<hyperlink ref=\"B2\" r:id=\"rId1\"/>"));
	assert_non_null(strstr(sheet, "<hyperlink ref=\"B3\" r:id=\"rId2\"/>"));
	assert_null(strstr(sheet, "<hyperlink ref=\"B4\""));
	assert_null(strstr(sheet, "<f>"));
	assert_non_null(strstr(rels, "Target=\"file:///data/bench%20runs/a%22b%231%25%C3%A9.json\" "
	                             "TargetMode=\"External\""));
	assert_non_null(strstr(rels, "Target=\"file:///tmp/%3DHYPERLINK%28%22http%3A//x%22%29%26%27.json\" "
	                             "TargetMode=\"External\""));
	/* the cells show the paths as text (strings, never formulas), and the
	 * sha256 as text beside them */
	snprintf(cmd, sizeof(cmd), "unzip -p '%s' xl/sharedStrings.xml", path);
	strings = fx_popen_read(cmd);
	assert_non_null(strstr(strings, "<t>/data/bench runs/a\"b#1%\xc3\xa9.json</t>"));
	assert_non_null(strstr(strings, "<t>/tmp/=HYPERLINK(\"http://x\")&amp;'.json</t>"));
	assert_non_null(strstr(strings, "<t>a100-3.json</t>"));
	assert_non_null(strstr(strings, runs.v[0].sha256));
	c = cell(sheet, "C2");
	assert_non_null(strstr(c, " t=\"s\""));
	free(c);
	c = cell(sheet, "B2");
	assert_non_null(strstr(c, " t=\"s\""));
	free(c);

	free(strings);
	free(rels);
	free(sheet);
	free(chart);
	free(list);
	pl_run_list_release(&runs);
}

/* Sheet names in both languages are valid under Excel's rules: 1 to 31
 * characters (UTF-16 units; every name here is in the BMP), none of
 * [ ] : * ? / \\, no apostrophe at either end; the Chinese ones hold no
 * Latin letter (a zh-CN workbook's tabs are Chinese), and they differ. */
static void test_sheet_names(void **state)
{
	(void)state;
	for (int zh = 0; zh < 2; zh++)
		for (int k = 0; k < PL_XLSX_SHEET_COUNT; k++) {
			const char *n = pl_xlsx_sheet_name((enum pl_xlsx_sheet)k, zh);
			size_t chars = 0, len = strlen(n);
			for (const unsigned char *c = (const unsigned char *)n; *c; c++)
				chars += (*c & 0xC0) != 0x80;
			assert_true(chars >= 1 && chars <= 31);
			assert_null(strpbrk(n, "[]:*?/\\"));
			assert_true(n[0] != '\'' && n[len - 1] != '\'');
			for (const char *c = n; zh && *c; c++)
				assert_false((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z'));
			for (int j = 0; j < k; j++)
				assert_string_not_equal(n, pl_xlsx_sheet_name((enum pl_xlsx_sheet)j, zh));
		}
	assert_string_equal(pl_xlsx_sheet_name(PL_XLSX_SHEET_PROCUREMENT, 0), "Procurement");
	assert_string_equal(pl_xlsx_sheet_name(PL_XLSX_SHEET_PROCUREMENT, 1), "采购评审");
	assert_string_equal(pl_xlsx_sheet_name(PL_XLSX_SHEET_CHECKLIST, 1), "发布检查清单");
	assert_string_equal(pl_xlsx_sheet_name(PL_XLSX_SHEET_COUNT, 1), "Sheet");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sheets),
		cmocka_unit_test(test_comparison_sheet),
		cmocka_unit_test(test_runs_sheet),
		cmocka_unit_test(test_conditions_and_caveats),
		cmocka_unit_test(test_shared_extras_and_no_spread),
		cmocka_unit_test(test_openpyxl),
		cmocka_unit_test(test_reproducible),
		cmocka_unit_test(test_epoch_zero),
		cmocka_unit_test(test_no_caveats_and_bad_path),
		cmocka_unit_test(test_bundle_links_and_charts),
		cmocka_unit_test(test_long_text_marked),
		cmocka_unit_test(test_sheet_names),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
