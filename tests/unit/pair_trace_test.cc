// `ftclos trace`'s library side (audit/pair_trace.h): endpoints by name,
// GUID or LID, each hop's in and out port, the VL through SL2VL tables, and
// where a broken table stops the packet.
#include "audit/pair_trace.h"

#include <gtest/gtest.h>

#include "engine/route_fabric.h"
#include "gen/generate.h"

namespace ftclos {
namespace {

struct Routed {
  Fabric fabric;
  RoutedFabric routed;
};

Routed dmodk_on_ft82() {
  Routed out{*generate_ftree(8, 2), {}};
  Result<RoutedFabric> routed = route_fabric(out.fabric, "dmodk", 0);
  EXPECT_TRUE(routed.ok()) << routed.status().message();
  out.routed = std::move(*routed);
  return out;
}

int Named(const Fabric& fabric, std::string_view name) { return *fabric.find(name); }

TEST(PairTrace, EndpointsByNameGuidOrLid) {
  const Routed r = dmodk_on_ft82();
  const LidMap& lids = r.routed.lids;
  const int host = Named(r.fabric, "H-1.2");
  EXPECT_EQ(find_endpoint(r.fabric, lids, "H-1.2")->node, host);
  EXPECT_EQ(find_endpoint(r.fabric, lids, format_guid(port_guid(r.fabric.node(host), 1)))->node, host);
  const Result<Endpoint> by_lid = find_endpoint(r.fabric, lids, std::to_string(lids.base[host]));
  EXPECT_EQ(by_lid->node, host);
  EXPECT_EQ(by_lid->lid, lids.base[host]);
  EXPECT_EQ(find_endpoint(r.fabric, lids, "99999").status().message().rfind("LID 99999 belongs to no node", 0), 0u);
  EXPECT_EQ(find_endpoint(r.fabric, lids, "nosuch").status().message().rfind("no node is named \"nosuch\"", 0), 0u);
}

TEST(PairTrace, HopsCarryInAndOutPortsAndTheVlOfEachLink) {
  const Routed r = dmodk_on_ft82();
  const LidMap& lids = r.routed.lids;
  const int source = Named(r.fabric, "H-0.0"), destination = Named(r.fabric, "H-5.3");
  // SL 3 leaves every switch on VL 5 here; the source CA's link keeps VL = SL.
  Sl2VlTables sl2vl;
  Sl2VlTables::Row row{};
  row[3] = 5;
  for (int i = 0; i < r.fabric.size(); ++i)
    if (r.fabric.node(i).is_switch())
      for (int in = 1; in <= r.fabric.node(i).num_ports; ++in)
        for (int out = 1; out <= r.fabric.node(i).num_ports; ++out) sl2vl.set(i, in, out, row);
  const PairTrace path = trace_pair(r.fabric, lids, r.routed.routing.lfts, source, lids.base[destination], 3, &sl2vl);
  ASSERT_EQ(path.outcome, Trace::Outcome::kDelivered);
  EXPECT_EQ(path.stop_node, destination);
  ASSERT_EQ(path.hops.size(), 4u);  // the CA, its leaf, a spine, the far leaf
  EXPECT_EQ(path.hops[0].node, source);
  EXPECT_EQ(path.hops[0].vl, 3);
  for (size_t i = 1; i < path.hops.size(); ++i) {
    const TraceHop& hop = path.hops[i];
    EXPECT_TRUE(r.fabric.node(hop.node).is_switch());
    EXPECT_EQ(r.fabric.peer({hop.node, hop.in_port}), (PortRef{path.hops[i - 1].node, path.hops[i - 1].out_port}));
    EXPECT_EQ(hop.vl, 5);
  }
  EXPECT_EQ(r.fabric.peer({path.hops.back().node, path.hops.back().out_port}).node, destination);
}

TEST(PairTrace, ADroppedEntryStopsAtItsSwitchWithNoWayOut) {
  Routed r = dmodk_on_ft82();
  const LidMap& lids = r.routed.lids;
  const int source = Named(r.fabric, "H-0.0"), destination = Named(r.fabric, "H-5.3");
  const int leaf = r.fabric.peer({source, 1}).node;
  r.routed.routing.lfts.port[leaf][lids.base[destination]] = kNoPath;
  const PairTrace path = trace_pair(r.fabric, lids, r.routed.routing.lfts, source, lids.base[destination]);
  EXPECT_EQ(path.outcome, Trace::Outcome::kNoRoute);
  EXPECT_EQ(path.stop_node, leaf);
  ASSERT_EQ(path.hops.size(), 2u);
  EXPECT_EQ(path.hops.back().node, leaf);
  EXPECT_EQ(path.hops.back().out_port, 0);
  EXPECT_EQ(path.hops.back().vl, -1);  // no SL asked for
}

}  // namespace
}  // namespace ftclos
