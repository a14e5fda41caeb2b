// `ftclos trace TOPO TABLES SRC DST [--offset K | --pathbits FILE]
// [--guid2lid FILE] [--sl FILE] [--sl2vl FILE]`: the path one packet takes
// through tables read back from a subnet (opensm-lfts.dump, opensm.fdbs,
// ibroute / dump_lfts output), hop by hop as ibtracert shows it live: each
// switch with its in and out port and the link's rate (and VL). Exit 1 when
// the packet is dropped, meets a dark port or loops, saying where.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "audit/lft_parse.h"
#include "audit/pair_trace.h"
#include "audit/sl2vl_file.h"
#include "audit/sl_file.h"
#include "cli_common.h"
#include "commands.h"

namespace ftclos::cli {
namespace {

struct TraceOptions {
  std::string topology;
  std::string tables;
  std::string source;
  std::string destination;
  int offset = -1;  // -1: not given
  std::string path_bits;
  std::string guid2lid;
  std::string sl_file;
  std::string sl2vl_file;
};

std::optional<TextFile> read_optional(const std::string& path, Status& status) {
  if (path.empty()) return std::nullopt;
  Result<TextFile> file = read_text_file(path);
  if (!file.ok()) {
    status = file.status();
    return std::nullopt;
  }
  return std::move(*file);
}

// The DLID: a LID as given, else the destination's base LID plus the offset
// (--offset, or the source's path bits).
Result<int> destination_lid(const Fabric& fabric, const LidMap& lids, const TraceOptions& options, Endpoint source,
                            Endpoint destination) {
  if (destination.lid) return destination.lid;
  const int base = lids.base[destination.node];
  if (base == 0) return Status::Error(fmt::format("\"{}\" has no LID in the tables", fabric.node(destination.node).name));
  int offset = std::max(options.offset, 0);
  if (!options.path_bits.empty()) {
    Result<TextFile> file = read_text_file(options.path_bits);
    if (!file.ok()) return file.status();
    Result<std::vector<int>> bits = parse_path_bits(fabric, lids.lmc, *file);
    if (!bits.ok()) return bits.status();
    offset = (*bits)[source.node];
  }
  if (fabric.node(destination.node).is_switch()) return base;
  if (offset >= lids.lids_per_ca())
    return Status::Error(fmt::format("offset {} does not fit LMC {}", offset, lids.lmc));
  return base + offset;
}

std::string hop_line(const Fabric& fabric, const TraceHop& hop, size_t index) {
  const Node& node = fabric.node(hop.node);
  std::string line = index == 0 ? fmt::format("source \"{}\" {} port {}", node.display_name(),
                                              format_guid(port_guid(node, hop.out_port)), hop.out_port)
                                : fmt::format("hop {}: switch \"{}\" {} in {}", index, node.display_name(),
                                              format_guid(node.guid), hop.in_port);
  if (hop.out_port == 0) return line + ", no way out";
  if (index > 0) line += fmt::format(" out {}", hop.out_port);
  const PortRef peer = fabric.peer({hop.node, hop.out_port});
  if (!peer.valid()) return line + ", an uncabled port";
  line += fmt::format(", {} to \"{}\" port {}", hop.rate.known() ? format_link_rate(hop.rate) : "rate unknown",
                      fabric.node(peer.node).display_name(), peer.port);
  if (hop.vl >= 0) line += fmt::format(", VL {}", hop.vl);
  return line;
}

// Prints the path; returns the exit code.
int print_trace(const Fabric& fabric, const PairTrace& path, int dlid) {
  for (size_t i = 0; i < path.hops.size(); ++i) fmt::print("{}\n", hop_line(fabric, path.hops[i], i));
  const Node& stop = fabric.node(path.stop_node);
  const int switches = static_cast<int>(path.hops.size()) - 1;
  switch (path.outcome) {
    case Trace::Outcome::kDelivered:
      fmt::print("delivered to \"{}\" (LID {}) after {} switch{}\n", stop.display_name(), dlid, switches,
                 switches == 1 ? "" : "es");
      return 0;
    case Trace::Outcome::kLoop:
      fmt::print("loop: the packet comes back to switch \"{}\" ({}); never delivered\n", stop.display_name(),
                 format_guid(stop.guid));
      return 1;
    case Trace::Outcome::kDeadPort:
      fmt::print("dropped at \"{}\": its out port {} has no cable\n", stop.display_name(), path.hops.back().out_port);
      return 1;
    case Trace::Outcome::kNoRoute:
      if (stop.is_switch())
        fmt::print("dropped at switch \"{}\" ({}): no entry for LID {} in its table\n", stop.display_name(),
                   format_guid(stop.guid), dlid);
      else
        fmt::print("misdelivered to \"{}\", which does not own LID {}\n", stop.display_name(), dlid);
      return 1;
  }
  return 1;
}

int run(const TraceOptions& options) {
  Result<Fabric> fabric = read_topology("trace", options.topology);
  if (!fabric.ok()) return bad_input("trace", fabric.status());
  Status status = Status::Ok();
  std::optional<TextFile> tables = read_optional(options.tables, status);
  std::optional<TextFile> guid2lid = read_optional(options.guid2lid, status);
  if (!status.ok()) return bad_input("trace", status);
  Result<LftRead> read = parse_lfts(*fabric, {*tables}, guid2lid ? &*guid2lid : nullptr);
  if (!read.ok()) return bad_input("trace", read.status());
  for (const std::string& warning : read->warnings) fmt::print(stderr, "ftclos trace: warning: {}\n", warning);
  const LidMap& lids = read->lids;
  Result<Endpoint> source = find_endpoint(*fabric, lids, options.source);
  if (!source.ok()) return bad_input("trace", Status::Error(fmt::format("SRC: {}", source.status().message())));
  if (fabric->node(source->node).is_switch())
    return bad_input("trace", Status::Error(fmt::format("SRC \"{}\" is a switch; expected a CA port (as ibtracert's "
                                                        "source)",
                                                        options.source)));
  Result<Endpoint> destination = find_endpoint(*fabric, lids, options.destination);
  if (!destination.ok()) return bad_input("trace", Status::Error(fmt::format("DST: {}", destination.status().message())));
  Result<int> dlid = destination_lid(*fabric, lids, options, *source, *destination);
  if (!dlid.ok()) return bad_input("trace", dlid.status());

  std::optional<int> sl;
  std::optional<Sl2VlTables> sl2vl;
  if (!options.sl_file.empty() || !options.sl2vl_file.empty()) sl = 0;
  if (std::optional<TextFile> file = read_optional(options.sl_file, status)) {
    Result<PathSls> sls = parse_sl_file(*fabric, lids, *file);
    if (!sls.ok()) return bad_input("trace", sls.status());
    if (*dlid < static_cast<int>(sls->dest_sl.size())) sl = sls->dest_sl[*dlid];
    for (const SlException& exception : sls->exceptions)
      if (exception.lid == *dlid && exception.source == source->node) sl = exception.sl;
  }
  if (std::optional<TextFile> file = read_optional(options.sl2vl_file, status)) {
    Result<Sl2VlTables> read_sl2vl = parse_sl2vl_file(*fabric, lids, *file);
    if (!read_sl2vl.ok()) return bad_input("trace", read_sl2vl.status());
    sl2vl = std::move(*read_sl2vl);
  }
  if (!status.ok()) return bad_input("trace", status);

  const Node& from = fabric->node(source->node);
  fmt::print("from \"{}\" (LID {}) to LID {} (\"{}\"){}\n", from.display_name(), lids.base[source->node], *dlid,
             fabric->node(lids.owner[*dlid]).display_name(), sl ? fmt::format(", SL {}", *sl) : "");
  const PairTrace path = trace_pair(*fabric, lids, read->lfts, source->node, *dlid, sl, sl2vl ? &*sl2vl : nullptr);
  return print_trace(*fabric, path, *dlid);
}

}  // namespace

void add_trace(CLI::App& app) {
  auto options = std::make_shared<TraceOptions>();
  CLI::App* sub = app.add_subcommand("trace", "Follow one packet through forwarding tables, hop by hop (ibtracert offline)");
  add_topology(*sub, options->topology);
  sub->add_option("TABLES", options->tables, "opensm-lfts.dump, opensm.fdbs or ibroute / dump_lfts output")
      ->required();
  sub->add_option("SRC", options->source, "Source CA: node name or description, 0xGUID (node or port) or LID")
      ->required();
  sub->add_option("DST", options->destination,
                  "Destination: node name or description, 0xGUID or LID (a LID is used as the DLID)")
      ->required();
  CLI::Option* offset = sub->add_option("--offset", options->offset,
                                        "DLID = the destination's base LID + K (default 0; not with a LID as DST)")
                            ->check(CLI::Range(0, 127));
  sub->add_option("--pathbits", options->path_bits,
                  "DLID offset = the source's path bits in this `0x<port GUID> <bits>` file")
      ->excludes(offset);
  sub->add_option("--guid2lid", options->guid2lid, "OpenSM's guid2lid or opensm-subnet.lst: the LIDs of the tables");
  sub->add_option("--sl", options->sl_file,
                  "SL of every pair as `ftclos route --sl` writes it: print the pair's SL and each link's VL");
  sub->add_option("--sl2vl", options->sl2vl_file,
                  "The switches' SL-to-VL tables (`smpquery sl2vl` output or opensm-sl2vl.dump): each link's VL "
                  "(default: VL = SL)");
  sub->callback([options] { set_exit_code(run(*options)); });
}

}  // namespace ftclos::cli
