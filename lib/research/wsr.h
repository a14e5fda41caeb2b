// Widest shortest routing (WSR), the fifth row of Yuan et al.'s Table I
// ("Oblivious routing in fat-tree based system area networks", §VI): with one
// unit of traffic per SD pair and every link at the same weight, routes are
// computed pair by pair in the order (0,1), (0,2), .., (0,N-1), (1,0), ..,
// (N-1,N-2); each pair takes, of its shortest paths, the one whose links have
// the smallest accumulated weight, then adds 1 to each of them.
//
// Our readings of that description:
// - Weights are per directed channel (node, egress port): a link carries one
//   unit each way (§II-B), so traffic one way does not make the other look busy.
// - CA links are channels too; every shortest path has both of a pair's, so
//   they never change a choice. CAs do not forward: a path is s, the switch
//   on s's port 1, switches, the switch on d's port 1, d. "Shortest" counts hops.
// - The common initial weight is 0 (equal-length paths make its value moot).
// - Ties go to the lowest egress port at each hop from the source: of the
//   lightest paths, the one whose port sequence is lexicographically smallest.
//
// WSR chooses a path per pair, so in general it has no LFT form under the
// path-bits contract (it would need a LID per source): an analysis-only
// router, measured with path_set_contention.h. (On Table I's four fat-trees,
// in the paper's order, its paths turn out to be D-mod-K's; `ftclos
// experiment oblivious-table1` checks that on every pair.)
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/fabric.h"
#include "core/status.h"
#include "research/path_set_contention.h"

namespace ftclos {

struct WsrRoutes {
  std::vector<int> hosts;           // pattern_hosts(): host number i is node hosts[i]
  std::vector<int> first_channel;   // per node: the channel index of its port 0; then the channel count
  std::vector<int64_t> path_begin;  // per pair in WSR order: where its channels start; then the end
  std::vector<int> channels;        // every pair's channels, source to destination

  int host_count() const { return static_cast<int>(hosts.size()); }
  int channel_count() const { return first_channel.empty() ? 0 : first_channel.back(); }
  int channel(PortRef port) const { return first_channel[port.node] + port.port; }
  /// The (node, egress port) of a channel index.
  PortRef port_of(int channel) const;
  /// Position of the pair (s, d), s != d, in WSR order: source-major, the source itself skipped.
  int64_t pair_index(int s, int d) const {
    return int64_t{s} * (host_count() - 1) + d - (d > s ? 1 : 0);
  }
  std::span<const int> path(int s, int d) const {
    const int64_t i = pair_index(s, d);
    return {channels.data() + path_begin[i], channels.data() + path_begin[i + 1]};
  }
  /// Per channel, the pairs routed over it (host numbers).
  PairsByChannel pairs_by_channel() const;
};

/// WSR on every ordered pair of `fabric`'s hosts. Fails when a host's port 1
/// is not cabled to a switch, when a pair has no path, or past 2^24 pairs
/// (every path is kept: on FT(16,3), ~40 bytes a pair, ~90 with pairs_by_channel).
Result<WsrRoutes> route_wsr(const Fabric& fabric);

}  // namespace ftclos
