// `ftclos gen FAMILY [params] [-o FILE]`: generate a fabric, optionally
// degrade it, and write it as a net file. The summary goes to stderr so the
// net file can go to stdout.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.h"
#include "commands.h"
#include "core/link_rate.h"
#include "core/netfile.h"
#include "detect/common_ancestor.h"
#include "gen/generate.h"

namespace ftclos::cli {
namespace {

struct GenOptions {
  int n = 0, m = 0, r = 0, ports = 0, levels = 0, k = 0, h = 0, radix = 0, leaves = 0;
  int switches = 0, x = 0, y = 0, z = 1, dimensions = 0, groups = 0, hosts = 0;
  std::vector<int> pgft_m, pgft_w, pgft_p;
  SuperpodParams superpod;
  bool no_aggregation_nodes = false;
  Degradation degradation;
  Variations variations;
  std::string rate, slow_rate;  // empty: unknown / 4xDDR
  std::string output = "-";     // '-': stdout
};

const CLI::Validator kLinkRate(
    [](std::string& value) {
      return parse_link_rate(value) ? std::string() : "expected a width and speed like 4xEDR, got " + value;
    },
    "RATE");

// Degrades, writes and summarizes a generated fabric; returns the exit code.
int finish(const std::string& family, Result<Fabric> fabric, const GenOptions& options, bool check_ancestors) {
  if (!fabric.ok()) {
    fmt::print(stderr, "ftclos gen: {}\n", fabric.status().message());
    return 2;
  }
  Result<std::vector<RemovedCable>> removed = degrade(*fabric, options.degradation);
  if (!removed.ok()) {
    fmt::print(stderr, "ftclos gen: {}\n", removed.status().message());
    return 2;
  }
  // Named now: vary renumbers the nodes when it removes switches.
  std::vector<NamedCable> removed_cables;
  for (const RemovedCable& cable : *removed)
    removed_cables.push_back({fabric->node(cable.a.node).name, cable.a.port, fabric->node(cable.b.node).name, cable.b.port});
  Variations variations = options.variations;
  variations.seed = options.degradation.seed;
  if (!options.rate.empty()) variations.rate = *parse_link_rate(options.rate);
  if (!options.slow_rate.empty()) variations.slow_rate = *parse_link_rate(options.slow_rate);
  Result<VariationLog> varied = vary(*fabric, variations);
  if (!varied.ok()) {
    fmt::print(stderr, "ftclos gen: {}\n", varied.status().message());
    return 2;
  }
  if (Status status = write_output(options.output, write_netfile(*fabric)); !status.ok())
    return bad_input("gen", status);
  std::string ancestors;
  if (check_ancestors)
    ancestors = fmt::format(", common ancestors: {}", every_leaf_pair_has_common_ancestor(*fabric) ? "yes" : "no");
  fmt::print(stderr, "{}: {} hosts, {} switches, {} cables, {} removed{}\n", family, fabric->count(NodeType::kCa),
             fabric->count(NodeType::kSwitch), fabric->cable_count(), removed->size(), ancestors);
  for (const NamedCable& cable : removed_cables)
    fmt::print(stderr, "removed: \"{}\"[{}] - \"{}\"[{}]\n", cable.a, cable.a_port, cable.b, cable.b_port);
  for (const std::string& name : varied->io_hosts) fmt::print(stderr, "io host: \"{}\"\n", name);
  for (const std::string& name : varied->lost_switches) fmt::print(stderr, "lost switch: \"{}\"\n", name);
  for (const NamedCable& cable : varied->swapped)
    fmt::print(stderr, "swapped: \"{}\"[{}] - \"{}\"[{}]\n", cable.a, cable.a_port, cable.b, cable.b_port);
  for (const NamedCable& cable : varied->level_cables)
    fmt::print(stderr, "level cable: \"{}\"[{}] - \"{}\"[{}]\n", cable.a, cable.a_port, cable.b, cable.b_port);
  for (const NamedCable& cable : varied->slow)
    fmt::print(stderr, "slow link: \"{}\"[{}] - \"{}\"[{}]\n", cable.a, cable.a_port, cable.b, cable.b_port);
  return 0;
}

// A family subcommand with the options every family takes.
CLI::App* add_family(CLI::App& gen, const std::string& name, const std::string& help, GenOptions& options) {
  CLI::App* family = gen.add_subcommand(name, help);
  family->add_option("--fail-links", options.degradation.fail_links, "remove this many random switch cables")
      ->check(kNonNegative);
  family->add_option("--seed", options.degradation.seed, "seed of every random choice (default 1)")
      ->check(kNonNegative);
  family->add_option("--hosts-per-leaf", options.degradation.hosts_per_leaf,
                     "keep only the first H hosts of every leaf")
      ->check(kNonNegative);
  Variations& v = options.variations;
  family->add_option("--io-hosts", v.io_hosts, "add this many storage hosts to every switch of --io-level")
      ->check(kNonNegative);
  family->add_option("--io-level", v.io_level, "the switch level storage hosts go on (default: the top)")
      ->check(kNonNegative);
  family->add_option("--lose-switches", v.lost_switches, "remove this many random switches (and hosts only they carry)")
      ->check(kNonNegative);
  family->add_option("--lost-level", v.lost_level, "take lost switches from this level only (default: any)")
      ->check(kNonNegative);
  family->add_option("--swap-pairs", v.swapped_pairs, "swap the upper ends of this many pairs of same-level uplinks")
      ->check(kNonNegative);
  family->add_option("--level-cables", v.level_cables,
                     "add this many cables between random switches of --level-cables-level (on new ports)")
      ->check(kNonNegative);
  family->add_option("--level-cables-level", v.level_cables_level,
                     "the switch level (hops from the hosts) cables inside a level join (default 1)")
      ->check(kPositive);
  family->add_option("--hca-port", v.hca_port, "cable hosts on this port of two-port HCAs (1 or 2)")
      ->check(CLI::Range(1, 2));
  family->add_flag("--dual-rail", v.dual_rail, "cable half of the hosts on both HCA ports (the other half gone)");
  family->add_option("--rate", options.rate, "every cable's width and speed, e.g. 4xEDR (default: none written)")
      ->check(kLinkRate);
  family->add_option("--slow-links", v.slow_links, "this many random switch cables run at --slow-rate instead")
      ->check(kNonNegative);
  family->add_option("--slow-rate", options.slow_rate, "the rate of slow links (default 4xDDR)")->check(kLinkRate);
  family->add_option("-o,--output", options.output, "net file to write ('-', the default: stdout)");
  return family;
}

}  // namespace

void add_gen(CLI::App& app) {
  auto o = std::make_shared<GenOptions>();
  CLI::App* gen = app.add_subcommand("gen", "Generate a fabric and write it as an ibsim net file");
  gen->require_subcommand(1);

  CLI::App* clos2 = add_family(*gen, "clos2", "Yuan's ftree(n+m, r): r leaves, m spines", *o);
  clos2->add_option("--n", o->n, "hosts per leaf")->required();
  clos2->add_option("--m", o->m, "spines (uplinks per leaf)")->required();
  clos2->add_option("--r", o->r, "leaves (ports per spine)")->required();
  clos2->callback([o] {
    set_exit_code(finish(fmt::format("clos2 ftree({}+{},{})", o->n, o->m, o->r), generate_clos2(o->n, o->m, o->r),
                         *o, false));
  });

  CLI::App* ftree = add_family(*gen, "ftree", "the m-port n-tree FT(m, n)", *o);
  ftree->add_option("--ports", o->ports, "switch ports m (even)")->required();
  ftree->add_option("--levels", o->levels, "switch levels n")->required();
  ftree->callback([o] {
    set_exit_code(finish(fmt::format("ftree FT({},{})", o->ports, o->levels), generate_ftree(o->ports, o->levels),
                         *o, false));
  });

  CLI::App* kary = add_family(*gen, "kary", "the k-ary n-tree", *o);
  kary->add_option("--k", o->k, "arity k")->required();
  kary->add_option("--levels", o->levels, "switch levels n")->required();
  kary->callback([o] {
    set_exit_code(finish(fmt::format("kary {}-ary {}-tree", o->k, o->levels), generate_kary(o->k, o->levels), *o,
                         false));
  });

  CLI::App* pgft = add_family(*gen, "pgft", "the parallel-ports generalized fat-tree PGFT(h; m; w; p)", *o);
  pgft->add_option("--h", o->h, "switch levels h")->required();
  pgft->add_option("--m", o->pgft_m, "m1,..,mh: children per level-l switch")->required()->delimiter(',');
  pgft->add_option("--w", o->pgft_w, "w1,..,wh: parents per level-(l-1) node")->required()->delimiter(',');
  pgft->add_option("--p", o->pgft_p, "p1,..,ph: parallel cables (default all 1)")->delimiter(',');
  pgft->callback([o] {
    if (o->pgft_p.empty()) o->pgft_p.assign(o->h, 1);
    const int h = o->h;
    if (o->pgft_m.size() != size_t(h) || o->pgft_w.size() != size_t(h) || o->pgft_p.size() != size_t(h)) {
      fmt::print(stderr, "ftclos gen pgft: --m, --w and --p need {} values each (--h), got {}, {} and {}\n", h,
                 o->pgft_m.size(), o->pgft_w.size(), o->pgft_p.size());
      set_exit_code(2);
      return;
    }
    const std::string family = fmt::format("pgft PGFT({};{};{};{})", h, fmt::join(o->pgft_m, ","),
                                           fmt::join(o->pgft_w, ","), fmt::join(o->pgft_p, ","));
    set_exit_code(finish(family, generate_pgft({o->pgft_m, o->pgft_w, o->pgft_p}), *o, false));
  });

  CLI::App* mikant = add_family(*gen, "mikant", "Li and Chu's mirrored k-ary n-tree MiKANT(k, n)", *o);
  mikant->add_option("--k", o->k, "arity k (switch radix 2k)")->required();
  mikant->add_option("--levels", o->levels, "n (2n-2 switch stages)")->required();
  mikant->callback([o] {
    set_exit_code(finish(fmt::format("mikant MiKANT({},{})", o->k, o->levels), generate_mikant(o->k, o->levels), *o,
                         false));
  });

  CLI::App* rfc = add_family(*gen, "rfc", "Camarero et al.'s radix-regular random folded Clos", *o);
  rfc->add_option("--radix", o->radix, "switch radix R (even)")->required();
  rfc->add_option("--leaves", o->leaves, "leaf switches N1 (even, at least R)")->required();
  rfc->add_option("--levels", o->levels, "switch levels l (at least 2)")->required();
  rfc->callback([o] {
    const uint64_t seed = o->degradation.seed;
    set_exit_code(finish(fmt::format("rfc RFC(radix {}, {} leaves, {} levels, seed {})", o->radix, o->leaves,
                                     o->levels, seed),
                         generate_rfc(o->radix, o->leaves, o->levels, seed), *o, true));
  });

  CLI::App* pod = add_family(*gen, "superpod", "a DGX SuperPOD-style rail-optimized pod (SUs of servers x rails)", *o);
  SuperpodParams& sp = o->superpod;
  pod->add_option("--units", sp.units, "scalable units (SUs)")->required();
  pod->add_option("--servers", sp.servers, "servers per full SU (default 20)");
  pod->add_option("--rails", sp.rails, "HCAs per server, leaves per SU (default 8)");
  pod->add_option("--levels", sp.levels, "switch levels: 2 (leaves, spines) or 3 (+ cores; default 2)");
  pod->add_option("--spines", sp.spines, "spines per spine group; divides --servers (default 10)");
  pod->add_option("--group-units", sp.group_units, "3 levels: SUs per spine group, the last group the rest (default: all)");
  pod->add_option("--radix", sp.radix, "ports per switch, the AN's not counted (default 40, HDR Quantum)");
  pod->add_option("--partial-units", sp.partial_units, "the last SUs carry fewer servers")->check(kNonNegative);
  pod->add_option("--partial-servers", sp.partial_servers,
                  "fewest servers of a partial SU (default three quarters of --servers)")
      ->check(kNonNegative);
  pod->add_option("--mgmt-leaves", sp.mgmt_leaves, "management leaves, cabled to a spine group")->check(kNonNegative);
  pod->add_option("--mgmt-uplinks", sp.mgmt_uplinks,
                  "each management leaf on one spine of its group over this many cables (default: once to each)")
      ->check(kNonNegative);
  pod->add_option("--mgmt-pods", sp.mgmt_pods, "3 levels: management pods, a leaf on its own spine under the cores")
      ->check(kNonNegative);
  pod->add_option("--mgmt-hosts", sp.mgmt_hosts, "hosts per management leaf (default 4)")->check(kNonNegative);
  pod->add_flag("--no-aggregation-nodes", o->no_aggregation_nodes, "leave out the SHARP AN of every switch");
  pod->callback([o] {
    SuperpodParams params = o->superpod;
    params.aggregation_nodes = !o->no_aggregation_nodes;
    params.seed = o->degradation.seed;
    Result<Superpod> pod = generate_superpod(params);
    std::string family = fmt::format("superpod of {} SUs, {} levels", params.units, params.levels);
    if (!pod.ok()) {
      set_exit_code(finish(family, pod.status(), *o, false));
      return;
    }
    family += fmt::format(" ({} compute HCAs, {} aggregation nodes, servers per SU {})", pod->compute_hcas,
                          pod->aggregation_nodes, fmt::join(pod->servers_per_unit, ","));
    set_exit_code(finish(family, std::move(pod->fabric), *o, false));
  });

  // Direct networks: no folded Clos, routed by the up*/down* floor.
  CLI::App* ring = add_family(*gen, "ring", "a ring of switches, hosts on each", *o);
  ring->add_option("--switches", o->switches, "switches in the ring (at least 3)")->required();
  ring->add_option("--hosts", o->hosts, "hosts per switch")->required()->check(kNonNegative);
  ring->callback([o] {
    set_exit_code(finish(fmt::format("ring of {} switches", o->switches), generate_ring(o->switches, o->hosts), *o,
                         false));
  });

  CLI::App* torus = add_family(*gen, "torus", "a 2D or 3D torus of switches, hosts on each", *o);
  torus->add_option("--x", o->x, "switches along x (at least 3)")->required();
  torus->add_option("--y", o->y, "switches along y (at least 3)")->required();
  torus->add_option("--z", o->z, "switches along z (at least 3; 1, the default: a 2D torus)");
  torus->add_option("--hosts", o->hosts, "hosts per switch")->required()->check(kNonNegative);
  torus->callback([o] {
    const std::string shape = o->z == 1 ? fmt::format("{}x{}", o->x, o->y) : fmt::format("{}x{}x{}", o->x, o->y, o->z);
    set_exit_code(finish("torus " + shape, generate_torus(o->x, o->y, o->hosts, o->z), *o, false));
  });

  CLI::App* cube = add_family(*gen, "hypercube", "a hypercube of 2^d switches, hosts on each", *o);
  cube->add_option("--dimensions", o->dimensions, "dimensions d (1..14)")->required();
  cube->add_option("--hosts", o->hosts, "hosts per switch")->required()->check(kNonNegative);
  cube->callback([o] {
    set_exit_code(finish(fmt::format("hypercube of dimension {}", o->dimensions),
                         generate_hypercube(o->dimensions, o->hosts), *o, false));
  });

  CLI::App* dragonfly = add_family(*gen, "dragonfly", "groups of all-to-all switches, one cable per pair of groups", *o);
  dragonfly->add_option("--groups", o->groups, "groups (at least 2)")->required();
  dragonfly->add_option("--switches", o->switches, "switches per group")->required();
  dragonfly->add_option("--hosts", o->hosts, "hosts per switch")->required()->check(kNonNegative);
  dragonfly->callback([o] {
    set_exit_code(finish(fmt::format("dragonfly of {} groups of {} switches", o->groups, o->switches),
                         generate_dragonfly(o->groups, o->switches, o->hosts), *o, false));
  });
}

}  // namespace ftclos::cli
