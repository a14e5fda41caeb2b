// The scheme table: one entry per routing scheme, the only place a scheme is
// named. `auto`, make_scheme/scheme_names (route/routing.h), `ftclos
// schemes`, the CLI's --scheme help and the plugin's scheme= check read it.
// Adding a scheme: its file schemes/scheme_<name>.cc, its factory in
// schemes/schemes.h, one entry here, and the file in lib/meson.build.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "detect/detect.h"
#include "route/routing.h"

namespace ftclos {

struct SchemeEntry {
  std::string_view name;
  std::string_view fabrics;    // the families it routes, for people (Scheme::applies decides)
  std::string_view lmc;        // the LMC it needs, for people (Scheme::lmc_needed computes it)
  std::string_view path_bits;  // p(s), the path bits a source sends with
  std::string_view guarantee;  // what its tables promise
  /// `auto` tries the schemes with a preference in increasing order (0: auto
  /// never picks it) and takes the first that applies, fits the LMC and routes.
  int auto_preference = 0;
  /// Where auto passes it over although it routes (nullptr: never), and
  /// where it does try it, for people.
  bool (*auto_skips)(const Detection& detection) = nullptr;
  std::string_view auto_tries_where = {};
  /// The schemes whose tables this one challenges (empty: none): where auto
  /// chose one of them, it routes this one too and keeps whichever has the
  /// lower worst-case contention (RoutingInput::worst_case; without it, the
  /// challenger is not tried).
  std::array<std::string_view, 2> auto_challenges = {};
  bool challenges(std::string_view scheme) const { return std::ranges::find(auto_challenges, scheme) != auto_challenges.end(); }
  std::unique_ptr<Scheme> (*make)() = nullptr;
};

/// Every scheme, in the order `ftclos schemes` lists them.
std::span<const SchemeEntry> scheme_table();

/// The entry named `name`, or nullptr.
const SchemeEntry* find_scheme(std::string_view name);

/// When `auto` tries the scheme: "1st", "2nd, where m >= n^2", ...; "no"
/// where it never does, "-" for auto itself.
std::string auto_order(const SchemeEntry& entry);

/// The table as README.md shows it (`ftclos schemes --markdown`).
std::string scheme_table_markdown();

}  // namespace ftclos
