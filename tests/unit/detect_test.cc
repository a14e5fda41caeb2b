#include "detect/detect.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "gen/generate.h"

namespace ftclos {
namespace {

struct Expected {
  Family family;
  std::vector<std::pair<std::string, int>> params;
};

Fabric must(Result<Fabric> fabric) {
  EXPECT_TRUE(fabric.ok()) << fabric.status().message();
  return fabric.ok() ? std::move(*fabric) : Fabric();
}

void expect_family(const Detection& detection, const Expected& expected) {
  const FamilyMatch* family = detection.find(expected.family);
  ASSERT_NE(family, nullptr) << "no " << family_name(expected.family) << "; reason: " << detection.unknown_reason;
  for (const auto& [key, value] : expected.params) EXPECT_EQ(family->param(key), value) << family_name(expected.family) << " " << key;
}

// Every cable between labeled nodes joins labels that differ only at the
// position of the upper node's level.
void expect_labels_follow_cables(const Fabric& fabric, const Detection& detection) {
  ASSERT_TRUE(detection.xgft.has_value());
  const XgftLabels& labels = *detection.xgft;
  for (int x = 0; x < fabric.size(); ++x) {
    ASSERT_FALSE(labels.digits[x].empty()) << fabric.node(x).name << " unlabeled";
    for (const Port& port : fabric.node(x).ports) {
      if (!port.peer.valid() || detection.levels.of[port.peer.node] != detection.levels.of[x] + 1) continue;
      const int pos = detection.levels.of[x] + 1;
      for (int i = 1; i <= labels.shape.h; ++i) {
        if (i != pos) {
          EXPECT_EQ(labels.digits[x][i - 1], labels.digits[port.peer.node][i - 1]);
        }
      }
    }
  }
}

class TreeFamilies : public ::testing::TestWithParam<std::tuple<std::string, Fabric (*)(), Expected>> {};

TEST_P(TreeFamilies, RecognizedWithGeneratingParameters) {
  const auto& [name, make, expected] = GetParam();
  const Fabric fabric = make();
  const Detection detection = detect(fabric);
  expect_family(detection, expected);
  EXPECT_EQ(detection.families.front().family, expected.family);
  EXPECT_FALSE(detection.degraded()) << describe(fabric, detection.deviations().front());
  EXPECT_TRUE(detection.updown_routable);
  expect_labels_follow_cables(fabric, detection);
}

INSTANTIATE_TEST_SUITE_P(
    Detect, TreeFamilies,
    ::testing::Values(
        std::make_tuple("ft8_2", +[] { return must(generate_ftree(8, 2)); }, Expected{Family::kFtree, {{"m", 8}, {"n", 2}}}),
        std::make_tuple("ft8_3", +[] { return must(generate_ftree(8, 3)); }, Expected{Family::kFtree, {{"m", 8}, {"n", 3}}}),
        std::make_tuple("ft16_3", +[] { return must(generate_ftree(16, 3)); },
                        Expected{Family::kFtree, {{"m", 16}, {"n", 3}}}),
        std::make_tuple("ft4_4", +[] { return must(generate_ftree(4, 4)); }, Expected{Family::kFtree, {{"m", 4}, {"n", 4}}}),
        std::make_tuple("kary4_3", +[] { return must(generate_kary(4, 3)); }, Expected{Family::kKary, {{"k", 4}, {"n", 3}}}),
        std::make_tuple("kary3_4", +[] { return must(generate_kary(3, 4)); }, Expected{Family::kKary, {{"k", 3}, {"n", 4}}}),
        std::make_tuple("kary10_3", +[] { return must(generate_kary(10, 3)); },
                        Expected{Family::kKary, {{"k", 10}, {"n", 3}}}),
        std::make_tuple("clos2_2_4_6", +[] { return must(generate_clos2(2, 4, 6)); },
                        Expected{Family::kClos2, {{"n", 2}, {"m", 4}, {"r", 6}}}),
        std::make_tuple("clos2_3_9_10", +[] { return must(generate_clos2(3, 9, 10)); },
                        Expected{Family::kClos2, {{"n", 3}, {"m", 9}, {"r", 10}}}),
        std::make_tuple("clos2_32_32_40", +[] { return must(generate_clos2(32, 32, 40)); },
                        Expected{Family::kClos2, {{"n", 32}, {"m", 32}, {"r", 40}}}),
        std::make_tuple("pgft_3", +[] { return must(generate_pgft({{2, 3, 4}, {1, 2, 3}, {1, 1, 1}})); },
                        Expected{Family::kPgft, {{"h", 3}}}),
        std::make_tuple("pgft_parallel", +[] { return must(generate_pgft({{4, 4}, {1, 2}, {1, 2}})); },
                        Expected{Family::kPgft, {{"h", 2}}}),
        std::make_tuple("pgft_1200", +[] { return must(generate_pgft({{12, 10, 10}, {1, 6, 5}, {1, 1, 1}})); },
                        Expected{Family::kPgft, {{"h", 3}}})),
    [](const auto& info) { return std::get<0>(info.param); });

TEST(Detect, FatTreeIsAlsoClos2AndPgft) {
  const Detection detection = detect(must(generate_ftree(8, 2)));
  expect_family(detection, {Family::kClos2, {{"n", 4}, {"m", 4}, {"r", 8}}});
  const FamilyMatch* pgft = detection.find(Family::kPgft);
  ASSERT_NE(pgft, nullptr);
  EXPECT_EQ(pgft->params[1].values, (std::vector<int>{4, 8}));
  EXPECT_EQ(pgft->params[2].values, (std::vector<int>{1, 4}));
}

TEST(Detect, PgftListsItsParameters) {
  const Detection detection = detect(must(generate_pgft({{2, 3, 4}, {1, 2, 3}, {1, 1, 2}})));
  const FamilyMatch* pgft = detection.find(Family::kPgft);
  ASSERT_NE(pgft, nullptr);
  EXPECT_EQ(pgft->params[1].values, (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(pgft->params[2].values, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(pgft->params[3].values, (std::vector<int>{1, 1, 2}));
}

TEST(Detect, FtreeCoordinatesFollowYuansNumbering) {
  const Fabric fabric = must(generate_ftree(8, 3));
  const Detection detection = detect(fabric);
  const FamilyMatch* ftree = detection.find(Family::kFtree);
  ASSERT_NE(ftree, nullptr);
  // Host (p0,p1,p2) hangs off switch ((p0,p1),2) (Yuan et al. §V-B).
  for (int x = 0; x < fabric.size(); ++x) {
    if (fabric.node(x).is_switch()) continue;
    const int leaf = fabric.node(x).ports[1].peer.node;
    const std::string host = ftree->coords[x];
    const std::string prefix = host.substr(1, host.rfind(',') - 1);
    EXPECT_EQ(ftree->coords[leaf], "((" + prefix + "),2)");
  }
}

TEST(Detect, MikantRecognizedWithLabels) {
  for (auto [k, n] : {std::pair{3, 3}, {4, 3}, {3, 4}, {8, 3}}) {
    const Fabric fabric = must(generate_mikant(k, n));
    const Detection detection = detect(fabric);
    const FamilyMatch* family = detection.find(Family::kMikant);
    ASSERT_NE(family, nullptr) << detection.unknown_reason;
    EXPECT_EQ(family->param("k"), k);
    EXPECT_EQ(family->param("n"), n);
    EXPECT_FALSE(detection.degraded()) << describe(fabric, detection.deviations().front());
    std::set<std::pair<bool, std::string>> distinct;  // switch and host labels may read alike
    for (int x = 0; x < fabric.size(); ++x) distinct.insert({fabric.node(x).is_switch(), family->coords[x]});
    EXPECT_EQ(static_cast<int>(distinct.size()), fabric.size());
  }
}

TEST(Detect, RandomFoldedClos) {
  for (auto [radix, leaves, levels] : {std::tuple{8, 16, 3}, {12, 24, 3}, {24, 96, 3}, {8, 32, 4}}) {
    const Fabric fabric = must(generate_rfc(radix, leaves, levels, 5));
    const Detection detection = detect(fabric);
    const FamilyMatch* family = detection.find(Family::kRfc);
    ASSERT_NE(family, nullptr) << detection.unknown_reason;
    EXPECT_EQ(family->param("radix"), radix);
    EXPECT_EQ(family->param("leaves"), leaves);
    EXPECT_EQ(family->param("levels"), levels);
    EXPECT_EQ(detection.find(Family::kPgft), nullptr);
    EXPECT_FALSE(detection.degraded());
  }
}

// A cable as the set of its two ends, named so that node order does not matter.
using NamedCable = std::set<std::pair<std::string, int>>;

std::set<std::set<std::string>> removed_pairs(const Fabric& fabric, const std::vector<RemovedCable>& cables) {
  std::set<std::set<std::string>> out;
  for (const RemovedCable& c : cables) out.insert({fabric.node(c.a.node).name, fabric.node(c.b.node).name});
  return out;
}

std::set<std::set<std::string>> missing_pairs(const Fabric& fabric, const Detection& detection) {
  std::set<std::set<std::string>> out;
  for (const Deviation& d : detection.deviations()) {
    EXPECT_EQ(d.kind, Deviation::Kind::kMissingCable) << describe(fabric, d);
    if (d.at.valid() && d.peer.valid()) out.insert({fabric.node(d.at.node).name, fabric.node(d.peer.node).name});
  }
  return out;
}

TEST(Detect, DegradedTreesListExactlyTheRemovedCables) {
  for (auto make : {+[] { return must(generate_ftree(8, 3)); }, +[] { return must(generate_kary(4, 3)); },
                    +[] { return must(generate_clos2(3, 9, 10)); }, +[] { return must(generate_mikant(3, 3)); },
                    +[] { return must(generate_pgft({{2, 3, 4}, {1, 2, 3}, {1, 1, 1}})); }}) {
    for (uint64_t seed : {1, 2, 3}) {
      Fabric fabric = make();
      Result<std::vector<RemovedCable>> removed = degrade(fabric, {3, -1, seed});
      ASSERT_TRUE(removed.ok());
      const Detection detection = detect(fabric);
      ASSERT_FALSE(detection.families.empty()) << detection.unknown_reason;
      EXPECT_TRUE(detection.degraded());
      EXPECT_EQ(detection.deviations().size(), 3u);
      EXPECT_EQ(missing_pairs(fabric, detection), removed_pairs(fabric, *removed));
      // Ports are named where the regular cabling tells them.
      std::set<NamedCable> reported, truth;
      for (const Deviation& d : detection.deviations())
        reported.insert({{fabric.node(d.at.node).name, d.at.port}, {fabric.node(d.peer.node).name, d.peer.port}});
      for (const RemovedCable& c : *removed)
        truth.insert({{fabric.node(c.a.node).name, c.a.port}, {fabric.node(c.b.node).name, c.b.port}});
      EXPECT_EQ(reported, truth);
    }
  }
}

// Random wiring has no labels: one lost cable leaves exactly one switch short
// of an up cable and one short of a down cable, so the cable is known.
TEST(Detect, DegradedRandomFoldedClosNamesTheLostCable) {
  for (uint64_t seed : {1, 2, 3, 4}) {
    Fabric fabric = must(generate_rfc(8, 16, 3, seed));
    Result<std::vector<RemovedCable>> removed = degrade(fabric, {1, -1, seed});
    ASSERT_TRUE(removed.ok());
    const Detection detection = detect(fabric);
    ASSERT_EQ(detection.families.front().family, Family::kRfc);
    ASSERT_EQ(detection.deviations().size(), 1u);
    const Deviation& d = detection.deviations().front();
    const RemovedCable& c = removed->front();
    EXPECT_EQ((std::set<PortRef>{d.at, d.peer}), (std::set<PortRef>{c.a, c.b}));
  }
}

TEST(Detect, FewerHostsIsDegradedFtree) {
  Fabric fabric = must(generate_ftree(8, 2));
  ASSERT_TRUE(degrade(fabric, {0, 2, 1}).ok());
  const Detection detection = detect(fabric);
  expect_family(detection, {Family::kFtree, {{"m", 8}, {"n", 2}}});
  EXPECT_EQ(detection.families.front().family, Family::kFtree);
  EXPECT_EQ(detection.deviations().size(), 8u * 2);  // two hosts missing on each of 8 leaves
}

std::string family_signature(const Fabric& fabric, const Detection& detection) {
  std::string out;
  for (const FamilyMatch& f : detection.families) {
    out += f.name();
    for (const FamilyParam& p : f.params)
      for (int v : p.values) out += " " + std::to_string(v);
    std::multiset<std::string> deviations;
    for (const Deviation& d : f.deviations) {
      std::string text = kind_name(d.kind);
      for (PortRef end : {d.at, d.peer}) text += end.valid() ? " " + fabric.node(end.node).name : " -";
      deviations.insert(text);
    }
    for (const std::string& d : deviations) out += "\n  " + d;
    out += "\n";
  }
  return out;
}

TEST(Detect, ShuffledFilesGiveTheSameAnswer) {
  for (auto make : {+[] { return must(generate_ftree(8, 3)); }, +[] { return must(generate_pgft({{2, 3, 4}, {1, 2, 3}, {1, 1, 1}})); },
                    +[] { return must(generate_kary(3, 3)); }, +[] { return must(generate_clos2(3, 9, 10)); },
                    +[] { return must(generate_mikant(3, 3)); }, +[] { return must(generate_rfc(8, 16, 3, 2)); }}) {
    Fabric fabric = make();
    ASSERT_TRUE(degrade(fabric, {2, -1, 9}).ok());
    const std::string expected = family_signature(fabric, detect(fabric));
    for (uint64_t seed : {1, 2}) {
      const Fabric shuffled = shuffle(fabric, seed, true);
      const Detection detection = detect(shuffled);
      EXPECT_EQ(family_signature(shuffled, detection), expected);
      // Same GUIDs, same labels: they follow cables, not lines or ports.
      if (detection.xgft) expect_labels_follow_cables(shuffled, detection);
    }
  }
}

// No family with levels, but connected: any-fabric, with the reason and the
// up*/down* roots (one switch of least eccentricity, the lowest GUID).
TEST(Detect, IrregularFabricIsAnyFabricAndSaysWhy) {
  Fabric fabric;
  const int a = *fabric.add_node(NodeType::kSwitch, "a", 4);
  const int b = *fabric.add_node(NodeType::kSwitch, "b", 4);
  const int c = *fabric.add_node(NodeType::kSwitch, "c", 4);
  for (int s : {a, b, c}) {
    const int host = *fabric.add_node(NodeType::kCa, "h" + std::to_string(s), 1);
    ASSERT_TRUE(fabric.connect({s, 1}, {host, 1}).ok());
  }
  ASSERT_TRUE(fabric.connect({a, 2}, {b, 2}).ok());  // a ring of leaves
  ASSERT_TRUE(fabric.connect({b, 3}, {c, 3}).ok());
  ASSERT_TRUE(fabric.connect({c, 4}, {a, 4}).ok());
  const Detection detection = detect(fabric);
  // A ring of 3 is a 1D torus (detect/torus.h) too, listed first.
  ASSERT_EQ(detection.families.size(), 2u);
  EXPECT_EQ(detection.families.front().family, Family::kTorus);
  EXPECT_EQ(detection.families.back().family, Family::kAnyFabric);
  EXPECT_TRUE(detection.unknown_reason.empty());
  EXPECT_NE(detection.not_clos_reason.find("joins two level-1 switches"), std::string::npos)
      << detection.not_clos_reason;
  EXPECT_EQ(detection.star.roots, std::vector<int>{a});  // no GUIDs: the first name
  EXPECT_NE(detection.star.why.find("least eccentricity"), std::string::npos) << detection.star.why;
}

// A cut between the middle and top levels of FT(16,3) leaves a leaf no
// up*/down* path to the cut top switch, from the whole top level as from its
// chassis: the root is then the switch of least eccentricity, found 64
// searches at a time over 320 switches; the same as one search per switch.
TEST(Detect, TheCentralRootOfACutFatTreeIsTheLeastEccentricSwitch) {
  Fabric fabric = *generate_ftree(16, 3);
  PortRef cut;
  for (int x = 0; x < fabric.size() && !cut.valid(); ++x)
    for (int p = 1; p <= fabric.node(x).num_ports; ++p)
      if (fabric.node(x).name.starts_with("L2-") && fabric.node(x).ports[p].peer.valid() &&
          fabric.node(fabric.node(x).ports[p].peer.node).name.starts_with("L3-")) {
        cut = {x, p};
        break;
      }
  ASSERT_TRUE(cut.valid());
  fabric.disconnect(cut);
  const Detection detection = detect(fabric);
  ASSERT_NE(detection.star.why.find("least eccentricity"), std::string::npos) << detection.star.why;
  std::vector<int> eccentricity(fabric.size(), -1);
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch()) continue;
    std::vector<int> hops(fabric.size(), -1), queue{x};
    hops[x] = 0;
    for (size_t head = 0; head < queue.size(); ++head)
      for (const Port& port : fabric.node(queue[head]).ports)
        if (port.peer.valid() && fabric.node(port.peer.node).is_switch() && hops[port.peer.node] < 0) {
          hops[port.peer.node] = hops[queue[head]] + 1;
          queue.push_back(port.peer.node);
        }
    eccentricity[x] = *std::ranges::max_element(hops);
  }
  int least = -1, equals = 0;
  for (int x = 0; x < fabric.size(); ++x) {
    if (eccentricity[x] < 0) continue;
    if (least < 0 || eccentricity[x] < eccentricity[least]) {
      least = x, equals = 1;
    } else if (eccentricity[x] == eccentricity[least]) {
      ++equals;
      if (precedes_by_guid(fabric, x, least)) least = x;
    }
  }
  EXPECT_EQ(detection.star.roots, std::vector<int>{least});
  EXPECT_NE(detection.star.why.find(std::to_string(eccentricity[least]) + " hops; " + std::to_string(equals) +
                                    " switches with it"),
            std::string::npos)
      << detection.star.why;
}

// On a chain of 131 switches the one of least eccentricity is the middle
// one, the second of the second batch of 64 searches.
TEST(Detect, TheCentralRootOfAChainIsItsMiddle) {
  Fabric fabric;
  std::vector<int> chain;
  for (int k = 0; k < 131; ++k) {
    chain.push_back(*fabric.add_node(NodeType::kSwitch, "s" + std::to_string(1000 + k), 3));
    const int host = *fabric.add_node(NodeType::kCa, "h" + std::to_string(1000 + k), 1);
    ASSERT_TRUE(fabric.connect({chain.back(), 1}, {host, 1}).ok());
    if (k > 0) {
      ASSERT_TRUE(fabric.connect({chain[k - 1], 3}, {chain[k], 2}).ok());
    }
  }
  const Detection detection = detect(fabric);
  ASSERT_NE(detection.star.why.find("least eccentricity (65 hops; 1 switch with it"), std::string::npos)
      << detection.star.why;
  EXPECT_EQ(detection.star.roots, std::vector<int>{chain[65]});
}

TEST(Detect, APhysicallyDisconnectedFabricHasNoFamilyNorRoots) {
  Fabric fabric;
  for (int part = 0; part < 2; ++part) {
    const int s = *fabric.add_node(NodeType::kSwitch, "s" + std::to_string(part), 2);
    const int h = *fabric.add_node(NodeType::kCa, "h" + std::to_string(part), 1);
    ASSERT_TRUE(fabric.connect({s, 1}, {h, 1}).ok());
  }
  const Detection detection = detect(fabric);
  EXPECT_TRUE(detection.families.empty());
  EXPECT_NE(detection.unknown_reason.find("physically disconnected"), std::string::npos) << detection.unknown_reason;
  EXPECT_TRUE(detection.star.roots.empty());
}

}  // namespace
}  // namespace ftclos
