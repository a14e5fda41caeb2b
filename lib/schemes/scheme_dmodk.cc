// "dmodk": D-mod-k (Zahavi et al.; drb-ttc §2.1, Theorem 2.1) on fat-trees
// with PGFT labels (PGFT, FT, k-ary, clos2). Destination-based. A level-l
// switch not above destination host d sends it up through up port
//   j = floor(d / (w_1...w_l)) mod (w_{l+1} p_{l+1}),
// i.e. to parent b_{l+1} = j mod w_{l+1} over its (j / w_{l+1})-th parallel
// cable, where d is the host's index in the PGFT numbering (the mixed-radix
// code of its digits). A switch above d sends it down to the one child on the
// path, over the parallel cable numbered as d's up port at that child. So the
// switch where d's packets turn, and every down hop after it, depend on d
// alone (Theorem 2.1): where a tree has as many up ports as hosts below, as
// FT(m,n) and k-ary n-trees do, every down channel carries one destination.
// Offset o of a CA's LID range routes as index d + o, so the offsets leave by
// different up ports and turn at different top switches.
// Ports come from the cables and labels, never from a port pattern
// (schemes/label_routing.h turns the rule into LFTs). With attached hosts or
// damage, the contention polish follows (paths/contention_polish.h).
#include <string>
#include <utility>

#include "paths/contention_polish.h"
#include "paths/source_detours.h"
#include "schemes/label_routing.h"
#include "schemes/schemes.h"
#include "paths/updown_reach.h"

namespace ftclos {
namespace {

class DmodkScheme : public Scheme {
 public:
  std::string_view name() const override { return "dmodk"; }

  Status applies(const Detection& detection) const override {
    if (!detection.xgft)
      return Status::Error("dmodk: the fabric is no fat-tree with PGFT labels (PGFT, FT, k-ary, clos2); try updown");
    return Status::Ok();
  }

 protected:
  Result<Routing> route_tables(const RoutingInput& input) const override {
    if (Status status = applies(input.detection); !status.ok()) return status;
    const XgftLabels& labels = *input.detection.xgft;
    // Destination-based: the LID offset o is the only "class", routed as
    // index d + o; every source sends on offset 0, D-mod-k itself, so no
    // offset is set apart for it (PathBitsUsers::kAll).
    LabelRule rule;
    rule.classes = input.lids.lids_per_ca();
    rule.class_of = [](const std::vector<int>&) { return 0; };
    rule.up_slot = [&labels](int l, int o, const std::vector<int>& dest) { return dmodk_up_slot(labels, l, dest, o); };
    RoutingInput every_offset_its_own = input;
    every_offset_its_own.path_bits_users = PathBitsUsers::kAll;
    Routing routing = route_by_labels(every_offset_its_own, rule);
    // An intact tree keeps D-mod-k's closed form; where attached hosts or
    // damage left the labels, the up/down entries are polished too.
    if (input.detection.degraded() || !input.detection.levels.io_hosts.empty()) {
      const UpDownReach reach(input.fabric, input.detection.levels);
      if (std::string note = polish_note(polish_contention(input, reach, routing)); !note.empty())
        routing.notes.push_back(std::move(note));
      // A hole left is a pair of CAs the tables cannot join: D-mod-k says so
      // (auto then passes over it, with no audit of tables it would refuse).
      if (const SourceDetours detours = route_source_detours(input, reach, routing); detours.filled < detours.holes)
        return Status::Error(detours.unfilled(input.fabric, input.lids) + "; try updown");
    }
    return routing;
  }
};

}  // namespace

std::unique_ptr<Scheme> make_dmodk_scheme() { return std::make_unique<DmodkScheme>(); }

}  // namespace ftclos
