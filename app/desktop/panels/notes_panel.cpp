// The rung overview: the selected configuration's simulated counters and predictions, then the rung's notes page
// (docs/rungs/NN-slug.md): what changed from the rung before and why.
#include <imgui.h>

#include "panels/panels.hpp"
#include "ui/markdown.hpp"
#include "ui/theme.hpp"

namespace gemmlab::desktop {

void draw_notes_panel(PanelContext& context) {
  const DocsPage& page = context.model.docs();
  ImGui::BeginChild("notes", ImVec2(0, 0), false);
  draw_kernel_summary(context);
  ImGui::Spacing();
  ImGui::Separator();
  if (!page.found) {
    ui::heading("No notes page");
    ImGui::TextWrapped("%s", page.message.c_str());
    ui::note_text("Set GEMMLAB_DATA_DIR to a gemmlab checkout to read the pages from there.");
  } else {
    ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x);
    ui::markdown(page.text);
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    ui::note_text("Read from %s", page.path.string().c_str());
  }
  ImGui::EndChild();
}

}  // namespace gemmlab::desktop
