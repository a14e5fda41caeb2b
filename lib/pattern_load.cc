// Channel loads of traffic matrices (pattern_load.h). Sub-flows are taken
// destination by destination and grouped by (LID offset, first switch): the
// flows of one leaf to one LID share their path past the CA link, so each
// group is walked through the LFTs once, over flat per-channel arrays. A
// dense matrix then costs about one walk per (leaf, destination LID) rather
// than one per SD pair (all-to-all on 1,024 hosts: 128 x 1,024 walks, not a
// million).
#include "pattern_load.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ftclos {
namespace {

// Channel c = first_channel[node] + port; peer[c] is the node at its far end (-1: none).
struct ChannelMap {
  std::vector<int> first_channel;
  std::vector<int> peer;
  int switches = 0;

  explicit ChannelMap(const Fabric& fabric) : first_channel(fabric.size() + 1, 0) {
    for (int i = 0; i < fabric.size(); ++i) {
      first_channel[i + 1] = first_channel[i] + fabric.node(i).num_ports + 1;
      switches += fabric.node(i).is_switch();
    }
    peer.assign(first_channel.back(), -1);
    for (int i = 0; i < fabric.size(); ++i)
      for (int p = 1; p <= fabric.node(i).num_ports; ++p) peer[first_channel[i] + p] = fabric.node(i).ports[p].peer.node;
  }
};

// Walks from switch `from` toward `dlid`, owned by `target`, calling
// visit(channel) for every egress on the way; false when it is not delivered
// (no route, a dead port, the wrong CA, a loop).
template <class Visit>
bool walk_from(const Fabric& fabric, const ChannelMap& map, const Lfts& lfts, int from, int target, int dlid,
               Visit&& visit) {
  int node = from;
  for (int hops = 0; hops <= map.switches; ++hops) {
    const std::vector<uint8_t>& row = lfts.port[node];
    const uint8_t port = dlid < static_cast<int>(row.size()) ? row[dlid] : kNoPath;
    if (port == kNoPath || port == 0 || port > fabric.node(node).num_ports) return false;
    const int channel = map.first_channel[node] + port;
    visit(channel);
    node = map.peer[channel];
    if (node == target) return true;
    if (node < 0 || !fabric.node(node).is_switch()) return false;
  }
  return false;
}

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

// Where a sub-flow goes past its CA link.
constexpr int kDelivered = -1;  // the CA link ends at the destination
constexpr int kDead = -2;       // uncabled, or cabled to another CA

// Visits the sub-flows of tm destination by destination. For each sub-flow
// sub(flow, ca_channel, entry, slot, amount), entry being the switch past the
// CA link (or kDelivered, kDead) and slot its LID offset; after a
// destination's sub-flows, group(entry, target, dlid, slot) once per distinct
// (slot, entry switch) among them.
template <class Sub, class Group>
void by_destination(const LoadInput& input, const ChannelMap& map, const TrafficMatrix& tm,
                    const std::vector<int>& hosts, Sub&& sub, Group&& group) {
  const Fabric& fabric = input.fabric;
  const int nodes = fabric.size(), slots = input.lids.lids_per_ca();
  std::vector<int> first(tm.hosts + 1, 0), order(tm.flows.size());  // counting sort by destination
  for (const Flow& flow : tm.flows) ++first[flow.dst + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<int> next = first;
  for (size_t i = 0; i < tm.flows.size(); ++i) order[next[tm.flows[i].dst]++] = static_cast<int>(i);

  std::vector<bool> seen(static_cast<size_t>(slots) * nodes, false);
  std::vector<int> touched;
  for (int d = 0; d < tm.hosts; ++d) {
    const int target = hosts[d];
    for (int k = first[d]; k < first[d + 1]; ++k) {
      const Flow& flow = tm.flows[order[k]];
      const int source = hosts[flow.src];
      const int ca = map.first_channel[source] + 1;
      const int peer = map.peer[ca];
      const int entry = peer == target ? kDelivered : peer < 0 || !fabric.node(peer).is_switch() ? kDead : peer;
      const Split split = split_of(input.offsets, input.lids, source);
      for (int o = 0; o < split.count; ++o) {
        const int slot = (split.first + o) % slots;
        sub(order[k], ca, entry, slot, flow.amount * split.share);
        if (entry >= 0 && !seen[static_cast<size_t>(slot) * nodes + entry]) {
          seen[static_cast<size_t>(slot) * nodes + entry] = true;
          touched.push_back(slot * nodes + entry);
        }
      }
    }
    for (int key : touched) {
      group(key % nodes, target, input.lids.base[target] + key / nodes, key / nodes);
      seen[key] = false;
    }
    touched.clear();
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
  const int nodes = input.fabric.size();
  std::vector<double> amount(static_cast<size_t>(input.lids.lids_per_ca()) * nodes, 0);  // per (slot, entry)
  std::vector<long> count(amount.size(), 0);
  by_destination(
      input, map, tm, hosts,
      [&](size_t, int ca, int entry, int slot, double a) {
        out.load[ca] += a;
        if (entry == kDead) ++out.undelivered;
        if (entry < 0) return;
        amount[static_cast<size_t>(slot) * nodes + entry] += a;
        ++count[static_cast<size_t>(slot) * nodes + entry];
      },
      [&](int entry, int target, int dlid, int slot) {
        const size_t key = static_cast<size_t>(slot) * nodes + entry;
        if (!walk_from(input.fabric, map, input.lfts, entry, target, dlid, [&](int c) { out.load[c] += amount[key]; }))
          out.undelivered += count[key];
        amount[key] = 0;
        count[key] = 0;
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

  // ORCS bandwidth: each sub-flow runs at amount / (busiest channel on its
  // path); the busiest channel past the CA link is found once per group.
  const ChannelMap map(input.fabric);
  const int nodes = input.fabric.size();
  std::vector<double> bandwidth(tm.flows.size(), 0);
  std::vector<double> busiest(static_cast<size_t>(input.lids.lids_per_ca()) * nodes, 0);
  // The destination `busiest` holds: d when delivered, -2 - d when not, -1 for none yet.
  std::vector<int> stamp(busiest.size(), -1);
  by_destination(
      input, map, tm, hosts,
      [&](size_t flow, int ca, int entry, int slot, double a) {
        double most = loads.load[ca];
        if (entry == kDead) return;
        if (entry >= 0) {
          const size_t key = static_cast<size_t>(slot) * nodes + entry;
          const Flow& f = tm.flows[flow];
          if (stamp[key] != f.dst && stamp[key] != -2 - f.dst) {
            double path = 0;
            const bool delivered = walk_from(input.fabric, map, input.lfts, entry, hosts[f.dst],
                                             input.lids.base[hosts[f.dst]] + slot,
                                             [&](int c) { path = std::max(path, loads.load[c]); });
            busiest[key] = path;
            stamp[key] = delivered ? f.dst : -2 - f.dst;
          }
          if (stamp[key] < 0) return;
          most = std::max(most, busiest[key]);
        }
        bandwidth[flow] += a / most;
      },
      [](int, int, int, int) {});
  double total = 0;
  for (size_t i = 0; i < tm.flows.size(); ++i) total += bandwidth[i] / tm.flows[i].amount;
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
                                  int lmc) {
  Result<std::unique_ptr<Scheme>> scheme = make_scheme(scheme_name);
  if (!scheme.ok()) return scheme.status();
  SchemeTables out;
  auto route_at = [&](int at) -> Status {
    Result<LidMap> lids = assign_lids(fabric, at);
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

}  // namespace ftclos
