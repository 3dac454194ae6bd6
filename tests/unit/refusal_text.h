/*
 * refusal_text.h — a refused comparison worded in English in one line, for
 * tests that assert its exact text: the error's count of fields, then
 * each field as the command line words it (render/refusal.h, values and
 * their runs uncut), joined by "; ". One static buffer; nothing to free.
 */
#ifndef PL_TEST_REFUSAL_TEXT_H
#define PL_TEST_REFUSAL_TEXT_H

#include <stdio.h>
#include <stdlib.h>

#include "core/compare.h"
#include "render/refusal.h"
#include "util/error.h"

#if defined(__GNUC__)
__attribute__((unused))
#endif
static const char *refusal_en(const struct pl_error *e, const struct pl_comparison *c)
{
	static char buf[8192];
	size_t at = (size_t)snprintf(buf, sizeof(buf), "%s:", e->message);

	for (size_t i = 0; i < c->nmismatches && at < sizeof(buf); i++) {
		char *line = pl_refusal_field_line(&c->mismatches[i], 0, 0, PL_LANG_EN);
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s %s", i ? ";" : "",
		                       line ? line : "(out of memory)");
		free(line);
	}
	return buf;
}

#endif
