#!/usr/bin/python3
"""perfledger site benchmark: `site` over a ledger of many series.

usage: bench/site_bench.py [--series N] [--runs M] [--bin PATH] [--keep DIR]

Writes N condition keys (series) x M nightly runs each as descriptor JSONL
(a fixed seed; every key differs in model and concurrency, every run has
run_started_at one day apart, TTFT / TPOT / throughput with 2% noise and a
+12% TTFT step two thirds of the way in every 7th series), imports it, then
times `perfledger site --out DIR` once (the site of N series with the
default 3 metrics) with peak RSS from /usr/bin/time (Debian package `time`),
and prints the output's size and file count. The issue's figure is
--series 10000 --runs 100 (a million runs): target < 60 s and <= 64 MB.
"""
import argparse, json, os, random, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(argv, env=None):
    r = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + argv, capture_output=True, text=True,
                       env=env)
    if r.returncode != 0:
        sys.exit("%s failed: %s" % (" ".join(argv), r.stderr[-2000:]))
    secs, kb = r.stderr.strip().splitlines()[-1].split()
    return float(secs), int(kb)


def generate(path, series, runs):
    rnd = random.Random(14)
    with open(path, "w") as f:
        for s in range(series):
            step_at = runs * 2 // 3 if s % 7 == 0 else runs + 1
            base = {"model": "bench-model-%d" % (s // 8), "model_source": "huggingface",
                    "precision": "bf16", "engine": "vllm", "engine_version": "0.9.2",
                    "engine_args": "--max-model-len 8192", "hardware": "1x NVIDIA H100 80G",
                    "driver_version": "570.124.06", "cuda_version": "12.8",
                    "input_tokens": 2048, "max_output_tokens": 256,
                    "concurrency": 1 << (s % 8), "warmup_requests": 10}
            line = json.dumps(base)[:-1]
            for r in range(runs):
                day = r
                ttft = 0.06 * (1.12 if r >= step_at else 1.0) * (1 + 0.02 * rnd.gauss(0, 1))
                tpot = 0.007 * (1 + 0.02 * rnd.gauss(0, 1))
                thr = 1100 * (1 + 0.02 * rnd.gauss(0, 1))
                f.write('%s, "run_started_at": "%04d-%02d-%02dT02:00:00Z", "metric": '
                        '{"ttft_p50": %.6f, "ttft_p95": %.6f, "tpot_p50": %.6f, "tpot_p95": %.6f, '
                        '"output_throughput": %.3f, "error_rate": 0}}\n'
                        % (line, 2020 + day // 336, 1 + day % 336 // 28, 1 + day % 28,
                           ttft, ttft * 1.6, tpot, tpot * 1.2, thr))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--series", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build-release", "perfledger"))
    ap.add_argument("--keep", help="work in this directory and keep it")
    a = ap.parse_args()
    tmp = a.keep or tempfile.mkdtemp(prefix="pl-site-bench-")
    os.makedirs(tmp, exist_ok=True)
    src, db, out = (os.path.join(tmp, n) for n in ("runs.jsonl", "ledger.db", "site"))
    for p in (db, db + "-wal", db + "-shm"):
        if os.path.exists(p):
            os.remove(p)
    shutil.rmtree(out, ignore_errors=True)
    generate(src, a.series, a.runs)
    t, kb = timed([a.bin, "--db", db, "import", src])
    print("site   import of %d runs (%d series x %d): %.1f s, %.1f MB"
          % (a.series * a.runs, a.series, a.runs, t, kb / 1024))
    env = dict(os.environ, SOURCE_DATE_EPOCH="1790000000")
    t, kb = timed([a.bin, "--db", db, "site", "--out", out], env)
    files = os.listdir(out)
    size = sum(os.path.getsize(os.path.join(out, f)) for f in files)
    print("site   site of %d series: %.1f s, peak RSS %.1f MB; %d files, %.0f MB "
          "(targets for 10k series: < 60 s, <= 64 MB)" % (a.series, t, kb / 1024, len(files),
                                                          size / 1e6))
    if not a.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
