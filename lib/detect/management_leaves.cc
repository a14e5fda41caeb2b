#include "detect/management_leaves.h"

#include <algorithm>
#include <map>
#include <set>

namespace ftclos {
namespace {

struct Uplinks {
  int cables = 0;
  int spines = 0;  // distinct level-2 neighbours
};

Uplinks uplinks_of(const Fabric& fabric, const Levels& levels, int x) {
  Uplinks out;
  std::set<int> spines;
  for (const Port& port : fabric.node(x).ports)
    if (port.peer.valid() && fabric.node(port.peer.node).is_switch() && levels.of[port.peer.node] == 2) {
      ++out.cables;
      spines.insert(port.peer.node);
    }
  out.spines = static_cast<int>(spines.size());
  return out;
}

// The port `x` would use for its missing cable: of `sibling_ports` (the
// ports its siblings use toward the same peer: the other management
// leaves' toward a spine, the other spines' toward a management leaf), the
// most common one still free on `x`; 0 when none is.
int sibling_port(const Fabric& fabric, int x, const std::vector<int>& sibling_ports) {
  std::map<int, int> count;
  for (int p : sibling_ports)
    if (p <= fabric.node(x).num_ports && !fabric.node(x).ports[p].peer.valid()) ++count[p];
  int best = 0;
  for (const auto& [p, n] : count)
    if (best == 0 || n > count[best]) best = p;
  return best;
}

// The hosts of the fullest leaf.
int most_leaf_hosts(const Fabric& fabric, const Levels& levels) {
  int most = 0;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch() && levels.of[x] == 1) most = std::max(most, hosts_on(fabric, x));
  return most;
}

// At most half the hosts of the fullest leaf: a management leaf (login,
// UFM, a storage head or two), not a compute leaf whose spines were lost
// (it keeps its hosts).
bool few_hosts(const Fabric& fabric, int x, int most_hosts) { return 2 * hosts_on(fabric, x) <= most_hosts; }

PortRef moved(PortRef ref, const std::vector<int>& old_index) {
  return ref.valid() ? PortRef{old_index[ref.node], ref.port} : ref;
}

}  // namespace

std::vector<int> thin_leaves(const Fabric& fabric, const Levels& levels) {
  // The best-cabled leaf's counts: where cables failed on most leaves, the
  // most common count is below the full one, and a management leaf with
  // half the full count would be more than half of it.
  Uplinks usual;
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch() && levels.of[x] == 1) {
      const Uplinks up = uplinks_of(fabric, levels, x);
      usual = {std::max(usual.cables, up.cables), std::max(usual.spines, up.spines)};
    }
  const int most_hosts = most_leaf_hosts(fabric, levels);
  std::vector<int> thin;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch() || levels.of[x] != 1) continue;
    const Uplinks up = uplinks_of(fabric, levels, x);
    if (2 * up.cables <= usual.cables || (2 * up.spines <= usual.spines && few_hosts(fabric, x, most_hosts)))
      thin.push_back(x);
  }
  return thin;
}

std::vector<int> management_spines(const Fabric& fabric, const Levels& levels, const std::vector<int>& management) {
  const int most_hosts = most_leaf_hosts(fabric, levels);
  std::vector<bool> is_management(fabric.size(), false);
  for (int x : management) is_management[x] = few_hosts(fabric, x, most_hosts);
  std::vector<int> spines;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch() || levels.of[x] != 2) continue;
    bool any = false, only_management = true;
    for (const Port& port : fabric.node(x).ports) {
      if (!port.peer.valid() || levels.of[port.peer.node] != 1 || !fabric.node(port.peer.node).is_switch()) continue;
      any = true;
      only_management &= is_management[port.peer.node];
    }
    if (any && only_management) spines.push_back(x);
  }
  return spines;
}

std::vector<Deviation> management_leaf_gaps(const Fabric& fabric, const Levels& levels,
                                            const std::vector<int>& management) {
  std::vector<bool> is_management(fabric.size(), false);
  for (int x : management) is_management[x] = true;
  auto neighbours_at = [&](int x, int level) {
    std::set<int> out;
    for (const Port& port : fabric.node(x).ports)
      if (port.peer.valid() && fabric.node(port.peer.node).is_switch() && levels.of[port.peer.node] == level &&
          !is_management[port.peer.node])
        out.insert(port.peer.node);
    return out;
  };
  // The cables between management leaves and spines, by either end: the
  // ports the other ends use there (the leaves' toward a spine, the
  // spines' toward a leaf).
  std::map<int, std::vector<int>> ports_toward;
  for (int leaf : management)
    for (int p = 1; p <= fabric.node(leaf).num_ports; ++p)
      if (const PortRef peer = fabric.node(leaf).ports[p].peer;
          peer.valid() && fabric.node(peer.node).is_switch() && levels.of[peer.node] == 2) {
        ports_toward[peer.node].push_back(p);
        ports_toward[leaf].push_back(peer.port);
      }
  std::vector<Deviation> gaps;
  for (int leaf : management) {
    const std::set<int> spines = neighbours_at(leaf, 2);
    std::set<int> group;  // the spines above the tree leaves below `spines`
    for (int spine : spines)
      for (int below : neighbours_at(spine, 1)) group.merge(neighbours_at(below, 2));
    // Cabled to one spine only, over parallel cables, the leaf hangs off it
    // by design (a login leaf on two cables to one spine, a management
    // pod's leaf on fourteen): the rest of the group is no gap. A leaf left
    // with one cable lost the others.
    if (spines.size() == 1 && uplinks_of(fabric, levels, leaf).cables >= 2) continue;
    for (int spine : group)
      if (!spines.contains(spine))
        gaps.push_back({Deviation::Kind::kMissingCable, {leaf, sibling_port(fabric, leaf, ports_toward[spine])},
                        {spine, sibling_port(fabric, spine, ports_toward[leaf])},
                        "management leaf - its spine group"});
  }
  return gaps;
}

Result<XgftFit> fit_xgft_without(const Fabric& fabric, const Levels& levels, const std::vector<int>& set_aside) {
  std::vector<bool> keep(fabric.size(), true);
  for (int x : set_aside) {
    keep[x] = false;
    for (const Port& port : fabric.node(x).ports)
      if (port.peer.valid() && !fabric.node(port.peer.node).is_switch()) keep[port.peer.node] = false;
  }
  std::vector<int> new_index;
  const Fabric sub = induced_subfabric(fabric, keep, &new_index);
  std::vector<int> old_index(sub.size());
  Levels sub_levels;
  sub_levels.height = levels.height;
  sub_levels.of.resize(sub.size());
  for (int x = 0; x < fabric.size(); ++x) {
    if (new_index[x] < 0) continue;
    old_index[new_index[x]] = x;
    sub_levels.of[new_index[x]] = levels.of[x];
  }
  for (int x : levels.io_hosts)
    if (new_index[x] >= 0) sub_levels.io_hosts.push_back(new_index[x]);
  for (int x : levels.aggregation_nodes)
    if (new_index[x] >= 0) sub_levels.aggregation_nodes.push_back(new_index[x]);

  Result<XgftFit> fit = fit_xgft(sub, sub_levels);
  if (!fit.ok()) return fit;
  XgftFit out;
  out.labels.shape = fit->labels.shape;
  out.labels.digits.assign(fabric.size(), {});
  out.reduced_leaf.assign(fabric.size(), false);
  for (int y = 0; y < sub.size(); ++y) {
    out.labels.digits[old_index[y]] = std::move(fit->labels.digits[y]);
    if (y < static_cast<int>(fit->reduced_leaf.size())) out.reduced_leaf[old_index[y]] = fit->reduced_leaf[y];
  }
  for (int x : set_aside) out.reduced_leaf[x] = true;
  out.labels.node_at = std::move(fit->labels.node_at);
  for (std::vector<int>& level : out.labels.node_at)
    for (int& node : level)
      if (node >= 0) node = old_index[node];
  for (Deviation& d : fit->deviations) {
    d.at = moved(d.at, old_index);
    d.peer = moved(d.peer, old_index);
    d.belongs = moved(d.belongs, old_index);
    out.deviations.push_back(std::move(d));
  }
  return out;
}

}  // namespace ftclos
