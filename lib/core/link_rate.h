// The width and speed a cable runs at, as ibnetdiscover prints them at the
// end of a port line ("4xEDR") and ibsim reads them back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ftclos {

/// InfiniBand lane signalling rates, slowest first.
enum class LinkSpeed : uint8_t { kUnknown, kSdr, kDdr, kQdr, kFdr10, kFdr, kEdr, kHdr, kNdr, kXdr };

struct LinkRate {
  uint8_t lanes = 0;  // 1, 2, 4, 8 or 12; 0 when unknown
  LinkSpeed speed = LinkSpeed::kUnknown;

  bool known() const { return lanes != 0 && speed != LinkSpeed::kUnknown; }
  /// Data rate in Gb/s (lanes times the lane's data rate); 0 when unknown.
  double gbps() const;
  bool operator==(const LinkRate&) const = default;
};

/// "4xEDR", "12xQDR", "1xSDR" (case-insensitive "x" and speed); nullopt otherwise.
std::optional<LinkRate> parse_link_rate(std::string_view token);
/// "4xEDR"; "" when unknown.
std::string format_link_rate(LinkRate rate);

}  // namespace ftclos
