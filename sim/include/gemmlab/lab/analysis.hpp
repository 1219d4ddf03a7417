#pragma once
// The layout lab's answer in ncu's terms: each instruction of an access through the memory model, phase by phase
// (which lane touches which bank, the wavefronts, the ideal, the conflicts, the worst bank and the lanes that collide
// on it), and the totals over the tile, named by the ncu counters that measure them.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gemmlab/lab/access.hpp"
#include "gemmlab/lab/tile.hpp"
#include "gemmlab/memory_model.hpp"
#include "gemmlab/result.hpp"

namespace gemmlab::lab {

// One phase of an instruction: the lanes the hardware serves together.
struct Phase {
  int first_lane = 0, lanes = 32;
  int wavefronts = 0, ideal = 0;
  int worst_bank = -1;               // the bank asked for the most distinct words (-1: none touched)
  int worst_way = 0;                 // how many distinct words it was asked for
  std::vector<int> colliding_lanes;  // the lanes asking it for them, when worst_way > 1
  int conflicts() const { return wavefronts - ideal; }
};

struct InstructionReport {
  sim::SharedDetail shared;
  std::vector<Phase> phases;
  std::array<int, 32> first_bank{};         // each lane's first bank (-1: no address)
  std::optional<sim::GlobalDetail> global;  // copies: the global side
};

struct Totals {
  std::int64_t instructions = 0;
  std::int64_t wavefronts = 0, ideal = 0;
  std::int64_t global_requests = 0, global_sectors = 0, global_ideal_sectors = 0;
  std::int64_t conflicts() const { return wavefronts - ideal; }
};

// The ncu counters that measure an access's shared side (wavefronts, conflicts) and global side, as ncu names them.
struct NcuNames {
  std::string wavefronts, conflicts, requests, sectors;
};
NcuNames ncu_names(const Access& access);

struct Report {
  Tile tile;
  Access access;
  std::vector<InstructionReport> instructions;  // one per access.instructions
  Totals totals;
  NcuNames ncu;
};

// Everything about an access: instructions, phases, totals.
Result<Report> analyse(const Tile& tile, const AccessSpec& spec);
// Only the totals, on the memory model's fast path (for searching layouts).
Result<Totals> totals_of(const Access& access);

}  // namespace gemmlab::lab
