#include "core/name_guids.h"

#include <string_view>
#include <unordered_set>

namespace ftclos {
namespace {

// FNV-1a: a name's GUID must not change between runs, builds or machines.
uint64_t name_hash(std::string_view name) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : name) hash = (hash ^ static_cast<uint8_t>(c)) * 0x100000001b3ULL;
  return hash;
}

}  // namespace

void assign_name_guids(Fabric& fabric) {
  std::unordered_set<uint64_t> in_use;
  for (const Node& node : fabric.nodes()) {
    // Whole blocks of 0x100: a derived CA's port p is its GUID + p.
    if (node.guid != 0) in_use.insert(node.guid & ~uint64_t{0xff});
    for (const Port& port : node.ports)
      if (port.guid != 0) in_use.insert(port.guid & ~uint64_t{0xff});
  }
  for (int i = 0; i < fabric.size(); ++i) {
    Node& node = fabric.node(i);
    if (node.guid != 0) continue;
    uint64_t guid = 0x0200000000000000ULL | (name_hash(node.name) & 0x00ffffffffffff00ULL);
    while (!in_use.insert(guid).second) guid += 0x100;  // a hash collision: the next free one
    node.guid = guid;
    if (node.is_switch()) node.ports[0].guid = guid;
  }
}

}  // namespace ftclos
