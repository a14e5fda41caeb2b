#include "core/ibnl_build.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <set>
#include <vector>

namespace ftclos {
namespace {

// Boards on boards nest a few levels; deeper is a SYSTEM that contains itself.
constexpr int kMaxDepth = 16;

bool removes(const std::string& modifier) { return modifier == "R" || modifier == "X" || modifier == "Removed"; }

// A node's port in a link; parse_ibnl checked that it is a number in range.
int port_number(std::string_view word) {
  int value = 0;
  std::from_chars(word.data(), word.data() + word.size(), value);
  return value;
}

/// Where an instance port leads: a node port, or nowhere (a dropped board,
/// named, or a port the chosen variant does not expose).
struct Reach {
  PortRef port;
  std::string dropped_board;
};

class Builder {
 public:
  Builder(Fabric& fabric, CableLog& cables, const IbnlFile& file, const std::string& name,
          const BoardModifiers& modifiers, const std::string& where)
      : fabric_(fabric), cables_(cables), file_(file), name_(name), modifiers_(modifiers), where_(where) {}

  Result<BuiltSystem> build();

 private:
  Status collect(const IbnlSystem& board, const std::string& path, int depth);
  Result<const IbnlSystem*> variant(const IbnlInstance& board, const std::string& path);
  Status check_modifiers_used() const;
  Status add_nodes();
  Status add_links();
  Reach reach(const IbnlSystem& board, const std::string& path, const IbnlEnd& end) const;

  struct Placed {
    const IbnlSystem* board;
    std::string path;  // "" for the system itself, "leaf1/" for a board
  };
  struct PendingNode {
    std::string path;  // "leaf1/U1"
    const IbnlInstance* node;
  };

  Fabric& fabric_;
  CableLog& cables_;
  const IbnlFile& file_;
  const std::string& name_;
  const BoardModifiers& modifiers_;
  const std::string& where_;
  std::vector<Placed> boards_;
  std::vector<PendingNode> nodes_;
  std::map<std::string, const IbnlSystem*> board_at_;  // by path "leaf1"; null when dropped
  std::map<std::string, int> node_at_;                 // by path "leaf1/U1": fabric index
  std::set<std::string> used_modifiers_;
};

Result<BuiltSystem> Builder::build() {
  if (Status status = collect(file_.top, "", 0); !status.ok()) return status;
  if (Status status = check_modifiers_used(); !status.ok()) return status;
  if (Status status = add_nodes(); !status.ok()) return status;
  if (Status status = add_links(); !status.ok()) return status;
  BuiltSystem built;
  for (const IbnlSystemPort& port : file_.top.ports) {
    Reach reached = reach(file_.top, "", port.inner);
    if (reached.port.valid()) built.ports.emplace(port.name, reached.port);
    if (!reached.dropped_board.empty()) built.removed.emplace(port.name, reached.dropped_board);
  }
  return built;
}

// Every board present and every node on them, depth first in file order.
Status Builder::collect(const IbnlSystem& board, const std::string& path, int depth) {
  if (depth > kMaxDepth)
    return Status::Error(fmt::format("{}:{}: sub-systems nest deeper than {} at {}; expected no SYSTEM that "
                                     "contains itself",
                                     file_.path, board.line, kMaxDepth, path));
  boards_.push_back({&board, path});
  for (const IbnlInstance& instance : board.instances) {
    const std::string instance_path = path + instance.name;
    if (instance.is_node) {
      nodes_.push_back({instance_path, &instance});
      continue;
    }
    Result<const IbnlSystem*> chosen = variant(instance, instance_path);
    if (!chosen.ok()) return chosen.status();
    board_at_.emplace(instance_path, *chosen);
    if (*chosen)
      if (Status status = collect(**chosen, instance_path + "/", depth + 1); !status.ok()) return status;
  }
  return Status::Ok();
}

// The board's SYSTEM after the modifier for `path`; null when it is dropped.
Result<const IbnlSystem*> Builder::variant(const IbnlInstance& board, const std::string& path) {
  auto modifier = modifiers_.find(path);
  if (modifier == modifiers_.end()) return file_.system(board.master);
  used_modifiers_.insert(path);
  if (removes(modifier->second)) return nullptr;
  if (const IbnlSystem* chosen = file_.system(board.master + ":" + modifier->second)) return chosen;
  return Status::Error(fmt::format("{}: CFG {}={}: {} has no SYSTEM {}:{}; expected R, X, Removed or a variant of {}",
                                   where_, path, modifier->second, file_.path, board.master, modifier->second,
                                   board.master));
}

Status Builder::check_modifiers_used() const {
  for (const auto& [path, modifier] : modifiers_) {
    if (used_modifiers_.contains(path)) continue;
    std::vector<std::string> boards;
    for (const auto& [board, system] : board_at_) boards.push_back(board);
    return Status::Error(fmt::format("{}: CFG {}={}: {} has no board {}; expected one of: {}", where_, path, modifier,
                                     file_.top.names[0], path,
                                     boards.empty() ? "(none)" : fmt::format("{}", fmt::join(boards, ", "))));
  }
  return Status::Ok();
}

Status Builder::add_nodes() {
  for (const PendingNode& pending : nodes_) {
    const std::string node_name = nodes_.size() == 1 ? name_ : name_ + "/" + pending.path;
    Result<int> index = fabric_.add_node(pending.node->type, node_name, pending.node->num_ports);
    if (!index.ok()) return Status::Error(fmt::format("{}: {}", where_, index.status().message()));
    node_at_.emplace(pending.path, *index);
  }
  return Status::Ok();
}

Status Builder::add_links() {
  for (const Placed& placed : boards_) {
    for (const IbnlInstance& instance : placed.board->instances) {
      for (const IbnlLink& link : instance.links) {
        const Reach a = reach(*placed.board, placed.path, {instance.name, link.port});
        const Reach b = reach(*placed.board, placed.path, link.peer);
        if (!a.port.valid() || !b.port.valid()) continue;
        const std::string what = fmt::format("link {}{} {} -> {}{} {} of \"{}\"", placed.path, instance.name, link.port,
                                             placed.path, link.peer.instance, link.peer.port, name_);
        Status status =
            cables_.connect(fabric_, a.port, b.port, link.rate, fmt::format("{}:{}", file_.path, link.line), what);
        if (!status.ok()) return status;
      }
    }
  }
  return Status::Ok();
}

Reach Builder::reach(const IbnlSystem& board, const std::string& path, const IbnlEnd& end) const {
  const IbnlInstance& instance = *board.instance(end.instance);  // parse_ibnl checked that it exists
  const std::string instance_path = path + instance.name;
  if (instance.is_node) return {{node_at_.at(instance_path), port_number(end.port)}, ""};
  const IbnlSystem* chosen = board_at_.at(instance_path);
  if (!chosen) return {{}, instance_path};
  const IbnlSystemPort* port = chosen->port(end.port);
  if (!port) return {};
  return reach(*chosen, instance_path + "/", port->inner);
}

}  // namespace

Status CableLog::connect(Fabric& fabric, PortRef a, PortRef b, LinkRate rate, const std::string& where,
                         std::string_view what) {
  for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
    const PortRef current = fabric.peer(from);
    if (current.valid() && current != to)
      return Status::Error(fmt::format("{}: {}: port {} of \"{}\" is already cabled to \"{}\"[{}] at {}", where, what,
                                       from.port, fabric.node(from.node).name, fabric.node(current.node).name,
                                       current.port, where_[from]));
  }
  if (Status status = fabric.connect(a, b); !status.ok())
    return Status::Error(fmt::format("{}: {}: {}", where, what, status.message()));
  for (PortRef end : {a, b}) {
    Port& port = fabric.port(end);
    if (!port.rate.known() || rate.gbps() < port.rate.gbps()) port.rate = rate;
    where_.emplace(end, where);
  }
  return Status::Ok();
}

Result<BuiltSystem> build_system(Fabric& fabric, CableLog& cables, const IbnlFile& file, const std::string& name,
                                 const BoardModifiers& modifiers, const std::string& where) {
  return Builder(fabric, cables, file, name, modifiers, where).build();
}

}  // namespace ftclos
