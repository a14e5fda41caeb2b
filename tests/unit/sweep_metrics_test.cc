// The sweep report (engine/sweep_metrics.h, engine/metrics_prom.h,
// engine/sweep_report_json.h, engine/sweep_reporter.h): the figures of a
// real sweep, the Prometheus text's names, HELP/TYPE lines and label
// escaping, the JSON read back as written, the counters of failed sweeps.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "audit/audit.h"
#include "engine/metrics_prom.h"
#include "engine/sweep.h"
#include "engine/sweep_metrics.h"
#include "engine/sweep_report_json.h"
#include "engine/sweep_report_text.h"
#include "engine/sweep_reporter.h"
#include "gen/generate.h"

namespace ftclos {
namespace {

// FT(8,2) at LMC 1 routed by dmodk, with the figures of its sweep.
struct Swept {
  Fabric fabric = *generate_ftree(8, 2);
  LidMap lids = *assign_lids(fabric, 1);
  SweepOutcome outcome;
  SweepMetrics metrics;

  Swept() {
    SweepOptions options;
    options.scheme = "dmodk";
    outcome = run_sweep({fabric, lids, {}}, options);
    metrics = metrics_of(outcome, fabric, lids, "dmodk");
  }
};

// Every sample line's metric name, and the families with HELP and TYPE lines.
struct Parsed {
  std::set<std::string> samples, help, type;
};

Parsed parse(const std::string& text) {
  Parsed out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string first, second;
    words >> first >> second;
    if (first == "#" && second == "HELP") {
      words >> first;
      out.help.insert(first);
    } else if (first == "#" && second == "TYPE") {
      words >> first;
      out.type.insert(first);
    } else {
      out.samples.insert(first.substr(0, first.find('{')));
    }
  }
  return out;
}

TEST(SweepMetrics, FiguresOfASweepAreTheChecksAndTheAuditors) {
  const Swept s;
  ASSERT_TRUE(s.outcome.ok()) << s.outcome.message;
  const SweepMetrics& m = s.metrics;
  EXPECT_TRUE(m.ok && m.recognized && m.checked);
  EXPECT_EQ(m.lmc, 1);
  EXPECT_EQ(m.hosts, 32);
  EXPECT_EQ(m.missing_cables, 0);
  EXPECT_EQ(m.ca_routes, s.outcome.sweep.check.pairs);
  EXPECT_EQ(m.ca_undelivered, 0);
  ASSERT_TRUE(m.worst_case && m.worst_case->path_bits);
  const AuditInput input{s.fabric, s.outcome.sweep.detection.levels, s.lids, s.outcome.sweep.routing.lfts,
                         {OffsetChoice::Mode::kAllOffsets, 0, {}}, s.outcome.sweep.routing.dest_sl, {}};
  EXPECT_EQ(m.worst_case->all_offsets, worst_case_value(input));
  EXPECT_EQ(m.changed_entries, -1);  // no previous tables
}

TEST(SweepMetrics, PrometheusTextNamesEveryFigureWithHelpAndType) {
  const Swept s;
  const std::string text = prometheus_text(s.metrics, {3, 1, 0});
  const Parsed parsed = parse(text);
  for (const char* name :
       {"ftclos_sweeps_total", "ftclos_sweep_failures_total", "ftclos_last_sweep_timestamp_seconds",
        "ftclos_last_sweep_success", "ftclos_scheme_info", "ftclos_lmc", "ftclos_fabric_info", "ftclos_fabric_levels",
        "ftclos_fabric_hosts", "ftclos_fabric_missing_cables", "ftclos_worst_case_contention", "ftclos_routes",
        "ftclos_undelivered_routes", "ftclos_credit_loops", "ftclos_sls_used", "ftclos_vls_used",
        "ftclos_sweep_duration_seconds", "ftclos_deferred_polish_pending", "ftclos_deferred_polish_installed_total"})
    EXPECT_TRUE(parsed.samples.count(name)) << name << "\n" << text;
  EXPECT_EQ(parsed.samples, parsed.help);
  EXPECT_EQ(parsed.samples, parsed.type);
  for (const std::string& name : parsed.samples) EXPECT_TRUE(name.starts_with("ftclos_")) << name;
  EXPECT_NE(text.find("# TYPE ftclos_sweeps_total counter\nftclos_sweeps_total 3\n"), std::string::npos);
  EXPECT_NE(text.find("ftclos_worst_case_contention{consumer=\"path_bits\"} "), std::string::npos);
  EXPECT_NE(text.find("ftclos_credit_loops{routes=\"ca_and_switch\"} 0\n"), std::string::npos);
  EXPECT_EQ(text.find("ftclos_changed_lft_entries"), std::string::npos);  // not known: left out
}

TEST(SweepMetrics, LabelValuesAreEscaped) {
  EXPECT_EQ(prometheus_label_value("a\\b\"c\nd"), "\"a\\\\b\\\"c\\nd\"");
  SweepMetrics m = failed_metrics(13, "ERR 13: \"cn\"\nfile", "sch\"eme");
  const std::string text = prometheus_text(m, {1, 1, 0});
  EXPECT_NE(text.find("ftclos_scheme_info{scheme=\"sch\\\"eme\",chosen=\"\"} 1\n"), std::string::npos) << text;
}

TEST(SweepMetrics, JsonReadsBackAsWritten) {
  const Swept s;
  SweepReport report{s.metrics, s.metrics, {2, 0, 0}};
  report.previous->worst_case->offset0 += 1;
  Result<SweepReport> back = parse_sweep_report(sweep_report_json(report).dump(), "test");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(sweep_report_json(*back), sweep_report_json(report));
  EXPECT_NE(sweep_report_text(*back).find("worst case offset0: "), std::string::npos);
  EXPECT_FALSE(parse_sweep_report("{\"schema_version\": 1}", "test").ok());
  EXPECT_FALSE(parse_sweep_report("[1", "test").ok());
}

TEST(SweepMetrics, FailedSweepsAreCountedAndKeepThePreviousFigures) {
  const Swept s;
  SweepReporter reporter;
  reporter.sweep(s.metrics);
  reporter.sweep(failed_metrics(13, "ERR 13: cannot use a hint file", "dmodk"));
  const SweepReport& report = reporter.report();
  EXPECT_EQ(report.counters.sweeps, 2);
  EXPECT_EQ(report.counters.failures, 1);
  ASSERT_TRUE(report.previous);
  EXPECT_TRUE(report.previous->ok);
  const std::string text = prometheus_text(report.sweep, report.counters);
  EXPECT_NE(text.find("ftclos_last_sweep_success 0\n"), std::string::npos);
  EXPECT_NE(text.find("ftclos_last_sweep_error 13\n"), std::string::npos);
  EXPECT_NE(sweep_report_text(report).find("outcome: ok -> ERR 13"), std::string::npos) << sweep_report_text(report);
}

}  // namespace
}  // namespace ftclos
