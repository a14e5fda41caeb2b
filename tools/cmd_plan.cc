// `ftclos plan TOPO --permutation FILE`: on a 2-level Clos ftree(n+m, r),
// plan a permutation with Yuan's NONBLOCKINGADAPTIVE (traffic/adaptive_plan.h):
// the LID offset each SD pair must use under the top-select routing (offset o
// goes up to top switch o), how many top switches the plan needs against the
// n^2 of single-path deterministic routing, and a check with
// traffic/pattern_load.h that no channel carries more than one pair.
// Exit status: 0 contention-free, 1 not (or no plan fits), 2 bad input.
#include <fmt/format.h>

#include <memory>
#include <string>

#include "cli_common.h"
#include "commands.h"
#include "core/files.h"
#include "detect/detect.h"
#include "traffic/adaptive_plan.h"
#include "traffic/pattern_load.h"

namespace ftclos::cli {
namespace {

int ceil_log2(int n) {
  int bits = 0;
  while ((1 << bits) < n) ++bits;
  return bits;
}

int run(const std::string& topo, const std::string& permutation_file) {
  Result<Fabric> fabric = read_topology("plan", topo);
  if (!fabric.ok()) {
    fmt::print(stderr, "ftclos plan: {}\n", fabric.status().message());
    return 2;
  }
  const Detection detection = detect(*fabric);
  Result<ClosShape> shape = clos_shape(*fabric, detection);
  if (!shape.ok()) {
    fmt::print(stderr, "ftclos plan: {}\n", shape.status().message());
    return 2;
  }
  Result<std::string> text = read_file(permutation_file);
  if (!text.ok()) {
    fmt::print(stderr, "ftclos plan: {}\n", text.status().message());
    return 2;
  }
  Result<std::vector<std::pair<int, int>>> pairs = parse_permutation(*fabric, *text, permutation_file);
  if (!pairs.ok()) {
    fmt::print(stderr, "ftclos plan: {}\n", pairs.status().message());
    return 2;
  }
  Result<AdaptivePlan> plan = plan_nonblocking_adaptive(*shape, *pairs);
  if (!plan.ok()) {
    fmt::print(stderr, "ftclos plan: {}\n", plan.status().message());
    return 1;
  }
  const int lmc = ceil_log2(shape->m);
  Result<LidMap> lids = assign_lids(*fabric, lmc);
  if (!lids.ok()) {
    fmt::print(stderr, "ftclos plan: {}\n", lids.status().message());
    return 2;
  }
  Result<Lfts> lfts = top_select_lfts(*fabric, *shape, *lids);
  if (!lfts.ok()) {
    fmt::print(stderr, "ftclos plan: {}\n", lfts.status().message());
    return 1;
  }

  // The check: the permutation as a traffic matrix, each source on its pair's offset.
  const std::vector<int> hosts = pattern_hosts(*fabric);
  std::vector<int> number(fabric->size(), -1);
  for (size_t i = 0; i < hosts.size(); ++i) number[hosts[i]] = static_cast<int>(i);
  TrafficMatrix tm{static_cast<int>(hosts.size()), {}};
  OffsetChoice offsets{OffsetChoice::Mode::kPathBits, 0, std::vector<int>(fabric->size(), 0)};
  fmt::print("{:<24} {:<24} {:>4} {:>6}\n", "source", "destination", "top", "offset");
  for (const PlannedPair& pair : plan->pairs) {
    tm.flows.push_back({number[pair.source], number[pair.destination], 1});
    offsets.path_bits[pair.source] = std::max(pair.top, 0);
    fmt::print("{:<24} {:<24} {:>4} {:>6}\n", fabric->node(pair.source).name, fabric->node(pair.destination).name,
               pair.top < 0 ? std::string("-") : std::to_string(pair.top), std::max(pair.top, 0));
  }
  LoadPlan load_plan({*fabric, *lids, *lfts, offsets});
  const PatternLoad load = pattern_load(load_plan, detection.levels, OptuBasis::kLowerBound, tm, hosts);
  fmt::print("\nftree({}+{}, {}): c = {} leaf digits; (configuration, partition) slots used: {}, {} tops each in "
             "Fig. 4's count\n",
             shape->n, shape->m, shape->r, plan->digits, plan->partitions_used, shape->n);
  fmt::print("top switches used: {} (single-path deterministic routing needs n^2 = {})\n", plan->tops_used,
             shape->n * shape->n);
  fmt::print("routing: top-select, LMC {}: offset o of a CA goes up to top switch o mod {}\n", lmc, shape->m);
  fmt::print("max channel load: {:g}{}\n", load.mload, load.undelivered ? " (some pairs undelivered)" : "");
  const bool contention_free = load.mload <= 1 && load.undelivered == 0;
  fmt::print("{}\n", contention_free ? "contention-free" : "CONTENTION");
  return contention_free ? 0 : 1;
}

}  // namespace

void add_plan(CLI::App& app) {
  struct Options {
    std::string topo, permutation;
  };
  auto options = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("plan", "Plan a permutation on a 2-level Clos with NONBLOCKINGADAPTIVE");
  sub->add_option("TOPO", options->topo, "2-level Clos in ibnetdiscover / ibsim net-file format")->required();
  sub->add_option("--permutation", options->permutation, "File of `source destination` CA names, one pair a line")
      ->required();
  sub->callback([options] { set_exit_code(run(options->topo, options->permutation)); });
}

}  // namespace ftclos::cli
