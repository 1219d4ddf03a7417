#include "app_frame.hpp"

#include <imgui.h>

#include <cstdio>

#include "ui/theme.hpp"

namespace gemmlab::desktop {
namespace {

// Jobs that have run long enough to be worth showing, each with a progress bar and a Cancel button.
void job_status(AppModel& model) {
  for (const auto& job : model.jobs().status()) {
    if (!job.running || job.seconds_running < 0.25) continue;
    ImGui::SameLine();
    ImGui::TextUnformatted(job.label.c_str());
    ImGui::SameLine();
    ImGui::ProgressBar(static_cast<float>(job.progress), ImVec2(ImGui::GetFontSize() * 8.0f, 0));
    ImGui::SameLine();
    ImGui::PushID(static_cast<int>(job.id));
    if (ImGui::SmallButton("Cancel")) model.jobs().cancel(job.id);
    ImGui::PopID();
  }
}

void messages(AppModel& model) {
  const auto& list = model.messages();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Message& m = list[i];
    const ImU32 c = m.level == Message::Level::Error     ? ui::colour::conflict
                    : m.level == Message::Level::Warning ? IM_COL32(240, 190, 80, 255)
                                                         : ui::colour::muted_text;
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::SmallButton("x")) {
      model.dismiss_message(i);
      ImGui::PopID();
      break;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("dismiss");
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, ui::colour::to_vec4(c));
    ImGui::TextWrapped("%s", m.text.c_str());
    ImGui::PopStyleColor();
    ImGui::PopID();
  }
}

void keyboard(AppModel& model) {
  StepperModel& stepper = model.stepper();
  OrderComparison& orders = model.orders();
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  const std::string& panel = model.panel();
  if (panel == "launch-order") {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) orders.step_wave(+1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) orders.step_wave(-1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home), false)) orders.select_wave(-1);
    return;
  }
  if (panel != "tile-stepper" && panel != "banks" && panel != "coalescing") return;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) stepper.step_instruction(+1);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) stepper.step_instruction(-1);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) stepper.step_kstep(+1);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) stepper.step_kstep(-1);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) stepper.set_playing(!stepper.playing());
}

}  // namespace

void draw_app_frame(PanelContext& context) {
  AppModel& model = context.model;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->WorkPos);
  ImGui::SetNextWindowSize(viewport->WorkSize);
  ImGui::Begin("gemmlab", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus |
                   ImGuiWindowFlags_NoSavedSettings |
                   // The clear colour is the background: a full-window rectangle would cost a software renderer
                   // a whole extra pass over the pixels every frame.
                   ImGuiWindowFlags_NoBackground);
  ui::heading("gemmlab");
  ImGui::SameLine();
  ui::note_text("how a GEMM kernel is made fast on an NVIDIA GPU, one rung at a time (simulated on this CPU)");
  job_status(model);
  messages(model);

  const ImGuiTableFlags layout_flags = ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV;
  const float height = ImGui::GetContentRegionAvail().y;
  if (ImGui::BeginTable("layout", 2, layout_flags, ImVec2(0, height))) {
    ImGui::TableSetupColumn("ladder", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 30.0f);
    ImGui::TableSetupColumn("panels", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::BeginChild("ladder-column", ImVec2(0, height - 4.0f), false);
    draw_ladder_column(context);
    ImGui::EndChild();
    ImGui::TableNextColumn();
    // Titles whole, scrolling the bar with arrows where the window is too narrow for every tab, rather than cutting
    // every title to "Overvi...".
    if (ImGui::BeginTabBar("panels", ImGuiTabBarFlags_FittingPolicyScroll)) {
      for (const PanelInfo& panel : panels()) {
        // The model decides which tab is open; a click on a tab tells the model.
        const bool wanted = panel.name == model.panel();
        const ImGuiTabItemFlags flags = wanted ? ImGuiTabItemFlags_SetSelected : 0;
        const std::string label = std::string(panel.title) + "###" + std::string(panel.name);
        const bool open = ImGui::BeginTabItem(label.c_str(), nullptr, flags);
        if (ImGui::IsItemClicked()) model.select_panel(panel.name);
        if (!open) continue;
        ImGui::BeginChild("panel", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar);
        panel.draw(context);
        ImGui::EndChild();
        ImGui::EndTabItem();
      }
      ImGui::EndTabBar();
    }
    ImGui::EndTable();
  }
  ImGui::End();
  keyboard(model);
}

}  // namespace gemmlab::desktop
