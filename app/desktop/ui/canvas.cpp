#include "ui/canvas.hpp"

#include <algorithm>
#include <cmath>

namespace gemmlab::desktop::ui {
namespace {

void fit_transform(ViewTransform& t, ImVec2 size, float width, float height, bool width_only) {
  const float margin = 8.0f;
  const float sx = (size.x - 2 * margin) / std::max(width, 1.0f), sy = (size.y - 2 * margin) / std::max(height, 1.0f);
  t.scale = std::max(0.01f, width_only ? sx : std::min(sx, sy));
  t.x = (size.x - width * t.scale) * 0.5f;
  t.y = width_only && height * t.scale > size.y ? margin : (size.y - height * t.scale) * 0.5f;
  t.content_width = width;
  t.content_height = height;
  t.view_width = size.x;
  t.view_height = size.y;
  t.moved = false;
}

}  // namespace

Canvas::Canvas(const char* id, ImVec2 size, ViewTransform& transform, float content_width, float content_height,
               bool fit_width_only)
    : transform_(transform) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (size.x <= 0) size.x = avail.x;
  if (size.y <= 0) size.y = avail.y;
  size.x = std::max(size.x, 32.0f);
  size.y = std::max(size.y, 32.0f);
  min_ = ImGui::GetCursorScreenPos();
  max_ = ImVec2(min_.x + size.x, min_.y + size.y);
  ImGui::InvisibleButton(id, size, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonMiddle);
  hovered_ = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();

  // Refit for new content, and for a new view size (a window resized, text above that grew) until the user moves it.
  const bool view_resized = transform_.view_width != size.x || transform_.view_height != size.y;
  if (transform_.scale <= 0.0f || transform_.content_width != content_width ||
      transform_.content_height != content_height || (view_resized && !transform_.moved))
    fit_transform(transform_, size, content_width, content_height, fit_width_only);

  ImGuiIO& io = ImGui::GetIO();
  if (hovered_ && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) fit_transform(transform_, size, content_width, content_height, fit_width_only);
  if (hovered_ && io.MouseWheel != 0.0f && fit_width_only && !io.KeyCtrl) {
    // Tall content (a shared buffer of many rows): the wheel scrolls, Ctrl + wheel zooms.
    transform_.y += io.MouseWheel * ImGui::GetTextLineHeight() * 3.0f;
    transform_.moved = true;
  } else if (hovered_ && io.MouseWheel != 0.0f) {
    // Zoom around the pointer: the content point under it stays put.
    const float factor = std::pow(1.2f, io.MouseWheel);
    const float fitted = std::min(size.x / std::max(content_width, 1.0f), size.y / std::max(content_height, 1.0f));
    const float next = std::clamp(transform_.scale * factor, fitted * 0.5f, 200.0f);
    const ImVec2 local(io.MousePos.x - min_.x, io.MousePos.y - min_.y);
    transform_.x = local.x - (local.x - transform_.x) * (next / transform_.scale);
    transform_.y = local.y - (local.y - transform_.y) * (next / transform_.scale);
    transform_.scale = next;
    transform_.moved = true;
  }
  const bool dragging = active && (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3.0f) ||
                                   ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 0.0f));
  if (dragging) {
    transform_.x += io.MouseDelta.x;
    transform_.y += io.MouseDelta.y;
    transform_.moved = true;
  }
  if (ImGui::IsItemDeactivated() && hovered_) {
    const ImVec2 drag = ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 0.0f);
    if (std::abs(drag.x) < 3.0f && std::abs(drag.y) < 3.0f && !ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
      clicked_ = true;
      click_point_ = to_content(io.MousePos);
    }
  }
  draw_ = ImGui::GetWindowDrawList();
  draw_->PushClipRect(min_, max_, true);
}

Canvas::~Canvas() { draw_->PopClipRect(); }

bool Canvas::clicked(ImVec2* content_point) const {
  if (clicked_ && content_point) *content_point = click_point_;
  return clicked_;
}

bool Canvas::visible(float x0, float y0, float x1, float y1) const {
  const ImVec2 a = to_screen(x0, y0), b = to_screen(x1, y1);
  return b.x >= min_.x && a.x <= max_.x && b.y >= min_.y && a.y <= max_.y;
}

void Canvas::fit() { transform_.scale = 0.0f; }

}  // namespace gemmlab::desktop::ui
