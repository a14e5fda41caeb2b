// Checks the scheme tests share: route a fabric, trace CA pairs through the
// LFTs (path_trace.h) and judge the paths against a small up/down
// reachability reference of its own (not the library's). Generic over schemes.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/fabric.h"
#include "core/status.h"
#include "detect/detect.h"
#include "gen/generate.h"
#include "audit/audit.h"
#include "route/routing.h"

namespace ftclos {

/// A fabric, what a scheme is given for it, and what the scheme made of it.
struct Routed {
  Fabric fabric;
  Detection detection;
  LidMap lids;
  Routing routing;
  Status status = Status::Ok();  // why routing failed, if it did

  // Every host on its path bits, the papers' setting the scheme tests check;
  // multilid_offsets_test.cc checks the default (PathBitsUsers::kSome).
  RoutingInput input() const {
    RoutingInput in{fabric, detection, lids};
    in.path_bits_users = PathBitsUsers::kAll;
    return in;
  }
};

/// A named fabric maker, for parameterized scheme tests.
struct FabricCase {
  std::string name;
  Fabric (*make)();
};

/// The fabric, or an empty one after failing the test.
Fabric generated(Result<Fabric> fabric);

/// `fabric` with `cables` extra cables inside `level` (gen --level-cables).
Fabric with_level_cables(Fabric fabric, int cables, int level);

/// Detects `fabric`, assigns LIDs with `lmc` and routes it with `scheme`
/// (`polish`: RoutingInput::polish), every host on its path bits (Routed::input).
Routed route_fabric(const Scheme& scheme, Fabric fabric, int lmc, bool polish = true);

struct PathRules {
  bool up_down = true;   // every path turns down at most once
  bool minimal = false;  // hops == 2 * level of the lowest common ancestor of the two leaves
};

/// Every CA reaches every other CA at each LID of its range (so at
/// base(d) + p(s) too) wherever an up/down path joins their leaves, without
/// loops or dead ports anywhere, and every delivered path follows `rules`.
void expect_all_pairs_delivered(const Routed& routed, PathRules rules = {});

/// Every CA reaches every switch LID its leaf is connected to.
void expect_switch_lids_reachable(const Routed& routed);

/// No switch has kNoPath for a LID whose owner it can reach: up/down for a
/// CA, by any path for a switch.
void expect_lfts_filled(const Routed& routed);

/// Distinct sources and destinations of one switch-to-switch channel, over
/// the CA pairs (s,d) whose path, LID base(d) + p(s), crosses it.
struct ChannelUse {
  bool up = false;
  int sources = 0, destinations = 0;
};
std::vector<ChannelUse> channel_uses(const Routed& routed);

/// Lemma 9's measure (Yuan et al.): the largest min(sources, destinations)
/// over the channels. At most X: every channel carries traffic from at most
/// X sources or to at most X destinations.
int busiest_channel(const std::vector<ChannelUse>& uses);

/// The auditor's exact worst-case contention of the routing, every source on
/// its path bits: the largest maximum matching of a channel's pairs.
double exact_worst_case(const Routed& routed);

/// The auditor's verdict on the routing's tables with `sls` (per LID; empty:
/// SL 0 everywhere), SL k on VL k.
Correctness audit_on_sls(const Routed& routed, std::vector<uint8_t> sls);

/// The auditor's verdict on the routing read with its own SLs (SL k on VL
/// k), after expecting every CA pair delivered on a shortest path with no
/// loop and no credit loop on any VL.
Correctness expect_shortest_and_deadlock_free_on_its_sls(const Routed& routed);

/// The same verdicts, counted alike: pairs, their outcomes, credit loops
/// (switches' own routes included) and the SLs and VLs used; `where` names
/// the case in failures.
void expect_same_verdicts(const Correctness& got, const Correctness& expected, const std::string& where);

/// `fabric` without the cable between the switches named `a` and `b`.
Fabric without_cable(Fabric fabric, const std::string& a, const std::string& b);

/// Whether some note of the routing contains `text`.
bool notes_mention(const Routing& routing, const std::string& text);

/// All pairs delivered up/down and minimal, switch LIDs reachable, LFTs filled.
void expect_routes_everything(const Routed& routed);

/// A scheme's derived bound, three ways: everything routed, a note states
/// "worst-case contention <= bound", and neither Lemma 9's measure nor the
/// auditor's exact worst case exceeds it.
void expect_derived_bound(const Routed& routed, int bound);

/// Three failed cables of the PGFT (seeds 1-3), routed by `scheme` at `lmc`:
/// entries on them move (rerouted > 0) and every pair still goes a shortest
/// up/down way.
void expect_degraded_pgft_routes_every_pair(const Scheme& scheme, const PgftParams& pgft, int lmc);

/// The (switch, CA LID) entries from which no up/down path leads to the
/// CA's leaf: where the switch's own traffic must turn
/// (paths/switch_routes_legal.h), and the up/down rule allows no port.
long switch_detour_entries(const Routed& routed);

/// Whether repair_dead_ports (the up/down rule) changes only switches' own
/// routes (schemes/switch_traffic.h: entries of switch LIDs, and of
/// switches no CA route to the LID crosses, which may turn) and no entry a
/// CA route takes.
void expect_repair_moves_only_switch_routes(const Routed& routed);

/// (switch, LID) of every entry that differs between two LFT sets of one fabric.
std::vector<std::pair<int, int>> changed_entries(const Lfts& before, const Lfts& after);

/// Every switch-to-switch cable once, by its end at the lower node index,
/// in node then port order: the cables a test cuts one at a time.
std::vector<PortRef> switch_cables(const Fabric& fabric);

/// The switch CA `ca` is cabled to by port 1; -1 when none.
int leaf_of(const Fabric& fabric, int ca);

/// Per node: whether that switch reaches switch `target` going only down
/// (`target` itself included).
std::vector<bool> down_sources(const Fabric& fabric, const Levels& levels, int target);

/// Per node: whether that switch reaches switch `target` going up, then down.
std::vector<bool> updown_sources(const Fabric& fabric, const Levels& levels, int target);

/// The lowest level of a switch both switches reach going up; -1 when none.
int common_ancestor_level(const Fabric& fabric, const Levels& levels, int a, int b);

}  // namespace ftclos
