#!/usr/bin/env python3
"""Runs the CI examples of docs/regression.md against a seeded ledger (e2e case
145-ci-examples), so that what the manual tells people to paste works.

    ci_examples.py --readme docs/regression.md --results DIR --work DIR --xsd tests/fixtures/ci/junit.xsd

The examples are the fenced yaml blocks after the lines
`<!-- ci-example: github -->` and `<!-- ci-example: gitlab -->`. The
perfledger binary is $PERFLEDGER_BIN (set by run_e2e.py), put first on PATH
as `perfledger`; the ledger is $PERFLEDGER_DB. $RESULTS_DIR is --results.

GitHub Actions: each step's `run:` is run with `bash -e` in order, as the
runner does; after a failing step only steps with `if: always()` run;
`uses:` steps (actions) are not run and are printed as such. The step
summary file is $GITHUB_STEP_SUMMARY in the work directory.
GitLab CI: each job's `script:` lines are run in order in one `bash -e`, as
the runner does; `artifacts: reports: junit:` names the file to validate.

Prints one line per step with its exit code, the annotation lines, the
summary's result line, and for every JUnit file the examples name: whether
it validates against --xsd (xmllint --schema) and its totals. Exit 0 when
everything ran as printed (the golden file pins the exit codes); 1 when a
JUnit file is missing or invalid.
"""
import argparse, os, re, shutil, subprocess, sys
import xml.etree.ElementTree as ET

import yaml


def blocks(readme):
    text = open(readme, encoding="utf-8").read()
    out = {}
    for m in re.finditer(r"<!-- ci-example: (\w+) -->\s*```yaml\n(.*?)```", text, re.S):
        out[m.group(1)] = yaml.safe_load(m.group(2))
    return out


def sh(cmd, env, cwd):
    p = subprocess.run(["bash", "-e", "-c", cmd], env=env, cwd=cwd, capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def validate(path, xsd):
    if not os.path.isfile(path):
        return "missing", False
    p = subprocess.run(["xmllint", "--noout", "--schema", xsd, path], capture_output=True,
                       text=True)
    if p.returncode != 0:
        return "INVALID: " + p.stderr.strip().replace("\n", " | "), False
    root = ET.parse(path).getroot()
    return "valid JUnit (tests=%s failures=%s errors=%s)" % (
        root.get("tests"), root.get("failures"), root.get("errors")), True


def github(doc, env, work, xsd):
    ok = True
    summary = os.path.join(work, "step-summary.md")
    env = dict(env, GITHUB_STEP_SUMMARY=summary)
    for name, job in doc["jobs"].items():
        failed = False
        for step in job["steps"]:
            title = step.get("name", step.get("uses", "?"))
            if "uses" in step:
                print("github %s: %s: action, not run here" % (name, title))
                continue
            if failed and "always()" not in str(step.get("if", "")):
                print("github %s: %s: skipped (an earlier step failed)" % (name, title))
                continue
            rc, out, err = sh(step["run"], env, work)
            print("github %s: %s: exit %d" % (name, title, rc))
            for line in out.splitlines():
                if line.startswith("::"):
                    print("  " + line)
            for line in err.splitlines():
                print("  stderr: " + line)
            failed = failed or rc != 0
            for m in re.finditer(r">\s*(\S+\.xml)", step["run"]):
                verdict, good = validate(os.path.join(work, m.group(1)), xsd)
                print("  %s: %s" % (m.group(1), verdict))
                ok = ok and good
    if os.path.isfile(summary):
        for line in open(summary, encoding="utf-8"):
            if line.startswith("result:") or line.startswith("## "):
                print("  summary: " + line.rstrip())
    return ok


def gitlab(doc, env, work, xsd):
    ok = True
    for name, job in doc.items():
        if not isinstance(job, dict) or "script" not in job:
            continue
        rc, out, err = sh("\n".join(job["script"]), env, work)
        print("gitlab %s: script: exit %d" % (name, rc))
        for line in err.splitlines():
            print("  stderr: " + line)
        report = job.get("artifacts", {}).get("reports", {}).get("junit")
        if report:
            verdict, good = validate(os.path.join(work, report), xsd)
            print("  %s: %s" % (report, verdict))
            ok = ok and good
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readme", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--xsd", required=True)
    a = ap.parse_args()
    binary = os.environ.get("PERFLEDGER_BIN")
    if not binary or not os.path.isfile(binary):
        sys.exit("ci_examples.py: $PERFLEDGER_BIN is not the perfledger binary")
    docs = blocks(a.readme)
    if set(docs) != {"github", "gitlab"}:
        sys.exit("ci_examples.py: %s has examples %s, expected github and gitlab"
                 % (a.readme, sorted(docs)))
    ok = True
    for kind, fn in (("github", github), ("gitlab", gitlab)):
        work = os.path.join(a.work, kind)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        bindir = os.path.join(work, "bin")
        os.makedirs(bindir)
        os.symlink(os.path.abspath(binary), os.path.join(bindir, "perfledger"))
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
                   RESULTS_DIR=os.path.abspath(a.results),
                   PERFLEDGER_DB=os.path.join(work, "ledger.db"))
        env.pop("GITHUB_STEP_SUMMARY", None)
        ok = fn(docs[kind], env, work, os.path.abspath(a.xsd)) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
