// gemmlab/listed.hpp: items joined for a sentence.
#include "gemmlab/listed.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gemmlab {
namespace {

const auto as_text = [](int n) { return std::to_string(n); };

TEST(Listed, JoinsWithCommasAndALastAnd) {
  EXPECT_EQ(listed(std::vector<int>{}, as_text), "");
  EXPECT_EQ(listed(std::vector<int>{21}, as_text), "21");
  EXPECT_EQ(listed(std::vector<int>{21, 23}, as_text), "21 and 23");
  EXPECT_EQ(listed(std::vector<int>{21, 23, 24}, as_text), "21, 23 and 24");
}

}  // namespace
}  // namespace gemmlab
