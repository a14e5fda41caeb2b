// Topology experiments: MiKANT's Table I (Li and Chu) and the random folded
// Clos results of Camarero et al. (common ancestors around Theorem 4.2's
// threshold, cables to remove until disconnection, Table 3).
#include "research/experiment_parts.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <numeric>
#include <random>

#include "detect/common_ancestor.h"
#include "detect/detect.h"
#include "gen/generate.h"
#include "gen/generator_support.h"

namespace ftclos {
namespace experiment_parts {
namespace {

// Theorem 4.2's x for an RFC: (R/2)^(2(l-1)) = N_l (ln C(N_1, 2) + x), N_l = N_1/2 roots.
double threshold_x(int radix, int leaves, int levels) {
  const double half = radix / 2.0;
  const double roots = leaves / 2.0;
  return std::pow(half, 2 * (levels - 1)) / roots - std::log(leaves * (leaves - 1) / 2.0);
}

std::vector<RemovedCable> switch_cables(const Fabric& fabric) {
  std::vector<RemovedCable> cables;
  for (int x = 0; x < fabric.size(); ++x)
    for (int p = 1; p <= fabric.node(x).num_ports; ++p) {
      const PortRef peer = fabric.node(x).ports[p].peer;
      if (peer.valid() && fabric.node(x).is_switch() && fabric.node(peer.node).is_switch() && PortRef{x, p} < peer)
        cables.push_back({{x, p}, peer});
    }
  return cables;
}

// How many of the cables, removed in `order`, disconnect the leaves (switches
// with CAs) from each other: the last cable added back, in reverse, that
// joins them all.
int cables_to_disconnect(const Fabric& fabric, const std::vector<RemovedCable>& order) {
  std::vector<int> parent(fabric.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::vector<int> leaves;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch() && hosts_on(fabric, x) > 0) leaves.push_back(x);
  int components = static_cast<int>(leaves.size());
  std::vector<int> leaves_in(fabric.size(), 0);
  for (int leaf : leaves) leaves_in[leaf] = 1;
  for (int i = static_cast<int>(order.size()) - 1; i >= 0; --i) {
    const int a = root(order[i].a.node), b = root(order[i].b.node);
    if (a == b) continue;
    if (leaves_in[a] > 0 && leaves_in[b] > 0) --components;
    parent[a] = b;
    leaves_in[b] += leaves_in[a];
    if (components == 1) return i + 1;  // removing cables 0..i disconnects
  }
  return 0;
}

// The fewest cables of `order` whose removal leaves a leaf pair without a
// common ancestor, by bisection (removing cables only loses ancestors).
int cables_to_lose_updown(const Fabric& fabric, const std::vector<RemovedCable>& order) {
  auto lost_after = [&](int count) {
    Fabric copy = fabric;
    for (int i = 0; i < count; ++i) copy.disconnect(order[i].a);
    return !every_leaf_pair_has_common_ancestor(copy);
  };
  int low = 0, high = static_cast<int>(order.size());
  while (low < high) {
    const int mid = (low + high) / 2;
    if (lost_after(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

}  // namespace

Status mikant_table1(ExperimentReport& report, const ExperimentOptions&) {
  ExperimentTable table{"Li and Chu Table I: MiKANT(k, n) measured on generated fabrics vs the formulas",
                        {"fabric", "property", "ours", "paper", "formula", "diff", "exact"},
                        {},
                        {}};
  for (const auto& [k, n] : {std::pair{3, 3}, std::pair{3, 4}, std::pair{4, 5}}) {
    Result<TopologyCounts> ours = measure_mikant(k, n);
    if (!ours.ok()) return ours.status();
    const long kn = std::lround(std::pow(k, n));
    const double nodes = 2.0 * kn;
    const double avg = ours->distance_sum / (nodes * nodes);
    const double paper_avg = 2.0 * n - 1.0 / (k - 1) + 1.0 / ((k - 1) * static_cast<double>(kn)) - 0.5;
    const std::string name = fmt::format("MiKANT({},{})", k, n);
    auto row = [&](const char* property, long x, long y, const char* formula) {
      table.rows.push_back({name, property, std::to_string(x), std::to_string(y), formula, std::to_string(x - y),
                            check(report, x == y)});
    };
    row("nodes", ours->nodes, 2 * kn, "2k^n");
    row("switches", ours->switches, (2L * n - 2) * kn / k, "(2n-2)k^(n-1)");
    row("links", ours->links, (2L * n - 1) * kn, "(2n-1)k^n");
    row("diameter", ours->diameter, 2L * n, "2n");
    std::string why;
    table.rows.push_back({name, "avg distance", fixed(avg, 6), fixed(paper_avg, 6), "2n-1/(k-1)+1/((k-1)k^n)-1/2",
                          fmt::format("{:.1e}", avg - paper_avg),
                          check(report, matches_mikant_formulas(*ours, k, n, &why))});
    if (!why.empty()) table.notes.push_back(name + ": " + why);
  }
  table.notes.push_back("Links include the CA links and distances count them (as Table I does); the average "
                        "distance is over ordered node pairs, self included, compared as an exact fraction.");
  report.tables.push_back(std::move(table));
  return Status::Ok();
}

Status rfc_ancestors(ExperimentReport& report, const ExperimentOptions& options) {
  constexpr int kSeeds = 200;
  ExperimentTable table{"Camarero et al. Theorem 4.2: P(every leaf pair has a common ancestor)",
                        {"R", "levels", "N1", "hosts", "x", "paper e^(-e^(-x))", "ours", "diff", "within 3 se"},
                        {},
                        {}};
  struct Case {
    int radix, leaves;
  };
  const int levels = 3;
  for (const Case c : {Case{8, 40}, Case{8, 48}, Case{8, 56}, Case{8, 64}, Case{8, 72}, Case{8, 80}, Case{10, 110},
                       Case{10, 130}, Case{10, 150}, Case{10, 170}}) {
    int good = 0;
    for (int s = 0; s < kSeeds; ++s) {
      Result<Fabric> fabric = generate_rfc(c.radix, c.leaves, levels, options.seed * 1000003 + s);
      if (!fabric.ok()) return fabric.status();
      good += every_leaf_pair_has_common_ancestor(*fabric);
    }
    const double x = threshold_x(c.radix, c.leaves, levels);
    const double paper = std::exp(-std::exp(-x));
    const double ours = static_cast<double>(good) / kSeeds;
    // The binomial standard error of kSeeds draws, at least one draw's worth.
    const double se = std::max(std::sqrt(paper * (1 - paper) / kSeeds), 1.0 / kSeeds);
    table.rows.push_back({std::to_string(c.radix), std::to_string(levels), std::to_string(c.leaves),
                          std::to_string(c.leaves * c.radix / 2), fixed(x), fixed(paper, 3), fixed(ours, 3),
                          fmt::format("{:+.3f}", ours - paper), check(report, std::abs(ours - paper) <= 3 * se)});
  }
  table.notes.push_back(fmt::format(
      "x from (R/2)^(2(l-1)) = N_l (ln C(N1,2) + x) with N_l = N1/2 roots; ours: fraction of {} seeded RFCs "
      "(generate_rfc) where every leaf pair has a common ancestor; se = sqrt(p(1-p)/{}). The theorem is a limit; "
      "these sizes are small.",
      kSeeds, kSeeds));
  report.tables.push_back(std::move(table));
  return Status::Ok();
}

Status rfc_disconnect(ExperimentReport& report, const ExperimentOptions& options) {
  constexpr int kTrials = 100;  // as in §7
  ExperimentTable table{"Camarero et al. Table 3: switch links removed (%) to disconnect a diameter-4 network",
                        {"network", "hosts", "links", "ours", "paper", "diff", "within 5%", "ours: up/down lost"},
                        {},
                        {}};
  struct Net {
    std::string name;
    int hosts_label;
    double paper;
    std::function<Result<Fabric>(uint64_t)> make;
  };
  const std::vector<Net> nets = {
      {"RFC R=10 N1=102", 512, 35.5, [](uint64_t s) { return generate_rfc(10, 102, 3, s); }},
      {"RFC R=12 N1=170", 1024, 38.2, [](uint64_t s) { return generate_rfc(12, 170, 3, s); }},
      {"RFC R=14 N1=292", 2048, 40.7, [](uint64_t s) { return generate_rfc(14, 292, 3, s); }},
      {"CFT FT(16,3)", 1024, 51.3, [](uint64_t) { return generate_ftree(16, 3); }},
      {"CFT FT(20,3)", 2048, 56.3, [](uint64_t) { return generate_ftree(20, 3); }},
  };
  std::mt19937_64 rng(options.seed);
  for (const Net& net : nets) {
    std::vector<double> disconnect, updown;
    int hosts = 0, links = 0;
    for (int t = 0; t < kTrials; ++t) {
      Result<Fabric> fabric = net.make(options.seed * 1000003 + t);
      if (!fabric.ok()) return fabric.status();
      std::vector<RemovedCable> order = switch_cables(*fabric);
      shuffle_in_place(order.begin(), order.end(), rng);
      links = static_cast<int>(order.size());
      hosts = fabric->count(NodeType::kCa);
      disconnect.push_back(100.0 * cables_to_disconnect(*fabric, order) / links);
      updown.push_back(100.0 * cables_to_lose_updown(*fabric, order) / links);
    }
    const Spread a = spread_of(disconnect), b = spread_of(updown);
    table.rows.push_back({net.name, fmt::format("{} (~{})", hosts, net.hosts_label), std::to_string(links),
                          fmt::format("{:.1f}% (sd {:.1f})", a.mean, a.stddev), fmt::format("{:.1f}%", net.paper),
                          fmt::format("{:+.1f} points", a.mean - net.paper),
                          check(report, std::abs(a.mean - net.paper) <= 0.05 * net.paper),
                          fmt::format("{:.1f}% (sd {:.1f})", b.mean, b.stddev)});
  }
  table.notes.push_back(
      "Switch-to-switch links removed one by one in random order (100 trials, a new RFC each); disconnected = "
      "two leaves (compute nodes) no longer connected; up/down lost = a leaf pair without common ancestor "
      "(Theorem 4.2's condition, Fig. 11's measure). RFC radix: the smallest even R over the Theorem 4.2 "
      "threshold for ~T hosts (the text gives R=12 at 1024 and R=14 at 2048); CFT radix as the text gives it.");
  report.tables.push_back(std::move(table));
  return Status::Ok();
}

}  // namespace experiment_parts

using namespace experiment_parts;

Result<TopologyCounts> measure_mikant(int k, int n) {
  Result<Fabric> fabric = generate_mikant(k, n);
  if (!fabric.ok()) return fabric.status();
  TopologyCounts out;
  out.nodes = fabric->count(NodeType::kCa);
  out.switches = fabric->count(NodeType::kSwitch);
  out.links = fabric->switch_links() + out.nodes;
  std::vector<int> distance(fabric->size());
  for (int source = 0; source < fabric->size(); ++source) {
    if (fabric->node(source).is_switch()) continue;
    std::ranges::fill(distance, -1);
    distance[source] = 0;
    std::deque<int> queue{source};
    while (!queue.empty()) {
      const int x = queue.front();
      queue.pop_front();
      // Paths run through switches only: a CA is an end, never a hop.
      if (x != source && !fabric->node(x).is_switch()) continue;
      for (int p = 1; p <= fabric->node(x).num_ports; ++p) {
        const int y = fabric->node(x).ports[p].peer.node;
        if (y >= 0 && distance[y] < 0) {
          distance[y] = distance[x] + 1;
          queue.push_back(y);
        }
      }
    }
    for (int d = 0; d < fabric->size(); ++d)
      if (!fabric->node(d).is_switch()) {
        out.distance_sum += distance[d];
        out.diameter = std::max(out.diameter, distance[d]);
      }
  }
  return out;
}

bool matches_mikant_formulas(const TopologyCounts& measured, int k, int n, std::string* why) {
  long kn = 1;
  for (int i = 0; i < n; ++i) kn *= k;
  // Theorem 6 as one fraction: (4n(k-1)k^n - 2k^n + 2 - (k-1)k^n) / (2(k-1)k^n).
  const long numerator = 4L * n * (k - 1) * kn - 2 * kn + 2 - (k - 1) * kn;
  const long denominator = 2L * (k - 1) * kn;
  const long nodes = 2 * kn;
  std::vector<std::string> differences;
  auto expect = [&](const char* what, long ours, long paper) {
    if (ours != paper) differences.push_back(fmt::format("{} {} vs {}", what, ours, paper));
  };
  expect("nodes", measured.nodes, nodes);
  expect("switches", measured.switches, (2L * n - 2) * kn / k);
  expect("links", measured.links, (2L * n - 1) * kn);
  expect("diameter", measured.diameter, 2L * n);
  // average = distance_sum / nodes^2 == numerator / denominator
  if (static_cast<__int128>(measured.distance_sum) * denominator != static_cast<__int128>(numerator) * nodes * nodes)
    differences.push_back(fmt::format("average distance {}/{} vs {}/{}", measured.distance_sum, nodes * nodes,
                                      numerator, denominator));
  if (why) {
    why->clear();
    for (const std::string& d : differences) *why += (why->empty() ? "" : "; ") + d;
  }
  return differences.empty();
}

}  // namespace ftclos
