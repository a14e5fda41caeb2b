#include "engine/sweep_report_text.h"

#include <fmt/format.h>

#include <ctime>
#include <utility>
#include <vector>

namespace ftclos {
namespace {

std::string when(double timestamp) {
  const std::time_t seconds = static_cast<std::time_t>(timestamp);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return text;
}

std::string outcome(const SweepMetrics& m) {
  if (!m.ok) return fmt::format("failed, OpenSM fell back: {}", m.message);
  return m.step_only ? fmt::format("published step {} of {} of the last change", m.steps_published, m.steps)
                     : "tables installed";
}

// The figures that can move between sweeps, by name, as text.
std::vector<std::pair<std::string, std::string>> figures(const SweepMetrics& m) {
  std::vector<std::pair<std::string, std::string>> out{
      {"outcome", m.ok ? "ok" : fmt::format("ERR {:02d}", m.error)},
      {"scheme", m.chosen.empty() ? m.scheme : fmt::format("{} ({})", m.scheme, m.chosen)},
      {"LMC", fmt::format("{}", m.lmc)}};
  if (m.recognized) {
    out.push_back({"family", m.family_summary});
    out.push_back({"hosts", fmt::format("{}", m.hosts)});
    out.push_back({"switches", fmt::format("{}", m.switches)});
    out.push_back({"missing cables", fmt::format("{}", m.missing_cables)});
    out.push_back({"deviations", fmt::format("{}", m.deviations.size())});
  }
  if (m.checked) {
    out.push_back({"undelivered CA routes", fmt::format("{} of {}", m.ca_undelivered, m.ca_routes)});
    out.push_back({"undelivered switch routes", fmt::format("{} of {}", m.switch_undelivered, m.switch_routes)});
    out.push_back({"credit loops", fmt::format("{}", m.credit_loops)});
    if (m.credit_loops_with_switches)
      out.push_back({"credit loops with switch routes", fmt::format("{}", *m.credit_loops_with_switches)});
    out.push_back({"SLs used", fmt::format("{}", m.sls_used)});
    out.push_back({"VLs used", fmt::format("{}", m.vls_used)});
    if (m.worst_case) {
      out.push_back({"worst case offset0", fmt::format("{:g}", m.worst_case->offset0)});
      if (m.worst_case->path_bits) out.push_back({"worst case path_bits", fmt::format("{:g}", *m.worst_case->path_bits)});
      out.push_back({"worst case all_offsets", fmt::format("{:g}", m.worst_case->all_offsets)});
    }
  }
  if (m.changed_entries >= 0)
    out.push_back({"changed", fmt::format("{} entries in {} LFT blocks", m.changed_entries, m.changed_blocks)});
  if (m.steps > 0)
    out.push_back({"steps", fmt::format("{} of {} published{}", m.steps_published, m.steps,
                                        m.steps_safe ? "" : ", not safe in flight")});
  out.push_back({"deferred polish", m.polish_deferred ? "pending" : m.polish_installed ? "installed" : "none"});
  return out;
}

std::string changes(const SweepMetrics& before, const SweepMetrics& now) {
  std::string out;
  const auto old_figures = figures(before);
  for (const auto& [name, value] : figures(now)) {
    std::string old = "-";
    for (const auto& [old_name, old_value] : old_figures)
      if (old_name == name) old = old_value;
    if (old != value) out += fmt::format("  {}: {} -> {}\n", name, old, value);
  }
  return out.empty() ? "  nothing\n" : out;
}

}  // namespace

std::string sweep_report_text(const SweepReport& report) {
  const SweepMetrics& m = report.sweep;
  std::string out = fmt::format("last sweep: {}, {}\n", when(m.timestamp), outcome(m));
  for (const auto& [name, value] : figures(m))
    if (name != "outcome") out += fmt::format("{}: {}\n", name, value);
  for (const MetricsDeviation& d : m.deviations) out += fmt::format("  {}\n", d.text);
  if (m.recognized)
    out += fmt::format("time: {:.3f} s recognition, {:.3f} s routing, {:.3f} s checking\n", m.recognition_seconds,
                       m.routing_seconds, m.checking_seconds);
  out += fmt::format("sweeps: {}, {} failed; deferred polish installed {} times\n", report.counters.sweeps,
                     report.counters.failures, report.counters.polish_installed);
  if (!report.previous) return out + "since the previous sweep: none recorded (the first since OpenSM started)\n";
  return out + fmt::format("since the previous sweep ({}):\n", when(report.previous->timestamp)) +
         changes(*report.previous, m);
}

}  // namespace ftclos
