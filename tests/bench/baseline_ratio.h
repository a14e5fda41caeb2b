// A benchmark's time as a multiple of a baseline timed in the same process,
// so that a slowdown shows on any machine and under any load that hits both
// alike. Each benchmark reports counters "x_baseline" (its mean time per
// iteration over the baseline's median) and "limit" (the ratio the issue
// accepts); tests/bench/check_ratios.py fails when x_baseline > limit.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace ftclos::bench {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// Median of 5 runs of `baseline`, in ms.
template <class F>
double median_ms(F baseline) {
  std::vector<double> runs;
  for (int i = 0; i < 5; ++i) {
    const Clock::time_point start = Clock::now();
    baseline();
    runs.push_back(ms_since(start));
  }
  std::ranges::sort(runs);
  return runs[runs.size() / 2];
}

/// Runs `body` once per iteration and reports its mean time over
/// `baseline_ms`, with no limit: a floor that other figures are read against.
template <class F>
void measure_against(benchmark::State& state, double baseline_ms, F body) {
  double total_ms = 0;
  for (auto _ : state) {
    const Clock::time_point start = Clock::now();
    body();
    total_ms += ms_since(start);
  }
  state.counters["x_baseline"] = total_ms / static_cast<double>(state.iterations()) / baseline_ms;
  state.counters["baseline_ms"] = baseline_ms;
}

/// Runs `body` once per iteration and reports its mean time over `baseline_ms`.
template <class F>
void run_against(benchmark::State& state, double baseline_ms, double limit, F body) {
  measure_against(state, baseline_ms, body);
  state.counters["limit"] = limit;
}

}  // namespace ftclos::bench
