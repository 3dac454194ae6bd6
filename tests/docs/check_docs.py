#!/usr/bin/env python3
"""The manual against the binary (ctest docs_help).

    check_docs.py PERFLEDGER_BINARY SOURCE_DIR

Fails, printing one line per disagreement, when:
- a command `perfledger --help` lists has no page docs/man/perfledger-CMD.md,
  or perfledger(1)'s COMMANDS section (docs/man/perfledger.md) does not name it;
- a command's option table (its --help, read through the hidden
  --completion-helper) has an option its page's OPTIONS section lacks, or the
  page lists an option the command does not have, or a different value
  placeholder (the page's items are "- `-x, --name ARG`: text");
- README.md is longer than 250 lines;
- README.md, docs/*.md, docs/man/*.md, schema/*.md or reports/*.md refer to
  the project's issue numbers ("issue 13").
Exit 0 when everything agrees, 1 otherwise.
"""
import glob, os, re, subprocess, sys

README_MAX_LINES = 250


def run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, check=True).stdout


def page_options(path):
    """{option: placeholder} from the page's OPTIONS section."""
    opts, in_opts = {}, False
    for line in open(path, encoding="utf-8"):
        if line.startswith("## "):
            in_opts = line.strip() == "## OPTIONS"
            continue
        m = re.match(r"- `([^`]*)`:", line) if in_opts else None
        if not m:
            continue
        # "-x, --name ARG" or "--name ARG" or "-x ARG"
        parts = m.group(1).replace(", ", ",").split(" ", 1)
        argh = parts[1] if len(parts) > 1 else ""
        for name in parts[0].split(","):
            opts[name] = argh
    return opts


def main():
    binary, src = sys.argv[1], sys.argv[2]
    problems = []
    commands = [l.split("\t")[0] for l in run(binary, "--completion-helper").splitlines()]
    top = os.path.join(src, "docs/man/perfledger.md")
    top_text = open(top, encoding="utf-8").read() if os.path.exists(top) else ""
    if not top_text:
        problems.append("docs/man/perfledger.md: missing (the page perfledger(1))")
    for cmd in commands:
        if top_text and not re.search(r"^- `%s`:" % re.escape(cmd), top_text, re.M):
            problems.append("docs/man/perfledger.md: command '%s' is missing from COMMANDS "
                            "(add \"- `%s`: summary\")" % (cmd, cmd))
        if cmd == "help":
            continue  # documented in perfledger(1)
        rel = "docs/man/perfledger-%s.md" % cmd
        path = os.path.join(src, rel)
        if not os.path.exists(path):
            problems.append("%s: missing: command '%s' has no page (draft one with "
                            "tools/man_skeleton.py %s %s)" % (rel, cmd, binary, cmd))
            continue
        table = {}
        for line in run(binary, cmd, "--completion-helper").splitlines():
            long, short, argh = (line.split("\t") + ["", "", ""])[:3]
            for name in (long, short):
                if name:
                    table[name] = argh
        table["--help"] = ""
        table["-h"] = ""
        page = page_options(path)
        for name, argh in table.items():
            if name not in page:
                problems.append("%s: option %s%s of 'perfledger %s' is missing from OPTIONS "
                                "(add \"- `%s%s`: text\")" % (rel, name, " " + argh if argh else "",
                                                             cmd, name, " " + argh if argh else ""))
            elif page[name] != argh:
                problems.append("%s: option %s takes '%s' in 'perfledger %s' but '%s' on the page"
                                % (rel, name, argh, cmd, page[name]))
        for name in page:
            if name not in table:
                problems.append("%s: lists option %s, which 'perfledger %s' does not have"
                                % (rel, name, cmd))
    readme = os.path.join(src, "README.md")
    n = len(open(readme, encoding="utf-8").read().splitlines())
    if n > README_MAX_LINES:
        problems.append("README.md: %d lines, more than %d (move the detail to docs/)"
                        % (n, README_MAX_LINES))
    docs = [readme] + sorted(glob.glob(os.path.join(src, "docs/*.md")) +
                             glob.glob(os.path.join(src, "docs/man/*.md")) +
                             glob.glob(os.path.join(src, "schema/*.md")) +
                             glob.glob(os.path.join(src, "reports/*.md")))
    for path in docs:
        for k, line in enumerate(open(path, encoding="utf-8"), 1):
            for m in re.finditer(r"\bissues? \d+", line, re.I):
                problems.append("%s:%d: refers to the project's '%s' (user docs say what is, "
                                "not which issue asked for it)" % (os.path.relpath(path, src), k,
                                                                   m.group(0)))
    for p in problems:
        print(p)
    print("docs: %d commands, %d problems" % (len(commands), len(problems)))
    return 1 if problems else 0


sys.exit(main())
