#!/usr/bin/env python3
"""Prints a first draft of a command's manual page (docs/man/perfledger-CMD.md)
from its --help, for a new command: the synopsis, the description, the
option list (one "- `--name ARG`: text" item per option, the form
tests/docs/check_docs.py reads) and the closing text. Edit the draft; the
page, not --help, is the manual.

    man_skeleton.py PERFLEDGER_BINARY COMMAND [SEE-ALSO] > docs/man/perfledger-COMMAND.md
"""
import subprocess, sys


def blocks(lines, cmd=""):
    """Plain lines as paragraphs; runs of indented lines as fenced blocks
    (a generated list of more than 12 lines is left to --help)."""
    out, code = [], False
    for l in lines:
        ind = l.startswith("  ") and l.strip()
        if ind and not code:
            out.append("```")
            code = True
        elif not ind and code and l.strip():
            out.append("```")
            code = False
        elif not l.strip() and code:
            out.append("```")
            code = False
        out.append(l if code else l.strip())
    if code:
        out.append("```")
    res, k = [], 0
    while k < len(out):
        if out[k] == "```":
            end = out.index("```", k + 1)
            if end - k - 1 > 12:
                res.append("`perfledger %s --help` prints the whole list." % cmd)
            else:
                res.extend(out[k:end + 1])
            k = end + 1
        else:
            res.append(out[k])
            k += 1
    return res


def main():
    binary, cmd = sys.argv[1], sys.argv[2]
    summary = ""
    for l in subprocess.run([binary, "--completion-helper"], capture_output=True,
                            text=True).stdout.splitlines():
        name, _, s = l.partition("\t")
        if name == cmd:
            summary = s
    text = subprocess.run([binary, cmd, "--help"], capture_output=True, text=True).stdout
    opts = [l.split("\t") for l in subprocess.run(
        [binary, cmd, "--completion-helper"], capture_output=True, text=True).stdout.splitlines()]
    lines = text.split("\n")
    syn = []
    while lines and lines[0].strip():
        syn.append(lines.pop(0))
    # option lines start with two spaces and a dash
    first = next((k for k, l in enumerate(lines) if l.startswith("  -")), len(lines))
    last = first
    while last < len(lines) and (lines[last].startswith("  ") and lines[last].strip()):
        last += 1
    head, tail = lines[:first], lines[last:]
    print("# perfledger-%s(1) — %s\n" % (cmd, summary))
    print("## SYNOPSIS\n\n```\n%s\n```\n" % "\n".join(s[7:] for s in syn))
    print("## DESCRIPTION\n")
    print("\n".join(blocks(head, cmd)).strip("\n") + "\n")
    print("## OPTIONS\n")
    helptext = lines[first:last]
    for long, short, argh in opts:
        label = ", ".join(x for x in (short, long) if x) + (" " + argh if argh else "")
        # the help text of this option, from --help
        desc = []
        for k, l in enumerate(helptext):
            if l.strip().startswith((short or "\0") + ",") or l.strip().startswith(long + " ") \
                    or l.strip() == long or l.strip().startswith(long + "\t"):
                rest = l.strip()[len(label):].strip() if l.strip().startswith(label) else ""
                desc = [rest] if rest else []
                for m in helptext[k + 1:]:
                    if m.strip().startswith("-"):
                        break
                    desc.append(m.strip())
                break
        print("- `%s`: %s" % (label, " ".join(desc)))
    print("- `-h, --help`: print the usage and options and exit\n")
    if any(l.strip() for l in tail):
        print("\n".join(blocks(tail, cmd)).strip("\n") + "\n")
    print("## EXIT STATUS\n\n0 on success; the other codes are the same for every command: see "
          "perfledger(1).\n")
    see = sys.argv[3] if len(sys.argv) > 3 else ""
    print("## SEE ALSO\n\nperfledger(1)" + (", " + see if see else ""))


main()
