/*
 * caveat_text.h — a comparison's caveat i worded in English, for tests
 * that assert its exact text. The text lives in one of 8 rotating static
 * buffers (so two calls can sit in one assertion); nothing to free.
 */
#ifndef PL_TEST_CAVEAT_TEXT_H
#define PL_TEST_CAVEAT_TEXT_H

#include <stdio.h>

#include "core/compare.h"
#include "render/words.h"
#include "util/buf.h"

#if defined(__GNUC__)
__attribute__((unused))
#endif
static const char *cav_en(const struct pl_comparison *c, size_t i)
{
	static char bufs[8][4096];
	static unsigned next;
	char *out = bufs[next++ % 8];
	struct pl_buf b = PL_BUF_INIT;

	if (i >= c->caveats.n)
		return "(no such caveat)";
	pl_words_add(&b, &c->caveats.v[i], PL_LANG_EN);
	snprintf(out, sizeof(bufs[0]), "%s", b.data);
	pl_buf_release(&b);
	return out;
}

#endif
