#include "core/ibnl.h"

#include <fmt/format.h>

#include <charconv>
#include <map>

#include "core/files.h"
#include "core/words.h"

namespace ftclos {
namespace {

constexpr int kMaxPorts = 254;  // what ibsim and the net-file reader accept

std::optional<int> parse_number(std::string_view word) {
  int value = 0;
  auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error != std::errc() || end != word.data() + word.size()) return std::nullopt;
  return value;
}

std::optional<uint8_t> parse_width(std::string_view word) {
  if (word.size() < 2 || (word.back() | 0x20) != 'x') return std::nullopt;
  std::optional<int> lanes = parse_number(word.substr(0, word.size() - 1));
  if (!lanes || (*lanes != 1 && *lanes != 4 && *lanes != 8 && *lanes != 12)) return std::nullopt;
  return static_cast<uint8_t>(*lanes);
}

std::optional<LinkSpeed> parse_speed(std::string_view word) {
  if (word == "2.5G") return LinkSpeed::kSdr;
  if (word == "5G") return LinkSpeed::kDdr;
  if (word == "10G") return LinkSpeed::kQdr;
  return std::nullopt;
}

/// `LEAF,LEAF:4x, LEAF:4X`: the words after SYSTEM joined, split at commas.
std::vector<std::string> split_names(const std::vector<std::string_view>& words) {
  std::string joined;
  for (size_t i = 1; i < words.size(); ++i) joined += words[i];
  std::vector<std::string> names;
  for (size_t start = 0; start <= joined.size();) {
    const size_t comma = std::min(joined.find(',', start), joined.size());
    names.push_back(joined.substr(start, comma - start));
    start = comma + 1;
  }
  return names;
}

class Parser {
 public:
  explicit Parser(std::string path) { file_.path = std::move(path); }
  Result<IbnlFile> parse(std::string_view text);

 private:
  Status error(int line, std::string_view what) const {
    return Status::Error(fmt::format("{}:{}: {}", file_.path, line, what));
  }
  Status parse_line(const std::vector<std::string_view>& words, int line);
  Status start_section(const std::vector<std::string_view>& words, int line);
  Status start_node(const std::vector<std::string_view>& words, int line);
  Status start_subsystem(const std::vector<std::string_view>& words, int line);
  Status add_instance(IbnlInstance instance);
  Status add_link(const std::vector<std::string_view>& words, int line);
  Status check_section(const IbnlSystem& section) const;
  Status check_port(const IbnlSystem& section, const IbnlEnd& end, int line) const;

  IbnlFile file_;
  int top_line_ = 0;                   // the TOPSYSTEM line; 0 before it
  IbnlSystem* section_ = nullptr;      // the section lines belong to
  IbnlInstance* instance_ = nullptr;   // the block link lines belong to
  std::map<std::string, int> listed_;  // ports of the current block: line that lists them
};

Result<IbnlFile> Parser::parse(std::string_view text) {
  int line = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::vector<std::string_view> words = split_words(text.substr(start, end - start));
    ++line;
    if (!words.empty())
      if (Status status = parse_line(words, line); !status.ok()) return status;
    start = end + 1;
  }
  if (top_line_ == 0) return error(line, "expected a TOPSYSTEM section; the file has none");
  for (const IbnlSystem& section : file_.systems)
    if (Status status = check_section(section); !status.ok()) return status;
  if (Status status = check_section(file_.top); !status.ok()) return status;
  return std::move(file_);
}

Status Parser::parse_line(const std::vector<std::string_view>& words, int line) {
  const std::string_view keyword = words[0];
  if (keyword == "SYSTEM" || keyword == "TOPSYSTEM") return start_section(words, line);
  if (!section_) return error(line, fmt::format("expected SYSTEM or TOPSYSTEM, got \"{}\"", excerpt(keyword)));
  if (keyword == "NODE") return start_node(words, line);
  if (keyword == "SUBSYSTEM") return start_subsystem(words, line);
  // `CFG: leaf1=12x` under a SUBSYSTEM header: ibdm parses these modifiers but
  // never applies them, so the fabric it builds ignores them; so do we.
  if (keyword.starts_with("CFG:") && instance_ && !instance_->is_node && instance_->links.empty()) return Status::Ok();
  if (words.size() >= 2 && words[1].starts_with('-')) return add_link(words, line);
  // `U1=isChaBma` after TOPSYSTEM: node attributes, which the fabric model has no place for.
  if (section_ == &file_.top && section_->instances.empty() && keyword.find('=') != std::string_view::npos)
    return Status::Ok();
  return error(line,
               fmt::format("expected NODE, SUBSYSTEM or a link line PORT -> TARGET, got \"{}\"", excerpt(keyword)));
}

Status Parser::start_section(const std::vector<std::string_view>& words, int line) {
  const bool top = words[0] == "TOPSYSTEM";
  if (top && top_line_ != 0)
    return error(line, fmt::format("a second TOPSYSTEM; expected one per file (the first is at line {})", top_line_));
  std::vector<std::string> names = split_names(words);
  for (const std::string& name : names)
    if (name.empty()) return error(line, fmt::format("expected {} NAME[,ALIAS...]", words[0]));
  if (top) {
    top_line_ = line;
    section_ = &file_.top;
  } else {
    section_ = &file_.systems.emplace_back();
  }
  section_->names = std::move(names);
  section_->line = line;
  instance_ = nullptr;
  return Status::Ok();
}

Status Parser::start_node(const std::vector<std::string_view>& words, int line) {
  if (words.size() != 5) return error(line, "expected NODE SW|CA|HCA PORTS DEVICE NAME");
  IbnlInstance node;
  node.name = words[4];
  node.line = line;
  node.is_node = true;
  if (words[1] == "SW") {
    node.type = NodeType::kSwitch;
  } else if (words[1] == "CA" || words[1] == "HCA") {
    node.type = NodeType::kCa;
  } else {
    return error(line, fmt::format("expected a node type SW, CA or HCA after NODE, got \"{}\"", excerpt(words[1])));
  }
  std::optional<int> ports = parse_number(words[2]);
  if (!ports || *ports < 1 || *ports > kMaxPorts)
    return error(line,
                 fmt::format("expected a port count 1..{} after NODE {}, got \"{}\"", kMaxPorts, excerpt(words[1]),
                             excerpt(words[2])));
  node.num_ports = *ports;
  return add_instance(std::move(node));
}

Status Parser::start_subsystem(const std::vector<std::string_view>& words, int line) {
  if (words.size() != 3) return error(line, "expected SUBSYSTEM SYSTEM-NAME INSTANCE-NAME");
  IbnlInstance board;
  board.master = words[1];
  board.name = words[2];
  board.line = line;
  return add_instance(std::move(board));
}

Status Parser::add_instance(IbnlInstance instance) {
  if (const IbnlInstance* first = section_->instance(instance.name))
    return error(instance.line, fmt::format("instance {} is defined twice in this section (first at line {})",
                                            instance.name, first->line));
  instance_ = &section_->instances.emplace_back(std::move(instance));
  listed_.clear();
  return Status::Ok();
}

// `PORT ARROW PORT-NAME` (the section exposes the port) or `PORT ARROW INSTANCE PORT`.
Status Parser::add_link(const std::vector<std::string_view>& words, int line) {
  if (!instance_) return error(line, "link line before any NODE or SUBSYSTEM; expected one of them first");
  std::optional<LinkRate> rate = parse_link_arrow(words[1]);
  if (!rate) return error(line, bad_arrow_message(words[0], words[1]));
  if (words.size() != 3 && words.size() != 4)
    return error(
        line, fmt::format("expected {} {} PORT-NAME or {} {} INSTANCE PORT", words[0], words[1], words[0], words[1]));
  const std::string port(words[0]);
  if (instance_->is_node) {
    std::optional<int> number = parse_number(port);
    if (!number || *number < 1)
      return error(line, fmt::format("expected a port number of node {}, got \"{}\"", instance_->name, excerpt(port)));
    if (*number > instance_->num_ports)
      return error(line, fmt::format("port {} is above the port count {} of node {}", *number, instance_->num_ports,
                                     instance_->name));
  }
  if (const auto [it, added] = listed_.emplace(port, line); !added)
    return error(line,
                 fmt::format("port {} of {} is listed twice (first at line {})", port, instance_->name, it->second));
  if (words.size() == 3) {
    if (const IbnlSystemPort* first = section_->port(words[2]))
      return error(line, fmt::format("system port {} is defined twice (first at line {})", words[2], first->line));
    section_->ports.push_back({std::string(words[2]), {instance_->name, port}, line});
    return Status::Ok();
  }
  instance_->links.push_back({port, {std::string(words[2]), std::string(words[3])}, *rate, line});
  return Status::Ok();
}

// What needs the whole file: instances and SYSTEM sections named by links and sub-systems.
Status Parser::check_section(const IbnlSystem& section) const {
  for (const IbnlInstance& instance : section.instances) {
    if (!instance.is_node && !file_.system(instance.master))
      return error(instance.line, fmt::format("no SYSTEM {} in this file; expected one for sub-system {}",
                                              instance.master, instance.name));
    for (const IbnlLink& link : instance.links) {
      if (Status status = check_port(section, {instance.name, link.port}, link.line); !status.ok()) return status;
      if (Status status = check_port(section, link.peer, link.line); !status.ok()) return status;
    }
  }
  for (const IbnlSystemPort& port : section.ports)
    if (Status status = check_port(section, port.inner, port.line); !status.ok()) return status;
  return Status::Ok();
}

// A sub-system's port is not checked: ibdm leaves out the links to ports
// that the chosen variant of a board does not expose, and its own files
// (MTS14400-48.ibnl) list links to ports that no variant exposes.
Status Parser::check_port(const IbnlSystem& section, const IbnlEnd& end, int line) const {
  const IbnlInstance* instance = section.instance(end.instance);
  if (!instance)
    return error(line, fmt::format("no instance {} in {} {} (line {})", end.instance,
                                   &section == &file_.top ? "TOPSYSTEM" : "SYSTEM", section.names[0], section.line));
  std::optional<int> number = parse_number(end.port);
  if (instance->is_node && (!number || *number < 1 || *number > instance->num_ports))
    return error(line, fmt::format("expected a port 1..{} of node {}, got \"{}\"", instance->num_ports, instance->name,
                                   excerpt(end.port)));
  return Status::Ok();
}

}  // namespace

const IbnlInstance* IbnlSystem::instance(std::string_view name) const {
  for (const IbnlInstance& candidate : instances)
    if (candidate.name == name) return &candidate;
  return nullptr;
}

const IbnlSystemPort* IbnlSystem::port(std::string_view name) const {
  for (const IbnlSystemPort& candidate : ports)
    if (candidate.name == name) return &candidate;
  return nullptr;
}

const IbnlSystem* IbnlFile::system(std::string_view name) const {
  for (const IbnlSystem& candidate : systems)
    for (const std::string& alias : candidate.names)
      if (alias == name) return &candidate;
  return nullptr;
}

Result<IbnlFile> parse_ibnl(std::string_view text, std::string path) { return Parser(std::move(path)).parse(text); }

Result<IbnlFile> read_ibnl(const std::string& path) {
  Result<std::string> text = read_file(path);
  if (!text.ok()) return text.status();
  return parse_ibnl(*text, path);
}

std::vector<std::string> ibnl_top_names(std::string_view text) {
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::vector<std::string_view> words = split_words(text.substr(start, end - start));
    if (!words.empty() && words[0] == "TOPSYSTEM") return split_names(words);
    start = end + 1;
  }
  return {};
}

std::string bad_arrow_message(std::string_view port, std::string_view arrow) {
  return fmt::format("expected an arrow ->, -4x->, -4x-5G-> or -5G-> after {}, got \"{}\"", port, excerpt(arrow));
}

std::optional<LinkRate> parse_link_arrow(std::string_view arrow) {
  if (arrow.size() < 2 || arrow.front() != '-' || arrow.back() != '>') return std::nullopt;
  LinkRate rate{4, LinkSpeed::kSdr};
  std::string_view body = arrow.substr(1, arrow.size() - 2);  // `4x-5G-` of -4x-5G->
  if (body.empty()) return rate;
  if (body.back() != '-') return std::nullopt;
  body.remove_suffix(1);
  const size_t dash = body.find('-');
  std::string_view speed_word = body;
  if (std::optional<uint8_t> lanes = parse_width(body.substr(0, dash))) {
    rate.lanes = *lanes;
    if (dash == std::string_view::npos) return rate;
    speed_word = body.substr(dash + 1);
  }
  std::optional<LinkSpeed> speed = parse_speed(speed_word);
  if (!speed) return std::nullopt;
  rate.speed = *speed;
  return rate;
}

}  // namespace ftclos
