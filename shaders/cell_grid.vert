#version 330 core
// The cell grid: one quad covering the visible part of the grid; each corner carries its position in cells, which
// the rasterizer interpolates, so the fragment shader knows its cell without any per-pixel division.
// u_rect is (left, top, right, bottom) in framebuffer pixels with y pointing down, as ImGui measures.
uniform vec4 u_rect;
uniform vec2 u_viewport;  // framebuffer width, height
uniform vec2 u_origin;    // framebuffer pixel of the top-left corner of cell (0, 0)
uniform float u_cell;     // cell size in framebuffer pixels

out vec2 v_cell;  // position in cells: (column, row)

void main() {
  // Four vertices of a triangle strip, from gl_VertexID: no vertex buffer needed.
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  vec2 pixel = mix(u_rect.xy, u_rect.zw, corner);
  v_cell = (pixel - u_origin) / u_cell;
  gl_Position = vec4(pixel.x / u_viewport.x * 2.0 - 1.0, 1.0 - pixel.y / u_viewport.y * 2.0, 0.0, 1.0);
}
