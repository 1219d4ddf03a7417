# The desktop app's dependencies: GLFW, OpenGL, Dear ImGui with its GLFW and OpenGL3 backends (Debian's
# libimgui-dev ships the backends as sources), stb_image_write for screenshots, and glad2, which generates the
# OpenGL 3.3 core loader into the build tree at configure time. Sets GEMMLAB_HAVE_DESKTOP.
set(gemmlab_desktop_missing "")
if(NOT GEMMLAB_DESKTOP STREQUAL "OFF")
  find_package(glfw3 3.3 QUIET)
  find_package(OpenGL QUIET COMPONENTS OpenGL)
  find_path(GEMMLAB_IMGUI_INCLUDE imgui.h PATH_SUFFIXES imgui)
  find_library(GEMMLAB_IMGUI_LIBRARY imgui)
  find_path(GEMMLAB_IMGUI_BACKENDS imgui_impl_glfw.cpp PATHS /usr/share/doc/libimgui-dev/examples/backends)
  find_path(GEMMLAB_STB_INCLUDE stb_image_write.h PATH_SUFFIXES stb)
  find_library(GEMMLAB_STB_LIBRARY stb)
  find_program(GEMMLAB_GLAD glad)
  foreach(check IN ITEMS "glfw3_FOUND|GLFW (libglfw3-dev)" "OpenGL_OpenGL_FOUND|OpenGL (libgl-dev)"
                         "GEMMLAB_IMGUI_INCLUDE|Dear ImGui headers (libimgui-dev)"
                         "GEMMLAB_IMGUI_LIBRARY|Dear ImGui library (libimgui-dev)"
                         "GEMMLAB_IMGUI_BACKENDS|Dear ImGui backend sources (libimgui-dev)"
                         "GEMMLAB_STB_INCLUDE|stb headers (libstb-dev)" "GEMMLAB_STB_LIBRARY|stb library (libstb-dev)"
                         "GEMMLAB_GLAD|glad generator (python3-glad)")
    string(REPLACE "|" ";" fields "${check}")
    list(GET fields 0 var)
    list(GET fields 1 what)
    if(NOT ${var})
      list(APPEND gemmlab_desktop_missing "${what}")
    endif()
  endforeach()
endif()
if(gemmlab_desktop_missing)
  set(gemmlab_desktop_found FALSE)
else()
  set(gemmlab_desktop_found TRUE)
endif()
gemmlab_resolve(GEMMLAB_DESKTOP "${gemmlab_desktop_found}" "${gemmlab_desktop_missing}" GEMMLAB_HAVE_DESKTOP)

if(GEMMLAB_HAVE_DESKTOP)
  # The loader is generated, never committed; regenerated only when missing.
  set(GEMMLAB_GLAD_DIR ${CMAKE_BINARY_DIR}/glad)
  if(NOT EXISTS ${GEMMLAB_GLAD_DIR}/src/gl.c)
    message(STATUS "Generating the OpenGL 3.3 core loader with ${GEMMLAB_GLAD}")
    execute_process(COMMAND ${GEMMLAB_GLAD} --api gl:core=3.3 --out-path ${GEMMLAB_GLAD_DIR} --reproducible --quiet c
                    RESULT_VARIABLE glad_result OUTPUT_VARIABLE glad_output ERROR_VARIABLE glad_output)
    if(NOT glad_result EQUAL 0)
      file(REMOVE_RECURSE ${GEMMLAB_GLAD_DIR})
      message(FATAL_ERROR "glad failed (${glad_result}): ${glad_output}")
    endif()
  endif()
  add_library(gemmlab_glad STATIC ${GEMMLAB_GLAD_DIR}/src/gl.c)
  target_include_directories(gemmlab_glad SYSTEM PUBLIC ${GEMMLAB_GLAD_DIR}/include)

  # Dear ImGui and its two backends, compiled as third-party code (no gemmlab warnings).
  add_library(gemmlab_imgui STATIC ${GEMMLAB_IMGUI_BACKENDS}/imgui_impl_glfw.cpp
                                   ${GEMMLAB_IMGUI_BACKENDS}/imgui_impl_opengl3.cpp)
  target_include_directories(gemmlab_imgui SYSTEM PUBLIC ${GEMMLAB_IMGUI_INCLUDE} ${GEMMLAB_IMGUI_INCLUDE}/backends)
  target_link_libraries(gemmlab_imgui PUBLIC ${GEMMLAB_IMGUI_LIBRARY} ${GEMMLAB_STB_LIBRARY} glfw OpenGL::OpenGL
                                             ${CMAKE_DL_LIBS})

  add_library(gemmlab_stb INTERFACE)
  target_include_directories(gemmlab_stb SYSTEM INTERFACE ${GEMMLAB_STB_INCLUDE})
  target_link_libraries(gemmlab_stb INTERFACE ${GEMMLAB_STB_LIBRARY})
  gemmlab_part("desktop" ON "GLFW ${glfw3_VERSION}, Dear ImGui, glad loader")
else()
  if(GEMMLAB_DESKTOP STREQUAL "OFF")
    gemmlab_part("desktop" OFF "GEMMLAB_DESKTOP=OFF")
  else()
    gemmlab_part("desktop" OFF "missing: ${gemmlab_desktop_missing}")
  endif()
endif()
