/*
 * msg.c — messages as data (msg.h): building, copying, comparing and
 * listing struct pl_msg. Wording is not here: render/words.c does it.
 */
#include "core/msg.h"

#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/error.h"

static const char *const code_names[PL_MSG_COUNT] = {
	[PL_MSG_NONE] = "NONE",
#define PL_MSG_NAME_(name, contract) [PL_MSG_##name] = #name,
	PL_MSG_CODES(PL_MSG_NAME_)
#undef PL_MSG_NAME_
};

static const char *const code_contracts[PL_MSG_COUNT] = {
	[PL_MSG_NONE] = "",
#define PL_MSG_CONTRACT_(name, contract) [PL_MSG_##name] = contract,
	PL_MSG_CODES(PL_MSG_CONTRACT_)
#undef PL_MSG_CONTRACT_
};

const char *pl_msg_code_contract(enum pl_msg_code code)
{
	if ((int)code < 0 || code >= PL_MSG_COUNT)
		return NULL;
	return code_contracts[code];
}

void pl_msg_init(struct pl_msg *m, enum pl_msg_code code)
{
	memset(m, 0, sizeof(*m));
	m->code = code;
}

static void arg_release(struct pl_msg_arg *a)
{
	free(a->s);
	free(a->ids);
	for (size_t k = 0; k < a->nv; k++)
		free(a->v[k]);
	free(a->v);
	for (size_t k = 0; k < a->nsub; k++)
		pl_msg_release(&a->sub[k]);
	free(a->sub);
	memset(a, 0, sizeof(*a));
}

void pl_msg_release(struct pl_msg *m)
{
	if (!m)
		return;
	for (unsigned k = 0; k < m->nargs && k < PL_MSG_MAX_ARGS; k++)
		arg_release(&m->args[k]);
	pl_msg_init(m, PL_MSG_NONE);
}

/* The next free argument of kind, or NULL (m->oom set). */
static struct pl_msg_arg *next_arg(struct pl_msg *m, enum pl_msg_kind kind)
{
	struct pl_msg_arg *a;

	if (m->nargs >= PL_MSG_MAX_ARGS) {
		m->oom = 1;
		return NULL;
	}
	a = &m->args[m->nargs++];
	memset(a, 0, sizeof(*a));
	a->kind = kind;
	return a;
}

static int add_string(struct pl_msg *m, enum pl_msg_kind kind, const char *s)
{
	struct pl_msg_arg *a = next_arg(m, kind);

	if (!a)
		return PL_ENOMEM;
	if (!(a->s = strdup(s ? s : ""))) {
		m->oom = 1;
		return PL_ENOMEM;
	}
	return 0;
}

int pl_msg_text(struct pl_msg *m, const char *s)
{
	return add_string(m, PL_MA_TEXT, s);
}

int pl_msg_field(struct pl_msg *m, const char *name)
{
	return add_string(m, PL_MA_FIELD, name);
}

int pl_msg_int(struct pl_msg *m, long long i)
{
	struct pl_msg_arg *a = next_arg(m, PL_MA_INT);

	if (!a)
		return PL_ENOMEM;
	a->i = i;
	return 0;
}

int pl_msg_code_arg(struct pl_msg *m, enum pl_msg_code word)
{
	struct pl_msg_arg *a = next_arg(m, PL_MA_CODE);

	if (!a)
		return PL_ENOMEM;
	a->i = (long long)word;
	return 0;
}

int pl_msg_num(struct pl_msg *m, double d)
{
	struct pl_msg_arg *a = next_arg(m, PL_MA_NUM);

	if (!a)
		return PL_ENOMEM;
	a->d = d;
	return 0;
}

int pl_msg_runs(struct pl_msg *m, const long long *ids, size_t nids)
{
	struct pl_msg_arg *a = next_arg(m, PL_MA_RUNS);

	if (!a)
		return PL_ENOMEM;
	if (nids == 0)
		return 0;
	if (!(a->ids = malloc(nids * sizeof(*ids)))) {
		m->oom = 1;
		return PL_ENOMEM;
	}
	memcpy(a->ids, ids, nids * sizeof(*ids));
	a->nids = nids;
	return 0;
}

int pl_msg_list(struct pl_msg *m, const char *const *v, size_t nv)
{
	struct pl_msg_arg *a = next_arg(m, PL_MA_LIST);

	if (!a)
		return PL_ENOMEM;
	if (nv == 0)
		return 0;
	if (!(a->v = calloc(nv, sizeof(*a->v)))) {
		m->oom = 1;
		return PL_ENOMEM;
	}
	for (size_t k = 0; k < nv; k++) {
		if (!(a->v[k] = strdup(v[k] ? v[k] : ""))) {
			a->nv = k;
			m->oom = 1;
			return PL_ENOMEM;
		}
	}
	a->nv = nv;
	return 0;
}

int pl_msg_msgs(struct pl_msg *m, const struct pl_msg *sub, size_t nsub)
{
	struct pl_msg_arg *a = next_arg(m, PL_MA_MSGS);

	if (!a)
		return PL_ENOMEM;
	if (nsub == 0)
		return 0;
	if (!(a->sub = calloc(nsub, sizeof(*a->sub)))) {
		m->oom = 1;
		return PL_ENOMEM;
	}
	for (size_t k = 0; k < nsub; k++) {
		if (pl_msg_copy(&a->sub[k], &sub[k])) {
			a->nsub = k;
			m->oom = 1;
			return PL_ENOMEM;
		}
	}
	a->nsub = nsub;
	return 0;
}

int pl_msg_copy(struct pl_msg *dst, const struct pl_msg *src)
{
	pl_msg_init(dst, src->code);
	for (unsigned k = 0; k < src->nargs; k++) {
		const struct pl_msg_arg *a = &src->args[k];
		switch (a->kind) {
		case PL_MA_TEXT: pl_msg_text(dst, a->s); break;
		case PL_MA_FIELD: pl_msg_field(dst, a->s); break;
		case PL_MA_INT: pl_msg_int(dst, a->i); break;
		case PL_MA_CODE: pl_msg_code_arg(dst, (enum pl_msg_code)a->i); break;
		case PL_MA_NUM: pl_msg_num(dst, a->d); break;
		case PL_MA_RUNS: pl_msg_runs(dst, a->ids, a->nids); break;
		case PL_MA_LIST: pl_msg_list(dst, (const char *const *)a->v, a->nv); break;
		case PL_MA_MSGS: pl_msg_msgs(dst, a->sub, a->nsub); break;
		}
	}
	dst->oom |= src->oom;
	if (dst->oom) {
		pl_msg_release(dst);
		return PL_ENOMEM;
	}
	return 0;
}

static int str_eq(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

int pl_msg_equal(const struct pl_msg *a, const struct pl_msg *b)
{
	if (a->code != b->code || a->nargs != b->nargs)
		return 0;
	for (unsigned k = 0; k < a->nargs; k++) {
		const struct pl_msg_arg *x = &a->args[k], *y = &b->args[k];
		if (x->kind != y->kind || x->i != y->i || !str_eq(x->s, y->s) || x->nids != y->nids ||
		    x->nv != y->nv || x->nsub != y->nsub)
			return 0;
		/* numbers compare by bits, so NaN equals NaN and -0 is not 0 */
		if (x->kind == PL_MA_NUM && memcmp(&x->d, &y->d, sizeof(x->d)) != 0)
			return 0;
		if (x->nids && memcmp(x->ids, y->ids, x->nids * sizeof(*x->ids)) != 0)
			return 0;
		for (size_t j = 0; j < x->nv; j++)
			if (!str_eq(x->v[j], y->v[j]))
				return 0;
		for (size_t j = 0; j < x->nsub; j++)
			if (!pl_msg_equal(&x->sub[j], &y->sub[j]))
				return 0;
	}
	return 1;
}

const char *pl_msg_code_name(enum pl_msg_code code)
{
	if ((int)code < 0 || code >= PL_MSG_COUNT || !code_names[code])
		return "?";
	return code_names[code];
}

int pl_msgs_push(struct pl_msgs *l, struct pl_msg *m)
{
	if (m->oom || PL_ALLOC_GROW(l->v, l->n + 1, l->cap)) {
		pl_msg_release(m);
		return PL_ENOMEM;
	}
	l->v[l->n++] = *m;
	pl_msg_init(m, PL_MSG_NONE);
	return 0;
}

int pl_msgs_push_text(struct pl_msgs *l, const char *text)
{
	struct pl_msg m;

	pl_msg_init(&m, PL_MSG_TEXT);
	pl_msg_text(&m, text);
	return pl_msgs_push(l, &m);
}

void pl_msgs_release(struct pl_msgs *l)
{
	if (!l)
		return;
	for (size_t k = 0; k < l->n; k++)
		pl_msg_release(&l->v[k]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
