// `ftclos pathbits TOPO [--scheme NAME] [--lmc L | --guid2lid FILE]`: the path bits a scheme
// gives every CA port, one `0x<port GUID> <bits>` line each, on stdout.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "core/end_nodes.h"
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
};

// Returns the exit code.
int run(const PathBitsOptions& options) {
  Result<Fabric> fabric = read_end_nodes(options.file);
  if (!fabric.ok()) return bad_input("pathbits", fabric.status());
  Result<HostHints> hints = read_hints("pathbits", options.hint_files, *fabric);
  if (!hints.ok()) return bad_input("pathbits", hints.status());
  Result<LidMap> lids = routing_lids(*fabric, options.guid2lid, options.lmc, "pathbits");
  if (!lids.ok()) return bad_input("pathbits", lids.status());
  bool bad_input = false;
  Result<RoutedFabric> routed = route_fabric(*fabric, options.scheme, std::move(*lids), *hints, &bad_input);
  if (!routed.ok()) {
    fmt::print(stderr, "ftclos pathbits: {}\n", routed.status().message());
    return bad_input ? 2 : 1;
  }
  fmt::print("{}", write_path_bits(*fabric, routed->routing));
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
  sub->callback([options] { set_exit_code(run(*options)); });
}

}  // namespace ftclos::cli
