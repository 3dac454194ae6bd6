/*
 * i18n.c — the zh-CN caveats and checklist items of i18n.h.
 *
 * Each caveat frame of core/compare.c is matched by its fixed English
 * parts (at the end of the text first, since a row label at the start is
 * input text and may hold anything) and rebuilt with the Chinese frame
 * around the same pieces; checklist item lists inside are translated item
 * by item. Nothing here parses input text for meaning: pieces are copied
 * as they are.
 */
#include "render/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "render/words.h"
#include "util/buf.h"

static const char *const checklist_zh[PL_CHK_COUNT] = {
	"权重来源", "引擎版本", "引擎启动参数", "驱动与 CUDA 版本", "输入/输出长度", "并发数",
	"预热", "TTFT", "TPOT", "吞吐量", "p95 延迟",
};

int pl_i18n_zh(const char *lang)
{
	return lang && strcmp(lang, "zh-CN") == 0;
}

const char *pl_i18n_checklist_item(int k, const char *lang)
{
	if (k < 0 || k >= PL_CHK_COUNT)
		return "?";
	return pl_i18n_zh(lang) ? checklist_zh[k] : pl_checklist_item(k);
}

static int ends_with(const char *s, size_t n, const char *tail)
{
	size_t k = strlen(tail);
	return n >= k && memcmp(s + n - k, tail, k) == 0;
}

/* Appends the comma-separated checklist items of s[0..n) in Chinese (an
 * item not in the list is kept as it is). */
static void add_items(struct pl_buf *o, const char *s, size_t n)
{
	size_t at = 0;

	while (at <= n) {
		const char *comma = memchr(s + at, ',', n - at);
		size_t end = comma ? (size_t)(comma - s) : n, len = end - at;
		const char *zh = NULL;
		for (int k = 0; k < PL_CHK_COUNT && !zh; k++)
			if (strlen(pl_checklist_item(k)) == len && memcmp(pl_checklist_item(k), s + at, len) == 0)
				zh = checklist_zh[k];
		if (at > 0)
			pl_buf_adds(o, "、");
		if (zh)
			pl_buf_adds(o, zh);
		else
			pl_buf_add(o, s + at, len);
		if (!comma)
			break;
		at = end + 1;
		while (at < n && s[at] == ' ')
			at++;
	}
}

/* "LABEL: A of B run is|runs are reference-only (missing: ITEMS)". */
static int reference_only(struct pl_buf *o, const char *s)
{
	static const char mid[] = " reference-only (missing: ";
	size_t n = strlen(s);
	const char *m, *of, *colon;
	size_t a_at;

	if (!ends_with(s, n, ")"))
		return 0;
	for (m = strstr(s, mid); m && strstr(m + 1, mid); m = strstr(m + 1, mid))
		;
	if (!m)
		return 0;
	/* back from m: " run is" / " runs are", then "A of B", then ": " */
	if (m - s >= 7 && memcmp(m - 7, " run is", 7) == 0)
		of = m - 7;
	else if (m - s >= 9 && memcmp(m - 9, " runs are", 9) == 0)
		of = m - 9;
	else
		return 0;
	a_at = (size_t)(of - s);
	while (a_at > 0 && s[a_at - 1] != ':')
		a_at--;
	if (a_at == 0)
		return 0;
	colon = s + a_at - 1;
	{
		char a[32], b[32];
		const char *nums = colon + 1;
		size_t len = (size_t)(of - nums);
		char tmp[80];
		if (len == 0 || len >= sizeof(tmp))
			return 0;
		memcpy(tmp, nums, len);
		tmp[len] = '\0';
		if (sscanf(tmp, " %31[0-9] of %31[0-9]", a, b) != 2)
			return 0;
		pl_buf_add(o, s, (size_t)(colon - s));
		pl_buf_adds(o, "：");
		pl_buf_adds(o, b);
		pl_buf_adds(o, " 次运行中有 ");
		pl_buf_adds(o, a);
		pl_buf_adds(o, " 次仅供参考（缺少：");
		add_items(o, m + strlen(mid), n - (size_t)(m + strlen(mid) - s) - 1);
		pl_buf_adds(o, "）");
	}
	return 1;
}

/* Fixed phrases of the other frames, English then Chinese, replaced in
 * this order (longest first where one contains another). */
static const char *const phrases[][2] = {
	{"conditions differ in ", "条件不同："},
	{" (allowed by --allow-mismatch)", "（经 --allow-mismatch 允许）"},
	{"runs with and without errors compared (allowed by --allow-mismatch error_rate):",
	 "比较了有错误与无错误的运行（经 --allow-mismatch error_rate 允许）："},
	{" did not run the requested workload: ", " 未按要求的负载运行："},
	{" (more than 10% apart; allowed by --allow-mismatch)",
	 "（相差超过 10%；经 --allow-mismatch 允许）"},
	{" measured mean (run ", " 实测均值 (运行 "}, /* the ")" after the id stays */
	{" req/s achieved (run ", " req/s 实际达到 (运行 "},
	{" requested vs ", " 要求，实际 "},
	{" (within ", "（范围 "},
};

char *pl_i18n_caveat(const char *text, const char *lang)
{
	struct pl_buf o = PL_BUF_INIT;
	const char *s = text ? text : "";

	if (!pl_i18n_zh(lang))
		return strdup(s);
	if (!reference_only(&o, s)) {
		pl_buf_reset(&o);
		if (strncmp(s, "run ", 4) == 0) { /* "run 12 did not run ..." */
			pl_buf_adds(&o, "运行 ");
			s += 4;
		}
		while (*s) {
			size_t k = 0, best = 0;
			for (size_t i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++)
				if (strncmp(s, phrases[i][0], strlen(phrases[i][0])) == 0) {
					best = i;
					k = strlen(phrases[i][0]);
					break;
				}
			if (k) {
				pl_buf_adds(&o, phrases[best][1]);
				s += k;
			} else {
				pl_buf_add(&o, s, 1);
				s++;
			}
		}
	}
	return pl_buf_detach(&o, NULL);
}

char *pl_i18n_msg(const struct pl_msg *m, const char *lang)
{
	char *en, *zh;

	if (m->code != PL_MSG_TEXT)
		return pl_words_msg(m, pl_words_lang(lang));
	en = pl_words_msg(m, PL_LANG_EN);
	if (!en || !pl_i18n_zh(lang))
		return en;
	zh = pl_i18n_caveat(en, lang);
	free(en);
	return zh;
}
