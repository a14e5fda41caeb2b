// libFuzzer target: the opensm.mcfdbs reader against a fixed FT(4,2); every
// group accepted has one port list per node, each port on its switch, and
// the multicast check runs on it.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "audit/mcast_check.h"
#include "audit/mcfdbs_parse.h"
#include "gen/generate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ftclos::Fabric fabric = *ftclos::generate_ftree(4, 2);
  const ftclos::TextFile file{"fuzz.mcfdbs", std::string(reinterpret_cast<const char*>(data), size)};
  const ftclos::Result<std::vector<ftclos::McastForwarding>> groups = ftclos::parse_mcfdbs(fabric, file);
  if (!groups.ok()) return 0;
  for (const ftclos::McastForwarding& group : *groups) {
    if (static_cast<int>(group.ports.size()) != fabric.size() || group.mlid < 0xC000) std::abort();
    for (int x = 0; x < fabric.size(); ++x)
      for (const uint8_t port : group.ports[x])
        if (!fabric.node(x).is_switch() || port > fabric.node(x).num_ports) std::abort();
  }
  const ftclos::McastCheck check = ftclos::check_multicast(fabric, *groups);
  if (check.unreached > check.pairs) std::abort();
  return 0;
}
