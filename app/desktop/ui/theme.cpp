#include "ui/theme.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdarg>
#include <filesystem>
#include <string>

namespace gemmlab::desktop::ui {
namespace {

Fonts g_fonts;

// Latin-1 plus the punctuation, arrows, maths and shapes the docs pages and labels use (— → × ≤ ▶ ■).
const ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x2010, 0x205E, 0x2190, 0x21FF, 0x2200, 0x22FF,
                                0x2300, 0x23FF, 0x25A0, 0x25FF, 0x2600, 0x26FF, 0};

std::string first_existing(std::initializer_list<const char*> paths) {
  for (const char* path : paths) {
    std::error_code error;
    if (std::filesystem::is_regular_file(path, error)) return path;
  }
  return {};
}

ImU32 hsv(float h, float s, float v) {
  float r = 0, g = 0, b = 0;
  ImGui::ColorConvertHSVtoRGB(h, s, v, r, g, b);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1.0f));
}

ImU32 scale(ImU32 colour, float brightness) {
  ImVec4 c = ImGui::ColorConvertU32ToFloat4(colour);
  c.x = std::min(1.0f, c.x * brightness), c.y = std::min(1.0f, c.y * brightness), c.z = std::min(1.0f, c.z * brightness);
  return ImGui::ColorConvertFloat4ToU32(c);
}

void set_style() {
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 0.0f;
  style.ChildRounding = 4.0f;
  style.FrameRounding = 4.0f;
  style.GrabRounding = 4.0f;
  style.TabRounding = 4.0f;
  style.PopupRounding = 4.0f;
  style.FramePadding = ImVec2(7, 3);
  style.ItemSpacing = ImVec2(9, 5);
  style.CellPadding = ImVec2(6, 3);
  style.WindowPadding = ImVec2(10, 10);
  ImVec4* c = style.Colors;
  c[ImGuiCol_WindowBg] = ImVec4(0.085f, 0.09f, 0.11f, 1.0f);
  c[ImGuiCol_ChildBg] = ImVec4(0.0f, 0.0f, 0.0f, 0.0f);  // children show the window behind: no overdraw
  c[ImGuiCol_PopupBg] = ImVec4(0.12f, 0.125f, 0.15f, 0.98f);
  c[ImGuiCol_Header] = ImVec4(0.22f, 0.36f, 0.58f, 0.70f);
  c[ImGuiCol_HeaderHovered] = ImVec4(0.26f, 0.42f, 0.68f, 0.80f);
  c[ImGuiCol_HeaderActive] = ImVec4(0.28f, 0.46f, 0.74f, 1.0f);
  c[ImGuiCol_Tab] = ImVec4(0.14f, 0.16f, 0.21f, 1.0f);
  c[ImGuiCol_TabHovered] = ImVec4(0.28f, 0.46f, 0.74f, 1.0f);
  c[ImGuiCol_TabActive] = ImVec4(0.22f, 0.36f, 0.58f, 1.0f);
  c[ImGuiCol_TableRowBgAlt] = ImVec4(1.0f, 1.0f, 1.0f, 0.035f);
}

}  // namespace

Fonts load_fonts_and_style() {
  set_style();
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const std::string sans = first_existing({"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                                           "/usr/share/fonts/TTF/DejaVuSans.ttf",
                                           "/usr/share/fonts/dejavu/DejaVuSans.ttf"});
  const std::string bold = first_existing({"/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
                                           "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
                                           "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf"});
  const std::string mono = first_existing({"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
                                           "/usr/share/fonts/TTF/DejaVuSansMono.ttf",
                                           "/usr/share/fonts/dejavu/DejaVuSansMono.ttf"});
  Fonts fonts;
  if (!sans.empty()) {
    fonts.body = io.Fonts->AddFontFromFileTTF(sans.c_str(), 16.0f, nullptr, kGlyphRanges);
    fonts.heading = io.Fonts->AddFontFromFileTTF((bold.empty() ? sans : bold).c_str(), 19.0f, nullptr, kGlyphRanges);
    fonts.mono = mono.empty() ? fonts.body : io.Fonts->AddFontFromFileTTF(mono.c_str(), 15.0f, nullptr, kGlyphRanges);
  }
  if (!fonts.body) {
    fonts.body = fonts.heading = fonts.mono = io.Fonts->AddFontDefault();
    fonts.note = "DejaVu Sans was not found (Debian package fonts-dejavu-core); using ImGui's small built-in font.";
  }
  io.FontDefault = fonts.body;
  g_fonts = fonts;
  return fonts;
}

const Fonts& fonts() { return g_fonts; }

namespace colour {

ImU32 bank(int bank, float brightness) {
  const int b = ((bank % 32) + 32) % 32;
  const float value = (b % 2 == 0 ? 0.80f : 0.62f) * brightness;
  return hsv(static_cast<float>(b) / 32.0f, 0.62f, std::min(1.0f, value));
}

ImU32 warp(int warp, float brightness) {
  static constexpr std::array<ImU32, 12> kPalette = {
      IM_COL32(78, 154, 230, 255),  IM_COL32(240, 150, 60, 255),  IM_COL32(96, 196, 110, 255),
      IM_COL32(226, 90, 120, 255),  IM_COL32(170, 128, 226, 255), IM_COL32(214, 196, 72, 255),
      IM_COL32(72, 200, 200, 255),  IM_COL32(230, 128, 200, 255), IM_COL32(160, 170, 90, 255),
      IM_COL32(120, 140, 255, 255), IM_COL32(200, 120, 80, 255),  IM_COL32(130, 210, 170, 255)};
  return scale(kPalette[static_cast<std::size_t>(((warp % 12) + 12) % 12)], brightness);
}

ImU32 operand(int operand, float brightness) {
  static constexpr std::array<ImU32, 3> kColours = {IM_COL32(80, 150, 240, 255), IM_COL32(236, 170, 60, 255),
                                                    IM_COL32(176, 120, 230, 255)};
  return scale(kColours[static_cast<std::size_t>(std::clamp(operand, 0, 2))], brightness);
}

ImU32 wave(int wave, float brightness) { return warp(wave, brightness); }

ImU32 rung(int number) {
  static constexpr std::array<ImU32, 10> kPalette = {
      IM_COL32(95, 160, 240, 255),  IM_COL32(255, 150, 40, 255),  IM_COL32(240, 80, 85, 255),
      IM_COL32(110, 215, 205, 255), IM_COL32(100, 200, 80, 255),  IM_COL32(245, 215, 70, 255),
      IM_COL32(200, 130, 200, 255), IM_COL32(255, 170, 180, 255), IM_COL32(190, 140, 105, 255),
      IM_COL32(200, 200, 200, 255)};
  return kPalette[static_cast<std::size_t>((((number - 1) % 10) + 10) % 10)];
}

Marker rung_marker(int number) { return number > 10 ? Marker::Square : Marker::Circle; }

namespace {
// Linear interpolation between evenly spaced colour stops.
template <std::size_t N>
ImU32 ramp(const std::array<ImVec4, N>& stops, float t) {
  const float x = std::clamp(t, 0.0f, 1.0f) * static_cast<float>(N - 1);
  const std::size_t i = std::min(N - 2, static_cast<std::size_t>(x));
  const float f = x - static_cast<float>(i);
  const ImVec4 &a = stops[i], &b = stops[i + 1];
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f, 1.0f));
}
}  // namespace

ImU32 heat(float t) {
  static const std::array<ImVec4, 5> kStops = {ImVec4(0.14f, 0.19f, 0.40f, 1), ImVec4(0.42f, 0.18f, 0.58f, 1),
                                               ImVec4(0.82f, 0.25f, 0.38f, 1), ImVec4(0.97f, 0.56f, 0.17f, 1),
                                               ImVec4(0.99f, 0.95f, 0.55f, 1)};
  return ramp(kStops, t);
}

ImU32 sequence(float t) {
  static const std::array<ImVec4, 5> kStops = {ImVec4(0.29f, 0.10f, 0.42f, 1), ImVec4(0.23f, 0.32f, 0.55f, 1),
                                               ImVec4(0.13f, 0.57f, 0.55f, 1), ImVec4(0.37f, 0.79f, 0.38f, 1),
                                               ImVec4(0.99f, 0.91f, 0.15f, 1)};
  return ramp(kStops, t);
}

ImVec4 to_vec4(ImU32 c) { return ImGui::ColorConvertU32ToFloat4(c); }

ImU32 with_alpha(ImU32 c, int alpha) { return (c & ~IM_COL32_A_MASK) | (static_cast<ImU32>(alpha) << IM_COL32_A_SHIFT); }

}  // namespace colour

void centered_text(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 colour, const char* text) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  const ImVec2 at((min.x + max.x - size.x) * 0.5f, (min.y + max.y - size.y) * 0.5f);
  draw->AddText(nullptr, 0.0f, at, colour, text, nullptr, 0.0f, nullptr);
}

void heading(const char* text) {
  ImGui::PushFont(g_fonts.heading ? g_fonts.heading : ImGui::GetFont());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
}

void fitted_text(std::string_view text) {
  const float room = ImGui::GetContentRegionAvail().x;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (ImGui::CalcTextSize(begin, end).x <= room) {
    ImGui::TextUnformatted(begin, end);
    return;
  }
  // The longest prefix that fits with the dots after it (a title is short: a linear search is enough).
  const float dots = ImGui::CalcTextSize("...").x;
  std::size_t keep = text.size();
  while (keep > 0 && ImGui::CalcTextSize(begin, begin + keep).x + dots > room) --keep;
  while (keep > 0 && text[keep - 1] == ' ') --keep;
  const std::string cut = std::string(text.substr(0, keep)) + "...";
  ImGui::TextUnformatted(cut.c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%.*s", static_cast<int>(text.size()), begin);
}

void note_text(const char* format, ...) {
  va_list args;
  va_start(args, format);
  ImGui::PushStyleColor(ImGuiCol_Text, colour::to_vec4(colour::muted_text));
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextV(format, args);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  va_end(args);
}

void coloured_text(ImU32 c, const char* format, ...) {
  va_list args;
  va_start(args, format);
  ImGui::PushStyleColor(ImGuiCol_Text, colour::to_vec4(c));
  ImGui::TextV(format, args);
  ImGui::PopStyleColor();
  va_end(args);
}

}  // namespace gemmlab::desktop::ui
