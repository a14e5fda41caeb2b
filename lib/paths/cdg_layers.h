// Virtual-lane layers by destination, DF-SSSP's way (Domke, Hoefler and
// Nagel, "Deadlock-free oblivious routing for arbitrary topologies", IPDPS
// 2011): the routes toward one destination LID form a tree, so their channel
// dependencies alone are acyclic; each destination goes on the lowest layer
// (SL) whose channel dependency graph stays acyclic with its dependencies
// added. With SL k on VL k, no VL then holds a credit loop. Shared by the
// detour layers of attached hosts (paths/detour_layers.h) and the `layered`
// scheme (schemes/scheme_layered.cc).
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "core/fabric.h"
#include "detect/star_roots.h"
#include "route/routing.h"

namespace ftclos {

/// Channels are switch egress ports that lead to a switch, numbered densely.
class Channels {
 public:
  /// With `star`'s order (when it ranks every node), channel dependency
  /// graphs start in up*/down*'s order (places()).
  Channels(const Fabric& fabric, const StarRoots& star);
  int count() const { return first_.back(); }
  /// The channel out of `port` of switch `x`, or -1 when it does not lead to a switch.
  int of(int x, int port) const {
    return port < 1 || port >= first_[x + 1] - first_[x] || !leads_to_switch_[first_[x] + port] ? -1 : first_[x] + port;
  }
  /// The ports of switch `x`.
  int ports(int x) const { return first_[x + 1] - first_[x] - 1; }
  /// The switch channel `c` leads to, the switch it leaves and the port it leaves by.
  int peer(int c) const { return peer_[c]; }
  int from(int c) const { return from_[c]; }
  int port(int c) const { return c - first_[from_[c]]; }
  /// The switches, ascending.
  const std::vector<int>& switches() const { return switches_; }
  /// A place for every channel in which every turn up*/down* allows leads
  /// forward: up channels first, from the bottom up, then down channels
  /// from the top down (the channel numbers where `star` ranks no node).
  /// Tree routes turn down-up rarely, so a layer that starts so searches
  /// rarely (AcyclicLayer).
  const std::vector<int>& places() const { return places_; }

 private:
  // Every port of a switch has a number (the ports that lead to no switch
  // too): a channel is first_[x] + port, read from tables, not the fabric
  // (dependencies_toward runs for every LID and switch).
  std::vector<int> first_;
  std::vector<uint8_t> leads_to_switch_;  // by channel number
  std::vector<int> peer_;                 // by channel number: the switch it leads to
  std::vector<int> from_;                 // by channel number: the switch it leaves
  std::vector<int> switches_;
  std::vector<int> places_;
};

/// One channel dependency: a packet holding the first channel waits for the second.
using Dependency = std::pair<int, int>;

/// The dependencies of every route to `lid` in `lfts`: channel x->y, then
/// y's channel for the same LID. Every switch's entry counts, used or not
/// (conservative).
std::vector<Dependency> dependencies_toward(const Lfts& lfts, const Channels& channels, int lid);

/// dependencies_toward for each of `lids` in turn, handed to `take` (false:
/// stop), read from the tables a block of LIDs at a time: a switch's entries
/// for the block share a cache line, where one LID at a time reads one line
/// of every table.
void for_each_dependencies(const Lfts& lfts, const Channels& channels, const std::vector<int>& lids,
                           const std::function<bool(int lid, const std::vector<Dependency>& deps)>& take);
/// The dependencies toward every one of `lids`, together (read as
/// for_each_dependencies reads them): one layer's graph.
std::vector<Dependency> dependencies_toward(const Lfts& lfts, const Channels& channels, const std::vector<int>& lids);

/// One channel dependency graph kept acyclic, with a topological order kept
/// up to date as dependencies arrive (Marchetti-Spaccamela, Nanni and
/// Rohnert, "Maintaining a topological order under edge insertions", IPL
/// 1996): a dependency that agrees with the order costs nothing; one that
/// does not searches forward from its head among the channels placed up to
/// its tail, and what it meets moves just past the tail. The order is a
/// list with gapped keys, so a move costs the channels moved, not every
/// channel placed between head and tail (on a 10,080-host RFC's switch
/// routes, most of the layering's time).
class AcyclicLayer {
 public:
  explicit AcyclicLayer(int channels);
  /// Started in channels.places(): up*/down* dependencies cost no search.
  explicit AcyclicLayer(const Channels& channels) : AcyclicLayer(channels.places()) {}
  /// With the channels first placed as `places` says (a permutation: the
  /// place of every channel), any order being topological while the layer is
  /// empty: dependencies that agree with it then cost no search.
  explicit AcyclicLayer(std::vector<int> places);
  /// Adds `deps` unless together they close a cycle; returns whether it did.
  bool try_add(const std::vector<Dependency>& deps);

 private:
  uint64_t& known_word(const Dependency& dep, uint64_t& bit);
  bool add(const Dependency& dep);
  bool reaches_within(int from, int target, uint64_t upper);
  void move_past(int tail);
  void unlink(int c);
  void link_after(int at, int c);
  void renumber();

  std::vector<std::vector<int>> next_;
  std::vector<uint64_t> known_;  // the dependencies held, as bits (known_word)
  std::vector<Dependency> added_;  // try_add's, until it returns
  // The topological order: a list (per channel its neighbours in it, -1 at
  // the ends) and per channel a key that grows along it, with gaps.
  std::vector<uint64_t> key_;
  std::vector<int> before_, after_;
  int first_ = -1;
  std::vector<uint8_t> seen_;  // search marks, cleared after each search
  std::vector<int> forward_, stack_;  // the last search's channels, and its stack
};

/// Layers of channel dependency graphs, each kept acyclic.
class CdgLayers {
 public:
  explicit CdgLayers(int channels);
  /// Every layer opened in channels.places().
  explicit CdgLayers(const Channels& channels) : places_(channels.places()) {}

  /// Places `deps` on the lowest layer in [first, last] where they close no
  /// cycle, opening layers as needed; returns that layer, or -1 (nothing added).
  int place(const std::vector<Dependency>& deps, int first, int last);
  /// Layers opened so far (the highest tried + 1, counting from 0).
  int count() const { return static_cast<int>(layers_.size()); }

 private:
  std::vector<int> places_;  // where each layer starts its channels
  std::vector<AcyclicLayer> layers_;
};

}  // namespace ftclos
