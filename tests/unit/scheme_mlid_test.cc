#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "generate.h"
#include "levels.h"
#include "path_trace.h"
#include "routing_checks.h"
#include "schemes.h"

namespace ftclos {
namespace {

// Distinct sources and destinations of one switch-to-switch channel, over
// the CA pairs (s,d) whose path, LID base(d) + p(s), crosses it.
struct ChannelUse {
  bool up = false;
  int sources = 0, destinations = 0;
};

std::vector<ChannelUse> channel_uses(const Routed& routed) {
  const Fabric& fabric = routed.fabric;
  std::map<PortRef, std::pair<std::vector<bool>, std::vector<bool>>> seen;  // sources, destinations
  for (int s = 0; s < fabric.size(); ++s) {
    for (int d = 0; d < fabric.size(); ++d) {
      if (s == d || fabric.node(s).is_switch() || fabric.node(d).is_switch()) continue;
      const int dlid = routed.lids.base[d] + routed.routing.path_bits[s];
      for (const PortRef hop : trace(fabric, routed.lids, routed.routing.lfts, s, dlid).hops) {
        const PortRef peer = fabric.peer(hop);
        if (!fabric.node(hop.node).is_switch() || !peer.valid() || !fabric.node(peer.node).is_switch()) continue;
        auto [it, added] = seen.try_emplace(hop);
        if (added) it->second = {std::vector<bool>(fabric.size()), std::vector<bool>(fabric.size())};
        it->second.first[s] = it->second.second[d] = true;
      }
    }
  }
  std::vector<ChannelUse> uses;
  for (const auto& [channel, ends] : seen)
    uses.push_back({direction(fabric, routed.detection.levels, channel) == Direction::kUp,
                    static_cast<int>(std::ranges::count(ends.first, true)),
                    static_cast<int>(std::ranges::count(ends.second, true))});
  return uses;
}

// Table I's measure through Lemma 9: the largest min(sources, destinations).
int busiest_channel(const std::vector<ChannelUse>& uses) {
  int busiest = 0;
  for (const ChannelUse& use : uses) busiest = std::max(busiest, std::min(use.sources, use.destinations));
  return busiest;
}

bool notes_mention(const Routing& routing, const std::string& text) {
  return std::ranges::any_of(routing.notes,
                             [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

Routed mlid(Fabric fabric, int lmc) { return route_fabric(*make_mlid_scheme(), std::move(fabric), lmc); }

void expect_routes_everything(const Routed& routed) {
  expect_all_pairs_delivered(routed, {.up_down = true, .minimal = true});
  expect_switch_lids_reachable(routed);
  expect_lfts_filled(routed);
}

struct TableICase {
  int ports, levels;
  int lmc;      // log2((m/2)^(n-1))
  int table_i;  // Yuan et al.'s Table I: m/2 on FT(m,2), m-1 on FT(m,3)
};

class MlidTableI : public ::testing::TestWithParam<TableICase> {};

// (m/2)^(n-1) LIDs per CA; the sources under one switch leave by distinct up
// links (every up channel carries one source), and the busiest down channel
// gives Table I's oblivious ratio.
TEST_P(MlidTableI, MatchesTableI) {
  const TableICase c = GetParam();
  const Routed routed = mlid(generated(generate_ftree(c.ports, c.levels)), c.lmc);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, c.lmc);
  expect_routes_everything(routed);
  const std::vector<ChannelUse> uses = channel_uses(routed);
  for (const ChannelUse& use : uses)
    if (use.up) {
      EXPECT_EQ(use.sources, 1);
    }
  EXPECT_EQ(busiest_channel(uses), c.table_i);
}

INSTANTIATE_TEST_SUITE_P(LinChungHuang, MlidTableI,
                         ::testing::Values(TableICase{8, 2, 2, 4}, TableICase{8, 3, 4, 7}, TableICase{4, 3, 2, 3}),
                         [](const auto& info) {
                           return "FT" + std::to_string(info.param.ports) + "_" + std::to_string(info.param.levels);
                         });

// p(s) is the source's position in its top-level sub-tree: (p1, p2) of host
// (p0,p1,p2) as p2 + (m/2) p1.
TEST(Mlid, PathBitsAreTheSourcePosition) {
  const Routed routed = mlid(generated(generate_ftree(8, 3)), 4);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  const std::vector<std::vector<int>>& label = routed.detection.xgft->digits;
  for (int s = 0; s < routed.fabric.size(); ++s)
    if (!routed.fabric.node(s).is_switch()) {
      EXPECT_EQ(routed.routing.path_bits[s], label[s][0] + 4 * label[s][1]);
    }
}

// Fewer LIDs: noted; the lowest level keeps the source digit, the level
// above chooses by destination, and every pair is still routed.
TEST(Mlid, SmallLmcFallsBackWithANote) {
  const Routed routed = mlid(generated(generate_ftree(8, 3)), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, 4);
  EXPECT_TRUE(notes_mention(routed.routing, "need LMC 4, have 2"));
  expect_routes_everything(routed);
  const std::vector<std::vector<int>>& label = routed.detection.xgft->digits;
  for (int s = 0; s < routed.fabric.size(); ++s)
    if (!routed.fabric.node(s).is_switch()) {
      EXPECT_EQ(routed.routing.path_bits[s], label[s][0]);
    }
}

class MlidDegraded : public ::testing::TestWithParam<std::tuple<FabricCase, uint64_t>> {};

// Three failed cables: entries on them are moved, every pair still goes a
// shortest up/down way.
TEST_P(MlidDegraded, StillRoutesEveryPairUpDown) {
  const auto& [fabric_case, seed] = GetParam();
  Fabric fabric = fabric_case.make();
  ASSERT_TRUE(degrade(fabric, {3, -1, seed}).ok());
  const Routed routed = mlid(std::move(fabric), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_GT(routed.routing.rerouted, 0);
  expect_routes_everything(routed);
}

const FabricCase kDegradable[] = {
    {"ft8_2", [] { return generated(generate_ftree(8, 2)); }},
    {"ft8_3", [] { return generated(generate_ftree(8, 3)); }},
    {"pgft3",
     [] {
       return generated(generate_pgft({{3, 2, 4}, {1, 2, 3}, {1, 1, 1}}));
     }},
};

INSTANTIATE_TEST_SUITE_P(LinChungHuang, MlidDegraded,
                         ::testing::Combine(::testing::ValuesIn(kDegradable), ::testing::Values(1u, 2u, 3u)),
                         [](const auto& info) {
                           return std::get<0>(info.param).name + "_" + std::to_string(std::get<1>(info.param));
                         });

// Any single-cable PGFT: digits of min(m_l, w_{l+1}) values.
TEST(Mlid, RoutesPgft) {
  const Routed routed = mlid(generated(generate_pgft({{3, 2, 4}, {1, 2, 3}, {1, 1, 1}})), 2);
  ASSERT_TRUE(routed.status.ok()) << routed.status.message();
  EXPECT_EQ(routed.routing.lmc_needed, 2);  // min(3,2) * min(2,3) = 4 classes
  expect_routes_everything(routed);
}

}  // namespace
}  // namespace ftclos
