#!/usr/bin/python3
"""perfledger import benchmark: one command, the numbers the issue asks for.

usage: bench/run.sh [--files N] [--jsonl N] [--repeat R] [--big-mb MB]
                    [--compare-runs N] [--bin PATH] [--keep DIR]

Generates the workload with ../shared/bench/gen_descriptors.py into a temp
dir, warms the page cache, then times (median of R runs, each on a fresh
database): `cat` of every file (the file-system limit), the Python baseline
importer (../shared/bench/baseline_import.py) and `perfledger import`, on
the same files; then the same for the JSONL workload. Peak RSS comes from
wait4() of each child. --big-mb streams a JSONL of that many MB (1024 for
the issue's 1 GB; 0 skips it). --compare-runs builds a database of that
many runs and times `compare` and `report` on it. Finally it checks with
EXPLAIN QUERY PLAN that the lookups the import and the selections make
use indexes. Exit status 1 if an index check fails.
"""
import argparse, os, shutil, sqlite3, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "bench")
PY = "/usr/bin/python3"


def run(argv, stdin=None, stdout=subprocess.DEVNULL):
    """Runs argv; returns (seconds, peak RSS in KB, exit code)."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return time.monotonic() - t0, ru.ru_maxrss, p.returncode


def median_of(repeat, fn):
    times, rss = [], []
    for _ in range(repeat):
        t, r, rc = fn()
        if rc not in (0, 4):
            sys.exit("benchmark command failed with exit %d" % rc)
        times.append(t)
        rss.append(r)
    return statistics.median(times), max(rss)


def fresh(path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)
    return path


def cat_all(paths):
    # cat every file, as one xargs stream: the file-system read limit
    listing = "\0".join(paths).encode()
    t0 = time.monotonic()
    p = subprocess.Popen(["xargs", "-0", "cat"], stdin=subprocess.PIPE,
                         stdout=subprocess.DEVNULL)
    p.communicate(listing)
    return time.monotonic() - t0, 0, p.returncode


def all_files(root):
    out = []
    for d, _, names in os.walk(root):
        out.extend(os.path.join(d, n) for n in names)
    return sorted(out)


def workload(label, tmp, args, gen_args, binary):
    src = os.path.join(tmp, label)
    subprocess.run([PY, os.path.join(SHARED, "gen_descriptors.py")] + gen_args + [src], check=True)
    paths = all_files(src)
    cat_all(paths)  # warm the page cache
    cat_all(paths)
    t_cat, _ = median_of(args.repeat, lambda: cat_all(paths))
    db = os.path.join(tmp, label + "-base.db")
    t_base, rss_base = median_of(args.repeat, lambda: run(
        [PY, os.path.join(SHARED, "baseline_import.py"), fresh(db), src]))
    db = os.path.join(tmp, label + "-pl.db")
    t_pl, rss_pl = median_of(args.repeat, lambda: run(
        [binary, "--db", fresh(db), "import", src]))
    print("%-6s cat %7.2f s | baseline %7.2f s %6.1f MB | perfledger %7.2f s %6.1f MB"
          % (label, t_cat, t_base, rss_base / 1024, t_pl, rss_pl / 1024))
    print("%-6s perfledger is %.2fx faster than the baseline, %.2fx the time of cat"
          % (label, t_base / t_pl, t_pl / t_cat))
    return db, t_base / t_pl, t_pl / t_cat, rss_pl


def check_plans(db):
    """EXPLAIN QUERY PLAN of the hot lookups must name an index."""
    con = sqlite3.connect(db)
    queries = [
        ("duplicate check", "SELECT 1 FROM runs WHERE source_sha256 = ? LIMIT 1", ("x",)),
        ("conditions row", "SELECT id FROM conditions WHERE key_hash = ? AND key_text = ?", (1, "x")),
        ("--where model,precision", "SELECT runs.id FROM runs JOIN conditions ON conditions.id = "
         "runs.condition_id WHERE conditions.model = ? AND conditions.precision = ?", ("a", "b")),
        ("--where hardware", "SELECT runs.id FROM runs JOIN conditions ON conditions.id = "
         "runs.condition_id WHERE conditions.hardware = ?", ("a",)),
        ("--where engine_version", "SELECT runs.id FROM runs JOIN conditions ON conditions.id = "
         "runs.condition_id WHERE conditions.engine_version = ?", ("a",)),
    ]
    ok = True
    for name, sql, params in queries:
        plan = " / ".join(r[3] for r in con.execute("EXPLAIN QUERY PLAN " + sql, params))
        good = "USING" in plan and "SCAN runs" not in plan and "SCAN conditions" not in plan
        ok &= good
        print("plan   %-26s %s  [%s]" % (name, "ok" if good else "NO INDEX", plan))
    con.close()
    return ok


def compare_bench(tmp, n, binary):
    src = os.path.join(tmp, "cmp")
    subprocess.run([PY, os.path.join(SHARED, "gen_descriptors.py"), str(n), src, "--jsonl"],
                   check=True)
    db = fresh(os.path.join(tmp, "cmp.db"))
    t, rss, rc = run([binary, "--db", db, "import", src])
    print("cmp    import of %d runs (JSONL): %.2f s, %.1f MB" % (n, t, rss / 1024))
    # the condition set (all but hardware) with the most runs on several accelerators
    keys = ["model", "precision", "engine", "engine_version", "input_tokens",
            "max_output_tokens", "concurrency", "warmup_requests"]
    con = sqlite3.connect(db)
    row = con.execute("SELECT %s FROM runs JOIN conditions ON conditions.id = runs.condition_id "
                      "GROUP BY %s HAVING count(DISTINCT hardware) > 1 ORDER BY count(*) DESC "
                      "LIMIT 1" % (", ".join(keys), ", ".join(keys))).fetchone()
    con.close()
    where = []
    for k, v in zip(keys, row):
        where += ["--where", "%s=%s" % (k, int(v) if isinstance(v, float) else v)]
    where += ["--allow-mismatch", "error_rate"]  # the generator varies it per run
    cmp = [binary, "--db", db, "compare", "--axis", "hardware"] + where
    t_cmp, rss_cmp = median_of(3, lambda: run(cmp))
    out = os.path.join(tmp, "report-out")
    rep = [binary, "--db", db, "report", "--out", out, "--axis", "hardware"] + where
    t_rep, rss_rep = median_of(3, lambda: (shutil.rmtree(out, ignore_errors=True), run(rep))[1])
    print("cmp    compare of one condition set in a database of %d runs: %.3f s (%.1f MB); "
          "report: %.3f s (%.1f MB)" % (n, t_cmp, rss_cmp / 1024, t_rep, rss_rep / 1024))
    print("cmp    ratios to the targets: compare %.2f of 1 s, report %.2f of 2 s"
          % (t_cmp / 1.0, t_rep / 2.0))
    # every run selected: the axis plus every other varying key field allowed
    allow = ",".join(keys + ["error_rate", "driver_version", "cuda_version", "accelerator_count"])
    t_all, rss_all = median_of(1, lambda: run([binary, "--db", db, "compare", "--axis", "hardware",
                                               "--allow-mismatch", allow]))
    print("cmp    compare selecting all %d runs: %.2f s (%.1f MB) (target 1 s)"
          % (n, t_all, rss_all / 1024))
    return db


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=100000)
    ap.add_argument("--jsonl", type=int, default=100000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--big-mb", type=int, default=0)
    ap.add_argument("--compare-runs", type=int, default=0)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build-release", "perfledger"))
    ap.add_argument("--keep", help="work in this directory and keep it")
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        sys.exit("no perfledger binary at %s (build the release preset first)" % binary)
    tmp = args.keep or tempfile.mkdtemp(prefix="perfledger-bench-")
    os.makedirs(tmp, exist_ok=True)
    print("machine: %d cores, %s" % (os.cpu_count(), subprocess.run(
        ["sh", "-c", "lscpu | sed -n 's/^Model name: *//p'; free -h | awk '/Mem:/{print $2\" RAM\"}'"],
        capture_output=True, text=True).stdout.replace("\n", " ").strip()))
    try:
        ok = True
        if args.files:
            db, _, _, _ = workload("files", tmp, args, [str(args.files)], binary)
            ok &= check_plans(db)
        if args.jsonl:
            workload("jsonl", tmp, args, [str(args.jsonl), "--jsonl"], binary)
        if args.big_mb:
            n = args.big_mb * 1024 * 1024 // 490  # ~490 bytes per generated line
            src = os.path.join(tmp, "big")
            subprocess.run([PY, os.path.join(SHARED, "gen_descriptors.py"), str(n), src, "--jsonl"],
                           check=True)
            size = os.path.getsize(os.path.join(src, "descriptors.jsonl"))
            t, rss, rc = run([binary, "--db", fresh(os.path.join(tmp, "big.db")), "import", src])
            print("big    %.0f MB JSONL (%d runs): %.1f s, peak RSS %.1f MB, exit %d"
                  % (size / 1e6, n, t, rss / 1024, rc))
            shutil.rmtree(src)
        if args.compare_runs:
            compare_bench(tmp, args.compare_runs, binary)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
