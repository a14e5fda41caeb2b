#include "core/link_rate.h"

#include <gtest/gtest.h>

namespace ftclos {
namespace {

TEST(LinkRate, ParsesWhatIbnetdiscoverPrints) {
  EXPECT_EQ(parse_link_rate("4xEDR"), (LinkRate{4, LinkSpeed::kEdr}));
  EXPECT_EQ(parse_link_rate("12xQDR"), (LinkRate{12, LinkSpeed::kQdr}));
  EXPECT_EQ(parse_link_rate("4xFDR10"), (LinkRate{4, LinkSpeed::kFdr10}));
  EXPECT_EQ(parse_link_rate("4xFDR"), (LinkRate{4, LinkSpeed::kFdr}));
  EXPECT_EQ(parse_link_rate("2XndR"), (LinkRate{2, LinkSpeed::kNdr}));
}

TEST(LinkRate, RejectsWhatIsNoRate) {
  for (const char* token : {"", "4x", "xEDR", "3xEDR", "4xEDRR", "4EDR", "lmc", "0x1234", "-4xEDR", "4xFDR1"})
    EXPECT_FALSE(parse_link_rate(token)) << token;
}

TEST(LinkRate, FormatsAndRanks) {
  EXPECT_EQ(format_link_rate({4, LinkSpeed::kHdr}), "4xHDR");
  EXPECT_EQ(format_link_rate({}), "");
  EXPECT_LT((LinkRate{4, LinkSpeed::kDdr}).gbps(), (LinkRate{4, LinkSpeed::kEdr}).gbps());
  EXPECT_LT((LinkRate{1, LinkSpeed::kEdr}).gbps(), (LinkRate{4, LinkSpeed::kEdr}).gbps());
  EXPECT_LT((LinkRate{4, LinkSpeed::kFdr10}).gbps(), (LinkRate{4, LinkSpeed::kFdr}).gbps());
  EXPECT_EQ(LinkRate().gbps(), 0);
}

}  // namespace
}  // namespace ftclos
