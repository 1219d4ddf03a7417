#include "ui/cell_grid.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <deque>
#include <map>

#include "gemmlab_shaders.hpp"

namespace gemmlab::desktop::ui {

struct GridTexture {
  GLuint texture = 0;
  int columns = 0, rows = 0;
  std::vector<ImU32> uploaded;
};

struct GridDraw {
  CellGridRenderer::Impl* impl;
  GLuint texture;
  int columns, rows;
  ImVec2 origin;
  float cell;
  CellGridStyle style;
};

struct CellGridRenderer::Impl {
  GLuint program = 0, vao = 0;
  GLint u_rect = -1, u_viewport = -1, u_cells = -1, u_origin = -1, u_cell = -1, u_grid = -1, u_group = -1, u_borders = -1;
  std::map<std::string, GridTexture> textures;
  std::deque<GridDraw> draws;  // stable addresses: the draw list keeps pointers until rendering

  ~Impl() {
    for (auto& [id, t] : textures) glDeleteTextures(1, &t.texture);
    if (vao) glDeleteVertexArrays(1, &vao);
    if (program) glDeleteProgram(program);
  }

  // The state render() sets, saved and put back (scissor test and box, blending, program, vertex array, texture).
  struct SavedState {
    GLint program = 0, vertex_array = 0, texture = 0, active_texture = 0, scissor_box[4] = {};
    GLint blend_src_rgb = 0, blend_dst_rgb = 0, blend_src_alpha = 0, blend_dst_alpha = 0;
    GLboolean scissor = GL_FALSE, blend = GL_FALSE;
    SavedState() {
      glGetIntegerv(GL_CURRENT_PROGRAM, &program);
      glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vertex_array);
      glGetIntegerv(GL_ACTIVE_TEXTURE, &active_texture);
      glActiveTexture(GL_TEXTURE0);
      glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture);
      glGetIntegerv(GL_SCISSOR_BOX, scissor_box);
      glGetIntegerv(GL_BLEND_SRC_RGB, &blend_src_rgb);
      glGetIntegerv(GL_BLEND_DST_RGB, &blend_dst_rgb);
      glGetIntegerv(GL_BLEND_SRC_ALPHA, &blend_src_alpha);
      glGetIntegerv(GL_BLEND_DST_ALPHA, &blend_dst_alpha);
      scissor = glIsEnabled(GL_SCISSOR_TEST);
      blend = glIsEnabled(GL_BLEND);
    }
    ~SavedState() {
      glUseProgram(static_cast<GLuint>(program));
      glBindVertexArray(static_cast<GLuint>(vertex_array));
      glActiveTexture(GL_TEXTURE0);
      glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(texture));
      glActiveTexture(static_cast<GLenum>(active_texture));
      glScissor(scissor_box[0], scissor_box[1], scissor_box[2], scissor_box[3]);
      glBlendFuncSeparate(static_cast<GLenum>(blend_src_rgb), static_cast<GLenum>(blend_dst_rgb),
                          static_cast<GLenum>(blend_src_alpha), static_cast<GLenum>(blend_dst_alpha));
      if (scissor) glEnable(GL_SCISSOR_TEST);
      else glDisable(GL_SCISSOR_TEST);
      if (blend) glEnable(GL_BLEND);
      else glDisable(GL_BLEND);
    }
    SavedState(const SavedState&) = delete;
    SavedState& operator=(const SavedState&) = delete;
  };

  void render(const GridDraw& d, const ImVec4& clip) const {
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 scale = io.DisplayFramebufferScale;
    const float fb_width = io.DisplaySize.x * scale.x, fb_height = io.DisplaySize.y * scale.y;
    // The clip rectangle inside the framebuffer: ImGui's can reach past it (a canvas scrolled partly out of view), and
    // a scissor or quad beyond the framebuffer made Mesa's llvmpipe crash in a narrow window.
    const ImVec2 clip_min(clip.x * scale.x, clip.y * scale.y), clip_max(clip.z * scale.x, clip.w * scale.y);
    if (clip_max.x <= clip_min.x || clip_max.y <= clip_min.y) return;
    // The GL state this draw changes goes back as it was at the end: ImGui's ResetRenderState command after the
    // callback (draw) is lost where a table merges its columns' draw lists, and ImGui's next draw then ran with this
    // program and vertex array bound, which crashed Mesa (the launch-order panel below 1500 pixels wide).
    const SavedState saved;
    glEnable(GL_SCISSOR_TEST);
    glScissor(static_cast<GLint>(clip_min.x), static_cast<GLint>(fb_height - clip_max.y),
              static_cast<GLsizei>(clip_max.x - clip_min.x), static_cast<GLsizei>(clip_max.y - clip_min.y));
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(program);
    glBindVertexArray(vao);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, d.texture);
    const float left = d.origin.x * scale.x, top = d.origin.y * scale.y;
    const float cell = d.cell * scale.x;
    // The quad covers the grid clipped to the clip rectangle: no fragment work outside what is visible.
    const float right = std::min(left + cell * static_cast<float>(d.columns), clip_max.x);
    const float bottom = std::min(top + cell * static_cast<float>(d.rows), clip_max.y);
    const float quad_left = std::max(left, clip_min.x), quad_top = std::max(top, clip_min.y);
    // A grid wholly outside the clip rectangle (its canvas panned away from it) would give an inverted quad over
    // pixels outside the grid: nothing of it is visible, so nothing is drawn.
    if (right <= quad_left || bottom <= quad_top) return;
    glUniform4f(u_rect, quad_left, quad_top, right, bottom);
    glUniform2f(u_viewport, fb_width, fb_height);
    glUniform1i(u_cells, 0);
    glUniform2f(u_origin, left, top);
    glUniform1f(u_cell, cell);
    glUniform2f(u_grid, static_cast<float>(d.columns), static_cast<float>(d.rows));
    glUniform2f(u_group, static_cast<float>(d.style.group_columns), static_cast<float>(d.style.group_rows));
    glUniform1f(u_borders, d.style.cell_borders ? 1.0f : 0.0f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  }
};

namespace {

void grid_callback(const ImDrawList*, const ImDrawCmd* command) {
  const auto* d = static_cast<const GridDraw*>(command->UserCallbackData);
  d->impl->render(*d, command->ClipRect);
}

Result<GLuint> compile(GLenum kind, const char* source, const char* name) {
  const GLuint shader = glCreateShader(kind);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    return Error{std::string("shader ") + name + " did not compile: " + log};
  }
  return shader;
}

}  // namespace

Result<std::unique_ptr<CellGridRenderer>> CellGridRenderer::create() {
  auto impl = std::make_unique<Impl>();
  auto vertex = compile(GL_VERTEX_SHADER, shaders::cell_grid_vert, "cell_grid.vert");
  if (!vertex) return vertex.error();
  auto fragment = compile(GL_FRAGMENT_SHADER, shaders::cell_grid_frag, "cell_grid.frag");
  if (!fragment) {
    glDeleteShader(*vertex);
    return fragment.error();
  }
  impl->program = glCreateProgram();
  glAttachShader(impl->program, *vertex);
  glAttachShader(impl->program, *fragment);
  glLinkProgram(impl->program);
  glDeleteShader(*vertex);
  glDeleteShader(*fragment);
  GLint linked = 0;
  glGetProgramiv(impl->program, GL_LINK_STATUS, &linked);
  if (!linked) {
    char log[1024] = {};
    glGetProgramInfoLog(impl->program, sizeof log, nullptr, log);
    return Error{std::string("the cell_grid shaders did not link: ") + log};
  }
  glGenVertexArrays(1, &impl->vao);
  const GLuint p = impl->program;
  impl->u_rect = glGetUniformLocation(p, "u_rect");
  impl->u_viewport = glGetUniformLocation(p, "u_viewport");
  impl->u_cells = glGetUniformLocation(p, "u_cells");
  impl->u_origin = glGetUniformLocation(p, "u_origin");
  impl->u_cell = glGetUniformLocation(p, "u_cell");
  impl->u_grid = glGetUniformLocation(p, "u_grid");
  impl->u_group = glGetUniformLocation(p, "u_group");
  impl->u_borders = glGetUniformLocation(p, "u_borders");
  return std::unique_ptr<CellGridRenderer>(new CellGridRenderer(std::move(impl)));
}

CellGridRenderer::CellGridRenderer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CellGridRenderer::~CellGridRenderer() = default;

void CellGridRenderer::begin_frame() { impl_->draws.clear(); }

void CellGridRenderer::draw(ImDrawList* draw, const std::string& id, int columns, int rows,
                            const std::vector<ImU32>& colours, ImVec2 origin, float cell, const CellGridStyle& style) {
  if (columns <= 0 || rows <= 0 || colours.size() < static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows))
    return;
  GridTexture& t = impl_->textures[id];
  if (!t.texture) {
    glGenTextures(1, &t.texture);
    glBindTexture(GL_TEXTURE_2D, t.texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  if (t.columns != columns || t.rows != rows || t.uploaded != colours) {
    glBindTexture(GL_TEXTURE_2D, t.texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    // ImU32 is R in the low byte: in memory that is R, G, B, A on little-endian machines.
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, columns, rows, 0, GL_RGBA, GL_UNSIGNED_BYTE, colours.data());
    t.columns = columns;
    t.rows = rows;
    t.uploaded = colours;
  }
  impl_->draws.push_back({impl_.get(), t.texture, columns, rows, origin, cell, style});
  draw->AddCallback(grid_callback, &impl_->draws.back());
  draw->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

}  // namespace gemmlab::desktop::ui
