/*
 * base64.c — RFC 4648 base64 with padding; see base64.h.
 */
#include <stdlib.h>
#include <string.h>

#include "util/base64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *pl_base64_encode(const void *in, size_t n)
{
	const unsigned char *p = in;
	char *out, *o;

	if (n > ((size_t)-1 - 1) / 4 * 3 - 3)
		return NULL;
	out = malloc((n + 2) / 3 * 4 + 1);
	if (!out)
		return NULL;
	o = out;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16;
		if (i + 1 < n)
			v |= (unsigned)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		*o++ = alphabet[(v >> 18) & 63];
		*o++ = alphabet[(v >> 12) & 63];
		*o++ = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
		*o++ = i + 2 < n ? alphabet[v & 63] : '=';
	}
	*o = '\0';
	return out;
}

static int value_of(char c)
{
	const char *q = c ? strchr(alphabet, c) : NULL;

	return q ? (int)(q - alphabet) : -1;
}

int pl_base64_decode(const char *s, unsigned char **out, size_t *n)
{
	size_t len = strlen(s), k = 0;
	unsigned char *buf;

	*out = NULL;
	*n = 0;
	if (len % 4)
		return -1;
	buf = malloc(len / 4 * 3 + 1);
	if (!buf)
		return -2;
	for (size_t i = 0; i < len; i += 4) {
		int a = value_of(s[i]), b = value_of(s[i + 1]);
		int last = i + 4 == len;
		int c = s[i + 2] == '=' && last ? -2 : value_of(s[i + 2]);
		int d = s[i + 3] == '=' && last ? -2 : value_of(s[i + 3]);
		if (a < 0 || b < 0 || c == -1 || d == -1 || (c == -2 && d != -2)) {
			free(buf);
			return -1;
		}
		unsigned v = (unsigned)a << 18 | (unsigned)b << 12 | (unsigned)(c < 0 ? 0 : c) << 6 |
		             (unsigned)(d < 0 ? 0 : d);
		buf[k++] = (unsigned char)(v >> 16);
		if (c >= 0)
			buf[k++] = (unsigned char)(v >> 8);
		if (d >= 0)
			buf[k++] = (unsigned char)v;
	}
	*out = buf;
	*n = k;
	return 0;
}
