// Switches' own routes that turn from down to up where no argument rules
// out a credit loop (a random folded Clos) are layered on SLs of their own
// (paths/detour_layers.h), and the sweep's check counts the credit loops
// they close with the CAs' routes (Routing::switch_turns_layered): on the
// SLs they were given there are none; with every packet on VL 0 (a dump
// without its SLs) there are, and the sweep says so instead of passing.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "audit/audit.h"
#include "engine/sweep.h"
#include "gen/generate.h"

namespace ftclos {
namespace {

struct Routed {
  Fabric fabric;
  LidMap lids;
  SweepOutcome outcome;
};

Routed route_rfc(bool check_on_sls) {
  Fabric fabric = *generate_rfc(8, 16, 3, 1);
  LidMap lids = *assign_lids(fabric, 0);
  SweepOptions options;
  options.scheme = "updown";
  options.check_switch_routes = true;
  options.allow_unreachable = true;  // the verdict is read from the check, not the outcome
  options.check_on_sls = check_on_sls;
  SweepOutcome outcome = run_sweep({fabric, lids, {}}, options);
  return {std::move(fabric), std::move(lids), std::move(outcome)};
}

// The auditor's count on the same tables, switches' own routes included.
int audited_switch_credit_loops(const Routed& routed, bool on_sls) {
  const Sweep& sweep = routed.outcome.sweep;
  AuditInput input{routed.fabric, sweep.detection.levels, routed.lids, sweep.routing.lfts, {},
                   on_sls ? sweep.routing.dest_sl : std::vector<uint8_t>{}, {}};
  input.count_switch_credit_loops = true;
  return check_correctness(input).switch_credit_loops;
}

TEST(SweepSwitchLoops, OnTheirSlsTheRfcsTurningSwitchRoutesCloseNone) {
  const Routed routed = route_rfc(true);
  ASSERT_TRUE(routed.outcome.ok()) << routed.outcome.message;
  const Sweep& sweep = routed.outcome.sweep;
  ASSERT_TRUE(sweep.routing.switch_turns_layered);  // else this fabric tests nothing here
  EXPECT_TRUE(std::ranges::any_of(sweep.routing.dest_sl, [](uint8_t sl) { return sl != 0; }));
  EXPECT_EQ(sweep.check.switch_credit_loops, 0);
  EXPECT_EQ(audited_switch_credit_loops(routed, true), 0);
  EXPECT_EQ(undelivered_reason(sweep.check, true), "");
}

TEST(SweepSwitchLoops, OnVl0TheSweepCountsTheLoopsTheAuditorFinds) {
  const Routed routed = route_rfc(false);
  ASSERT_TRUE(routed.outcome.ok()) << routed.outcome.message;
  const Sweep& sweep = routed.outcome.sweep;
  ASSERT_TRUE(sweep.routing.switch_turns_layered);
  const int audited = audited_switch_credit_loops(routed, false);
  EXPECT_GT(audited, 0);
  EXPECT_EQ(sweep.check.switch_credit_loops, audited);
  const std::string reason = undelivered_reason(sweep.check, true);
  EXPECT_NE(reason.find("credit loops with switches' own routes"), std::string::npos) << reason;
  // The CAs' own routes are up/down: only the switches' turns loop.
  EXPECT_EQ(sweep.check.credit_loops, 0);
  EXPECT_EQ(undelivered_reason(sweep.check, false), "");
}

}  // namespace
}  // namespace ftclos
