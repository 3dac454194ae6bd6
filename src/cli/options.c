/*
 * options.c — the option parser and usage printer every command uses (see
 * options.h). It follows getopt_long as the commands used it before ("+h":
 * options end at the first operand, unique prefixes of long names accepted,
 * a value may start with '-'), so that command lines keep their meaning.
 */
#include "cli/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/suggest.h"

/* The built-in --help / -h. */
static const struct pl_option help_option = {PL_OPT_FLAG, "help", 'h', NULL, NULL, NULL, NULL};

/* Why an option could not be applied: the words of its usage error. */
enum opt_why {
	WHY_UNKNOWN,   /* no such option */
	WHY_AMBIGUOUS, /* a prefix of several long names */
	WHY_NO_VALUE,  /* the option needs a value and none followed */
	WHY_HAS_VALUE  /* --flag=VALUE for an option that takes none */
};

static int usage_error(const struct pl_usage *u, const char *arg, enum opt_why why,
                       const struct pl_option *o);

/* The option named by the long name name[0..len), exact match first, else
 * the only option it is a prefix of; NULL when none or ambiguous (*nfound_out:
 * how many long names it is a prefix of). */
static const struct pl_option *find_long(const struct pl_option *t, const char *name, size_t len,
                                         int *nfound_out)
{
	const struct pl_option *found = NULL;
	int nfound = 0;

	if (strlen(help_option.long_name) == len && strncmp(help_option.long_name, name, len) == 0)
		return &help_option;
	for (const struct pl_option *o = t; o && o->type != PL_OPT_END; o++)
		if (o->long_name && strlen(o->long_name) == len && strncmp(o->long_name, name, len) == 0)
			return o;
	if (strncmp(help_option.long_name, name, len) == 0) {
		found = &help_option;
		nfound++;
	}
	for (const struct pl_option *o = t; o && o->type != PL_OPT_END; o++)
		if (o->long_name && strncmp(o->long_name, name, len) == 0) {
			found = o;
			nfound++;
		}
	*nfound_out = nfound;
	return nfound == 1 ? found : NULL;
}

static const struct pl_option *find_short(const struct pl_option *t, char c)
{
	if (c == help_option.short_name)
		return &help_option;
	for (const struct pl_option *o = t; o && o->type != PL_OPT_END; o++)
		if (o->short_name && o->short_name == c)
			return o;
	return NULL;
}

/* Applies option o with arg (NULL for none). Returns PL_OPTIONS_CONTINUE or
 * the exit status to return. */
static int apply(const struct pl_usage *u, const struct pl_option *o, const char *arg)
{
	if (o == &help_option) {
		pl_options_usage(u, stdout);
		return PL_EXIT_OK;
	}
	switch (o->type) {
	case PL_OPT_FLAG:
		*(int *)o->value = 1;
		break;
	case PL_OPT_STRING:
		*(const char **)o->value = arg;
		break;
	case PL_OPT_CALLBACK:
		if (o->cb(o->value, arg, u->cmd))
			return PL_EXIT_USAGE;
		break;
	case PL_OPT_END:
		break;
	}
	return PL_OPTIONS_CONTINUE;
}

/* Parses the long option argv[*i] ("--name" or "--name=value"), taking its
 * value from the next argument when needed. */
static int parse_long(const struct pl_usage *u, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *name = a + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int nfound = 0;
	const struct pl_option *o = find_long(u->options, name, len, &nfound);
	const char *arg = NULL;

	if (!o)
		return usage_error(u, a, nfound > 1 ? WHY_AMBIGUOUS : WHY_UNKNOWN, NULL);
	if (o->argh) {
		if (eq)
			arg = eq + 1;
		else if (*i + 1 < argc)
			arg = argv[++*i];
		else
			return usage_error(u, a, WHY_NO_VALUE, o);
	} else if (eq) {
		return usage_error(u, a, WHY_HAS_VALUE, o);
	}
	return apply(u, o, arg);
}

/* Parses the short option(s) argv[*i]: "-x", "-xVALUE", "-x VALUE", or
 * clustered flags "-xy". */
static int parse_short(const struct pl_usage *u, int argc, char **argv, int *i)
{
	const char *a = argv[*i];

	for (const char *p = a + 1; *p; p++) {
		const struct pl_option *o = find_short(u->options, *p);
		const char *arg = NULL;
		int rc;

		if (!o) {
			char one[3] = {'-', *p, '\0'};
			return usage_error(u, one, WHY_UNKNOWN, NULL);
		}
		if (o->argh) {
			if (p[1])
				arg = p + 1;
			else if (*i + 1 < argc)
				arg = argv[++*i];
			else
				return usage_error(u, a, WHY_NO_VALUE, o);
		}
		rc = apply(u, o, arg);
		if (rc != PL_OPTIONS_CONTINUE || arg)
			return rc;
	}
	return PL_OPTIONS_CONTINUE;
}

int pl_options_parse(const struct pl_usage *u, int argc, char **argv, int *argi)
{
	char **ops = NULL; /* the operands met before the last option, in order */
	int i = 1, nops = 0, rc = PL_OPTIONS_CONTINUE;

	if (argc >= 2 && strcmp(argv[1], PL_OPTIONS_HELPER) == 0) {
		pl_options_list(u, stdout);
		return PL_EXIT_OK;
	}
	if (!u->operand && argc > 1 && !(ops = malloc((size_t)argc * sizeof(*ops)))) {
		pl_cli_errorf(u->cmd, "out of memory");
		return PL_EXIT_USAGE;
	}
	while (i < argc) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (a[0] != '-' || a[1] == '\0') { /* an operand ("-" is one too) */
			if (!u->operand)
				ops[nops++] = argv[i]; /* options may follow (as git and GNU tools) */
			else if (u->operand(u->operand_data, a, u->cmd)) {
				rc = PL_EXIT_USAGE;
				goto out;
			}
			i++;
			continue;
		}
		rc = a[1] == '-' ? parse_long(u, argc, argv, &i) : parse_short(u, argc, argv, &i);
		if (rc != PL_OPTIONS_CONTINUE)
			goto out;
		i++;
	}
	rc = PL_OPTIONS_CONTINUE;
	if (nops) {
		/* the operands move to the end of argv, in their order, before those
		 * after "--": argv[*argi..argc) are then every operand */
		int rest = argc - i, at = argc - rest - nops;

		memmove(argv + at + nops, argv + i, (size_t)rest * sizeof(*argv));
		memcpy(argv + at, ops, (size_t)nops * sizeof(*argv));
		i = at;
	}
	for (; u->operand && i < argc; i++)
		if (u->operand(u->operand_data, argv[i], u->cmd)) {
			rc = PL_EXIT_USAGE;
			goto out;
		}
	if (u->no_operands && i < argc) {
		pl_cli_errorf(u->cmd, "unexpected argument '%s'", argv[i]);
		rc = PL_EXIT_USAGE;
		goto out;
	}
	*argi = i;
out:
	free(ops);
	return rc;
}

/* Writes the label of o ("-x, --name ARG") into buf. */
static void label(const struct pl_option *o, char *buf, size_t n)
{
	char s[3] = {'-', o->short_name, '\0'};

	snprintf(buf, n, "%s%s%s%s%s%s", o->short_name ? s : "",
	         o->short_name && o->long_name ? ", " : "", o->long_name ? "--" : "",
	         o->long_name ? o->long_name : "", o->argh ? " " : "", o->argh ? o->argh : "");
}

void pl_options_usage(const struct pl_usage *u, FILE *f)
{
	if (u->head)
		fputs(u->head, f);
	for (const struct pl_option *o = u->options; o && o->type != PL_OPT_END; o++) {
		char buf[128];
		const char *h = o->help;
		size_t len;

		if (!h)
			continue;
		label(o, buf, sizeof(buf));
		len = strlen(buf);
		if (len >= (size_t)u->width) /* no room: the help starts on the next line */
			fprintf(f, "  %s\n%*s", buf, u->width + 2, "");
		else
			fprintf(f, "  %-*s", u->width, buf);
		for (;;) {
			size_t line = strcspn(h, "\n");
			fprintf(f, "%.*s\n", (int)line, h);
			if (!h[line])
				break;
			h += line + 1;
			fprintf(f, "%*s", u->width + 2, "");
		}
	}
	if (u->tail)
		fputs(u->tail, f);
	if (u->more)
		u->more(f);
}

/* "; did you mean '--axis'?" for an unknown long option arg ("--axs" or
 * "--axs=x") near one of u's, else "". */
static char *option_suggest(const struct pl_usage *u, const char *arg, char *out, size_t n)
{
	const char *cands[64], *best;
	char name[64];
	size_t nc = 0, len;

	out[0] = '\0';
	if (strncmp(arg, "--", 2) != 0)
		return out;
	len = strcspn(arg + 2, "=");
	if (len == 0 || len >= sizeof(name))
		return out;
	memcpy(name, arg + 2, len);
	name[len] = '\0';
	for (const struct pl_option *o = u->options; o && o->type != PL_OPT_END && nc < 64; o++)
		if (o->long_name && strcmp(o->long_name, name) != 0)
			cands[nc++] = o->long_name;
	if ((best = pl_suggest(name, cands, nc)) != NULL)
		snprintf(out, n, "; did you mean '--%s'?", best);
	return out;
}

void pl_options_list(const struct pl_usage *u, FILE *f)
{
	for (const struct pl_option *o = u->options; o && o->type != PL_OPT_END; o++) {
		char s[3] = {'-', o->short_name, '\0'};

		fprintf(f, "%s%s\t%s\t%s\n", o->long_name ? "--" : "", o->long_name ? o->long_name : "",
		        o->short_name ? s : "", o->argh ? o->argh : "");
	}
}

/* "--where, --with" into out: the long names arg ("--wh") is a prefix of. */
static void prefix_names(const struct pl_usage *u, const char *arg, char *out, size_t n)
{
	size_t len = strcspn(arg + 2, "="), used = 0;

	out[0] = '\0';
	for (const struct pl_option *o = u->options; o && o->type != PL_OPT_END; o++)
		if (o->long_name && strncmp(o->long_name, arg + 2, len) == 0 && used < n) {
			int k = snprintf(out + used, n - used, "%s--%s", used ? ", " : "", o->long_name);
			used = k < 0 ? n : used + (size_t)k;
		}
}

/* One line saying what is wrong with arg, then where the options are
 * described; every command says it alike. */
static int usage_error(const struct pl_usage *u, const char *arg, enum opt_why why,
                       const struct pl_option *o)
{
	char dym[96], names[256];

	switch (why) {
	case WHY_UNKNOWN:
		pl_cli_errorf(u->cmd, "unknown option '%s'%s", arg,
		              option_suggest(u, arg, dym, sizeof(dym)));
		break;
	case WHY_AMBIGUOUS:
		prefix_names(u, arg, names, sizeof(names));
		pl_cli_errorf(u->cmd, "ambiguous option '%s' (%s)", arg, names);
		break;
	case WHY_NO_VALUE:
		if (o->long_name)
			pl_cli_errorf(u->cmd, "option '--%s' needs a value (--%s %s)", o->long_name,
			              o->long_name, o->argh);
		else
			pl_cli_errorf(u->cmd, "option '-%c' needs a value (-%c %s)", o->short_name,
			              o->short_name, o->argh);
		break;
	case WHY_HAS_VALUE:
		pl_cli_errorf(u->cmd, "option '--%s' takes no value (got '%s')", o->long_name, arg);
		break;
	}
	fprintf(stderr, "see 'perfledger %s --help'\n", u->cmd);
	return PL_EXIT_USAGE;
}

int pl_options_usage_error(const struct pl_usage *u, const char *arg)
{
	return usage_error(u, arg, WHY_UNKNOWN, NULL);
}
