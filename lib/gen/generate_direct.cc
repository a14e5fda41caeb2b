// Direct networks: every switch carries hosts and cables go between
// switches of equal standing, so there are no levels to route up and down
// by (the up*/down* floor's fabrics, paths/updown_star.h). Ring, 2D and 3D
// torus, hypercube and a dragonfly-like group fabric.
//
// Ports: a switch's hosts first (1..hosts), then its switch cables in the
// order each generator lists. Names: switches `S-<index>` (the dragonfly:
// `G<group>-S<index>`), hosts `H-<switch index>.<slot>`.
#include <fmt/format.h>

#include <functional>
#include <vector>

#include "gen/generate.h"
#include "gen/generator_support.h"

namespace ftclos {
namespace {

// `names.size()` switches with `hosts` hosts each and the cables `neighbors`
// lists (each cable once, from its lower index), cabled in that order.
Result<Fabric> build(const std::string& what, const std::vector<std::string>& names, int hosts,
                     const std::vector<std::vector<int>>& neighbors) {
  const int switches = static_cast<int>(names.size());
  std::vector<int> degree(switches, hosts);
  for (int s = 0; s < switches; ++s)
    for (int t : neighbors[s]) ++degree[s], ++degree[t];
  Fabric fabric;
  for (int s = 0; s < switches; ++s) {
    if (degree[s] > 254) return Status::Error(fmt::format("{}: a switch would need {} ports, at most 254", what, degree[s]));
    if (Result<int> node = add_switch(fabric, names[s], degree[s], s); !node.ok()) return node.status();
  }
  std::vector<int> next_port(switches, hosts + 1);
  for (int s = 0; s < switches; ++s)
    for (int slot = 0; slot < hosts; ++slot) {
      Result<int> host = add_host(fabric, fmt::format("H-{}.{}", s, slot), 1, s * hosts + slot);
      if (!host.ok()) return host.status();
      if (Status status = fabric.connect({*host, 1}, {s, 1 + slot}); !status.ok()) return status;
    }
  for (int s = 0; s < switches; ++s)
    for (int t : neighbors[s])
      if (Status status = fabric.connect({s, next_port[s]++}, {t, next_port[t]++}); !status.ok()) return status;
  return fabric;
}

std::vector<std::string> plain_names(int switches) {
  std::vector<std::string> names;
  for (int s = 0; s < switches; ++s) names.push_back(fmt::format("S-{}", s));
  return names;
}

// Before anything is allocated, in 64-bit arithmetic: `switches` switches
// with `hosts` hosts each, every switch at most `ports_needed` ports.
Status check_size(const std::string& what, int64_t switches, int hosts, int64_t ports_needed) {
  if (hosts < 0) return Status::Error(fmt::format("{}: hosts per switch must not be negative, got {}", what, hosts));
  const int64_t nodes = switches * (int64_t{hosts} + 1);
  if (nodes > kMaxGeneratedNodes)
    return Status::Error(fmt::format("{}: {} nodes is more than {}; refusing to generate", what, nodes,
                                     kMaxGeneratedNodes));
  if (ports_needed > 254)
    return Status::Error(fmt::format("{}: a switch would need {} ports, at most 254", what, ports_needed));
  return Status::Ok();
}

}  // namespace

Result<Fabric> generate_ring(int switches, int hosts) {
  if (switches < 3) return Status::Error(fmt::format("ring: at least 3 switches are needed, got {}", switches));
  if (Status status = check_size("ring", switches, hosts, int64_t{hosts} + 2); !status.ok()) return status;
  std::vector<std::vector<int>> neighbors(switches);
  for (int s = 0; s + 1 < switches; ++s) neighbors[s].push_back(s + 1);
  neighbors[0].push_back(switches - 1);
  return build("ring", plain_names(switches), hosts, neighbors);
}

Result<Fabric> generate_torus(int x, int y, int hosts, int z) {
  if (x < 3 || y < 3 || z == 2 || z < 1)
    return Status::Error(fmt::format("torus: each dimension needs at least 3 switches, got {}x{}{}", x, y,
                                     z == 1 ? "" : fmt::format("x{}", z)));
  if (Status status = check_size("torus", int64_t{x} * y * z, hosts, int64_t{hosts} + (z == 1 ? 4 : 6)); !status.ok())
    return status;
  // Switch (i, j, k) is index (k * y + j) * x + i; each cable listed from its lower index.
  std::vector<std::vector<int>> neighbors(x * y * z);
  auto cable = [&](int a, int b) { neighbors[std::min(a, b)].push_back(std::max(a, b)); };
  auto at = [&](int i, int j, int k) { return (k * y + j) * x + i; };
  for (int k = 0; k < z; ++k)
    for (int j = 0; j < y; ++j)
      for (int i = 0; i < x; ++i) {
        cable(at(i, j, k), at((i + 1) % x, j, k));
        cable(at(i, j, k), at(i, (j + 1) % y, k));
        if (z > 1) cable(at(i, j, k), at(i, j, (k + 1) % z));
      }
  return build("torus", plain_names(x * y * z), hosts, neighbors);
}

Result<Fabric> generate_hypercube(int dimensions, int hosts) {
  if (dimensions < 1 || dimensions > 14)
    return Status::Error(fmt::format("hypercube: dimensions must be in 1..14, got {}", dimensions));
  if (Status status = check_size("hypercube", int64_t{1} << dimensions, hosts, int64_t{hosts} + dimensions);
      !status.ok())
    return status;
  const int switches = 1 << dimensions;
  std::vector<std::vector<int>> neighbors(switches);
  for (int s = 0; s < switches; ++s)
    for (int d = 0; d < dimensions; ++d)
      if (!(s & (1 << d))) neighbors[s].push_back(s | (1 << d));
  return build("hypercube", plain_names(switches), hosts, neighbors);
}

Result<Fabric> generate_dragonfly(int groups, int per_group, int hosts) {
  if (groups < 2 || per_group < 1)
    return Status::Error(fmt::format("dragonfly: at least 2 groups of at least 1 switch are needed, got {} of {}",
                                     groups, per_group));
  // The busiest switch: its group's other switches and its share of the groups-1 global cables.
  const int64_t global_ports = (int64_t{groups} - 1 + per_group - 1) / per_group;
  if (Status status = check_size("dragonfly", int64_t{groups} * per_group, hosts,
                                 int64_t{hosts} + per_group - 1 + global_ports);
      !status.ok())
    return status;
  // Group g's cable to group h (h != g) leaves from its switch
  // ((h - g - 1) mod groups) mod per_group: global cables spread evenly.
  const int switches = groups * per_group;
  std::vector<std::vector<int>> neighbors(switches);
  std::vector<std::string> names;
  for (int g = 0; g < groups; ++g)
    for (int s = 0; s < per_group; ++s) {
      names.push_back(fmt::format("G{}-S{}", g, s));
      for (int t = s + 1; t < per_group; ++t) neighbors[g * per_group + s].push_back(g * per_group + t);
    }
  auto gateway = [&](int g, int h) { return g * per_group + ((h - g - 1 + groups) % groups) % per_group; };
  for (int g = 0; g < groups; ++g)
    for (int h = g + 1; h < groups; ++h) neighbors[gateway(g, h)].push_back(gateway(h, g));
  return build("dragonfly", names, hosts, neighbors);
}

}  // namespace ftclos
