#include "core/link_rate.h"

#include <array>
#include <charconv>

namespace ftclos {
namespace {

struct SpeedName {
  LinkSpeed speed;
  std::string_view name;
  double lane_gbps;  // data rate after line encoding
};

// FDR10 before FDR so that the longer name is tried first.
constexpr std::array<SpeedName, 9> kSpeeds = {{
    {LinkSpeed::kSdr, "SDR", 2.0},
    {LinkSpeed::kDdr, "DDR", 4.0},
    {LinkSpeed::kQdr, "QDR", 8.0},
    {LinkSpeed::kFdr10, "FDR10", 10.0},
    {LinkSpeed::kFdr, "FDR", 13.64},
    {LinkSpeed::kEdr, "EDR", 25.0},
    {LinkSpeed::kHdr, "HDR", 50.0},
    {LinkSpeed::kNdr, "NDR", 100.0},
    {LinkSpeed::kXdr, "XDR", 200.0},
}};

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  return true;
}

}  // namespace

double LinkRate::gbps() const {
  for (const SpeedName& entry : kSpeeds)
    if (entry.speed == speed) return lanes * entry.lane_gbps;
  return 0;
}

std::optional<LinkRate> parse_link_rate(std::string_view token) {
  unsigned lanes = 0;
  auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), lanes);
  if (error != std::errc() || end == token.data() || end == token.data() + token.size()) return std::nullopt;
  if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 12) return std::nullopt;
  if ((*end | 0x20) != 'x') return std::nullopt;
  std::string_view speed_name = token.substr(end + 1 - token.data());
  for (const SpeedName& entry : kSpeeds)
    if (equal_ignoring_case(speed_name, entry.name)) return LinkRate{static_cast<uint8_t>(lanes), entry.speed};
  return std::nullopt;
}

std::string format_link_rate(LinkRate rate) {
  if (!rate.known()) return "";
  for (const SpeedName& entry : kSpeeds)
    if (entry.speed == rate.speed) return std::to_string(rate.lanes) + "x" + std::string(entry.name);
  return "";
}

}  // namespace ftclos
