#include "research/path_set_contention.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

namespace ftclos {
namespace {

// Whether `matching` is made of pairs from `pairs` and repeats no source and no destination.
bool is_matching_of(const std::vector<SdPair>& matching, const std::vector<SdPair>& pairs) {
  std::set<int> sources, destinations;
  for (const SdPair& p : matching) {
    if (std::ranges::find(pairs, p) == pairs.end()) return false;
    if (!sources.insert(p.source).second || !destinations.insert(p.destination).second) return false;
  }
  return true;
}

// The largest matching by trying every subset of the pairs.
int brute_force_matching(const std::vector<SdPair>& pairs) {
  int best = 0;
  for (uint32_t subset = 0; subset < (1u << pairs.size()); ++subset) {
    std::vector<SdPair> chosen;
    for (size_t i = 0; i < pairs.size(); ++i)
      if (subset >> i & 1) chosen.push_back(pairs[i]);
    if (static_cast<int>(chosen.size()) > best && is_matching_of(chosen, pairs)) best = static_cast<int>(chosen.size());
  }
  return best;
}

TEST(MaxPairMatching, MatchesBruteForceOnRandomBipartiteGraphs) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int hosts = 2 + trial % 7;  // sources and destinations drawn from the same host numbers
    std::uniform_int_distribution<int> host(0, hosts - 1);
    std::vector<SdPair> pairs(1 + trial % 14);
    for (SdPair& p : pairs) p = {host(rng), host(rng)};
    const std::vector<SdPair> matching = max_pair_matching(pairs);
    ASSERT_TRUE(is_matching_of(matching, pairs)) << "trial " << trial;
    ASSERT_EQ(static_cast<int>(matching.size()), brute_force_matching(pairs)) << "trial " << trial;
  }
}

// Greedy in input order takes (0,5) and then finds (1,5) and (2,5) blocked; the
// augmenting path 1->5, 0->6 gives the second pair.
TEST(MaxPairMatching, AugmentsPastAGreedyChoice) {
  const std::vector<SdPair> pairs{{0, 5}, {0, 6}, {1, 5}, {2, 5}};
  const std::vector<SdPair> matching = max_pair_matching(pairs);
  EXPECT_EQ(matching, (std::vector<SdPair>{{0, 6}, {1, 5}}));
}

TEST(MaxPairMatching, RepeatedPairsCountOnce) {
  EXPECT_EQ(max_pair_matching(std::vector<SdPair>{{3, 4}, {3, 4}, {3, 4}}).size(), 1u);
  EXPECT_TRUE(max_pair_matching({}).empty());
}

TEST(PathSetContention, ReportsEveryChannelAndTheFirstWorst) {
  PairsByChannel by_channel;
  // channel 0: one source to three destinations; 1: empty; 2: a 3-cycle of hosts; 3: as large as 2
  const std::vector<std::vector<SdPair>> channels{
      {{0, 1}, {0, 2}, {0, 3}}, {}, {{0, 1}, {1, 2}, {2, 0}}, {{4, 5}, {5, 6}, {6, 4}, {4, 6}}};
  by_channel.begin.push_back(0);
  for (const std::vector<SdPair>& pairs : channels) {
    by_channel.pairs.insert(by_channel.pairs.end(), pairs.begin(), pairs.end());
    by_channel.begin.push_back(by_channel.pairs.size());
  }
  const PathSetContention contention = path_set_contention(by_channel);
  EXPECT_EQ(contention.matching, (std::vector<int>{1, 0, 3, 3}));
  EXPECT_EQ(contention.worst_case, 3);
  EXPECT_EQ(contention.worst_channel, 2);
  EXPECT_EQ(contention.witness, (std::vector<SdPair>{{0, 1}, {1, 2}, {2, 0}}));
}

TEST(PathSetContention, NoPairsNoWorstChannel) {
  const PathSetContention contention = path_set_contention(PairsByChannel{{0, 0}, {}});
  EXPECT_EQ(contention.worst_case, 0);
  EXPECT_EQ(contention.worst_channel, -1);
}

}  // namespace
}  // namespace ftclos
