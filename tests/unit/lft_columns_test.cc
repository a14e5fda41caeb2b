// The LFTs turned into columns by LID (audit/audit_walk.h): every cell is the
// table's entry, kNoPath where a switch's table ends before the LID (or the
// switch has none), whatever the sizes and however many threads copy.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "audit/audit_walk.h"
#include "core/workers.h"

namespace ftclos {
namespace {

TEST(LftColumns, EveryCellIsItsTablesEntryOrNoPathBeyondIt) {
  // 75 switches (not a multiple of 8 or 64) and one CA between them; tables
  // of 203 LIDs, some shorter (ending inside and outside a block of 8), one
  // switch without a table.
  Fabric fabric;
  for (int i = 0; i < 76; ++i)
    ASSERT_TRUE(fabric.add_node(i == 40 ? NodeType::kCa : NodeType::kSwitch, "n" + std::to_string(i), 4).ok());
  std::mt19937 random(5);
  Lfts lfts;
  lfts.port.resize(75);  // node 75 has none
  for (int i = 0; i < 75; ++i) {
    if (i == 40) continue;
    const int size = i % 7 == 0 ? 203 - 3 * i : 203;
    for (int lid = 0; lid < size; ++lid) lfts.port[i].push_back(static_cast<uint8_t>(random() % 40));
  }
  for (const int workers : {1, 3}) {
    set_max_workers(workers);
    const LftColumns columns(fabric, lfts);
    ASSERT_EQ(columns.lids(), 203);
    ASSERT_EQ(columns.switches().size(), 75u);
    for (int lid = 0; lid < columns.lids(); ++lid)
      for (size_t k = 0; k < columns.switches().size(); ++k) {
        const int node = columns.switches()[k];
        const bool has = node < static_cast<int>(lfts.port.size()) && lid < static_cast<int>(lfts.port[node].size());
        ASSERT_EQ(columns.column(lid)[k], has ? lfts.port[node][lid] : kNoPath)
            << "LID " << lid << " switch " << node << ", " << workers << " threads";
      }
  }
  set_max_workers(0);
}

}  // namespace
}  // namespace ftclos
