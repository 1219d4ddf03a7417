// JSON from outside gemmlab: nesting is bounded before parsing, and errors quote a bounded excerpt.
#include "gemmlab/json_input.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gemmlab {
namespace {

TEST(JsonInput, NestingDeeperThanTheLimitIsRefusedBeforeParsing) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const auto r = parse_json_input(deep);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("nested more than 64 deep (at byte 65)"), std::string::npos) << r.error().message;
  EXPECT_TRUE(parse_json_input(std::string(64, '[') + std::string(64, ']')).ok());
}

TEST(JsonInput, BracketsInsideStringsDoNotCount) {
  const auto r = parse_json_input("{\"text\": \"" + std::string(1000, '[') + "\\\"\"}");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)["text"].get<std::string>().size(), 1001u);
}

TEST(JsonInput, MalformedTextSaysSo) {
  const auto r = parse_json_input("{\"a\": ");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("not valid JSON"), std::string::npos);
}

TEST(JsonInput, AnExcerptIsBounded) {
  EXPECT_EQ(json_excerpt(nlohmann::json(12)), "12");
  EXPECT_EQ(json_excerpt(nlohmann::json::parse("[1, [2, {\"a\": 3}]]")), "[1,[2,{\"a\":3}]]");
  const nlohmann::json big(std::vector<int>(1000000, 1));
  EXPECT_EQ(json_excerpt(big, 10), "[1,1,1,1,1...");
  EXPECT_EQ(json_excerpt(nlohmann::json(std::string(100, 'x')), 5), "\"xxxx...");
}

}  // namespace
}  // namespace gemmlab
