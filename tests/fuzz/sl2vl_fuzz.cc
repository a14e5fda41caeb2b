// libFuzzer target: the SL2VL reader (smpquery output and OpenSM's
// opensm-sl2vl.dump) against a fixed FT(4,2) on ftclos's LIDs; every row
// accepted belongs to a switch, names ports it has and maps SLs to VLs 0..15.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "audit/sl2vl_file.h"
#include "gen/generate.h"
#include "route/lid_map.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ftclos::Fabric fabric = *ftclos::generate_ftree(4, 2);
  static const ftclos::LidMap lids = *ftclos::assign_lids(fabric, 0);
  const ftclos::TextFile file{"fuzz.sl2vl", std::string(reinterpret_cast<const char*>(data), size)};
  const ftclos::Result<ftclos::Sl2VlTables> tables = ftclos::parse_sl2vl_file(fabric, lids, file);
  if (!tables.ok()) return 0;
  for (int x = 0; x < fabric.size(); ++x)
    for (int out = 0; out < 16; ++out)  // FT(4,2)'s switches have 4 ports: room for a parser's slip
      for (int in = 0; in < 16; ++in) {
        const ftclos::Sl2VlTables::Row* row = tables->find(x, in, out);
        if (row == nullptr) continue;
        if (!fabric.node(x).is_switch() || in > fabric.node(x).num_ports || out > fabric.node(x).num_ports) std::abort();
        for (const uint8_t vl : *row)
          if (vl > 15) std::abort();
      }
  return 0;
}
