// Shared-memory banks: one warp instruction against the 32 banks. Each lane's address and bank; the wavefronts the
// request takes, bank by bank (ideal rows, then the extra rows that are the conflicts); and the whole shared buffer
// as rows of 32 banks, with what each word holds and the words this instruction touches.
#include <imgui.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <climits>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "gemmlab/memory_model.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "gemmlab/sim/tma_swizzle.hpp"
#include "panels/grid_drawing.hpp"
#include "panels/panel_widgets.hpp"
#include "panels/panels.hpp"
#include "ui/canvas.hpp"
#include "ui/glossary.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

namespace colour = ui::colour;
constexpr int kBanks = 32;
constexpr ImU32 kDark = IM_COL32(10, 10, 14, 255);

// The knobs that change where data sits in shared memory, offered right here so a toggle shows its effect at once.
constexpr std::string_view kLayoutKnobs[] = {"a_pad", "b_pad", "swizzle", "conflicting"};

// What each shared word holds after instruction `at`: the phase's starting contents plus the stores of every
// warp's instructions up to that index (the warps are shown stepping together).
std::vector<ElementRef> words_at(const PhaseView& v, int at) {
  std::vector<ElementRef> words = v.shared_before;
  for (std::size_t flat = 0; flat < v.instructions.size(); ++flat) {
    const InstructionView& iv = v.instructions[flat];
    const int index = static_cast<int>(flat) - v.warp_begin[static_cast<std::size_t>(iv.instruction.warp)];
    const auto op = iv.instruction.access.op;
    if (index > at || (op != sim::MemOp::StoreShared && op != sim::MemOp::CpAsync)) continue;
    for (int lane = 0; lane < 32; ++lane) {
      if (!((iv.instruction.access.active_mask >> lane) & 1u)) continue;
      const LaneView& lv = iv.lanes[static_cast<std::size_t>(lane)];
      for (int q = 0; q < iv.words_per_lane(); ++q) {
        const std::size_t word = lv.shared_word + static_cast<std::size_t>(q);
        if (word < words.size()) words[word] = lv.shared[static_cast<std::size_t>(q)];
      }
    }
  }
  return words;
}

// The active lanes of the instruction by the first shared word each touches: more than one lane on a word is a
// broadcast (loads) or lanes writing the same place (stores).
std::map<std::uint32_t, std::vector<int>> lanes_by_first_word(const InstructionView& iv) {
  std::map<std::uint32_t, std::vector<int>> out;
  const auto& a = iv.instruction.access;
  for (int lane = 0; lane < 32; ++lane) {
    const bool gives_address = !sim::is_matrix_op(a.op) || lane < 8 * a.ldmatrix_count;
    if (((a.active_mask >> lane) & 1u) && gives_address)
      out[iv.lanes[static_cast<std::size_t>(lane)].shared_word].push_back(lane);
  }
  return out;
}

void summary(const InstructionView& iv, const sim::SharedDetail& detail) {
  const auto& w = iv.instruction;
  const int lanes = std::popcount(w.access.active_mask);
  const int bytes = sim::is_matrix_op(w.access.op) ? 16 : w.access.width_bytes;
  int worst = 0, worst_bank = 0;
  for (int b = 0; b < kBanks; ++b)
    if (detail.max_way_per_bank[static_cast<std::size_t>(b)] > worst) worst = detail.max_way_per_bank[static_cast<std::size_t>(b)], worst_bank = b;
  ImGui::PushFont(ui::fonts().heading);
  ImGui::Text("%s", instruction_name(w).c_str());
  ImGui::SameLine();
  ImGui::TextUnformatted("  wavefronts:");
  ImGui::SameLine();
  ui::coloured_text(detail.cost.bank_conflicts() > 0 ? colour::conflict : colour::ok, "%d", detail.cost.wavefronts);
  ImGui::SameLine();
  ImGui::Text("  ideal: %d", detail.cost.ideal_wavefronts);
  ImGui::SameLine();
  ImGui::TextUnformatted("  bank conflicts:");
  ImGui::SameLine();
  ui::coloured_text(detail.cost.bank_conflicts() > 0 ? colour::conflict : colour::ok, "%d", detail.cost.bank_conflicts());
  ImGui::PopFont();
  ImGui::Text("%d lanes x %d bytes = %d bytes.", lanes, bytes, lanes * bytes);
  ImGui::SameLine(0, 4);
  ui::term("ideal wavefronts", "Ideal");
  ImGui::SameLine(0, 4);
  ImGui::SameLine(0, 4);
  ImGui::TextWrapped("= %d: %s.", detail.cost.ideal_wavefronts, sim::ideal_rule(w.access, detail).c_str());
  if (worst > 1) {
    ImGui::Text("The worst bank, %d, must deliver %d different words to one group of lanes:", worst_bank, worst);
    ImGui::SameLine(0, 4);
    ui::term("N-way conflict", std::to_string(worst) + "-way conflict.");
  } else if (detail.cost.bank_conflicts() > 0 && w.access.op == sim::MemOp::CpAsync) {
    ImGui::TextWrapped("No bank is asked for two words on the shared side. The extra wavefronts come from the copy's "
                       "source: cp.async reads each lane's source through L1's 32 banks as well, and lanes whose "
                       "sources fall in the same bank cannot share a wavefront.");
  } else {
    ImGui::TextUnformatted("Every bank delivers at most one word per wavefront:");
    ImGui::SameLine(0, 4);
    ui::term("bank conflict", "no conflict.");
  }
}

// Lanes 0-31: each lane's bank (coloured) and the wavefront that serves it.
void lane_strip(const InstructionView& iv, const sim::SharedDetail& detail, float left, float column) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float row = ImGui::GetTextLineHeight() + 4.0f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  std::array<int, 32> wavefront_of{};
  wavefront_of.fill(-1);
  for (std::size_t f = 0; f < detail.wavefronts.size(); ++f)
    for (const int lane : detail.wavefronts[f].lanes)
      if (wavefront_of[static_cast<std::size_t>(lane)] < 0) wavefront_of[static_cast<std::size_t>(lane)] = static_cast<int>(f);
  draw->AddText(ImVec2(origin.x, origin.y + 2), colour::muted_text, "lane");
  draw->AddText(ImVec2(origin.x, origin.y + row + 2), colour::muted_text, "bank");
  draw->AddText(ImVec2(origin.x, origin.y + 2 * row + 2), colour::muted_text, "wavefront");
  char text[16];
  const auto& a = iv.instruction.access;
  for (int lane = 0; lane < 32; ++lane) {
    const float x = origin.x + left + static_cast<float>(lane) * column;
    const bool active = (a.active_mask >> lane) & 1u;
    const bool gives_address = !sim::is_matrix_op(a.op) || lane < 8 * a.ldmatrix_count;
    std::snprintf(text, sizeof text, "%d", lane);
    ui::centered_text(draw, ImVec2(x, origin.y), ImVec2(x + column, origin.y + row), active ? colour::highlight : colour::muted_text, text);
    if (!active || !gives_address) continue;
    const int bank = static_cast<int>(iv.lanes[static_cast<std::size_t>(lane)].shared_word % kBanks);
    const ImVec2 min(x + 1, origin.y + row), max(x + column - 1, origin.y + 2 * row - 1);
    draw->AddRectFilled(min, max, colour::bank(bank), 3.0f);
    std::snprintf(text, sizeof text, "%d", bank);
    ui::centered_text(draw, min, max, kDark, text);
    std::snprintf(text, sizeof text, "%d", wavefront_of[static_cast<std::size_t>(lane)]);
    ui::centered_text(draw, ImVec2(x, origin.y + 2 * row), ImVec2(x + column, origin.y + 3 * row), colour::highlight, text);
  }
  ImGui::InvisibleButton("lanes", ImVec2(left + 32 * column, 3 * row));
  if (ImGui::IsItemHovered()) {
    const float mx = ImGui::GetIO().MousePos.x - origin.x - left;
    const int lane = static_cast<int>(mx / column);
    if (mx >= 0 && lane < 32 && ((a.active_mask >> lane) & 1u)) {
      const LaneView& lv = iv.lanes[static_cast<std::size_t>(lane)];
      std::string holds;
      for (int q = 0; q < iv.words_per_lane(); ++q) holds += (q ? ", " : "") + element_name(lv.shared[static_cast<std::size_t>(q)]);
      ImGui::SetTooltip("lane %d: byte offset %u (word %u) -> bank %u\n%s %s\nserved in wavefront %d", lane,
                        lv.shared_word * 4u, lv.shared_word, lv.shared_word % kBanks,
                        a.op == sim::MemOp::StoreShared || a.op == sim::MemOp::CpAsync ? "writes" : "reads", holds.c_str(),
                        wavefront_of[static_cast<std::size_t>(lane)]);
    }
  }
}

// Wavefronts x banks: which word each bank delivers in each wavefront. Rows past the ideal count are the conflicts.
void wavefront_grid(const sim::SharedDetail& detail, float left, float column) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float row = ImGui::GetTextLineHeight() + 2.0f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  char text[32];
  // The bank header with each bank's worst N-way degree.
  draw->AddText(ImVec2(origin.x, origin.y), colour::muted_text, "bank");
  for (int b = 0; b < kBanks; ++b) {
    const float x = origin.x + left + static_cast<float>(b) * column;
    std::snprintf(text, sizeof text, "%d", b);
    ui::centered_text(draw, ImVec2(x, origin.y), ImVec2(x + column, origin.y + row), colour::bank(b, 1.2f), text);
    const int way = detail.max_way_per_bank[static_cast<std::size_t>(b)];
    if (way > 1) {
      std::snprintf(text, sizeof text, "%dx", way);
      ui::centered_text(draw, ImVec2(x, origin.y + row), ImVec2(x + column, origin.y + 2 * row), colour::conflict, text);
    }
  }
  draw->AddText(ImVec2(origin.x, origin.y + row), colour::muted_text, "N-way");
  const float top = origin.y + 2 * row + 2;
  // At most a third of the panel's height: the buffer below needs room too. The rest are counted.
  const int room = std::max(3, static_cast<int>(ImGui::GetContentRegionAvail().y * 0.33f / row) - 2);
  const int shown = std::min<int>(static_cast<int>(detail.wavefronts.size()), room);
  for (int f = 0; f < shown; ++f) {
    const float y = top + static_cast<float>(f) * row;
    const bool extra = f >= detail.cost.ideal_wavefronts;
    std::snprintf(text, sizeof text, "%s %d", extra ? "extra" : "ideal", f);
    draw->AddText(ImVec2(origin.x, y + 1), extra ? colour::conflict : colour::ok, text);
    draw->AddRectFilled(ImVec2(origin.x + left, y), ImVec2(origin.x + left + kBanks * column, y + row - 2),
                        extra ? IM_COL32(70, 24, 28, 255) : IM_COL32(30, 34, 42, 255));
    // One cell per bank that delivers a word in this wavefront, labelled with the lane that asked (+ for more).
    std::array<int, 32> first_lane{}, lanes_on_bank{};
    first_lane.fill(-1);
    for (const auto& hit : detail.wavefronts[static_cast<std::size_t>(f)].hits) {
      const auto b = static_cast<std::size_t>(hit.bank);
      if (first_lane[b] < 0) first_lane[b] = hit.lane;
      ++lanes_on_bank[b];
    }
    for (int b = 0; b < kBanks; ++b) {
      if (first_lane[static_cast<std::size_t>(b)] < 0) continue;
      const float x = origin.x + left + static_cast<float>(b) * column;
      const ImVec2 min(x + 1, y), max(x + column - 1, y + row - 2);
      draw->AddRectFilled(min, max, colour::bank(b), 2.0f);
      std::snprintf(text, sizeof text, "%d%s", first_lane[static_cast<std::size_t>(b)], lanes_on_bank[static_cast<std::size_t>(b)] > 1 ? "+" : "");
      ui::centered_text(draw, min, max, kDark, text);
    }
  }
  const float height = 2 * row + 2 + static_cast<float>(shown) * row;
  ImGui::Dummy(ImVec2(left + kBanks * column, height));
  if (static_cast<int>(detail.wavefronts.size()) > shown)
    ui::coloured_text(colour::conflict, "... and %zu more wavefronts like these: %zu in all, where %d would do.",
                      detail.wavefronts.size() - static_cast<std::size_t>(shown), detail.wavefronts.size(),
                      detail.cost.ideal_wavefronts);
}

// The whole shared buffer, 32 banks to a row: what each word holds, and the words this instruction touches.
void buffer_view(PanelContext& context, const BlockOutline& o, const PhaseView& v, int picked,
                 const InstructionView& iv, const sim::SharedDetail& detail) {
  AppModel& model = context.model;
  const std::vector<ElementRef> words = words_at(v, picked);
  const int rows = std::max(1, (o.smem_words + kBanks - 1) / kBanks);
  const float margin = 5.0f;  // cells of room on the left for row labels
  std::vector<ImU32> colours(static_cast<std::size_t>(rows) * kBanks, colour::empty_cell);
  for (std::size_t word = 0; word < words.size(); ++word)
    if (words[word].valid()) colours[word] = colour::bank(static_cast<int>(word % kBanks), 0.55f);
  for (std::size_t word = words.size(); word < colours.size(); ++word) colours[word] = IM_COL32(16, 17, 20, 255);
  // The words this instruction touches, bright.
  std::array<bool, 32> conflicted{};
  for (int b = 0; b < kBanks; ++b) conflicted[static_cast<std::size_t>(b)] = detail.max_way_per_bank[static_cast<std::size_t>(b)] > 1;
  const auto& a = iv.instruction.access;
  for (int lane = 0; lane < 32; ++lane) {
    if (!((a.active_mask >> lane) & 1u)) continue;
    for (int q = 0; q < iv.words_per_lane(); ++q) {
      const std::size_t word = iv.lanes[static_cast<std::size_t>(lane)].shared_word + static_cast<std::size_t>(q);
      if (word < colours.size()) colours[word] = colour::bank(static_cast<int>(word % kBanks), 1.25f);
    }
  }

  ImGui::TextUnformatted("The shared buffer, 32 banks to a row.");
  ImGui::SameLine();
  ui::note_text("Coloured words hold data (bank colour); dark ones are padding or not written yet. Bright words with "
                "lane numbers are this instruction's; a red frame marks a bank with a conflict.");
  ViewTransform& transform = model.view_transform("banks-buffer");
  ui::Canvas canvas("buffer", ImVec2(0, 0), transform, margin + kBanks, static_cast<float>(rows) + 1.0f, true);
  ImDrawList* draw = canvas.draw();
  draw->AddRect(canvas.min(), canvas.max(), IM_COL32(60, 64, 76, 255));  // a frame, not a fill: no overdraw
  draw_cell_grid(context.grids, canvas, "banks-buffer", kBanks, rows, colours, margin, 1.0f);
  const float cell = canvas.scale();
  char text[48];
  // Bank numbers above the grid.
  for (int b = 0; b < kBanks; ++b) {
    ImVec2 min, max;
    cell_rect(canvas, margin, 0.0f, b, 0, min, max);
    if (cell >= ImGui::CalcTextSize("31").x + 2) {
      std::snprintf(text, sizeof text, "%d", b);
      ui::centered_text(draw, min, max, colour::bank(b, 1.2f), text);
    }
  }
  draw->AddText(canvas.to_screen(0.0f, 0.0f), colour::muted_text, "tile, byte");
  // Row labels: the row's first byte, and which tile its words hold.
  const float line = ImGui::GetTextLineHeight();
  const int label_every = std::max(1, static_cast<int>(std::ceil(line / std::max(cell, 0.01f))));
  for (int r = 0; r < rows; r += label_every) {
    const ImVec2 at = canvas.to_screen(0.0f, 1.0f + static_cast<float>(r));
    if (at.y < canvas.min().y - line || at.y > canvas.max().y) continue;
    int a_words = 0, b_words = 0;
    for (int b = 0; b < kBanks; ++b) {
      const std::size_t word = static_cast<std::size_t>(r) * kBanks + static_cast<std::size_t>(b);
      if (word < words.size() && words[word].operand == 0) ++a_words;
      if (word < words.size() && words[word].operand == 1) ++b_words;
    }
    std::snprintf(text, sizeof text, "%s %d", a_words > b_words ? "A" : b_words > 0 ? "B" : " ", r * kBanks * 4);
    draw->AddText(ImVec2(at.x + 2.0f, at.y + std::max(0.0f, (cell - line) * 0.5f)),
                  a_words > b_words ? colour::operand(0) : b_words > 0 ? colour::operand(1) : colour::muted_text, text);
  }
  // Outlines and lane numbers on the touched words. Lanes sharing a word (a broadcast) would draw their numbers on
  // top of each other: the word shows its first lane and a "+", and its tooltip lists them all.
  const std::map<std::uint32_t, std::vector<int>> lanes_of = lanes_by_first_word(iv);
  for (const auto& [word0, lanes] : lanes_of) {
    for (int q = 0; q < iv.words_per_lane(); ++q) {
      const std::uint32_t word = word0 + static_cast<std::uint32_t>(q);
      ImVec2 min, max;
      cell_rect(canvas, margin, 1.0f, static_cast<int>(word % kBanks), static_cast<int>(word / kBanks), min, max);
      const bool bad = conflicted[word % kBanks];
      draw->AddRect(min, max, bad ? colour::conflict : colour::highlight, 0.0f, 0, bad ? 2.5f : 1.5f);
      if (q != 0) continue;
      std::snprintf(text, sizeof text, "%d%s", lanes.front(), lanes.size() > 1 ? "+" : "");
      if (cell < ImGui::CalcTextSize(text).x + 2) std::snprintf(text, sizeof text, "%d", lanes.front());
      if (cell >= ImGui::CalcTextSize(text).x + 2) ui::centered_text(draw, min, max, kDark, text);
    }
  }
  // Keep the touched words in sight: when some are off screen, scroll so they are (centred when they fit).
  if (a.active_mask) {
    std::uint32_t first = UINT32_MAX, last = 0;
    for (int lane = 0; lane < 32; ++lane)
      if ((a.active_mask >> lane) & 1u) {
        first = std::min(first, iv.lanes[static_cast<std::size_t>(lane)].shared_word / kBanks);
        last = std::max(last, iv.lanes[static_cast<std::size_t>(lane)].shared_word / kBanks);
      }
    const float top = canvas.to_screen(0.0f, 1.0f + static_cast<float>(first)).y;
    const float bottom = canvas.to_screen(0.0f, 2.0f + static_cast<float>(last)).y;
    const float view = canvas.max().y - canvas.min().y;
    if (top < canvas.min().y || bottom > canvas.max().y) {
      const float span = bottom - top;
      const float wanted_top = span < view ? (view - span) * 0.5f : cell;
      transform.y = wanted_top - (1.0f + static_cast<float>(first)) * cell;
    }
  }
  if (canvas.hovered()) {
    const ImVec2 p = canvas.to_content(ImGui::GetIO().MousePos);
    const int column = static_cast<int>(p.x - margin), row = static_cast<int>(p.y - 1.0f);
    if (p.x >= margin && p.y >= 1.0f && column < kBanks && row < rows) {
      const std::size_t word = static_cast<std::size_t>(row) * kBanks + static_cast<std::size_t>(column);
      std::string touched;
      for (const auto& [word0, lanes] : lanes_of)
        if (word >= word0 && word < word0 + static_cast<std::size_t>(iv.words_per_lane()))
          touched = std::string(lanes.size() > 1 ? "\nlanes " : "\nlane ") + sim::lane_ranges(lanes) + " of this instruction";
      ImGui::SetTooltip("word %zu (byte offset %zu), bank %d\nholds: %s%s", word, word * 4, column,
                        word < words.size() ? (words[word].valid() ? element_name(words[word]).c_str() : "nothing (padding, or not written yet)")
                                            : "past the end of the buffer",
                        touched.c_str());
    }
  }
}

// The Hopper rungs: TMA writes their tiles and wgmma reads them, so no warp instruction touches shared memory to show
// above. Instead: the shared image each TMA swizzle mode makes of 8 box rows, laid out as the 128-byte lines the 32
// banks serve, and the wavefronts of the core matrix (8 rows x 16 bytes) a wgmma reads at one column of 16 bytes.
void tma_swizzle_view(AppModel& model) {
  ui::heading("TMA writes these tiles, wgmma reads them");
  ui::note_text("No warp instruction touches this rung's tiles in shared memory: the copy engine lands each box in "
                "the swizzle mode its tensor map names, and the tensor cores read 8 x 8 core matrices (8 rows of 16 "
                "bytes) through descriptors that name the same mode. Pick a mode; hover a chunk to read its core "
                "matrix.");
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("TMA swizzle:");
  for (const int mode : {0, 32, 64, 128}) {
    ImGui::SameLine();
    const std::string label = mode == 0 ? "none (128-byte rows)" : std::to_string(mode) + " B";
    if (ImGui::RadioButton(label.c_str(), model.tma_swizzle() == mode)) (void)model.set_tma_swizzle(mode);
  }
  ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
  ui::term("swizzle");
  const int mode = model.tma_swizzle();
  const auto image = sim::swizzle_image(mode, mode == 0 ? 128 : mode);
  if (!image) {
    ui::coloured_text(colour::conflict, "%s", image.error().message.c_str());
    return;
  }
  // The image as 128-byte lines (8 chunks of 16 bytes: banks 4g to 4g + 3 for chunk g).
  const int chunks = image->chunks();
  const int lines = sim::SwizzleImage::rows * image->row_bytes / 128;
  const float left = ImGui::CalcTextSize("line 00 ").x;
  const float cell = std::clamp((ImGui::GetContentRegionAvail().x - left) / 8.0f, 40.0f, 90.0f);
  const float height = ImGui::GetTextLineHeight() * 2.2f;
  ImGui::Spacing();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // Which core matrix to show: the hovered chunk's, else chunk 0.
  int shown = 0;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const auto cell_of = [&](int row, int chunk) {
    return ImVec2(origin.x + left + float(image->bank_group(row, chunk)) * cell,
                  origin.y + height * float(1 + image->line(row, chunk)));
  };
  int hovered_row = -1, hovered_chunk = -1;
  for (int r = 0; r < sim::SwizzleImage::rows; ++r)
    for (int c = 0; c < chunks; ++c) {
      const ImVec2 min = cell_of(r, c);
      if (mouse.x >= min.x && mouse.x < min.x + cell && mouse.y >= min.y && mouse.y < min.y + height)
        hovered_row = r, hovered_chunk = c, shown = c;
    }
  const auto read = sim::core_matrix_read(*image, shown);
  if (!read) {
    ui::coloured_text(colour::conflict, "%s", read.error().message.c_str());
    return;
  }
  char text[64];
  for (int g = 0; g < 8; ++g) {
    std::snprintf(text, sizeof text, "banks %d-%d", 4 * g, 4 * g + 3);
    const ImVec2 min(origin.x + left + float(g) * cell, origin.y);
    ui::centered_text(draw, min, ImVec2(min.x + cell, min.y + height), colour::muted_text, text);
  }
  for (int line = 0; line < lines; ++line) {
    std::snprintf(text, sizeof text, "line %d", line);
    draw->AddText(ImVec2(origin.x, origin.y + height * float(1 + line) + height * 0.3f), colour::muted_text, text);
  }
  for (int r = 0; r < sim::SwizzleImage::rows; ++r)
    for (int c = 0; c < chunks; ++c) {
      const ImVec2 min = cell_of(r, c), max(min.x + cell - 2, min.y + height - 2);
      const bool in_core = c == shown;
      draw->AddRectFilled(min, max, ui::colour::bank(c * 32 / std::max(chunks, 1), in_core ? 1.0f : 0.45f));
      if (in_core) draw->AddRect(min, max, colour::highlight, 0.0f, 0, 2.0f);
      std::snprintf(text, sizeof text, "r%d c%d", r, c);
      ui::centered_text(draw, min, max, kDark, text);
    }
  ImGui::Dummy(ImVec2(left + 8 * cell, height * float(1 + lines) + 4));
  if (hovered_row >= 0) {
    const int group = image->bank_group(hovered_row, hovered_chunk);
    ImGui::SetTooltip("row %d, chunk %d: bytes %d-%d of the box row (elements %d-%d)\nlands at byte %d of the image: "
                      "line %d, banks %d-%d",
                      hovered_row, hovered_chunk, 16 * hovered_chunk, 16 * hovered_chunk + 15, 8 * hovered_chunk,
                      8 * hovered_chunk + 7, image->byte_offset(hovered_row, hovered_chunk),
                      image->line(hovered_row, hovered_chunk), 4 * group, 4 * group + 3);
  }
  // What the core matrix costs.
  const sim::SharedCost& cost = read->detail.cost;
  ImGui::PushFont(ui::fonts().heading);
  ImGui::Text("core matrix at chunk %d: 8 rows x 16 bytes in", shown);
  ImGui::SameLine();
  ui::coloured_text(cost.bank_conflicts() > 0 ? colour::conflict : colour::ok, "%d wavefront%s", cost.wavefronts,
                    cost.wavefronts == 1 ? "" : "s");
  ImGui::SameLine();
  ImGui::Text("(ideal %d)", cost.ideal_wavefronts);
  ImGui::PopFont();
  if (mode == 0)
    ImGui::TextWrapped("Without a swizzle the 8 rows of a 16-byte column sit 128 bytes apart: all in banks %d-%d, an "
                       "8-way conflict on every core matrix. TMA writes global rows as they are; the swizzle modes "
                       "move each row's chunks so that a column of 8 rows spreads over all 32 banks.",
                       4 * image->bank_group(0, shown), 4 * image->bank_group(0, shown) + 3);
  else
  {
    const int bits = std::countr_zero(unsigned(chunks));  // 3, 2 or 1
    const std::string which = bits == 1 ? "bit 4 of the address with bit 7"
                                        : "bits 4-" + std::to_string(3 + bits) + " of the address with bits 7-" +
                                              std::to_string(6 + bits);
    ImGui::TextWrapped("The %d-byte swizzle XORs a chunk's index with the row's (%s): the 8 rows of any 16-byte column "
                       "land in 8 different groups of 4 banks. Rows narrower than 128 bytes share a line, so the mode "
                       "needs fewer bits, and a tile takes more, narrower boxes: one TMA copy per %d columns.",
                       mode, which.c_str(), mode / 2);
  }
  if (const auto boxes = sim::tma_box_shapes(model.rung(), model.config(), model.problem()))
    ImGui::TextWrapped("This configuration's tensor maps use the %d-byte mode (tma-wgmma's swizzle knob: 32, 64 or "
                       "128; the later rungs keep 128): boxes of %d x %d elements of A and %d x %d of B.",
                       boxes->swizzle_bytes, boxes->a_rows, boxes->a_cols, boxes->b_rows, boxes->b_cols);
  ui::note_text("Costed as the 8 row addresses of an ldmatrix, by the same bank model as every instruction here; ncu "
                "has no counter of wgmma's shared reads to check it against.");
}

}  // namespace

void draw_banks_panel(PanelContext& context) {
  AppModel& model = context.model;
  // The layout knobs first: they stay usable whatever the stepper shows.
  const auto& rung = sim::rung_model(model.rung());
  bool any_layout_knob = false;
  for (const auto name : kLayoutKnobs) any_layout_knob = any_layout_knob || rung.has_knob(name);
  if (any_layout_knob) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Shared layout:");
    for (const auto name : kLayoutKnobs) {
      if (!rung.has_knob(name)) continue;
      ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
      knob_editor(model, *sim::find_knob(name), /*compact=*/true);
    }
    ImGui::SameLine(0, ImGui::GetFontSize() * 1.5f);
    ui::term("padding");
    ImGui::SameLine();
    ui::term("swizzle");
  }
  if (sim::needs_sm90a(model.rung())) {
    tma_swizzle_view(model);
    return;
  }
  if (!block_ready(model)) return;
  StepperModel& stepper = model.stepper();
  const auto outline = stepper.outline();
  const auto view = stepper.phase_view();
  if (outline->smem_words == 0) {
    ui::heading("This rung uses no shared memory");
    ui::note_text("Every load goes straight from global memory to registers; the coalescing tab shows them. Shared "
                  "memory arrives with rung 3 (smem-tiling).");
    return;
  }
  const int picked = instruction_picker(stepper, InstructionKind::Shared);
  if (picked < 0) return;
  const InstructionView& iv = *view->find(stepper.cursor().warp, picked);
  auto detail = sim::shared_detail(iv.instruction.access);
  if (!detail) {
    ui::coloured_text(colour::conflict, "%s", detail.error().message.c_str());
    return;
  }
  summary(iv, *detail);
  ImGui::Spacing();
  const float left = ImGui::CalcTextSize("wavefront 00").x;
  const float column = std::clamp((ImGui::GetContentRegionAvail().x - left) / 32.0f, 18.0f, 38.0f);
  lane_strip(iv, *detail, left, column);
  ImGui::Spacing();
  wavefront_grid(*detail, left, column);
  ImGui::Spacing();
  buffer_view(context, *outline, *view, picked, iv, *detail);
}

}  // namespace gemmlab::desktop
