// "auto": the best scheme the fabric and the configured LMC allow. It tries
// the scheme table's entries in order of auto_preference and takes the first
// that applies, fits the LMC and routes: both checks come from the detection
// alone, so only the chosen scheme routes (and, when its routing fails, the
// next). When the caller hands down the auditor's check (RoutingInput::
// strands), tables that leave pairs the cables join undelivered are passed
// over too: auto never keeps a scheme that strands pairs while a later one
// would not. A scheme that challenges the choice (SchemeEntry::
// auto_challenges: layered and torus against the up*/down* floor, layered
// against MiKANT's own routing) is routed too and replaces the best so far
// where its worst-case contention is lower, or equal on fewer SLs (VLs): no
// estimate from the
// detection ranks them (both route any fabric, the figures differ by fabric),
// so both are measured, with the caller's RoutingInput::worst_case. A choice
// that needs LMC > 0 (a source-class scheme) is weighed the same way against
// the first scheme that needs none (LMC may help, never hurt: on a degraded
// FT(8,3) OSRM3's path bits meet 9 where updown meets 8), with the same
// measure, by the worse of its figures on path bits and on offset 0 (the
// hosts that do not know their bits) unless every host exports its bits,
// and gives way on a tie where its path bits fell back to 0.
// The notes say what it chose and why it passed over the others.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "schemes/path_bits_fallback.h"
#include "schemes/scheme_registry.h"
#include "schemes/schemes.h"
#include "schemes/switch_traffic.h"

namespace ftclos {
namespace {

std::vector<const SchemeEntry*> candidates_in_order() {
  std::vector<const SchemeEntry*> candidates;
  for (const SchemeEntry& entry : scheme_table())
    if (entry.auto_preference > 0) candidates.push_back(&entry);
  std::ranges::sort(candidates, {}, &SchemeEntry::auto_preference);
  return candidates;
}

Routing chosen(Routing routing, const SchemeEntry& entry, const std::vector<std::string>& passed_over) {
  std::vector<std::string> notes{fmt::format("auto chose {}: {}", entry.name, entry.guarantee)};
  for (const std::string& reason : passed_over) notes.push_back("auto passed over " + reason);
  notes.insert(notes.end(), routing.notes.begin(), routing.notes.end());
  routing.notes = std::move(notes);
  routing.chosen = entry.name;
  return routing;
}

// SLs the CA LIDs' traffic takes (SL k runs on VL k), as the audit counts VLs used.
int sls_in_use(const RoutingInput& input, const Routing& routing) {
  if (routing.dest_sl.empty()) return 1;
  std::vector<bool> used(16, false);
  for (size_t lid = 1; lid < routing.dest_sl.size() && lid < input.lids.owner.size(); ++lid)
    if (const int owner = input.lids.owner[lid]; owner >= 0 && !input.fabric.node(owner).is_switch())
      used[routing.dest_sl[lid] & 15] = true;
  return static_cast<int>(std::ranges::count(used, true));
}

// Where a challenger of `held`'s scheme routes, has the lower worst case (or
// the same on fewer SLs: the hypercube's torus routing on 1 VL against
// layered's on 5) and passes the check, its tables replace `held`'s.
void challenge(const RoutingInput& input, std::pair<Routing, const SchemeEntry*>& held,
               std::vector<std::string>& passed_over) {
  const std::string_view challenged = held.second->name;  // every challenger meets the best so far
  for (const SchemeEntry& entry : scheme_table()) {
    if (!entry.challenges(challenged)) continue;
    if (!input.worst_case) {
      passed_over.push_back(fmt::format("{}: no worst-case measure to weigh it against {}", entry.name, held.second->name));
      continue;
    }
    const std::unique_ptr<Scheme> scheme = entry.make();
    // Switches' own routes change no CA route, so no worst case: they are
    // completed only for a rival that wins (seconds on a 666-switch pod).
    RoutingInput without_switch_routes = input;
    without_switch_routes.switch_traffic = false;
    Result<Routing> rival = scheme->route(without_switch_routes);  // fails where it does not apply
    if (!rival.ok()) {
      passed_over.push_back(fmt::format("{}: {}", entry.name, rival.status().message()));
      continue;
    }
    const double held_worst = (*input.worst_case)(input, held.first), rival_worst = (*input.worst_case)(input, *rival);
    const int held_sls = sls_in_use(input, held.first), rival_sls = sls_in_use(input, *rival);
    if (rival_worst > held_worst || (rival_worst == held_worst && rival_sls >= held_sls)) {
      const std::string summary = rival->summary.empty() ? "" : " (" + rival->summary + ")";
      passed_over.push_back(fmt::format("{}{}: worst-case contention {:g}, not below {}'s {:g}{}", entry.name, summary,
                                        rival_worst, held.second->name, held_worst,
                                        rival_worst == held_worst ? fmt::format(" on {} SL{}", held_sls, held_sls == 1 ? "" : "s") : ""));
      continue;
    }
    if (input.switch_traffic) complete_switch_traffic(input, *rival);
    // Only tables that would replace the held ones are checked (a full
    // check, like a worst-case measure, seconds on FT(48,3)); the held ones
    // keep the caller's check then.
    if (input.strands) {
      // The caller keeps its last check's result: the held tables must be checked again if they stay.
      held.first.checked = false;
      if (std::string reason = (*input.strands)(input, *rival); !reason.empty()) {
        passed_over.push_back(fmt::format("{}: {}", entry.name, reason));
        continue;
      }
      rival->checked = true;
    }
    const std::string on_sls =
        rival_worst == held_worst ? fmt::format(" on {} SL{} against {}", rival_sls, rival_sls == 1 ? "" : "s", held_sls) : "";
    rival->notes.insert(rival->notes.begin(), fmt::format("worst-case contention {:g}, {}'s {:g}{}", rival_worst,
                                                          held.second->name, held_worst, on_sls));
    passed_over.push_back(fmt::format("{}: worst-case contention {:g}, {}'s is {:g}{}", held.second->name, held_worst,
                                      entry.name, rival_worst, on_sls));
    held = {std::move(*rival), &entry};
  }
}

// The worst case `routing` gives the hosts that use it: those on their path
// bits and, unless every host exports its bits, those on offset 0.
double worst_for_its_users(const RoutingInput& input, Routing& routing) {
  const double on_path_bits = (*input.worst_case)(input, routing);
  if (input.path_bits_users == PathBitsUsers::kAll) return on_path_bits;
  return std::max(on_path_bits, offset_zero_measure(input, routing));
}

// Where auto chose a scheme that needs LMC > 0 and the caller gave the
// measure, the first scheme that needs none routes too, and its tables
// replace the choice where its worst case (path bits 0) is lower than the
// choice's for its users (worst_for_its_users).
void weigh_against_single_path(const RoutingInput& input, std::pair<Routing, const SchemeEntry*>& held,
                               std::vector<std::string>& passed_over) {
  if (!input.worst_case || held.first.lmc_needed == 0) return;
  for (const SchemeEntry* candidate : candidates_in_order()) {
    if (candidate->auto_skips && candidate->auto_skips(input.detection)) continue;
    const std::unique_ptr<Scheme> scheme = candidate->make();
    if (!scheme->applies(input.detection).ok() || scheme->lmc_needed(input.detection, input.path_bits_users) > 0)
      continue;
    Result<Routing> rival = scheme->route(input);
    if (!rival.ok() || (input.strands && !(*input.strands)(input, *rival).empty())) continue;
    if (input.strands) {
      held.first.checked = false;  // the caller keeps its last check's result
      rival->checked = true;
    }
    const double held_worst = worst_for_its_users(input, held.first), rival_worst = (*input.worst_case)(input, *rival);
    const char* users = input.path_bits_users == PathBitsUsers::kAll ? "on path bits" : "on path bits or offset 0";
    // A tie keeps the choice only where hosts send on its bits: after the
    // fall-back to offset 0 (schemes/path_bits_fallback.h) they are all 0
    // and its LIDs buy nothing.
    const bool bits_used = std::ranges::any_of(held.first.path_bits, [](int bits) { return bits != 0; });
    if (rival_worst > held_worst || (rival_worst == held_worst && bits_used)) {
      passed_over.push_back(fmt::format("{}: worst-case contention {:g}, not below {}'s {:g} {}", candidate->name,
                                        rival_worst, held.second->name, held_worst, users));
      return;
    }
    passed_over.push_back(fmt::format("{}: worst-case contention {:g} {}{}, {}'s (LMC 0 alike) is {:g}",
                                      held.second->name, held_worst, users, bits_used ? "" : " with path bits 0",
                                      candidate->name, rival_worst));
    held = {std::move(*rival), candidate};
    return;
  }
}

class AutoScheme : public Scheme {
 public:
  std::string_view name() const override { return "auto"; }
  Status applies(const Detection&) const override { return Status::Ok(); }

 protected:
  bool routes_by_other_schemes() const override { return true; }

  Result<Routing> route_tables(const RoutingInput& input) const override {
    std::vector<std::string> passed_over;
    std::optional<std::pair<Routing, const SchemeEntry*>> stranding;  // the first that routed, failing the check
    for (const SchemeEntry* candidate : candidates_in_order()) {
      if (candidate->auto_skips && candidate->auto_skips(input.detection)) continue;
      const std::unique_ptr<Scheme> scheme = candidate->make();
      if (Status applies = scheme->applies(input.detection); !applies.ok()) {
        passed_over.push_back(fmt::format("{}: {}", scheme->name(), applies.message()));
        continue;
      }
      if (const int needed = scheme->lmc_needed(input.detection, input.path_bits_users); needed > input.lids.lmc) {
        passed_over.push_back(fmt::format("{}: needs LMC {}, LMC is {}", scheme->name(), needed, input.lids.lmc));
        continue;
      }
      Result<Routing> routing = scheme->route(input);
      if (!routing.ok()) {
        passed_over.push_back(fmt::format("{}: {}", scheme->name(), routing.status().message()));
        continue;
      }
      if (input.strands) {
        if (std::string reason = (*input.strands)(input, *routing); !reason.empty()) {
          passed_over.push_back(fmt::format("{}: {}", scheme->name(), reason));
          if (!stranding) stranding = {std::move(*routing), candidate};
          continue;
        }
        routing->checked = true;
      }
      std::pair<Routing, const SchemeEntry*> held{std::move(*routing), candidate};
      challenge(input, held, passed_over);
      weigh_against_single_path(input, held, passed_over);
      return chosen(std::move(held.first), *held.second, passed_over);
    }
    // Every scheme that routes strands pairs: the first of them, for the
    // caller's own check to refuse (or write with --allow-unreachable).
    if (stranding) {
      const auto own = std::ranges::find_if(passed_over, [&](const std::string& reason) {
        return reason.starts_with(std::string(stranding->second->name) + ": ");
      });
      std::string why = own->substr(stranding->second->name.size() + 2);
      passed_over.erase(own);
      Routing routing = chosen(std::move(stranding->first), *stranding->second, passed_over);
      routing.notes.insert(routing.notes.begin() + 1,
                           "auto found no scheme whose tables deliver every pair; " + std::string(stranding->second->name) + ": " + why);
      return routing;
    }
    std::string reasons;
    for (const std::string& reason : passed_over) reasons += "; " + reason;
    return Status::Error("no scheme can route this fabric" + reasons);
  }
};

}  // namespace

std::unique_ptr<Scheme> make_auto_scheme() { return std::make_unique<AutoScheme>(); }

}  // namespace ftclos
