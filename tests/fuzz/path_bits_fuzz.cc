// libFuzzer target: the path-bits reader against a fixed FT(4,2). The first
// byte picks the LMC (0-7); every value accepted must fit it.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "audit/lft_parse.h"
#include "gen/generate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return -1;
  static const ftclos::Fabric fabric = *ftclos::generate_ftree(4, 2);
  const int lmc = data[0] % 8;
  const ftclos::TextFile file{"fuzz.pathbits", std::string(reinterpret_cast<const char*>(data + 1), size - 1)};
  ftclos::Result<std::vector<int>> bits = ftclos::parse_path_bits(fabric, lmc, file);
  if (!bits.ok()) return 0;
  if (static_cast<int>(bits->size()) != fabric.size()) std::abort();
  for (const int value : *bits)
    if (value < 0 || value >= (1 << lmc)) std::abort();
  return 0;
}
