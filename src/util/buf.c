/*
 * buf.c — the growable buffer of util/buf.h: doubling growth, always
 * NUL-terminated, a sticky out-of-memory flag.
 */
#include "util/buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

/* What data points at before the first allocation: never written. */
char pl_buf_empty[1];

void pl_buf_init(struct pl_buf *b)
{
	b->data = pl_buf_empty;
	b->len = 0;
	b->cap = 0;
	b->oom = 0;
}

void pl_buf_release(struct pl_buf *b)
{
	if (!b)
		return;
	if (b->cap)
		free(b->data);
	pl_buf_init(b);
}

int pl_buf_grow(struct pl_buf *b, size_t extra)
{
	size_t need, ncap;
	char *p;

	if (extra > SIZE_MAX - b->len - 1) {
		b->oom = 1;
		return PL_ENOMEM;
	}
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	ncap = b->cap ? b->cap : 64;
	while (ncap < need)
		ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
	p = realloc(b->cap ? b->data : NULL, ncap);
	if (!p) {
		b->oom = 1;
		return PL_ENOMEM;
	}
	if (!b->cap)
		p[0] = '\0';
	b->data = p;
	b->cap = ncap;
	return 0;
}

int pl_buf_add(struct pl_buf *b, const void *p, size_t n)
{
	if (n == 0)
		return b->oom ? PL_ENOMEM : 0;
	if (pl_buf_grow(b, n))
		return PL_ENOMEM;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return b->oom ? PL_ENOMEM : 0;
}

int pl_buf_adds(struct pl_buf *b, const char *s)
{
	return pl_buf_add(b, s ? s : "", s ? strlen(s) : 0);
}

int pl_buf_addc(struct pl_buf *b, char c)
{
	return pl_buf_add(b, &c, 1);
}

int pl_buf_addf(struct pl_buf *b, const char *fmt, ...)
{
	va_list ap;
	size_t room = b->cap ? b->cap - b->len : 0;
	int n;

	va_start(ap, fmt);
	n = room ? vsnprintf(b->data + b->len, room, fmt, ap) : vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		if (b->cap)
			b->data[b->len] = '\0';
		return 0; /* an encoding error: nothing appended */
	}
	if ((size_t)n >= room) {
		if (pl_buf_grow(b, (size_t)n)) {
			if (b->cap)
				b->data[b->len] = '\0';
			return PL_ENOMEM;
		}
		va_start(ap, fmt);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
	return b->oom ? PL_ENOMEM : 0;
}

void pl_buf_truncate(struct pl_buf *b, size_t n)
{
	if (n < b->len) {
		b->len = n;
		b->data[n] = '\0';
	}
}

void pl_buf_reset(struct pl_buf *b)
{
	b->oom = 0;
	if (b->cap) {
		b->len = 0;
		b->data[0] = '\0';
	}
}

char *pl_buf_detach(struct pl_buf *b, size_t *len)
{
	char *p = b->cap ? b->data : NULL;
	size_t n = b->len;

	if (b->oom) {
		free(p);
		p = NULL;
		n = 0;
	} else if (!p && (p = malloc(1)) != NULL) {
		p[0] = '\0';
	}
	pl_buf_init(b);
	if (len)
		*len = p ? n : 0;
	return p;
}
