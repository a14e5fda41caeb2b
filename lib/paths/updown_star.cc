#include "paths/updown_star.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <vector>

#include "paths/updown_reach.h"

namespace ftclos {
namespace {

constexpr int kFar = INT_MAX / 2;

struct Cable {
  int port;
  int peer;  // switch index
  bool up;
};

// The switches up*/down* routes, their cables, and the per-target distances.
class StarRouter {
 public:
  explicit StarRouter(const RoutingInput& input) : in_(input), star_(input.detection.star) {
    const Fabric& fabric = in_.fabric;
    index_.assign(fabric.size(), -1);
    for (int x = 0; x < fabric.size(); ++x)
      if (fabric.node(x).is_switch() && star_.rank[x] >= 0) index_[x] = static_cast<int>(switches_.size()), switches_.push_back(x);
    // Top of the order first: every upward neighbour before the switches below it.
    std::ranges::sort(switches_, [&](int a, int b) { return star_.up(fabric, b, a); });
    for (size_t i = 0; i < switches_.size(); ++i) index_[switches_[i]] = static_cast<int>(i);
    cables_.resize(switches_.size());
    for (size_t i = 0; i < switches_.size(); ++i) {
      const Node& node = fabric.node(switches_[i]);
      for (int p = 1; p <= node.num_ports; ++p) {
        const PortRef peer = node.ports[p].peer;
        if (!peer.valid() || index_[peer.node] < 0) continue;
        cables_[i].push_back({p, index_[peer.node], star_.up(fabric, switches_[i], peer.node)});
      }
    }
    // Each switch's ports, densely: the loads of one LID's route stay in cache.
    load_base_.resize(switches_.size());
    size_t ports = 0;
    for (size_t i = 0; i < switches_.size(); ++i) {
      load_base_[i] = ports;
      ports += fabric.node(switches_[i]).num_ports + 1;
    }
    load_.assign(ports, 0);
    down_.resize(switches_.size());
    legal_.resize(switches_.size());
    plain_.resize(switches_.size());
    first_candidate_.resize(switches_.size() + 1);
  }

  // Every LID when `routed` is empty, else the LIDs it marks.
  Routing route(const std::vector<bool>& routed) {
    Routing routing;
    routing.path_bits.assign(in_.fabric.size(), 0);
    const LidMap& lids = in_.lids;
    routing.lfts.port.resize(in_.fabric.size());
    for (int x : switches_) routing.lfts.port[x].assign(lids.max_lid + 1, kNoPath);
    // Offset 0 of every target first, balanced as at LMC 0 (every host that
    // does not know its path bits sends there), then the further offsets,
    // a target's together so they spread.
    const std::vector<Exit> exits = exits_by_lid(in_.fabric, lids);
    std::vector<std::vector<std::vector<int>>> lids_at(2, std::vector<std::vector<int>>(switches_.size()));
    for (size_t lid = 1; lid < exits.size(); ++lid)
      if (exits[lid].target >= 0 && index_[exits[lid].target] >= 0 && (routed.empty() || routed[lid]))
        lids_at[lids.offset_of(static_cast<int>(lid)) > 0][index_[exits[lid].target]].push_back(lid);
    for (const std::vector<std::vector<int>>& round : lids_at)
      for (size_t t = 0; t < switches_.size(); ++t) {
        if (round[t].empty()) continue;
        distances_to(static_cast<int>(t));
        for (int lid : round[t]) route_lid(lid, exits[lid], routing.lfts);
      }
    routing.notes.push_back(fmt::format("up*/down* from {} root{}: {}", star_.roots.size(),
                                        star_.roots.size() == 1 ? "" : "s", star_.why));
    if (detoured_ > 0)
      routing.notes.push_back(fmt::format("{} switch-LID entries of switches without CAs take a shortest path: no "
                                          "legal path joins them (management traffic only)", detoured_));
    if (stranded_ > 0)
      routing.notes.push_back(fmt::format("{} entries toward CAs, at switches no CA's legal route crosses, have no "
                                          "legal path (kNoPath)", stranded_));
    return routing;
  }

 private:
  // down_[x]: hops from x to t going only down; legal_[x]: hops on a shortest
  // legal path (down_ where that is finite); plain_[x]: hops over any cables.
  void distances_to(int t) {
    bfs(t, down_, [](const Cable& c) { return c.up; });  // x reaches cur down when cur -> x leads up
    for (size_t x = 0; x < switches_.size(); ++x) {
      legal_[x] = down_[x];
      if (legal_[x] < kFar) continue;
      for (const Cable& c : cables_[x])
        if (c.up) legal_[x] = std::min(legal_[x], legal_[c.peer] + 1);  // peers above come first
    }
    plain_ready_ = false;
    target_ = t;
    collect_candidates();
  }

  template <typename Allowed>
  void bfs(int t, std::vector<int>& hops, Allowed allowed) {
    std::ranges::fill(hops, kFar);
    queue_.assign(1, t);  // first in, first out: queue_[head] next
    hops[t] = 0;
    for (size_t head = 0; head < queue_.size(); ++head) {
      const int cur = queue_[head];
      for (const Cable& c : cables_[cur])
        if (allowed(c) && hops[c.peer] == kFar) hops[c.peer] = hops[cur] + 1, queue_.push_back(c.peer);
    }
  }

  void route_lid(int lid, const Exit& exit, Lfts& lfts) {
    const bool ca = exit.port != 0;
    for (size_t x = 0; x < switches_.size(); ++x) {
      uint8_t& entry = lfts.port[switches_[x]][lid];
      if (static_cast<int>(x) == target_) {
        entry = static_cast<uint8_t>(exit.port);
        continue;
      }
      const int best = least_loaded(static_cast<int>(x), ca);
      if (best < 0) continue;
      entry = static_cast<uint8_t>(best);
      if (ca) ++load_[load_base_[x] + best];
    }
  }

  // The ports of every switch on its shortest legal paths to the target,
  // once per target: the target's LIDs choose among them.
  void collect_candidates() {
    candidates_.clear();
    for (size_t x = 0; x < switches_.size(); ++x) {
      first_candidate_[x] = static_cast<int>(candidates_.size());
      for (const Cable& c : cables_[x])
        if (down_[x] < kFar ? !c.up && down_[c.peer] == down_[x] - 1
                            : legal_[x] < kFar && c.up && legal_[c.peer] == legal_[x] - 1)
          candidates_.push_back(c.port);
    }
    first_candidate_[switches_.size()] = static_cast<int>(candidates_.size());
  }

  // The least-loaded port of switch x on a shortest legal path to the
  // target; for a switch LID without one, on a shortest path; -1 if none.
  int least_loaded(int x, bool ca) {
    const int* load = &load_[load_base_[x]];
    int best = -1;
    for (int i = first_candidate_[x]; i < first_candidate_[x + 1]; ++i)
      if (best < 0 || load[candidates_[i]] < load[best]) best = candidates_[i];
    if (best >= 0) return best;
    if (!ca) {
      if (!plain_ready_) bfs(target_, plain_, [](const Cable&) { return true; }), plain_ready_ = true;
      for (const Cable& c : cables_[x])
        if (plain_[c.peer] == plain_[x] - 1 && (best < 0 || load[c.port] < load[best])) best = c.port;
      detoured_ += best >= 0;
    } else {
      ++stranded_;
    }
    return best;
  }

  const RoutingInput& in_;
  const StarRoots& star_;
  std::vector<int> switches_;               // top of the order first
  std::vector<int> index_;                  // per node: position in switches_, or -1
  std::vector<std::vector<Cable>> cables_;  // by switch index, ascending ports
  std::vector<int> load_;                   // [load_base_[switch index] + port]: CA LIDs routed out of it
  std::vector<size_t> load_base_;
  std::vector<int> queue_;                  // bfs
  std::vector<int> down_, legal_, plain_;   // by switch index, toward target_
  std::vector<int> first_candidate_;        // by switch index (one more): where its candidates start
  std::vector<int> candidates_;             // ports, toward target_
  bool plain_ready_ = false;
  int target_ = -1;
  long detoured_ = 0, stranded_ = 0;
};

}  // namespace

Result<Routing> route_updown_star(const RoutingInput& input) { return route_updown_star(input, std::vector<bool>{}); }

Result<Routing> route_updown_star(const RoutingInput& input, const std::vector<bool>& routed) {
  if (input.detection.star.roots.empty())
    return Status::Error("up*/down*: no roots (a physically disconnected fabric, or no switch)");
  // The whole tables are shared by the input's copies; a subset is routed for its caller alone.
  if (!input.memo || !routed.empty()) return StarRouter(input).route(routed);
  if (!input.memo->updown_star) input.memo->updown_star = StarRouter(input).route(routed);
  return *input.memo->updown_star;
}

}  // namespace ftclos
