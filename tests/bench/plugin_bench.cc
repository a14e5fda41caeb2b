// The plugin's routing callback without OpenSM: FT(36,3) (11,664 hosts,
// 1,620 switches) handed to ftclos_engine_route as ftclos_osm.c hands
// OpenSM's subnet over, scheme auto at LMC 0, against recognition of the
// same fabric in the same run. Issue #14 wants the callback under 200 ms in
// OpenSM (tests/bench/plugin_callback.sh measures it there, in minutes);
// this measures the same call in seconds, for one thread and for every CPU
// the run may use. Counters: the engine's own INFO-line figures. Also FT(48,3)
// (issue #32), a first sweep and a sweep after one cable cut, each split,
// with the process's peak resident memory growth in each (issue #44: the
// plugin's share of OpenSM's peak), each sweep's routing and checking over
// recognition alone (`_x_detect`) and over the issue's `ftclos detect FILE`,
// reading the net file included (`_x_detect_file`).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "baseline_ratio.h"
#include "core/files.h"
#include "core/netfile.h"
#include "detect/detect.h"
#include "ftclos_engine.h"
#include "gen/generate.h"
#include "tables/path_bits.h"
#include "route/routing.h"

namespace ftclos {
namespace {

// A field of /proc/self/status in MB: VmRSS, the resident set, or VmHWM,
// its peak; reset_peak_rss() sets the peak to the resident set now
// (Linux: "5" into /proc/self/clear_refs).
double status_mb(std::string_view field) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with(field) && line.size() > field.size() && line[field.size()] == ':')
      return std::strtod(line.c_str() + field.size() + 1, nullptr) / 1024;
  return 0;
}
void reset_peak_rss() { std::ofstream("/proc/self/clear_refs") << "5"; }

// The fabric as plain C arrays: every node, every cable once, the LIDs of
// switch port 0 and CA port 1.
struct SubnetArrays {
  Fabric fabric;
  std::vector<ftclos_node> nodes;
  std::vector<ftclos_link> links;
  std::vector<ftclos_lid> lids;

  SubnetArrays(int ports, int levels) : fabric(*generate_ftree(ports, levels)) {
    const LidMap map = *assign_lids(fabric, 0);
    for (int i = 0; i < fabric.size(); ++i) {
      const Node& node = fabric.node(i);
      nodes.push_back({node.is_switch() ? FTCLOS_SWITCH : FTCLOS_CA, node.guid, node.num_ports, node.name.c_str()});
      for (int p = 1; p <= node.num_ports; ++p) {
        const PortRef peer = node.ports[p].peer;
        if (peer.valid() && (peer.node > i || (peer.node == i && peer.port > p)))
          links.push_back({i, p, peer.node, peer.port});
      }
      const int port = node.is_switch() ? 0 : 1;
      if (map.base[i] != 0)
        lids.push_back({i, port, port_guid(node, port), static_cast<uint16_t>(map.base[i]), 0});
    }
  }
  ftclos_subnet view() const {
    return {nodes.data(), nodes.size(), links.data(), links.size(), lids.data(), lids.size(), 0, 0};
  }
  // The same subnet with one switch-to-switch cable cut: the first (on a
  // generated fat tree the first leaf's, the leaf switches' own routes turn
  // at, so they all move), or the middle one (any other cable: those stay).
  enum class Cut { kTurnLeaf, kMiddle };
  ftclos_subnet view_one_cable_cut(std::vector<ftclos_link>& kept, Cut which) const {
    kept.clear();
    std::vector<size_t> between_switches;
    for (size_t i = 0; i < links.size(); ++i)
      if (fabric.node(links[i].a).is_switch() && fabric.node(links[i].b).is_switch()) between_switches.push_back(i);
    const size_t cut = which == Cut::kTurnLeaf ? between_switches.front() : between_switches[between_switches.size() / 2];
    for (size_t i = 0; i < links.size(); ++i)
      if (i != cut) kept.push_back(links[i]);
    return {nodes.data(), nodes.size(), kept.data(), kept.size(), lids.data(), lids.size(), 0, 0};
  }
};

// Where the net file of the fabric goes for the file baseline: TMPDIR, else /tmp.
std::string temp_net_path() {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir && *dir ? dir : "/tmp") + "/plugin_bench_" + std::to_string(getpid()) + ".net";
}

// Runs `ftclos detect FILE` (FTCLOS_COMMAND, the build's) with its output
// to /dev/null; false when it cannot run or finds no family.
bool run_detect_command(const std::string& net_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  const std::string command = FTCLOS_COMMAND;
  char* argv[] = {const_cast<char*>(command.c_str()), const_cast<char*>("detect"),
                  const_cast<char*>(net_path.c_str()), nullptr};
  pid_t pid = 0;
  const bool spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv, environ) == 0;
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  return spawned && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Keeps the engine's INFO line: "... T ms (R recognition, U routing, C checking; N threads)".
// Keeps the sweep's summary line (INFO, with its split in ms); other INFO
// lines (a change's steps) follow it.
void keep_info(void* line, int level, const char* text) {
  if (level == FTCLOS_LOG_INFO && std::strstr(text, " recognition, ")) *static_cast<std::string*>(line) = text;
}

// Arg: the engine's jobs= (0: its default, the CPUs the run may use, at most 8).
void BM_PluginCallbackFt36_3(benchmark::State& state) {
  const SubnetArrays subnet(36, 3);
  const double detect_ms = bench::median_ms([&] { benchmark::DoNotOptimize(detect(subnet.fabric)); });
  std::string line;
  ftclos_engine* engine = ftclos_engine_create(keep_info, &line, nullptr);
  const std::string options = "scheme=auto" +
                              (state.range(0) > 0 ? " jobs=" + std::to_string(state.range(0)) : std::string());
  ftclos_engine_set_options(engine, options.c_str(), nullptr);
  double recognition = 0, routing = 0, checking = 0;
  int threads = 0;
  const ftclos_subnet view = subnet.view();
  bench::measure_against(state, detect_ms, [&] {
    ftclos_engine_clear(engine);  // each run is a first sweep, as plugin_callback.sh's
    char* error = nullptr;
    if (ftclos_engine_route(engine, &view, nullptr, &error) != 0) state.SkipWithError(error);
    std::free(error);
    double r = 0, u = 0, c = 0;
    if (std::sscanf(line.c_str() + line.rfind(" ms (") + 5, "%lf recognition, %lf routing, %lf checking; %d", &r, &u,
                    &c, &threads) == 4)
      recognition += r, routing += u, checking += c;
  });
  ftclos_engine_destroy(engine);
  const double runs = static_cast<double>(state.iterations());
  state.counters["recognition_ms"] = recognition / runs;
  state.counters["routing_ms"] = routing / runs;
  state.counters["checking_ms"] = checking / runs;
  state.counters["threads"] = threads;
}
BENCHMARK(BM_PluginCallbackFt36_3)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->Iterations(5);

// The sweep's split from the INFO line: recognition, routing, checking.
struct SweepSplit {
  double recognition = 0, routing = 0, checking = 0;
  void add(const std::string& line) {
    double r = 0, u = 0, c = 0;
    if (std::sscanf(line.c_str() + line.rfind(" ms (") + 5, "%lf recognition, %lf routing, %lf checking", &r, &u, &c) ==
        3)
      recognition += r, routing += u, checking += c;
  }
  void report(benchmark::State& state, const std::string& prefix) const {
    const double runs = static_cast<double>(state.iterations());
    state.counters[prefix + "recognition_ms"] = recognition / runs;
    state.counters[prefix + "routing_ms"] = routing / runs;
    state.counters[prefix + "checking_ms"] = checking / runs;
  }
};

// Issue #32's largest subnet: FT(48,3) (27,648 hosts), scheme auto at LMC 0
// on the engine's default threads. Each iteration is a first sweep and then
// a sweep after one switch-to-switch cable cut (keep_tables on, as
// deployed); the time is the failure sweep's over recognition's, the
// counters split both sweeps. Arg: 0 cuts the turn leaf's cable (about a
// million switch-route entries move with it), 1 the middle cable (typical:
// one cable in 27,648).
void BM_PluginFailureSweepFt48_3(benchmark::State& state) {
  const SubnetArrays subnet(48, 3);
  const double detect_ms = bench::median_ms([&] { benchmark::DoNotOptimize(detect(subnet.fabric)); });
  // The work of `ftclos detect FILE` in process: the net file read and
  // parsed, then recognized (no process start, no output, no exit).
  const std::string net_path = temp_net_path();
  if (Status written = write_file(net_path, write_netfile(subnet.fabric)); !written.ok()) {
    state.SkipWithError(written.message().c_str());
    return;
  }
  const double detect_file_ms = bench::median_ms([&] {
    Result<Fabric> read = read_netfile(net_path);
    if (read.ok()) benchmark::DoNotOptimize(detect(*read));
  });
  // As the issue timed it: the command, start to exit.
  bool command_ran = true;
  const double detect_command_ms = bench::median_ms([&] { command_ran = run_detect_command(net_path) && command_ran; });
  std::remove(net_path.c_str());
  if (!command_ran) {
    state.SkipWithError("ftclos detect did not run on the net file (build the ftclos target)");
    return;
  }
  std::string line;
  ftclos_engine* engine = ftclos_engine_create(keep_info, &line, nullptr);
  ftclos_engine_set_options(engine, "scheme=auto", nullptr);
  const ftclos_subnet whole = subnet.view();
  std::vector<ftclos_link> kept;
  const ftclos_subnet cut =
      subnet.view_one_cable_cut(kept, state.range(0) == 0 ? SubnetArrays::Cut::kTurnLeaf : SubnetArrays::Cut::kMiddle);
  SweepSplit first, failure;
  double first_ms = 0;
  auto sweep = [&](const ftclos_subnet& view, SweepSplit& split) {
    char* error = nullptr;
    if (ftclos_engine_route(engine, &view, nullptr, &error) != 0) state.SkipWithError(error);
    std::free(error);
    split.add(line);
  };
  double total_ms = 0, first_growth_mb = 0, failure_growth_mb = 0, failure_over_clear_mb = 0;
  for (auto _ : state) {
    ftclos_engine_clear(engine);
    reset_peak_rss();
    const double clear_mb = status_mb("VmRSS");
    double before_mb = clear_mb;
    bench::Clock::time_point start = bench::Clock::now();
    sweep(whole, first);
    first_ms += bench::ms_since(start);
    first_growth_mb = std::max(first_growth_mb, status_mb("VmHWM") - before_mb);
    reset_peak_rss();
    before_mb = status_mb("VmRSS");
    start = bench::Clock::now();
    sweep(cut, failure);
    total_ms += bench::ms_since(start);
    failure_growth_mb = std::max(failure_growth_mb, status_mb("VmHWM") - before_mb);
    failure_over_clear_mb = std::max(failure_over_clear_mb, status_mb("VmHWM") - clear_mb);
  }
  ftclos_engine_destroy(engine);
  const double runs = static_cast<double>(state.iterations());
  state.counters["x_baseline"] = total_ms / runs / detect_ms;
  // Issue #44's measure: each sweep's routing and checking over detect's.
  state.counters["first_x_detect"] = (first.routing + first.checking) / runs / detect_ms;
  state.counters["failure_x_detect"] = (failure.routing + failure.checking) / runs / detect_ms;
  state.counters["baseline_ms"] = detect_ms;
  state.counters["first_x_detect_file"] = (first.routing + first.checking) / runs / detect_file_ms;
  state.counters["failure_x_detect_file"] = (failure.routing + failure.checking) / runs / detect_file_ms;
  state.counters["detect_file_ms"] = detect_file_ms;
  state.counters["first_x_detect_command"] = (first.routing + first.checking) / runs / detect_command_ms;
  state.counters["failure_x_detect_command"] = (failure.routing + failure.checking) / runs / detect_command_ms;
  state.counters["detect_command_ms"] = detect_command_ms;
  state.counters["first_ms"] = first_ms / runs;
  state.counters["failure_ms"] = total_ms / runs;
  // Peak resident growth over the resident set before each sweep (the
  // tables kept between sweeps counted in the before).
  state.counters["first_peak_growth_mb"] = first_growth_mb;
  state.counters["failure_peak_growth_mb"] = failure_growth_mb;
  // The failure sweep's peak over the engine holding nothing: what the
  // first sweep left kept too (the plugin's share of OpenSM's peak then).
  state.counters["failure_peak_over_clear_mb"] = failure_over_clear_mb;
  first.report(state, "first_");
  failure.report(state, "failure_");
}
BENCHMARK(BM_PluginFailureSweepFt48_3)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace ftclos

BENCHMARK_MAIN();
