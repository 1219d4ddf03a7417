#pragma once
#include <string_view>
// Fonts, colours and small drawing helpers every panel shares, so the same thing looks the same everywhere:
// bank b always has the same colour, warp w the same hue, a conflict is always red.
#include <imgui.h>

#include <cstdint>
#include <string>

namespace gemmlab::desktop::ui {

struct Fonts {
  ImFont* body = nullptr;
  ImFont* heading = nullptr;
  ImFont* mono = nullptr;
  std::string note;  // when the preferred font could not be found: what is used instead
};

// Loads DejaVu Sans (fonts-dejavu-core) at sizes for body text, headings and code, and sets the app's style.
// Falls back to ImGui's built-in font, with a note, where the font files are missing.
Fonts load_fonts_and_style();
const Fonts& fonts();

// Colours (ImU32, ABGR as ImGui packs them).
namespace colour {
ImU32 bank(int bank, float brightness = 1.0f);  // 32 hues around the wheel; neighbours differ in lightness too
ImU32 warp(int warp, float brightness = 1.0f);  // a qualitative palette, repeating after 12
ImU32 operand(int operand, float brightness = 1.0f);  // A blue, B amber, C violet
ImU32 wave(int wave, float brightness = 1.0f);  // the warp palette: neighbouring waves always differ
// A rung's colour in the charts (by ladder number, from 1): ten hues far apart (Tableau's ten, lightened for a dark
// background); rungs 11 on reuse them, so a chart that shows more than ten also tells them apart by marker shape
// (rung_marker) and labels each line with its number.
ImU32 rung(int number);
enum class Marker { Circle, Square };
Marker rung_marker(int number);
ImU32 heat(float t);      // 0..1: dark blue, purple, red, orange, pale yellow (how often something came from DRAM)
ImU32 sequence(float t);  // 0..1: purple, blue, green, yellow (first to last, as in viridis)
inline constexpr ImU32 conflict = IM_COL32(255, 70, 70, 255);
inline constexpr ImU32 ok = IM_COL32(90, 210, 120, 255);
inline constexpr ImU32 highlight = IM_COL32(255, 255, 255, 255);
inline constexpr ImU32 muted_text = IM_COL32(150, 156, 170, 255);
inline constexpr ImU32 empty_cell = IM_COL32(38, 41, 48, 255);
ImVec4 to_vec4(ImU32 colour);
ImU32 with_alpha(ImU32 colour, int alpha);
}  // namespace colour

// Text drawn centred in a box, clipped to it (labels inside cells).
void centered_text(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 colour, const char* text);
// A coloured heading line in the heading font.
void heading(const char* text);
// Text cut to the width left on the line, ending in "..." where it does not fit, with the whole text in a tooltip then
// (the ladder's rung titles in a narrow window).
void fitted_text(std::string_view text);
// Muted, wrapped explanatory text.
void note_text(const char* format, ...) IM_FMTARGS(1);
// Text in a colour, for counts that should stand out (conflicts in red, a clean result in green).
void coloured_text(ImU32 colour, const char* format, ...) IM_FMTARGS(2);

}  // namespace gemmlab::desktop::ui
