#include "engine/sweep_metrics.h"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <set>

#include "detect/deviation.h"
#include "detect/summary.h"

namespace ftclos {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string end_of(const Fabric& fabric, PortRef ref) {
  if (!ref.valid()) return "";
  const std::string& name = fabric.node(ref.node).display_name();
  return ref.port > 0 ? fmt::format("{}[{}]", name, ref.port) : name;
}

void add_recognition(SweepMetrics& out, const Detection& detection, const Fabric& fabric) {
  out.recognized = true;
  out.family = detection.families.empty() ? "unknown" : std::string(detection.families.front().name());
  out.family_summary = family_summary(detection);
  out.levels = detection.levels.height;
  out.hosts = fabric.count(NodeType::kCa) - static_cast<long>(detection.levels.io_hosts.size());
  out.switches = fabric.count(NodeType::kSwitch);
  for (const Deviation& d : detection.deviations()) {
    out.missing_cables += d.kind == Deviation::Kind::kMissingCable;
    out.deviations.push_back({kind_name(d.kind), end_of(fabric, d.at), end_of(fabric, d.peer), describe(fabric, d)});
  }
}

void add_check(SweepMetrics& out, const Sweep& sweep) {
  const Correctness& check = sweep.check;
  out.checked = true;
  out.ca_routes = check.pairs;
  out.ca_undelivered = check.unreachable + check.loops;
  out.switch_routes = check.switch_pairs;
  out.switch_undelivered = check.switch_unreachable;
  out.credit_loops = check.credit_loops;
  out.sls_used = std::popcount(check.sls_used);
  out.vls_used = std::popcount(check.vls_used);
  if (sweep.figures) {
    out.credit_loops_with_switches = sweep.figures->switch_credit_loops;
    out.worst_case = sweep.figures->consumers;
  }
}

}  // namespace

SweepMetrics metrics_of(const SweepOutcome& outcome, const Fabric& fabric, const LidMap& lids,
                        const std::string& scheme) {
  const Sweep& sweep = outcome.sweep;
  SweepMetrics out = failed_metrics(outcome.ok() ? 0 : static_cast<int>(outcome.error), outcome.message, scheme);
  out.ok = outcome.ok();
  out.lmc = lids.lmc;
  add_recognition(out, sweep.detection, fabric);
  // A sweep that failed after routing has tables but no installed ones: its check only where it ran.
  const bool routed = !sweep.routing.lfts.port.empty();
  if (routed) {
    out.chosen = sweep.routing.chosen.empty() ? scheme : std::string(sweep.routing.chosen);
    out.lmc_needed = sweep.routing.lmc_needed;
  }
  if (routed && (outcome.ok() || outcome.error == SweepError::kUnreachableRefused)) add_check(out, sweep);
  out.changed_entries = sweep.changed;
  out.changed_blocks = sweep.changed_blocks;
  out.steps = static_cast<int>(sweep.steps.steps.size());
  out.steps_published = out.ok && out.steps > 0 ? 1 : 0;
  out.steps_safe = sweep.steps.safe();
  out.polish_deferred = sweep.polish_deferred;
  out.polish_installed = sweep.polished;
  out.recognition_seconds = sweep.recognize_ms / 1000;
  out.routing_seconds = sweep.route_ms / 1000;
  out.checking_seconds = sweep.check_ms / 1000;
  return out;
}

SweepMetrics failed_metrics(int error, const std::string& message, const std::string& scheme) {
  SweepMetrics out;
  out.timestamp = now_seconds();
  out.error = error;
  out.message = message;
  out.scheme = scheme;
  return out;
}

}  // namespace ftclos
