#include "detect/xgft.h"

#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ftclos {

long XgftShape::nodes_at(int level) const {
  long count = 1;
  for (int i = 1; i <= h; ++i) count *= i <= level ? w[i - 1] : m[i - 1];
  return count;
}

long XgftLabels::code(int level, const std::vector<int>& label) const {
  long code = 0;
  for (int i = shape.h; i >= 1; --i) code = code * (i <= level ? shape.w[i - 1] : shape.m[i - 1]) + label[i - 1];
  return code;
}

int hosts_on(const Fabric& fabric, int node) {
  int hosts = 0;
  const Node& n = fabric.node(node);
  for (int p = 1; p <= n.num_ports; ++p) {
    const PortRef peer = n.ports[p].peer;
    hosts += peer.valid() && !fabric.node(peer.node).is_switch();
  }
  return hosts;
}

namespace {

struct DisjointSets {
  std::vector<int> parent;
  explicit DisjointSets(int n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(int a, int b) { parent[find(a)] = find(b); }
};

Status check_folded_clos(const Fabric& fabric, const Levels& levels) {
  for (int i = 0; i < fabric.size(); ++i) {
    const Node& node = fabric.node(i);
    if (node.is_switch() && levels.of[i] < 1)
      return Status::Error(fmt::format("switch \"{}\" has no path to any CA", node.display_name()));
    int cabled = 0;
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef peer = node.ports[p].peer;
      if (!peer.valid()) continue;
      ++cabled;
      const int step = levels.of[peer.node] - levels.of[i];
      if (node.is_switch() && fabric.node(peer.node).is_switch() && step != 1 && step != -1)
        return Status::Error(fmt::format("cable \"{}\"[{}] - \"{}\"[{}] joins two level-{} switches", node.display_name(),
                                         p, fabric.node(peer.node).display_name(), peer.port, levels.of[i]));
    }
    if (!node.is_switch() && cabled != 1)
      return Status::Error(fmt::format("CA \"{}\" has {} cabled ports; one is expected", node.display_name(), cabled));
  }
  if (levels.height < 1) return Status::Error("no switches");
  return Status::Ok();
}

class Fitter {
 public:
  Fitter(const Fabric& fabric, const Levels& levels) : fabric_(fabric), levels_(levels), h_(levels.height) {}

  Result<XgftFit> run() {
    find_subtrees();
    if (subtree_count_[h_] != 1) return Status::Error("the switches form more than one connected fabric");
    infer_shape();
    assign_a_digits();
    assign_b_digits();
    index_labels();
    find_deviations();
    return std::move(fit_);
  }

 private:
  int level(int node) const { return levels_.of[node]; }
  XgftShape& shape() { return fit_.labels.shape; }
  std::vector<int>& digits(int node) { return fit_.labels.digits[node]; }

  // subtree_[l][x]: id of the component of levels <= l holding switch x.
  void find_subtrees() {
    const int n = fabric_.size();
    DisjointSets sets(n);
    subtree_.assign(h_ + 1, std::vector<int>(n, -1));
    subtree_count_.assign(h_ + 1, 0);
    for (int l = 1; l <= h_; ++l) {
      for (int x = 0; x < n; ++x) {
        if (level(x) != l) continue;
        for (const Port& port : fabric_.node(x).ports)
          if (port.peer.valid() && level(port.peer.node) == l - 1 && l > 1) sets.join(x, port.peer.node);
      }
      std::map<int, int> ids;
      for (int x = 0; x < n; ++x) {
        if (!fabric_.node(x).is_switch() || level(x) > l) continue;
        auto [it, added] = ids.emplace(sets.find(x), static_cast<int>(ids.size()));
        subtree_[l][x] = it->second;
      }
      subtree_count_[l] = static_cast<int>(ids.size());
    }
  }

  void infer_shape() {
    XgftShape& s = shape();
    s.h = h_;
    s.m.assign(h_, 0);
    s.w.assign(h_, 1);
    s.p.assign(h_, 1);
    for (int x = 0; x < fabric_.size(); ++x) {
      if (!fabric_.node(x).is_switch()) continue;
      if (level(x) == 1) s.m[0] = std::max(s.m[0], hosts_on(fabric_, x));
      std::map<int, int> cables_to_parent;
      for (const Port& port : fabric_.node(x).ports)
        if (port.peer.valid() && level(port.peer.node) == level(x) + 1) ++cables_to_parent[port.peer.node];
      const int l = level(x) + 1;
      if (l > h_) continue;
      s.w[l - 1] = std::max(s.w[l - 1], static_cast<int>(cables_to_parent.size()));
      for (auto [parent, cables] : cables_to_parent) s.p[l - 1] = std::max(s.p[l - 1], cables);
    }
    for (int l = 2; l <= h_; ++l) {
      std::map<int, std::vector<int>> children_of;  // level-l subtree -> level-(l-1) subtrees
      for (int x = 0; x < fabric_.size(); ++x)
        if (fabric_.node(x).is_switch() && level(x) <= l - 1) children_of[subtree_[l][x]].push_back(subtree_[l - 1][x]);
      for (auto& [parent, children] : children_of) {
        std::sort(children.begin(), children.end());
        const int distinct = static_cast<int>(std::unique(children.begin(), children.end()) - children.begin());
        s.m[l - 1] = std::max(s.m[l - 1], distinct);
      }
    }
  }

  // a_i of every node: the rank, by least GUID, of its level-(i-1) subtree
  // among the subtrees of its level-i subtree.
  void assign_a_digits() {
    const int n = fabric_.size();
    fit_.labels.digits.assign(n, {});
    std::vector<std::vector<int>> rank(h_ + 1);  // rank[l][subtree id]
    for (int l = 1; l < h_; ++l) {
      std::vector<int> first(subtree_count_[l], -1);  // least member of each subtree
      for (int x = 0; x < n; ++x) {
        const int t = subtree_[l][x];
        if (t >= 0 && (first[t] < 0 || precedes_by_guid(fabric_, x, first[t]))) first[t] = x;
      }
      std::map<int, std::vector<int>> siblings;  // parent subtree -> subtrees
      for (int t = 0; t < subtree_count_[l]; ++t) siblings[subtree_[l + 1][first[t]]].push_back(t);
      rank[l].assign(subtree_count_[l], 0);
      for (auto& [parent, list] : siblings) {
        std::sort(list.begin(), list.end(), [&](int a, int b) { return precedes_by_guid(fabric_, first[a], first[b]); });
        for (size_t i = 0; i < list.size(); ++i) rank[l][list[i]] = static_cast<int>(i);
      }
    }
    for (int x = 0; x < n; ++x) {
      if (!fabric_.node(x).is_switch()) continue;
      std::vector<int>& label = digits(x);
      label.assign(h_, 0);
      for (int i = level(x) + 1; i <= h_; ++i) label[i - 1] = rank[i - 1][subtree_[i - 1][x]];
    }
  }

  // b_l of a level-l switch: the b digits its children agree on (majority,
  // so one miswired cable does not move it), then its rank by GUID among the
  // switches of its subtree that inherited the same digits.
  void assign_b_digits() {
    for (int l = 2; l <= h_; ++l) {
      std::map<std::pair<int, std::vector<int>>, std::vector<int>> groups;
      for (int x = 0; x < fabric_.size(); ++x) {
        if (!fabric_.node(x).is_switch() || level(x) != l) continue;
        std::map<std::vector<int>, int> votes;
        for (const Port& port : fabric_.node(x).ports) {
          const int child = port.peer.valid() ? port.peer.node : -1;
          if (child < 0 || level(child) != l - 1 || digits(child).empty()) continue;
          ++votes[std::vector<int>(digits(child).begin(), digits(child).begin() + (l - 1))];
        }
        if (votes.empty()) {
          digits(x).clear();
          continue;
        }
        auto best = std::max_element(votes.begin(), votes.end(),
                                     [](const auto& a, const auto& b) { return a.second < b.second; });
        groups[{subtree_[l][x], best->first}].push_back(x);
      }
      for (auto& [key, members] : groups) {
        std::sort(members.begin(), members.end(), [&](int a, int b) { return precedes_by_guid(fabric_, a, b); });
        for (size_t i = 0; i < members.size(); ++i) {
          std::vector<int>& label = digits(members[i]);
          if (static_cast<int>(i) >= shape().w[l - 1]) {
            label.clear();  // more switches than the shape has room for
            continue;
          }
          std::copy(key.second.begin(), key.second.end(), label.begin());
          label[l - 1] = static_cast<int>(i);
        }
      }
    }
    // Hosts: the leaf's digits above 1, then their rank on the leaf by port.
    for (int x = 0; x < fabric_.size(); ++x) {
      if (!fabric_.node(x).is_switch() || level(x) != 1 || digits(x).empty()) continue;
      int rank = 0;
      for (const Port& port : fabric_.node(x).ports) {
        if (!port.peer.valid() || fabric_.node(port.peer.node).is_switch()) continue;
        std::vector<int> label = digits(x);
        label[0] = rank++;
        digits(port.peer.node) = std::move(label);
      }
    }
  }

  void index_labels() {
    XgftLabels& labels = fit_.labels;
    labels.node_at.assign(h_ + 1, {});
    for (int l = 0; l <= h_; ++l) labels.node_at[l].assign(shape().nodes_at(l), -1);
    for (int x = 0; x < fabric_.size(); ++x) {
      if (digits(x).empty()) {
        if (fabric_.node(x).is_switch()) add({Deviation::Kind::kUnexpectedSwitch, {x, 0}, {}, "fits no label"});
        continue;
      }
      int& slot = labels.node_at[level(x)][labels.code(level(x), digits(x))];
      if (slot >= 0) {
        add({Deviation::Kind::kUnexpectedSwitch, {x, 0}, {}, "label " + label_text(x) + " taken"});
        digits(x).clear();
        continue;
      }
      slot = x;
    }
  }

  std::string label_text(int node) { return fmt::format("L{}:{}", level(node), digits(node)); }

  void add(Deviation deviation) { fit_.deviations.push_back(std::move(deviation)); }

  // The label of the level-(l-1) node under `upper` whose a_l is `a`.
  std::vector<int> child_label(int upper, int a) {
    std::vector<int> label = digits(upper);
    label[level(upper) - 1] = a;
    return label;
  }

  void find_deviations() {
    XgftLabels& labels = fit_.labels;
    PortGuesser guesser;
    auto role = [](int l, bool up) { return l * 2 + up; };
    // How the present cables use ports, and which switch pairs are cabled.
    std::map<std::pair<int, int>, int> cables;  // (lower, upper) -> count
    for (int x = 0; x < fabric_.size(); ++x) {
      if (!fabric_.node(x).is_switch() || digits(x).empty()) continue;
      const int l = level(x);
      for (int p = 1; p <= fabric_.node(x).num_ports; ++p) {
        const PortRef peer = fabric_.node(x).ports[p].peer;
        if (!peer.valid() || !fabric_.node(peer.node).is_switch() || digits(peer.node).empty()) continue;
        if (level(peer.node) > l) {
          guesser.observe(role(l, true), digits(peer.node)[l], p);
          ++cables[{x, peer.node}];
          if (!differ_only_at(x, peer.node, l + 1))
            add({Deviation::Kind::kMiswiredCable, {x, p}, peer,
                 fmt::format("{} and {} are not neighbours", label_text(x), label_text(peer.node))});
        } else {
          guesser.observe(role(l, false), digits(peer.node)[l - 1], p);
        }
      }
    }
    // Cables each switch lacks, to guess ports only where that is unambiguous.
    struct Missing {
      int upper, a, lower, count;
    };
    std::vector<Missing> missing;
    std::map<int, int> missing_at;
    for (int l = 2; l <= h_; ++l) {
      for (int upper : labels.node_at[l]) {
        if (upper < 0) continue;
        for (int a = 0; a < shape().m[l - 1]; ++a) {
          const std::vector<int> label = child_label(upper, a);
          const int lower = labels.node_at[l - 1][labels.code(l - 1, label)];
          const int have = lower >= 0 ? cables[{lower, upper}] : 0;
          const int want = shape().p[l - 1];
          if (lower >= 0 && have > want)
            add({Deviation::Kind::kExtraCable, {lower, 0}, {upper, 0}, fmt::format("{} cables, {} expected", have, want)});
          if (have >= want) continue;
          missing.push_back({upper, a, lower, want - have});
          missing_at[upper] += want - have;
          if (lower >= 0) missing_at[lower] += want - have;
        }
      }
    }
    for (int l = 1; l <= h_; ++l) {
      for (long code = 0; code < static_cast<long>(labels.node_at[l].size()); ++code) {
        if (labels.node_at[l][code] >= 0) continue;
        add({Deviation::Kind::kMissingSwitch, {}, {}, fmt::format("L{}:{}", l, decode(l, code))});
      }
    }
    for (const Missing& gap : missing) {
      const int l = level(gap.upper);
      for (int k = 0; k < gap.count; ++k) {
        const int upper_port = guesser.guess(fabric_, gap.upper, role(l, false), gap.a, missing_at[gap.upper]);
        if (gap.lower < 0) {
          add({Deviation::Kind::kMissingCable, {gap.upper, upper_port}, {},
               fmt::format("to missing switch L{}:{}", l - 1, child_label(gap.upper, gap.a))});
          continue;
        }
        const int lower_port =
            guesser.guess(fabric_, gap.lower, role(l - 1, true), digits(gap.upper)[l - 1], missing_at[gap.lower]);
        add({Deviation::Kind::kMissingCable, {gap.lower, lower_port}, {gap.upper, upper_port},
             fmt::format("{} - {}", label_text(gap.lower), label_text(gap.upper))});
      }
    }
  }

  // Labels of a level-(pos-1) and a level-pos node agree everywhere but `pos`.
  bool differ_only_at(int lower, int upper, int pos) {
    for (int i = 1; i <= h_; ++i)
      if (i != pos && digits(lower)[i - 1] != digits(upper)[i - 1]) return false;
    return true;
  }

  std::vector<int> decode(int level, long code) {
    std::vector<int> label(h_);
    for (int i = 1; i <= h_; ++i) {
      const int radix = i <= level ? shape().w[i - 1] : shape().m[i - 1];
      label[i - 1] = static_cast<int>(code % radix);
      code /= radix;
    }
    return label;
  }

  const Fabric& fabric_;
  const Levels& levels_;
  const int h_;
  std::vector<std::vector<int>> subtree_;
  std::vector<int> subtree_count_;
  XgftFit fit_;
};

}  // namespace

Result<XgftFit> fit_xgft(const Fabric& fabric, const Levels& levels) {
  if (Status s = check_folded_clos(fabric, levels); !s.ok()) return s;
  return Fitter(fabric, levels).run();
}

std::vector<Deviation> host_deviations(const Fabric& fabric, const Levels& levels, int hosts_per_leaf) {
  std::vector<Deviation> deviations;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch() || levels.of[x] != 1) continue;
    const int have = hosts_on(fabric, x);
    for (int k = have; k < hosts_per_leaf; ++k)
      deviations.push_back({Deviation::Kind::kMissingHost, {x, 0}, {},
                            fmt::format("{} of {} hosts present", have, hosts_per_leaf)});
  }
  return deviations;
}

}  // namespace ftclos
