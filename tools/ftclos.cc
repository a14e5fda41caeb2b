// ftclos: one command, many subcommands; each lives in its own cmd_*.cc and
// only parses arguments, calls lib/ and prints.
#include <CLI/CLI.hpp>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"ftclos: recognize, route and audit InfiniBand fat-tree and folded-Clos fabrics"};
  app.require_subcommand(1);
  for (const ftclos::cli::Command& command : ftclos::cli::kCommands) command.add(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return ftclos::cli::exit_code();
}
