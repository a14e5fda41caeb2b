#include "core/topo_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <optional>

#include "core/files.h"
#include "core/ibnl.h"
#include "core/ibnl_build.h"
#include "core/ibnl_library.h"
#include "core/name_guids.h"
#include "core/words.h"

namespace ftclos {
namespace {

/// A system line `TYPE NAME [CFG: ...]`.
struct Declaration {
  std::string type;
  BoardModifiers modifiers;
  int line = 0;
};

/// A system line or a cable line, kept in file order: systems are built in
/// the order the file first mentions them, and a system's CFG may come after
/// a cable that names it.
struct TopoLine {
  int line = 0;
  std::string type, name;  // the block's system
  bool is_cable = false;
  std::string port;  // cables only
  LinkRate rate;
  std::string peer_type, peer, peer_port;
};

/// A system in the fabric.
struct Placed {
  std::string type;
  const IbnlFile* file = nullptr;
  BuiltSystem built;
  int line = 0;  // first mention
};

class TopoParser {
 public:
  TopoParser(std::string_view source, const std::vector<std::string>& ibnl_dirs)
      : source_(source), library_(ibnl_dirs), dirs_(ibnl_dirs) {}
  Result<Fabric> parse(std::string_view text);

 private:
  Status error(int line, std::string_view what) const {
    return Status::Error(fmt::format("{}:{}: {}", source_, line, what));
  }
  Status read_line(std::string_view text, int line);
  Status read_system_line(std::string_view text, const std::vector<std::string_view>& words, int line);
  Status read_cable_line(const std::vector<std::string_view>& words, int line);
  Status place(const std::string& type, const std::string& name, int line);
  Result<PortRef> port_of(const std::string& system, const std::string& port, int line) const;
  Status cable(const TopoLine& cable);

  std::string_view source_;
  IbnlLibrary library_;
  const std::vector<std::string>& dirs_;
  std::vector<TopoLine> lines_;
  std::map<std::string, Declaration> declared_;  // by system name
  std::optional<size_t> block_;                  // index in lines_ of the current block's system line
  Fabric fabric_;
  CableLog cables_;
  std::map<std::string, Placed> placed_;  // by system name
};

Result<Fabric> TopoParser::parse(std::string_view text) {
  int line = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    if (Status status = read_line(text.substr(start, end - start), ++line); !status.ok()) return status;
    start = end + 1;
  }
  for (const TopoLine& entry : lines_) {
    if (Status status = place(entry.type, entry.name, entry.line); !status.ok()) return status;
    if (!entry.is_cable) continue;
    if (Status status = place(entry.peer_type, entry.peer, entry.line); !status.ok()) return status;
    if (Status status = cable(entry); !status.ok()) return status;
  }
  assign_name_guids(fabric_);
  return std::move(fabric_);
}

Status TopoParser::read_line(std::string_view text, int line) {
  const std::vector<std::string_view> words = split_words(text);
  if (words.empty()) {
    block_.reset();  // a blank line ends a block
    return Status::Ok();
  }
  if (words[0].starts_with('#')) return Status::Ok();
  if (words.size() >= 2 && words[1].starts_with('-')) return read_cable_line(words, line);
  return read_system_line(text, words, line);
}

// `TYPE NAME` or `TYPE NAME CFG: leaf1=R,spine2=12x`.
Status TopoParser::read_system_line(std::string_view text, const std::vector<std::string_view>& words, int line) {
  if (words.size() < 2 || (words.size() > 2 && !words[2].starts_with("CFG:")))
    return error(line,
                 "expected a system line TYPE NAME [CFG: board=modifier,...] or a cable line "
                 "PORT -> TYPE NAME PORT");
  for (std::string_view word : {words[0], words[1]})
    if (word.find('/') != std::string_view::npos)
      return error(line, fmt::format("\"{}\": system types and names have no '/' (it separates a system's boards "
                                     "in node names)",
                                     word));
  Declaration declaration{std::string(words[0]), {}, line};
  if (words.size() > 2) {
    const std::string_view cfg = text.substr(words[2].data() - text.data() + 4);  // words point into text
    for (size_t start = 0; start <= cfg.size();) {
      const size_t comma = std::min(cfg.find(',', start), cfg.size());
      const std::vector<std::string_view> item = split_words(cfg.substr(start, comma - start));
      start = comma + 1;
      if (item.empty()) continue;
      const size_t equals = item[0].find('=');
      if (item.size() != 1 || equals == 0 || equals == std::string_view::npos || equals + 1 == item[0].size())
        return error(line, fmt::format("expected board=modifier in CFG, got \"{}\"",
                                       excerpt(fmt::format("{}", fmt::join(item, " ")))));
      const std::string board(item[0].substr(0, equals));
      if (!declaration.modifiers.emplace(board, item[0].substr(equals + 1)).second)
        return error(line, fmt::format("CFG configures board {} twice", board));
    }
  }
  const std::string name(words[1]);
  if (auto [it, added] = declared_.emplace(name, declaration); !added) {
    const Declaration& first = it->second;
    if (first.type != declaration.type || first.modifiers != declaration.modifiers)
      return error(line, fmt::format("system {} is declared again with another type or CFG (first at line {})", name,
                                     first.line));
  }
  block_ = lines_.size();
  TopoLine& system = lines_.emplace_back();
  system.line = line;
  system.type = declaration.type;
  system.name = name;
  return Status::Ok();
}

// `PORT -[w[-s]]-> TYPE NAME PORT`
Status TopoParser::read_cable_line(const std::vector<std::string_view>& words, int line) {
  if (!block_) return error(line, "cable line outside a system block; expected a system line TYPE NAME before it");
  std::optional<LinkRate> rate = parse_link_arrow(words[1]);
  if (!rate) return error(line, bad_arrow_message(words[0], words[1]));
  if (words.size() != 5) return error(line, fmt::format("expected {} {} TYPE NAME PORT", words[0], words[1]));
  const TopoLine& system = lines_[*block_];
  lines_.push_back(TopoLine{.line = line,
                            .type = system.type,
                            .name = system.name,
                            .is_cable = true,
                            .port = std::string(words[0]),
                            .rate = *rate,
                            .peer_type = std::string(words[2]),
                            .peer = std::string(words[3]),
                            .peer_port = std::string(words[4])});
  return Status::Ok();
}

// Builds the system at its first mention; later mentions must agree on its type.
Status TopoParser::place(const std::string& type, const std::string& name, int line) {
  if (auto it = placed_.find(name); it != placed_.end()) {
    if (it->second.type == type) return Status::Ok();
    return error(
        line, fmt::format("system {} is a {} here but a {} at line {}", name, type, it->second.type, it->second.line));
  }
  Result<const IbnlFile*> file = library_.find(type);
  if (!file.ok())
    return Status::Error(fmt::format("{} (the definition of {}, {}:{})", file.status().message(), type, source_, line));
  if (!*file)
    return error(line, fmt::format("unknown system type {}: no .ibnl file in {} has a TOPSYSTEM line naming it", type,
                                   dirs_.empty() ? "(no directories)" : fmt::format("{}", fmt::join(dirs_, ", "))));
  auto declared = declared_.find(name);
  const Declaration none{type, {}, line};
  const Declaration& declaration = declared == declared_.end() ? none : declared->second;
  Result<BuiltSystem> built = build_system(fabric_, cables_, **file, name, declaration.modifiers,
                                           fmt::format("{}:{}", source_, declaration.line));
  if (!built.ok()) return built.status();
  placed_.emplace(name, Placed{type, *file, std::move(*built), line});
  return Status::Ok();
}

Result<PortRef> TopoParser::port_of(const std::string& system, const std::string& port, int line) const {
  const Placed& placed = placed_.at(system);
  if (auto it = placed.built.ports.find(port); it != placed.built.ports.end()) return it->second;
  if (auto it = placed.built.removed.find(port); it != placed.built.removed.end())
    return error(line, fmt::format("port {} of {} is on board {}, which its CFG removes (line {})", port, system,
                                   it->second, declared_.at(system).line));
  return error(line, fmt::format("{} ({}, {}) has no port {}", system, placed.type, placed.file->path, port));
}

Status TopoParser::cable(const TopoLine& cable) {
  Result<PortRef> a = port_of(cable.name, cable.port, cable.line);
  if (!a.ok()) return a.status();
  Result<PortRef> b = port_of(cable.peer, cable.peer_port, cable.line);
  if (!b.ok()) return b.status();
  return cables_.connect(fabric_, *a, *b, cable.rate, fmt::format("{}:{}", source_, cable.line),
                         fmt::format("cable {} {} -> {} {}", cable.name, cable.port, cable.peer, cable.peer_port));
}

}  // namespace

Result<Fabric> parse_topo_file(std::string_view text, std::string_view source,
                               const std::vector<std::string>& ibnl_dirs) {
  return TopoParser(source, ibnl_dirs).parse(text);
}

Result<Fabric> read_topo_file(const std::string& path, const std::vector<std::string>& ibnl_dirs) {
  Result<std::string> text = read_file(path);
  if (!text.ok()) return text.status();
  return parse_topo_file(*text, path, ibnl_dirs);
}

}  // namespace ftclos
