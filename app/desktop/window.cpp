#include "window.hpp"

// glad before GLFW, so GLFW does not pull in the system's GL header.
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cfloat>

namespace gemmlab::desktop {
namespace {

std::string g_last_glfw_error;

void remember_glfw_error(int code, const char* description) {
  g_last_glfw_error = description ? description : ("GLFW error " + std::to_string(code));
}

}  // namespace

Result<std::unique_ptr<Window>> Window::open(const Options& options) {
  glfwSetErrorCallback(remember_glfw_error);
  if (!glfwInit()) return Error{"no display available: " + g_last_glfw_error};
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* handle = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (!handle) {
    glfwTerminate();
    return Error{"could not open an OpenGL 3.3 core window: " + g_last_glfw_error};
  }
  glfwMakeContextCurrent(handle);
  glfwSwapInterval(options.vsync ? 1 : 0);
  if (gladLoadGL(glfwGetProcAddress) == 0) {
    glfwDestroyWindow(handle);
    glfwTerminate();
    return Error{"could not load the OpenGL 3.3 core functions"};
  }
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(handle, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  return std::unique_ptr<Window>(new Window(handle));
}

Window::Window(GLFWwindow* handle) : handle_(handle) {}

Window::~Window() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(handle_);
  glfwTerminate();
}

bool Window::should_close() const { return glfwWindowShouldClose(handle_) != 0; }

void Window::begin_frame() {
  glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  if (ignore_mouse_) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  ImGui::NewFrame();
}

void Window::end_frame() {
  ImGui::Render();
  glViewport(0, 0, framebuffer_width(), framebuffer_height());
  glClearColor(0.085f, 0.09f, 0.11f, 1.0f);  // the theme's window colour: the main window draws no background
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::present() { glfwSwapBuffers(handle_); }

void Window::finish() { glFinish(); }

std::string Window::renderer() const {
  const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return name ? name : "unknown renderer";
}

int Window::framebuffer_width() const {
  int width = 0, height = 0;
  glfwGetFramebufferSize(handle_, &width, &height);
  return width;
}

int Window::framebuffer_height() const {
  int width = 0, height = 0;
  glfwGetFramebufferSize(handle_, &width, &height);
  return height;
}

}  // namespace gemmlab::desktop
