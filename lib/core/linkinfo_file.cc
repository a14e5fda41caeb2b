// `iblinkinfo`: per node a header ("Switch: 0x<GUID> <description>:" or
// "CA: <description>:") and a line per port, the far end named by its LID.
#include <fmt/format.h>

#include <map>
#include <optional>

#include "core/cable_list.h"
#include "core/fabric_formats.h"
#include "core/files.h"
#include "core/words.h"

namespace ftclos {
namespace {

constexpr std::string_view kExpectedPort =
    "expected \"[0xPORTGUID] LID PORT[..] ==( WIDTH SPEED STATE/ PHYSSTATE)==> LID PORT[..] \\\"peer\\\" (..)\" "
    "(iblinkinfo)";

// One port line, its far end known by LID until every node is read.
struct PortLine {
  CableEnd local;
  int peer_lid = 0;
  int peer_port = 0;
  std::string peer_description;
  LinkRate rate;
  std::string where;
};

// "4X" and "2.5 Gbps" (or "25.78125 Gbps", "10.0 Gbps (FDR10)") as ibnetdiscover's "4xSDR".
LinkRate read_rate(std::string_view link) {
  const std::vector<std::string_view> words = split_words(link);
  if (words.size() < 3 || !words[0].ends_with('X')) return {};
  static const std::map<std::string_view, std::string_view> kSpeeds{
      {"2.5", "SDR"},       {"5.0", "DDR"},    {"10.0", "QDR"},    {"14.0625", "FDR"},
      {"25.78125", "EDR"}, {"53.125", "HDR"}, {"106.25", "NDR"}, {"212.5", "XDR"}};
  std::string_view speed = link.find("(FDR10)") != std::string_view::npos ? "FDR10" : "";
  if (speed.empty()) {
    const auto it = kSpeeds.find(words[1]);
    if (it == kSpeeds.end()) return {};
    speed = it->second;
  }
  return parse_link_rate(fmt::format("{}x{}", words[0].substr(0, words[0].size() - 1), speed)).value_or(LinkRate{});
}

// "LID PORT[ext]" at the start of `text`; the rest after it.
bool read_lid_port(std::string_view& text, int& lid, int& port) {
  const std::vector<std::string_view> words = split_words(text.substr(0, text.find('[')));
  if (words.size() != 2 || !read_number(words[0], lid) || !read_number(words[1], port)) return false;
  const size_t close = text.find(']');
  if (close == std::string_view::npos) return false;
  text.remove_prefix(close + 1);
  return true;
}

class Reader {
 public:
  explicit Reader(std::string_view source) : source_(source) {}

  Status line(std::string_view line, int number) {
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (split_words(line).empty()) return Status::Ok();
    if (line.starts_with("Switch: ") || line.starts_with("CA: ")) return header(line, number);
    if (!node_) return error(number, "expected a \"Switch: 0xGUID description:\" or \"CA: description:\" header", line);
    return port(line, number);
  }

  Result<Fabric> finish() {
    // A switch is known by its LID, a CA port by its own LID and port number.
    std::map<std::pair<int, int>, const CableEnd*> by_lid;
    for (const PortLine& line : lines_)
      if (line.local.lid)
        by_lid.emplace(std::pair{line.local.lid, line.local.type == NodeType::kSwitch ? 0 : line.local.port},
                       &line.local);
    std::vector<Cable> cables;
    for (const PortLine& line : lines_) {
      if (line.peer_lid == 0 && line.peer_port == 0) continue;  // a dark port
      const bool to_switch = by_lid.contains({line.peer_lid, 0});
      const auto peer = by_lid.find({line.peer_lid, to_switch ? 0 : line.peer_port});
      if (line.peer_lid == 0 || peer == by_lid.end())
        return Status::Error(fmt::format("{}: no node has LID {} port {}, which the peer \"{}\" is named by; expected "
                                         "a subnet with LIDs (iblinkinfo names peers by LID) and every node's block",
                                         line.where, line.peer_lid, line.peer_port, excerpt(line.peer_description)));
      CableEnd far = *peer->second;
      far.port = line.peer_port;
      cables.push_back({line.local, far, line.rate, line.where});
    }
    if (cables.empty()) return Status::Error(fmt::format("{}: no linked port; {}", source_, kExpectedPort));
    for (Cable& cable : cables)
      for (CableEnd* end : {&cable.a, &cable.b})
        if (end->type == NodeType::kSwitch) end->num_ports = highest_port_[end->node_guid];
    return build_from_cables(cables);
  }

 private:
  Status error(int number, std::string_view expected, std::string_view line) const {
    return Status::Error(fmt::format("{}:{}: {}, got \"{}\"", source_, number, expected, excerpt(line)));
  }

  Status header(std::string_view line, int number) {
    if (!line.ends_with(':')) return error(number, "expected a header ending in ':'", line);
    line.remove_suffix(1);
    node_ = CableEnd{};
    if (line.starts_with("CA: ")) {
      node_->type = NodeType::kCa;
      node_->description = line.substr(4);
      return Status::Ok();
    }
    line.remove_prefix(8);
    const size_t blank = line.find(' ');
    node_->type = NodeType::kSwitch;
    if (blank == std::string_view::npos || !read_number(line.substr(0, blank), node_->node_guid, 16))
      return error(number, "expected \"Switch: 0xGUID description:\"", line);
    node_->port_guid = node_->node_guid;
    node_->description = line.substr(blank + 1);
    return Status::Ok();
  }

  Status port(std::string_view line, int number) {
    PortLine parsed;
    parsed.local = *node_;
    parsed.where = fmt::format("{}:{}", source_, number);
    std::string_view rest = line;
    if (node_->type == NodeType::kCa) {
      const std::vector<std::string_view> words = split_words(rest);
      if (words.empty() || !read_number(words[0], parsed.local.port_guid, 16)) return error(number, kExpectedPort, line);
      rest.remove_prefix(rest.find(words[0]) + words[0].size());
    }
    int lid = 0;
    const size_t arrow = rest.find(")==>");
    if (!read_lid_port(rest, lid, parsed.local.port) || arrow == std::string_view::npos)
      return error(number, kExpectedPort, line);
    parsed.local.lid = static_cast<uint16_t>(lid);
    if (node_->type == NodeType::kSwitch) {
      int& highest = highest_port_[node_->node_guid];
      highest = std::max(highest, parsed.local.port);
    }
    const size_t open = rest.find("==(");
    std::string_view far = rest.substr(rest.find(")==>") + 4);
    parsed.rate = open == std::string_view::npos ? LinkRate{} : read_rate(rest.substr(open + 3));
    // A down port: "[  ] \"\" ( )"; one with no peer: "\"Port not available\"".
    if (far.substr(0, far.find('"')).find_first_of("0123456789") == std::string_view::npos) {
      lines_.push_back(std::move(parsed));
      return Status::Ok();
    }
    const size_t quote = far.find('"'), end_quote = far.rfind("\" (");
    if (quote == std::string_view::npos || end_quote == std::string_view::npos || end_quote <= quote)
      return error(number, kExpectedPort, line);
    parsed.peer_description = far.substr(quote + 1, end_quote - quote - 1);
    if (!read_lid_port(far, parsed.peer_lid, parsed.peer_port)) return error(number, kExpectedPort, line);
    lines_.push_back(std::move(parsed));
    return Status::Ok();
  }

  std::string_view source_;
  std::optional<CableEnd> node_;  // the block the port lines belong to
  std::vector<PortLine> lines_;
  std::map<uint64_t, int> highest_port_;
};

}  // namespace

Result<Fabric> parse_iblinkinfo(std::string_view text, std::string_view source) {
  Reader reader(source);
  if (Status status = for_each_line(text, [&](std::string_view line, int number) { return reader.line(line, number); });
      !status.ok())
    return status;
  return reader.finish();
}

}  // namespace ftclos
