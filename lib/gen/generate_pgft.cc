// PGFT / XGFT generator (Zahavi; Öhring et al.) and the fat-tree families
// that are instances of it: Yuan's ftree(n+m, r), the m-port n-tree and the
// k-ary n-tree.
//
// Labels. A level-l node (level 0 = hosts) has one digit per position
// i = 1..h: a_i in [0, m_i) above its level (i > l) and b_i in [0, w_i) at or
// below it (i <= l). A level-l node and a level-(l+1) node are cabled, with
// p_{l+1} parallel cables, iff their digits agree everywhere except position
// l+1, where the lower node's a_{l+1} says which child it is and the upper
// node's b_{l+1} which parent.
//
// Ports. A switch has its down ports first, by child (a_l) then by parallel
// cable, then its up ports, by parent (b_{l+1}) then by parallel cable; a host
// has only up ports. Every port is used.
//
// Names. `L<level>-<digits>` for switches and `H-<digits>` for hosts, digits
// from position h down to 1, dot-separated, leaving out positions whose range
// is a single value (they are always 0): FT(8,3) has H-7.3.1, L1-7.3, L3-1.2.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "gen/generate.h"
#include "gen/generator_support.h"

namespace ftclos {
namespace {

// One level's digit ranges (index 0 = position 1) and mixed-radix numbering,
// position 1 least significant.
struct Level {
  std::vector<int> radix;

  int64_t size() const {
    int64_t n = 1;
    for (int r : radix) n *= r;
    return n;
  }
  std::vector<int> digits(int64_t index) const {
    std::vector<int> d(radix.size());
    for (size_t i = 0; i < radix.size(); ++i) {
      d[i] = static_cast<int>(index % radix[i]);
      index /= radix[i];
    }
    return d;
  }
  int64_t index(const std::vector<int>& d) const {
    int64_t n = 0;
    for (size_t i = radix.size(); i-- > 0;) n = n * radix[i] + d[i];
    return n;
  }
  std::string label(int64_t index) const {
    const std::vector<int> d = digits(index);
    std::string text;
    for (size_t i = radix.size(); i-- > 0;) {
      if (radix[i] == 1) continue;
      text += fmt::format("{}{}", text.empty() ? "" : ".", d[i]);
    }
    return text.empty() ? "0" : text;
  }
};

Level level_of(const PgftParams& params, int l) {
  Level level;
  for (int i = 1; i <= static_cast<int>(params.m.size()); ++i)
    level.radix.push_back(i <= l ? params.w[i - 1] : params.m[i - 1]);
  return level;
}

int down_ports(const PgftParams& params, int l) { return l == 0 ? 0 : params.m[l - 1] * params.p[l - 1]; }
int up_ports(const PgftParams& params, int l) {
  return l == static_cast<int>(params.m.size()) ? 0 : params.w[l] * params.p[l];
}

// Deeper trees are chains of degenerate levels, not fabrics anyone builds.
constexpr int kMaxLevels = 64;

Status check_levels(const char* family, int levels) {
  if (levels < 1 || levels > kMaxLevels)
    return Status::Error(fmt::format("{}: the level count must be in 1..{}, got {}", family, kMaxLevels, levels));
  return Status::Ok();
}

Status validate(const PgftParams& params) {
  const size_t h = params.m.size();
  if (Status status = check_levels("PGFT", static_cast<int>(h)); !status.ok()) return status;
  if (params.w.size() != h || params.p.size() != h)
    return Status::Error(fmt::format("PGFT: m, w and p must have h entries each, got {}, {} and {}", h,
                                     params.w.size(), params.p.size()));
  for (size_t i = 0; i < h; ++i) {
    for (auto [name, values] : {std::pair{"m", &params.m}, std::pair{"w", &params.w}, std::pair{"p", &params.p}}) {
      const int value = (*values)[i];
      if (value < 1 || value > 254)
        return Status::Error(fmt::format("PGFT: {}{} is {}; it must be in 1..254", name, i + 1, value));
    }
  }
  int64_t nodes = 0;
  for (int l = 0; l <= static_cast<int>(h); ++l) {
    // Each factor is at most 254, so the products below cannot overflow before the cap stops them.
    int64_t count = 1;
    for (int r : level_of(params, l).radix) {
      count *= r;
      if (count > kMaxGeneratedNodes) break;
    }
    nodes += count;
    if (nodes > kMaxGeneratedNodes)
      return Status::Error(fmt::format("PGFT: more than {} nodes; refusing to generate", kMaxGeneratedNodes));
    const int64_t ports = int64_t{down_ports(params, l)} + up_ports(params, l);
    if (ports > 254)
      return Status::Error(fmt::format("PGFT: level-{} nodes would need {} ports; at most 254", l, ports));
  }
  return Status::Ok();
}

}  // namespace

Result<Fabric> generate_pgft(const PgftParams& params) {
  if (Status status = validate(params); !status.ok()) return status;
  const int h = static_cast<int>(params.m.size());
  Fabric fabric;
  // first[l]: fabric index of level l's node 0. Switches by level first, then hosts.
  std::vector<int> first(h + 1);
  int switches = 0;
  for (int l = 1; l <= h; ++l) {
    const Level level = level_of(params, l);
    for (int64_t i = 0; i < level.size(); ++i) {
      Result<int> node = add_switch(fabric, fmt::format("L{}-{}", l, level.label(i)),
                                    down_ports(params, l) + up_ports(params, l), switches++);
      if (!node.ok()) return node.status();
      if (i == 0) first[l] = *node;
    }
  }
  const Level hosts = level_of(params, 0);
  for (int64_t i = 0; i < hosts.size(); ++i) {
    Result<int> node = add_host(fabric, "H-" + hosts.label(i), up_ports(params, 0), static_cast<int>(i));
    if (!node.ok()) return node.status();
    if (i == 0) first[0] = *node;
  }
  for (int l = 0; l < h; ++l) {
    const Level lower = level_of(params, l), upper = level_of(params, l + 1);
    const int parallel = params.p[l];
    for (int64_t i = 0; i < lower.size(); ++i) {
      std::vector<int> d = lower.digits(i);
      const int child = d[l];  // a_{l+1}
      for (int parent = 0; parent < params.w[l]; ++parent) {
        d[l] = parent;  // b_{l+1}
        const int upper_node = first[l + 1] + static_cast<int>(upper.index(d));
        for (int k = 0; k < parallel; ++k) {
          const PortRef up{first[l] + static_cast<int>(i), 1 + down_ports(params, l) + parent * parallel + k};
          const PortRef down{upper_node, 1 + child * parallel + k};
          if (Status status = fabric.connect(up, down); !status.ok()) return status;
        }
      }
    }
  }
  return fabric;
}

Result<Fabric> generate_clos2(int n, int m, int r) {
  if (n < 1 || m < 1 || r < 1)
    return Status::Error(fmt::format("ftree(n+m, r): n, m and r must be positive, got n={} m={} r={}", n, m, r));
  return generate_pgft({.m = {n, r}, .w = {1, m}, .p = {1, 1}});
}

Result<Fabric> generate_ftree(int ports, int levels) {
  if (ports < 2 || ports % 2 != 0)
    return Status::Error(fmt::format("FT(m, n): the port count m must be even and at least 2, got {}", ports));
  if (Status status = check_levels("FT(m, n)", levels); !status.ok()) return status;
  PgftParams params{.m = std::vector<int>(levels, ports / 2), .w = std::vector<int>(levels, ports / 2),
                    .p = std::vector<int>(levels, 1)};
  params.m.back() = ports;  // the roots take all m sub-trees
  params.w.front() = 1;     // a host has one cable
  return generate_pgft(params);
}

Result<Fabric> generate_kary(int k, int levels) {
  if (k < 1) return Status::Error(fmt::format("k-ary n-tree: k must be positive, got {}", k));
  if (Status status = check_levels("k-ary n-tree", levels); !status.ok()) return status;
  PgftParams params{.m = std::vector<int>(levels, k), .w = std::vector<int>(levels, k),
                    .p = std::vector<int>(levels, 1)};
  params.w.front() = 1;
  return generate_pgft(params);
}

}  // namespace ftclos
