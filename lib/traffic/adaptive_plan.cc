// NONBLOCKINGADAPTIVE plans and the top-select routing (adaptive_plan.h).
#include "traffic/adaptive_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace ftclos {
namespace {

// Base-n digits of a destination: [0] = p, [1 + j] = s_j.
std::vector<int> destination_digits(const ClosShape& shape, int node, int c) {
  std::vector<int> digits{shape.local[node]};
  for (int j = 0, v = shape.leaf[node]; j < c; ++j, v /= std::max(shape.n, 1)) digits.push_back(v % shape.n);
  return digits;
}

// The top switch (within its partition) a destination takes in partition k (1-based).
int partition_key(const std::vector<int>& digits, int k, int n) {
  return k == 1 ? digits[0] : ((digits[k - 1] - digits[0]) % n + n) % n;
}

// The smallest c >= 1 with n^c >= r.
int leaf_digits(int n, int r) {
  int c = 1;
  for (long reach = n; reach < r && n > 1; reach *= n) ++c;
  return c;
}

struct Slot {
  int configuration, partition, key;
  auto operator<=>(const Slot&) const = default;
};

// Fig. 4, lines 3-12, for the pairs of one source leaf (indices into `pairs`).
// Among partitions that route equally many pairs (Fig. 4 leaves the choice
// open) it takes the one needing the fewest top switches that earlier leaves
// do not already use, then the lowest.
void plan_leaf(const ClosShape& shape, int c, std::vector<int> pending, std::vector<PlannedPair>& pairs,
               std::vector<Slot>& slot_of, std::set<Slot>& in_use) {
  for (int configuration = 0; !pending.empty(); ++configuration) {
    std::vector<bool> used(c + 2, false);
    for (int round = 0; round <= c && !pending.empty(); ++round) {
      int best = -1, best_new = 0;
      std::map<int, int> best_pick;  // key -> pair index
      for (int k = 1; k <= c + 1; ++k) {
        if (used[k]) continue;
        std::map<int, int> pick;
        for (int i : pending)
          pick.try_emplace(partition_key(destination_digits(shape, pairs[i].destination, c), k, shape.n), i);
        int fresh = 0;
        for (const auto& [key, i] : pick) fresh += !in_use.contains({configuration, k, key});
        if (pick.size() > best_pick.size() || (pick.size() == best_pick.size() && fresh < best_new))
          best = k, best_new = fresh, best_pick = std::move(pick);
      }
      used[best] = true;
      for (const auto& [key, i] : best_pick) {
        pairs[i].configuration = configuration;
        pairs[i].partition = best;
        slot_of[i] = {configuration, best, key};
        in_use.insert(slot_of[i]);
        std::erase(pending, i);
      }
    }
  }
}

int port_to(const Fabric& fabric, int from, int to) {
  const Node& node = fabric.node(from);
  for (int p = 1; p <= node.num_ports; ++p)
    if (node.ports[p].peer.node == to) return p;
  return kNoPath;
}

}  // namespace

Result<ClosShape> clos_shape(const Fabric& fabric, const Detection& detection) {
  if (!detection.xgft || detection.xgft->shape.h != 2)
    return Status::Error("the plan needs a 2-level Clos ftree(n+m, r); this fabric is none");
  const XgftShape& s = detection.xgft->shape;
  if (s.w[0] != 1 || s.p[0] != 1 || s.p[1] != 1)
    return Status::Error("the plan needs single cables and one leaf per host");
  if (detection.degraded()) return Status::Error("the plan needs an intact 2-level Clos; this one is degraded");
  ClosShape shape{s.m[0], s.w[1], s.m[1], std::vector<int>(fabric.size(), -1), std::vector<int>(fabric.size(), -1),
                  std::vector<int>(fabric.size(), -1)};
  for (int x = 0; x < fabric.size(); ++x) {
    const std::vector<int>& d = detection.xgft->digits[x];
    if (d.size() != 2) return Status::Error(fmt::format("\"{}\" has no Clos label", fabric.node(x).name));
    switch (detection.levels.of[x]) {
      case 0: shape.local[x] = d[0]; shape.leaf[x] = d[1]; break;
      case 1: shape.leaf[x] = d[1]; break;
      case 2: shape.top[x] = d[1]; break;
      default: return Status::Error(fmt::format("\"{}\" is on no level of a 2-level Clos", fabric.node(x).name));
    }
  }
  return shape;
}

Result<AdaptivePlan> plan_nonblocking_adaptive(const ClosShape& shape,
                                               const std::vector<std::pair<int, int>>& permutation) {
  AdaptivePlan plan;
  plan.digits = leaf_digits(shape.n, shape.r);
  std::vector<bool> sends(shape.leaf.size(), false), receives(shape.leaf.size(), false);
  std::vector<std::vector<int>> by_leaf(shape.r);
  for (const auto& [s, d] : permutation) {
    if (shape.local[s] < 0 || shape.local[d] < 0) return Status::Error("a permutation pair names a switch");
    if (s == d) return Status::Error("a permutation pair sends to itself");
    if (sends[s] || receives[d]) return Status::Error("not a permutation: a source or destination appears twice");
    sends[s] = receives[d] = true;
    if (shape.leaf[s] != shape.leaf[d]) by_leaf[shape.leaf[s]].push_back(static_cast<int>(plan.pairs.size()));
    plan.pairs.push_back({s, d});
  }
  std::vector<Slot> slot_of(plan.pairs.size());
  std::set<Slot> in_use;
  for (const std::vector<int>& pending : by_leaf) plan_leaf(shape, plan.digits, pending, plan.pairs, slot_of, in_use);

  // Merge (lines 14-15) and number the slots in use.
  std::map<Slot, int> top_of;
  std::map<std::pair<int, int>, bool> partitions;
  for (size_t i = 0; i < plan.pairs.size(); ++i)
    if (plan.pairs[i].partition > 0) {
      top_of.emplace(slot_of[i], 0);
      partitions[{slot_of[i].configuration, slot_of[i].partition}] = true;
    }
  int next = 0;
  for (auto& [slot, top] : top_of) top = next++;
  plan.tops_used = next;
  plan.partitions_used = static_cast<int>(partitions.size());
  if (plan.tops_used > shape.m)
    return Status::Error(fmt::format("the plan needs {} top switches, the fabric has {}", plan.tops_used, shape.m));
  for (size_t i = 0; i < plan.pairs.size(); ++i)
    if (plan.pairs[i].partition > 0) plan.pairs[i].top = top_of.at(slot_of[i]);
  return plan;
}

Result<Lfts> top_select_lfts(const Fabric& fabric, const ClosShape& shape, const LidMap& lids) {
  std::vector<int> leaf_node(shape.r, -1), top_node(shape.m, -1);
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch()) continue;
    if (shape.top[x] >= 0) top_node[shape.top[x]] = x;
    else if (shape.leaf[x] >= 0) leaf_node[shape.leaf[x]] = x;
  }
  Lfts lfts;
  lfts.port.resize(fabric.size());
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch()) continue;
    std::vector<uint8_t>& row = lfts.port[x];
    row.assign(lids.max_lid + 1, kNoPath);
    for (int lid = 1; lid <= lids.max_lid; ++lid) {
      const int owner = lids.owner[lid];
      if (owner < 0) continue;
      if (owner == x) {
        row[lid] = 0;
        continue;
      }
      const bool to_ca = !fabric.node(owner).is_switch();
      const int owner_leaf = shape.leaf[owner];  // -1 for a top switch
      int next = -1;
      if (shape.top[x] >= 0) {
        next = owner_leaf >= 0 ? leaf_node[owner_leaf] : -1;  // tops reach leaves and CAs only
      } else if (to_ca && owner_leaf == shape.leaf[x]) {
        next = owner;
      } else {
        const int offset = to_ca ? lid - lids.base[owner] : 0;
        next = owner_leaf >= 0 ? top_node[offset % shape.m] : owner;
      }
      if (next >= 0) row[lid] = static_cast<uint8_t>(port_to(fabric, x, next));
    }
  }
  return lfts;
}

Result<std::vector<std::pair<int, int>>> parse_permutation(const Fabric& fabric, const std::string& text,
                                                           const std::string& source) {
  std::vector<std::pair<int, int>> pairs;
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    // Names are words, or quoted strings as ibnetdiscover writes them.
    std::vector<std::string> names;
    std::istringstream words(line);
    for (char c; words >> std::ws && words.get(c);) {
      std::string name;
      if (c == '"') std::getline(words, name, '"');
      else words.unget(), words >> name;
      names.push_back(name);
    }
    if (names.empty()) continue;
    if (names.size() != 2)
      return Status::Error(fmt::format("{}:{}: expected `source destination`, got {} names", source, number,
                                       names.size()));
    std::pair<int, int> pair;
    for (int i = 0; i < 2; ++i) {
      const std::optional<int> node = fabric.find(names[i]);
      if (!node) return Status::Error(fmt::format("{}:{}: no node \"{}\" in the fabric", source, number, names[i]));
      if (fabric.node(*node).is_switch())
        return Status::Error(fmt::format("{}:{}: \"{}\" is a switch, not a CA", source, number, names[i]));
      (i == 0 ? pair.first : pair.second) = *node;
    }
    pairs.push_back(pair);
  }
  return pairs;
}

}  // namespace ftclos
