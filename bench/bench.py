#!/usr/bin/python3
"""perfledger import benchmark: one command, the numbers the issue asks for.

usage: bench/run.sh [--files N] [--jsonl N] [--repeat R] [--big-mb MB]
                    [--big-file-mb MB] [--compare-runs N] [--bin PATH]
                    [--keep DIR] [--duckdb DIR] [--before BIN]

Generates the workload with ../shared/bench/gen_descriptors.py into a temp
dir, warms the page cache, then times (median of R runs, each on a fresh
database): `cat` of every file (the file-system limit), the Python baseline
importer (../shared/bench/baseline_import.py) and `perfledger import`, on
the same files; then the same for the JSONL workload. The figures of issue
17 come from the same run, in rounds (perfledger, then each floor and the
anchor, R rounds, medians), so that the machine's load falls on all alike:
the floors of build-release/pl_bench_floor (bench/floor.c: reading the files,
and inserting the rows perfledger just stored into a fresh database of the
same schema, the same pragmas and commits, nothing else) and, for the JSONL,
DuckDB's `read_json` load of the same file (../shared/bench/duckdb_anchor.cjs;
skipped without node or DuckDB's Node package, see --duckdb). Then a no-op
re-import into the database that holds every file already (issue 13,
item 9). Each target is printed with "met" or "NOT MET". Peak RSS comes from
/usr/bin/time (Debian package `time`, installed by scripts/deps.sh) around
each command: a child of this script inherits the script's own high-water
mark through exec (Linux keeps it in the process's rusage), so wait4() here
would report at least this script's peak (14-40 MB); /usr/bin/time's own
small child does not. --big-mb streams a JSONL of that many MB (1024
for the issue's 1 GB; 0 skips it) and checks that every line is stored as a
run.
--big-file-mb writes ONE vLLM serving result (`--save-result` with the
per-request arrays input_lens, output_lens, ttfts, itls, generated_texts,
errors) of about that many MB (50 for the issue's figure; 0 skips it),
imports it with the conditions the file lacks given by --set, and checks that
exactly one run is stored. --compare-runs builds a database of that many runs
and times `compare` and `report` on it. Finally it checks with EXPLAIN QUERY
PLAN that the lookups the import and the selections make use indexes.
Exit status 1 if an index check fails or a big import does not store what it
should.
"""
import argparse, heapq, json, os, random, shutil, sqlite3, statistics, subprocess, sys, \
    tempfile, time, traceback
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "bench")
PY = "/usr/bin/python3"


TIME = "/usr/bin/time"


LAST_CPU = [0.0]  # user + sys seconds of the last command run() ran


def run(argv, stdin=None, stdout=subprocess.DEVNULL):
    """Runs argv; returns (seconds, peak RSS in KB, exit code), and leaves its
    CPU seconds (user + sys) in LAST_CPU[0]. The RSS and the CPU are measured
    by /usr/bin/time (see the module docstring for why)."""
    with tempfile.NamedTemporaryFile("r", prefix="bench-rss-") as rss:
        t0 = time.monotonic()
        p = subprocess.Popen([TIME, "-f", "%U %S %M", "-o", rss.name] + argv, stdin=stdin,
                             stdout=stdout, stderr=subprocess.DEVNULL)
        p.wait()
        seconds = time.monotonic() - t0
        lines = [l for l in rss.read().splitlines() if l.strip()]
    # /usr/bin/time writes "Command exited with non-zero status N" before the numbers
    f = lines[-1].split() if lines else []
    if len(f) == 3 and f[2].isdigit():
        LAST_CPU[0] = float(f[0]) + float(f[1])
        return seconds, int(f[2]), p.returncode
    LAST_CPU[0] = 0.0
    return seconds, 0, p.returncode


def load_avg():
    """The 1-minute load average (the machine is shared: said beside each figure)."""
    return os.getloadavg()[0]


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
    for suffix in ("", "-wal", "-shm", "-journal"):
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


def floor_bin(binary):
    """pl_bench_floor beside the perfledger binary (bench/floor.c), or None."""
    path = os.path.join(os.path.dirname(binary), "pl_bench_floor")
    return path if os.access(path, os.X_OK) else None


def timed_floor(argv):
    """Runs pl_bench_floor; returns (its own seconds, peak RSS KB, exit code).
    Its loading of the prebuilt rows is not timed (it prints the seconds of
    the inserts alone)."""
    with tempfile.NamedTemporaryFile("w+", prefix="bench-floor-") as out:
        t, rss, rc = run(argv, stdout=out)
        out.seek(0)  # the child wrote through the same open file
        text = out.read().strip()
    return (float(text) if rc == 0 and text else t), rss, rc


def duckdb_dir(args):
    """The folder whose node_modules holds @duckdb/node-api, or None."""
    for d in (args.duckdb, os.environ.get("DUCK"), HERE):
        if d and os.path.isdir(os.path.join(d, "node_modules", "@duckdb", "node-api")):
            return d
    return None


def duckdb_load(src, tmp, duck):
    """DuckDB's load of src (../shared/bench/duckdb_anchor.cjs): (its load
    seconds, peak RSS KB, exit code)."""
    with tempfile.NamedTemporaryFile("w+", prefix="bench-duck-") as out:
        env = dict(os.environ, DUCK=duck)
        t0 = time.monotonic()
        with tempfile.NamedTemporaryFile("r", prefix="bench-rss-") as rss:
            p = subprocess.Popen([TIME, "-f", "%M", "-o", rss.name, "node",
                                  os.path.join(SHARED, "duckdb_anchor.cjs"), src,
                                  os.path.join(tmp, "duck.db")],
                                 stdout=out, stderr=subprocess.PIPE, env=env)
            _, errtext = p.communicate()
            lines = [l for l in rss.read().splitlines() if l.strip().isdigit()]
        wall = time.monotonic() - t0
        out.seek(0)  # the child wrote through the same open file
        text = out.read().strip()
    if p.returncode != 0 or not text:
        sys.stderr.write("duckdb_anchor.cjs: %s\n" % errtext.decode(errors="replace").strip())
        return wall, 0, p.returncode or 1
    return json.loads(text)["load_s"], int(lines[-1]) if lines else 0, 0


CPU = {}  # name -> median CPU seconds (user + sys) of interleaved()'s last call


def interleaved(repeat, named):
    """Runs every (name, fn) of named once per round, round after round, so
    that the machine's load falls on all of them alike; returns name ->
    (median seconds, max peak RSS KB), and leaves name -> median CPU seconds
    in CPU for the commands run() timed. fn returns (seconds, RSS KB, rc)."""
    times, rss = {n: [] for n, _ in named}, {n: 0 for n, _ in named}
    cpu = {n: [] for n, _ in named}
    for _ in range(repeat):
        for name, fn in named:
            LAST_CPU[0] = 0.0
            t, r, rc = fn()
            if rc not in (0, 4):
                sys.exit("benchmark command failed (%s) with exit %d" % (name, rc))
            times[name].append(t)
            cpu[name].append(LAST_CPU[0])
            rss[name] = max(rss[name], r)
    CPU.clear()
    CPU.update({n: statistics.median(cpu[n]) for n, _ in named})
    return {n: (statistics.median(times[n]), rss[n]) for n, _ in named}


MB32 = 32 * 1024  # the peak RSS target of issue 17, in KB


def workload(label, tmp, args, gen_args, binary):
    """One workload (files or jsonl): cat, the Python baseline, perfledger's
    first import, then its no-op re-import and the floors, all in one run.
    Returns the perfledger database and a dict of the figures."""
    src = os.path.join(tmp, label)
    subprocess.run([PY, os.path.join(SHARED, "gen_descriptors.py")] + gen_args + [src], check=True)
    paths = all_files(src)
    cat_all(paths)  # warm the page cache
    cat_all(paths)
    t_cat, _ = median_of(args.repeat, lambda: cat_all(paths))
    load0 = load_avg()
    base_db = os.path.join(tmp, label + "-base.db")
    db = os.path.join(tmp, label + "-pl.db")
    floor = floor_bin(binary)
    duck = duckdb_dir(args) if label == "jsonl" and shutil.which("node") else None
    named = [("perfledger", lambda: run([binary, "--db", fresh(db), "import", src])),
             ("baseline", lambda: run([PY, os.path.join(SHARED, "baseline_import.py"),
                                       fresh(base_db), src]))]
    if args.before:
        before_db = os.path.join(tmp, label + "-before.db")
        named.append(("before", lambda: run([os.path.abspath(args.before), "--db",
                                             fresh(before_db), "import", src])))
    if floor:
        # the rows perfledger stored, inserted again by pl_bench_floor; the
        # database it reads is the one perfledger's run just wrote
        named.append(("floor insert", lambda: timed_floor(
            [floor, "insert", db, os.path.join(tmp, label + "-floor.db")])))
        named.append(("floor read", lambda: timed_floor([floor, "read", src])))
    if duck:
        named.append(("duckdb", lambda: duckdb_load(
            os.path.join(src, "descriptors.jsonl") if label == "jsonl" else src, tmp, duck)))
    got = interleaved(args.repeat, named)
    cpu = dict(CPU)
    load1 = load_avg()
    t_pl, rss_pl = got["perfledger"]
    t_base, rss_base = got["baseline"]
    # a no-op re-import: every file is stored already (issue 13, item 9)
    t_re, rss_re = median_of(args.repeat, lambda: run([binary, "--db", db, "import", src]))
    print("%-6s cat %7.2f s | baseline %7.2f s %6.1f MB | perfledger %7.2f s %6.1f MB"
          % (label, t_cat, t_base, rss_base / 1024, t_pl, rss_pl / 1024))
    print("%-6s load average %.1f at the start of the rounds, %.1f at their end"
          % (label, load0, load1))
    print("%-6s perfledger is %.2fx faster than the baseline: %s (target >= 2x), %.2fx the time "
          "of cat" % (label, t_base / t_pl, "met" if t_base >= 2 * t_pl else "NOT MET",
                      t_pl / t_cat))
    print("%-6s CPU (user + sys, medians): perfledger %.2f s, baseline %.2f s (%.2fx)"
          % (label, cpu["perfledger"], cpu["baseline"],
             cpu["baseline"] / cpu["perfledger"] if cpu["perfledger"] else 0))
    if args.before:
        t_bf, rss_bf = got["before"]
        print("%-6s before (%s): %.2f s, %.1f MB, CPU %.2f s; this binary %.2fx faster, "
              "%.2fx less CPU" % (label, args.before, t_bf, rss_bf / 1024, cpu["before"],
                                  t_bf / t_pl, cpu["before"] / cpu["perfledger"]
                                  if cpu["perfledger"] else 0))
    print("%-6s peak RSS %.1f MB: %s (target <= 32 MB)"
          % (label, rss_pl / 1024, "met" if rss_pl <= MB32 else "NOT MET"))
    fig = {"t_pl": t_pl, "rss_pl": rss_pl, "t_re": t_re, "t_cat": t_cat, "t_base": t_base}
    print("%-6s no-op re-import %.2f s %.1f MB = %.2fx the first import: %s (target <= 0.5x)"
          % (label, t_re, rss_re / 1024, t_re / t_pl, "met" if t_re <= 0.5 * t_pl else "NOT MET"))
    if floor:
        t_ins, _ = got["floor insert"]
        t_read, _ = got["floor read"]
        fig.update(t_ins=t_ins, t_read=t_read)
        print("%-6s floor: reading the files %.2f s + inserting the same rows %.2f s = %.2f s; "
              "perfledger %.2fx the floor%s"
              % (label, t_read, t_ins, t_read + t_ins, t_pl / (t_read + t_ins),
                 (": %s (target <= 1.15x)" % ("met" if t_pl <= 1.15 * (t_read + t_ins)
                                               else "NOT MET")) if label == "files" else ""))
    else:
        print("%-6s floor: no pl_bench_floor beside %s (build the release preset)" % (label, binary))
    if label == "jsonl":
        # the same file on standard input, spooled and streamed as JSONL: the
        # peak RSS target holds for it too
        with open(os.path.join(src, "descriptors.jsonl"), "rb") as f:
            t_in, rss_in, rc = run([binary, "--db", fresh(os.path.join(tmp, "stdin.db")),
                                    "import", "-"], stdin=f)
        fig.update(t_stdin=t_in, rss_stdin=rss_in)
        print("%-6s the same JSONL on standard input: %.2f s, %.1f MB, exit %d; peak RSS: %s "
              "(target <= 32 MB)" % (label, t_in, rss_in / 1024, rc,
                                     "met" if rss_in <= MB32 and rc == 0 else "NOT MET"))
        if duck:
            t_duck, rss_duck = got["duckdb"]
            fig.update(t_duck=t_duck, rss_duck=rss_duck)
            print("%-6s DuckDB read_json load %.2f s %.1f MB; perfledger %.2fx DuckDB's time: %s "
                  "(target <= 1x)" % (label, t_duck, rss_duck / 1024, t_pl / t_duck,
                                      "met" if t_pl <= t_duck else "NOT MET"))
        else:
            print("%-6s DuckDB anchor skipped: no node or no @duckdb/node-api (npm install "
                  "--prefix bench @duckdb/node-api, or --duckdb DIR)" % label)
    return db, fig


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


def stored_runs(db):
    """The number of runs in db; -1 if it cannot be read."""
    if not os.path.exists(db):
        return -1
    try:
        con = sqlite3.connect(db)
        try:
            return con.execute("SELECT count(*) FROM runs").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return -1


def big_jsonl(tmp, mb, binary):
    """Streams a JSONL of about mb MB; every line must become a run."""
    n = mb * 1024 * 1024 // 490  # ~490 bytes per generated line
    src = os.path.join(tmp, "big")
    subprocess.run([PY, os.path.join(SHARED, "gen_descriptors.py"), str(n), src, "--jsonl"],
                   check=True)
    size = os.path.getsize(os.path.join(src, "descriptors.jsonl"))
    db = fresh(os.path.join(tmp, "big.db"))
    t, rss, rc = run([binary, "--db", db, "import", src])
    print("big    %.0f MB JSONL (%d runs): %.1f s, peak RSS %.1f MB, exit %d"
          % (size / 1e6, n, t, rss / 1024, rc))
    shutil.rmtree(src)
    stored = stored_runs(db)
    if rc != 0 or stored != n:
        print("big    FAILED: %d lines generated, %s, exit %d (want %d runs stored, exit 0)"
              % (n, "%d runs stored" % stored if stored >= 0 else "no readable database", rc, n))
        return False
    return True


WORDS = ("the", "model", "answer", "is", "a", "of", "to", "and", "token", "cache", "batch",
         "in", "we", "can", "Rust", "Paris", "first", "step", "result", "yes", "no", "42")


def vllm_request(seed, i):
    """One request of the synthetic vLLM run: (input_len, output_len, ttft,
    itls, text). Its own RNG, so the two passes of write_vllm_result() draw
    the same values without keeping them."""
    rng = random.Random(seed * 1000003 + i)
    inp = rng.randint(768, 1280)  # --random-input-len 1024 --random-range-ratio 0.25
    out = rng.randint(16, 256)  # up to --random-output-len 256, or an earlier EOS
    ttft = 0.045 + inp * 2.2e-5 + rng.expovariate(1 / 0.15)  # prefill plus queueing
    tpot = rng.uniform(0.011, 0.016)
    itls = [tpot * rng.lognormvariate(0, 0.12) * (rng.uniform(3, 8) if rng.random() < 0.01
                                                    else 1) for _ in range(out - 1)]
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 8)))
    return inp, out, ttft, itls, text


def pct(sorted_values, p):
    """The p-th percentile (linear interpolation, like numpy's default)."""
    k = (len(sorted_values) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def hist_pct(hist, count, p):
    """The p-th percentile of values counted in 1 us buckets (hist: us -> n)."""
    want, seen = (count - 1) * p / 100, 0
    for us in sorted(hist):
        seen += hist[us]
        if seen > want:
            return us / 1e6
    return max(hist) / 1e6


def write_vllm_result(path, target_bytes, seed=1, concurrency=64):
    """Writes one `vllm bench serve --save-result --save-detailed` JSON of
    about target_bytes, its bulk the per-request arrays; returns the number of
    requests. Two passes over vllm_request(): the first picks the request
    count and computes the summary that precedes and follows the arrays, the
    second writes the itls; memory stays small whatever the size."""
    lens_in, lens_out, ttfts, tpots, e2els, texts = [], [], [], [], [], []
    itl_hist, itl_n, itl_sum, itl_sq = Counter(), 0, 0.0, 0.0
    slots = [0.0] * concurrency  # the time each concurrency slot frees up
    est = 1500
    while not lens_in or est < target_bytes:
        inp, out, ttft, itls, text = vllm_request(seed, len(lens_in))
        lat = ttft + sum(itls)
        heapq.heapreplace(slots, slots[0] + lat)
        lens_in.append(inp)
        lens_out.append(out)
        ttfts.append(ttft)
        tpots.append((lat - ttft) / (out - 1))
        e2els.append(lat)
        texts.append(text)
        for x in itls:
            itl_hist[round(x * 1e6)] += 1
        itl_n += len(itls)
        itl_sum += sum(itls)
        itl_sq += sum(x * x for x in itls)
        est += len(json.dumps(itls)) + len(json.dumps(text)) + 8 + 3 * 25
    n = len(lens_in)
    duration = max(slots)
    head = {
        "date": "20261105-101500", "endpoint_type": "openai", "backend": "openai",
        "label": None, "model_id": "meta-llama/Llama-3.1-8B-Instruct",
        "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct", "num_prompts": n,
        "request_rate": "inf", "burstiness": 1.0, "max_concurrency": concurrency,
        "duration": duration, "completed": n, "failed": 0,
        "total_input_tokens": sum(lens_in), "total_output_tokens": sum(lens_out),
        "request_throughput": n / duration, "request_goodput": None,
        "output_throughput": sum(lens_out) / duration,
        "total_token_throughput": (sum(lens_in) + sum(lens_out)) / duration,
    }
    tail = {}
    itl_mean = itl_sum / itl_n
    for name, values in (("ttft", ttfts), ("tpot", tpots), ("e2el", e2els)):
        sv = sorted(values)
        tail.update({"mean_%s_ms" % name: statistics.fmean(sv) * 1e3,
                     "median_%s_ms" % name: statistics.median(sv) * 1e3,
                     "std_%s_ms" % name: statistics.pstdev(sv) * 1e3,
                     "p95_%s_ms" % name: pct(sv, 95) * 1e3,
                     "p99_%s_ms" % name: pct(sv, 99) * 1e3})
    tail.update({"mean_itl_ms": itl_mean * 1e3,
                 "median_itl_ms": hist_pct(itl_hist, itl_n, 50) * 1e3,
                 "std_itl_ms": max(itl_sq / itl_n - itl_mean ** 2, 0) ** 0.5 * 1e3,
                 "p95_itl_ms": hist_pct(itl_hist, itl_n, 95) * 1e3,
                 "p99_itl_ms": hist_pct(itl_hist, itl_n, 99) * 1e3})
    with open(path, "w") as f:
        f.write(json.dumps(head)[:-1])
        for key, values in (("input_lens", lens_in), ("output_lens", lens_out),
                            ("ttfts", ttfts)):
            f.write(', "%s": %s' % (key, json.dumps(values)))
        f.write(', "itls": [')
        for i in range(n):
            f.write((", " if i else "") + json.dumps(vllm_request(seed, i)[3]))
        f.write('], "generated_texts": [')
        f.write(", ".join(json.dumps(t) for t in texts))
        f.write('], "errors": [%s], ' % ", ".join(['""'] * n))
        f.write(json.dumps(tail)[1:] + "\n")
    return n


def in_child(fn, *args):
    """Returns fn(*args) (an int) computed in a forked child, so that writing a
    big input does not leave this script holding its memory."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.write(w, str(fn(*args)).encode())
            os._exit(0)
        except BaseException:
            traceback.print_exc()
            os._exit(1)
    os.close(w)
    with os.fdopen(r) as f:
        out = f.read()
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("%s failed" % fn.__name__)
    return int(out)


def big_file(tmp, mb, binary):
    """Imports one vLLM result of about mb MB; exactly one run must be stored."""
    path = os.path.join(tmp, "big-vllm.json")
    n = in_child(write_vllm_result, path, mb * 1024 * 1024)
    size = os.path.getsize(path)
    conditions = ["precision=bfloat16", "engine=vllm", "engine_version=0.10.1",
                  "hardware=1x NVIDIA H100 80G", "driver_version=550.90.07",
                  "cuda_version=12.4", "model_source=huggingface",
                  "engine_args=--max-num-seqs 64", "input_tokens=1024",
                  "max_output_tokens=256", "warmup_requests=0"]
    argv = [binary, "--db", fresh(os.path.join(tmp, "bigfile.db")), "import"]
    for c in conditions:
        argv += ["--set", c]
    t, rss, rc = run(argv + [path])
    print("big    %.0f MB vLLM result file (%d requests, 1 run): %.1f s, peak RSS %.1f MB, "
          "exit %d" % (size / 1e6, n, t, rss / 1024, rc))
    stored = stored_runs(argv[2])
    os.unlink(path)
    # the run's requests: every one kept, and `requests` on them (docs/requests.md)
    kept = -1
    try:
        with sqlite3.connect(argv[2]) as db:
            kept = db.execute("SELECT requests FROM run_requests").fetchone()[0]
    except (sqlite3.Error, TypeError):
        pass
    rt, rrss, rrc = run([binary, "--db", argv[2], "requests", "1", "--slo", "ttft=1,tpot=0.05"])
    print("big    requests kept: %d of %d; import <= 64 MB peak RSS: %s, <= 1 s: %s" %
          (kept, n, "met" if rss / 1024 <= 64 else "NOT MET", "met" if t <= 1 else "NOT MET"))
    print("big    perfledger requests 1 --slo ...: %.3f s, peak RSS %.1f MB, exit %d; <= 0.1 s: %s"
          % (rt, rrss / 1024, rrc, "met" if rt <= 0.1 else "NOT MET"))
    if rc != 0 or stored != 1:
        print("big    FAILED: vLLM result file: %s, exit %d (want 1 run stored, exit 0)"
              % ("%d runs stored" % stored if stored >= 0 else "no readable database", rc))
        return False
    return True


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
    t_all, rss_all = median_of(3, lambda: run([binary, "--db", db, "compare", "--axis", "hardware",
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
    ap.add_argument("--big-file-mb", type=int, default=0)
    ap.add_argument("--compare-runs", type=int, default=0)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build-release", "perfledger"))
    ap.add_argument("--keep", help="work in this directory and keep it")
    ap.add_argument("--before", help="another perfledger binary timed in the same rounds "
                    "(the release before a change)")
    ap.add_argument("--duckdb", help="folder whose node_modules holds @duckdb/node-api "
                    "(default: $DUCK, else bench/)")
    args = ap.parse_args()
    if not os.access(TIME, os.X_OK):
        sys.exit("%s is missing: install the Debian package 'time' (scripts/deps.sh does)" % TIME)
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
            db, _ = workload("files", tmp, args, [str(args.files)], binary)
            ok &= check_plans(db)
        if args.jsonl:
            workload("jsonl", tmp, args, [str(args.jsonl), "--jsonl"], binary)
        if args.big_mb:
            ok &= big_jsonl(tmp, args.big_mb, binary)
        if args.big_file_mb:
            ok &= big_file(tmp, args.big_file_mb, binary)
        if args.compare_runs:
            compare_bench(tmp, args.compare_runs, binary)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
