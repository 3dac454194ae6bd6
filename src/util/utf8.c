/*
 * utf8.c — UTF-8 validation and decoding (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF) and the terminal-control test; see
 * util/utf8.h.
 */
#include "util/utf8.h"

#include <stdint.h>
#include <string.h>

/* RFC 3629 well-formed UTF-8: no overlong forms, no surrogates, nothing
 * above U+10FFFF. */
size_t pl_utf8_valid_prefix(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0;

	while (i < len) {
		unsigned long cp;
		size_t k;

		if (s[i] < 0x80) {
			/* ASCII runs: eight bytes at a time while no high bit is set */
			i++;
			while (i + 8 <= len) {
				uint64_t w;
				memcpy(&w, s + i, 8);
				if (w & 0x8080808080808080ull)
					break;
				i += 8;
			}
			continue;
		}
		if ((k = pl_utf8_decode(text + i, len - i, &cp)) == 0)
			return i;
		i += k;
	}
	return len;
}

static int is_cont(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

size_t pl_utf8_decode(const char *str, size_t n, unsigned long *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char lo = 0x80, hi = 0xBF;
	size_t len;
	unsigned long v;

	if (n == 0)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		len = 2;
		v = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		len = 3;
		v = s[0] & 0x0F;
		if (s[0] == 0xE0)
			lo = 0xA0; /* no overlong forms */
		else if (s[0] == 0xED)
			hi = 0x9F; /* no surrogates */
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		len = 4;
		v = s[0] & 0x07;
		if (s[0] == 0xF0)
			lo = 0x90;
		else if (s[0] == 0xF4)
			hi = 0x8F; /* <= U+10FFFF */
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if (!is_cont(s[i]))
			return 0;
		v = (v << 6) | (s[i] & 0x3F);
	}
	*cp = v;
	return len;
}

int pl_cp_is_control(unsigned long cp)
{
	return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
	       (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E ||
	       cp == 0x200F;
}

size_t pl_utf8_inert_step(const char *s, size_t n, unsigned long *cp, int *inert)
{
	size_t k = pl_utf8_decode(s, n, cp);

	if (k == 0) {
		*cp = (unsigned char)s[0];
		*inert = 1;
		return 1;
	}
	*inert = pl_cp_is_control(*cp);
	return k;
}
