#include "detect/rails.h"

#include <set>
#include <string>
#include <string_view>

namespace ftclos {
namespace {

// "mlx5_3" from "dgx0412 mlx5_3"; empty when the description ends otherwise.
std::string_view hca_name(const Node& node) {
  const std::string& text = node.display_name();
  const size_t space = text.rfind(' ');
  const std::string_view last = std::string_view(text).substr(space == std::string::npos ? 0 : space + 1);
  if (!last.starts_with("mlx5_") || last.size() == 5) return {};
  return last.find_first_not_of("0123456789", 5) == std::string_view::npos ? last : std::string_view{};
}

}  // namespace

int named_rails(const Fabric& fabric, const Levels& levels) {
  std::set<std::string_view> rails;
  for (int x = 0; x < fabric.size(); ++x) {
    if (!fabric.node(x).is_switch() || levels.of[x] != 1) continue;
    std::set<std::string_view> here;
    for (const Port& port : fabric.node(x).ports) {
      if (!port.peer.valid() || fabric.node(port.peer.node).is_switch() || levels.is_io_host(port.peer.node)) continue;
      here.insert(hca_name(fabric.node(port.peer.node)));
    }
    if (here.empty()) continue;
    if (here.size() > 1 || here.begin()->empty()) return 0;
    rails.insert(*here.begin());
  }
  return static_cast<int>(rails.size());
}

}  // namespace ftclos
