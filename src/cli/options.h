/*
 * options.h — the option table of a command (as git's parse-options): one
 * table per command names each option (long name, short name, value
 * placeholder, one line of help, and a destination or a handler) and drives
 * both the parsing of argv and the --help text, so that an option cannot be
 * parsed without being documented or documented without being parsed. The
 * free text around the option list (synopsis, description, a closing
 * paragraph, a generated table) is part of the command's usage description.
 * This is CLI code: it prints its messages itself.
 */
#ifndef PL_CLI_OPTIONS_H
#define PL_CLI_OPTIONS_H

#include <stdio.h>

/* What an option does when given. */
enum pl_opt_type {
	PL_OPT_END = 0, /* ends a table */
	PL_OPT_FLAG,    /* sets *(int *)value to 1; takes no value */
	PL_OPT_STRING,  /* sets *(const char **)value to the value (argv's, not copied) */
	PL_OPT_CALLBACK /* calls cb(value, arg, cmd); arg is NULL for an option without argh */
};

/* A handler: value is the option's value pointer, arg its argument (NULL
 * when the option takes none), cmd the command name for messages. Returns
 * 0, or prints its error (pl_cli_errorf) and returns nonzero: the command
 * then exits PL_EXIT_USAGE. */
typedef int (*pl_opt_cb)(void *value, const char *arg, const char *cmd);

/* One option. A table is an array ended by PL_OPT_END_ENTRY. */
struct pl_option {
	enum pl_opt_type type; /* what it does */
	const char *long_name; /* "axis" for --axis; NULL: short form only */
	char short_name;       /* 'x' for -x; 0: long form only */
	const char *argh;      /* value placeholder shown in help ("FIELD"); NULL:
	                          the option takes no value (only FLAG and CALLBACK) */
	void *value;           /* destination (FLAG, STRING) or handler's data */
	pl_opt_cb cb;          /* handler (CALLBACK) */
	const char *help;      /* help text; '\n' starts a continuation line,
	                          indented to the help column; NULL: not listed */
};

#define PL_OPT_FLAG_ENTRY(l, s, v, h) {PL_OPT_FLAG, (l), (s), NULL, (v), NULL, (h)}
#define PL_OPT_STRING_ENTRY(l, s, a, v, h) {PL_OPT_STRING, (l), (s), (a), (v), NULL, (h)}
#define PL_OPT_CALLBACK_ENTRY(l, s, a, v, f, h) {PL_OPT_CALLBACK, (l), (s), (a), (v), (f), (h)}
#define PL_OPT_END_ENTRY {PL_OPT_END, NULL, 0, NULL, NULL, NULL, NULL}

/* A command's usage: the table and the text around it. --help and -h are
 * built in (print the usage to stdout) and are not listed. */
struct pl_usage {
	const char *cmd;                 /* command name, for messages */
	const char *head;                /* printed first: synopsis and description */
	const struct pl_option *options; /* the table; options with help are listed
	                                    after head, one per line */
	int width;                       /* width of the option column (label and
	                                    gap); the help text starts at 2 + width */
	const char *tail;                /* printed after the option list, or NULL */
	void (*more)(FILE *f);           /* prints a generated table last, or NULL */
	pl_opt_cb operand;               /* NULL: operands are gathered at the end
	                                    of argv; else called for each operand
	                                    in order (with operand_data) */
	void *operand_data;              /* the value handed to operand */
	int no_operands;                 /* 1: an operand is a usage error,
	                                    "unexpected argument 'X'" */
};

/* Returned by pl_options_parse() when the command should go on. */
#define PL_OPTIONS_CONTINUE (-1)

/* Parses argv[1..argc-1] (argv[0] is the command name) by u's table:
 * --name VALUE, --name=VALUE, a unique prefix of a long name, -x VALUE,
 * -xVALUE, clustered short flags; "--" ends the options, "-" is an operand.
 * Options may follow operands anywhere before "--" (`import FILE --set
 * x=y`), as in git and GNU tools. Options are applied in order; a repeated
 * option is applied again. Returns PL_OPTIONS_CONTINUE with *argi the
 * index of the first operand: argv is permuted so that argv[*argi..argc)
 * are every operand in their order, those after "--" last (argc when none;
 * with u->operand set, every operand was handed to it and *argi is argc;
 * with u->no_operands an operand is an error). Otherwise returns the exit status to return now:
 * PL_EXIT_OK after printing the usage for --help, PL_EXIT_USAGE after an
 * error was printed (unknown or ambiguous option, missing or unexpected
 * value, a handler's error): one line, then "see 'perfledger CMD --help'". */
int pl_options_parse(const struct pl_usage *u, int argc, char **argv, int *argi);

/* The hidden first argument that makes pl_options_parse() print the listed
 * options (pl_options_list) and return PL_EXIT_OK instead of parsing, as
 * git's --git-completion-helper: the completion scripts and the manual's
 * check read the option tables through it. Only an exact argv[1] matches
 * (never a prefix), so it takes no prefix away from a command's options. */
#define PL_OPTIONS_HELPER "--completion-helper"

/* Writes every option of u's table to f (those --help describes in its
 * free text rather than in the option list too), one a line in table order: "--long<TAB>-x<TAB>ARGH", a field empty when the
 * option has no long name, no short name or takes no value. */
void pl_options_list(const struct pl_usage *u, FILE *f);

/* Writes u's usage text to f: head, the listed options, tail, more(). */
void pl_options_usage(const struct pl_usage *u, FILE *f);

/* Prints the usage error "perfledger: CMD: unknown option 'ARG'" (with a
 * "did you mean" when a long name is close), then "see 'perfledger CMD
 * --help'". Returns PL_EXIT_USAGE. */
int pl_options_usage_error(const struct pl_usage *u, const char *arg);

#endif
