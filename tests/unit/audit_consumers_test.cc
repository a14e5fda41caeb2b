// LMC > 0 tables serve three kinds of consumers, and the audit reports each
// one's worst case side by side (audit/worst_case.h, report/audit_report.h):
// hosts on offset 0 (the SA's first PathRecord), on their path bits, spread
// over all offsets; in text, JSON and HTML.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "audit/audit.h"
#include "audit/worst_case.h"
#include "gen/generate.h"
#include "report/audit_report.h"
#include "engine/route_fabric.h"

namespace ftclos {
namespace {

// OSRM3 on FT(8,3) at LMC 3: offset 0 is D-mod-k's, the groups take 1-4.
struct Audited {
  Fabric fabric;
  RoutedFabric routed;
  AuditedSet set;
};

Audited osrm_on_ft83() {
  Audited out{*generate_ftree(8, 3), {}, {}};
  Result<RoutedFabric> routed = route_fabric(out.fabric, "osrm", 3);
  EXPECT_TRUE(routed.ok()) << routed.status().message();
  out.routed = std::move(*routed);
  const OffsetChoice path_bits{OffsetChoice::Mode::kPathBits, 0, out.routed.routing.path_bits};
  const AuditInput input{out.fabric, out.routed.detection.levels, out.routed.lids, out.routed.routing.lfts, path_bits,
                         {}, {}};
  out.set.label = "osrm";
  out.set.origin = "scheme osrm (LMC 3)";
  out.set.lmc = 3;
  out.set.offsets = describe(path_bits);
  out.set.correctness = check_correctness(input);
  out.set.contention = worst_case_contention(input);
  out.set.consumers = consumer_figures(input, path_bits);
  return out;
}

TEST(AuditConsumers, OffsetZeroIsDmodkPathBitsOsrmAllOffsetsBetween) {
  const Audited a = osrm_on_ft83();
  ASSERT_TRUE(a.set.consumers.has_value());
  const ConsumerFigures& figures = *a.set.consumers;
  Result<RoutedFabric> dmodk = route_fabric(a.fabric, "dmodk", 0);
  ASSERT_TRUE(dmodk.ok());
  EXPECT_EQ(figures.offset0, routing_worst_case(a.fabric, dmodk->detection.levels, dmodk->lids, dmodk->routing));
  ASSERT_TRUE(figures.path_bits.has_value());
  EXPECT_EQ(*figures.path_bits, 4);  // Theorem 7: m/2
  EXPECT_EQ(*figures.path_bits, a.set.contention.worst_case);
  EXPECT_LT(figures.all_offsets, figures.offset0);
}

TEST(AuditConsumers, PathBitsUnknownWithoutThem) {
  const Audited a = osrm_on_ft83();
  const AuditInput input{a.fabric, a.routed.detection.levels, a.routed.lids, a.routed.routing.lfts, {}, {}, {}};
  const ConsumerFigures figures = consumer_figures(input, {});  // LFT files without --pathbits
  EXPECT_FALSE(figures.path_bits.has_value());
  EXPECT_EQ(figures.offset0, a.set.consumers->offset0);
  EXPECT_NE(consumers_line(figures).find("path bits unknown (--pathbits)"), std::string::npos) << consumers_line(figures);
}

TEST(AuditConsumers, TextJsonAndHtmlCarryAllThree) {
  const Audited a = osrm_on_ft83();
  const ConsumerFigures& figures = *a.set.consumers;
  const std::string line = fmt::format("worst case by consumer: offset 0 {:g}, path bits {:g}, all offsets {:g}",
                                       figures.offset0, *figures.path_bits, figures.all_offsets);
  const std::string text = audit_summary(a.fabric, a.routed.detection, a.set);
  EXPECT_NE(text.find(line), std::string::npos) << text;
  const nlohmann::json json = audit_json(a.fabric, a.routed.detection, "ft-8-3", {a.set}, true);
  EXPECT_EQ(json["worst_case_by_consumer"]["offset0"], figures.offset0);
  EXPECT_EQ(json["worst_case_by_consumer"]["path_bits"], *figures.path_bits);
  EXPECT_EQ(json["worst_case_by_consumer"]["all_offsets"], figures.all_offsets);
  const std::string html = audit_page(a.fabric, a.routed.detection, "ft-8-3", {a.set}, true);
  EXPECT_NE(html.find("worst case by consumer"), std::string::npos);
  EXPECT_NE(html.find(consumers_line(figures)), std::string::npos);
}

TEST(AuditConsumers, NoneAtLmcZero) {
  Audited a = osrm_on_ft83();
  a.set.consumers.reset();
  const std::string text = audit_summary(a.fabric, a.routed.detection, a.set);
  EXPECT_EQ(text.find("worst case by consumer"), std::string::npos);
  EXPECT_TRUE(audit_json(a.fabric, a.routed.detection, "ft-8-3", {a.set}, true)["worst_case_by_consumer"].is_null());
}

// What a scheme decided (auto's choice, the polish) is no fault: text, JSON
// and HTML give it as a note, where `audit --scheme auto` printed "warning:
// auto: auto chose dmodk" and the page an amber Warnings list.
TEST(AuditNotes, SchemeNotesAreNotesNotWarnings) {
  Audited a = osrm_on_ft83();
  a.set.notes = {"osrm: a decision"};
  const std::string text = audit_summary(a.fabric, a.routed.detection, a.set);
  EXPECT_NE(text.find("\nnote: osrm: a decision\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("warning:"), std::string::npos) << text;
  const nlohmann::json json = audit_json(a.fabric, a.routed.detection, "ft-8-3", {a.set}, true);
  EXPECT_EQ(json["notes"][0], "osrm: a decision");
  EXPECT_TRUE(json["warnings"].empty());
  const std::string html = audit_page(a.fabric, a.routed.detection, "ft-8-3", {a.set}, true);
  EXPECT_EQ(html.find("<h3>Warnings</h3>"), std::string::npos);
  const size_t notes = html.find("<h3>Notes</h3>");
  ASSERT_NE(notes, std::string::npos);
  EXPECT_NE(html.find("osrm: a decision", notes), std::string::npos);
}

}  // namespace
}  // namespace ftclos
