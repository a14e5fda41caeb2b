#include "audit/lft_parse.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "audit/fdbs_parse.h"
#include "audit/text_lines.h"
#include "core/files.h"
#include "tables/path_bits.h"

namespace ftclos {
namespace {

using text::consume;
using text::Lines;
using text::parse_number;
using text::Progress;
using text::take_token;
using text::trim;

constexpr int kLftBlock = 64;           // LIDs per LinearForwardingTable MAD block

// The hex digits right after `marker` in `s` (no "0x" needed), if any.
std::optional<uint64_t> hex_after(std::string_view s, std::string_view marker) {
  const size_t at = s.find(marker);
  if (at == std::string_view::npos) return std::nullopt;
  s.remove_prefix(at + marker.size());
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value, 16);
  if (error != std::errc() || end == s.data()) return std::nullopt;
  return value;
}

// ---- Grammar of the two LFT formats ----

struct Header {
  int first = 0, last = 0;  // the LID range of the block
  bool ibroute = false;     // hex range, column lines, "N valid lids dumped" = entry count
  int lid = 0;              // "switch Lid L"; 0 when dump_fts names a DR path
  uint64_t guid = 0;        // switch node GUID
};

// "Unicast lids [0-8] of switch Lid 2 guid 0x... ('L1-0'):" (OpenSM) or
// "Unicast lids [0x0-0x8] of switch Lid 2|DR path ... guid 0x... (L1-0):" (ibroute).
std::optional<Header> parse_header(std::string_view line) {
  Header header;
  line = trim(line);
  if (!consume(line, "Unicast lids [") || !line.ends_with("):")) return std::nullopt;
  const size_t close = line.find("] of switch ");
  const size_t dash = line.find('-');
  if (close == std::string_view::npos || dash > close) return std::nullopt;
  const std::string_view first = line.substr(0, dash), last = line.substr(dash + 1, close - dash - 1);
  header.ibroute = first.starts_with("0x");
  if (!parse_number(first, header.first) || !parse_number(last, header.last)) return std::nullopt;
  line.remove_prefix(close + std::string_view("] of switch ").size());
  const size_t guid_at = line.find(" guid ");
  if (guid_at == std::string_view::npos) return std::nullopt;
  std::string_view port_id = line.substr(0, guid_at);
  if (consume(port_id, "Lid ") && !parse_number(take_token(port_id), header.lid)) return std::nullopt;
  line.remove_prefix(guid_at + std::string_view(" guid ").size());
  if (!parse_number(take_token(line), header.guid) || !line.starts_with(" (")) return std::nullopt;
  return header;
}

struct Entry {
  int lid = 0;
  int port = 0;
  std::optional<uint64_t> guid;  // the destination's port GUID, when the line names it
  bool illegal = false;          // `ibroute -a` lists invalid out ports too
};

// "0x0001 001 # Channel Adapter portguid 0x...: 'H-0.0'" (OpenSM),
// "0x0001 001 : (Channel Adapter portguid 0x...: 'H-0.0')" or
// "0x0003 001 : (path #2 out of 2: portguid 0x...)" (ibroute), "0x0001 001" (ibroute -n).
std::optional<Entry> parse_entry(std::string_view line) {
  Entry entry;
  const std::string_view lid = take_token(line), port = take_token(line);
  if (!lid.starts_with("0x") || !parse_number(lid, entry.lid) || port.starts_with("0x") ||
      !parse_number(port, entry.port))
    return std::nullopt;
  std::string_view destination = trim(line);
  if (destination.empty()) return entry;
  if (!consume(destination, "#") && !(consume(destination, ": (") && destination.ends_with(')')))
    return std::nullopt;
  entry.illegal = destination.find("illegal port") != std::string_view::npos;
  entry.guid = hex_after(destination, "portguid 0x");
  return entry;
}

// "8 lids dumped" (OpenSM: the block's last LID; ibroute -a: entries) or
// "8 valid lids dumped" (ibroute: entries).
std::optional<int> parse_trailer(std::string_view line) {
  int count = 0;
  if (!parse_number(take_token(line), count)) return std::nullopt;
  line = trim(line);
  if (line != "lids dumped" && line != "valid lids dumped") return std::nullopt;
  return count;
}

// ---- The reader ----

struct Place {  // a line of one of the inputs
  int source = -1;
  int line = 0;
};

struct Claim {  // who a LID belongs to, and the first line that said so
  uint64_t guid = 0;
  Place place;
};

class Reader {
 public:
  Reader(const Fabric& fabric, const std::vector<TextFile>& files, const TextFile* lid_file,
         const std::function<void(int)>& progress)
      : fabric_(fabric),
        lft_files_(static_cast<int>(files.size())),
        ports_by_guid_(index_port_guids(fabric)),
        claims_(kMaxUnicastLid + 1),
        routed_(kMaxUnicastLid + 1, false),
        table_(fabric.size()),
        block_at_(fabric.size()),
        progress_(progress, total_size(files, lid_file)) {
    for (const TextFile& file : files) sources_.push_back(&file);
    if (lid_file) sources_.push_back(lid_file);
  }

  void skip_lost_switches() { skip_lost_ = true; }

  Result<LftRead> run() {
    // The LID file first, so that the tables are checked against it.
    if (static_cast<int>(sources_.size()) > lft_files_)
      if (Status status = read_lid_file(lft_files_); !status.ok()) return status;
    for (int source = 0; source < lft_files_; ++source)
      if (Status status = read_lft_file(source); !status.ok()) return status;
    if (fdbs_blocks_ > 0 && static_cast<int>(sources_.size()) == lft_files_)
      if (Status status = claim_topology_lids(); !status.ok()) return status;
    LftRead read;
    Result<LidMap> lids = derive_lids();
    if (!lids.ok()) return lids.status();
    read.lids = std::move(*lids);
    read.lfts.port.resize(fabric_.size());
    for (int i = 0; i < fabric_.size(); ++i)
      if (fabric_.node(i).is_switch()) {
        read.lfts.port[i] = std::move(table_[i]);
        read.lfts.port[i].resize(read.lids.max_lid + 1, kNoPath);
      }
    read.unknown_lids = warn_about_gaps(read.lids);
    read.warnings = std::move(warnings_);
    return read;
  }

 private:
  static size_t total_size(const std::vector<TextFile>& files, const TextFile* lid_file) {
    size_t total = lid_file ? lid_file->view().size() : 0;
    for (const TextFile& file : files) total += file.view().size();
    return total;
  }

  std::string where(int source, int line) const { return fmt::format("{}:{}", sources_[source]->name, line); }
  std::string where(Place place) const { return where(place.source, place.line); }
  Status error(int source, int line, const std::string& what) const {
    return Status::Error(fmt::format("{}: {}", where(source, line), what));
  }

  // Records that `lid` belongs to port `guid`; a different owner is an error.
  Status claim(int lid, uint64_t guid, int source, int line) {
    Claim& claim = claims_[lid];
    if (claim.guid == guid) return Status::Ok();
    if (claim.guid != 0)
      return error(source, line,
                   fmt::format("LID {:#x} belongs to port GUID {} here but to {} at {}", lid, format_guid(guid),
                               format_guid(claim.guid), where(claim.place)));
    claim = {guid, {source, line}};
    return Status::Ok();
  }

  // guid2lid ("0x<guid> 0x<first lid> 0x<last lid>") or opensm-subnet.lst
  // ("{ CA ... PortGUID:<hex> ... LID:<hex> PN:01 } { SW ... } PHY=..." per link).
  Status read_lid_file(int source) {
    Lines lines(*sources_[source], &progress_);
    std::string_view line;
    while (lines.next(line)) {
      line = trim(line);
      if (line.empty() || line.starts_with('#')) continue;
      const Status status = line.starts_with('{') ? read_subnet_lst_line(line, source, lines.number())
                                                  : read_guid2lid_line(line, source, lines.number());
      if (!status.ok()) return status;
    }
    if (!lines.status().ok()) return lines.status();
    return Status::Ok();
  }

  Status read_guid2lid_line(std::string_view line, int source, int number) {
    uint64_t guid = 0;
    int first = 0, last = 0;
    if (!parse_number(take_token(line), guid) || !parse_number(take_token(line), first) ||
        !parse_number(take_token(line), last) || !trim(line).empty() || first < 1 || last < first ||
        last > kMaxUnicastLid)
      return error(source, number, "expected \"0xGUID MIN_LID MAX_LID\" (guid2lid) line");
    for (int lid = first; lid <= last; ++lid)
      if (Status status = claim(lid, guid, source, number); !status.ok()) return status;
    return Status::Ok();
  }

  // Each end of a link is "... PortGUID:<hex> ... {<description>} LID:<hex> PN:<port> }";
  // the description may hold anything, so the LID is the last one before the next end.
  Status read_subnet_lst_line(std::string_view line, int source, int number) {
    constexpr std::string_view kGuid = "PortGUID:";
    size_t at = line.find(kGuid);
    if (at == std::string_view::npos)
      return error(source, number, "expected \"{ ... PortGUID:<hex> ... LID:<hex> ... }\" (opensm-subnet.lst)");
    while (at != std::string_view::npos) {
      const size_t next = line.find(kGuid, at + kGuid.size());
      const std::string_view end = line.substr(at, next == std::string_view::npos ? line.size() - at : next - at);
      const size_t lid_at = end.rfind(" LID:");
      const std::optional<uint64_t> guid = hex_after(end, kGuid);
      const std::optional<uint64_t> lid =
          lid_at == std::string_view::npos ? std::nullopt : hex_after(end.substr(lid_at), " LID:");
      if (!guid || !lid || *lid < 1 || *lid > kMaxUnicastLid)
        return error(source, number, "expected \"PortGUID:<hex> ... LID:<hex>\" for each end (opensm-subnet.lst)");
      if (Status status = claim(static_cast<int>(*lid), *guid, source, number); !status.ok()) return status;
      at = next;
    }
    return Status::Ok();
  }

  Status read_lft_file(int source) {
    Lines lines(*sources_[source], &progress_);
    std::string_view line;
    int blocks = 0;
    bool more = lines.next(line);
    while (more) {
      // dump_lfts ends with a "*** WARNING ***" note about dump_fts.
      if (trim(line).empty() || line.starts_with("*** WARNING ***")) {
        more = lines.next(line);
        continue;
      }
      ++blocks;
      if (const std::optional<uint64_t> guid = parse_fdbs_header(line)) {
        if (Status status = read_fdbs_block(lines, *guid, source, line, more); !status.ok()) return status;
        continue;
      }
      const std::optional<Header> header = parse_header(line);
      if (!header)
        return error(source, lines.number(),
                     fmt::format("expected \"Unicast lids [A-B] of switch ... guid 0x...:\" header (opensm-lfts.dump, "
                                 "ibroute) or \"dump_ucast_routes: Switch 0x...\" (opensm.fdbs), got \"{}\"",
                                 excerpt(trim(line))));
      if (Status status = read_block(lines, *header, source); !status.ok()) return status;
      more = lines.next(line);
    }
    if (!lines.status().ok()) return lines.status();
    // An empty file would audit as tables with nothing to check: sound, nonblocking, and wrong.
    if (blocks == 0)
      return Status::Error(fmt::format("{}: no switch's table; expected \"Unicast lids [A-B] of switch ...\" blocks "
                                       "(opensm-lfts.dump, ibroute or dump_lfts output) or opensm.fdbs's "
                                       "\"dump_ucast_routes: Switch 0x...\"",
                                       sources_[source]->name));
    return Status::Ok();
  }

  // An opensm.fdbs block: its entries up to the next block or the end, which
  // is left in `line` (`more` false at the end).
  Status read_fdbs_block(Lines& lines, uint64_t guid, int source, std::string_view& line, bool& more) {
    const int header_line = lines.number();
    Header header;
    header.guid = guid;
    header.last = kMaxUnicastLid;
    Result<int> found = find_switch(header, source, header_line);
    if (!found.ok()) return found.status();
    if (!lines.next(line) || !is_fdbs_column_line(line))
      return error(source, lines.number(), "expected opensm.fdbs's \"LID    : Port : Hops : Optimal\" column line");
    if (*found >= 0) block_at_[*found] = {source, header_line};
    else if (skipped_lost_++ == 0) first_lost_at_ = {source, header_line};
    fdbs_blocks_++;
    while ((more = lines.next(line))) {
      if (trim(line).empty()) continue;
      if (parse_fdbs_header(line)) return Status::Ok();
      const std::optional<FdbsEntry> entry = parse_fdbs_entry(line);
      if (!entry)
        return error(source, lines.number(),
                     fmt::format("expected \"0xLLLL : PPP : HOPS : yes\" or \"0xLLLL : UNREACHABLE\" (opensm.fdbs), "
                                 "got \"{}\"",
                                 excerpt(trim(line))));
      if (*found < 0 || !entry->port) continue;
      Entry routed;
      routed.lid = entry->lid;
      routed.port = *entry->port;
      if (Status status = add_entry(routed, header, *found, table_[*found], source, lines.number()); !status.ok())
        return status;
    }
    return lines.status();
  }

  // opensm.fdbs names no GUIDs: without a LID file the topology's LIDs say
  // whose each LID is.
  Status claim_topology_lids() {
    bool any = false;
    for (int i = 0; i < fabric_.size(); ++i) {
      const Node& node = fabric_.node(i);
      const int port = node.is_switch() ? 0 : 1;
      if (node.num_ports < port || node.ports[port].lid == 0) continue;
      any = true;
      const Port& lids = node.ports[port];
      for (int lid = lids.lid; lid < lids.lid + (1 << lids.lmc) && lid <= kMaxUnicastLid; ++lid)
        if (Status status = claim(lid, port_guid(node, port), 0, 0); !status.ok()) return status;
    }
    if (any) return Status::Ok();
    return Status::Error(fmt::format("{}: opensm.fdbs names no port GUIDs and the topology has no LIDs; expected "
                                     "--guid2lid FILE (OpenSM's guid2lid or opensm-subnet.lst) or a topology with "
                                     "LIDs (ibnetdiscover's)",
                                     sources_[0]->name));
  }

  // The switch a block is for; -1 for a switch the topology lost, when skipped.
  Result<int> find_switch(const Header& header, int source, int line) const {
    const std::optional<int> sw = fabric_.find_guid(header.guid);
    if (!sw && skip_lost_) return -1;
    if (!sw || !fabric_.node(*sw).is_switch())
      return error(source, line, fmt::format("switch GUID {} is not a switch of the topology", format_guid(header.guid)));
    if (const Place seen = block_at_[*sw]; seen.source >= 0)
      return error(source, line,
                   fmt::format("switch \"{}\" ({}) was already read at {}", fabric_.node(*sw).name,
                               format_guid(header.guid), where(seen)));
    if (header.last > kMaxUnicastLid || header.first > header.last)
      return error(source, line, fmt::format("LID range [{:#x}-{:#x}] is not unicast", header.first, header.last));
    if (header.lid > kMaxUnicastLid)
      return error(source, line, fmt::format("switch LID {:#x} is not unicast (at most {:#x})", header.lid, kMaxUnicastLid));
    return *sw;
  }

  Status read_column_lines(Lines& lines, int source) {
    for (std::string_view expected : {"Lid  Out   Destination", "Port     Info"}) {
      std::string_view line;
      if (!lines.next(line) && !lines.status().ok()) return lines.status();
      if (trim(line) != expected)
        return error(source, lines.number(), fmt::format("expected ibroute's \"{}\" column line", expected));
    }
    return Status::Ok();
  }

  Status read_block(Lines& lines, const Header& header, int source) {
    const int header_line = lines.number();
    Result<int> found = find_switch(header, source, header_line);
    if (!found.ok()) return found.status();
    if (*found < 0) return skip_block(lines, source, header_line);
    const int sw = *found;
    const Node& node = fabric_.node(sw);
    block_at_[sw] = {source, header_line};
    if (header.lid != 0)
      if (Status status = claim(header.lid, port_guid(node, 0), source, header_line); !status.ok()) return status;
    if (header.ibroute)
      if (Status status = read_column_lines(lines, source); !status.ok()) return status;

    std::vector<uint8_t>& lft = table_[sw];
    int entries = 0;
    std::string_view line;
    while (lines.next(line)) {
      const int number = lines.number();
      if (const std::optional<int> count = parse_trailer(line)) {
        if (Status status = check_trailer(header, *count, entries, trim(line), source, number); !status.ok())
          return status;
        note_skipped_block(header, lft, source, header_line);
        return Status::Ok();
      }
      const std::optional<Entry> entry = parse_entry(line);
      if (!entry) {
        if (parse_header(line))
          return error(source, number,
                       fmt::format("truncated block: switch \"{}\" from line {} has no \"N lids dumped\" line",
                                   node.name, header_line));
        return error(source, number, fmt::format("expected \"0xLLLL PPP\" entry, got \"{}\"", excerpt(trim(line))));
      }
      ++entries;
      if (Status status = add_entry(*entry, header, sw, lft, source, number); !status.ok()) return status;
    }
    if (!lines.status().ok()) return lines.status();
    return error(source, lines.number(),
                 fmt::format("truncated block: switch \"{}\" from line {} has no \"N lids dumped\" line", node.name,
                             header_line));
  }

  Status skip_block(Lines& lines, int source, int header_line) {
    if (skipped_lost_++ == 0) first_lost_at_ = {source, header_line};
    for (std::string_view line; lines.next(line);)
      if (parse_trailer(line)) return Status::Ok();
    if (!lines.status().ok()) return lines.status();
    return error(source, lines.number(), fmt::format("truncated block from line {}: no \"N lids dumped\" line",
                                                     header_line));
  }

  Status add_entry(const Entry& entry, const Header& header, int sw, std::vector<uint8_t>& lft, int source,
                   int number) {
    const Node& node = fabric_.node(sw);
    if (entry.lid < header.first || entry.lid > header.last)
      return error(source, number,
                   fmt::format("LID {:#x} is outside the block's range [{:#x}-{:#x}]", entry.lid, header.first,
                               header.last));
    if (entry.port == kNoPath) {  // OpenSM's "no path": the LID is dropped here
      if (entry.guid) return claim(entry.lid, *entry.guid, source, number);
      return Status::Ok();
    }
    if (!entry.illegal && entry.port > node.num_ports)
      return error(source, number,
                   fmt::format("port {} is above the {} ports of switch \"{}\"", entry.port, node.num_ports, node.name));
    if (static_cast<int>(lft.size()) <= entry.lid) lft.resize(entry.lid + 1, kNoPath);
    if (lft[entry.lid] != kNoPath)
      return error(source, number, fmt::format("LID {:#x} is listed twice for switch \"{}\"", entry.lid, node.name));
    if (entry.guid)
      if (Status status = claim(entry.lid, *entry.guid, source, number); !status.ok()) return status;
    if (entry.illegal) return Status::Ok();
    lft[entry.lid] = static_cast<uint8_t>(entry.port);
    routed_[entry.lid] = true;
    return Status::Ok();
  }

  // OpenSM's count is the block's last LID, ibroute's the number of entries.
  Status check_trailer(const Header& header, int count, int entries, std::string_view line, int source,
                       int number) const {
    const int expected = header.ibroute ? entries : header.last;
    if (count == expected) return Status::Ok();
    return error(source, number,
                 header.ibroute ? fmt::format("\"{}\" but the block has {} entries", line, entries)
                                : fmt::format("\"{}\" but the header's range ends at {}", line, header.last));
  }

  // infiniband-diags reads LFT blocks up to ALIGN(top, 64) / 64 exclusive,
  // so when LinearFDBTop is a multiple of 64 the block holding it is never read.
  void note_skipped_block(const Header& header, const std::vector<uint8_t>& lft, int source, int header_line) {
    if (!header.ibroute || header.last == 0 || header.last % kLftBlock != 0) return;
    if (static_cast<int>(lft.size()) > header.last) return;  // an entry for it after all
    if (skipped_blocks_++ == 0) {
      first_skipped_lid_ = header.last;
      first_skipped_at_ = {source, header_line};
    }
  }

  // Each node's LIDs from the claims: one per switch, 2^lmc consecutive and
  // aligned per CA, the same count for every CA.
  Result<LidMap> derive_lids() const {
    const int n = fabric_.size();
    std::vector<int> first(n, 0), count(n, 0), owner(kMaxUnicastLid + 1, -1);
    int max_lid = 0;
    for (int lid = 1; lid <= kMaxUnicastLid; ++lid) {
      if (routed_[lid]) max_lid = lid;
      const auto it = claims_[lid].guid ? ports_by_guid_.find(claims_[lid].guid) : ports_by_guid_.end();
      if (it == ports_by_guid_.end() || it->second.port > 1) continue;  // not a LID port we model
      const int node = it->second.node;
      if (count[node] > 0 && first[node] + count[node] != lid)
        return Status::Error(fmt::format("\"{}\" owns LIDs {:#x} and {:#x} (named at {}) but not the ones between",
                                         fabric_.node(node).name, first[node], lid, claim_place(lid)));
      if (count[node]++ == 0) first[node] = lid;
      owner[lid] = node;
      max_lid = std::max(max_lid, lid);
    }
    LidMap map;
    map.base.assign(n, 0);
    if (Status status = check_counts(first, count, map.lmc); !status.ok()) return status;
    for (int i = 0; i < n; ++i) map.base[i] = first[i];
    owner.resize(max_lid + 1);
    map.owner = std::move(owner);
    map.max_lid = max_lid;
    return map;
  }

  Status check_counts(const std::vector<int>& first, const std::vector<int>& count, int& lmc) const {
    int widest = -1;  // the CA with the longest run sets the LMC
    for (int i = 0; i < fabric_.size(); ++i) {
      const Node& node = fabric_.node(i);
      if (node.is_switch() && count[i] > 1)
        return Status::Error(fmt::format("switch \"{}\" owns {} LIDs from {:#x} (named at {}); a switch has one",
                                         node.name, count[i], first[i], claim_place(first[i])));
      if (!node.is_switch() && (widest < 0 || count[i] > count[widest])) widest = i;
    }
    if (widest < 0 || count[widest] == 0) return Status::Ok();
    const int run = count[widest];
    if (!std::has_single_bit(static_cast<unsigned>(run)) || run > 128)
      return Status::Error(fmt::format("CA \"{}\" owns {} LIDs from {:#x}; a CA owns 2^LMC{}", fabric_.node(widest).name,
                                       run, first[widest], skipped_hint()));
    lmc = std::countr_zero(static_cast<unsigned>(run));
    for (int i = 0; i < fabric_.size(); ++i) {
      if (fabric_.node(i).is_switch() || count[i] == 0) continue;
      if (count[i] != run)
        return Status::Error(fmt::format("CA \"{}\" owns {} LIDs from {:#x} (named at {}) but \"{}\" owns {}: "
                                         "the LMC must be the same for every CA{}",
                                         fabric_.node(i).name, count[i], first[i], claim_place(first[i]),
                                         fabric_.node(widest).name, run, skipped_hint()));
      if (first[i] % run != 0)
        return Status::Error(fmt::format("CA \"{}\" has base LID {:#x}, not aligned to 2^LMC = {}",
                                         fabric_.node(i).name, first[i], run));
    }
    return Status::Ok();
  }

  std::string claim_place(int lid) const { return where(claims_[lid].place); }

  std::string skipped_hint() const {
    if (skipped_blocks_ == 0) return "";
    return fmt::format(" (ibroute could not show LID {:#x}: read opensm-lfts.dump or pass the guid2lid file)",
                       first_skipped_lid_);
  }

  // Warnings for what the tables leave open; returns the unknown LID count.
  long warn_about_gaps(const LidMap& lids) {
    long unknown = 0;
    int first_unknown = 0;
    for (int lid = 1; lid <= lids.max_lid; ++lid)
      if (routed_[lid] && lids.owner[lid] < 0 && unknown++ == 0) first_unknown = lid;
    if (unknown > 0)
      warnings_.push_back(fmt::format("{} routed LIDs belong to no switch or CA port 1 of the topology "
                                      "(first: {:#x}{}); routes to them are not audited",
                                      unknown, first_unknown,
                                      claims_[first_unknown].guid
                                          ? fmt::format(", port GUID {}", format_guid(claims_[first_unknown].guid))
                                          : std::string()));
    warn_about_nodes([](const Node& node) { return node.is_switch(); },
                     [&](int i) { return block_at_[i].source < 0; }, "switches have no table in the input",
                     "every LID reads as unrouted there");
    warn_about_nodes([](const Node& node) { return !node.is_switch() && node.num_ports >= 1 && node.ports[1].peer.valid(); },
                     [&](int i) { return lids.base[i] == 0; }, "CAs have no LID in the tables",
                     "nothing can be routed to them");
    if (skipped_lost_ > 0)
      warnings_.push_back(fmt::format("{} tables are for switches the topology no longer has (first: {}); skipped",
                                      skipped_lost_, where(first_lost_at_)));
    if (skipped_blocks_ > 0)
      warnings_.push_back(fmt::format(
          "{} ibroute/dump_fts blocks end at a multiple of 64 (first: {}, LID {:#x}): infiniband-diags skips the LFT "
          "block holding LinearFDBTop then, so that LID reads as unrouted; opensm-lfts.dump or ibsim's Dump has it",
          skipped_blocks_, where(first_skipped_at_), first_skipped_lid_));
    return unknown;
  }

  template <class Which, class Missing>
  void warn_about_nodes(Which which, Missing missing, std::string_view what, std::string_view consequence) {
    int count = 0, first = -1;
    for (int i = 0; i < fabric_.size(); ++i)
      if (which(fabric_.node(i)) && missing(i) && count++ == 0) first = i;
    if (count > 0)
      warnings_.push_back(fmt::format("{} {} (first: \"{}\"); {}", count, what, fabric_.node(first).name, consequence));
  }

  const Fabric& fabric_;
  std::vector<const TextFile*> sources_;  // the LFT files, then the LID file if any
  int lft_files_;
  std::unordered_map<uint64_t, PortRef> ports_by_guid_;
  std::vector<Claim> claims_;             // per LID
  std::vector<bool> routed_;              // per LID: some switch has a route to it
  std::vector<std::vector<uint8_t>> table_;  // per node
  std::vector<Place> block_at_;           // per node: where its block starts; source -1 = none yet
  int skipped_blocks_ = 0;
  int first_skipped_lid_ = 0;
  Place first_skipped_at_;
  std::vector<std::string> warnings_;
  Progress progress_;
  bool skip_lost_ = false;  // blocks of switches the topology lacks are skipped, not errors
  int skipped_lost_ = 0;
  Place first_lost_at_;
  int fdbs_blocks_ = 0;  // opensm.fdbs blocks read: their LIDs come from elsewhere
};

}  // namespace

Result<TextFile> read_text_file(const std::string& path) {
  if (Result<std::shared_ptr<const MappedFile>> mapped = MappedFile::open(path); mapped.ok())
    return TextFile{path, {}, std::move(*mapped)};
  Result<std::string> text = read_file(path);
  if (!text.ok()) return text.status();
  return TextFile{path, std::move(*text), nullptr};
}

Result<LftRead> parse_lfts(const Fabric& fabric, const std::vector<TextFile>& files, const TextFile* lid_file,
                           const std::function<void(int)>& progress, bool skip_lost_switches) {
  Reader reader(fabric, files, lid_file, progress);
  if (skip_lost_switches) reader.skip_lost_switches();
  return reader.run();
}

Result<LidMap> parse_lid_file(const Fabric& fabric, const TextFile& file) {
  Result<LftRead> read = Reader(fabric, {}, &file, nullptr).run();
  if (!read.ok()) return read.status();
  for (int i = 0; i < fabric.size(); ++i) {
    const Node& node = fabric.node(i);
    const bool addressed = node.is_switch() || (node.num_ports >= 1 && node.ports[1].peer.valid());
    if (addressed && read->lids.base[i] == 0)
      return Status::Error(fmt::format("{}: no LID for {} \"{}\" (port GUID {}); is it the guid2lid of this fabric?",
                                       file.name, node.is_switch() ? "switch" : "CA", node.name,
                                       format_guid(port_guid(node, node.is_switch() ? 0 : 1))));
  }
  return std::move(read->lids);
}

Result<std::vector<int>> parse_path_bits(const Fabric& fabric, int lmc, const TextFile& file) {
  const std::unordered_map<uint64_t, PortRef> ports = index_port_guids(fabric);
  std::vector<int> bits(fabric.size(), 0);
  std::vector<int> given_at(fabric.size(), 0);
  Lines lines(file);
  std::string_view line;
  while (lines.next(line)) {
    const int number = lines.number();
    auto fail = [&](const std::string& what) { return Status::Error(fmt::format("{}:{}: {}", file.name, number, what)); };
    line = trim(line);
    if (line.empty() || line.starts_with('#')) continue;
    uint64_t guid = 0;
    int value = 0;
    const std::string_view guid_text = take_token(line), bits_text = take_token(line);
    if (!guid_text.starts_with("0x") || !parse_number(guid_text, guid) || !parse_number(bits_text, value) ||
        !trim(line).empty())
      return fail("expected \"0xGUID BITS\" line");
    const auto it = ports.find(guid);
    if (it == ports.end() || it->second.port != 1 || fabric.node(it->second.node).is_switch())
      return fail(fmt::format("port GUID {} is not port 1 of a CA in the topology", format_guid(guid)));
    const int node = it->second.node;
    if (given_at[node] != 0)
      return fail(fmt::format("path bits of \"{}\" were already given at line {}", fabric.node(node).name,
                              given_at[node]));
    if (value >= (1 << lmc))
      return fail(fmt::format("path bits {} of \"{}\" do not fit LMC {}", value, fabric.node(node).name, lmc));
    bits[node] = value;
    given_at[node] = number;
  }
  if (!lines.status().ok()) return lines.status();
  // Every CA on offset 0 is what no file at all means: an empty one is a mistake, not path bits.
  if (std::ranges::none_of(given_at, [](int line) { return line != 0; }))
    return Status::Error(fmt::format("{}: no path bits: expected \"0xGUID BITS\" lines for the CAs of the fabric",
                                     file.name));
  return bits;
}

}  // namespace ftclos
