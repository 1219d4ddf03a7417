// gemmlab/comma_items.hpp: a comma-separated flag's items.
#include "gemmlab/comma_items.hpp"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace gemmlab {
namespace {

using Items = std::vector<std::string_view>;

TEST(CommaItems, KeepsEveryItemBetweenCommasInOrder) {
  EXPECT_EQ(comma_items("17"), Items{"17"});
  EXPECT_EQ(comma_items("preferred,groupm:8"), (Items{"preferred", "groupm:8"}));
  EXPECT_EQ(comma_items("a, b"), (Items{"a", " b"}));  // not trimmed
}

TEST(CommaItems, EmptyItemsAreKeptForTheReaderToRefuse) {
  EXPECT_EQ(comma_items(""), Items{""});
  EXPECT_EQ(comma_items("1,"), (Items{"1", ""}));
  EXPECT_EQ(comma_items(",,"), (Items{"", "", ""}));
}

}  // namespace
}  // namespace gemmlab
