#include "report/html_report.h"

#include "detect/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "detect/deviation.h"
#include "detect/levels.h"
#include "report/html_charts.h"

namespace ftclos {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

AuditReportData fabric_report_data(const Fabric& fabric, const Detection& detection) {
  AuditReportData data;
  data.detailed = false;
  for (const FamilyMatch& family : detection.families) data.families.push_back({std::string(family.name()), params_text(family)});
  data.unknown_reason = detection.unknown_reason;
  data.hosts = fabric.count(NodeType::kCa);
  data.switches = fabric.count(NodeType::kSwitch);
  data.levels = detection.levels.height;
  data.updown_routable = detection.updown_routable;
  data.degraded = detection.degraded();
  for (const Deviation& deviation : detection.deviations()) data.deviations.push_back(describe(fabric, deviation));
  return data;
}

AuditReportData audit_report_data(const Fabric& fabric, const Detection& detection, const Correctness& correctness,
                                  const Contention& contention) {
  AuditReportData data = fabric_report_data(fabric, detection);
  data.detailed = true;
  data.correctness = correctness;
  data.worst_case = contention.worst_case;
  data.exact = contention.exact;
  for (const auto& [source, destination] : contention.witness)
    data.witness.emplace_back(fabric.node(source).display_name(), fabric.node(destination).display_name());
  data.notes = contention.notes;

  // Idle channels matter as much as hot ones (a scheme that leaves links
  // unused shows here), so every cabled switch-to-switch port gets a cell.
  std::map<PortRef, const LinkLoad*> loads;
  for (const LinkLoad& link : contention.links) loads[link.channel] = &link;
  for (int x = 0; x < fabric.size(); ++x) {
    const Node& node = fabric.node(x);
    if (!node.is_switch()) continue;
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortRef peer = node.ports[p].peer;
      if (!peer.valid() || !fabric.node(peer.node).is_switch()) continue;
      ReportChannel channel{node.display_name(), p, detection.levels.of[x],
                            direction_name(direction(fabric, detection.levels, {x, p}))};
      if (const auto it = loads.find({x, p}); it != loads.end()) {
        channel.pairs = it->second->pairs;
        channel.sources = it->second->sources;
        channel.destinations = it->second->destinations;
        channel.matching = it->second->matching;
        if (it->first == contention.worst_link) data.worst_channel = static_cast<int>(data.channels.size());
      }
      data.channels.push_back(std::move(channel));
    }
  }
  return data;
}

namespace {

using namespace html_charts;

// ---- Page parts ----

constexpr const char* kStyle = R"(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "DejaVu Sans", sans-serif;
  margin: 24px 32px; color: #1f2328; background: #fff; line-height: 1.45; max-width: 1360px; }
h1 { font-size: 26px; margin: 0 0 2px; }
h2 { font-size: 20px; margin: 34px 0 10px; padding-bottom: 4px; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 15px; margin: 18px 0 6px; }
p, li { font-size: 14px; }
.sub { color: #59636e; font-size: 14px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 18px 0 6px; }
.card { border: 1px solid #d0d7de; border-radius: 8px; padding: 10px 16px; min-width: 130px; }
.card .v { font-size: 24px; font-weight: 600; }
.card .k { font-size: 12px; color: #59636e; text-transform: uppercase; letter-spacing: .04em; }
.good { color: #1a7f37; }
.bad { color: #cf222e; }
.warn { color: #9a6700; }
table { border-collapse: collapse; font-size: 14px; margin: 6px 0 10px; }
th, td { border: 1px solid #d0d7de; padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.best { font-weight: 700; background: #dafbe1; }
table.witness td { padding: 2px 10px; }
svg { display: block; }
svg text { font-family: inherit; fill: #1f2328; }
svg .axis { stroke: #59636e; stroke-width: 1; }
svg .grid { stroke: #e4e7eb; stroke-width: 1; }
svg .bar { fill: #cc4c02; }
svg rect.c { stroke: #afb8c1; stroke-width: .6; }
svg .bar:hover, svg rect.c:hover { stroke: #0969da; stroke-width: 2; }
svg .worst { fill: none; stroke: #0a84ff; stroke-width: 3; pointer-events: none; }
.toggle { font-size: 14px; }
label.toggle { margin-right: 14px; }
.legend { display: none; flex-wrap: wrap; gap: 6px 14px; align-items: center; font-size: 13px; margin: 6px 0 12px; }
.sw { display: inline-block; width: 14px; height: 14px; border: 1px solid #8c959f; vertical-align: -2px;
  margin-right: 4px; }
.heat { margin: 4px 0 18px; overflow-x: auto; }
.charts { display: flex; flex-wrap: wrap; gap: 18px; }
.chart h3 { margin-top: 4px; }
details { margin: 12px 0; font-size: 14px; }
summary { cursor: pointer; }
footer { margin-top: 40px; color: #59636e; font-size: 12px; }
)";

void write_card(Out out, std::string_view key, const std::string& value, const char* tone) {
  fmt::format_to(out, "<div class=\"card\"><div class=\"k\">{}</div><div class=\"v {}\">{}</div></div>\n", key, tone,
                 html_escape(value));
}

void write_cards(Out out, const AuditReportData& data) {
  const Correctness& c = data.correctness;
  fmt::format_to(out, "<div class=\"cards\">\n");
  write_card(out, "hosts", number(data.hosts), "");
  write_card(out, "switches", number(data.switches), "");
  write_card(out, "switch levels", number(data.levels), "");
  write_card(out, "unreachable pairs", number(static_cast<double>(c.unreachable)), c.unreachable ? "bad" : "good");
  write_card(out, "loops / credit loops", fmt::format("{} / {}", c.loops, c.credit_loops),
             c.loops || c.credit_loops ? "bad" : "good");
  write_card(out, "worst-case contention", number(data.worst_case) + (data.exact ? "" : " (bound)"),
             data.worst_case <= 1 + 1e-9 ? "good" : "warn");
  if (!data.consumers.empty()) write_card(out, "worst case by consumer", data.consumers, "");
  fmt::format_to(out, "</div>\n");
}

void write_list(Out out, const std::vector<std::string>& items, size_t limit, std::string_view more) {
  if (items.empty()) return;
  fmt::format_to(out, "<ul>\n");
  for (size_t i = 0; i < std::min(limit, items.size()); ++i) fmt::format_to(out, "<li>{}</li>\n", html_escape(items[i]));
  if (items.size() > limit) fmt::format_to(out, "<li>\u2026 and {} more {}</li>\n", items.size() - limit, more);
  fmt::format_to(out, "</ul>\n");
}

// (a) What the fabric is.
void write_fabric(Out out, const AuditReportData& data) {
  fmt::format_to(out, "<section id=\"fabric\">\n<h2>Fabric</h2>\n<table>\n");
  fmt::format_to(out, "<tr><th>family</th><td>");
  if (data.families.empty()) fmt::format_to(out, "unknown: {}", html_escape(data.unknown_reason));
  for (size_t i = 0; i < data.families.size(); ++i)
    fmt::format_to(out, "{}<b>{}</b> {}", i ? "<br>" : "", html_escape(data.families[i].name),
                   html_escape(data.families[i].params));
  fmt::format_to(out, "</td></tr>\n");
  fmt::format_to(out, "<tr><th>hosts</th><td class=\"n\">{}</td></tr>\n", data.hosts);
  fmt::format_to(out, "<tr><th>switches</th><td class=\"n\">{}</td></tr>\n", data.switches);
  fmt::format_to(out, "<tr><th>switch levels</th><td class=\"n\">{}</td></tr>\n", data.levels);
  fmt::format_to(out, "<tr><th>up/down routable</th><td>{}</td></tr>\n", data.updown_routable ? "yes" : "no");
  fmt::format_to(out, "<tr><th>degraded</th><td class=\"{}\">{}</td></tr>\n", data.degraded ? "bad" : "good",
                 data.degraded ? fmt::format("yes, {} deviations", data.deviations.size()) : "no");
  if (!data.tables.empty()) fmt::format_to(out, "<tr><th>tables</th><td>{}</td></tr>\n", html_escape(data.tables));
  fmt::format_to(out, "</table>\n");
  if (!data.warnings.empty()) {
    fmt::format_to(out, "<h3>Warnings</h3>\n");
    write_list(out, data.warnings, data.warnings.size(), "");
  }
  if (!data.deviations.empty()) {
    // Folded when long, so the charts stay near the top (<details> needs no script).
    fmt::format_to(out, "<details{}><summary><b>Deviations from the family ({})</b></summary>\n",
                   data.deviations.size() <= 10 ? " open" : "", data.deviations.size());
    write_list(out, data.deviations, 200, "(ftclos detect lists them all)");
    fmt::format_to(out, "</details>\n");
  }
  fmt::format_to(out, "</section>\n");
}

void write_count_row(Out out, std::string_view what, long count) {
  fmt::format_to(out, "<tr><th>{}</th><td class=\"n {}\">{}</td></tr>\n", what, count ? "bad" : "good", count);
}

void write_correctness(Out out, const AuditReportData& data) {
  const Correctness& c = data.correctness;
  fmt::format_to(out, "<section id=\"correctness\">\n<h2>Correctness</h2>\n<table>\n");
  fmt::format_to(out, "<tr><th>CA pairs examined</th><td class=\"n\">{}</td></tr>\n", c.pairs);
  write_count_row(out, "unreachable", c.unreachable);
  write_count_row(out, "forwarding loops", c.loops);
  write_count_row(out, "credit loops (per VL)", c.credit_loops);
  write_count_row(out, "up/down violations", c.updown_violations);
  write_count_row(out, "non-minimal paths", c.non_minimal);
  fmt::format_to(out, "</table>\n");
  if (!c.examples.empty()) {
    fmt::format_to(out, "<h3>Examples</h3>\n");
    write_list(out, c.examples, c.examples.size(), "");
  }
  fmt::format_to(out, "</section>\n");
}

// (d) The worst link and a permutation that reaches it.
void write_worst_link(Out out, const AuditReportData& data) {
  fmt::format_to(out, "<section id=\"worst-link\">\n<h2>Worst link</h2>\n");
  if (data.worst_channel < 0) {
    fmt::format_to(out, "<p>No switch-to-switch channel carries traffic.</p>\n");
  } else {
    const ReportChannel& c = data.channels[data.worst_channel];
    fmt::format_to(out,
                   "<p>Worst-case contention <b>{}</b>{}: one permutation puts {} flows on a single link. Nonblocking: "
                   "<b class=\"{}\">{}</b>.</p>\n",
                   number(data.worst_case), data.exact ? "" : " (an upper bound)", number(data.worst_case),
                   data.worst_case <= 1 + 1e-9 ? "good" : "bad", data.worst_case <= 1 + 1e-9 ? "yes" : "no");
    fmt::format_to(out, "<table>\n<tr><th>link</th><td>{} port {}</td></tr>\n", html_escape(c.switch_name), c.port);
    fmt::format_to(out, "<tr><th>level</th><td>{}</td></tr>\n", html_escape(level_title(c.level, c.direction)));
    fmt::format_to(out, "<tr><th>SD pairs</th><td class=\"n\">{}</td></tr>\n", c.pairs);
    fmt::format_to(out, "<tr><th>sources</th><td class=\"n\">{}</td></tr>\n", c.sources);
    fmt::format_to(out, "<tr><th>destinations</th><td class=\"n\">{}</td></tr>\n", c.destinations);
    fmt::format_to(out, "<tr><th>matching</th><td class=\"n\">{}</td></tr>\n", number(c.matching));
    fmt::format_to(out, "<tr><th>oblivious ratio</th><td>{}</td></tr>\n</table>\n",
                   data.oblivious_ratio ? number(*data.oblivious_ratio) + " (full fat-tree: OPTU = baseload)"
                                        : "n/a (not a full fat-tree: the optimum is not known)");
  }
  if (!data.witness.empty()) {
    fmt::format_to(out, "<h3>Witness permutation ({} pairs)</h3>\n", data.witness.size());
    fmt::format_to(out, "<table class=\"witness\">\n<tr><th class=\"n\">#</th><th>source</th><th>destination</th></tr>\n");
    for (size_t i = 0; i < data.witness.size(); ++i)
      fmt::format_to(out, "<tr><td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>\n", i + 1,
                     html_escape(data.witness[i].first), html_escape(data.witness[i].second));
    fmt::format_to(out, "</table>\n");
  }
  if (!data.notes.empty()) {
    fmt::format_to(out, "<h3>Notes</h3>\n");
    write_list(out, data.notes, data.notes.size(), "");
  }
  fmt::format_to(out, "</section>\n");
}

// (e) Several sets of tables side by side; the lowest worst case is marked.
void write_compared(Out out, const AuditReportData& data) {
  if (data.compared.empty()) return;
  double best = data.compared.front().worst_case;
  for (const ComparedSet& set : data.compared) best = std::min(best, set.worst_case);
  fmt::format_to(out, "<section id=\"compare\">\n<h2>Sets of tables compared</h2>\n<table>\n<tr><th>set</th>"
                      "<th>tables</th><th class=\"n\">unreachable</th><th class=\"n\">loops</th><th class=\"n\">"
                      "credit loops</th><th class=\"n\">up/down violations</th><th class=\"n\">non-minimal</th>"
                      "<th class=\"n\">worst-case contention</th></tr>\n");
  for (const ComparedSet& set : data.compared) {
    const Correctness& c = set.correctness;
    fmt::format_to(out, "<tr><td>{}</td><td>{}", html_escape(set.label),
                   html_escape(fmt::format("{}; LMC {}; offsets: {}", set.origin, set.lmc, set.offsets)));
    for (const std::string& warning : set.warnings)
      fmt::format_to(out, "<br><span class=\"warn\">warning: {}</span>", html_escape(warning));
    for (const std::string& note : set.notes) fmt::format_to(out, "<br><span>note: {}</span>", html_escape(note));
    fmt::format_to(out, "</td>");
    for (const long count : {c.unreachable, c.loops, static_cast<long>(c.credit_loops)})
      fmt::format_to(out, "<td class=\"n {}\">{}</td>", count ? "bad" : "good", count);
    fmt::format_to(out, "<td class=\"n\">{}</td><td class=\"n\">{}</td>", c.updown_violations, c.non_minimal);
    fmt::format_to(out, "<td class=\"n{}\">{}{}</td></tr>\n",
                   data.compared.size() > 1 && set.worst_case <= best + 1e-12 ? " best" : "", number(set.worst_case),
                   set.exact ? "" : " (bound)");
  }
  fmt::format_to(out, "</table>\n</section>\n");
}

// (f) Patterns side by side per scheme, then every number.
void write_patterns(Out out, const AuditReportData& data) {
  if (data.patterns.empty()) return;
  std::vector<std::string> schemes, patterns;
  std::map<std::pair<std::string, std::string>, const PatternStats*> cell;
  bool bound = false;
  for (const PatternRow& row : data.patterns) {
    if (std::ranges::find(schemes, row.scheme) == schemes.end()) schemes.push_back(row.scheme);
    if (std::ranges::find(patterns, row.stats.pattern) == patterns.end()) patterns.push_back(row.stats.pattern);
    cell[{row.stats.pattern, row.scheme}] = &row.stats;
    bound |= row.stats.basis == OptuBasis::kLowerBound;
  }
  fmt::format_to(out, "<section id=\"patterns\">\n<h2>Traffic patterns</h2>\n");
  fmt::format_to(out, "<h3>Mean performance ratio MLOAD/OPTU (range) &mdash; lower is better, 1 is optimal</h3>\n");
  fmt::format_to(out, "<table>\n<tr><th>pattern</th>");
  for (const std::string& scheme : schemes) fmt::format_to(out, "<th class=\"n\">{}</th>", html_escape(scheme));
  fmt::format_to(out, "</tr>\n");
  for (const std::string& pattern : patterns) {
    double best = -1;
    for (const std::string& scheme : schemes)
      if (const auto it = cell.find({pattern, scheme}); it != cell.end())
        best = best < 0 ? it->second->ratio.mean : std::min(best, it->second->ratio.mean);
    fmt::format_to(out, "<tr><td>{}</td>", html_escape(pattern));
    for (const std::string& scheme : schemes) {
      const auto it = cell.find({pattern, scheme});
      if (it == cell.end()) {
        fmt::format_to(out, "<td class=\"n\">&ndash;</td>");
        continue;
      }
      const Spread& ratio = it->second->ratio;
      fmt::format_to(out, "<td class=\"n{}\">{:.3f} ({:.3f}&ndash;{:.3f})</td>",
                     schemes.size() > 1 && ratio.mean <= best + 1e-12 ? " best" : "", ratio.mean, ratio.min, ratio.max);
    }
    fmt::format_to(out, "</tr>\n");
  }
  fmt::format_to(out, "</table>\n<h3>Details</h3>\n<table>\n<tr><th>pattern</th><th>tables</th><th class=\"n\">"
                      "instances</th><th class=\"n\">ratio</th><th class=\"n\">sd</th><th class=\"n\">MLOAD</th>"
                      "<th class=\"n\">OPTU</th><th class=\"n\">flow BW</th><th class=\"n\">undelivered</th></tr>\n");
  for (const PatternRow& row : data.patterns) {
    const PatternStats& s = row.stats;
    fmt::format_to(out,
                   "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{:.3f}</td><td class=\"n\">"
                   "{:.3f}</td><td class=\"n\">{:.2f}</td><td class=\"n\">{:.2f}</td><td class=\"n\">{:.3f}</td>"
                   "<td class=\"n {}\">{}</td></tr>\n",
                   html_escape(s.pattern), html_escape(row.scheme), s.ratio.count, s.ratio.mean, s.ratio.stddev,
                   s.mload.mean, s.optu.mean, s.flow_bandwidth.mean, s.undelivered ? "bad" : "", s.undelivered);
  }
  fmt::format_to(out, "</table>\n<p class=\"sub\">OPTU: {}. Flow BW: mean per-flow bandwidth (ORCS); on "
                      "<i>bisection</i> the effective bisection bandwidth.</p>\n</section>\n",
                 bound ? "max(baseload, sub-tree cut), a lower bound, so the ratios are upper bounds"
                       : "baseload, exact on a full fat-tree (Corollary 1)");
}

}  // namespace

std::string audit_html(const AuditReportData& data) {
  std::string page;
  page.reserve(256 + data.channels.size() * 200);
  const Out out(page);
  const std::string title = data.title.empty() ? "ftclos audit" : "ftclos audit: " + data.title;
  fmt::format_to(out,
                 "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
                 "content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{}",
                 html_escape(title), kStyle);
  write_chart_style(out, data);
  fmt::format_to(out, "</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>\n", html_escape(title));
  if (!data.tables.empty()) fmt::format_to(out, "<div class=\"sub\">tables: {}</div>\n", html_escape(data.tables));
  fmt::format_to(out, "</header>\n");
  if (data.detailed) write_cards(out, data);
  write_fabric(out, data);
  write_compared(out, data);
  if (data.detailed) {
    write_correctness(out, data);
    write_heatmaps(out, data);
    write_histograms(out, data);
    write_worst_link(out, data);
  }
  write_patterns(out, data);
  fmt::format_to(out, "<footer>Written by <code>ftclos audit --html</code>; self-contained, no scripts.</footer>\n"
                      "</body>\n</html>\n");
  return page;
}

}  // namespace ftclos
