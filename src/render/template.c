/*
 * template.c — the placeholder language of templates/ (syntax in
 * template.h): named values in nested scopes, and a renderer that walks the
 * template text directly, finding each section's matching close tag.
 *
 * A line that holds only a section or comment tag (plus spaces) is left out
 * entirely, so templates can put {{#rows}} on a line of its own without
 * leaving blank lines in Markdown tables. Text values are escaped for the
 * template's output format; raw values are markup that perfledger generated.
 */
#include "render/template.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/render_impl.h"
#include "util/alloc.h"

enum kind { K_TEXT, K_RAW, K_BOOL, K_LIST };

/* One named value of a scope. */
struct val {
	char *name;                /* owned */
	enum kind kind;            /* what it holds */
	char *text;                /* K_TEXT / K_RAW: owned */
	int truth;                 /* K_BOOL */
	struct pl_tpl_ctx **items; /* K_LIST: owned scopes */
	size_t nitems;
	size_t items_cap;          /* K_LIST: items allocated (PL_ALLOC_GROW) */
};

struct pl_tpl_ctx {
	const struct pl_tpl_ctx *parent; /* enclosing scope, or NULL */
	struct val *v;                   /* values; owned */
	size_t n, cap;
};

struct pl_tpl_ctx *pl_tpl_ctx_new(void)
{
	return calloc(1, sizeof(struct pl_tpl_ctx));
}

static void val_clear(struct val *v)
{
	free(v->text);
	v->text = NULL;
	for (size_t i = 0; i < v->nitems; i++)
		pl_tpl_ctx_free(v->items[i]);
	free(v->items);
	v->items = NULL;
	v->nitems = 0;
	v->items_cap = 0;
}

void pl_tpl_ctx_free(struct pl_tpl_ctx *ctx)
{
	if (!ctx)
		return;
	for (size_t i = 0; i < ctx->n; i++) {
		val_clear(&ctx->v[i]);
		free(ctx->v[i].name);
	}
	free(ctx->v);
	free(ctx);
}

/* The value called name in ctx itself (created empty if missing). */
static struct val *slot(struct pl_tpl_ctx *ctx, const char *name)
{
	struct val *v;

	for (size_t i = 0; i < ctx->n; i++)
		if (strcmp(ctx->v[i].name, name) == 0)
			return &ctx->v[i];
	if (PL_ALLOC_GROW(ctx->v, ctx->n + 1, ctx->cap))
		return NULL;
	v = &ctx->v[ctx->n];
	memset(v, 0, sizeof(*v));
	v->name = strdup(name);
	if (!v->name)
		return NULL;
	ctx->n++;
	return v;
}

static int set_text(struct pl_tpl_ctx *ctx, const char *name, const char *text, enum kind k)
{
	struct val *v = slot(ctx, name);
	char *t = strdup(text ? text : "");

	if (!v || !t) {
		free(t);
		return PL_ENOMEM;
	}
	val_clear(v);
	v->kind = k;
	v->text = t;
	return 0;
}

int pl_tpl_set(struct pl_tpl_ctx *ctx, const char *name, const char *text)
{
	return set_text(ctx, name, text, K_TEXT);
}

int pl_tpl_setf(struct pl_tpl_ctx *ctx, const char *name, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return set_text(ctx, name, buf, K_TEXT);
}

int pl_tpl_set_raw(struct pl_tpl_ctx *ctx, const char *name, const char *markup)
{
	return set_text(ctx, name, markup, K_RAW);
}

int pl_tpl_set_bool(struct pl_tpl_ctx *ctx, const char *name, int value)
{
	struct val *v = slot(ctx, name);

	if (!v)
		return PL_ENOMEM;
	val_clear(v);
	v->kind = K_BOOL;
	v->truth = value != 0;
	return 0;
}

int pl_tpl_set_list(struct pl_tpl_ctx *ctx, const char *name)
{
	struct val *v = slot(ctx, name);

	if (!v)
		return PL_ENOMEM;
	if (v->kind != K_LIST) {
		val_clear(v);
		v->kind = K_LIST;
	}
	return 0;
}

struct pl_tpl_ctx *pl_tpl_add_item(struct pl_tpl_ctx *ctx, const char *name)
{
	struct val *v = slot(ctx, name);
	struct pl_tpl_ctx *item;

	if (!v)
		return NULL;
	if (v->kind != K_LIST) {
		val_clear(v);
		v->kind = K_LIST;
	}
	if (PL_ALLOC_GROW(v->items, v->nitems + 1, v->items_cap))
		return NULL;
	item = pl_tpl_ctx_new();
	if (!item)
		return NULL;
	item->parent = ctx;
	v->items[v->nitems++] = item;
	return item;
}

static const struct val *lookup(const struct pl_tpl_ctx *ctx, const char *name)
{
	for (; ctx; ctx = ctx->parent)
		for (size_t i = 0; i < ctx->n; i++)
			if (strcmp(ctx->v[i].name, name) == 0)
				return &ctx->v[i];
	return NULL;
}

static int truthy(const struct val *v)
{
	if (!v)
		return 0;
	switch (v->kind) {
	case K_TEXT:
	case K_RAW:
		return v->text && *v->text;
	case K_BOOL:
		return v->truth;
	case K_LIST:
		return v->nitems > 0;
	}
	return 0;
}

/* ------------------------------------------------------------- rendering */

/* A parsed tag. */
struct tag {
	size_t start, end;     /* the tag's bytes, widened to the whole line when standalone */
	size_t tag_start;      /* the "{{" itself, for error positions */
	char type;             /* 0 value, '#', '^', '/', '!' */
	char name[64];
};

struct renderer {
	const char *tpl;  /* the template */
	size_t len;
	const char *name; /* for errors */
	enum pl_tpl_escape esc;
	FILE *out;
	struct pl_error *err;
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail_at(struct renderer *r, size_t pos, const char *fmt, ...)
{
	long line = 1, col = 1;
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);

	for (size_t i = 0; i < pos && i < r->len; i++) {
		if (r->tpl[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	pl_error_set(r->err, PL_EINVALID, "%s", msg);
	pl_error_at(r->err, r->name, line, col);
	return PL_EINVALID;
}

/* Finds the next tag at or after pos before end. Returns 1 and fills t,
 * 0 when there is none, or PL_EINVALID. */
static int next_tag(struct renderer *r, size_t pos, size_t end, struct tag *t)
{
	const char *p = NULL, *close;
	size_t i, j, nl;

	for (i = pos; i + 1 < end; i++)
		if (r->tpl[i] == '{' && r->tpl[i + 1] == '{') {
			p = r->tpl + i;
			break;
		}
	if (!p)
		return 0;
	close = NULL;
	for (j = i + 2; j + 1 < end; j++)
		if (r->tpl[j] == '}' && r->tpl[j + 1] == '}') {
			close = r->tpl + j;
			break;
		}
	if (!close)
		return fail_at(r, i, "unclosed placeholder%s", "");
	t->tag_start = i;
	t->start = i;
	t->end = j + 2;
	p += 2;
	t->type = 0;
	if (*p == '#' || *p == '^' || *p == '/' || *p == '!')
		t->type = *p++;
	while (p < close && *p == ' ')
		p++;
	{
		const char *e = close;
		size_t n;
		while (e > p && e[-1] == ' ')
			e--;
		n = (size_t)(e - p);
		if (t->type != '!') {
			if (n == 0 || n >= sizeof(t->name))
				return fail_at(r, i, "bad placeholder name%s", "");
			for (size_t k = 0; k < n; k++)
				if (!(p[k] == '_' || p[k] == '-' || p[k] == '.' ||
				      (p[k] >= 'a' && p[k] <= 'z') || (p[k] >= 'A' && p[k] <= 'Z') ||
				      (p[k] >= '0' && p[k] <= '9')))
					return fail_at(r, i, "bad placeholder name%s", "");
			memcpy(t->name, p, n);
			t->name[n] = '\0';
		} else {
			t->name[0] = '\0';
		}
	}
	if (t->type == 0)
		return 1;
	/* standalone: only blanks before it on its line and a newline after */
	i = t->start;
	while (i > 0 && (r->tpl[i - 1] == ' ' || r->tpl[i - 1] == '\t'))
		i--;
	if (i != 0 && r->tpl[i - 1] != '\n')
		return 1;
	nl = t->end;
	while (nl < end && (r->tpl[nl] == ' ' || r->tpl[nl] == '\t'))
		nl++;
	if (nl < end && r->tpl[nl] == '\n') {
		t->start = i;
		t->end = nl + 1;
	} else if (nl == end) {
		t->start = i;
		t->end = nl;
	}
	return 1;
}

/* Finds the close tag of the section opened by open (whose body starts at
 * pos). Returns 0 and fills close, or PL_EINVALID. */
static int find_close(struct renderer *r, const struct tag *open, size_t pos, size_t end,
                      struct tag *close)
{
	int depth = 0, rc;

	while ((rc = next_tag(r, pos, end, close)) == 1) {
		pos = close->end;
		if (close->type == '#' || close->type == '^') {
			depth++;
		} else if (close->type == '/') {
			if (depth == 0) {
				if (strcmp(close->name, open->name) != 0)
					return fail_at(r, close->tag_start,
					               "section closed by the wrong name '%s'", close->name);
				return 0;
			}
			depth--;
		}
	}
	if (rc < 0)
		return rc;
	return fail_at(r, open->tag_start, "section '%s' is not closed", open->name);
}

static int write_value(struct renderer *r, const struct val *v)
{
	if (v->kind == K_LIST)
		return 0;
	if (v->kind == K_BOOL) {
		fputs(v->truth ? "true" : "false", r->out);
		return 0;
	}
	if (v->kind == K_RAW || r->esc == PL_TPL_NONE) {
		fputs(v->text ? v->text : "", r->out);
		return 0;
	}
	if (r->esc == PL_TPL_HTML)
		return pl_html_write_text(r->out, v->text);
	return pl_markdown_write_cell(r->out, v->text);
}

static int render_range(struct renderer *r, size_t pos, size_t end, const struct pl_tpl_ctx *ctx,
                        int depth)
{
	struct tag t, c;
	int rc;

	if (depth > 32)
		return fail_at(r, pos, "sections nested too deeply%s", "");
	while ((rc = next_tag(r, pos, end, &t)) == 1) {
		const struct val *v;
		fwrite(r->tpl + pos, 1, t.start - pos, r->out);
		pos = t.end;
		if (t.type == '!')
			continue;
		if (t.type == '/')
			return fail_at(r, t.tag_start, "close of a section that is not open: '%s'",
			               t.name);
		v = lookup(ctx, t.name);
		if (!v && t.type == 0)
			return fail_at(r, t.tag_start, "unknown placeholder '%s'", t.name);
		if (t.type == 0) {
			rc = write_value(r, v);
			if (rc)
				return rc;
			continue;
		}
		rc = find_close(r, &t, pos, end, &c);
		if (rc)
			return rc;
		if (t.type == '#' && v && v->kind == K_LIST) {
			for (size_t i = 0; i < v->nitems && rc == 0; i++)
				rc = render_range(r, pos, c.start, v->items[i], depth + 1);
		} else if ((t.type == '#') == (truthy(v) != 0)) {
			rc = render_range(r, pos, c.start, ctx, depth + 1);
		}
		if (rc)
			return rc;
		pos = c.end;
	}
	if (rc < 0)
		return rc;
	fwrite(r->tpl + pos, 1, end - pos, r->out);
	return 0;
}

int pl_tpl_render(const char *tpl, size_t len, const char *name, enum pl_tpl_escape esc,
                  const struct pl_tpl_ctx *ctx, FILE *out, struct pl_error *err)
{
	struct renderer r = {tpl, len, name ? name : "template", esc, out, err};
	int rc = render_range(&r, 0, len, ctx, 0);

	if (rc)
		return rc;
	if (ferror(out))
		return pl_error_set(err, PL_EIO, "cannot write the output of '%s'", r.name);
	return 0;
}

/* The embedded templates, generated from templates/ by
 * cmake/embed_templates.cmake. */
struct pl_tpl_file {
	const char *name; /* file name, e.g. "report.en.md" */
	const char *data; /* its bytes */
	size_t len;
};
extern const struct pl_tpl_file pl_tpl_files[];
extern const size_t pl_tpl_file_count;

const char *pl_tpl_builtin(const char *name, size_t *len)
{
	for (size_t i = 0; i < pl_tpl_file_count; i++)
		if (strcmp(pl_tpl_files[i].name, name) == 0) {
			if (len)
				*len = pl_tpl_files[i].len;
			return pl_tpl_files[i].data;
		}
	return NULL;
}
