// The routing pipeline in one call — recognize, assign LIDs, route — as
// `ftclos route`, `ftclos pathbits` and `ftclos audit --scheme` run it.
#pragma once

#include <string_view>

#include "core/fabric.h"
#include "core/status.h"
#include "detect/detect.h"
#include "route/routing.h"

namespace ftclos {

struct RoutedFabric {
  Detection detection;
  LidMap lids;
  Routing routing;
  double route_ms = 0;  // time in the scheme alone
};

/// Routes `fabric` with the scheme named `scheme` at LMC `lmc`, recognized
/// with the operator's `hints`. On failure `bad_input` (when given) tells an
/// unknown scheme or unusable LIDs (the caller's mistake) from a fabric the
/// scheme cannot route.
Result<RoutedFabric> route_fabric(const Fabric& fabric, std::string_view scheme, int lmc, const HostHints& hints = {},
                                  bool* bad_input = nullptr);
/// The same on given LIDs (those of previous tables, or OpenSM's);
/// `strands` (optional) is handed to the scheme (auto passes over schemes
/// whose tables fail it).
Result<RoutedFabric> route_fabric(const Fabric& fabric, std::string_view scheme, LidMap lids, const HostHints& hints,
                                  bool* bad_input = nullptr, const StrandCheck* strands = nullptr);

}  // namespace ftclos
