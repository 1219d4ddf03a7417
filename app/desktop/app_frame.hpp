#pragma once
// One frame of the whole window: the header with running jobs, messages, the ladder column, the panel tabs, and
// the keyboard shortcuts of the stepper.
#include "panels/panels.hpp"

namespace gemmlab::desktop {

void draw_app_frame(PanelContext& context);

}  // namespace gemmlab::desktop
