// `ftclos simulate drb --ports M --levels N [--k K] [--runs R] [--threshold T]
// [--seed S]`: the DRB paper's permutation-flow experiment on FT(M,N)
// (research/drb_sim.h): average maximum link load of D-mod-k, VLB, Micro and DRB
// for k-permutation flows, k = 1..8 unless --k picks one.
#include <fmt/format.h>

#include <memory>
#include <vector>

#include "commands.h"
#include "research/experiments.h"

namespace ftclos::cli {

void add_simulate(CLI::App& app) {
  struct Options {
    int ports = 0, levels = 0, k = 0, runs = 200, threshold = -1;
    uint64_t seed = 1;
  };
  auto options = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("simulate", "Flow-level simulations");
  sub->require_subcommand(1);
  CLI::App* drb = sub->add_subcommand("drb", "DRB paper: maximum link load of k-permutation flows on FT(M,N)");
  drb->add_option("--ports", options->ports, "Switch ports M (even)")->required()->check(CLI::Range(2, 254));
  drb->add_option("--levels", options->levels, "Switch levels N")->required()->check(CLI::Range(1, 8));
  drb->add_option("--k", options->k, "Flows per host (default: k = 1..8)")->check(CLI::Range(1, 1000));
  drb->add_option("--runs", options->runs, "Runs averaged per point (default 200, as the paper)")
      ->check(CLI::Range(1, 1000000));
  drb->add_option("--threshold", options->threshold, "DRB threshold T (default floor(ln ln N / ln 2))")
      ->check(CLI::Range(0, 1000000));
  drb->add_option("--seed", options->seed, "Seed (default 1)");
  drb->callback([options] {
    std::vector<int> ks{options->k};
    if (options->k == 0) ks = {1, 2, 3, 4, 5, 6, 7, 8};
    Result<ExperimentTable> table =
        drb_table(options->ports, options->levels, ks, options->runs, options->threshold, options->seed);
    if (!table.ok()) {
      fmt::print(stderr, "ftclos simulate drb: {}\n", table.status().message());
      set_exit_code(2);
      return;
    }
    fmt::print("{}", format_table(*table));
    set_exit_code(0);
  });
}

}  // namespace ftclos::cli
