#!/usr/bin/env python3
"""Fails when a benchmark's time grew past its limit as a multiple of the
baseline timed in the same run (tests/bench/baseline_ratio.h).

Usage: taskset -c 0 build/route_bench --benchmark_format=json | tests/bench/check_ratios.py
Prints one line per benchmark with a limit; exits 1 when any ratio is above it.
"""
import json
import sys


def main() -> int:
    report = json.load(sys.stdin)
    failed = 0
    for bench in report.get("benchmarks", []):
        if "limit" not in bench or "x_baseline" not in bench:
            continue
        ratio, limit = bench["x_baseline"], bench["limit"]
        verdict = "ok" if ratio <= limit else "TOO SLOW"
        failed += ratio > limit
        print(f"{bench['name']}: {ratio:.2f}x baseline ({bench['baseline_ms']:.1f} ms), limit {limit:g}x: {verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
