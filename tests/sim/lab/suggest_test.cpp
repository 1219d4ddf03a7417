// --suggest: what it proposes is conflict-free by the model itself, and it says why when nothing is.
#include "gemmlab/lab/suggest.hpp"

#include <gtest/gtest.h>

#include <cstdio>

#include "gemmlab/lab/expressions.hpp"
#include "gemmlab/lab/query.hpp"

namespace gemmlab::lab {
namespace {

Suggestions suggestions_for(const QueryText& text) {
  auto q = parse_query(text);
  EXPECT_TRUE(q.ok()) << (q.ok() ? "" : q.error().message);
  auto s = suggest(q->tile, q->access, q->other);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return *s;
}

// Re-runs the model on a suggested tile: a suggestion is only as good as the model says it is.
std::int64_t conflicts(const Tile& tile, const AccessSpec& spec) {
  return analyse(tile, spec).value().totals.conflicts();
}

TEST(Suggest, TheStandardCasesHaveAConflictFreeLayoutThatCostsNothing) {
  for (const char* preset : {"rows-of-64-halves", "rows-of-32-halves", "c-stmatrix-epilogue", "b-trans-row-major"}) {
    const auto s = suggestions_for(find_preset(preset)->query);
    ASSERT_FALSE(s.candidates.empty()) << preset;
    const Candidate& best = s.candidates.front();
    EXPECT_TRUE(best.conflict_free()) << preset;
    EXPECT_EQ(best.extra_bytes, 0) << preset << ": " << best.label;
    EXPECT_EQ(conflicts(best.tile, s.first), 0) << preset;
    EXPECT_EQ(conflicts(best.tile, s.second), 0) << preset;
  }
  const auto rows64 = suggestions_for(find_preset("rows-of-64-halves")->query);
  EXPECT_EQ(rows64.candidates.front().tile.swizzle, (Swizzle{3, 3, 3}));
  EXPECT_EQ(rows64.given_first.conflicts(), 448);
}

TEST(Suggest, PaddingIsOfferedWithItsCost) {
  const auto s = suggestions_for(find_preset("rows-of-64-halves")->query);
  bool padded = false;
  for (const auto& c : s.candidates)
    if (c.label.rfind("pad 8 elements", 0) == 0) {
      padded = true;
      EXPECT_TRUE(c.conflict_free());
      EXPECT_EQ(c.extra_bytes, 63 * 16);
    }
  EXPECT_TRUE(padded);
}

TEST(Suggest, SaysWhyWhenNoLayoutFreesBothSides) {
  QueryText t = find_preset("fp32-column-read")->query;  // a column of fp32 read lane by lane ...
  t.other_op = "sts.128";                                // ... of a tile written in rows of 16-byte vectors
  const auto s = suggestions_for(t);
  EXPECT_EQ(s.conflict_free, 0);
  EXPECT_FALSE(s.why_none.empty());
  EXPECT_NE(s.why_none.find("none both"), std::string::npos) << s.why_none;
}

TEST(Expressions, TmaAndTritonFormsOfTheSameTile) {
  auto q = parse_query(find_preset("swizzle-333")->query).value();
  const auto e = expressions_of(q.tile);
  EXPECT_EQ(e.tma_mode, 128);
  ASSERT_TRUE(e.triton.has_value());
  EXPECT_EQ(e.triton->to_string(), "vec=8, perPhase=1, maxPhase=8");
  auto q32 = parse_query(find_preset("swizzle-233")->query).value();
  const auto e32 = expressions_of(q32.tile);
  EXPECT_EQ(e32.triton->to_string(), "vec=8, perPhase=2, maxPhase=4");
  EXPECT_EQ(e32.tma_mode, 64);  // rows of 64 bytes in TMA's 64-byte mode
  auto padded = parse_query(find_preset("padded-72")->query).value();
  const auto ep = expressions_of(padded.tile);
  EXPECT_FALSE(ep.tma_mode.has_value());
  EXPECT_FALSE(ep.triton.has_value());
}

// A Triton layout in hand becomes the same Swizzle, and back: checked element by element by expressions_of.
TEST(Expressions, TritonLayoutsRoundTrip) {
  struct Case {
    const char* layout;
    const char* triton;
  };
  for (const Case c :
       {Case{"(64,64):(64,1)", "8,1,8"}, Case{"(64,32):(32,1)", "8,2,4"}, Case{"(128,16):(16,1)", "8,4,2"},
        Case{"(64,128):(128,1)", "8,1,8"}, Case{"(32,32):(32,1)", "4,1,8"}}) {
    QueryText t;
    t.layout = c.layout;
    t.triton = c.triton;
    auto q = parse_query(t);
    ASSERT_TRUE(q.ok()) << c.layout << " " << c.triton << ": " << q.error().message;
    const auto e = expressions_of(q->tile);
    ASSERT_TRUE(e.triton.has_value()) << c.layout << " " << c.triton << ": " << e.triton_why_not;
    TritonShared want;
    std::sscanf(c.triton, "%d,%d,%d", &want.vec, &want.per_phase, &want.max_phase);
    EXPECT_EQ(e.triton->to_string(), want.to_string()) << c.layout;
  }
  QueryText bad;
  bad.layout = "(64,64):(72,1)";
  bad.triton = "8,1,8";
  EXPECT_FALSE(parse_query(bad).ok());
  bad.layout = "(64,16):(16,1)";
  EXPECT_NE(parse_query(bad).error().message.find("more than a row"), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::lab
