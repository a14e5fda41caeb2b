// "multipath": OMRMN-style (Yuan et al. §III; Property 3 counts the paths):
// the 2^lmc LIDs of a destination are spread evenly over its shortest paths,
// and the consumer spreads its traffic over all offsets (path bits 0).
// Destination-based: LID offset o of the CA ranked r (by base LID) is routed
// as index i = r + o, the way D-mod-k routes a host index: a level-l switch
// takes, among the parents on shortest up/down paths (by GUID), the one
// numbered (i / (R_1...R_{l-1})) mod their count, R_k being the most parents
// a level-k switch has. The parent choices on the way up are then the mixed-
// radix digits of i, so on a full tree offsets o = 0..#tops-1 reach #tops
// distinct top switches from any leaf (its up paths and the top switches
// correspond one to one), and pairs with a lower common ancestor use each of
// their paths equally often. Parallel cables take the next digit of i. Any
// folded Clos the up/down rule of updown_reach.h routes is accepted.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "paths/detour_layers.h"
#include "schemes/label_routing.h"
#include "schemes/schemes.h"
#include "paths/updown_reach.h"

namespace ftclos {
namespace {

constexpr int kMaxLmc = 7;

// A switch's best ports toward one leaf, grouped by peer switch, the groups
// in the order of the peers' (GUID, name).
struct Options {
  std::vector<uint8_t> ports;
  std::vector<size_t> group_start;  // plus ports.size() at the end
};

class MultipathPorts {
 public:
  MultipathPorts(const Fabric& fabric, const Levels& levels)
      : fabric_(fabric), levels_(levels), reach_(fabric, levels), best_(reach_) {
    std::vector<long> parents(levels.height + 1, 1);  // R_l
    for (int x = 0; x < fabric.size(); ++x) {
      if (!fabric.node(x).is_switch() || levels.of[x] < 1) continue;
      const long count = static_cast<long>(peers_at(x, levels.of[x] + 1).size());
      parents[levels.of[x]] = std::max(parents[levels.of[x]], count);
    }
    stride_.assign(levels.height + 1, 1);
    for (int l = 2; l <= levels.height; ++l) stride_[l] = stride_[l - 1] * parents[l - 1];
  }

  const UpDownReach& reach() const { return reach_; }

  /// Prepares switch `x` for options().
  void fill(int x) {
    x_ = x;
    best_.fill(x);
    std::vector<int> peers = peers_at(x, -1);
    std::sort(peers.begin(), peers.end(), [&](int a, int b) {
      const Node &p = fabric_.node(a), &q = fabric_.node(b);
      return std::tie(p.guid, p.name, a) < std::tie(q.guid, q.name, b);
    });
    peer_rank_.assign(fabric_.node(x).num_ports + 1, 0);
    for (int p = 1; p <= fabric_.node(x).num_ports; ++p) {
      const PortRef peer = fabric_.peer({x, p});
      if (peer.valid())
        peer_rank_[p] = static_cast<int>(std::find(peers.begin(), peers.end(), peer.node) - peers.begin());
    }
  }

  /// The filled switch's options toward `exit` (not the switch itself).
  void options(const Exit& exit, Options& out) const {
    out.ports = best_.toward(exit);
    std::sort(out.ports.begin(), out.ports.end(),
              [&](uint8_t a, uint8_t b) { return std::pair(peer_rank_[a], a) < std::pair(peer_rank_[b], b); });
    out.group_start.clear();
    for (size_t k = 0; k < out.ports.size(); ++k)
      if (k == 0 || peer_rank_[out.ports[k]] != peer_rank_[out.ports[k - 1]]) out.group_start.push_back(k);
    out.group_start.push_back(out.ports.size());
  }

  /// The port for index `i` among `options` of the filled switch.
  uint8_t pick(const Options& options, long i) const {
    const long groups = static_cast<long>(options.group_start.size()) - 1;
    if (groups <= 0) return kNoPath;
    const long g = i / stride_[levels_.of[x_]] % groups;
    const size_t first = options.group_start[g];
    const long cables = static_cast<long>(options.group_start[g + 1] - first);
    return options.ports[first + i / stride_.back() % cables];
  }

 private:
  // The distinct switches cabled to `x` at `level`; any level when -1.
  std::vector<int> peers_at(int x, int level) const {
    std::vector<int> out;
    for (const Port& port : fabric_.node(x).ports) {
      if (!port.peer.valid() || !fabric_.node(port.peer.node).is_switch()) continue;
      if (level < 0 || levels_.of[port.peer.node] == level) out.push_back(port.peer.node);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  const Fabric& fabric_;
  const Levels& levels_;
  const UpDownReach reach_;
  BestPorts best_;
  std::vector<long> stride_;  // stride_[l] = R_1 ... R_{l-1}; back(): all of them
  int x_ = -1;
  std::vector<int> peer_rank_;  // per port of x_: its peer's rank by (GUID, name)
};

class MultipathScheme : public Scheme {
 public:
  std::string_view name() const override { return "multipath"; }

  Status applies(const Detection& detection) const override {
    if (detection.levels.height < 1) return Status::Error("multipath: the fabric has no switch a CA reaches");
    return Status::Ok();
  }

  // One LID per top switch, as far as the LMC reaches.
  int lmc_needed(const Detection& detection, PathBitsUsers) const override {
    const Levels& levels = detection.levels;
    return std::min(kMaxLmc, ceil_log2(std::count(levels.of.begin(), levels.of.end(), levels.height)));
  }

 protected:
  Result<Routing> route_tables(const RoutingInput& input) const override {
    if (Status status = applies(input.detection); !status.ok()) return status;
    const Fabric& fabric = input.fabric;
    const LidMap& lids = input.lids;
    const Levels& levels = input.detection.levels;
    MultipathPorts ports(fabric, levels);

    // CAs by leaf, each with its rank by base LID, so every switch works out
    // its options once per leaf.
    struct Ca {
      int node;
      long rank;
      uint8_t port;  // on the leaf
    };
    std::map<int, std::vector<Ca>> by_leaf;
    long rank = 0;
    for (int lid = 1; lid < static_cast<int>(lids.owner.size()); ++lid) {
      const int owner = lids.owner[lid];
      if (owner < 0 || fabric.node(owner).is_switch() || lids.base[owner] != lid) continue;
      if (const Exit exit = exit_of(fabric, owner); exit.target >= 0)
        by_leaf[exit.target].push_back({owner, rank, static_cast<uint8_t>(exit.port)});
      ++rank;
    }

    Routing routing;
    routing.lfts.port.assign(fabric.size(), {});
    routing.path_bits.assign(fabric.size(), 0);
    Options options;
    for (int x = 0; x < fabric.size(); ++x) {
      if (!fabric.node(x).is_switch()) continue;
      std::vector<uint8_t>& table = routing.lfts.port[x];
      table.assign(lids.max_lid + 1, kNoPath);
      ports.fill(x);
      for (const auto& [leaf, cas] : by_leaf) {
        ports.options({leaf, cas.front().port}, options);
        for (const Ca& ca : cas)
          for (int o = 0; o < lids.lids_per_ca(); ++o)
            table[lids.base[ca.node] + o] = x == leaf ? ca.port : ports.pick(options, ca.rank + o);
      }
    }
    route_switch_lids(input, ports.reach(), routing.lfts);
    layer_detours(input, ports.reach(), routing);

    const long tops = std::count(levels.of.begin(), levels.of.end(), levels.height);
    routing.lmc_needed = lmc_needed(input.detection, input.path_bits_users);
    if (lids.lmc < routing.lmc_needed)
      routing.notes.push_back(
          fmt::format("LMC {} spreads a destination over {} of the {} top switches; LMC {} uses all", lids.lmc,
                      std::min<long>(lids.lids_per_ca(), tops), tops, routing.lmc_needed));
    if (!input.detection.updown_routable)
      routing.notes.push_back("some leaves share no ancestor: CAs on them cannot reach each other up/down (kNoPath)");
    return routing;
  }
};

}  // namespace

std::unique_ptr<Scheme> make_multipath_scheme() { return std::make_unique<MultipathScheme>(); }

}  // namespace ftclos
