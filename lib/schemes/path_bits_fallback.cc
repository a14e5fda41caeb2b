#include "schemes/path_bits_fallback.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace ftclos {

double offset_zero_measure(const RoutingInput& input, Routing& routing) {
  std::vector<int> own = std::exchange(routing.path_bits, std::vector<int>(routing.path_bits.size(), 0));
  const double worst = (*input.worst_case)(input, routing);
  routing.path_bits = std::move(own);
  return worst;
}

void fall_back_to_offset_zero(const RoutingInput& input, Routing& routing) {
  if (!input.worst_case || input.lids.lmc == 0 || std::ranges::all_of(routing.path_bits, [](int b) { return b == 0; }))
    return;
  const double on_path_bits = (*input.worst_case)(input, routing);
  const double on_offset_zero = offset_zero_measure(input, routing);
  if (on_path_bits <= on_offset_zero) return;
  std::ranges::fill(routing.path_bits, 0);
  routing.notes.push_back(fmt::format(
      "path bits 0 for every host: on the scheme's path bits the worst-case contention is {:g}, on offset 0 {:g}",
      on_path_bits, on_offset_zero));
}

}  // namespace ftclos
