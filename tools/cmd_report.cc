// ftclos report DIR: the sweep report the OpenSM plugin writes after every
// sweep (DIR/ftclos-sweep.json, engine/sweep_reporter.h) for a person: the
// last sweep's figures and deviations, and what changed since the sweep
// before. Exit 0 when the last sweep installed its tables, 1 when it failed.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "core/files.h"
#include "engine/sweep_report_json.h"
#include "engine/sweep_report_text.h"
#include "engine/sweep_reporter.h"

namespace ftclos::cli {

void add_report(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "report", "Print the OpenSM plugin's last sweep report (report_dir) and what changed since the sweep before");
  sub->add_option("DIR", *dir, "the plugin's report_dir (OpenSM's dump_files_dir by default), or its ftclos-sweep.json")
      ->required();
  sub->callback([dir] {
    const std::string path =
        std::filesystem::is_directory(*dir) ? (std::filesystem::path(*dir) / kSweepJsonFile).string() : *dir;
    Result<std::string> text = read_file(path);
    if (!text.ok()) return set_exit_code(bad_input("report", text.status()));
    Result<SweepReport> report = parse_sweep_report(*text, path);
    if (!report.ok()) return set_exit_code(bad_input("report", report.status()));
    fmt::print("{}", sweep_report_text(*report));
    set_exit_code(report->sweep.ok ? 0 : 1);
  });
}

}  // namespace ftclos::cli
