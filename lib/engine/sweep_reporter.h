// The plugin's account of its sweeps for monitoring (issue #47): the last
// sweep's figures, the one's before and the counters, written after every
// sweep into a folder as ftclos.prom (engine/metrics_prom.h, for
// node_exporter's textfile collector) and ftclos-sweep.json
// (engine/sweep_report_json.h), each replaced atomically and on the disk
// before it is renamed: a reader polling them never sees half a file.
#pragma once

#include <string>

#include "core/status.h"
#include "engine/sweep_metrics.h"

namespace ftclos {

inline constexpr const char* kPromFile = "ftclos.prom";
inline constexpr const char* kSweepJsonFile = "ftclos-sweep.json";

class SweepReporter {
 public:
  /// A routing sweep ended, successful or not (metrics_of, failed_metrics).
  void sweep(SweepMetrics metrics);
  /// A sweep published step `published` of the last change and nothing else:
  /// the change's figures again, with that step and this sweep's time.
  void step(int published);

  const SweepReport& report() const { return report_; }

  /// Writes both files into `dir`; fails with "cannot write PATH: REASON".
  Status write(const std::string& dir) const;

 private:
  void count(SweepMetrics metrics);

  SweepReport report_;
  bool any_ = false;  // report_.sweep is a sweep's
};

}  // namespace ftclos
