// `ftclos pathbits TOPO [--scheme NAME] [--lmc L | --guid2lid FILE]
// [--pathbits-users some|all] [--port GUID | --host NAME] [--env]`: the path
// bits a scheme gives every CA port, one `0x<port GUID> <bits>` line each,
// on stdout; with --port or --host one CA's alone, with --env as the line a
// job exports (UCX_IB_LID_PATH_BITS=<bits>).
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "audit/worst_case.h"
#include "tables/path_bits.h"
#include "engine/route_fabric.h"

namespace ftclos::cli {
namespace {

struct PathBitsOptions {
  std::string file;
  std::string scheme;
  int lmc = -1;  // -1: the topology file's
  HintFiles hint_files;
  std::string guid2lid;  // empty: LIDs of the file, or ftclos's own
  PathBitsUsers path_bits_users = PathBitsUsers::kSome;
  std::string ca;        // --port GUID or --host NAME; empty: every CA
  bool env = false;
};

// Returns the exit code.
int run(const PathBitsOptions& options) {
  Result<Fabric> fabric = read_topology("pathbits", options.file);
  if (!fabric.ok()) return bad_input("pathbits", fabric.status());
  Result<HostHints> hints = read_hints("pathbits", options.hint_files, *fabric);
  if (!hints.ok()) return bad_input("pathbits", hints.status());
  Result<LidMap> lids = routing_lids(*fabric, options.guid2lid, options.lmc, "pathbits");
  if (!lids.ok()) return bad_input("pathbits", lids.status());
  if (options.env && options.ca.empty())
    return bad_input("pathbits", Status::Error("--env prints one CA's line: give --port GUID or --host NAME"));
  Result<int> ca = options.ca.empty() ? Result<int>(-1) : find_ca(*fabric, options.ca);
  if (!ca.ok()) return bad_input("pathbits", ca.status());
  bool bad_input = false;
  // The measure the plugin's sweep hands down: with it auto weighs its
  // choices and the path bits fall back to offset 0 where they measure
  // worse, so the bits printed here are the ones the plugin writes.
  const WorstCaseMeasure measure = exact_worst_case_measure();
  Result<RoutedFabric> routed = route_fabric(*fabric, options.scheme, std::move(*lids), *hints, &bad_input,
                                             {.worst_case = &measure, .path_bits_users = options.path_bits_users});
  if (!routed.ok()) {
    fmt::print(stderr, "ftclos pathbits: {}\n", routed.status().message());
    return bad_input ? 2 : 1;
  }
  if (*ca < 0)
    fmt::print("{}", write_path_bits(*fabric, routed->routing));
  else
    fmt::print("{}{}\n", options.env ? "UCX_IB_LID_PATH_BITS=" : "", routed->routing.path_bits[*ca]);
  return 0;
}

}  // namespace

void add_pathbits(CLI::App& app) {
  auto options = std::make_shared<PathBitsOptions>();
  CLI::App* sub = app.add_subcommand("pathbits", "Print the path bits a scheme gives every CA port");
  add_topology(*sub, options->file);
  add_scheme(*sub, options->scheme, "Routing scheme");
  CLI::Option* lmc = add_lmc(*sub, options->lmc, "LMC the subnet runs with (default: the topology file's, else 0)");
  add_guid2lid(*sub, options->guid2lid, lmc);
  add_host_hints(*sub, options->hint_files);
  add_path_bits_users(*sub, options->path_bits_users);
  CLI::Option* port = sub->add_option("--port", options->ca, "Print only the bits of the CA with this port GUID");
  CLI::Option* host = sub->add_option("--host", options->ca, "Print only the bits of the CA with this node name");
  port->excludes(host);
  sub->add_flag("--env", options->env,
                "With --port or --host: print UCX_IB_LID_PATH_BITS=<bits>, the line a job exports");
  sub->callback([options] { set_exit_code(run(*options)); });
}

}  // namespace ftclos::cli
