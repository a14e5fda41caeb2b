// Detection results for programs: `ftclos detect --json`, with the keys
// families, levels, host_count, switch_count, hosts, switches, degraded,
// deviations, updown_routable, schema_version, ftclos_version.
#pragma once

#include <nlohmann/json.hpp>

#include "core/fabric.h"
#include "detect/detect.h"

namespace ftclos {

nlohmann::json detection_json(const Fabric& fabric, const Detection& detection);

}  // namespace ftclos
