#include "detect/torus.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace ftclos {

int TorusLabels::switches() const {
  int count = 1;
  for (int n : dims) count *= n;
  return count;
}

int TorusLabels::coord(int at, int dim) const {
  for (int k = 0; k < dim; ++k) at /= dims[k];
  return at % dims[dim];
}

int TorusLabels::step(int at, int dim, int by) const {
  int stride = 1;
  for (int k = 0; k < dim; ++k) stride *= dims[k];
  const int n = dims[dim], c = coord(at, dim);
  int next = c + by;
  if (next < 0 || next >= n) {
    if (!wraps[dim]) return -1;
    next = (next + n) % n;
  }
  return at + (next - c) * stride;
}

std::string TorusLabels::shape_text() const {
  const bool any_wrap = std::ranges::find(wraps, true) != wraps.end();
  std::string text = fmt::format("{} {}", any_wrap ? "torus" : "mesh", fmt::join(dims, "x"));
  std::vector<int> paths;
  for (size_t k = 0; k < dims.size(); ++k)
    if (any_wrap && !wraps[k]) paths.push_back(static_cast<int>(k) + 1);
  if (!paths.empty())
    text += fmt::format(" (dimension{} {} a path)", paths.size() == 1 ? "" : "s", fmt::join(paths, ", "));
  return text;
}

namespace {

// The switches (by GUID) and which distinct switches each is cabled to;
// parallel cables count once.
struct SwitchGraph {
  std::vector<int> node;              // local index -> node
  std::vector<int> local;             // node -> local index, -1 for CAs
  std::vector<std::vector<int>> adj;  // sorted local indices
  int cables = 0;                     // distinct adjacent pairs

  bool joined(int a, int b) const { return std::ranges::binary_search(adj[a], b); }
};

SwitchGraph switch_graph(const Fabric& fabric) {
  SwitchGraph g;
  g.local.assign(fabric.size(), -1);
  for (int x = 0; x < fabric.size(); ++x)
    if (fabric.node(x).is_switch()) g.node.push_back(x);
  std::ranges::sort(g.node, [&](int a, int b) { return precedes_by_guid(fabric, a, b); });
  for (size_t i = 0; i < g.node.size(); ++i) g.local[g.node[i]] = static_cast<int>(i);
  g.adj.resize(g.node.size());
  for (size_t i = 0; i < g.node.size(); ++i) {
    for (const Port& port : fabric.node(g.node[i]).ports)
      if (port.peer.valid() && port.peer.node != g.node[i] && g.local[port.peer.node] >= 0)
        g.adj[i].push_back(g.local[port.peer.node]);
    std::ranges::sort(g.adj[i]);
    g.adj[i].erase(std::unique(g.adj[i].begin(), g.adj[i].end()), g.adj[i].end());
    g.cables += static_cast<int>(g.adj[i].size());
  }
  g.cables /= 2;
  return g;
}

int grid_cables(const TorusLabels& grid) {
  int cables = 0;
  for (size_t k = 0; k < grid.dims.size(); ++k)
    cables += grid.switches() / grid.dims[k] * (grid.wraps[k] ? grid.dims[k] : grid.dims[k] - 1);
  return cables;
}

// How many switches lie 0, 1, 2, ... hops from `from`.
std::vector<int> distance_counts(const std::vector<std::vector<int>>& adj, int from) {
  std::vector<int> hops(adj.size(), -1), counts;
  std::vector<int> queue{from};
  hops[from] = 0;
  for (size_t i = 0; i < queue.size(); ++i) {
    const int v = queue[i];
    if (hops[v] >= static_cast<int>(counts.size())) counts.resize(hops[v] + 1);
    ++counts[hops[v]];
    for (int w : adj[v])
      if (hops[w] < 0) hops[w] = hops[v] + 1, queue.push_back(w);
  }
  return counts;
}

// The same for the grid's index 0: hops add up over the dimensions.
std::vector<int> grid_distance_counts(const TorusLabels& grid) {
  std::vector<int> counts{1};
  for (size_t k = 0; k < grid.dims.size(); ++k) {
    const int n = grid.dims[k];
    std::vector<int> next(counts.size() + n, 0);
    for (int c = 0; c < n; ++c) {
      const int hops = grid.wraps[k] ? std::min(c, n - c) : c;
      for (size_t d = 0; d < counts.size(); ++d) next[d + hops] += counts[d];
    }
    while (!next.empty() && next.back() == 0) next.pop_back();
    counts = std::move(next);
  }
  return counts;
}

int counts_apart(const std::vector<int>& a, const std::vector<int>& b) {
  int apart = 0;
  for (size_t d = 0; d < std::max(a.size(), b.size()); ++d)
    apart += std::abs((d < a.size() ? a[d] : 0) - (d < b.size() ? b[d] : 0));
  return apart;
}

// Grid shapes of `switches` switches in 1 to 3 dimensions (a ring at least
// 3 long, a path at least 2), largest dimension first and rings before
// paths of the same length, whose cable count is within `budget` of
// `cables`: the closest first, then the fewest dimensions, then those whose
// corner (any switch of a torus) sees the others at the hops `from_corner`
// counts (a fabric of 576 switches fits a dozen 3-ring shapes by its cable
// count alone, each a long search to refuse), then the most rings.
std::vector<TorusLabels> shapes(int switches, int cables, int budget, const std::vector<int>& from_corner) {
  std::vector<TorusLabels> found;
  auto add = [&](std::vector<int> dims) {
    const int d = static_cast<int>(dims.size());
    for (int mask = 0; mask < (1 << d); ++mask) {
      TorusLabels grid{dims, std::vector<bool>(d), {}};
      bool valid = true;
      for (int k = 0; k < d; ++k) {
        grid.wraps[k] = mask & (1 << k);
        valid = valid && (!grid.wraps[k] || dims[k] >= 3);
        if (k > 0 && dims[k] == dims[k - 1] && grid.wraps[k] && !grid.wraps[k - 1]) valid = false;
      }
      if (valid && std::abs(grid_cables(grid) - cables) <= budget) found.push_back(std::move(grid));
    }
  };
  for (int a = 2; a <= switches; ++a) {
    if (switches % a) continue;
    if (a == switches) add({a});
    for (int b = 2; b <= a && switches / a >= b; ++b) {
      if ((switches / a) % b) continue;
      const int c = switches / a / b;
      if (c == 1) add({a, b});
      else if (c >= 2 && c <= b) add({a, b, c});
    }
  }
  // The more rings last: a torus that lost cables before a mesh with cables
  // too many, where both are as far off.
  std::ranges::stable_sort(found, {}, [&](const TorusLabels& grid) {
    return std::tuple(std::abs(grid_cables(grid) - cables), grid.dims.size(),
                      counts_apart(grid_distance_counts(grid), from_corner), -grid_cables(grid));
  });
  return found;
}

// Places the switches on the grid index by index (each index has an earlier
// grid neighbour to take a candidate from), depth first, within a budget of
// cables out of place and of work.
class Embedding {
 public:
  Embedding(const SwitchGraph& g, const TorusLabels& grid, int budget, long& work)
      : g_(g), grid_(grid), budget_(budget), work_(work), at_(grid.switches(), -1), pos_(g.node.size(), -1) {}

  bool from(int root) {
    std::ranges::fill(at_, -1);
    std::ranges::fill(pos_, -1);
    at_[0] = root;
    pos_[root] = 0;
    return place(1, 0);
  }
  const std::vector<int>& at() const { return at_; }

 private:
  std::vector<int> earlier_neighbors(int i) const {
    std::vector<int> earlier;
    for (size_t k = 0; k < grid_.dims.size(); ++k)
      for (int by : {-1, 1})
        if (const int j = grid_.step(i, static_cast<int>(k), by); j >= 0 && j < i) earlier.push_back(j);
    std::ranges::sort(earlier);
    earlier.erase(std::unique(earlier.begin(), earlier.end()), earlier.end());
    return earlier;
  }

  // Cables out of place when `v` takes index `i`: grid neighbours placed
  // before it that it is not cabled to, placed switches it is cabled to
  // that are no grid neighbours.
  int cost(int v, const std::vector<int>& earlier) const {
    int out = 0;
    for (int j : earlier) out += !g_.joined(v, at_[j]);
    for (int w : g_.adj[v])
      if (pos_[w] >= 0 && !std::ranges::binary_search(earlier, pos_[w])) ++out;
    return out;
  }

  bool place(int i, int spent) {
    if (i == static_cast<int>(at_.size())) return true;
    const std::vector<int> earlier = earlier_neighbors(i);
    std::vector<std::pair<int, int>> candidates;  // (cost, switch)
    for (int j : earlier)
      for (int v : g_.adj[at_[j]])
        if (pos_[v] < 0) candidates.push_back({cost(v, earlier), v});
    std::ranges::sort(candidates);
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    for (const auto& [extra, v] : candidates) {
      if (spent + extra > budget_ || --work_ < 0) return false;
      at_[i] = v;
      pos_[v] = i;
      if (place(i + 1, spent + extra)) return true;
      pos_[v] = -1;
    }
    at_[i] = -1;
    return false;
  }

  const SwitchGraph& g_;
  const TorusLabels& grid_;
  int budget_;
  long& work_;
  std::vector<int> at_;   // grid index -> switch
  std::vector<int> pos_;  // switch -> grid index
};

std::string coord_text(const TorusLabels& grid, int at) {
  std::vector<int> c;
  for (size_t k = 0; k < grid.dims.size(); ++k) c.push_back(grid.coord(at, static_cast<int>(k)));
  return fmt::format("({})", fmt::join(c, ","));
}

PortRef port_to(const Fabric& fabric, int x, int peer) {
  for (int p = 1; p <= fabric.node(x).num_ports; ++p)
    if (fabric.node(x).ports[p].peer.node == peer) return {x, p};
  return {x, 0};
}

std::vector<Deviation> deviations(const Fabric& fabric, const SwitchGraph& g, const TorusLabels& grid,
                                  const std::vector<int>& at) {
  std::vector<Deviation> out;
  std::vector<int> pos(g.node.size());
  for (size_t i = 0; i < at.size(); ++i) pos[at[i]] = static_cast<int>(i);
  for (int i = 0; i < static_cast<int>(at.size()); ++i) {
    std::vector<int> later;  // each grid cable once, from its lower index
    for (size_t k = 0; k < grid.dims.size(); ++k)
      for (int by : {-1, 1})
        if (const int j = grid.step(i, static_cast<int>(k), by); j > i) later.push_back(j);
    std::ranges::sort(later);
    later.erase(std::unique(later.begin(), later.end()), later.end());
    for (int j : later)
      if (!g.joined(at[i], at[j]))
        out.push_back({Deviation::Kind::kMissingCable, {g.node[at[i]], 0}, {g.node[at[j]], 0},
                       fmt::format("{} - {}", coord_text(grid, i), coord_text(grid, j))});
    for (int w : g.adj[at[i]])
      if (pos[w] > i && !std::ranges::binary_search(later, pos[w]))
        out.push_back({Deviation::Kind::kMiswiredCable, port_to(fabric, g.node[at[i]], g.node[w]),
                       port_to(fabric, g.node[w], g.node[at[i]]),
                       fmt::format("{} and {} are no grid neighbours", coord_text(grid, i), coord_text(grid, pos[w]))});
  }
  return out;
}

// Enough for every torus of a few hundred switches to embed at the first
// root, and a fabric of no such shape to be refused in milliseconds.
constexpr long kSearchWork = 400'000;

}  // namespace

std::optional<TorusFit> fit_torus(const Fabric& fabric, int max_deviations) {
  const SwitchGraph g = switch_graph(fabric);
  const int switches = static_cast<int>(g.node.size());
  if (switches < 3) return std::nullopt;
  for (const std::vector<int>& neighbors : g.adj)
    if (neighbors.size() > 6 || neighbors.empty()) return std::nullopt;
  std::vector<int> roots(switches);
  for (int i = 0; i < switches; ++i) roots[i] = i;
  std::ranges::stable_sort(roots, {}, [&](int v) { return g.adj[v].size(); });  // a mesh's corner first
  const std::vector<int> from_corner = distance_counts(g.adj, roots.front());
  long work = kSearchWork;
  // Fewest deviations first: an intact torus embeds at budget 0.
  for (int budget = 0; budget <= max_deviations; ++budget) {
    for (TorusLabels& grid : shapes(switches, g.cables, budget, from_corner)) {
      Embedding embedding(g, grid, budget, work);
      for (int root : roots) {
        if (work < 0) return std::nullopt;
        if (!embedding.from(root)) continue;
        std::vector<Deviation> out_of_place = deviations(fabric, g, grid, embedding.at());
        TorusFit fit{std::move(grid), std::move(out_of_place)};
        fit.labels.index.assign(fabric.size(), -1);
        for (int i = 0; i < switches; ++i) fit.labels.index[g.node[embedding.at()[i]]] = i;
        for (int x = 0; x < fabric.size(); ++x) {
          if (fabric.node(x).is_switch()) continue;
          for (const Port& port : fabric.node(x).ports)
            if (port.peer.valid() && fabric.node(port.peer.node).is_switch()) {
              fit.labels.index[x] = fit.labels.index[port.peer.node];
              break;
            }
        }
        return fit;
      }
    }
  }
  return std::nullopt;
}

std::vector<std::string> torus_coords(const Fabric& fabric, const TorusLabels& labels) {
  std::vector<std::string> out(fabric.size());
  for (int x = 0; x < fabric.size(); ++x)
    if (labels.index[x] >= 0) out[x] = coord_text(labels, labels.index[x]);
  return out;
}

}  // namespace ftclos
