#!/usr/bin/env python3
"""Generates the regression-tracking samples (deterministic: fixed seeds).

    python3 samples/regression/make.py      # rewrites the .jsonl files next to it

upgrade_h100.jsonl — one condition key (mistral-7b-instruct-v0.3, bf16, vLLM,
  1x H100, 2048/256 tokens, concurrency 32), 12 runs of each engine version:
  0.9.0  the baseline: TTFT p50 ~95 ms, 1.5% run-to-run noise
  0.9.1  a real regression: TTFT +10% with the same low noise (and TPOT 4%
         better, so `check` shows an improvement too)
  0.9.2  a noisy non-regression: the same levels as 0.9.0 but 6% noise, so
         single runs differ from the baseline by more than 5% while the
         samples as a whole do not
nightly_h100.jsonl — a 30-night history of one key (vLLM 0.9.2 pinned,
  concurrency 8): TTFT p50 ~60 ms with 2% noise, one outlier night (index 8,
  +25%: a single bad night is not a step), and a +12% step from night index
  20 on (0-based: the first night after the step is 2026-11-21).

Run-to-run noise: TTFT has its own noise; TPOT, ITL, E2EL and the
throughputs share one per-run speed factor (they move together in real
runs). Values are rounded to 4 significant digits as benchmark tools print.
"""
import json, os, random

HERE = os.path.dirname(os.path.abspath(__file__))

BASE = {
    "model": "mistral-7b-instruct-v0.3", "model_source": "huggingface",
    "precision": "bf16", "engine": "vLLM",
    "hardware": "1x NVIDIA H100 80G", "driver_version": "570.124.06",
    "cuda_version": "12.8", "input_tokens": 2048, "max_output_tokens": 256,
    "warmup_requests": 10, "dataset": "random-2048-256", "deployment": "local",
    "benchmark_tool": "vllm-bench-serve", "benchmark_tool_version": "0.9.0",
    "repetitions": 1,
}


def sig4(x):
    return float("%.4g" % x)


def run(rng, version, args, when, ttft_ms, tpot_ms, tput, noise, concurrency):
    speed = rng.gauss(1.0, noise)            # shared by the decode-side metrics
    ttft = ttft_ms * rng.gauss(1.0, noise)
    tpot = tpot_ms * speed
    d = dict(BASE)
    d.update({"engine_version": version, "engine_args": args,
              "concurrency": concurrency, "run_started_at": when})
    d["metric"] = {
        "ttft_p50_ms": sig4(ttft), "ttft_p95_ms": sig4(ttft * 1.62 * rng.gauss(1.0, noise)),
        "tpot_p50_ms": sig4(tpot), "tpot_p95_ms": sig4(tpot * 1.25),
        "itl_p50_ms": sig4(tpot * 0.97),
        "e2el_p50": sig4((ttft + 255 * tpot) / 1000.0),
        "output_throughput": sig4(tput / speed),
        "tokens_per_second_p50": sig4(1000.0 / tpot),
        "request_throughput": sig4(tput / speed / 256.0),
        "error_rate": 0,
    }
    return d


def upgrade():
    rng = random.Random(20261101)
    out = []
    specs = [  # version, TTFT ms, TPOT ms, noise, first day
        ("0.9.0", 95.0, 9.60, 0.015, 1),
        ("0.9.1", 104.5, 8.83, 0.015, 8),
        ("0.9.2", 95.0, 9.60, 0.06, 15),
    ]
    for version, ttft, tpot, noise, day in specs:
        args = "--tensor-parallel-size 1 --max-model-len 8192"
        for i in range(12):
            when = "2026-10-%02dT%02d:00:00Z" % (day + i // 4, 1 + i % 4 * 2)
            out.append(run(rng, version, args, when, ttft, tpot, 3200.0 * 9.60 / tpot,
                           noise, 32))
    return out


def nightly():
    rng = random.Random(20261121)
    out = []
    for i in range(30):
        ttft = 60.0 * (1.12 if i >= 20 else 1.0) * (1.25 if i == 8 else 1.0)
        when = "2026-11-%02dT02:00:00Z" % (i + 1)
        out.append(run(rng, "0.9.2", "--tensor-parallel-size 1 --max-model-len 8192", when,
                       ttft, 7.1, 1100.0, 0.02, 8))
    return out


def write(name, runs):
    with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
        for r in runs:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    write("upgrade_h100.jsonl", upgrade())
    write("nightly_h100.jsonl", nightly())
