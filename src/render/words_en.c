/*
 * words_en.c — the English table of words.h: one template per message
 * code of core/msg.h. Keep the rows in the order of PL_MSG_CODES, one
 * block per block there.
 */
#include "core/msg.h"

const char *const pl_words_en[PL_MSG_COUNT] = {
	[PL_MSG_TEXT] = "{1}",
	/* bundle identity, offline verify and errata (issue 25) */
	[PL_MSG_BUNDLE_HOW_TO_CHECK] = "How to check this report: its bundle id is {1}. In the bundle's directory, 'perfledger verify --offline . --id {1}' checks every file against manifest.json and recomputes the id from the runs the bundle ships (runs.jsonl) and its definition (definition.json). To re-render it from the data, import runs.jsonl into an empty ledger ('perfledger import runs.jsonl') and run 'perfledger verify .' there.",
	[PL_MSG_BUNDLE_ERRATA_SINCE] = "Errata since bundle {1} (as of {2}), from the ledger's trail of the selected runs:",
	[PL_MSG_BUNDLE_ERRATA_NONE] = "Errata since bundle {1} (as of {2}): the ledger's trail records no change to the selected runs.",
	[PL_MSG_BUNDLE_ERRATUM_AMENDED] = "{1}: amended {2} {3} -> {4} (\"{5}\", {6}, {7})",
	[PL_MSG_BUNDLE_ERRATUM_RETRACTED] = "{1}: retracted (\"{2}\", {3}, {4})",
	[PL_MSG_BUNDLE_ERRATUM_RESTORED] = "{1}: restored (\"{2}\", {3}, {4})",
	[PL_MSG_BUNDLE_ERRATUM_ADDED] = "{1}: added (imported {2})",
	[PL_MSG_VERIFY_RUN_ABSENT] = "{1} is not in this ledger (purged since, or never imported here)",
	[PL_MSG_VERIFY_RUN_RETRACTED] = "run {1} ({2}) was retracted after this bundle",
	[PL_MSG_VERIFY_RUN_AMENDED] = "run {1} ({2}) was amended after this bundle: revision {3} -> {4}",
	[PL_MSG_VERIFY_RUN_OLDER] = "run {1} ({2}) is at revision {4} here, older than the bundle's revision {3}: this ledger lacks its later amends",
	[PL_MSG_VERIFY_RUN_LEFT] = "run {1} ({2}) has left the bundle's selection",
	[PL_MSG_VERIFY_RUN_NEW] = "run {1} ({2}) is new to the bundle's selection (imported, restored or amended since)",
	[PL_MSG_VERIFY_SUPERSEDED] = "superseded: the ledger was corrected since this bundle ('perfledger report --as-of TIME' renders the runs as they stood then)",
	[PL_MSG_VERIFY_FILE_CHANGED] = "changed: {1}",
	[PL_MSG_VERIFY_FILE_MISSING] = "missing: {1}",
	[PL_MSG_VERIFY_FILE_ADDED] = "added: {1}",
	[PL_MSG_VERIFY_OFFLINE_OK] = "bundle '{1}' is intact: every file matches manifest.json, and bundle id {2} is recomputed from runs.jsonl and definition.json",
	[PL_MSG_VERIFY_OFFLINE_BAD] = "bundle '{1}' does not match its manifest: {2} file(s)",
	[PL_MSG_VERIFY_ID_MANIFEST] = "the shipped runs and definition give bundle id {1}, but manifest.json names {2}",
	[PL_MSG_VERIFY_ID_GIVEN] = "the bundle id is {1}, not the id given ({2})",
	[PL_MSG_VERIFY_ID_OK] = "bundle id {1}: the id given",
	[PL_MSG_VERIFY_AS_OF_SAME] = "with the runs as they stood at {1} (its as-of time), the bundle re-renders byte for byte: it shows what the ledger held then",
};
