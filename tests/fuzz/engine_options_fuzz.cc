// libFuzzer target: the plugin's option parser (what event_plugin_options
// carries into OpenSM's process). Whatever it accepts names a scheme of the
// table.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/engine_options.h"
#include "schemes/scheme_registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ftclos::Result<ftclos::EngineOptions> options = ftclos::parse_engine_options(text);
  if (options.ok() && ftclos::find_scheme(options->scheme) == nullptr) std::abort();
  return 0;
}
