#include "audit/pair_trace.h"

#include <fmt/format.h>

#include <charconv>

#include "tables/path_bits.h"

namespace ftclos {
namespace {

std::optional<uint64_t> number(std::string_view text, int base) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

Result<Endpoint> find_endpoint(const Fabric& fabric, const LidMap& lids, std::string_view key) {
  if (const std::optional<uint64_t> lid = number(key, 10)) {
    if (*lid == 0 || *lid > static_cast<uint64_t>(lids.max_lid) || lids.owner[*lid] < 0)
      return Status::Error(fmt::format("LID {} belongs to no node of the tables (LIDs 1..{})", key, lids.max_lid));
    return Endpoint{lids.owner[*lid], static_cast<int>(*lid)};
  }
  if (key.starts_with("0x") || key.starts_with("0X")) {
    const std::optional<uint64_t> guid = number(key.substr(2), 16);
    if (!guid) return Status::Error(fmt::format("\"{}\" is no GUID; expected 0x and hex digits", key));
    if (const std::optional<int> node = fabric.find_guid(*guid)) return Endpoint{*node, 0};
    const auto ports = index_port_guids(fabric);
    if (const auto port = ports.find(*guid); port != ports.end()) return Endpoint{port->second.node, 0};
    return Status::Error(fmt::format("no node or port has GUID {}", key));
  }
  std::vector<int> named;
  for (int i = 0; i < fabric.size(); ++i)
    if (fabric.node(i).name == key || fabric.node(i).description == key) named.push_back(i);
  if (named.size() == 1) return Endpoint{named[0], 0};
  if (named.empty())
    return Status::Error(fmt::format("no node is named \"{}\"; expected a name, description, 0xGUID or LID", key));
  return Status::Error(fmt::format("{} nodes are named \"{}\" (\"{}\" and \"{}\" first); give a GUID or LID",
                                   named.size(), key, fabric.node(named[0]).name, fabric.node(named[1]).name));
}

PairTrace trace_pair(const Fabric& fabric, const LidMap& lids, const Lfts& lfts, int source, int dlid,
                     std::optional<int> sl, const Sl2VlTables* sl2vl) {
  const Trace path = trace(fabric, lids, lfts, source, dlid);
  PairTrace out;
  out.outcome = path.outcome;
  // path.hops are the egress ports: the source's, then each switch's.
  for (size_t i = 0; i < path.hops.size(); ++i) {
    const PortRef egress = path.hops[i];
    TraceHop hop;
    hop.node = egress.node;
    hop.in_port = i == 0 ? 0 : fabric.peer(path.hops[i - 1]).port;
    hop.out_port = egress.port;
    hop.rate = fabric.port(egress).rate;
    if (sl) {
      const Sl2VlTables::Row* row = sl2vl && i > 0 ? sl2vl->find(hop.node, hop.in_port, hop.out_port) : nullptr;
      hop.vl = row ? (*row)[*sl] : *sl;
    }
    out.hops.push_back(hop);
  }
  // Where it ends: the node behind the last egress, or (a dead port) the node of that egress.
  const PortRef last = path.hops.back();
  out.stop_node = path.outcome == Trace::Outcome::kDeadPort ? last.node : fabric.peer(last).node;
  if (path.outcome == Trace::Outcome::kNoRoute && fabric.node(out.stop_node).is_switch()) {
    // The switch with no entry is reached but not left: a hop of its own, out port 0.
    out.hops.push_back({out.stop_node, fabric.peer(last).port, 0, {}, -1});
  }
  return out;
}

}  // namespace ftclos
