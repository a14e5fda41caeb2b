#include "engine/sweep_report_json.h"

#include <fmt/format.h>

#include "core/version.h"

namespace ftclos {
namespace {

using nlohmann::json;

template <class T>
json or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

json worst_case_json(const std::optional<ConsumerFigures>& worst) {
  if (!worst) return nullptr;
  return {{"offset0", worst->offset0}, {"path_bits", or_null(worst->path_bits)}, {"all_offsets", worst->all_offsets}};
}

json metrics_json(const SweepMetrics& m) {
  json out = {{"timestamp", m.timestamp},
              {"ok", m.ok},
              {"error", m.error},
              {"message", m.message},
              {"step_only", m.step_only},
              {"scheme", m.scheme},
              {"chosen", m.chosen},
              {"lmc", m.lmc >= 0 ? json(m.lmc) : json(nullptr)},
              {"lmc_needed", m.lmc_needed >= 0 ? json(m.lmc_needed) : json(nullptr)},
              {"recognition", nullptr},
              {"check", nullptr},
              {"change", nullptr},
              {"polish_deferred", m.polish_deferred},
              {"polish_installed", m.polish_installed},
              {"seconds", {{"recognition", m.recognition_seconds},
                           {"routing", m.routing_seconds},
                           {"checking", m.checking_seconds}}}};
  if (m.recognized) {
    json deviations = json::array();
    for (const MetricsDeviation& d : m.deviations)
      deviations.push_back({{"kind", d.kind}, {"at", d.at}, {"peer", d.peer}, {"text", d.text}});
    out["recognition"] = {{"family", m.family},      {"summary", m.family_summary},
                          {"levels", m.levels},      {"hosts", m.hosts},
                          {"switches", m.switches},  {"missing_cables", m.missing_cables},
                          {"deviations", deviations}};
  }
  if (m.checked)
    out["check"] = {{"ca_routes", m.ca_routes},
                    {"ca_undelivered", m.ca_undelivered},
                    {"switch_routes", m.switch_routes},
                    {"switch_undelivered", m.switch_undelivered},
                    {"credit_loops", m.credit_loops},
                    {"credit_loops_with_switches", or_null(m.credit_loops_with_switches)},
                    {"sls_used", m.sls_used},
                    {"vls_used", m.vls_used},
                    {"worst_case", worst_case_json(m.worst_case)}};
  if (m.changed_entries >= 0)
    out["change"] = {{"entries", m.changed_entries}, {"blocks", m.changed_blocks}, {"steps", m.steps},
                     {"steps_published", m.steps_published}, {"safe", m.steps_safe}};
  return out;
}

template <class T>
std::optional<T> optional_of(const json& value) {
  return value.is_null() ? std::nullopt : std::optional<T>(value.get<T>());
}

// nlohmann's get() and at() throw on a missing key or a wrong type; the caller turns that into a Status.
SweepMetrics metrics_from(const json& in) {
  SweepMetrics m;
  m.timestamp = in.at("timestamp").get<double>();
  m.ok = in.at("ok").get<bool>();
  m.error = in.at("error").get<int>();
  m.message = in.at("message").get<std::string>();
  m.step_only = in.at("step_only").get<bool>();
  m.scheme = in.at("scheme").get<std::string>();
  m.chosen = in.at("chosen").get<std::string>();
  m.lmc = optional_of<int>(in.at("lmc")).value_or(-1);
  m.lmc_needed = optional_of<int>(in.at("lmc_needed")).value_or(-1);
  if (const json& r = in.at("recognition"); !r.is_null()) {
    m.recognized = true;
    m.family = r.at("family").get<std::string>();
    m.family_summary = r.at("summary").get<std::string>();
    m.levels = r.at("levels").get<int>();
    m.hosts = r.at("hosts").get<long>();
    m.switches = r.at("switches").get<long>();
    m.missing_cables = r.at("missing_cables").get<long>();
    for (const json& d : r.at("deviations"))
      m.deviations.push_back({d.at("kind").get<std::string>(), d.at("at").get<std::string>(),
                              d.at("peer").get<std::string>(), d.at("text").get<std::string>()});
  }
  if (const json& c = in.at("check"); !c.is_null()) {
    m.checked = true;
    m.ca_routes = c.at("ca_routes").get<long>();
    m.ca_undelivered = c.at("ca_undelivered").get<long>();
    m.switch_routes = c.at("switch_routes").get<long>();
    m.switch_undelivered = c.at("switch_undelivered").get<long>();
    m.credit_loops = c.at("credit_loops").get<int>();
    m.credit_loops_with_switches = optional_of<int>(c.at("credit_loops_with_switches"));
    m.sls_used = c.at("sls_used").get<int>();
    m.vls_used = c.at("vls_used").get<int>();
    if (const json& w = c.at("worst_case"); !w.is_null())
      m.worst_case = ConsumerFigures{w.at("offset0").get<double>(), optional_of<double>(w.at("path_bits")),
                                     w.at("all_offsets").get<double>()};
  }
  if (const json& c = in.at("change"); !c.is_null()) {
    m.changed_entries = c.at("entries").get<long>();
    m.changed_blocks = c.at("blocks").get<long>();
    m.steps = c.at("steps").get<int>();
    m.steps_published = c.at("steps_published").get<int>();
    m.steps_safe = c.at("safe").get<bool>();
  }
  m.polish_deferred = in.at("polish_deferred").get<bool>();
  m.polish_installed = in.at("polish_installed").get<bool>();
  const json& seconds = in.at("seconds");
  m.recognition_seconds = seconds.at("recognition").get<double>();
  m.routing_seconds = seconds.at("routing").get<double>();
  m.checking_seconds = seconds.at("checking").get<double>();
  return m;
}

}  // namespace

nlohmann::json sweep_report_json(const SweepReport& report) {
  return {{"schema_version", kSweepSchemaVersion},
          {"ftclos_version", FTCLOS_VERSION},
          {"sweeps_total", report.counters.sweeps},
          {"sweep_failures_total", report.counters.failures},
          {"deferred_polish_installed_total", report.counters.polish_installed},
          {"sweep", metrics_json(report.sweep)},
          {"previous", report.previous ? metrics_json(*report.previous) : json(nullptr)}};
}

Result<SweepReport> parse_sweep_report(const std::string& text, const std::string& name) {
  const json in = json::parse(text, nullptr, false);
  if (in.is_discarded() || !in.is_object()) return Status::Error(fmt::format("{}: not a JSON object", name));
  if (in.value("schema_version", 0) != kSweepSchemaVersion)
    return Status::Error(fmt::format("{}: schema_version {} where this ftclos reads {}", name,
                                     in.contains("schema_version") ? in["schema_version"].dump() : "none",
                                     kSweepSchemaVersion));
  try {
    SweepReport report;
    report.counters = {in.at("sweeps_total").get<long>(), in.at("sweep_failures_total").get<long>(),
                       in.at("deferred_polish_installed_total").get<long>()};
    report.sweep = metrics_from(in.at("sweep"));
    if (const json& previous = in.at("previous"); !previous.is_null()) report.previous = metrics_from(previous);
    return report;
  } catch (const json::exception& e) {
    return Status::Error(fmt::format("{}: not an ftclos sweep report: {}", name, e.what()));
  }
}

}  // namespace ftclos
