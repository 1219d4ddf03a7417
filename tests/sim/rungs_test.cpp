#include "gemmlab/rungs.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace gemmlab {
namespace {

TEST(Rungs, NumberedInLadderOrderFromOne) {
  int expected = 1;
  for (const auto& rung : rungs()) EXPECT_EQ(rung.number, expected++) << rung.slug;
}

TEST(Rungs, SlugsAreUniqueLowercaseWords) {
  std::set<std::string_view> seen;
  for (const auto& rung : rungs()) {
    EXPECT_TRUE(seen.insert(rung.slug).second) << "duplicate slug " << rung.slug;
    ASSERT_FALSE(rung.slug.empty());
    for (char c : rung.slug)
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << rung.slug;
    EXPECT_NE(rung.slug.front(), '-');
    EXPECT_NE(rung.slug.back(), '-');
  }
}

TEST(Rungs, EveryRungHasTitleAndChange) {
  for (const auto& rung : rungs()) {
    EXPECT_FALSE(rung.title.empty()) << rung.slug;
    EXPECT_FALSE(rung.change.empty()) << rung.slug;
  }
}

TEST(Rungs, FindBySlugRoundTrips) {
  for (const auto& rung : rungs()) {
    const auto found = find_rung(rung.slug);
    ASSERT_TRUE(found.has_value()) << rung.slug;
    EXPECT_EQ(*found, rung.id);
    EXPECT_EQ(rung_info(*found).slug, rung.slug);
  }
}

TEST(Rungs, UnknownSlugIsNotFound) {
  EXPECT_FALSE(find_rung("").has_value());
  EXPECT_FALSE(find_rung("no-such-rung").has_value());
  EXPECT_FALSE(find_rung("Naive-Coalesced").has_value());  // slugs are exact
}

// The ladder number finds the same rung as its slug (as `bench --rungs 9` always did, now `sim --rung 9` too);
// anything but plain digits in range is not a number.
TEST(Rungs, FindByLadderNumber) {
  for (const auto& rung : rungs()) EXPECT_EQ(find_rung(std::to_string(rung.number)), rung.id) << rung.slug;
  const auto last = std::to_string(rungs().size());
  EXPECT_EQ(find_rung("9"), find_rung("warptile"));
  for (const std::string& bad : std::vector<std::string>{"0", "-1", "+9", " 9", "9 ", "09", "9x",
                                                         std::to_string(rungs().size() + 1), "99999999999"})
    EXPECT_FALSE(find_rung(bad).has_value()) << bad;
  EXPECT_TRUE(find_rung(last).has_value());
}

TEST(Rungs, LadderStartsWithTheFp32Ladder) {
  ASSERT_GE(rungs().size(), 10u);
  EXPECT_EQ(rungs().front().slug, "naive-uncoalesced");
  EXPECT_EQ(rungs()[9].slug, "smem-epilogue");
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(rungs()[i].precision, Precision::FP32);
}

}  // namespace
}  // namespace gemmlab
