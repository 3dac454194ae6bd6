/*
 * test_words.c — messages as data (core/msg.h) and their wording
 * (render/words.h): every code has a template in every language, each
 * template names only arguments its code's contract declares, with the
 * right kinds; the filler prints each kind exactly; messages copy and
 * compare.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/msg.h"
#include "core/model.h"
#include "render/words.h"

/* The kind letter of argument k in a contract "{1} TEXT ...; {2} INT ...",
 * or 0 when the contract declares no argument k. */
static const char *contract_kind(const char *contract, unsigned k, size_t *len)
{
	char tag[16];
	const char *p;

	snprintf(tag, sizeof(tag), "{%u} ", k);
	if (!(p = strstr(contract, tag)))
		return NULL;
	p += strlen(tag);
	*len = strcspn(p, " ;");
	return p;
}

static unsigned contract_nargs(const char *contract)
{
	unsigned n = 0;
	size_t len;
	while (contract_kind(contract, n + 1, &len))
		n++;
	return n;
}

static const char *const kind_names[] = {
	[PL_MA_TEXT] = "TEXT", [PL_MA_INT] = "INT",   [PL_MA_NUM] = "NUM",  [PL_MA_FIELD] = "FIELD",
	[PL_MA_RUNS] = "RUNS", [PL_MA_LIST] = "LIST", [PL_MA_CODE] = "CODE",  [PL_MA_MSGS] = "MSGS",
};

/* Builds a message of code whose arguments follow its contract. */
static void sample(struct pl_msg *m, enum pl_msg_code code)
{
	const char *contract = pl_msg_code_contract(code);
	unsigned n = contract_nargs(contract);
	static const long long ids[] = {3, 5};
	static const char *const items[] = {"a", "b"};

	pl_msg_init(m, code);
	for (unsigned k = 1; k <= n; k++) {
		size_t len = 0; /* gcc -O2 cannot see contract_kind() always sets it */
		const char *kind = contract_kind(contract, k, &len);
		int found = 0;
		for (size_t j = 1; j < sizeof(kind_names) / sizeof(kind_names[0]); j++) {
			if (strlen(kind_names[j]) != len || strncmp(kind, kind_names[j], len) != 0)
				continue;
			found = 1;
			switch ((enum pl_msg_kind)j) {
			case PL_MA_TEXT: pl_msg_text(m, "x"); break;
			case PL_MA_FIELD: pl_msg_field(m, "ttft_p50"); break;
			case PL_MA_INT: pl_msg_int(m, 2); break;
			case PL_MA_NUM: pl_msg_num(m, 1.5); break;
			case PL_MA_RUNS: pl_msg_runs(m, ids, 2); break;
			case PL_MA_LIST: pl_msg_list(m, items, 2); break;
			case PL_MA_CODE: pl_msg_code_arg(m, PL_MSG_TEXT); break;
			case PL_MA_MSGS: {
				struct pl_msg sub[2];
				pl_msg_init(&sub[0], PL_MSG_W_CHK_TTFT);
				pl_msg_init(&sub[1], PL_MSG_W_CHK_TPOT);
				pl_msg_msgs(m, sub, 2);
				break;
			}
			}
		}
		if (!found) {
			print_error("code %s: argument {%u} has no known kind\n", pl_msg_code_name(code), k);
			fail();
		}
	}
	assert_int_equal(m->oom, 0);
}

/* Every code: a contract, a name, a template in every language, and no
 * placeholder the filler cannot fill from a message built by the contract. */
static void test_every_code_worded(void **state)
{
	(void)state;
	for (int c = PL_MSG_NONE + 1; c < PL_MSG_COUNT; c++) {
		struct pl_msg m;
		assert_non_null(pl_msg_code_contract((enum pl_msg_code)c));
		assert_string_not_equal(pl_msg_code_name((enum pl_msg_code)c), "?");
		sample(&m, (enum pl_msg_code)c);
		for (int l = 0; l < PL_LANG_COUNT; l++) {
			char *s;
			if (!pl_words_template((enum pl_msg_code)c, (enum pl_lang)l)) {
				print_error("code %s has no template in language %d\n",
				            pl_msg_code_name((enum pl_msg_code)c), l);
				fail();
			}
			s = pl_words_msg(&m, (enum pl_lang)l);
			assert_non_null(s);
			if (strstr(s, "{?")) {
				print_error("code %s, language %d: '%s'\n", pl_msg_code_name((enum pl_msg_code)c), l, s);
				fail();
			}
			free(s);
		}
		pl_msg_release(&m);
	}
}

/* The filler's kinds, exactly, through PL_MSG_TEXT's "{1}" and by hand
 * built templates are not reachable, so the kinds are checked through a
 * message with each kind given to "{1}". */
static void test_kinds(void **state)
{
	struct pl_msg m;
	char *s;
	long long ids[12];
	const char *const items[] = {"TTFT", "TPOT"};

	(void)state;
	for (int k = 0; k < 12; k++)
		ids[k] = k + 1;

	pl_msg_init(&m, PL_MSG_TEXT);
	pl_msg_runs(&m, ids, 12);
	s = pl_words_msg(&m, PL_LANG_EN);
	assert_string_equal(s, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more");
	free(s);
	s = pl_words_msg(&m, PL_LANG_ZH);
	assert_string_equal(s, "1、2、3、4、5、6、7、8、9、10 等另 2 个");
	free(s);
	pl_msg_release(&m);

	pl_msg_init(&m, PL_MSG_TEXT);
	pl_msg_list(&m, items, 2);
	s = pl_words_msg(&m, PL_LANG_ZH);
	assert_string_equal(s, "TTFT、TPOT");
	free(s);
	pl_msg_release(&m);

	pl_msg_init(&m, PL_MSG_TEXT);
	pl_msg_num(&m, 0.123456);
	s = pl_words_msg(&m, PL_LANG_EN);
	assert_string_equal(s, "0.1235");
	free(s);
	pl_msg_release(&m);

	pl_msg_init(&m, PL_MSG_TEXT);
	pl_msg_int(&m, -7);
	s = pl_words_msg(&m, PL_LANG_EN);
	assert_string_equal(s, "-7");
	free(s);
	pl_msg_release(&m);

	/* too many arguments: sticky oom, and push refuses it */
	{
		struct pl_msgs l = {0};
		pl_msg_init(&m, PL_MSG_TEXT);
		for (int k = 0; k < PL_MSG_MAX_ARGS; k++)
			assert_int_equal(pl_msg_int(&m, k), 0);
		assert_int_not_equal(pl_msg_int(&m, 99), 0);
		assert_int_equal(m.oom, 1);
		assert_int_not_equal(pl_msgs_push(&l, &m), 0);
		assert_int_equal(l.n, 0);
		pl_msgs_release(&l);
	}
}

/* A missing argument and a wrong kind print "{?N}", never garbage. */
static void test_missing_argument(void **state)
{
	struct pl_msg m;
	char *s;

	(void)state;
	pl_msg_init(&m, PL_MSG_TEXT); /* "{1}" with no argument */
	s = pl_words_msg(&m, PL_LANG_EN);
	assert_string_equal(s, "{?1}");
	free(s);
	pl_msg_release(&m);
}

static void test_copy_equal_list(void **state)
{
	struct pl_msg a, b;
	struct pl_msgs l = {0};
	const long long ids[] = {4, 9};
	const char *const v[] = {"x", "y"};

	(void)state;
	pl_msg_init(&a, PL_MSG_TEXT);
	pl_msg_text(&a, "s");
	pl_msg_runs(&a, ids, 2);
	pl_msg_list(&a, v, 2);
	pl_msg_num(&a, 2.5);
	assert_int_equal(pl_msg_copy(&b, &a), 0);
	assert_int_equal(pl_msg_equal(&a, &b), 1);
	b.args[1].ids[1] = 10;
	assert_int_equal(pl_msg_equal(&a, &b), 0);
	assert_int_equal(pl_msgs_push(&l, &a), 0);
	assert_int_equal(a.code, PL_MSG_NONE);
	assert_int_equal(pl_msgs_push(&l, &b), 0);
	assert_int_equal(pl_msgs_push_text(&l, "plain"), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[2].args[0].s, "plain");
	pl_msgs_release(&l);
	pl_msgs_release(NULL);
	pl_msg_release(NULL);
	assert_string_equal(pl_msg_code_name(PL_MSG_TEXT), "TEXT");
	assert_string_equal(pl_msg_code_name(PL_MSG_COUNT), "?");
	assert_int_equal(pl_words_lang("zh-CN"), PL_LANG_ZH);
	assert_int_equal(pl_words_lang("en"), PL_LANG_EN);
	assert_int_equal(pl_words_lang(NULL), PL_LANG_EN);
}

/* The English left in text: the first token of three or more lowercase
 * ASCII letters (a word of an English frame), skipping options (--where),
 * names and units holding '_', '/', '.' or a digit (error_rate, req/s,
 * p95), upper-case names (TTFT, FIELD), quoted names ("currency"),
 * condition names (concurrency) and the loanwords "token" and
 * "goodput". NULL
 * when there is none. */
static const char *english_word(const char *text, char *word, size_t n)
{
	const char *p = text;

	while (*p) {
		const char *start = p;
		int other = p > text && (p[-1] == '"' || p[-1] == '\''); /* a quoted name */
		size_t len;

		if (*p == '\'' && strchr(p + 1, '\'')) { /* a quoted command or name: all of it */
			p = strchr(p + 1, '\'') + 1;
			continue;
		}
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '-' || *p == '_')) {
			p++;
			continue;
		}
		while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		       *p == '-' || *p == '_' || *p == '/' || *p == '.') {
			/* lower case, or a hyphen inside a word (open-loop) */
			if ((*p < 'a' || *p > 'z') && !(*p == '-' && p > start))
				other = 1;
			p++;
		}
		len = (size_t)(p - start);
		/* "token" and "goodput" are the Chinese technical terms as well */
		if (!other && len >= 3 && !(len == 5 && strncmp(start, "token", 5) == 0) &&
		    !(len == 7 && strncmp(start, "goodput", 7) == 0)) {
			snprintf(word, n, "%.*s", (int)len, start);
			if (pl_cond_lookup(word) == PL_C_NONE) /* a condition's name is a name */
				return word;
		}
	}
	return NULL;
}

/* Every code but TEXT (a sentence carried as it is) words in zh-CN with no
 * English frame left: the only Latin text in a Chinese message is names,
 * options, units and the message's own arguments. This covers every
 * caveat, note and refusal line the core and the command line hand out. */
static void test_zh_no_english(void **state)
{
	char word[64];

	(void)state;
	for (int c = PL_MSG_NONE + 1; c < PL_MSG_COUNT; c++) {
		struct pl_msg m;
		char *zh, *en;
		const char *w;

		if (c == PL_MSG_TEXT)
			continue;
		sample(&m, (enum pl_msg_code)c);
		zh = pl_words_msg(&m, PL_LANG_ZH);
		en = pl_words_msg(&m, PL_LANG_EN);
		assert_non_null(zh);
		assert_non_null(en);
		if ((w = english_word(zh, word, sizeof(word)))) {
			print_error("code %s: zh-CN '%s' holds the English word '%s'\n",
			            pl_msg_code_name((enum pl_msg_code)c), zh, w);
			fail();
		}
		/* and the English table is English: a zh-CN row was not pasted in */
		for (const unsigned char *q = (const unsigned char *)en; *q; q++)
			if (*q >= 0xE3 && *q <= 0xE9 && strcmp(zh, en) != 0) {
				print_error("code %s: English '%s' holds CJK text\n",
				            pl_msg_code_name((enum pl_msg_code)c), en);
				fail();
			}
		free(zh);
		free(en);
		pl_msg_release(&m);
	}
	/* the check itself: an English frame is found, names are not */
	assert_string_equal(english_word("条件不同 allowed by", word, sizeof(word)), "allowed");
	assert_null(english_word("--allow-mismatch error_rate req/s TTFT p95 x ab", word, sizeof(word)));
}

/* Values with their runs: past 10 ids "and K more" (10 ids exactly: none),
 * ranges for the error-rate caveat, {N/SEP} joins every entry. */
static void test_runs_lists(void **state)
{
	long long ids[12];
	struct pl_msg m, sub[2];
	char *s;

	(void)state;
	for (int k = 0; k < 12; k++)
		ids[k] = k + 1;
	pl_msg_init(&m, PL_MSG_REFUSAL_VALUE);
	pl_msg_text(&m, "a");
	pl_msg_runs(&m, ids, 10);
	s = pl_words_msg(&m, PL_LANG_EN);
	assert_string_equal(s, "'a' (runs 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)");
	free(s);
	pl_msg_release(&m);
	pl_msg_init(&m, PL_MSG_REFUSAL_VALUE);
	pl_msg_text(&m, "a");
	pl_msg_runs(&m, ids, 11);
	s = pl_words_msg(&m, PL_LANG_EN);
	assert_string_equal(s, "'a' (runs 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 1 more)");
	free(s);
	s = pl_words_msg(&m, PL_LANG_ZH);
	assert_string_equal(s, "'a'（运行 1、2、3、4、5、6、7、8、9、10 等另 1 个）");
	free(s);
	pl_msg_release(&m);
	pl_msg_init(&m, PL_MSG_REFUSAL_VALUE);
	pl_msg_text(&m, "b");
	pl_msg_runs(&m, ids + 11, 1);
	s = pl_words_msg(&m, PL_LANG_EN);
	assert_string_equal(s, "'b' (run 12)");
	free(s);
	pl_msg_release(&m);
	/* ranges: 1-3, 5, then 8 ranges at most */
	{
		const long long r[] = {1, 2, 3, 5, 7, 9, 11, 13, 15, 17, 19};
		pl_msg_init(&sub[0], PL_MSG_ERR_RATE_RUNS);
		pl_msg_num(&sub[0], 0);
		pl_msg_runs(&sub[0], r, 4);
		pl_msg_init(&sub[1], PL_MSG_ERR_RATE_MISSING_RUNS);
		pl_msg_runs(&sub[1], r, 11);
		pl_msg_init(&m, PL_MSG_CAV_ERRORS_ALLOWED);
		pl_msg_msgs(&m, sub, 2);
		s = pl_words_msg(&m, PL_LANG_EN);
		assert_string_equal(s, "runs with and without errors compared (allowed by --allow-mismatch "
		                       "error_rate): error_rate 0 (runs 1-3, 5), (missing) (runs 1-3, 5, "
		                       "7, 9, 11, 13, 15, 17, ...)");
		free(s);
		pl_msg_release(&m);
		pl_msg_release(&sub[0]);
		pl_msg_release(&sub[1]);
	}
	pl_msg_init(&m, PL_MSG_CAV_FAILED_LEFT_OUT_MORE);
	pl_msg_runs(&m, ids, 12);
	pl_msg_int(&m, 3);
	s = pl_words_msg(&m, PL_LANG_EN);
	assert_string_equal(s, "failed runs left out (no request completed; never pooled): run 1, run "
	                       "2, run 3, run 4, run 5, run 6, run 7, run 8, run 9, run 10, run 11, run "
	                       "12 and 3 more");
	free(s);
	pl_msg_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_code_worded),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_missing_argument),
		cmocka_unit_test(test_copy_equal_list),
		cmocka_unit_test(test_zh_no_english),
		cmocka_unit_test(test_runs_lists),
	};
	setlocale(LC_ALL, "");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
