// The sweep's figures in the Prometheus text exposition format (version
// 0.0.4), for node_exporter's textfile collector: every name ftclos_*, base
// units (_seconds), counters _total, strings as labels of *_info gauges,
// HELP and TYPE before each family. A figure the sweep does not know (a
// failed sweep's worst case, the change without previous tables) is left
// out rather than written as a sentinel.
#pragma once

#include <string>
#include <string_view>

#include "engine/sweep_metrics.h"

namespace ftclos {

/// The whole file's text.
std::string prometheus_text(const SweepMetrics& metrics, const SweepCounters& counters);

/// `value` as a label value between double quotes: backslash, double quote
/// and line feed escaped, as the format requires.
std::string prometheus_label_value(std::string_view value);

}  // namespace ftclos
