// Radix-regular folded Clos (Camarero et al. §3): every switch has radix R;
// levels below the top have R/2 down and R/2 up, the top R down; N_1 leaves,
// N_1 switches on every middle level and N_1/2 on top. Random wiring has no
// labels, so deviations are port deficits, paired into cables where only one
// pairing is possible.
#pragma once

#include <optional>

#include "core/fabric.h"
#include "detect/deviation.h"
#include "detect/levels.h"

namespace ftclos {

struct RfcFit {
  int radix = 0;
  int leaves = 0;
  int levels = 0;
  std::vector<Deviation> deviations;  // switch ports; hosts per host_deviations
};

/// nullopt when the fabric is no radix-regular folded Clos (the caller has
/// checked that it is a folded Clos).
std::optional<RfcFit> fit_rfc(const Fabric& fabric, const Levels& levels);

}  // namespace ftclos
