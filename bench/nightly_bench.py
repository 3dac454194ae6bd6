#!/usr/bin/python3
"""perfledger nightly benchmark (issue 14): history and check of one series in
a large ledger, and history by engine_version as the points grow.

usage: bench/nightly_bench.py [--runs N] [--series-runs M] [--version-points A,B,C]
                              [--bin PATH] [--keep DIR]

1. A ledger of N runs (default 1,000,000): N / M condition keys (models
   m0000, m0001, ...) of M runs each (default 1000: 250 nights x 4 runs, a
   build id per night). One run per key is imported by perfledger (so every
   row is one perfledger wrote); the rest are copies made in SQL with a later
   run_started_at, a build_id and ttft_p50 moved by +-2% noise (a +12% step
   in the last 20 nights), which is how a nightly ledger grows.
   Times (median of 3, /usr/bin/time for peak RSS):
     history of one series --group-by day and --group-by run
     check --group-by day --baseline window:20 --candidate latest
   against the issue's targets (< 1 s each).
2. A series with one engine_version per run, for each size in
   --version-points (default 1000,16000,64000): `history --group-by
   engine_version`, which grew with the square of the points before
   (issue 14: 1k 0.05 s, 16k 4.95 s, 64k 81 s and 318 MB).
Needs the release build (bench/run.sh builds it) and Debian's `time`.
"""
import argparse, json, os, shutil, sqlite3, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TIME = "/usr/bin/time"


def run(argv):
    """(seconds, peak RSS KB, exit code) of argv, stdout discarded."""
    with tempfile.NamedTemporaryFile("r", prefix="bench-rss-") as rss:
        t0 = time.monotonic()
        p = subprocess.run([TIME, "-f", "%M", "-o", rss.name] + argv,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        seconds = time.monotonic() - t0
        lines = [l for l in rss.read().splitlines() if l.strip()]
    kb = int(lines[-1]) if lines and lines[-1].strip().isdigit() else 0
    return seconds, kb, p.returncode


def median3(argv, ok=(0, 1)):
    res = [run(argv) for _ in range(3)]
    for r in res:
        if r[2] not in ok:
            sys.exit("bench: %s exited %d" % (" ".join(argv), r[2]))
    return statistics.median(r[0] for r in res), max(r[1] for r in res), res[0][2]


def descriptor(model, version="0.9.2", when="2024-01-01T00:00:00Z", ttft=0.06):
    return {"model": model, "model_source": "huggingface", "precision": "bfloat16",
            "engine": "vllm", "engine_version": version, "engine_args": "--max-model-len 8192",
            "hardware": "1x NVIDIA H100 80G", "driver_version": "570.124.06",
            "cuda_version": "12.8", "input_tokens": 2048, "max_output_tokens": 256,
            "concurrency": 8, "warmup_requests": 10, "run_started_at": when,
            "build_id": "b0000",
            "metric": {"ttft_p50": ttft, "tpot_p50": 0.0095, "ttft_p95": 0.09,
                       "tokens_per_second_p50": 105.0, "output_throughput": 3200.0}}


def big_ledger(tmp, binary, n, m):
    keys = n // m
    src = os.path.join(tmp, "seed.jsonl")
    with open(src, "w") as f:
        for k in range(keys):
            f.write(json.dumps(descriptor("m%04d" % k)) + "\n")
    db = os.path.join(tmp, "big.db")
    subprocess.run([binary, "--db", db, "import", src], check=True, stdout=subprocess.DEVNULL)
    con = sqlite3.connect(db)
    cols = [r[1] for r in con.execute("PRAGMA table_info(runs)")]
    vary = {"id", "record", "run_started_at", "build_id", "ttft_p50"}
    keep = [c for c in cols if c not in vary]
    # copies 1..m-1 of every seed run: night i // 4, hour i % 4; +12% from
    # night (m/4 - 20) on; noise uniform +-2% (random() is SQLite's PRNG)
    nights = m // 4
    sql = ("WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?) "
           "INSERT INTO runs (%s, record, run_started_at, build_id, ttft_p50) "
           "SELECT %s, r.record + k.i * %d, strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', '2024-01-01', "
           "'+' || (k.i / 4) || ' days', '+' || (k.i %% 4) || ' hours'), "
           "printf('b%%04d', k.i / 4), "
           "r.ttft_p50 * (CASE WHEN k.i / 4 >= %d THEN 1.12 ELSE 1.0 END) "
           "* (1.0 + (abs(random()) %% 4001 - 2000) / 100000.0) "
           "FROM runs AS r, k" % (", ".join(keep), ", ".join("r." + c for c in keep), keys,
                                  nights - 20))
    t0 = time.monotonic()
    con.execute(sql, (m - 1,))
    con.commit()
    total = con.execute("SELECT count(*) FROM runs").fetchone()[0]
    con.close()
    print("nightly ledger: %d runs (%d series of %d) made in %.1f s" %
          (total, keys, m, time.monotonic() - t0))
    return db, total


def version_series(tmp, binary, points):
    """A database of one key whose every run has its own engine_version."""
    src = os.path.join(tmp, "versions-%d.jsonl" % points)
    with open(src, "w") as f:
        for i in range(points):
            # 0.<i // 1000>.<i % 1000>: natural order differs from text order
            f.write(json.dumps(descriptor("mv", "0.%d.%d" % (i // 1000, i % 1000),
                                          ttft=0.06 * (1.12 if i >= points - 20 else 1.0))) + "\n")
    db = os.path.join(tmp, "versions-%d.db" % points)
    subprocess.run([binary, "--db", db, "import", src], check=True, stdout=subprocess.DEVNULL)
    return db


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=1000000)
    ap.add_argument("--series-runs", type=int, default=1000)
    ap.add_argument("--version-points", default="1000,16000,64000")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build-release", "perfledger"))
    ap.add_argument("--keep", default=None)
    args = ap.parse_args()
    tmp = args.keep or tempfile.mkdtemp(prefix="pl-nightly-bench-")
    os.makedirs(tmp, exist_ok=True)
    try:
        db, total = big_ledger(tmp, args.bin, args.runs, args.series_runs)
        where = ["--where", "model=m%04d" % (args.runs // args.series_runs // 2)]
        for name, argv, target in [
            ("history --group-by day", ["history", "--metric", "ttft_p50", "--group-by", "day"], 1.0),
            ("history --group-by run", ["history", "--metric", "ttft_p50", "--group-by", "run"], 1.0),
            ("history --group-by build, 2 metrics",
             ["history", "--metric", "ttft_p50,tpot_p50", "--group-by", "build"], 1.0),
            ("check window:20 latest (day)",
             ["check", "--group-by", "day", "--baseline", "window:20", "--candidate", "latest",
              "--metric", "ttft_p50"], 1.0),
        ]:
            t, kb, rc = median3([args.bin, "--db", db] + argv + where)
            print("%-36s one series of %d runs in %d: %.3f s, %.1f MB, exit %d (target < %g s)"
                  % (name, args.series_runs, total, t, kb / 1024.0, rc, target))
        for p in [int(x) for x in args.version_points.split(",") if x]:
            vdb = version_series(tmp, args.bin, p)
            t, kb, rc = median3([args.bin, "--db", vdb, "history", "--metric", "ttft_p50",
                                 "--group-by", "engine_version"])
            print("history --group-by engine_version, %6d points: %.3f s, %.1f MB, exit %d"
                  % (p, t, kb / 1024.0, rc))
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
