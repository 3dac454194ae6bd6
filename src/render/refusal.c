/*
 * refusal.c — the words of a refused comparison (refusal.h). The core hands
 * over data (struct pl_mismatch); the frames are the REFUSAL_* codes of
 * core/msg.h in each language's table.
 */
#include "render/refusal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/render_impl.h"
#include "util/buf.h"
#include "util/utf8.h"

/* Fields, values per field and run ids per value a JSON refusal lists. */
#define JSON_FIELDS 20
#define JSON_VALUES 20
#define JSON_IDS 10

const char *pl_refusal_field_name(const struct pl_mismatch *m)
{
	return m->cond >= 0 ? pl_cond_info[m->cond].name : m->extra ? m->extra : "error_rate";
}

/* s cut to max_chars characters (an ellipsis in the last place), control
 * characters as '?'; max_chars 0: s as it is. A new string; NULL on out
 * of memory. */
static char *cut(const char *s, size_t max_chars)
{
	struct pl_buf o = PL_BUF_INIT;
	size_t left = strlen(s), shown = 0;

	if (max_chars == 0)
		return strdup(s);
	while (left > 0) {
		unsigned long cp;
		int inert;
		size_t len = pl_utf8_inert_step(s, left, &cp, &inert);

		if (shown + 1 >= max_chars && len < left) {
			pl_buf_adds(&o, "\xE2\x80\xA6"); /* U+2026: cut here */
			break;
		}
		if (inert)
			pl_buf_addc(&o, '?');
		else
			pl_buf_add(&o, s, len);
		shown++;
		s += len;
		left -= len;
	}
	if (o.oom) {
		pl_buf_release(&o);
		return NULL;
	}
	return pl_buf_detach(&o, NULL);
}

/* Value k of m as a message: its text with the runs holding it. */
static void value_msg(struct pl_msg *v, const struct pl_mismatch *m, size_t k, size_t max_chars)
{
	const long long *ids = m->runs ? m->runs[k] : NULL;
	size_t nids = m->nruns ? m->nruns[k] : 0;
	char *t;

	if (m->open_loop == k + 1 && nids == 0) {
		pl_msg_init(v, PL_MSG_REFUSAL_VALUE_ALONE);
		pl_msg_text(v, pl_word(PL_MSG_W_OPEN_LOOP_MISSING, PL_LANG_EN));
		return;
	}
	if (m->open_loop == k + 1) {
		pl_msg_init(v, PL_MSG_REFUSAL_VALUE_WORD);
		pl_msg_code_arg(v, PL_MSG_W_OPEN_LOOP_MISSING);
		pl_msg_runs(v, ids, nids);
		return;
	}
	if (!(t = cut(m->values[k], max_chars))) {
		pl_msg_init(v, PL_MSG_REFUSAL_VALUE_ALONE);
		v->oom = 1;
		return;
	}
	if (m->measured && k == 0) {
		pl_msg_init(v, PL_MSG_REFUSAL_VALUE_REQUESTED);
		pl_msg_text(v, t);
	} else if (m->measured) {
		pl_msg_init(v, PL_MSG_REFUSAL_VALUE_MEASURED);
		pl_msg_text(v, t);
		pl_msg_code_arg(v, (enum pl_msg_code)m->measured);
		pl_msg_runs(v, ids, nids);
	} else if (nids) {
		pl_msg_init(v, PL_MSG_REFUSAL_VALUE);
		pl_msg_text(v, t);
		pl_msg_runs(v, ids, nids);
	} else {
		pl_msg_init(v, PL_MSG_REFUSAL_VALUE_ALONE);
		pl_msg_text(v, t);
	}
	free(t);
}

int pl_refusal_field_msg(struct pl_msg *out, const struct pl_mismatch *m, size_t max_values,
                         size_t max_chars)
{
	size_t n = max_values && m->nvalues > max_values ? max_values : m->nvalues;
	size_t whole = max_chars ? (size_t)-1 : 0; /* inert but never cut */
	struct pl_msg *vals = calloc(n ? n : 1, sizeof(*vals));
	char *name = cut(pl_refusal_field_name(m), whole);
	char *within = m->within ? cut(m->within, whole) : NULL;
	int oom = !vals || !name || (m->within && !within);

	for (size_t k = 0; !oom && k < n; k++)
		value_msg(&vals[k], m, k, max_chars);
	pl_msg_init(out, m->within ? (n < m->nvalues ? PL_MSG_REFUSAL_FIELD_WITHIN_MORE
	                                             : PL_MSG_REFUSAL_FIELD_WITHIN)
	                           : (n < m->nvalues ? PL_MSG_REFUSAL_FIELD_MORE : PL_MSG_REFUSAL_FIELD));
	pl_msg_field(out, name);
	if (m->within)
		pl_msg_text(out, within);
	if (!oom)
		pl_msg_msgs(out, vals, n);
	if (n < m->nvalues)
		pl_msg_int(out, (long long)(m->nvalues - n));
	for (size_t k = 0; vals && k < n; k++)
		pl_msg_release(&vals[k]);
	free(vals);
	free(within);
	free(name);
	if (oom || out->oom) {
		pl_msg_release(out);
		return PL_ENOMEM;
	}
	return 0;
}

char *pl_refusal_field_line(const struct pl_mismatch *m, size_t max_values, size_t max_chars,
                            enum pl_lang lang)
{
	struct pl_msg msg;
	char *s;

	if (pl_refusal_field_msg(&msg, m, max_values, max_chars))
		return NULL;
	s = pl_words_msg(&msg, lang);
	pl_msg_release(&msg);
	return s;
}

int pl_render_refusal_json(FILE *out, const struct pl_comparison *cmp, struct pl_error *err)
{
	struct pl_msg head;
	const char *axis[PL_COND_COUNT];
	char *text;

	pl_msg_init(&head, PL_MSG_REFUSAL_HEAD);
	for (size_t k = 0; k < cmp->naxis; k++)
		axis[k] = pl_cond_info[cmp->axis[k]].name;
	pl_msg_list(&head, axis, cmp->naxis);
	text = head.oom ? NULL : pl_words_msg(&head, PL_LANG_EN);
	pl_msg_release(&head);
	if (!text)
		return pl_error_set(err, PL_ENOMEM, "out of memory");
	fputs("{\n  \"refused\": true,\n  \"axis\": [", out);
	for (size_t k = 0; k < cmp->naxis; k++) {
		fputs(k ? ", " : "", out);
		pl_json_write_string(out, axis[k]);
	}
	fputs("],\n  \"message\": ", out);
	pl_json_write_string(out, text);
	free(text);
	fputs(",\n  \"mismatches\": [", out);
	for (size_t i = 0; i < cmp->nmismatches && i < JSON_FIELDS; i++) {
		const struct pl_mismatch *m = &cmp->mismatches[i];
		size_t nv = m->nvalues < JSON_VALUES ? m->nvalues : JSON_VALUES;

		fputs(i ? ",\n    {\"field\": " : "\n    {\"field\": ", out);
		pl_json_write_string(out, pl_refusal_field_name(m));
		fputs(", \"within\": ", out);
		if (m->within)
			pl_json_write_string(out, m->within);
		else
			fputs("null", out);
		fputs(", \"values\": [", out);
		for (size_t k = 0; k < nv; k++) {
			size_t nids = m->nruns ? m->nruns[k] : 0;
			char *w = NULL;

			fputs(k ? ", {\"value\": " : "{\"value\": ", out);
			if (m->open_loop == k + 1)
				w = strdup(pl_word(PL_MSG_W_OPEN_LOOP_MISSING, PL_LANG_EN));
			pl_json_write_string(out, w ? w : m->values[k]);
			free(w);
			if (m->measured) {
				fputs(", \"what\": ", out);
				pl_json_write_string(out, k == 0 ? "requested"
				                                 : pl_word((enum pl_msg_code)m->measured, PL_LANG_EN));
			}
			fputs(", \"runs\": [", out);
			for (size_t j = 0; j < nids && j < JSON_IDS; j++)
				fprintf(out, "%s%lld", j ? ", " : "", m->runs[k][j]);
			fprintf(out, "], \"more_runs\": %zu}", nids > JSON_IDS ? nids - JSON_IDS : 0);
		}
		fprintf(out, "], \"more_values\": %zu}", m->nvalues - nv);
	}
	fprintf(out, "\n  ],\n  \"more_mismatches\": %zu,\n  \"subsets\": [",
	        cmp->nmismatches > JSON_FIELDS ? cmp->nmismatches - JSON_FIELDS : 0);
	for (size_t i = 0; i < cmp->nsubsets; i++) {
		const struct pl_subset *sub = &cmp->subsets[i];

		fprintf(out, "%s{\"runs\": %zu, \"first_run\": %lld, \"where\": [", i ? ", " : "",
		        sub->nruns, sub->first_run);
		for (size_t k = 0; k < sub->nwhere; k++) {
			fputs(k ? ", " : "", out);
			pl_json_write_string(out, sub->where[k]);
		}
		fputs("]}", out);
	}
	fputs("]\n}\n", out);
	if (ferror(out))
		return pl_error_set(err, PL_EIO, "cannot write the refusal: write error");
	return 0;
}

/* 1 if c needs no quoting in a POSIX shell word. */
static int shell_plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c != '\0' && strchr("._:/,+=@%-", c) != NULL);
}

/* Appends "--where " and w, quoted for a shell where needed, to b. */
static int put_where(struct pl_buf *b, const char *w)
{
	int plain = w[0] != '\0';

	for (const char *p = w; *p && plain; p++)
		plain = shell_plain((unsigned char)*p);
	if (pl_buf_adds(b, "--where "))
		return PL_ENOMEM;
	if (plain)
		return pl_buf_adds(b, w) ? PL_ENOMEM : 0;
	if (pl_buf_addc(b, '\''))
		return PL_ENOMEM;
	for (const char *p = w; *p; p++)
		if (*p == '\'' ? pl_buf_adds(b, "'\\''") : pl_buf_addc(b, *p))
			return PL_ENOMEM;
	return pl_buf_addc(b, '\'') ? PL_ENOMEM : 0;
}

char *pl_refusal_subset_options(const struct pl_subset *s)
{
	struct pl_buf b = PL_BUF_INIT;

	for (size_t k = 0; k < s->nwhere; k++)
		if ((k && pl_buf_addc(&b, ' ')) || put_where(&b, s->where[k])) {
			pl_buf_release(&b);
			return NULL;
		}
	if (b.oom || !b.len) { /* a subset always has a filter */
		pl_buf_release(&b);
		return NULL;
	}
	return pl_buf_detach(&b, NULL);
}

char *pl_refusal_subset_entries(const struct pl_subset *s)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);
	int bad = f == NULL;

	for (size_t k = 0; k < s->nwhere && !bad; k++)
		bad = (k && fputs(", ", f) == EOF) || pl_json_write_string(f, s->where[k]) != 0;
	if (f && fclose(f))
		bad = 1;
	if (bad || !len) { /* a subset always has a filter */
		free(mem);
		return NULL;
	}
	return mem;
}

int pl_refusal_subset_msg(struct pl_msg *out, const struct pl_subset *s, int definition,
                          size_t max_chars)
{
	char *opts = definition ? pl_refusal_subset_entries(s) : pl_refusal_subset_options(s);
	char *shown = opts ? cut(opts, max_chars) : NULL;

	free(opts);
	pl_msg_init(out, PL_MSG_REFUSAL_SUBSET);
	if (!shown) {
		pl_msg_release(out);
		return PL_ENOMEM;
	}
	pl_msg_text(out, shown);
	pl_msg_int(out, (long long)s->nruns);
	free(shown);
	if (out->oom) {
		pl_msg_release(out);
		return PL_ENOMEM;
	}
	return 0;
}

enum pl_msg_code pl_refusal_subsets_head(const struct pl_comparison *cmp)
{
	static const enum pl_msg_code head[2][2] = {
		{PL_MSG_REFUSAL_NO_SUBSET, PL_MSG_REFUSAL_SUBSETS},
		{PL_MSG_REFUSAL_NO_SUBSET_DEFINITION, PL_MSG_REFUSAL_SUBSETS_DEFINITION}};

	return head[cmp->subsets_in_definition != 0][cmp->nsubsets != 0];
}

char *pl_refusal_subsets_text(const struct pl_comparison *cmp, const char *sep, size_t max_chars,
                              enum pl_lang lang)
{
	struct pl_buf b = PL_BUF_INIT;
	struct pl_msg m;
	char *line;

	if (!cmp->nsubsets && !cmp->subsets_sought)
		return strdup("");
	pl_msg_init(&m, pl_refusal_subsets_head(cmp));
	line = m.oom ? NULL : pl_words_msg(&m, lang);
	pl_msg_release(&m);
	if (!line || pl_buf_adds(&b, line)) {
		free(line);
		pl_buf_release(&b);
		return NULL;
	}
	free(line);
	for (size_t i = 0; i < cmp->nsubsets; i++) {
		if (pl_refusal_subset_msg(&m, &cmp->subsets[i], cmp->subsets_in_definition, max_chars)) {
			pl_buf_release(&b);
			return NULL;
		}
		line = m.oom ? NULL : pl_words_msg(&m, lang);
		pl_msg_release(&m);
		if (!line || pl_buf_adds(&b, sep) || pl_buf_adds(&b, line)) {
			free(line);
			pl_buf_release(&b);
			return NULL;
		}
		free(line);
	}
	if (b.oom) {
		pl_buf_release(&b);
		return NULL;
	}
	return pl_buf_detach(&b, NULL);
}
