#include "gemmlab/sim/block_walker.hpp"

#include <algorithm>
#include <array>
#include <climits>

#include "gemmlab/memory_model.hpp"
#include "gemmlab/sim/global_address.hpp"

namespace gemmlab::sim {
namespace {

using kernel::Operand;
using sim::MemOp;

constexpr int kLanes = 32;

bool lane_on(std::uint32_t mask, int lane) { return (mask >> lane) & 1u; }

// Shared words a lane's access covers: ldmatrix rows are 16 bytes, given by lanes 0 .. 8 x count - 1 only.
int lane_words(const sim::WarpAccess& access, int lane) {
  if (access.op == MemOp::LdMatrix) return lane < 8 * access.ldmatrix_count ? 4 : 0;
  return access.width_bytes / 4;
}

// Row and column ranges of one matrix's elements an instruction touches, for "A rows 0-3, columns 0-7".
struct Span {
  int row_min = INT_MAX, row_max = INT_MIN, col_min = INT_MAX, col_max = INT_MIN;
  int count = 0;
  void add(const ElementRef& e) {
    row_min = std::min(row_min, e.row), row_max = std::max(row_max, e.row);
    col_min = std::min(col_min, e.col), col_max = std::max(col_max, e.col);
    ++count;
  }
};

std::string range(int lo, int hi) { return lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi); }

}  // namespace

ElementRef decode_global(std::uint64_t address, const sim::Problem& problem, const sim::OperandBytes& bytes) {
  const auto element = sim::global_element(address, bytes);
  if (!element) return {};
  const kernel::Index cols = element->operand == Operand::A ? problem.k : problem.n;
  if (cols <= 0) return {};
  return {static_cast<std::int8_t>(element->operand), static_cast<std::int32_t>(element->index / cols),
          static_cast<std::int32_t>(element->index % cols)};
}

// `bytes`: the rung's element sizes; a word of 16-bit elements covers its element and the next one in the row.
std::string describe_elements(const InstructionView& iv, bool shared_side, const OperandBytes& bytes) {
  std::array<Span, 3> spans;
  const auto& a = iv.instruction.access;
  for (int lane = 0; lane < 32; ++lane) {
    if (!((a.active_mask >> lane) & 1u)) continue;
    const auto& lv = iv.lanes[static_cast<std::size_t>(lane)];
    for (int q = 0; q < iv.words_per_lane(); ++q) {
      const ElementRef& e = shared_side ? lv.shared[static_cast<std::size_t>(q)] : lv.global[static_cast<std::size_t>(q)];
      if (!e.valid()) continue;
      for (int h = 0; h < elements_in_word(e, bytes); ++h)
        spans[static_cast<std::size_t>(e.operand)].add({e.operand, e.row, e.col + h});
    }
  }
  std::string out;
  static constexpr const char* kNames[] = {"A", "B", "C"};
  for (std::size_t op = 0; op < 3; ++op) {
    const Span& s = spans[op];
    if (s.count == 0) continue;
    if (!out.empty()) out += " and ";
    out += std::string(kNames[op]) + (s.row_min == s.row_max ? " row " : " rows ") + range(s.row_min, s.row_max) +
           (s.col_min == s.col_max ? ", column " : ", columns ") + range(s.col_min, s.col_max);
  }
  return out;
}

std::string index_range(std::int64_t count) {
  if (count <= 0) return "none";
  return count == 1 ? "0" : "0-" + std::to_string(count - 1);
}

std::string index_of(std::int64_t index, std::int64_t count) { return std::to_string(index) + " of " + index_range(count); }

std::string step_name(const PhaseRef& ref, int ksteps) {
  switch (ref.section) {
    case kernel::Section::Prologue: return "prologue";
    case kernel::Section::Epilogue: return "epilogue";
    case kernel::Section::Mainloop: return "k-step " + index_of(ref.kstep, ksteps);
  }
  return {};
}

int InstructionView::words_per_lane() const {
  return instruction.access.op == MemOp::LdMatrix ? 4 : instruction.access.width_bytes / 4;
}

int PhaseView::instruction_count(int warp) const {
  if (warp < 0 || warp + 1 >= static_cast<int>(warp_begin.size())) return 0;
  return warp_begin[static_cast<std::size_t>(warp) + 1] - warp_begin[static_cast<std::size_t>(warp)];
}

const InstructionView* PhaseView::find(int warp, int index) const {
  if (index < 0 || index >= instruction_count(warp)) return nullptr;
  return &instructions[static_cast<std::size_t>(warp_begin[static_cast<std::size_t>(warp)] + index)];
}

bool is_kind(const sim::WarpInstruction& instruction, InstructionKind kind) {
  switch (kind) {
    case InstructionKind::Any: return true;
    case InstructionKind::Shared: return sim::touches_shared(instruction.access.op);
    case InstructionKind::Global: return sim::touches_global(instruction.access.op);
  }
  return false;
}

Result<std::unique_ptr<BlockWalker>> BlockWalker::open(RungId rung, const kernel::KernelConfig& config,
                                                       const sim::Problem& problem, kernel::TileCoord tile) {
  auto stream = sim::BlockStream::open(rung, config, problem, tile);
  if (!stream) return stream.error();
  auto outline = std::make_shared<BlockOutline>();
  outline->rung = rung;
  outline->config = config;
  outline->problem = problem;
  outline->tile = tile;
  outline->shape = stream->shape();
  outline->schedule = stream->schedule();
  outline->smem_words = outline->shape.smem_bytes / 4;
  outline->operand_bytes = sim::operand_bytes(rung);

  // Who writes C: the epilogue's global stores, lane by lane (the persistent rung stores at the last k-step).
  const int row0 = tile.row * config.bm, col0 = tile.col * config.bn;
  outline->c_writer.assign(static_cast<std::size_t>(config.bm) * static_cast<std::size_t>(config.bn), -1);
  int max_tile_loaded = 0;
  for (std::size_t i = 0; i < outline->schedule.size(); ++i) {
    const sim::PhaseRef ref = outline->schedule[i];
    const bool first_kstep = ref.section == kernel::Section::Mainloop && ref.kstep == 0;
    const bool last_kstep = ref.section == kernel::Section::Mainloop && ref.kstep == outline->shape.ksteps - 1;
    if (ref.section != kernel::Section::Epilogue && !first_kstep && !last_kstep) continue;
    auto phase = stream->phase(i);
    if (!phase) return phase.error();
    for (const auto& w : (*phase)->instructions) {
      const auto& a = w.access;
      for (int lane = 0; lane < kLanes; ++lane) {
        const std::uint32_t mask = a.op == MemOp::CpAsync ? w.global_mask : a.active_mask;
        if (!lane_on(mask, lane) || !sim::touches_global(a.op)) continue;
        for (int q = 0; q < lane_words(a, lane); ++q) {
          const ElementRef e = decode_global(a.address[static_cast<std::size_t>(lane)] + 4u * q, problem, outline->operand_bytes);
          if (first_kstep && a.op != MemOp::StoreGlobal) {
            // How many k-steps ahead of k-step 0 this load fetches: the pipeline's depth.
            if (e.operand == static_cast<std::int8_t>(Operand::A)) max_tile_loaded = std::max(max_tile_loaded, e.col / config.bk);
            if (e.operand == static_cast<std::int8_t>(Operand::B)) max_tile_loaded = std::max(max_tile_loaded, e.row / config.bk);
          }
          if (a.op == MemOp::StoreGlobal &&
              e.operand == static_cast<std::int8_t>(Operand::C)) {
            const int r = e.row - row0, c = e.col - col0;
            if (r >= 0 && r < config.bm && c >= 0 && c < config.bn)
              outline->c_writer[static_cast<std::size_t>(r) * static_cast<std::size_t>(config.bn) +
                                static_cast<std::size_t>(c)] = w.warp * kLanes + lane;
          }
        }
      }
    }
  }
  outline->lookahead_ksteps = std::min(max_tile_loaded, std::max(0, outline->shape.ksteps - 1));
  auto walker = std::unique_ptr<BlockWalker>(new BlockWalker(std::move(*stream), std::move(outline)));
  walker->reset();
  return walker;
}

BlockWalker::BlockWalker(sim::BlockStream stream, std::shared_ptr<BlockOutline> outline)
    : stream_(std::move(stream)), outline_(std::move(outline)) {}

void BlockWalker::reset() {
  next_phase_ = 0;
  last_view_.reset();
  pending_.assign(static_cast<std::size_t>(outline_->shape.threads_per_block), {});
  words_.assign(static_cast<std::size_t>(outline_->smem_words), ElementRef{});
}

void BlockWalker::apply(const sim::PhaseStream& phase, PhaseView* view) {
  const int threads = outline_->shape.threads_per_block;
  const auto word_at = [&](std::uint64_t word) -> ElementRef* {
    return word < words_.size() ? &words_[static_cast<std::size_t>(word)] : nullptr;
  };
  if (view) {
    view->shared_before = words_;
    view->instructions.reserve(phase.instructions.size());
  }
  for (const auto& w : phase.instructions) {
    const auto& a = w.access;
    InstructionView* iv = nullptr;
    if (view) {
      iv = &view->instructions.emplace_back();
      iv->instruction = w;
    }
    for (int lane = 0; lane < kLanes; ++lane) {
      const int tid = w.warp * kLanes + lane;
      if (tid >= threads) break;
      const auto l = static_cast<std::size_t>(lane);
      const bool active = lane_on(a.active_mask, lane);
      LaneView* lv = iv ? &iv->lanes[l] : nullptr;
      auto& pending = pending_[static_cast<std::size_t>(tid)];
      const int words = lane_words(a, lane);
      switch (a.op) {
        case MemOp::LoadGlobal:
          for (int q = 0; q < words; ++q) {
            const ElementRef e = active ? decode_global(a.address[l] + 4u * q, outline_->problem, outline_->operand_bytes) : ElementRef{};
            if (lv) lv->global[static_cast<std::size_t>(q)] = e;
            // Loads of C (the epilogue's beta * C) are combined in registers, never staged in shared memory.
            if (e.operand != static_cast<std::int8_t>(Operand::C)) pending.push_back(e);
          }
          break;
        case MemOp::StoreGlobal:
          if (lv && active)
            for (int q = 0; q < words; ++q)
              lv->global[static_cast<std::size_t>(q)] = decode_global(a.address[l] + 4u * q, outline_->problem, outline_->operand_bytes);
          break;
        case MemOp::StoreShared:
        case MemOp::StMatrix: {  // no rung issues stmatrix yet; it writes computed values, as a store does
          const std::uint64_t word0 = a.address[l] / 4;
          if (lv) lv->shared_word = static_cast<std::uint32_t>(word0);
          for (int q = 0; q < words; ++q) {
            // A store with no load queued writes a computed value (an accumulator): no matrix element.
            ElementRef e;
            if (!pending.empty()) {
              e = pending.front();
              pending.pop_front();
            }
            if (active)
              if (ElementRef* slot = word_at(word0 + q)) *slot = e;
            if (lv) lv->shared[static_cast<std::size_t>(q)] = e;
          }
          break;
        }
        case MemOp::LoadShared:
        case MemOp::LdMatrix: {
          const std::uint64_t word0 = a.address[l] / 4;
          if (lv) {
            lv->shared_word = static_cast<std::uint32_t>(word0);
            for (int q = 0; q < words; ++q)
              if (const ElementRef* slot = word_at(word0 + q)) lv->shared[static_cast<std::size_t>(q)] = *slot;
          }
          break;
        }
        case MemOp::CpAsync: {
          const std::uint64_t word0 = a.shared_address[l] / 4;
          const bool reads_global = lane_on(w.global_mask, lane);
          if (lv) lv->shared_word = static_cast<std::uint32_t>(word0);
          for (int q = 0; q < words; ++q) {
            const ElementRef e = reads_global ? decode_global(a.address[l] + 4u * q, outline_->problem, outline_->operand_bytes) : ElementRef{};
            if (active)
              if (ElementRef* slot = word_at(word0 + q)) *slot = e;
            if (lv) {
              lv->global[static_cast<std::size_t>(q)] = e;
              lv->shared[static_cast<std::size_t>(q)] = e;
            }
          }
          break;
        }
      }
    }
  }
  if (view) {
    const int warps = outline_->shape.warps_per_block;
    view->warp_begin.assign(static_cast<std::size_t>(warps) + 1, 0);
    for (const auto& iv : view->instructions)
      if (iv.instruction.warp >= 0 && iv.instruction.warp < warps)
        ++view->warp_begin[static_cast<std::size_t>(iv.instruction.warp) + 1];
    for (int w = 0; w < warps; ++w)
      view->warp_begin[static_cast<std::size_t>(w) + 1] += view->warp_begin[static_cast<std::size_t>(w)];
  }
}

Result<std::shared_ptr<const PhaseView>> BlockWalker::view(std::size_t index, const KeepGoing& keep_going) {
  if (index >= outline_->schedule.size())
    return Error{"phase " + std::to_string(index) + " is past the end of the block's " +
                 std::to_string(outline_->schedule.size()) + " phases"};
  if (last_view_ && last_view_->phase_index == index) return last_view_;
  if (index < next_phase_) reset();
  const std::size_t start = next_phase_;
  while (next_phase_ <= index) {
    if (keep_going && !keep_going(double(next_phase_ - start) / double(index + 1 - start)))
      return Error{"cancelled"};
    auto phase = stream_.phase(next_phase_);
    if (!phase) return phase.error();
    if (next_phase_ == index) {
      auto view = std::make_shared<PhaseView>();
      view->phase_index = index;
      view->ref = (*phase)->ref;
      view->barrier_after = (*phase)->barrier_after;
      view->barrier_threads = (*phase)->barrier_threads;
      view->fma = (*phase)->fma;
      view->counters = (*phase)->counters;
      apply(**phase, view.get());
      last_view_ = std::move(view);
    } else {
      apply(**phase, nullptr);
    }
    ++next_phase_;
  }
  return last_view_;
}

Result<std::size_t> BlockWalker::first_busy_phase() {
  for (std::size_t i = 0; i < outline_->schedule.size(); ++i) {
    auto phase = stream_.phase(i);
    if (!phase) return phase.error();
    if (!(*phase)->instructions.empty()) return i;
  }
  return std::size_t{0};
}

Result<std::optional<std::size_t>> BlockWalker::find_phase(std::size_t from, int direction, InstructionKind kind,
                                                           const KeepGoing& keep_going) {
  const auto count = static_cast<std::ptrdiff_t>(outline_->schedule.size());
  const std::ptrdiff_t step = direction >= 0 ? 1 : -1;
  for (std::ptrdiff_t j = static_cast<std::ptrdiff_t>(from) + step; j >= 0 && j < count; j += step) {
    if (keep_going && !keep_going(step > 0 ? double(j) / double(count) : 1.0 - double(j) / double(count)))
      return Error{"cancelled"};
    auto phase = stream_.phase(static_cast<std::size_t>(j));
    if (!phase) return phase.error();
    for (const auto& w : (*phase)->instructions)
      if (is_kind(w, kind)) return std::optional<std::size_t>(static_cast<std::size_t>(j));
  }
  return std::optional<std::size_t>();
}

}  // namespace gemmlab::sim
