#include "core/netfile.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <deque>
#include <filesystem>
#include <iterator>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/files.h"
#include "core/name_guids.h"

namespace ftclos {
namespace {

// ibsim stops at 9 nested includes; deeper nesting here is almost surely a cycle.
constexpr int kMaxIncludeDepth = 8;

struct Location {
  std::string_view source;
  int line = 0;
};

std::string format_location(Location where) { return fmt::format("{}:{}", where.source, where.line); }

Status error_at(Location where, std::string_view what) {
  return Status::Error(fmt::format("{}: {}", format_location(where), what));
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

/// Reads the tokens of one line from left to right.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : rest_(text) {}

  std::string_view rest() const { return rest_; }
  bool at(char c) const { return !rest_.empty() && rest_.front() == c; }
  void skip_blanks() { rest_ = rest_.substr(std::min(rest_.find_first_not_of(" \t"), rest_.size())); }

  std::optional<uint64_t> number(int base = 10) {
    uint64_t value = 0;
    auto [end, error] = std::from_chars(rest_.data(), rest_.data() + rest_.size(), value, base);
    if (error != std::errc() || end == rest_.data()) return std::nullopt;
    rest_.remove_prefix(end - rest_.data());
    return value;
  }
  /// `"text"`; the text may hold anything but a quote.
  std::optional<std::string_view> quoted() { return enclosed('"', '"'); }
  /// `ibnetdiscover -g`'s `[ext N]` after a port: the chassis's front-panel number, not kept.
  void skip_external_port() {
    if (rest_.starts_with("[ext ")) rest_.remove_prefix(std::min(rest_.find(']') + 1, rest_.size()));
  }
  /// `[port]`
  std::optional<uint64_t> bracketed() { return enclosed_number('[', ']', 10); }
  /// `(hex GUID)`
  std::optional<uint64_t> parenthesized_hex() { return enclosed_number('(', ')', 16); }

 private:
  std::optional<std::string_view> enclosed(char open, char close) {
    if (!at(open)) return std::nullopt;
    size_t end = rest_.find(close, 1);
    if (end == std::string_view::npos) return std::nullopt;
    std::string_view inside = rest_.substr(1, end - 1);
    rest_.remove_prefix(end + 1);
    return inside;
  }
  std::optional<uint64_t> enclosed_number(char open, char close, int base) {
    std::optional<std::string_view> inside = enclosed(open, close);
    if (!inside) return std::nullopt;
    Scanner digits(*inside);
    std::optional<uint64_t> value = digits.number(base);
    if (!digits.rest().empty()) return std::nullopt;
    return value;
  }

  std::string_view rest_;
};

/// The last blank-separated word of `text`; empty when there is none.
std::string_view last_word(std::string_view text) {
  text = trim(text);
  size_t blank = text.find_last_of(" \t");
  return blank == std::string_view::npos ? text : text.substr(blank + 1);
}

/// Keeps the slower of two reports of one cable's rate: the link runs at the slower end's.
void note_rate(Port& port, LinkRate rate) {
  if (rate.known() && (!port.rate.known() || rate.gbps() < port.rate.gbps())) port.rate = rate;
}

/// Position of `word` in `text` where it starts a word, or npos.
size_t find_word(std::string_view text, std::string_view word) {
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1))
    if (at == 0 || is_blank(text[at - 1])) return at;
  return std::string_view::npos;
}

/// Sets port.lid / port.lmc from `lid L` and `lmc M` in a comment, when present.
Status read_lid_and_lmc(std::string_view comment, Port& port, Location where) {
  if (size_t at = find_word(comment, "lid "); at != std::string_view::npos) {
    Scanner scanner(comment.substr(at + 4));
    std::optional<uint64_t> lid = scanner.number();
    if (!lid || *lid > 0xffff) return error_at(where, "expected a LID 0..65535 after \"lid\"");
    port.lid = static_cast<uint16_t>(*lid);
  }
  if (size_t at = find_word(comment, "lmc "); at != std::string_view::npos) {
    Scanner scanner(comment.substr(at + 4));
    std::optional<uint64_t> lmc = scanner.number();
    if (!lmc || *lmc > 7) return error_at(where, "expected an LMC 0..7 after \"lmc\"");
    port.lmc = static_cast<uint8_t>(*lmc);
  }
  return Status::Ok();
}

Status check_port_number(const Node& node, uint64_t port, Location where) {
  if (port == 0)
    return error_at(where, fmt::format("port 0 of \"{}\" cannot be cabled; expected a port 1..{}", node.name,
                                       node.num_ports));
  if (port > static_cast<uint64_t>(node.num_ports))
    return error_at(where, fmt::format("port {} is above the port count {} of \"{}\"", port, node.num_ports, node.name));
  return Status::Ok();
}

/// One `[p] "peer"[q]` line, kept until every node is known.
struct PortLine {
  int node = -1;
  int port = 0;
  std::string_view peer;  // points into the parsed text
  uint64_t peer_port = 0;
  uint64_t guid = 0;       // the local port GUID, `(guid)` after [p]
  uint64_t peer_guid = 0;  // the peer's port GUID, `(guid)` after "peer"[q]
  LinkRate rate;           // `4xEDR` ending the comment, as ibnetdiscover writes it
  Location where;
};

/// A switchguid= or caguid= line waiting for the header it belongs to.
struct PendingGuid {
  uint64_t guid = 0;
  std::string_view keyword;
  Location where;
};

/// Collects every record first (peers may be defined after they are
/// referenced), then cables and checks the port lines.
class Parser {
 public:
  Status parse(std::string_view text, std::string_view source, int include_depth);
  Result<Fabric> finish();

 private:
  Status parse_line(std::string_view line, Location where, int include_depth);
  Status parse_header(NodeType type, std::string_view keyword, Scanner scanner, Location where);
  Status parse_node_comment(Node& node, std::string_view comment, Location where);
  Status parse_port_line(std::string_view line, Location where);
  Status parse_guid(std::string_view keyword, std::string_view line, Location where);
  Status include(std::string_view argument, Location where, int include_depth);
  Status cable(const PortLine& line);
  Status disagreement(const PortLine& line, const PortLine& other) const;
  Status settle_guids();

  Fabric fabric_;
  std::vector<Location> node_where_;
  std::vector<std::vector<int>> line_of_port_;  // [node][port]: index in lines_, -1 when not listed
  std::vector<PortLine> lines_;
  int current_node_ = -1;  // the record that port lines belong to; -1 between records
  std::optional<PendingGuid> pending_guid_[2];  // by NodeType
  std::deque<std::string> included_sources_;   // deques: Locations and PortLines point into them
  std::deque<std::string> included_texts_;
};

Status Parser::parse(std::string_view text, std::string_view source, int include_depth) {
  int line_number = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    Status status = parse_line(line, {source, ++line_number}, include_depth);
    // A line's own mistake quotes it (cut); an included file's error quotes its own line.
    if (!status.ok() && trim(line).starts_with("include")) return status;
    if (!status.ok()) return Status::Error(fmt::format("{}, got \"{}\"", status.message(), excerpt(trim(line))));
    start = end + 1;
  }
  return Status::Ok();
}

Status Parser::parse_line(std::string_view line, Location where, int include_depth) {
  line = trim(line);
  if (line.empty()) {
    current_node_ = -1;  // a blank line ends a record
    return Status::Ok();
  }
  if (line.front() == '#') return Status::Ok();  // comment lines may sit inside a record
  if (line.front() == '[') return parse_port_line(line, where);

  current_node_ = -1;
  const std::string_view keyword = line.substr(0, line.find_first_of(" \t="));
  Scanner rest(line.substr(keyword.size()));
  if (keyword == "Switch") return parse_header(NodeType::kSwitch, keyword, rest, where);
  if (keyword == "Ca" || keyword == "Hca") return parse_header(NodeType::kCa, keyword, rest, where);
  // Routers do not take part in fat-tree routing; refuse rather than drop their cables silently.
  if (keyword == "Rt") return error_at(where, "router records (Rt) are not supported; expected Switch, Ca or Hca");
  if (keyword == "switchguid" || keyword == "caguid") return parse_guid(keyword, line, where);
  if (keyword == "include") return include(rest.rest(), where, include_depth);
  // Facts the model does not keep, and ibsim console commands (`do ...`).
  if (keyword == "sysimgguid" || keyword == "vendid" || keyword == "devid" || keyword == "rtguid" || keyword == "do")
    return Status::Ok();
  // `ibnetdiscover -g` groups nodes under "Chassis N (guid 0x..)" (with a
  // "Hostname: .." for Xsigo chassis) and "Non-Chassis Nodes" headings.
  if (keyword == "Chassis" || keyword == "Non-Chassis" || keyword == "Hostname:") return Status::Ok();
  return error_at(where, fmt::format("unknown keyword \"{}\"; expected a Switch, Ca or Hca header, a port line "
                                     "[p] \"peer\"[q], switchguid=, caguid=, include or a # comment",
                                     excerpt(keyword)));
}

Status Parser::parse_header(NodeType type, std::string_view keyword, Scanner scanner, Location where) {
  scanner.skip_blanks();
  std::optional<uint64_t> num_ports = scanner.number();
  if (!num_ports || *num_ports < 1 || *num_ports > 254)
    return error_at(where, fmt::format("expected a port count 1..254 after {}", keyword));
  scanner.skip_blanks();
  std::optional<std::string_view> name = scanner.quoted();
  if (!name) return error_at(where, fmt::format("expected \"name\" after {} {}", keyword, *num_ports));
  scanner.skip_blanks();
  if (!scanner.rest().empty() && !scanner.at('#'))
    return error_at(where, fmt::format("expected a # comment or the end of the line after \"{}\"", *name));
  if (std::optional<int> first = fabric_.find(*name))
    return error_at(where, fmt::format("node \"{}\" is defined twice; first at {}", *name,
                                       format_location(node_where_[*first])));

  std::optional<PendingGuid>& pending = pending_guid_[static_cast<int>(type)];
  Result<int> index = fabric_.add_node(type, std::string(*name), static_cast<int>(*num_ports), pending ? pending->guid : 0);
  pending.reset();
  if (!index.ok()) return error_at(where, index.status().message());
  Node& node = fabric_.node(*index);
  if (node.is_switch()) node.ports[0].guid = node.guid;
  node_where_.push_back(where);
  line_of_port_.emplace_back(node.num_ports + 1, -1);
  current_node_ = *index;
  if (!scanner.at('#')) return Status::Ok();
  return parse_node_comment(node, scanner.rest().substr(1), where);
}

// `# "description" enhanced port 0 lid L lmc M` (switches) or `# "description"` (CAs).
Status Parser::parse_node_comment(Node& node, std::string_view comment, Location where) {
  std::string_view after_description = comment;
  if (size_t quote = comment.find('"'); quote != std::string_view::npos) {
    Scanner scanner(comment.substr(quote));
    std::optional<std::string_view> description = scanner.quoted();
    if (!description) return error_at(where, "expected a closing quote after the node description");
    node.description = *description;
    after_description = scanner.rest();
  }
  // A CA's LIDs belong to its ports and come on the port lines.
  if (!node.is_switch()) return Status::Ok();
  return read_lid_and_lmc(after_description, node.ports[0], where);
}

Status Parser::parse_port_line(std::string_view line, Location where) {
  Scanner scanner(line);
  std::optional<uint64_t> port = scanner.bracketed();
  if (!port) return error_at(where, "expected [port] at the start of a port line");
  if (current_node_ < 0)
    return error_at(where, fmt::format("port line [{}] is outside a node record; expected a Switch, Ca or Hca "
                                       "header before it",
                                       *port));
  Node& node = fabric_.node(current_node_);
  if (Status status = check_port_number(node, *port, where); !status.ok()) return status;

  scanner.skip_external_port();
  PortLine parsed;
  parsed.node = current_node_;
  parsed.port = static_cast<int>(*port);
  parsed.where = where;
  scanner.skip_blanks();
  if (scanner.at('(')) {
    std::optional<uint64_t> guid = scanner.parenthesized_hex();
    if (!guid) return error_at(where, fmt::format("expected (port GUID in hex) after [{}]", *port));
    parsed.guid = *guid;
    scanner.skip_blanks();
  }
  std::optional<std::string_view> peer = scanner.quoted();
  std::optional<uint64_t> peer_port = peer ? scanner.bracketed() : std::nullopt;
  if (!peer_port) return error_at(where, fmt::format("expected \"peer\"[port] after [{}]", *port));
  scanner.skip_external_port();
  parsed.peer = *peer;
  parsed.peer_port = *peer_port;
  scanner.skip_blanks();
  if (scanner.at('(')) {
    std::optional<uint64_t> guid = scanner.parenthesized_hex();
    if (!guid) return error_at(where, fmt::format("expected (port GUID in hex) after \"{}\"[{}]", *peer, *peer_port));
    parsed.peer_guid = *guid;
  }
  // Up to the comment come ibsim link options (w=12, s=2), which the model does not keep.
  // A CA port line's comment starts with its own `lid L lmc M`; the peer's follow its quoted description.
  std::string_view comment = scanner.rest().substr(std::min(scanner.rest().find('#'), scanner.rest().size()));
  parsed.rate = parse_link_rate(last_word(comment)).value_or(LinkRate{});
  if (!node.is_switch()) {
    Status status = read_lid_and_lmc(comment.substr(0, comment.find('"')), node.ports[parsed.port], where);
    if (!status.ok()) return status;
  }

  int& listed = line_of_port_[current_node_][parsed.port];
  if (listed >= 0) {
    const PortLine& first = lines_[listed];
    if (first.peer == parsed.peer && first.peer_port == parsed.peer_port) return Status::Ok();
    return error_at(where, fmt::format("port {} of \"{}\" has two peers: \"{}\"[{}] here and \"{}\"[{}] at {}",
                                       parsed.port, node.name, parsed.peer, parsed.peer_port, first.peer,
                                       first.peer_port, format_location(first.where)));
  }
  listed = static_cast<int>(lines_.size());
  lines_.push_back(parsed);
  return Status::Ok();
}

// switchguid=0x0002c90300001234(0002c90300001234) or caguid=0x0002c90300001235; the
// part in parentheses repeats the switch's port 0 GUID, which is the node GUID.
Status Parser::parse_guid(std::string_view keyword, std::string_view line, Location where) {
  Scanner scanner(line.substr(keyword.size()));
  scanner.skip_blanks();
  bool well_formed = scanner.at('=');
  std::optional<uint64_t> guid;
  if (well_formed) {
    scanner = Scanner(trim(scanner.rest().substr(1)));
    well_formed = scanner.rest().starts_with("0x") || scanner.rest().starts_with("0X");
  }
  if (well_formed) {
    scanner = Scanner(scanner.rest().substr(2));
    guid = scanner.number(16);
  }
  if (!guid || !(scanner.rest().empty() || scanner.at('(')))
    return error_at(where, fmt::format("expected {}=0x<hex GUID>", keyword));
  const NodeType type = keyword == "switchguid" ? NodeType::kSwitch : NodeType::kCa;
  pending_guid_[static_cast<int>(type)] = PendingGuid{*guid, keyword, where};
  return Status::Ok();
}

// ibsim's `include "file"` (the quotes are optional here); the name is relative to the including file.
Status Parser::include(std::string_view argument, Location where, int include_depth) {
  Scanner scanner(trim(argument));
  std::optional<std::string_view> name = scanner.at('"') ? scanner.quoted() : scanner.rest();
  if (!name || name->empty()) return error_at(where, "expected include \"file\"");
  if (include_depth >= kMaxIncludeDepth)
    return error_at(where, fmt::format("includes nest deeper than {}; expected no include cycle", kMaxIncludeDepth));
  const std::string path = (std::filesystem::path(where.source).parent_path() / *name).string();
  Result<std::string> text = read_file(path);
  if (!text.ok()) return error_at(where, fmt::format("cannot include: {}", text.status().message()));
  const std::string& source = included_sources_.emplace_back(path);
  const std::string& body = included_texts_.emplace_back(std::move(*text));
  Status status = parse(body, source, include_depth + 1);
  current_node_ = -1;  // the include line ended the record; the included file's last one ends with it
  if (!status.ok()) return Status::Error(fmt::format("{} (included from {})", status.message(), format_location(where)));
  return Status::Ok();
}

Result<Fabric> Parser::finish() {
  for (const std::optional<PendingGuid>& pending : pending_guid_) {
    if (!pending) continue;
    return error_at(pending->where, fmt::format("expected a {} header after {}=",
                                                pending->keyword == "switchguid" ? "Switch" : "Ca", pending->keyword));
  }
  for (const PortLine& line : lines_)
    if (Status status = cable(line); !status.ok()) return status;
  if (Status status = settle_guids(); !status.ok()) return status;
  return std::move(fabric_);
}

// GUIDs name the ports in dumps, path-bits files, LID maps and hint files,
// so no GUID may name two nodes: a switch GUID that is also a CA's port GUID
// gives a dump its own audit refuses. (A CA's node GUID may equal one of its
// own port GUIDs, as on many HCAs.) A node the file gives no GUID (ibsim's
// own net examples have no GUID lines) gets one derived from its name.
Status Parser::settle_guids() {
  assign_name_guids(fabric_);
  struct Owner {
    int node;
    std::string what;
    Location where;
  };
  std::unordered_map<uint64_t, Owner> owners;
  auto claim = [&](uint64_t guid, const Owner& claimant) {
    const auto [it, added] = owners.emplace(guid, claimant);
    if (added || it->second.node == claimant.node) return Status::Ok();
    const Owner& first = it->second;
    return error_at(claimant.where, fmt::format("{} {} of \"{}\" is also the {} of \"{}\" at {}; expected every "
                                                "GUID to name one node",
                                                claimant.what, format_guid(guid), fabric_.node(claimant.node).name,
                                                first.what, fabric_.node(first.node).name,
                                                format_location(first.where)));
  };
  for (int i = 0; i < fabric_.size(); ++i)
    if (Status status = claim(fabric_.node(i).guid, {i, "node GUID", node_where_[i]}); !status.ok()) return status;
  for (int i = 0; i < fabric_.size(); ++i) {
    const Node& node = fabric_.node(i);
    for (int p = 0; p <= node.num_ports; ++p) {
      const int line = line_of_port_[i][p];
      if (line < 0) continue;  // uncabled: no LID, no GUID anyone addresses
      if (Status status = claim(port_guid(node, p), {i, "port GUID", lines_[line].where}); !status.ok()) return status;
    }
  }
  return Status::Ok();
}

// `line` lists a port whose own line, `other`, lists another peer.
Status Parser::disagreement(const PortLine& line, const PortLine& other) const {
  const std::string& name = fabric_.node(line.node).name;
  return error_at(line.where, fmt::format("\"{}\"[{}] lists \"{}\"[{}], but {} lists \"{}\"[{}] at \"{}\"[{}]; "
                                          "expected \"{}\"[{}]",
                                          name, line.port, line.peer, line.peer_port, format_location(other.where),
                                          other.peer, other.peer_port, line.peer, line.peer_port, name, line.port));
}

Status Parser::cable(const PortLine& line) {
  const Node& node = fabric_.node(line.node);
  std::optional<int> peer_index = fabric_.find(line.peer);
  if (!peer_index)
    return error_at(line.where, fmt::format("dangling port: \"{}\"[{}] lists \"{}\"[{}], but no node \"{}\" is "
                                            "defined; expected a Switch, Ca or Hca record for it",
                                            node.name, line.port, line.peer, line.peer_port, line.peer));
  const Node& peer = fabric_.node(*peer_index);
  if (Status status = check_port_number(peer, line.peer_port, line.where); !status.ok()) return status;
  const PortRef here{line.node, line.port};
  const PortRef there{*peer_index, static_cast<int>(line.peer_port)};

  // Both ends list every cable (ibnetdiscover writes both, ibsim refuses a
  // file that lists one), and they must agree: a port its own record leaves
  // out is empty.
  const int other_index = line_of_port_[there.node][there.port];
  if (other_index < 0) {
    // A line that lists this port as its peer, elsewhere on the far node, disagrees with this one.
    const auto claimer = std::ranges::find_if(lines_, [&](const PortLine& other) {
      return other.node == there.node && other.peer == node.name && other.peer_port == static_cast<uint64_t>(line.port);
    });
    if (claimer != lines_.end()) return disagreement(*claimer, line);
    return error_at(line.where, fmt::format("\"{}\"[{}] lists \"{}\"[{}], but the record of \"{}\" at {} does not "
                                            "list its port {}; expected [{}] \"{}\"[{}] there (a cable is listed at "
                                            "both ends)",
                                            node.name, line.port, peer.name, there.port, peer.name,
                                            format_location(node_where_[there.node]), there.port, there.port,
                                            node.name, line.port));
  }
  const PortLine& other = lines_[other_index];
  if (other.peer != node.name || other.peer_port != static_cast<uint64_t>(line.port)) return disagreement(line, other);
  if (line.peer_guid && other.guid && line.peer_guid != other.guid)
    return error_at(line.where, fmt::format("port GUID {:x} of \"{}\"[{}] differs from {:x} at {}", line.peer_guid,
                                            peer.name, there.port, other.guid, format_location(other.where)));
  if (Status status = fabric_.connect(here, there); !status.ok()) return error_at(line.where, status.message());
  if (line.guid) fabric_.port(here).guid = line.guid;
  if (line.peer_guid) fabric_.port(there).guid = line.peer_guid;
  note_rate(fabric_.port(here), line.rate);
  note_rate(fabric_.port(there), line.rate);
  return Status::Ok();
}

void write_node(const Fabric& fabric, const Node& node, std::string& out) {
  auto to = std::back_inserter(out);
  const bool is_switch = node.is_switch();
  out += '\n';
  if (node.guid) fmt::format_to(to, "{}={}\n", is_switch ? "switchguid" : "caguid", format_guid(node.guid));
  fmt::format_to(to, "{}\t{} \"{}\"", is_switch ? "Switch" : "Hca", node.num_ports, node.name);
  const Port& management = node.ports[0];
  const bool has_lid = is_switch && management.lid;
  // The description comes first and quoted, even when empty: ibsim reads an
  // unquoted comment start as the description.
  if (!node.description.empty() || has_lid) fmt::format_to(to, "\t\t# \"{}\"", node.description);
  if (has_lid) fmt::format_to(to, " lid {} lmc {}", management.lid, management.lmc);
  out += '\n';
  for (int p = 1; p <= node.num_ports; ++p) {
    const Port& port = node.ports[p];
    if (!port.peer.valid()) continue;
    fmt::format_to(to, "[{}]", p);
    if (port.guid) fmt::format_to(to, "({:x})", port.guid);
    const Node& peer = fabric.node(port.peer.node);
    fmt::format_to(to, "\t\"{}\"[{}]", peer.name, port.peer.port);
    const bool has_lid = !is_switch && port.lid;
    if (has_lid) fmt::format_to(to, "\t\t# lid {} lmc {}", port.lid, port.lmc);
    // ibnetdiscover's ending, which ibsim reads to run the link at that rate: "peer" lid L 4xEDR.
    if (port.rate.known()) {
      const uint16_t peer_lid = peer.is_switch() ? peer.ports[0].lid : fabric.port(port.peer).lid;
      fmt::format_to(to, "{}\"{}\" lid {} {}", has_lid ? " " : "\t\t# ", peer.description, peer_lid,
                     format_link_rate(port.rate));
    }
    out += '\n';
  }
}

}  // namespace

Result<Fabric> parse_netfile(std::string_view text, std::string_view source) {
  Parser parser;
  if (Status status = parser.parse(text, source, 0); !status.ok()) return status;
  return parser.finish();
}

Result<Fabric> read_netfile(const std::string& path) {
  Result<std::string> text = read_file(path);
  if (!text.ok()) return text.status();
  return parse_netfile(*text, path);
}

std::string write_netfile(const Fabric& fabric) {
  std::string out = "# Fabric written by ftclos in the ibnetdiscover / ibsim net-file format.\n";
  // Switches first, as ibnetdiscover prints them; ibsim then puts its SM on a switch's port 0.
  for (NodeType type : {NodeType::kSwitch, NodeType::kCa})
    for (const Node& node : fabric.nodes())
      if (node.type == type) write_node(fabric, node, out);
  return out;
}

}  // namespace ftclos
