#include "panels/welcome_panel.hpp"

#include <imgui.h>

#include <string>

#include "gemmlab/gpu/device.hpp"
#include "gemmlab/rungs.hpp"

namespace gemmlab::desktop {

void draw_welcome_panel() {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->WorkPos);
  ImGui::SetNextWindowSize(viewport->WorkSize);
  ImGui::Begin("gemmlab", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
  ImGui::TextUnformatted("gemmlab - a lab for learning how a GEMM kernel is made fast on an NVIDIA GPU");
  ImGui::Separator();
  ImGui::TextWrapped("The ladder: each rung is one kernel variant, described once and used by both the simulator and "
                     "the GPU kernel.");
  if (ImGui::BeginTable("rungs", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("#");
    ImGui::TableSetupColumn("rung");
    ImGui::TableSetupColumn("precision");
    ImGui::TableSetupColumn("what it changes", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (const auto& rung : rungs()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%d", rung.number);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(rung.title.data(), rung.title.data() + rung.title.size());
      ImGui::TableNextColumn();
      const auto precision = to_string(rung.precision);
      ImGui::TextUnformatted(precision.data(), precision.data() + precision.size());
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%.*s", static_cast<int>(rung.change.size()), rung.change.data());
    }
    ImGui::EndTable();
  }
  ImGui::Spacing();
  ImGui::TextUnformatted(gpu::built_with_cuda() ? "GPU backend: built with CUDA."
                                                : "GPU backend: this build has no CUDA toolkit.");
  ImGui::End();
}

}  // namespace gemmlab::desktop
