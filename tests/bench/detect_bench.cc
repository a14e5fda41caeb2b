// Recognition speed on FT(36,3) (11,664 hosts, 1,620 switches). The
// baseline in the same run is parsing the same net file: detection should
// cost about as much as reading the fabric, and stay far under 1 s.
#include <benchmark/benchmark.h>

#include "core/netfile.h"
#include "detect/detect.h"
#include "gen/generate.h"

namespace ftclos {
namespace {

const std::string& ft36_3_text() {
  static const std::string text = write_netfile(*generate_ftree(36, 3));
  return text;
}

void BM_ParseNetfileFt36_3(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(parse_netfile(ft36_3_text(), "ft-36-3.net"));
}
BENCHMARK(BM_ParseNetfileFt36_3)->Unit(benchmark::kMillisecond);

void BM_DetectFt36_3(benchmark::State& state) {
  const Fabric fabric = *parse_netfile(ft36_3_text(), "ft-36-3.net");
  for (auto _ : state) benchmark::DoNotOptimize(detect(fabric));
}
BENCHMARK(BM_DetectFt36_3)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ftclos

BENCHMARK_MAIN();
