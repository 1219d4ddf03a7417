#pragma once

namespace gemmlab::desktop {

// The first screen: what gemmlab is, the ladder of rungs, and what this build can run.
void draw_welcome_panel();

}  // namespace gemmlab::desktop
