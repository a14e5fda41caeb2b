// "auto": the best scheme the fabric and the configured LMC allow, tried in
// order of the guarantee each gives; the first that routes within the LMC
// wins, and the notes say why.
#include <fmt/format.h>

#include "route/schemes.h"

namespace ftclos {
namespace {

struct Candidate {
  std::unique_ptr<Scheme> (*make)();
  const char* why;  // what the scheme guarantees, for the note
  bool (*applies)(const Detection&) = nullptr;  // beyond routing successfully
};

// Below n^2 top switches the scheme still routes, but Theorem 2 says it cannot be nonblocking.
bool has_n_squared_tops(const Detection& detection) {
  const FamilyMatch* clos2 = detection.find(Family::kClos2);
  return clos2 && clos2->param("m") >= clos2->param("n") * clos2->param("n");
}

// Nonblocking (contention-free for every permutation) beats the optimal
// oblivious ratio of OSRM, which beats destination-based D-mod-k; MiKANT and
// generic folded Clos fabrics have one scheme each.
const Candidate kOrder[] = {
    {make_mikant_scheme, "MiKANT's own per-hop routing"},
    {make_nonblocking_scheme, "nonblocking for every permutation (Yuan, Theorem 3)", has_n_squared_tops},
    {make_osrm_scheme, "optimal oblivious single-path ratio (Yuan et al., OSRM2/OSRM3)"},
    {make_dmodk_scheme, "D-mod-k: link-disjoint downward paths per destination"},
    {make_updown_scheme, "balanced up/down ECMP, deadlock-free on any folded Clos"},
};

class AutoScheme : public Scheme {
 public:
  std::string_view name() const override { return "auto"; }

  Result<Routing> route(const RoutingInput& input) const override {
    std::vector<std::string> passed_over;
    for (const Candidate& candidate : kOrder) {
      const std::unique_ptr<Scheme> scheme = candidate.make();
      if (candidate.applies && !candidate.applies(input.detection)) continue;
      Result<Routing> routing = scheme->route(input);
      if (!routing.ok()) {
        passed_over.push_back(fmt::format("{}: {}", scheme->name(), routing.status().message()));
        continue;
      }
      if (routing->lmc_needed > input.lids.lmc) {
        passed_over.push_back(
            fmt::format("{}: needs LMC {}, LMC is {}", scheme->name(), routing->lmc_needed, input.lids.lmc));
        continue;
      }
      std::vector<std::string> notes{fmt::format("auto chose {}: {}", scheme->name(), candidate.why)};
      for (const std::string& reason : passed_over) notes.push_back("auto passed over " + reason);
      notes.insert(notes.end(), routing->notes.begin(), routing->notes.end());
      routing->notes = std::move(notes);
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
