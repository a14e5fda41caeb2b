// DGX SuperPOD-style rail-optimized fabrics (gen/generate.h, SuperpodParams).
//
// Ports. A rail leaf has its servers' HCAs on ports 1..servers (server k on
// port k+1), then its uplinks, by spine then parallel cable. A spine has its
// leaf downlinks first (by leaf then parallel cable), then its core uplinks
// (by core), then its management leaves. A core has one port per (group,
// rail) spine group: port 1 + group x rails + rail, then one per management
// pod. A management leaf has its hosts first, then one uplink per spine (or
// its mgmt_uplinks cables to one spine); a management pod's spine its leaf
// downlinks, then its core uplinks. Every switch's AN is on port radix + 1,
// as on a Quantum switch.
//
// Names. Leaves `su03-leaf-r5`; spines `spine07` (2 levels) or
// `sg2-r5-spine07` (3 levels: spine group 2 of rail 5); cores `core042`;
// HCAs `dgx0412 mlx5_4` (servers numbered across the pod, rails from 0, as
// DGX node descriptions read); management `mgmt-leaf2`, `mgmt2-3 HCA-1`,
// `mgmt-pod1-leaf`, `mgmt-pod1-spine`; ANs
// `an-<switch>` with the AN's node description.
#include <fmt/format.h>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/aggregation_node.h"
#include "gen/generate.h"
#include "gen/generator_support.h"

namespace ftclos {
namespace {

struct Plan {
  int groups = 1;          // spine groups per rail
  int group_units = 1;     // SUs per group
  int parallel = 1;        // cables between a leaf and each of its spines
  int spine_down = 0;      // leaf downlinks per spine
  int cores_per_spine = 0; // 3 levels: core uplinks per spine
  int cores = 0;
};

Status check_range(const char* what, int value, int least, int most) {
  if (value < least || value > most)
    return Status::Error(fmt::format("superpod: {} must be in {}..{}, got {}", what, least, most, value));
  return Status::Ok();
}

Result<Plan> plan_of(const SuperpodParams& p) {
  for (const auto& [what, value, least, most] :
       {std::tuple{"units", p.units, 1, 1000}, std::tuple{"servers", p.servers, 1, 253},
        std::tuple{"rails", p.rails, 1, 64}, std::tuple{"levels", p.levels, 2, 3},
        std::tuple{"spines", p.spines, 1, 253}, std::tuple{"radix", p.radix, 2, 253},
        std::tuple{"partial units", p.partial_units, 0, p.units},
        std::tuple{"partial servers", p.partial_servers, 0, p.servers},
        std::tuple{"management leaves", p.mgmt_leaves, 0, 64}, std::tuple{"management hosts", p.mgmt_hosts, 0, 253},
        std::tuple{"management uplinks", p.mgmt_uplinks, 0, 253},
        std::tuple{"management pods", p.mgmt_pods, 0, p.levels == 3 ? 64 : 0},
        std::tuple{"group units", p.group_units, 0, p.units}})
    if (Status status = check_range(what, value, least, most); !status.ok()) return status;
  if (p.servers % p.spines != 0)
    return Status::Error(fmt::format("superpod: {} spines do not divide a leaf's {} uplinks", p.spines, p.servers));
  Plan plan;
  plan.parallel = p.servers / p.spines;
  plan.group_units = p.levels == 2 || p.group_units == 0 ? p.units : p.group_units;
  // The last group may hold fewer SUs (a pod not built out: NVIDIA Selene's
  // fourth group has 4 of 7); its spines keep the ports of a full group.
  plan.groups = (p.units + plan.group_units - 1) / plan.group_units;
  // Two levels: one spine group takes every rail's leaves.
  const int leaves_per_spine = p.levels == 2 ? p.units * p.rails : plan.group_units;
  plan.spine_down = leaves_per_spine * plan.parallel;
  if (p.levels == 3) {
    plan.cores_per_spine = plan.spine_down;
    plan.cores = p.spines * plan.cores_per_spine;
  }
  const int spine_groups = p.levels == 2 ? 1 : p.rails * plan.groups;
  const int mgmt_per_group = (p.mgmt_leaves + spine_groups - 1) / spine_groups;
  // Cables to management leaves on a spine: one per leaf of its group, or all of a leaf's on the last spine.
  const int mgmt_per_spine = p.mgmt_uplinks > 0 ? mgmt_per_group * p.mgmt_uplinks : mgmt_per_group;
  const std::tuple<const char*, int> needs[] = {
      {"a rail leaf", 2 * p.servers},
      {"a spine", plan.spine_down + plan.cores_per_spine + mgmt_per_spine},
      {"a core", p.rails * plan.groups + p.mgmt_pods},
      {"a management leaf", p.mgmt_hosts + (p.mgmt_uplinks > 0 ? p.mgmt_uplinks : p.spines)},
      {"a management pod's leaf", p.mgmt_pods > 0 ? p.mgmt_hosts + plan.cores_per_spine : 0},
      {"a management pod's spine", 2 * plan.cores_per_spine}};
  for (const auto& [who, ports] : needs) {
    if (ports > p.radix)
      return Status::Error(fmt::format("superpod: {} needs {} ports; the radix is {}", who, ports, p.radix));
  }
  const int64_t nodes = int64_t{p.units} * p.rails * (p.servers + 1) * 2 + int64_t{p.spines} * p.rails * plan.groups * 2 +
                        int64_t{plan.cores} * 2 + int64_t{p.mgmt_leaves} * (p.mgmt_hosts + 2) +
                        int64_t{p.mgmt_pods} * (p.mgmt_hosts + 4);
  if (nodes > kMaxGeneratedNodes)
    return Status::Error(fmt::format("superpod: more than {} nodes; refusing to generate", kMaxGeneratedNodes));
  return plan;
}

// Servers per SU: the last `partial_units` carry a seeded count below full.
std::vector<int> servers_per_unit(const SuperpodParams& p) {
  std::vector<int> servers(p.units, p.servers);
  const int least = p.partial_servers > 0 ? p.partial_servers : std::max(1, p.servers * 3 / 4);
  std::mt19937_64 rng(p.seed);
  for (int u = p.units - p.partial_units; u < p.units; ++u)
    servers[u] = least + static_cast<int>(draw_below(rng, std::max(1, p.servers - least)));
  return servers;
}

class Builder {
 public:
  Builder(const SuperpodParams& params, const Plan& plan) : p_(params), plan_(plan) {}

  Result<Superpod> build() {
    out_.servers_per_unit = servers_per_unit(p_);
    if (Status status = add_switches(); !status.ok()) return status;
    if (Status status = add_compute(); !status.ok()) return status;
    if (Status status = cable_spines(); !status.ok()) return status;
    if (Status status = add_management(); !status.ok()) return status;
    if (p_.aggregation_nodes) {
      for (int x : switches_) {
        if (Status status = add_aggregation_node(x); !status.ok()) return status;
      }
    }
    return std::move(out_);
  }

 private:
  Fabric& fabric() { return out_.fabric; }

  Result<int> new_switch(std::string name) {
    Result<int> node = add_switch(fabric(), std::move(name), p_.radix + (p_.aggregation_nodes ? 1 : 0),
                                  static_cast<int>(switches_.size()));
    if (node.ok()) switches_.push_back(*node);
    return node;
  }
  Result<int> new_host(std::string name) { return add_host(fabric(), std::move(name), 1, hosts_++); }

  int leaf(int unit, int rail) const { return leaves_[unit * p_.rails + rail]; }
  // Spine s of the group (group, rail); two levels have one group of all rails.
  int spine(int group, int rail, int s) const {
    return p_.levels == 2 ? spines_[s] : spines_[(group * p_.rails + rail) * p_.spines + s];
  }

  Status add_switches() {
    for (int u = 0; u < p_.units; ++u) {
      for (int r = 0; r < p_.rails; ++r) {
        Result<int> node = new_switch(fmt::format("su{:02}-leaf-r{}", u + 1, r + 1));
        if (!node.ok()) return node.status();
        leaves_.push_back(*node);
      }
    }
    const int spine_groups = p_.levels == 2 ? 1 : plan_.groups * p_.rails;
    for (int g = 0; g < spine_groups; ++g) {
      for (int s = 0; s < p_.spines; ++s) {
        const std::string name = p_.levels == 2 ? fmt::format("spine{:02}", s + 1)
                                                : fmt::format("sg{}-r{}-spine{:02}", g / p_.rails + 1, g % p_.rails + 1, s + 1);
        Result<int> node = new_switch(name);
        if (!node.ok()) return node.status();
        spines_.push_back(*node);
      }
    }
    for (int c = 0; c < plan_.cores; ++c) {
      Result<int> node = new_switch(fmt::format("core{:03}", c + 1));
      if (!node.ok()) return node.status();
      cores_.push_back(*node);
    }
    return Status::Ok();
  }

  Status add_compute() {
    int server = 0;
    for (int u = 0; u < p_.units; ++u) {
      for (int k = 0; k < out_.servers_per_unit[u]; ++k) {
        ++server;
        for (int r = 0; r < p_.rails; ++r) {
          Result<int> hca = new_host(fmt::format("dgx{:04} mlx5_{}", server, r));
          if (!hca.ok()) return hca.status();
          if (Status status = fabric().connect({*hca, 1}, {leaf(u, r), k + 1}); !status.ok()) return status;
          ++out_.compute_hcas;
        }
      }
    }
    return Status::Ok();
  }

  Status cable_spines() {
    for (int u = 0; u < p_.units; ++u) {
      const int group = u / plan_.group_units, in_group = u % plan_.group_units;
      for (int r = 0; r < p_.rails; ++r) {
        // Two levels: a spine's downlinks run over every leaf, by SU then rail.
        const int leaf_slot = p_.levels == 2 ? u * p_.rails + r : in_group;
        for (int s = 0; s < p_.spines; ++s) {
          for (int t = 0; t < plan_.parallel; ++t) {
            const PortRef up{leaf(u, r), p_.servers + 1 + s * plan_.parallel + t};
            const PortRef down{spine(group, r, s), 1 + leaf_slot * plan_.parallel + t};
            if (Status status = fabric().connect(up, down); !status.ok()) return status;
          }
        }
      }
    }
    // Spine s of every (group, rail) reaches the cores of core group s.
    for (int g = 0; g < plan_.groups && p_.levels == 3; ++g) {
      for (int r = 0; r < p_.rails; ++r) {
        for (int s = 0; s < p_.spines; ++s) {
          for (int c = 0; c < plan_.cores_per_spine; ++c) {
            const PortRef up{spine(g, r, s), 1 + plan_.spine_down + c};
            const PortRef down{cores_[s * plan_.cores_per_spine + c], 1 + g * p_.rails + r};
            if (Status status = fabric().connect(up, down); !status.ok()) return status;
          }
        }
      }
    }
    return Status::Ok();
  }

  // Management leaf k hangs off every spine of spine group k (in group
  // order, round robin), one cable each; two levels: off every spine. With
  // mgmt_uplinks, off the group's last spine only, over that many cables.
  Status add_management() {
    const int spine_groups = p_.levels == 2 ? 1 : plan_.groups * p_.rails;
    for (int k = 0; k < p_.mgmt_leaves; ++k) {
      Result<int> node = new_management_leaf(fmt::format("mgmt-leaf{}", k + 1), k + 1);
      if (!node.ok()) return node.status();
      const int group = k % spine_groups, round = k / spine_groups;
      const int first_free = 1 + plan_.spine_down + plan_.cores_per_spine;
      for (int s = 0; s < p_.spines; ++s) {
        if (p_.mgmt_uplinks > 0) {
          if (s + 1 < p_.spines) continue;
          for (int t = 0; t < p_.mgmt_uplinks; ++t) {
            const PortRef down{spines_[group * p_.spines + s], first_free + round * p_.mgmt_uplinks + t};
            if (Status status = fabric().connect({*node, p_.mgmt_hosts + 1 + t}, down); !status.ok()) return status;
          }
          continue;
        }
        const PortRef down{spines_[group * p_.spines + s], first_free + round};
        if (Status status = fabric().connect({*node, p_.mgmt_hosts + 1 + s}, down); !status.ok()) return status;
      }
    }
    // Management pod k: a leaf cabled to its own spine over as many cables
    // as the spine has core uplinks, one to each core of core group 1, on
    // the cores' ports after the spine groups'.
    for (int k = 0; k < p_.mgmt_pods; ++k) {
      Result<int> leaf = new_management_leaf(fmt::format("mgmt-pod{}-leaf", k + 1), p_.mgmt_leaves + k + 1);
      if (!leaf.ok()) return leaf.status();
      Result<int> spine = new_switch(fmt::format("mgmt-pod{}-spine", k + 1));
      if (!spine.ok()) return spine.status();
      for (int c = 0; c < plan_.cores_per_spine; ++c) {
        if (Status status = fabric().connect({*leaf, p_.mgmt_hosts + 1 + c}, {*spine, 1 + c}); !status.ok()) return status;
        const PortRef core{cores_[c], 1 + plan_.groups * p_.rails + k};
        if (Status status = fabric().connect({*spine, 1 + plan_.cores_per_spine + c}, core); !status.ok()) return status;
      }
    }
    return Status::Ok();
  }

  // A management leaf with its mgmt_hosts hosts (`mgmt<number>-<j> HCA-1`) on its first ports.
  Result<int> new_management_leaf(std::string name, int number) {
    Result<int> node = new_switch(std::move(name));
    if (!node.ok()) return node;
    for (int j = 0; j < p_.mgmt_hosts; ++j) {
      Result<int> host = new_host(fmt::format("mgmt{}-{} HCA-1", number, j + 1));
      if (!host.ok()) return host.status();
      if (Status status = fabric().connect({*host, 1}, {*node, j + 1}); !status.ok()) return status;
    }
    return node;
  }

  Status add_aggregation_node(int x) {
    Result<int> an = new_host("an-" + fabric().node(x).name);
    if (!an.ok()) return an.status();
    fabric().node(*an).description = std::string(kAggregationNodeDescription);
    ++out_.aggregation_nodes;
    return fabric().connect({*an, 1}, {x, p_.radix + 1});
  }

  const SuperpodParams& p_;
  const Plan& plan_;
  Superpod out_;
  std::vector<int> switches_, leaves_, spines_, cores_;
  int hosts_ = 0;
};

}  // namespace

Result<Superpod> generate_superpod(const SuperpodParams& params) {
  Result<Plan> plan = plan_of(params);
  if (!plan.ok()) return plan.status();
  return Builder(params, *plan).build();
}

}  // namespace ftclos
