#pragma once
// A pannable, zoomable drawing area for large grids: the mouse wheel zooms around the pointer, dragging pans,
// a double-click fits the content. Content is measured in its own units (cells); the panel draws with to_screen().
#include <imgui.h>

#include "model/app_model.hpp"

namespace gemmlab::desktop::ui {

class Canvas {
 public:
  // Reserves `size` pixels (0: what is left of the window), fits a content_width x content_height area into it the
  // first time (and when the content size changes), and handles the mouse.
  // With fit_width_only the first fit fills the width and starts at the top (tall content scrolls).
  Canvas(const char* id, ImVec2 size, ViewTransform& transform, float content_width, float content_height,
         bool fit_width_only = false);
  ~Canvas();  // pops the clip rectangle
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  ImDrawList* draw() const { return draw_; }
  ImVec2 min() const { return min_; }
  ImVec2 max() const { return max_; }
  float scale() const { return transform_.scale; }  // pixels per content unit
  ImVec2 to_screen(float x, float y) const {
    return ImVec2(min_.x + transform_.x + x * transform_.scale, min_.y + transform_.y + y * transform_.scale);
  }
  ImVec2 to_content(ImVec2 screen) const {
    return ImVec2((screen.x - min_.x - transform_.x) / transform_.scale, (screen.y - min_.y - transform_.y) / transform_.scale);
  }
  bool hovered() const { return hovered_; }
  // True for one frame when the canvas was clicked without dragging; the point in content units.
  bool clicked(ImVec2* content_point) const;
  // Whether a content rectangle is on screen (skip drawing what is not).
  bool visible(float x0, float y0, float x1, float y1) const;
  void fit();  // asks for a fit on the next frame

 private:
  ViewTransform& transform_;
  ImDrawList* draw_ = nullptr;
  ImVec2 min_, max_;
  bool hovered_ = false;
  bool clicked_ = false;
  ImVec2 click_point_;
};

}  // namespace gemmlab::desktop::ui
