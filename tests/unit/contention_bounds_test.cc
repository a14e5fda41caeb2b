// What destination-based routing can reach on issue #12's clos2 with
// storage on the spines (clos2 4+4, r=8, 2 storage hosts per spine;
// ibsim-topos/clos2-4-4-8-io2.net), where every stock engine reaches 5: the
// tables below reach 4 on one VL without credit loops, so 5 is no lower
// bound, and ftclos's router must reach 4 too (the polish's third key,
// paths/contention_polish.cc). Spine S_j = L2-j, leaf L_i = L1-i.
//  - Storage on S_j: leaves go straight up; every other spine detours
//    through leaf L_j (S_k -> L_j -> S_j).
//  - Compute hosts of L_b, b < 4: every leaf sends them through S_b.
//  - Compute hosts of L_b, b >= 4: leaf L_a sends them through
//    S_((a+b) mod 4), except that L_a (a < 4) never takes its cable to S_a.
// So the cables with detours carry little else: S_k -> L_b (b < 4, k != b)
// has S_k's 2 storage hosts as its only sources, and L_a -> S_a (a < 4) has
// S_a's 2 storage hosts as its only destinations. Every other cable has one
// leaf's 4 hosts as its only sources (up) or only destinations (down).
#include <gtest/gtest.h>

#include <string>

#include "audit/audit.h"
#include "gen/generate.h"
#include "engine/route_fabric.h"

namespace ftclos {
namespace {

int number_after(const std::string& name, size_t at) { return std::stoi(name.substr(at)); }

// The construction's port at `sw` toward `dest`, or 0 to keep the router's entry.
int constructed_port(const std::string& sw, const std::string& dest) {
  const bool leaf = sw.starts_with("L1-");
  const int me = number_after(sw, 3);
  if (dest.starts_with("IO-L2-")) {
    const int j = number_after(dest, 6);
    if (leaf) return 5 + j;
    return me == j ? 0 : j + 1;
  }
  if (!dest.starts_with("H-")) return 0;
  const int b = number_after(dest, 2);
  if (!leaf) return b + 1;
  if (me == b) return 0;
  if (b < 4) return 5 + b;
  int j = (me + b) % 4;
  if (me < 4 && j == me) j = (j + 1) % 4;
  return 5 + j;
}

Result<Fabric> clos2_with_storage_on_spines() {
  Result<Fabric> fabric = generate_clos2(4, 4, 8);
  if (!fabric.ok()) return fabric;
  if (Result<VariationLog> varied = vary(*fabric, {.io_hosts = 2}); !varied.ok()) return varied.status();
  return fabric;
}

TEST(ContentionBounds, Clos2WithStorageOnSpinesReachesFourDeadlockFree) {
  Result<Fabric> fabric = clos2_with_storage_on_spines();
  ASSERT_TRUE(fabric.ok());
  Result<RoutedFabric> routed = route_fabric(*fabric, "updown", 0);
  ASSERT_TRUE(routed.ok());
  Lfts lfts = routed->routing.lfts;
  for (int sw = 0; sw < fabric->size(); ++sw) {
    if (!fabric->node(sw).is_switch()) continue;
    for (int lid = 1; lid < static_cast<int>(routed->lids.owner.size()); ++lid)
      if (const int owner = routed->lids.owner[lid]; owner >= 0)
        if (const int port = constructed_port(fabric->node(sw).name, fabric->node(owner).name); port > 0)
          lfts.port[sw][lid] = static_cast<uint8_t>(port);
  }
  // One VL for every destination: no SLs at all.
  const AuditInput input{*fabric, routed->detection.levels, routed->lids, lfts, {}, {}, {}};
  const Correctness c = check_correctness(input);
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.loops, 0);
  EXPECT_EQ(c.credit_loops, 0);
  EXPECT_EQ(c.non_minimal, 0);
  EXPECT_EQ(worst_case_contention(input).worst_case, 4);
}

class RouterOnStorage : public ::testing::TestWithParam<const char*> {};

// auto chooses dmodk there (attached hosts: its entries polished too).
TEST_P(RouterOnStorage, Clos2WithStorageOnSpinesReachesFourDeadlockFree) {
  Result<Fabric> fabric = clos2_with_storage_on_spines();
  ASSERT_TRUE(fabric.ok());
  Result<RoutedFabric> routed = route_fabric(*fabric, GetParam(), 0);
  ASSERT_TRUE(routed.ok());
  const AuditInput input{*fabric, routed->detection.levels, routed->lids, routed->routing.lfts,
                         {}, routed->routing.dest_sl, {}};
  const Correctness c = check_correctness(input);
  EXPECT_EQ(c.unreachable, 0);
  EXPECT_EQ(c.loops, 0);
  EXPECT_EQ(c.credit_loops, 0);
  EXPECT_LE(worst_case_contention(input).worst_case, 4);
}

INSTANTIATE_TEST_SUITE_P(Schemes, RouterOnStorage, ::testing::Values("auto", "updown"));

}  // namespace
}  // namespace ftclos
