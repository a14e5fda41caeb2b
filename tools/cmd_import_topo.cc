// ftclos import-topo FILE.topo [--ibnl-dir DIR]... [-o OUT.net]: a Mellanox
// ibdm .topo fabric, built from the IBNL definitions of its systems, written
// as a net file that ibsim loads and every other subcommand reads. The
// summary goes to stderr so the net file can go to stdout.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "core/netfile.h"
#include "core/topo_file.h"

namespace ftclos::cli {

void add_import_topo(CLI::App& app) {
  struct Options {
    std::string file;
    std::vector<std::string> ibnl_dirs;
    std::string output = "-";
  };
  auto options = std::make_shared<Options>();
  CLI::App* sub =
      app.add_subcommand("import-topo", "Build an ibdm .topo fabric from IBNL system files; write a net file");
  sub->add_option("FILE", options->file, "ibdm topology file (.topo)")->required();
  sub->add_option("--ibnl-dir", options->ibnl_dirs, "directory of .ibnl system files, searched after ibnl/ beside FILE")
      ->check(CLI::ExistingDirectory);
  sub->add_option("-o,--output", options->output, "net file to write, '-' for stdout (default)");
  sub->callback([options] {
    if (Status status = check_distinct_outputs({{"FILE", options->file}}, {{"-o", options->output}}); !status.ok())
      return set_exit_code(bad_input("import-topo", status));
    // ibnl/ beside the .topo first: a fabric shipped with its systems finds them without options.
    std::vector<std::string> dirs{(std::filesystem::path(options->file).parent_path() / "ibnl").string()};
    dirs.insert(dirs.end(), options->ibnl_dirs.begin(), options->ibnl_dirs.end());
    Result<Fabric> fabric = read_topo_file(options->file, dirs);
    if (!fabric.ok()) return set_exit_code(bad_input("import-topo", fabric.status()));
    if (Status status = write_output(options->output, write_netfile(*fabric)); !status.ok())
      return set_exit_code(bad_input("import-topo", status));
    fmt::print(stderr, "import-topo: {} hosts, {} switches, {} cables\n", fabric->count(NodeType::kCa),
               fabric->count(NodeType::kSwitch), fabric->cable_count());
    set_exit_code(0);
  });
}

}  // namespace ftclos::cli
