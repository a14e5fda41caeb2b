// The DRB flow simulator (drb_sim.h).
#include "research/drb_sim.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "detect/detect.h"
#include "gen/generate.h"
#include "gen/generator_support.h"
#include "schemes/schemes.h"

namespace ftclos {
namespace {

// k random derangements: every host sends k flows and receives k, none to itself.
std::vector<std::pair<int, int>> k_permutation(int hosts, int k, std::mt19937_64& rng) {
  std::vector<std::pair<int, int>> flows;
  std::vector<int> target(hosts);
  for (int round = 0; round < k; ++round) {
    for (;;) {  // rejection: a random permutation is a derangement with probability ~1/e
      std::iota(target.begin(), target.end(), 0);
      shuffle_in_place(target.begin(), target.end(), rng);
      bool fixed_point = false;
      for (int i = 0; i < hosts && !fixed_point; ++i) fixed_point = target[i] == i;
      if (!fixed_point) break;
    }
    for (int i = 0; i < hosts; ++i) flows.emplace_back(i, target[i]);
  }
  shuffle_in_place(flows.begin(), flows.end(), rng);  // arrival order
  return flows;
}

uint8_t pick_uplink(const DrbFabric& f, const DrbRun& run, int node, uint8_t dmodk, const std::vector<int>& load,
                    std::mt19937_64& rng) {
  const std::vector<uint8_t>& up = f.up[node];
  const int count = static_cast<int>(up.size());
  auto load_of = [&](uint8_t port) { return load[f.first_channel[node] + port]; };
  switch (run.policy) {
    case DrbPolicy::kDmodk:
      return dmodk;
    case DrbPolicy::kVlb:
      return up[draw_below(rng, count)];
    case DrbPolicy::kMicro: {
      if (count < 2) return up[0];
      const int a = static_cast<int>(draw_below(rng, count));
      const int b = (a + 1 + static_cast<int>(draw_below(rng, count - 1))) % count;  // distinct from a
      return load_of(up[b]) < load_of(up[a]) ? up[b] : up[a];
    }
    case DrbPolicy::kDrb: {
      const uint8_t other = up[draw_below(rng, count)];
      return load_of(dmodk) - load_of(other) > run.threshold ? other : dmodk;
    }
  }
  return dmodk;
}

// Routes every flow of one k-permutation; returns the largest link load.
int one_run(const DrbFabric& f, const DrbRun& run, std::mt19937_64& rng) {
  std::vector<int> load(f.peer.size(), 0);
  for (const auto& [s, d] : k_permutation(static_cast<int>(f.hosts.size()), run.k, rng)) {
    const int source = f.hosts[s], target = f.hosts[d];
    const int dlid = f.lids.base[target];
    int channel = f.first_channel[source] + 1;
    for (;;) {
      ++load[channel];
      const int node = f.peer[channel];
      if (node == target) break;
      uint8_t port = f.dmodk.at(node, dlid);
      if (!f.down[f.first_channel[node] + port]) port = pick_uplink(f, run, node, port, load, rng);
      channel = f.first_channel[node] + port;
    }
  }
  return *std::ranges::max_element(load);
}

}  // namespace

std::string_view policy_name(DrbPolicy policy) {
  switch (policy) {
    case DrbPolicy::kDmodk: return "D-mod-k";
    case DrbPolicy::kVlb: return "VLB";
    case DrbPolicy::kMicro: return "Micro";
    case DrbPolicy::kDrb: return "DRB";
  }
  return "";
}

Result<DrbFabric> make_drb_fabric(int ports, int levels) {
  Result<Fabric> fabric = generate_ftree(ports, levels);
  if (!fabric.ok()) return fabric.status();
  DrbFabric f;
  f.fabric = std::move(*fabric);
  const Detection detection = detect(f.fabric);
  Result<LidMap> lids = assign_lids(f.fabric, 0);
  if (!lids.ok()) return lids.status();
  f.lids = std::move(*lids);
  Result<Routing> routing = make_dmodk_scheme()->route({f.fabric, detection, f.lids});
  if (!routing.ok()) return Status::Error("dmodk: " + routing.status().message());
  f.dmodk = std::move(routing->lfts);
  f.hosts = pattern_hosts(f.fabric);

  const std::vector<int>& level = detection.levels.of;
  f.first_channel = first_channels(f.fabric);
  f.peer.assign(f.first_channel.back(), -1);
  f.down.assign(f.first_channel.back(), false);
  f.up.resize(f.fabric.size());
  for (int i = 0; i < f.fabric.size(); ++i) {
    for (int p = 1; p <= f.fabric.node(i).num_ports; ++p) {
      const int peer = f.fabric.node(i).ports[p].peer.node;
      const int c = f.first_channel[i] + p;
      f.peer[c] = peer;
      if (peer < 0) continue;
      f.down[c] = level[peer] < level[i];
      if (level[peer] > level[i] && f.fabric.node(i).is_switch()) f.up[i].push_back(static_cast<uint8_t>(p));
    }
  }
  return f;
}

Spread simulate_max_load(const DrbFabric& fabric, const DrbRun& run) {
  std::mt19937_64 rng(run.seed);
  std::vector<double> loads;
  for (int r = 0; r < run.runs; ++r) loads.push_back(one_run(fabric, run, rng));
  return spread_of(loads);
}

int default_threshold(int hosts) {
  return static_cast<int>(std::floor(std::log(std::log(static_cast<double>(hosts))) / std::log(2.0)));
}

double drb_estimate(int hosts, int k, int threshold) {
  return k + std::log(std::log(static_cast<double>(hosts))) / std::log(2.0) + threshold;
}

}  // namespace ftclos
