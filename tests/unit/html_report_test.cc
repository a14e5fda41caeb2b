#include "report/html_report.h"

#include <gtest/gtest.h>

#include <string>

#include "audit/audit.h"
#include "gen/generate.h"
#include "schemes/schemes.h"
#include "routing_checks.h"

namespace ftclos {
namespace {

size_t occurrences(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
  return count;
}

// Directed switch-to-switch channels, counted from the cabling.
int switch_channels(const Fabric& fabric) {
  int count = 0;
  for (const Node& node : fabric.nodes())
    if (node.is_switch())
      for (int p = 1; p <= node.num_ports; ++p)
        count += node.ports[p].peer.valid() && fabric.node(node.ports[p].peer.node).is_switch();
  return count;
}

// FT(4,3) routed by dmodk and audited, one switch renamed to something that needs escaping.
struct Audited {
  Routed routed = route_fabric(*make_dmodk_scheme(), generated(generate_ftree(4, 3)), 0);
  AuditReportData data;

  Audited() {
    for (int x = 0; x < routed.fabric.size(); ++x)
      if (routed.fabric.node(x).is_switch()) {
        routed.fabric.node(x).description = "<x&y>";
        break;
      }
    const AuditInput input{routed.fabric, routed.detection.levels, routed.lids, routed.routing.lfts, {}, {}, {}};
    data = audit_report_data(routed.fabric, routed.detection, check_correctness(input), worst_case_contention(input));
    data.title = "ft-4-3.net";
  }
};

TEST(HtmlReport, HasEverySection) {
  const Audited a;
  const std::string page = audit_html(a.data);
  for (const char* id : {"fabric", "correctness", "heatmap", "histograms", "worst-link"})
    EXPECT_NE(page.find(std::string("<section id=\"") + id + "\""), std::string::npos) << id;
  EXPECT_EQ(page.find("id=\"patterns\""), std::string::npos) << "no pattern rows, no pattern section";
  EXPECT_NE(page.find("<svg class=\"heatmap\""), std::string::npos);
  EXPECT_NE(page.find("<svg class=\"histogram\""), std::string::npos);
  EXPECT_NE(page.find("Witness permutation"), std::string::npos);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
}

TEST(HtmlReport, OneHeatmapCellPerChannel) {
  const Audited a;
  const int channels = switch_channels(a.routed.fabric);
  ASSERT_GT(channels, 0);
  EXPECT_EQ(static_cast<int>(a.data.channels.size()), channels);
  const std::string page = audit_html(a.data);
  EXPECT_EQ(static_cast<int>(occurrences(page, "<rect class=\"c ")), channels);
  EXPECT_EQ(occurrences(page, "<rect class=\"worst\""), 1u);
  // Every cell names its numbers on hover.
  EXPECT_EQ(static_cast<int>(occurrences(page, " destinations, matching ")), channels);
}

TEST(HtmlReport, EscapesNames) {
  const Audited a;
  const std::string page = audit_html(a.data);
  EXPECT_NE(page.find("&lt;x&amp;y&gt;"), std::string::npos);
  EXPECT_EQ(page.find("<x&y>"), std::string::npos);
  EXPECT_EQ(html_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
}

TEST(HtmlReport, FetchesNothing) {
  Audited a;
  PatternStats shift;
  shift.pattern = "shift:1";
  a.data.patterns.push_back({"dmodk", shift});
  const std::string page = audit_html(a.data);
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("url("), std::string::npos);
  EXPECT_NE(page.find("id=\"patterns\""), std::string::npos);
}

TEST(HtmlReport, IdleChannelsAreCellsToo) {
  AuditReportData data;
  data.channels = {{"s1", 3, 1, "up", 10, 2, 5, 2}, {"s1", 4, 1, "up", 0, 0, 0, 0}};
  data.worst_channel = 0;
  const std::string page = audit_html(data);
  EXPECT_EQ(occurrences(page, "<rect class=\"c "), 2u);
  EXPECT_NE(page.find("<rect class=\"c m0 p0\""), std::string::npos);
  EXPECT_NE(page.find("0 (idle)"), std::string::npos);
}

ComparedSet compared(const std::string& label, double worst_case, long unreachable) {
  ComparedSet set;
  set.label = label;
  set.origin = label + ".dump";
  set.offsets = "fixed offset 0";
  set.correctness.unreachable = unreachable;
  set.worst_case = worst_case;
  PatternStats shift;
  shift.pattern = "shift:1";
  set.patterns = {shift};
  return set;
}

// The part of the page from `<section id="ID"` to its end.
std::string section(const std::string& page, const std::string& id) {
  const size_t from = page.find("<section id=\"" + id + "\"");
  if (from == std::string::npos) return "";
  return page.substr(from, page.find("</section>", from) - from);
}

TEST(HtmlReport, ComparedSetsSideBySide) {
  Audited a;
  a.data.compared = {compared("ours", 4, 0), compared("opensm<ftree>", 2, 9)};
  a.data.compared[1].warnings = {"3 LIDs no CA owns"};
  const std::string table = section(audit_html(a.data), "compare");
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(occurrences(table, "<tr><td>"), 2u);
  EXPECT_NE(table.find("<td>ours</td>"), std::string::npos);
  EXPECT_NE(table.find("opensm&lt;ftree&gt;"), std::string::npos);
  EXPECT_NE(table.find("<td class=\"n bad\">9</td>"), std::string::npos) << "unreachable pairs are marked";
  EXPECT_NE(table.find("<td class=\"n best\">2</td>"), std::string::npos) << "the lowest worst case is marked";
  EXPECT_EQ(occurrences(table, " best\""), 1u);
  EXPECT_EQ(occurrences(table, "warning: 3 LIDs no CA owns"), 1u) << "a set's warnings in its row";
  // The detail of the primary set stays.
  EXPECT_NE(audit_html(a.data).find("<section id=\"heatmap\""), std::string::npos);
}

TEST(HtmlReport, ComparisonWithoutPrimarySetHasNoDetail) {
  const Audited a;
  AuditReportData data = fabric_report_data(a.routed.fabric, a.routed.detection);
  EXPECT_FALSE(data.detailed);
  EXPECT_TRUE(data.channels.empty());
  data.compared = {compared("a.dump", 4, 0), compared("b.dump", 2, 0)};
  for (const ComparedSet& set : data.compared) data.patterns.push_back({set.label, set.patterns.front()});
  const std::string page = audit_html(data);
  for (const char* id : {"fabric", "compare", "patterns"})
    EXPECT_NE(page.find(std::string("<section id=\"") + id + "\""), std::string::npos) << id;
  for (const char* id : {"correctness", "heatmap", "histograms", "worst-link"})
    EXPECT_EQ(page.find(std::string("<section id=\"") + id + "\""), std::string::npos) << id;
  EXPECT_EQ(page.find("class=\"cards\""), std::string::npos);
  EXPECT_NE(section(page, "fabric").find("<th>hosts</th><td class=\"n\">" + std::to_string(a.data.hosts) + "<"),
            std::string::npos);
}

}  // namespace
}  // namespace ftclos
