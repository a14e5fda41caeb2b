// What the experiments of experiments.h share: one run function per
// experiment (in experiments_yuan.cc, experiments_drb.cc,
// experiments_topology.cc) and the few ways they print ours beside the
// paper's numbers. Internal to lib/.
#pragma once

#include <fmt/format.h>

#include <string>

#include "core/status.h"
#include "research/experiments.h"
#include "traffic/pattern_load.h"

namespace ftclos::experiment_parts {

inline std::string fixed(double value, int digits = 2) { return fmt::format("{:.{}f}", value, digits); }
inline std::string relative(double ours, double paper) {
  return fmt::format("{:+.1f}%", 100 * (ours - paper) / paper);
}
inline std::string range(const Spread& s) { return fmt::format("{:.2f} ({:.2f}-{:.2f})", s.mean, s.min, s.max); }
inline std::string yes_no(bool ok) { return ok ? "yes" : "NO"; }

// Counts a check and returns its verdict for the table.
inline std::string check(ExperimentReport& report, bool ok) {
  ++report.checks;
  report.failed += !ok;
  return yes_no(ok);
}

Status oblivious_table1(ExperimentReport& report, const ExperimentOptions& options);
Status oblivious_table2(ExperimentReport& report, const ExperimentOptions& options);
Status oblivious_table3(ExperimentReport& report, const ExperimentOptions& options);
Status clustered(ExperimentReport& report, const ExperimentOptions& options);
Status hotspot(ExperimentReport& report, const ExperimentOptions& options);
Status drb_fig4(ExperimentReport& report, const ExperimentOptions& options);
Status mikant_table1(ExperimentReport& report, const ExperimentOptions& options);
Status rfc_ancestors(ExperimentReport& report, const ExperimentOptions& options);
Status rfc_disconnect(ExperimentReport& report, const ExperimentOptions& options);

}  // namespace ftclos::experiment_parts
