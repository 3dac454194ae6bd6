#!/usr/bin/python3
"""The nightly gate's measured rates in docs/regression.md are claims: this
runs bench/gate_sim.c's headline line (4% CV, 3 repetitions, the pooled
gate, seed 20261201, 4000 null nights, 2000 trials per shift) and fails
unless its five figures are the ones the table prints, and unless they meet
the targets the page states (at most 5% of nights red, +8% within 2 nights
in at least 90% of trials, +15% on its first night in at least 95%).

usage: check_gate_sim.py PL_GATE_SIM DOCS_REGRESSION_MD
"""
import re
import subprocess
import sys


def main():
    sim, doc = sys.argv[1], sys.argv[2]
    out = subprocess.run([sim, "--cv", "0.04", "--reps", "3", "--method", "pooled"],
                         check=True, capture_output=True, text=True).stdout
    line = [l for l in out.splitlines() if l.startswith("0.04  3    pooled")]
    if len(line) != 1:
        sys.exit("check_gate_sim: no headline line in:\n" + out)
    got = [x.rstrip("%") for x in line[0].split()[3:8]]
    rows = [l for l in open(doc, encoding="utf-8")
            if re.match(r"\| 4% \| 3 \| \*\*pooled gate\*\* \|", l)]
    if len(rows) != 1:
        sys.exit("check_gate_sim: docs/regression.md has %d rows for 4%%, 3, pooled" % len(rows))
    cells = [c.strip().strip("*").rstrip("%") for c in rows[0].strip().strip("|").split("|")]
    want = cells[3:8]
    if got != want:
        sys.exit("check_gate_sim: measured %s, docs/regression.md says %s" % (got, want))
    red, first8, within8, first15 = float(got[0]), float(got[2]), float(got[3]), float(got[4])
    if not (red <= 5.0 and within8 >= 90.0 and first15 >= 95.0):
        sys.exit("check_gate_sim: the targets do not hold: %s" % got)
    print("gate_sim: red nights %s%%, checks red %s%%, +8%% night 1 %s%%, +8%% 2 nights %s%%, "
          "+15%% night 1 %s%% (as documented)" % tuple(got))


if __name__ == "__main__":
    main()
