// Exact worst-case contention of a routing given as explicit paths, one per
// SD pair: per channel, the maximum bipartite matching between the sources
// and the destinations of the pairs crossing it -- the most pairs of one
// permutation that can meet there (Towles and Dally) -- and the maximum over
// channels, which on a full fat-tree is the oblivious performance ratio
// (OPTU = baseload, Yuan et al. Corollary 1). The measure of audit.h's
// worst_case_contention, for routings that have no LFT form (wsr.h).
#pragma once

#include <compare>
#include <cstddef>
#include <span>
#include <vector>

namespace ftclos {

/// A source-destination pair of host numbers.
struct SdPair {
  int source = 0;
  int destination = 0;
  auto operator<=>(const SdPair&) const = default;
};

/// SD pairs grouped by channel: channel c carries pairs[begin[c] .. begin[c+1]).
struct PairsByChannel {
  std::vector<size_t> begin;  // one entry per channel, and the end
  std::vector<SdPair> pairs;

  int channels() const { return begin.empty() ? 0 : static_cast<int>(begin.size()) - 1; }
  std::span<const SdPair> of(int channel) const {
    return {pairs.data() + begin[channel], pairs.data() + begin[channel + 1]};
  }
};

/// A maximum matching of `pairs` read as a bipartite graph, sources x
/// destinations (Hopcroft-Karp): the largest subset in which no source and no
/// destination repeats, sorted. Repeated pairs are allowed and count once.
std::vector<SdPair> max_pair_matching(std::span<const SdPair> pairs);

struct PathSetContention {
  int worst_case = 0;           // max over channels of `matching`; 0 when no channel carries a pair
  int worst_channel = -1;       // the first channel reaching it
  std::vector<SdPair> witness;  // pairs of one permutation that all cross worst_channel
  std::vector<int> matching;    // per channel: the size of its maximum matching
};

PathSetContention path_set_contention(const PairsByChannel& by_channel);

}  // namespace ftclos
