#include "engine/sweep_reporter.h"

#include <chrono>
#include <utility>

#include "core/files.h"
#include "engine/metrics_prom.h"
#include "engine/sweep_report_json.h"

namespace ftclos {

void SweepReporter::count(SweepMetrics metrics) {
  if (any_) report_.previous = std::move(report_.sweep);
  any_ = true;
  report_.sweep = std::move(metrics);
  ++report_.counters.sweeps;
  report_.counters.failures += !report_.sweep.ok;
  report_.counters.polish_installed += report_.sweep.polish_installed;
}

void SweepReporter::sweep(SweepMetrics metrics) { count(std::move(metrics)); }

void SweepReporter::step(int published) {
  SweepMetrics metrics = report_.sweep;
  metrics.timestamp = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  metrics.step_only = true;
  metrics.polish_installed = false;
  metrics.steps_published = published;
  count(std::move(metrics));
}

Status SweepReporter::write(const std::string& dir) const {
  const std::string folder = dir.empty() ? "." : dir;
  if (Status status = write_file_durably(folder + "/" + kSweepJsonFile, sweep_report_json(report_).dump(1) + "\n");
      !status.ok())
    return status;
  return write_file_durably(folder + "/" + kPromFile, prometheus_text(report_.sweep, report_.counters));
}

}  // namespace ftclos
