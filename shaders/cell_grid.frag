#version 330 core
// The cell grid: a large grid of coloured cells (the shared buffer as rows of 32 banks, a block's C tile), drawn
// from a texture holding one texel per cell (nearest sampling), so the cost does not grow with the number of cells.
// Cells get a thin darker border once they are big enough to tell apart, and a lighter line every u_group cells
// (k-step tiles, thread tiles) so the eye can count. Straight-line code on purpose: on a software renderer
// (llvmpipe) every fragment runs it.
uniform sampler2D u_cells;  // RGBA8, one texel per cell, GL_NEAREST
uniform vec2 u_grid;        // columns, rows
uniform vec2 u_group;       // a group line every u_group.x columns and u_group.y rows (0: none)
uniform float u_cell;       // cell size in framebuffer pixels
uniform float u_borders;    // 1: each cell's border; 0: none (cells that only make up larger shapes)

in vec2 v_cell;
out vec4 out_colour;

void main() {
  vec4 colour = texture(u_cells, v_cell / u_grid);
  vec2 inside = fract(v_cell) * u_cell;  // pixels from the cell's top-left corner
  // Border: the first pixel row and column of each cell, once cells are 5 pixels or more.
  float border = u_borders * step(5.0, u_cell) * max(step(inside.x, 1.0), step(inside.y, 1.0));
  colour.rgb *= 1.0 - 0.55 * border;
  colour.a = max(colour.a, 0.6 * border);
  // Group lines: the first pixels of every u_group-th column or row, not at the grid's own edge.
  vec2 index = floor(v_cell);
  vec2 on_group = step(0.5, u_group) * step(0.5, index) *
                  (1.0 - step(0.5, abs(index - u_group * floor(index / max(u_group, 1.0)))));
  float width = 1.0 + step(8.0, u_cell);
  float line = max(on_group.x * step(inside.x, width), on_group.y * step(inside.y, width));
  out_colour = mix(colour, vec4(mix(colour.rgb, vec3(0.95), 0.35), 1.0), line);
}
