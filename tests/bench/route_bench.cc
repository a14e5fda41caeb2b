// Routing all switches of FT(36,3) (11,664 hosts, 1,620 switches) with the
// destination-based D-mod-k and the source-dependent OSRM3. Target: 100 ms
// on one core. Up/down, the scheme for random and degraded fabrics, is
// measured on the same fabric (target: within 3x of D-mod-k, issue #14) and
// on radix-36 random folded Clos of 10,080 and 39,600 hosts (issue #12:
// well under 60 s). The baseline in the same run is recognition of each
// fabric, which every routing pass does first: each benchmark reports its
// time as a multiple of it (x_baseline) and the multiple accepted (limit);
// tests/bench/check_ratios.py fails when one is above. The dump writer is
// measured per entry against memcpy of the same bytes; `route --scheme auto
// -o FILE` end to end against detection, next to the floor: writing as many
// bytes to a file in TMPDIR.
#include <benchmark/benchmark.h>

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>

#include "audit/audit.h"
#include "baseline_ratio.h"
#include "core/end_nodes.h"
#include "core/fabric_file.h"
#include "core/files.h"
#include "core/netfile.h"
#include "detect/detect.h"
#include "engine/sweep.h"
#include "gen/generate.h"
#include "tables/lft_dump.h"
#include "schemes/schemes.h"

namespace ftclos {
namespace {

struct Ft36_3 {
  Fabric fabric = *generate_ftree(36, 3);
  Detection detection = detect(fabric);
};

const Ft36_3& ft36_3() {
  static const Ft36_3 instance;
  return instance;
}

// Radix-36, 3-level RFC with `leaves` leaves (18 hosts each), seed 1.
struct Rfc36 {
  Fabric fabric;
  Detection detection;
  explicit Rfc36(int leaves) : fabric(*generate_rfc(36, leaves, 3, 1)), detection(detect(fabric)) {}
};

const Rfc36& rfc36(int leaves) {
  static const Rfc36 small(560), large(2200);
  return leaves == 560 ? small : large;
}

// Limits: what the balanced up/down router measured (2026-11-25: about 50x
// detection at 10,080 hosts, 220x at 39,600), with room for noise.
void BM_RouteUpDownRfc36(benchmark::State& state) {
  const Rfc36& rfc = rfc36(static_cast<int>(state.range(0)));
  const LidMap lids = *assign_lids(rfc.fabric, 0);
  const std::unique_ptr<Scheme> scheme = make_updown_scheme();
  const double detect_ms = bench::median_ms([&] { benchmark::DoNotOptimize(detect(rfc.fabric)); });
  bench::run_against(state, detect_ms, state.range(0) == 560 ? 80 : 300, [&] {
    Result<Routing> routing = scheme->route({rfc.fabric, rfc.detection, lids});
    if (!routing.ok()) state.SkipWithError(routing.status().message().c_str());
    benchmark::DoNotOptimize(routing);
  });
  state.counters["lids"] = lids.max_lid;
}
BENCHMARK(BM_RouteUpDownRfc36)->Arg(560)->Arg(2200)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_DetectFt36_3Baseline(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(detect(ft36_3().fabric));
}
BENCHMARK(BM_DetectFt36_3Baseline)->Unit(benchmark::kMillisecond);

double detect_ms() {
  static const double ms = bench::median_ms([] { benchmark::DoNotOptimize(detect(ft36_3().fabric)); });
  return ms;
}

// Limits against detection (issue #14): OSRM at LMC 2 within 8x; the others
// at what they measured then, with room for noise.
void route_ft36_3(benchmark::State& state, std::unique_ptr<Scheme> (*make)(), int lmc, double limit) {
  const LidMap lids = *assign_lids(ft36_3().fabric, lmc);
  const std::unique_ptr<Scheme> scheme = make();
  bench::run_against(state, detect_ms(), limit, [&] {
    Result<Routing> routing = scheme->route({ft36_3().fabric, ft36_3().detection, lids});
    if (!routing.ok()) state.SkipWithError(routing.status().message().c_str());
    benchmark::DoNotOptimize(routing);
  });
  state.counters["lids"] = lids.max_lid;
}

void BM_RouteDmodkFt36_3(benchmark::State& state) { route_ft36_3(state, make_dmodk_scheme, 0, 6); }
BENCHMARK(BM_RouteDmodkFt36_3)->Unit(benchmark::kMillisecond);

// OSRM3's 18 source groups on FT(36,3) would need LMC 5, which passes the
// unicast LID range (11,664 x 32 LIDs); LMC 2 is the most that fits, and
// routes every one of the 4 LIDs of every CA.
void BM_RouteOsrmFt36_3(benchmark::State& state) {
  route_ft36_3(state, make_osrm_scheme, state.range(0), state.range(0) == 2 ? 8 : 6);
}
BENCHMARK(BM_RouteOsrmFt36_3)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond);

// Measured about 11x detection (3.5x D-mod-k, 2026-11-25: 191 ms against
// 55 ms; the limit, 18x, is what it measured before); issue #14 wants 3x
// D-mod-k.
void BM_RouteUpDownFt36_3(benchmark::State& state) { route_ft36_3(state, make_updown_scheme, 0, 18); }
BENCHMARK(BM_RouteUpDownFt36_3)->Unit(benchmark::kMillisecond);

// The same against D-mod-k timed in the same run, issue #14's own terms: within 3x.
void BM_RouteUpDownOverDmodkFt36_3(benchmark::State& state) {
  const LidMap lids = *assign_lids(ft36_3().fabric, 0);
  auto route_with = [&](std::unique_ptr<Scheme> (*make)()) {
    return [&lids, make] { benchmark::DoNotOptimize(make()->route({ft36_3().fabric, ft36_3().detection, lids})); };
  };
  bench::run_against(state, bench::median_ms(route_with(make_dmodk_scheme)), 3, route_with(make_updown_scheme));
}
BENCHMARK(BM_RouteUpDownOverDmodkFt36_3)->Unit(benchmark::kMillisecond);

// What `ftclos route --scheme dmodk -o FILE` does after reading the file:
// recognize, assign LIDs, route, write the 1.3 GB dump (to a sink that
// drops it; the file system is not measured). Issue #14: within 10x of detection.
void BM_RouteAndWriteFt36_3(benchmark::State& state) {
  long bytes = 0;
  bench::run_against(state, detect_ms(), 10, [&] {
    const Detection detection = detect(ft36_3().fabric);
    const LidMap lids = *assign_lids(ft36_3().fabric, 0);
    const Result<Routing> routing = make_dmodk_scheme()->route({ft36_3().fabric, detection, lids});
    bytes = 0;
    write_lft_dump(ft36_3().fabric, lids, routing->lfts, [&](std::string_view chunk) {
      bytes += static_cast<long>(chunk.size());
      benchmark::DoNotOptimize(chunk.data());
      return true;
    });
  });
  state.counters["dump_MB"] = static_cast<double>(bytes) / 1e6;
}
BENCHMARK(BM_RouteAndWriteFt36_3)->Unit(benchmark::kMillisecond);

// The dump of FT(36,3) under D-mod-k, chunk by chunk into one 1 MiB-scale
// buffer, per entry; the baseline copies as many bytes with memcpy.
struct DumpInput {
  LidMap lids = *assign_lids(ft36_3().fabric, 0);
  Routing routing = *make_dmodk_scheme()->route({ft36_3().fabric, ft36_3().detection, lids});
  long entries = 0, bytes = 0;
  DumpInput() {
    write_lft_dump(ft36_3().fabric, lids, routing.lfts, [&](std::string_view chunk) {
      bytes += static_cast<long>(chunk.size());
      return true;
    });
    for (const std::vector<uint8_t>& lft : routing.lfts.port)
      for (uint8_t port : lft) entries += port != kNoPath;
  }
};

const DumpInput& dump_input() {
  static const DumpInput instance;
  return instance;
}

// Copies `bytes` in chunks of up to 4 MiB into `into`, as the sink below does.
void copy_bytes(long bytes, const std::string& from, std::string& into) {
  for (long done = 0; done < bytes; done += static_cast<long>(from.size()))
    std::memcpy(into.data(), from.data(), std::min<long>(bytes - done, static_cast<long>(from.size())));
}

void BM_DumpWriteFt36_3(benchmark::State& state) {
  const DumpInput& in = dump_input();
  std::string scratch(4 << 20, ' ');
  const std::string from(4 << 20, 'x');
  const double memcpy_ms = bench::median_ms([&] {
    copy_bytes(in.bytes, from, scratch);
    benchmark::ClobberMemory();
  });
  // The writer formats every line; a memcpy per line's bytes is the floor. Measured 8x on one core.
  bench::run_against(state, memcpy_ms, 12, [&] {
    write_lft_dump(ft36_3().fabric, in.lids, in.routing.lfts, [&](std::string_view chunk) {
      std::memcpy(scratch.data(), chunk.data(), std::min(chunk.size(), scratch.size()));
      return true;
    });
    benchmark::ClobberMemory();
  });
  state.SetItemsProcessed(state.iterations() * in.entries);
  state.SetBytesProcessed(state.iterations() * in.bytes);
}
BENCHMARK(BM_DumpWriteFt36_3)->Unit(benchmark::kMillisecond);

// Where the file benchmarks write: the temporary directory (TMPDIR), whose
// file system is what they measure; the file is removed after each run.
std::string scratch_dump() {
  return (std::filesystem::temp_directory_path() / fmt::format("ftclos-route-bench-{}.dump", ::getpid())).string();
}

// What `ftclos route FT36.net --scheme auto -o FILE` does after reading the
// file: recognize, assign LIDs, auto (D-mod-k, checked by the auditor, a
// thread per core the run may use), the 1.47 GB dump written to a file.
// Issue #14: within 10x of detection.
void BM_RouteAutoToFileFt36_3(benchmark::State& state) {
  const std::string path = scratch_dump();
  const StrandCheck strands = [](const RoutingInput& input, const Routing& routing) {
    OffsetChoice every_offset;
    every_offset.mode = OffsetChoice::Mode::kAllOffsets;
    const Correctness check = check_correctness(
        {input.fabric, input.detection.levels, input.lids, routing.lfts, every_offset, routing.dest_sl, {}});
    return check.unreachable + check.loops + check.credit_loops == 0 ? std::string() : std::string("stranded");
  };
  const std::unique_ptr<Scheme> scheme = std::move(*make_scheme("auto"));
  bench::run_against(state, detect_ms(), 10, [&] {
    const Detection detection = detect(ft36_3().fabric);
    const LidMap lids = *assign_lids(ft36_3().fabric, 0);
    const Result<Routing> routing = scheme->route({ft36_3().fabric, detection, lids, &strands});
    const Status written = write_file(path, [&](const TextSink& sink) {
      return write_lft_dump(ft36_3().fabric, lids, routing->lfts, sink);
    });
    if (!written.ok()) state.SkipWithError(written.message().c_str());
  });
  std::filesystem::remove(path);
}
BENCHMARK(BM_RouteAutoToFileFt36_3)->Unit(benchmark::kMillisecond)->Iterations(3);

// The floor under it: as many bytes as that dump, from one 1 MiB buffer, to
// a file in the same directory (the kernel's copy into the page cache and
// whatever writeback it waits for), against the same detection.
void BM_WriteDumpBytesFloorFt36_3(benchmark::State& state) {
  const std::string path = scratch_dump();
  const long bytes = dump_input().bytes;
  const std::string chunk(1 << 20, 'x');
  bench::measure_against(state, detect_ms(), [&] {
    const Status written = write_file(path, [&](const TextSink& sink) {
      for (long done = 0; done < bytes; done += static_cast<long>(chunk.size()))
        if (!sink(std::string_view(chunk).substr(0, std::min<long>(bytes - done, static_cast<long>(chunk.size())))))
          return false;
      return true;
    });
    if (!written.ok()) state.SkipWithError(written.message().c_str());
  });
  std::filesystem::remove(path);
  state.counters["dump_MB"] = static_cast<double>(bytes) / 1e6;
}
BENCHMARK(BM_WriteDumpBytesFloorFt36_3)->Unit(benchmark::kMillisecond)->Iterations(3);

// The 3,784-HCA SuperPOD-like pod of issue #30 (`gen superpod --units 25
// --servers 20 --rails 8 --levels 3 --spines 10 --group-units 5
// --partial-units 10 --mgmt-leaves 4 --fail-links 30 --seed 5`: 704 ANs, 30
// missing cables), as its net file's text.
const std::string& pod3784_text() {
  static const std::string text = [] {
    Result<Superpod> pod = generate_superpod({.units = 25, .servers = 20, .rails = 8, .levels = 3, .spines = 10,
                                              .group_units = 5, .partial_units = 10, .mgmt_leaves = 4, .seed = 5});
    (void)degrade(pod->fabric, {.fail_links = 30, .seed = 5});
    return write_netfile(pod->fabric);
  }();
  return text;
}

// What `ftclos route FILE -o DUMP --sl SLS` does (read the file, assign
// LIDs, the sweep: recognize, auto: updown, D-mod-k challenging it, the
// check; write the dump, here to a sink that drops it: the file system is
// not measured) against what `ftclos detect FILE` does (read the file,
// recognize), `read` reading the file; within `limit` times.
template <class Read>
void route_and_write_against_detect(benchmark::State& state, Read read, double limit) {
  const HostHints hints;
  SweepOptions as_route_with_sls;  // tools/cmd_route.cc's sweep_options
  as_route_with_sls.allow_unreachable = true;
  as_route_with_sls.check_switch_routes = true;
  as_route_with_sls.check_non_minimal = true;
  const double detect_ms = bench::median_ms([&] { benchmark::DoNotOptimize(detect(read())); });
  bench::run_against(state, detect_ms, limit, [&] {
    const Fabric fabric = read();
    const LidMap lids = *assign_lids(fabric, 0);
    const SweepOutcome outcome = run_sweep({fabric, lids, hints}, as_route_with_sls);
    if (!outcome.ok()) state.SkipWithError(outcome.message.c_str());
    write_lft_dump(fabric, lids, outcome.sweep.routing.lfts, [&](std::string_view chunk) {
      benchmark::DoNotOptimize(chunk.data());
      return true;
    });
  });
}

// The pod above. Issue #30: within 10x. Measured 2026-11-27 with the
// commands, idle: 31x before (2.66 s against 84 ms).
void BM_RouteAndWritePod3784(benchmark::State& state) {
  const std::string& text = pod3784_text();
  route_and_write_against_detect(state, [&] { return std::move(parse_fabric_text(text, "pod.net")->fabric); }, 10);
}
BENCHMARK(BM_RouteAndWritePod3784)->Unit(benchmark::kMillisecond)->Iterations(3);

// A real pod: NVIDIA Selene's compute fabric (666 switches, 3,675 HCAs, 666
// ANs, ibsim-topos/public). Issue #42: within 10x. Measured 2026-11-29 with
// the commands, idle: 1.0-1.1 s against 0.14-0.15 s (2.5 s routing and
// checking alone before).
void BM_RouteAndWriteSelene(benchmark::State& state) {
  static const std::string text = *read_file(FTCLOS_SOURCE_ROOT "/ibsim-topos/public/selene-compute.ibnetdiscover");
  route_and_write_against_detect(
      state, [&] { return split_end_nodes(parse_fabric_text(text, "selene-compute.ibnetdiscover")->fabric); }, 10);
}
BENCHMARK(BM_RouteAndWriteSelene)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace ftclos

BENCHMARK_MAIN();
