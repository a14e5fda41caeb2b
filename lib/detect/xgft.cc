#include "detect/xgft.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/aggregation_node.h"

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
    hosts += peer.valid() && !fabric.node(peer.node).is_switch() && !is_aggregation_node(fabric.node(peer.node));
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

  // subtree_[l][x]: id of the component of levels <= l holding switch x,
  // joined over structural cables only, so that a miswired cable does not
  // merge two sub-trees. The top level is one component by connectivity.
  void find_subtrees() {
    const int n = fabric_.size();
    DisjointSets sets(n);
    subtree_.assign(h_ + 1, std::vector<int>(n, -1));
    subtree_count_.assign(h_ + 1, 0);
    for (int l = 1; l <= h_; ++l) {
      if (l > 1) join_level(l, sets);
      std::map<int, int> ids;
      for (int x = 0; x < n; ++x) {
        if (!fabric_.node(x).is_switch() || level(x) > l) continue;
        auto [it, added] = ids.emplace(sets.find(x), static_cast<int>(ids.size()));
        subtree_[l][x] = it->second;
      }
      subtree_count_[l] = static_cast<int>(ids.size());
    }
  }

  std::vector<int> neighbours_at(int x, int at_level) const {
    std::vector<int> out;
    for (const Port& port : fabric_.node(x).ports)
      if (port.peer.valid() && level(port.peer.node) == at_level && fabric_.node(port.peer.node).is_switch())
        out.push_back(port.peer.node);
    return out;
  }

  // The switches one level up and one level down of every switch at a
  // level boundary, computed once per boundary.
  struct Boundary {
    std::vector<std::vector<int>> up, down;
  };
  Boundary boundary(int l) const {
    Boundary b{std::vector<std::vector<int>>(fabric_.size()), std::vector<std::vector<int>>(fabric_.size())};
    for (int x = 0; x < fabric_.size(); ++x) {
      if (!fabric_.node(x).is_switch() || level(x) != l - 1) continue;
      b.up[x] = neighbours_at(x, l);
      for (int y : b.up[x]) b.down[y].push_back(x);
    }
    return b;
  }

  // Whether a cable x - y (y one level up) is structural: most other
  // children of y share another parent with x. Sub-trees are meshes of such
  // 4-cycles x - y - x' - y'; a cable plugged into the wrong sub-tree lands
  // among children that share nothing with x (except where another
  // miswired cable happens to close a cycle).
  static bool structural(const Boundary& b, int x, int y, std::vector<int>& mark, int stamp) {
    for (int other : b.up[x]) mark[other] = stamp;
    int siblings = 0, sharing = 0;
    for (int sibling : b.down[y]) {
      if (sibling == x) continue;
      ++siblings;
      for (int other : b.up[sibling]) {
        if (other == y || mark[other] != stamp) continue;
        ++sharing;
        break;
      }
    }
    return 2 * sharing > siblings;
  }

  // Joins the level-l switches with their children over structural cables
  // and records the others as weak. A switch with no structural cable at
  // this boundary (one parent or one child each, or a degraded corner)
  // keeps all its cables. The top level joins over all cables: it is one
  // component by connectivity.
  void join_level(int l, DisjointSets& sets) {
    struct Cable {
      int x, y;
      bool structural;
    };
    const Boundary b = boundary(l);
    std::vector<Cable> cables;
    std::vector<int> mark(fabric_.size(), -1);
    std::vector<bool> has_structural(fabric_.size(), false);
    for (int x = 0; x < fabric_.size(); ++x) {
      for (int y : b.up[x]) {
        const bool keep = structural(b, x, y, mark, static_cast<int>(cables.size()));
        cables.push_back({x, y, keep});
        if (keep) has_structural[x] = has_structural[y] = true;
      }
    }
    for (const Cable& c : cables) {
      const bool used = c.structural || !has_structural[c.x] || !has_structural[c.y];
      if (!used) weak_.insert({c.x, c.y});
      if (used || l == h_) sets.join(c.x, c.y);
    }
  }

  void infer_shape() {
    XgftShape& s = shape();
    s.h = h_;
    s.m.assign(h_, 0);
    s.w.assign(h_, 1);
    s.p.assign(h_, 1);
    // p is the most common cable count between a switch and a parent (ties
    // to the larger), so a cable doubled by a swap stands out as extra.
    std::vector<std::map<int, int>> p_votes(h_);
    for (int x = 0; x < fabric_.size(); ++x) {
      if (!fabric_.node(x).is_switch()) continue;
      if (level(x) == 1) s.m[0] = std::max(s.m[0], hosts_on(fabric_, x));
      std::map<int, int> cables_to_parent;
      for (const Port& port : fabric_.node(x).ports)
        if (port.peer.valid() && level(port.peer.node) == level(x) + 1 && !weak_.count({x, port.peer.node}))
          ++cables_to_parent[port.peer.node];  // a miswired cable adds no parent
      const int l = level(x) + 1;
      if (l > h_) continue;
      s.w[l - 1] = std::max(s.w[l - 1], static_cast<int>(cables_to_parent.size()));
      for (auto [parent, cables] : cables_to_parent) ++p_votes[l - 1][cables];
    }
    for (int l = 1; l < h_; ++l) {
      int best_votes = 0;
      for (auto [cables, votes] : p_votes[l])
        if (votes >= best_votes) best_votes = votes, s.p[l] = cables;
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

  bool has_parent(int x) const { return level(x) == h_ || !neighbours_at(x, level(x) + 1).empty(); }

  // Columns of level l: switches joined by sharing a parent over cables
  // that are not weak. All children of a switch share its digits b_1..b_l,
  // so a column is one b_l value across the level-l sub-trees of one
  // level-(l+1) sub-tree, and a sub-tree that lost a switch leaves a gap in
  // its column instead of shifting the others.
  std::vector<int> columns(int l) {
    DisjointSets sets(fabric_.size());
    if (l < h_) {
      for (int y = 0; y < fabric_.size(); ++y) {
        if (!fabric_.node(y).is_switch() || level(y) != l + 1) continue;
        int first = -1;
        for (int x : neighbours_at(y, l)) {
          if (weak_.count({x, y})) continue;
          if (first < 0) first = x;
          else sets.join(first, x);
        }
      }
    }
    std::vector<int> column(fabric_.size(), -1);
    for (int x = 0; x < fabric_.size(); ++x)
      if (fabric_.node(x).is_switch() && level(x) == l) column[x] = sets.find(x);
    return column;
  }

  // b_l of a level-l switch: the b digits its children agree on (majority,
  // so one miswired cable does not move it), then the rank of its column
  // (by the column's least GUID) among the columns with the same digits in
  // the same level-(l+1) sub-tree.
  void assign_b_digits() {
    for (int l = 2; l <= h_; ++l) {
      const std::vector<int> column = columns(l);
      // (level-(l+1) sub-tree, inherited digits) -> switches
      std::map<std::pair<int, std::vector<int>>, std::vector<int>> members_of;
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
        std::copy(best->first.begin(), best->first.end(), digits(x).begin());
        members_of[{l < h_ ? subtree_[l + 1][x] : 0, best->first}].push_back(x);
      }
      for (auto& [key, members] : members_of) {
        // Columns with a parent first, by least GUID; a switch that lost all
        // its parents has no column to tell its digit: it takes the lowest
        // digit its own sub-tree leaves free.
        std::map<int, int> least;  // column -> its member first by GUID
        for (int x : members) {
          if (!has_parent(x)) continue;
          auto [it, added] = least.emplace(column[x], x);
          if (!added && precedes_by_guid(fabric_, x, it->second)) it->second = x;
        }
        std::vector<std::pair<int, int>> order(least.begin(), least.end());
        std::sort(order.begin(), order.end(),
                  [&](const auto& a, const auto& b) { return precedes_by_guid(fabric_, a.second, b.second); });
        std::map<int, int> rank;
        for (size_t i = 0; i < order.size(); ++i) rank[order[i].first] = static_cast<int>(i);
        std::map<int, std::set<int>> taken;  // level-l sub-tree -> digits in use
        for (int x : members)
          if (has_parent(x)) taken[subtree_[l][x]].insert(rank[column[x]]);
        std::sort(members.begin(), members.end(), [&](int a, int b) { return precedes_by_guid(fabric_, a, b); });
        for (int x : members) {
          int digit = 0;
          if (has_parent(x)) {
            digit = rank[column[x]];
          } else {
            std::set<int>& used = taken[subtree_[l][x]];
            while (used.count(digit)) ++digit;
            used.insert(digit);
          }
          std::vector<int>& label = digits(x);
          if (digit >= shape().w[l - 1]) {
            label.clear();  // more switches than the shape has room for
            continue;
          }
          label[l - 1] = digit;
        }
      }
    }
    // Hosts: the leaf's digits above 1, then their rank on the leaf by port.
    for (int x = 0; x < fabric_.size(); ++x) {
      if (!fabric_.node(x).is_switch() || level(x) != 1 || digits(x).empty()) continue;
      int rank = 0;
      for (const Port& port : fabric_.node(x).ports) {
        if (!port.peer.valid() || fabric_.node(port.peer.node).is_switch() ||
            is_aggregation_node(fabric_.node(port.peer.node)))
          continue;
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

  // Marks the leaves with fewer hosts than the shape's m_1 that reach every
  // parent but lack parallel uplinks, no more than keeps the full leaves'
  // uplinks-per-host ratio (IS3-128: leaves of 11 hosts and 11 uplinks
  // beside leaves of 12 and 12).
  void find_reduced_leaves(const std::map<std::pair<int, int>, int>& cables) {
    fit_.reduced_leaf.assign(fabric_.size(), false);
    if (h_ < 2) return;
    const int full_hosts = shape().m[0];
    if (full_hosts <= 0) return;  // a shape of hostless leaves (a director's edge): none has fewer
    const int full_uplinks = shape().w[1] * shape().p[1];
    std::map<int, std::pair<int, int>> reach;  // leaf -> (parents, uplinks)
    for (const auto& [pair, count] : cables) {
      if (level(pair.first) != 1) continue;
      ++reach[pair.first].first;
      reach[pair.first].second += count;
    }
    // Leaves with as many hosts are built alike: where one of them has more
    // uplinks (a partial SU of a pod keeps every uplink), the ones a leaf
    // lacks are missing cables, not a reduced build.
    std::map<int, int> most_uplinks;  // hosts -> the most uplinks of a leaf with that many
    for (const auto& [leaf, seen] : reach) {
      int& most = most_uplinks[hosts_on(fabric_, leaf)];
      most = std::max(most, seen.second);
    }
    for (const auto& [leaf, seen] : reach) {
      const auto [parents, uplinks] = seen;
      const int hosts = hosts_on(fabric_, leaf);
      const int needed = (hosts * full_uplinks + full_hosts - 1) / full_hosts;
      fit_.reduced_leaf[leaf] = hosts < full_hosts && parents == shape().w[1] && uplinks < full_uplinks &&
                                uplinks >= needed && uplinks == most_uplinks[hosts];
    }
  }

  // The label of the level-(l-1) node under `upper` whose a_l is `a`.
  std::vector<int> child_label(int upper, int a) {
    std::vector<int> label = digits(upper);
    label[level(upper) - 1] = a;
    return label;
  }

  // PortGuesser roles: switches of level l cabling up or down.
  static int role(int l, bool up) { return l * 2 + up; }

  // `count` cables fewer (missing) or more (surplus) than the shape has
  // between `lower` and `upper`, whose a digit at upper's level is `a`.
  struct Missing {
    int upper, a, lower, count;
  };

  void find_deviations() {
    XgftLabels& labels = fit_.labels;
    PortGuesser guesser;
    // How the present cables use ports, and which switch pairs are cabled.
    std::map<std::pair<int, int>, int> cables;  // (lower, upper) -> count
    std::vector<Deviation> miswired;
    for (int x = 0; x < fabric_.size(); ++x) {
      if (!fabric_.node(x).is_switch() || digits(x).empty()) continue;
      const int l = level(x);
      for (int p = 1; p <= fabric_.node(x).num_ports; ++p) {
        const PortRef peer = fabric_.node(x).ports[p].peer;
        if (!peer.valid() || !fabric_.node(peer.node).is_switch() || digits(peer.node).empty()) continue;
        if (level(peer.node) > l) {
          if (!differ_only_at(x, peer.node, l + 1)) {
            miswired.push_back({Deviation::Kind::kMiswiredCable, {x, p}, peer,
                                fmt::format("{} and {} are not neighbours", label_text(x), label_text(peer.node))});
            continue;
          }
          guesser.observe(role(l, true), digits(peer.node)[l], p);
          ++cables[{x, peer.node}];
        } else if (differ_only_at(peer.node, x, l)) {
          guesser.observe(role(l, false), digits(peer.node)[l - 1], p);
        }
      }
    }
    // Cables each switch lacks, to guess ports only where that is unambiguous.
    // A lost switch is one deviation: its cables are implied.
    std::vector<Missing> missing, surplus;
    std::map<int, int> missing_at;
    find_reduced_leaves(cables);
    for (int l = 2; l <= h_; ++l) {
      for (int upper : labels.node_at[l]) {
        if (upper < 0) continue;
        for (int a = 0; a < shape().m[l - 1]; ++a) {
          const std::vector<int> label = child_label(upper, a);
          const int lower = labels.node_at[l - 1][labels.code(l - 1, label)];
          if (lower < 0) continue;
          const int have = cables[{lower, upper}];
          const int want = shape().p[l - 1];
          if (have > want) surplus.push_back({upper, a, lower, have - want});
          if (have >= want || (l == 2 && fit_.reduced_leaf[lower])) continue;
          missing.push_back({upper, a, lower, want - have});
          missing_at[upper] += want - have;
          missing_at[lower] += want - have;
        }
      }
    }
    for (int l = 1; l <= h_; ++l) {
      for (long code = 0; code < static_cast<long>(labels.node_at[l].size()); ++code) {
        if (labels.node_at[l][code] >= 0) continue;
        add({Deviation::Kind::kMissingSwitch, {}, {}, fmt::format("L{}:{}", l, decode(l, code))});
      }
    }
    explain_miswired(miswired, missing);
    for (Deviation& d : miswired) add(std::move(d));
    explain_surplus(surplus, missing, guesser);
    for (const Missing& extra : surplus) {
      const int want = shape().p[level(extra.upper) - 1];
      add({Deviation::Kind::kExtraCable, {extra.lower, 0}, {extra.upper, 0},
           fmt::format("{} cables, {} expected", want + extra.count, want)});
    }
    for (const Missing& gap : missing) {
      const int l = level(gap.upper);
      for (int k = 0; k < gap.count; ++k) {
        const int upper_port = guesser.guess(fabric_, gap.upper, role(l, false), gap.a, missing_at[gap.upper]);
        const int lower_port =
            guesser.guess(fabric_, gap.lower, role(l - 1, true), digits(gap.upper)[l - 1], missing_at[gap.lower]);
        add({Deviation::Kind::kMissingCable, {gap.lower, lower_port}, {gap.upper, upper_port},
             fmt::format("{} - {}", label_text(gap.lower), label_text(gap.upper))});
      }
    }
  }

  // A miswired cable and a missing one are usually one mistake: the cable
  // at lower[p] belongs on an upper switch that lacks a cable from lower.
  // The port it belongs on is the one a miswired cable of that switch holds
  // (swapped cables), else the switch's only free port. Each pairing takes
  // one missing cable off the list.
  template <class MissingList>
  void explain_miswired(std::vector<Deviation>& miswired, MissingList& missing) {
    std::map<int, std::vector<int>> wrong_ports;  // upper switch -> ports holding miswired cables
    for (const Deviation& d : miswired) wrong_ports[d.peer.node].push_back(d.peer.port);
    std::set<PortRef> promised;
    for (Deviation& d : miswired) {
      for (auto& gap : missing) {
        if (gap.count == 0 || gap.lower != d.at.node) continue;
        PortRef target{gap.upper, 0};
        for (int q : wrong_ports[gap.upper]) {
          if (promised.count({gap.upper, q})) continue;
          target.port = q;
          break;
        }
        if (target.port == 0) target.port = only_free_port(gap.upper, promised);
        if (target.port > 0) promised.insert(target);
        d.belongs = target;
        d.detail = fmt::format("{} belongs on {}", label_text(d.at.node), label_text(gap.upper));
        --gap.count;
        break;
      }
    }
    std::erase_if(missing, [](const auto& gap) { return gap.count == 0; });
  }

  // A cable beside one the family already has, on a switch that lacks a
  // parent, is one mistake: in a two-level Clos every leaf reaches every
  // spine, so a swapped cable doubles another. Of the parallel cables, the
  // misplaced one sits on a port the other switches use for another parent
  // (their port pattern); it belongs on the lacking parent, on the port
  // that holds the other half of the swap (a misplaced cable there too), or
  // else the port that parent's pattern gives this switch. Each pairing
  // takes one cable off both lists.
  void explain_surplus(std::vector<Missing>& surplus, std::vector<Missing>& missing, const PortGuesser& guesser) {
    struct Move {
      PortRef from;  // the lower end of the misplaced cable
      int to;        // the parent it belongs on
    };
    std::vector<Move> moves;
    std::set<PortRef> misplaced;  // lower ends of the cables named so far
    for (Missing& extra : surplus) {
      const int l = level(extra.upper);
      for (Missing& gap : missing) {
        if (gap.lower != extra.lower) continue;
        while (extra.count > 0 && gap.count > 0) {
          const int lower_port =
              off_pattern_port(extra.lower, extra.upper, role(l - 1, true), digits(extra.upper)[l - 1], guesser,
                               misplaced);
          if (lower_port == 0) break;
          misplaced.insert({extra.lower, lower_port});
          moves.push_back({{extra.lower, lower_port}, gap.upper});
          --extra.count;
          --gap.count;
        }
      }
    }
    std::set<PortRef> promised;
    for (const Move& move : moves) {
      const int lower = move.from.node, l = level(move.to);
      int belongs = 0, best_rank = 0;
      for (int q = 1; q <= fabric_.node(move.to).num_ports; ++q) {
        const PortRef there = fabric_.node(move.to).ports[q].peer;
        if (there.node == lower || promised.count({move.to, q})) continue;
        const int rank = 2 * misplaced.count(there) + (guesser.usual_key(role(l, false), q) == digits(lower)[l - 1]);
        if (rank > best_rank) best_rank = rank, belongs = q;
      }
      if (belongs) promised.insert({move.to, belongs});
      add({Deviation::Kind::kMiswiredCable, move.from, fabric_.peer(move.from),
           fmt::format("{} belongs on {}", label_text(lower), label_text(move.to)), {move.to, belongs}});
    }
    std::erase_if(surplus, [](const Missing& extra) { return extra.count == 0; });
    std::erase_if(missing, [](const Missing& gap) { return gap.count == 0; });
  }

  // A port of `node` cabled to `peer` that the role's pattern gives to a
  // neighbour other than `key`, not in `named`; 0 when there is none.
  int off_pattern_port(int node, int peer, int role, int key, const PortGuesser& guesser,
                       const std::set<PortRef>& named) {
    for (int p = 1; p <= fabric_.node(node).num_ports; ++p) {
      if (fabric_.node(node).ports[p].peer.node != peer || named.count({node, p})) continue;
      const int usual = guesser.usual_key(role, p);
      if (usual >= 0 && usual != key) return p;
    }
    return 0;
  }

  int only_free_port(int node, const std::set<PortRef>& promised) {
    int found = 0;
    for (int p = 1; p <= fabric_.node(node).num_ports; ++p) {
      if (fabric_.node(node).ports[p].peer.valid() || promised.count({node, p})) continue;
      if (found) return 0;
      found = p;
    }
    return found;
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
  std::set<std::pair<int, int>> weak_;  // (lower, upper) cables on too few 4-cycles
  std::vector<int> subtree_count_;
  XgftFit fit_;
};

}  // namespace

Result<XgftFit> fit_xgft(const Fabric& fabric, const Levels& levels) {
  if (Status s = check_folded_clos(fabric, levels); !s.ok()) return s;
  return Fitter(fabric, levels).run();
}

std::vector<Deviation> host_deviations(const Fabric& fabric, const Levels& levels, int hosts_per_leaf,
                                       const std::vector<bool>& reduced_leaf, bool hostless_by_design) {
  std::vector<Deviation> deviations;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch() || levels.of[x] != 1) continue;
    if (x < static_cast<int>(reduced_leaf.size()) && reduced_leaf[x]) continue;
    const int have = hosts_on(fabric, x);
    if (have == 0 && hostless_by_design) continue;
    for (int k = have; k < hosts_per_leaf; ++k)
      deviations.push_back({Deviation::Kind::kMissingHost, {x, 0}, {},
                            fmt::format("{} of {} hosts present", have, hosts_per_leaf)});
  }
  return deviations;
}

}  // namespace ftclos
