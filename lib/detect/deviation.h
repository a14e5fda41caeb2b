// What a fabric lacks or has in excess relative to the family it was
// recognized as: the list an operator walks through with a cable in hand.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/fabric.h"

namespace ftclos {

struct Deviation {
  enum class Kind : uint8_t {
    kMissingCable,      // `at` and `peer` should be cabled and are not
    kExtraCable,        // more parallel cables than the family has
    kMiswiredCable,     // the cable joins two nodes the family does not join
    kMissingSwitch,     // no switch has the label in `detail`
    kUnexpectedSwitch,  // `at.node` fits no label of the family
    kMissingHost,       // leaf `at.node` lacks a host
    kSlowLink,          // the cable `at` - `peer` runs slower or narrower than its siblings
  };
  Deviation() = default;
  Deviation(Kind kind, PortRef at, PortRef peer, std::string detail, PortRef belongs = {})
      : kind(kind), at(at), peer(peer), detail(std::move(detail)), belongs(belongs) {}

  Kind kind = Kind::kMissingCable;
  PortRef at;          // node -1 when the node itself is missing; port 0 when unknown
  PortRef peer;        // node -1 when not a cable or the peer is missing; port 0 when unknown
  std::string detail;  // the expected label(s) in the family's numbering
  PortRef belongs;     // miswired: the port the `peer` end belongs on (the fewest moves); node -1 when unknown
};

const char* kind_name(Deviation::Kind kind);
/// One line for people: `missing cable: "L1-3"[7] - "L2-1"[2] (expected ...)`.
std::string describe(const Fabric& fabric, const Deviation& deviation);

/// Guesses the port of a cable that is not there from how the other nodes of
/// the same role cable the same kind of neighbour (fabrics are cabled in
/// patterns), or from the node's only free port.
class PortGuesser {
 public:
  /// `role` groups nodes cabled alike (e.g. level and direction); `key` names
  /// the neighbour within the role (e.g. the digit that differs).
  void observe(int role, int key, int port) { ++votes_[{role, key}][port]; }
  /// A free port of `node` for the missing neighbour, or 0 when it cannot be
  /// told. `missing_here` is how many cables `node` lacks in all.
  int guess(const Fabric& fabric, int node, int role, int key, int missing_here);
  /// The key most nodes of `role` cable on `port`, or -1 when none was seen.
  int usual_key(int role, int port) const;

 private:
  std::map<std::pair<int, int>, std::map<int, int>> votes_;
  std::map<int, std::vector<int>> taken_;  // ports already handed out per node
};

}  // namespace ftclos
