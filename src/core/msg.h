/*
 * core/msg.h — messages as data: a code and typed arguments (after
 * libgit2's errors and git's i18n). Every caveat, refusal line and note
 * the library hands to a renderer or to the command line leaves it as a
 * struct pl_msg, never as a finished sentence; render/words.c words each
 * code once per language (en, zh-CN), and text, Markdown, HTML, SVG and
 * the workbook all go through it.
 *
 * Adding a message: an entry in PL_MSG_CODES (its contract names the
 * arguments in order and their kinds), then one row in each language's
 * table in render/words.c. unit_words fails when a code lacks a row in
 * either language or a row names an argument the code does not have.
 *
 * Arguments are owned by the message (copied in); pl_msg_release() frees
 * them. Adders never fail loudly: an allocation failure sets the sticky
 * oom flag, which pl_msgs_push() turns into PL_ENOMEM, so a message can be
 * built in a straight sequence and checked once.
 */
#ifndef PL_CORE_MSG_H
#define PL_CORE_MSG_H

#include <stddef.h>

/* The codes, as one X-macro list so the enum and the code names cannot
 * drift: X(NAME, "argument contract"). The contract names each argument
 * {1}, {2}, ... with its kind, as the word tables use them. Each issue's
 * or module's new codes go in their own commented block. */
#define PL_MSG_CODES(X) \
	/* a plain text carried unchanged (a sentence not yet a code: its \
	 * wording is the same in every language, so the zh-CN \
	 * English-sentence test fails on it) */ \
	X(TEXT, "{1} TEXT the sentence") \
	/* the nightly gate over every series (core/gate_night.h) */ \
	X(GATE_HEAD, "{1} INT series; {2} INT checks; {3} INT window points; {4} NUM family-wise alpha; {5} NUM threshold in percent") \
	X(GATE_SERIES, "{1} TEXT the series label; {2} TEXT its latest point") \
	X(GATE_OPEN_SINCE, "{1} TEXT the first point of the open regression") \
	X(GATE_ACROSS, "{1} TEXT the change of conditions, 'field old -> new'") \
	X(GATE_STARTED, "{1} INT points it has; {2} INT points it needs before it is gated") \
	X(GATE_BY_FAMILY, "{1} INT series pooled; {2} NUM their Stouffer Z") \
	X(GATE_FAILED_RUNS, "{1} RUNS the failed runs of the latest point") \
	X(GATE_QUIET, "{1} INT checks without a change") \
	X(GATE_RESULT, "{1} INT regressions; {2} INT improvements; {3} INT accepted; {4} INT series with failed runs; {5} INT series started") \
	/* import --from-ci-env (core/ci_env.h) */ \
	X(CI_ENV_MISSING, "{1} TEXT the CI detected; {2} LIST the variables unset or empty") \
	/* repeated caveats collapsed in check and history text (render/regress.c) */ \
	X(CAVEAT_REPEATED, "{1} INT further caveats like it")

enum pl_msg_code {
	PL_MSG_NONE = 0, /* no message (an unset struct pl_msg) */
#define PL_MSG_ENUM_(name, contract) PL_MSG_##name,
	PL_MSG_CODES(PL_MSG_ENUM_)
#undef PL_MSG_ENUM_
	PL_MSG_COUNT /* number of codes; not a code */
};

/* The argument contract of code (the string of its PL_MSG_CODES entry),
 * "" for PL_MSG_NONE, NULL out of range. Static storage. */
const char *pl_msg_code_contract(enum pl_msg_code code);

/* What an argument holds, and so how a word table prints it. */
enum pl_msg_kind {
	PL_MA_TEXT = 1, /* s: text from input or a name; printed as it is */
	PL_MA_INT,      /* i: a count, an id or an index */
	PL_MA_NUM,      /* d: a number; printed in the C locale by the row's
	                   spec ({N:.2f}) or else with 4 significant digits */
	PL_MA_FIELD,    /* s: a canonical condition or metric name (DESIGN.md's
	                   vocabulary); printed as it is in every language */
	PL_MA_RUNS,     /* ids/nids: run ids, printed "3, 5, 7" and, past 10,
	                   "and K more" in the row's language */
	PL_MA_LIST,     /* v/nv: several texts, joined by the language's
	                   list separator (", " / "、") */
	PL_MA_CODE,     /* i: another code with no arguments (a word such as
	                   a flag), worded in the same language */
};

/* One argument. Only the members of its kind are set. */
struct pl_msg_arg {
	enum pl_msg_kind kind; /* what it holds */
	long long i;           /* PL_MA_INT, PL_MA_CODE */
	double d;              /* PL_MA_NUM */
	char *s;               /* PL_MA_TEXT, PL_MA_FIELD; owned */
	long long *ids;        /* PL_MA_RUNS; owned */
	size_t nids;           /* entries in ids */
	char **v;              /* PL_MA_LIST; owned, each owned */
	size_t nv;             /* entries in v */
};

/* The most arguments a message carries. */
#define PL_MSG_MAX_ARGS 10

/* A message. Initialise with pl_msg_init(), release with pl_msg_release(). */
struct pl_msg {
	enum pl_msg_code code;                  /* what it says */
	unsigned nargs;                         /* arguments in use */
	struct pl_msg_arg args[PL_MSG_MAX_ARGS]; /* args[0] is {1} in a row */
	int oom;                                /* sticky: an adder failed
	                                           (allocation, or more than
	                                           PL_MSG_MAX_ARGS arguments) */
};

/* A growable list of messages (the caveats of a comparison, say). */
struct pl_msgs {
	struct pl_msg *v; /* n messages, owned */
	size_t n;         /* messages in v */
	size_t cap;       /* allocated entries */
};

/* Starts an empty message with code. m must not be NULL. */
void pl_msg_init(struct pl_msg *m, enum pl_msg_code code);

/* Frees m's arguments and leaves it as pl_msg_init(m, PL_MSG_NONE) would.
 * NULL is a no-op. */
void pl_msg_release(struct pl_msg *m);

/* Adders: each appends one argument of its kind (copying s, ids, v).
 * Return 0, or PL_ENOMEM with m->oom set (also when m already holds
 * PL_MSG_MAX_ARGS arguments). A NULL s is stored as "". */
int pl_msg_text(struct pl_msg *m, const char *s);
int pl_msg_int(struct pl_msg *m, long long i);
int pl_msg_num(struct pl_msg *m, double d);
int pl_msg_field(struct pl_msg *m, const char *name);
int pl_msg_runs(struct pl_msg *m, const long long *ids, size_t nids);
int pl_msg_list(struct pl_msg *m, const char *const *v, size_t nv);
int pl_msg_code_arg(struct pl_msg *m, enum pl_msg_code word);

/* Deep copy of src into *dst (dst initialised here). Returns 0 or
 * PL_ENOMEM (dst then released). */
int pl_msg_copy(struct pl_msg *dst, const struct pl_msg *src);

/* 1 if a and b have the same code and equal arguments (so a list of
 * caveats can collapse repeats into one line with a count), else 0. */
int pl_msg_equal(const struct pl_msg *a, const struct pl_msg *b);

/* The code's stable name (PL_MSG_TEXT's is "TEXT"), for JSON output and
 * tests; "NONE" for PL_MSG_NONE, "?" out of range. Static storage. */
const char *pl_msg_code_name(enum pl_msg_code code);

/* Appends *m to l, taking its arguments over (m is left as after
 * pl_msg_init(m, PL_MSG_NONE)). Returns 0, or PL_ENOMEM when m->oom is set
 * or the list cannot grow (m is then released). */
int pl_msgs_push(struct pl_msgs *l, struct pl_msg *m);

/* A one-argument PL_MSG_TEXT message appended to l (legacy sentences).
 * Returns 0 or PL_ENOMEM. */
int pl_msgs_push_text(struct pl_msgs *l, const char *text);

/* Frees every message and the list; l is left empty. NULL is a no-op. */
void pl_msgs_release(struct pl_msgs *l);

#endif
