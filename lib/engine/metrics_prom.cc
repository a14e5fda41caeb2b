#include "engine/metrics_prom.h"

#include <fmt/format.h>

#include <utility>
#include <vector>

namespace ftclos {
namespace {

std::string number(double value) { return fmt::format("{}", value); }

// One metric family: HELP, TYPE and its samples, each "{labels} value".
class Families {
 public:
  void add(std::string_view name, std::string_view type, std::string_view help,
           const std::vector<std::pair<std::string, std::string>>& samples) {
    if (samples.empty()) return;
    text_ += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
    for (const auto& [labels, value] : samples) text_ += fmt::format("{}{} {}\n", name, labels, value);
  }
  void gauge(std::string_view name, std::string_view help, double value) {
    add(name, "gauge", help, {{"", number(value)}});
  }
  void counter(std::string_view name, std::string_view help, long value) {
    add(name, "counter", help, {{"", number(static_cast<double>(value))}});
  }
  std::string text() && { return std::move(text_); }

 private:
  std::string text_;
};

std::string label(std::string_view name, std::string_view value) {
  return fmt::format("{{{}={}}}", name, prometheus_label_value(value));
}

void recognition(Families& out, const SweepMetrics& m) {
  if (!m.recognized) return;
  out.add("ftclos_fabric_info", "gauge", "The recognized fabric: family and its parameters, as detect prints them.",
          {{fmt::format("{{family={},summary={}}}", prometheus_label_value(m.family),
                        prometheus_label_value(m.family_summary)),
            "1"}});
  out.gauge("ftclos_fabric_levels", "Switch levels of the recognized fabric.", m.levels);
  out.gauge("ftclos_fabric_hosts", "Compute hosts (CAs not attached above the leaves).", static_cast<double>(m.hosts));
  out.gauge("ftclos_fabric_switches", "Switches in the subnet.", static_cast<double>(m.switches));
  out.gauge("ftclos_fabric_missing_cables", "Cables the recognized family has and the fabric lacks.",
            static_cast<double>(m.missing_cables));
  out.gauge("ftclos_fabric_deviations", "Deviations from the recognized family, missing cables included.",
            static_cast<double>(m.deviations.size()));
}

void check(Families& out, const SweepMetrics& m) {
  if (!m.checked) return;
  if (m.worst_case) {
    std::vector<std::pair<std::string, std::string>> worst{{label("consumer", "offset0"), number(m.worst_case->offset0)}};
    if (m.worst_case->path_bits) worst.push_back({label("consumer", "path_bits"), number(*m.worst_case->path_bits)});
    worst.push_back({label("consumer", "all_offsets"), number(m.worst_case->all_offsets)});
    out.add("ftclos_worst_case_contention", "gauge",
            "Exact worst-case contention of the tables (most flows of any permutation on one link), per consumer: "
            "hosts on LID offset 0, on their path bits, spread over all offsets.",
            worst);
  }
  out.add("ftclos_routes", "gauge", "Routes the check walked: (source CA, destination LID), and switches' own (PMA).",
          {{label("kind", "ca"), number(static_cast<double>(m.ca_routes))},
           {label("kind", "switch"), number(static_cast<double>(m.switch_routes))}});
  out.add("ftclos_undelivered_routes", "gauge", "Of ftclos_routes, those not delivered (no route, dead port, loop).",
          {{label("kind", "ca"), number(static_cast<double>(m.ca_undelivered))},
           {label("kind", "switch"), number(static_cast<double>(m.switch_undelivered))}});
  std::vector<std::pair<std::string, std::string>> loops{{label("routes", "ca"), number(m.credit_loops)}};
  if (m.credit_loops_with_switches)
    loops.push_back({label("routes", "ca_and_switch"), number(*m.credit_loops_with_switches)});
  out.add("ftclos_credit_loops", "gauge",
          "Credit loops (cycles of the channel dependency graph, per VL) of CA routes, and with switches' own routes.",
          loops);
  out.gauge("ftclos_sls_used", "SLs the delivered CA routes use.", m.sls_used);
  out.gauge("ftclos_vls_used", "VLs the delivered CA routes may take (every port pair's SL2VL).", m.vls_used);
}

void change(Families& out, const SweepMetrics& m) {
  if (m.changed_entries >= 0) {
    out.gauge("ftclos_changed_lft_entries", "LFT entries that differ from the previous sweep's tables.",
              static_cast<double>(m.changed_entries));
    out.gauge("ftclos_changed_lft_blocks", "64-LID LFT blocks holding them: the SMPs OpenSM sends.",
              static_cast<double>(m.changed_blocks));
  }
  if (m.steps == 0) return;
  out.gauge("ftclos_change_steps", "Steps the last change is published in, each safe in flight with the one before.",
            m.steps);
  out.gauge("ftclos_change_steps_published", "Of ftclos_change_steps, those in the switches.", m.steps_published);
  out.gauge("ftclos_change_safe", "1 when every mix of two consecutive steps is loop-free and deadlock-free.",
            m.steps_safe ? 1 : 0);
}

}  // namespace

std::string prometheus_label_value(std::string_view value) {
  std::string out = "\"";
  for (const char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out + "\"";
}

std::string prometheus_text(const SweepMetrics& m, const SweepCounters& counters) {
  Families out;
  out.counter("ftclos_sweeps_total", "Routing sweeps OpenSM ran the plugin for, failed ones included.",
              counters.sweeps);
  out.counter("ftclos_sweep_failures_total", "Sweeps the engine failed (OpenSM fell back to its next engine).",
              counters.failures);
  out.gauge("ftclos_last_sweep_timestamp_seconds", "When the last sweep ended, in seconds since the epoch.",
            m.timestamp);
  out.gauge("ftclos_last_sweep_success", "1 when the last sweep's tables were installed, 0 when it failed.",
            m.ok ? 1 : 0);
  out.gauge("ftclos_last_sweep_error", "The ERR number of the last sweep (plugin/README.md); 0 when it succeeded.",
            m.error);
  out.add("ftclos_scheme_info", "gauge", "The configured scheme, and the one that routed (auto's choice).",
          {{fmt::format("{{scheme={},chosen={}}}", prometheus_label_value(m.scheme), prometheus_label_value(m.chosen)),
            "1"}});
  if (m.lmc >= 0) out.gauge("ftclos_lmc", "The subnet's LMC.", m.lmc);
  if (m.lmc_needed >= 0)
    out.gauge("ftclos_lmc_needed", "The LMC the scheme needs for its full guarantee on this fabric.", m.lmc_needed);
  recognition(out, m);
  check(out, m);
  change(out, m);
  if (m.recognized)
    out.add("ftclos_sweep_duration_seconds", "gauge", "Time of the last routing sweep, per phase.",
            {{label("phase", "recognition"), number(m.recognition_seconds)},
             {label("phase", "routing"), number(m.routing_seconds)},
             {label("phase", "checking"), number(m.checking_seconds)}});
  out.gauge("ftclos_deferred_polish_pending",
            "1 while a full contention polish runs in the background for a later sweep to install.",
            m.polish_deferred ? 1 : 0);
  out.counter("ftclos_deferred_polish_installed_total", "Sweeps that installed a deferred polish.",
              counters.polish_installed);
  return std::move(out).text();
}

}  // namespace ftclos
