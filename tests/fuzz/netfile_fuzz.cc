// libFuzzer target: the net-file parser. Whatever it accepts must write back
// to text that parses to the same text again (write_netfile's promise), and
// nothing may crash or read out of bounds on the way.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/netfile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // `include` reads other files: /dev/zero or a FIFO would hang the fuzzer, not the parser.
  if (text.find("include") != std::string_view::npos) return -1;
  ftclos::Result<ftclos::Fabric> fabric = ftclos::parse_netfile(text, "fuzz.net");
  if (!fabric.ok()) return 0;
  const std::string written = ftclos::write_netfile(*fabric);
  ftclos::Result<ftclos::Fabric> reread = ftclos::parse_netfile(written, "written.net");
  if (!reread.ok() || ftclos::write_netfile(*reread) != written) std::abort();
  return 0;
}
