#!/usr/bin/python3
"""perfledger ledger benchmark (issue 13): kept source bytes, export, merge.

usage: bench/ledger.py [--runs N] [--files N] [--bin PATH] [--keep DIR]

Generates with ../shared/bench/gen_descriptors.py two JSONL files of N runs
each (default 1,000,000; seeds 1 and 2, so the runs differ) and N/10 one-run
files, then measures, each command under /usr/bin/time for its peak RSS:

  * import of each JSONL into its own ledger (A, B), and of the one-run
    files into a third (F);
  * the size of the kept source bytes: table source_chunks (pages, from
    dbstat, and the compressed bytes), per 1M runs, for both layouts; and
    how zstd (the `zstd` program, default level 3) would compare with the
    zlib level 6 perfledger uses, on the same chunks;
  * export of A (N runs) to JSONL;
  * merge of B into a copy of A (two N-run ledgers into one of 2N), then a
    no-op merge of B again, set against B's first import (issue: <= 1.5x);
  * the round trip: export of the merged ledger, import into a new one,
    export again, compared byte for byte (checked on the A export when N >
    200,000 to keep the run short: the 2N one would take as long again).

Prints one line per figure; exit status 1 if a check fails (export round
trip not identical, a merge storing the wrong number of runs).
"""
import argparse, os, shutil, sqlite3, subprocess, sys, tempfile, time, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GEN = os.path.join(os.path.dirname(ROOT), "shared", "bench", "gen_descriptors.py")
PY = "/usr/bin/python3"
TIME = "/usr/bin/time"


CPU = {}  # the CPU seconds (user + system) of the last run, by wall seconds


def run(argv, stdout=subprocess.DEVNULL):
    """(wall seconds, peak RSS in MB, exit code) of argv under /usr/bin/time;
    its CPU seconds (user + system) go to CPU[wall seconds]."""
    with tempfile.NamedTemporaryFile("r", prefix="bench-rss-") as rss:
        t0 = time.monotonic()
        p = subprocess.run([TIME, "-f", "%U %S %M", "-o", rss.name] + argv, stdout=stdout,
                           stderr=subprocess.PIPE)
        seconds = time.monotonic() - t0
        lines = [l.split() for l in rss.read().splitlines() if len(l.split()) == 3]
    if p.returncode not in (0,):
        sys.stderr.write(p.stderr.decode("utf-8", "replace")[-2000:])
        sys.exit("failed (exit %d): %s" % (p.returncode, " ".join(argv)))
    u, s, m = lines[-1] if lines else ("0", "0", "0")
    CPU[seconds] = float(u) + float(s)
    return seconds, int(m) / 1024.0, p.returncode


def report(name, seconds, rss, extra=""):
    """One line: wall time, CPU time (user + system: on a busy machine the
    figure that does not depend on the other processes), peak RSS."""
    print("%-44s %8.2f s wall %8.2f s CPU  %7.1f MB peak RSS%s" %
          (name, seconds, CPU.get(seconds, 0.0), rss, extra), flush=True)


def chunk_sizes(db):
    c = sqlite3.connect(db)
    n, raw, packed = c.execute("SELECT count(*), coalesce(sum(size), 0), "
                               "coalesce(sum(length(bytes)), 0) FROM source_chunks").fetchone()
    try:
        pages = c.execute("SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN "
                          "('source_chunks', 'sqlite_autoindex_source_chunks_1')").fetchone()[0]
    except sqlite3.Error:
        pages = None  # dbstat not compiled in
    runs = c.execute("SELECT count(*) FROM runs").fetchone()[0]
    c.close()
    return n, raw, packed, pages, runs


def zstd_size(db, limit=64):
    """Total zstd -3 size of the first `limit` chunks, and their zlib size."""
    c = sqlite3.connect(db)
    zs = zl = 0
    for (blob,) in c.execute("SELECT bytes FROM source_chunks ORDER BY sha256, seq LIMIT ?",
                             (limit,)):
        raw = zlib.decompress(blob)
        p = subprocess.run(["zstd", "-3", "-c", "-q"], input=raw, capture_output=True)
        if p.returncode != 0:
            return None, None
        zs += len(p.stdout)
        zl += len(blob)
    c.close()
    return zs, zl


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=1000000)
    ap.add_argument("--files", type=int, default=None, help="one-run files (default runs/10)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build-release", "perfledger"))
    ap.add_argument("--keep", default=None)
    a = ap.parse_args()
    nfiles = a.files if a.files is not None else a.runs // 10
    work = a.keep or tempfile.mkdtemp(prefix="pl-ledger-bench-")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, SOURCE_DATE_EPOCH="1790000000", USER="bench")
    os.environ.update(env)
    ok = True
    try:
        for seed, name in ((1, "a"), (2, "b")):
            d = os.path.join(work, name)
            if not os.path.exists(os.path.join(d, "descriptors.jsonl")):
                subprocess.run([PY, GEN, str(a.runs), d, "--jsonl", "--seed", str(seed)],
                               check=True, stdout=subprocess.DEVNULL)
        fdir = os.path.join(work, "files")
        if nfiles and not os.path.exists(fdir):
            subprocess.run([PY, GEN, str(nfiles), fdir, "--seed", "3"], check=True,
                           stdout=subprocess.DEVNULL)
        dbs = {}
        for name in ("a", "b"):
            db = dbs[name] = os.path.join(work, name + ".db")
            for s in ("", "-wal", "-shm"):
                if os.path.exists(db + s):
                    os.unlink(db + s)
            t, r, _ = run([a.bin, "--db", db, "import", os.path.join(work, name, "descriptors.jsonl")])
            report("import %d runs (one JSONL) into %s" % (a.runs, name.upper()), t, r)
        t_import_b, cpu_import_b = t, CPU[t]
        for name, runs_label in (("a", "one %d-line JSONL" % a.runs),):
            n, raw, packed, pages, runs = chunk_sizes(dbs[name])
            per = 1e6 / runs if runs else 0
            print("kept bytes, %s: %d chunks, %.1f MB read, %.1f MB kept (%.1f%%), "
                  "%s in pages; per 1M runs: %.1f MB" %
                  (runs_label, n, raw / 1e6, packed / 1e6, 100.0 * packed / raw if raw else 0,
                   "%.1f MB" % (pages / 1e6) if pages is not None else "n/a",
                   (pages if pages is not None else packed) * per / 1e6), flush=True)
        if nfiles:
            fdb = os.path.join(work, "f.db")
            for s in ("", "-wal", "-shm"):
                if os.path.exists(fdb + s):
                    os.unlink(fdb + s)
            t, r, _ = run([a.bin, "--db", fdb, "import", fdir])
            report("import %d one-run files into F" % nfiles, t, r)
            n, raw, packed, pages, runs = chunk_sizes(fdb)
            per = 1e6 / runs if runs else 0
            print("kept bytes, one-run files: %d chunks, %.1f MB read, %.1f MB kept (%.1f%%), "
                  "%s in pages; per 1M runs: %.1f MB" %
                  (n, raw / 1e6, packed / 1e6, 100.0 * packed / raw if raw else 0,
                   "%.1f MB" % (pages / 1e6) if pages is not None else "n/a",
                   (pages if pages is not None else packed) * per / 1e6), flush=True)
            t2, r2, _ = run([a.bin, "--db", fdb, "import", fdir])
            report("no-op re-import of the %d files" % nfiles, t2, r2,
                   "  (%.2fx the first import; CPU %.2fx)" %
                   (t2 / t if t else 0, CPU[t2] / CPU[t] if CPU.get(t) else 0))
            zs, zl = zstd_size(fdb)
            if zs:
                print("zstd -3 vs zlib -6 on 64 one-run files: %d vs %d bytes (%.2fx)" %
                      (zs, zl, zs / zl), flush=True)
        zs, zl = zstd_size(dbs["a"], 8)
        if zs:
            print("zstd -3 vs zlib -6 on 8 MiB of JSONL chunks: %d vs %d bytes (%.2fx)" %
                  (zs, zl, zs / zl), flush=True)

        exp = os.path.join(work, "a.jsonl")
        t, r, _ = run([a.bin, "--db", dbs["a"], "export", "--out", exp])
        report("export %d runs" % a.runs, t, r, "  (%.0f MB)" % (os.path.getsize(exp) / 1e6))

        merged = os.path.join(work, "m.db")
        for s in ("", "-wal", "-shm"):
            if os.path.exists(merged + s):
                os.unlink(merged + s)
        subprocess.run(["sqlite3", dbs["a"], "VACUUM INTO '%s'" % merged], check=True)
        t, r, _ = run([a.bin, "--db", merged, "merge", dbs["b"]])
        report("merge B (%d runs) into a copy of A" % a.runs, t, r)
        c = sqlite3.connect(merged)
        total = c.execute("SELECT count(*) FROM runs").fetchone()[0]
        c.close()
        want = 2 * a.runs - 0  # seeds differ, so do the files' sha256
        if total != want:
            print("FAIL: merged ledger holds %d runs, expected %d" % (total, want))
            ok = False
        t2, r2, _ = run([a.bin, "--db", merged, "merge", dbs["b"]])
        report("no-op merge of B again", t2, r2,
               "  (%.2fx B's first import of %.2f s; CPU %.2fx)" %
               (t2 / t_import_b, t_import_b, CPU[t2] / cpu_import_b if cpu_import_b else 0))

        # round trip on A's export: import, export again, compare
        rt = os.path.join(work, "rt.db")
        for s in ("", "-wal", "-shm"):
            if os.path.exists(rt + s):
                os.unlink(rt + s)
        t, r, _ = run([a.bin, "--db", rt, "import", exp])
        report("import of the export (%d runs)" % a.runs, t, r)
        exp2 = os.path.join(work, "rt.jsonl")
        run([a.bin, "--db", rt, "export", "--out", exp2])
        same = subprocess.run(["cmp", "-s", exp, exp2]).returncode == 0
        print("export -> import -> export byte-identical: %s" % ("yes" if same else "NO"))
        ok = ok and same
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
