// Detection results for people: a family's parameters, a one-line summary and
// the full text `ftclos detect` prints (report/detect_json.h has the JSON).
#pragma once

#include <string>

#include "core/fabric.h"
#include "detect/detect.h"

namespace ftclos {

/// "m=8 n=3": a family's parameters as people read them.
std::string params_text(const FamilyMatch& family);

/// "ftree m=8 n=3 (degraded)": the most specific family for one-line
/// summaries; "unknown (why)" when none fits.
std::string family_summary(const Detection& detection);

std::string detection_summary(const Fabric& fabric, const Detection& detection);

}  // namespace ftclos
