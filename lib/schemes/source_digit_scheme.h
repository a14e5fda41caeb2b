// The schemes whose path bits are source digits, mlid and nonblocking: p(s)
// holds the source's digits at levels 1..h-1 in mixed radix (with fewer LIDs
// the lowest levels keep theirs modulo what fits, DigitClasses), and a
// level-l switch picks its up slot from the source's level-l digit and the
// destination's label (label_routing.h). They differ only in the digit
// values, the up slot and their notes.
#pragma once

#include <vector>

#include "route/routing.h"
#include "schemes/label_routing.h"

namespace ftclos {

class SourceDigitScheme : public Scheme {
 public:
  Status applies(const Detection& detection) const override;
  /// The LMC that gives every source class its own LID offset.
  int lmc_needed(const Detection& detection, PathBitsUsers users) const override;

 protected:
  Result<Routing> route_tables(const RoutingInput& input) const override;

  /// Values of the source digit at each level, lowest first (entry 0 unused, 1).
  virtual std::vector<int> digit_values(const XgftShape& shape) const = 0;
  /// The up slot of a level-`level` switch for a source whose level digit is
  /// `digit` (of `radix` values that fit the LIDs) toward `dest`.
  virtual long up_slot(const XgftShape& shape, int level, int digit, int radix, const std::vector<int>& dest) const = 0;
  /// The scheme's notes on `routing` (lmc_needed set, `digits` as routed).
  virtual void add_notes(const RoutingInput& input, const DigitClasses& digits, Routing& routing) const = 0;
};

}  // namespace ftclos
