#include "ui/markdown.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ui/theme.hpp"

namespace gemmlab::desktop::ui {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

bool is_table_row(std::string_view line) { return trim(line).starts_with("|"); }

std::vector<std::string> table_cells(std::string_view line) {
  line = trim(line);
  if (line.starts_with("|")) line.remove_prefix(1);
  if (line.ends_with("|")) line.remove_suffix(1);
  std::vector<std::string> cells;
  std::size_t start = 0;
  bool in_code = false;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i < line.size() && line[i] == '`') in_code = !in_code;
    if (i == line.size() || (line[i] == '|' && !in_code)) {
      cells.push_back(plain_inline(trim(line.substr(start, i - start))));
      start = i + 1;
    }
  }
  return cells;
}

bool is_separator_row(std::string_view line) {
  for (const char ch : trim(line))
    if (ch != '|' && ch != '-' && ch != ':' && ch != ' ') return false;
  return true;
}

void bullet_text(std::string_view marker, const std::string& text) {
  // The text is indented as a block, so wrapped lines stay aligned under the first; the marker sits in the margin.
  const float indent = ImGui::GetFontSize() * 1.6f;
  ImGui::Indent(indent);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const std::string label(marker);
  ImGui::GetWindowDrawList()->AddText(ImVec2(at.x - ImGui::CalcTextSize(label.c_str()).x - 6.0f, at.y),
                                      ImGui::GetColorU32(ImGuiCol_Text), label.c_str());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::Unindent(indent);
}

}  // namespace

std::string plain_inline(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '`') continue;
    if (ch == '*' && i + 1 < text.size() && text[i + 1] == '*') {
      ++i;
      continue;
    }
    // *emphasis*: an asterisk touching a word on its inner side (not "a * b").
    if (ch == '*') {
      const bool opens = i + 1 < text.size() && text[i + 1] != ' ' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '(');
      const bool closes = i > 0 && text[i - 1] != ' ' && (i + 1 == text.size() || text[i + 1] == ' ' ||
                                                           text[i + 1] == ',' || text[i + 1] == '.' || text[i + 1] == ')' ||
                                                           text[i + 1] == ':' || text[i + 1] == ';');
      if (opens || closes) continue;
    }
    if (ch == '[') {
      // [text](target) -> text
      const auto close = text.find("](", i);
      const auto end = close == std::string_view::npos ? close : text.find(')', close);
      if (close != std::string_view::npos && end != std::string_view::npos) {
        out += plain_inline(text.substr(i + 1, close - i - 1));
        i = end;
        continue;
      }
    }
    out += ch;
  }
  return out;
}

void markdown(std::string_view text) {
  const auto lines = split_lines(text);
  std::string paragraph;
  const auto flush = [&] {
    if (paragraph.empty()) return;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(plain_inline(paragraph).c_str());
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    paragraph.clear();
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view raw = lines[i];
    const std::string_view line = trim(raw);
    if (line.starts_with("```")) {
      flush();
      std::string code;
      for (++i; i < lines.size() && !trim(lines[i]).starts_with("```"); ++i) {
        code += lines[i];
        code += '\n';
      }
      if (!code.empty()) code.pop_back();
      ImGui::PushStyleColor(ImGuiCol_ChildBg, colour::to_vec4(IM_COL32(16, 18, 22, 255)));
      ImGui::PushFont(fonts().mono);
      const float height = ImGui::CalcTextSize(code.c_str()).y + ImGui::GetStyle().WindowPadding.y * 2;
      ImGui::BeginChild(ImGui::GetID(static_cast<const void*>(raw.data())), ImVec2(0, height), false,
                        ImGuiWindowFlags_HorizontalScrollbar);
      ImGui::TextUnformatted(code.c_str());
      ImGui::EndChild();
      ImGui::PopFont();
      ImGui::PopStyleColor();
      ImGui::Spacing();
      continue;
    }
    if (line.empty()) {
      flush();
      continue;
    }
    if (line.starts_with("#")) {
      flush();
      std::size_t level = 0;
      while (level < line.size() && line[level] == '#') ++level;
      const std::string title = plain_inline(trim(line.substr(level)));
      if (i > 0) ImGui::Spacing();
      if (level <= 2) {
        heading(title.c_str());
        ImGui::Separator();
      } else {
        ImGui::PushStyleColor(ImGuiCol_Text, colour::to_vec4(IM_COL32(170, 205, 255, 255)));
        ImGui::TextUnformatted(title.c_str());
        ImGui::PopStyleColor();
      }
      continue;
    }
    if (is_table_row(line)) {
      flush();
      std::vector<std::vector<std::string>> rows;
      for (; i < lines.size() && is_table_row(lines[i]); ++i)
        if (!is_separator_row(lines[i])) rows.push_back(table_cells(lines[i]));
      --i;
      std::size_t columns = 0;
      for (const auto& row : rows) columns = std::max(columns, row.size());
      if (columns > 0 && columns <= 64 &&
          ImGui::BeginTable(("table" + std::to_string(i)).c_str(), static_cast<int>(columns),
                            ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
        for (std::size_t r = 0; r < rows.size(); ++r) {
          ImGui::TableNextRow(r == 0 ? ImGuiTableRowFlags_Headers : 0);
          for (std::size_t c = 0; c < columns; ++c) {
            ImGui::TableNextColumn();
            const std::string& cell = c < rows[r].size() ? rows[r][c] : std::string();
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(cell.c_str());
            ImGui::PopTextWrapPos();
          }
        }
        ImGui::EndTable();
      }
      ImGui::Spacing();
      continue;
    }
    const bool bullet = line.starts_with("- ") || line.starts_with("* ");
    std::size_t digits = 0;
    while (digits < line.size() && line[digits] >= '0' && line[digits] <= '9') ++digits;
    const bool numbered = digits > 0 && digits + 1 < line.size() && line[digits] == '.' && line[digits + 1] == ' ';
    if (bullet || numbered) {
      flush();
      std::string item(bullet ? line.substr(2) : line.substr(digits + 2));
      // Continuation lines are indented under the item.
      while (i + 1 < lines.size() && !trim(lines[i + 1]).empty() && (lines[i + 1].starts_with("  ")) &&
             !trim(lines[i + 1]).starts_with("- ")) {
        item += ' ';
        item += trim(lines[++i]);
      }
      const std::string marker = bullet ? "\xE2\x80\xA2" : std::string(line.substr(0, digits + 1));
      bullet_text(marker, plain_inline(item));
      continue;
    }
    if (!paragraph.empty()) paragraph += ' ';
    paragraph += line;
  }
  flush();
}

}  // namespace gemmlab::desktop::ui
