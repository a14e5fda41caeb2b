// Channel loads of traffic matrices (pattern_load.h). Sub-flows are taken
// destination LID by destination LID: the LFT entries for one LID form a tree
// toward its owner, so the traffic entering it is pushed down the tree once,
// switch by switch, farthest first, and each switch's hop toward the LID is
// looked up once per LID (memoized). A dense matrix then costs about one visit
// per (switch, destination LID) instead of one walk per SD pair.
#include "pattern_load.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ftclos {
namespace {

// Channel c = first_channel[node] + port; peer[c] is the node at its far end
// (-1: none). Flat copies of what the walks read, away from the Node records.
struct ChannelMap {
  std::vector<int> first_channel;
  std::vector<int> peer;
  std::vector<int> ports;          // per node: port count
  std::vector<bool> switch_node;   // per node

  explicit ChannelMap(const Fabric& fabric)
      : first_channel(fabric.size() + 1, 0), ports(fabric.size()), switch_node(fabric.size()) {
    for (int i = 0; i < fabric.size(); ++i) {
      ports[i] = fabric.node(i).num_ports;
      switch_node[i] = fabric.node(i).is_switch();
      first_channel[i + 1] = first_channel[i] + ports[i] + 1;
    }
    peer.assign(first_channel.back(), -1);
    for (int i = 0; i < fabric.size(); ++i)
      for (int p = 1; p <= ports[i]; ++p) peer[first_channel[i] + p] = fabric.node(i).ports[p].peer.node;
  }
};

// The forwarding tree of one LID, resolved lazily from the switches traffic
// enters at: per switch its out channel and hops to the owner, or that it
// never gets there (no route, a dead port, the wrong CA, a loop).
class LidTree {
 public:
  LidTree(const ChannelMap& map, const Lfts& lfts)
      : map_(map), lfts_(lfts), stamp_(map.ports.size(), -1), out_(map.ports.size()), hops_(map.ports.size()) {}

  /// Starts on another LID.
  void reset(int target, int dlid) {
    target_ = target;
    dlid_ = dlid;
    ++generation_;
  }
  int dlid() const { return dlid_; }
  int target() const { return target_; }

  /// Hops from switch x to the owner, 0 when it never gets there.
  int hops(int x) {
    if (stamp_[x] != generation_) resolve(x);
    return hops_[x];
  }
  /// The channel out of a switch whose hops() is positive.
  int out(int x) const { return out_[x]; }

 private:
  static constexpr int kOnPath = -2;  // hops_ of a switch being resolved: reaching it again is a loop

  void resolve(int from) {
    path_.clear();
    int after = -1;  // hops to go after the path's last switch: 0 at the owner, -1 when lost
    for (int x = from;;) {
      if (stamp_[x] == generation_) {  // resolved before, or on this path (a loop)
        after = hops_[x] > 0 ? hops_[x] : -1;
        break;
      }
      stamp_[x] = generation_;
      hops_[x] = kOnPath;
      path_.push_back(x);
      const std::vector<uint8_t>& row = lfts_.port[x];
      const uint8_t port = dlid_ < static_cast<int>(row.size()) ? row[dlid_] : kNoPath;
      if (port == kNoPath || port == 0 || port > map_.ports[x]) break;
      out_[x] = map_.first_channel[x] + port;
      const int next = map_.peer[out_[x]];
      if (next == target_) {
        after = 0;
        break;
      }
      if (next < 0 || !map_.switch_node[next]) break;
      x = next;
    }
    for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
      after = after < 0 ? -1 : after + 1;
      hops_[*it] = std::max(after, 0);
    }
  }

  const ChannelMap& map_;
  const Lfts& lfts_;
  std::vector<int> stamp_, out_, hops_, path_;
  int generation_ = 0, target_ = -1, dlid_ = 0;
};

// The (offset, share) pairs a source splits its traffic into.
struct Split {
  int first = 0, count = 1;
  double share = 1;
};

Split split_of(const OffsetChoice& offsets, const LidMap& lids, int source) {
  const int lids_per_ca = lids.lids_per_ca();
  switch (offsets.mode) {
    case OffsetChoice::Mode::kFixed:
      return {offsets.offset % lids_per_ca, 1, 1};
    case OffsetChoice::Mode::kPathBits:
      return {offsets.path_bits.empty() ? 0 : offsets.path_bits[source] % lids_per_ca, 1, 1};
    case OffsetChoice::Mode::kAllOffsets:
      return {0, lids_per_ca, 1.0 / lids_per_ca};
  }
  return {};
}

// Where a flow goes past its CA link.
constexpr int kDelivered = -1;  // the CA link ends at the destination
constexpr int kDead = -2;       // uncabled, or cabled to another CA

// A flow at its CA link: the switch past it (or kDelivered, kDead) and how it
// splits over LID offsets (one offset, or all of them).
struct Entering {
  int ca, entry;
  Split split;
  double amount;
};

// Visits the traffic destination by destination: before(e) for each flow to
// it, then, per LID offset `slot` some flow uses, lid(tree, slot, entries) with
// `tree` reset to that LID and `entries` the switches its flows enter at
// (flows split over all offsets counted in every slot; a switch may repeat),
// then after(e) for each flow again.
template <class Before, class Lid, class After>
void by_destination(const LoadInput& input, const ChannelMap& map, const TrafficMatrix& tm,
                    const std::vector<int>& hosts, Before&& before, Lid&& lid, After&& after) {
  const Fabric& fabric = input.fabric;
  const int slots = input.lids.lids_per_ca();
  // The flows sorted by destination (counting sort), sources and amounts only:
  // the passes below then read them in order.
  struct Sorted {
    int src;
    double amount;
  };
  std::vector<int> first(tm.hosts + 1, 0);
  for (const Flow& flow : tm.flows) ++first[flow.dst + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<int> next = first;
  std::vector<Sorted> sorted(tm.flows.size());
  for (const Flow& flow : tm.flows) sorted[next[flow.dst]++] = {flow.src, flow.amount};

  auto entering = [&](const Sorted& flow, int target) {
    const int source = hosts[flow.src];
    const int ca = map.first_channel[source] + 1;
    const int peer = map.peer[ca];
    const int entry = peer == target ? kDelivered : peer < 0 || !map.switch_node[peer] ? kDead : peer;
    return Entering{ca, entry, split_of(input.offsets, input.lids, source), flow.amount};
  };
  LidTree tree(map, input.lfts);
  std::vector<std::vector<int>> entries(slots);  // per offset: entry switches of one-offset flows
  std::vector<int> everywhere;                    // entry switches of flows on every offset
  std::vector<int> listed(static_cast<size_t>(slots + 1) * fabric.size(), -1);  // destination that listed it
  for (int d = 0; d < tm.hosts; ++d) {
    if (first[d] == first[d + 1]) continue;
    const int target = hosts[d];
    for (int k = first[d]; k < first[d + 1]; ++k) {
      const Entering e = entering(sorted[k], target);
      before(e);
      if (e.entry < 0) continue;
      const bool all = e.split.count == slots;
      const size_t key = static_cast<size_t>(all ? slots : e.split.first) * fabric.size() + e.entry;
      if (listed[key] == d) continue;
      listed[key] = d;
      (all ? everywhere : entries[e.split.first]).push_back(e.entry);
    }
    for (int slot = 0; slot < slots; ++slot) {
      if (entries[slot].empty() && everywhere.empty()) continue;
      entries[slot].insert(entries[slot].end(), everywhere.begin(), everywhere.end());
      tree.reset(target, input.lids.base[target] + slot);
      lid(tree, slot, entries[slot]);
      entries[slot].clear();
    }
    everywhere.clear();
    for (int k = first[d]; k < first[d + 1]; ++k) after(entering(sorted[k], target));
  }
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

OptuBasis optu_basis(const Detection& detection) {
  const bool fat_tree = detection.find("ftree") || detection.find("kary");
  return fat_tree && !detection.degraded() ? OptuBasis::kBaseload : OptuBasis::kLowerBound;
}

ChannelLoads channel_loads(const LoadInput& input, const TrafficMatrix& tm, const std::vector<int>& hosts) {
  const ChannelMap map(input.fabric);
  ChannelLoads out{map.first_channel, std::vector<double>(map.peer.size(), 0), 0};
  const int nodes = input.fabric.size(), slots = input.lids.lids_per_ca();
  // Traffic and sub-flow counts entering at a switch: per (offset, switch),
  // and per switch for every offset; `through` while a tree is pushed.
  std::vector<double> on_slot(static_cast<size_t>(slots) * nodes, 0), on_all(nodes, 0), through(nodes, 0);
  std::vector<long> count_slot(on_slot.size(), 0), count_all(nodes, 0);
  std::vector<std::vector<int>> by_hops;  // switches of the tree by hops to go
  std::vector<int> taken(nodes, -1);       // the tree an entry switch was last taken for
  int tree_number = 0;
  by_destination(
      input, map, tm, hosts,
      [&](const Entering& e) {
        out.load[e.ca] += e.amount;
        if (e.entry == kDead) out.undelivered += e.split.count;
        if (e.entry < 0) return;
        if (e.split.count == slots) {
          on_all[e.entry] += e.amount * e.split.share;
          ++count_all[e.entry];
        } else {
          on_slot[static_cast<size_t>(e.split.first) * nodes + e.entry] += e.amount;
          ++count_slot[static_cast<size_t>(e.split.first) * nodes + e.entry];
        }
      },
      [&](LidTree& tree, int slot, const std::vector<int>& entries) {
        ++tree_number;
        for (int x : entries) {
          if (taken[x] == tree_number) continue;  // listed for one offset and for all
          taken[x] = tree_number;
          const size_t key = static_cast<size_t>(slot) * nodes + x;
          const double amount = on_slot[key] + on_all[x];
          const long count = count_slot[key] + count_all[x];
          on_slot[key] = 0;
          count_slot[key] = 0;
          const int hops = tree.hops(x);
          if (hops == 0) {
            out.undelivered += count;
            continue;
          }
          if (static_cast<int>(by_hops.size()) <= hops) by_hops.resize(hops + 1);
          if (through[x] == 0) by_hops[hops].push_back(x);
          through[x] += amount;
        }
        // Farthest first: a switch has all its traffic before it passes it on.
        for (int hops = static_cast<int>(by_hops.size()) - 1; hops >= 1; --hops) {
          for (int x : by_hops[hops]) {
            const int c = tree.out(x);
            out.load[c] += through[x];
            if (hops > 1) {
              const int next = map.peer[c];
              if (through[next] == 0) by_hops[hops - 1].push_back(next);
              through[next] += through[x];
            }
            through[x] = 0;
          }
          by_hops[hops].clear();
        }
      },
      [&](const Entering& e) {
        if (e.entry < 0) return;
        on_all[e.entry] = 0;
        count_all[e.entry] = 0;
      });
  return out;
}

PatternLoad pattern_load(const LoadInput& input, const Levels& levels, OptuBasis basis, const TrafficMatrix& tm,
                         const std::vector<int>& hosts) {
  PatternLoad out;
  const ChannelLoads loads = channel_loads(input, tm, hosts);
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
  if (basis == OptuBasis::kLowerBound) out.optu = std::max(out.optu, cut_bound(input.fabric, levels, tm, hosts));
  out.ratio = out.optu > 0 ? out.mload / out.optu : 0;

  // ORCS bandwidth: a sub-flow runs at amount / (busiest channel on its
  // path); per LID the busiest channel from each switch on is memoized.
  const ChannelMap map(input.fabric);
  const int nodes = input.fabric.size(), slots = input.lids.lids_per_ca();
  double total = 0;  // sum over flows of bandwidth / amount
  std::vector<double> busiest(static_cast<size_t>(slots) * nodes, -1);  // per (offset, entry); -1: undelivered
  std::vector<double> from(nodes);  // busiest channel from a switch on, for the tree numbered in from_tree
  std::vector<int> from_tree(nodes, -1), stack;
  int tree_number = 0;
  by_destination(
      input, map, tm, hosts, [](const Entering&) {},
      [&](LidTree& tree, int slot, const std::vector<int>& entries) {
        ++tree_number;
        for (int x : entries) {
          double& result = busiest[static_cast<size_t>(slot) * nodes + x];
          result = -1;
          if (tree.hops(x) == 0) continue;
          for (int y = x; from_tree[y] != tree_number; y = map.peer[tree.out(y)]) {
            stack.push_back(y);
            if (tree.hops(y) == 1) break;
          }
          for (; !stack.empty(); stack.pop_back()) {
            const int y = stack.back();
            const double beyond = tree.hops(y) > 1 ? from[map.peer[tree.out(y)]] : 0;
            from[y] = std::max(loads.load[tree.out(y)], beyond);
            from_tree[y] = tree_number;
          }
          result = from[x];
        }
      },
      [&](const Entering& e) {
        if (e.entry == kDead) return;
        const double ca = loads.load[e.ca];
        if (e.entry == kDelivered) {
          total += 1 / ca;
          return;
        }
        for (int o = 0; o < e.split.count; ++o) {
          const double path = busiest[static_cast<size_t>((e.split.first + o) % slots) * nodes + e.entry];
          if (path >= 0) total += e.split.share / std::max(ca, path);
        }
      });
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

Result<PatternStats> evaluate_pattern(const LoadInput& input, const Levels& levels, OptuBasis basis,
                                      const PatternSpec& pattern, const PatternRun& run) {
  const std::vector<int> hosts = pattern_hosts(input.fabric);
  const int instances = run.instances > 0 ? run.instances : is_random_pattern(pattern) ? 32 : 1;
  std::vector<double> ratio, mload, optu, bandwidth;
  PatternStats out;
  out.pattern = pattern.text;
  out.basis = basis;
  for (int i = 0; i < instances; ++i) {
    Result<TrafficMatrix> tm = make_pattern(pattern, static_cast<int>(hosts.size()), instance_seed(run.seed, i));
    if (!tm.ok()) return tm.status();
    const PatternLoad load = pattern_load(input, levels, basis, *tm, hosts);
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

Result<SchemeTables> route_scheme(const Fabric& fabric, const Detection& detection, std::string_view scheme_name,
                                  int lmc, LidSpace space) {
  Result<std::unique_ptr<Scheme>> scheme = make_scheme(scheme_name);
  if (!scheme.ok()) return scheme.status();
  SchemeTables out;
  auto route_at = [&](int at) -> Status {
    Result<LidMap> lids = assign_lids(fabric, at, space);
    if (!lids.ok()) return lids.status();
    Result<Routing> routing = (*scheme)->route({fabric, detection, *lids});
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

namespace {
constexpr const char* kRowFormat = "{:<20} {:<11} {:<24} {:>6} {:>9} {:>9} {:>8}\n";
}  // namespace

std::string pattern_table_header() {
  return fmt::format(kRowFormat, "pattern", "scheme", "ratio (min-max)", "sd", "MLOAD", "OPTU", "flow BW");
}

std::string pattern_table_row(const std::string& scheme, const PatternStats& s) {
  return fmt::format(kRowFormat, s.pattern, scheme,
                     fmt::format("{:.3f} ({:.3f}-{:.3f})", s.ratio.mean, s.ratio.min, s.ratio.max),
                     fmt::format("{:.3f}", s.ratio.stddev), fmt::format("{:.2f}", s.mload.mean),
                     fmt::format("{:.2f}", s.optu.mean), fmt::format("{:.3f}", s.flow_bandwidth.mean));
}

}  // namespace ftclos
