/*
 * md2man.c — turns a manual page written in a small subset of Markdown
 * (the pages in docs/man/, schema/descriptor.md, reports/README.md, ...) into a
 * roff man page, at build time, so the manual is written once and read
 * both on the repository and with man(1). A build tool, not part of
 * perfledger; it links nothing but libc.
 *
 *   md2man NAME SECTION DESCRIPTION VERSION IN.md OUT
 *
 * The page gets .TH NAME SECTION, a NAME section "NAME - DESCRIPTION" (a
 * DESCRIPTION of "-": the text after " — " in the first "# " heading), and
 * then the body of IN.md after its first "# " heading (the title). The
 * subset: "## H" (.SH, upper case), "### H" (.SS), paragraphs, ``` fences
 * (verbatim), "- " bullets and "1. " items (continuation lines indented),
 * a bullet that starts with a code span and a colon ("- `--axis F`: ...")
 * as a tagged paragraph (.TP), tables (tbl; the page then starts with the
 * tbl marker), inline `code` and **bold** (bold), *emphasis* and _emphasis_
 * (italic), [text](target) (text), images and HTML comments (dropped).
 * Exit 0, or 1 with a message on stderr (unreadable input, unwritable output).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;

/* Writes s[0..n) as roff text: backslashes escaped, '-' as \- (so options
 * copy and paste), inline Markdown turned into font changes. */
static void inline_text(const char *s, size_t n)
{
	int bold = 0, ital = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '`') { /* a code span: bold, verbatim to the closing tick */
			size_t j = i + 1;
			while (j < n && s[j] != '`')
				j++;
			fputs("\\fB", out);
			for (size_t k = i + 1; k < j; k++) {
				if (s[k] == '\\')
					fputs("\\e", out);
				else if (s[k] == '-')
					fputs("\\-", out);
				else
					fputc(s[k], out);
			}
			fputs(bold ? "\\fB" : ital ? "\\fI" : "\\fR", out);
			i = j;
		} else if (c == '*' && i + 1 < n && s[i + 1] == '*') {
			bold = !bold;
			fputs(bold ? "\\fB" : "\\fR", out);
			i++;
		} else if ((c == '*' || c == '_') && !ital && i + 1 < n && isalnum((unsigned char)s[i + 1]) &&
		           (i == 0 || !isalnum((unsigned char)s[i - 1])) && memchr(s + i + 1, c, n - i - 1)) {
			ital = 1;
			fputs("\\fI", out);
		} else if ((c == '*' || c == '_') && ital && (i + 1 == n || !isalnum((unsigned char)s[i + 1]))) {
			ital = 0;
			fputs(bold ? "\\fB" : "\\fR", out);
		} else if (c == '!' && i + 1 < n && s[i + 1] == '[') { /* an image: dropped */
			const char *close = memchr(s + i, ')', n - i);
			if (close)
				i = (size_t)(close - s);
		} else if (c == '[') { /* a link: its text */
			const char *mid = memchr(s + i, ']', n - i);
			if (mid && (size_t)(mid - s) + 1 < n && mid[1] == '(') {
				const char *close = memchr(mid, ')', n - (size_t)(mid - s));
				if (close) {
					inline_text(s + i + 1, (size_t)(mid - s) - i - 1);
					i = (size_t)(close - s);
					continue;
				}
			}
			fputc(c, out);
		} else if (c == '\\') {
			if (i + 1 < n && strchr("|*_`[]\\", s[i + 1])) /* a Markdown escape */
				c = s[++i];
			if (c == '\\')
				fputs("\\e", out);
			else
				fputc(c, out);
		} else if (c == '-') {
			fputs("\\-", out);
		} else {
			fputc(c, out);
		}
	}
	if (bold || ital)
		fputs("\\fR", out);
}

/* Writes one line of text, guarding a leading '.' or '\'' from roff. */
static void text_line(const char *s, size_t n)
{
	if (n && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", out);
	inline_text(s, n);
	fputc('\n', out);
}

/* A table row "| a | b |" split into cells; returns their count. */
static int cells(char *line, char **cell, int max)
{
	int k = 0;
	char *p = line;

	while (*p == ' ')
		p++;
	if (*p == '|')
		p++;
	while (*p && k < max) {
		char *start = p, *end;
		while (*p && !(*p == '|' && (p == start || p[-1] != '\\')))
			p++;
		end = p;
		while (start < end && *start == ' ')
			start++;
		while (end > start && end[-1] == ' ')
			end--;
		if (!*p && start == end)
			break;
		*end = '\0';
		cell[k++] = start;
		if (*p)
			p++;
		if (!*p)
			break;
	}
	return k;
}

static int is_rule(const char *line)
{
	for (const char *p = line; *p; p++)
		if (!strchr("|-: ", *p))
			return 0;
	return strchr(line, '-') != NULL;
}

static char *upper(char *s)
{
	for (char *p = s; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	return s;
}

int main(int argc, char **argv)
{
	FILE *in;
	char **lines = NULL;
	size_t n = 0, cap = 0, i = 0;
	char buf[8192];
	int has_table = 0, in_title = 1, para = 0;

	if (argc != 7) {
		fprintf(stderr, "usage: md2man NAME SECTION DESCRIPTION VERSION IN.md OUT\n");
		return 1;
	}
	in = fopen(argv[5], "r");
	if (!in) {
		perror(argv[5]);
		return 1;
	}
	while (fgets(buf, sizeof(buf), in)) {
		size_t len = strlen(buf);
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = '\0';
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			lines = realloc(lines, cap * sizeof(*lines));
			if (!lines)
				return 1;
		}
		lines[n] = malloc(len + 1);
		if (!lines[n])
			return 1;
		memcpy(lines[n], buf, len + 1);
		if (buf[0] == '|')
			has_table = 1;
		n++;
	}
	fclose(in);
	out = fopen(argv[6], "w");
	if (!out) {
		perror(argv[6]);
		return 1;
	}
	if (has_table)
		fputs("'\\\" t\n", out);
	fprintf(out, ".TH \"%s\" \"%s\" \"\" \"perfledger %s\" \"perfledger manual\"\n", upper(argv[1]), argv[2],
	        argv[4]);
	fputs(".nh\n.ad l\n", out); /* no hyphenation, ragged right: names and options stay whole */
	for (char *p = argv[1]; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	fputs(".SH NAME\n", out);
	inline_text(argv[1], strlen(argv[1]));
	fputs(" \\- ", out);
	if (strcmp(argv[3], "-") == 0) { /* the summary of the "# NAME(N) — summary" title */
		const char *dash = NULL;
		for (size_t k = 0; k < n && !dash; k++)
			if (lines[k][0] == '#' && lines[k][1] == ' ')
				dash = strstr(lines[k], " \u2014 ");
		if (!dash) {
			fprintf(stderr, "%s: no '# NAME(N) \u2014 summary' title\n", argv[5]);
			return 1;
		}
		text_line(dash + 5, strlen(dash + 5));
	} else {
		text_line(argv[3], strlen(argv[3]));
	}
	while (i < n) {
		char *l = lines[i];

		if (in_title) { /* everything up to and including the "# " title */
			if (l[0] == '#' && l[1] == ' ')
				in_title = 0;
			i++;
			continue;
		}
		if (strncmp(l, "<!--", 4) == 0) {
			while (i < n && !strstr(lines[i], "-->"))
				i++;
			i++;
			continue;
		}
		if (!*l) {
			para = 1;
			i++;
			continue;
		}
		if (strncmp(l, "## ", 3) == 0 || strncmp(l, "### ", 4) == 0) {
			int sub = l[2] == '#';
			fputs(sub ? ".SS " : ".SH ", out);
			text_line(sub ? l + 4 : upper(l + 3), strlen(sub ? l + 4 : l + 3));
			para = 0;
			i++;
			continue;
		}
		if (strncmp(l, "```", 3) == 0) {
			fputs(".PP\n.RS 4\n.nf\n", out);
			for (i++; i < n && strncmp(lines[i], "```", 3) != 0; i++) {
				const char *s = lines[i];
				if (*s == '.' || *s == '\'')
					fputs("\\&", out);
				for (; *s; s++)
					fputs(*s == '\\' ? "\\e" : *s == '-' ? "\\-" : (char[]){*s, '\0'}, out);
				fputc('\n', out);
			}
			fputs(".fi\n.RE\n", out);
			i++;
			para = 1;
			continue;
		}
		if (l[0] == '|') {
			char *cell[32], copy[8192];
			int cols;
			snprintf(copy, sizeof(copy), "%s", l); /* cells() cuts the line it splits */
			cols = cells(copy, cell, 32);
			fputs(".TS\nallbox tab(\x1f);\n", out);
			for (int c = 0; c < cols; c++)
				fputs(c ? " lbx" : "lbx", out);
			fputs("\n", out);
			for (int c = 0; c < cols; c++)
				fputs(c ? " lx" : "lx", out);
			fputs(".\n", out);
			for (; i < n && lines[i][0] == '|'; i++) {
				int k;
				if (is_rule(lines[i]))
					continue;
				k = cells(lines[i], cell, 32);
				for (int c = 0; c < cols; c++) {
					fputs(c ? "\x1fT{\n" : "T{\n", out);
					if (c < k)
						text_line(cell[c], strlen(cell[c]));
					fputs("T}", out);
				}
				fputc('\n', out);
			}
			fputs(".TE\n", out);
			para = 1;
			continue;
		}
		{
			const char *item = NULL;
			char num[16] = "";
			if ((l[0] == '-' || l[0] == '*') && l[1] == ' ')
				item = l + 2;
			else if (isdigit((unsigned char)l[0])) {
				size_t d = 0;
				while (isdigit((unsigned char)l[d]))
					d++;
				if (l[d] == '.' && l[d + 1] == ' ' && d < 8) {
					memcpy(num, l, d + 1);
					num[d + 1] = '\0';
					item = l + d + 2;
				}
			}
			if (item) {
				const char *tick = item[0] == '`' ? strchr(item + 1, '`') : NULL;
				if (tick && tick[1] == ':') { /* "- `--opt ARG`: text" */
					fputs(".TP\n", out);
					text_line(item, (size_t)(tick + 1 - item));
					item = tick + 2;
					while (*item == ' ')
						item++;
				} else if (*num) {
					fprintf(out, ".IP %s 4\n", num);
				} else {
					fputs(".IP \\(bu 2\n", out);
				}
				text_line(item, strlen(item));
				for (i++; i < n && lines[i][0] == ' ' && lines[i][1] == ' '; i++) {
					const char *s = lines[i];
					while (*s == ' ')
						s++;
					text_line(s, strlen(s));
				}
				para = 0;
				continue;
			}
		}
		if (para) {
			fputs(".PP\n", out);
			para = 0;
		}
		text_line(l, strlen(l));
		i++;
	}
	for (size_t k = 0; k < n; k++)
		free(lines[k]);
	free(lines);
	if (fclose(out) != 0) {
		perror(argv[6]);
		return 1;
	}
	return 0;
}
