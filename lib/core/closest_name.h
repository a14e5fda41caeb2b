// "Did you mean ...?" for a mistyped name: a scheme, a subcommand.
#pragma once

#include <span>
#include <string_view>

namespace ftclos {

/// The name of `known` closest to `name` by edit distance (Levenshtein),
/// when at most `max_distance` edits away; else empty.
std::string_view closest_name(std::string_view name, std::span<const std::string_view> known, int max_distance = 2);

}  // namespace ftclos
