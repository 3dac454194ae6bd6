#!/usr/bin/python3
"""gen_runs.py N SEED OUT.jsonl — N perfledger descriptors, one a line,
deterministic for (N, SEED), for the hub tests and figures (no ../shared
needed). Values vary over a few condition keys, as a nightly history does;
each line's run_started_at and metrics differ, so every run is its own."""
import json, random, sys

n, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rnd = random.Random(seed)
with open(out, "w") as f:
    for i in range(n):
        d = {
            "model": rnd.choice(["gemma-4-31b", "qwen2.5-7b-instruct", "llama-3.1-8b"]),
            "model_source": "huggingface",
            "precision": rnd.choice(["bfloat16", "fp8"]),
            "engine": "vllm", "engine_version": rnd.choice(["0.6.3", "0.6.6"]),
            "hardware": rnd.choice(["2x NVIDIA A100 80G", "1x NVIDIA H100 80G"]),
            "driver_version": "550.54", "cuda_version": "12.4",
            "input_tokens": 512, "max_output_tokens": 256,
            "concurrency": rnd.choice([1, 8, 16]), "warmup_requests": 3,
            "run_started_at": "2026-%02d-%02dT%02d:%02d:%02dZ" % (
                1 + seed % 12, 1 + i % 28, (i // 28) % 24, (i // 672) % 60, seed % 60),
            "metric": {"ttft_p50": round(0.1 + rnd.random(), 4),
                       "tokens_per_second_p50": round(20 + 40 * rnd.random(), 2),
                       "output_throughput": round(100 + 900 * rnd.random(), 2),
                       "error_rate": 0},
        }
        f.write(json.dumps(d) + "\n")
