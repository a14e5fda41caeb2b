// Channel loads of traffic matrices (pattern_load.h), destination by
// destination: the traffic to one CA is gathered per switch it enters at,
// then for each of its LIDs pushed down the LID's whole tree (load_plan.h)
// at once, switch by switch, farthest first, or, when it enters at few
// switches, walked path by path. A dense matrix then costs about one visit
// per (switch of a tree, destination LID) instead of one walk per SD pair;
// the busiest channel on each path, for the flow bandwidth, is found along
// the same trees.
#include "traffic/pattern_load.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <span>
#include <utility>

#include "audit/worst_case.h"

namespace ftclos {
namespace {

// The flows of a matrix by destination (a counting sort, stable): those to
// host number d are flows[first[d] .. first[d + 1]).
struct ByDestination {
  std::vector<int> first;
  std::vector<Flow> flows;

  explicit ByDestination(const TrafficMatrix& tm) : first(tm.hosts + 1, 0), flows(tm.flows.size()) {
    for (const Flow& flow : tm.flows) ++first[flow.dst + 1];
    std::partial_sum(first.begin(), first.end(), first.begin());
    std::vector<int> next(first.begin(), first.end() - 1);
    for (const Flow& flow : tm.flows) flows[next[flow.dst]++] = flow;
  }
  int destinations() const { return static_cast<int>(first.size()) - 1; }
  std::span<const Flow> to(int d) const { return {flows.data() + first[d], flows.data() + first[d + 1]}; }
};

// Whether a source's traffic to `target` reaches a switch (or is delivered
// on the CA link itself, or lost there).
bool delivered_on_ca_link(const LoadPlan::Source& source, int target) { return source.peer == target; }
bool enters_a_switch(const LoadPlan::Source& source, int target) {
  return source.peer != target && source.entry >= 0;
}

// The traffic to one destination gathered at the switches it enters at: per
// row (the LID offset, or a single row when sources spread over all offsets,
// each getting its share) the amount and the number of sub-flows entering at
// each switch, and those switches listed once.
class Entries {
 public:
  explicit Entries(const LoadPlan& plan)
      : switches_(plan.switch_count()),
        rows_(plan.spreads() ? 1 : plan.lids_per_ca()),
        share_(plan.spreads() ? 1.0 / plan.lids_per_ca() : 1),
        amount_(static_cast<size_t>(rows_) * switches_, 0),
        count_(amount_.size(), 0),
        listed_(rows_) {}

  void gather(const LoadPlan& plan, std::span<const Flow> flows, const std::vector<int>& hosts, int target) {
    for (int row = 0; row < rows_; ++row) {
      for (int s : listed_[row]) {
        amount_[index(row, s)] = 0;
        count_[index(row, s)] = 0;
      }
      listed_[row].clear();
    }
    for (const Flow& flow : flows) {
      const LoadPlan::Source& source = plan.source(hosts[flow.src]);
      if (!enters_a_switch(source, target)) continue;
      const int row = rows_ == 1 ? 0 : source.offset;
      const size_t i = index(row, source.entry);
      if (count_[i]++ == 0) listed_[row].push_back(source.entry);
      amount_[i] += flow.amount * share_;
    }
  }
  /// The switches traffic on LID offset `offset` enters at.
  const std::vector<int>& switches(int offset) const { return listed_[row_of(offset)]; }
  double amount(int offset, int s) const { return amount_[index(row_of(offset), s)]; }
  long count(int offset, int s) const { return count_[index(row_of(offset), s)]; }

 private:
  int row_of(int offset) const { return rows_ == 1 ? 0 : offset; }
  size_t index(int row, int s) const { return static_cast<size_t>(row) * switches_ + s; }

  int switches_, rows_;
  double share_;
  std::vector<double> amount_;
  std::vector<long> count_;
  std::vector<std::vector<int>> listed_;
};

// Adds the traffic to one destination on LID offset `offset` to the channels
// it takes: pushed down the whole tree, farthest switches first so each has
// all its traffic before passing it on, or path by path.
class Pusher {
 public:
  explicit Pusher(int switches) : through_(switches + 1, 0) {}

  void push(LoadPlan& plan, int target, int offset, const Entries& entries, ChannelLoads& out) {
    const std::vector<int>& entered = entries.switches(offset);
    const std::optional<LoadPlan::Tree> tree = plan.tree_to_sweep(target, offset, static_cast<int>(entered.size()));
    if (!tree) {
      for (int s : entered) {
        channels_.clear();
        if (plan.walk(target, offset, s, [&](int c) { channels_.push_back(c); })) {
          for (int c : channels_) out.load[c] += entries.amount(offset, s);
        } else {
          out.undelivered += entries.count(offset, s);
        }
      }
      return;
    }
    for (int s : entered) {
      const uint16_t position = tree->entry[plan.entry_number(s)];
      if (position == LoadPlan::Tree::kLost) out.undelivered += entries.count(offset, s);
      else through_[position] = entries.amount(offset, s);
    }
    for (int p = 0; p < tree->size(); ++p) {
      const double amount = std::exchange(through_[p], 0);
      out.load[tree->channel[p]] += amount;
      through_[tree->next[p]] += amount;
    }
    through_[tree->size()] = 0;
  }

 private:
  std::vector<double> through_;  // per position of a tree, the target last
  std::vector<int> channels_;
};

ChannelLoads loads_of(LoadPlan& plan, const ByDestination& by_destination, const std::vector<int>& hosts) {
  const int offsets = plan.lids_per_ca();
  ChannelLoads out{plan.first_channel(), std::vector<double>(plan.first_channel().back(), 0), 0};
  Entries entries(plan);
  Pusher pusher(plan.switch_count());
  for (int d = 0; d < by_destination.destinations(); ++d) {
    const std::span<const Flow> flows = by_destination.to(d);
    if (flows.empty()) continue;
    const int target = hosts[d];
    for (const Flow& flow : flows) {
      const LoadPlan::Source& source = plan.source(hosts[flow.src]);
      out.load[source.ca_channel] += flow.amount;
      if (!delivered_on_ca_link(source, target) && !enters_a_switch(source, target))
        out.undelivered += plan.spreads() ? offsets : 1;
    }
    entries.gather(plan, flows, hosts, target);
    for (int offset = 0; offset < offsets; ++offset)
      if (!entries.switches(offset).empty()) pusher.push(plan, target, offset, entries, out);
  }
  return out;
}

// 1 / the busiest channel from each entry switch of one destination to it,
// per LID offset, 0 when the traffic is lost: found up the whole tree,
// nearest switches first, or path by path.
class Busiest {
 public:
  Busiest(int switches, int offsets)
      : offsets_(offsets), inverse_(static_cast<size_t>(switches) * offsets), from_(switches + 1, 0) {}

  void find(LoadPlan& plan, int target, int offset, const std::vector<int>& entered,
            const std::vector<double>& load) {
    const std::optional<LoadPlan::Tree> tree = plan.tree_to_sweep(target, offset, static_cast<int>(entered.size()));
    if (!tree) {
      for (int s : entered) {
        double busiest = 0;
        const bool arrives = plan.walk(target, offset, s, [&](int c) { busiest = std::max(busiest, load[c]); });
        inverse(s, offset) = arrives ? 1 / busiest : 0;
      }
      return;
    }
    from_[tree->size()] = 0;
    for (int p = tree->size() - 1; p >= 0; --p) from_[p] = std::max(load[tree->channel[p]], from_[tree->next[p]]);
    for (int s : entered) {
      const uint16_t position = tree->entry[plan.entry_number(s)];
      inverse(s, offset) = position == LoadPlan::Tree::kLost ? 0 : 1 / from_[position];
    }
  }
  /// 1 / the busiest channel from entry switch s, by offset.
  const double* of(int s) const { return &inverse_[static_cast<size_t>(s) * offsets_]; }

 private:
  double& inverse(int s, int offset) { return inverse_[static_cast<size_t>(s) * offsets_ + offset]; }

  int offsets_;
  std::vector<double> inverse_;  // per (entry switch, offset)
  std::vector<double> from_;     // per position of a tree, the target last (0): busiest channel from it on
};

// The ORCS bandwidth summed over flows, each divided by its amount: a
// sub-flow runs at its share / (busiest channel on its path), taken as
// share * min(1 / CA link load, 1 / busiest past it), the same number.
double bandwidth_sum(LoadPlan& plan, const ByDestination& by_destination, const std::vector<int>& hosts,
                     const std::vector<double>& load) {
  const int offsets = plan.lids_per_ca();
  const double share = plan.spreads() ? 1.0 / offsets : 1;
  Entries entries(plan);
  Busiest busiest(plan.switch_count(), offsets);
  double total = 0;
  for (int d = 0; d < by_destination.destinations(); ++d) {
    const std::span<const Flow> flows = by_destination.to(d);
    if (flows.empty()) continue;
    const int target = hosts[d];
    entries.gather(plan, flows, hosts, target);
    for (int offset = 0; offset < offsets; ++offset)
      if (!entries.switches(offset).empty()) busiest.find(plan, target, offset, entries.switches(offset), load);
    for (const Flow& flow : flows) {
      const LoadPlan::Source& source = plan.source(hosts[flow.src]);
      const double inverse_ca = 1 / load[source.ca_channel];
      if (delivered_on_ca_link(source, target)) {
        total += inverse_ca;
        continue;
      }
      if (!enters_a_switch(source, target)) continue;
      const double* inverse_path = busiest.of(source.entry);
      const int first = plan.spreads() ? 0 : source.offset, end = plan.spreads() ? offsets : first + 1;
      double sums[4] = {0, 0, 0, 0};  // four running sums, so the additions overlap
      int o = first;
      for (; o + 4 <= end; o += 4)
        for (int k = 0; k < 4; ++k) sums[k] += std::min(inverse_ca, inverse_path[o + k]);
      for (; o < end; ++o) sums[0] += std::min(inverse_ca, inverse_path[o]);
      total += share * ((sums[0] + sums[1]) + (sums[2] + sums[3]));
    }
  }
  return total;
}

double baseload(const TrafficMatrix& tm) {
  std::vector<double> sent(tm.hosts, 0), received(tm.hosts, 0);
  for (const Flow& flow : tm.flows) {
    sent[flow.src] += flow.amount;
    received[flow.dst] += flow.amount;
  }
  double most = 0;
  for (int i = 0; i < tm.hosts; ++i) most = std::max({most, sent[i], received[i]});
  return most;
}

int find_root(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

// The cut bound: for each level l below the top, the sub-trees are the
// connected components of the nodes at levels 0..l; all their traffic to
// (from) other sub-trees crosses their up links.
double cut_bound(const Fabric& fabric, const Levels& levels, const TrafficMatrix& tm, const std::vector<int>& hosts) {
  double bound = 0;
  for (int l = 1; l < levels.height; ++l) {
    std::vector<int> parent(fabric.size());
    std::iota(parent.begin(), parent.end(), 0);
    std::vector<int> up_links(fabric.size(), 0);
    for (int x = 0; x < fabric.size(); ++x) {
      if (levels.of[x] < 0 || levels.of[x] > l) continue;
      for (int p = 1; p <= fabric.node(x).num_ports; ++p) {
        const int y = fabric.node(x).ports[p].peer.node;
        if (y < 0 || levels.of[y] < 0) continue;
        if (levels.of[y] <= l) parent[find_root(parent, x)] = find_root(parent, y);
        else ++up_links[x];
      }
    }
    std::vector<int> links(fabric.size(), 0);
    for (int x = 0; x < fabric.size(); ++x) links[find_root(parent, x)] += up_links[x];
    std::vector<double> out(fabric.size(), 0), in(fabric.size(), 0);
    for (const Flow& flow : tm.flows) {
      const int a = find_root(parent, hosts[flow.src]), b = find_root(parent, hosts[flow.dst]);
      if (a == b) continue;
      out[a] += flow.amount;
      in[b] += flow.amount;
    }
    for (int c = 0; c < fabric.size(); ++c)
      if (links[c] > 0) bound = std::max(bound, std::max(out[c], in[c]) / links[c]);
  }
  return bound;
}

uint64_t instance_seed(uint64_t seed, int instance) {
  // splitmix64 of (seed, instance): nearby seeds give unrelated instances.
  uint64_t z = seed + 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(instance + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<int> pattern_hosts(const Fabric& fabric) {
  std::vector<int> hosts;
  for (int i = 0; i < fabric.size(); ++i)
    if (!fabric.node(i).is_switch() && fabric.node(i).num_ports >= 1) hosts.push_back(i);
  return hosts;
}

bool optu_is_baseload(const Detection& detection) {
  if (!detection.xgft || detection.degraded()) return false;
  const XgftShape& s = detection.xgft->shape;
  for (int l = 1; l < s.h; ++l)
    if (s.w[l] * s.p[l] < s.m[l - 1] * s.p[l - 1]) return false;
  return true;
}

OptuBasis optu_basis(const Detection& detection) {
  return optu_is_baseload(detection) ? OptuBasis::kBaseload : OptuBasis::kLowerBound;
}

ChannelLoads channel_loads(LoadPlan& plan, const TrafficMatrix& tm, const std::vector<int>& hosts) {
  return loads_of(plan, ByDestination(tm), hosts);
}

PatternLoad pattern_load(LoadPlan& plan, const Levels& levels, OptuBasis basis, const TrafficMatrix& tm,
                         const std::vector<int>& hosts) {
  PatternLoad out;
  const ByDestination by_destination(tm);
  const ChannelLoads loads = loads_of(plan, by_destination, hosts);
  out.undelivered = loads.undelivered;
  const auto worst = std::ranges::max_element(loads.load);
  if (worst != loads.load.end()) {
    out.mload = *worst;
    const int c = static_cast<int>(worst - loads.load.begin());
    const int node = static_cast<int>(std::upper_bound(loads.first_channel.begin(), loads.first_channel.end(), c) -
                                      loads.first_channel.begin()) - 1;
    out.worst = {node, c - loads.first_channel[node]};
  }
  out.optu = baseload(tm);
  if (basis == OptuBasis::kLowerBound)
    out.optu = std::max(out.optu, cut_bound(plan.input().fabric, levels, tm, hosts));
  out.ratio = out.optu > 0 ? out.mload / out.optu : 0;
  const double total = bandwidth_sum(plan, by_destination, hosts, loads.load);
  out.flow_bandwidth = tm.flows.empty() ? 0 : total / static_cast<double>(tm.flows.size());
  return out;
}

Spread spread_of(const std::vector<double>& values) {
  Spread out;
  out.count = static_cast<int>(values.size());
  if (values.empty()) return out;
  out.min = *std::ranges::min_element(values);
  out.max = *std::ranges::max_element(values);
  out.mean = std::accumulate(values.begin(), values.end(), 0.0) / out.count;
  double squares = 0;
  for (double v : values) squares += (v - out.mean) * (v - out.mean);
  out.stddev = out.count > 1 ? std::sqrt(squares / (out.count - 1)) : 0;
  return out;
}

Result<PatternStats> evaluate_pattern(LoadPlan& plan, const Levels& levels, OptuBasis basis,
                                      const PatternSpec& pattern, const PatternRun& run) {
  const std::vector<int> hosts = pattern_hosts(plan.input().fabric);
  const int instances = run.instances > 0 ? run.instances : is_random_pattern(pattern) ? 32 : 1;
  std::vector<double> ratio, mload, optu, bandwidth;
  PatternStats out;
  out.pattern = pattern.text;
  out.basis = basis;
  for (int i = 0; i < instances; ++i) {
    Result<TrafficMatrix> tm = make_pattern(pattern, static_cast<int>(hosts.size()), instance_seed(run.seed, i));
    if (!tm.ok()) return tm.status();
    const PatternLoad load = pattern_load(plan, levels, basis, *tm, hosts);
    ratio.push_back(load.ratio);
    mload.push_back(load.mload);
    optu.push_back(load.optu);
    bandwidth.push_back(load.flow_bandwidth);
    out.undelivered += load.undelivered;
  }
  out.ratio = spread_of(ratio);
  out.mload = spread_of(mload);
  out.optu = spread_of(optu);
  out.flow_bandwidth = spread_of(bandwidth);
  return out;
}

namespace {

// route_scheme's work; `scheme_failed` is set when the scheme's own routing failed last.
Result<SchemeTables> route_named_scheme(const Fabric& fabric, const Detection& detection, std::string_view scheme_name,
                                        int lmc, LidSpace space, PathBitsUsers users, bool& scheme_failed) {
  Result<std::unique_ptr<Scheme>> scheme = make_scheme(scheme_name);
  if (!scheme.ok()) return scheme.status();
  SchemeTables out;
  // auto weighs its choices by the exact worst case, as `ftclos route` and the plugin have it do.
  const WorstCaseMeasure measure = exact_worst_case_measure();
  auto route_at = [&](int at) -> Status {
    Result<LidMap> lids = assign_lids(fabric, at, space);
    if (!lids.ok()) return lids.status();
    RoutingInput input{fabric, detection, *lids};
    input.worst_case = &measure;
    input.path_bits_users = users;
    Result<Routing> routing = (*scheme)->route(input);
    scheme_failed = !routing.ok();
    if (!routing.ok()) return Status::Error(fmt::format("{}: {}", scheme_name, routing.status().message()));
    out.lids = std::move(*lids);
    out.routing = std::move(*routing);
    return Status::Ok();
  };
  if (lmc >= 0) {
    if (Status status = route_at(lmc); !status.ok()) return status;
  } else {
    // Probe at LMC 0 for what the scheme needs, then step down until the LIDs
    // fit; the probe's tables stay when none above 0 does.
    if (Status status = route_at(0); !status.ok()) return status;
    const int needed = out.routing.lmc_needed;
    for (int at = needed; at > 0; --at) {
      const Status status = route_at(at);
      if (status.ok()) break;
      out.notes.push_back(fmt::format("{} needs LMC {}; LMC {} does not work: {}", scheme_name, needed, at,
                                      status.message()));
    }
  }
  if (scheme_name == "multipath") {
    out.offsets.mode = OffsetChoice::Mode::kAllOffsets;
  } else {
    out.offsets.mode = OffsetChoice::Mode::kPathBits;
    out.offsets.path_bits = out.routing.path_bits;
  }
  return out;
}

}  // namespace

Result<SchemeTables> route_scheme(const Fabric& fabric, const Detection& detection, std::string_view scheme_name,
                                  int lmc, LidSpace space, bool* bad_input, PathBitsUsers users) {
  bool scheme_failed = false;
  Result<SchemeTables> tables = route_named_scheme(fabric, detection, scheme_name, lmc, space, users, scheme_failed);
  if (bad_input) *bad_input = !tables.ok() && !scheme_failed;
  return tables;
}

namespace {
constexpr const char* kRowFormat = "{:<20} {:<16} {:<24} {:>6} {:>9} {:>9} {:>8}\n";
}  // namespace

std::string pattern_table_header() {
  return fmt::format(kRowFormat, "pattern", "tables", "ratio (min-max)", "sd", "MLOAD", "OPTU", "flow BW");
}

std::string pattern_table_row(const std::string& tables, const PatternStats& s) {
  return fmt::format(kRowFormat, s.pattern, tables,
                     fmt::format("{:.3f} ({:.3f}-{:.3f})", s.ratio.mean, s.ratio.min, s.ratio.max),
                     fmt::format("{:.3f}", s.ratio.stddev), fmt::format("{:.2f}", s.mload.mean),
                     fmt::format("{:.2f}", s.optu.mean), fmt::format("{:.3f}", s.flow_bandwidth.mean));
}

}  // namespace ftclos
