// The audit as one self-contained HTML page for people: fabric summary,
// correctness, a per-level link-load heatmap, histograms of SD pairs per
// channel, the worst link with its witness permutation and, when given, a
// comparison of several sets of tables and pattern/scheme comparison tables.
// Inline CSS and SVG only, no scripts and nothing fetched, so the page
// renders offline and can be mailed around.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "audit/audit.h"
#include "core/fabric.h"
#include "detect/detect.h"
#include "report/compare.h"
#include "traffic/pattern_load.h"

namespace ftclos {

/// One directed switch-to-switch channel as the page shows it.
struct ReportChannel {
  std::string switch_name;  // the sending switch
  int port = 0;             // its egress port
  int level = 0;            // level of the sending switch
  std::string direction;    // up, down or side
  long pairs = 0;
  int sources = 0;
  int destinations = 0;
  double matching = 0;
};

struct ReportFamily {
  std::string name;    // ftree, pgft, ...
  std::string params;  // "m=16 n=3"
};

/// One pattern under one scheme (`ftclos audit --pattern`, `ftclos patterns`).
struct PatternRow {
  std::string scheme;
  PatternStats stats;
};

struct AuditReportData {
  std::string title;                  // what was audited, e.g. the topology file
  std::string tables;                 // where the LFTs came from, LMC, offsets
  std::string consumers;              // LMC > 0: consumers_line (report/audit_report.h); empty otherwise
  std::vector<std::string> warnings;  // about the tables
  // Fabric summary.
  std::vector<ReportFamily> families;  // most specific first; empty when unknown
  std::string unknown_reason;
  int hosts = 0;
  int switches = 0;
  int levels = 0;
  bool updown_routable = false;
  bool degraded = false;
  std::vector<std::string> deviations;  // one line each
  // One set's audit: cards, correctness, heatmaps, histograms, worst link.
  // False for a comparison with no set singled out (fabric_report_data).
  bool detailed = true;
  Correctness correctness;
  // Contention.
  double worst_case = 0;
  bool exact = true;
  std::optional<double> oblivious_ratio;  // known on a full fat-tree only
  int worst_channel = -1;                 // index into channels; -1 when nothing carries traffic
  std::vector<std::pair<std::string, std::string>> witness;  // (source, destination)
  std::vector<ReportChannel> channels;  // every switch-to-switch channel, idle ones at zero
  std::vector<std::string> notes;
  // Several sets of tables side by side; empty when only one was audited.
  std::vector<ComparedSet> compared;
  // Pattern/scheme comparison; empty when none was run.
  std::vector<PatternRow> patterns;
};

/// The fabric summary alone, not detailed: the page of a comparison of sets
/// with none singled out. The caller adds title, tables, compared sets and patterns.
AuditReportData fabric_report_data(const Fabric& fabric, const Detection& detection);

/// Everything the audit itself knows: fabric summary, correctness and
/// contention, with the idle switch-to-switch channels added at zero load.
/// The caller adds title, tables, warnings, oblivious ratio and patterns.
AuditReportData audit_report_data(const Fabric& fabric, const Detection& detection, const Correctness& correctness,
                                  const Contention& contention);

/// The page.
std::string audit_html(const AuditReportData& data);

/// `text` with & < > " ' replaced by entities, safe in text and attributes.
std::string html_escape(std::string_view text);

}  // namespace ftclos
