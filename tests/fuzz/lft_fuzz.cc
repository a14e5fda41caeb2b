// libFuzzer target: the LFT readers (opensm-lfts.dump, ibroute, dump_lfts)
// and the LID files (guid2lid, opensm-subnet.lst) against a fixed FT(4,2)
// whose GUIDs the seed corpus uses. The input is the LFT text, then
// optionally a NUL byte and the LID file. Whatever is accepted must be a
// table the auditor can index: every entry a port of its switch or no path,
// every LID's owner inside the map.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "audit/lft_parse.h"
#include "gen/generate.h"

namespace {

const ftclos::Fabric& topology() {
  static const ftclos::Fabric fabric = *ftclos::generate_ftree(4, 2);
  return fabric;
}

void check(const ftclos::Fabric& fabric, const ftclos::LftRead& read) {
  if (static_cast<int>(read.lids.owner.size()) != read.lids.max_lid + 1) std::abort();
  for (int owner : read.lids.owner)
    if (owner < -1 || owner >= fabric.size()) std::abort();
  for (int node = 0; node < fabric.size(); ++node)
    for (const uint8_t port : read.lfts.port[node])
      if (port != ftclos::kNoPath && port > fabric.node(node).num_ports) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t split = input.find('\0');
  const ftclos::TextFile lfts{"fuzz.dump", input.substr(0, split)};
  const ftclos::TextFile lid_file{"fuzz.guid2lid", split == std::string::npos ? "" : input.substr(split + 1)};
  const ftclos::Fabric& fabric = topology();
  ftclos::Result<ftclos::LftRead> read =
      ftclos::parse_lfts(fabric, {lfts}, split == std::string::npos ? nullptr : &lid_file);
  if (read.ok()) check(fabric, *read);
  return 0;
}
