#!/usr/bin/env python3
"""End-to-end golden tests of the perfledger CLI.

Each tests/e2e/cases/*.case file is a sequence of steps run in a fresh work
directory with its own database (PERFLEDGER_DB=WORK/test.db), from the source
directory (so samples/... paths work), with SOURCE_DATE_EPOCH fixed so that
timestamps are stable:

    # comment
    $ perfledger ARGS...          a step (shell-like quoting, no shell is run);
                                  a step naming another program (cmp, sed,
                                  rm, ...) runs it as given, to check or
                                  tamper with files between steps
    < TEXT                        a line of standard input for the step
    > TEXT                        expected standard output line
    ! TEXT                        expected standard error line
    ? N                           expected exit code (default 0)
    & PATH                        a file that must exist and be non-empty afterwards
    ~ PATH TEXT                   file PATH must contain TEXT
    ^ PATH TEXT                   file PATH must NOT contain TEXT

In step arguments and expected text, @CORPUS@, @CASES@, @WORK@ and @SRC@ are
replaced, and @BIN@ by the perfledger binary (for a step that redirects its
output: $ /bin/sh -c '"$0" list --format json > "$1"' @BIN@ @WORK@/l.json). A case that names @CORPUS@ or @CASES@ (../shared's real files and
field-fault cases, read in place) is skipped, visibly ("skip"), when that
folder is absent, as on a user's fresh clone; the run then exits 77 (ctest:
skipped), or 1 under CI=true, where ../shared must be present.
A step without > lines must print nothing on stdout (likewise ! for stderr),
unless the case has the line `%lenient-stdout` (stdout then unchecked).
`%env KEY=VALUE` sets an environment variable for every step of the case.
A crash (death by signal) is always a failure.

    run_e2e.py --bin B --source S --corpus C [--cases D] --work W [--update] [CASE...]

--update rewrites the expected > / ! / ? lines of each case from the actual
results (review the diff before committing).
"""
import argparse, os, shlex, shutil, subprocess, sys


def parse(path):
    steps, flags, comments = [], set(), []
    for raw in open(path, encoding="utf-8").read().split("\n"):
        if raw.startswith("%"):
            flags.add(raw[1:].strip())
            continue
        if raw.startswith("$ "):
            # "pre": the comment lines between the previous step and this
            # one, kept by --update (the lines before the first step are
            # the case's header, kept as they are)
            steps.append({"cmd": raw[2:], "stdin": [], "out": [], "err": [],
                          "exit": 0, "files": [], "contains": [], "absent": [],
                          "has_out": False, "has_err": False, "extra": [],
                          "pre": comments if steps else []})
            comments = []
            continue
        if steps and raw.startswith("#"):
            comments.append(raw)
            continue
        if not steps or not raw:
            continue
        s = steps[-1]
        tag, text = raw[0], raw[2:] if len(raw) > 1 else ""
        if tag == "<":
            s["stdin"].append(text)
        elif tag == ">":
            s["out"].append(text); s["has_out"] = True
        elif tag == "!":
            s["err"].append(text); s["has_err"] = True
        elif tag == "?":
            s["exit"] = int(text)
        elif tag == "&":
            s["files"].append(text)
        elif tag == "~":
            p, _, t = text.partition(" "); s["contains"].append((p, t))
        elif tag == "^":
            p, _, t = text.partition(" "); s["absent"].append((p, t))
        else:
            raise SystemExit("%s: bad line %r" % (path, raw))
        if tag in "&~^":
            s["extra"].append(raw)
    return steps, flags


def sub(text, env):
    for k, v in env.items():
        text = text.replace(k, v)
    return text


def run_case(path, args):
    name = os.path.basename(path)[:-5]
    work = os.path.join(args.work, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env_sub = {"@CORPUS@": args.corpus, "@CASES@": args.cases_dir, "@WORK@": work,
               "@SRC@": args.source, "@BIN@": os.path.abspath(args.bin)}
    steps, flags = parse(path)
    env = dict(os.environ)
    env.update({"PERFLEDGER_DB": os.path.join(work, "test.db"), "PERFLEDGER_BIN": args.bin,
                "SOURCE_DATE_EPOCH": "1790000000", "LC_ALL": "C.UTF-8",
                "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=1"})
    for f in flags:
        if f.startswith("env "):
            k, _, v = f[4:].partition("=")
            env[k] = sub(v, env_sub)
    failures, actual = [], []
    for s in steps:
        argv = [sub(a, env_sub) for a in shlex.split(s["cmd"])]
        if argv[0] == "perfledger":
            argv[0] = args.bin
        stdin = ("\n".join(s["stdin"]) + "\n") if s["stdin"] else ""
        p = subprocess.run(argv, input=stdin.encode(), capture_output=True,
                           cwd=args.source, env=env, timeout=300)
        # CSV lines end in CRLF (RFC 4180; pinned by the unit tests): compare text
        out = p.stdout.decode("utf-8", "replace").replace("\r\n", "\n").rstrip("\n")
        err = p.stderr.decode("utf-8", "replace").rstrip("\n")
        out_lines = out.split("\n") if out else []
        err_lines = err.split("\n") if err else []
        actual.append((s, out_lines, err_lines, p.returncode))
        where = "%s: $ %s" % (name, s["cmd"])
        if p.returncode < 0:
            failures.append("%s: crashed with signal %d\n%s" % (where, -p.returncode, err))
            continue
        if p.returncode != s["exit"]:
            failures.append("%s: exit %d, expected %d\nstderr:\n%s" % (where, p.returncode, s["exit"], err))
        want_out = [sub(l, env_sub) for l in s["out"]]
        want_err = [sub(l, env_sub) for l in s["err"]]
        if "lenient-stdout" not in flags or s["has_out"]:
            if out_lines != want_out:
                failures.append("%s: stdout differs\n--- expected\n%s\n--- actual\n%s" % (
                    where, "\n".join(want_out), "\n".join(out_lines)))
        if err_lines != want_err:
            failures.append("%s: stderr differs\n--- expected\n%s\n--- actual\n%s" % (
                where, "\n".join(want_err), "\n".join(err_lines)))
        for f in s["files"]:
            fp = os.path.join(work, sub(f, env_sub))
            if not os.path.isfile(fp) or os.path.getsize(fp) == 0:
                failures.append("%s: file %s missing or empty" % (where, f))
        for f, t in s["contains"]:
            fp = os.path.join(work, sub(f, env_sub))
            data = open(fp, encoding="utf-8", errors="replace").read() if os.path.isfile(fp) else ""
            if sub(t, env_sub) not in data:
                failures.append("%s: %s does not contain %r" % (where, f, t))
        for f, t in s["absent"]:
            fp = os.path.join(work, sub(f, env_sub))
            data = open(fp, encoding="utf-8", errors="replace").read() if os.path.isfile(fp) else ""
            if sub(t, env_sub) in data:
                failures.append("%s: %s contains %r" % (where, f, t))
    if args.update:
        rewrite(path, actual, env_sub)
    return failures


def unsub(text, env):
    for k, v in sorted(env.items(), key=lambda kv: -len(kv[1])):
        text = text.replace(v, k)
    return text


def rewrite(path, actual, env_sub):
    head, lines = [], open(path, encoding="utf-8").read().split("\n")
    for l in lines:
        if l.startswith("$ "):
            break
        head.append(l)
    out = list(head)
    for s, o, e, rc in actual:
        out += s["pre"]
        out.append("$ " + s["cmd"])
        out += ["< " + l for l in s["stdin"]]
        out += [("> " + unsub(l, env_sub)).rstrip() if l else ">" for l in o]
        out += [("! " + unsub(l, env_sub)).rstrip() if l else "!" for l in e]
        if rc:
            out.append("? %d" % rc)
        out += s["extra"]
        out.append("")
    open(path, "w", encoding="utf-8").write("\n".join(out).rstrip("\n") + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--cases", dest="cases_dir",
                    help="shared field-fault cases (default: CORPUS/../cases)")
    ap.add_argument("--work", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("cases", nargs="*")
    args = ap.parse_args()
    args.bin = os.path.abspath(args.bin)
    args.source = os.path.abspath(args.source)
    args.corpus = os.path.abspath(args.corpus)
    args.cases_dir = os.path.abspath(args.cases_dir or os.path.join(args.corpus, "..", "cases"))
    args.work = os.path.abspath(args.work)
    casedir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
    cases = args.cases or sorted(os.path.join(casedir, f) for f in os.listdir(casedir)
                                 if f.endswith(".case"))
    passed = failed = skipped = 0
    for c in cases:
        text = open(c, encoding="utf-8").read()
        absent = [d for key, d in (("@CASES@", args.cases_dir), ("@CORPUS@", args.corpus))
                  if key in text and not os.path.isdir(d)]
        if absent:
            skipped += 1
            print("skip %s (%s absent: a clone without ../shared)" % (os.path.basename(c), absent[0]))
            continue
        f = run_case(c, args)
        if f:
            failed += 1
            print("FAIL %s" % os.path.basename(c))
            for m in f:
                print("  " + m.replace("\n", "\n  "))
        else:
            passed += 1
            print("ok   %s" % os.path.basename(c))
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    if failed or not passed:
        return 1
    if skipped:
        # ctest reports 77 as skipped; CI always has ../shared, so there a
        # skip means a broken setup and fails
        if os.environ.get("CI") == "true":
            print("cases skipped under CI=true: failing")
            return 1
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
