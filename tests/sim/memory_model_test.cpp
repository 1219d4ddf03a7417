// The memory model of one warp instruction. Every expected number below comes from the reasoning in the comment
// next to it (bank arithmetic by hand), not from running the model. The rule names (S1, S2, L1, C1, I1, G1-G4) are
// those of sim/src/memory_model.cpp and docs/memory-model.md; calibration_test.cpp checks them against the H100.
#include "gemmlab/memory_model.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <numeric>
#include <random>
#include <set>
#include <utility>

namespace gemmlab::sim {
namespace {

constexpr std::uint32_t kFull = 0xffffffffu;

// An access named as the CLI names it, with each lane's address from a function of the lane.
WarpAccess make(std::string_view op, const std::function<std::uint64_t(int)>& address_of, std::uint32_t mask = kFull) {
  auto parsed = parse_op(op);
  EXPECT_TRUE(parsed.ok()) << op;
  WarpAccess a = parsed.value();
  a.active_mask = mask;
  for (int lane = 0; lane < 32; ++lane) a.address[static_cast<std::size_t>(lane)] = address_of(lane);
  return a;
}

WarpAccess strided(std::string_view op, std::uint64_t stride, std::uint64_t base = 0, std::uint32_t mask = kFull) {
  return make(op, [=](int lane) { return base + stride * static_cast<std::uint64_t>(lane); }, mask);
}

SharedCost shared(const WarpAccess& a) {
  auto cost = shared_cost(a);
  EXPECT_TRUE(cost.ok()) << (cost.ok() ? "" : cost.error().message);
  return cost.ok() ? cost.value() : SharedCost{-1, -1};
}

GlobalCost global(const WarpAccess& a) {
  auto cost = global_cost(a);
  EXPECT_TRUE(cost.ok()) << (cost.ok() ? "" : cost.error().message);
  return cost.ok() ? cost.value() : GlobalCost{-1, -1, -1, -1};
}

std::string shared_error(const WarpAccess& a) {
  auto cost = shared_cost(a);
  return cost.ok() ? std::string("(no error)") : cost.error().message;
}

std::string global_error(const WarpAccess& a) {
  auto cost = global_cost(a);
  return cost.ok() ? std::string("(no error)") : cost.error().message;
}

// ----- shared memory: strides --------------------------------------------------------------------------------------

// 32-bit, lane l at byte l*s, i.e. word l*w with w = s/4. Bank = l*w mod 32. The 32 words are distinct, and the map
// l -> l*w mod 32 hits 32/gcd(w,32) banks, each gcd(w,32) times (Rules S1, S2): wavefronts = gcd(w, 32).
// Ideal = 32 x 4 / 128 = 1. Examples: s=4 -> 1, s=8 -> 2, s=12 -> 1, s=64 -> 16, s=128 -> 32, s=256 -> 32.
TEST(SharedStride, Lds32EveryStrideFrom4To256) {
  for (int s = 4; s <= 256; s += 4) {
    const int w = s / 4;
    const int expected = std::gcd(w, 32);
    for (const char* op : {"lds.32", "sts.32"}) {
      const auto cost = shared(strided(op, static_cast<std::uint64_t>(s)));
      EXPECT_EQ(cost.wavefronts, expected) << op << " stride " << s;
      EXPECT_EQ(cost.ideal_wavefronts, 1) << op << " stride " << s;
      EXPECT_EQ(cost.bank_conflicts(), expected - 1) << op << " stride " << s;
    }
  }
}

// 64-bit, lane l at byte l*s (s a multiple of 8): it covers banks 2u, 2u+1 with u = l*(s/8) mod 16, i.e. one of 16
// bank pairs. Two half-warp phases of 16 lanes (Rule S1); in each, l -> l*(s/8) mod 16 hits each used pair
// gcd(s/8, 16) times with distinct words. No uniform pairs (all addresses differ), so no L1 merge:
// wavefronts = 2 x gcd(s/8, 16); ideal = 32 x 8 / 128 = 2. Examples: s=8 -> 2, s=16 -> 4, s=24 -> 2, s=128 -> 32.
TEST(SharedStride, Lds64EveryStrideFrom8To256) {
  for (int s = 8; s <= 256; s += 8) {
    const int expected = 2 * std::gcd(s / 8, 16);
    for (const char* op : {"lds.64", "sts.64"}) {
      const auto cost = shared(strided(op, static_cast<std::uint64_t>(s)));
      EXPECT_EQ(cost.wavefronts, expected) << op << " stride " << s;
      EXPECT_EQ(cost.ideal_wavefronts, 2) << op << " stride " << s;
    }
  }
}

// 128-bit, lane l at byte l*s (s a multiple of 16): it covers the 4 banks of quad q = l*(s/16) mod 8. Four
// quarter-warp phases of 8 lanes (Rule S1): each quad used gcd(s/16, 8) times: wavefronts = 4 x gcd(s/16, 8);
// ideal = 32 x 16 / 128 = 4. Examples: s=16 -> 4, s=32 -> 8, s=48 -> 4, s=128 -> 32, s=256 -> 32.
TEST(SharedStride, Lds128EveryStrideFrom16To256) {
  for (int s = 16; s <= 256; s += 16) {
    const int expected = 4 * std::gcd(s / 16, 8);
    for (const char* op : {"lds.128", "sts.128"}) {
      const auto cost = shared(strided(op, static_cast<std::uint64_t>(s)));
      EXPECT_EQ(cost.wavefronts, expected) << op << " stride " << s;
      EXPECT_EQ(cost.ideal_wavefronts, 4) << op << " stride " << s;
    }
  }
}

// A stride that is not a multiple of the width misaligns some lane: lds.64 at stride 12 puts lane 1 at byte 12.
TEST(SharedStride, StrideNotMultipleOfWidthIsMisaligned) {
  EXPECT_EQ(shared_error(strided("lds.64", 12)),
            "lane 1: address 0xc is not 8-byte aligned; ld.shared.v2 needs 8-byte-aligned addresses");
  // lds.128 at stride 8: lane 1 at byte 8.
  EXPECT_EQ(shared_error(strided("lds.128", 8)),
            "lane 1: address 0x8 is not 16-byte aligned; ld.shared.v4 needs 16-byte-aligned addresses");
}

// A base offset that keeps the alignment shifts every bank by the same amount: same counts as at base 0.
TEST(SharedStride, BaseOffsetDoesNotChangeTheCount) {
  EXPECT_EQ(shared(strided("lds.32", 4, 1024 + 12)).wavefronts, 1);   // still 32 consecutive words
  EXPECT_EQ(shared(strided("lds.32", 128, 4)).wavefronts, 32);       // still all in one bank (bank 1)
  EXPECT_EQ(shared(strided("lds.128", 16, 48)).wavefronts, 4);       // quarter q covers 128 consecutive bytes
}

// ----- shared memory: broadcasts ------------------------------------------------------------------------------------

// Every lane reads word 0: one distinct word in bank 0 (Rule S2) -> 1 wavefront, no conflict.
TEST(SharedBroadcast, AllLanesOneWord32Bit) {
  const auto cost = shared(strided("lds.32", 0, 64));
  EXPECT_EQ(cost.wavefronts, 1);
  EXPECT_EQ(cost.ideal_wavefronts, 1);
  EXPECT_EQ(cost.bank_conflicts(), 0);
}

// Lanes 0-15 read word 0, lanes 16-31 word 32: both in bank 0 and different -> 2 wavefronts, 1 conflict.
TEST(SharedBroadcast, TwoWordsInOneBankConflict) {
  const auto cost = shared(make("lds.32", [](int lane) { return lane < 16 ? 0u : 128u; }));
  EXPECT_EQ(cost.wavefronts, 2);
  EXPECT_EQ(cost.bank_conflicts(), 1);
}

// Groups of 4 lanes share a word: lane l reads word l/4 (8 distinct words, banks 0-7) -> 1 wavefront.
TEST(SharedBroadcast, GroupsSharingWordsAreFree) {
  EXPECT_EQ(shared(make("lds.32", [](int lane) { return static_cast<std::uint64_t>(lane / 4) * 4; })).wavefronts, 1);
  // Same, but the 8 words are 32 words apart: all in bank 0, 8 distinct words -> 8 wavefronts.
  EXPECT_EQ(shared(make("lds.32", [](int lane) { return static_cast<std::uint64_t>(lane / 4) * 128; })).wavefronts, 8);
}

// 128-bit load, every lane the same address: pairs (n, n^1) agree, so Rule L1 packs quarters two by two: 2 phases
// of 16 lanes, each asking one 16-byte chunk -> 2 wavefronts (the forum's "4 drops to 2"). The ideal (Rule I1) is
// one per phase: 2, no conflict.
TEST(SharedBroadcast, Lds128UniformLoadUsesTwoWavefronts) {
  const auto cost = shared(strided("lds.128", 0));
  EXPECT_EQ(cost.wavefronts, 2);
  EXPECT_EQ(cost.bank_conflicts(), 0);
}

// 128-bit load where lanes 2k and 2k+1 share an address and the 16 distinct addresses are consecutive chunks:
// pairs agree (L1), phases of 16 lanes hold 8 distinct chunks = 128 bytes on 32 different banks -> 1 each -> 2.
TEST(SharedBroadcast, Lds128NeighbourPairsShareAddress) {
  const auto cost = shared(make("lds.128", [](int lane) { return static_cast<std::uint64_t>(lane / 2) * 16; }));
  EXPECT_EQ(cost.wavefronts, 2);
  // The same addresses with pairs (n, n^2) instead: lane l reads chunk (l/4)*2 + l%2.
  const auto xor2 = shared(make("lds.128", [](int lane) {
    return static_cast<std::uint64_t>((lane / 4) * 2 + lane % 2) * 16;
  }));
  EXPECT_EQ(xor2.wavefronts, 2);
}

// Stores do not get Rule L1: sts.128 to one address is 4 quarter phases of 1 word per bank -> 4 wavefronts.
TEST(SharedBroadcast, Sts128UniformStoreKeepsFourPhases) {
  const auto cost = shared(strided("sts.128", 0));
  EXPECT_EQ(cost.wavefronts, 4);
  EXPECT_EQ(cost.ideal_wavefronts, 4);
}

// 64-bit load, all lanes one address: L1 merges both half-warps into one phase with one chunk -> 1 wavefront.
TEST(SharedBroadcast, Lds64UniformLoadUsesOneWavefront) { EXPECT_EQ(shared(strided("lds.64", 0, 8)).wavefronts, 1); }

// ----- shared memory: partial masks ---------------------------------------------------------------------------------

// Stride 128 bytes puts every lane in bank 0; with only lanes 0-3 active: 4 distinct words -> 4 wavefronts.
// Ideal: one phase with active lanes -> 1 -> 3 conflicts.
TEST(SharedMask, OnlyActiveLanesCount) {
  const auto cost = shared(strided("lds.32", 128, 0, 0x0000000fu));
  EXPECT_EQ(cost.wavefronts, 4);
  EXPECT_EQ(cost.ideal_wavefronts, 1);
  EXPECT_EQ(cost.bank_conflicts(), 3);
}

// 64-bit coalesced with only the upper half-warp: phase 0 is empty (costs 0), phase 1 takes 1. Ideal: 1 phase.
TEST(SharedMask, EmptyPhasesCostNothing) {
  const auto cost = shared(strided("lds.64", 8, 0, 0xffff0000u));
  EXPECT_EQ(cost.wavefronts, 1);
  EXPECT_EQ(cost.ideal_wavefronts, 1);
  // 128-bit coalesced, lanes 0-7 only: one quarter -> 1 wavefront, ideal 1.
  const auto quarter = shared(strided("lds.128", 16, 0, 0x000000ffu));
  EXPECT_EQ(quarter.wavefronts, 1);
  EXPECT_EQ(quarter.ideal_wavefronts, 1);
}

// Rule I1 counts phases, not bytes: a coalesced sts.128 with lanes 0-3 of every quarter active (mask 0x0f0f0f0f)
// moves 256 bytes, but each of the 4 quarter phases has an active lane: ideal 4 = wavefronts, no conflict (H100:
// sts128_contig_mask0f0f0f0f, 4 wavefronts, 0 conflicts). The bytes would say ideal 2 and 2 conflicts.
// A 64-bit store with one lane in 4 active (mask 0x11111111): 2 half-warp phases -> ideal 2.
TEST(SharedMask, IdealIsOnePerPhaseWithAnActiveLane) {
  const auto sts128 = shared(strided("sts.128", 16, 0, 0x0f0f0f0fu));
  EXPECT_EQ(sts128.wavefronts, 4);
  EXPECT_EQ(sts128.ideal_wavefronts, 4);
  const auto sts64 = shared(strided("sts.64", 8, 0, 0x11111111u));
  EXPECT_EQ(sts64.wavefronts, 2);
  EXPECT_EQ(sts64.ideal_wavefronts, 2);
}

// The ideal's rule in words names the phases it counts: sts.128 on mask 0x0f0f0f0f keeps 4 quarter phases of 8
// lanes, all with an active lane (ideal 4, not 256 bytes / 128 = 2); lds.128 on mask 0x11111111 merges its vacuous
// pairs into 2 phases of 16 (ideal 2); lds.32 on lanes 0-3 has its one phase; ldmatrix one per matrix.
TEST(LaneRanges, RunsAreJoined) {
  EXPECT_EQ(lane_ranges({0, 1, 2, 3, 5, 16, 17}), "0-3, 5, 16-17");
  EXPECT_EQ(lane_ranges({0, 16}), "0, 16");
  EXPECT_EQ(lane_ranges({}), "none");
}

TEST(SharedMask, IdealRuleNamesThePhases) {
  const auto rule = [](const WarpAccess& a) {
    const auto detail = shared_detail(a);
    EXPECT_TRUE(detail.ok());
    return detail.ok() ? ideal_rule(a, *detail) : std::string();
  };
  EXPECT_EQ(rule(strided("sts.128", 16, 0, 0x0f0f0f0fu)),
            "one per phase with an active lane: sts.128 is served in 4 phases of 8 lanes");
  EXPECT_EQ(rule(strided("lds.128", 16, 0, 0x11111111u)),
            "one per phase with an active lane: lds.128 is served in 2 phases of 16 lanes (two phases merged into "
            "one: wherever both lanes of a pair n, n^1 or n, n^2 are active, they give the same address; rule L1)");
  EXPECT_EQ(rule(strided("sts.128", 16, 0, 0x000000ffu)),
            "one per phase with an active lane: sts.128 is served in 4 phases of 8 lanes, 1 of them with an active lane");
  EXPECT_EQ(rule(strided("lds.32", 4, 0, 0xfu)), "one per phase with an active lane: lds.32 is served in 1 phase of 32 lanes");
  EXPECT_EQ(rule(strided("ldsm.x4", 16)), "one per 8x8 matrix");
}

// Rule L1 asks the whole warp: lanes 0-15 paired by n^1 and lanes 16-31 by n^2 merge nothing, so lds.128 keeps its
// 4 quarter phases, each 2 distinct chunks on distinct banks -> 4 wavefronts (H100: lds128_pairs_mixed_xor1_xor2).
// Pairs whose partner is inactive agree vacuously: lds.128 on mask 0x11111111 (lanes 0, 4, 8, ...) merges into 2
// phases of lanes at bytes 0, 64, 128, 192 -> chunk units 0 and 8 share bank group 0, 4 and 12 group 4: 2 each -> 4
// wavefronts, ideal 2 (H100: lds128_contig_mask11111111, 4 wavefronts, 2 conflicts).
TEST(SharedMask, UniformPairsAreAWarpWideRule) {
  const auto mixed = shared(make("lds.128", [](int l) {
    const auto lane = static_cast<std::uint64_t>(l);
    return l < 16 ? (lane / 2) * 16 : 256 + (((lane - 16) >> 2) * 2 + (lane & 1)) * 16;
  }));
  EXPECT_EQ(mixed.wavefronts, 4);
  EXPECT_EQ(mixed.ideal_wavefronts, 4);
  const auto sparse = shared(strided("lds.128", 16, 0, 0x11111111u));
  EXPECT_EQ(sparse.wavefronts, 4);
  EXPECT_EQ(sparse.ideal_wavefronts, 2);
}

// Inactive lanes' addresses are never looked at, not even for alignment.
TEST(SharedMask, InactiveLanesMayHoldAnything) {
  auto a = strided("lds.64", 8);
  a.address[7] = 3;  // misaligned, but lane 7 is off
  a.active_mask = ~(1u << 7);
  EXPECT_TRUE(shared_cost(a).ok());
}

TEST(SharedMask, EmptyMaskIsAnError) {
  const auto error = shared_error(strided("lds.32", 4, 0, 0u));
  EXPECT_NE(error.find("no lane is active"), std::string::npos) << error;
  EXPECT_NE(global_error(strided("ldg.32", 4, 0, 0u)).find("no lane is active"), std::string::npos);
}

// ----- shared memory: padding and swizzles --------------------------------------------------------------------------

// A 32x32 float tile read down a column: lane l reads (row l, col c). Unpadded, row stride 32 words: word 32l + c,
// bank c for every lane -> 32 wavefronts. Padded to 33 words: bank (33l + c) mod 32 = (l + c) mod 32, all distinct
// -> 1 wavefront.
TEST(SharedLayout, PaddingRowsBy1WordRemovesColumnConflicts) {
  for (std::uint64_t c : {0u, 5u, 31u}) {
    EXPECT_EQ(shared(make("lds.32", [&](int l) { return (32 * static_cast<std::uint64_t>(l) + c) * 4; })).wavefronts,
              32);
    EXPECT_EQ(shared(make("lds.32", [&](int l) { return (33 * static_cast<std::uint64_t>(l) + c) * 4; })).wavefronts,
              1);
  }
}

// Padding by one word breaks 16-byte alignment: row 1 starts at byte 132.
TEST(SharedLayout, OneWordPaddingMisalignsFloat4) {
  EXPECT_EQ(shared_error(strided("lds.128", 33 * 4)),
            "lane 1: address 0x84 is not 16-byte aligned; ld.shared.v4 needs 16-byte-aligned addresses");
}

// Padding by 4 words (row = 144 bytes) keeps float4 alignment: lane l at byte 144l is in quad 9l mod 8 = l mod 8,
// distinct within each quarter-warp -> 4 wavefronts, no conflict. Unpadded (128-byte rows) every lane is quad 0:
// 8-way in each quarter -> 32.
TEST(SharedLayout, PaddingRowsBy4WordsForFloat4) {
  EXPECT_EQ(shared(strided("lds.128", 144)).wavefronts, 4);
  EXPECT_EQ(shared(strided("lds.128", 128)).wavefronts, 32);
}

// XOR swizzle on a 32x32 float tile: (r, c) stored at word 32r + (c ^ r). Column c read by lane l = row l: bank
// c ^ l, a permutation of 0..31 over the lanes -> 1 wavefront. (Unswizzled: 32, see above.)
TEST(SharedLayout, XorSwizzle32BitColumnRead) {
  for (std::uint64_t c : {0u, 7u, 31u})
    EXPECT_EQ(shared(make("lds.32", [&](int l) { return (32 * static_cast<std::uint64_t>(l) + (c ^ l)) * 4; }))
                  .wavefronts,
              1);
}

// Rows of 8 16-byte chunks (128 bytes). Lane l reads chunk 0 of row l. Unswizzled: all lanes in quad 0 -> each
// quarter 8-way -> 32. Swizzled, chunk c of row r stored at chunk c ^ (r mod 8): lane l at chunk l mod 8, distinct
// within each quarter -> 4. The same holds for the store (sts.128): stores still have Rules S1/S2.
TEST(SharedLayout, XorSwizzle128BitChunks) {
  auto plain = [](int l) { return static_cast<std::uint64_t>(l) * 128; };
  auto swizzled = [](int l) { return static_cast<std::uint64_t>(l) * 128 + static_cast<std::uint64_t>(l % 8) * 16; };
  EXPECT_EQ(shared(make("lds.128", plain)).wavefronts, 32);
  EXPECT_EQ(shared(make("lds.128", swizzled)).wavefronts, 4);
  EXPECT_EQ(shared(make("sts.128", swizzled)).wavefronts, 4);
  EXPECT_EQ(shared(make("sts.128", swizzled)).bank_conflicts(), 0);
}

// A swizzle on the wrong bits does not help: chunk c ^ ((r / 2) mod 8) gives lanes 2k and 2k+1 the same quad, so each
// quarter uses 4 quads twice with distinct words -> 2 per quarter -> 8.
TEST(SharedLayout, SwizzleOnTheWrongBitsStillConflicts) {
  auto a = make("lds.128", [](int l) {
    return static_cast<std::uint64_t>(l) * 128 + static_cast<std::uint64_t>((l / 2) % 8) * 16;
  });
  EXPECT_EQ(shared(a).wavefronts, 8);
}

// ----- ldmatrix ----------------------------------------------------------------------------------------------------

// .x4 with lane l's row at byte 16l: matrix i's 8 rows are 128 consecutive bytes -> 32 banks once -> 1 each -> 4;
// ideal = 4 matrices.
TEST(Ldmatrix, ContiguousRowsAreConflictFree) {
  const auto cost = shared(strided("ldsm.x4", 16));
  EXPECT_EQ(cost.wavefronts, 4);
  EXPECT_EQ(cost.ideal_wavefronts, 4);
  EXPECT_EQ(shared(strided("ldsm.x4.trans", 16)).wavefronts, 4);  // .trans moves registers, not memory
}

// Rows 128 bytes apart (a row-major tile of 64 halves): all 8 rows of a matrix are in banks 0-3 with distinct words
// -> 8 wavefronts per matrix. .x1: 8, .x2: 16, .x4: 32; ideal 1, 2, 4.
TEST(Ldmatrix, RowsOneLineApartConflict8Way) {
  EXPECT_EQ(shared(strided("ldsm.x1", 128)).wavefronts, 8);
  EXPECT_EQ(shared(strided("ldsm.x2", 128)).wavefronts, 16);
  const auto x4 = shared(strided("ldsm.x4", 128));
  EXPECT_EQ(x4.wavefronts, 32);
  EXPECT_EQ(x4.ideal_wavefronts, 4);
  EXPECT_EQ(x4.bank_conflicts(), 28);
}

// The same tile XOR-swizzled by 16-byte chunk (chunk ^ row mod 8): the 8 rows of a matrix fall in 8 different quads
// -> 1 per matrix -> 4.
TEST(Ldmatrix, SwizzledRowsAreConflictFree) {
  EXPECT_EQ(shared(make("ldsm.x4", [](int l) {
              return static_cast<std::uint64_t>(l) * 128 + static_cast<std::uint64_t>(l % 8) * 16;
            })).wavefronts,
            4);
}

// Rows 64 bytes apart: row j at quad (4j) mod 8, i.e. quads 0 and 4, each 4 times -> 4 per matrix; .x2 -> 8.
TEST(Ldmatrix, RowsHalfALineApartConflict4Way) {
  const auto cost = shared(strided("ldsm.x2", 64));
  EXPECT_EQ(cost.wavefronts, 8);
  EXPECT_EQ(cost.ideal_wavefronts, 2);
}

// .x1 reads lanes 0-7 only; the others' addresses are ignored, even when misaligned or when those lanes are off.
TEST(Ldmatrix, OnlyAddressLanesMatter) {
  auto a = strided("ldsm.x1", 16);
  a.address[9] = 3;
  a.address[31] = 1000001;
  EXPECT_EQ(shared(a).wavefronts, 1);
  a.active_mask = 0x000000ffu;
  EXPECT_EQ(shared(a).wavefronts, 1);
}

TEST(Ldmatrix, Errors) {
  auto a = strided("ldsm.x2", 16);
  a.address[12] = 200;  // 200 = 12 x 16 + 8
  EXPECT_EQ(shared_error(a),
            "lane 12: row address 0xc8 is not 16-byte aligned; ldmatrix needs 16-byte-aligned row addresses");
  auto b = strided("ldsm.x4", 16);
  b.active_mask = ~(1u << 20);
  EXPECT_NE(shared_error(b).find("lane 20 is inactive"), std::string::npos) << shared_error(b);
  auto c = strided("ldsm.x4", 16);
  c.ldmatrix_count = 3;
  EXPECT_NE(shared_error(c).find("1, 2 or 4"), std::string::npos) << shared_error(c);
}

// ----- cp.async ----------------------------------------------------------------------------------------------------

// cp.async.16: global side coalesced (lane l at 16l: 512 bytes -> 16 sectors, 4 lines); shared side a store of 16
// bytes. Shared destination at 16l -> 4 wavefronts; at 128l (a transposed copy) -> 32.
TEST(CpAsync, BothSides) {
  auto a = strided("cp.async.16", 16, 4096);
  for (int l = 0; l < 32; ++l) a.shared_address[static_cast<std::size_t>(l)] = 16 * static_cast<std::uint64_t>(l);
  const auto g = global(a);
  EXPECT_EQ(g.sectors, 16);
  EXPECT_EQ(g.lines, 4);
  EXPECT_EQ(shared(a).wavefronts, 4);
  for (int l = 0; l < 32; ++l) a.shared_address[static_cast<std::size_t>(l)] = 128 * static_cast<std::uint64_t>(l);
  EXPECT_EQ(shared(a).wavefronts, 32);
  // Rule C1: lanes writing the same shared address do not share a wavefront. All lanes into one chunk: each quarter
  // has 8 lanes on one bank group -> 8 per quarter -> 32 (H100: cp.async.4 with lane pairs on one word takes 2
  // wavefronts, cpasync4_ca_smem_bcast_pairs).
  for (auto& s : a.shared_address) s = 0;
  EXPECT_EQ(shared(a).wavefronts, 32);
  EXPECT_EQ(shared(a).ideal_wavefronts, 4);
}

// Rule C1, source side: a contiguous shared destination, but the sources 128 bytes apart. Every source is in bank
// group 0 ((16 * 8 * l / 16) mod 8 = 0), so each quarter's 8 lanes take 8 wavefronts -> 32 (H100:
// cpasync16_ca_gmem_stride128, 32). Sources 32 bytes apart: groups 0, 2, 4, 6 twice per quarter -> 2 each -> 8
// (cpasync16_ca_gmem_stride32). All lanes reading one address: no broadcast, 8 per quarter -> 32 (cpasync16_ca_gmem_bcast).
TEST(CpAsync, SourceAddressesCollideToo) {
  for (const auto& [stride, expected] : {std::pair<std::uint64_t, int>{128, 32}, {32, 8}, {0, 32}, {16, 4}}) {
    auto a = strided("cp.async.16", stride, 4096);
    for (int l = 0; l < 32; ++l) a.shared_address[static_cast<std::size_t>(l)] = 16 * static_cast<std::uint64_t>(l);
    EXPECT_EQ(shared(a).wavefronts, expected) << "source stride " << stride;
    EXPECT_EQ(shared(a).ideal_wavefronts, 4) << "source stride " << stride;
    const auto detail = shared_detail(a);
    ASSERT_TRUE(detail.ok());
    EXPECT_EQ(static_cast<int>(detail->wavefronts.size()), expected) << "source stride " << stride;
  }
}

// The detail shows where the extra wavefronts of a copy come from. cp.async.16 with sources 128 bytes apart into a
// contiguous destination: each quarter's 8 lanes write 8 different bank groups (1 lane per bank on the shared side)
// but all read bank group 0 of the source (banks 0-3): 8 lanes on each of banks 0-3, none elsewhere.
TEST(CpAsync, DetailShowsTheSourceSide) {
  auto a = strided("cp.async.16", 128, 4096);
  for (int l = 0; l < 32; ++l) a.shared_address[static_cast<std::size_t>(l)] = 16 * static_cast<std::uint64_t>(l);
  const auto detail = shared_detail(a);
  ASSERT_TRUE(detail.ok());
  for (int b = 0; b < 32; ++b) {
    EXPECT_EQ(detail->max_way_per_bank[static_cast<std::size_t>(b)], 1) << "bank " << b;
    EXPECT_EQ(detail->max_source_way_per_bank[static_cast<std::size_t>(b)], b < 4 ? 8 : 0) << "bank " << b;
  }
  // A plain store has no source side.
  const auto store = shared_detail(strided("sts.128", 16));
  ASSERT_TRUE(store.ok());
  EXPECT_EQ(store->max_source_way_per_bank, (std::array<int, 32>{}));
}

// Zero-filling lanes (src-size 0) read nothing: they neither collide on the source side nor count as global sectors.
// Lanes 1-31 zero-fill while their source addresses all say 0: only lane 0 reads -> 1 sector; the shared side is a
// contiguous store -> 4 wavefronts, not the 32 that 32 colliding sources would cost.
TEST(CpAsync, ZeroFillLanesReadNothing) {
  auto a = strided("cp.async.16", 0, 4096);
  for (int l = 0; l < 32; ++l) a.shared_address[static_cast<std::size_t>(l)] = 16 * static_cast<std::uint64_t>(l);
  a.zero_fill_mask = 0xfffffffeu;
  EXPECT_EQ(shared(a).wavefronts, 4);
  const auto g = global(a);
  EXPECT_EQ(g.requests, 1);
  EXPECT_EQ(g.sectors, 1);
  EXPECT_EQ(g.ideal_sectors, 1);
  const auto detail = global_detail(a);
  ASSERT_TRUE(detail.ok());
  EXPECT_EQ(detail->lane_sector[1], -1);
  // Every lane zero-filling: no global request at all.
  a.zero_fill_mask = ~0u;
  EXPECT_EQ(global(a).requests, 0);
  EXPECT_EQ(global(a).sectors, 0);
}

// Rule G4: cp.async.cg counts distinct (source line, shared sector) pairs. A contiguous 512-byte source (4 lines)
// into shared chunks 128 bytes apart: each line's 8 lanes write 8 different shared sectors -> 32 (H100:
// cpasync16_cg_smem_stride128, 32; the .ca copy counts its 16 source sectors). One source address for every lane into
// a contiguous destination: 1 line x 16 shared sectors -> 16 (cpasync16_cg_gmem_bcast, 16).
TEST(CpAsync, BypassCopyCountsSectorsPerSharedDestination) {
  auto cg = strided("cp.async.cg.16", 16, 4096);
  for (int l = 0; l < 32; ++l) cg.shared_address[static_cast<std::size_t>(l)] = 128 * static_cast<std::uint64_t>(l);
  EXPECT_EQ(global(cg).sectors, 32);
  EXPECT_EQ(global(cg).lines, 4);
  auto ca = cg;
  ca.cache_global = false;
  EXPECT_EQ(global(ca).sectors, 16);
  auto bcast = strided("cp.async.cg.16", 0, 4096);
  for (int l = 0; l < 32; ++l) bcast.shared_address[static_cast<std::size_t>(l)] = 16 * static_cast<std::uint64_t>(l);
  EXPECT_EQ(global(bcast).sectors, 16);
}

// Rule G5: the L2 sends a cp.async.cg one sector per distinct pair (source sector, shared destination sector). A
// quarter-warp copying one 128-byte line into a row padded to start 16 bytes into a shared sector: every lane's 16
// bytes sit at another offset in their destination sector than in their source, so each of the line's 4 sectors is
// sent for 2 destination sectors: 8 pairs, 4 split. 32 bytes into the sector (a row 48 bytes in): the pairs of lanes
// stay together, nothing split. The swizzled layout permutes 16-byte chunks with an XOR of the row, which keeps a
// sector's two chunks together: nothing split either (tests/calibration/cp_async_rows.cu measured both on the H100).
TEST(CpAsync, PaddedRowsMakeTheL2SendSectorsTwice) {
  const auto row_at = [](std::uint64_t first_byte) {
    auto a = strided("cp.async.cg.16", 16, 8192, 0xffu);
    for (int l = 0; l < 8; ++l) a.shared_address[static_cast<std::size_t>(l)] = first_byte + 16 * static_cast<std::uint64_t>(l);
    return a;
  };
  EXPECT_EQ(global(row_at(0)).split_sectors, 0);
  EXPECT_EQ(global(row_at(144)).split_sectors, 4);   // row 1 of rung 13's A tile (rows of 144 bytes)
  EXPECT_EQ(global(row_at(288)).split_sectors, 0);   // row 2: 32 bytes into its sector
  EXPECT_EQ(global(row_at(144)).sectors, 5);         // Rule G4 still: 1 source line x 5 destination sectors
  auto swizzled = row_at(128);
  for (int l = 0; l < 8; ++l) swizzled.shared_address[static_cast<std::size_t>(l)] = 128 + 16 * static_cast<std::uint64_t>(l ^ 1);
  EXPECT_EQ(global(swizzled).split_sectors, 0);
  auto ca = row_at(144);
  ca.cache_global = false;
  EXPECT_EQ(global(ca).split_sectors, 0);  // through L1: its source sectors are what it fetches
}

TEST(CpAsync, CacheGlobalCopiesSixteenBytes) {
  auto a = strided("cp.async.8", 8);
  a.cache_global = true;
  EXPECT_EQ(shared_error(a), "cp.async.cg copies 16 bytes per lane, not 8; use cp.async (.ca) for 4- and 8-byte copies");
}

TEST(CpAsync, MisalignedSharedOrGlobalAddress) {
  auto a = strided("cp.async.8", 8);
  for (int l = 0; l < 32; ++l) a.shared_address[static_cast<std::size_t>(l)] = 8 * static_cast<std::uint64_t>(l);
  a.shared_address[3] = 28;
  EXPECT_EQ(shared_error(a),
            "lane 3: shared address 0x1c is not 8-byte aligned; cp.async.8 needs 8-byte-aligned addresses");
  EXPECT_EQ(global_error(a), shared_error(a));  // the instruction faults whichever side is asked about
  a.shared_address[3] = 24;
  a.address[4] = 36;
  EXPECT_EQ(global_error(a),
            "lane 4: global address 0x24 is not 8-byte aligned; cp.async.8 needs 8-byte-aligned addresses");
}

// ----- global memory -----------------------------------------------------------------------------------------------

// Coalesced 32-bit: lanes cover bytes 0..127 -> sectors 0-3, line 0; ideal 32 x 4 / 32 = 4; efficiency 1.
TEST(Global, Coalesced) {
  const auto c32 = global(strided("ldg.32", 4));
  EXPECT_EQ(c32.requests, 1);
  EXPECT_EQ(c32.sectors, 4);
  EXPECT_EQ(c32.lines, 1);
  EXPECT_EQ(c32.ideal_sectors, 4);
  EXPECT_DOUBLE_EQ(c32.efficiency(), 1.0);
  // 64-bit: 256 bytes -> 8 sectors, 2 lines. 128-bit: 512 bytes -> 16 sectors, 4 lines.
  const auto c64 = global(strided("ldg.64", 8));
  EXPECT_EQ(c64.sectors, 8);
  EXPECT_EQ(c64.lines, 2);
  EXPECT_EQ(c64.ideal_sectors, 8);
  const auto c128 = global(strided("stg.128", 16));
  EXPECT_EQ(c128.sectors, 16);
  EXPECT_EQ(c128.lines, 4);
  EXPECT_EQ(c128.ideal_sectors, 16);
  EXPECT_DOUBLE_EQ(c128.efficiency(), 1.0);
}

// Coalesced but starting 64 bytes into a line: bytes 64..191 -> sectors 2-5 (still 4), lines 0 and 1.
// Starting 4 bytes in: bytes 4..131 -> sectors 0-4 = 5, lines 0-1; efficiency 4/5.
TEST(Global, MisalignedStartCostsASector) {
  const auto at64 = global(strided("ldg.32", 4, 64));
  EXPECT_EQ(at64.sectors, 4);
  EXPECT_EQ(at64.lines, 2);
  const auto at4 = global(strided("ldg.32", 4, 4));
  EXPECT_EQ(at4.sectors, 5);
  EXPECT_EQ(at4.lines, 2);
  EXPECT_DOUBLE_EQ(at4.efficiency(), 4.0 / 5.0);
}

// Lane l at byte l*s. Each aligned access lies in sector floor(l*s/32). For s >= 32 each lane has its own sector:
// 32. For s < 32 the sector index grows by s/32 < 1 per lane, so every index 0..floor(31s/32) = s-1 is hit: s sectors.
// Lines likewise: s >= 128 -> 32, else floor(31s/128) + 1. Ideal = 32 x width / 32 = width.
TEST(Global, EveryStrideFromWidthTo256) {
  struct Case {
    const char* op;
    int width;
  };
  for (const auto& [op, width] : {Case{"ldg.32", 4}, Case{"ldg.64", 8}, Case{"ldg.128", 16}, Case{"stg.32", 4},
                                  Case{"stg.64", 8}, Case{"stg.128", 16}}) {
    for (int s = width; s <= 256; s += width) {
      const int sectors = s >= 32 ? 32 : s;
      const int lines = s >= 128 ? 32 : (31 * s) / 128 + 1;
      const auto cost = global(strided(op, static_cast<std::uint64_t>(s)));
      EXPECT_EQ(cost.requests, 1) << op << " stride " << s;
      EXPECT_EQ(cost.sectors, sectors) << op << " stride " << s;
      EXPECT_EQ(cost.lines, lines) << op << " stride " << s;
      EXPECT_EQ(cost.ideal_sectors, width) << op << " stride " << s;
      EXPECT_DOUBLE_EQ(cost.efficiency(), static_cast<double>(width) / sectors) << op << " stride " << s;
    }
  }
}

// The naive GEMM's column walk: lane l reads A[l][k] of a 4096-wide float matrix -> 16 KiB apart, 32 sectors in 32
// lines; efficiency 4/32.
TEST(Global, ScatteredRows) {
  const auto cost = global(strided("ldg.32", 4096 * 4, 1 << 20));
  EXPECT_EQ(cost.sectors, 32);
  EXPECT_EQ(cost.lines, 32);
  EXPECT_DOUBLE_EQ(cost.efficiency(), 0.125);
}

// Whole lines: those whose four sectors the lanes all touch. A warp's 16-byte lanes over 512 contiguous bytes write 4
// whole lines; wgmma's accumulator layout (8-byte lanes, four lanes a row over 32 bytes, 8 rows) writes a sector of
// each of 8 lines and no whole one; a misaligned start leaves the first and last lines partial. Rows 16 KiB apart take
// the sorted path, with the same count.
TEST(Global, WholeLinesAreThoseWithEverySectorTouched) {
  EXPECT_EQ(global(strided("stg.128", 16)).whole_lines, 4);
  EXPECT_EQ(global(strided("stg.32", 4)).whole_lines, 1);
  const auto fragment =
      global(make("stg.64", [](int l) { return std::uint64_t(l / 4) * 4096 + std::uint64_t(l % 4) * 8; }));
  EXPECT_EQ(fragment.lines, 8);
  EXPECT_EQ(fragment.whole_lines, 0);
  const auto shifted = global(strided("stg.128", 16, 64));
  EXPECT_EQ(shifted.lines, 5);
  EXPECT_EQ(shifted.whole_lines, 3);
  const auto far_rows =
      global(make("stg.128", [](int l) { return std::uint64_t(l / 8) * (1 << 16) + std::uint64_t(l % 8) * 16; }));
  EXPECT_EQ(far_rows.lines, 4);
  EXPECT_EQ(far_rows.whole_lines, 4);
}

// Lane order does not matter: lanes reading bytes 0..127 backwards or shuffled touch the same 4 sectors.
TEST(Global, PermutedLanesStillCoalesce) {
  EXPECT_EQ(global(make("ldg.32", [](int l) { return static_cast<std::uint64_t>(31 - l) * 4; })).sectors, 4);
  EXPECT_EQ(global(make("ldg.32", [](int l) { return static_cast<std::uint64_t>((l * 7) % 32) * 4; })).sectors, 4);
}

// All lanes read one float: 1 sector, 1 line; ideal 4 -> efficiency 4 (the warp gets 128 bytes from 32 fetched).
TEST(Global, BroadcastEfficiencyAboveOne) {
  const auto cost = global(strided("ldg.32", 0, 256));
  EXPECT_EQ(cost.sectors, 1);
  EXPECT_EQ(cost.lines, 1);
  EXPECT_EQ(cost.ideal_sectors, 4);
  EXPECT_DOUBLE_EQ(cost.efficiency(), 4.0);
}

// Partial masks: lanes 0-15 of a coalesced 32-bit load -> 64 bytes, 2 sectors, ideal 2. One lane -> 1 and 1.
TEST(Global, PartialMasks) {
  const auto half = global(strided("ldg.32", 4, 0, 0x0000ffffu));
  EXPECT_EQ(half.sectors, 2);
  EXPECT_EQ(half.ideal_sectors, 2);
  const auto one = global(strided("stg.32", 4, 0, 0x00010000u));  // lane 16 at byte 64: sector 2
  EXPECT_EQ(one.requests, 1);
  EXPECT_EQ(one.sectors, 1);
  EXPECT_EQ(one.ideal_sectors, 1);
  // Odd lanes of a 64-bit coalesced load: 16 x 8 = 128 bytes requested, but spread over 256 bytes -> 8 sectors,
  // ideal 4, efficiency 0.5.
  const auto odd = global(strided("ldg.64", 8, 0, 0xaaaaaaaau));
  EXPECT_EQ(odd.sectors, 8);
  EXPECT_EQ(odd.ideal_sectors, 4);
  EXPECT_DOUBLE_EQ(odd.efficiency(), 0.5);
}

TEST(Global, MisalignedIsAnError) {
  auto a = strided("ldg.128", 16);
  a.address[5] = 0x58;  // 88 = 5 x 16 + 8
  EXPECT_EQ(global_error(a),
            "lane 5: address 0x58 is not 16-byte aligned; ld.global.v4 needs 16-byte-aligned addresses");
}

// ldg.16 (one 16-bit element per lane): 32 consecutive elements are 64 bytes, 2 sectors; the tensor-core rungs' copy of
// unaligned rows puts lanes 16 bytes apart, one chunk each: 512 bytes, 16 sectors for 64 bytes used.
TEST(Global, SixteenBitLoads) {
  const auto consecutive = global(strided("ldg.16", 2));
  EXPECT_EQ(consecutive.requests, 1);
  EXPECT_EQ(consecutive.sectors, 2);
  EXPECT_EQ(consecutive.ideal_sectors, 2);
  const auto chunked = global(strided("ldg.16", 16, 6));
  EXPECT_EQ(chunked.sectors, 16);
  EXPECT_EQ(chunked.ideal_sectors, 2);
  auto odd = strided("ldg.16", 2);
  odd.address[3] = 0x7;
  EXPECT_EQ(global_error(odd), "lane 3: address 0x7 is not 2-byte aligned; ld.global.b16 needs 2-byte-aligned addresses");
  auto store = strided("sts.32", 4);
  store.width_bytes = 2;
  EXPECT_FALSE(shared_cost(store).ok());  // only global loads take 2 bytes per lane
}

TEST(Global, EmptyCostEfficiencyIsOne) { EXPECT_DOUBLE_EQ(GlobalCost{}.efficiency(), 1.0); }

// ----- the wrong model for the op ----------------------------------------------------------------------------------

TEST(Model, SharedModelRejectsGlobalOpsAndViceVersa) {
  EXPECT_NE(shared_error(strided("ldg.32", 4)).find("global-memory instruction"), std::string::npos);
  EXPECT_NE(global_error(strided("lds.32", 4)).find("shared-memory instruction"), std::string::npos);
  EXPECT_NE(global_error(strided("ldsm.x4", 16)).find("shared-memory instruction"), std::string::npos);
}

TEST(Model, BadWidthIsAnError) {
  auto a = strided("lds.32", 4);
  a.width_bytes = 2;
  EXPECT_NE(shared_error(a).find("4, 8 or 16"), std::string::npos) << shared_error(a);
}

// ----- details -----------------------------------------------------------------------------------------------------

// Lanes 0-15 read word 0 and lanes 16-31 word 32 (both bank 0): wavefront 0 serves word 0 (lanes 0-15), wavefront 1
// word 32 (lanes 16-31). Bank 0 is 2-way; no other bank is touched.
TEST(SharedDetail, WavefrontsListLanesAndBanks) {
  auto detail = shared_detail(make("lds.32", [](int lane) { return lane < 16 ? 0u : 128u; }));
  ASSERT_TRUE(detail.ok());
  ASSERT_EQ(detail->wavefronts.size(), 2u);
  EXPECT_EQ(detail->cost.wavefronts, 2);
  std::vector<int> low(16), high(16);
  std::iota(low.begin(), low.end(), 0);
  std::iota(high.begin(), high.end(), 16);
  EXPECT_EQ(detail->wavefronts[0].lanes, low);
  EXPECT_EQ(detail->wavefronts[1].lanes, high);
  for (const auto& hit : detail->wavefronts[1].hits) {
    EXPECT_EQ(hit.bank, 0);
    EXPECT_EQ(hit.word, 32u);
  }
  EXPECT_EQ(detail->max_way_per_bank[0], 2);
  for (int b = 1; b < 32; ++b) EXPECT_EQ(detail->max_way_per_bank[static_cast<std::size_t>(b)], 0);
}

// A 128-bit access hits 4 words: lane 3 of a coalesced lds.128 reads bytes 48..63 = words 12-15 in banks 12-15,
// all in wavefront 0 (quarter 0).
TEST(SharedDetail, WideAccessReportsEveryWord) {
  auto detail = shared_detail(strided("lds.128", 16));
  ASSERT_TRUE(detail.ok());
  ASSERT_EQ(detail->wavefronts.size(), 4u);
  std::vector<LaneHit> lane3;
  for (const auto& hit : detail->wavefronts[0].hits)
    if (hit.lane == 3) lane3.push_back(hit);
  ASSERT_EQ(lane3.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(lane3[static_cast<std::size_t>(i)].word, static_cast<std::uint64_t>(12 + i));
    EXPECT_EQ(lane3[static_cast<std::size_t>(i)].bank, 12 + i);
  }
  EXPECT_EQ(detail->wavefronts[1].lanes, (std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15}));
  for (int b = 0; b < 32; ++b) EXPECT_EQ(detail->max_way_per_bank[static_cast<std::size_t>(b)], 1);
}

// Stride 128 bytes, 32-bit: 32-way on bank 0; each wavefront serves exactly one lane.
TEST(SharedDetail, ThirtyTwoWay) {
  auto detail = shared_detail(strided("lds.32", 128));
  ASSERT_TRUE(detail.ok());
  ASSERT_EQ(detail->wavefronts.size(), 32u);
  for (int w = 0; w < 32; ++w) EXPECT_EQ(detail->wavefronts[static_cast<std::size_t>(w)].lanes, std::vector<int>{w});
  EXPECT_EQ(detail->max_way_per_bank[0], 32);
}

// Invariants on random patterns (not expected numbers): the detail agrees with the fast path, every wavefront asks
// each bank for at most one distinct word, and every active lane's words are all delivered.
TEST(SharedDetail, AgreesWithFastPathOnRandomPatterns) {
  std::mt19937 rng(12345);
  for (const char* op : {"lds.32", "lds.64", "lds.128", "sts.32", "sts.64", "sts.128", "ldsm.x1", "ldsm.x2",
                         "ldsm.x4", "cp.async.4", "cp.async.16", "cp.async.cg.16"}) {
    for (int trial = 0; trial < 200; ++trial) {
      WarpAccess a = parse_op(op).value();
      const int width = a.op == MemOp::LdMatrix ? 16 : a.width_bytes;
      // Small spans make repeats (broadcasts) likely; 64 KiB puts a bank's words more than 64 rows apart.
      const std::uint64_t span = trial % 3 == 0 ? 256 : trial % 3 == 1 ? 4096 : 65536;
      a.active_mask = a.op == MemOp::LdMatrix ? kFull : (static_cast<std::uint32_t>(rng()) | 1u);
      for (int l = 0; l < 32; ++l) {
        a.address[static_cast<std::size_t>(l)] = (rng() % span) / width * width;
        a.shared_address[static_cast<std::size_t>(l)] = (rng() % span) / width * width;  // cp.async: both sides
      }
      if (a.op == MemOp::CpAsync && trial % 3 == 0) a.zero_fill_mask = static_cast<std::uint32_t>(rng());
      if (trial % 5 == 0)  // uniform pairs, to exercise Rule L1
        for (int l = 1; l < 32; l += 2) a.address[static_cast<std::size_t>(l)] = a.address[static_cast<std::size_t>(l - 1)];
      const auto cost = shared_cost(a);
      const auto detail = shared_detail(a);
      ASSERT_TRUE(cost.ok() && detail.ok()) << op;
      EXPECT_EQ(detail->cost.wavefronts, cost->wavefronts) << op;
      EXPECT_EQ(detail->cost.ideal_wavefronts, cost->ideal_wavefronts) << op;
      EXPECT_EQ(static_cast<int>(detail->wavefronts.size()), cost->wavefronts) << op;
      EXPECT_GE(cost->bank_conflicts(), 0) << op;
      std::size_t hits = 0;
      for (const auto& w : detail->wavefronts) {
        std::array<std::set<std::uint64_t>, 32> words;
        for (const auto& hit : w.hits) words[static_cast<std::size_t>(hit.bank)].insert(hit.word);
        for (const auto& bank_words : words) EXPECT_LE(bank_words.size(), 1u) << op;
        hits += w.hits.size();
      }
      const int lanes = a.op == MemOp::LdMatrix ? 8 * a.ldmatrix_count : std::popcount(a.active_mask);
      EXPECT_EQ(hits, static_cast<std::size_t>(lanes * width / 4)) << op;
    }
  }
}

// Coalesced 32-bit at byte 96: bytes 96..223 -> sectors 3..6, lines 0..1; lane 0 in sector 3, lane 31 (byte 220)
// in sector 6; inactive lanes -1.
TEST(GlobalDetail, SectorsLinesAndLanes) {
  auto detail = global_detail(strided("ldg.32", 4, 96));
  ASSERT_TRUE(detail.ok());
  EXPECT_EQ(detail->sectors, (std::vector<std::uint64_t>{3, 4, 5, 6}));
  EXPECT_EQ(detail->lines, (std::vector<std::uint64_t>{0, 1}));
  EXPECT_EQ(detail->lane_sector[0], 3);
  EXPECT_EQ(detail->lane_sector[31], 6);
  auto masked = global_detail(strided("ldg.32", 4, 96, 0x0000ffffu));
  ASSERT_TRUE(masked.ok());
  EXPECT_EQ(masked->lane_sector[16], -1);
  EXPECT_EQ(masked->sectors, (std::vector<std::uint64_t>{3, 4}));  // bytes 96..159
  EXPECT_EQ(masked->cost.sectors, 2);
}

// ----- names -------------------------------------------------------------------------------------------------------

TEST(OpNames, EveryNameRoundTrips) {
  ASSERT_EQ(op_names().size(), 29u);
  for (auto name : op_names()) {
    auto parsed = parse_op(name);
    ASSERT_TRUE(parsed.ok()) << name;
    EXPECT_EQ(op_name(*parsed), name);
  }
}

TEST(OpNames, FieldsAreFilled) {
  const auto lds64 = parse_op("lds.64").value();
  EXPECT_EQ(lds64.op, MemOp::LoadShared);
  EXPECT_EQ(lds64.width_bytes, 8);
  const auto ldsm = parse_op("ldsm.x2.trans").value();
  EXPECT_EQ(ldsm.op, MemOp::LdMatrix);
  EXPECT_EQ(ldsm.ldmatrix_count, 2);
  EXPECT_TRUE(ldsm.ldmatrix_trans);
  const auto stsm = parse_op("stsm.x4.trans").value();
  EXPECT_EQ(stsm.op, MemOp::StMatrix);
  EXPECT_EQ(stsm.ldmatrix_count, 4);
  EXPECT_TRUE(stsm.ldmatrix_trans);
  const auto cp = parse_op("cp.async.8").value();
  EXPECT_EQ(cp.op, MemOp::CpAsync);
  EXPECT_EQ(cp.width_bytes, 8);
  EXPECT_FALSE(cp.cache_global);
  const auto cg = parse_op("cp.async.cg.16").value();
  EXPECT_EQ(cg.width_bytes, 16);
  EXPECT_TRUE(cg.cache_global);
}

TEST(OpNames, UnknownNameListsTheKnownOnes) {
  auto parsed = parse_op("lds.256");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().message.find("unknown instruction 'lds.256'"), std::string::npos);
  EXPECT_NE(parsed.error().message.find("ldsm.x4.trans"), std::string::npos);
}

}  // namespace
}  // namespace gemmlab::sim

namespace gemmlab::sim {
namespace {

// stmatrix is ldmatrix's store: its lanes give the same row addresses, one phase per 8x8 matrix.
TEST(StMatrix, IsServedAsLdmatrixIsOnePhasePerMatrix) {
  for (const std::uint64_t stride : {128u, 144u, 256u, 16u}) {
    auto load = parse_op("ldsm.x4").value();
    auto store = parse_op("stsm.x4").value();
    for (int lane = 0; lane < 32; ++lane)
      load.address[static_cast<std::size_t>(lane)] = store.address[static_cast<std::size_t>(lane)] = stride * static_cast<std::uint64_t>(lane);
    const auto l = shared_cost(load), s = shared_cost(store);
    ASSERT_TRUE(l.ok() && s.ok());
    EXPECT_EQ(s->wavefronts, l->wavefronts) << stride;
    EXPECT_EQ(s->ideal_wavefronts, 4);
  }
  auto misaligned = parse_op("stsm.x1").value();
  misaligned.address[3] = 8;
  auto cost = shared_cost(misaligned);
  ASSERT_FALSE(cost.ok());
  EXPECT_NE(cost.error().message.find("stmatrix needs 16-byte-aligned row addresses"), std::string::npos) << cost.error().message;
}

}  // namespace
}  // namespace gemmlab::sim
