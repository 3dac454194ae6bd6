/*
 * test_template.c — the placeholder language of templates/: values escaped
 * per output format, raw markup, list and boolean sections, inverted
 * sections, standalone tag lines, comments, and located errors; plus every
 * embedded template rendering without an unknown placeholder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/template.h"

static char *render(const char *tpl, enum pl_tpl_escape esc, const struct pl_tpl_ctx *ctx, int *rc,
                    struct pl_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*rc = pl_tpl_render(tpl, strlen(tpl), "t.md", esc, ctx, f, err);
	fclose(f);
	return buf;
}

static void test_values_and_sections(void **state)
{
	struct pl_tpl_ctx *c = pl_tpl_ctx_new(), *it;
	struct pl_error err;
	char *out;
	int rc;

	(void)state;
	pl_error_init(&err);
	assert_int_equal(pl_tpl_set(c, "title", "a|b <x>"), 0);
	assert_int_equal(pl_tpl_set_raw(c, "svg", "<svg/>"), 0);
	assert_int_equal(pl_tpl_set_bool(c, "warn", 1), 0);
	assert_int_equal(pl_tpl_set_list(c, "empty"), 0);
	it = pl_tpl_add_item(c, "rows");
	pl_tpl_set(it, "label", "r1");
	it = pl_tpl_add_item(c, "rows");
	pl_tpl_set(it, "label", "r2");
	out = render("# {{title}}\n{{svg}}\n{{! a comment }}\n{{#warn}}\nW\n{{/warn}}\n"
	             "{{#rows}}\n- {{label}} of {{ title }}\n{{/rows}}\n{{^empty}}none{{/empty}}\n"
	             "{{^missing}}gone{{/missing}}{{#missing}}X{{/missing}}\n",
	             PL_TPL_MARKDOWN, c, &rc, &err);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "# a\\|b \\<x\\>\n<svg/>\nW\n- r1 of a\\|b \\<x\\>\n- r2 of a\\|b \\<x\\>\n"
	                         "none\ngone\n");
	free(out);
	out = render("<p>{{title}}</p>", PL_TPL_HTML, c, &rc, &err);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "<p>a|b &lt;x&gt;</p>");
	free(out);
	pl_tpl_ctx_free(c);
	pl_tpl_ctx_free(NULL);
}

static void test_errors(void **state)
{
	struct pl_tpl_ctx *c = pl_tpl_ctx_new();
	struct pl_error err;
	char *out;
	int rc;

	(void)state;
	pl_tpl_set_list(c, "rows");
	pl_error_init(&err);
	out = render("ok\n  {{nope}}", PL_TPL_MARKDOWN, c, &rc, &err);
	free(out);
	assert_int_equal(rc, PL_EINVALID);
	assert_string_equal(err.message, "unknown placeholder 'nope'");
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 3);
	pl_error_init(&err);
	out = render("{{#rows}}x", PL_TPL_MARKDOWN, c, &rc, &err);
	free(out);
	assert_int_equal(rc, PL_EINVALID);
	assert_string_equal(err.message, "section 'rows' is not closed");
	out = render("{{#rows}}x{{/other}}", PL_TPL_MARKDOWN, c, &rc, &err);
	free(out);
	assert_int_equal(rc, PL_EINVALID);
	out = render("{{/rows}}", PL_TPL_MARKDOWN, c, &rc, &err);
	free(out);
	assert_int_equal(rc, PL_EINVALID);
	out = render("{{x", PL_TPL_MARKDOWN, c, &rc, &err);
	free(out);
	assert_int_equal(rc, PL_EINVALID);
	pl_tpl_ctx_free(c);
}

static void test_builtin(void **state)
{
	static const char *const names[] = {"report.en.md",      "report.zh-CN.md", "report.en.html",
	                                    "report.zh-CN.html", "report.css",      "report.js",
	                                    "report.axis.md"};
	size_t len = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *t = pl_tpl_builtin(names[i], &len);
		assert_non_null(t);
		assert_true(len > 100);
		assert_int_equal(strlen(t), len);
	}
	assert_null(pl_tpl_builtin("report.fr.md", &len));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_and_sections),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_builtin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
