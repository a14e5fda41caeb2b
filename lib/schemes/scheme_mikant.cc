// MiKANT routing: Li and Chu's Algorithm 1 (§IV) on the labels fit_mikant
// found, destination-based, one SL per destination group, and detours around
// missing cables. Ports come from the cabling, never from the paper's port
// labels.
//
// Algorithm 1 at switch W = <G_W, L_W, D> toward host T = <G_T, C>: while W is
// no ancestor of T, go up (stage L_W -> L_W + 1) to the neighbour whose
// D_{L_W} is T's (at the top stage n-2 that neighbour is across the side
// cables, in the other group); from an ancestor go down to the child on T's
// side (at stage 0, to the host by C_{n-1}). A switch LID is routed the same
// way: up until the digits match, then down to the switch's stage. All 2^lmc
// LIDs of a CA share one route.
//
// Deadlock freedom: same-group traffic of group G crosses G -> !G -> G at the
// top, other-group traffic crosses !G -> G once; on one SL the side cables
// are used in both orders. (Algorithm 1 alone gets away with it on an intact
// fabric: its second crossing is always the straight cable <G,n-2,D> -
// <!G,n-2,D>, after which nothing crosses again. A detour around a missing
// straight cable crosses twice over other cables, and then one SL has
// cycles; the tests show both.) So dest_sl[lid] = the destination's group,
// for SL 0/1 -> VL 0/1. Every path on SL G climbs in either group, crosses
// G -> !G only right before !G -> G, and descends in G: a fixed channel order,
// so each SL's dependency graph is acyclic. Detours keep that shape: each
// switch takes the shortest path of the shape, Algorithm 1's hop when it is
// one of the shortest.
//
// Some switches have no path of the shape: toward a switch LID whose digits
// below its stage differ from theirs (only a descent changes those), and
// behind dead cables. They take the shortest detour to a switch that has one.
// CA traffic never needs that on an intact fabric. On a degraded one a leaf
// may detour toward a switch LID (management traffic), but never toward a
// CA LID: that entry stays kNoPath and is noted, so CA-to-CA traffic always
// keeps the order.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <limits>

#include "schemes/schemes.h"

namespace ftclos {
namespace {

constexpr int kInf = std::numeric_limits<int>::max() / 2;

int step(int cost) { return cost >= kInf ? kInf : cost + 1; }

struct Link {
  int port = 0;
  int peer = -1;
};

// A switch's live cables to switches, by where they lead.
struct Links {
  std::vector<Link> up, down, cross;
};

// The routes of all switches toward one destination switch (a host's leaf).
struct Column {
  std::vector<Link> next;       // per switch; peer -1 when there is no route
  std::vector<bool> algorithm;  // the hop is Algorithm 1's own
  std::vector<bool> detour;     // the hop leaves the up/across/down order
};

class MikantRouter {
 public:
  MikantRouter(const Fabric& fabric, const MikantLabels& labels, const LidMap& lids)
      : fabric_(fabric), labels_(labels), lids_(lids), top_(labels.n - 2) {}

  Result<Routing> run() {
    if (Status status = index_labels(); !status.ok()) return status;
    index_links();
    Routing out;
    fill(out);
    return out;
  }

 private:
  int group(int x) const { return labels_.group[x]; }
  int stage(int x) const { return labels_.stage[x]; }
  int digit(long code, int i) const { return static_cast<int>(code / pow_[i] % labels_.k); }
  long with_digit(long code, int i, int value) const { return code + (value - digit(code, i)) * pow_[i]; }
  long key(int g, int l, long code) const { return (static_cast<long>(g) * (top_ + 1) + l) * pow_[top_ + 1] + code; }
  int at(int g, int l, long code) const { return node_at_[key(g, l, code)]; }

  Status index_labels() {
    if (labels_.k < 1 || labels_.n < 2) return Status::Error("no MiKANT labels");
    pow_.assign(labels_.n, 1);
    for (int i = 1; i < labels_.n; ++i) pow_[i] = pow_[i - 1] * labels_.k;
    node_at_.assign(2 * (top_ + 1) * pow_[top_ + 1], -1);
    code_.assign(fabric_.size(), 0);
    for (int x = 0; x < fabric_.size(); ++x) {
      if (!fabric_.node(x).is_switch()) continue;
      const std::vector<int>& d = labels_.digits[x];
      if (d.size() != static_cast<size_t>(top_ + 1) || group(x) < 0 || stage(x) < 0)
        return Status::Error(fmt::format("switch \"{}\" has no MiKANT label", fabric_.node(x).display_name()));
      for (int i = 0; i <= top_; ++i) code_[x] += d[i] * pow_[i];
      node_at_[key(group(x), stage(x), code_[x])] = x;
    }
    return Status::Ok();
  }

  // Classifies every cable by the labels; sorted by peer label so that the
  // routes do not depend on port numbering.
  void index_links() {
    links_.assign(fabric_.size(), {});
    has_ca_.assign(fabric_.size(), false);
    by_stage_.assign(2, std::vector<std::vector<int>>(top_ + 1));
    for (int w = 0; w < fabric_.size(); ++w) {
      const Node& node = fabric_.node(w);
      if (!node.is_switch()) continue;
      switches_.push_back(w);
      by_stage_[group(w)][stage(w)].push_back(w);
      for (int p = 1; p <= node.num_ports; ++p) {
        const int y = node.ports[p].peer.node;
        if (y < 0) continue;
        if (!fabric_.node(y).is_switch()) {
          has_ca_[w] = true;
        } else if (group(y) == group(w) && stage(y) == stage(w) + 1) {
          links_[w].up.push_back({p, y});
        } else if (group(y) == group(w) && stage(y) == stage(w) - 1) {
          links_[w].down.push_back({p, y});
        } else if (group(y) != group(w) && stage(y) == top_ && stage(w) == top_) {
          links_[w].cross.push_back({p, y});
        }  // fit_mikant accepts no other switch cables
      }
      auto by_label = [&](const Link& a, const Link& b) {
        return std::pair(key(group(a.peer), stage(a.peer), code_[a.peer]), a.port) <
               std::pair(key(group(b.peer), stage(b.peer), code_[b.peer]), b.port);
      };
      for (std::vector<Link>* list : {&links_[w].up, &links_[w].down, &links_[w].cross})
        std::ranges::sort(*list, by_label);
    }
  }

  // Algorithm 1's next switch from any switch w toward switch x (-1 when
  // that switch is missing). The paper only runs it on paths from hosts,
  // where the digits below w's stage are already x's. From other switches
  // they may differ, and only a descent reaches the stage that changes them.
  int algorithm_next(int w, int x) const {
    const int l = stage(w), lx = stage(x);
    const long dw = code_[w], dx = code_[x];
    const long low = pow_[std::min(l, lx)];
    const bool wrong_low = dw % low != dx % low;
    const bool ancestor = group(w) == group(x) && l > lx && dw / pow_[l] == dx / pow_[l];
    if (wrong_low || ancestor) return at(group(w), l - 1, with_digit(dw, l - 1, digit(dx, l - 1)));
    if (l < top_) return at(group(w), l + 1, with_digit(dw, l, digit(dx, l)));
    return at(1 - group(w), l, with_digit(dw, l, digit(dx, l)));
  }

  // Shortest up/across/down costs toward x over the live cables: down_ counts
  // descents in x's group, total_ whole paths of the deadlock-free shape.
  void costs_to(int x) {
    const int g = group(x);
    down_.assign(fabric_.size(), kInf);
    total_.assign(fabric_.size(), kInf);
    down_[x] = 0;
    for (int l = stage(x) + 1; l <= top_; ++l)
      for (int w : by_stage_[g][l])
        for (const Link& link : links_[w].down) down_[w] = std::min(down_[w], step(down_[link.peer]));
    // Across into x's group only toward a descent; across out of it only to return.
    for (int v : by_stage_[1 - g][top_])
      for (const Link& link : links_[v].cross) total_[v] = std::min(total_[v], step(down_[link.peer]));
    for (int w : by_stage_[g][top_]) {
      total_[w] = down_[w];
      for (const Link& link : links_[w].cross) total_[w] = std::min(total_[w], step(total_[link.peer]));
    }
    for (int l = top_ - 1; l >= 0; --l)
      for (int side : {0, 1})
        for (int w : by_stage_[side][l]) {
          total_[w] = side == g ? down_[w] : kInf;
          for (const Link& link : links_[w].up) total_[w] = std::min(total_[w], step(total_[link.peer]));
        }
  }

  // Algorithm 1's link among the equally good ones; otherwise one picked by
  // the destination's label, to spread destinations over the alternatives.
  Link pick(const std::vector<Link>& candidates, int wanted, int x) const {
    for (const Link& link : candidates)
      if (link.peer == wanted) return link;
    return candidates[code_[x] % candidates.size()];
  }

  // The routes of the deadlock-free shape; switches without one get none.
  Column column_to(int x) {
    costs_to(x);
    Column column{std::vector<Link>(fabric_.size()), std::vector<bool>(fabric_.size(), false),
                  std::vector<bool>(fabric_.size(), false)};
    for (int w : switches_) {
      if (w == x || total_[w] >= kInf) continue;
      candidates_.clear();
      auto keep = [&](const std::vector<Link>& links, const std::vector<int>& cost, int wanted_cost) {
        for (const Link& link : links)
          if (cost[link.peer] == wanted_cost) candidates_.push_back(link);
      };
      if (group(w) == group(x) && down_[w] < kInf) keep(links_[w].down, down_, down_[w] - 1);
      else if (stage(w) == top_) keep(links_[w].cross, group(w) == group(x) ? total_ : down_, total_[w] - 1);
      else keep(links_[w].up, total_, total_[w] - 1);
      const int wanted = algorithm_next(w, x);
      column.next[w] = pick(candidates_, wanted, x);
      column.algorithm[w] = column.next[w].peer == wanted;
    }
    return column;
  }

  // Switches without a route head for the nearest switch with one (BFS over
  // all live cables). Without `through_leaves` leaves are neither detoured
  // nor passed: CA traffic then keeps the deadlock-free order or has no route.
  void add_detours(int x, bool through_leaves, Column& column) {
    auto routed = [&](int w) { return w == x || column.next[w].peer >= 0; };
    if (std::ranges::all_of(switches_, routed)) return;
    std::vector<int> hops(fabric_.size(), kInf);
    std::deque<int> queue;
    for (int w : switches_)
      if (routed(w)) hops[w] = 0, queue.push_back(w);
    auto each_link = [&](int w, auto&& visit) {
      for (const std::vector<Link>* list : {&links_[w].up, &links_[w].down, &links_[w].cross})
        for (const Link& link : *list) visit(link);
    };
    while (!queue.empty()) {
      const int u = queue.front();
      queue.pop_front();
      each_link(u, [&](const Link& link) {
        if (hops[link.peer] < kInf || (has_ca_[link.peer] && !through_leaves)) return;
        hops[link.peer] = hops[u] + 1;
        queue.push_back(link.peer);
      });
    }
    for (int w : switches_) {
      if (hops[w] == 0 || hops[w] >= kInf) continue;
      candidates_.clear();
      each_link(w, [&](const Link& link) {
        if (hops[link.peer] == hops[w] - 1) candidates_.push_back(link);
      });
      const int wanted = algorithm_next(w, x);
      column.next[w] = pick(candidates_, wanted, x);
      column.algorithm[w] = column.next[w].peer == wanted;
      column.detour[w] = true;
    }
  }

  // LIDs by the switch they are routed toward: a switch's own, and its CAs'.
  std::vector<std::vector<int>> lids_by_target() const {
    std::vector<std::vector<int>> out(fabric_.size());
    for (int lid = 1; lid <= lids_.max_lid; ++lid) {
      const int owner = lids_.owner[lid];
      if (owner < 0) continue;
      const PortRef leaf = fabric_.node(owner).is_switch() ? PortRef{owner, 0} : fabric_.peer({owner, 1});
      if (leaf.valid() && fabric_.node(leaf.node).is_switch()) out[leaf.node].push_back(lid);
    }
    return out;
  }

  struct Tally {
    int detours = 0, leaf_detours = 0, unreachable = 0;
    std::string example;  // one unreachable leaf entry
  };

  void fill(Routing& out) {
    const int lid_count = lids_.max_lid + 1;
    out.lfts.port.assign(fabric_.size(), {});
    out.path_bits.assign(fabric_.size(), 0);
    out.dest_sl.assign(lid_count, 0);
    for (int w : switches_) out.lfts.port[w].assign(lid_count, kNoPath);
    for (int lid = 1; lid < lid_count; ++lid)
      if (lids_.owner[lid] >= 0) out.dest_sl[lid] = static_cast<uint8_t>(group(lids_.owner[lid]));

    Tally tally;
    const std::vector<std::vector<int>> targets = lids_by_target();
    for (int x = 0; x < fabric_.size(); ++x) {
      if (targets[x].empty()) continue;
      // Switch LIDs carry management traffic only; CA LIDs the data.
      Column to_switch = column_to(x);
      Column to_cas;
      if (has_ca_[x]) {
        to_cas = to_switch;
        add_detours(x, false, to_cas);
      }
      add_detours(x, true, to_switch);
      for (int lid : targets[x]) {
        const int owner = lids_.owner[lid];
        const Column& column = owner == x ? to_switch : to_cas;
        for (int w : switches_) {
          uint8_t& port = out.lfts.port[w][lid];
          if (w == x) {
            port = static_cast<uint8_t>(owner == x ? 0 : fabric_.peer({owner, 1}).port);
          } else if (column.next[w].peer >= 0) {
            port = static_cast<uint8_t>(column.next[w].port);
            out.rerouted += !column.algorithm[w];
            (has_ca_[w] ? tally.leaf_detours : tally.detours) += column.detour[w];
          } else if (has_ca_[w] && tally.unreachable++ == 0) {
            tally.example = fmt::format(" (e.g. \"{}\" to LID {})", fabric_.node(w).display_name(), lid);
          }
        }
      }
    }
    add_notes(tally, out);
  }

  void add_notes(const Tally& tally, Routing& out) const {
    out.notes.push_back(fmt::format("MiKANT({}, {}), Algorithm 1 of Li and Chu; SL = destination group, "
                                    "map SL 0/1 to VL 0/1",
                                    labels_.k, labels_.n));
    if (out.rerouted > 0)
      out.notes.push_back(
          fmt::format("{} entries differ from Algorithm 1's hop (dead or miswired cables)", out.rerouted));
    if (tally.detours > 0)
      out.notes.push_back(fmt::format("{} entries of switches without hosts leave the up/across/down order; "
                                      "only switch-originated traffic uses them",
                                      tally.detours));
    if (tally.leaf_detours > 0)
      out.notes.push_back(fmt::format("{} leaf entries toward switch LIDs leave the up/across/down order "
                                      "(management traffic to switches only)",
                                      tally.leaf_detours));
    if (tally.unreachable > 0)
      out.notes.push_back(fmt::format("{} leaf entries toward CA LIDs have no deadlock-free route{}",
                                      tally.unreachable, tally.example));
  }

  const Fabric& fabric_;
  const MikantLabels& labels_;
  const LidMap& lids_;
  const int top_;  // the top stage, n - 2
  std::vector<long> pow_;      // k^i
  std::vector<int> node_at_;   // by key(): the switch with the label, or -1
  std::vector<long> code_;     // per switch: D as a base-k number
  std::vector<Links> links_;
  std::vector<bool> has_ca_;
  std::vector<std::vector<std::vector<int>>> by_stage_;  // [group][stage] -> switches
  std::vector<int> switches_;
  std::vector<int> down_, total_;
  std::vector<Link> candidates_;  // scratch for column_to and add_detours
};

class MikantScheme : public Scheme {
 public:
  std::string_view name() const override { return "mikant"; }

  Status applies(const Detection& detection) const override {
    return detection.mikant ? Status::Ok() : Status::Error("the fabric is no MiKANT");
  }

 protected:
  Result<Routing> route_tables(const RoutingInput& input) const override {
    if (Status status = applies(input.detection); !status.ok()) return status;
    return MikantRouter(input.fabric, *input.detection.mikant, input.lids).run();
  }
};

}  // namespace

std::unique_ptr<Scheme> make_mikant_scheme() { return std::make_unique<MikantScheme>(); }

}  // namespace ftclos
