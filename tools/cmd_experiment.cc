// `ftclos experiment NAME [--seed S]`: regenerate a result of our papers from
// scratch and print ours next to the paper's numbers (research/experiments.h).
// Exit status: 0 every check within its acceptance, 1 some outside, 2 bad input.
#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <string>

#include "commands.h"
#include "research/experiments.h"

namespace ftclos::cli {

void add_experiment(CLI::App& app) {
  struct Options {
    std::string name;
    uint64_t seed = 1;
  };
  auto options = std::make_shared<Options>();
  std::string names = "Experiment:";
  for (const ExperimentInfo& info : experiment_list()) names += fmt::format("\n  {:<17} {}", info.name, info.what);
  CLI::App* sub = app.add_subcommand("experiment", "Regenerate a paper's table and compare");
  sub->add_option("NAME", options->name, names)->required();
  sub->add_option("--seed", options->seed, "Seed of the random instances (default 1)");
  sub->callback([options] {
    const auto start = std::chrono::steady_clock::now();
    Result<ExperimentReport> report = run_experiment(options->name, {options->seed});
    if (!report.ok()) {
      fmt::print(stderr, "ftclos experiment: {}\n", report.status().message());
      set_exit_code(2);
      return;
    }
    for (const ExperimentTable& table : report->tables) fmt::print("{}\n", format_table(table));
    fmt::print("checks: {} of {} within acceptance ({:.1f} s)\n", report->checks - report->failed, report->checks,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    set_exit_code(report->failed == 0 ? 0 : 1);
  });
}

}  // namespace ftclos::cli
