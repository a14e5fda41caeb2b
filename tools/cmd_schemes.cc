// ftclos schemes [--markdown]: every routing scheme from the scheme table
// (schemes/scheme_registry.h), one row each: what it routes, the LMC it needs,
// the path bits a source sends with, what it guarantees, when `auto` tries it.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "commands.h"
#include "schemes/scheme_registry.h"

namespace ftclos::cli {
namespace {

void print_rows() {
  size_t width = 0;
  for (const SchemeEntry& entry : scheme_table()) width = std::max(width, entry.name.size());
  for (const SchemeEntry& entry : scheme_table())
    fmt::print("{:<{}}  fabrics: {}; LMC: {}; p(s): {}; guarantee: {}; auto tries it: {}\n", entry.name, width,
               entry.fabrics, entry.lmc, entry.path_bits, entry.guarantee, auto_order(entry));
}

}  // namespace

void add_schemes(CLI::App& app) {
  auto markdown = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand(
      "schemes", "List the routing schemes: fabrics, LMC needed, path bits, guarantee, when auto tries them");
  sub->add_flag("--markdown", *markdown, "Print the table README.md shows");
  sub->callback([markdown] {
    if (*markdown)
      fmt::print("{}", scheme_table_markdown());
    else
      print_rows();
    set_exit_code(0);
  });
}

}  // namespace ftclos::cli
