/*
 * util/utf8.h — UTF-8 well-formedness and decoding (RFC 3629), and the
 * code points that must never reach a terminal as they are. Pure functions
 * on byte ranges: no allocation, no errors. core/model.h includes this
 * header, so its callers need no change.
 */
#ifndef PL_UTIL_UTF8_H
#define PL_UTIL_UTF8_H

#include <stddef.h>

/* Offset of the first byte of text[0..len) that does not start or continue
 * a well-formed UTF-8 sequence (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF; a sequence cut short by len is not well formed),
 * or len when all of it is UTF-8. */
size_t pl_utf8_valid_prefix(const char *text, size_t len);

/* Decodes one UTF-8 sequence at s (at most n bytes), with the rules of
 * pl_utf8_valid_prefix(). Returns its length (1..4) and sets *cp, or
 * returns 0 when s does not start with a well-formed sequence (then one
 * byte should be treated as invalid). */
size_t pl_utf8_decode(const char *s, size_t n, unsigned long *cp);

/* 1 if code point cp must never reach a terminal as it is: C0 controls
 * (tab and newline included: callers keep what they allow), DEL, C1
 * controls, and the bidi marks, overrides and isolates (U+200E-200F,
 * U+202A-202E, U+2066-2069: "trojan source" reordering). */
int pl_cp_is_control(unsigned long cp);

/* The one rule for text that reaches a terminal (stderr messages, every
 * text or Markdown table and list on stdout): looks at the character that
 * starts s (n > 0 bytes) and returns how many bytes it takes (1 for a byte
 * that starts no well-formed sequence); sets *inert to 1 when it must be
 * shown as '?' instead: a byte that is not UTF-8 (a lone 0x9B is CSI to some
 * terminals), any C0 control (tab and newline too), DEL, a C1 control, a
 * bidi mark, override or isolate (pl_cp_is_control()). *cp gets the code
 * point (the byte for an invalid one). */
size_t pl_utf8_inert_step(const char *s, size_t n, unsigned long *cp, int *inert);

#endif
