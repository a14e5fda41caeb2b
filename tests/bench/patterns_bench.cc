// Traffic patterns on FT(16,3) (1,024 hosts) routed by OSRM3 (and multipath,
// all offsets). Target: every pattern family of Yuan et al. §VI at its
// default instance count (32), plus the bisection bandwidth, in under 10 s.
// Baseline in the same run: one random permutation.
#include <benchmark/benchmark.h>

#include "detect/detect.h"
#include "gen/generate.h"
#include "traffic/pattern_load.h"
#include "traffic/patterns.h"

namespace ftclos {
namespace {

struct Ft16_3 {
  Fabric fabric = *generate_ftree(16, 3);
  Detection detection = detect(fabric);
  SchemeTables osrm = *route_scheme(fabric, detection, "osrm", -1);
  SchemeTables multipath = *route_scheme(fabric, detection, "multipath", -1);
};

const Ft16_3& ft16_3() {
  static const Ft16_3 instance;
  return instance;
}

void run_patterns(benchmark::State& state, const std::vector<std::string>& patterns, int instances,
                  bool multipath = false) {
  const Ft16_3& ft = ft16_3();
  const SchemeTables& tables = multipath ? ft.multipath : ft.osrm;
  for (auto _ : state) {
    LoadPlan plan({ft.fabric, tables.lids, tables.routing.lfts, tables.offsets});  // once per table set, as commands do
    for (const std::string& text : patterns) {
      Result<PatternStats> stats =
          evaluate_pattern(plan, ft.detection.levels, OptuBasis::kBaseload, *parse_pattern(text), {instances, 1});
      if (!stats.ok()) state.SkipWithError(stats.status().message().c_str());
      benchmark::DoNotOptimize(stats);
    }
  }
}

void BM_OnePermutationBaseline(benchmark::State& state) { run_patterns(state, {"permutation"}, 1); }
BENCHMARK(BM_OnePermutationBaseline)->Unit(benchmark::kMillisecond);

// Tables II-III's regular patterns, 32 instances each.
void BM_RegularPatterns(benchmark::State& state) {
  run_patterns(state, {"ring", "mesh2d", "mesh3d", "hypercube", "binary-tree"}, 0);
}
BENCHMARK(BM_RegularPatterns)->Unit(benchmark::kMillisecond);

// Every §VI family at its default instance count, the dense ones included.
const std::vector<std::string> kPaperFamilies = {"uniform:0.5", "ring",        "mesh2d",        "mesh3d",
                                                 "hypercube",   "binary-tree", "clustered:8",   "clustered:128",
                                                 "hot-spot:4,64", "bisection"};

void BM_AllPaperFamilies(benchmark::State& state) { run_patterns(state, kPaperFamilies, 0); }
BENCHMARK(BM_AllPaperFamilies)->Unit(benchmark::kMillisecond)->Iterations(1);

// The same with multipath at LMC 5: every flow split over 32 LIDs.
void BM_AllPaperFamiliesMultipath(benchmark::State& state) { run_patterns(state, kPaperFamilies, 0, true); }
BENCHMARK(BM_AllPaperFamiliesMultipath)->Unit(benchmark::kMillisecond)->Iterations(1);

// The densest single matrix: all-to-all, a million SD pairs.
void BM_AllToAll(benchmark::State& state) { run_patterns(state, {"all-to-all"}, 1); }
BENCHMARK(BM_AllToAll)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ftclos

BENCHMARK_MAIN();
