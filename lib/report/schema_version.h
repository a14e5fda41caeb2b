// What every JSON report starts with: which schema it follows
// (doc/schemas/<report>.schema.json) and which ftclos wrote it. A report's
// schema_version goes up when a key is removed, renamed or changes meaning;
// new keys alone keep it.
#pragma once

#include <nlohmann/json.hpp>

#include "core/version.h"

namespace ftclos {

inline constexpr int kDetectSchemaVersion = 1;  // doc/schemas/detect.schema.json
inline constexpr int kAuditSchemaVersion = 1;   // doc/schemas/audit.schema.json

/// Adds "schema_version" and "ftclos_version" to a report's top level.
inline void stamp_report(nlohmann::json& report, int schema_version) {
  report["schema_version"] = schema_version;
  report["ftclos_version"] = FTCLOS_VERSION;
}

}  // namespace ftclos
