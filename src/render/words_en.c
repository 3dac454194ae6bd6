/*
 * words_en.c — the English table of words.h: one template per message
 * code of core/msg.h. Keep the rows in the order of PL_MSG_CODES, one
 * block per block there.
 */
#include "core/msg.h"

const char *const pl_words_en[PL_MSG_COUNT] = {
	[PL_MSG_TEXT] = "{1}",
	/* goodput and its SLO */
	[PL_MSG_GOODPUT_SLO_MISSING] = "goodput is n/a: runs {1} record no SLO for their goodput (the others: {2}); goodput values compare only under one SLO",
	[PL_MSG_GOODPUT_SLO_DIFFERS] = "goodput is n/a: its values were counted against different SLOs ({1}); goodput values compare only under one SLO",
};
