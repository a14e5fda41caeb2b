// Generators for the fabric families of our papers. Every generator is
// deterministic: the same parameters (and seed) give the same fabric, names
// and GUIDs. Nodes are cabled in a regular port pattern; GUIDs follow ibsim's
// convention (a CA port GUID is its node GUID + port number).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/status.h"

namespace ftclos {

/// Generalized fat-tree PGFT(h; m1..mh; w1..wh; p1..ph) (Zahavi; XGFT when
/// all p are 1). Level 0 holds the hosts, levels 1..h the switches; h is the
/// common length of m, w and p, and the vectors are 0-based: m[l-1] = m_l,
/// w[l-1] = w_l, p[l-1] = p_l. A level-l switch has m_l children (each over
/// p_l parallel cables) and, below the top, w_{l+1} parents (each over
/// p_{l+1}); a host has w_1 parents, so w_1 p_1 ports. Level l has
/// (w_1...w_l)(m_{l+1}...m_h) nodes. Labels, port order and names are in
/// generate_pgft.cc.
struct PgftParams {
  std::vector<int> m;  // m[l-1]: children of a level-l node
  std::vector<int> w;  // w[l-1]: parents of a level-(l-1) node (w[0]: parents of a host)
  std::vector<int> p;  // p[l-1]: parallel cables between a level-(l-1) node and each parent
};

Result<Fabric> generate_pgft(const PgftParams& params);
/// Yuan's ftree(n+m, r): r leaves with n hosts and m uplinks, m spines with r ports.
Result<Fabric> generate_clos2(int n, int m, int r);
/// The m-port n-tree FT(m, n): m (m/2)^(n-1) hosts.
Result<Fabric> generate_ftree(int ports, int levels);
/// Petrini's k-ary n-tree: k^n hosts, n levels of k^(n-1) switches.
Result<Fabric> generate_kary(int k, int levels);
/// Li and Chu's mirrored k-ary n-tree MiKANT(k, n): 2k^n hosts, (2n-2)k^(n-1) switches.
Result<Fabric> generate_mikant(int k, int levels);
/// Radix-regular random folded Clos (Camarero et al., Appendix, Listing 2):
/// `levels` levels, every switch `radix` ports. Levels 1..levels-1 have
/// `leaves` switches (radix/2 down, radix/2 up), the top has leaves/2 roots,
/// every leaf radix/2 hosts. Needs radix and leaves even, radix <= leaves
/// (roots have distinct children) and levels >= 2.
Result<Fabric> generate_rfc(int radix, int leaves, int levels, uint64_t seed);

/// Direct networks (gen/generate_direct.cc): every switch carries `hosts`
/// hosts. A ring of `switches` (at least 3); an x-by-y 2D torus, or with
/// z > 1 an x-by-y-by-z 3D torus (each at least 3); a hypercube of 2^dimensions switches; a dragonfly-like fabric of
/// `groups` groups of `per_group` switches cabled all-to-all, every pair of
/// groups joined by one global cable, spread over the groups' switches.
Result<Fabric> generate_ring(int switches, int hosts);
Result<Fabric> generate_torus(int x, int y, int hosts, int z = 1);
Result<Fabric> generate_hypercube(int dimensions, int hosts);
Result<Fabric> generate_dragonfly(int groups, int per_group, int hosts);

/// A DGX SuperPOD-style compute fabric (gen/generate_superpod.cc): scalable
/// units (SUs) of `servers` servers with `rails` HCAs each, HCA r of every
/// server of an SU on that SU's rail-r leaf. Two levels: every leaf cabled to
/// all `spines` spines over servers/spines parallel cables. Three levels:
/// the SUs form groups of `group_units`; each (group, rail) has its own group
/// of `spines` spines, and every spine has as many core uplinks as leaf
/// downlinks, one to each core of its core group (cores = group_units x
/// servers). Both are PGFTs: PGFT(2; N, U R; 1, S; 1, N/S) and PGFT(3; N, G,
/// R U/G; 1, S, G N/S; 1, N/S, 1). Real pods deviate the ways below
/// (NVIDIA Selene: login leaves on one spine over 2 cables, and two
/// management pods whose spines hang off 14 cores beside the tree).
struct SuperpodParams {
  int units = 4;            // scalable units
  int servers = 20;         // servers of a full SU (HCAs per rail leaf)
  int rails = 8;            // HCAs per server, leaves per SU
  int levels = 2;           // 2 or 3 switch levels
  int spines = 10;          // spines per spine group; divides `servers`
  int group_units = 0;      // 3 levels: SUs per spine group, the last group the rest (0: all)
  int radix = 40;           // ports of every switch, its AN not counted (HDR Quantum: 40)
  int partial_units = 0;    // the last SUs carry fewer servers, seeded in [partial_servers, servers - 1]
  int partial_servers = 0;  // 0: three quarters of `servers`
  int mgmt_leaves = 0;      // management leaves, each cabled once to every spine of one group (2 levels: all spines)
  int mgmt_uplinks = 0;     // > 0: each management leaf on the last spine of its group only, over this many cables
  int mgmt_pods = 0;        // 3 levels: management pods, a leaf on its own spine under core group 1 (as a spine is)
  int mgmt_hosts = 4;       // hosts per management leaf (pods' leaves too)
  bool aggregation_nodes = true;  // a SHARP AN on port radix+1 of every switch
  uint64_t seed = 1;
};

/// What a SuperPOD-style fabric holds, for the summary and for tests.
struct Superpod {
  Fabric fabric;
  int compute_hcas = 0;
  int aggregation_nodes = 0;
  std::vector<int> servers_per_unit;
};

/// Fails on a count out of range, spines not dividing servers, or a switch
/// needing more than `radix` ports.
Result<Superpod> generate_superpod(const SuperpodParams& params);

/// A switch-to-switch cable as it was before removal (core/cable_list.h has
/// the Cable of the file readers: one name each, or the linker mixes them).
struct RemovedCable {
  PortRef a;
  PortRef b;
};

/// Keeps only the first `hosts_per_leaf` hosts (by port; SHARP ANs are no
/// hosts and stay) of every leaf, all when negative, removing the other
/// hosts from the fabric (node indices change), then removes `fail_links` distinct random switch-to-switch cables
/// (seeded). Returns the removed cables, indexed in the degraded fabric. Fails,
/// leaving the fabric as it was, when fail_links is negative or more than the
/// switch-to-switch cables, or hosts_per_leaf is more than any leaf carries.
struct Degradation {
  int fail_links = 0;
  int hosts_per_leaf = -1;
  uint64_t seed = 1;
};
Result<std::vector<RemovedCable>> degrade(Fabric& fabric, const Degradation& degradation);

/// What real clusters do to a textbook fabric, applied by `vary` in this
/// order: storage hosts on the top switches, lost switches, swapped cables,
/// cables inside a level, HCAs cabled on port 2, dual rail.
struct Variations {
  int io_hosts = 0;        // hosts added to every switch of io_level (given ports for them)
  int io_level = 0;        // the switch level they are added on; 0: the top
  int lost_switches = 0;   // random switches removed, with the hosts only they carried
  int lost_level = 0;      // the switch level they are taken from; 0: any level
  int swapped_pairs = 0;   // pairs of same-level uplinks whose upper ends trade places (each switch in one pair at most)
  int level_cables = 0;    // cables added between random distinct switches of level_cables_level (on new ports)
  int level_cables_level = 1;
  int hca_port = 1;        // the port of a two-port HCA compute hosts are cabled on (2: port 1 dark)
  bool dual_rail = false;  // the first half of the hosts also cabled on port 2, where the second half was
  LinkRate rate{};         // every cable's rate; unknown: none written
  int slow_links = 0;      // random switch cables that run at `slow_rate` instead (needs `rate`)
  LinkRate slow_rate{4, LinkSpeed::kDdr};
  uint64_t seed = 1;
};

/// A cable by node names, as a deviation report names it.
struct NamedCable {
  std::string a;
  int a_port = 0;
  std::string b;
  int b_port = 0;
};

/// What `vary` did, by name, for the summary and for tests to check
/// recognition against.
struct VariationLog {
  std::vector<std::string> io_hosts;
  std::vector<std::string> lost_switches;
  std::vector<NamedCable> swapped;  // the cables as they are now, two per pair
  std::vector<NamedCable> level_cables;
  std::vector<NamedCable> slow;     // lower end first
};

/// Applies `variations`; fails, leaving the fabric as it was, when a count
/// is negative or more than the fabric offers, or when hca_port is not 1 or
/// 2 or is 2 together with dual rail. Levels are hop counts from the hosts.
Result<VariationLog> vary(Fabric& fabric, const Variations& variations);

/// The same fabric with node order and, when `ports` is set, the port numbers
/// of every switch randomly permuted (seeded): what a file written by someone
/// else looks like. Names, GUIDs and the cable graph are kept.
Fabric shuffle(const Fabric& fabric, uint64_t seed, bool ports);

}  // namespace ftclos
