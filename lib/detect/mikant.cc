#include "detect/mikant.h"

#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "detect/xgft.h"

namespace ftclos {
namespace {

class MikantFitter {
 public:
  MikantFitter(const Fabric& fabric, const Levels& levels) : fabric_(fabric), levels_(levels) {}

  Result<MikantFit> run() {
    n_ = levels_.height + 1;
    labels().n = n_;
    labels().group.assign(fabric_.size(), -1);
    labels().stage.assign(fabric_.size(), -1);
    labels().digits.assign(fabric_.size(), {});
    if (Status s = check_cabling(); !s.ok()) return s;
    if (Status s = split_groups(); !s.ok()) return s;
    if (Status s = label_group_zero(); !s.ok()) return s;
    label_group_one();
    label_hosts();
    find_deviations();
    return std::move(fit_);
  }

 private:
  MikantLabels& labels() { return fit_.labels; }
  int level(int x) const { return levels_.of[x]; }
  bool is_top(int x) const { return fabric_.node(x).is_switch() && level(x) == n_ - 1; }

  // Switch cables join adjacent levels, except side cables between tops.
  Status check_cabling() {
    bool side = false;
    for (int x = 0; x < fabric_.size(); ++x) {
      if (!fabric_.node(x).is_switch()) continue;
      if (level(x) < 1) return Status::Error(fmt::format("switch \"{}\" has no path to any CA", fabric_.node(x).display_name()));
      for (const Port& port : fabric_.node(x).ports) {
        if (!port.peer.valid() || !fabric_.node(port.peer.node).is_switch()) continue;
        const int step = level(port.peer.node) - level(x);
        if (step == 0 && is_top(x)) side = true;
        else if (step != 1 && step != -1)
          return Status::Error(fmt::format("switch \"{}\" has a cable that skips levels or runs sideways below the top",
                                           fabric_.node(x).display_name()));
      }
    }
    if (!side) return Status::Error("no cables between top switches, so no mirrored halves");
    return Status::Ok();
  }

  // Without the side cables each group falls apart into k subtrees; the side
  // cables only join subtrees of different groups, so 2-colour them.
  Status split_groups() {
    const int count = fabric_.size();
    std::vector<int> parent(count);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int x) {
      while (parent[x] != x) x = parent[x] = parent[parent[x]];
      return x;
    };
    for (int x = 0; x < count; ++x)
      for (const Port& port : fabric_.node(x).ports)
        if (port.peer.valid() && level(port.peer.node) != level(x)) parent[find(x)] = find(port.peer.node);
    std::map<int, std::vector<int>> side_neighbours;  // subtree -> subtrees
    int first = -1;
    for (int x = 0; x < count; ++x) {
      if (!fabric_.node(x).is_switch()) continue;
      if (first < 0 || precedes_by_guid(fabric_, x, first)) first = x;
      for (const Port& port : fabric_.node(x).ports)
        if (port.peer.valid() && is_top(x) && is_top(port.peer.node))
          side_neighbours[find(x)].push_back(find(port.peer.node));
    }
    std::map<int, int> colour{{find(first), 0}};
    std::vector<int> stack{find(first)};
    while (!stack.empty()) {
      const int t = stack.back();
      stack.pop_back();
      for (int u : side_neighbours[t]) {
        auto [it, added] = colour.emplace(u, 1 - colour[t]);
        if (added) stack.push_back(u);
        else if (it->second == colour[t]) return Status::Error("side cables join two switches of the same half");
      }
    }
    for (int x = 0; x < count; ++x) {
      auto it = colour.find(find(x));
      if (it == colour.end()) return Status::Error(fmt::format("\"{}\" is in neither half", fabric_.node(x).display_name()));
      labels().group[x] = it->second;
    }
    return Status::Ok();
  }

  // Group 0 with the group-1 tops above it is a k-ary n-tree (the paper's
  // remark after Fig. 3): label it as one, then read D off its digits.
  Status label_group_zero() {
    std::vector<bool> keep(fabric_.size());
    for (int x = 0; x < fabric_.size(); ++x) keep[x] = labels().group[x] == 0 || is_top(x);
    std::vector<int> index;
    const Fabric half = induced_subfabric(fabric_, keep, &index);
    Levels half_levels;
    half_levels.of.assign(half.size(), -1);
    for (int x = 0; x < fabric_.size(); ++x)
      if (index[x] >= 0) half_levels.of[index[x]] = level(x) + (labels().group[x] == 1 ? 1 : 0);
    half_levels.height = n_;
    Result<XgftFit> tree = fit_xgft(half, half_levels);
    if (!tree.ok()) return Status::Error("group 0 is no k-ary n-tree: " + tree.status().message());
    const XgftShape& shape = tree->labels.shape;
    labels().k = shape.m[n_ - 1];
    for (int i = 0; i < n_; ++i) {
      if (shape.m[i] > labels().k || shape.p[i] != 1 || (i > 0 && shape.w[i] > labels().k))
        return Status::Error(fmt::format("group 0 is PGFT m={} w={} p={}, not a k-ary n-tree", shape.m, shape.w, shape.p));
    }
    for (int x = 0; x < fabric_.size(); ++x) {
      if (index[x] < 0 || !fabric_.node(x).is_switch()) continue;
      const std::vector<int>& d = tree->labels.digits[index[x]];
      if (d.empty()) continue;
      labels().stage[x] = level(x) - 1;
      labels().digits[x].assign(d.begin() + 1, d.end());  // D_j is position j+2
    }
    return Status::Ok();
  }

  // Group-1 tops are labeled; each lower stage L inherits every digit but
  // D_L from its parents, and D_L is its rank among the switches that
  // inherited the same digits.
  void label_group_one() {
    const int k = labels().k;
    for (int stage = n_ - 3; stage >= 0; --stage) {
      std::map<std::vector<int>, std::vector<int>> siblings;
      for (int x = 0; x < fabric_.size(); ++x) {
        if (labels().group[x] != 1 || !fabric_.node(x).is_switch() || level(x) != stage + 1) continue;
        std::vector<std::map<int, int>> votes(n_ - 1);
        bool any = false;
        for (const Port& port : fabric_.node(x).ports) {
          if (!port.peer.valid() || level(port.peer.node) != stage + 2) continue;
          const std::vector<int>& d = labels().digits[port.peer.node];
          if (d.empty()) continue;
          any = true;
          for (int j = 0; j < n_ - 1; ++j) ++votes[j][d[j]];
        }
        if (!any) continue;
        std::vector<int> inherited(n_ - 1, -1);
        for (int j = 0; j < n_ - 1; ++j)
          if (j != stage)
            inherited[j] = std::max_element(votes[j].begin(), votes[j].end(),
                                            [](auto& a, auto& b) { return a.second < b.second; })->first;
        siblings[inherited].push_back(x);
      }
      for (auto& [inherited, members] : siblings) {
        std::sort(members.begin(), members.end(), [&](int a, int b) { return precedes_by_guid(fabric_, a, b); });
        for (int i = 0; i < static_cast<int>(members.size()) && i < k; ++i) {
          labels().stage[members[i]] = stage;
          labels().digits[members[i]] = inherited;
          labels().digits[members[i]][stage] = i;
        }
      }
    }
  }

  void label_hosts() {
    for (int x = 0; x < fabric_.size(); ++x) {
      if (!fabric_.node(x).is_switch() || level(x) != 1 || labels().digits[x].empty()) continue;
      int rank = 0;
      for (const Port& port : fabric_.node(x).ports) {
        if (!port.peer.valid() || fabric_.node(port.peer.node).is_switch()) continue;
        std::vector<int> c = labels().digits[x];
        c.push_back(rank++);
        labels().digits[port.peer.node] = std::move(c);
      }
    }
  }

  long key(int group, int stage, const std::vector<int>& d) const {
    long code = 0;
    for (int j = n_ - 2; j >= 0; --j) code = code * labels_k() + d[j];
    return (static_cast<long>(group) * (n_ - 1) + stage) * switches_per_stage() + code;
  }
  int labels_k() const { return fit_.labels.k; }
  long switches_per_stage() const {
    long s = 1;
    for (int j = 0; j < n_ - 1; ++j) s *= labels_k();
    return s;
  }
  std::string text(int group, int stage, const std::vector<int>& d) const {
    std::vector<int> high_first(d.rbegin(), d.rend());
    return fmt::format("<{},{},{}>", group, stage, fmt::join(high_first, ","));
  }

  void find_deviations() {
    const int k = labels_k();
    std::vector<int> at(2 * (n_ - 1) * switches_per_stage(), -1);
    for (int x = 0; x < fabric_.size(); ++x) {
      if (!fabric_.node(x).is_switch()) continue;
      const std::vector<int>& d = labels().digits[x];
      if (d.empty()) {
        fit_.deviations.push_back({Deviation::Kind::kUnexpectedSwitch, {x, 0}, {}, "fits no MiKANT label"});
        continue;
      }
      int& slot = at[key(labels().group[x], labels().stage[x], d)];
      if (slot >= 0) {
        fit_.deviations.push_back({Deviation::Kind::kUnexpectedSwitch, {x, 0}, {}, "label taken"});
        labels().digits[x].clear();
        continue;
      }
      slot = x;
    }
    // Each cable once: from the lower stage, and side cables from group 0.
    PortGuesser guesser;
    auto role = [](int group, int stage, bool up) { return (group * 64 + stage) * 2 + up; };
    std::map<std::pair<int, int>, int> cables;
    for (int x = 0; x < fabric_.size(); ++x) {
      if (!fabric_.node(x).is_switch() || labels().digits[x].empty()) continue;
      const int g = labels().group[x], stage = labels().stage[x];
      const int varying = stage;  // the digit that differs toward the next stage or the other half
      for (int p = 1; p <= fabric_.node(x).num_ports; ++p) {
        const PortRef peer = fabric_.node(x).ports[p].peer;
        if (!peer.valid() || !fabric_.node(peer.node).is_switch() || labels().digits[peer.node].empty()) continue;
        const bool up = level(peer.node) > level(x) || (level(peer.node) == level(x));
        if (!up) {
          guesser.observe(role(g, stage, false), labels().digits[peer.node][stage - 1], p);
          continue;
        }
        guesser.observe(role(g, stage, true), labels().digits[peer.node][varying], p);
        if (level(peer.node) == level(x) && g == 1) continue;  // counted from group 0
        ++cables[{x, peer.node}];
      }
    }
    struct Gap {
      int from, to, digit;
      std::string expected;
    };
    std::vector<Gap> gaps;
    std::map<int, int> missing_at;
    for (int g = 0; g < 2; ++g) {
      for (int stage = 0; stage < n_ - 1; ++stage) {
        for (long code = 0; code < switches_per_stage(); ++code) {
          std::vector<int> d(n_ - 1);
          long rest = code;
          for (int j = 0; j < n_ - 1; ++j) d[j] = static_cast<int>(rest % k), rest /= k;
          const int x = at[key(g, stage, d)];
          if (x < 0) {
            fit_.deviations.push_back({Deviation::Kind::kMissingSwitch, {}, {}, text(g, stage, d)});
            continue;
          }
          const bool side = stage == n_ - 2;
          if (side && g == 1) continue;
          for (int v = 0; v < k; ++v) {
            std::vector<int> e = d;
            e[stage] = v;
            const int other_group = side ? 1 - g : g, other_stage = side ? stage : stage + 1;
            const int y = at[key(other_group, other_stage, e)];
            const int have = y >= 0 ? cables[{x, y}] : 0;
            if (have > 1) fit_.deviations.push_back({Deviation::Kind::kExtraCable, {x, 0}, {y, 0}, "parallel cables"});
            if (have >= 1) continue;
            gaps.push_back({x, y, v, text(g, stage, d) + " - " + text(other_group, other_stage, e)});
            ++missing_at[x];
            if (y >= 0) ++missing_at[y];
          }
        }
      }
    }
    for (auto& [pair, count] : cables) {
      const auto [x, y] = pair;
      if (!expected_neighbours(x, y))
        fit_.deviations.push_back({Deviation::Kind::kMiswiredCable, {x, 0}, {y, 0},
                                   text(labels().group[x], labels().stage[x], labels().digits[x]) + " - " +
                                       text(labels().group[y], labels().stage[y], labels().digits[y])});
    }
    for (const Gap& gap : gaps) {
      const int g = labels().group[gap.from], stage = labels().stage[gap.from];
      const int from_port = guesser.guess(fabric_, gap.from, role(g, stage, true), gap.digit, missing_at[gap.from]);
      int to_port = 0;
      if (gap.to >= 0) {
        const bool side = stage == n_ - 2;
        to_port = side ? guesser.guess(fabric_, gap.to, role(1 - g, stage, true), labels().digits[gap.from][stage],
                                       missing_at[gap.to])
                       : guesser.guess(fabric_, gap.to, role(g, stage + 1, false), labels().digits[gap.from][stage],
                                       missing_at[gap.to]);
      }
      fit_.deviations.push_back({Deviation::Kind::kMissingCable, {gap.from, from_port},
                                 gap.to >= 0 ? PortRef{gap.to, to_port} : PortRef{}, gap.expected});
    }
  }

  bool expected_neighbours(int x, int y) const {
    const auto& dx = fit_.labels.digits[x];
    const auto& dy = fit_.labels.digits[y];
    const int stage = fit_.labels.stage[x];
    const bool side = stage == n_ - 2;
    if (side ? fit_.labels.group[x] == fit_.labels.group[y] || fit_.labels.stage[y] != stage
             : fit_.labels.group[x] != fit_.labels.group[y] || fit_.labels.stage[y] != stage + 1)
      return false;
    for (int j = 0; j < n_ - 1; ++j)
      if (j != stage && dx[j] != dy[j]) return false;
    return true;
  }

  const Fabric& fabric_;
  const Levels& levels_;
  int n_ = 0;
  MikantFit fit_;
};

}  // namespace

Result<MikantFit> fit_mikant(const Fabric& fabric, const Levels& levels) {
  if (levels.height < 1) return Status::Error("no switches");
  return MikantFitter(fabric, levels).run();
}

}  // namespace ftclos
