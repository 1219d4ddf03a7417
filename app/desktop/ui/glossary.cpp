#include "ui/glossary.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/theme.hpp"

namespace gemmlab::desktop::ui {
namespace {

struct Entry {
  std::string_view term;
  std::string_view text;
};

constexpr Entry kGlossary[] = {
    {"warp", "32 threads that issue each instruction together. A warp's memory instruction carries 32 addresses, "
             "one per lane; the hardware serves them as one request."},
    {"lane", "A thread's position in its warp, 0 to 31 (thread index mod 32)."},
    {"block", "A thread block: the threads that share one shared-memory buffer and synchronize at barriers. Here "
              "each block computes one bm x bn tile of C."},
    {"k-step", "One slice of the K dimension, bk deep. At each k-step a block brings in a bm x bk tile of A and a "
               "bk x bn tile of B, then multiplies them into its C tile."},
    {"phase", "The part of a block's work between two barriers (or the whole k-step when there is no barrier). "
              "The simulator runs every thread up to the same barrier, one phase at a time."},
    {"bank", "Shared memory is split into 32 banks, each 4 bytes wide. Word w (byte address / 4) lives in bank "
             "w mod 32. In one wavefront each bank delivers one 4-byte word."},
    {"wavefront", "One pass of shared memory serving part of a warp's request: at most one word from each of the 32 "
                  "banks, 128 bytes in all. A request that needs two different words from one bank needs two "
                  "wavefronts. Nsight Compute counts these."},
    {"ideal wavefronts", "The wavefronts a request would take without conflicts: one per phase that has an active "
                         "lane. The lanes are served in phases of 128 bytes: one phase of 32 lanes for 32-bit "
                         "accesses, 2 of 16 for 64-bit, 4 of 8 for 128-bit (loads whose lane pairs share addresses "
                         "merge two phases); ldmatrix, one per 8x8 matrix. So a full warp's ideal is its bytes / 128, "
                         "but a partial mask keeps every phase it touches: sts.128 on lanes 0-3 of each quarter moves "
                         "256 bytes and its ideal is 4, as the H100 counts it."},
    {"bank conflict", "Lanes need different words that live in the same bank: the bank delivers them one per "
                      "wavefront, so the request takes extra wavefronts. bank conflicts = wavefronts - ideal "
                      "wavefronts (as ncu reports them). Lanes reading the same word do not conflict (broadcast)."},
    {"N-way conflict", "N different words of one bank requested by one warp instruction: that bank alone needs N "
                       "wavefronts, so the instruction takes at least N."},
    {"broadcast", "Several lanes reading the same 4-byte word: the bank delivers it once to all of them, no "
                  "conflict."},
    {"padding", "Unused floats added at the end of each shared-memory row. A row of 32 floats plus 1 starts one "
                "bank later than the row above, so walking down a column visits all 32 banks instead of one."},
    {"swizzle", "An XOR permutation of where data sits in a shared row: 16-byte chunk c of row r is stored at chunk "
                "c XOR (r mod 8). A column of accesses then spreads across the banks without wasting memory on "
                "padding."},
    {"sector", "Global memory is moved in 32-byte sectors. A warp's load fetches every sector any of its active "
               "lanes touches, whole, even if it uses 4 bytes of it."},
    {"line", "A 128-byte cache line: 4 consecutive sectors, the unit the L1 and L2 caches keep tags for."},
    {"coalescing", "Lanes of a warp touching neighbouring addresses share sectors, so the warp's request needs few "
                   "of them: 32 lanes reading 32 consecutive floats need 4 sectors, not 32."},
    {"ideal sectors", "The fewest sectors the active lanes' bytes could fit in: ceil(active lanes x bytes per lane / "
                      "32)."},
    {"sector efficiency", "Ideal sectors / sectors fetched. 100% means every byte fetched was asked for; 12.5% means "
                          "7 of every 8 bytes were fetched for nothing. Above 100% when lanes share bytes "
                          "(a broadcast)."},
    {"occupancy", "How many warps an SM keeps resident at once, as a share of its maximum (64 on an H100). Limited "
                  "by the threads, registers and shared memory each block needs. More resident warps hide more "
                  "memory latency."},
    {"cp.async", "An asynchronous copy from global to shared memory (SASS LDGSTS) that needs no register and does "
                 "not stall the thread: several tiles can be in flight while the block computes."},
    {"ldmatrix", "A warp instruction that loads 8x8 matrices of 16-bit values from shared memory for tensor-core "
                 "instructions; lanes give the 16-byte row addresses."},
    {"instruction names", "ldg / stg: load / store global memory. lds / sts: load / store shared memory. The suffix "
                          "is the bits each lane moves: .32 (one float), .64, .128 (a float4). cp.async.16 copies 16 "
                          "bytes global -> shared."},
    {"barrier", "__syncthreads(): every thread of the block waits until all have arrived, so data stored to shared "
                "memory before it is visible to every thread after it."},
    {"roofline", "A performance bound: a kernel can go no faster than its arithmetic peak, nor than memory "
                 "bandwidth x its arithmetic intensity (FLOPs per byte moved)."},
    {"time model", "A prediction of the kernel's time (not a bound): each resource - instruction issue, the "
                   "L1/shared data pipe, the tensor cores, the L2, DRAM, the wait for tiles, the TMA copy engine - costed at the rate "
                   "measured on the GPU by microbenchmarks; the SM's own resources overlap in part. docs/fidelity.md "
                   "compares it with measured times."},
    {"TFLOPS", "Trillions of floating-point operations per second. A GEMM does 2 x m x n x k of them."},
    {"wave", "The blocks that run at the same time: SMs x the blocks one SM can hold (occupancy). Blocks start in "
             "launch order, a wave at a time (the model's simplification: in reality a new block starts whenever one "
             "finishes). Only blocks of one wave can share a tile of A or B while it is still in the L2."},
    {"launch order", "Which tile of C the block launched n-th computes. The GPU starts blocks in roughly increasing "
                     "blockIdx (NVIDIA does not document it); the kernel maps each index to a tile, so it can make "
                     "the blocks that run together neighbours."},
    {"block swizzle", "A launch order that walks the grid in narrow groups instead of whole rows, so a wave covers a "
                      "squarer patch of C and reads fewer distinct tiles of A and B. CUTLASS walks bands of N tile "
                      "columns row by row; Triton's GROUP_M walks groups of N tile rows column by column. (Not the "
                      "shared-memory swizzle, which permutes addresses inside a block.)"},
    {"group size", "cutlass:N: the band's width in tile columns (a power of two). groupm:N: the tile rows in a "
                   "group. Neither may be larger than the grid."},
    {"L2 hit rate", "The share of the 32-byte sectors blocks read that were still in the L2 cache (50 MiB on an "
                    "H100, shared by all SMs) instead of coming from DRAM. A hit means another block read the same "
                    "tile recently enough."},
    {"DRAM bytes", "Bytes moved between the GPU's memory (HBM: 3.35 TB/s on an H100) and the L2: every sector read "
                   "that missed in the L2, and C written back. Reading A and B once each is the floor; every "
                   "re-fetch of a tile adds to it."},
    {"times from DRAM", "How many times a tile row of A (or tile column of B) came from DRAM over the whole kernel, "
                        "in units of its own size: 1 is the floor, each byte fetched once; 16 means the L2 lost it "
                        "and fetched it again 15 times."},
    {"register tile", "The tm x tn results of C a thread accumulates in its registers across all k-steps, written "
                      "to C once at the end."},
};

}  // namespace

std::string_view explain(std::string_view term) {
  for (const auto& entry : kGlossary)
    if (entry.term == term) return entry.text;
  return {};
}

void term_tooltip_for_last_item(std::string_view term) {
  if (!ImGui::IsItemHovered()) return;
  const auto text = explain(term);
  if (text.empty()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
  ImGui::PushFont(fonts().heading ? fonts().heading : ImGui::GetFont());
  ImGui::TextUnformatted(term.data(), term.data() + term.size());
  ImGui::PopFont();
  ImGui::TextUnformatted(text.data(), text.data() + text.size());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void term(std::string_view term, std::string_view label) {
  const std::string_view shown = label.empty() ? term : label;
  ImGui::PushStyleColor(ImGuiCol_Text, colour::to_vec4(IM_COL32(140, 200, 255, 255)));
  ImGui::TextUnformatted(shown.data(), shown.data() + shown.size());
  ImGui::PopStyleColor();
  // A dotted underline marks words that explain themselves on hover.
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (float x = min.x; x < max.x; x += 4.0f)
    draw->AddLine(ImVec2(x, max.y), ImVec2(std::min(x + 2.0f, max.x), max.y), IM_COL32(140, 200, 255, 160));
  term_tooltip_for_last_item(term);
}

void term_marker(std::string_view term) {
  ImGui::SameLine(0.0f, 4.0f);
  ImGui::TextDisabled("(?)");
  term_tooltip_for_last_item(term);
}

}  // namespace gemmlab::desktop::ui
