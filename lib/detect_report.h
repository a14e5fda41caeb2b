// Detection results for people (a short summary) and for programs (JSON with
// the keys families, levels, hosts, switches, degraded, deviations,
// updown_routable).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "detect.h"
#include "fabric.h"

namespace ftclos {

/// "m=8 n=3": a family's parameters as people read them.
std::string params_text(const FamilyMatch& family);

/// "ftree m=8 n=3 (degraded)": the most specific family for one-line
/// summaries; "unknown (why)" when none fits.
std::string family_summary(const Detection& detection);

nlohmann::json detection_json(const Fabric& fabric, const Detection& detection);
std::string detection_summary(const Fabric& fabric, const Detection& detection);

}  // namespace ftclos
