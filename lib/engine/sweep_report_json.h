// The sweep report as JSON (doc/schemas/sweep.schema.json): what the plugin
// writes as ftclos-sweep.json after every sweep, with the sweep before it
// in the same file, so that a reader never pairs one sweep with another's
// predecessor (two files cannot be replaced together atomically); and its
// reader, for `ftclos report`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/status.h"
#include "engine/sweep_metrics.h"

namespace ftclos {

/// Follows doc/schemas/sweep.schema.json; goes up when a key is removed,
/// renamed or changes meaning (as report/schema_version.h's).
inline constexpr int kSweepSchemaVersion = 1;

nlohmann::json sweep_report_json(const SweepReport& report);

/// The report in `text`; fails with "NAME: ..." when it is no JSON, has
/// another schema_version or lacks a key.
Result<SweepReport> parse_sweep_report(const std::string& text, const std::string& name);

}  // namespace ftclos
