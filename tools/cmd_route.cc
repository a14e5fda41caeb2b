// `ftclos route FILE --scheme NAME [--lmc L] [-o DUMP] [--pathbits FILE]`:
// route a fabric and write its LFTs as an opensm-lfts.dump (OpenSM's `file`
// routing engine loads it). The summary goes to stderr so the dump can go
// to stdout.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "commands.h"
#include "core/netfile.h"
#include "detect/summary.h"
#include "route/lft_dump.h"
#include "route/path_bits.h"
#include "route/route_fabric.h"

namespace ftclos::cli {
namespace {

struct RouteOptions {
  std::string file;
  std::string scheme;
  int lmc = 0;
  std::string output;     // empty: stdout
  std::string path_bits;  // empty: not written
};

using Clock = std::chrono::steady_clock;

double milliseconds_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  return static_cast<bool>(out << text);
}

void print_summary(const RoutedFabric& routed, const RouteOptions& options, double total_ms) {
  const Routing& routing = routed.routing;
  fmt::print(stderr, "family: {}\nscheme: {}\n", family_summary(routed.detection), options.scheme);
  fmt::print(stderr, "LMC: {} given, {} needed\n", options.lmc, routing.lmc_needed);
  if (options.lmc < routing.lmc_needed)
    fmt::print(stderr,
               "LMC {} is less than the {} this scheme needs for its full guarantee on this fabric; "
               "the notes say what it does instead\n",
               options.lmc, routing.lmc_needed);
  fmt::print(stderr, "entries re-routed: {}\n", routing.rerouted);
  for (const std::string& note : routing.notes) fmt::print(stderr, "note: {}\n", note);
  fmt::print(stderr, "time: {:.2f} ms ({:.2f} ms routing)\n", total_ms, routed.route_ms);
}

// Runs the whole pipeline; returns the exit code.
int run(const RouteOptions& options) {
  const Clock::time_point start = Clock::now();
  Result<Fabric> fabric = read_netfile(options.file);
  if (!fabric.ok()) {
    fmt::print(stderr, "ftclos route: {}\n", fabric.status().message());
    return 2;
  }
  bool bad_input = false;
  Result<RoutedFabric> routed = route_fabric(*fabric, options.scheme, options.lmc, &bad_input);
  if (!routed.ok()) {
    fmt::print(stderr, "ftclos route: {}\n", routed.status().message());
    return bad_input ? 2 : 1;
  }
  const std::string dump = write_lft_dump(*fabric, routed->lids, routed->routing.lfts);
  if (options.output.empty()) {
    fmt::print("{}", dump);
  } else if (!write_file(options.output, dump)) {
    fmt::print(stderr, "ftclos route: cannot write {}\n", options.output);
    return 1;
  }
  if (!options.path_bits.empty() && !write_file(options.path_bits, write_path_bits(*fabric, routed->routing))) {
    fmt::print(stderr, "ftclos route: cannot write {}\n", options.path_bits);
    return 1;
  }
  print_summary(*routed, options, milliseconds_since(start));
  return 0;
}

}  // namespace

void add_route(CLI::App& app) {
  auto options = std::make_shared<RouteOptions>();
  CLI::App* sub = app.add_subcommand("route", "Route a fabric and write its LFTs as an opensm-lfts.dump");
  sub->add_option("FILE", options->file, "Fabric in ibnetdiscover / ibsim net-file format")->required();
  sub->add_option("--scheme", options->scheme, "Routing scheme (auto, dmodk, updown, ...)")->required();
  sub->add_option("--lmc", options->lmc, "LMC the subnet runs with (default 0)")->check(CLI::Range(0, 7));
  sub->add_option("-o,--output", options->output, "Dump file to write (default: stdout)");
  sub->add_option("--pathbits", options->path_bits, "Also write every CA's path bits to this file");
  sub->callback([options] { set_exit_code(run(*options)); });
}

}  // namespace ftclos::cli
