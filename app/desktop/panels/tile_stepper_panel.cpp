// The tile stepper: one block of the kernel, instruction by instruction. On the left, A, B and C to scale with the
// block's C tile and the k-step's tiles; on the right the same tiles element by element: who loads each element of
// A and B (coloured by warp), which elements the selected warp's current instruction touches (lane numbers), and
// the C elements each thread of the selected warp accumulates (its register tile).
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "gemmlab/kernel/wgmma.hpp"
#include "gemmlab/memory_model.hpp"
#include "gemmlab/sim/rung_model.hpp"
#include "panels/grid_drawing.hpp"
#include "panels/panel_widgets.hpp"
#include "panels/panels.hpp"
#include "ui/canvas.hpp"
#include "ui/glossary.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

using kernel::Section;
using sim::MemOp;
namespace colour = ui::colour;

constexpr ImU32 kOutside = IM_COL32(20, 21, 25, 255);  // beyond the matrix edge (a clipped block)

// The part of A and B the element view shows: the k columns of A (rows of B) from the tile being multiplied to the
// last tile the pipeline loads ahead.
struct Window {
  int k0 = 0;      // first k
  int width = 0;   // k columns of A / rows of B
  int row0 = 0, col0 = 0;
  int bm = 0, bn = 0, bk = 0;
  float gap = 2.0f;  // cells between the regions, and above them: room for their labels
  // Content placement (in cells): B above C, A left of C.
  float a_x() const { return 0.0f; }
  float a_y() const { return gap + static_cast<float>(width) + gap; }
  float b_x() const { return static_cast<float>(width) + gap; }
  float b_y() const { return gap; }
  float c_x() const { return b_x(); }
  float c_y() const { return a_y(); }
  float content_width() const { return static_cast<float>(width) + gap + static_cast<float>(bn); }
  float content_height() const { return a_y() + static_cast<float>(bm) + gap; }  // and room for A's label below
};

Window window_of(const BlockOutline& o, const PhaseView& v) {
  Window w;
  w.bm = o.config.bm, w.bn = o.config.bn, w.bk = o.config.bk;
  w.row0 = o.tile.row * o.config.bm;
  w.col0 = o.tile.col * o.config.bn;
  const int kstep = v.ref.section == Section::Mainloop ? v.ref.kstep
                    : v.ref.section == Section::Epilogue ? std::max(0, o.shape.ksteps - 1) : 0;
  w.k0 = kstep * o.config.bk;
  w.width = o.config.bk * (1 + o.lookahead_ksteps);
  w.gap = std::max(2.0f, 0.05f * static_cast<float>(std::max({w.width, w.bm, w.bn})));
  return w;
}

// The position of instruction `flat` within its warp's list.
int index_in_warp(const PhaseView& v, std::size_t flat) {
  const int warp = v.instructions[flat].instruction.warp;
  return static_cast<int>(flat) - v.warp_begin[static_cast<std::size_t>(warp)];
}

bool reads_shared(MemOp op) { return op == MemOp::LoadShared || op == MemOp::LdMatrix; }
bool brings_in(MemOp op) { return op == MemOp::LoadGlobal || op == MemOp::CpAsync; }

// The cell of an element in the window, or false when it lies outside.
bool cell_of(const Window& w, const ElementRef& e, int& column, int& row) {
  if (e.operand == 0) {  // A: rows of the block, k columns of the window
    row = e.row - w.row0, column = e.col - w.k0;
    return row >= 0 && row < w.bm && column >= 0 && column < w.width;
  }
  if (e.operand == 1) {  // B: k rows of the window, columns of the block
    row = e.row - w.k0, column = e.col - w.col0;
    return row >= 0 && row < w.width && column >= 0 && column < w.bn;
  }
  if (e.operand == 2) {
    row = e.row - w.row0, column = e.col - w.col0;
    return row >= 0 && row < w.bm && column >= 0 && column < w.bn;
  }
  return false;
}

struct Grids {
  std::vector<ImU32> a, b, c;  // bm x width, width x bn, bm x bn
};

Grids colour_grids(const AppModel& model, const BlockOutline& o, const PhaseView& v, const Window& w) {
  const StepperModel& stepper = model.stepper();
  Grids g;
  g.a.resize(static_cast<std::size_t>(w.bm) * static_cast<std::size_t>(w.width));
  g.b.resize(static_cast<std::size_t>(w.width) * static_cast<std::size_t>(w.bn));
  g.c.resize(static_cast<std::size_t>(w.bm) * static_cast<std::size_t>(w.bn));
  const int m = o.problem.m, n = o.problem.n, k = o.problem.k;
  // Background: the tile being multiplied tinted with its matrix's colour, the tiles loaded ahead darker.
  for (int r = 0; r < w.bm; ++r)
    for (int c = 0; c < w.width; ++c) {
      const bool inside = w.row0 + r < m && w.k0 + c < k;
      g.a[static_cast<std::size_t>(r * w.width + c)] =
          !inside ? kOutside : c < w.bk ? colour::operand(0, 0.32f) : IM_COL32(44, 48, 58, 255);
    }
  for (int r = 0; r < w.width; ++r)
    for (int c = 0; c < w.bn; ++c) {
      const bool inside = w.k0 + r < k && w.col0 + c < n;
      g.b[static_cast<std::size_t>(r * w.bn + c)] =
          !inside ? kOutside : r < w.bk ? colour::operand(1, 0.32f) : IM_COL32(44, 48, 58, 255);
    }
  const int selected_warp = stepper.cursor().warp;
  for (int r = 0; r < w.bm; ++r)
    for (int c = 0; c < w.bn; ++c) {
      const std::size_t i = static_cast<std::size_t>(r * w.bn + c);
      const int writer = o.c_writer[i];
      if (w.row0 + r >= m || w.col0 + c >= n || writer < 0) {
        g.c[i] = kOutside;
        continue;
      }
      const int warp = writer / 32;
      g.c[i] = warp == selected_warp ? colour::warp(warp, 0.85f) : colour::warp(warp, 0.22f);
    }
  // What this phase has done up to the cursor: every warp's instructions up to the cursor's index, the selected
  // warp's last so its colour wins where warps touch the same element.
  const int at = stepper.cursor().instruction;
  std::vector<std::size_t> order;
  for (std::size_t flat = 0; flat < v.instructions.size(); ++flat)
    if (v.instructions[flat].instruction.warp != selected_warp) order.push_back(flat);
  for (std::size_t flat = 0; flat < v.instructions.size(); ++flat)
    if (v.instructions[flat].instruction.warp == selected_warp) order.push_back(flat);
  for (const std::size_t flat : order) {
    const InstructionView& iv = v.instructions[flat];
    const int index = index_in_warp(v, flat);
    if (index > at) continue;
    const MemOp op = iv.instruction.access.op;
    const bool current = index == at;
    const int warp = iv.instruction.warp;
    const ImU32 shade = colour::warp(warp, current ? 1.0f : 0.62f);
    for (int lane = 0; lane < 32; ++lane) {
      const bool active = (iv.instruction.access.active_mask >> lane) & 1u;
      if (!active) continue;
      const LaneView& lv = iv.lanes[static_cast<std::size_t>(lane)];
      for (int q = 0; q < iv.words_per_lane(); ++q) {
        ElementRef e;
        if (brings_in(op) || op == MemOp::StoreGlobal) e = lv.global[static_cast<std::size_t>(q)];
        else if (reads_shared(op) && current) e = lv.shared[static_cast<std::size_t>(q)];
        else continue;
        for (int h = 0; h < elements_in_word(e, o.operand_bytes); ++h) {
          ElementRef eh = e;
          eh.col += h;
          int column = 0, row = 0;
          if (!cell_of(w, eh, column, row)) continue;
          if (e.operand == 0) g.a[static_cast<std::size_t>(row * w.width + column)] = shade;
          else if (e.operand == 1) g.b[static_cast<std::size_t>(row * w.bn + column)] = shade;
          else if (e.operand == 2) g.c[static_cast<std::size_t>(row * w.bn + column)] = shade;
        }
      }
    }
  }
  return g;
}

// A, B and C to scale, with the block's tile, its row and column panels and the k-step's tiles. Clicking C picks
// a block.
void overview(AppModel& model, const BlockOutline& o, const Window& w, float width) {
  const float m = static_cast<float>(o.problem.m), n = static_cast<float>(o.problem.n), k = static_cast<float>(o.problem.k);
  const float gap_units = 0.06f * std::max({m, n, k});
  const float height = width;
  const float label_space = ImGui::GetTextLineHeight() * 1.2f;
  const float scale = std::min(width / (k + gap_units + n), (height - label_space) / (k + gap_units + m));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("overview", ImVec2(width, height));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const auto at = [&](float x, float y) { return ImVec2(origin.x + x * scale, origin.y + label_space + y * scale); };
  const auto rect = [&](float x0, float y0, float x1, float y1, ImU32 fill, ImU32 border) {
    ImVec2 a = at(x0, y0), b = at(x1, y1);
    b.x = std::max(b.x, a.x + 2.0f), b.y = std::max(b.y, a.y + 2.0f);  // never thinner than 2 pixels
    if (fill) draw->AddRectFilled(a, b, fill);
    if (border) draw->AddRect(a, b, border);
  };
  const float bx = k + gap_units, ay = k + gap_units;
  // The matrices.
  rect(0, ay, k, ay + m, IM_COL32(36, 42, 56, 255), colour::operand(0, 0.8f));
  rect(bx, 0, bx + n, k, IM_COL32(52, 44, 32, 255), colour::operand(1, 0.8f));
  rect(bx, ay, bx + n, ay + m, IM_COL32(44, 36, 56, 255), colour::operand(2, 0.8f));
  // C's tile grid, when the tiles are big enough to see.
  if (o.shape.tiles_n <= 64 && o.shape.tiles_m <= 64) {
    for (int t = 1; t < o.shape.tiles_n; ++t)
      draw->AddLine(at(bx + static_cast<float>(t * o.config.bn), ay), at(bx + static_cast<float>(t * o.config.bn), ay + m), IM_COL32(255, 255, 255, 28));
    for (int t = 1; t < o.shape.tiles_m; ++t)
      draw->AddLine(at(bx, ay + static_cast<float>(t * o.config.bm)), at(bx + n, ay + static_cast<float>(t * o.config.bm)), IM_COL32(255, 255, 255, 28));
  }
  const float r0 = static_cast<float>(w.row0), r1 = std::min(m, r0 + static_cast<float>(w.bm));
  const float c0 = static_cast<float>(w.col0), c1 = std::min(n, c0 + static_cast<float>(w.bn));
  const float k0 = static_cast<float>(w.k0), k1 = std::min(k, k0 + static_cast<float>(w.bk));
  const float kw1 = std::min(k, k0 + static_cast<float>(w.width));
  // The block's row panel of A and column panel of B: what it reads over all k-steps.
  rect(0, ay + r0, k, ay + r1, colour::with_alpha(colour::operand(0), 60), 0);
  rect(bx + c0, 0, bx + c1, k, colour::with_alpha(colour::operand(1), 60), 0);
  // The tiles of this k-step (and those loaded ahead).
  rect(k0, ay + r0, kw1, ay + r1, colour::with_alpha(colour::operand(0), 110), 0);
  rect(bx + c0, k0, bx + c1, kw1, colour::with_alpha(colour::operand(1), 110), 0);
  rect(k0, ay + r0, k1, ay + r1, colour::operand(0), colour::highlight);
  rect(bx + c0, k0, bx + c1, k1, colour::operand(1), colour::highlight);
  rect(bx + c0, ay + r0, bx + c1, ay + r1, colour::operand(2), colour::highlight);
  // Labels.
  char text[96];
  std::snprintf(text, sizeof text, "A %dx%d", o.problem.m, o.problem.k);
  draw->AddText(ImVec2(at(0, ay + m).x, std::min(at(0, ay + m).y + 2.0f, origin.y + height - ImGui::GetTextLineHeight())), colour::operand(0), text);
  std::snprintf(text, sizeof text, "B %dx%d", o.problem.k, o.problem.n);
  draw->AddText(ImVec2(at(bx, 0).x, origin.y), colour::operand(1), text);
  std::snprintf(text, sizeof text, "C %dx%d", o.problem.m, o.problem.n);
  draw->AddText(ImVec2(at(bx, ay + m).x, std::min(at(bx, ay + m).y + 2.0f, origin.y + height - ImGui::GetTextLineHeight())), colour::operand(2), text);
  // Pick a block by clicking C.
  if (hovered) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const float x = (mouse.x - origin.x) / scale - bx, y = (mouse.y - origin.y - label_space) / scale - ay;
    if (x >= 0 && x < n && y >= 0 && y < m) {
      const int row = static_cast<int>(y) / o.config.bm, col = static_cast<int>(x) / o.config.bn;
      ImGui::SetTooltip("block (%d, %d): rows %d-%d, columns %d-%d of C\nclick to step through this block", row, col,
                        row * o.config.bm, std::min(o.problem.m, (row + 1) * o.config.bm) - 1, col * o.config.bn,
                        std::min(o.problem.n, (col + 1) * o.config.bn) - 1);
      if (ImGui::IsItemClicked()) model.stepper().select_block({row, col});
    }
  }
}

// Who does what in a warp-specialised rung's phase (rungs 18 to 20): which stage the consumers read, which one the
// producer refills, and the mbarrier phases each waits for.
void pipeline_note(const BlockOutline& o, const PhaseView& v) {
  const auto roles = sim::warp_roles(o.rung, o.config);
  if (!roles) return;
  const int s = roles->stages;
  const std::string both = roles->cluster > 1 ? " of both blocks of the cluster" : "";
  if (v.ref.section == kernel::Section::Prologue) {
    ui::note_text("Roles: threads 0-%d are the consumer warpgroups (they only multiply), threads %d-%d the producer "
                  "%s (one of its threads issues every copy). They meet only at the stages' mbarriers: full[s] (the "
                  "copies have landed) and empty[s] (the consumers%s are done with stage s).",
                  roles->consumer_threads - 1, roles->producer_thread, roles->threads - 1,
                  roles->producer_threads() == 128 ? "warpgroup" : "warp", both.c_str());
    if (roles->consumer_registers > 0)
      ui::note_text("setmaxnreg: every thread starts with %d registers; after the barrier the producer warpgroup keeps "
                    "%d and the consumers take the rest, %d each. ptxas still compiles every role's code within %d.",
                    roles->launch_registers, roles->producer_registers, roles->consumer_registers,
                    roles->launch_registers);
    return;
  }
  if (v.ref.section == kernel::Section::Epilogue && roles->store_chunk_cols > 0) {
    ui::note_text("Consumers, epilogue phase %d: phase 0 waits for the last wgmma group; in each phase after it but "
                  "the last, the consumers write a %d-column chunk of the tile into one of %d shared buffers while "
                  "thread 0's TMA store of the chunk before reads another, and thread 0 waits for that store before "
                  "the barrier; the last phase only stores the last chunk, and that store runs on while the consumers "
                  "start the next tile. (With beta != 0 the consumers store C from their registers, and these phases "
                  "only take their barrier.)",
                  v.ref.phase, roles->store_chunk_cols, roles->store_buffers);
    return;
  }
  if (v.ref.section == kernel::Section::Epilogue) {
    ui::note_text("Consumers: wait for their last wgmma group, %sthen store the tile's results%s.",
                  roles->grid > 0 ? "release the tile's last stage (the producer fills the whole ring while they "
                                    "store), "
                                  : "",
                  roles->grid > 0 ? " (a persistent block then starts its next tile; its producer has already copied "
                                    "that tile's first stages)" : "");
    if (roles->line_store_rows > 0)
      ui::note_text("In whole lines: each warp writes its %d rows, %d columns at a time, into a %d-byte buffer of its "
                    "own (the sts.64 below), waits for its lanes at __syncwarp, reads the chunk back 16 bytes a lane "
                    "(lds.128) and stores it as whole rows of C, 16 bytes a lane (stg.128). A tile that reaches past C, or "
                    "beta != 0, is stored from the registers.",
                    roles->line_store_rows, roles->line_store_cols,
                    roles->line_store_rows * roles->line_store_cols * int(sizeof(float)));
    return;
  }
  const int t = v.ref.kstep;
  const kernel::RingStep ring = kernel::RingStep::at(t, s);  // the description's own stage arithmetic
  // A tile's first k-step releases nothing: the step before, where there is one, ended another tile, whose epilogue
  // released its stage (TmaWgmmaSpecialized::release_last_stage).
  const bool first_of_tile = t % std::max(1, o.shape.ksteps) == 0;  // the simulator's block: one tile's k-steps
  const std::string release =
      first_of_tile ? "; the tile's first k-step has no stage of its own to release"
                    : ", then release stage " + std::to_string(ring.released) + " on empty" + both;
  const std::string refill =
      t == 0 ? "fills stage " + std::to_string(ring.released) + ", the last one still empty,"
             : "waits for empty[" + std::to_string(ring.released) + "]" +
                   (first_of_tile ? " (released by the tile before, in its epilogue)" : "") + " and refills it";
  ui::note_text("Pipeline at k-step %d: the consumers wait for full[%d] (its phase of parity %d), multiply stage "
                "%d%s. The producer %s with k-tile %d%s. Between them %d stages are in flight.",
                t, ring.stage, ring.parity, ring.stage, release.c_str(), refill.c_str(), ring.refill,
                roles->cluster > 1 ? " (its half of B multicast into both blocks)" : "", s - 1);
}

// The same, drawn: the ring of stages at this k-step (which tile each stage holds, which one the consumers read, which
// one the producer refills) and a few k-steps of both roles around it, the producer running stages - 1 tiles ahead.
// Every number is kernel::RingStep's, the description's own stage arithmetic.
// Under the schedule's rows, what a trace measured for the same k-steps (gemmlab-cli trace, the Timeline tab's file, or
// the rung's recorded one): each k-step of a consumer warpgroup of the trace's sampled block, start to the next one's
// start, the part it waited in orange, and the time model's k-step where the file has its block.
void measured_rows(AppModel& model, const BlockOutline& o, int first, int last, float label, float cell, float width) {
  const TimelineStudy& trace = model.timeline();
  if (!trace.of_rung(o.rung)) {
    // Its error, if any, is the study's, shown below.
    if (ImGui::SmallButton("Show measured k-steps")) (void)model.load_recorded_trace();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The trace recorded on the H200 for this rung (docs/timeline-data), as the Timeline tab shows "
                        "it: each k-step above then shows how long it took on the GPU.");
    if (!trace.error().empty() && !trace.loaded()) ui::note_text("%s", trace.error().c_str());
    return;
  }
  const std::vector<sim::KstepSpan>& steps = trace.measured_ksteps();
  const std::vector<sim::KstepSpan>& model_steps = trace.model_ksteps();
  if (steps.empty()) return;
  const bool predicted = !model_steps.empty();
  const auto find = &TimelineStudy::find_kstep;
  constexpr ImU32 kOwn = IM_COL32(70, 150, 90, 255), kWaited = IM_COL32(200, 130, 40, 255),
                  kModel = IM_COL32(90, 90, 130, 255);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  draw->AddText(at, colour::muted_text, "measured");
  if (predicted) draw->AddText(ImVec2(at.x, at.y + line * 1.2f), colour::muted_text, "model");
  char text[64];
  for (int j = first; j <= last; ++j) {
    const float x = at.x + label + float(j - first) * cell;
    draw->PushClipRect(ImVec2(x, at.y), ImVec2(x + cell - 2, at.y + line * 2.4f), true);
    if (const sim::KstepSpan* step = find(steps, j)) {
      const double length = double(step->end_ns - step->begin_ns);
      const float waited = length > 0 ? float(double(step->waited_ns) / length) : 0.0f;
      const float split = x + (cell - 2) * (1.0f - std::clamp(waited, 0.0f, 1.0f));
      draw->AddRectFilled(ImVec2(x, at.y), ImVec2(split, at.y + line * 1.05f), kOwn);
      draw->AddRectFilled(ImVec2(split, at.y), ImVec2(x + cell - 2, at.y + line * 1.05f), kWaited);
      std::snprintf(text, sizeof text, "%s", sim::duration_text(length).c_str());
      draw->AddText(ImVec2(x + 2, at.y), colour::highlight, text);
    }
    if (const sim::KstepSpan* step = find(model_steps, j)) {
      draw->AddRectFilled(ImVec2(x, at.y + line * 1.15f), ImVec2(x + cell - 2, at.y + line * 2.2f), kModel);
      draw->AddText(ImVec2(x + 2, at.y + line * 1.2f), colour::highlight,
                    sim::duration_text(double(step->end_ns - step->begin_ns)).c_str());
    }
    draw->PopClipRect();
  }
  ImGui::Dummy(ImVec2(width, line * (predicted ? 2.4f : 1.2f)));
  const sim::Timeline& t = trace.timeline();
  const bool same = t.m == o.problem.m && t.n == o.problem.n && t.k == o.problem.k;
  ui::note_text("Measured: block %d of the trace %s (%s), a consumer warpgroup's k-steps from one start to the next, "
                "the part it waited (for copies, for its wgmma) in orange%s.%s",
                trace.block(), trace.file().c_str(), t.kernel.c_str(),
                predicted ? "; model: the time model's k-step, from the same file" : "",
                same ? "" : (" The trace is of " + std::to_string(t.m) + " x " + std::to_string(t.n) + " x " +
                             std::to_string(t.k) + ", not the problem shown here.").c_str());
}

void pipeline_diagram(AppModel& model, const BlockOutline& o, const PhaseView& v, float width) {
  const auto roles = sim::warp_roles(o.rung, o.config);
  if (!roles || v.ref.section != kernel::Section::Mainloop) return;
  // The block's steps: its k-steps, or on the persistent rung those of all its tiles one after the other.
  int ksteps = 0;
  for (const sim::PhaseRef& ref : o.schedule)
    if (ref.section == kernel::Section::Mainloop) ksteps = std::max(ksteps, ref.kstep + 1);
  const int stages = roles->stages, t = v.ref.kstep;
  const kernel::RingStep ring = kernel::RingStep::at(t, stages);
  constexpr ImU32 kRead = IM_COL32(70, 150, 90, 255), kFlight = IM_COL32(62, 92, 140, 255),
                  kRefill = IM_COL32(170, 120, 40, 255), kIdle = IM_COL32(48, 52, 60, 255);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  char text[64];
  ImGui::TextUnformatted("The ring of stages at this k-step:");
  ImVec2 at = ImGui::GetCursorScreenPos();
  const float box = std::min(width / float(stages), line * 6.0f);
  for (int stage = 0; stage < stages; ++stage) {
    const bool read = stage == ring.stage, refill = stage == ring.released && stages > 1;
    const int tile = kernel::RingStep::tile_in(t, stage, stages);
    const ImVec2 min(at.x + float(stage) * box, at.y), max(min.x + box - 3.0f, min.y + line * 2.6f);
    draw->AddRectFilled(min, max, tile >= ksteps ? kIdle : read ? kRead : refill ? kRefill : kFlight);
    std::snprintf(text, sizeof text, "stage %d", stage);
    draw->AddText(ImVec2(min.x + 3, min.y + 1), colour::highlight, text);
    std::snprintf(text, sizeof text, read ? "tile %d: read" : refill ? "<- tile %d" : "tile %d", tile);
    draw->AddText(ImVec2(min.x + 3, min.y + line * 1.3f), colour::highlight, text);
  }
  ImGui::Dummy(ImVec2(width, line * 2.8f));
  // Both roles over a few k-steps: the consumers multiply tile j from stage j mod stages; at the same k-step the
  // producer copies tile j + stages - 1 into the stage tile j - 1 freed.
  const int first = std::max(0, t - 1), last = std::min(ksteps - 1, first + 3);
  const float label = ImGui::CalcTextSize("consumers ").x, cell = (width - label) / float(last - first + 1);
  at = ImGui::GetCursorScreenPos();
  draw->AddText(ImVec2(at.x, at.y), colour::muted_text, "k-step");
  draw->AddText(ImVec2(at.x, at.y + line * 1.2f), colour::muted_text, "producer");
  draw->AddText(ImVec2(at.x, at.y + line * 2.4f), colour::muted_text, "consumers");
  for (int j = first; j <= last; ++j) {
    const float x = at.x + label + float(j - first) * cell;
    const kernel::RingStep step = kernel::RingStep::at(j, stages);
    std::snprintf(text, sizeof text, "%d", j);
    draw->AddText(ImVec2(x + 2, at.y), j == t ? colour::highlight : colour::muted_text, text);
    const bool copies = step.refill < ksteps && stages > 1;
    draw->AddRectFilled(ImVec2(x, at.y + line * 1.15f), ImVec2(x + cell - 2, at.y + line * 2.2f), copies ? kRefill : kIdle);
    draw->PushClipRect(ImVec2(x, at.y), ImVec2(x + cell - 2, at.y + line * 3.5f), true);
    if (copies) {
      std::snprintf(text, sizeof text, "t%d>s%d", step.refill, step.released);
      draw->AddText(ImVec2(x + 2, at.y + line * 1.2f), colour::highlight, text);
    }
    draw->AddRectFilled(ImVec2(x, at.y + line * 2.35f), ImVec2(x + cell - 2, at.y + line * 3.4f), kRead);
    std::snprintf(text, sizeof text, "t%d<s%d", j, step.stage);
    draw->AddText(ImVec2(x + 2, at.y + line * 2.4f), colour::highlight, text);
    draw->PopClipRect();
    if (j == t) draw->AddRect(ImVec2(x - 1, at.y - 1), ImVec2(x + cell - 1, at.y + line * 3.5f), colour::highlight, 0, 0, 2.0f);
  }
  ImGui::Dummy(ImVec2(width, line * 3.6f));
  measured_rows(model, o, first, last, label, cell, width);
  {
    const kernel::RingStep now = kernel::RingStep::at(t, stages);
    const std::string once = t == 0 ? "at once: the stage has not been used yet"
                                    : "once empty[" + std::to_string(now.released) + "] says the consumers are done "
                                                                                    "with it";
    ui::note_text("t%d>s%d: the producer copies k-tile %d into stage %d, %s; t%d<s%d: the consumers multiply k-tile "
                  "%d from stage %d, once full[%d] says its bytes have landed.",
                  now.refill, now.released, now.refill, now.released, once.c_str(), t, now.stage, t, now.stage,
                  now.stage);
  }
}

void explanation(AppModel& model, const BlockOutline& o, const PhaseView& v) {
  const std::string barrier = !v.barrier_after       ? ""
                              : v.barrier_threads == 0 ? " Then the block waits at a barrier."
                                                       : " Then threads 0-" + std::to_string(v.barrier_threads - 1) +
                                                             " (the consumer warpgroups) wait at a barrier of their "
                                                             "own; the producer goes on copying the next tile.";
  ImGui::TextWrapped("This phase: %s.%s", phase_sentence(v).c_str(), barrier.c_str());
  ui::term_tooltip_for_last_item("phase");
  if (v.fma > 0 && o.shape.threads_per_block > 0)
    ui::note_text("%lld FMAs per thread in this phase.", static_cast<long long>(v.fma / o.shape.threads_per_block));
  if (v.counters.mma > 0 && o.shape.warps_per_block > 0)
    ui::note_text("%lld mma.sync.m16n8k16 per warp in this phase, on the tensor cores (2,048 multiply-adds each; the "
                  "MMA fragments tab shows which lane holds what).",
                  static_cast<long long>(v.counters.mma / o.shape.warps_per_block));
  pipeline_note(o, v);
  pipeline_diagram(model, o, v, ImGui::GetContentRegionAvail().x);
  if (v.counters.tma_copies > 0)
    ui::note_text("%lld TMA copies issued by one thread (%lld KiB land in shared memory, %lld global sectors read): "
                  "the copy engine computes every address, writes the swizzled image and counts the bytes on "
                  "the stage's mbarrier; no other thread copies anything.",
                  static_cast<long long>(v.counters.tma_copies), static_cast<long long>(v.counters.tma_bytes / 1024),
                  static_cast<long long>(v.counters.tma_sectors));
  if (v.counters.tma_stores > 0)
    ui::note_text("%lld TMA store of C issued by one thread (%lld global sectors written): the copy engine reads the "
                  "chunk the consumers wrote into shared memory and fenced, and writes it to C while the threads go on; "
                  "that thread waits for it to have read its buffer before the buffer takes the chunk after next.",
                  static_cast<long long>(v.counters.tma_stores), static_cast<long long>(v.counters.tma_store_sectors));
  if (v.counters.wgmma > 0 && o.shape.threads_per_block >= 128)
    ui::note_text("%lld wgmma per warpgroup in this phase, each %lld multiply-adds on the tensor cores, reading A and B "
                  "from shared memory through descriptors (the MMA fragments tab shows D's layout and the swizzle).",
                  static_cast<long long>(v.counters.wgmma / (o.shape.threads_per_block / 128)),
                  static_cast<long long>(v.counters.wgmma_multiply_adds / v.counters.wgmma));
  ImGui::Spacing();
  const InstructionView* iv = model.stepper().cursor_instruction();
  if (!iv) {
    ui::note_text(v.instructions.empty() ? "No memory instructions here: step on to the next phase."
                                         : "Loading the cursor's instruction...");
    return;
  }
  const auto& w = iv->instruction;
  ui::heading(instruction_name(w).c_str());
  ui::term_tooltip_for_last_item("instruction names");
  ImGui::TextWrapped("%s", instruction_sentence(*iv, o).c_str());
  if (sim::touches_shared(w.access.op) && w.access.active_mask) {
    ImGui::TextUnformatted("Shared memory:");
    ImGui::SameLine();
    ui::coloured_text(w.shared.bank_conflicts() > 0 ? colour::conflict : colour::ok, "%d", w.shared.wavefronts);
    ImGui::SameLine(0, 4);
    ui::term("wavefront", w.shared.wavefronts == 1 ? "wavefront" : "wavefronts");
    ImGui::SameLine();
    ImGui::Text("(ideal %d)", w.shared.ideal_wavefronts);
    if (w.shared.bank_conflicts() > 0) {
      ImGui::TextUnformatted("   ");
      ImGui::SameLine(0, 0);
      ui::coloured_text(colour::conflict, "%d", w.shared.bank_conflicts());
      ImGui::SameLine(0, 4);
      ui::term("bank conflict", "bank conflicts");
    }
  }
  if (sim::touches_global(w.access.op) && w.global_mask) {
    ImGui::TextUnformatted("Global memory:");
    ImGui::SameLine();
    ui::coloured_text(w.global.sectors > w.global.ideal_sectors ? colour::conflict : colour::ok, "%d", w.global.sectors);
    ImGui::SameLine(0, 4);
    ui::term("sector", "sectors");
    ImGui::SameLine();
    ImGui::Text("(ideal %d), %d", w.global.ideal_sectors, w.global.lines);
    ImGui::SameLine(0, 4);
    ui::term("line", w.global.lines == 1 ? "line" : "lines");
  }
  ui::note_text("The banks and coalescing tabs show this instruction lane by lane.");
}

void keys_hint() {
  ui::note_text("Keys: \xE2\x86\x90 \xE2\x86\x92 instruction, \xE2\x86\x91 \xE2\x86\x93 k-step, Space play/pause. "
                "Click C in the small picture to pick another block.");
}

void legend(const BlockOutline& o) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float box = ImGui::GetTextLineHeight() * 0.8f;
  const auto swatch = [&](ImU32 fill, const char* text) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float dy = (ImGui::GetTextLineHeight() - box) * 0.5f;
    draw->AddRectFilled(ImVec2(at.x, at.y + dy), ImVec2(at.x + box, at.y + dy + box), fill);
    ImGui::Dummy(ImVec2(box, box));
    ImGui::SameLine();
    ImGui::TextUnformatted(text);
  };
  ImGui::TextUnformatted("Colours");
  const int warps = std::min(o.shape.warps_per_block, 8);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  for (int w = 0; w < warps; ++w) {
    const ImVec2 p(at.x + static_cast<float>(w) * (box + 3.0f), at.y);
    draw->AddRectFilled(p, ImVec2(p.x + box, p.y + box), colour::warp(w));
  }
  ImGui::Dummy(ImVec2(static_cast<float>(warps) * (box + 3.0f), box));
  ImGui::SameLine();
  ImGui::TextWrapped("%s", o.shape.warps_per_block > 8 ? "warps 0-7 (then again)" : "one colour per warp");
  swatch(colour::operand(0, 0.32f), "A's tile this k-step multiplies");
  swatch(colour::operand(1, 0.32f), "B's tile this k-step multiplies");
  swatch(IM_COL32(44, 48, 58, 255), "tiles loaded ahead (the pipeline)");
  ui::note_text("Dim: touched earlier in this phase. Bright: the current instruction, all warps. White outline and "
                "numbers: the selected warp's lanes. In C: the elements each thread of the selected warp writes (its "
                "register tile, unless the rung stages C through shared memory).");
}

// The element view: the window of A and B and the block's C tile, cell by cell.
void element_view(PanelContext& context, const BlockOutline& o, const PhaseView& v, const Window& w) {
  AppModel& model = context.model;
  StepperModel& stepper = model.stepper();
  const Grids g = colour_grids(model, o, v, w);
  ui::Canvas canvas("elements", ImVec2(0, 0), model.view_transform("tile-stepper"), w.content_width(), w.content_height());
  ImDrawList* draw = canvas.draw();
  draw->AddRect(canvas.min(), canvas.max(), IM_COL32(60, 64, 76, 255));  // a frame, not a fill: no overdraw
  ui::CellGridStyle a_style, b_style, c_style;
  a_style.group_columns = w.bk;
  b_style.group_rows = w.bk;
  if (o.config.tn > 1) c_style.group_columns = o.config.tn;
  if (o.config.tm > 1) c_style.group_rows = o.config.tm;
  draw_cell_grid(context.grids, canvas, "stepper-a", w.width, w.bm, g.a, w.a_x(), w.a_y(), a_style);
  draw_cell_grid(context.grids, canvas, "stepper-b", w.bn, w.width, g.b, w.b_x(), w.b_y(), b_style);
  draw_cell_grid(context.grids, canvas, "stepper-c", w.bn, w.bm, g.c, w.c_x(), w.c_y(), c_style);

  // Region labels, in the gap between the regions.
  const float cell = canvas.scale();
  char text[128];
  std::snprintf(text, sizeof text, "A rows %d-%d, k %d-%d", w.row0, w.row0 + w.bm - 1, w.k0, w.k0 + w.width - 1);
  const ImVec2 a_label = canvas.to_screen(w.a_x(), w.a_y() + static_cast<float>(w.bm));
  draw->AddText(ImVec2(a_label.x, a_label.y + 2.0f), colour::operand(0), text);
  std::snprintf(text, sizeof text, "B k %d-%d, columns %d-%d", w.k0, w.k0 + w.width - 1, w.col0, w.col0 + w.bn - 1);
  const ImVec2 b_label = canvas.to_screen(w.b_x(), w.b_y());
  draw->AddText(ImVec2(b_label.x, b_label.y - ImGui::GetTextLineHeight() - 2.0f), colour::operand(1), text);
  std::snprintf(text, sizeof text, "C tile of block (%d, %d): rows %d-%d, columns %d-%d", o.tile.row, o.tile.col, w.row0,
                w.row0 + w.bm - 1, w.col0, w.col0 + w.bn - 1);
  const ImVec2 c_label = canvas.to_screen(w.c_x(), w.c_y());
  draw->AddText(ImVec2(c_label.x, c_label.y - ImGui::GetTextLineHeight() - 2.0f), colour::operand(2), text);

  // The selected warp's threads in C: lane numbers in their cells.
  const int selected = stepper.cursor().warp;
  const float label_cell = ImGui::CalcTextSize("31").x + 1.0f;
  if (cell >= label_cell * 0.9f) {
    for (int r = 0; r < w.bm; ++r)
      for (int c = 0; c < w.bn; ++c) {
        const int writer = o.c_writer[static_cast<std::size_t>(r * w.bn + c)];
        if (writer < 0 || writer / 32 != selected) continue;
        ImVec2 min, max;
        cell_rect(canvas, w.c_x(), w.c_y(), c, r, min, max);
        if (max.x < canvas.min().x || min.x > canvas.max().x || max.y < canvas.min().y || min.y > canvas.max().y) continue;
        std::snprintf(text, sizeof text, "%d", writer % 32);
        ui::centered_text(draw, min, max, IM_COL32(10, 10, 14, 255), text);
      }
  }
  // The current instruction of the selected warp: outlines and lane numbers on the elements it touches (the first
  // lane and a "+" where several lanes share an element, a broadcast).
  if (const InstructionView* iv = stepper.cursor_instruction()) {
    const MemOp op = iv->instruction.access.op;
    struct Touch {
      float x, y;
      int column, row, first_lane, lanes;
    };
    std::vector<Touch> touched;
    for (int lane = 0; lane < 32; ++lane) {
      if (!((iv->instruction.access.active_mask >> lane) & 1u)) continue;
      const LaneView& lv = iv->lanes[static_cast<std::size_t>(lane)];
      for (int q = 0; q < iv->words_per_lane(); ++q) {
        const ElementRef e = reads_shared(op) || op == MemOp::StoreShared ? lv.shared[static_cast<std::size_t>(q)]
                                                                           : lv.global[static_cast<std::size_t>(q)];
        int column = 0, row = 0;
        if (!cell_of(w, e, column, row)) continue;
        const float x = e.operand == 0 ? w.a_x() : w.b_x();
        const float y = e.operand == 0 ? w.a_y() : e.operand == 1 ? w.b_y() : w.c_y();
        const auto same = std::find_if(touched.begin(), touched.end(), [&](const Touch& t) {
          return t.x == x && t.y == y && t.column == column && t.row == row;
        });
        if (same != touched.end()) ++same->lanes;
        else touched.push_back({x, y, column, row, lane, 1});
      }
    }
    for (const Touch& t : touched) {
      ImVec2 min, max;
      cell_rect(canvas, t.x, t.y, t.column, t.row, min, max);
      draw->AddRect(min, max, colour::highlight, 0.0f, 0, cell >= 8.0f ? 2.0f : 1.0f);
      if (cell >= label_cell) {
        std::snprintf(text, sizeof text, "%d%s", t.first_lane, t.lanes > 1 ? "+" : "");
        if (ImGui::CalcTextSize(text).x > cell - 1.0f) std::snprintf(text, sizeof text, "%d", t.first_lane);
        ui::centered_text(draw, min, max, IM_COL32(10, 10, 14, 255), text);
      }
    }
  }
  // What is under the pointer.
  if (canvas.hovered()) {
    const ImVec2 p = canvas.to_content(ImGui::GetIO().MousePos);
    const auto inside = [&](float x, float y, int cols, int rows, int& c, int& r) {
      c = static_cast<int>(p.x - x), r = static_cast<int>(p.y - y);
      return p.x >= x && p.y >= y && c < cols && r < rows;
    };
    int c = 0, r = 0;
    if (inside(w.a_x(), w.a_y(), w.width, w.bm, c, r))
      ImGui::SetTooltip("A[%d][%d]\nrow %d of the block's tile, k %d", w.row0 + r, w.k0 + c, r, w.k0 + c);
    else if (inside(w.b_x(), w.b_y(), w.bn, w.width, c, r))
      ImGui::SetTooltip("B[%d][%d]\nk %d, column %d of the block's tile", w.k0 + r, w.col0 + c, w.k0 + r, c);
    else if (inside(w.c_x(), w.c_y(), w.bn, w.bm, c, r)) {
      const int writer = o.c_writer[static_cast<std::size_t>(r * w.bn + c)];
      if (writer >= 0)
        ImGui::SetTooltip("C[%d][%d]\naccumulated and written by thread %d (warp %d, lane %d)", w.row0 + r, w.col0 + c,
                          writer, writer / 32, writer % 32);
      else
        ImGui::SetTooltip("C[%d][%d]\noutside the matrix: no thread writes it", w.row0 + r, w.col0 + c);
    }
  }
  // Hint in the corner.
  const char* hint = "wheel: zoom   drag: pan   double-click: fit";
  draw->AddText(ImVec2(canvas.min().x + 6.0f, canvas.min().y + 4.0f), colour::muted_text, hint);
}

// A strip of the block's whole schedule: one segment per phase, the cursor marked; click to jump.
void timeline(AppModel& model, const BlockOutline& o, const PhaseView& v) {
  const float width = ImGui::GetContentRegionAvail().x, height = ImGui::GetTextLineHeight() * 0.9f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("timeline", ImVec2(width, height));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const std::size_t phases = o.schedule.size();
  if (phases == 0) return;
  const auto colour_of = [&](const sim::PhaseRef& ref) -> ImU32 {
    if (ref.section != Section::Mainloop) return IM_COL32(110, 110, 120, 255);
    return ref.kstep % 2 == 0 ? IM_COL32(62, 92, 140, 255) : IM_COL32(48, 70, 108, 255);
  };
  // One rectangle per run of equal colour, so a long schedule costs at most one rectangle per pixel.
  const float per_phase = width / static_cast<float>(phases);
  std::size_t run = 0;
  for (std::size_t i = 1; i <= phases; ++i) {
    const bool end = i == phases || colour_of(o.schedule[i]) != colour_of(o.schedule[run]) ||
                     per_phase * static_cast<float>(i - run) >= 1.0f;
    if (!end) continue;
    draw->AddRectFilled(ImVec2(origin.x + per_phase * static_cast<float>(run), origin.y),
                        ImVec2(origin.x + std::max(per_phase * static_cast<float>(i), per_phase * static_cast<float>(run) + 1.0f), origin.y + height),
                        colour_of(o.schedule[run]));
    run = i;
  }
  const float x = origin.x + per_phase * (static_cast<float>(v.phase_index) + 0.5f);
  draw->AddRectFilled(ImVec2(x - std::max(1.5f, per_phase * 0.5f), origin.y - 2.0f),
                      ImVec2(x + std::max(1.5f, per_phase * 0.5f), origin.y + height + 2.0f), colour::highlight);
  if (ImGui::IsItemHovered()) {
    const float mx = ImGui::GetIO().MousePos.x - origin.x;
    const std::size_t phase = std::min(phases - 1, static_cast<std::size_t>(std::max(0.0f, mx / per_phase)));
    ImGui::SetTooltip("%s, phase %s\nclick to go there", step_name(o.schedule[phase], o.shape.ksteps).c_str(),
                      index_of(static_cast<std::int64_t>(phase), static_cast<std::int64_t>(phases)).c_str());
    if (ImGui::IsItemClicked()) model.stepper().seek_phase(phase);
  }
}

}  // namespace

void draw_tile_stepper_panel(PanelContext& context) {
  AppModel& model = context.model;
  StepperModel& stepper = model.stepper();
  step_controls(stepper);
  if (!block_ready(model)) return;
  const auto outline = stepper.outline();
  const auto view = stepper.phase_view();
  const BlockOutline& o = *outline;
  const PhaseView& v = *view;

  // Where we are, in words.
  const int warp = stepper.cursor().warp;
  const int count = v.instruction_count(warp);
  ImGui::SameLine();
  ImGui::Text("  %s  |  phase %s  |  warp %s, instruction %s", step_name(v.ref, o.shape.ksteps).c_str(),
              index_of(static_cast<std::int64_t>(v.phase_index), static_cast<std::int64_t>(o.schedule.size())).c_str(),
              index_of(warp, o.shape.warps_per_block).c_str(),
              count ? index_of(stepper.cursor().instruction, count).c_str() : "none in this phase");
  if (!stepper.view_current()) {
    ImGui::SameLine();
    ui::note_text("(updating)");
  }
  timeline(model, o, v);
  const Window w = window_of(o, v);

  const float left = std::min(ImGui::GetFontSize() * 21.0f, ImGui::GetContentRegionAvail().x * 0.4f);
  ImGui::BeginChild("stepper-left", ImVec2(left, 0), false);
  // The block and warp, then A, B and C to scale.
  int block[2] = {o.tile.row, o.tile.col};
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Block");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
  if (ImGui::InputInt2("##block", block)) stepper.select_block({block[0], block[1]});
  ui::term_tooltip_for_last_item("block");
  ImGui::SameLine();
  ImGui::TextUnformatted("Warp");
  ImGui::SameLine();
  warp_selector(stepper);
  overview(model, o, w, left - 4.0f);
  keys_hint();
  ImGui::Separator();
  explanation(model, o, v);
  ImGui::Separator();
  instruction_list(stepper, o, v);
  ImGui::Separator();
  legend(o);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("stepper-right", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  element_view(context, o, v, w);
  ImGui::EndChild();
}

}  // namespace gemmlab::desktop
