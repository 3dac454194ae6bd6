/*
 * test_options.c — the CLI's option table (src/cli/options.c): long and
 * short forms, --opt=value and --opt value, unique prefixes, a missing
 * value, an unknown option's message, repeated options, "--" ending the
 * options, operands handed over in order, and the usage text generated
 * from a small table. stdout and stderr are captured into temporary files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/cli.h"
#include "cli/options.h"

/* Output captured from one file descriptor. */
struct capture {
	int fd;      /* 1 or 2 */
	int saved;   /* the original, restored by capture_end */
	FILE *tmp;   /* where the output went */
	char text[4096];
};

static void capture_begin(struct capture *c, int fd)
{
	fflush(fd == 1 ? stdout : stderr);
	c->fd = fd;
	c->saved = dup(fd);
	c->tmp = tmpfile();
	assert_non_null(c->tmp);
	assert_true(c->saved >= 0);
	assert_true(dup2(fileno(c->tmp), fd) >= 0);
}

static const char *capture_end(struct capture *c)
{
	size_t n;

	fflush(c->fd == 1 ? stdout : stderr);
	dup2(c->saved, c->fd);
	close(c->saved);
	rewind(c->tmp);
	n = fread(c->text, 1, sizeof(c->text) - 1, c->tmp);
	c->text[n] = '\0';
	fclose(c->tmp);
	return c->text;
}

/* What the options of the test table set. */
struct got {
	const char *name; /* --name / -n VALUE */
	int verbose;      /* --verbose / -v */
	int all;          /* --all / -a */
	char seen[256];   /* --tag values and operands, in order, ';'-separated */
};

/* Appends prefix, arg and ';' to g->seen. */
static void append(struct got *g, const char *prefix, const char *arg)
{
	size_t len = strlen(g->seen);

	snprintf(g->seen + len, sizeof(g->seen) - len, "%s%s;", prefix, arg);
}

static int on_tag(void *vg, const char *arg, const char *cmd)
{
	struct got *g = vg;

	(void)cmd;
	if (strcmp(arg, "bad") == 0) {
		pl_cli_errorf(cmd, "bad --tag '%s'", arg);
		return PL_EXIT_USAGE;
	}
	append(g, "tag=", arg);
	return 0;
}

static int on_operand(void *vg, const char *arg, const char *cmd)
{
	struct got *g = vg;

	(void)cmd;
	append(g, "", arg);
	return 0;
}

/* Set by a test: the table's command takes no operand. */
static int no_operands;

/* Parses the NULL-ended words (words[0] is the command) with the test
 * table; returns the parser's result, *argi the first operand. */
static int parse(struct got *g, int *argi, pl_opt_cb operand, const char **words)
{
	const struct pl_option options[] = {
		PL_OPT_STRING_ENTRY("name", 'n', "NAME", &g->name, "the name"),
		PL_OPT_FLAG_ENTRY("verbose", 'v', &g->verbose, "say more"),
		PL_OPT_FLAG_ENTRY("all", 'a', &g->all, NULL),
		PL_OPT_CALLBACK_ENTRY("tag", 0, "TAG", g, on_tag, "a tag (repeatable)\nsecond line"),
		PL_OPT_CALLBACK_ENTRY("tagline", 0, "T", g, on_tag, NULL),
		PL_OPT_END_ENTRY,
	};
	const struct pl_usage usage = {
		.cmd = "demo",
		.head = "usage: perfledger demo [OPTIONS] ARG...\n\n",
		.options = options,
		.width = 16,
		.tail = "\nmore text\n",
		.operand = operand,
		.operand_data = g,
		.no_operands = no_operands,
	};
	char *argv[16];
	int argc = 0;

	memset(g, 0, sizeof(*g));
	for (; words[argc]; argc++)
		argv[argc] = (char *)words[argc];
	argv[argc] = NULL;
	*argi = -1;
	{
		int rc = pl_options_parse(&usage, argc, argv, argi);
		for (int i = 0; i < argc; i++) /* argv as the parser left it (permuted) */
			words[i] = argv[i];
		return rc;
	}
}

static void long_and_short_forms(void **state)
{
	struct got g;
	int argi;
	(void)state;

	const char *a[] = {"demo", "--name", "x", "--verbose", "op", NULL};
	assert_int_equal(parse(&g, &argi, NULL, a), PL_OPTIONS_CONTINUE);
	assert_string_equal(g.name, "x");
	assert_int_equal(g.verbose, 1);
	assert_int_equal(argi, 4);

	const char *b[] = {"demo", "-n", "y", "-v", NULL};
	assert_int_equal(parse(&g, &argi, NULL, b), PL_OPTIONS_CONTINUE);
	assert_string_equal(g.name, "y");
	assert_int_equal(g.verbose, 1);
	assert_int_equal(argi, 4);

	/* -nVALUE, and clustered flags */
	const char *c[] = {"demo", "-nz", "-va", NULL};
	assert_int_equal(parse(&g, &argi, NULL, c), PL_OPTIONS_CONTINUE);
	assert_string_equal(g.name, "z");
	assert_int_equal(g.verbose, 1);
	assert_int_equal(g.all, 1);
}

static void equals_and_separate_values(void **state)
{
	struct got g;
	int argi;
	(void)state;

	const char *a[] = {"demo", "--name=a=b", NULL};
	assert_int_equal(parse(&g, &argi, NULL, a), PL_OPTIONS_CONTINUE);
	assert_string_equal(g.name, "a=b");

	/* a value may be empty, or start with '-' */
	const char *b[] = {"demo", "--name=", NULL};
	assert_int_equal(parse(&g, &argi, NULL, b), PL_OPTIONS_CONTINUE);
	assert_string_equal(g.name, "");
	const char *c[] = {"demo", "--name", "--verbose", NULL};
	assert_int_equal(parse(&g, &argi, NULL, c), PL_OPTIONS_CONTINUE);
	assert_string_equal(g.name, "--verbose");
	assert_int_equal(g.verbose, 0);

	/* a unique prefix names the option; an exact name wins over longer ones */
	const char *d[] = {"demo", "--na", "p", "--tag", "t", "--tagl", "u", NULL};
	assert_int_equal(parse(&g, &argi, NULL, d), PL_OPTIONS_CONTINUE);
	assert_string_equal(g.name, "p");
	assert_string_equal(g.seen, "tag=t;tag=u;");
}

static void missing_value_and_unknown_option(void **state)
{
	struct capture c;
	struct got g;
	int argi;
	(void)state;

	const char *a[] = {"demo", "--name", NULL};
	capture_begin(&c, 2);
	assert_int_equal(parse(&g, &argi, NULL, a), PL_EXIT_USAGE);
	assert_string_equal(capture_end(&c), "perfledger: demo: option '--name' needs a value "
	                                     "(--name NAME)\nsee 'perfledger demo --help'\n");

	const char *b[] = {"demo", "--nosuch=1", "x", NULL};
	capture_begin(&c, 2);
	assert_int_equal(parse(&g, &argi, NULL, b), PL_EXIT_USAGE);
	assert_string_equal(capture_end(&c), "perfledger: demo: unknown option "
	                                     "'--nosuch=1'\nsee 'perfledger demo --help'\n");

	/* an ambiguous prefix, a value given to a flag, an unknown short option */
	const char *d[] = {"demo", "--ta", "x", NULL};
	capture_begin(&c, 2);
	assert_int_equal(parse(&g, &argi, NULL, d), PL_EXIT_USAGE);
	assert_string_equal(capture_end(&c), "perfledger: demo: ambiguous option '--ta' (--tag, "
	                                     "--tagline)\nsee 'perfledger demo --help'\n");
	const char *e[] = {"demo", "--verbose=1", NULL};
	capture_begin(&c, 2);
	assert_int_equal(parse(&g, &argi, NULL, e), PL_EXIT_USAGE);
	assert_string_equal(capture_end(&c), "perfledger: demo: option '--verbose' takes no value "
	                                     "(got '--verbose=1')\nsee 'perfledger demo --help'\n");
	const char *f[] = {"demo", "-q", NULL};
	capture_begin(&c, 2);
	assert_int_equal(parse(&g, &argi, NULL, f), PL_EXIT_USAGE);
	assert_string_equal(capture_end(&c), "perfledger: demo: unknown option '-q'\n"
	                                     "see 'perfledger demo --help'\n");
	/* one bad letter of a cluster is named alone */
	const char *g2[] = {"demo", "-vq", NULL};
	capture_begin(&c, 2);
	assert_int_equal(parse(&g, &argi, NULL, g2), PL_EXIT_USAGE);
	assert_string_equal(capture_end(&c), "perfledger: demo: unknown option '-q'\n"
	                                     "see 'perfledger demo --help'\n");

	/* a handler's error is its own message, and a usage error */
	const char *h[] = {"demo", "--tag", "bad", NULL};
	capture_begin(&c, 2);
	assert_int_equal(parse(&g, &argi, NULL, h), PL_EXIT_USAGE);
	assert_string_equal(capture_end(&c), "perfledger: demo: bad --tag 'bad'\n");

	/* an unknown long option: the same two lines, never the whole usage */
	const char *k[] = {"demo", "--nosuch", NULL};
	capture_begin(&c, 2);
	assert_int_equal(parse(&g, &argi, NULL, k), PL_EXIT_USAGE);
	assert_string_equal(capture_end(&c), "perfledger: demo: unknown option '--nosuch'\n"
	                                     "see 'perfledger demo --help'\n");
}

static void repeated_options_apply_in_order(void **state)
{
	struct got g;
	int argi;
	(void)state;

	const char *a[] = {"demo", "--tag", "1", "--name", "a", "--tag=2", "--name", "b", NULL};
	assert_int_equal(parse(&g, &argi, NULL, a), PL_OPTIONS_CONTINUE);
	assert_string_equal(g.seen, "tag=1;tag=2;");
	assert_string_equal(g.name, "b"); /* the last one wins */
	assert_int_equal(argi, 8);
}

static void double_dash_ends_options(void **state)
{
	struct got g;
	int argi;
	(void)state;

	const char *a[] = {"demo", "-v", "--", "--name", "x", NULL};
	assert_int_equal(parse(&g, &argi, NULL, a), PL_OPTIONS_CONTINUE);
	assert_int_equal(argi, 3);
	assert_null(g.name);

	/* options may follow operands ("-" is one); the operands are gathered
	 * at the end of argv in their order, those after "--" last */
	const char *b[] = {"demo", "-", "--verbose", NULL};
	assert_int_equal(parse(&g, &argi, NULL, b), PL_OPTIONS_CONTINUE);
	assert_int_equal(argi, 2);
	assert_string_equal(b[2], "-");
	assert_int_equal(g.verbose, 1);
	const char *d[] = {"demo", "x", "--name", "n", "y", "-v", "--", "--tag", NULL};
	assert_int_equal(parse(&g, &argi, NULL, d), PL_OPTIONS_CONTINUE);
	assert_int_equal(argi, 5);
	assert_string_equal(g.name, "n");
	assert_int_equal(g.verbose, 1);
	assert_string_equal(d[5], "x");
	assert_string_equal(d[6], "y");
	assert_string_equal(d[7], "--tag");

	/* with an operand handler, options may follow operands; after "--" not */
	const char *c[] = {"demo", "x", "--tag", "t", "y", "--", "--tag", NULL};
	assert_int_equal(parse(&g, &argi, on_operand, c), PL_OPTIONS_CONTINUE);
	assert_string_equal(g.seen, "x;tag=t;y;--tag;");
	assert_int_equal(argi, 7);
}

static void no_operands_is_a_usage_error(void **state)
{
	struct capture c;
	struct got g;
	int argi;
	(void)state;

	no_operands = 1;
	const char *a[] = {"demo", "-v", "extra", "--name", "n", NULL};
	capture_begin(&c, 2);
	assert_int_equal(parse(&g, &argi, NULL, a), PL_EXIT_USAGE);
	assert_string_equal(capture_end(&c), "perfledger: demo: unexpected argument 'extra'\n");
	const char *b[] = {"demo", "-v", "--", NULL};
	assert_int_equal(parse(&g, &argi, NULL, b), PL_OPTIONS_CONTINUE);
	assert_int_equal(argi, 3);
	no_operands = 0;
}

static const char demo_usage[] = "usage: perfledger demo [OPTIONS] ARG...\n"
                                 "\n"
                                 "  -n, --name NAME the name\n"
                                 "  -v, --verbose   say more\n"
                                 "  --tag TAG       a tag (repeatable)\n"
                                 "                  second line\n"
                                 "\n"
                                 "more text\n";

static void generated_usage_text(void **state)
{
	struct capture c;
	struct got g;
	int argi;
	(void)state;

	/* --help and -h print the usage to stdout and say: exit 0 */
	const char *a[] = {"demo", "--verbose", "--help", "--nosuch", NULL};
	capture_begin(&c, 1);
	assert_int_equal(parse(&g, &argi, NULL, a), PL_EXIT_OK);
	assert_string_equal(capture_end(&c), demo_usage);
	const char *b[] = {"demo", "-h", NULL};
	capture_begin(&c, 1);
	assert_int_equal(parse(&g, &argi, NULL, b), PL_EXIT_OK);
	assert_string_equal(capture_end(&c), demo_usage);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(long_and_short_forms),
		cmocka_unit_test(equals_and_separate_values),
		cmocka_unit_test(missing_value_and_unknown_option),
		cmocka_unit_test(repeated_options_apply_in_order),
		cmocka_unit_test(double_dash_ends_options),
		cmocka_unit_test(no_operands_is_a_usage_error),
		cmocka_unit_test(generated_usage_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
