// ftclos: one command, many subcommands; each lives in its own cmd_*.cc and
// only parses arguments, calls lib/ and prints. Exit status: 0 success, 1 a
// finding (unreachable pairs, a fabric no family fits, a scheme that cannot
// route it), 2 bad input or usage (CLI11's message on stderr), a failed
// write included, standard output's too.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string_view>
#include <system_error>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "core/closest_name.h"
#include "core/version.h"
#include "core/workers.h"

namespace {

// A word where a subcommand goes (`ftclos WORD`, `ftclos gen WORD`) that
// names none: CLI11 would only say that a subcommand is required. Returns 2
// after saying so, or 0 when that is not the error.
int unknown_subcommand(CLI::App& app) {
  CLI::App* parent = &app;
  std::string command = "ftclos";
  while (!parent->get_subcommands().empty()) {
    parent = parent->get_subcommands().front();
    command += " " + parent->get_name();
  }
  if (parent->get_require_subcommand_min() == 0) return 0;
  std::vector<std::string> names;
  for (const CLI::App* sub : parent->get_subcommands([](CLI::App*) { return true; })) names.push_back(sub->get_name());
  const std::vector<std::string_view> known(names.begin(), names.end());
  for (const std::string& word : parent->remaining()) {
    if (word.starts_with('-')) continue;
    const std::string_view closest = ftclos::closest_name(word, known);
    fmt::print(stderr, "{}: unknown subcommand \"{}\"{} Subcommands: {}\n", command, ftclos::excerpt(word),
               closest.empty() ? "." : fmt::format("; did you mean \"{}\"?", closest), fmt::join(names, ", "));
    return 2;
  }
  return 0;
}

// A report that never reached standard output (/dev/full, a full disk)
// is a failed write, not a success.
int check_standard_output(int code) {
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;
  if (flushed && !std::ferror(stdout) && std::cout.good()) return code;
  fmt::print(stderr, "ftclos: cannot write standard output: {}\n", flushed ? "a write failed" : std::strerror(error));
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ftclos: recognize, route and audit InfiniBand fat-tree and folded-Clos fabrics"};
  app.set_version_flag("--version", "ftclos " FTCLOS_VERSION);
  app.add_flag_callback("-q,--quiet", [] { ftclos::cli::set_quiet(true); }, "No progress lines on stderr");
  app.add_option_function<int>("-j,--jobs", ftclos::set_max_workers,
                                "Threads routing and the audits use (default: one per CPU it may run on); "
                                "any count gives the same results")
      ->check(ftclos::cli::whole_number_in(1, 4096));
  app.require_subcommand(1);
  for (const ftclos::cli::Command& command : ftclos::cli::kCommands) command.add(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0)
      if (const int code = unknown_subcommand(app); code != 0) return code;
    const int code = app.exit(e);  // prints help, the version or the usage error
    return code == 0 ? 0 : 2;
  } catch (const std::system_error& e) {  // fmt::print could not write standard output
    fmt::print(stderr, "ftclos: cannot write standard output: {}\n", e.code().message());
    return 2;
  }
  return check_standard_output(ftclos::cli::exit_code());
}
