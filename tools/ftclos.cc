// ftclos: one command, many subcommands; each lives in its own cmd_*.cc and
// only parses arguments, calls lib/ and prints. Exit status: 0 success, 1 a
// finding that fails (unreachable pairs, a fabric no family fits), 2 bad
// input or usage (CLI11's message on stderr).
#include <CLI/CLI.hpp>

#include "cli_common.h"
#include "commands.h"
#include "core/version.h"
#include "core/workers.h"

int main(int argc, char** argv) {
  CLI::App app{"ftclos: recognize, route and audit InfiniBand fat-tree and folded-Clos fabrics"};
  app.set_version_flag("--version", "ftclos " FTCLOS_VERSION);
  app.add_flag_callback("-q,--quiet", [] { ftclos::cli::set_quiet(true); }, "No progress lines on stderr");
  app.add_option_function<int>("-j,--jobs", ftclos::set_max_workers,
                                "Threads routing and the audits use (default: one per CPU it may run on); "
                                "any count gives the same results")
      ->check(CLI::PositiveNumber);
  app.require_subcommand(1);
  for (const ftclos::cli::Command& command : ftclos::cli::kCommands) command.add(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, the version or the usage error
    return code == 0 ? 0 : 2;
  }
  return ftclos::cli::exit_code();
}
