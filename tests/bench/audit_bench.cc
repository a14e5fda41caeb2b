// Audit speed (issue acceptance): the exact worst-case contention of
// FT(36,3) (11,664 hosts, ~136 M SD pairs) under D-mod-k within 60 s, and of
// a 4,096-host fabric (the 16-ary 3-tree) within 5 s, on 2 cores. The
// baseline in the same run is check_correctness on the same input, which
// walks the same columns; compare the times as contention / correctness.
// Counters: peak RSS of the process so far (MiB), the worst case found.
//
// Issue #14: the exact audit (correctness, then worst-case contention) of
// the 10,080-host random folded Clos under up/down within 4x of the same
// audit of FT(36,3) under D-mod-k, timed in the same run (x_baseline; see
// baseline_ratio.h and check_ratios.py).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <memory>

#include "baseline_ratio.h"

#include "audit/audit.h"
#include "detect/detect.h"
#include "gen/generate.h"
#include "schemes/schemes.h"

namespace ftclos {
namespace {

struct Routed {
  Fabric fabric;
  Detection detection;
  LidMap lids;
  Routing routing;

  AuditInput input() const { return {fabric, detection.levels, lids, routing.lfts, {}, routing.dest_sl, {}}; }
};

// The fabric routed by D-mod-k with LMC 0, built once per process.
std::unique_ptr<Routed> route_with(Result<Fabric> fabric, std::unique_ptr<Scheme> scheme) {
  auto routed = std::make_unique<Routed>();
  routed->fabric = std::move(*fabric);
  routed->detection = detect(routed->fabric);
  routed->lids = *assign_lids(routed->fabric, 0);
  routed->routing = *scheme->route({routed->fabric, routed->detection, routed->lids});
  return routed;
}

std::unique_ptr<Routed> route_dmodk(Result<Fabric> fabric) { return route_with(std::move(fabric), make_dmodk_scheme()); }

const Routed& ft36_3() {
  static const std::unique_ptr<Routed> routed = route_dmodk(generate_ftree(36, 3));
  return *routed;
}
const Routed& kary16_3() {
  static const std::unique_ptr<Routed> routed = route_dmodk(generate_kary(16, 3));
  return *routed;
}

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;  // Linux reports KiB
}

void correctness(benchmark::State& state, const Routed& routed) {
  Correctness result;
  for (auto _ : state) result = check_correctness(routed.input());
  state.counters["pairs"] = static_cast<double>(result.pairs);
  state.counters["unreachable"] = static_cast<double>(result.unreachable);
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}

void contention(benchmark::State& state, const Routed& routed) {
  Contention result;
  for (auto _ : state) result = worst_case_contention(routed.input());
  state.counters["worst_case"] = result.worst_case;
  state.counters["exact"] = result.exact;
  state.counters["links"] = static_cast<double>(result.links.size());
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}

void BM_CorrectnessKary16_3(benchmark::State& state) { correctness(state, kary16_3()); }
void BM_ContentionKary16_3(benchmark::State& state) { contention(state, kary16_3()); }
void BM_CorrectnessFt36_3(benchmark::State& state) { correctness(state, ft36_3()); }
void BM_ContentionFt36_3(benchmark::State& state) { contention(state, ft36_3()); }

// `ftclos audit`'s exact audit: correctness, then worst-case contention.
void exact_audit(const Routed& routed) {
  benchmark::DoNotOptimize(check_correctness(routed.input()));
  benchmark::DoNotOptimize(worst_case_contention(routed.input()));
}

const Routed& rfc10k() {
  static const std::unique_ptr<Routed> routed = route_with(generate_rfc(36, 560, 3, 1), make_updown_scheme());
  return *routed;
}

void BM_ExactAuditRfc10kAgainstFt36_3(benchmark::State& state) {
  const Routed& rfc = rfc10k();
  const double ft_ms = bench::median_ms([] { exact_audit(ft36_3()); });
  bench::run_against(state, ft_ms, 4, [&] { exact_audit(rfc); });
  const double rfc_hosts = rfc.fabric.count(NodeType::kCa), ft_hosts = ft36_3().fabric.count(NodeType::kCa);
  // Per pair: the FT has more pairs, so the time per pair compares at (ft pairs / rfc pairs) times this.
  state.counters["x_baseline_per_pair"] =
      state.counters["x_baseline"] * (ft_hosts * (ft_hosts - 1)) / (rfc_hosts * (rfc_hosts - 1));
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}
BENCHMARK(BM_ExactAuditRfc10kAgainstFt36_3)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

BENCHMARK(BM_CorrectnessKary16_3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ContentionKary16_3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CorrectnessFt36_3)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_ContentionFt36_3)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace
}  // namespace ftclos

BENCHMARK_MAIN();
