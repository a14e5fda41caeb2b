// pattern_load against the plainest reading of its definition: every flow,
// on every LID offset it uses, traced on its own with path_trace.h's trace()
// and its traffic added hop by hop; then every flow traced again for its
// ORCS bandwidth. Fabrics intact and degraded, tables with a loop.
#include "traffic/pattern_load.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "audit/path_trace.h"
#include "detect/detect.h"
#include "gen/generate.h"
#include "traffic/patterns.h"

namespace ftclos {
namespace {

struct Reference {
  ChannelLoads loads;
  double flow_bandwidth = 0;
};

// The offsets a source's traffic takes and the share on each.
std::vector<int> offsets_of(const LoadInput& input, int source, double& share) {
  const int lids_per_ca = input.lids.lids_per_ca();
  share = 1;
  switch (input.offsets.mode) {
    case OffsetChoice::Mode::kFixed:
      return {input.offsets.offset % lids_per_ca};
    case OffsetChoice::Mode::kPathBits:
      return {input.offsets.path_bits.empty() ? 0 : input.offsets.path_bits[source] % lids_per_ca};
    case OffsetChoice::Mode::kAllOffsets:
      break;
  }
  share = 1.0 / lids_per_ca;
  std::vector<int> all(lids_per_ca);
  for (int o = 0; o < lids_per_ca; ++o) all[o] = o;
  return all;
}

Reference trace_each_flow(const LoadInput& input, const TrafficMatrix& tm, const std::vector<int>& hosts) {
  Reference out;
  ChannelLoads& loads = out.loads;
  loads.first_channel.assign(input.fabric.size() + 1, 0);
  for (int i = 0; i < input.fabric.size(); ++i)
    loads.first_channel[i + 1] = loads.first_channel[i] + input.fabric.node(i).num_ports + 1;
  loads.load.assign(loads.first_channel.back(), 0);
  auto each_trace = [&](auto&& visit) {
    for (const Flow& flow : tm.flows) {
      const int source = hosts[flow.src], target = hosts[flow.dst];
      double share = 1;
      for (int offset : offsets_of(input, source, share))
        visit(flow, share, trace(input.fabric, input.lids, input.lfts, source, input.lids.base[target] + offset));
    }
  };
  for (const Flow& flow : tm.flows) loads.load[loads.channel_index({hosts[flow.src], 1})] += flow.amount;
  each_trace([&](const Flow& flow, double share, const Trace& path) {
    if (path.outcome != Trace::Outcome::kDelivered) {
      ++loads.undelivered;
      return;
    }
    for (size_t h = 1; h < path.hops.size(); ++h) loads.load[loads.channel_index(path.hops[h])] += flow.amount * share;
  });
  double total = 0;
  each_trace([&](const Flow&, double share, const Trace& path) {
    if (path.outcome != Trace::Outcome::kDelivered) return;
    double busiest = 0;
    for (PortRef hop : path.hops) busiest = std::max(busiest, loads.load[loads.channel_index(hop)]);
    total += share / busiest;
  });
  out.flow_bandwidth = tm.flows.empty() ? 0 : total / static_cast<double>(tm.flows.size());
  return out;
}

// Equal up to the order the traffic was summed in.
void expect_same(const Reference& want, const ChannelLoads& loads, const PatternLoad& load) {
  EXPECT_EQ(loads.undelivered, want.loads.undelivered);
  EXPECT_EQ(load.undelivered, want.loads.undelivered);
  ASSERT_EQ(loads.load.size(), want.loads.load.size());
  for (size_t c = 0; c < loads.load.size(); ++c)
    ASSERT_NEAR(loads.load[c], want.loads.load[c], 1e-9 * (1 + want.loads.load[c])) << "channel " << c;
  const double mload = *std::ranges::max_element(want.loads.load);
  EXPECT_NEAR(load.mload, mload, 1e-9 * mload);
  EXPECT_EQ(loads.load[loads.channel_index(load.worst)], load.mload);
  EXPECT_NEAR(load.flow_bandwidth, want.flow_bandwidth, 1e-9);
}

struct Tables {
  Fabric fabric;
  Detection detection;
  SchemeTables routed;

  LoadInput input() const { return {fabric, routed.lids, routed.routing.lfts, routed.offsets}; }
};

Tables routed(Fabric fabric, const std::string& scheme) {
  Tables out{std::move(fabric), {}, {}};
  out.detection = detect(out.fabric);
  Result<SchemeTables> tables = route_scheme(out.fabric, out.detection, scheme, -1);
  EXPECT_TRUE(tables.ok()) << tables.status().message();
  if (tables.ok()) out.routed = std::move(*tables);
  return out;
}

// Every pattern below on `tables`, against the reference; returns the
// undelivered sub-flows seen, so callers can insist on some.
long expect_patterns_match(const Tables& tables) {
  const LoadInput input = tables.input();
  const std::vector<int> hosts = pattern_hosts(tables.fabric);
  const int n = static_cast<int>(hosts.size());
  std::vector<TrafficMatrix> matrices;
  for (const char* text : {"uniform:0.5", "permutation", "ring", "hot-spot:2,4", "bisection", "all-to-all"})
    matrices.push_back(*make_pattern(*parse_pattern(text), n, 3));
  TrafficMatrix uneven{n, {}};  // amounts other than a unit, some pairs twice
  for (int s = 0; s < n; ++s)
    for (int d = (s * 7) % 5; d < n; d += 3)
      if (d != s) uneven.flows.push_back({s, d, 0.25 + (s % 4)});
  uneven.flows.push_back({1, 2, 1.5});
  matrices.push_back(uneven);
  // A fresh plan walks sparse matrices through the LFTs; the shared one has
  // compiled the trees the dense ones used, and sweeps or walks those.
  LoadPlan shared(input);
  long undelivered = 0;
  for (const TrafficMatrix& tm : matrices) {
    SCOPED_TRACE(::testing::Message() << tm.flows.size() << " flows");
    const Reference want = trace_each_flow(input, tm, hosts);
    for (LoadPlan fresh(input); LoadPlan* plan : {&fresh, &shared}) {
      SCOPED_TRACE(plan == &fresh ? "fresh plan" : "shared plan");
      expect_same(want, channel_loads(*plan, tm, hosts),
                  pattern_load(*plan, tables.detection.levels, OptuBasis::kBaseload, tm, hosts));
    }
    undelivered += want.loads.undelivered;
  }
  return undelivered;
}

TEST(PatternLoadReference, IntactFatTrees) {
  for (const char* scheme : {"osrm", "multipath", "dmodk", "mlid"}) {
    SCOPED_TRACE(scheme);
    EXPECT_EQ(expect_patterns_match(routed(*generate_ftree(8, 3), scheme)), 0);
  }
  EXPECT_EQ(expect_patterns_match(routed(*generate_kary(3, 2), "updown")), 0);
}

TEST(PatternLoadReference, FixedOffset) {
  Tables tables = routed(*generate_ftree(8, 3), "multipath");
  tables.routed.offsets = {OffsetChoice::Mode::kFixed, 5, {}};
  EXPECT_EQ(expect_patterns_match(tables), 0);
}

// Cables cut after routing: the tables still point at them, so some pairs
// are lost (dead ports), and one host has no cable at all.
TEST(PatternLoadReference, DegradedFabricLosesPairs) {
  for (const char* scheme : {"osrm", "multipath"}) {
    SCOPED_TRACE(scheme);
    Tables tables = routed(*generate_ftree(8, 3), scheme);
    int cut = 0;
    for (int x = 0; x < tables.fabric.size() && cut < 3; ++x) {
      const Node& node = tables.fabric.node(x);
      if (!node.is_switch() || x % 5 != 0) continue;
      const PortRef peer = node.ports[node.num_ports].peer;
      if (peer.valid() && tables.fabric.node(peer.node).is_switch()) {
        tables.fabric.disconnect({x, node.num_ports});
        ++cut;
      }
    }
    ASSERT_EQ(cut, 3);
    tables.fabric.disconnect({pattern_hosts(tables.fabric)[6], 1});
    EXPECT_GT(expect_patterns_match(tables), 0);
  }
}

// One switch sends a LID back where it came from: every flow through it loops.
TEST(PatternLoadReference, LoopIsLost) {
  for (const char* scheme : {"osrm", "multipath"}) {
    SCOPED_TRACE(scheme);
    Tables tables = routed(*generate_ftree(8, 3), scheme);
    const std::vector<int> hosts = pattern_hosts(tables.fabric);
    // The LID the first host sends on: OSRM's path bits skip offset 0.
    const int lid = tables.routed.lids.base[hosts.back()] + tables.routed.routing.path_bits[hosts.front()];
    const Trace path = trace(tables.fabric, tables.routed.lids, tables.routed.routing.lfts, hosts.front(), lid);
    ASSERT_EQ(path.outcome, Trace::Outcome::kDelivered);
    ASSERT_GE(path.hops.size(), 4u);
    const PortRef back = tables.fabric.peer(path.hops[1]);  // the second switch, on the port it was entered at
    tables.routed.routing.lfts.port[back.node][lid] = static_cast<uint8_t>(back.port);
    ASSERT_EQ(trace(tables.fabric, tables.routed.lids, tables.routed.routing.lfts, hosts.front(), lid).outcome,
              Trace::Outcome::kLoop);
    EXPECT_GT(expect_patterns_match(tables), 0);
  }
}

}  // namespace
}  // namespace ftclos
